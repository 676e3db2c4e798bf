/*
 * kallsyms.c - address to function name, for backtraces and WARN/BUG reports.
 *
 * The table (tools/gen-kallsyms, linked into .kallsyms by the second link) is sorted by address;
 * a lookup is one binary search.  Invariant: kallsyms_addrs[] ascending.  Locking: none, the
 * table is read-only.  Host builds link an empty table (tests/host/shim.c).
 */
#include "tinymm/kallsyms.h"
#include "tinymm/printk.h"

extern const uint32_t kallsyms_num;
extern const unsigned long kallsyms_addrs[];
extern const uint32_t kallsyms_sizes[], kallsyms_offs[];
extern const char kallsyms_names[];

const char *kallsyms_lookup(unsigned long addr, unsigned long *offset, unsigned long *size)
{
	uint32_t lo = 0, hi = kallsyms_num;

	if (!hi || addr < kallsyms_addrs[0])
		return NULL;
	while (hi - lo > 1) {		/* last symbol with start <= addr */
		uint32_t mid = lo + (hi - lo) / 2;
		if (kallsyms_addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	unsigned long sz = kallsyms_sizes[lo];
	if (!sz)
		sz = lo + 1 < kallsyms_num ? kallsyms_addrs[lo + 1] - kallsyms_addrs[lo] : 0;
	if (addr - kallsyms_addrs[lo] >= sz)
		return NULL;		/* past the end of the function: padding or data */
	if (offset)
		*offset = addr - kallsyms_addrs[lo];
	if (size)
		*size = sz;
	return kallsyms_names + kallsyms_offs[lo];
}

void sprint_symbol(char *buf, size_t len, unsigned long addr)
{
	unsigned long off, size;
	const char *name = kallsyms_lookup(addr, &off, &size);

	if (name)
		ksnprintf(buf, len, "%s+0x%lx/0x%lx", name, off, size);
	else
		ksnprintf(buf, len, "0x%lx", addr);
}
