/*
 * asm/dma-mapping.h - RISC-V's half of the DMA API (include/tinymm/dma-mapping.h,
 * docs/dma.md).  ARCH_DMA_DEFAULT_COHERENT: RISC-V platforms are coherent unless a node says
 * "dma-noncoherent" (v6.10: dma_default_coherent = true in arch/riscv/mm/dma-noncoherent.c).
 */
#ifndef ASM_RISCV_DMA_MAPPING_H
#define ASM_RISCV_DMA_MAPPING_H

#define ARCH_DMA_DEFAULT_COHERENT	true

#include <stdbool.h>
#include "asm/cmo.h"

/* Can a non-coherent device's buffers be maintained?  Only with Zicbom or XTheadCmo. */
static inline bool arch_dma_noncoherent_supported(void)
{
	return riscv_cmo != RISCV_CMO_NONE;
}

#endif
