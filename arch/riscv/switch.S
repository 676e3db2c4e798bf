/*
 * switch.S - kernel thread switching for RV32 and RV64 (include/tinymm/arch.h, "Threads").
 *
 * struct arch_context (asm/context.h) holds ra, sp and s0-s11: everything a C caller expects
 * arch_context_switch() to preserve.  The caller-saved registers are dead across the call, and a
 * thread switched out from an interrupt has its full trap frame (with sepc and sstatus) on its
 * own stack below that, pushed by riscv_trap_entry.  sstatus.SIE is not part of the context:
 * the switch is always called with interrupts masked and the resumed code restores its own.
 * gp and tp are left alone: in S-mode gp is always the kernel's, and tp is current, which the
 * scheduler sets for next just before calling here (asm/current.h); a user task's own gp and tp
 * are in its pt_regs (entry.S).
 */
#include "asm.h"

#define CTX_RA	0
#define CTX_SP	1
#define CTX_S(n)	(2 + (n))

	.section .text.arch_context_switch, "ax"
	.balign 4
	.global arch_context_switch
	.type arch_context_switch, @function
/* void arch_context_switch(struct arch_context *prev (a0), struct arch_context *next (a1)) */
arch_context_switch:
	REG_S	ra, CTX_RA * SZREG(a0)
	REG_S	sp, CTX_SP * SZREG(a0)
	REG_S	s0, CTX_S(0) * SZREG(a0)
	REG_S	s1, CTX_S(1) * SZREG(a0)
	REG_S	s2, CTX_S(2) * SZREG(a0)
	REG_S	s3, CTX_S(3) * SZREG(a0)
	REG_S	s4, CTX_S(4) * SZREG(a0)
	REG_S	s5, CTX_S(5) * SZREG(a0)
	REG_S	s6, CTX_S(6) * SZREG(a0)
	REG_S	s7, CTX_S(7) * SZREG(a0)
	REG_S	s8, CTX_S(8) * SZREG(a0)
	REG_S	s9, CTX_S(9) * SZREG(a0)
	REG_S	s10, CTX_S(10) * SZREG(a0)
	REG_S	s11, CTX_S(11) * SZREG(a0)
	REG_L	ra, CTX_RA * SZREG(a1)
	REG_L	sp, CTX_SP * SZREG(a1)
	REG_L	s0, CTX_S(0) * SZREG(a1)
	REG_L	s1, CTX_S(1) * SZREG(a1)
	REG_L	s2, CTX_S(2) * SZREG(a1)
	REG_L	s3, CTX_S(3) * SZREG(a1)
	REG_L	s4, CTX_S(4) * SZREG(a1)
	REG_L	s5, CTX_S(5) * SZREG(a1)
	REG_L	s6, CTX_S(6) * SZREG(a1)
	REG_L	s7, CTX_S(7) * SZREG(a1)
	REG_L	s8, CTX_S(8) * SZREG(a1)
	REG_L	s9, CTX_S(9) * SZREG(a1)
	REG_L	s10, CTX_S(10) * SZREG(a1)
	REG_L	s11, CTX_S(11) * SZREG(a1)
	ret
	.size arch_context_switch, . - arch_context_switch

/*
 * void arch_context_init(struct arch_context *ctx (a0), uintptr_t stack_lo (a1),
 *                        uintptr_t stack_top (a2), void (*entry)(void) (a3))
 * The first switch to @ctx "returns" into riscv_thread_start with sp = stack_top less a struct
 * pt_regs (asm/ptrace.h: the frame's size), s0 = 0 and s1 = entry; every other register of the
 * context is zero.  The pt_regs at the top are the thread's user registers should it become a
 * user task (include/tinymm/arch.h): the trap from U-mode saves them there, on an empty stack.
 */
	.section .text.arch_context_init, "ax"
	.balign 4
	.global arch_context_init
	.type arch_context_init, @function
arch_context_init:
	la	t0, riscv_thread_start
	REG_S	t0, CTX_RA * SZREG(a0)
	addi	a2, a2, -FRAME_WORDS * SZREG	/* room for struct pt_regs */
	REG_S	a2, CTX_SP * SZREG(a0)
	REG_S	zero, CTX_S(0) * SZREG(a0)
	REG_S	a3, CTX_S(1) * SZREG(a0)
	.irp n, 2,3,4,5,6,7,8,9,10,11
	REG_S	zero, CTX_S(\n) * SZREG(a0)
	.endr
	ret
	.size arch_context_init, . - arch_context_init

/*
 * A new thread's first instructions: call entry() with ra = 0 and s0 = 0, so entry's frame
 * record {ra 0, fp 0} ends every backtrace.  Interrupts are still masked (the switch ran with
 * them masked); entry() never returns.
 */
	.section .text.riscv_thread_start, "ax"
	.balign 4
	.type riscv_thread_start, @function
riscv_thread_start:
	mv	ra, zero
	mv	s0, zero
	jr	s1
	.size riscv_thread_start, . - riscv_thread_start
