/*
 * instret.c - arch_instret() on RISC-V: the unprivileged `instret` counter (CSR 0xc02, with
 * 0xc82 `instreth` for the high half on RV32), read in S-mode.  S-mode may read it because the
 * M-mode code below us allows it: tinymm's own RV32 start (mstart.S) sets mcounteren.IR, and
 * OpenSBI does the same for RV64.  Under QEMU the count is exact only with `-icount`
 * (see docs/benchmarks.md); without it QEMU derives it from host time.
 */
#include "asm/counter.h"
#include "tinymm/arch.h"

uint64_t arch_instret(void)
{
	return riscv_read_counter64(instret);
}
