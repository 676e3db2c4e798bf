/*
 * dma-map-ops.h - what kernel/dma/ asks of the architecture, and the pieces of kernel/dma/
 * that talk to each other (v6.10's include/linux/dma-map-ops.h and dma-direct.h, only what
 * tinymm has).  A driver includes <tinymm/dma-mapping.h> only.
 *
 * arch_sync_dma_for_device(paddr, size, dir)  the CPU hands [paddr, paddr + size) to a
 *     non-coherent device: write back (TO_DEVICE, BIDIRECTIONAL) or discard (FROM_DEVICE;
 *     RISC-V cleans instead, as v6.10) the buffer's lines;
 * arch_sync_dma_for_cpu(paddr, size, dir)  it comes back: discard the lines speculative
 *     fills may have brought in (FROM_DEVICE, BIDIRECTIONAL); nothing for TO_DEVICE.
 * A line only partly inside the buffer is cleaned and invalidated, never only invalidated
 * (arch/<arch>/dma-noncoherent.c; docs/dma.md has the table).  Both run with irqs masked or
 * not, take no lock and never sleep.
 */
#ifndef TINYMM_DMA_MAP_OPS_H
#define TINYMM_DMA_MAP_OPS_H

#include "dma-mapping.h"

void arch_sync_dma_for_device(phys_addr_t paddr, size_t size, enum dma_data_direction dir);
void arch_sync_dma_for_cpu(phys_addr_t paddr, size_t size, enum dma_data_direction dir);

/* kernel/dma/direct.c: bus address == physical address. */
dma_addr_t dma_direct_map_phys(struct device *dev, phys_addr_t phys, size_t size,
			       enum dma_data_direction dir);
void dma_direct_sync_for_device(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir);
void dma_direct_sync_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir);
void *dma_direct_alloc(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp);
void dma_direct_free(struct device *dev, size_t size, void *cpu_addr, dma_addr_t dma_handle);
/* Can the platform give @dev memory below @mask? (v6.10's dma_direct_supported) */
bool dma_direct_supported(struct device *dev, uint64_t mask);

/* kernel/dma/debug.c: the table of live streaming mappings (always on). */
void debug_dma_map(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
/*
 * Check an unmap or a sync against the table; each misuse is one WARNING.  false: the address
 * is no live mapping (never mapped, unmapped already), so the caller does no maintenance;
 * true: go on with *size and *dir, which a wrong size or direction has been corrected to the
 * mapping's own (clamped to it, for a sync), so the maintenance matches what was mapped.
 */
bool debug_dma_unmap(struct device *dev, dma_addr_t addr, size_t *size,
		     enum dma_data_direction *dir);
bool debug_dma_sync(struct device *dev, dma_addr_t addr, size_t *size,
		    enum dma_data_direction *dir, bool to_device);
/* Live entries, and the number of tracked mappings the table had no room for (tests). */
unsigned int dma_debug_entries(void);
unsigned long dma_debug_overflows(void);

#endif
