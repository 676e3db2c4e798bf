/*
 * cache.h - placement of small hot data, one interface over each architecture's <asm/cache.h>.
 *   __small_data   a small table a fast path indexes: on RISC-V in .sdata, which the linker
 *                  addresses relative to gp; elsewhere an ordinary variable.
 */
#ifndef TINYMM_CACHE_H
#define TINYMM_CACHE_H

#include <asm/cache.h>

#endif
