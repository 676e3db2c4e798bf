/*
 * ktest_mm.h - what the suites that build user mms with mm_alloc() and fault them through
 * handle_mm_fault() (rmap, swap, hwpoison_user) share: reading a pte under the page-table
 * lock, the folio it maps, and a fault taken as the architecture's handler would take it.
 */
#ifndef TINYMM_KTEST_MM_H
#define TINYMM_KTEST_MM_H

#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"

/* The pte at @addr of @mm (none if no table), read under the page-table lock. */
static inline pte_t kt_pte_at(struct mm_struct *mm, unsigned long addr)
{
	pte_t *ptep, pte;

	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, addr);
	pte = ptep ? ptep_get(ptep) : __pte(0);
	spin_unlock(&mm->page_table_lock);
	return pte;
}

/* The folio a present pte at @addr maps, or NULL. */
static inline struct folio *kt_folio_at(struct mm_struct *mm, unsigned long addr)
{
	pte_t pte = kt_pte_at(mm, addr);

	return pte_present(pte) ? page_folio(pfn_to_page(pte_pfn(pte))) : NULL;
}

/* A user fault at @addr (@flags | FAULT_FLAG_USER) under mmap_lock. */
static inline vm_fault_t kt_fault(struct mm_struct *mm, unsigned long addr, unsigned int flags)
{
	vm_fault_t ret;

	mutex_lock(&mm->mmap_lock);
	ret = handle_mm_fault(vma_lookup(mm, addr), addr, flags | FAULT_FLAG_USER);
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

#endif
