/*
 * ktest_mm.h - what the suites that build user mms with mm_alloc() and fault them through
 * handle_mm_fault() (rmap, swap, migrate, hwpoison_user) share: reading a pte under the
 * page-table lock, the folio it maps, a fault taken as the architecture's handler would take
 * it, an mm of anonymous pages, and the counts a case must give back.
 */
#ifndef TINYMM_KTEST_MM_H
#define TINYMM_KTEST_MM_H

#include <string.h>
#include "tinymm/bug.h"
#include "tinymm/exec.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/user_task.h"
#include "tinymm/vmstat.h"

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

/* The pagemap entry for @addr (/proc/PID/pagemap's bits), read under mmap_lock. */
static inline uint64_t kt_pagemap(struct mm_struct *mm, unsigned long addr, bool *anon_excl)
{
	uint64_t e;

	mutex_lock(&mm->mmap_lock);
	e = pagemap_entry(mm, addr, anon_excl);
	mutex_unlock(&mm->mmap_lock);
	return e;
}

/* Free frames (the per-CPU lists' too), slab pages and page-cache pages, the LRU batches
 * drained first: what a case's mms, tables and files take, and must give back. */
static inline unsigned long kt_free_and_cached(void)
{
	lru_add_drain();
	return nr_free_pages_and_pcp() + slab_pages_reclaimable() + slab_pages_unreclaimable() +
	       global_node_page_state(NR_FILE_PAGES);
}

/* What a case must leave as it found it: kt_snapshot() before, kt_all_back() after. */
struct kt_mm_counts {
	unsigned long free, pagetables, anon, mapped, mlock, warnings;
};

static inline void kt_snapshot(struct kt_mm_counts *c)
{
	c->free = kt_free_and_cached();
	c->pagetables = global_node_page_state(NR_PAGETABLE);
	c->anon = global_node_page_state(NR_ANON_MAPPED);
	c->mapped = global_node_page_state(NR_FILE_MAPPED);
	c->mlock = global_node_page_state(NR_MLOCK);
	c->warnings = nr_warnings();
}

static inline void kt_all_back(struct ktest *t, const struct kt_mm_counts *c)
{
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), c->pagetables);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), c->anon);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), c->mapped);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), c->mlock);
	KTEST_EXPECT_EQ(t, kt_free_and_cached(), c->free);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, nr_warnings(), c->warnings);
}

/* A new mm with one private anonymous area of @n pages at @base (@vm_flags), each written
 * once through handle_mm_fault(); page i then filled with @fill + i (@fill 0: left zeroed). */
static inline struct mm_struct *kt_anon_mm(struct ktest *t, unsigned long base, int n,
					   unsigned long vm_flags, int fill)
{
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *vma;

	KTEST_EXPECT_TRUE(t, mm != NULL);
	if (!mm)
		return NULL;
	mutex_lock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, mmap_region(mm, base, (unsigned long)n << PAGE_SHIFT, vm_flags, NULL, 0),
			(long)base);
	vma = vma_lookup(mm, base);
	for (int i = 0; vma && i < n; i++)
		KTEST_EXPECT_EQ(t, handle_mm_fault(vma, base + ((unsigned long)i << PAGE_SHIFT),
						   FAULT_FLAG_WRITE), 0U);
	mutex_unlock(&mm->mmap_lock);
	for (int i = 0; vma && fill && i < n; i++) {
		struct folio *folio = kt_folio_at(mm, base + ((unsigned long)i << PAGE_SHIFT));

		if (folio)
			memset(page_address(&folio->page), fill + i, PAGE_SIZE);
	}
	return mm;
}

#endif
