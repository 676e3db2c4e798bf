/*
 * rmap.c - what a page-table mapping records in the folio: the mapcount, the mapped-page
 * counters, and an anonymous folio's identity (PG_swapbacked, PAGE_MAPPING_ANON,
 * PG_anon_exclusive).  Linux v6.10 mm/rmap.c, reduced to small (order-0) folios.
 *
 * Invariants: a mapped folio's _mapcount + 1 is the number of ptes mapping it (folio_mapcount);
 * NR_ANON_MAPPED counts the anonymous folios with a mapcount of 1 or more, NR_FILE_MAPPED the
 * page-cache ones (meminfo AnonPages and Mapped).  An anonymous folio has PG_swapbacked and a
 * mapping that is its anon_vma | PAGE_MAPPING_ANON (v6.10's; mm/rmap_anon.c) from its first
 * mapping until it is freed (folio_put clears the mapping, as v6.10's free_pages_prepare
 * does); folio->index is v6.10's linear_page_index().  PG_anon_exclusive on an anonymous page
 * means no other mm maps it (fork clears it when it shares the page: folio_try_dup_anon_rmap_pte;
 * a write fault that finds the page only this pte's sets it again: mm/memory.c's do_wp_page).
 *
 * Reclaim's two walks are here too: folio_referenced() (how many areas used the folio since
 * the last look: the young bits, cleared as they are read) and try_to_unmap() (every pte of a
 * file folio gone, so reclaim can take it out of the cache; memory_failure's TTU_HWPOISON
 * leaves hwpoison entries, anonymous folios too); include/tinymm/rmap.h has their
 * contracts, docs/shared-mappings.md the picture.
 *
 * Where tinymm differs from v6.10, and why: no large folios are mapped, so no _large_mapcount
 * or _nr_pages_mapped; no GUP pins, so fork never has to copy a page at once because it may be
 * pinned (folio_try_dup_anon_rmap_pte cannot fail).  try_to_unmap() unmaps an anonymous folio
 * only once it is in the swap cache (each pte then names its slot, mm/swap_state.c), or for
 * TTU_HWPOISON's hwpoison entries.  No arch swap-exclusive pte bit (v6.10's
 * pte_swp_mkexclusive): a page unmapped to swap loses PG_anon_exclusive, and the fault that
 * brings it back proves exclusivity by the reference count (mm/memory.c's do_swap_page).  No MMU notifiers, no memcg
 * filter (invalid_vma), no batched TLB flush: each pte is flushed as it is cleared (v6.10
 * batches with TTU_BATCH_FLUSH on SMP, where a flush is an IPI; here it is one local
 * instruction).  folio_referenced() trylocks an
 * anonymous folio too (v6.10 walks one unlocked under RCU, which tinymm lacks).
 * Locking: the caller holds the pte lock (mm->page_table_lock) of the pte it sets or clears;
 * the walks take it themselves (page_vma_mapped_pte) under the rmap locks (rmap.h's order).
 */
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mlock.h"
#include "tinymm/mm_fault.h"
#include "tinymm/pagemap.h"
#include "tinymm/mmap.h"
#include "tinymm/page-flags.h"
#include "tinymm/rmap.h"
#include "tinymm/swapfile.h"
#include "tinymm/swapops.h"
#include "tinymm/writeback.h"
#include "tinymm/vmstat.h"

/* v6.10's __folio_set_anon: the folio now belongs to @vma's anon_vma (prepared by the fault:
 * anon_vma_prepare), at its linear index. */
static void __folio_set_anon(struct folio *folio, struct vm_area_struct *vma, unsigned long address)
{
	unsigned long anon = (unsigned long)vma->anon_vma | PAGE_MAPPING_ANON;

	VM_BUG_ON_PAGE(!vma->anon_vma, &folio->page);
	WRITE_ONCE(folio->mapping, (struct address_space *)anon);
	folio->index = linear_page_index(vma, address);
}

/*
 * A new anonymous folio mapped for the first time at @address (v6.10's
 * folio_add_new_anon_rmap with RMAP_EXCLUSIVE): swap-backed, anonymous, mapped once, and
 * exclusive to this mm, so a later write to it never needs a copy.  The folio is not yet
 * visible to anyone else, hence the non-atomic __folio_set_swapbacked, as v6.10's.
 */
void folio_add_new_anon_rmap(struct folio *folio, struct vm_area_struct *vma, unsigned long address)
{
	VM_BUG_ON_PAGE(folio_test_large(folio) || folio_mapped(folio), &folio->page);
	if (!folio_test_swapbacked(folio))
		__folio_set_swapbacked(folio);
	__folio_set_anon(folio, vma, address);
	atomic_set(&folio->_mapcount, 0);
	SetPageAnonExclusive(&folio->page);
	mod_node_page_state(NR_ANON_MAPPED, 1);
}

/*
 * A swapped-in folio mapped again (v6.10's folio_add_anon_rmap_pte, or folio_add_new_anon_rmap
 * for one read in that no pte mapped yet): one more mapping, exclusive to this mm only when
 * do_swap_page proved it (@exclusive).  The folio is locked (it is in the swap cache, where
 * others can find it).
 */
void folio_add_anon_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *vma,
			     unsigned long address, bool exclusive)
{
	lockdep_assert_folio_locked(folio);
	VM_BUG_ON_PAGE(!folio_test_swapbacked(folio), &folio->page);
	if (!folio_test_anon(folio))
		__folio_set_anon(folio, vma, address);
	if (atomic_inc_return(&folio->_mapcount) == 0)
		mod_node_page_state(NR_ANON_MAPPED, 1);
	if (exclusive)
		SetPageAnonExclusive(page);
	mlock_vma_folio(folio, vma);
}

/* One more pte maps @page of the page-cache folio @folio (v6.10's folio_add_file_rmap_pte). */
void folio_add_file_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *vma)
{
	(void)page;
	VM_BUG_ON_PAGE(folio_test_anon(folio), &folio->page);
	if (atomic_inc_return(&folio->_mapcount) == 0)
		mod_node_page_state(NR_FILE_MAPPED, 1);
	mlock_vma_folio(folio, vma);	/* a VM_LOCKED area's page is mlocked (v6.10's __folio_add_file_rmap) */
}

/* One pte fewer maps @page (v6.10's folio_remove_rmap_pte): the last one takes the folio out
 * of AnonPages or Mapped.  The folio keeps its anon identity until it is freed.  A pte of a
 * VM_LOCKED area going munlocks the folio (v6.10's munlock_vma_folio: as if it were the
 * last locked mapping; reclaim restores the mlock if not, mm/mlock.c says why). */
void folio_remove_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *vma)
{
	(void)page;
	VM_BUG_ON_PAGE(!folio_mapped(folio), &folio->page);
	if (atomic_dec_return(&folio->_mapcount) < 0)
		mod_node_page_state(folio_test_anon(folio) ? NR_ANON_MAPPED : NR_FILE_MAPPED, -1);
	munlock_vma_folio(folio, vma);
}

/*
 * fork shares a mapped anonymous page with the child (v6.10's folio_try_dup_anon_rmap_pte):
 * one more mapping, and the page is no longer exclusive to one mm, so the next write to it in
 * either mm goes through do_wp_page.  The caller takes the reference and write-protects both
 * ptes.  v6.10 fails here when the page may be pinned (the child then gets a copy at once);
 * tinymm has no pins, so it always succeeds: 0.
 */
int folio_try_dup_anon_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *src_vma)
{
	(void)src_vma;
	VM_BUG_ON_PAGE(!folio_test_anon(folio) || !folio_mapped(folio), &folio->page);
	ClearPageAnonExclusive(page);
	atomic_inc(&folio->_mapcount);
	return 0;
}

/* fork maps a page-cache page in the child too (v6.10's folio_dup_file_rmap_pte): one more
 * mapping; the caller takes the reference. */
void folio_dup_file_rmap_pte(struct folio *folio, struct page *page)
{
	(void)page;
	VM_BUG_ON_PAGE(folio_test_anon(folio) || !folio_mapped(folio), &folio->page);
	atomic_inc(&folio->_mapcount);
}

/* ---- reclaim's walks ---- */

/* v6.10's page_vma_mapped_walk() for an order-0 folio: one pte to look at. */
pte_t *page_vma_mapped_pte(struct folio *folio, struct vm_area_struct *vma, unsigned long address)
{
	struct mm_struct *mm = vma->vm_mm;
	pte_t *pte;

	if (!mm->pgd)
		return NULL;
	spin_lock(&mm->page_table_lock);
	pte = user_pte_lookup(mm, address);
	if (pte) {
		pte_t v = ptep_get(pte);

		if (pte_present(v) && pte_pfn(v) == page_to_pfn(&folio->page))
			return pte;
	}
	spin_unlock(&mm->page_table_lock);
	return NULL;
}

struct folio_referenced_arg {
	int mapcount;		/* ptes still to find: the walk stops at 0 */
	int referenced;
	unsigned long vm_flags;
};

static bool folio_referenced_one(struct folio *folio, struct vm_area_struct *vma,
				 unsigned long address, void *arg)
{
	struct folio_referenced_arg *pra = arg;
	pte_t *pte = page_vma_mapped_pte(folio, vma, address);
	int referenced = 0;

	if (!pte)
		return true;
	if (vma->vm_flags & VM_LOCKED) {
		/* Restore the mlock a munlock of another area took (mm/mlock.c): reclaim then
		 * culls the folio to the unevictable list instead of evicting it. */
		mlock_vma_folio(folio, vma);
		spin_unlock(&vma->vm_mm->page_table_lock);
		pra->vm_flags |= VM_LOCKED;
		return false;
	}
	if (ptep_clear_flush_young(vma, address, pte))
		referenced++;
	spin_unlock(&vma->vm_mm->page_table_lock);
	pra->mapcount--;
	if (referenced)
		folio_clear_idle(folio);
	/* A young bit idle tracking moved off the pte into the folio still counts. */
	if (folio_test_clear_young(folio))
		referenced++;
	if (referenced) {
		pra->referenced++;
		pra->vm_flags |= vma->vm_flags & ~VM_LOCKED;
	}
	return pra->mapcount > 0;
}

int folio_referenced(struct folio *folio, int is_locked, unsigned long *vm_flags)
{
	struct folio_referenced_arg pra = { .mapcount = folio_mapcount(folio) };
	struct rmap_walk_control rwc = {
		.rmap_one = folio_referenced_one, .arg = &pra, .try_lock = true,
	};
	bool we_locked = false;

	*vm_flags = 0;
	if (!pra.mapcount || !folio->mapping)
		return 0;
	/* A file folio's mapping stays only while it is locked (truncation).  v6.10 walks an
	 * anonymous one unlocked under folio_lock_anon_vma_read's RCU; tinymm's rmap_walk_anon
	 * wants the folio lock (mm/rmap_anon.c says why), so it is taken for both. */
	if (!is_locked) {
		we_locked = folio_trylock(folio);
		if (!we_locked)
			return 1;
	}
	rmap_walk(folio, &rwc);
	*vm_flags = pra.vm_flags;
	if (we_locked)
		folio_unlock(folio);
	return rwc.contended ? -1 : pra.referenced;
}

static bool try_to_unmap_one(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address, void *arg)
{
	enum ttu_flags flags = (enum ttu_flags)(uintptr_t)arg;
	pte_t *pte = page_vma_mapped_pte(folio, vma, address);
	pte_t pteval;

	if (!pte)
		return true;
	if (!(flags & TTU_IGNORE_MLOCK) && (vma->vm_flags & VM_LOCKED)) {
		mlock_vma_folio(folio, vma);	/* restore the mlock which got missed */
		spin_unlock(&vma->vm_mm->page_table_lock);
		return false;
	}
	pteval = ptep_get(pte);
	pte_clear(vma->vm_mm, address, pte);
	flush_tlb_page(vma, address);	/* no write through a stale entry after this */
	/* memory_failure(): the task that touches this address next gets SIGBUS rather than a
	 * fresh page (v6.10's make_hwpoison_entry; the entry holds no reference). */
	if ((flags & TTU_HWPOISON) && PageHWPoison(&folio->page)) {
		set_pte_at(vma->vm_mm, address, pte, swp_entry_to_pte(make_hwpoison_entry(&folio->page)));
	} else if (folio_test_anon(folio) && folio_test_swapcache(folio)) {
		/* Reclaim of a swap-cache folio: the pte names its slot, one more holder of it. */
		swp_entry_t entry = folio_swap_entry(folio);

		if (swap_duplicate(entry) < 0) {
			set_pte_at(vma->vm_mm, address, pte, pteval);	/* back as it was */
			spin_unlock(&vma->vm_mm->page_table_lock);
			return false;
		}
		set_pte_at(vma->vm_mm, address, pte, swp_entry_to_pte(entry));
		add_mm_counter(vma->vm_mm, MM_SWAPENTS, 1);
		/* Unmapped, it is nobody's exclusively: the fault that brings it back decides
		 * again (mm/memory.c's do_swap_page; no pte bit carries it, see there). */
		ClearPageAnonExclusive(&folio->page);
	}
	folio_remove_rmap_pte(folio, &folio->page, vma);
	add_mm_counter(vma->vm_mm, mm_counter(folio), -1);
	spin_unlock(&vma->vm_mm->page_table_lock);
	/* A VM_LOCKED area's pte went (TTU_IGNORE_MLOCK: memory_failure): the munlock it queued
	 * happens now, as v6.10 drains here, so PG_mlocked, NR_MLOCK and the unevictable list are
	 * right when try_to_unmap() returns (memory_failure() names the folio's state by them). */
	if (vma->vm_flags & VM_LOCKED)
		mlock_drain_local();
	/* The folio is locked, so no writeback can start between the clear and this. */
	if (pte_dirty(pteval)) {
		/* v6.10's folio_mark_dirty() finds no mapping for an anonymous folio and only sets
		 * the flag (noop_dirty_folio); tinymm's would read the anon_vma as a mapping. */
		if (folio_test_anon(folio))
			folio_set_dirty(folio);
		else
			folio_mark_dirty(folio);
	}
	folio_put(folio);		/* the pte's reference; the caller holds another */
	return folio_mapped(folio);
}

void try_to_unmap(struct folio *folio, enum ttu_flags flags)
{
	struct rmap_walk_control rwc = {
		.rmap_one = try_to_unmap_one, .arg = (void *)(uintptr_t)flags,
	};

	lockdep_assert_folio_locked(folio);
	if (!folio_mapped(folio))
		return;
	/* An anonymous folio's data has somewhere to go only once it is in the swap cache
	 * (reclaim's add_to_swap); a poisoned one, whose data is lost anyway, leaves its ptes
	 * for hwpoison entries. */
	if (folio_test_anon(folio) && !(flags & TTU_HWPOISON) && !folio_test_swapcache(folio))
		return;
	rmap_walk(folio, &rwc);
}
