/*
 * ptdump.c - ARM's half of `ptdump` (include/tinymm/ptdump.h; mm/ptdump.c walks and merges):
 * the regions and the line format of Linux's arch/arm/mm/dump.c for LPAE.  A line is
 *     0x<start>-0x<end>   <size><unit> <bits>
 * with the size in K, M or G and, for a page (level 4), " USR" or four spaces, " ro" or " RW",
 * " NX" or " x ", " SHD" or four spaces and the memory type (MEM/CACHED/WBWA, MEM/BUFFERABLE/WC,
 * DEV/SHARED, SO/UNCACHED); for a 2 MiB block (level 3) only what is set of USR, ro/RW, NX and
 * SHD, as Linux's section bits.
 *
 * Where tinymm differs from v6.10, and why: there are no Modules, FDT or Vectors regions (no
 * modules; the device tree is read through the direct map; VBAR points at the vectors in the
 * image), and the user half below PAGE_OFFSET, empty in the kernel's tables, is not shown; a
 * block's memory type is compared when merging (Linux's section bits leave it out), so RAM and
 * device blocks never share a line.
 */
#include "tinymm/pgtable.h"
#include "tinymm/ptdump.h"

const struct ptdump_marker ptdump_markers[] = {
	{ PAGE_OFFSET, "Kernel Mapping" },
	{ VMALLOC_START, "vmalloc() Area" },
	{ VMALLOC_END, "vmalloc() End" },
	{ FIXADDR_START, "Fixmap Area" },
	{ 0, NULL },			/* to the top of the 32-bit space */
};

uint64_t ptdump_attrs(uint64_t val, int level)
{
	(void)level;
	return val & (L_PTE_USER | L_PTE_RDONLY | L_PTE_XN | L_PTE_PXN | L_PTE_SHARED |
		      L_PTE_ATTRINDX_MASK);
}

static const char *const mem_types[] = {
	[MT_NORMAL] = "MEM/CACHED/WBWA",
	[MT_NORMAL_NC] = "MEM/BUFFERABLE/WC",
	[MT_DEVICE] = "DEV/SHARED",
	[MT_SO] = "SO/UNCACHED",
};

void ptdump_print(const struct ptdump_run *r, int (*pr)(const char *fmt, ...))
{
	static const char units[] = "KMG";
	unsigned long size = (r->end - r->start) >> 10;	/* end 0: the top, unsigned wrap */
	unsigned int u = 0, mt = (unsigned int)((r->attrs & L_PTE_ATTRINDX_MASK) >> 2);
	bool page = r->level == 4;

	while (!(size & 1023) && units[u + 1]) {
		size >>= 10;
		u++;
	}
	pr("0x%08lx-0x%08lx   %9lu%c", r->start, r->end, size, units[u]);
	if (r->attrs & L_PTE_USER)
		pr(" USR");
	else if (page)
		pr("    ");
	pr(r->attrs & L_PTE_RDONLY ? " ro" : " RW");
	if (r->attrs & L_PTE_XN)
		pr(" NX");
	else if (page)
		pr(" x ");
	if ((r->attrs & L_PTE_SHARED) == L_PTE_SHARED)
		pr(" SHD");
	else if (page)
		pr("    ");
	if (page)
		pr(" %s", mt < sizeof(mem_types) / sizeof(mem_types[0]) && mem_types[mt] ?
			  mem_types[mt] : "MEM/?");
	pr("\n");
}
