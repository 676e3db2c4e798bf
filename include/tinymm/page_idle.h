/*
 * page_idle.h - idle page tracking (mm/page_idle.c, docs/page_idle.md), Linux v6.10's
 * mm/page_idle.c with a shell command where Linux has /sys/kernel/mm/page_idle/bitmap.
 *
 *   page_idle_mark_pfn(pfn)   what writing a 1 to the frame's bitmap bit does: if the frame is a
 *                             user folio on an LRU (the head of it), the young bit of every pte
 *                             mapping it is cleared (remembered in PG_young when it was set)
 *                             and PG_idle is set; true if so, false for any other frame
 *   page_idle_read_pfn(pfn)   what reading the bit gives: true ("idle") only if the frame is
 *                             such a folio, PG_idle is still set, and no pte mapping it was
 *                             young (a young one is cleared, PG_young set, PG_idle cleared)
 *
 * Both take any pfn (a hole, one beyond RAM, a free frame, a slab page: false).
 * Locking: they take the folio lock (trylock: if it is busy the ptes are left alone, as v6.10
 * does for a file folio), then the rmap locks and each mm's page_table_lock
 * (include/tinymm/rmap.h's order).  They may sleep (i_mmap_lock is a mutex): call them from a
 * thread that holds none of those locks, with interrupts enabled.
 */
#ifndef TINYMM_PAGE_IDLE_H
#define TINYMM_PAGE_IDLE_H

#include "kernel.h"

bool page_idle_mark_pfn(unsigned long pfn);
bool page_idle_read_pfn(unsigned long pfn);

#endif
