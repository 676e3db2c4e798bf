/*
 * memory_shared.c - write faults on MAP_SHARED file areas (include/tinymm/mm_fault.h,
 * docs/shared-mappings.md): Linux v6.10 mm/memory.c's do_shared_fault and wp_page_shared with
 * filemap_page_mkwrite's checks (mm/filemap.c) and fault_dirty_shared_page.
 *
 * Write-notify: a shared area's clean page-cache folio is mapped read-only (a read fault,
 * mm/memory.c's do_fault, or folio_mkclean() before writeback, mm/rmap_file.c), so the first
 * write after either faults here; the folio is dirtied and the pte made writable and dirty
 * together, under the folio lock.  Writeback takes the same folio lock before it cleans the
 * folio and write-protects its ptes (folio_clear_dirty_for_io), so a writable pte always maps
 * a folio that is dirty or is being written with this write's data in it: no write is lost.
 *
 * The page_mkwrite checks (v6.10's filemap_page_mkwrite / block_page_mkwrite), under the
 * folio lock: the folio is still the mapping's (a truncation may have taken it: the fault is
 * retried, v6.10's VM_FAULT_NOPAGE, here a return of 0 and the access faults again) and its
 * index is below EOF (else VM_FAULT_SIGBUS).
 * Where tinymm differs from v6.10, and why: no ->page_mkwrite operation: every filesystem here
 * dirties through folio_mark_dirty() (ext2's block_dirty_folio marks the buffers), and a hole's
 * block is allocated by writeback (block_write_full_folio's get_block(create)) rather than at
 * fault time as ext2's block_page_mkwrite does: a full disk is an fsync/msync error then, not a
 * SIGBUS at the write.  No stable-page wait (no device here needs stable writes).
 * Locking: mmap_lock held (the fault), then the folio lock, then page_table_lock around the pte.
 */
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/pagemap.h"
#include "tinymm/rmap_file.h"
#include "tinymm/writeback.h"

/* The page_mkwrite checks on the locked @folio: 0, VM_FAULT_SIGBUS past EOF, or -1 when the
 * folio left the mapping (the caller lets the access fault again). */
static int shared_page_mkwrite(struct address_space *mapping, struct folio *folio)
{
	uint64_t size = (uint64_t)READ_ONCE(mapping->size);

	lockdep_assert_folio_locked(folio);
	if (folio->mapping != mapping || !folio_test_uptodate(folio))
		return -1;
	if ((uint64_t)folio->index >= (size + PAGE_SIZE - 1) >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	return 0;
}

/* After the pte is writable: the folio dirty, unlocked, and the writer throttled as a write()
 * would be (v6.10's fault_dirty_shared_page). */
static void fault_dirty_shared_page(struct address_space *mapping, struct folio *folio)
{
	bool dirtied = folio_mark_dirty(folio);

	folio_unlock(folio);
	folio_put(folio);
	if (dirtied)
		balance_dirty_pages_ratelimited(mapping);
}

vm_fault_t do_shared_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct mm_struct *mm = vma->vm_mm;
	struct address_space *mapping = vma_file_mapping(vma);
	struct folio *folio;
	vm_fault_t ret;
	int check;
	bool done = false;

	ret = filemap_fault(vmf);
	if (ret & VM_FAULT_ERROR)
		return ret;
	folio = vmf->folio;
	folio_lock(folio);
	check = shared_page_mkwrite(mapping, folio);
	if (check) {
		folio_unlock(folio);
		folio_put(folio);
		return check < 0 ? ret : (vm_fault_t)check;
	}
	spin_lock(&mm->page_table_lock);
	if (pte_val(ptep_get(vmf->pte)) == pte_val(vmf->orig_pte)) {
		pte_t entry = pfn_pte(page_to_pfn(&folio->page), vm_get_page_prot(vma->vm_flags));

		folio_add_file_rmap_pte(folio, &folio->page, vma);
		set_pte_at(mm, vmf->address, vmf->pte, pte_mkwrite(pte_mkdirty(entry), vma));
		add_mm_counter(mm, MM_FILEPAGES, 1);
		done = true;
	}
	spin_unlock(&mm->page_table_lock);
	if (!done) {			/* another fault mapped it first */
		folio_unlock(folio);
		folio_put(folio);
		return ret;
	}
	folio_get(folio);		/* the pte keeps filemap_fault's reference; this is ours */
	fault_dirty_shared_page(mapping, folio);
	return ret;
}

vm_fault_t wp_page_shared(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct mm_struct *mm = vma->vm_mm;
	struct address_space *mapping = vma_file_mapping(vma);
	struct page *page = pfn_to_page(pte_pfn(vmf->orig_pte));
	struct folio *folio;
	bool done = false;
	int check;

	if (!page)
		return VM_FAULT_SIGSEGV;
	folio = page_folio(page);
	if (WARN_ON(folio_test_anon(folio)))
		return VM_FAULT_SIGSEGV;	/* a shared area holds only page-cache folios */
	folio_get(folio);			/* the pte's may go while we sleep on the lock */
	folio_lock(folio);
	check = shared_page_mkwrite(mapping, folio);
	if (check) {
		folio_unlock(folio);
		folio_put(folio);
		return check < 0 ? 0 : (vm_fault_t)check;
	}
	spin_lock(&mm->page_table_lock);
	if (pte_val(ptep_get(vmf->pte)) == pte_val(vmf->orig_pte)) {
		set_pte_at(mm, vmf->address, vmf->pte,
			   pte_mkwrite(pte_mkdirty(pte_mkyoung(vmf->orig_pte)), vma));
		flush_tlb_page(vma, vmf->address);
		done = true;
	}
	spin_unlock(&mm->page_table_lock);
	if (!done) {
		folio_unlock(folio);
		folio_put(folio);
		return 0;
	}
	fault_dirty_shared_page(mapping, folio);
	return 0;
}
