/*
 * memhog.c - the `memhog <MiB>` command: take that much memory from the page allocator, write
 * every byte, read it all back, give it all back.  What a guest's workload does to a host: the
 * frames it touched are resident in the host until free page reporting hands them back
 * (docs/page_reporting.md); memhog itself never calls the reporting code.
 *
 * Blocks are as big as the allocator will give (MAX_PAGE_ORDER first, smaller when that fails),
 * plain (not compound) allocations, chained through the head page's owner fields while held:
 * ->private the next block's head, ->index the order.  Both are cleared before the free.
 * Each 8-byte word gets (its physical address ^ MEMHOG_SALT), so a frame that came back
 * wrong, or twice, is caught on the read-back.
 * Locking: none of its own; the allocator's.
 */
#include <stdint.h>
#include "tinymm/cmdline.h"
#include "tinymm/gfp.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

#define MEMHOG_SALT	0x9E3779B97F4A7C15ULL

static void memhog_fill(struct page *page, unsigned int order)
{
	uint64_t *w = page_address(page);
	uint64_t phys = (uint64_t)page_to_pfn(page) << PAGE_SHIFT;

	for (size_t i = 0; i < (PAGE_SIZE << order) / sizeof(*w); i++)
		w[i] = (phys + i * sizeof(*w)) ^ MEMHOG_SALT;
}

/* The first wrong word's byte offset in the block, or -1. */
static long memhog_check(struct page *page, unsigned int order)
{
	const uint64_t *w = page_address(page);
	uint64_t phys = (uint64_t)page_to_pfn(page) << PAGE_SHIFT;

	for (size_t i = 0; i < (PAGE_SIZE << order) / sizeof(*w); i++)
		if (w[i] != ((phys + i * sizeof(*w)) ^ MEMHOG_SALT))
			return (long)(i * sizeof(*w));
	return -1;
}

static int cmd_memhog(int argc, char **argv)
{
	unsigned long long mib;
	unsigned long want, got = 0;
	unsigned int order = MAX_PAGE_ORDER;
	struct page *head = NULL;
	int bad = 0;

	if (argc != 2 || kstrtoull(argv[1], &mib) || !mib)
		return shell_usage_error("memhog", "usage: memhog <MiB> (1 or more)");
	if (mib > ((unsigned long long)totalram_pages() << PAGE_SHIFT) >> 20) {
		kprintf("memhog: %llu MiB is more than this machine has (%lu MiB)\n", mib,
			(totalram_pages() << PAGE_SHIFT) >> 20);
		return 1;
	}
	want = (unsigned long)(mib << (20 - PAGE_SHIFT));
	while (got < want) {
		while ((1UL << order) > want - got)
			order--;
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
		if (!page) {
			if (order--)
				continue;
			break;			/* not even one frame: give up, report below */
		}
		memhog_fill(page, order);
		page->index = order;
		page->private = (unsigned long)head;
		head = page;
		got += 1UL << order;
	}
	while (head) {
		struct page *page = head;
		unsigned int o = (unsigned int)page->index;
		long off = memhog_check(page, o);

		if (off >= 0 && bad++ < 4)
			kprintf("memhog: pfn %#lx: byte %ld reads back wrong\n", page_to_pfn(page), off);
		head = (struct page *)page->private;
		page->private = 0;
		page->index = 0;
		__free_pages(page, o);
	}
	if (got < want) {
		kprintf("memhog: only %lu of %llu MiB could be allocated; freed them\n",
			(got << PAGE_SHIFT) >> 20, mib);
		return 1;
	}
	if (bad) {
		kprintf("memhog: %d blocks read back wrong\n", bad);
		return 1;
	}
	kprintf("memhog: freed %llu MiB\n", mib);
	return 0;
}
SHELL_COMMAND(memhog, "<MiB>", "allocate that much memory, write and check every byte, free it",
	      cmd_memhog);
