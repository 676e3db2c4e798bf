/*
 * entry-user.S - exceptions taken in USR mode and the way back (docs/user-arm.md).
 *
 * entry.S's vectors send every exception whose SPSR says USR here (and a data abort of a
 * uaccess instruction to __dabt_uaccess).  A user task's kernel stack is empty while it runs in
 * USR mode: sp_svc is the top of its stack, so the entry builds struct pt_regs (asm/ptrace.h)
 * just below it, which is current_pt_regs():
 *   - from SVC (a system call) the exception is already in SVC mode: lr_svc is the user pc,
 *     SPSR_svc the user CPSR;
 *   - from IRQ, ABT and UND mode the return pc, r0 and SPSR go through three words just below
 *     that mode's stack (the shared exception stack, entry.S; exceptions are masked until the
 *     switch, so nothing else uses it meanwhile), then `cps` moves to SVC mode, as v6.10's
 *     vector_stub does.
 * USR's sp and lr are banked: `stm ..., {sp, lr}^` stores USR's copies from SVC mode and
 * `ldm ..., {r0-lr}^` loads them back.  Every path ends in ret_to_user: interrupts masked,
 * arm_exit_to_user_mode() (reschedule while asked, CPSR sanitised), the registers, CLREX (an
 * exclusive monitor left open by the kernel must not let a user STREX succeed), then
 * `movs pc, lr`: pc and CPSR (USR) from SPSR together, sp_svc back at the stack's top.
 * fp = 0 before the C calls: a backtrace ends at the user entry.
 */
	.syntax unified
	.arm
#include <asm/ptrace.h>

	.section .text, "ax"

/* In IRQ, ABT or UND mode with lr = the user pc to resume: build pt_regs on the SVC stack. */
.macro usr_entry
	stmdb	sp, {r0, lr}		/* [sp - 8] user r0, [sp - 4] user pc */
	mrs	lr, spsr
	str	lr, [sp, #-12]		/* the user CPSR */
	sub	r0, sp, #12
	cps	#0x13			/* SVC, interrupts still masked */
	sub	sp, sp, #PT_REGS_SIZE
	stmib	sp, {r1-r12}
	ldmia	r0, {r3-r5}		/* CPSR, r0, pc */
	add	r0, sp, #S_SP
	stmia	r0, {sp, lr}^		/* USR's banked sp and lr */
	str	r4, [sp, #S_R0]
	str	r5, [sp, #S_PC]
	str	r3, [sp, #S_PSR]
	mvn	r6, #0
	str	r6, [sp, #S_OLD_R0]
	mov	fp, #0
.endm

/* A system call: EABI number in r7, arguments r0-r5 (arm_syscall, user.c), interrupts on. */
	.global __svc_usr
__svc_usr:
	sub	sp, sp, #PT_REGS_SIZE
	stmia	sp, {r0-r12}
	add	r8, sp, #S_SP
	stmia	r8, {sp, lr}^
	mrs	r9, spsr
	str	lr, [sp, #S_PC]		/* lr_svc: the instruction after the svc */
	str	r9, [sp, #S_PSR]
	str	r0, [sp, #S_OLD_R0]
	mov	fp, #0
	mov	r0, sp
	cpsie	i
	bl	arm_syscall
	b	ret_to_user

/* An interrupt: handled with interrupts masked as from the kernel (irq_exit() may switch). */
	.global __irq_usr
__irq_usr:
	sub	lr, lr, #4
	usr_entry
	bl	arm_irq_handler
	b	ret_to_user

	.global __dabt_usr
__dabt_usr:
	sub	lr, lr, #8
	usr_entry
	mov	r0, sp
	bl	arm_user_dabt
	b	ret_to_user

	.global __pabt_usr
__pabt_usr:
	sub	lr, lr, #4
	usr_entry
	mov	r0, sp
	bl	arm_user_pabt
	b	ret_to_user

/* lr - 4 is the instruction in ARM state; user.c adds 2 back for Thumb. */
	.global __und_usr
__und_usr:
	sub	lr, lr, #4
	usr_entry
	mov	r0, sp
	bl	arm_user_undef
	b	ret_to_user

/*
 * Back to user mode from current_pt_regs() at sp (the stack holds nothing else).  Interrupts
 * masked from the need-resched check to the return, so no wake-up is missed in between.
 */
	.global ret_to_user
ret_to_user:
	cpsid	i
	mov	r0, sp
	bl	arm_exit_to_user_mode
	ldr	r1, [sp, #S_PSR]
	ldr	lr, [sp, #S_PC]
	msr	spsr_cxsf, r1
	clrex
	ldmia	sp, {r0-lr}^		/* USR's r0-r14 */
	nop
	add	sp, sp, #PT_REGS_SIZE	/* sp_svc: the stack's top again */
	movs	pc, lr

/* void arm_ret_to_user_regs(struct pt_regs *regs): arch_ret_to_user()'s jump; never returns. */
	.global arm_ret_to_user_regs
arm_ret_to_user_regs:
	mov	sp, r0
	mov	fp, #0
	b	ret_to_user

/*
 * A data abort in SVC mode on an instruction of the exception table (a uaccess LDRT/STRT,
 * uaccess.S; entry.S checked), entered in ABT mode with lr = that instruction.  The fault is
 * resolved on the interrupted thread's SVC stack, where it may sleep (a page read from a
 * file), never on the exception stack: frame {r0-r12, lr_svc, pc, cpsr}, 64 bytes below the
 * uaccess routine's sp (8-byte aligned there: uaccess.S pushes pairs).  arm_uaccess_abort()
 * (user.c) leaves pc alone to retry or sets it to the fixup; RFE restores pc and CPSR.
 */
	.global __dabt_uaccess
__dabt_uaccess:
	stmdb	sp, {r0, lr}
	mrs	lr, spsr
	str	lr, [sp, #-12]
	sub	r0, sp, #12
	cps	#0x13
	sub	sp, sp, #64
	stmib	sp, {r1-r12}
	str	lr, [sp, #52]		/* lr_svc, live in the routine */
	ldmia	r0, {r3-r5}		/* CPSR, r0, pc */
	str	r4, [sp]
	str	r5, [sp, #56]
	str	r3, [sp, #60]
	mov	r0, sp
	bl	arm_uaccess_abort
	ldr	lr, [sp, #52]
	ldmia	sp, {r0-r12}
	add	sp, sp, #56
	rfeia	sp!
