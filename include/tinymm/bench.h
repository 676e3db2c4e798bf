/*
 * bench.h - `make bench` (kernel/bench.c, docs/benchmarks.md).  boot/main.c reads arch_instret()
 * around memmap_init() + page_alloc_init() and leaves the difference here for init-per-frame.
 */
#ifndef TINYMM_BENCH_H
#define TINYMM_BENCH_H

#include "kernel.h"

extern uint64_t bench_init_instret;

/* @stmt's instructions into @slot (arch_instret(): exact under QEMU -icount). */
#define BENCH_MEASURE(slot, stmt) do {					\
		uint64_t t0_ = arch_instret();				\
		stmt;							\
		(slot) = (uint32_t)(arch_instret() - t0_);		\
	} while (0)

/* One row from @n samples: each less @overhead, sorted, min / lower median / max (bench.c). */
void bench_summary(const char *op, uint32_t *s, int n, uint32_t overhead);
/* The kernel core's rows (kernel/bench_core.c): locks, wake-ups, timers, a switch.  0 or 1. */
int bench_core(void);
/* ext2's rows (fs/bench_fs.c): a cached 4 KiB read and a cached three-component lookup on
 * ram0's sample filesystem.  0 or 1. */
int bench_fs(void);
/* The page-fault rows (kernel/bench_fault.c): fault-anon, fault-file-minor.  0 or 1. */
int bench_fault(void);
/* `bench pcp [quick]`: order-0 calls and zone-lock holds per pcp batch and scale
 * (kernel/bench_pcp.c).  0 or 1. */
int bench_pcp(bool quick);

#endif
