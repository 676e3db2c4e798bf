/*
 * memory_zap.c - taking a range of a user mm apart (include/tinymm/mm_fault.h, docs/memory.md):
 * unmap_page_range() clears the ptes of [start, end) and gives back what they held, and
 * free_pgd_range()/free_pgtables() free the page tables left empty.  Linux v6.10
 * mm/memory.c's zap_pte_range with a reduced mmu_gather (a batch of folios released after
 * the TLB flush) and free_pgtables; split from mm/memory.c, which keeps the faults, for length.
 *
 * Invariants (mm/memory.c's pte rules): a present pte's folio loses that pte's mapcount and
 * reference, a swap entry its slot count (free_swap_and_cache), a hwpoison entry nothing; a
 * dirty file pte dirties its folio before the reference goes; no folio or table is freed
 * before the TLB no longer maps it.
 *
 * Locking: mm->mmap_lock held (lockdep_assert_held); mm->page_table_lock around every pte
 * change and table freed; folios are dirtied and put after it is dropped (folio_mark_dirty
 * needs the folio lock, which sleeps).
 *
 * Where tinymm differs from v6.10, and why: a pte table is freed as soon as it is empty rather
 * than only between areas (v6.10's floor/ceiling rule), so munmap gives every table back; one
 * pte lock per mm, not one per table (mm/memory.c says why).
 */
#include <string.h>
#include "tinymm/cacheflush.h"
#include "tinymm/bug.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mlock.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "tinymm/swapops.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"

/* ---- zapping (v6.10's zap_pte_range and mmu_gather, reduced) ---- */

#define ZAP_BATCH	32	/* folios whose release waits for the TLB flush */

struct zap_batch {
	unsigned int nr;
	struct folio *folios[ZAP_BATCH];
	bool dirty[ZAP_BATCH];
};

/* After the flush: a dirty file pte's data reaches the folio (folio_mark_dirty needs the
 * folio lock, hence here and not under the pte lock), then each pte's reference goes; an
 * anonymous folio's last reference frees it. */
static void zap_release(struct zap_batch *b)
{
	for (unsigned int i = 0; i < b->nr; i++) {
		struct folio *folio = b->folios[i];

		if (b->dirty[i]) {
			folio_lock(folio);
			if (folio->mapping)		/* not truncated meanwhile */
				folio_mark_dirty(folio);
			folio_unlock(folio);
		}
		/* An unmapped swap-cache folio: its slot is freed with it (v6.10's
		 * free_swap_cache), so an exiting task's swap comes back at once. */
		if (folio_test_swapcache(folio) && !folio_mapped(folio) && folio_trylock(folio)) {
			folio_free_swap(folio);
			folio_unlock(folio);
		}
		folio_put(folio);
	}
	b->nr = 0;
}

void unmap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct zap_batch b = { 0 };
	int rss[NR_MM_COUNTERS] = { 0 };	/* counted out once per batch (v6.10's rss[]) */
	unsigned long addr = start;
	struct vm_area_struct *vma = NULL;	/* the area at addr: a VM_LOCKED one munlocks */

	lockdep_assert_held(&mm->mmap_lock);
	if (!mm->pgd)
		return;				/* an mm of areas only (tests/ktest/vma_ktest.c) */
	while (addr < end) {
		unsigned long next = pmd_addr_end(addr, end), from = addr;
		bool cleared = false;
		pte_t *pte;

		spin_lock(&mm->page_table_lock);
		pte = user_pte_lookup(mm, addr);
		if (!pte)
			addr = next;
		for (; pte && addr < next && b.nr < ZAP_BATCH; addr += PAGE_SIZE, pte++) {
			pte_t ptent = ptep_get(pte);
			struct folio *folio;

			if (pte_none(ptent))
				continue;
			pte_clear(mm, addr, pte);
			cleared = true;
			/* A hwpoison entry holds no page and no reference: cleared, nothing more.  A
			 * swap entry gives up its hold on the slot, a migration entry its place in
			 * the RSS (v6.10's zap_nonpresent_ptes). */
			if (!pte_present(ptent)) {
				swp_entry_t entry = pte_to_swp_entry(ptent);

				if (is_migration_entry(entry)) {
					rss[mm_counter(pfn_swap_entry_folio(entry))]--;
				} else if (!is_hwpoison_entry(entry)) {
					free_swap_and_cache(entry);
					rss[MM_SWAPENTS]--;
				}
				continue;
			}
			folio = vm_normal_folio(ptent);
			if (!folio)
				continue;
			if (!vma || addr >= vma->vm_end || addr < vma->vm_start)
				vma = find_vma(mm, addr);
			folio_remove_rmap_pte(folio, &folio->page,
					      vma && vma->vm_start <= addr ? vma : NULL);
			rss[mm_counter(folio)]--;
			b.folios[b.nr] = folio;
			b.dirty[b.nr++] = pte_dirty(ptent) && !folio_test_anon(folio);
		}
		add_mm_rss_vec(mm, rss);
		memset(rss, 0, sizeof(rss));
		spin_unlock(&mm->page_table_lock);
		if (cleared)
			flush_tlb_range(NULL, from, addr);
		zap_release(&b);
	}
	mlock_drain_local();	/* munlocked folios leave the unevictable list now (Mlocked exact) */
}

/* ---- freeing tables (v6.10's free_pgtables, reduced to "empty tables go") ---- */

/* Whether a table of @bytes (a page: PAGE_SIZE / sizeof(long) words) holds no entry. */
static bool table_empty(const void *table, size_t bytes)
{
	const unsigned long *p = table;

	for (size_t i = 0; i < bytes / sizeof(*p); i += 4)
		if (p[i] | p[i + 1] | p[i + 2] | p[i + 3])
			return false;
	return true;
}

void free_pgd_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	unsigned long addr = start & PMD_MASK;

	lockdep_assert_held(&mm->mmap_lock);
	if (!mm->pgd)
		return;
	if (end > TASK_SIZE || !end)
		end = TASK_SIZE;
	spin_lock(&mm->page_table_lock);
	while (addr < end) {
		unsigned long next = pmd_addr_end(addr, end);
		pgd_t *pgd = pgd_offset(mm, addr);
		pmd_t *pmd;

		if (pgd_none(*pgd)) {
			addr = pgd_addr_end(addr, end);
			continue;
		}
		pmd = pmd_offset(pgd, addr);
		if (!pmd_none(pmdp_get(pmd)) && !pmd_leaf(pmdp_get(pmd))) {
			pte_t *table = (pte_t *)pmd_page_vaddr(pmdp_get(pmd));

			if (table_empty(table, PTRS_PER_PTE * sizeof(pte_t))) {
				pmd_clear(pmd);
				flush_tlb_range(NULL, addr & PMD_MASK, (addr & PMD_MASK) + PMD_SIZE);
				pagetable_free(virt_to_page(table));
				mm_dec_nr_ptes(mm);
			}
		}
		/* Three levels: the pmd table goes too once its last entry has (two levels: the
		 * "pmd table" is the root itself). */
		if (PGTABLE_LEVELS == 3 && (next == pgd_addr_end(addr, end))) {
			pmd_t *first = pmd_offset(pgd, addr & PGDIR_MASK);

			if (table_empty(first, PTRS_PER_PMD * sizeof(pmd_t))) {
				pgd_clear(pgd);
				flush_tlb_range(NULL, addr & PGDIR_MASK, (addr & PGDIR_MASK) + PGDIR_SIZE);
				pagetable_free(virt_to_page(first));
				mm_dec_nr_ptes(mm);
			}
		}
		addr = next;
	}
	spin_unlock(&mm->page_table_lock);
}

/* A pte table hung from @pmd freed, the entry cleared (page_table_lock held; flushed later). */
static void free_pte_table(struct mm_struct *mm, pmd_t *pmd)
{
	pmd_t v = pmdp_get(pmd);

	if (pmd_none(v) || pmd_leaf(v))
		return;
	pmd_clear(pmd);
	pagetable_free(virt_to_page((void *)pmd_page_vaddr(v)));
	mm_dec_nr_ptes(mm);
}

/*
 * exit_mmap()'s table freeing, v6.10's free_pgtables() over every area with no floor or
 * ceiling: every pte of every area is zapped, so each table under an area goes without a look
 * inside (free_pgd_range() scans, for munmap, where a table may still map a neighbour).  A pte
 * is set only inside an area, so the areas' ranges reach every table; one missed would show
 * in pgtables_bytes, which mmput()'s check_mm() reports.  One TLB flush at the end: nothing
 * touches this user space before it (its task is exiting, or the mm never ran).
 */
void free_pgtables(struct mm_struct *mm)
{
	lockdep_assert_held(&mm->mmap_lock);
	if (!mm->pgd || !mm->map_count)
		return;
	spin_lock(&mm->page_table_lock);
	for (int i = 0; i < mm->map_count; i++) {
		unsigned long addr = mm->vmas[i]->vm_start, end = mm->vmas[i]->vm_end;

		while (addr < end) {
			pgd_t *pgd = pgd_offset(mm, addr);

			if (PGTABLE_LEVELS == 2) {
				free_pte_table(mm, pmd_offset(pgd, addr));
				addr = pmd_addr_end(addr, end);
				continue;
			}
			/* Three levels: the whole pmd table under this root entry, and it. */
			if (!pgd_none(*pgd)) {
				pmd_t *first = pmd_offset(pgd, addr & PGDIR_MASK);

				for (unsigned int j = 0; j < PTRS_PER_PMD; j++)
					free_pte_table(mm, first + j);
				pgd_clear(pgd);
				pagetable_free(virt_to_page(first));
				mm_dec_nr_ptes(mm);
			}
			addr = pgd_addr_end(addr, end);
		}
	}
	spin_unlock(&mm->page_table_lock);
	flush_tlb_range(NULL, 0, TASK_SIZE);
}
