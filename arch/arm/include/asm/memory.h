/*
 * asm/memory.h - ARM's kernel address space constants (docs/mmu.md, "The kernel address space").
 * A 2G/2G split: RAM is mapped from PAGE_OFFSET 0x80000000 up to LOWMEM_END, where vmalloc's
 * 8 MiB gap starts.  PHYS_OFFSET is the board's first RAM bank (Linux computes it at boot and
 * patches the code; tinymm builds one image per board, so it is a constant).
 */
#ifndef ASM_ARM_MEMORY_H
#define ASM_ARM_MEMORY_H
#include "tinymm/board_config.h"

#define PAGE_OFFSET	BOARD_PAGE_OFFSET
#define PHYS_OFFSET	BOARD_PHYS_OFFSET
#define LOWMEM_END	0xf0000000UL	/* RAM mapped above this would meet vmalloc: left unused */
#endif
