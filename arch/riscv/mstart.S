/*
 * mstart.S - tinymm's own M-mode start for RISC-V boards with no firmware (QEMU virt -bios none,
 * RV32).  It does only what S-mode cannot do for itself, then drops to S-mode at _sstart, so the
 * rest of the kernel runs in S-mode on every RISC-V board:
 *   - PMP entry 0 covers all of memory (RWX, NAPOT), else S-mode may touch nothing;
 *   - mcounteren lets S-mode read cycle/time/instret;
 *   - menvcfg(h).STCE enables Sstc, so S-mode programs its own timer through stimecmp;
 *   - all exceptions and the S-level interrupts (SSIP, STIP, SEIP) are delegated to S-mode.
 * Nothing else is needed for S-mode interrupts: for a delegated interrupt S-mode's own `sie` is
 * the enable (it is mie's view of the delegated bits) and sstatus.SIE the global switch; M-mode
 * keeps its own interrupts off (mie = 0, mstatus.MIE = 0) and has no PLIC context enabled.
 * The timer needs mcounteren.TM as well as STCE: without TM, S-mode's stimecmp accesses trap.
 * M-mode traps (none are expected) go to riscv_mtrap(), which reports mcause/mtval/mepc.
 */
#include "asm.h"

	.section .text.entry, "ax"
	.global _start
_start:
	csrw	mie, zero
	/* One CPU for now: every hart but 0 parks here (they would share the boot stack). */
	csrr	t0, mhartid
	bnez	t0, park
	la	t0, mtrap_entry
	csrw	mtvec, t0
	mv	s2, a1			/* DTB */

	li	t0, -1
	csrw	pmpaddr0, t0
	li	t0, 0x1f		/* A = NAPOT, R W X */
	csrw	pmpcfg0, t0

	li	t0, 7			/* CY, TM, IR */
	csrw	mcounteren, t0
#if __riscv_xlen == 32
	li	t0, 0x80000000		/* menvcfgh.STCE (bit 63 of menvcfg) */
	csrs	0x31a, t0
#else
	li	t0, 1
	slli	t0, t0, 63
	csrs	0x30a, t0		/* menvcfg.STCE */
#endif
	li	t0, 0xb1ff		/* all synchronous exceptions but ecall from S and M */
	csrw	medeleg, t0
	li	t0, 0x222		/* SSIP, STIP, SEIP */
	csrw	mideleg, t0

	li	t0, 0x1800		/* mstatus.MPP = S (01) */
	csrc	mstatus, t0
	li	t0, 0x0800
	csrs	mstatus, t0
	la	t0, _sstart
	csrw	mepc, t0
	csrr	a0, mhartid
	mv	a1, s2
	mret

park:	wfi
	j	park

	.balign 4
mtrap_entry:
	la	sp, __mtrap_stack_top
	csrr	a0, mcause
	csrr	a1, mtval
	csrr	a2, mepc
	call	riscv_mtrap
1:	wfi
	j	1b

	.section .bss
	.balign 16
	.space 1024
__mtrap_stack_top:
