/*
 * page_poison.c - the free-page fill checker (tinymm.page_poison=1), as Zircon's PmmChecker and
 * Linux's page_poisoning: every freed frame is filled with a pattern, and the pattern is verified
 * when the frame is handed out again.  A mismatch means someone wrote to memory after freeing it:
 * the frame is reported like a bad page (with the first differing offset) and leaked.
 * Locking: none of its own; the frames are free (no one may touch them), so only the allocator
 * reads or writes them.
 */
#include "tinymm/cmdline.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"

#define PAGE_POISON	0xaa	/* Linux's PAGE_POISON */

bool page_poisoning_enabled;
unsigned long nr_poison_mismatches;

KPARAM_BOOL(page_poison, page_poisoning_enabled, "1: fill free frames with 0xaa and verify at allocation");

void kernel_poison_pages(struct page *page, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		unsigned long *w = page_address(page + i);
		for (size_t j = 0; j < PAGE_SIZE / sizeof(long); j++)
			w[j] = (unsigned long)0xaaaaaaaaaaaaaaaaULL;
	}
}

bool check_poison_pages(struct page *page, unsigned long nr)
{
	bool good = true;

	for (unsigned long i = 0; i < nr; i++) {
		const unsigned char *b = page_address(page + i);
		for (size_t j = 0; j < PAGE_SIZE; j++) {
			if (b[j] == PAGE_POISON)
				continue;
			nr_poison_mismatches++;
			printk(KERN_ALERT "pagealloc: memory corruption at pfn %#lx offset %#zx: 0x%02x "
			       "where the free pattern 0x%02x was\n", page_to_pfn(page + i), j, b[j], PAGE_POISON);
			dump_page(page + i, "written after free (page_poison)");
			good = false;
			break;
		}
	}
	return good;
}
