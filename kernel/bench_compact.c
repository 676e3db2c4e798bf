/*
 * bench_compact.c - the compact-64mib row of `make bench` (see kernel/bench.c for how
 * instructions are counted): compact_node() (the shell's `compact`, mm/compaction.c) over the
 * highest zone after mm/compaction_frag.c's fixture fragmented 64 MiB of it: all free memory
 * taken, then in 16 wholly free movable pageblocks (4 MiB each) every odd frame a clean
 * page-cache folio and every even one free.  So each sample moves the folios of the window's
 * lower pageblocks into the free frames of its upper ones, and scans the rest of the zone
 * (allocated, nothing to move or take) with both scanners.  NR_ROUNDS samples, each on a fresh
 * fixture; a sample is the whole compact_node() call.  docs/benchmarks.md has the figures.
 */
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/compaction.h"
#include "tinymm/errname.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "../mm/internal.h"

#define NR_ROUNDS	3
#define WINDOW_BLOCKS	((64UL << (20 - PAGE_SHIFT)) >> pageblock_order)	/* 64 MiB */

int bench_compact(void)
{
	uint32_t samples[NR_ROUNDS];

	for (int i = 0; i < NR_ROUNDS; i++) {
		struct compact_totals t = { 0 };
		unsigned long bad, moved = 0;
		int err = fragment_zone(preferred_zone, WINDOW_BLOCKS);

		if (err) {
			kprintf("bench: compact-64mib: fixture: %s\n", errname(err));
			return 1;
		}
		BENCH_MEASURE(samples[i], compact_node(&t));
		bad = fragment_check(&moved);
		fragment_release();
		if (bad || !t.migrated) {
			kprintf("bench: compact-64mib: %lu folios wrong, %lu migrated\n", bad, t.migrated);
			return 1;
		}
		if (i == NR_ROUNDS - 1)		/* what the sample did (docs/benchmarks.md) */
			kprintf("bench: compact-64mib: %lu migrated, %lu failed, %lu scanned to migrate, %lu free, %lu isolated\n",
				t.migrated, t.failed, t.migrate_scanned, t.free_scanned, t.isolated);
	}
	bench_summary("compact-64mib", samples, NR_ROUNDS, 0);
	return 0;
}
