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
 *   a page-cache folio on the LRU -> moved: locked, its writeback waited for, isolated from the
 *       LRU; a new folio of the same order gets its bytes and flags and takes its slot in
 *       mapping->i_pages; the new folio goes on the LRU, the old frame is marked and held
 *       (page_handle_poison(page, false, true));
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
 * Where tinymm differs from v6.10, and why: v6.10 moves an in-use folio with migrate_pages();
 * tinymm has no migration, so migrate_cache_folio() below is the smallest replacement that is
 * correct for what tinymm has: page-cache folios, a mapped one unmapped first under its lock
 * (try_to_unmap: its tasks refault onto the new frame, where v6.10 leaves migration entries
 * and maps the new frame back); an anonymous folio is refused (-EBUSY, "page migration
 * failed": it would need migration entries); buffer heads are freed first, as
 * fallback_migrate_folio() does.  PG_mlocked moves as a flag (v6.10 rebuilds it from the
 * VM_LOCKED mappings in remove_migration_ptes), and a pass that finds the folio busy sleeps
 * before the next (v6.10 just retries; on one CPU the holder runs only if we sleep).  A large
 * folio is moved whole (v6.10 splits it first with try_to_split_thp_page; tinymm cannot split,
 * and its page cache holds order-0 folios only).  A clean folio is always moved, never
 * dropped with mapping_evict_folio() as v6.10 tries first ("invalidated"): the cache stays
 * warm and the bytes stay in memory at their index (docs/hwpoison.md, "Soft offline").
 * hwpoison_filter() (hwpoison-inject's) does not exist: every valid frame is online.
 */
#include <string.h>
#include "tinymm/bug.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/swap.h"
#include "internal.h"

/* migrate_pages()'s retry count. */
#define NR_MAX_MIGRATE_PAGES_RETRY	10

/* What the frame holds: get_hwpoison_page() (mm/memory-failure.c, Linux's get_any_page() and
 * its helpers) decides, with the per-CPU lists drained: 1 (in use, referenced), 0 (free),
 * -EBUSY or -EIO (cannot be handled). */

/* mm/rmap.c, linked where there are user page tables (not in the host's page-cache tests,
 * whose folios are never mapped). */
void try_to_unmap(struct folio *folio, enum ttu_flags flags) __attribute__((weak));

/* The caller's reference (MF_COUNT_INCREASED) goes on an early exit. */
static void put_ref_page(unsigned long pfn, int flags)
{
	if (flags & MF_COUNT_INCREASED)
		put_page(pfn_to_page(pfn));
}

/* ---- the LRU: folio_isolate_lru() is mm/hwpoison_actions.c's mf_folio_isolate_lru();
 * Linux's folio_putback_lru() (mm/swap.c) here ---- */

static void so_folio_putback_lru(struct folio *folio)
{
	folio_add_lru(folio);
	folio_put(folio);		/* the isolation's reference */
}

/* Isolation takes its own reference, so get_any_page()'s goes
 * whatever the outcome. */
static bool mf_isolate_folio(struct folio *folio)
{
	bool isolated = mf_folio_isolate_lru(folio);

	folio_put(folio);
	return isolated;
}

/* ---- moving a page-cache folio (tinymm's stand-in for migrate_pages(): see the header) ---- */

/*
 * folio_migrate_mapping() + folio_migrate_flags() for an unmapped page-cache folio:
 * @src is locked, not under writeback, isolated (our reference); @dst is new and private.
 * The bytes and PG_uptodate first, while @dst is still ours alone; then under xa_lock, if
 * nobody but the cache and us holds @src, @dst takes its slot, its cache reference, its
 * mapping and index, its dirt and its LRU and age flags.  @dst is returned locked (kept so
 * until the move is done).  true if moved; false (Linux's -EAGAIN: someone else holds
 * @src, or it left its mapping) leaves @dst as it was.
 */
static bool move_cache_folio(struct folio *dst, struct folio *src)
{
	struct address_space *mapping = src->mapping;
	unsigned long flags;
	void *old;

	lockdep_assert_folio_locked(src);
	if (!mapping)
		return false;
	/* Buffer heads point into @src: v6.10's fallback_migrate_folio() frees them first, and a
	 * folio whose buffers stay (dirty or in use) is not moved in this pass. */
	if (!filemap_release_folio(src, GFP_KERNEL))
		return false;
	memcpy(page_address(&dst->page), page_address(&src->page), folio_nr_pages(src) * PAGE_SIZE);
	if (folio_test_uptodate(src))
		folio_mark_uptodate(dst);	/* the barrier: the bytes before the flag */
	__folio_set_locked(dst);

	/* Frozen at the cache's reference and ours: a lockless lookup (filemap.c) cannot take one
	 * while the slot changes hands, and finds @dst after. */
	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	if (src->mapping != mapping || !folio_ref_freeze(src, 2)) {
		spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
		__folio_clear_locked(dst);
		__folio_clear_uptodate(dst);
		return false;
	}
	dst->index = src->index;
	dst->mapping = mapping;
	folio_get(dst);				/* the cache's reference */
	/* folio_migrate_flags(); PG_dirty moves here, before @dst is visible, so the
	 * DIRTY mark it keeps and NR_FILE_DIRTY stay true throughout. */
	if (folio_test_clear_dirty(src))
		folio_set_dirty(dst);
	if (folio_test_referenced(src))
		folio_set_referenced(dst);
	if (folio_test_clear_active(src))
		folio_set_active(dst);
	else if (folio_test_clear_unevictable(src))
		folio_set_unevictable(dst);
	if (folio_test_workingset(src))
		folio_set_workingset(dst);
	if (folio_test_owner_priv_1(src))	/* PG_checked */
		folio_set_owner_priv_1(dst);
	if (folio_test_mappedtodisk(src))
		folio_set_mappedtodisk(dst);
	if (folio_test_young(src))
		folio_set_young(dst);
	if (folio_test_idle(src))
		folio_set_idle(dst);
	if (folio_test_readahead(src))
		folio_set_readahead(dst);
	/* PG_dcache_clean is not copied (v6.10's folio_migrate_flags leaves PG_arch_1 behind):
	 * the copy's lines were written by the kernel, and the next executable pte must do
	 * the maintenance for them (docs/cacheflush.md). */
	/* No VM_LOCKED mappings to rebuild PG_mlocked from: the flag itself moves, and
	 * folio_add_lru() puts @dst where it belongs. */
	if (folio_test_clear_mlocked(src))
		folio_set_mlocked(dst);
	/* The same slot: no node is allocated, the marks stay, and the workingset's node
	 * accounting sees one folio for another (no change). */
	old = xa_store(&mapping->i_pages, src->index, dst, GFP_ATOMIC);
	VM_BUG_ON_PAGE(old != src, &src->page);
	src->mapping = NULL;
	src->private = 0;
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	folio_ref_unfreeze(src, 1);		/* the cache's gone; ours is left */
	return true;
}

/*
 * Move isolated @src (we hold its isolation reference) to a new folio of the same order, as
 * migrate_pages(MIGRATE_SYNC, MR_MEMORY_FAILURE) would: up to 10 passes while someone
 * else holds it; each pass locks it and waits for its writeback.  On success @src keeps only
 * our reference, for page_handle_poison() (migrate_folio_done() does not put it for
 * MR_MEMORY_FAILURE).  0; 1 (not moved: the count of folios that failed); -ENOMEM.
 */
static long migrate_cache_folio(struct folio *src)
{
	struct folio *dst = NULL;
	bool moved = false;

	for (int pass = 0; pass < NR_MAX_MIGRATE_PAGES_RETRY && !moved; pass++) {
		/* One CPU: a holder we wait for runs only if we sleep. */
		if (pass)
			msleep(1);
		if (page_ref_count(&src->page) == 1) {
			/* Truncated meanwhile, and ours is the last reference: nothing to move
			 * (migrate_folio_unmap(): "freed from under us"). */
			folio_clear_active(src);
			folio_clear_unevictable(src);
			moved = true;
			break;
		}
		if (!dst) {
			/* alloc_migration_target() for MR_MEMORY_FAILURE; before the lock, as
			 * Linux allocates before locking the source. */
			dst = folio_alloc(GFP_USER | __GFP_MOVABLE | __GFP_RETRY_MAYFAIL, folio_order(src));
			if (!dst)
				return -ENOMEM;
		}
		folio_lock(src);
		folio_wait_writeback(src);
		/* Its ptes go first (v6.10 leaves migration entries; tinymm's tasks refault onto
		 * the new frame), their dirt into the folio, which carries it over. */
		if (folio_mapped(src) && try_to_unmap)
			try_to_unmap(src, TTU_IGNORE_MLOCK);
		lru_add_drain_all();	/* a batch's reference would make every pass fail */
		moved = move_cache_folio(dst, src);
		if (moved) {
			folio_add_lru(dst);	/* its list is chosen from its flags at the drain */
			folio_unlock(dst);
			folio_put(dst);		/* ours: the cache's and the batch's remain */
			dst = NULL;
		}
		folio_unlock(src);
	}
	if (dst)
		folio_put(dst);
	return moved ? 0 : 1;
}

/* For a referenced, in-use @page (get_any_page() said 1). */
static int soft_offline_in_use_page(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);
	struct folio *folio = page_folio(page);
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
	/* An anonymous folio would need migration entries in its ptes (the header says why). */
	if (folio_test_anon(folio)) {
		folio_put(folio);
		format_page_flags(type, sizeof(type), page->flags);
		pr_info("soft offline: %#lx: page migration failed 1, type %s\n", pfn, type);
		return -EBUSY;
	}

	if (!mf_isolate_folio(folio)) {
		format_page_flags(type, sizeof(type), page->flags);
		pr_info("soft offline: %#lx: page isolation failed, page count %d, type %s\n",
			pfn, page_ref_count(page), type);
		return -EBUSY;
	}
	ret = migrate_cache_folio(folio);
	if (!ret) {
		if (!page_handle_poison(page, false, true))
			ret = -EBUSY;
	} else {
		so_folio_putback_lru(folio);
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
