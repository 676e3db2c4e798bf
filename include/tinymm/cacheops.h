/*
 * cacheops.h - counts of the CPU cache maintenance tinymm does (docs/cacheflush.md), one per
 * kind of operation, for the `cacheops` shell command and the tests: each architecture's
 * primitives (asm/cacheflush.h) count what they execute, the PG_dcache_clean policy counts the
 * work the flag let it skip.  Counted per call, not per cache line.
 *
 * Where tinymm differs from v6.10, and why: Linux has no such counters (perf counts cache
 * events in hardware); they are how a test on QEMU, which models no caches, sees that the
 * maintenance ran exactly as often as the policy says.
 * Locking: none; one word each, updated with the CPU's own add (a lost update under SMP only
 * makes a count low, never a cache wrong).
 */
#ifndef TINYMM_CACHEOPS_H
#define TINYMM_CACHEOPS_H

enum cacheop {
	CACHEOP_DCACHE_CLEAN,		/* D-cache clean by range (to PoC or PoU) */
	CACHEOP_DCACHE_INVAL,		/* D-cache invalidate by range */
	CACHEOP_DCACHE_FLUSH,		/* D-cache clean + invalidate by range */
	CACHEOP_ICACHE_INVAL,		/* I-cache (and branch predictor) invalidate */
	CACHEOP_FENCE_I,		/* RISC-V FENCE.I */
	CACHEOP_DCACHE_CLEAN_SKIPPED,	/* an executable pte set on a folio already PG_dcache_clean */
	NR_CACHEOPS
};

extern unsigned long cacheop_counts[NR_CACHEOPS];
extern const char *const cacheop_names[NR_CACHEOPS];

static inline void count_cacheop(enum cacheop op)
{
	cacheop_counts[op]++;
}

#endif
