/* fake_pgtable.h - what tests and fuzzers call on the fake page-table architecture. */
#ifndef TINYMM_TESTS_FAKE_PGTABLE_H
#define TINYMM_TESTS_FAKE_PGTABLE_H
#include "tinymm/meminfo.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/slab.h"
#include "fake_ram.h"

/*
 * A new boot of the fake MMU: the root table empty, NR_PAGETABLE 0 (the frames of the last
 * boot's tables went with its fake RAM), no TLB flush logged, the tables "live", entries relative to @pfn_base (2 levels: the fake
 * RAM's first pfn), the vmalloc range @vmalloc_size bytes long (0: the default 256 MiB).
 */
void fake_pgtable_reset(unsigned long pfn_base, unsigned long vmalloc_size);

/* Pages arch_dma_prep_coherent() prepared since the reset (a non-cacheable mapping's). */
extern unsigned long fake_prep_coherent_pages;

/*
 * What the page-table tests boot before each case: memblock with one bank of @size bytes of fake
 * RAM at @ram (its "kernel" reserved), the memmap, the page allocator, the slab, meminfo's total
 * and a fresh fake MMU whose entries are relative to the RAM's first pfn (returned in *@pfn0)
 * and whose vmalloc range is @vmalloc_size bytes (0: the default).  0, or -1 if a step failed.
 */
static inline int fake_mmu_boot(char *ram, size_t size, unsigned long vmalloc_size,
				unsigned long *pfn0)
{
	if (fake_ram_one_bank(__pa(ram), size))
		return -1;
	fake_ram_reserve_kernel(__pa(ram));
	if (memmap_init() || page_alloc_init())
		return -1;
	kmem_cache_init();
	meminfo_set_total(size);
	*pfn0 = (unsigned long)(__pa(ram) >> PAGE_SHIFT);
	fake_pgtable_reset(*pfn0, vmalloc_size);
	return 0;
}
#endif
