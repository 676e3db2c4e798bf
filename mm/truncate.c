/*
 * truncate.c - taking folios out of a mapping's page cache by range: truncation (everything in
 * the range goes, waiting for whoever holds a folio) and invalidation (only what nobody uses
 * goes), as Linux v6.10's mm/truncate.c.
 *
 *   truncate_inode_pages_range(mapping, lstart, lend)   bytes lstart..lend (inclusive; lend -1:
 *       to the end).  Whole folios inside go, dirty or not; folios straddling an edge are
 *       zeroed in the truncated bytes and kept; value (shadow) entries in the range go.
 *   truncate_inode_pages(mapping, lstart)                the same, to the end
 *   mapping_try_invalidate(mapping, start, end, &nr_failed) / invalidate_mapping_pages(...)
 *       pages start..end (inclusive): drop clean, unlocked, not-under-writeback folios that
 *       nobody but the cache references, and the shadow entries; never waits
 *   invalidate_inode_pages2_range(mapping, start, end)   drop every folio of the range, waiting
 *       for locks and writeback; -EBUSY if a (dirty) folio had to stay
 *   folio_cancel_dirty(folio)                            a locked folio's dirt is thrown away
 *   generic_error_remove_folio(mapping, folio)           a locked folio out, for memory_failure()
 *   mapping_evict_folio(mapping, folio)                  a locked, clean, unused folio out
 *   truncate_pagecache(inode, newsize)                   v6.10's: unmap the pages past
 *       newsize in every area mapping the file (mm/rmap_file.c), truncate, unmap again
 *
 * Invariants kept (include/tinymm/pagemap.h, mm/page-writeback.c):
 *   - a folio leaves the cache only locked, by filemap_remove_folio() (the index entry, its
 *     tags, nrpages, NR_FILE_PAGES, and NR_FILE_DIRTY if still dirty), with no writeback in
 *     flight when truncation removes it: the I/O completion must find its folio whole;
 *   - before removal truncation clears PG_dirty with its NR_FILE_DIRTY and DIRTY/TOWRITE tags
 *     (folio_cancel_dirty), so "PG_dirty <=> DIRTY tag and counted" holds at every step;
 *   - a folio someone else still references is removed by truncation anyway (its holder keeps a
 *     folio whose mapping is NULL: lookups that slept re-check mapping), never by invalidation;
 *   - when truncate_inode_pages_range() returns, no folio and no value entry is left in the
 *     range, except a partial edge folio (kept, zeroed where truncated).
 * Locking: folio lock, then i_pages.xa_lock (spin_lock_irqsave: I/O completions change the index
 *   tags from interrupts), then lru_lock (taken by folio_put/__page_cache_release, never here).
 *   Walks of the index run under xa_lock, tinymm's stand-in for Linux's RCU walk (as
 *   filemap_get_entry() does): no writer and no completion on any CPU can run meanwhile, so a
 *   reference taken there is safe.  Nothing here sleeps with the xa_lock or interrupts masked;
 *   the sleeps are folio_lock() and folio_wait_writeback(), with only the folio lock (of that folio) held.
 *
 * Folios with private data (PG_private: buffer heads) have it dropped as v6.10 does:
 * folio_invalidate() (a_ops->invalidate_folio) for the truncated bytes before a truncation
 * removes or zeroes a folio, filemap_release_folio() (a_ops->release_folio) before an
 * invalidation or eviction removes one (a folio whose buffers stay, dirty or in use, stays).
 *
 * Where tinymm differs from v6.10, and why: no launder_folio, no shmem or
 * DAX, no large folios in the page cache (a large partial folio cannot be split here: it is
 * kept if dirty, else dropped whole, v6.10's "split failed" branch); folios are removed one
 * filemap_remove_folio() each (v6.10's delete_from_page_cache_batch takes the lock once per
 * batch).  Invalidation drains this CPU's LRU batches first (a folio waiting in one holds a
 * reference that would make it look in use; v6.10 leaves that to callers, e.g.
 * invalidate_bdev), leaves folios it could not drop where they are (no deactivate_file_folio)
 * and counts only pages, not shadow entries (drop_caches prints the count as pages dropped).
 * The refcount freeze of v6.10's __remove_mapping is the interrupt mask around check and
 * removal (one CPU: no lookup can run in between).  folio_cancel_dirty() also clears the DIRTY
 * and TOWRITE tags (v6.10 leaves them for the removal that follows), so "PG_dirty <=> DIRTY
 * tag" holds for a caller that keeps the folio.  generic_error_remove_folio() takes any
 * mapping (v6.10: regular files only, else -EIO), as tinymm's mappings are its disks.
 * invalidate_complete_folio2() does not re-check PG_dirty under xa_lock (v6.10 does, because
 * page tables dirty folios without their lock; tinymm's folio_mark_dirty() needs the lock we
 * hold).  No cond_resched() between batches (tinymm preempts on the tick).
 */
#include <string.h>
#include "tinymm/cacheflush.h"
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/mm.h"
#include "tinymm/mmdebug.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/rmap_file.h"
#include "tinymm/swap.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"

static inline bool mapping_empty(struct address_space *mapping)
{
	return xa_empty(&mapping->i_pages);
}

/* Byte position of a folio in its file, unsigned so no index overflows it (folio_pos). */
static inline unsigned long long folio_pos_u(const struct folio *folio)
{
	return (unsigned long long)folio->index << PAGE_SHIFT;
}

static inline size_t folio_size(const struct folio *folio)
{
	return PAGE_SIZE << folio_order(folio);
}

/* Our batch's references; folio_batch_release, except that this batch also holds value
 * entries (shadows), which carry no reference. */
static void truncate_batch_release(struct folio_batch *fbatch)
{
	for (unsigned int i = 0; i < folio_batch_count(fbatch); i++)
		if (!xa_is_value(fbatch->folios[i]))
			folio_put(fbatch->folios[i]);
	folio_batch_init(fbatch);
}

/*
 * find_lock_entries(): up to PAGEVEC_SIZE entries at *@start..@end, with their indices.
 * Folios come referenced and locked; a folio that is locked by someone else, under writeback or
 * no longer in @mapping is left out (truncation's second pass, or nobody, deals with it).
 * Value entries come as they are.  *@start moves past the last entry returned (it wraps to 0
 * after an entry at ~0UL: callers stop on that).
 */
static unsigned int find_lock_entries(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				      struct folio_batch *fbatch, pgoff_t *indices)
{
	unsigned long flags, index = *start;
	void *entry;

	folio_batch_init(fbatch);
	if (index > end)
		return 0;
	xa_lock_irqsave(&mapping->i_pages, flags);	/* the walk and the references (filemap.c) */
	for (entry = xa_find(&mapping->i_pages, &index, end, XA_PRESENT); entry;
	     entry = index < end ? xa_find_after(&mapping->i_pages, &index, end, XA_PRESENT) : NULL) {
		if (!xa_is_value(entry)) {
			struct folio *folio = entry;

			folio_get(folio);
			if (!folio_trylock(folio))
				goto put;
			if (folio->mapping != mapping || folio_test_writeback(folio))
				goto unlock;
			VM_BUG_ON_PAGE(folio->index != index, &folio->page);
		}
		*start = index + 1;
		indices[folio_batch_count(fbatch)] = index;
		if (!folio_batch_add(fbatch, entry))
			break;
		continue;
unlock:
		folio_unlock(entry);
put:
		folio_put(entry);	/* not the last: the cache's stays (its remover waits) */
	}
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	return folio_batch_count(fbatch);
}

/*
 * find_get_entries(): up to PAGEVEC_SIZE entries at *@start..@end, folios referenced
 * (not locked), value entries as they are; *@start moves past the last one.
 */
static unsigned int find_get_entries(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				     struct folio_batch *fbatch, pgoff_t *indices)
{
	unsigned long flags, index = *start;
	void *entry;

	folio_batch_init(fbatch);
	if (index > end)
		return 0;
	xa_lock_irqsave(&mapping->i_pages, flags);
	for (entry = xa_find(&mapping->i_pages, &index, end, XA_PRESENT); entry;
	     entry = index < end ? xa_find_after(&mapping->i_pages, &index, end, XA_PRESENT) : NULL) {
		if (!xa_is_value(entry))
			folio_get(entry);
		indices[folio_batch_count(fbatch)] = index;
		if (!folio_batch_add(fbatch, entry))
			break;
	}
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	if (folio_batch_count(fbatch))
		*start = indices[folio_batch_count(fbatch) - 1] + 1;
	return folio_batch_count(fbatch);
}

/*
 * truncate_folio_batch_exceptionals() / clear_shadow_entries() + the batch compaction
 * of folio_batch_remove_exceptionals(): every value entry of the batch leaves the index if it
 * is still the one we saw (a new folio may have replaced it meanwhile: that one stays), under
 * one xa_lock hold; the batch keeps only its folios.
 */
static void truncate_folio_batch_exceptionals(struct address_space *mapping,
					      struct folio_batch *fbatch, pgoff_t *indices)
{
	unsigned int i, j, n = folio_batch_count(fbatch);
	unsigned long flags;

	for (j = 0; j < n; j++)
		if (xa_is_value(fbatch->folios[j]))
			break;
	if (j == n)
		return;
	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	for (i = j; i < n; i++) {
		void *entry = fbatch->folios[i];

		if (!xa_is_value(entry)) {
			indices[j] = indices[i];
			fbatch->folios[j++] = entry;
			continue;
		}
		if (xa_load(&mapping->i_pages, indices[i]) == entry)
			xa_erase(&mapping->i_pages, indices[i]);
	}
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	fbatch->nr = (unsigned char)j;
}

/*
 * The folio's contents are being thrown away, so its dirt is not written.  PG_dirty goes with
 * its NR_FILE_DIRTY (folio_account_cleaned) and with its DIRTY and TOWRITE tags (see the
 * header), which keeps "PG_dirty <=> DIRTY tag" true for a caller that keeps the folio, and
 * TOWRITE only on DIRTY-tagged entries.  The caller holds the folio lock
 * (so the folio stays in its mapping, and folio_mark_dirty() cannot race with us).
 */
void folio_cancel_dirty(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;
	unsigned long flags;

	lockdep_assert_folio_locked(folio);
	if (!folio_test_dirty(folio) || !folio_test_clear_dirty(folio))
		return;			/* the common case: no atomic, no lock */
	if (!mapping)
		return;			/* counted only while in a mapping (folio_mark_dirty) */
	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	mod_node_page_state(NR_FILE_DIRTY, -(long)folio_nr_pages(folio));
	xa_clear_mark(&mapping->i_pages, folio->index, PAGECACHE_TAG_DIRTY);
	xa_clear_mark(&mapping->i_pages, folio->index, PAGECACHE_TAG_TOWRITE);
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
}

/* Linux's folio_invalidate(): the owner drops the private data covering the bytes
 * [offset, offset + length) of a locked folio being truncated (block_invalidate_folio). */
void folio_invalidate(struct folio *folio, size_t offset, size_t length)
{
	const struct address_space_operations *aops = folio->mapping->a_ops;

	lockdep_assert_folio_locked(folio);
	if (aops->invalidate_folio)
		aops->invalidate_folio(folio, offset, length);
}

/* The page tables' half (mm/rmap_file.c) is linked only where there are user page tables; the
 * host's page-cache tests have none, and no folio of theirs is ever mapped. */
void unmap_mapping_folio(struct folio *folio) __attribute__((weak));
void unmap_mapping_range(struct address_space *mapping, loff_t start, loff_t len,
			 bool even_cows) __attribute__((weak));

/* v6.10's truncate_cleanup_folio(): a folio still mapped (a racing fault, or a private
 * mapping's read-only pte) is unmapped first, so no pte keeps a folio that leaves the cache. */
static void truncate_cleanup_folio(struct folio *folio)
{
	if (folio_mapped(folio) && unmap_mapping_folio)
		unmap_mapping_folio(folio);
	if (folio_test_private(folio))
		folio_invalidate(folio, 0, folio_size(folio));
	folio_cancel_dirty(folio);
	folio_clear_mappedtodisk(folio);
}

/* A locked folio out of @mapping, unless it already left. */
static int truncate_inode_folio(struct address_space *mapping, struct folio *folio)
{
	if (folio->mapping != mapping)
		return -EIO;
	truncate_cleanup_folio(folio);
	filemap_remove_folio(folio);
	return 0;
}

/*
 * A locked folio that straddles an edge of lstart..lend
 * (bytes, lend inclusive).  Writeback is waited for first: the bytes in flight must not change
 * under the device.  Then the truncated bytes are zeroed and the folio stays (dirty or not, as
 * it was: the caller dirties it if it must).  A folio the range covers whole (a race, or the
 * first pass skipped it) is truncated.  False: a large folio that must stay whole (see above).
 */
static bool truncate_inode_partial_folio(struct folio *folio, loff_t start, loff_t end)
{
	unsigned long long pos = folio_pos_u(folio);
	size_t offset = 0, length = folio_size(folio);

	if ((unsigned long long)start > pos)
		offset = (size_t)((unsigned long long)start - pos);
	if (pos + length <= (unsigned long long)end)	/* lend -1 is "everything" */
		length -= offset;
	else
		length = (size_t)((unsigned long long)end + 1 - pos - offset);

	folio_wait_writeback(folio);
	if (length == folio_size(folio)) {
		truncate_inode_folio(folio->mapping, folio);
		return true;
	}
	memset((char *)page_address(&folio->page) + offset, 0, length);	/* folio_zero_range */
	flush_dcache_folio(folio);
	if (folio_test_private(folio))
		folio_invalidate(folio, offset, length);
	if (!folio_test_large(folio))
		return true;
	/* No split_folio(): as a failed split (see the header). */
	if (folio_test_dirty(folio))
		return false;
	truncate_inode_folio(folio->mapping, folio);
	return true;
}

/*
 * The error_remove_folio a_op of filesystems that can
 * punch out one folio (memory_failure(): docs/hwpoison.md): the locked @folio leaves @mapping,
 * dirty or not (its dirt is thrown away; the caller records the loss with mapping_set_error()).
 * Any mapping, not only regular files (see the header).  0, -EINVAL (no mapping), -EIO (@folio
 * already left it).
 */
int generic_error_remove_folio(struct address_space *mapping, struct folio *folio)
{
	if (!mapping)
		return -EINVAL;
	return truncate_inode_folio(mapping, folio);
}

/*
 * [start, end) are the pages wholly inside the range;
 * the edge pages (partial) are zeroed, not dropped.
 *   pass 1: what can be locked at once (trylock, no writeback) goes, one batch at a time;
 *   the two partial edge folios, locked (sleeping);
 *   pass 2: everything still there is locked (sleeping), waited for if under writeback, and
 *   removed; the pass restarts from @start until a walk finds nothing, so a folio added behind
 *   the walk (a racing read) is removed too.
 * The caller keeps new folios out of the range (in Linux, i_size and the invalidate lock).
 */
void truncate_inode_pages_range(struct address_space *mapping, loff_t lstart, loff_t lend)
{
	pgoff_t indices[PAGEVEC_SIZE], start, end, index;
	struct folio_batch fbatch;
	struct folio *folio;
	bool same_folio;

	if (mapping_empty(mapping))
		return;
	if (lstart < 0 || (lend != -1 && lend < lstart))
		return;
	start = (pgoff_t)((lstart + PAGE_SIZE - 1) >> PAGE_SHIFT);
	end = lend == -1 ? ~0UL : (pgoff_t)((lend + 1) >> PAGE_SHIFT);	/* exclusive */

	index = start;
	while (index < end && find_lock_entries(mapping, &index, end - 1, &fbatch, indices)) {
		truncate_folio_batch_exceptionals(mapping, &fbatch, indices);
		for (unsigned int i = 0; i < folio_batch_count(&fbatch); i++) {
			folio = fbatch.folios[i];
			truncate_cleanup_folio(folio);
			filemap_remove_folio(folio);	/* delete_from_page_cache_batch */
			folio_unlock(folio);
		}
		truncate_batch_release(&fbatch);
	}

	same_folio = (lstart >> PAGE_SHIFT) == (lend >> PAGE_SHIFT);
	folio = __filemap_get_folio(mapping, (pgoff_t)(lstart >> PAGE_SHIFT), FGP_LOCK, 0);
	if (!IS_ERR(folio)) {
		same_folio = (unsigned long long)lend < folio_pos_u(folio) + folio_size(folio);
		if (!truncate_inode_partial_folio(folio, lstart, lend)) {
			start = folio->index + folio_nr_pages(folio);
			if (same_folio)
				end = folio->index;
		}
		folio_unlock(folio);
		folio_put(folio);
	}
	if (!same_folio) {
		folio = __filemap_get_folio(mapping, (pgoff_t)(lend >> PAGE_SHIFT), FGP_LOCK, 0);
		if (!IS_ERR(folio)) {
			if (!truncate_inode_partial_folio(folio, lstart, lend))
				end = folio->index;
			folio_unlock(folio);
			folio_put(folio);
		}
	}

	index = start;
	while (index < end) {
		if (!find_get_entries(mapping, &index, end - 1, &fbatch, indices)) {
			if (index == start)	/* all gone from start onwards: done */
				break;
			index = start;		/* else walk again, to be sure all is gone */
			continue;
		}
		for (unsigned int i = 0; i < folio_batch_count(&fbatch); i++) {
			folio = fbatch.folios[i];
			if (xa_is_value(folio))
				continue;
			folio_lock(folio);
			VM_BUG_ON_PAGE(folio->mapping == mapping && folio->index != indices[i], &folio->page);
			folio_wait_writeback(folio);
			truncate_inode_folio(mapping, folio);	/* -EIO: gone already, fine */
			folio_unlock(folio);
		}
		truncate_folio_batch_exceptionals(mapping, &fbatch, indices);
		truncate_batch_release(&fbatch);
	}
}

void truncate_inode_pages(struct address_space *mapping, loff_t lstart)
{
	truncate_inode_pages_range(mapping, lstart, (loff_t)-1);
}

/*
 * A locked, clean folio nobody else uses leaves the cache.
 * "Nobody else": the cache's reference and ours; more is a mapping, a pin, a reader between
 * lookup and copy.  No lookup may take a reference between check and removal: page-cache
 * lookups take no lock, so the count is frozen at those two (v6.10's remove_mapping()), which
 * their folio_try_get() cannot pass.  Pages evicted, or 0.
 */
long mapping_evict_folio(struct address_space *mapping, struct folio *folio)
{
	unsigned long flags;
	long nr = (long)folio_nr_pages(folio);

	lockdep_assert_folio_locked(folio);
	if (!mapping)
		return 0;		/* truncated before it was locked */
	if (folio_test_dirty(folio) || folio_test_writeback(folio))
		return 0;
	/* Others hold it beyond the cache, us and the private data's own reference. */
	if (atomic_read(&folio->_refcount) > 2 + folio_test_private(folio))
		return 0;
	if (!filemap_release_folio(folio, 0))
		return 0;
	/* The count frozen at the cache's and ours, and the folio removed, in one hold of the
	 * index lock (the cache holds one reference whatever the folio's size: filemap_add_folio). */
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (!folio_ref_freeze(folio, 2)) {
		xa_unlock_irqrestore(&mapping->i_pages, flags);
		return 0;
	}
	__filemap_remove_folio(folio, NULL);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	folio_ref_unfreeze(folio, 1);		/* the cache's gone; the caller still holds one */
	return nr;
}

/*
 * Pages @start..@end (inclusive).  Never sleeps on a folio:
 * locked and under-writeback folios are passed over by find_lock_entries, dirty and otherwise
 * referenced ones by mapping_evict_folio.  Value entries in the range are removed too.
 * Returns the pages evicted, value entries not counted (drop_caches prints the count as pages
 * dropped).  *@nr_failed (optional) counts the folios it locked but could not evict.
 * This CPU's LRU batches are drained first: a folio waiting in one holds a reference that
 * would make it look in use.
 */
unsigned long mapping_try_invalidate(struct address_space *mapping, pgoff_t start, pgoff_t end,
				     unsigned long *nr_failed)
{
	pgoff_t indices[PAGEVEC_SIZE], index = start;
	struct folio_batch fbatch;
	unsigned long count = 0;

	lru_add_drain();
	while (find_lock_entries(mapping, &index, end, &fbatch, indices)) {
		for (unsigned int i = 0; i < folio_batch_count(&fbatch); i++) {
			struct folio *folio = fbatch.folios[i];
			long ret;

			if (xa_is_value(folio))
				continue;	/* removed below, not counted (see above) */
			ret = mapping_evict_folio(mapping, folio);
			folio_unlock(folio);
			if (!ret && nr_failed)
				(*nr_failed)++;
			count += (unsigned long)ret;
		}
		truncate_folio_batch_exceptionals(mapping, &fbatch, indices);
		truncate_batch_release(&fbatch);
		if (!index)		/* the last entry was at ~0UL */
			break;
	}
	return count;
}

/* invalidate_mapping_pages(): mapping_try_invalidate() without the failure count. */
unsigned long invalidate_mapping_pages(struct address_space *mapping,
							     pgoff_t start, pgoff_t end)
{
	return mapping_try_invalidate(mapping, start, end, NULL);
}

/*
 * The locked, written-back folio goes unless it is dirty.  PG_dirty cannot change under us:
 * folio_mark_dirty() needs the folio lock, which we hold.  Other references do not stop it
 * (they are the caller's business, e.g. direct I/O wants the cache gone).
 */
static int invalidate_complete_folio2(struct address_space *mapping, struct folio *folio)
{
	if (folio->mapping != mapping || folio_test_dirty(folio))
		return 0;
	if (!filemap_release_folio(folio, GFP_KERNEL))
		return 0;
	filemap_remove_folio(folio);
	return 1;
}

/*
 * Pages @start..@end (inclusive) all leave the cache,
 * waiting for each folio's lock and writeback; value entries go too.  A dirty folio stays
 * (tinymm has no launder_folio to write it synchronously): -EBUSY.  0 if everything went.
 */
int invalidate_inode_pages2_range(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	pgoff_t indices[PAGEVEC_SIZE], index = start;
	struct folio_batch fbatch;
	int ret = 0;

	if (mapping_empty(mapping))
		return 0;
	while (find_get_entries(mapping, &index, end, &fbatch, indices)) {
		for (unsigned int i = 0; i < folio_batch_count(&fbatch); i++) {
			struct folio *folio = fbatch.folios[i];

			if (xa_is_value(folio))
				continue;
			folio_lock(folio);
			if (unlikely(folio->mapping != mapping)) {	/* gone while we slept */
				folio_unlock(folio);
				continue;
			}
			VM_BUG_ON_PAGE(folio->index != indices[i], &folio->page);
			folio_wait_writeback(folio);
			if (!invalidate_complete_folio2(mapping, folio))
				ret = -EBUSY;
			folio_unlock(folio);
		}
		truncate_folio_batch_exceptionals(mapping, &fbatch, indices);
		truncate_batch_release(&fbatch);
		if (!index)		/* the last entry was at ~0UL */
			break;
	}
	return ret;
}

int invalidate_inode_pages2(struct address_space *mapping)
{
	return invalidate_inode_pages2_range(mapping, 0, ~0UL);
}

/*
 * v6.10's truncate_pagecache: the caller has set i_size to @newsize.  The pages wholly beyond
 * it are unmapped first, so no pte keeps a folio that is about to go; then the page cache
 * beyond @newsize is dropped; then they are unmapped again, for a private copy a racing
 * fault made meanwhile.  A later access beyond the new end is SIGBUS (filemap_fault).
 */
void truncate_pagecache(struct inode *inode, loff_t newsize)
{
	struct address_space *mapping = inode->i_mapping;
	loff_t holebegin = (loff_t)(((uint64_t)newsize + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1));

	if (unmap_mapping_range)
		unmap_mapping_range(mapping, holebegin, 0, true);
	truncate_inode_pages(mapping, newsize);
	if (unmap_mapping_range)
		unmap_mapping_range(mapping, holebegin, 0, true);
}
