/*
 * memory.h - the kernel's view of physical memory: the one place that turns a physical address
 * of RAM into a pointer and back.  RAM is mapped once, linearly: physical PHYS_OFFSET is virtual
 * PAGE_OFFSET (<asm/memory.h> says where, docs/mmu.md why), and the kernel image lies inside
 * that direct map, so __pa() also works on the image's own symbols.  Every other file converts
 * through these.  Device registers are not RAM: they are reached through ioremap().
 */
#ifndef TINYMM_MEMORY_H
#define TINYMM_MEMORY_H
#include "kernel.h"
#include <asm/memory.h>

static inline void *__va(phys_addr_t pa)
{
	return (void *)(uintptr_t)(pa - PHYS_OFFSET + PAGE_OFFSET);
}

static inline phys_addr_t __pa(const void *va)
{
	return (phys_addr_t)((uintptr_t)va - PAGE_OFFSET + PHYS_OFFSET);
}

#define phys_to_virt(pa)	__va(pa)
#define virt_to_phys(va)	__pa(va)
#endif
