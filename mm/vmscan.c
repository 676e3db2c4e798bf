/*
 * vmscan.c - page reclaim's decisions, one folio at a time (Linux v6.10's mm/vmscan.c):
 * isolation from an LRU list and putback, folio_check_references() (its page-table references
 * read through rmap: folio_referenced()), a mapped folio unmapped first (try_to_unmap()), an
 * anonymous one given a swap slot first (add_to_swap()), a dirty one written (pageout()), a
 * clean unreferenced one out of the page cache (leaving a workingset shadow entry,
 * mm/workingset.c) or the swap cache, and freed.  Which lists are scanned, and how much, is
 * mm/vmscan_node.c's; kswapd is mm/kswapd.c's.
 *
 * Invariants:
 *   - a folio reclaim works on is isolated: off every list, PG_lru clear, with reclaim's
 *     reference; it goes back (putback) or is freed, never both, never neither;
 *   - a folio leaves the cache here only locked, clean, not under writeback, with exactly the
 *     cache's reference and reclaim's (checked under xa_lock, which no lookup can pass);
 *   - only kswapd writes file folios out (direct reclaim's stack is someone else's), and only
 *     a folio it already marked PG_reclaim once; anonymous folios go to swap from either
 *     (mm/swap_state.c's add_to_swap first, so the unmapped ptes can name the slot); a write
 *     ends with the folio rotated to the inactive tail (folio_rotate_reclaimable) so the next
 *     scan frees it;
 * Locking: lru_lock (irqsave) around isolation and putback; the folio lock (trylock only:
 *   reclaim never sleeps on a folio) around the decision; xa_lock around removal from the cache.
 *   Order: folio lock, xa_lock, lru_lock; the rmap walks nest i_mmap_lock (trylocked for
 *   folio_referenced, waited for by try_to_unmap as v6.10) and page_table_lock inside the
 *   folio lock, never inside lru_lock or xa_lock.
 *
 * Where tinymm differs from v6.10, and why:
 *   - try_to_unmap() flushes each pte as it clears it (no TTU_BATCH_FLUSH); anonymous folios
 *     are written to swap by direct reclaim and kswapd alike, as v6.10 (only file folios wait
 *     for kswapd or the flusher).
 *   - pageout() has a PAGE_RETRY outcome: tinymm's writepage can fail before starting any I/O
 *     (no memory for a bio: -ENOMEM) and then redirties the folio, so nothing is recorded on the
 *     mapping, or the next fsync would report an error for data still safe in the cache
 *     (v6.10's handle_write_error() records any error; its block device's bios come from a
 *     mempool and cannot fail to start).
 */
#include <limits.h>
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/irqflags.h"
#include "tinymm/timer.h"
#include "tinymm/page_alloc.h"
#include "tinymm/mmap.h"
#include "tinymm/pagemap.h"
#include "tinymm/rmap.h"
#include "tinymm/sched.h"
#include "tinymm/shrinker.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "tinymm/vmstat.h"
#include "tinymm/workingset.h"
#include "tinymm/writeback.h"
#include "internal.h"
#include "vmscan.h"


struct pgdat_reclaim pgdat;

static bool pgdat_test(int bit)
{
	return test_bit(bit, &pgdat.flags);
}

/* ---- the lists ---- */

/*
 * Up to @nr_to_scan folios from the tail of @lru onto @dst, each
 * with a reference and PG_lru cleared.  A folio whose last reference is going (refcount 0: its
 * putter waits for lru_lock to take it off) is skipped.  lru_lock held.
 */
unsigned long isolate_lru_folios(unsigned long nr_to_scan, struct lruvec *lruvec,
					struct page_list *dst, unsigned long *nr_scanned, enum lru_list lru)
{
	struct page_list *src = &lruvec->lists[lru];
	unsigned long scan = 0, taken = 0;
	struct page_list busy;

	lockdep_assert_held(&lruvec->lru_lock);
	page_list_init(&busy);
	while (scan < nr_to_scan && !page_list_empty(src)) {
		struct page *page = link_to_page(src->last);
		struct folio *folio = page_folio(page);

		scan += folio_nr_pages(folio);
		/* A reference only if the count is not 0 (its last put may be racing us to
		 * __page_cache_release, which waits for this lock to unlink it: leave it to that),
		 * then PG_lru claimed (v6.10's folio_try_get + folio_test_clear_lru). */
		if (!folio_try_get(folio)) {
			page_list_del(src, page);
			page_list_add(&busy, page);
			continue;
		}
		if (!folio_test_clear_lru(folio)) {
			folio_put(folio);		/* not the last: whoever cleared PG_lru holds one */
			page_list_del(src, page);
			page_list_add(&busy, page);
			continue;
		}
		lruvec_del_folio(lruvec, folio);
		page_list_add(dst, &folio->page);
		taken += folio_nr_pages(folio);
	}
	/* The skipped ones go back to the head (Linux's move-to-src). */
	while (!page_list_empty(&busy)) {
		struct page *page = link_to_page(busy.last);
		page_list_del(&busy, page);
		page_list_add(src, page);
	}
	*nr_scanned = scan;
	return taken;
}

/* v6.10's folio_isolate_lru(): @folio off its LRU list, PG_lru cleared, with a reference of
 * the caller's; false if it was not on a list (another isolator has it, or an LRU batch). */
bool folio_isolate_lru(struct folio *folio)
{
	unsigned long flags;

	if (!folio_test_clear_lru(folio))
		return false;
	folio_get(folio);
	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	lruvec_del_folio(&node_lruvec, folio);		/* the list's count and node stat too */
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
	return true;
}

/*
 * Each folio back onto the list its flags say (an evictable-no-
 * more folio to the unevictable list, as folio_putback_lru would); reclaim's reference goes.
 * A folio whose only reference was reclaim's (truncated meanwhile) is freed instead.
 * Returns the pages put back on an evictable list (culled folios are not counted: Linux's
 * go through folio_putback_lru).  Taken from the list's tail, which holds the
 * oldest (isolation takes the LRU tail first and pushes each on the head), and added at the
 * LRU head: the folios keep their relative order.
 */
unsigned long move_folios_to_lru(struct lruvec *lruvec, struct page_list *list)
{
	unsigned long moved = 0, flags;
	struct page_list free;

	page_list_init(&free);
	spin_lock_irqsave(&lruvec->lru_lock, flags);
	while (!page_list_empty(list)) {
		struct page *page = link_to_page(list->last);
		struct folio *folio = page_folio(page);
		bool culled = false;

		page_list_del(list, page);
		/* PG_lru before our put, as v6.10: if another holder's put is the last, its
		 * __page_cache_release must find the folio listed (it waits for this lock). */
		folio_set_lru(folio);
		if (atomic_dec_and_test(&folio->_refcount)) {
			/* Ours was the last (truncated or unmapped meanwhile): no list.  Its LRU flags
			 * go as __folio_clear_lru_flags; freed below, outside the lock. */
			folio_clear_lru(folio);
			folio_clear_active(folio);
			folio_clear_unevictable(folio);
			page_list_add(&free, page);
			continue;
		}
		if (!folio_evictable(folio)) {
			folio_clear_active(folio);
			if (!folio_test_unevictable(folio))
				count_vm_events(UNEVICTABLE_PGCULLED, (long)folio_nr_pages(folio));
			folio_set_unevictable(folio);
			culled = true;
		}
		lruvec_add_folio(lruvec, folio);
		if (!culled)
			moved += folio_nr_pages(folio);
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	while (!page_list_empty(&free)) {
		struct page *page = link_to_page(free.first);
		page_list_del(&free, page);
		__folio_put(page_folio(page));	/* the count is 0 already */
	}
	return moved;
}

/* ---- deciding one folio ---- */

/*
 * v6.10's rules, for a locked folio at the inactive tail.  Every mapping starts with the young
 * bit its fault set, so one pte reference alone only earns another trip round the inactive list
 * (KEEP, and PG_referenced so the next reference activates); a second one, several mappings, or
 * an executable file mapping activate.  No pte reference: a folio read() since the last look
 * (PG_referenced) is reclaimed only if clean, one not accessed is reclaimed.
 */
enum folio_references folio_check_references(struct folio *folio)
{
	unsigned long vm_flags = 0;
	int referenced_ptes = folio_mapped(folio) ? folio_referenced(folio, 1, &vm_flags) : 0;
	bool referenced_folio = folio_test_clear_referenced(folio);

	if (vm_flags & VM_LOCKED)
		return FOLIOREF_ACTIVATE;	/* putback culls it if it is mlocked */
	if (referenced_ptes == -1)
		return FOLIOREF_KEEP;		/* an rmap lock was busy: look again later */
	if (referenced_ptes) {
		folio_set_referenced(folio);
		if (referenced_folio || referenced_ptes > 1)
			return FOLIOREF_ACTIVATE;
		if ((vm_flags & VM_EXEC) && !folio_test_swapbacked(folio))
			return FOLIOREF_ACTIVATE;
		return FOLIOREF_KEEP;
	}
	if (referenced_folio && !folio_test_swapbacked(folio))
		return FOLIOREF_RECLAIM_CLEAN;
	return FOLIOREF_RECLAIM;
}

/*
 * Take a clean folio out of the cache, leaving a shadow entry.  A count of exactly two (the
 * cache's and ours) means nobody else uses it, and freezing it there (v6.10's
 * folio_ref_freeze) keeps it so: page-cache lookups take no lock (filemap.c), and their
 * folio_try_get() fails on a frozen folio.  The dirty test comes after the freeze, as in
 * v6.10: whoever dirties a folio holds a reference.  On success the count comes back as ours
 * alone (v6.10's remove_mapping()).
 */
static bool __remove_mapping(struct address_space *mapping, struct folio *folio)
{
	unsigned long flags;

	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	if (!folio_test_swapcache(folio) && folio->mapping != mapping)
		goto cannot_free;
	if (!folio_ref_freeze(folio, 2))
		goto cannot_free;
	if (folio_test_dirty(folio) || folio_test_writeback(folio)) {
		folio_ref_unfreeze(folio, 2);
		goto cannot_free;
	}
	if (folio_test_swapcache(folio)) {
		/* Written out: its slot keeps the data for the swap ptes (no shadow: anonymous
		 * refaults are not tracked, mm/swap_state.c). */
		swp_entry_t entry = folio_swap_entry(folio);

		__delete_from_swap_cache(folio, entry);
		spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
		put_swap_folio(entry);
		folio_ref_unfreeze(folio, 1);
		return true;
	}
	__filemap_remove_folio(folio, workingset_eviction(folio));
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	folio_ref_unfreeze(folio, 1);		/* the cache's gone: ours remains */
	return true;
cannot_free:
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	return false;
}

/* PAGE_RETRY (tinymm's): writepage failed before starting any I/O and redirtied the folio
 * (unlocked): kept for a later pass or the flusher, and no error is recorded. */
enum pageout { PAGE_KEEP, PAGE_ACTIVATE, PAGE_SUCCESS, PAGE_CLEAN, PAGE_RETRY };

/*
 * Start writeback of one dirty folio with PG_reclaim set, so its end rotates it to the inactive
 * tail.  The folio is locked; writepage unlocks it.
 */
static enum pageout pageout(struct folio *folio, struct address_space *mapping)
{
	lockdep_assert_folio_locked(folio);
	if (!mapping->a_ops->writepage)
		return PAGE_ACTIVATE;
	if (!folio_clear_dirty_for_io(folio))
		return PAGE_CLEAN;
	struct writeback_control wbc = {
		.sync_mode = WB_SYNC_NONE, .nr_to_write = SWAP_CLUSTER_MAX,
		.range_start = 0, .range_end = LLONG_MAX,
	};
	folio_set_reclaim(folio);
	int res = mapping->a_ops->writepage(folio, &wbc);
	if (!folio_test_writeback(folio))
		folio_clear_reclaim(folio);	/* written synchronously, or not at all */
	/* Failed to start (the header says why that records nothing): kept, still dirty. */
	if (res < 0 && folio_test_dirty(folio) && !folio_test_writeback(folio))
		return PAGE_RETRY;
	if (res < 0)
		mapping_set_error(mapping, res);
	mod_node_page_state(NR_VMSCAN_WRITE, (long)folio_nr_pages(folio));
	return PAGE_SUCCESS;
}

/*
 * Decide each isolated folio of @list.  Freed folios leave the list; kept ones stay on it
 * (unlocked) for the caller to put back.  Returns pages freed.
 */
unsigned long shrink_folio_list(struct page_list *list, struct scan_control *sc,
				       struct reclaim_stat *stat)
{
	struct page_list ret;
	unsigned long nr_reclaimed = 0;

	page_list_init(&ret);
	while (!page_list_empty(list)) {
		/* The oldest first: isolation left it at the tail (lru_to_folio). */
		struct page *page = link_to_page(list->last);
		struct folio *folio = page_folio(page);
		unsigned int nr_pages = (unsigned int)folio_nr_pages(folio);
		struct address_space *mapping;
		enum folio_references references;

		page_list_del(list, page);
		if (!folio_trylock(folio))
			goto keep;
		sc->nr_scanned += nr_pages;
		if (!folio_evictable(folio))
			goto activate_locked;	/* putback culls it to the unevictable list */

		/* folio_check_dirty_writeback()'s accounting, for kswapd's PGDAT_* flags: file
		 * folios only (no flusher writes anonymous ones: reclaim must not wait for one). */
		bool dirty = folio_test_dirty(folio), writeback = folio_test_writeback(folio);
		bool file = !folio_test_swapbacked(folio);
		if (file && (dirty || writeback))
			stat->nr_dirty += nr_pages;
		if (file && dirty && !writeback)
			stat->nr_unqueued_dirty += nr_pages;
		if (file && writeback && folio_test_reclaim(folio))
			stat->nr_congested += nr_pages;

		if (writeback) {
			if (current_is_kswapd() && folio_test_reclaim(folio) && pgdat_test(PGDAT_WRITEBACK)) {
				/* Case 1: kswapd meets its own writeback again: pages are cycling
				 * faster than the disk; come back later. */
				stat->nr_immediate += nr_pages;
				goto activate_locked;
			}
			/* Case 2: mark it, so the end of writeback rotates it to the tail. */
			folio_set_reclaim(folio);
			stat->nr_writeback += nr_pages;
			goto activate_locked;
		}

		references = folio_check_references(folio);
		if (references == FOLIOREF_ACTIVATE)
			goto activate_locked;
		if (references == FOLIOREF_KEEP)
			goto keep_locked;

		/* Anonymous memory goes to swap: a slot and the swap cache first (v6.10's
		 * add_to_swap), so the ptes unmapped next can name the slot.  No slot left: kept. */
		if (folio_test_anon(folio) && folio_test_swapbacked(folio) && !folio_test_swapcache(folio)) {
			if (!(sc->gfp_mask & __GFP_IO))
				goto keep_locked;
			if (!add_to_swap(folio))
				goto activate_locked;
		}
		/* Mapped: unmapped first (a dirty pte dirties the folio), or kept active. */
		if (folio_mapped(folio)) {
			try_to_unmap(folio, 0);
			if (folio_mapped(folio)) {
				stat->nr_unmap_fail += nr_pages;
				goto activate_locked;
			}
		}
		mapping = folio_test_swapcache(folio) ? swap_address_space(folio_swap_entry(folio)) :
			  folio->mapping;
		if (folio_test_dirty(folio)) {
			/* A file folio: only kswapd writes, and only one it has seen dirty at the tail
			 * before while the tail is all dirty; otherwise mark it and let the flusher do
			 * it.  An anonymous one has no flusher: reclaim writes it to swap. */
			if (!folio_test_swapbacked(folio) &&
			    (!current_is_kswapd() || !folio_test_reclaim(folio) || !pgdat_test(PGDAT_DIRTY))) {
				mod_node_page_state(NR_VMSCAN_IMMEDIATE, nr_pages);
				folio_set_reclaim(folio);
				goto activate_locked;
			}
			if (references == FOLIOREF_RECLAIM_CLEAN || !sc->may_writepage || !mapping)
				goto keep_locked;
			/* Swap I/O only where the allocation allows I/O (v6.10's may_enter_fs for a
			 * swap-cache folio): a GFP_NOIO caller may hold what the disk's path needs. */
			if (folio_test_swapbacked(folio) && !(sc->gfp_mask & __GFP_IO))
				goto keep_locked;
			switch (pageout(folio, mapping)) {
			case PAGE_KEEP:
				goto keep_locked;
			case PAGE_ACTIVATE:
				goto activate_locked;
			case PAGE_SUCCESS:
				stat->nr_pageout += nr_pages;
				if (folio_test_writeback(folio) || folio_test_dirty(folio))
					goto keep;
				if (!folio_trylock(folio))
					goto keep;
				if (folio_test_dirty(folio) || folio_test_writeback(folio))
					goto keep_locked;
				mapping = folio_test_swapcache(folio) ?
					  swap_address_space(folio_swap_entry(folio)) : folio->mapping;
				break;
			case PAGE_RETRY:
				goto keep;		/* writepage unlocked it */
			case PAGE_CLEAN:
				break;
			}
		}
		/* Private data (buffer heads) goes first, as v6.10's folio_needs_release() step;
		 * buffers that stay (dirty, locked or in use) keep the folio active. */
		if (folio_test_private(folio)) {
			if (!filemap_release_folio(folio, sc->gfp_mask))
				goto activate_locked;
			/* A truncated folio kept only by its buffers: ours is now the last
			 * reference (v6.10's "orphaned page" case). */
			if (!mapping && atomic_read(&folio->_refcount) == 1) {
				folio_clear_reclaim(folio);
				folio_unlock(folio);
				nr_reclaimed += nr_pages;
				folio_put(folio);
				continue;
			}
		}
		if (!mapping || !__remove_mapping(mapping, folio))
			goto keep_locked;
		folio_clear_reclaim(folio);	/* PG_readahead shares the bit: not a free-time flag */
		folio_unlock(folio);
		nr_reclaimed += nr_pages;
		folio_put(folio);		/* the last reference: the frame is free */
		continue;
activate_locked:
		/* Kept in memory: with swap short, its slot is better given to another
		 * (v6.10's: a swap-cache folio frees its swap when swap is full or it is mlocked). */
		if (folio_test_swapcache(folio) && (vm_swap_full() || folio_test_mlocked(folio)))
			folio_free_swap(folio);
		if (!folio_test_mlocked(folio)) {
			folio_set_active(folio);
			stat->nr_activate += nr_pages;
			count_vm_events(PGACTIVATE, nr_pages);
		}
keep_locked:
		folio_unlock(folio);
keep:
		page_list_add(&ret, page);	/* the list keeps its shape: oldest at the tail */
	}
	*list = ret;
	return nr_reclaimed;
}

/*
 * For the KTAP rules (tests/ktest/reclaim_ktest.c): shrink_folio_list() on @folio alone, as
 * kswapd or direct reclaim (with PGDAT_DIRTY as @pgdat_dirty), then put back as reclaim does.
 * Returns the pages freed; the folio is gone when it returns 1.  The folio must be on a list.
 */
unsigned long reclaim_folio_for_test(struct folio *folio, bool kswapd, bool pgdat_dirty)
{
	struct scan_control sc = {
		.nr_to_reclaim = 1, .gfp_mask = GFP_KERNEL, .priority = DEF_PRIORITY, .may_writepage = true,
	};
	struct reclaim_stat stat = { 0 };
	unsigned long flags, nr, saved_pgdat = pgdat.flags;
	unsigned int saved_task = current->flags;
	struct page_list list;

	lru_add_drain();
	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	if (!folio_test_lru(folio)) {
		spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
		return 0;
	}
	folio_get(folio);
	folio_clear_lru(folio);
	lruvec_del_folio(&node_lruvec, folio);
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
	page_list_init(&list);
	page_list_add(&list, &folio->page);
	if (kswapd)
		current->flags |= PF_KSWAPD;
	if (pgdat_dirty)
		set_bit(PGDAT_DIRTY, &pgdat.flags);
	else
		clear_bit(PGDAT_DIRTY, &pgdat.flags);
	count_vm_events(kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT, 1);
	nr = shrink_folio_list(&list, &sc, &stat);
	count_vm_events(kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, (long)nr);
	current->flags = saved_task;
	/* Only the bit this helper set: kswapd may have changed the others meanwhile. */
	if (saved_pgdat & (1UL << PGDAT_DIRTY))
		set_bit(PGDAT_DIRTY, &pgdat.flags);
	else
		clear_bit(PGDAT_DIRTY, &pgdat.flags);
	move_folios_to_lru(&node_lruvec, &list);
	return nr;
}
