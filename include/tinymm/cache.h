/*
 * cache.h - placement of data, one interface over each architecture's <asm/cache.h>.
 *   __small_data     a small table a fast path indexes: on RISC-V in .sdata, which the linker
 *                    addresses relative to gp; elsewhere an ordinary variable.
 *   __ro_after_init  written only while booting, read-only after (v6.10's include/linux/
 *                    cache.h): section .data..ro_after_init, which linker/kernel.ld.in keeps in
 *                    its own pages at the start of the data region, between
 *                    __start_ro_after_init and __end_ro_after_init.  Writable until
 *                    mark_rodata_ro() (mm/set_memory.c) runs at the start of the first thread;
 *                    a write after that is a permission fault (where the MMU is live).  Give it
 *                    only to variables nothing writes once the first thread runs, tests included.
 */
#ifndef TINYMM_CACHE_H
#define TINYMM_CACHE_H

#include <asm/cache.h>

#define __ro_after_init	__attribute__((__section__(".data..ro_after_init")))

#endif
