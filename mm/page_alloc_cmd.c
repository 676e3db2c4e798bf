/*
 * page_alloc_cmd.c - the page allocator's shell commands, for poking it by hand: `alloc`
 * (blocks kept until `free`), `free` and `drain` (the per-CPU lists back to the buddy lists).
 * docs/vmstat.md describes their text.
 * Locking: none of its own; each command calls the allocator as any caller does.
 */
#include "tinymm/cmdline.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "internal.h"

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

static int cmd_drain(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	drain_all_pages(NULL);
	return 0;
}
SHELL_COMMAND(drain, "", "return the per-CPU page lists to the buddy lists", cmd_drain);
