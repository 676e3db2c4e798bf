/*
 * cacheflush.c - ARMv7's PG_dcache_clean policy (docs/cacheflush.md): v6.10's
 * arch/arm/mm/flush.c for a non-aliasing VIPT D-cache (every ARMv7-A core) and a PIPT or
 * non-aliasing I-cache.
 *
 * __sync_icache_dcache(), called by set_pte_at() for a present user pte (asm/pgtable.h's
 * arch_sync_icache_dcache: only executable ones reach here, v6.10's first test), makes the
 * folio's data reach the point the instruction side fetches from, once per write
 * (test_and_set_bit(PG_dcache_clean): __flush_dcache_folio, which on ARMv7 is
 * __cpuc_flush_dcache_area: clean and invalidate by MVA to PoC through the kernel's mapping of
 * the folio), then invalidates the I-cache every time an executable pte is set: another
 * mapping's stale lines may be there whatever the flag says.  flush_dcache_folio() (what the
 * kernel's writes call: include/tinymm/cacheflush.h) only clears the flag.
 * arm_cacheflush() is the private cacheflush call (0x0f0002) for code a task rewrote in place.
 * Where tinymm differs from v6.10: no highmem (every folio is in the linear map), no aliasing
 * caches to handle (ARMv6 only), no SMP broadcast yet.
 */
#include "tinymm/cacheflush.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/page-flags.h"
#include "tinymm/pgtable.h"


static void __flush_dcache_folio(struct folio *folio)
{
	unsigned long start = (unsigned long)page_address(&folio->page);

	dcache_clean_inval_poc(start, start + (folio_nr_pages(folio) << PAGE_SHIFT));
}

void __sync_icache_dcache(pte_t pteval)
{
	unsigned long pfn = pte_pfn(pteval);
	struct folio *folio;

	if (!pfn_valid(pfn))
		return;
	if (PageReserved(pfn_to_page(pfn)))
		return;
	folio = page_folio(pfn_to_page(pfn));
	if (!test_and_set_bit(PG_dcache_clean, &folio->flags))
		__flush_dcache_folio(folio);
	else
		count_cacheop(CACHEOP_DCACHE_CLEAN_SKIPPED);
	icache_inval_all();
}

/*
 * ARM's private cacheflush(start, end, flags) (v6.10's do_cache_op): the task wrote
 * instructions into [start, end) of its own mapping; their lines are cleaned to the point of
 * unification and the I-cache invalidated.  end < start or any flag: -EINVAL; a range past
 * user space: -EFAULT (access_ok).  Page by page under mmap_lock: an address in no area is
 * -EFAULT, as v6.10's user-range operation faults there without an area (what was done before
 * stays done); a page not present has no lines of this mapping to clean.  The D-cache is
 * cleaned through the kernel's mapping of the frame (ARMv7's D-cache is PIPT-like: the same
 * lines), which cannot take the access-flag fault an old user pte would give a by-MVA
 * operation on the user address; the I-cache is invalidated whole (its lines may be indexed
 * by the user address).
 */
long arm_cacheflush(struct mm_struct *mm, unsigned long start, unsigned long end,
		    unsigned long flags)
{
	long ret = 0;

	if (end < start || flags)
		return -EINVAL;
	if (end > TASK_SIZE)
		return -EFAULT;
	if (start == end)
		return 0;
	mutex_lock(&mm->mmap_lock);
	for (unsigned long addr = start & PAGE_MASK; addr < end; addr += PAGE_SIZE) {
		unsigned long from = addr > start ? addr : start;
		unsigned long to = addr + PAGE_SIZE < end ? addr + PAGE_SIZE : end;
		pte_t *ptep, pte = __pte(0);

		if (!vma_lookup(mm, addr)) {
			ret = -EFAULT;
			break;
		}
		spin_lock(&mm->page_table_lock);
		ptep = user_pte_lookup(mm, addr);
		if (ptep)
			pte = ptep_get(ptep);
		if (pte_present(pte) && pfn_valid(pte_pfn(pte))) {
			unsigned long k = (unsigned long)page_address(pfn_to_page(pte_pfn(pte)));

			dcache_clean_pou(k + (from - addr), k + (to - addr));
		}
		spin_unlock(&mm->page_table_lock);
	}
	mutex_unlock(&mm->mmap_lock);
	icache_inval_all();
	return ret;
}
