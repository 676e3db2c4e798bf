/*
 * hwpoison_actions.c - what memory_failure() does with the folio once it holds it locked:
 * Linux's error_states[] table, matched in order on the folio's flags (the first whose masked
 * flags equal its value wins), and the actions it names, the me_*() handlers.  A kernel page is
 * left alone; a page-cache folio is taken off the LRU and out of its mapping (a_ops'
 * error_remove_folio, else invalidation), a dirty one with -EIO recorded on the mapping first;
 * everything else fails.  Each action unlocks the folio, and its outcome goes to action_result()
 * (mm/memory-failure.c), which counts, records and prints it.  folio_isolate_lru() is here as
 * folio_isolate_lru() (mm/vmscan.c), as soft offline and migration.  docs/hwpoison.md.
 *
 * Invariants:
 *   - an action is entered with the folio locked and memory_failure()'s reference held, and
 *     unlocks the folio exactly once on every path;
 *   - a page-cache frame that comes out Recovered is off the LRU and out of its mapping, and
 *     holds memory_failure()'s reference alone: anyone else still holding it makes the outcome
 *     Failed (has_extra_refcount()).
 * Locking: under mf_mutex and the folio lock; takes lru_lock (the isolation) and then, through
 *   error_remove_folio or mapping_evict_folio, the mapping's xa_lock, never one inside the other.
 *
 * Where tinymm differs from v6.10, and why: v6.10 has this in mm/memory-failure.c; it is apart
 * here because which action fits which page is one idea and getting hold of the frame another.
 * No hugetlb: the huge-page entry keeps the table's shape but matches no folio tinymm makes (a
 * large folio is split or given up on before the table); user mappings are gone before the table
 * (mm/hwpoison_user.c), and an anonymous folio then only leaves the LRU (v6.10's).
 * A folio with buffer heads has them dropped by the truncation (folio_invalidate()) and
 * checked by filemap_release_folio() as v6.10 does; buffers someone still holds stay and the
 * outcome is Failed ("failed to release buffers").  A dirty folio's
 * loss is also named in a line of tinymm's own ("dirty data lost: <disk> offset <o> length
 * <n>"), which the host-checked workload test reads.  The catch-all is Failed, as v6.10's (6.11
 * made it Ignored).
 */
#define pr_fmt(fmt) "Memory failure: " fmt

#include "tinymm/errno.h"
#include "tinymm/memory-failure.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "internal.h"


/* Off the LRU for good, with the flags the free check hates. */
static int delete_from_lru_cache(struct folio *folio)
{
	if (folio_isolate_lru(folio)) {
		folio_clear_active(folio);
		folio_clear_unevictable(folio);
		folio_put(folio);			/* the isolation's reference */
		return 0;
	}
	return -EIO;
}

static int truncate_error_folio(struct folio *folio, unsigned long pfn,
				struct address_space *mapping)
{
	int ret = MF_FAILED;

	if (mapping->a_ops && mapping->a_ops->error_remove_folio) {
		int err = mapping->a_ops->error_remove_folio(mapping, folio);

		if (err != 0)
			pr_info("%#lx: Failed to punch page: %d\n", pfn, err);
		else if (!filemap_release_folio(folio, GFP_NOIO))
			pr_info("%#lx: failed to release buffers\n", pfn);
		else
			ret = MF_RECOVERED;
	} else {
		/* Without it only invalidation: fails on a dirty folio or one in use. */
		if (mapping_evict_folio(mapping, folio))
			ret = MF_RECOVERED;
		else
			pr_info("%#lx: Failed to invalidate\n", pfn);
	}
	return ret;
}

struct page_state {
	unsigned long mask;
	unsigned long res;
	enum mf_action_page_type type;
	/* ->action() unlocks the folio. */
	int (*action)(struct page_state *ps, struct page *p);
};

/* Anyone but us still holding the frame makes it Failed. */
static bool has_extra_refcount(struct page_state *ps, struct page *p, bool extra_pins)
{
	int count = page_ref_count(p) - 1;

	if (extra_pins)
		count -= (int)folio_nr_pages(page_folio(p));
	if (count > 0) {
		pr_err("%#lx: %s still referenced by %d users\n", page_to_pfn(p),
		       mf_action_page_type_name(ps->type), count);
		return true;
	}
	return false;
}

/* A kernel page: leave it alone, hope it is not touched. */
static int me_kernel(struct page_state *ps, struct page *p)
{
	(void)ps;
	folio_unlock(page_folio(p));
	return MF_IGNORED;
}

/* The catch-all. */
static int me_unknown(struct page_state *ps, struct page *p)
{
	(void)ps;
	pr_err("%#lx: Unknown page state\n", page_to_pfn(p));
	folio_unlock(page_folio(p));
	return MF_FAILED;
}

/*
 * A page-cache folio, clean (its bytes are on the disk: the next read fetches them again) or
 * dirty (@dirty: the caller recorded -EIO on the mapping; tinymm also names what was lost, in
 * one line of its own the host-checked workload test reads).
 */
static int me_pagecache(struct page_state *ps, struct page *p, bool dirty)
{
	struct folio *folio = page_folio(p);
	unsigned long pfn = page_to_pfn(p);
	struct address_space *mapping;
	int ret;

	delete_from_lru_cache(folio);
	/* An anonymous folio (unmapped by hwpoison_user_mappings) has no mapping to leave: the
	 * only reference left should be memory_failure()'s (v6.10). */
	if (folio_test_anon(folio)) {
		ret = MF_RECOVERED;
		goto out;
	}
	mapping = folio->mapping;
	if (!mapping) {
		/* Torn down in the meantime. */
		ret = MF_FAILED;
		goto out;
	}
	long long pos = (long long)folio->index << PAGE_SHIFT;
	unsigned long len = PAGE_SIZE << folio_order(folio);
	if (mapping->size > pos && (unsigned long long)(mapping->size - pos) < len)
		len = (unsigned long)(mapping->size - pos);
	const char *name = mapping->a_ops && mapping->a_ops->name ? mapping->a_ops->name(mapping) : "?";

	ret = truncate_error_folio(folio, pfn, mapping);
	if (dirty && folio->mapping != mapping)		/* it left, its unwritten bytes with it */
		pr_err("%#lx: dirty data lost: %s offset %lld length %lu\n", pfn, name, pos, len);
	if (has_extra_refcount(ps, p, false))
		ret = MF_FAILED;
out:
	folio_unlock(folio);
	return ret;
}

static int me_pagecache_clean(struct page_state *ps, struct page *p)
{
	return me_pagecache(ps, p, false);
}

/* The write()/fsync()/sync after this learns of it: mapping_set_error() (errseq: once each). */
static int me_pagecache_dirty(struct page_state *ps, struct page *p)
{
	struct folio *folio = page_folio(p);
	/* v6.10's page_mapping(): none for an anonymous folio (its ->mapping is the anon_vma). */
	struct address_space *mapping = folio_test_anon(folio) ? NULL : folio->mapping;

	if (mapping)
		mapping_set_error(mapping, -EIO);
	return me_pagecache(ps, p, true);
}

/*
 * A swap-cache folio (mm/swap_state.c), v6.10's handlers.  Dirty: its data exists nowhere else,
 * so it stays in the cache, not uptodate, and a task that faults on a swap entry naming it gets
 * SIGBUS (do_swap_page finds PG_hwpoison) - whoever owns it, known or not (MF_DELAYED).
 * Clean: the slot has the data: the folio leaves the cache and the next fault reads it again.
 */
static int me_swapcache_dirty(struct page_state *ps, struct page *p)
{
	struct folio *folio = page_folio(p);
	int ret;

	folio_clear_dirty(folio);
	folio_clear_uptodate(folio);
	ret = delete_from_lru_cache(folio) ? MF_FAILED : MF_DELAYED;
	folio_unlock(folio);
	if (has_extra_refcount(ps, p, ret == MF_DELAYED))
		ret = MF_FAILED;
	return ret;
}

static int me_swapcache_clean(struct page_state *ps, struct page *p)
{
	struct folio *folio = page_folio(p);
	int ret;

	delete_from_swap_cache(folio);
	ret = delete_from_lru_cache(folio) ? MF_FAILED : MF_RECOVERED;
	folio_unlock(folio);
	if (has_extra_refcount(ps, p, false))
		ret = MF_FAILED;
	return ret;
}

/* Linux's is hugetlb's; tinymm's large folios never reach the table (a large folio is split or
 * given up on first), so this entry only keeps the table's shape. */
static int me_huge_page(struct page_state *ps, struct page *p)
{
	(void)ps;
	folio_unlock(page_folio(p));
	return MF_FAILED;
}

#define dirty		(1UL << PG_dirty)
#define sc		((1UL << PG_swapcache) | (1UL << PG_swapbacked))
#define unevict		(1UL << PG_unevictable)
#define mlock		(1UL << PG_mlocked)
#define lru		(1UL << PG_lru)
#define head		(1UL << PG_head)
#define reserved	(1UL << PG_reserved)

/* Matched in order, the first whose masked flags equal res wins. */
static struct page_state error_states[] = {
	{ reserved,	 reserved,	MF_MSG_KERNEL,			me_kernel },
	/* Free frames are found before the table (PG_buddy is only a block's head). */
	{ head,		 head,		MF_MSG_HUGE,			me_huge_page },
	{ sc|dirty,	 sc|dirty,	MF_MSG_DIRTY_SWAPCACHE,		me_swapcache_dirty },
	{ sc|dirty,	 sc,		MF_MSG_CLEAN_SWAPCACHE,		me_swapcache_clean },
	{ mlock|dirty,	 mlock|dirty,	MF_MSG_DIRTY_MLOCKED_LRU,	me_pagecache_dirty },
	{ mlock|dirty,	 mlock,		MF_MSG_CLEAN_MLOCKED_LRU,	me_pagecache_clean },
	{ unevict|dirty, unevict|dirty,	MF_MSG_DIRTY_UNEVICTABLE_LRU,	me_pagecache_dirty },
	{ unevict|dirty, unevict,	MF_MSG_CLEAN_UNEVICTABLE_LRU,	me_pagecache_clean },
	{ lru|dirty,	 lru|dirty,	MF_MSG_DIRTY_LRU,		me_pagecache_dirty },
	{ lru|dirty,	 lru,		MF_MSG_CLEAN_LRU,		me_pagecache_clean },
	/* Catch-all: must be last. */
	{ 0,		 0,		MF_MSG_UNKNOWN,			me_unknown },
};

#undef dirty
#undef sc
#undef unevict
#undef mlock
#undef lru
#undef head
#undef reserved

static int page_action(struct page_state *ps, struct page *p, unsigned long pfn)
{
	int result = ps->action(ps, p);		/* the folio is unlocked by now */

	return action_result(pfn, ps->type, (enum mf_result)result);
}

/*
 * The flags now first (they may have changed since the snapshot, e.g. the folio became dirty);
 * only if that finds nothing, the snapshot taken under the folio lock, with the current dirty
 * bit.
 */
int identify_page_state(unsigned long pfn, struct page *p, unsigned long page_flags)
{
	struct page_state *ps;

	lockdep_assert_folio_locked(page_folio(p));
	for (ps = error_states;; ps++)
		if ((p->flags & ps->mask) == ps->res)
			break;
	page_flags |= p->flags & (1UL << PG_dirty);
	if (!ps->mask)
		for (ps = error_states;; ps++)
			if ((page_flags & ps->mask) == ps->res)
				break;
	return page_action(ps, p, pfn);
}
