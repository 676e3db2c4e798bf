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
 * Where tinymm differs from v6.10: no highmem (every folio is in the linear map), no aliasing
 * caches to handle (ARMv6 only), no SMP broadcast yet.
 */
#include "tinymm/cacheflush.h"
#include "tinymm/mm.h"
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
