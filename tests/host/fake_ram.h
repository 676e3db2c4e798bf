/*
 * fake_ram.h - the fake RAM that host tests (tests/host/<what>_test.c) and the memory-manager
 * fuzzers (tests/fuzz/<what>_fuzz.c) boot the allocators over: host memory, since tinymm's __va
 * is the identity on the host, 4 MiB-aligned so max-order blocks exist, handed to memblock
 * afresh as one bank or as the two-bank layout with a hole, and a 64 KiB "kernel" reserved at
 * its start when the caller wants one.  What comes after memblock (zone limits, options,
 * memmap_init, page_alloc_init, kmem_cache_init) and how a failure is reported (cmocka's
 * asserts or the fuzzer's abort) stay the caller's.
 *
 * Static inline, not a .c of its own: each host test and each fuzzer is built from one main
 * file (tests/host/tests.cmake, tests/fuzz/tests.cmake's add_mm_fuzzer).
 */
#ifndef TINYMM_TESTS_FAKE_RAM_H
#define TINYMM_TESTS_FAKE_RAM_H
#include <stdlib.h>
#include "tinymm/kernel.h"
#include "tinymm/memblock.h"

#define FAKE_RAM_ALIGN		(4 * SZ_1M)
#define FAKE_RAM_KERNEL		0x10000		/* the "kernel" at the start of the RAM */
#define FAKE_RAM_TWO_BANKS	(16 * SZ_1M)	/* bank 0 [0, 6M), hole [6M, 8M), bank 1 [8M, 16M) */

/* @size bytes of host memory, FAKE_RAM_ALIGN-aligned; NULL when there is none. */
static inline char *fake_ram_alloc(size_t size)
{
	return aligned_alloc(FAKE_RAM_ALIGN, size);
}

/* memblock afresh with one bank, [@pa, @pa + @size).  0 or memblock_add's error. */
static inline int fake_ram_one_bank(phys_addr_t pa, phys_addr_t size)
{
	memblock_reset();
	return memblock_add(pa, size, NULL);
}

/*
 * memblock afresh with the FAKE_RAM_TWO_BANKS layout from @pa: bank 0 [0, 6M), a 2 MiB hole,
 * bank 1 [8M, 16M).  0 or memblock_add's error.
 */
static inline int fake_ram_two_banks(phys_addr_t pa)
{
	int err;

	memblock_reset();
	err = memblock_add(pa, 6 * SZ_1M, NULL);
	return err ? err : memblock_add(pa + 8 * SZ_1M, 8 * SZ_1M, NULL);
}

/* The 64 KiB "kernel" at @pa, the start of the fake RAM, reserved as MEMBLOCK_KERNEL. */
static inline void fake_ram_reserve_kernel(phys_addr_t pa)
{
	memblock_reserve(pa, FAKE_RAM_KERNEL, MEMBLOCK_KERNEL);
}
#endif
