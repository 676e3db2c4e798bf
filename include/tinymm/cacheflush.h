/*
 * cacheflush.h - cache maintenance the portable kernel needs, one interface over each
 * architecture's <asm/cacheflush.h> (Linux's names).
 *   flush_icache_range(start, end)  instructions written to [start, end) through the data side
 *                                   become what instruction fetch sees (ARM: clean D to PoU,
 *                                   invalidate I and the branch predictor; RISC-V: FENCE.I)
 */
#ifndef TINYMM_CACHEFLUSH_H
#define TINYMM_CACHEFLUSH_H

#include <asm/cacheflush.h>

#endif
