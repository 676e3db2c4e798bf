/*
 * entry.S - RISC-V S-mode start-up, shared by every RISC-V board: firmware (OpenSBI) or
 * tinymm's own M-mode start (mstart.S) enters _sstart with a0 = hart id, a1 = DTB.
 * Mask interrupts, set gp and the stack, clear .bss, install the trap vector, call kmain.
 */
#include "asm.h"

	.section .text.entry.s, "ax"
	.global _sstart
#ifndef TINYMM_MSTART
	.global _start
_start:
#endif
_sstart:
	csrw	sie, zero
	csrci	sstatus, 2		/* SIE off */
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, __boot_stack_top
	mv	s1, a0
	mv	s2, a1

	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	REG_S	zero, 0(t0)
	addi	t0, t0, SZREG
	j	1b
2:
	la	t0, riscv_trap_entry
	csrw	stvec, t0
	li	s0, 0			/* end of the frame-pointer chain */
	mv	a0, s1
	mv	a1, s2
	call	kmain
3:	wfi
	j	3b

/*
 * Trap entry (stvec, direct mode): interrupts and exceptions taken in S-mode, always on the
 * current kernel stack.  Push the frame described in asm.h, call riscv_trap(frame), and for an
 * interrupt (riscv_trap returns) restore everything from the frame and sret.  sepc and sstatus
 * come from the frame, not the CSRs: irq_exit() may have switched threads, and the traps taken
 * by other threads meanwhile overwrote both.  gp is neither reloaded nor restored: it is set once
 * in _sstart and never changes (the linker relaxes accesses against it).  The hardware cleared
 * sstatus.SIE on entry and nothing sets it before the sret, which sets it back from SPIE.
 */
	.section .text, "ax"
	.balign 4
	.global riscv_trap_entry
riscv_trap_entry:
	/*
	 * Room for the frame on the current stack?  riscv_stack_lo is the running thread's stack
	 * bottom (switch.S keeps it; 0 means unchecked): an sp less than a frame above it has
	 * overflowed, or would with the frame (with vmalloc stacks: the store into the guard page
	 * below the stack that faulted to get here), and pushing anything would fault again, for
	 * ever, or corrupt what lies below.  t0 waits in sscratch (unused otherwise: tinymm has no
	 * user mode yet) while it holds the bound.  v6.10 tests a bit of sp instead (its vmalloc
	 * stacks are aligned to twice their size); tinymm's stacks are 8 or 16 KiB and, until RISC-V
	 * paging is on, from the page allocator (aligned to their size only), so it compares.
	 */
	csrw	sscratch, t0
	REG_L	t0, riscv_stack_lo
	addi	t0, t0, FRAME_WORDS * SZREG
	bltu	sp, t0, handle_kernel_stack_overflow
	csrr	t0, sscratch
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
	csrr	t1, sstatus
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
 * The trap found no room on the thread's stack (above): build the same frame on the overflow
 * stack (v6.10's handle_kernel_stack_overflow; one CPU, so one stack, in traps.c) and report
 * (handle_bad_stack, which never returns).  t0 is still in sscratch; the overflowed sp is kept
 * in t0 until it is saved as the frame's sp.
 */
handle_kernel_stack_overflow:
	mv	t0, sp
	la	sp, riscv_overflow_stack + OVERFLOW_STACK_SIZE
	addi	sp, sp, -FRAME_WORDS * SZREG
	REG_S	t0, 2 * SZREG(sp)	/* the interrupted sp */
	csrr	t0, sscratch
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
