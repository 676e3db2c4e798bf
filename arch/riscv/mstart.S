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
 * has no PLIC context enabled and keeps one interrupt of its own, below.
 * The timer needs mcounteren.TM as well as STCE: without TM, S-mode's stimecmp accesses trap.
 *
 * SMP (docs/smp.md, "RISC-V"): every hart starts here at reset.  Hart 0 boots; the others park
 * in M-mode, in wfi with only mie.MSIE enabled (so they cost the host nothing), until S-mode
 * writes their slot of riscv_hart_release[] ({S-mode entry, argument}, physical addresses) and
 * raises their CLINT MSIP (arch/riscv/smp.c).  A released hart does the same M-mode set-up as
 * hart 0 and enters S-mode at the slot's entry with a0 = hart id, a1 = the argument.
 * IPIs are an M-mode MSIP -> SSIP forwarder (this file; the alternative, QEMU's ACLINT SSWI
 * with -M virt,aclint=on, would change the machine every RV32 test boots): S-mode writes the
 * target's CLINT MSIP word (PMP entry 0 lets it); the target, in S-mode, takes the M-level
 * software interrupt (always enabled below M), and mtrap_entry clears MSIP and sets mip.SSIP,
 * which S-mode sees as its own software interrupt (delegated).  mscratch points at the hart's
 * two-word save area for that; riscv_clint_base (S-mode fills it from the device tree before
 * any MSIP is raised) says where the MSIP words are.
 * The same interrupt carries the remote fences S-mode needs while its own interrupts are masked
 * (smp.c, riscv_remote_fence: what the SBI's RFENCE extension gives RV64): before forwarding,
 * mtrap_entry takes its riscv_hart_rfence[] word (swapped with 0, which the sender waits for)
 * and runs the fences it asks for (1 sfence.vma, 2 fence.i) before it returns to S-mode.  M-mode takes the interrupt whatever
 * S-mode's sstatus.SIE is, so two harts fencing each other with interrupts masked cannot
 * deadlock.
 * Other M-mode traps (none are expected) go to riscv_mtrap(), which reports mcause/mtval/mepc.
 * Hart ids of RISCV_MAX_HARTS and above park for good (no slot, no save area).
 */
#include "asm.h"

#define RISCV_MAX_HARTS	8		/* riscv_hart_release[]'s size: QEMU virt's most harts */
#define MIP_MSIP	0x8
#define MIP_SSIP	0x2
#if __riscv_xlen == 64
#define SLOT_SHIFT	4		/* two words a hart */
#define AMOSWAP		amoswap.d.aqrl
#else
#define SLOT_SHIFT	3
#define AMOSWAP		amoswap.w.aqrl
#endif

	.section .text.entry, "ax"
	.global _start
_start:
	csrw	mie, zero
	csrr	t0, mhartid
	bnez	t0, park
	mv	s2, a1			/* DTB */
	call	m_setup
	la	t0, _sstart
	csrw	mepc, t0
	csrr	a0, mhartid
	mv	a1, s2
	mret

/* A non-boot hart: wait (MSIP wakes the wfi) until its release slot holds an entry. */
park:
	li	t1, RISCV_MAX_HARTS
	bgeu	t0, t1, park_forever
	li	t1, MIP_MSIP
	csrw	mie, t1			/* wfi wakes on MSIP; mstatus.MIE is 0: no trap */
	la	s1, riscv_hart_release
	slli	t1, t0, SLOT_SHIFT
	add	s1, s1, t1
1:	fence	rw, rw
	REG_L	t1, 0(s1)
	bnez	t1, released
	wfi
	/* any MSIP is consumed here: the release is the only reason one is raised now */
	la	t1, riscv_clint_base
	REG_L	t1, 0(t1)
	beqz	t1, 1b
	csrr	t2, mhartid
	slli	t2, t2, 2
	add	t1, t1, t2
	sw	zero, 0(t1)
	j	1b
released:
	fence	rw, rw
	REG_L	s2, SZREG(s1)		/* the argument */
	REG_L	s3, 0(s1)		/* the entry */
	call	m_setup
	csrw	mepc, s3
	csrr	a0, mhartid
	mv	a1, s2
	mret

park_forever:
	wfi
	j	park_forever

/* What every hart needs before S-mode (t registers only; returns through ra). */
m_setup:
	la	t0, mtrap_entry
	csrw	mtvec, t0
	csrr	t0, mhartid
	slli	t0, t0, SLOT_SHIFT
	la	t1, mtrap_save
	add	t0, t0, t1
	csrw	mscratch, t0

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
	li	t0, MIP_MSIP		/* the IPI forwarder's interrupt, taken only below M */
	csrw	mie, t0

	li	t0, 0x1800		/* mstatus.MPP = S (01) */
	csrc	mstatus, t0
	li	t0, 0x0800
	csrs	mstatus, t0
	ret

	.balign 4
mtrap_entry:
	csrrw	sp, mscratch, sp	/* sp: this hart's save area; mscratch: S-mode's sp */
	REG_S	t0, 0(sp)
	REG_S	t1, SZREG(sp)
	csrr	t0, mcause
	bgez	t0, mtrap_fatal		/* an exception */
	slli	t0, t0, 1
	li	t1, 3 << 1		/* machine software interrupt */
	bne	t0, t1, mtrap_fatal
	la	t0, riscv_clint_base
	REG_L	t0, 0(t0)
	csrr	t1, mhartid
	slli	t1, t1, 2
	add	t0, t0, t1
	sw	zero, 0(t0)		/* MSIP off: the write reaches the CLINT before the mret */
	la	t0, riscv_hart_rfence
	csrr	t1, mhartid
	slli	t1, t1, SLOT_SHIFT - 1	/* one word a hart */
	add	t0, t0, t1
	/* Take the requests in one swap: one ORed in after it raises MSIP again (after the clear
	 * above), so none is lost; the sender sees 0 while this hart is still in M-mode, where it
	 * translates nothing, and it fences before it returns to S-mode. */
	AMOSWAP	t1, zero, (t0)
	beqz	t1, 2f
	andi	t1, t1, 1
	beqz	t1, 1f
	sfence.vma
1:	fence.i
2:	li	t0, MIP_SSIP
	csrs	mip, t0
	REG_L	t0, 0(sp)
	REG_L	t1, SZREG(sp)
	csrrw	sp, mscratch, sp
	mret

mtrap_fatal:
	la	sp, __mtrap_stack_top
	csrr	a0, mcause
	csrr	a1, mtval
	csrr	a2, mepc
	call	riscv_mtrap
1:	wfi
	j	1b

	/* Read by parked harts before hart 0 clears .bss: in .data, zero from the image. */
	.section .data
	.balign 16
	.global riscv_hart_release, riscv_clint_base, riscv_hart_rfence
riscv_hart_release:
	.space	RISCV_MAX_HARTS * 2 * SZREG
riscv_hart_rfence:
	.space	RISCV_MAX_HARTS * SZREG
riscv_clint_base:
	.space	SZREG

	.section .bss
	.balign 16
mtrap_save:
	.space	RISCV_MAX_HARTS * 2 * SZREG
	.space 1024
__mtrap_stack_top:
