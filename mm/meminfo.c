/*
 * meminfo.c - the `meminfo` command: /proc/meminfo's lines in v6.10's format ("Name:" padded to
 * 16 columns, the value 8 wide, " kB").  Until the page allocator exists, MemTotal is the RAM
 * memblock left usable at the end of boot and MemFree what is still usable now; later issues
 * take both from the allocator and add the other lines.
 */
#include "tinymm/memblock.h"
#include "tinymm/meminfo.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

static void show_val_kb(const char *name, unsigned long long bytes)
{
	kprintf("%-16s%8llu kB\n", name, bytes >> 10);
}

static phys_addr_t memtotal;

void meminfo_set_total(phys_addr_t bytes)
{
	memtotal = bytes;
}

static int cmd_meminfo(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	show_val_kb("MemTotal:", memtotal);
	show_val_kb("MemFree:", memblock_size_of(MEMBLOCK_USABLE));
	return 0;
}
SHELL_COMMAND(meminfo, "", "memory usage, in /proc/meminfo's format", cmd_meminfo);
