/*
 * direct.c - the direct mapping (include/tinymm/dma-mapping.h, docs/dma.md): a device's bus
 * address is the buffer's physical address, as v6.10's kernel/dma/direct.c without an offset
 * (no board tinymm runs on has a dma-ranges translation; boot/dt_memory.c only limits ZONE_DMA
 * by it).
 *
 * Streaming: a buffer any of whose bytes lies beyond the device's mask is DMA_MAPPING_ERROR with
 * one line (v6.10 would bounce it through swiotlb, which tinymm has not); a non-coherent device
 * gets the architecture's maintenance (arch_sync_dma_for_device / _for_cpu), a coherent one none;
 * a non-coherent device on a CPU that cannot maintain its caches (RISC-V without Zicbom or
 * XTheadCmo: asm/dma-mapping.h) is refused, where v6.10 carries on silently wrong.
 * Coherent allocations: alloc_pages() of the order that holds @size, zeroed, below the coherent
 * mask (ZONE_DMA when the mask does not reach the end of memory: v6.10's
 * dma_direct_optimal_gfp_mask; a block beyond the mask anyway is freed and ZONE_DMA tried, as
 * v6.10's retry).  A coherent device uses the linear map; a non-coherent one a vmap() of the
 * pages with pgprot_dmacoherent, which mm/vmalloc.c prepares (arch_dma_prep_coherent: the lines
 * cleaned and invalidated first, so no dirty line is written back over the device's data
 * later) and marks PG_uncached while mapped, or refuses where the CPU has no non-cacheable
 * type: then NULL with one line, never a cacheable mapping that would look right and be wrong
 * (v6.10's dma_direct_alloc with CONFIG_DMA_DIRECT_REMAP).  The zeroing happens through the
 * final mapping, so no zero lingers dirty in the cache above memory.
 * Locking: none of its own; alloc_pages() and vmap() lock what they touch.  The streaming
 * calls never sleep; dma_direct_alloc() may (GFP_KERNEL).
 */
#include <asm/dma-mapping.h>
#include <string.h>
#include "tinymm/dma-map-ops.h"
#include "tinymm/cacheflush.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/vmalloc.h"

/* The end of RAM, exclusive. */
static phys_addr_t dma_ram_end(void)
{
	unsigned long last = 0;

	for (int b = 0; b < memmap_nr_banks(); b++)
		if (memmap_bank(b)->end_pfn > last)
			last = memmap_bank(b)->end_pfn;
	return PFN_PHYS(last);
}

/*
 * v6.10's rule: a mask of 32 bits or more always works (every platform must serve those); a
 * smaller one must reach the top of the lowest zone (ZONE_DMA's, else all of RAM).
 */
bool dma_direct_supported(struct device *dev, uint64_t mask)
{
	phys_addr_t top = dma_ram_end();

	(void)dev;
	if (mask >= DMA_BIT_MASK(32))
		return true;
	if (zone_dma_limit && zone_dma_limit < top)
		top = zone_dma_limit;
	return top && mask >= top - 1;
}

static bool dma_capable(uint64_t mask, phys_addr_t phys, size_t size)
{
	return size && phys + size - 1 >= phys && phys + size - 1 <= mask;
}

dma_addr_t dma_direct_map_phys(struct device *dev, phys_addr_t phys, size_t size,
			       enum dma_data_direction dir)
{
	if (!size) {
		pr_err("%s: DMA map of 0 bytes at %#llx refused\n", dev_name(dev),
		       (unsigned long long)phys);
		return DMA_MAPPING_ERROR;
	}
	if (!dma_capable(dev->dma_mask, phys, size)) {
		pr_err("%s: DMA addr %#llx+%zu overflow (mask %llx): refused (no swiotlb)\n",
		       dev_name(dev), (unsigned long long)phys, size, (unsigned long long)dev->dma_mask);
		return DMA_MAPPING_ERROR;
	}
	if (!dev->dma_coherent) {
		if (!arch_dma_noncoherent_supported()) {
			pr_err("%s: non-coherent device and no cache operations: DMA refused\n",
			       dev_name(dev));
			return DMA_MAPPING_ERROR;
		}
		arch_sync_dma_for_device(phys, size, dir);
	}
	return (dma_addr_t)phys;
}

void dma_direct_sync_for_device(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir)
{
	if (!dev->dma_coherent && arch_dma_noncoherent_supported())
		arch_sync_dma_for_device((phys_addr_t)addr, size, dir);
}

void dma_direct_sync_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	if (!dev->dma_coherent && arch_dma_noncoherent_supported())
		arch_sync_dma_for_cpu((phys_addr_t)addr, size, dir);
}

static unsigned int size_order(size_t size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

static struct page *dma_direct_alloc_pages(struct device *dev, size_t size, gfp_t gfp)
{
	uint64_t mask = dev->coherent_dma_mask;
	unsigned int order = size_order(size);
	struct page *page;

	if (order > MAX_PAGE_ORDER)
		return NULL;
	if (dma_ram_end() && mask < dma_ram_end() - 1)
		gfp |= __GFP_DMA;	/* the mask does not reach the end of RAM */
	for (;;) {
		page = alloc_pages(gfp, order);
		if (!page || dma_capable(mask, PFN_PHYS(page_to_pfn(page)), size))
			return page;
		__free_pages(page, order);
		if (gfp & __GFP_DMA)
			return NULL;
		gfp |= __GFP_DMA;
	}
}

void *dma_direct_alloc(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp)
{
	unsigned int order = size_order(size);
	unsigned int nr = 1U << order;
	struct page *page, **pages;
	void *cpu;

	*dma_handle = DMA_MAPPING_ERROR;
	if (!size)
		return NULL;
	if (!dev->dma_coherent && !arch_noncached_supported()) {
		pr_err("%s: dma_alloc_coherent: this CPU has no non-cacheable memory type: refused\n",
		       dev_name(dev));
		return NULL;
	}
	gfp &= ~(gfp_t)(__GFP_DMA | __GFP_ZERO);
	page = dma_direct_alloc_pages(dev, size, gfp);
	if (!page) {
		pr_err("%s: dma_alloc_coherent: no %zu bytes below mask %llx\n", dev_name(dev), size,
		       (unsigned long long)dev->coherent_dma_mask);
		return NULL;
	}
	if (dev->dma_coherent) {
		cpu = page_address(page);
	} else {
		pages = kcalloc(nr, sizeof(*pages), gfp);
		cpu = NULL;
		if (pages) {
			for (unsigned int i = 0; i < nr; i++)
				pages[i] = page + i;
			cpu = vmap(pages, nr, VM_DMA_COHERENT, pgprot_dmacoherent(PAGE_KERNEL));
			kfree(pages);
		}
		if (!cpu) {	/* no memory or no vmalloc space */
			pr_err("%s: dma_alloc_coherent: no non-cacheable mapping for %zu bytes\n",
			       dev_name(dev), size);
			__free_pages(page, order);
			return NULL;
		}
	}
	*dma_handle = (dma_addr_t)PFN_PHYS(page_to_pfn(page));
	if (!dev->dma_coherent)		/* for vmallocinfo and the page-table checks */
		find_vm_area(cpu)->phys_addr = (phys_addr_t)*dma_handle;
	memset(cpu, 0, PAGE_SIZE << order);
	return cpu;
}

void dma_direct_free(struct device *dev, size_t size, void *cpu_addr, dma_addr_t dma_handle)
{
	unsigned int order = size_order(size);
	struct page *page;

	if (!cpu_addr)
		return;
	if (!size || dma_handle == DMA_MAPPING_ERROR || !pfn_valid(PHYS_PFN(dma_handle))) {
		pr_err("%s: dma_free_coherent: bad handle %#llx or size %zu: nothing freed\n",
		       dev_name(dev), (unsigned long long)dma_handle, size);
		return;
	}
	page = pfn_to_page(PHYS_PFN(dma_handle));
	if (dev->dma_coherent) {
		if (cpu_addr != page_address(page)) {
			pr_err("%s: dma_free_coherent: %p is not the handle's memory: nothing freed\n",
			       dev_name(dev), cpu_addr);
			return;
		}
	} else {
		struct vm_struct *vm = find_vm_area(cpu_addr);

		if (!vm || vm->addr != cpu_addr || !(vm->flags & VM_DMA_COHERENT) ||
		    vmalloc_to_page(cpu_addr) != page || vm->nr_pages != 1U << order) {
			pr_err("%s: dma_free_coherent: %p, %zu bytes is not the handle's allocation: nothing freed\n",
			       dev_name(dev), cpu_addr, size);
			return;
		}
		vunmap(cpu_addr);	/* PG_uncached cleared with the ptes */
	}
	__free_pages(page, order);
}
