/*
 * vmstat.c - the allocator's state as Linux shows it: `buddyinfo` (/proc/buddyinfo exactly) and
 * the `alloc` / `free` commands for poking the allocator by hand.  pagetypeinfo, zoneinfo and
 * fragmap are in vmstat_show.c; docs/vmstat.md describes every command's text.
 * Locking: counters are read without the zone lock: snapshots, as /proc's are.
 */
#include "tinymm/cmdline.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/vmstat.h"
#include "internal.h"

atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];
atomic_long_t vm_events[NR_VM_EVENT_ITEMS];

void show_buddyinfo(int (*pr)(const char *fmt, ...))
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		const struct zone *z = &zones[i];
		if (!z->present_pages)
			continue;		/* v6.10 skips unpopulated zones */
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

static int cmd_alloc(int argc, char **argv)
{
	unsigned long order, count = 1;

	if (argc < 2 || argc > 3 || kstrtoul(argv[1], &order) || (argc == 3 && kstrtoul(argv[2], &count)))
		return shell_usage_error(argv[0], "usage: alloc <order> [count]");
	if (order > MAX_PAGE_ORDER) {
		kprintf("alloc: order %lu is above MAX_PAGE_ORDER (%d)\n", order, MAX_PAGE_ORDER);
		return 2;
	}
	for (unsigned long i = 0; i < count; i++) {
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, (unsigned int)order);
		if (!page) {
			kprintf("alloc: failed after %lu of %lu\n", i, count);
			return 1;
		}
		kprintf("alloc: order %lu pfn %#lx\n", order, page_to_pfn(page));
	}
	return 0;
}
SHELL_COMMAND(alloc, "<order> [count]", "allocate blocks of 2^order frames (kept until `free`)", cmd_alloc);

static int cmd_free(int argc, char **argv)
{
	unsigned long pfn, order;

	if (argc != 3 || kstrtoul(argv[1], &pfn) || kstrtoul(argv[2], &order))
		return shell_usage_error(argv[0], "usage: free <pfn> <order>");
	struct page *page = pfn_to_page(pfn);
	if (!page) {
		kprintf("free: pfn %#lx is not valid (hole or beyond memory)\n", pfn);
		return 1;
	}
	unsigned long bad = nr_bad_pages;
	/* An order past 32 bits would be truncated; past MAX_PAGE_ORDER the allocator reports it. */
	__free_pages(page, order > MAX_PAGE_ORDER ? MAX_PAGE_ORDER + 1 : (unsigned int)order);
	if (nr_bad_pages != bad) {
		kprintf("free: pfn %#lx order %lu: bad page state (see above); the frame is kept out\n",
			pfn, order);
		return 1;
	}
	return 0;
}
SHELL_COMMAND(free, "<pfn> <order>", "free a block that `alloc` gave out", cmd_free);
