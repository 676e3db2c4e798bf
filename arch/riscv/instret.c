/*
 * instret.c - arch_instret() on RISC-V: the unprivileged `instret` counter (CSR 0xc02, with
 * 0xc82 `instreth` for the high half on RV32), read in S-mode.  S-mode may read it because the
 * M-mode code below us allows it: tinymm's own RV32 start (mstart.S) sets mcounteren.IR, and
 * OpenSBI does the same for RV64.  Under QEMU the count is exact only with `-icount`
 * (see docs/benchmarks.md); without it QEMU derives it from host time.
 */
#include "tinymm/arch.h"

uint64_t arch_instret(void)
{
#if __riscv_xlen == 64
	uint64_t n;

	__asm__ __volatile__("rdinstret %0" : "=r"(n));
	return n;
#else
	uint32_t hi, lo, hi2;

	do {	/* re-read if the low half wrapped between the two reads */
		__asm__ __volatile__("rdinstreth %0" : "=r"(hi));
		__asm__ __volatile__("rdinstret %0" : "=r"(lo));
		__asm__ __volatile__("rdinstreth %0" : "=r"(hi2));
	} while (hi != hi2);
	return ((uint64_t)hi << 32) | lo;
#endif
}
