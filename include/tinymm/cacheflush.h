/*
 * cacheflush.h - CPU cache maintenance as mm/, fs/ and drivers see it (docs/cacheflush.md);
 * Linux's include/linux/cacheflush.h and each architecture's asm/cacheflush.h.
 *
 * The primitives, one set per architecture (asm/cacheflush.h), each on [start, end) of kernel
 * virtual addresses, rounded out to whole cache lines (an empty range does nothing):
 *   dcache_clean_poc / dcache_clean_pou    write dirty lines back to the point of coherency
 *                                          (what a device sees) / of unification (what the
 *                                          instruction side fetches)
 *   dcache_inval_poc                       discard the lines (a device wrote memory behind them)
 *   dcache_clean_inval_poc                 both
 *   icache_inval_all                       the whole I-cache (and branch predictor) of this CPU
 *   flush_icache_range(start, end)         v6.10's: code the kernel wrote is fetchable
 *   arch_dma_prep_coherent(page, size)     (below; arch/<arch>/ implements it)
 * (RISC-V without Zicbom or XTheadCmo has no D-cache operations: its caches are coherent with
 * DMA, and FENCE.I alone orders stores before fetches; there the D-cache ones do nothing.)
 *
 * PG_dcache_clean (PG_arch_1), exactly as v6.10 keeps it on ARM and RISC-V:
 *   flush_dcache_folio(folio)   the kernel wrote into @folio (a page-cache write, a RAM disk's
 *                               copy, ext2's metadata): the flag cleared, no maintenance now
 *   flush_dcache_page(page)     the same for the page's folio
 *   set_pte_at() of a present user pte calls the architecture's hook (asm/pgtable.h:
 *   arch_sync_icache_dcache): ARM's __sync_icache_dcache() for an executable pte (clean the
 *   folio's D-cache once, test_and_set_bit; invalidate the I-cache every time), RISC-V's
 *   flush_icache_pte() (FENCE.I while the flag is clear, then set).
 * Frames come from the allocator with the flag clear (it is in the flags checked at prep).
 */
#ifndef TINYMM_CACHEFLUSH_H
#define TINYMM_CACHEFLUSH_H

#include <stddef.h>
#include "cacheops.h"
#include "bitops.h"
#include "page-flags.h"
#include <asm/cacheflush.h>

/* v6.10's flush_dcache_folio() on ARMv7 (non-aliasing VIPT D-cache, no broadcast needed: the
 * first branch of arch/arm/mm/flush.c's) and on RISC-V: the same on both, so written once. */
static inline void flush_dcache_folio(struct folio *folio)
{
	if (test_bit(PG_dcache_clean, &folio->flags))
		clear_bit(PG_dcache_clean, &folio->flags);
}

static inline void flush_dcache_page(struct page *page)
{
	flush_dcache_folio(page_folio(page));
}

/*
 * arch_dma_prep_coherent(page, size): before RAM is mapped non-cacheable (a write-combining
 * vmap(), a coherent DMA buffer), clean and invalidate its lines through the cacheable direct
 * map, so no dirty line is written back over what the uncached mapping writes and no stale one
 * is read (v6.10's name, kernel/dma/direct.c's caller).
 */
void arch_dma_prep_coherent(struct page *page, size_t size);

#endif
