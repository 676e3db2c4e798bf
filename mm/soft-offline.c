/*
 * soft-offline.c - soft offline: take a frame that still works, but is suspected (it had
 * corrected errors), out of use without losing a byte of what it holds.  As Linux v6.10's
 * soft_offline_page() and soft_offline_in_use_page() (mm/memory-failure.c); the hard case,
 * memory_failure(), and the common end, page_handle_poison(), are mm/memory-failure.c's
 * (docs/hwpoison.md, "Soft offline").
 *
 * What happens to the frame, by what it holds (get_any_page() decides, after draining
 * the per-CPU lists and the LRU batches):
 *   free, on the buddy lists or a per-CPU list -> taken off (take_page_off_buddy, through
 *       page_handle_poison(page, true, false)), marked, held: nothing to copy;
 *   a folio on the LRU (page cache, swap cache or anonymous, mapped or not), or a driver's
 *       movable page -> moved by migrate_pages(MIGRATE_SYNC, MR_MEMORY_FAILURE) (mm/migrate.c:
 *       its ptes become migration entries, a new folio gets its bytes, flags, slot and
 *       mappings), the old frame is marked and held (page_handle_poison(page, false, true));
 *   anything else (kernel, slab, reserved, a tail of a non-compound block) -> refused, -EIO,
 *       "Memory failure: 0x<pfn>: unhandlable page.", nothing changes.
 *
 * Invariants:
 *   - The bytes at the folio's index stay readable throughout: the new folio is complete
 *     (bytes copied, PG_uptodate as the old one's) before it becomes visible, and one xa_lock
 *     hold swaps the two.  A reader sees the old folio or the new one, never a hole.
 *   - The swap happens only while nobody but the cache and us holds the old folio: its
 *     reference count is exactly 2 under xa_lock, where no lookup can run (lookups mask
 *     interrupts; xa_lock is taken with them masked: docs/pagecache.md).  Linux freezes the
 *     count for the same proof.  Otherwise the move is tried again (10 passes), then
 *     given up: -EBUSY, the old folio back on the LRU, nothing lost.
 *   - Writers and writeback need the folio lock, and we hold the old folio's from before its
 *     writeback is waited for until after the swap: the bytes copied are the bytes cached, and
 *     PG_dirty moves to the new folio in the swap, with the index's DIRTY/TOWRITE marks (an
 *     xa_store over a present entry keeps them), so NR_FILE_DIRTY, nrpages and NR_FILE_PAGES
 *     do not move (one node).
 *   - A soft-offlined frame ends as page_handle_poison() leaves it: PG_hwpoison, one reference
 *     (its own), no mapping, on no list, counted once in num_poisoned_pages; unpoison_memory()
 *     gives it back.  The per-node memory_failure statistics do not count soft offline (only
 *     memory_failure()'s action_result() does).
 * Locking: mf_mutex (mm/memory-failure.c) around the whole of soft_offline_page();
 *   then the old folio's lock (sleeping), its mapping's xa_lock (irqs masked) inside it;
 *   lru_lock only outside xa_lock (isolation, folio_add_lru); the zone lock inside
 *   take_page_off_buddy().  Never from interrupt context.
 *
 * Where tinymm differs from v6.10, and why: a large folio is not split first (v6.10's
 * try_to_split_thp_page; tinymm cannot split, and maps and caches order-0 folios only), so
 * migrate_pages() refuses it.  A clean folio is always moved, never dropped with
 * mapping_evict_folio() as v6.10 tries first ("invalidated"): the cache stays warm and the
 * bytes stay in memory at their index (docs/hwpoison.md, "Soft offline").
 * hwpoison_filter() (hwpoison-inject's) does not exist: every valid frame is online.
 */
#include <string.h>
#include "tinymm/bug.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/memory-failure.h"
#include "tinymm/migrate.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/swap.h"
#include "internal.h"

/* What the frame holds: get_hwpoison_page() (mm/memory-failure.c, Linux's get_any_page() and
 * its helpers) decides, with the per-CPU lists drained: 1 (in use, referenced), 0 (free),
 * -EBUSY or -EIO (cannot be handled). */

/* The caller's reference (MF_COUNT_INCREASED) goes on an early exit. */
static void put_ref_page(unsigned long pfn, int flags)
{
	if (flags & MF_COUNT_INCREASED)
		put_page(pfn_to_page(pfn));
}

/* v6.10's isolate_page() for soft offline: an LRU folio off its list, or a driver's movable
 * page isolated, onto @list with a reference of its own; get_any_page()'s reference goes
 * whatever the outcome. */
static bool so_isolate_folio(struct folio *folio, struct page_list *list)
{
	bool isolated;

	if (__PageMovable(&folio->page))
		isolated = isolate_movable_page(&folio->page, ISOLATE_UNEVICTABLE);
	else
		isolated = folio_isolate_lru(folio);
	if (isolated)
		page_list_add_tail(list, &folio->page);
	folio_put(folio);
	return isolated;
}

/* For a referenced, in-use @page (get_any_page() said 1). */
static int soft_offline_in_use_page(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);
	struct folio *folio = page_folio(page);
	struct page_list pagelist;
	char type[160];
	long ret;

	/* A large folio is moved whole: no split (see the header). */
	folio_lock(folio);
	folio_wait_writeback(folio);
	lru_add_drain_all();	/* a folio in an LRU batch (any CPU's) holds a reference */
	if (PageHWPoison(page)) {
		folio_unlock(folio);
		folio_put(folio);
		pr_info("soft offline: %#lx page already poisoned\n", pfn);
		return 0;
	}
	/* No mapping_evict_folio() attempt: a clean folio is moved too (see the header). */
	folio_unlock(folio);
	page_list_init(&pagelist);
	if (!so_isolate_folio(folio, &pagelist)) {
		format_page_flags(type, sizeof(type), page->flags);
		pr_info("soft offline: %#lx: page isolation failed, page count %d, type %s\n",
			pfn, page_ref_count(page), type);
		return -EBUSY;
	}
	/* MR_MEMORY_FAILURE: a moved folio keeps our reference, for page_handle_poison(). */
	ret = migrate_pages(&pagelist, alloc_migration_target, NULL, 0, MIGRATE_SYNC,
			    MR_MEMORY_FAILURE, NULL);
	if (!ret) {
		if (!page_handle_poison(page, false, true))
			ret = -EBUSY;
	} else {
		putback_movable_pages(&pagelist);
		format_page_flags(type, sizeof(type), page->flags);
		pr_info("soft offline: %#lx: page migration failed %ld, type %s\n", pfn, ret, type);
		if (ret > 0)
			ret = -EBUSY;
	}
	return (int)ret;
}

/*
 * Soft-offline frame @pfn (@flags as memory_failure()'s:
 * MF_COUNT_INCREASED if the caller already holds a reference).  0 on success (also when the
 * frame was poisoned already); -ENXIO (no such frame: silent; the shell says it),
 * -EIO (a kind of page that cannot be moved), -EBUSY (it stayed busy, or a free frame was
 * allocated under us twice), -ENOMEM (no frame to move it to).  On failure nothing changes.
 * No hwpoison_filter(); every valid frame is online (pfn_to_online_page()).  Sleeps.
 */
int soft_offline_page(unsigned long pfn, int flags)
{
	bool try_again = true;
	struct page *page;
	int ret;

	if (!pfn_valid(pfn)) {
		WARN_ON_ONCE(flags & MF_COUNT_INCREASED);
		return -ENXIO;
	}
	page = pfn_to_page(pfn);

	mutex_lock(&mf_mutex);
	if (PageHWPoison(page)) {
		pr_info("soft_offline_page: %#lx page already poisoned\n", pfn);
		put_ref_page(pfn, flags);
		mutex_unlock(&mf_mutex);
		return 0;
	}
retry:
	ret = get_hwpoison_page(page, flags | MF_SOFT_OFFLINE);
	if (ret > 0) {
		ret = soft_offline_in_use_page(page);
	} else if (ret == 0) {
		if (!page_handle_poison(page, true, false)) {
			/* Allocated between the two looks: once more, then give up. */
			if (try_again) {
				try_again = false;
				flags &= ~MF_COUNT_INCREASED;
				goto retry;
			}
			ret = -EBUSY;
		}
	}
	mutex_unlock(&mf_mutex);
	return ret;
}
