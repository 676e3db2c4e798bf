/*
 * entry.S - RISC-V S-mode start-up, shared by every RISC-V board: firmware (OpenSBI) or
 * tinymm's own M-mode start (mstart.S) enters _sstart with a0 = hart id, a1 = DTB, satp Bare,
 * at the image's physical address; the image is linked at its virtual one in the direct map
 * (linker/kernel.ld.in, docs/mmu.md).  Code here is PC-relative until paging is on (lla; the
 * linked addresses come from literals), and s3 = virtual - physical.  Then:
 *   - clear .bss (the boot table lives there) at its physical address;
 *   - build the boot table early_pg_dir: leaves of LEAF_SIZE (Sv39 1 GiB gigapages, Sv32 4 MiB
 *     megapages), RWX, global, A and D set: one identity leaf over the image's first byte (for
 *     the instructions right after satp is written), leaves over the image [_start_kernel, _end)
 *     and over the DTB at their direct-map addresses, and the fixmap's pte table (fixmap_pte; on
 *     Sv39 through early_fixmap_pmd) under FIXADDR_START;
 *   - write satp (Sv39 / Sv32, ASID 0), sfence.vma, jump to the virtual address;
 *   - set gp and the stack, install the trap vector, call kmain(hart id, DTB physical address).
 * arch_mm_init() maps the rest of RAM in early_pg_dir; paging_init() (pgtable.c) builds the
 * final W^X tables from the page allocator and switches to them.
 * A second hart at _sstart (firmware only; late_secondary): OpenSBI 1.1's HSM hart_start marks
 * the hart STARTING before it stores the address to start it at, so a hart that looks in
 * between leaves for the boot address, here, with the boot hart's arguments.  arch_cpu_boot()
 * wrote the hart's riscv_secondary_data before the call: the hart finds its slot by hart id
 * and goes where it was sent, as if the firmware had not raced.
 * Limits: PAGE_OFFSET and PHYS_OFFSET share their offset within a LEAF_SIZE, and the identity
 * leaf does not collide with a kernel one (true on RV32, where they are the same leaf, and on
 * Sv39, where identity is in the lower half).
 */
#include "asm.h"
#include "tinymm/thread_info.h"

#if __riscv_xlen == 64
#define LEAF_SHIFT	30
#define IDX_MASK	0x1ff
#define SATP_MODE_BOOT	(8 << 60)
#define FIX_ROOT_IDX	0x1ff		/* (FIXADDR_START >> 30) & 0x1ff, asm/pgtable.h */
#define FIX_PMD_IDX	0x1ff		/* (FIXADDR_START >> 21) & 0x1ff */
#else
#define LEAF_SHIFT	22
#define IDX_MASK	0x3ff
#define SATP_MODE_BOOT	(1 << 31)
#define FIX_ROOT_IDX	0x3ff		/* FIXADDR_START >> 22 */
#endif
#define BOOT_LEAF	0xef		/* V R W X G A D */
#if __riscv_xlen == 64
#define LOG_SZREG	3
#define PTR		.dword
#else
#define LOG_SZREG	2
#define PTR		.word
#endif

	.section .text.entry.s, "ax"
	.global _sstart
#ifndef TINYMM_MSTART
	.global _start
_start:
#endif
_sstart:
	csrw	sie, zero
	csrci	sstatus, 2		/* SIE off */
	csrw	satp, zero
#ifndef TINYMM_MSTART
	/* Only the first hart here boots: see late_secondary below. */
	lla	t0, boot_hart_claimed
	li	t1, 1
	amoswap.w.aqrl t1, t1, (t0)
	bnez	t1, late_secondary
#endif
	mv	s1, a0
	mv	s2, a1
	lla	t0, _sstart		/* where we run: physical */
	REG_L	t1, sstart_link		/* where we are linked: virtual */
	sub	s3, t1, t0

	lla	t0, __bss_start
	lla	t1, __bss_end
1:	bgeu	t0, t1, 2f
	REG_S	zero, 0(t0)
	addi	t0, t0, SZREG
	j	1b
2:
	lla	s4, early_pg_dir
	/* identity: the leaf holding _sstart's physical address */
	lla	a0, _sstart
	mv	a1, a0
	call	boot_map_leaf
	/* the image at its virtual addresses: [_start_kernel, _end) */
	lla	s5, _start_kernel
	lla	s6, _end
3:	add	a0, s5, s3
	mv	a1, s5
	call	boot_map_leaf
	li	t0, 1 << LEAF_SHIFT
	add	s5, s5, t0
	bltu	s5, s6, 3b
	/* the DTB, all DT_MAX_SIZE (1 MiB) of it: it is read before arch_mm_init maps the rest */
	beqz	s2, 4f
	add	a0, s2, s3
	mv	a1, s2
	call	boot_map_leaf
	li	t0, 0xfffff
	add	s5, s2, t0
	add	a0, s5, s3
	mv	a1, s5
	call	boot_map_leaf
4:	/* the fixmap's pte table */
	lla	t0, fixmap_pte
	srli	t0, t0, 2
	ori	t0, t0, 1		/* V: a table */
#if __riscv_xlen == 64
	lla	t1, early_fixmap_pmd
	li	t2, FIX_PMD_IDX * SZREG
	add	t2, t2, t1
	REG_S	t0, 0(t2)
	srli	t0, t1, 2
	ori	t0, t0, 1
#endif
	li	t2, FIX_ROOT_IDX * SZREG
	add	t2, t2, s4
	REG_S	t0, 0(t2)

	srli	t0, s4, 12
	li	t1, SATP_MODE_BOOT
	or	t0, t0, t1
	sfence.vma
	csrw	satp, t0
	sfence.vma
	REG_L	t0, virtual_link
	jr	t0

virtual_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, __boot_stack_top
	la	tp, init_task		/* current: the boot CPU's idle task (asm/current.h) */
	csrw	sscratch, zero		/* S-mode (the trap entry's convention) */
	la	t0, riscv_trap_entry
	csrw	stvec, t0
	li	s0, 0			/* end of the frame-pointer chain */
	mv	a0, s1
	mv	a1, s2
	call	kmain
5:	wfi
	j	5b

/*
 * boot_map_leaf(va = a0, pa = a1): early_pg_dir (s4) gets the leaf over @va mapping the leaf
 * over @pa.  No stack: t registers only, returns through ra.
 */
boot_map_leaf:
	srli	t0, a0, LEAF_SHIFT
	andi	t0, t0, IDX_MASK
	slli	t0, t0, LOG_SZREG
	add	t0, t0, s4
	srli	t1, a1, LEAF_SHIFT
	slli	t1, t1, LEAF_SHIFT - 2	/* PPN at bit 10: pa >> 12 << 10 */
	ori	t1, t1, BOOT_LEAF
	REG_S	t1, 0(t0)
	ret

	.balign SZREG
sstart_link:
	PTR	_sstart
virtual_link:
	PTR	virtual_start

	.section .bss
	.balign 4096
	.global early_pg_dir
early_pg_dir:
	.space	4096
#if __riscv_xlen == 64
early_fixmap_pmd:
	.space	4096
#endif

/*
 * Trap entry (stvec, direct mode), v6.10's sscratch convention (docs/arch-user-riscv.md):
 * in S-mode tp is current (asm/current.h) and sscratch is 0; while a task runs in U-mode
 * sscratch holds its task_struct (current) and tp is the user's.  One csrrw swaps them:
 * non-zero means the trap came from U-mode (handle_user_trap below); zero means S-mode, and
 * tp comes back from sscratch, which is left 0.
 *
 * From S-mode: on the current kernel stack.  Push the frame described in asm.h, call
 * riscv_trap(frame), and for an interrupt (riscv_trap returns) restore everything from the
 * frame and sret.  sepc and sstatus come from the frame, not the CSRs: irq_exit() may have
 * switched threads, and the traps taken by other threads meanwhile overwrote both.  gp is
 * neither reloaded nor restored: in S-mode it is always the kernel's (set in _sstart; only the
 * user path below changes it, and it reloads it first).  The hardware cleared sstatus.SIE on
 * entry and nothing sets it before the sret, which sets it back from SPIE.  sstatus.SUM is
 * cleared (the old value is in the frame and comes back with the sret): a trap inside a user
 * copy must not let the handler, or a thread it switches to, touch user memory (v6.10 too).
 */
	.section .text, "ax"
	.balign 4
	.global riscv_trap_entry
riscv_trap_entry:
	csrrw	tp, sscratch, tp
	bnez	tp, handle_user_trap
	/*
	 * Room for the frame on the current stack?  thread_info.stack_lo is the running thread's
	 * stack bottom (0 means unchecked): an sp less than a frame above it has
	 * overflowed, or would with the frame (with vmalloc stacks: the store into the guard page
	 * below the stack that faulted to get here), and pushing anything would fault again, for
	 * ever, or corrupt what lies below.  tp (the kernel's is in sscratch meanwhile) holds the
	 * bound.  v6.10 tests a bit of sp instead (its vmalloc stacks are aligned to twice their
	 * size); tinymm's stacks are 8 or 16 KiB and, until RISC-V paging is on, from the page
	 * allocator (aligned to their size only), so it compares.
	 */
	csrr	tp, sscratch		/* current (thread_info.h) */
	REG_L	tp, TI_STACK_LO(tp)
	addi	tp, tp, FRAME_WORDS * SZREG
	bltu	sp, tp, handle_kernel_stack_overflow
	csrrw	tp, sscratch, zero
	addi	sp, sp, -FRAME_WORDS * SZREG
#ifdef CONFIG_IRQSOFF_TRACER
	/* The irqsoff tracer's clock, read before the saves: the hardware masked at the trap.  a0
	 * (saved first, left out of the loop) carries it to trace_irqsoff_trap_entry below. */
	REG_S	x10, 10 * SZREG(sp)
	rdinstret a0
	REG_S	x1, 1 * SZREG(sp)
	.irp n, 3,4,5,6,7,8,9,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
#else
	REG_S	x1, 1 * SZREG(sp)
	.irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
#endif
	REG_S	x\n, \n * SZREG(sp)
	.endr
	addi	t0, sp, FRAME_WORDS * SZREG
	REG_S	t0, 2 * SZREG(sp)	/* the interrupted sp */
	li	t1, SR_SUM
	csrrc	t1, sstatus, t1
	csrr	t2, scause
	csrr	t3, stval
	csrr	t4, sepc
	REG_S	t1, FRAME_SSTATUS * SZREG(sp)
	REG_S	t2, FRAME_SCAUSE * SZREG(sp)
	REG_S	t3, FRAME_STVAL * SZREG(sp)
	REG_S	s0, FRAME_FP * SZREG(sp)	/* frame record: caller's fp, "return address" */
	REG_S	t4, FRAME_EPC * SZREG(sp)
	mv	s0, t0
#ifdef CONFIG_IRQSOFF_TRACER
	bgez	t2, 1f			/* an exception (fatal, or back to its KTAP case): no section */
	call	trace_irqsoff_trap_entry
1:
#endif
	mv	a0, sp
	call	riscv_trap
	.global riscv_trap_return	/* riscv_trap's return address: stacktrace.c knows the frame */
riscv_trap_return:
#ifdef CONFIG_IRQSOFF_TRACER
	call	trace_irqsoff_trap_exit	/* only interrupts return here; the sret unmasks */
#endif

	REG_L	t0, FRAME_EPC * SZREG(sp)
	REG_L	t1, FRAME_SSTATUS * SZREG(sp)
	csrw	sepc, t0
	csrw	sstatus, t1		/* SIE is clear in the saved value: still masked */
	REG_L	x1, 1 * SZREG(sp)
	.irp n, 4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	REG_L	x\n, \n * SZREG(sp)
	.endr
	addi	sp, sp, FRAME_WORDS * SZREG
	sret

/*
 * From U-mode: tp is current, whose thread_info.kernel_sp is its pt_regs at the top of its
 * kernel stack (empty: nothing of the kernel's is live on it while the task runs in U-mode),
 * sscratch the user's tp; the user's sp waits in thread_info.user_sp.  Save every
 * user register there, sscratch back to 0, SUM off, the kernel's gp (the user's is its own
 * program's __global_pointer$), then riscv_user_trap(regs) (user.c), on the stack below
 * pt_regs, handles the trap with interrupts enabled as it sees fit and returns masked.  No
 * stack check: the stack is empty.
 */
handle_user_trap:
	REG_S	sp, TI_USER_SP(tp)
	REG_L	sp, TI_KERNEL_SP(tp)
	REG_S	x1, 1 * SZREG(sp)
	.irp n, 3,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	REG_S	x\n, \n * SZREG(sp)
	.endr
	REG_L	t0, TI_USER_SP(tp)
	REG_S	t0, 2 * SZREG(sp)	/* the user's sp */
	csrrw	t0, sscratch, zero
	REG_S	t0, 4 * SZREG(sp)	/* the user's tp */
	li	t1, SR_SUM
	csrrc	t1, sstatus, t1
	csrr	t2, scause
	csrr	t3, stval
	csrr	t4, sepc
	REG_S	t1, FRAME_SSTATUS * SZREG(sp)
	REG_S	t2, FRAME_SCAUSE * SZREG(sp)
	REG_S	t3, FRAME_STVAL * SZREG(sp)
	REG_S	zero, FRAME_FP * SZREG(sp)	/* frame record {0, sepc}: a backtrace ends here */
	REG_S	t4, FRAME_EPC * SZREG(sp)
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	addi	s0, sp, FRAME_WORDS * SZREG
#ifdef CONFIG_IRQSOFF_TRACER
	/* The hardware masked at the trap, whatever the cause: a section until the C handler
	 * unmasks (or the sret, below).  System calls take the C path too (a0-a7 are gone). */
	rdinstret a0
	call	trace_irqsoff_trap_entry
#else
	/*
	 * ecall from U-mode (scause 8, still in t2; sepc in t4): v6.10's handle_syscall, here
	 * rather than in C because it is the hot path (the syscall-getpid bench row).  The user's
	 * a0-a5 and a7 are still live: sepc past the ecall, interrupts on,
	 * a0 = invoke_syscall(a7, a0..a5), masked again; back to U-mode unless a reschedule is
	 * due, preempt_count is off or the task has a SIGKILL to take (the OOM killer chose it
	 * while it was in this call, or while another task ran): riscv_user_exit_slow, user.c's
	 * exit_to_user_mode, as every other return to U-mode goes.  The last two are one halfword
	 * (thread_info's exit_work, include/tinymm/thread_info.h): one load tests both.
	 */
	li	t0, 8
	bne	t2, t0, 1f
	addi	t4, t4, 4
	REG_S	t4, FRAME_EPC * SZREG(sp)
	csrsi	sstatus, 2		/* SIE (asm/irqflags.h) */
	mv	a6, a5
	mv	a5, a4
	mv	a4, a3
	mv	a3, a2
	mv	a2, a1
	mv	a1, a0
	mv	a0, a7
	call	invoke_syscall
	REG_S	a0, 10 * SZREG(sp)
	csrci	sstatus, 2
	lw	t0, TI_PREEMPT_COUNT(tp)
	lhu	t1, TI_EXIT_WORK(tp)
	or	t0, t0, t1
	beqz	t0, riscv_ret_to_user
	call	riscv_user_exit_slow
	j	riscv_ret_to_user
1:
#endif
	mv	a0, sp
	call	riscv_user_trap
	/* fall through, interrupts masked */

/*
 * riscv_ret_to_user(regs = a0 or sp): back to U-mode with the pt_regs at the top of the
 * current task's kernel stack.  Interrupts are masked (sstatus.SIE clear, and clear in the
 * saved sstatus, whose SPIE sets it again in U-mode); thread_info.kernel_sp becomes the pt_regs
 * and sscratch current, so the next trap finds them; the user's gp and tp come back with the
 * rest.  arch_ret_to_user() enters
 * here with a0 = current_pt_regs().
 */
	.global riscv_ret_to_user
riscv_ret_to_user:
	mv	a0, sp
	.global riscv_ret_to_user_regs
riscv_ret_to_user_regs:
	mv	sp, a0
#ifdef CONFIG_IRQSOFF_TRACER
	call	trace_irqsoff_trap_exit	/* the sret unmasks (in U-mode) */
#endif
	REG_L	t0, FRAME_EPC * SZREG(sp)
	REG_L	t1, FRAME_SSTATUS * SZREG(sp)
	csrw	sepc, t0
	csrw	sstatus, t1
	REG_S	sp, TI_KERNEL_SP(tp)
	csrw	sscratch, tp
	REG_L	x1, 1 * SZREG(sp)
	.irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	REG_L	x\n, \n * SZREG(sp)
	.endr
	REG_L	sp, 2 * SZREG(sp)
	sret

/*
 * The trap found no room on the thread's stack (above): build the same frame on the overflow
 * stack (v6.10's handle_kernel_stack_overflow; one CPU, so one stack, in traps.c) and report
 * (handle_bad_stack, which never returns).  t0 waits in sscratch while the overflowed sp is kept
 * in it until it is saved as the frame's sp.
 */
handle_kernel_stack_overflow:
	csrrw	tp, sscratch, zero	/* the kernel's tp back; sscratch 0 (S-mode) */
	csrw	sscratch, t0		/* t0 waits there while it holds the overflowed sp */
	mv	t0, sp
	la	sp, riscv_overflow_stack + OVERFLOW_STACK_SIZE
	addi	sp, sp, -FRAME_WORDS * SZREG
	REG_S	t0, 2 * SZREG(sp)	/* the interrupted sp */
	csrrw	t0, sscratch, zero	/* sscratch 0 again: a trap from here on is S-mode's */
	REG_S	x1, 1 * SZREG(sp)
	.irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	REG_S	x\n, \n * SZREG(sp)
	.endr
	csrr	t1, sstatus
	csrr	t2, scause
	csrr	t3, stval
	csrr	t4, sepc
	REG_S	t1, FRAME_SSTATUS * SZREG(sp)
	REG_S	t2, FRAME_SCAUSE * SZREG(sp)
	REG_S	t3, FRAME_STVAL * SZREG(sp)
	REG_S	s0, FRAME_FP * SZREG(sp)
	REG_S	t4, FRAME_EPC * SZREG(sp)
	addi	s0, sp, FRAME_WORDS * SZREG
	mv	a0, sp
	call	handle_bad_stack
1:	wfi
	j	1b

#ifndef TINYMM_MSTART
#define SD_HART_TAG	4		/* struct riscv_secondary_data (riscv.h), in registers */
#define SD_ENTRY	5
#define SD_WORDS	6
	.section .text.entry.s, "ax"
	.balign 4
late_secondary:
	addi	t2, a0, 1		/* this hart's tag */
1:	lla	t0, riscv_secondary_data
	li	t1, CONFIG_NR_CPUS
2:	REG_L	t3, SD_HART_TAG * SZREG(t0)
	beq	t3, t2, 3f
	addi	t0, t0, SD_WORDS * SZREG
	addi	t1, t1, -1
	bnez	t1, 2b
	j	1b			/* not there yet: look again */
3:	fence	r, r			/* the tag, then the rest of the slot */
	mv	a1, t0
	REG_L	t3, SD_ENTRY * SZREG(t0)
	jr	t3

	.section .data
	.balign 4
boot_hart_claimed:
	.word	0
#endif
