/*
 * memory.h - the kernel's view of physical memory: the one place that turns a physical address
 * into a pointer and back.  Today the kernel runs identity-mapped (ARM: 1 MiB sections, VA == PA;
 * RISC-V: no paging), so both directions are the identity.  A later high kernel mapping changes
 * only this file: every other file converts through these.
 */
#ifndef TINYMM_MEMORY_H
#define TINYMM_MEMORY_H
#include "kernel.h"

#define PAGE_OFFSET	0UL	/* virtual address of physical address PHYS_OFFSET */
#define PHYS_OFFSET	0UL

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
