/*
 * asm/cache.h - where small hot data lives (RISC-V).
 *   __small_data   put a small table the fast paths index (a few pointers) in .sdata: the
 *                  linker then addresses it relative to gp, without building its address
 *                  first (auipc/addi; docs/page_alloc.md, "Small data").  Scalars up to 8
 *                  bytes go there already (GCC's -msmall-data-limit); the whole of
 *                  .sdata/.sbss must stay within gp's 4 KiB.
 */
#ifndef ASM_RISCV_CACHE_H
#define ASM_RISCV_CACHE_H

#define __small_data	__attribute__((section(".sdata")))

#endif
