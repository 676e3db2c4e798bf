/*
 * asm/memory.h - RISC-V's kernel address space constants (docs/mmu.md, "The kernel address
 * space").  PHYS_OFFSET is the board's RAM base.  RV32 uses a 2G/2G split whose PAGE_OFFSET,
 * 0x80000000, is also QEMU virt's RAM base; the direct map ends at LOWMEM_END where vmalloc's
 * 8 MiB gap starts.
 */
#ifndef ASM_RISCV_MEMORY_H
#define ASM_RISCV_MEMORY_H
#include "tinymm/board_config.h"

#define PAGE_OFFSET	BOARD_PAGE_OFFSET
#define PHYS_OFFSET	BOARD_PHYS_OFFSET
#if __riscv_xlen == 32
#define LOWMEM_END	0xf0000000UL
#else
#define LOWMEM_END	(PAGE_OFFSET + (128UL << 30))
#endif
#endif
