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

/* Trap entry: save every register to a frame on the current stack, call riscv_trap(frame). */
	.section .text, "ax"
	.balign 4
	.global riscv_trap_entry
riscv_trap_entry:
	addi	sp, sp, -32 * SZREG
	REG_S	x1, 1 * SZREG(sp)
	.irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	REG_S	x\n, \n * SZREG(sp)
	.endr
	addi	t0, sp, 32 * SZREG
	REG_S	t0, 2 * SZREG(sp)	/* the interrupted sp */
	mv	a0, sp
	call	riscv_trap
4:	wfi
	j	4b
