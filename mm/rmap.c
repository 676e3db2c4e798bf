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
 * Where tinymm differs from v6.10, and why: no large folios are mapped, so no _large_mapcount
 * or _nr_pages_mapped; no GUP pins, so fork never has to copy a page at once because it may be
 * pinned (folio_try_dup_anon_rmap_pte cannot fail).  Reclaim never unmaps a mapped anonymous
 * folio here (no swap: mm/vmscan.c keeps folio_mapped() ones).
 * Locking: the caller holds the pte lock (mm->page_table_lock) of the pte it sets or clears.
 */
#include "tinymm/mm_fault.h"
#include "tinymm/page-flags.h"
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
