/*
 * rmap.c - what a page-table mapping records in the folio: the mapcount, the mapped-page
 * counters, and an anonymous folio's identity (PG_swapbacked, PAGE_MAPPING_ANON,
 * PG_anon_exclusive).  Linux v6.10 mm/rmap.c, reduced to small (order-0) folios.
 *
 * Invariants: a mapped folio's _mapcount + 1 is the number of ptes mapping it (folio_mapcount);
 * NR_ANON_MAPPED counts the anonymous folios with a mapcount of 1 or more, NR_FILE_MAPPED the
 * page-cache ones (meminfo AnonPages and Mapped).  An anonymous folio has PG_swapbacked and a
 * mapping that is its owner | PAGE_MAPPING_ANON from its first mapping until it is freed
 * (folio_put clears the mapping, as v6.10's free_pages_prepare does).
 *
 * Where tinymm differs from v6.10, and why: there is no anon_vma yet (fork and reverse mapping
 * walks come later), so an anonymous folio's mapping is its mm_struct | PAGE_MAPPING_ANON:
 * the one owner it can have until fork; folio->index is v6.10's linear_page_index().  No large
 * folios are mapped, so no _large_mapcount or _nr_pages_mapped.  v6.10 has no reverse walk
 * for tinymm to reduce: reclaim never unmaps a mapped folio here (folio_mapped() folios are
 * kept: mm/vmscan.c sees the reference the page table holds).
 * Locking: the caller holds the pte lock (mm->page_table_lock) of the pte it sets or clears.
 */
#include "tinymm/mm_fault.h"
#include "tinymm/page-flags.h"
#include "tinymm/vmstat.h"

/* v6.10's __folio_set_anon: the folio now belongs to @vma's mm, at its linear index. */
static void __folio_set_anon(struct folio *folio, struct vm_area_struct *vma, unsigned long address)
{
	unsigned long anon = (unsigned long)vma->vm_mm | PAGE_MAPPING_ANON;

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

/* One more pte maps @page of the page-cache folio @folio (v6.10's folio_add_file_rmap_pte). */
void folio_add_file_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *vma)
{
	(void)page;
	(void)vma;
	VM_BUG_ON_PAGE(folio_test_anon(folio), &folio->page);
	if (atomic_inc_return(&folio->_mapcount) == 0)
		mod_node_page_state(NR_FILE_MAPPED, 1);
}

/* One pte fewer maps @page (v6.10's folio_remove_rmap_pte): the last one takes the folio out
 * of AnonPages or Mapped.  The folio keeps its anon identity until it is freed. */
void folio_remove_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *vma)
{
	(void)page;
	(void)vma;
	VM_BUG_ON_PAGE(!folio_mapped(folio), &folio->page);
	if (atomic_dec_return(&folio->_mapcount) < 0)
		mod_node_page_state(folio_test_anon(folio) ? NR_ANON_MAPPED : NR_FILE_MAPPED, -1);
}
