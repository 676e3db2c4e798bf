/*
 * mm_fault.h - user page tables and the page-fault core: mm/memory.c (faults, zapping, the
 * tables' life), mm/rmap.c (the mapcount and an anonymous folio's identity), mm/mprotect.c
 * (change_protection), filemap_fault() in mm/filemap.c.  docs/memory.md describes the whole.
 *
 *   mm_alloc_pgd(mm) / mm_free_pgd(mm)   a user mm's root table: user entries empty, the
 *                                     kernel's copied from swapper_pg_dir; 0 or -ENOMEM
 *   handle_mm_fault(vma, addr, flags) resolve a fault at @addr in @vma: 0 or VM_FAULT_* bits
 *   unmap_page_range(mm, start, end)  zap the ptes of [start, end): mapcounts down, references
 *                                     dropped, dirty file ptes dirty the folio, TLB flushed
 *   free_pgd_range(mm, start, end)    free the page tables under [start, end) that hold nothing
 *   free_pgtables(mm)                 exit: free every table under the areas, all ptes zapped
 *   change_protection(vma, start, end)  the ptes of [start, end) to the area's vm_flags
 *   exit_mmap(mm)                     every page, table and area of @mm freed, the root too
 *   vm_get_page_prot(vm_flags)        v6.10's: the user pte protection of an area
 * Locking: mm->mmap_lock held for all but the pgd calls and exit_mmap (which takes it), checked
 * with lockdep_assert_held; mm->page_table_lock is the pte lock (docs/memory.md says why one).
 */
#ifndef TINYMM_MM_FAULT_H
#define TINYMM_MM_FAULT_H

#include "mm_types.h"
#include "mmap.h"
#include "page-flags.h"
#include "pgtable.h"

/* v6.10's vm_fault_t and its bits (include/linux/mm_types.h), the ones tinymm returns. */
typedef unsigned int vm_fault_t;
#define VM_FAULT_OOM		0x000001	/* no memory for a page or a table */
#define VM_FAULT_SIGBUS		0x000002	/* a file page past EOF, a read error, shared anon */
#define VM_FAULT_MAJOR		0x000004	/* the page had to be read (I/O) */
#define VM_FAULT_HWPOISON	0x000010	/* a hwpoison entry: the page's memory went bad */
#define VM_FAULT_SIGSEGV	0x000040	/* outside the area or beyond its permissions */
#define VM_FAULT_ERROR		(VM_FAULT_OOM | VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV | \
				 VM_FAULT_HWPOISON)

/* v6.10's enum fault_flag, the bits tinymm looks at. */
#define FAULT_FLAG_WRITE	(1U << 0)	/* a write access */
#define FAULT_FLAG_USER		(1U << 6)	/* from user mode */
#define FAULT_FLAG_INSTRUCTION	(1U << 8)	/* an instruction fetch */
#define FAULT_FLAG_SWAPOFF	(1U << 16)	/* tinymm's: swapoff's swap-in (swapin_unuse_pte) */

/* v6.10's struct vm_fault, reduced: what the handlers pass along. */
struct vm_fault {
	struct vm_area_struct *vma;
	unsigned long address;		/* page-aligned */
	unsigned long real_address;	/* as faulted */
	unsigned int flags;		/* FAULT_FLAG_* */
	unsigned long pgoff;		/* the file page (or the anon linear index) */
	pte_t *pte;			/* the entry (its table exists) */
	pte_t orig_pte;			/* its value when the fault was taken */
	struct folio *folio;		/* filemap_fault's result, referenced */
};

pgprot_t vm_get_page_prot(unsigned long vm_flags);
int mm_alloc_pgd(struct mm_struct *mm);
void mm_free_pgd(struct mm_struct *mm);
vm_fault_t handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags);
/* swapoff's swap-in of the swap entry at @address, whatever the area's protection (mm/memory.c). */
vm_fault_t swapin_unuse_pte(struct vm_area_struct *vma, unsigned long address);
void unmap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end);
void free_pgd_range(struct mm_struct *mm, unsigned long start, unsigned long end);
void free_pgtables(struct mm_struct *mm);
void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end);
void exit_mmap(struct mm_struct *mm);
/* The folio a present user pte maps, or NULL (not RAM: nothing tinymm maps there).  v6.10's
 * takes the area and address too, for special and pfn mappings, which tinymm does not have. */
struct folio *vm_normal_folio(pte_t pte);
/* The pte mapping @addr in @mm, or NULL if no table holds one (callers hold page_table_lock). */
pte_t *user_pte_lookup(struct mm_struct *mm, unsigned long addr);
/* The pte for @addr in @mm, its tables made; NULL without memory.  page_table_lock held; it is
 * dropped and taken again while a table is allocated. */
pte_t *pte_alloc(struct mm_struct *mm, unsigned long addr);

/* mm/filemap.c: the page-cache folio for vmf->pgoff of the area's file, referenced in
 * vmf->folio and uptodate; 0, VM_FAULT_MAJOR (it was read), VM_FAULT_SIGBUS (past EOF or
 * a read error), VM_FAULT_OOM. */
vm_fault_t filemap_fault(struct vm_fault *vmf);

/* mm/memory_shared.c (docs/shared-mappings.md): a MAP_SHARED file area's write faults, v6.10's
 * do_shared_fault (no pte yet) and wp_page_shared (a write-protected pte of a clean folio):
 * the folio dirtied and mapped writable, or VM_FAULT_SIGBUS past EOF. */
vm_fault_t do_shared_fault(struct vm_fault *vmf);
vm_fault_t wp_page_shared(struct vm_fault *vmf);

/* mm/rmap.c (v6.10's names, small folios only). */
void folio_add_new_anon_rmap(struct folio *folio, struct vm_area_struct *vma, unsigned long address);
void folio_add_anon_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *vma,
			     unsigned long address, bool exclusive);
void folio_add_file_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *vma);
void folio_remove_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *vma);
int folio_try_dup_anon_rmap_pte(struct folio *folio, struct page *page, struct vm_area_struct *src_vma);
void folio_dup_file_rmap_pte(struct folio *folio, struct page *page);

/* v6.10's mm_counter(): which rss_stat[] entry a mapping of @folio counts in (no shmem yet). */
static inline int mm_counter(const struct folio *folio)
{
	return folio_test_anon(folio) ? MM_ANONPAGES : MM_FILEPAGES;
}

/* The file page (or anon linear index) of @address in @vma (v6.10's linear_page_index). */
static inline unsigned long linear_page_index(const struct vm_area_struct *vma, unsigned long address)
{
	return ((address - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff;
}

#endif
