/*
 * mincore.c - mincore(2), Linux v6.10's mm/mincore.c reduced (docs/syscalls.md): one byte per
 * page of [start, start + len) in the caller's vector, 1 when the page is resident, else 0.
 *
 * Resident, as v6.10 says it: a present pte is 1; where the pte is none (or no pte table is),
 * a file area asks the page cache whether it holds an uptodate folio at that file index
 * (mincore_page: a referenced lookup that does not mark the folio accessed, so asking does not
 * change what reclaim keeps); an anonymous area's hole is 0.  A swap entry is 1 while its
 * slot's folio is in the swap cache and uptodate (v6.10's mincore_swap); a hwpoison entry is 1
 * (v6.10's "non-swap entries are always uptodate").
 * Arguments as v6.10: an unaligned start -EINVAL; a range past user space -ENOMEM; a vector
 * past user space -EFAULT before anything is done; then the range is done area by area, at
 * most PAGE_SIZE pages per step: a page not in any area is -ENOMEM and a vector the copy
 * cannot reach -EFAULT, with the steps before it already copied out.  A length of 0 is 0.
 * Where tinymm differs from v6.10, and why: no can_do_mincore() (v6.10 answers all 1s for a
 * file the caller could neither own nor write, against cache side channels): tinymm has no
 * users or permissions to compare.
 * Locking: mm->mmap_lock across one step's lookups, dropped before the copy to the user (a
 * fault in the vector takes it: a mutex here, so holding it would deadlock); page_table_lock
 * while reading one pmd's ptes; the page-cache lookups under the mmap_lock only (they never
 * sleep, and the area's file stays open while the area exists).
 */
#include "tinymm/errno.h"
#include "tinymm/err.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/swapfile.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/rmap_file.h"
#include "tinymm/sched.h"
#include "tinymm/syscalls.h"
#include "tinymm/uaccess.h"

/* A page whose pte is none: what the page cache says (filled in after the pte pass). */
#define MINCORE_ASK_CACHE	0xff

/* v6.10's mincore_page: an uptodate folio at @index of @mapping. */
static unsigned char mincore_page(struct address_space *mapping, pgoff_t index)
{
	struct folio *folio = filemap_get_folio(mapping, index);
	unsigned char present = 0;

	if (!IS_ERR(folio)) {
		present = folio_test_uptodate(folio);
		folio_put(folio);
	}
	return present;
}

/*
 * The bytes of at most @pages pages from @addr, stopping at the end of the area holding @addr:
 * how many were filled in @vec, or -ENOMEM if no area holds @addr (v6.10's do_mincore).
 */

/* A swapped-out page is in core if its folio is still (or already) in the swap cache. */
static unsigned char mincore_swap(swp_entry_t entry)
{
	struct folio *folio = swap_cache_get_folio(entry);
	unsigned char present;

	if (!folio)
		return 0;
	present = folio_test_uptodate(folio);
	folio_put(folio);
	return present;
}

static long do_mincore(struct mm_struct *mm, unsigned long addr, unsigned long pages,
		       unsigned char *vec)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	struct address_space *mapping;
	unsigned long end, nr, i = 0;

	lockdep_assert_held(&mm->mmap_lock);
	if (!vma)
		return -ENOMEM;
	end = vma->vm_end - addr > (pages << PAGE_SHIFT) ? addr + (pages << PAGE_SHIFT) : vma->vm_end;
	nr = (end - addr) >> PAGE_SHIFT;
	/* The ptes, one pmd's table at a time (v6.10's mincore_pte_range / mincore_unmapped_range). */
	for (unsigned long a = addr; a < end;) {
		unsigned long next = pmd_addr_end(a, end);
		pte_t *pte = NULL;

		spin_lock(&mm->page_table_lock);
		if (mm->pgd)
			pte = user_pte_lookup(mm, a);
		for (; a < next; a += PAGE_SIZE, i++) {
			pte_t entry = pte ? ptep_get(pte++) : __pte(0);

			/* Present, or a hwpoison or migration entry (v6.10: a non-swap entry is
			 * "always uptodate"): 1.  A swap entry: whether its slot's folio is in the swap
			 * cache and uptodate (v6.10's mincore_swap). */
			if (pte_none(entry))
				vec[i] = MINCORE_ASK_CACHE;
			else if (!pte_present(entry) && !non_swap_entry(pte_to_swp_entry(entry)))
				vec[i] = mincore_swap(pte_to_swp_entry(entry));
			else
				vec[i] = 1;
		}
		spin_unlock(&mm->page_table_lock);
	}
	/* The holes: the page cache of a file area, nothing for an anonymous one. */
	mapping = vma_file_mapping(vma);
	for (i = 0; i < nr; i++) {
		if (vec[i] != MINCORE_ASK_CACHE)
			continue;
		vec[i] = mapping ? mincore_page(mapping,
						linear_page_index(vma, addr + (i << PAGE_SHIFT))) : 0;
	}
	return (long)nr;
}

long sys_mincore(unsigned long start, size_t len, unsigned char __user *vec)
{
	struct mm_struct *mm = current->mm;
	unsigned long pages;
	unsigned char *tmp;
	long ret = 0;

	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (!access_ok((void __user *)start, len))
		return -ENOMEM;
	/* Rounded up without PAGE_ALIGN: len near ULONG_MAX would wrap (access_ok refused it). */
	pages = (len >> PAGE_SHIFT) + ((len & ~PAGE_MASK) != 0);
	if (!access_ok(vec, pages))
		return -EFAULT;
	if (!pages)
		return 0;
	if (!mm)
		return -ENOMEM;
	tmp = (unsigned char *)__get_free_page(GFP_KERNEL);
	if (!tmp)
		return -EAGAIN;
	while (pages) {
		mutex_lock(&mm->mmap_lock);
		ret = do_mincore(mm, start, pages < PAGE_SIZE ? pages : PAGE_SIZE, tmp);
		mutex_unlock(&mm->mmap_lock);
		if (ret <= 0)
			break;
		if (copy_to_user(vec, tmp, (unsigned long)ret)) {
			ret = -EFAULT;
			break;
		}
		pages -= (unsigned long)ret;
		vec += ret;
		start += (unsigned long)ret << PAGE_SHIFT;
		ret = 0;
	}
	free_page((unsigned long)tmp);
	return ret;
}
