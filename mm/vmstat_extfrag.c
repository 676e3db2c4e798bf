/*
 * vmstat_extfrag.c - how fragmented each zone's free memory is, per order: the shell's `extfrag`,
 * Linux v6.10's debugfs files extfrag/unusable_index and extfrag/extfrag_index (mm/vmstat.c)
 * printed one after the other, each under its heading.  docs/vmstat.md explains the figures.
 *
 *   unusable_index(order)  the share of free memory that cannot serve an allocation of @order
 *                          because it sits in smaller blocks: 0.000 none, 1.000 all of it.
 *   extfrag_index(order)   why an allocation of @order would fail: towards 0.000 for want of
 *                          memory, towards 1.000 because of fragmentation; -1.000 when a free
 *                          block of that order exists (it would not fail); 0.000 with nothing free.
 * Both in thousandths, from the buddy lists' per-order block counts only (frames on the per-CPU
 * lists count as allocated, as in Linux).  fragmentation_index() also tells compaction whether
 * a failure is worth compacting for (mm/compaction.c: compaction_suitable).
 *
 * Where tinymm differs from v6.10, and why: one command prints both files (no debugfs); the
 * functions are not static so the `extfrag` KTAP suite can check them on a zone it builds.
 * Locking: none; each nr_free is one racy read, as v6.10's data_race() read (a snapshot).
 */
#include "tinymm/compaction.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "internal.h"

/* The free blocks of @zone, the frames in them, and the blocks of @suitable_order they hold. */
void fill_contig_page_info(const struct zone *zone, unsigned int suitable_order,
			   struct contig_page_info *info)
{
	info->free_pages = 0;
	info->free_blocks_total = 0;
	info->free_blocks_suitable = 0;
	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		unsigned long blocks = READ_ONCE(zone->free_area[order].nr_free);

		info->free_blocks_total += blocks;
		info->free_pages += blocks << order;
		if (order >= suitable_order)
			info->free_blocks_suitable += blocks << (order - suitable_order);
	}
}

/*
 * Mel Gorman's fragmentation index, in thousandths: 1000 - (1000 + free_pages * 1000 /
 * requested) / free_blocks_total; 0 with nothing free, -1000 when a suitable block is free.
 */
int __fragmentation_index(unsigned int order, const struct contig_page_info *info)
{
	unsigned long long requested = 1ULL << order;

	if (order > MAX_PAGE_ORDER)
		return 0;
	if (!info->free_blocks_total)
		return 0;
	if (info->free_blocks_suitable)
		return -1000;
	return 1000 - (int)((1000 + (unsigned long long)info->free_pages * 1000ULL / requested) /
			    info->free_blocks_total);
}

int fragmentation_index(const struct zone *zone, unsigned int order)
{
	struct contig_page_info info;

	fill_contig_page_info(zone, order, &info);
	return __fragmentation_index(order, &info);
}

/* The free frames that are not in a block of @order or larger, per 1000 free frames (1000:
 * nothing free). */
int unusable_free_index(unsigned int order, const struct contig_page_info *info)
{
	if (!info->free_pages)
		return 1000;
	return (int)((unsigned long long)(info->free_pages - (info->free_blocks_suitable << order)) *
		     1000ULL / info->free_pages);
}

/* One zone's line of either file; @extfrag picks the index and v6.10's width for it. */
static void extfrag_zone_print(const struct zone *z, bool extfrag)
{
	kprintf("Node %d, zone %8s ", 0, z->name);
	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		struct contig_page_info info;
		int index;

		fill_contig_page_info(z, order, &info);
		if (extfrag) {
			index = __fragmentation_index(order, &info);
			kprintf("%2d.%03d ", index / 1000, index % 1000);	/* "-1.000" fits */
		} else {
			index = unusable_free_index(order, &info);
			kprintf("%d.%03d ", index / 1000, index % 1000);
		}
	}
	kprintf("\n");
}

static int cmd_extfrag(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	for (int pass = 0; pass < 2; pass++) {
		kprintf("%s:\n", pass ? "extfrag_index" : "unusable_index");
		for (int i = 0; i < MAX_NR_ZONES; i++)
			if (zones[i].present_pages)	/* populated zones only, as Linux */
				extfrag_zone_print(&zones[i], pass);
	}
	return 0;
}
SHELL_COMMAND(extfrag, "",
	      "per zone and order, the unusable free space index and the fragmentation index, as debugfs extfrag/*",
	      cmd_extfrag);
