/*
 * cacheflush.h - cache maintenance the portable kernel needs, one interface over each
 * architecture's <asm/cacheflush.h> (Linux's names).
 *   flush_icache_range(start, end)  instructions written to [start, end) through the data side
 *                                   become what instruction fetch sees (ARM: clean D to PoU,
 *                                   invalidate I and the branch predictor; RISC-V: FENCE.I)
 *   arch_dma_prep_coherent(page, size) (below)
 */
#ifndef TINYMM_CACHEFLUSH_H
#define TINYMM_CACHEFLUSH_H

#include <stddef.h>
#include <asm/cacheflush.h>

struct page;
/*
 * arch_dma_prep_coherent(page, size): before RAM is mapped non-cacheable (a write-combining
 * vmap(), a coherent DMA buffer), clean and invalidate its lines through the cacheable direct
 * map, so no dirty line is written back over what the uncached mapping writes and no stale one
 * is read (v6.10's name, kernel/dma/direct.c's caller).  arch/<arch>/ implements it.
 */
void arch_dma_prep_coherent(struct page *page, size_t size);

#endif
