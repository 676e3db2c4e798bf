/*
 * mm_init.c - boot: zones from the memmap and configuration, watermarks, and every usable frame
 * handed to the buddy allocator in the largest aligned blocks (each frame touched once, so the
 * cost is linear and small).  Runs once, single-threaded, before anything allocates.  The
 * lowmem reserve and the watermarks follow Linux v6.10's setup_per_zone_lowmem_reserve(),
 * init_per_zone_wmark_min() and __setup_per_zone_wmarks() with their default ratios and scale.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "internal.h"


static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0, bit = 1UL << (sizeof(long) * 8 - 2);

	while (bit > x)
		bit >>= 2;
	for (; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

/* setup_per_zone_lowmem_reserve() with its default sysctl_lowmem_reserve_ratio: a zone
 * keeps back 1/ratio of the memory of the zones above it from allocations that could use those. */
static void setup_lowmem_reserve(void)
{
	static const unsigned long ratio[MAX_NR_ZONES] = { [ZONE_DMA] = 256, [ZONE_NORMAL] = 32,
							     [ZONE_MOVABLE] = 0 };

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		unsigned long above = 0;
		for (int j = 0; j < MAX_NR_ZONES; j++) {
			if (j > i)
				above += zones[j].managed_pages;
			/* Cleared for an empty zone: there is nothing to protect. */
			zones[i].lowmem_reserve[j] = j > i && ratio[i] && zones[i].managed_pages ?
						     above / ratio[i] : 0;
		}
	}
}

/* init_per_zone_wmark_min() and __setup_per_zone_wmarks(), with the default scale. */
static void setup_watermarks(void)
{
	unsigned long managed = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		managed += zones[i].managed_pages;
	unsigned long min_kbytes = int_sqrt((managed << (PAGE_SHIFT - 10)) * 16);
	min_kbytes = min_kbytes < 128 ? 128 : min_kbytes > 262144 ? 262144 : min_kbytes;
	unsigned long pages_min = min_kbytes >> (PAGE_SHIFT - 10);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		if (!managed || !z->managed_pages)
			continue;
		unsigned long zmin = (unsigned long)((unsigned long long)pages_min * z->managed_pages / managed);
		unsigned long gap = max(zmin / 4, z->managed_pages * 10 / 10000);
		z->_watermark[WMARK_MIN] = zmin;
		z->_watermark[WMARK_LOW] = zmin + gap;
		z->_watermark[WMARK_HIGH] = zmin + 2 * gap;
	}
}

static void zone_init(enum zone_type zt, unsigned long start, unsigned long end)
{
	struct zone *z = &zones[zt];

	memset(z, 0, sizeof(*z));
	z->name = zone_names[zt];
	spin_lock_init(&z->lock);
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			page_list_init(&z->free_area[o].free_list[mt]);
	if (end <= start)
		return;
	z->zone_start_pfn = start;
	z->spanned_pages = end - start;
	unsigned long nblocks = ((end - 1) >> pageblock_order) - (start >> pageblock_order) + 1;
	/* Whole pages: the allocator inherits memblock's map and manages whole frames. */
	phys_addr_t pa = memblock_alloc(ALIGN(nblocks, PAGE_SIZE), PAGE_SIZE, MEMBLOCK_MEMMAP);
	BUG_ON(!pa);		/* a few bytes, after the memmap succeeded */
	z->pageblock_mt = __va(pa);
	memset(z->pageblock_mt, MIGRATE_MOVABLE, nblocks);	/* Linux starts every block MOVABLE */
	for (int b = 0; b < memmap_nr_banks(); b++) {
		const struct memmap_bank *bk = memmap_bank(b);
		unsigned long s = max(bk->start_pfn, start), e = min(bk->end_pfn, end);
		if (e > s)
			z->present_pages += e - s;
	}
	nr_zones++;
}

/* Free [s, e) into @z in the largest aligned blocks (each frame is touched once: linear). */
static void free_range_to_buddy(struct zone *z, unsigned long s, unsigned long e)
{
	spin_lock(&z->lock);	/* __free_one_page()'s rule, though nobody else runs yet */
	while (s < e) {
		unsigned int order = MAX_PAGE_ORDER;
		while (order && ((s & ((1UL << order) - 1)) || s + (1UL << order) > e))
			order--;
		struct page *page = pfn_to_page(s);
		if (page_poisoning_enabled)	/* the checker needs every free frame filled */
			kernel_poison_pages(page, 1UL << order);
		__free_one_page(page, s, z, order, get_pageblock_migratetype(z, s), FPI_NONE);
		z->managed_pages += 1UL << order;
		s += 1UL << order;
	}
	spin_unlock(&z->lock);
}

/*
 * v6.10 adds atomically; tinymm's managed_pages is a plain word written under the zone lock
 * (readers take a racy snapshot, READ_ONCE, as they do of free_pages).
 */
void adjust_managed_page_count(struct page *page, long count)
{
	struct zone *z = page_zone(page);
	unsigned long flags;

	spin_lock_irqsave(&z->lock, flags);
	WRITE_ONCE(z->managed_pages, z->managed_pages + (unsigned long)count);
	spin_unlock_irqrestore(&z->lock, flags);
}

void zone_dma_limit_from_firmware(phys_addr_t limit)
{
	if (!zone_dma_limit && limit)		/* tinymm.zone_dma_limit wins */
		zone_dma_limit = ALIGN_DOWN(limit, (phys_addr_t)PAGE_SIZE);
}

int page_alloc_init(void)
{
	unsigned long first = ~0UL, last = 0;

	for (int b = 0; b < memmap_nr_banks(); b++) {
		first = min(first, memmap_bank(b)->start_pfn);
		last = max(last, memmap_bank(b)->end_pfn);
	}
	if (!memmap_nr_banks())
		return -ENOMEM;
	unsigned long dma_end = zone_dma_limit ? PHYS_PFN(zone_dma_limit) : first;
	dma_end = min(max(dma_end, first), last);
	nr_zones = 0;
	zone_init(ZONE_DMA, first, dma_end);
	zone_init(ZONE_NORMAL, dma_end, last);
	zone_init(ZONE_MOVABLE, 0, 0);
	/* The struct pages were made with ZONE_NORMAL: put each frame in its zone. */
	for (unsigned long pfn = first; pfn < dma_end; pfn++) {
		struct page *page = pfn_to_page(pfn);
		if (page)
			set_page_links(page, ZONE_DMA, 0);
	}
	for (int i = 0; i < memblock_count(); i++) {
		const struct memblock_region *r = memblock_region(i);
		unsigned long s = PHYS_PFN(r->base + PAGE_SIZE - 1), e = PHYS_PFN(r->base + r->size);
		if (r->type != MEMBLOCK_USABLE) {
			/* memblock_alloc()s since memmap_init() (the pageblock tables above): their
			 * frames are reserved, like every other non-usable frame (Linux's
			 * reserve_bootmem_region()). */
			for (unsigned long pfn = PHYS_PFN(r->base); pfn < PHYS_PFN(r->base + r->size + PAGE_SIZE - 1); pfn++) {
				struct page *page = pfn_to_page(pfn);
				if (page && !PageReserved(page)) {
					atomic_set(&page->_refcount, 1);
					__SetPageReserved(page);
				}
			}
			continue;
		}
		unsigned long split = min(max(s, dma_end), e);
		free_range_to_buddy(&zones[ZONE_DMA], s, split);
		free_range_to_buddy(&zones[ZONE_NORMAL], split, e);
	}
	setup_watermarks();
	setup_lowmem_reserve();
	for (int i = 0; i < MAX_NR_ZONES; i++)
		pcp_init(&zones[i]);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		pcp_fast_of(cpu) = &pcp_off;
	preferred_zone = NULL;
	for (int i = MAX_NR_ZONES - 1; i >= 0 && !preferred_zone; i--)
		if (zones[i].managed_pages)
			preferred_zone = &zones[i];
	/* tinymm.page_poison is a boot parameter: fixed before this runs. */
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		pcp_fast_of(cpu) = preferred_zone && !page_poisoning_enabled ?
					 &preferred_zone->pcp[cpu] : &pcp_off;
	/* The running boot context's copy (smp.h: thread_set_cpu): the allocations before
	 * sched_init() use it; sched_init() sets init_task's, later tasks get theirs when they are
	 * switched to. */
	thread_set_cpu(current_thread_info(), smp_processor_id());
	_Static_assert(sizeof(struct thread_info) <= 64, "linker/kernel.ld.in: the boot thread_info's room");
	return 0;
}

