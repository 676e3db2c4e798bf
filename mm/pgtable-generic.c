/*
 * pgtable-generic.c - the accessed-bit helpers that do more than change a pte's bits (v6.10's
 * mm/pgtable-generic.c, reduced to them): ptep_clear_flush_young(), which flushes the TLB too,
 * and the lock check the young helpers share.  include/tinymm/pgtable.h has the contracts, docs/young.md the picture.
 * Locking: a user pte's mm->page_table_lock is held by the caller (checked here).
 */
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mmap.h"
#include "tinymm/pgtable.h"

/* NULL is a kernel pte (no mm to lock: its owner serialises, as for every kernel mapping). */
void vma_assert_pte_locked(struct vm_area_struct *vma)
{
	if (vma)
		lockdep_assert_held(&vma->vm_mm->page_table_lock);
}

int ptep_clear_flush_young(struct vm_area_struct *vma, unsigned long address, pte_t *ptep)
{
	int young = ptep_test_and_clear_young(vma, address, ptep);

	if (young)
		flush_tlb_page(vma, address);
	return young;
}
