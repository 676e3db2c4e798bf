/*
 * migrate.c - page migration: a folio's contents, mappings and identity moved to another frame
 * while it stays in use (Linux v6.10 mm/migrate.c, reduced; include/tinymm/migrate.h has the
 * contract, docs/migration.md the picture).  Compaction, soft offline and the shell's
 * `migrate` use it.
 *
 * One folio, isolated by the caller (off the LRU with a reference of the caller's, or a
 * driver's movable page isolated with isolate_movable_page), moves in these steps:
 *   1. its lock (never waited for without bound: see below), its writeback waited for
 *      (MIGRATE_SYNC) or refused;
 *   2. LRU folio: every pte mapping it becomes a migration entry (try_to_migrate), so no task
 *      can reach it; a task that touches one waits for the lock (mm/memory.c);
 *   3. the bytes copied into the new folio, which is locked and nobody else's yet;
 *   4. the new folio takes the old one's place: a page-cache or swap-cache folio's slot is
 *      switched under xa_lock with the old folio's count frozen at the cache's reference and
 *      ours (so a lockless lookup never finds a folio in between, and nobody else holds it);
 *      an anonymous folio outside the swap cache needs its count to be ours alone; mapping,
 *      index, PG_swapbacked, PG_swapcache and the swap entry, PG_dirty go over;
 *   5. the other flags (folio_migrate_flags: v6.10's list, PG_young and PG_idle included,
 *      PG_mlocked and PG_dcache_clean not), the new folio onto the LRU;
 *   6. the migration entries back to ptes of the new folio (remove_migration_ptes), which
 *      re-mlocks it in a VM_LOCKED area; a move that failed puts the old folio back instead.
 * A driver's movable page has steps 1, 3-4 done by its owner's movable_operations.
 *
 * Invariants: a folio is never in two places: its readers find the old folio or the new one,
 * complete; the bytes do not change between the copy and the switch (no pte reaches the old
 * folio, and writers need its lock); a folio that does not move is left exactly as it was
 * (its ptes back, its flags, its slot) and stays on the caller's list.  Counters: every
 * folio that moves counts in pgmigrate_success, every one given up on in pgmigrate_fail and
 * under its reason (migrate_fail_count(): the shell's `migrate` prints them).
 * Locking: sleeps; the old folio's lock, then the new one's (trylock-free: the new one is
 * private), then xa_lock (irqs masked) for the switch; the rmap walks' locks inside the folio
 * locks (rmap.h's order).  Never from interrupt context or under a spinlock.
 *
 * Where tinymm differs from v6.10, and why: order-0 folios only (tinymm maps and caches no
 * large folios; a large one is refused, "large"), one at a time (no batching of the unmap
 * phase: no TLB flush batching to save).  A busy folio lock is never waited for without
 * bound, in any mode: MIGRATE_SYNC and SYNC_LIGHT retry a trylock over
 * NR_MAX_MIGRATE_PAGES_RETRY passes, sleeping 1, 2, 4 .. 64 ms between them (about 0.3 s in
 * all), then give the folio up as "locked" (v6.10 sleeps in folio_lock for as long as it
 * takes; a user of `migrate` or compaction on a small board would rather hear why).  A
 * page-cache folio with buffer heads moves them along when its mapping has a migrate_folio
 * (buffer_migrate_folio: ext2's and the block device's), else has them released first
 * (v6.10's fallback_migrate_folio, without its writeout of a dirty folio: such a folio is given
 * up as "buffers" this time).
 * No NUMA, memcg, page_owner, hugetlb, THP split or device-private memory.
 */
#include <string.h>
#include "tinymm/anon_vma.h"
#include "tinymm/bug.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/migrate.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "tinymm/vmstat.h"
#include "internal.h"

#define NR_MAX_MIGRATE_PAGES_RETRY	10

/* The page-table side (mm/rmap_migrate.c, mm/rmap_anon.c): linked wherever user page tables
 * are; the host's page-cache tests link migration without them (their folios are never
 * mapped, so these are never reached there). */
void try_to_migrate(struct folio *folio) __attribute__((weak));
void remove_migration_ptes(struct folio *src, struct folio *dst) __attribute__((weak));
struct anon_vma *folio_get_anon_vma(const struct folio *folio) __attribute__((weak));
void put_anon_vma(struct anon_vma *av) __attribute__((weak));

static atomic_long_t fail_count[MIGRATE_FAIL_REASONS];

static const char *const fail_names[MIGRATE_FAIL_REASONS] = {
	[MIGRATE_FAIL_REFS] = "pinned",
	[MIGRATE_FAIL_LOCKED] = "locked",
	[MIGRATE_FAIL_WRITEBACK] = "writeback",
	[MIGRATE_FAIL_MAPPED] = "mapped",
	[MIGRATE_FAIL_BUFFERS] = "buffers",
	[MIGRATE_FAIL_REFUSED] = "refused",
	[MIGRATE_FAIL_NOMEM] = "nomem",
	[MIGRATE_FAIL_LARGE] = "large",
};

unsigned long migrate_fail_count(enum migrate_fail reason)
{
	return (unsigned long)atomic_long_read(&fail_count[reason]);
}

const char *migrate_fail_name(enum migrate_fail reason)
{
	return fail_names[reason];
}

/* ---- flags and bytes ---- */

/* v6.10's folio_migrate_flags(): what describes the contents goes to @dst; PG_mlocked is
 * rebuilt from the VM_LOCKED areas (remove_migration_ptes), PG_dcache_clean is not carried
 * (the copy's lines were written by this CPU: the next executable mapping does the cache
 * maintenance, docs/cacheflush.md). */
void folio_migrate_flags(struct folio *dst, struct folio *src)
{
	if (folio_test_referenced(src))
		folio_set_referenced(dst);
	if (folio_test_uptodate(src))
		folio_mark_uptodate(dst);
	if (folio_test_clear_active(src))
		folio_set_active(dst);
	else if (folio_test_clear_unevictable(src))
		folio_set_unevictable(dst);
	if (folio_test_workingset(src))
		folio_set_workingset(dst);
	if (folio_test_checked(src))
		folio_set_checked(dst);
	if (folio_test_mappedtodisk(src))
		folio_set_mappedtodisk(dst);
	if (folio_test_dirty(src))	/* an anonymous one: a cache's moved with its slot */
		folio_set_dirty(dst);
	if (folio_test_young(src))
		folio_set_young(dst);
	if (folio_test_idle(src))
		folio_set_idle(dst);
	if (folio_test_swapcache(src))
		folio_clear_swapcache(src);
	src->private = 0;
	/* PG_readahead is PG_reclaim's bit: set last, as v6.10 does after its writeback end. */
	if (folio_test_readahead(src))
		folio_set_readahead(dst);
}

void folio_migrate_copy(struct folio *dst, struct folio *src)
{
	memcpy(page_address(&dst->page), page_address(&src->page), folio_nr_pages(src) * PAGE_SIZE);
}

int folio_migrate_mapping(struct address_space *mapping, struct folio *dst, struct folio *src,
			  int extra_count)
{
	unsigned long flags, index;
	void *old;

	index = folio_test_swapcache(src) ? swp_offset(folio_swap_entry(src)) : src->index;
	folio_migrate_copy(dst, src);
	if (folio_test_uptodate(src))
		folio_mark_uptodate(dst);	/* the bytes before the flag */

	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	if (xa_load(&mapping->i_pages, index) != src || !folio_ref_freeze(src, 2 + extra_count)) {
		spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
		__folio_clear_uptodate(dst);
		return -EAGAIN;
	}
	dst->index = src->index;
	dst->mapping = src->mapping;
	folio_get(dst);				/* the cache's reference */
	if (folio_test_swapbacked(src)) {
		__folio_set_swapbacked(dst);
		dst->private = src->private;	/* the swap entry */
		folio_set_swapcache(dst);
	}
	/* PG_dirty before @dst is visible: the slot's DIRTY mark and NR_FILE_DIRTY stay true. */
	if (folio_test_clear_dirty(src))
		folio_set_dirty(dst);
	/* The same slot: no node allocated, the marks kept, one folio for another in every
	 * counter (one node). */
	old = xa_store(&mapping->i_pages, index, dst, GFP_ATOMIC);
	VM_BUG_ON_PAGE(old != src, &src->page);
	if (!folio_test_swapbacked(src))
		src->mapping = NULL;	/* a page-cache folio's: it is nobody's now */
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	folio_ref_unfreeze(src, 1 + extra_count);	/* the cache's gone; ours and private's left */
	return 0;
}

/*
 * v6.10's move_to_new_folio() for an LRU folio, order 0: @dst takes @src's place (see the
 * header, steps 3-5).  0, or -EAGAIN (someone else holds @src, or its private data is busy:
 * *why set) with nothing changed.
 */
static int move_to_new_folio(struct folio *dst, struct folio *src, enum migrate_mode mode,
			     enum migrate_fail *why)
{
	struct address_space *mapping;
	int rc;

	*why = MIGRATE_FAIL_REFS;
	if (folio_test_anon(src) && !folio_test_swapcache(src)) {
		/* No cache holds it; its ptes are entries: ours must be its only reference. */
		if (page_ref_count(&src->page) != 1)
			return -EAGAIN;
		folio_migrate_copy(dst, src);
		dst->index = src->index;
		dst->mapping = src->mapping;
		__folio_set_swapbacked(dst);
		folio_migrate_flags(dst, src);
		return 0;
	}
	if (folio_test_swapcache(src)) {
		rc = folio_migrate_mapping(swap_address_space(folio_swap_entry(src)), dst, src, 0);
	} else {
		mapping = src->mapping;
		if (!mapping)		/* truncated, and someone else still holds it */
			return -EAGAIN;
		if (!folio_test_private(src)) {
			rc = folio_migrate_mapping(mapping, dst, src, 0);
		} else if (mapping->a_ops->migrate_folio) {
			/* Buffer heads move with it (buffer_migrate_folio). */
			rc = mapping->a_ops->migrate_folio(mapping, dst, src, mode);
			if (rc == -EBUSY) {
				*why = MIGRATE_FAIL_BUFFERS;
				rc = -EAGAIN;
			}
		} else if (filemap_release_folio(src, GFP_KERNEL)) {
			/* v6.10's fallback_migrate_folio(): private data freed first. */
			rc = folio_migrate_mapping(mapping, dst, src, 0);
		} else {
			*why = MIGRATE_FAIL_BUFFERS;
			rc = -EAGAIN;
		}
	}
	if (!rc)
		folio_migrate_flags(dst, src);
	return rc;
}

/* ---- one folio ---- */

/* An LRU folio @src (locked, writeback done) to @dst (new, locked): steps 2-6. */
static int migrate_lru_folio(struct folio *dst, struct folio *src, enum migrate_mode mode,
			     enum migrate_fail *why)
{
	struct anon_vma *anon_vma = NULL;
	bool was_mapped = folio_mapped(src);
	int rc;

	if (was_mapped && folio_test_anon(src)) {
		/* Its ptes keep the anon_vma alive; while they are entries, this does. */
		anon_vma = folio_get_anon_vma ? folio_get_anon_vma(src) : NULL;
		if (!anon_vma) {
			*why = MIGRATE_FAIL_MAPPED;	/* unmapped meanwhile: next pass */
			return -EAGAIN;
		}
	}
	if (was_mapped && try_to_migrate)
		try_to_migrate(src);
	if (folio_mapped(src)) {
		*why = MIGRATE_FAIL_MAPPED;
		rc = -EAGAIN;
	} else {
		rc = move_to_new_folio(dst, src, mode, why);
	}
	if (!rc)
		folio_add_lru(dst);	/* its list is chosen from its flags at the drain */
	if (was_mapped && remove_migration_ptes)
		remove_migration_ptes(src, rc ? src : dst);
	if (anon_vma)
		put_anon_vma(anon_vma);
	return rc;
}

/* A driver's movable page: its owner moves it (v6.10's move_to_new_folio, !LRU part). */
static int migrate_movable_page(struct folio *dst, struct folio *src, enum migrate_mode mode,
				enum migrate_fail *why)
{
	const struct movable_operations *ops = page_movable_ops(&src->page);
	int rc = ops->migrate_page(&dst->page, &src->page, mode);

	if (rc) {
		*why = rc == -ENOMEM ? MIGRATE_FAIL_NOMEM : MIGRATE_FAIL_REFUSED;
		return rc;
	}
	folio_clear_isolated(src);
	if (!((unsigned long)src->mapping & PAGE_MAPPING_FLAGS))
		src->mapping = NULL;
	return 0;
}

/*
 * Move @src (on @from, our reference) to a folio from @get_new_folio.  0: moved (or freed
 * under us), @src released; -EAGAIN: busy, try again; -ENOMEM: no new folio; other -errno:
 * given up.  *why says what stopped it.
 */
static int migrate_one(struct page_list *from, struct folio *src, new_folio_t get_new_folio, free_folio_t put_new_folio,
		       unsigned long private, enum migrate_mode mode, int reason,
		       enum migrate_fail *why)
{
	bool movable = __PageMovable(&src->page);
	struct folio *dst;
	int rc;

	if (page_ref_count(&src->page) == 1) {
		/* Freed from under us (truncated, unmapped, its owner let it go): ours is the last
		 * reference, nothing to move (v6.10's "folio was freed from under us"). */
		if (movable)
			folio_clear_isolated(src);
		folio_clear_active(src);
		folio_clear_unevictable(src);
		goto done;
	}
	if (folio_test_large(src)) {
		*why = MIGRATE_FAIL_LARGE;
		return -EINVAL;
	}
	if (!folio_trylock(src)) {
		*why = MIGRATE_FAIL_LOCKED;
		return -EAGAIN;
	}
	if (folio_test_writeback(src)) {
		if (mode != MIGRATE_SYNC) {
			folio_unlock(src);
			*why = MIGRATE_FAIL_WRITEBACK;
			return -EBUSY;
		}
		folio_wait_writeback(src);
	}
	if (movable && !PageMovable(&src->page)) {
		/* Its owner released it while isolated: nothing to move, only ours to drop. */
		folio_clear_isolated(src);
		folio_unlock(src);
		goto done;
	}
	dst = get_new_folio(src, private);
	if (!dst) {
		folio_unlock(src);
		*why = MIGRATE_FAIL_NOMEM;
		return -ENOMEM;
	}
	__folio_set_locked(dst);	/* private until it takes @src's place */
	if (movable)
		rc = migrate_movable_page(dst, src, mode, why);
	else
		rc = migrate_lru_folio(dst, src, mode, why);
	folio_unlock(dst);
	folio_unlock(src);
	if (rc) {
		if (put_new_folio)
			put_new_folio(dst, private);
		else
			folio_put(dst);
		return rc;
	}
	folio_put(dst);		/* ours: the cache's, the ptes' or the owner's remain */
done:
	page_list_del(from, &src->page);
	/* memory_failure() keeps the old frame to poison it (v6.10's migrate_folio_done). */
	if (reason != MR_MEMORY_FAILURE)
		folio_put(src);
	return 0;
}

/* ---- the list ---- */

int migrate_pages(struct page_list *from, new_folio_t get_new_folio, free_folio_t put_new_folio,
		  unsigned long private, enum migrate_mode mode, int reason,
		  unsigned int *nr_succeeded)
{
	unsigned int succeeded = 0, failed = 0;
	struct page_list given_up;	/* v6.10's ret_folios: back onto @from at the end */
	struct page *page, *next;
	int ret = 0;

	might_sleep();
	page_list_init(&given_up);
	for (int pass = 0; pass < NR_MAX_MIGRATE_PAGES_RETRY; pass++) {
		bool again = false;

		if (pass && mode != MIGRATE_ASYNC)
			msleep(1U << (pass - 1 < 6 ? pass - 1 : 6));	/* let the holder run */
		for (page = page_list_first(from); page; page = next) {
			enum migrate_fail why = MIGRATE_FAIL_REFS;
			int rc;

			next = page_list_next(page);
			rc = migrate_one(from, page_folio(page), get_new_folio, put_new_folio,
					 private, mode, reason, &why);
			if (!rc) {
				succeeded++;
				continue;
			}
			if (rc == -EAGAIN && pass < NR_MAX_MIGRATE_PAGES_RETRY - 1) {
				again = true;
				continue;
			}
			failed++;
			atomic_long_inc(&fail_count[why]);
			if (rc == -ENOMEM) {
				ret = -ENOMEM;	/* the rest stay on @from, untried */
				goto out;
			}
			page_list_del(from, page);
			page_list_add_tail(&given_up, page);
		}
		if (!again)
			break;
	}
out:
	while ((page = page_list_first(&given_up))) {
		page_list_del(&given_up, page);
		page_list_add_tail(from, page);
	}
	count_vm_events(PGMIGRATE_SUCCESS, succeeded);
	count_vm_events(PGMIGRATE_FAIL, failed);
	if (nr_succeeded)
		*nr_succeeded = succeeded;
	return ret ? ret : (int)failed;
}

/* v6.10's alloc_migration_target() without NUMA: a movable folio of @src's order, from
 * anywhere, trying hard (reclaim) but allowed to fail. */
struct folio *alloc_migration_target(struct folio *src, unsigned long private)
{
	(void)private;
	return folio_alloc(GFP_HIGHUSER_MOVABLE | __GFP_RETRY_MAYFAIL | __GFP_NOWARN,
			   folio_order(src));
}

/* ---- isolation of a driver's movable page, and the way back ---- */

bool isolate_movable_page(struct page *page, isolate_mode_t mode)
{
	struct folio *folio = page_folio(page);

	/* A reference first: a page being freed is not taken (v6.10's order). */
	if (!folio_try_get(folio))
		return false;
	if (!__PageMovable(&folio->page) || !folio_trylock(folio))
		goto out_put;
	/* Checked again under the lock, which its owner's changes hold too. */
	if (!PageMovable(&folio->page) || folio_test_isolated(folio))
		goto out_unlock;
	if (!page_movable_ops(&folio->page)->isolate_page(&folio->page, mode))
		goto out_unlock;
	folio_set_isolated(folio);
	folio_unlock(folio);
	return true;
out_unlock:
	folio_unlock(folio);
out_put:
	folio_put(folio);
	return false;
}

void putback_movable_pages(struct page_list *list)
{
	struct page *page;

	while ((page = page_list_first(list))) {
		struct folio *folio = page_folio(page);

		page_list_del(list, page);
		if (__PageMovable(&folio->page)) {
			/* Its owner takes it back, unless it let it go meanwhile. */
			folio_lock(folio);
			if (PageMovable(&folio->page))
				page_movable_ops(&folio->page)->putback_page(&folio->page);
			folio_clear_isolated(folio);
			folio_unlock(folio);
			folio_put(folio);
		} else {
			folio_add_lru(folio);	/* v6.10's folio_putback_lru */
			folio_put(folio);
		}
	}
}
