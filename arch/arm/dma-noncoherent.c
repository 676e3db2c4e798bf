/*
 * dma-noncoherent.c - ARMv7's cache maintenance for streaming DMA (include/tinymm/dma-map-ops.h,
 * docs/dma.md): v6.10's arch/arm/mm/dma-mapping.c __dma_page_cpu_to_dev / __dma_page_dev_to_cpu
 * over cache-v7.S's v7_dma_map_area / v7_dma_unmap_area, for a device that does not snoop:
 *
 *   to the device   TO_DEVICE, BIDIRECTIONAL: clean to PoC (v7_dma_clean_range), so memory
 *                   holds what the CPU wrote;  FROM_DEVICE: invalidate (v7_dma_inv_range), so
 *                   no dirty line is written back over the device's data later.
 *   to the CPU      FROM_DEVICE, BIDIRECTIONAL: invalidate again (lines the CPU fetched
 *                   speculatively during the transfer hold stale data);  TO_DEVICE: nothing.
 * Each invalidate is asm/cacheflush.h's dcache_inval_poc(), which cleans and invalidates a
 * partial line at either end instead of only invalidating it (v7_dma_inv_range's rule): the
 * rest of such a line may be a neighbour's bytes, dirty in the cache, that a plain invalidate
 * would throw away.  One operation per call: cacheop_counts sees exactly one CLEAN or INVAL.
 * The buffer is reached through the linear map: tinymm has no highmem (v6.10 maps highmem
 * pages one at a time with kmap_atomic); no outer cache (no board tinymm runs on has an
 * L2X0 that is not already inside the PoC operations).
 * Locking: none; runs with irqs masked or not.
 */
#include <asm/cacheflush.h>
#include "tinymm/dma-map-ops.h"
#include "tinymm/memory.h"

void arch_sync_dma_for_device(phys_addr_t paddr, size_t size, enum dma_data_direction dir)
{
	unsigned long start = (unsigned long)__va(paddr);

	if (dir == DMA_FROM_DEVICE)
		dcache_inval_poc(start, start + size);
	else
		dcache_clean_poc(start, start + size);
}

void arch_sync_dma_for_cpu(phys_addr_t paddr, size_t size, enum dma_data_direction dir)
{
	unsigned long start = (unsigned long)__va(paddr);

	if (dir != DMA_TO_DEVICE)
		dcache_inval_poc(start, start + size);
}
