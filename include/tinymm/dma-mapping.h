/*
 * dma-mapping.h - the DMA API (kernel/dma/, docs/dma.md): how a driver hands memory to a device
 * and takes it back, with exactly the cache maintenance a non-coherent device needs.  Linux
 * v6.10's names and rules (include/linux/dma-mapping.h, kernel/dma/direct.c).
 *
 * A device is a struct device: a name for messages, its device-tree node, whether it is
 * coherent with the CPU's caches, and the masks of the addresses it can drive.
 * dma_dev_init() fills one from the device tree as v6.10's of_dma_configure() does:
 *   coherent = of_dma_is_coherent(): the node or an ancestor says "dma-coherent" (true) or
 *   "dma-noncoherent" (false), nearest first; with neither, the architecture's default
 *   (ARCH_DMA_DEFAULT_COHERENT: ARM false, RISC-V true, as v6.10's dma_default_coherent);
 *   masks 32 bits (v6.10's default), then the driver's dma_set_mask*().
 *
 * Streaming mappings (the buffer stays where it is; ownership moves):
 *   dma_map_single(dev, ptr, size, dir) / dma_map_page(dev, page, offset, size, dir)
 *       the device owns [ptr, ptr + size) from now; returns the bus address, or
 *       DMA_MAPPING_ERROR (check with dma_mapping_error()) when the buffer lies beyond the
 *       device's mask (tinymm has no swiotlb bounce buffers: v6.10 would bounce).
 *   dma_unmap_single / dma_unmap_page(dev, addr, size, dir)   the CPU owns it again
 *   dma_sync_single_for_cpu / _for_device(dev, addr, size, dir)   ownership moves while mapped
 * For a non-coherent device: to the device, dirty lines are written back (TO_DEVICE,
 * BIDIRECTIONAL) or the buffer's lines discarded (FROM_DEVICE); back to the CPU, the lines are
 * discarded again (FROM_DEVICE, BIDIRECTIONAL: speculative fills during the transfer).  A cache
 * line only partly inside the buffer is cleaned and invalidated, never only invalidated, so a
 * neighbour's bytes written before the mapping survive (v6.10 ARM's v7_dma_inv_range).  The
 * CPU must not touch the buffer, or the rest of its edge lines, while the device owns it.
 * A coherent device needs no maintenance: these only translate addresses.
 *
 * Coherent allocations (both sides see every access at once):
 *   dma_alloc_coherent(dev, size, &dma_handle, gfp) / dma_free_coherent(dev, size, cpu, handle)
 *       whole pages, physically contiguous, zeroed; for a non-coherent device mapped
 *       pgprot_dmacoherent (non-cacheable) in vmalloc space, the frames PG_uncached while
 *       mapped, after arch_dma_prep_coherent() cleaned them out of the cache.  NULL when it
 *       cannot be had (no memory, beyond the coherent mask, no uncached memory type on this CPU).
 *
 * DMA-API debugging (v6.10's CONFIG_DMA_API_DEBUG idea, kernel/dma/debug.c, always on): every
 * streaming mapping is recorded; unmapping or syncing what was never mapped, with another size
 * or direction, unmapping twice, and a CPU access (dma_debug_cpu_access()) to a buffer the
 * device owns each print one "WARNING: ... DMA-API: <device>: ..." line.
 *
 * Where tinymm differs from v6.10: no IOMMU, no swiotlb, no per-bus dma_range_map (bus address
 * == physical address: true of every board tinymm runs on), no dma_ops; debugging is always on.
 * Locking: the API takes no lock a driver holds; it may be called with irqs masked and in
 * interrupt context (map/unmap/sync; not dma_alloc_coherent, which may sleep for GFP_KERNEL).
 */
#ifndef TINYMM_DMA_MAPPING_H
#define TINYMM_DMA_MAPPING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "errno.h"
#include "gfp.h"
#include "kernel.h"

struct dt;
struct page;

typedef uint64_t dma_addr_t;

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

#define DMA_MAPPING_ERROR	(~(dma_addr_t)0)
#define DMA_BIT_MASK(n)		(((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))

/* A device that does DMA (v6.10's struct device, only the DMA half). */
struct device {
	const char *init_name;		/* "mmc0", "virtio-blk": for messages */
	int of_node;			/* its device-tree node, -1 if none */
	bool dma_coherent;		/* snoops the CPU's caches: no maintenance */
	uint64_t dma_mask;		/* streaming mappings */
	uint64_t coherent_dma_mask;	/* dma_alloc_coherent() */
};

static inline const char *dev_name(const struct device *dev)
{
	return dev->init_name;
}

/* of_dma_is_coherent() for @node of @dt (nearest "dma-coherent" / "dma-noncoherent"). */
bool of_dma_is_coherent(const struct dt *dt, int node);
/* Fill @dev for @node (-1: no node, the architecture's default coherency); masks 32 bits. */
void dma_dev_init(struct device *dev, const char *name, const struct dt *dt, int node);

/* 0, or -EIO when the platform cannot give the device memory below @mask (v6.10). */
int dma_set_mask(struct device *dev, uint64_t mask);
int dma_set_coherent_mask(struct device *dev, uint64_t mask);
int dma_set_mask_and_coherent(struct device *dev, uint64_t mask);

dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset, size_t size,
			enum dma_data_direction dir);
void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir);
void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir);
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir);

static inline int dma_mapping_error(struct device *dev, dma_addr_t addr)
{
	(void)dev;
	return addr == DMA_MAPPING_ERROR ? -ENOMEM : 0;
}

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp);
void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr, dma_addr_t dma_handle);

/* DMA-API debugging: the CPU is about to read or write [ptr, ptr + size): a WARNING if a
 * streaming mapping the device owns overlaps it (a driver's own check before touching a buffer). */
void dma_debug_cpu_access(const void *ptr, size_t size);

#endif
