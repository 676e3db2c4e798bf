/*
 * fork_mm.c - fork's copy of an address space (include/tinymm/fork.h, docs/fork.md): v6.10
 * kernel/fork.c's dup_mm/dup_mmap and mm/memory.c's copy_page_range, reduced.
 *
 * The child gets a copy of every area (same range, flags, file and pgoff; the same anon_vma,
 * so rmap finds the child's ptes of the pages it shares) and, for the areas that have
 * anonymous pages (an anon_vma: v6.10's vma_needs_copy; the others refault from their file),
 * a copy of the ptes:
 *   - an anonymous page: one more mapping and reference, PG_anon_exclusive cleared
 *     (folio_try_dup_anon_rmap_pte), and, in a private writable area (v6.10's
 *     is_cow_mapping), the pte write-protected in both parent and child, so that the first
 *     write in either takes do_wp_page (mm/memory.c), which copies or reuses the page;
 *   - a page-cache page: one more mapping and reference (it is already read-only: a private
 *     file mapping's writes go to anonymous copies).
 * The parent's TLB is flushed for every range whose ptes lost their write permission.
 *
 * Out of memory anywhere (an area, the area array, a page table): -ENOMEM, and the child's
 * half-made mm is released with mmput(), which zaps what was copied (mapcounts and references
 * back down) and frees its tables and areas: no frame leaks.  The parent's ptes stay
 * write-protected and its pages non-exclusive; its next write finds each page's only
 * reference is its own and reuses it (wp_can_reuse_anon_folio), as after a child's exit.
 *
 * Where tinymm differs from v6.10, and why: one anon_vma per family (include/tinymm/anon_vma.h)
 * instead of anon_vma_fork's chain; no pinned pages to copy at
 * once, no large folios, no VM_WIPEONFORK/VM_DONTCOPY.
 * Locking: the parent's mmap_lock, then the child's (a new mm nobody else sees: same class,
 * which tinymm's lockdep allows nested, as v6.10 annotates SINGLE_DEPTH_NESTING); per pte
 * table the child's page_table_lock, then the parent's (v6.10's order: dst, then src).
 */
#include <string.h>
#include "tinymm/anon_vma.h"
#include "tinymm/rmap_file.h"
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/fork.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mlock.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/slab.h"
#include "tinymm/swapfile.h"
#include "tinymm/user_task.h"
#include "tinymm/file.h"
#include "tinymm/vfs.h"
#include "internal.h"

/* v6.10's is_cow_mapping(): private and may be written, so writes must not be shared. */
static bool is_cow_mapping(unsigned long flags)
{
	return (flags & (VM_SHARED | VM_MAYWRITE)) == VM_MAYWRITE;
}

/* One present pte of the parent's, at @addr: the child's copy (v6.10's copy_present_pte).
 * Both page_table_locks held. */
static pte_t copy_present_pte(struct vm_area_struct *src_vma, pte_t *src_pte, unsigned long addr,
			      pte_t pte, bool *wrprotected, int *rss)
{
	struct page *page = pfn_to_page(pte_pfn(pte));
	struct folio *folio;

	if (WARN_ON_ONCE(!page))
		return __pte(0);		/* nothing tinymm maps is outside RAM */
	folio = page_folio(page);
	folio_get(folio);
	rss[mm_counter(folio)]++;
	if (folio_test_anon(folio))
		folio_try_dup_anon_rmap_pte(folio, page, src_vma);
	else
		folio_dup_file_rmap_pte(folio, page);
	if (is_cow_mapping(src_vma->vm_flags) && pte_write(pte)) {
		pte = pte_wrprotect(pte);
		set_pte_at(src_vma->vm_mm, addr, src_pte, pte);
		*wrprotected = true;
	}
	/* The child has not used the page yet: old, so reclaim ages its mapping on its own; and
	 * a shared mapping's dirt was the parent's (the folio carries it). */
	if (src_vma->vm_flags & VM_SHARED)
		pte = pte_mkclean(pte);
	return pte_mkold(pte);
}

/* The ptes of [addr, end) (inside one pte table) copied; 0 or -ENOMEM. */
static int copy_pte_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
			  unsigned long addr, unsigned long end)
{
	struct mm_struct *dst_mm = dst_vma->vm_mm, *src_mm = src_vma->vm_mm;
	unsigned long start = addr;
	bool wrprotected = false;
	pte_t *src_pte, *dst_pte;
	int err = 0;
	int rss[NR_MM_COUNTERS] = { 0 };	/* added once per table, as v6.10's add_mm_rss_vec */

	/* No table in the parent: nothing to copy (a lookup without the lock is safe: tables go
	 * only under mmap_lock, held). */
	if (!pte_lookup(pgd_offset(src_mm, addr), addr))
		return 0;
	spin_lock(&dst_mm->page_table_lock);
	dst_pte = pte_alloc(dst_mm, addr);
	if (!dst_pte) {
		spin_unlock(&dst_mm->page_table_lock);
		return -ENOMEM;
	}
	spin_lock(&src_mm->page_table_lock);
	src_pte = user_pte_lookup(src_mm, addr);
	for (; addr < end; addr += PAGE_SIZE, src_pte++, dst_pte++) {
		pte_t pte = ptep_get(src_pte);

		if (pte_none(pte))
			continue;
		if (!pte_present(pte)) {
			/* A hwpoison entry goes to the child as it is, so its touch is SIGBUS too; a
			 * swap entry too, one more holder of its slot (v6.10's copy_nonpresent_pte). */
			swp_entry_t entry = pte_to_swp_entry(pte);

			if (is_migration_entry(entry)) {
				/* The folio on the move is the child's too (its ptes come back through
				 * rmap, which finds the child's area); in a copy-on-write area both
				 * entries become read-only, as v6.10's copy_nonpresent_pte. */
				rss[mm_counter(pfn_swap_entry_folio(entry))]++;
				if (!is_readable_migration_entry(entry) && is_cow_mapping(src_vma->vm_flags)) {
					pte = swp_entry_to_pte(make_readable_migration_entry(swp_offset(entry)));
					set_pte_at(src_mm, addr, src_pte, pte);
				}
			} else if (!is_hwpoison_entry(entry)) {
				if (swap_duplicate(entry) < 0) {
					err = -ENOMEM;	/* the slot's count is full: fork fails */
					break;
				}
				rss[MM_SWAPENTS]++;
			}
			set_pte_at(dst_mm, addr, dst_pte, pte);
			continue;
		}
		pte = copy_present_pte(src_vma, src_pte, addr, pte, &wrprotected, rss);
		if (!pte_none(pte))
			set_pte_at(dst_mm, addr, dst_pte, pte);
	}
	add_mm_rss_vec(dst_mm, rss);
	spin_unlock(&src_mm->page_table_lock);
	spin_unlock(&dst_mm->page_table_lock);
	if (wrprotected)
		flush_tlb_range(src_vma, start, end);
	return err;
}

int copy_page_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma)
{
	unsigned long addr = src_vma->vm_start, end = src_vma->vm_end;

	lockdep_assert_held(&src_vma->vm_mm->mmap_lock);
	lockdep_assert_held(&dst_vma->vm_mm->mmap_lock);
	if (!src_vma->anon_vma)
		return 0;	/* v6.10's vma_needs_copy: the child faults file pages in itself */
	while (addr < end) {
		unsigned long next = pmd_addr_end(addr, end);
		int err = copy_pte_range(dst_vma, src_vma, addr, next);

		if (err)
			return err;
		addr = next;
	}
	return 0;
}

/* v6.10's dup_mmap(): the areas and their ptes, both mmap_locks held. */
static int dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm)
{
	int cap = oldmm->map_count > 8 ? oldmm->map_count : 8;

	mm->vmas = kmalloc((size_t)cap * sizeof(*mm->vmas), GFP_KERNEL);
	if (!mm->vmas)
		return -ENOMEM;
	mm->vmas_capacity = cap;
	for (int i = 0; i < oldmm->map_count; i++) {
		struct vm_area_struct *mpnt = oldmm->vmas[i];
		struct vm_area_struct *tmp = kmalloc(sizeof(*tmp), GFP_KERNEL);

		if (!tmp)
			return -ENOMEM;
		*tmp = *mpnt;			/* vm_area_dup */
		tmp->vm_mm = mm;
		tmp->vm_flags &= ~VM_LOCKED_MASK;	/* mlock is not inherited (v6.10's dup_mmap) */
		tmp->anon_vma = NULL;
		if (mpnt->anon_vma)
			anon_vma_link(tmp, mpnt->anon_vma);	/* anon_vma_fork, one family */
		vma_link_file(tmp);	/* on the file's i_mmap, with the area's file reference */
		mm->vmas[mm->map_count++] = tmp;
		mm->total_vm += vma_pages(tmp);
		if (copy_page_range(tmp, mpnt))
			return -ENOMEM;
	}
	/* Areas only mlock kept apart are alike in the child (tinymm keeps none unmerged). */
	if (mm->map_count)
		vma_merge_range(mm, 0, mm->map_count - 1);
	return 0;
}

struct mm_struct *dup_mm(struct mm_struct *oldmm, int *err)
{
	struct mm_struct *mm = mm_alloc();

	if (!mm) {
		*err = -ENOMEM;
		return NULL;
	}
	mutex_lock(&oldmm->mmap_lock);
	mutex_lock(&mm->mmap_lock);
	mm->task_size = oldmm->task_size;
	mm->mmap_base = oldmm->mmap_base;
	mm->start_brk = oldmm->start_brk;
	mm->brk = oldmm->brk;
	mm->start_stack = oldmm->start_stack;
	if (oldmm->exe_file)
		mm->exe_file = get_file(oldmm->exe_file);
	*err = dup_mmap(mm, oldmm);
	mutex_unlock(&mm->mmap_lock);
	mutex_unlock(&oldmm->mmap_lock);
	if (*err) {
		mmput(mm);		/* zaps what was copied, frees the tables and areas */
		return NULL;
	}
	return mm;
}
