/*
 * io.h - device registers: ioremap() maps a device's physical range into the vmalloc range,
 * uncached and never executable (mm/ioremap.c).  Drivers take their register base from the
 * device tree and reach it only through this; the accessors are readl()/writel() (arch.h).
 */
#ifndef TINYMM_IO_H
#define TINYMM_IO_H
#include "kernel.h"

#define __iomem		/* a marker, as in Linux: a pointer to device registers */

/* The registers at [@phys, @phys + @size): their virtual address, or NULL (one line says why). */
void __iomem *ioremap(phys_addr_t phys, size_t size);
/* Undo ioremap(); anything else is a WARNING and nothing changes. */
void iounmap(volatile void __iomem *addr);
#endif
