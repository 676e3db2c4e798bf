/*
 * mprotect.c - change_protection(): the ptes under an area whose vm_flags changed take the
 * area's new protection (Linux v6.10 mm/mprotect.c's change_pte_range, reduced).  mm/mmap.c's
 * mprotect_fixup_range() calls it for each area it changed, after the flags are set.
 *
 * A private writable area's anonymous pages that are exclusive to this mm stay writable (v6.10's
 * MM_CP_TRY_CHANGE_WRITABLE with can_change_pte_writable()): no copy could be needed, so a
 * write fault on each would be wasted.  Page-cache folios stay read-only in a private area:
 * the first write copies them (mm/memory.c).  A shared area's ptes are read-only unless dirty
 * (write-notify, docs/shared-mappings.md).  The dirty and accessed bits are kept, as v6.10's
 * pte_modify() keeps them (an old pte stays old: docs/young.md); a downgrade is flushed from the
 * TLB before mprotect returns.
 * Locking: mm->mmap_lock held (checked); page_table_lock around the pte changes.
 */
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"

void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	/* A shared area is write-notified (v6.10's vma_wants_writenotify): its ptes take the
	 * private, read-only protection, and only a dirty one stays writable (can_change_pte_writable
	 * for a shared area): a clean page's first write must fault to dirty the folio. */
	bool shared = vma->vm_flags & VM_SHARED, writable = vma->vm_flags & VM_WRITE;
	pgprot_t prot = vm_get_page_prot(vma->vm_flags & ~VM_SHARED);
	unsigned long addr = start;

	lockdep_assert_held(&mm->mmap_lock);
	if (!mm->pgd)
		return;
	while (addr < end) {
		unsigned long next = pmd_addr_end(addr, end), from = addr;
		bool changed = false;
		pte_t *pte;

		spin_lock(&mm->page_table_lock);
		pte = user_pte_lookup(mm, addr);
		for (; pte && addr < next; addr += PAGE_SIZE, pte++) {
			pte_t old = ptep_get(pte), entry;
			struct page *page;

			if (!pte_present(old))
				continue;	/* none, or a hwpoison entry: no protection to change */
			entry = pfn_pte(pte_pfn(old), prot);
			if (pte_dirty(old))
				entry = pte_mkdirty(entry);
			if (!pte_young(old))
				entry = pte_mkold(entry);
			page = pfn_to_page(pte_pfn(old));
			if (writable && !shared && page && PageAnon(page) && PageAnonExclusive(page))
				entry = pte_mkwrite(entry, vma);
			else if (writable && shared && pte_dirty(old))
				entry = pte_mkwrite(entry, vma);
			if (pte_val(entry) != pte_val(old)) {
				set_pte_at(mm, addr, pte, entry);
				changed = true;
			}
		}
		spin_unlock(&mm->page_table_lock);
		if (changed)
			flush_tlb_range(vma, from, next);
		addr = next;
	}
}
