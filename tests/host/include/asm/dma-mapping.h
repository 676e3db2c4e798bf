/*
 * asm/dma-mapping.h - the host's: the default coherency is the test's choice (ARM's false,
 * RISC-V's true), so kernel/dma/ runs as either architecture's.
 */
#ifndef ASM_HOST_DMA_MAPPING_H
#define ASM_HOST_DMA_MAPPING_H

#include <stdbool.h>

extern bool fake_dma_default_coherent;
#define ARCH_DMA_DEFAULT_COHERENT	fake_dma_default_coherent
extern bool fake_dma_noncoherent_ok;
#define arch_dma_noncoherent_supported()	fake_dma_noncoherent_ok

#endif
