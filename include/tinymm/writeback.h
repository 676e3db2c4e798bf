/*
 * writeback.h - dirty folios and writing them back (mm/page-writeback.c, mm/fs-writeback.c),
 * v6.10's names and rules.
 *
 *   folio_mark_dirty(folio)          a_ops->dirty_folio if set (buffer heads), else
 *                                    filemap_dirty_folio(mapping, folio): PG_dirty,
 *                                    PAGECACHE_TAG_DIRTY, NR_FILE_DIRTY, and the mapping dirty
 *                                    (I_DIRTY_PAGES, dirtied_when, on the flusher's list)
 *   folio_clear_dirty_for_io(folio)  locked folio: clear PG_dirty before writing it (the tag
 *                                    stays until __folio_start_writeback)
 *   folio_redirty_for_writepage(wbc, folio)   a writepage that could not write it
 *   writeback_iter / write_cache_pages(mapping, wbc, writepage, data)   the dirty (or, for
 *                                    WB_SYNC_ALL, TOWRITE) folios of wbc's range, locked, in
 *                                    index order, each ready for writepage
 *   filemap_fdatawrite_range / filemap_fdatawait_range / filemap_write_and_wait_range
 *   file_check_and_advance_wb_err(mapping, &f_wb_err)   fsync's report: each error once
 *   balance_dirty_pages_ratelimited(mapping)   a writer's throttle, after dirtying a folio
 *   wakeup_flusher_threads() / the flusher (mm/fs-writeback.c)
 * Locking: the index lock (xa_lock, irqs masked) around tags, I_DIRTY_PAGES and the counters it
 *   pairs with; PG_locked around clear_dirty_for_io + start_writeback.
 */
#ifndef TINYMM_WRITEBACK_H
#define TINYMM_WRITEBACK_H

#include "fs.h"
#include "mm_types.h"
#include "pagevec.h"

enum writeback_sync_modes {
	WB_SYNC_NONE,		/* don't wait on anything: background and periodic writeback */
	WB_SYNC_ALL,		/* wait on every folio: data integrity (sync, fsync) */
};

enum wb_reason { WB_REASON_BACKGROUND, WB_REASON_SYNC, WB_REASON_PERIODIC, WB_REASON_VMSCAN };


struct writeback_control {
	long nr_to_write;		/* pages left to write; decremented per folio */
	long pages_skipped;		/* folios not written (redirtied) */
	loff_t range_start, range_end;	/* bytes, inclusive end (when !range_cyclic) */
	enum writeback_sync_modes sync_mode;
	unsigned for_kupdate:1;		/* the periodic, age-based pass */
	unsigned for_background:1;	/* over the background threshold */
	unsigned tagged_writepages:1;	/* tag first, as WB_SYNC_ALL, to avoid livelock */
	unsigned range_cyclic:1;	/* from writeback_index, wrap to 0 at the end */
	/* writeback_iter()'s state */
	struct folio_batch fbatch;
	pgoff_t index;
	int saved_err;
};

typedef int (*writepage_t)(struct folio *folio, struct writeback_control *wbc, void *data);

/* The tunables (Linux's vm.dirty_*), set by tinymm.dirty_*= on the command line. */
extern unsigned int dirty_expire_interval;	/* ms: a dirty mapping older than this is written */
extern unsigned int dirty_writeback_interval;	/* ms between periodic flusher passes (0: none) */
extern unsigned int vm_dirty_ratio;		/* % of dirtyable memory: writers throttle above */
extern unsigned int dirty_background_ratio;	/* %: the flusher starts above */

bool folio_mark_dirty(struct folio *folio);
/* Without the a_ops->dirty_folio step and without the folio lock (mm/page-writeback.c). */
bool filemap_dirty_folio(struct address_space *mapping, struct folio *folio);
bool folio_clear_dirty_for_io(struct folio *folio);
bool folio_redirty_for_writepage(struct writeback_control *wbc, struct folio *folio);
void __folio_start_writeback(struct folio *folio, bool keep_write);
bool __folio_end_writeback(struct folio *folio);
/* PG_reclaim's hook at the end of writeback: the LRU (mm/swap.c) rotates the folio to the
 * inactive tail.  mm/page-writeback.c has a weak empty one until the LRU provides it. */
void folio_rotate_reclaimable(struct folio *folio);

void tag_pages_for_writeback(struct address_space *mapping, pgoff_t start, pgoff_t end);
unsigned int filemap_get_folios_tag(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				    xa_mark_t tag, struct folio_batch *fbatch);
void folio_batch_release(struct folio_batch *fbatch);
struct folio *writeback_iter(struct address_space *mapping, struct writeback_control *wbc,
			     struct folio *folio, int *error);
int write_cache_pages(struct address_space *mapping, struct writeback_control *wbc,
		      writepage_t writepage, void *data);
int do_writepages(struct address_space *mapping, struct writeback_control *wbc);
int filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end);
int __filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end,
			       enum writeback_sync_modes sync_mode);
void __filemap_fdatawait_range(struct address_space *mapping, loff_t start, loff_t end);
int filemap_fdatawait_range(struct address_space *mapping, loff_t start, loff_t end);
int filemap_write_and_wait_range(struct address_space *mapping, loff_t start, loff_t end);
int filemap_check_errors(struct address_space *mapping);
int file_check_and_advance_wb_err(struct address_space *mapping, errseq_t *f_wb_err);
static inline bool mapping_tagged(struct address_space *mapping, xa_mark_t tag)
{
	return xa_marked(&mapping->i_pages, tag);
}

/* Dirty thresholds in pages, from free + page-cache pages (global_dirty_limits()). */
void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty);
void balance_dirty_pages_ratelimited(struct address_space *mapping);
/* For tests: how often writers were throttled, and wrote back themselves. */
extern unsigned long nr_dirty_throttled;

/* The flusher (mm/fs-writeback.c). */
void writeback_init(void);
void wakeup_flusher_threads(enum wb_reason reason);
/* Mark the mapping for the flusher (called under its xa_lock by page-writeback.c). */
void inode_io_list_add(struct address_space *mapping);
/* Take it off the flusher's lists for good, after any pass writing it is done (may sleep):
 * every owner calls it before reinitialising or freeing a mapping that may have been dirty. */
void inode_io_list_del(struct address_space *mapping);
/* Write back one mapping io_next() handed out (the flusher's); updates I_DIRTY_PAGES, clears i_sync. */
long writeback_single_inode(struct address_space *mapping, struct writeback_control *wbc);

#endif
