/*
 * cacheops.c - the cache maintenance counters (include/tinymm/cacheops.h, docs/cacheflush.md)
 * and `cacheops`, which prints them: one line per kind of operation, counted per call since
 * boot, or since `cacheops -z`, which zeroes them (and prints nothing), for one run's counts.
 */
#include <string.h>
#include "tinymm/cacheops.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

unsigned long cacheop_counts[NR_CACHEOPS];

const char *const cacheop_names[NR_CACHEOPS] = {
	[CACHEOP_DCACHE_CLEAN] = "dcache_clean",
	[CACHEOP_DCACHE_INVAL] = "dcache_inval",
	[CACHEOP_DCACHE_FLUSH] = "dcache_flush",
	[CACHEOP_ICACHE_INVAL] = "icache_inval",
	[CACHEOP_FENCE_I] = "fence_i",
	[CACHEOP_DCACHE_CLEAN_SKIPPED] = "dcache_clean_skipped",
};

static int cmd_cacheops(int argc, char **argv)
{
	bool zero = argc == 2 && !strcmp(argv[1], "-z");

	if (argc > 2 || (argc == 2 && !zero))
		return shell_usage_error(argv[0], "usage: cacheops [-z]");
	if (zero) {
		memset(cacheop_counts, 0, sizeof(cacheop_counts));
		return 0;
	}
	for (int i = 0; i < NR_CACHEOPS; i++)
		kprintf("%-22s %lu\n", cacheop_names[i], cacheop_counts[i]);
	return 0;
}
SHELL_COMMAND(cacheops, "[-z]", "cache maintenance done since boot, per operation (-z: zero the counts)",
	      cmd_cacheops);
