/*
 * rmap_file.c - the file side of reverse mapping (include/tinymm/rmap_file.h,
 * docs/shared-mappings.md): each address_space lists the areas that map it (i_mmap), so a
 * page-cache folio leads to every pte that may map it.  Linux v6.10 mm/rmap.c's
 * rmap_walk_file and folio_mkclean, mm/memory.c's unmap_mapping_range/unmap_mapping_folio
 * (mm/truncate.c's truncate_pagecache and truncate_cleanup_folio call them), reduced to small
 * folios.
 *
 * Invariants: an area with a vm_file is on its mapping's i_mmap, and holds a reference on the
 * file, from mmap_region() until it is freed (munmap, merge, exit), and only then; its
 * vm_start/vm_end/vm_pgoff change only with i_mmap_lock held too (mm/mmap.c), so a walker
 * under the lock computes the right address.
 * After folio_mkclean() no pte maps the folio writable or dirty: the next write through any
 * mapping faults (wp_page_shared, mm/memory_shared.c) and dirties the folio again, so a write
 * made after writeback started is never lost.
 *
 * Where tinymm differs from v6.10, and why: i_mmap is a list, not an interval tree: a walk
 * costs O(areas mapping the file) instead of O(log n + hits); tinymm's files are mapped by a
 * handful of areas.  Zapping here drops a dirty pte's dirt: every caller truncates the folio, whose
 * data goes anyway (v6.10 marks it dirty and truncation cancels it).
 * Locking: the walkers take i_mmap_lock, then each mm's page_table_lock around its ptes; they
 * never take an mmap_lock (a walk from writeback may run under some other mm's).  Order:
 * mmap_lock -> folio lock -> i_mmap_lock -> page_table_lock.
 */
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/pagemap.h"
#include "tinymm/rmap_file.h"
#include "tinymm/swapfile.h"
#include "tinymm/vfs.h"

struct address_space *vma_file_mapping(const struct vm_area_struct *vma)
{
	return vma->vm_file ? vma->vm_file->f_inode->i_mapping : NULL;
}

/* The area's reference on its file (v6.10's vma->vm_file holds one: get_file in mmap_region,
 * fput in remove_vma), so the mapping outlives every area on its i_mmap even when the task's
 * fd table let go of the file first (an mm freed late, by the last mmput of `maps`). */
void vma_get_file(struct vm_area_struct *vma)
{
	if (vma->vm_file)
		atomic_inc(&vma->vm_file->f_count);
}

void vma_link_file(struct vm_area_struct *vma)
{
	struct address_space *mapping = vma_file_mapping(vma);

	lockdep_assert_held(&vma->vm_mm->mmap_lock);
	if (!mapping) {
		INIT_LIST_HEAD(&vma->shared);
		return;
	}
	vma_get_file(vma);
	i_mmap_lock_write(mapping);
	list_add_tail(&vma->shared, &mapping->i_mmap);
	i_mmap_unlock_write(mapping);
}

void vma_unlink_file(struct vm_area_struct *vma)
{
	struct address_space *mapping = vma_file_mapping(vma);

	lockdep_assert_held(&vma->vm_mm->mmap_lock);
	if (!mapping)
		return;
	i_mmap_lock_write(mapping);
	list_del_init(&vma->shared);
	i_mmap_unlock_write(mapping);
	vfs_close(vma->vm_file);		/* fput: the area's reference */
}

void rmap_walk_file(struct folio *folio, struct rmap_walk_control *rwc)
{
	struct address_space *mapping = folio->mapping;
	pgoff_t pgoff = folio->index;
	struct vm_area_struct *vma;

	lockdep_assert_folio_locked(folio);
	if (!mapping || folio_test_anon(folio))
		return;
	if (rwc->try_lock) {
		if (!i_mmap_trylock_read(mapping)) {
			rwc->contended = true;
			return;
		}
	} else {
		i_mmap_lock_read(mapping);
	}
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		unsigned long address;

		if (pgoff < vma->vm_pgoff || pgoff - vma->vm_pgoff >= vma_pages(vma))
			continue;
		address = vma->vm_start + ((pgoff - vma->vm_pgoff) << PAGE_SHIFT);
		if (!rwc->rmap_one(folio, vma, address, rwc->arg))
			break;
	}
	i_mmap_unlock_read(mapping);
}

/* v6.10's page_vma_mkclean_one: the pte at @address, if it maps @folio dirty or writable,
 * becomes clean and read-only, flushed before the lock goes. */
static bool page_mkclean_one(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address, void *arg)
{
	pte_t *pte = page_vma_mapped_pte(folio, vma, address);
	int *cleaned = arg;

	if (!pte)
		return true;
	pte_t old = ptep_get(pte);
	if (pte_dirty(old) || pte_write(old)) {
		set_pte_at(vma->vm_mm, address, pte, pte_wrprotect(pte_mkclean(old)));
		flush_tlb_page(vma, address);
		(*cleaned)++;
	}
	spin_unlock(&vma->vm_mm->page_table_lock);
	return true;
}

int folio_mkclean(struct folio *folio)
{
	struct rmap_walk_control rwc = { .rmap_one = page_mkclean_one };
	int cleaned = 0;

	lockdep_assert_folio_locked(folio);
	if (!folio_mapped(folio) || !folio->mapping || folio_test_anon(folio))
		return 0;
	rwc.arg = &cleaned;
	rmap_walk_file(folio, &rwc);
	return cleaned;
}

#define ZAP_FILE_BATCH	16	/* references dropped after each TLB flush */

/*
 * The ptes of [start, end) in @vma cleared, their mapcounts and references dropped after the
 * flush (v6.10's zap_page_range_single with a zap_details: @only limits it to one folio, and
 * anonymous folios, a private area's copies, go only with @even_cows).  Runs under
 * i_mmap_lock, not the area's mmap_lock: page_table_lock keeps the tables from being freed.
 */
static void zap_file_range(struct vm_area_struct *vma, unsigned long start, unsigned long end,
			   struct folio *only, bool even_cows)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr = start;

	lockdep_assert_held(&vma_file_mapping(vma)->i_mmap_rwsem);
	if (!mm->pgd)
		return;
	while (addr < end) {
		unsigned long next = pmd_addr_end(addr, end), from = addr;
		struct folio *batch[ZAP_FILE_BATCH];
		unsigned int nr = 0;
		pte_t *pte;

		spin_lock(&mm->page_table_lock);
		pte = user_pte_lookup(mm, addr);
		if (!pte)
			addr = next;
		for (; pte && addr < next && nr < ZAP_FILE_BATCH; addr += PAGE_SIZE, pte++) {
			pte_t ptent = ptep_get(pte);
			struct page *page;
			struct folio *folio;

			if (pte_none(ptent))
				continue;
			if (is_migration_pte(ptent)) {
				/* A folio on the move: zapped as the pte it stands for would be (v6.10's
				 * should_zap_folio), its RSS with it; migration finds it gone. */
				folio = pfn_swap_entry_folio(pte_to_swp_entry(ptent));
				if ((only && folio != only) || (folio_test_anon(folio) && !even_cows))
					continue;
				pte_clear(mm, addr, pte);
				add_mm_counter(mm, mm_counter(folio), -1);
				continue;
			}
			if (!pte_present(ptent)) {
				/* A hwpoison entry maps no folio, a swap entry names a private copy's
				 * slot: cleared only when the private copies go too (truncation), as
				 * v6.10's should_zap_cows(); the slot's count goes with it. */
				if (even_cows) {
					swp_entry_t entry = pte_to_swp_entry(ptent);

					pte_clear(mm, addr, pte);
					if (!is_hwpoison_entry(entry)) {
						free_swap_and_cache(entry);
						add_mm_counter(mm, MM_SWAPENTS, -1);
					}
				}
				continue;
			}
			page = pfn_to_page(pte_pfn(ptent));
			if (!page)
				continue;
			folio = page_folio(page);
			if ((only && folio != only) || (folio_test_anon(folio) && !even_cows))
				continue;
			pte_clear(mm, addr, pte);
			folio_remove_rmap_pte(folio, page, vma);
			add_mm_counter(mm, mm_counter(folio), -1);
			batch[nr++] = folio;
		}
		spin_unlock(&mm->page_table_lock);
		if (nr)
			flush_tlb_range(vma, from, addr);
		for (unsigned int i = 0; i < nr; i++)
			folio_put(batch[i]);
	}
}

static bool unmap_folio_one(struct folio *folio, struct vm_area_struct *vma,
			    unsigned long address, void *arg)
{
	(void)arg;
	zap_file_range(vma, address, address + PAGE_SIZE, folio, false);
	return folio_mapped(folio);
}

void unmap_mapping_folio(struct folio *folio)
{
	struct rmap_walk_control rwc = { .rmap_one = unmap_folio_one };

	lockdep_assert_folio_locked(folio);
	if (folio_mapped(folio))
		rmap_walk_file(folio, &rwc);
}

void unmap_mapping_range(struct address_space *mapping, loff_t start, loff_t len, bool even_cows)
{
	pgoff_t first = (pgoff_t)((uint64_t)start >> PAGE_SHIFT), last = ULONG_MAX;
	struct vm_area_struct *vma;

	if (len > 0) {
		uint64_t end = ((uint64_t)start + (uint64_t)len + PAGE_SIZE - 1) >> PAGE_SHIFT;

		if (end - 1 < ULONG_MAX)
			last = (pgoff_t)(end - 1);
	}
	i_mmap_lock_write(mapping);
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		pgoff_t vba = vma->vm_pgoff, vea = vba + vma_pages(vma) - 1;
		pgoff_t zba = first > vba ? first : vba, zea = last < vea ? last : vea;

		if (zba > zea)
			continue;
		zap_file_range(vma, vma->vm_start + ((zba - vba) << PAGE_SHIFT),
			       vma->vm_start + ((zea - vba + 1) << PAGE_SHIFT), NULL, even_cows);
	}
	i_mmap_unlock_write(mapping);
}
