/*
 * vmscan.h - what mm/vmscan.c (one folio's fate) gives mm/vmscan_node.c (the scans): mm/ only.
 */
#ifndef TINYMM_MM_VMSCAN_H
#define TINYMM_MM_VMSCAN_H

#include "tinymm/rmap.h"
#include "tinymm/swap.h"
#include "internal.h"

/* What a pass over a list counted (shrink_folio_list's, for shrink_inactive_list). */
struct reclaim_stat {
	unsigned int nr_dirty, nr_unqueued_dirty, nr_congested, nr_writeback, nr_immediate;
	unsigned int nr_pageout, nr_activate, nr_unmap_fail;
};
/* Up to @nr_to_scan folios isolated from the tail of @lru (lru_lock held); each isolated
 * folio decided (freed ones leave @list; returns the pages freed); the rest put back. */
unsigned long isolate_lru_folios(unsigned long nr_to_scan, struct lruvec *lruvec,
				 struct page_list *dst, unsigned long *nr_scanned, enum lru_list lru);
unsigned long shrink_folio_list(struct page_list *list, struct scan_control *sc,
				struct reclaim_stat *stat);
unsigned long move_folios_to_lru(struct lruvec *lruvec, struct page_list *list);

/* mm/rmap.c, linked where there are user page tables (not in the host's page-cache tests,
 * whose folios are never mapped: both are called only for a mapped folio). */
int folio_referenced(struct folio *folio, int is_locked, unsigned long *vm_flags)
	__attribute__((weak));
void try_to_unmap(struct folio *folio, enum ttu_flags flags) __attribute__((weak));

#endif
