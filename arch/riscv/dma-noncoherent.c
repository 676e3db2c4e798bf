/*
 * dma-noncoherent.c - RISC-V's cache maintenance for streaming DMA (include/tinymm/
 * dma-map-ops.h, docs/dma.md): v6.10's arch/riscv/mm/dma-noncoherent.c, for a device whose
 * node says "dma-noncoherent", with the hart's Zicbom or XTheadCmo operations
 * (arch/riscv/cmo.c's riscv_dcache_op(), which asm/cacheflush.h's dcache_*_poc() are):
 *
 *   to the device   TO_DEVICE, FROM_DEVICE, BIDIRECTIONAL: clean (v6.10 cleans before a
 *                   FROM_DEVICE transfer too: arch_sync_dma_clean_before_fetch() is true, and
 *                   BIDIRECTIONAL only cleans because the invalidate comes afterwards);
 *   to the CPU      FROM_DEVICE, BIDIRECTIONAL: invalidate (speculative fills during the
 *                   transfer); TO_DEVICE: nothing.
 * Where tinymm differs from v6.10: v6.10's invalidate is a plain cbo.inval over the range
 * rounded out to blocks; here a block only partly inside the buffer is flushed (clean +
 * invalidate) and only the whole blocks between are invalidated, the rule ARM's
 * v7_dma_inv_range has, so a neighbour's bytes in an edge block are never thrown away even if
 * the CPU wrote them after the map-time clean.  (After that clean v6.10's plain invalidate
 * loses nothing the CPU wrote before the mapping; tinymm keeps one rule for both arches.)
 * A hart with neither Zicbom nor XTheadCmo has no way to do this: v6.10 warns at device setup
 * ("device non-coherent but no non-coherent operations supported") and carries on with
 * operations that do nothing; tinymm prints that line once per device (kernel/dma/mapping.c)
 * and refuses the device's streaming mappings (DMA_MAPPING_ERROR, kernel/dma/direct.c):
 * a transfer whose data the caches silently corrupt is worse than one that fails.
 * Locking: none; runs with irqs masked or not.
 */
#include "tinymm/dma-map-ops.h"
#include "tinymm/memory.h"
#include "asm/cmo.h"

void arch_sync_dma_for_device(phys_addr_t paddr, size_t size, enum dma_data_direction dir)
{
	unsigned long start = (unsigned long)__va(paddr);

	(void)dir;
	riscv_dcache_op(CMO_CLEAN, start, start + size);
}

void arch_sync_dma_for_cpu(phys_addr_t paddr, size_t size, enum dma_data_direction dir)
{
	unsigned long start = (unsigned long)__va(paddr), end = start + size;
	unsigned long bs = riscv_cbom_block_size;

	if (dir == DMA_TO_DEVICE || !size || riscv_cmo == RISCV_CMO_NONE)
		return;
	if (start & (bs - 1)) {			/* a partial first block: flushed */
		unsigned long b = start & ~(bs - 1);

		riscv_dcache_op(CMO_FLUSH, b, b + bs);
		start = b + bs;
	}
	if ((end & (bs - 1)) && end > start) {	/* a partial last block */
		unsigned long b = end & ~(bs - 1);

		riscv_dcache_op(CMO_FLUSH, b, b + bs);
		end = b;
	}
	riscv_dcache_op(CMO_INVAL, start, end);
}
