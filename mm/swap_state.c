/*
 * swap_state.c - the swap cache: anonymous folios on their way to or from a swap slot, found
 * by their entry (Linux v6.10's mm/swap_state.c).  docs/swap.md.
 *
 * A folio in the swap cache has PG_swapcache and PG_swapbacked (folio_test_swapcache() wants
 * both), its entry in folio->private (v6.10's folio->swap), the cache's reference, and sits
 * in swap_address_space(entry)'s XArray at swp_offset(entry); its slot's map has
 * SWAP_HAS_CACHE.  folio->mapping stays what it was: the anon_vma of an anonymous folio, or
 * NULL for one read in that no pte maps yet.  Reclaim puts a folio in (add_to_swap) before it
 * unmaps it, so every pte it replaces names a slot whose data is the folio's; a fault finds it
 * there (swap_cache_get_folio) or reads it in (swapin_folio); the folio leaves when reclaim
 * frees it (clean, unmapped: mm/vmscan.c), or when the last swap pte is gone and its only
 * copy is the folio (folio_free_swap, free_swap_and_cache).
 *
 * Counters: every cached folio counts in NR_SWAPCACHE and, as v6.10, in NR_FILE_PAGES (meminfo
 * subtracts it from Cached and shows it as SwapCached).
 *
 * Locking: the cache's xa_lock (irqsave), folio lock outside it.  Lookups take no lock: the
 * XArray's lockless walk and folio_try_get() (mm/filemap.c), after which the caller checks
 * under the folio lock that the folio is still the cache's for that entry.
 *
 * Where tinymm differs from v6.10, and why: no workingset shadow entries for anonymous
 * folios (refault detection is file-only, mm/workingset.c); no VMA-based readahead, only the
 * cluster around the faulting slot (v6.10's swap_cluster_readahead: 2^page_cluster slots,
 * tinymm.page_cluster=, default 3); no swap_ra statistics.
 */
#include "tinymm/bug.h"
#include "tinymm/cmdline.h"
#include "tinymm/err.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/page-flags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"

/* v6.10's vm.page-cluster: a swap-in reads the aligned group of 2^page_cluster slots
 * around the faulting one (0: that slot alone). */
unsigned int page_cluster = 3;
KPARAM_UINT(page_cluster, page_cluster, 0, 5,
	    "0-5 (default 3): a swap-in reads 2^N slots around the faulting one (v6.10's vm.page-cluster)");

static const char *swap_cache_name(struct address_space *mapping)
{
	(void)mapping;
	return "swap cache";
}

static bool swap_dirty_folio(struct address_space *mapping, struct folio *folio)
{
	(void)mapping;
	return !folio_test_set_dirty(folio);	/* v6.10's noop_dirty_folio: no accounting */
}

static const struct address_space_operations swap_aops = {
	.writepage = swap_writepage,
	.dirty_folio = swap_dirty_folio,
	.name = swap_cache_name,
};

static struct address_space swapper_spaces[MAX_SWAPFILES];

/* swapon: area @type's cache starts empty (v6.10's init_swap_address_space). */
void init_swap_address_space(unsigned int type)
{
	struct address_space *space = &swapper_spaces[type];

	address_space_init(space, &swap_aops, 0);
	xa_set_update(&space->i_pages, NULL);	/* no shadow entries here */
}

/* swapoff, after try_to_unuse() emptied it. */
void exit_swap_address_space(unsigned int type)
{
	WARN_ON(swapper_spaces[type].nrpages);
	xa_destroy(&swapper_spaces[type].i_pages);
}

struct address_space *swap_address_space(swp_entry_t entry)
{
	return &swapper_spaces[swp_type(entry)];
}

/* The locked @folio into the cache under @entry (whose SWAP_HAS_CACHE the caller holds). */
static int add_to_swap_cache(struct folio *folio, swp_entry_t entry)
{
	struct address_space *space = swap_address_space(entry);
	unsigned long flags;
	void *old;

	lockdep_assert_folio_locked(folio);
	VM_BUG_ON_PAGE(folio_test_swapcache(folio) || !folio_test_swapbacked(folio), &folio->page);
	folio_get(folio);			/* the cache's reference */
	folio->private = entry.val;
	folio_set_swapcache(folio);
	spin_lock_irqsave(&space->i_pages.xa_lock, flags);
	old = xa_load(&space->i_pages, swp_offset(entry));
	if (old)
		old = xa_mk_err(-EEXIST);	/* SWAP_HAS_CACHE says this cannot be */
	else
		old = xa_store(&space->i_pages, swp_offset(entry), folio, GFP_ATOMIC);
	if (!xa_is_err(old)) {
		space->nrpages++;
		mod_node_page_state(NR_FILE_PAGES, 1);
		mod_node_page_state(NR_SWAPCACHE, 1);
	}
	spin_unlock_irqrestore(&space->i_pages.xa_lock, flags);
	if (xa_is_err(old)) {
		folio_clear_swapcache(folio);
		folio->private = 0;
		folio_put(folio);
		return xa_err(old);
	}
	return 0;
}

void __delete_from_swap_cache(struct folio *folio, swp_entry_t entry)
{
	struct address_space *space = swap_address_space(entry);

	lockdep_assert_held(&space->i_pages.xa_lock);
	lockdep_assert_folio_locked(folio);
	VM_BUG_ON_PAGE(!folio_test_swapcache(folio) || folio_test_writeback(folio), &folio->page);
	xa_erase(&space->i_pages, swp_offset(entry));
	folio->private = 0;
	folio_clear_swapcache(folio);
	space->nrpages--;
	mod_node_page_state(NR_FILE_PAGES, -1);
	mod_node_page_state(NR_SWAPCACHE, -1);
}

/* The locked folio out of the cache, its slot's SWAP_HAS_CACHE and the cache's reference
 * dropped. */
void delete_from_swap_cache(struct folio *folio)
{
	swp_entry_t entry = folio_swap_entry(folio);
	struct address_space *space = swap_address_space(entry);
	unsigned long flags;

	spin_lock_irqsave(&space->i_pages.xa_lock, flags);
	__delete_from_swap_cache(folio, entry);
	spin_unlock_irqrestore(&space->i_pages.xa_lock, flags);
	put_swap_folio(entry);
	folio_put(folio);
}

bool add_to_swap(struct folio *folio)
{
	swp_entry_t entry;

	lockdep_assert_folio_locked(folio);
	VM_BUG_ON_PAGE(!folio_test_anon(folio) || !folio_test_swapbacked(folio), &folio->page);
	entry = folio_alloc_swap(folio);
	if (!entry.val)
		return false;
	if (add_to_swap_cache(folio, entry)) {
		put_swap_folio(entry);
		return false;
	}
	/* Its ptes' dirt reaches the folio when reclaim unmaps it; a folio whose ptes were
	 * clean must be written all the same: its only copy is about to be the slot. */
	folio_set_dirty(folio);
	return true;
}

struct folio *swap_cache_get_folio(swp_entry_t entry)
{
	struct folio *folio;

	if (!swp_swap_info(entry))
		return NULL;
	folio = filemap_get_folio(swap_address_space(entry), swp_offset(entry));
	return IS_ERR(folio) ? NULL : folio;
}

bool folio_free_swap(struct folio *folio)
{
	lockdep_assert_folio_locked(folio);
	if (!folio_test_swapcache(folio) || folio_test_writeback(folio))
		return false;
	if (__swap_count(folio_swap_entry(folio)))
		return false;			/* a pte still names the slot */
	delete_from_swap_cache(folio);
	folio_set_dirty(folio);			/* the only copy now */
	return true;
}

void free_swap_and_cache(swp_entry_t entry)
{
	struct folio *folio;

	if (!swp_swap_info(entry))
		return;
	swap_free(entry);
	if (swap_map_value(entry) != SWAP_HAS_CACHE)
		return;
	/* Only the cache holds the slot: drop the folio from it unless it is mapped, or the
	 * space is short (v6.10's __try_to_reclaim_swap with TTRS_UNMAPPED | TTRS_FULL). */
	folio = swap_cache_get_folio(entry);
	if (!folio)
		return;
	if ((!folio_mapped(folio) || vm_swap_full()) && folio_trylock(folio)) {
		if (folio_test_swapcache(folio) && folio_swap_entry(folio).val == entry.val)
			folio_free_swap(folio);
		folio_unlock(folio);
	}
	folio_put(folio);
}

/*
 * The cache's folio for @entry, or a new one added locked for the caller to read
 * (*@new_folio): v6.10's __read_swap_cache_async.  NULL without memory or if the slot is no
 * longer in use.  SWAP_HAS_CACHE is the race's arbiter: of two tasks faulting on one entry,
 * one takes it and adds the folio, the other waits for the folio to appear.
 */
static struct folio *__read_swap_cache_async(swp_entry_t entry, gfp_t gfp, bool *new_folio)
{
	struct folio *folio;
	int err;

	*new_folio = false;
	for (;;) {
		folio = swap_cache_get_folio(entry);
		if (folio)
			return folio;
		if (!__swap_count(entry))
			return NULL;		/* freed meanwhile (a readahead neighbour, or a zap) */
		folio = folio_alloc(gfp, 0);
		if (!folio)
			return NULL;
		err = swapcache_prepare(entry);
		if (!err)
			break;
		folio_put(folio);
		if (err != -EEXIST)
			return NULL;
		/* Another task took the slot and is about to add its folio: let it. */
		schedule_timeout_uninterruptible(1);
	}
	__folio_set_locked(folio);
	__folio_set_swapbacked(folio);
	if (add_to_swap_cache(folio, entry)) {
		put_swap_folio(entry);
		__folio_clear_locked(folio);
		folio_put(folio);
		return NULL;
	}
	folio_add_lru(folio);
	*new_folio = true;
	return folio;
}

/* A read that could not start (no bio): the locked, never-filled folio out of the cache and
 * unlocked, so the next touch tries again rather than taking it for a failed read. */
static void abandon_read(struct folio *folio)
{
	delete_from_swap_cache(folio);
	folio_unlock(folio);
}

/* A neighbour of the faulting slot read too, without waiting (v6.10's readahead). */
static void swap_readahead_one(swp_entry_t entry)
{
	bool new_folio;
	struct folio *folio;

	if (swap_map_value(entry) == 0 || swap_map_value(entry) == SWAP_MAP_BAD ||
	    (swap_map_value(entry) & SWAP_HAS_CACHE))
		return;
	folio = __read_swap_cache_async(entry, GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, &new_folio);
	if (!folio)
		return;
	if (new_folio && swap_read_folio(folio))
		abandon_read(folio);
	folio_put(folio);
}

struct folio *swapin_folio(swp_entry_t entry, bool readahead)
{
	struct swap_info_struct *si = swp_swap_info(entry);
	struct folio *folio;
	bool new_folio;

	if (!si)
		return NULL;
	folio = __read_swap_cache_async(entry, GFP_HIGHUSER_MOVABLE, &new_folio);
	if (!folio || !new_folio)
		return folio;
	if (swap_read_folio(folio)) {		/* the target first: the task waits for it */
		abandon_read(folio);
		folio_put(folio);
		return NULL;			/* no memory: the fault says so (VM_FAULT_OOM) */
	}
	if (readahead && READ_ONCE(page_cluster)) {
		unsigned long offset = swp_offset(entry), mask = (1UL << READ_ONCE(page_cluster)) - 1;
		unsigned long start = offset & ~mask, end = start + mask;

		if (end >= si->max)
			end = si->max - 1;
		for (unsigned long off = start ? start : 1; off <= end; off++)
			if (off != offset)
				swap_readahead_one(swp_entry(swp_type(entry), off));
	}
	return folio;
}
