/*
 * head_smp.S - where a secondary hart enters S-mode (arch/riscv/smp.c starts it; docs/smp.md).
 *
 * The firmware (SBI HSM hart_start, RV64) or mstart.S's release (RV32) enters
 * riscv_secondary_entry at its physical address with a0 = hart id, a1 = the physical address of
 * the hart's struct riscv_secondary_data (riscv.h), satp Bare, interrupts off.  Read the data
 * while addresses are physical, then paging on with the kernel's tables: v6.10's
 * relocate_enable_mmu trick, stvec = the virtual address of the next step, so on Sv39 (where the
 * physical address is not mapped in swapper_pg_dir) the first fetch after the satp write faults
 * straight there; on Sv32 the kernel's virtual and physical addresses are equal and the jump
 * just goes on.  Then gp, the real trap vector, tp = the idle task (current, asm/current.h),
 * sp = the top of its stack (arch.h's arch_cpu_boot contract), sscratch 0
 * (S-mode, entry.S's convention), and riscv_secondary_start(cpu) in C.
 */
#include "asm.h"

#define SD_SATP		0
#define SD_TASK		1
#define SD_STACK	2
#define SD_CPU		3

	.section .text, "ax"
	.balign 4
	.global riscv_secondary_entry
riscv_secondary_entry:
	csrw	sie, zero
	csrci	sstatus, 2		/* SIE off */
	csrw	sscratch, zero
	REG_L	s1, SD_SATP * SZREG(a1)
	REG_L	s2, SD_TASK * SZREG(a1)
	REG_L	s3, SD_STACK * SZREG(a1)
	REG_L	s4, SD_CPU * SZREG(a1)
	lla	t0, secondary_virtual_link
	REG_L	t0, 0(t0)		/* a literal: the linked (virtual) address */
	csrw	stvec, t0
	sfence.vma
	csrw	satp, s1
	sfence.vma
	jr	t0

	.balign 4
secondary_virtual:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	t0, riscv_trap_entry
	csrw	stvec, t0
	mv	tp, s2
	mv	sp, s3
	li	s0, 0			/* end of the frame-pointer chain */
	mv	a0, s4
	call	riscv_secondary_start
1:	wfi
	j	1b

/* tinymm.smp_lost_cpu (smp.c): a started hart that never answers. */
	.balign 4
	.global riscv_secondary_lost
riscv_secondary_lost:
	csrw	sie, zero
2:	wfi
	j	2b

	.balign SZREG
secondary_virtual_link:
#if __riscv_xlen == 64
	.dword	secondary_virtual
#else
	.word	secondary_virtual
#endif
