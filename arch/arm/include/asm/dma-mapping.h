/*
 * asm/dma-mapping.h - ARM's half of the DMA API (include/tinymm/dma-mapping.h, docs/dma.md).
 * ARCH_DMA_DEFAULT_COHERENT: a device whose device-tree node (and ancestors) say neither
 * "dma-coherent" nor "dma-noncoherent" is not coherent, as v6.10's dma_default_coherent is
 * false on ARM: most ARMv7 SoCs' masters do not snoop the CPU's caches.
 */
#ifndef ASM_ARM_DMA_MAPPING_H
#define ASM_ARM_DMA_MAPPING_H

#define ARCH_DMA_DEFAULT_COHERENT	false
/* Every ARMv7 core maintains its caches by address: non-coherent devices are always served. */
#define arch_dma_noncoherent_supported()	true

#endif
