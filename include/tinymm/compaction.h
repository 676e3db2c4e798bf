/*
 * compaction.h - moving movable pages out of the way so free frames add up to high-order blocks
 * (Linux v6.10 include/linux/compaction.h, reduced; mm/compaction.c, docs/compaction.md), and
 * the fragmentation indices that say whether it is worth it (mm/vmstat_extfrag.c).
 *
 *   try_to_compact_pages(gfp, order, prio)  direct compaction: the allocator's slow path, for an
 *        order above PAGE_ALLOC_COSTLY_ORDER that found no block (through direct_compact_hook)
 *   compact_zone_order(zone, order, gfp, prio)  one zone, until a free block of @order exists or
 *        the scanners meet
 *   compact_node()   every populated zone fully (the shell's `compact`, Linux's
 *        /proc/sys/vm/compact_memory)
 *   wakeup_kcompactd(order, highest_zoneidx)  ask the node's kcompactd to compact in the background
 *        (kswapd does, through kcompactd_wakeup_hook, when a high-order allocation failed)
 *   fragmentation_index(zone, order)  Mel Gorman's index in thousandths (-1000: a block is free)
 *
 * Locking: all of it sleeps (migration takes folio locks); never from interrupt context or with a
 * spinlock held.  wakeup_kcompactd() is the exception: any context.
 */
#ifndef TINYMM_COMPACTION_H
#define TINYMM_COMPACTION_H

#include <stdbool.h>
#include "gfp.h"
#include "mmzone.h"

/* v6.10's enum compact_result, the values tinymm returns. */
enum compact_result {
	COMPACT_NOT_SUITABLE_ZONE,	/* (v6.10: for tracing only) */
	COMPACT_SKIPPED,		/* not enough free memory to compact with */
	COMPACT_DEFERRED,		/* recent failures: not tried now (v6.10's deferral) */
	COMPACT_NO_SUITABLE_PAGE,	/* (v6.10: tracing) */
	COMPACT_CONTINUE,		/* keep going */
	COMPACT_COMPLETE,		/* the whole zone was scanned: the scanners met */
	COMPACT_PARTIAL_SKIPPED,	/* (v6.10: a scan that skipped blocks) */
	COMPACT_CONTENDED,		/* a lock or a fatal signal stopped it */
	COMPACT_SUCCESS,		/* a free block of the wanted order exists */
};

/* v6.10's enum compact_priority: lower is more thorough. */
enum compact_priority {
	COMPACT_PRIO_SYNC_FULL,
	MIN_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_FULL,
	COMPACT_PRIO_SYNC_LIGHT,
	MIN_COMPACT_COSTLY_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
	DEF_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
	COMPACT_PRIO_ASYNC,
	INIT_COMPACT_PRIORITY = COMPACT_PRIO_ASYNC
};

struct zone;
enum compact_result try_to_compact_pages(gfp_t gfp, unsigned int order, enum compact_priority prio);
enum compact_result compact_zone_order(struct zone *zone, unsigned int order, gfp_t gfp,
				       enum compact_priority prio);
/* What compact_node() did, for the shell's one-line summary and the tests. */
struct compact_totals {
	unsigned long migrate_scanned, free_scanned, isolated, migrated, failed, pinned;
};
void compact_node(struct compact_totals *totals);
void wakeup_kcompactd(unsigned int order, int highest_zoneidx);
bool kcompactd_idle(void);	/* nothing asked of kcompactd, nothing in progress */
void kcompactd_run(void);	/* boot: the thread, and the allocator's and kswapd's hooks */

/* The hooks (pointers because mm/page_alloc.c and mm/kswapd.c also link without compaction:
 * the host's allocator-only tests; NULL there). */
extern enum compact_result (*direct_compact_hook)(gfp_t gfp, unsigned int order,
						  enum compact_priority prio);
extern void (*kcompactd_wakeup_hook)(unsigned int order, int highest_zoneidx);

/* ---- a fragmented zone made on purpose (mm/compaction_frag.c: tests, bench, `fragment`) ---- */
struct folio;
int fragment_zone(struct zone *zone, unsigned long nr_blocks);	/* 0, -EBUSY, -ENOSPC, -ENOMEM */
unsigned long fragment_nr_folios(void);
struct folio *fragment_folio(unsigned long idx, unsigned long *pfn_made);	/* referenced */
bool fragment_folio_is_ours(const struct folio *folio);
unsigned long fragment_check(unsigned long *moved);	/* folios wrong or missing */
unsigned long fragment_release(void);		/* folios still held by someone */

/* ---- fragmentation indices (mm/vmstat_extfrag.c, v6.10's mm/vmstat.c) ---- */
struct contig_page_info {
	unsigned long free_pages;		/* frames in free blocks */
	unsigned long free_blocks_total;	/* free blocks of any order */
	unsigned long free_blocks_suitable;	/* blocks of the asked order they hold */
};
void fill_contig_page_info(const struct zone *zone, unsigned int suitable_order,
			   struct contig_page_info *info);
int __fragmentation_index(unsigned int order, const struct contig_page_info *info);
int fragmentation_index(const struct zone *zone, unsigned int order);
int unusable_free_index(unsigned int order, const struct contig_page_info *info);

#endif
