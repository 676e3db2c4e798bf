/*
 * slab_cmd.c - the slab allocator's shell commands, for poking it by hand: `kmalloc` (objects
 * kept until `kfree`) and `kfree`.  Looking at the caches (`slabinfo`, `slabcheck`) is
 * slab_show.c's.
 * Locking: none of its own; each command calls kmalloc()/kfree() as any caller does.
 */
#include "tinymm/cmdline.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "slab.h"

static int cmd_kmalloc(int argc, char **argv)
{
	unsigned long size, count = 1;

	if (argc < 2 || argc > 3 || kstrtoul(argv[1], &size) || (argc == 3 && kstrtoul(argv[2], &count)))
		return shell_usage_error(argv[0], "usage: kmalloc <size> [count]");
	for (unsigned long i = 0; i < count; i++) {
		void *p = kmalloc(size, GFP_KERNEL | __GFP_NOWARN);
		if (!p) {
			kprintf("kmalloc: failed after %lu of %lu\n", i, count);
			return 1;
		}
		const char *cache = p == ZERO_SIZE_PTR ? NULL : slab_cache_name_of(virt_to_page(p));
		kprintf("kmalloc: %lu bytes at %#lx (%s)\n", size, (unsigned long)p,
			p == ZERO_SIZE_PTR ? "ZERO_SIZE_PTR" : cache ? cache : "pages");
	}
	return 0;
}
SHELL_COMMAND(kmalloc, "<size> [count]", "allocate objects (kept until `kfree`)", cmd_kmalloc);

static int cmd_kfree(int argc, char **argv)
{
	unsigned long addr;

	if (argc != 2 || kstrtoul(argv[1], &addr))
		return shell_usage_error(argv[0], "usage: kfree <addr>");
	unsigned long bugs = nr_slab_bugs;
	kfree((void *)addr);
	if (nr_slab_bugs != bugs) {
		kprintf("kfree: %#lx not freed (see above)\n", addr);
		return 1;
	}
	return 0;
}
SHELL_COMMAND(kfree, "<addr>", "free what `kmalloc` gave out", cmd_kfree);
