/* fake_pgtable.h - what tests and fuzzers call on the fake page-table architecture. */
#ifndef TINYMM_TESTS_FAKE_PGTABLE_H
#define TINYMM_TESTS_FAKE_PGTABLE_H

/*
 * A new boot of the fake MMU: the root table empty, NR_PAGETABLE 0 (the frames of the last
 * boot's tables went with its fake RAM), no TLB flush logged, the tables "live", entries relative to @pfn_base (2 levels: the fake
 * RAM's first pfn), the vmalloc range @vmalloc_size bytes long (0: the default 256 MiB).
 */
void fake_pgtable_reset(unsigned long pfn_base, unsigned long vmalloc_size);

/* Pages arch_dma_prep_coherent() prepared since the reset (a non-cacheable mapping's). */
extern unsigned long fake_prep_coherent_pages;
#endif
