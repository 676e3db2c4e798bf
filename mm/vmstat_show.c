/*
 * vmstat_show.c - the allocator's state as pictures and tables: `pagetypeinfo` and `zoneinfo`
 * (/proc/pagetypeinfo and /proc/zoneinfo in Linux v6.10's text, the fields tinymm has) and
 * `fragmap` (tinymm's own: one character per pageblock).  docs/vmstat.md describes every line.
 *
 * Where tinymm differs from v6.10, and why (what v6.10 prints and tinymm leaves out):
 *  - pagetypeinfo: the columns and rows of MIGRATE_HIGHATOMIC, MIGRATE_CMA and MIGRATE_ISOLATE
 *    (tinymm has only Unmovable, Movable, Reclaimable: enum migratetype in mmzone.h), and the
 *    "Number of mixed blocks" table (it needs CONFIG_PAGE_OWNER).  The pageblock counts take
 *    every pageblock of the zone with a struct page for any of its frames, where v6.10 samples
 *    one pfn every pageblock_nr_pages from the zone's start (the same count when the zone
 *    starts on a pageblock boundary, as on every QEMU board).
 *  - zoneinfo: "per-node stats" (the node counters exist: `vmstat` prints them) and every zone
 *    counter but nr_free_pages (tinymm keeps no per-zone LRU, dirty, bounce, zsmalloc or CMA
 *    counters); "promo" (the memory-tiering promotion watermark: no tiers, no NUMA balancing);
 *    "vm stats threshold" (no per-CPU counter deltas; v6.10 prints it only with CONFIG_SMP);
 *    "node_unreclaimable" (kswapd's state lives in mm/vmscan.c, which this portable file and its
 *    host test do not link).  "boost" and "cma" are kept and always 0 (no watermark boosting,
 *    no CMA).  The pageset lines are v6.10's: count, high (as tuned now), batch, in its columns;
 *    the high_min/high_max lines and the wider column came in later Linux.
 *    "protection" is each zone's lowmem_reserve (Linux's default ratios: ZONE_DMA keeps back
 *    1/256 of the memory above it from allocations that could have used a higher zone).
 *
 * fragmap's alphabet (one character per pageblock; only the block's frames inside the zone
 * count, frames with no struct page are ignored unless the whole block has none):
 *   .       every frame is free (on the buddy free lists)
 *   U M R   no frame free, some allocated: the pageblock's migratetype (Unmovable, Movable,
 *           Reclaimable)
 *   u m r   partly free: some frames free, the others allocated or reserved
 *   #       no frame free or allocated: all reserved (kernel, memmap, firmware, DTB...)
 *   _       no memory: no frame of the block has a struct page (a hole between RAM banks)
 * "Allocated" is every frame that is neither free nor PG_reserved: blocks handed out, frames on
 * the per-CPU lists (`drain` returns them), isolated blocks, leaked bad pages.
 *
 * Locking: each zone's lock is held while its free lists or one pageblock's frames are read
 * (irqs masked, which also keeps this CPU's pcp lists still); printing happens after it is
 * dropped, from a snapshot.
 */
#include "tinymm/irqflags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "internal.h"

/* A free block never crosses a pageblock (fragmap's walk relies on it). */
_Static_assert(pageblock_order >= MAX_PAGE_ORDER, "free blocks larger than a pageblock");

/* migratetype_names[] (global in Linux too), the types tinymm has. */
const char *const migratetype_names[MIGRATE_TYPES] = {
	[MIGRATE_UNMOVABLE] = "Unmovable",
	[MIGRATE_MOVABLE] = "Movable",
	[MIGRATE_RECLAIMABLE] = "Reclaimable",
};
static const char fragmap_type_char[MIGRATE_TYPES] = {
	[MIGRATE_UNMOVABLE] = 'U',
	[MIGRATE_MOVABLE] = 'M',
	[MIGRATE_RECLAIMABLE] = 'R',
};

/* Each free-list walk is capped (it runs under the zone lock) and prints ">100000". */
#define FREECOUNT_CAP	100000UL

static const char *zone_name(int i)
{
	return zones[i].name ? zones[i].name : zone_names[i];
}

/* The first pfn of the pageblock holding the zone's first frame, and the zone's block count. */
static unsigned long zone_first_block_pfn(const struct zone *z)
{
	return z->zone_start_pfn & ~(pageblock_nr_pages - 1);
}

static unsigned long zone_nr_blocks(const struct zone *z)
{
	if (!z->spanned_pages)
		return 0;
	return ((zone_end_pfn(z) - 1) >> pageblock_order) - (z->zone_start_pfn >> pageblock_order) + 1;
}

/* Does any frame of [s, e) have a struct page? */
static bool range_has_memmap(unsigned long s, unsigned long e)
{
	for (int b = 0; b < memmap_nr_banks(); b++) {
		const struct memmap_bank *bk = memmap_bank(b);
		if (bk->start_pfn < e && bk->end_pfn > s)
			return true;
	}
	return false;
}

/* ---- pagetypeinfo ---- */

static void pagetypeinfo_showfree_print(int zi)
{
	struct zone *z = &zones[zi];
	unsigned long count[MIGRATE_TYPES][NR_PAGE_ORDERS], flags;

	spin_lock_irqsave(&z->lock, flags);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		for (int o = 0; o < NR_PAGE_ORDERS; o++) {
			unsigned long n = 0;
			for (uint32_t l = z->free_area[o].free_list[mt].first; l != PAGE_LINK_NONE && n < FREECOUNT_CAP;
			     l = link_to_page(l)->lru.next)
				n++;
			count[mt][o] = n;
		}
	spin_unlock_irqrestore(&z->lock, flags);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		kprintf("Node %4d, zone %8s, type %12s ", 0, zone_name(zi), migratetype_names[mt]);
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			kprintf("%s%6lu ", count[mt][o] >= FREECOUNT_CAP ? ">" : "", count[mt][o]);
		kprintf("\n");
	}
}

/*
 * Pageblocks per migratetype: every pageblock of the zone that has a struct page for any of its
 * frames (see the header).
 */
static void pagetypeinfo_showblockcount_print(int zi)
{
	struct zone *z = &zones[zi];
	unsigned long count[MIGRATE_TYPES] = { 0 }, first = zone_first_block_pfn(z), flags;
	unsigned long n = zone_nr_blocks(z);

	for (unsigned long b = 0; b < n; b++) {
		unsigned long s = max(first + b * pageblock_nr_pages, z->zone_start_pfn);
		unsigned long e = min(first + (b + 1) * pageblock_nr_pages, zone_end_pfn(z));
		if (!range_has_memmap(s, e))
			continue;
		spin_lock_irqsave(&z->lock, flags);
		int mt = get_pageblock_migratetype(z, s);
		spin_unlock_irqrestore(&z->lock, flags);
		if (mt >= 0 && mt < MIGRATE_TYPES)
			count[mt]++;
	}
	kprintf("Node %d, zone %8s ", 0, zone_name(zi));
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		kprintf("%12lu ", count[mt]);
	kprintf("\n");
}

static int cmd_pagetypeinfo(int argc, char **argv)
{
	bool any = false;

	if (shell_no_args(argc, argv))
		return 2;
	for (int i = 0; i < MAX_NR_ZONES; i++)
		any |= zones[i].present_pages != 0;
	if (!any)
		return 0;		/* nothing for a node without memory */
	kprintf("Page block order: %d\n", pageblock_order);
	kprintf("Pages per block:  %lu\n", pageblock_nr_pages);
	kprintf("\n");
	kprintf("%-43s ", "Free pages count per migrate type at order");
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		kprintf("%6d ", o);
	kprintf("\n");
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (zones[i].present_pages)	/* populated zones only */
			pagetypeinfo_showfree_print(i);
	kprintf("\n%-23s", "Number of blocks type ");
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		kprintf("%12s ", migratetype_names[mt]);
	kprintf("\n");
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (zones[i].present_pages)
			pagetypeinfo_showblockcount_print(i);
	return 0;
}
SHELL_COMMAND(pagetypeinfo, "",
	      "free blocks per zone, migratetype and order, and pageblocks per migratetype, as /proc/pagetypeinfo",
	      cmd_pagetypeinfo);

/* ---- zoneinfo ---- */

struct zone_snapshot {
	unsigned long free, wmark[NR_WMARK], spanned, present, managed, start_pfn;
	struct { int count, high, batch; } pcp[CONFIG_NR_CPUS];
};

static void zoneinfo_show_print(int zi)
{
	struct zone *z = &zones[zi];
	struct zone_snapshot s;
	unsigned long flags = 0;

	/* An unpopulated zone's lock may never have been initialised (before page_alloc_init). */
	if (z->spanned_pages)
		spin_lock_irqsave(&z->lock, flags);
	s.free = z->free_pages;
	for (int w = 0; w < NR_WMARK; w++)
		s.wmark[w] = z->_watermark[w];
	s.spanned = z->spanned_pages;
	s.present = z->present_pages;
	s.managed = z->managed_pages;
	s.start_pfn = z->zone_start_pfn;
	if (z->spanned_pages)
		spin_unlock_irqrestore(&z->lock, flags);
	for (int cpu = 0; cpu < CONFIG_NR_CPUS; cpu++) {	/* each under its lock (mm/pcp.c) */
		struct per_cpu_pages *pcp = &z->pcp[cpu];
		if (z->spanned_pages)
			pcp_spin_lock_irqsave(pcp, flags);
		s.pcp[cpu].count = pcp_count(pcp);
		s.pcp[cpu].high = pcp->high;
		s.pcp[cpu].batch = pcp->batch;
		if (z->spanned_pages)
			pcp_spin_unlock_irqrestore(pcp, flags);
	}

	kprintf("Node %d, zone %8s\n", 0, zone_name(zi));
	kprintf("  pages free     %lu\n", s.free);
	kprintf("        boost    %lu\n", 0UL);
	kprintf("        min      %lu\n", s.wmark[WMARK_MIN]);
	kprintf("        low      %lu\n", s.wmark[WMARK_LOW]);
	kprintf("        high     %lu\n", s.wmark[WMARK_HIGH]);
	kprintf("        spanned  %lu\n", s.spanned);
	kprintf("        present  %lu\n", s.present);
	kprintf("        managed  %lu\n", s.managed);
	kprintf("        cma      %lu\n", 0UL);
	kprintf("        protection: (%ld", (long)zones[zi].lowmem_reserve[0]);
	for (int i = 1; i < MAX_NR_ZONES; i++)
		kprintf(", %ld", (long)zones[zi].lowmem_reserve[i]);
	kprintf(")\n");
	if (!s.present)
		return;		/* nothing more is useful for an unpopulated zone */
	kprintf("      %-12s %lu\n", "nr_free_pages", s.free);
	kprintf("  pagesets\n");
	unsigned int cpu;
	for_each_online_cpu(cpu) {		/* as v6.10's zoneinfo */
		kprintf("    cpu: %i\n", cpu);
		kprintf("              count: %i\n", s.pcp[cpu].count);
		kprintf("              high:  %i\n", s.pcp[cpu].high);
		kprintf("              batch: %i\n", s.pcp[cpu].batch);
	}
	kprintf("  start_pfn:           %lu\n", s.start_pfn);
}

static int cmd_zoneinfo(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	for (int i = 0; i < MAX_NR_ZONES; i++)	/* every zone, populated or not */
		zoneinfo_show_print(i);
	return 0;
}
SHELL_COMMAND(zoneinfo, "", "each zone's free pages, watermarks, sizes and per-CPU lists, as /proc/zoneinfo",
	      cmd_zoneinfo);

/* ---- fragmap ---- */

#define FRAGMAP_PER_LINE	64

/* One pageblock's character: its frames in [s, e) (all inside @z) read under the zone lock. */
static char fragmap_block_char(struct zone *z, unsigned long s, unsigned long e)
{
	unsigned long present = 0, free = 0, used = 0, flags;
	int mt;

	if (!range_has_memmap(s, e))
		return '_';
	spin_lock_irqsave(&z->lock, flags);
	mt = get_pageblock_migratetype(z, s);
	for (unsigned long pfn = s; pfn < e;) {
		struct page *page = pfn_to_page(pfn);
		if (!page || page_zone(page) != z) {
			pfn++;
			continue;
		}
		if (PageBuddy(page)) {
			unsigned long n = min(1UL << buddy_order(page), e - pfn);
			present += n;
			free += n;
			pfn += n;
			continue;
		}
		present++;
		if (!PageReserved(page))
			used++;
		pfn++;
	}
	spin_unlock_irqrestore(&z->lock, flags);
	if (!present)
		return '_';
	if (free == present)
		return '.';
	if (!free && !used)
		return '#';
	char c = mt >= 0 && mt < MIGRATE_TYPES ? fragmap_type_char[mt] : '?';
	return free ? (char)(c - 'A' + 'a') : c;
}

static void fragmap_zone(int zi)
{
	struct zone *z = &zones[zi];
	unsigned long first = zone_first_block_pfn(z), n = zone_nr_blocks(z);
	char line[FRAGMAP_PER_LINE + 1];

	kprintf("Node %d, zone %8s: pfn %#lx-%#lx, %lu pageblocks of %lu frames\n", 0, zone_name(zi),
		z->zone_start_pfn, zone_end_pfn(z) - 1, n, pageblock_nr_pages);
	for (unsigned long b = 0; b < n; b += FRAGMAP_PER_LINE) {
		unsigned long k, line_pfn = first + b * pageblock_nr_pages;
		for (k = 0; k < FRAGMAP_PER_LINE && b + k < n; k++) {
			unsigned long bs = line_pfn + k * pageblock_nr_pages;
			line[k] = fragmap_block_char(z, max(bs, z->zone_start_pfn),
						     min(bs + pageblock_nr_pages, zone_end_pfn(z)));
		}
		line[k] = '\0';
		kprintf("0x%08lx %s\n", line_pfn, line);
	}
}

static bool zone_name_is(const char *name, const char *arg)
{
	for (; *name && *arg; name++, arg++) {
		char a = *name, b = *arg;
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return false;
	}
	return !*name && !*arg;
}

static int cmd_fragmap(int argc, char **argv)
{
	int only = -1;

	if (argc > 2)
		return shell_usage_error(argv[0], "usage: fragmap [zone]");
	if (argc == 2) {
		for (int i = 0; i < MAX_NR_ZONES; i++)
			if (zone_name_is(zone_names[i], argv[1]))
				only = i;
		if (only < 0) {
			kprintf("fragmap: no zone '%s' (zones:", argv[1]);
			for (int i = 0; i < MAX_NR_ZONES; i++)
				kprintf(" %s", zone_names[i]);
			kprintf(")\n");
			return 2;
		}
		if (!zones[only].present_pages) {
			kprintf("fragmap: zone %s has no memory\n", zone_names[only]);
			return 1;
		}
	}
	kprintf("legend: . free  U M R in use (Unmovable Movable Reclaimable block)  u m r partly free"
		"  # reserved  _ no memory\n");
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if ((only < 0 || only == i) && zones[i].present_pages)
			fragmap_zone(i);
	return 0;
}
SHELL_COMMAND(fragmap, "[zone]",
	      "a zone's pageblocks, 64 a line: . free, U/M/R in use (migratetype), u/m/r partly free, # reserved, _ hole",
	      cmd_fragmap);
