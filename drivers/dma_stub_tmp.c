/*
 * dma_stub_tmp.c - TEMPORARY weak stand-ins for kernel/dma/ (the dma branch) so the SD driver
 * links before it lands; direct mapping, no cache maintenance (QEMU models no caches).
 * Deleted when the dma branch is merged.
 */
#include "tinymm/dma-mapping.h"
#include "tinymm/memory.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include <string.h>

__attribute__((weak)) void dma_dev_init(struct device *dev, const char *name, const struct dt *dt, int node)
{
	(void)dt;
	dev->init_name = name;
	dev->of_node = node;
	dev->dma_coherent = false;
	dev->dma_mask = dev->coherent_dma_mask = DMA_BIT_MASK(32);
}
__attribute__((weak)) int dma_set_mask_and_coherent(struct device *dev, uint64_t mask)
{
	dev->dma_mask = dev->coherent_dma_mask = mask;
	return 0;
}
__attribute__((weak)) dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset,
					      size_t size, enum dma_data_direction dir)
{
	(void)dev; (void)size; (void)dir;
	return PFN_PHYS(page_to_pfn(page)) + offset;
}
__attribute__((weak)) void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
					  enum dma_data_direction dir)
{
	(void)dev; (void)addr; (void)size; (void)dir;
}
__attribute__((weak)) void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *h, gfp_t gfp)
{
	struct page *p = alloc_pages(gfp, 0);

	(void)dev;
	if (!p || size > PAGE_SIZE)
		return NULL;
	memset(page_address(p), 0, PAGE_SIZE);
	*h = PFN_PHYS(page_to_pfn(p));
	return page_address(p);
}
