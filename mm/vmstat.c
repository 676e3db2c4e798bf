/*
 * vmstat.c - the allocator's state as Linux shows it: the node and event counters, and
 * `buddyinfo` (/proc/buddyinfo exactly).  pagetypeinfo, zoneinfo and fragmap are in
 * vmstat_show.c, the `alloc` / `free` commands in page_alloc_cmd.c; docs/vmstat.md describes
 * every command's text.
 * Locking: counters are read without the zone lock: snapshots, as /proc's are.
 */
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/vmstat.h"
#include "internal.h"

atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];
atomic_long_t vm_events[NR_VM_EVENT_ITEMS];
unsigned long vmalloc_total;
atomic_long_t nr_vmalloc_pages;

void show_buddyinfo(int (*pr)(const char *fmt, ...))
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		const struct zone *z = &zones[i];
		if (!z->present_pages)
			continue;		/* unpopulated zones are skipped, as in Linux */
		pr("Node 0, zone %8s ", z->name);
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			pr("%6lu ", READ_ONCE(z->free_area[o].nr_free));
		pr("\n");
	}
}

static int cmd_buddyinfo(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	show_buddyinfo(kprintf);
	return 0;
}
SHELL_COMMAND(buddyinfo, "", "free blocks per zone and order, as /proc/buddyinfo", cmd_buddyinfo);
