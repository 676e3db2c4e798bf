/*
 * mapping.c - the DMA API's entry points (include/tinymm/dma-mapping.h, docs/dma.md): a
 * device's coherency from the device tree, its masks, and the map/unmap/sync calls, each
 * checked by the DMA-API debugging table (debug.c) and done by the direct mapping (direct.c).
 * v6.10's kernel/dma/mapping.c and drivers/of/address.c's of_dma_is_coherent().
 *
 * Coherency: the nearest of the node and its ancestors that says "dma-coherent" (coherent) or
 * "dma-noncoherent" (not) decides; with neither, ARCH_DMA_DEFAULT_COHERENT (asm/dma-mapping.h:
 * ARM false, RISC-V true), as v6.10's of_dma_is_coherent() with dma_default_coherent.
 * Masks: 32 bits at dma_dev_init() (v6.10's default for a platform device), dma_set_mask*()
 * refuse a mask the platform cannot serve (-EIO) and keep the old one.
 * Where tinymm differs from v6.10: no dma_map_ops (every device maps directly), no
 * scatterlists yet, debugging is always on.
 * Locking: none here; debug.c has its own spinlock.  Nothing sleeps but dma_alloc_coherent().
 */
#include <asm/dma-mapping.h>
#include "tinymm/bug.h"
#include "tinymm/dma-map-ops.h"
#include "tinymm/fdt.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/vmalloc.h"

bool of_dma_is_coherent(const struct dt *dt, int node)
{
	for (int n = node; dt && n >= 0; n = dt_parent(dt, n)) {
		if (dt_getprop(dt, n, "dma-coherent", NULL))
			return true;
		if (dt_getprop(dt, n, "dma-noncoherent", NULL))
			return false;
	}
	return ARCH_DMA_DEFAULT_COHERENT;
}

void dma_dev_init(struct device *dev, const char *name, const struct dt *dt, int node)
{
	dev->init_name = name;
	dev->of_node = node;
	dev->dma_coherent = of_dma_is_coherent(dt, node);
	dev->dma_mask = DMA_BIT_MASK(32);
	dev->coherent_dma_mask = DMA_BIT_MASK(32);
	if (!dev->dma_coherent && !arch_dma_noncoherent_supported())
		pr_warn("%s: device non-coherent but no non-coherent operations supported: its streaming DMA is refused\n",
			name);
}

int dma_set_mask(struct device *dev, uint64_t mask)
{
	if (!dma_direct_supported(dev, mask))
		return -EIO;
	dev->dma_mask = mask;
	return 0;
}

int dma_set_coherent_mask(struct device *dev, uint64_t mask)
{
	if (!dma_direct_supported(dev, mask))
		return -EIO;
	dev->coherent_dma_mask = mask;
	return 0;
}

int dma_set_mask_and_coherent(struct device *dev, uint64_t mask)
{
	int ret = dma_set_mask(dev, mask);

	return ret ? ret : dma_set_coherent_mask(dev, mask);
}

dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset, size_t size,
			enum dma_data_direction dir)
{
	dma_addr_t addr;

	if (WARN_ON(dir == DMA_NONE || dir > DMA_NONE))
		return DMA_MAPPING_ERROR;
	addr = dma_direct_map_phys(dev, PFN_PHYS(page_to_pfn(page)) + offset, size, dir);
	if (addr != DMA_MAPPING_ERROR)
		debug_dma_map(dev, addr, size, dir);
	return addr;
}

/* The linear map only: a vmalloc buffer is not physically contiguous (v6.10 refuses it too). */
dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir)
{
	if (WARN(is_vmalloc_addr(ptr), "%s: rejecting DMA map of vmalloc memory", dev_name(dev)))
		return DMA_MAPPING_ERROR;
	return dma_map_page(dev, virt_to_page(ptr), (unsigned long)ptr & ~PAGE_MASK, size, dir);
}

void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	if (debug_dma_unmap(dev, addr, &size, &dir))
		dma_direct_sync_for_cpu(dev, addr, size, dir);
}

void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	dma_unmap_page(dev, addr, size, dir);
}

void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	if (debug_dma_sync(dev, addr, &size, &dir, false))
		dma_direct_sync_for_cpu(dev, addr, size, dir);
}

void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir)
{
	if (debug_dma_sync(dev, addr, &size, &dir, true))
		dma_direct_sync_for_device(dev, addr, size, dir);
}

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp)
{
	return dma_direct_alloc(dev, size, dma_handle, gfp);
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr, dma_addr_t dma_handle)
{
	dma_direct_free(dev, size, cpu_addr, dma_handle);
}
