/*
 * page-writeback.c - dirty folios and writing them back, as v6.10's mm/page-writeback.c: marking
 * dirty (PG_dirty, the index's DIRTY tag, NR_FILE_DIRTY, the mapping's I_DIRTY_PAGES and
 * dirtied_when), the writeback state change (PG_writeback, WRITEBACK tag, NR_WRITEBACK),
 * writeback_iter()/write_cache_pages() walking a mapping's dirty folios in index order, the
 * fdatawrite/fdatawait/fsync helpers with errseq error reporting, and the dirty
 * thresholds (global_dirty_limits, a simplified balance_dirty_pages).  The flusher is
 * mm/fs-writeback.c (Linux's fs/fs-writeback.c); the wake-up half of folio_end_writeback() is
 * mm/filemap.c's.
 *
 * Invariants (only for folios in a mapping; docs/pagecache.md, "Writeback"):
 *   - PG_dirty set => PAGECACHE_TAG_DIRTY set and counted in NR_FILE_DIRTY.  The tag may outlive
 *     the flag between folio_clear_dirty_for_io() and __folio_start_writeback(), both under the
 *     folio lock, so a tag-walker may meet a clean folio and must re-check under the lock.
 *   - PG_writeback <=> PAGECACHE_TAG_WRITEBACK, counted in NR_WRITEBACK (every folio, mapped or
 *     not, is counted).
 *   - PAGECACHE_TAG_TOWRITE is set only on DIRTY-tagged folios (tag_pages_for_writeback) and
 *     cleared only by whoever starts the folio's writeback: a WB_SYNC_ALL pass that tagged a
 *     folio writes it even if another writer cleaned and redirtied it meanwhile.
 *   - a mapping with any DIRTY tag has I_DIRTY_PAGES and is on the flusher's b_dirty list (or
 *     being written by it); dirtied_when is when I_DIRTY_PAGES was last set.
 * Locking: i_pages.xa_lock (irqs masked: completions end writeback in interrupts) around every
 *   tag change and the I_DIRTY_PAGES/dirtied_when update; the counters are atomics changed next
 *   to their flag.  folio_mark_dirty() needs the folio lock (it keeps the folio in its mapping,
 *   so the NR_FILE_DIRTY it adds is the one filemap_remove_folio() takes away).  Order: folio
 *   lock, xa_lock, the flusher's list lock.
 *
 * Where tinymm differs from v6.10, and why: filemap_dirty_folio() sets PG_dirty under the
 * xa_lock (v6.10 sets it before, and relies on callers keeping the folio in its mapping), so
 * the counters stay exact for callers without the folio lock (mark_buffer_dirty).  Index walks mask interrupts where v6.10 walks under
 * RCU (one CPU).  Dirtyable memory is free plus page-cache pages (v6.10: free + file LRU pages
 * less the watermark reserves, highmem aside).  balance_dirty_pages is simplified: it checks
 * after every page (two counters and a division; v6.10 checks every ratelimit pages), and a
 * writer above the hard threshold writes back its own mapping's dirty folios and waits for
 * them, where v6.10 sleeps for a pause computed from the device's measured bandwidth: writing
 * needs no bandwidth estimate and makes the writer pay for its own dirt.
 */
#include <limits.h>
#include "tinymm/bug.h"
#include "tinymm/cmdline.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/mmdebug.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/rmap_file.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"

/* Linux's defaults: dirty_expire_centisecs 3000, dirty_writeback_centisecs 500, dirty_ratio 20,
 * dirty_background_ratio 10.  tinymm takes milliseconds (tests use short ones). */
unsigned int dirty_expire_interval = 30000;
unsigned int dirty_writeback_interval = 5000;
unsigned int vm_dirty_ratio = 20;
unsigned int dirty_background_ratio = 10;
unsigned long nr_dirty_throttled;

KPARAM_UINT(dirty_expire_ms, dirty_expire_interval, 0, 86400000,
	    "age (ms) at which the flusher writes dirty data (default 30000)");
KPARAM_UINT(dirty_writeback_ms, dirty_writeback_interval, 0, 86400000,
	    "ms between the flusher's periodic passes (default 5000, 0: none)");
KPARAM_UINT(dirty_ratio, vm_dirty_ratio, 0, 100,
	    "% of free + cache pages dirty before writers throttle (default 20)");
KPARAM_UINT(dirty_background_ratio, dirty_background_ratio, 0, 100,
	    "% dirty before the flusher starts (default 10)");

/* ---- dirtying -------------------------------------------------------------------------- */

/* The mapping whose tags and dirty accounting a folio's writeback keeps: none for the swap
 * cache (PG_swapbacked: an anonymous folio, whose ->mapping is its anon_vma), where nothing
 * walks tags and dirt is not accounted (v6.10's swap_aops dirty nothing: noop_dirty_folio). */
static inline struct address_space *folio_wb_mapping(const struct folio *folio)
{
	return folio_test_swapbacked(folio) ? NULL : folio->mapping;
}

/*
 * Linux's filemap_dirty_folio(): __folio_mark_dirty() + __mark_inode_dirty(I_DIRTY_PAGES).
 * PG_dirty is set under the xa_lock, together with the DIRTY tag and NR_FILE_DIRTY, so a
 * removal (which takes NR_FILE_DIRTY away under the same lock) sees both or neither: the
 * caller needs no folio lock, only something that keeps the folio (mark_buffer_dirty()'s
 * buffer reference).  A folio that left @mapping meanwhile is only flagged.  True if the
 * folio was clean.
 */
bool filemap_dirty_folio(struct address_space *mapping, struct folio *folio)
{
	unsigned long flags;

	if (folio_test_dirty(folio))
		return false;
	if (!mapping)
		return !folio_test_set_dirty(folio);
	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	if (folio_test_set_dirty(folio)) {
		spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
		return false;
	}
	if (folio->mapping == mapping) {	/* folio_account_dirtied() */
		mod_node_page_state(NR_FILE_DIRTY, 1);
		xa_set_mark(&mapping->i_pages, folio->index, PAGECACHE_TAG_DIRTY);
	}
	/* The inode's age is its first dirtying since it was last clean: the flusher writes a
	 * mapping once dirtied_when is dirty_expire old.  Linux ages inodes, not folios. */
	if (!(mapping->i_state & I_DIRTY_PAGES)) {
		mapping->i_state |= I_DIRTY_PAGES;
		mapping->dirtied_when = jiffies;
		inode_io_list_add(mapping);
	}
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	return true;
}

/*
 * The mapping's a_ops->dirty_folio when it has one (block_dirty_folio: the buffers too), else
 * filemap_dirty_folio().  The caller holds the folio lock (tinymm's rule: it keeps the folio in
 * its mapping while the owner's dirty_folio looks at its private data).  True if the folio
 * was clean.
 */
bool folio_mark_dirty(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;

	lockdep_assert_folio_locked(folio);
	if (mapping && mapping->a_ops && mapping->a_ops->dirty_folio)
		return mapping->a_ops->dirty_folio(mapping, folio);
	return filemap_dirty_folio(mapping, folio);
}

/* mm/rmap_file.c, linked where there are user page tables (not in the host's page-cache
 * tests, whose folios are never mapped). */
int folio_mkclean(struct folio *folio) __attribute__((weak));

/*
 * Before writing a locked folio: clear PG_dirty and its count, so a write into the folio from
 * now on dirties it again and gets written by a later pass.  The DIRTY tag stays until
 * __folio_start_writeback.  True if it was dirty.  A mapped folio's ptes are write-protected
 * and cleaned first (folio_mkclean, v6.10's order): a dirty pte's data becomes the folio's
 * dirt here, and a write through a mapping from now on faults and dirties the folio again
 * (docs/shared-mappings.md).
 */
bool folio_clear_dirty_for_io(struct folio *folio)
{
	lockdep_assert_folio_locked(folio);
	if (folio_wb_mapping(folio) && folio_mapped(folio) && folio_mkclean && folio_mkclean(folio))
		folio_mark_dirty(folio);
	if (!folio_test_clear_dirty(folio))
		return false;
	if (folio_wb_mapping(folio))
		mod_node_page_state(NR_FILE_DIRTY, -1);
	return true;
}

/* A writepage that could not write the folio keeps it dirty and says so. */
bool folio_redirty_for_writepage(struct writeback_control *wbc, struct folio *folio)
{
	wbc->pages_skipped++;
	return filemap_dirty_folio(folio->mapping, folio);	/* v6.10's: not the buffers */
}

/* ---- the writeback state ---------------------------------------------------------------- */

/*
 * PG_writeback and the WRITEBACK tag; the DIRTY tag goes if the
 * folio is clean now (clear_dirty_for_io ran), TOWRITE goes unless @keep_write (a writer that
 * sends only part of the folio now).  The caller holds the folio lock.
 */
void __folio_start_writeback(struct folio *folio, bool keep_write)
{
	struct address_space *mapping = folio_wb_mapping(folio);
	unsigned long flags;

	lockdep_assert_folio_locked(folio);
	VM_BUG_ON_PAGE(folio_test_writeback(folio), &folio->page);
	if (mapping) {
		spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
		folio_test_set_writeback(folio);
		xa_set_mark(&mapping->i_pages, folio->index, PAGECACHE_TAG_WRITEBACK);
		if (!folio_test_dirty(folio))
			xa_clear_mark(&mapping->i_pages, folio->index, PAGECACHE_TAG_DIRTY);
		if (!keep_write)
			xa_clear_mark(&mapping->i_pages, folio->index, PAGECACHE_TAG_TOWRITE);
		spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	} else {
		folio_test_set_writeback(folio);
	}
	mod_node_page_state(NR_WRITEBACK, 1);
}

/*
 * The accounting half of folio_end_writeback() (__folio_end_writeback): PG_writeback
 * is cleared with the one fetch-xor that also reports PG_waiters, under the index lock so the
 * tag and the flag change together.  True if mm/filemap.c must wake sleepers.  Runs in the
 * I/O completion (interrupt context).
 */
bool __folio_end_writeback(struct folio *folio)
{
	struct address_space *mapping = folio_wb_mapping(folio);
	unsigned long flags;
	bool ret;

	if (mapping) {
		spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
		ret = folio_xor_flags_has_waiters(folio, 1UL << PG_writeback);
		xa_clear_mark(&mapping->i_pages, folio->index, PAGECACHE_TAG_WRITEBACK);
		spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	} else {
		ret = folio_xor_flags_has_waiters(folio, 1UL << PG_writeback);
	}
	mod_node_page_state(NR_WRITEBACK, -1);
	return ret;
}

/* ---- walking tags ------------------------------------------------------------------------ */

static inline struct folio *folio_batch_next(struct folio_batch *fbatch)
{
	return fbatch->i < fbatch->nr ? fbatch->folios[fbatch->i++] : NULL;
}

void folio_batch_release(struct folio_batch *fbatch)
{
	for (unsigned int i = 0; i < fbatch->nr; i++)
		folio_put(fbatch->folios[i]);
	fbatch->nr = fbatch->i = 0;
}

/*
 * Up to PAGEVEC_SIZE referenced folios tagged @tag at *@start..@end, in index order; *@start
 * moves past the last one (or past @end when the range is done).  Interrupts masked stand for
 * Linux's RCU walk, as in filemap_get_entry().
 */
unsigned int filemap_get_folios_tag(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				    xa_mark_t tag, struct folio_batch *fbatch)
{
	unsigned long flags, index = *start;
	struct folio *folio;

	fbatch->nr = fbatch->i = 0;
	if (index > end)
		return 0;
	xa_lock_irqsave(&mapping->i_pages, flags);	/* the walk and the references (filemap.c) */
	for (folio = xa_find(&mapping->i_pages, &index, end, tag); folio;
	     folio = index < end ? xa_find_after(&mapping->i_pages, &index, end, tag) : NULL) {
		if (xa_is_value(folio))
			continue;
		folio_get(folio);
		fbatch->folios[fbatch->nr++] = folio;
		if (fbatch->nr == PAGEVEC_SIZE)
			break;
	}
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	if (fbatch->nr == PAGEVEC_SIZE && index < end)
		*start = index + 1;
	else		/* the whole range was walked (-1 stays -1) */
		*start = end == ~0UL ? end : end + 1;
	return fbatch->nr;
}

/*
 * WB_SYNC_ALL's first step: TOWRITE on every DIRTY-tagged folio of the range, so the
 * pass writes exactly what was dirty when it began and cannot be livelocked by a writer that
 * keeps dirtying new folios ahead of it.  Lock dropped every batch of tags (Linux: XA_CHECK_SCHED).
 */
#define WB_TAG_BATCH	64

void tag_pages_for_writeback(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	unsigned long flags, index = start;
	unsigned int n = 0;

	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	for (void *e = start <= end ? xa_find(&mapping->i_pages, &index, end, PAGECACHE_TAG_DIRTY) : NULL;
	     e; e = index < end ? xa_find_after(&mapping->i_pages, &index, end, PAGECACHE_TAG_DIRTY) : NULL) {
		xa_set_mark(&mapping->i_pages, index, PAGECACHE_TAG_TOWRITE);
		if (++n % WB_TAG_BATCH == 0) {
			spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
			spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
		}
	}
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
}

/* ---- writeback_iter / write_cache_pages -------------------------------------------------- */

static pgoff_t wbc_end(struct writeback_control *wbc)
{
	if (wbc->range_cyclic)
		return ~0UL;
	return (pgoff_t)(wbc->range_end >> PAGE_SHIFT);
}

static xa_mark_t wbc_to_tag(struct writeback_control *wbc)
{
	if (wbc->sync_mode == WB_SYNC_ALL || wbc->tagged_writepages)
		return PAGECACHE_TAG_TOWRITE;
	return PAGECACHE_TAG_DIRTY;
}

/* With the folio locked: is it still ours to write? */
static bool folio_prepare_writeback(struct address_space *mapping, struct writeback_control *wbc,
				    struct folio *folio)
{
	lockdep_assert_folio_locked(folio);
	/* Truncated or invalidated meanwhile: even an integrity pass skips it (it is gone). */
	if (folio->mapping != mapping)
		return false;
	/* Somebody else wrote it for us. */
	if (!folio_test_dirty(folio))
		return false;
	if (folio_test_writeback(folio)) {
		if (wbc->sync_mode == WB_SYNC_NONE)
			return false;
		/* Integrity: the bytes in flight may predate the dirtying; write it again. */
		folio_wait_writeback(folio);
	}
	BUG_ON(folio_test_writeback(folio));
	return folio_clear_dirty_for_io(folio);
}

static struct folio *writeback_get_folio(struct address_space *mapping, struct writeback_control *wbc)
{
	struct folio *folio;

retry:
	folio = folio_batch_next(&wbc->fbatch);
	if (!folio) {
		folio_batch_release(&wbc->fbatch);
		filemap_get_folios_tag(mapping, &wbc->index, wbc_end(wbc), wbc_to_tag(wbc), &wbc->fbatch);
		folio = folio_batch_next(&wbc->fbatch);
		if (!folio)
			return NULL;
	}
	folio_lock(folio);
	if (!folio_prepare_writeback(mapping, wbc, folio)) {
		folio_unlock(folio);
		goto retry;
	}
	return folio;
}

/*
 * The next locked, dirty-cleared folio to write, or NULL at the end (then *@error is the first
 * error of an integrity pass).  Call with @folio NULL first, then with the folio just written and
 * its error.  WB_SYNC_NONE stops at the first error or when nr_to_write runs out; WB_SYNC_ALL
 * goes through everything it tagged.
 */
struct folio *writeback_iter(struct address_space *mapping, struct writeback_control *wbc,
			     struct folio *folio, int *error)
{
	if (!folio) {
		wbc->fbatch.nr = wbc->fbatch.i = 0;
		wbc->saved_err = *error = 0;
		wbc->index = wbc->range_cyclic ? mapping->writeback_index :
			(pgoff_t)(wbc->range_start >> PAGE_SHIFT);
		if (wbc->sync_mode == WB_SYNC_ALL || wbc->tagged_writepages)
			tag_pages_for_writeback(mapping, wbc->index, wbc_end(wbc));
	} else {
		wbc->nr_to_write--;
		WARN_ON_ONCE(*error > 0);
		if (wbc->sync_mode == WB_SYNC_ALL) {
			if (*error && !wbc->saved_err)
				wbc->saved_err = *error;
		} else if (*error || wbc->nr_to_write <= 0) {
			if (wbc->range_cyclic)
				mapping->writeback_index = folio->index + 1;
			folio_batch_release(&wbc->fbatch);
			return NULL;
		}
	}
	folio = writeback_get_folio(mapping, wbc);
	if (!folio) {
		/* No wrap to the start: folios are locked in ascending index order only. */
		if (wbc->range_cyclic)
			mapping->writeback_index = 0;
		*error = wbc->saved_err;
		return NULL;
	}
	return folio;
}

int write_cache_pages(struct address_space *mapping, struct writeback_control *wbc,
		      writepage_t writepage, void *data)
{
	struct folio *folio = NULL;
	int error;

	while ((folio = writeback_iter(mapping, wbc, folio, &error)))
		error = writepage(folio, wbc, data);
	return error;
}

int do_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	if (wbc->nr_to_write <= 0 || !mapping->a_ops->writepages)
		return 0;
	return mapping->a_ops->writepages(mapping, wbc);
}

/* ---- fdatawrite / fdatawait / fsync ------------------------------------------------------ */

int __filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end,
			       enum writeback_sync_modes sync_mode)
{
	struct writeback_control wbc = {
		.sync_mode = sync_mode, .nr_to_write = LONG_MAX,
		.range_start = start, .range_end = end,
	};

	if (!mapping_tagged(mapping, PAGECACHE_TAG_DIRTY))
		return 0;
	return do_writepages(mapping, &wbc);
}

int filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end)
{
	return __filemap_fdatawrite_range(mapping, start, end, WB_SYNC_ALL);
}

/* Wait for every folio of the range under writeback now (by the WRITEBACK tag). */
void __filemap_fdatawait_range(struct address_space *mapping, loff_t start, loff_t end)
{
	pgoff_t index = (pgoff_t)(start >> PAGE_SHIFT), last = (pgoff_t)(end >> PAGE_SHIFT);
	struct folio_batch fbatch;

	if (end < start)
		return;
	while (index <= last) {
		if (!filemap_get_folios_tag(mapping, &index, last, PAGECACHE_TAG_WRITEBACK, &fbatch))
			break;
		for (unsigned int i = 0; i < fbatch.nr; i++)
			folio_wait_writeback(fbatch.folios[i]);
		folio_batch_release(&fbatch);
		if (index == ~0UL)
			break;
	}
}

/* The legacy flags: the first caller to look is told, and they are cleared. */
int filemap_check_errors(struct address_space *mapping)
{
	int ret = 0;

	if (test_bit(AS_ENOSPC, &mapping->flags) && test_and_clear_bit(AS_ENOSPC, &mapping->flags))
		ret = -ENOSPC;
	if (test_bit(AS_EIO, &mapping->flags) && test_and_clear_bit(AS_EIO, &mapping->flags))
		ret = -EIO;
	return ret;
}

int filemap_fdatawait_range(struct address_space *mapping, loff_t start, loff_t end)
{
	__filemap_fdatawait_range(mapping, start, end);
	return filemap_check_errors(mapping);
}

int filemap_write_and_wait_range(struct address_space *mapping, loff_t start, loff_t end)
{
	int err = 0, err2;

	if (end < start)
		return 0;
	if (mapping->nrpages) {
		err = __filemap_fdatawrite_range(mapping, start, end, WB_SYNC_ALL);
		/* -EIO from writepages may mean something broke badly: do not wait then. */
		if (err != -EIO)
			__filemap_fdatawait_range(mapping, start, end);
	}
	err2 = filemap_check_errors(mapping);
	return err ? err : err2;
}

/*
 * fsync's report (file_check_and_advance_wb_err, with the file reduced to its cursor):
 * the error if wb_err moved since *@f_wb_err, and the cursor advanced, so this caller hears of
 * each error once and other cursors still hear of it.  The legacy flags are cleared as the
 * old filemap_check_errors() caller would have.
 */
int file_check_and_advance_wb_err(struct address_space *mapping, errseq_t *f_wb_err)
{
	int err = 0;

	if (errseq_check(&mapping->wb_err, READ_ONCE(*f_wb_err)))
		err = errseq_check_and_advance(&mapping->wb_err, f_wb_err);
	clear_bit(AS_EIO, &mapping->flags);
	clear_bit(AS_ENOSPC, &mapping->flags);
	return err;
}

/* ---- dirty thresholds -------------------------------------------------------------------- */

/*
 * Simplified global_dirty_limits(): dirtyable memory is free pages plus page-cache pages
 * (see the header); each threshold is its ratio of that; background at most half the hard
 * limit, as Linux forces.
 */
void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty)
{
	/* The file pages: NR_FILE_PAGES counts the swap cache too (v6.10's), which is not. */
	unsigned long avail = nr_free_pages() + global_node_page_state(NR_FILE_PAGES) -
			      global_node_page_state(NR_SWAPCACHE);
	unsigned long thresh = avail / 100 * vm_dirty_ratio + avail % 100 * vm_dirty_ratio / 100;
	unsigned long bg = avail / 100 * dirty_background_ratio +
		avail % 100 * dirty_background_ratio / 100;

	if (bg >= thresh)
		bg = thresh / 2;
	*pbackground = bg;
	*pdirty = thresh;
}

#define BDP_MAX_PAUSES	200	/* 10 ms each: a writer gives up throttling after 2 s of no progress */

/*
 * Called by a writer after it dirtied a folio of @mapping (every page: the check is cheap).
 * Dirty + writeback above the
 * background threshold wakes the flusher; above the hard threshold the writer writes back its
 * own mapping's dirty folios down to the background threshold and waits for that writeback,
 * until the total is below the limit (not Linux's bandwidth-paced sleep: see the header).
 */
void balance_dirty_pages_ratelimited(struct address_space *mapping)
{
	unsigned int pauses = 0;

	for (;;) {
		unsigned long bg, thresh, nr;

		global_dirty_limits(&bg, &thresh);
		nr = global_node_page_state(NR_FILE_DIRTY) + global_node_page_state(NR_WRITEBACK);
		if (nr <= bg)
			return;
		wakeup_flusher_threads(WB_REASON_BACKGROUND);
		if (nr <= thresh)
			return;
		nr_dirty_throttled++;
		if (mapping_tagged(mapping, PAGECACHE_TAG_DIRTY)) {
			struct writeback_control wbc = {
				.sync_mode = WB_SYNC_NONE, .range_cyclic = 1,
				.nr_to_write = (long)max(nr - bg, 16UL),
			};
			do_writepages(mapping, &wbc);
		}
		if (mapping_tagged(mapping, PAGECACHE_TAG_WRITEBACK)) {
			__filemap_fdatawait_range(mapping, 0, LLONG_MAX);
		} else {
			/* Others' dirt: the flusher is on it; pause, but not forever. */
			if (++pauses > BDP_MAX_PAUSES)
				return;
			msleep(10);
		}
	}
}
