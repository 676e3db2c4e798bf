/*
 * asm/cacheflush.h - RISC-V cache maintenance primitives (include/tinymm/cacheflush.h lists
 * them; docs/cacheflush.md).
 *
 * Instruction coherence: FENCE.I (Zifencei) orders this hart's earlier stores before its later
 * instruction fetches, whatever the range: v6.10's local_flush_icache_all().  Other harts get
 * theirs through IPIs (arch/riscv/cacheflush.c: flush_icache_all, and flush_icache_mm for a
 * user mm; v6.10 may use the SBI's remote FENCE.I instead).
 *
 * Data cache: the base ISA has no cache operations; Zicbom or T-Head's XTheadCmo provide them
 * (arch/riscv/cmo.c: which one, from the device tree and the machine ids, as v6.10).  A hart
 * with neither is cache-coherent with DMA (v6.10: riscv_noncoherent_supported() never called);
 * QEMU 7.2's harts have neither, so on every board tinymm boots today the D-cache operations
 * do nothing, as v6.10's do there; the host cache model runs both kinds.  RISC-V has no point
 * of unification apart from coherency for data: clean to PoU is clean.
 */
#ifndef ASM_RISCV_CACHEFLUSH_H
#define ASM_RISCV_CACHEFLUSH_H

#include "tinymm/cacheops.h"
#include "asm/cmo.h"

static inline void local_flush_icache_all(void)
{
	count_cacheop(CACHEOP_FENCE_I);
	__asm__ __volatile__("fence.i" ::: "memory");
}

static inline void dcache_clean_poc(unsigned long start, unsigned long end)
{
	riscv_dcache_op(CMO_CLEAN, start, end);
}

static inline void dcache_clean_pou(unsigned long start, unsigned long end)
{
	riscv_dcache_op(CMO_CLEAN, start, end);
}

static inline void dcache_inval_poc(unsigned long start, unsigned long end)
{
	riscv_dcache_op(CMO_INVAL, start, end);
}

static inline void dcache_clean_inval_poc(unsigned long start, unsigned long end)
{
	riscv_dcache_op(CMO_FLUSH, start, end);
}

static inline void icache_inval_all(void)
{
	local_flush_icache_all();
}

/* Every online hart (arch/riscv/cacheflush.c; the local fence with one CPU). */
void flush_icache_all(void);
/* switch_mm on @cpu to @mm: the FENCE.I this hart owes @mm, if it does (cacheflush.c). */
struct mm_struct;
void flush_icache_deferred(struct mm_struct *mm, unsigned int cpu);

static inline void flush_icache_range(unsigned long start, unsigned long end)
{
	(void)start;
	(void)end;
	flush_icache_all();
}

#endif
