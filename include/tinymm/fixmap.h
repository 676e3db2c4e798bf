/*
 * fixmap.h - compile-time virtual addresses for the few devices the kernel needs before
 * ioremap() exists: the early console and the power-off register (Linux's fixmap, and its
 * FIX_EARLYCON_MEM_BASE).  Each slot is one page at FIXADDR_TOP - idx * PAGE_SIZE, in a pte table
 * the boot page tables and the final ones share, so a slot set at boot stays valid across the
 * switch.  <asm/pgtable.h> gives FIXADDR_START/FIXADDR_TOP; the architecture implements
 * __set_fixmap() (a Device / I/O mapping, never executable).
 */
#ifndef TINYMM_FIXMAP_H
#define TINYMM_FIXMAP_H
#include "kernel.h"
#include "pgtable.h"

enum fixed_addresses {
	FIX_EARLYCON_MEM_BASE,	/* the console UART */
	FIX_POWEROFF,		/* the board's power-off register (sifive,test0) */
	__end_of_fixed_addresses
};

#define __fix_to_virt(idx)	(FIXADDR_TOP - ((unsigned long)(idx) << PAGE_SHIFT))

/* Map the page holding @phys at slot @idx as device memory (phys 0: unmap), TLB flushed. */
void __set_fixmap(enum fixed_addresses idx, phys_addr_t phys);

/* Linux's set_fixmap_offset_io(): map and return the virtual address of @phys itself. */
static inline uintptr_t set_fixmap_offset_io(enum fixed_addresses idx, phys_addr_t phys)
{
	__set_fixmap(idx, phys & ~(phys_addr_t)(PAGE_SIZE - 1));
	return (uintptr_t)__fix_to_virt(idx) + (uintptr_t)(phys & (PAGE_SIZE - 1));
}
#endif
