/*
 * page_alloc.c - the buddy allocator: zones, free lists per order and migratetype, split on
 * allocation, merge on free, bad-page checks (Linux v6.10's mm/page_alloc.c, in miniature).
 *
 * alloc_pages(gfp, order) -> zonelist walk (DMA only for __GFP_DMA, else NORMAL then DMA) ->
 * rmqueue(): the smallest free block of the wanted migratetype, else a fallback type's largest
 * (stealing its pageblock when the block is big) -> expand(): split down to @order, halves back
 * on the free lists -> check_new_pages() -> the page, refcount 1.
 * __free_pages() -> refcount to 0 -> free_pages_prepare() (bad-page checks) -> __free_one_page():
 * merge with the buddy while it is free and of the same order, then onto a free list.
 *
 * Invariants (buddy_check() verifies them all): a free block is 2^order frames, aligned to its
 * size, inside one zone, its head PageBuddy with the order in ->private and on exactly the list
 * free_area[order].free_list[pageblock migratetype]; its other frames are untyped with refcount
 * 0; no two free buddies of one order coexist (merging is maximal); zone->free_pages and every
 * nr_free match the lists.  Locking: zone->lock (irqsave) guards all of it.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/gfp.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "internal.h"

struct zone zones[MAX_NR_ZONES];
int nr_zones;
static const char *const zone_names[MAX_NR_ZONES] = { "DMA", "Normal", "Movable" };
static phys_addr_t zone_dma_limit;	/* tinymm.zone_dma_limit: ZONE_DMA below it; 0: none */
bool page_checks = true;		/* tinymm.check_pages */
unsigned long nr_bad_pages;		/* frames leaked by bad_page() */
bool kernel_tainted_bad_page;

static int set_check_pages(const char *v)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return -1;
	page_checks = v[0] == '1';
	return 0;
}
KPARAM(check_pages, set_check_pages, "1 (default): bad-page checks on every alloc and free; 0: off");

static int set_zone_dma_limit(const char *v)
{
	unsigned long long x;

	if (kstrtoull(v, &x) || x & (PAGE_SIZE - 1))
		return -1;
	zone_dma_limit = x;
	return 0;
}
KPARAM(zone_dma_limit, set_zone_dma_limit, "physical address: frames below it form ZONE_DMA");

struct zone *page_zone(const struct page *page)
{
	return &zones[page_zonenum(page)];
}

/* Pageblocks are numbered from the one holding the zone's first frame. */
static inline unsigned long pageblock_index(const struct zone *z, unsigned long pfn)
{
	return (pfn >> pageblock_order) - (z->zone_start_pfn >> pageblock_order);
}

int get_pageblock_migratetype(const struct zone *z, unsigned long pfn)
{
	return z->pageblock_mt[pageblock_index(z, pfn)];
}

static inline void set_pageblock_migratetype(struct zone *z, unsigned long pfn, int mt)
{
	z->pageblock_mt[pageblock_index(z, pfn)] = (unsigned char)mt;
}

static inline void set_buddy_order(struct page *page, unsigned int order)
{
	page->private = order;
	__SetPageBuddy(page);
}

static inline void add_to_free_list(struct page *page, struct zone *z, unsigned int order, int mt,
				    bool tail)
{
	struct free_area *area = &z->free_area[order];

	if (tail)
		page_list_add_tail(&area->free_list[mt], page);
	else
		page_list_add(&area->free_list[mt], page);
	area->nr_free++;
}

static inline void del_page_from_free_list(struct page *page, struct zone *z, unsigned int order,
					   int mt)
{
	page_list_del(&z->free_area[order].free_list[mt], page);
	__ClearPageBuddy(page);
	ClearPageReported(page);	/* a block leaving the free lists is no longer reported */
	page->private = 0;
	z->free_area[order].nr_free--;
}

/* The free buddy of @pfn at @order, or NULL: it must exist, be in the zone and free at @order. */
static struct page *find_buddy_page(struct zone *z, unsigned long pfn, unsigned int order,
				    unsigned long *buddy_pfn)
{
	unsigned long b = pfn ^ (1UL << order);
	struct page *buddy;

	if (!zone_spans_pfn(z, b))
		return NULL;
	buddy = pfn_to_page(b);
	if (!buddy || !PageBuddy(buddy) || buddy_order(buddy) != order || page_zone(buddy) != z)
		return NULL;
	*buddy_pfn = b;
	return buddy;
}

/* Free the block at @pfn; zone->lock held.  Merges while the buddy is free (v6.10: same name). */
static void __free_one_page(struct page *page, unsigned long pfn, struct zone *z, unsigned int order,
			    int mt)
{
	unsigned long buddy_pfn;
	struct page *buddy;

	z->free_pages += 1UL << order;
	while (order < MAX_PAGE_ORDER) {
		buddy = find_buddy_page(z, pfn, order, &buddy_pfn);
		if (!buddy)
			break;
		del_page_from_free_list(buddy, z, order, get_pageblock_migratetype(z, buddy_pfn));
		pfn &= buddy_pfn;		/* the lower of the two heads the merged block */
		page = pfn_to_page(pfn);
		order++;
	}
	set_buddy_order(page, order);
	/* If the next-larger block could merge later, put this one at the tail (v6.10's heuristic:
	 * it is likely to be merged, so hand out other blocks first); reported blocks go last too. */
	bool tail = false;
	if (order < MAX_PAGE_ORDER - 1) {
		unsigned long hp = pfn & ~((2UL << order) - 1);
		tail = find_buddy_page(z, hp, order + 1, &buddy_pfn) != NULL;
	}
	add_to_free_list(page, z, order, mt, tail);
}

/* Split a 2^high block at @page down to 2^low: the upper halves go back on the free lists. */
static void expand(struct zone *z, struct page *page, unsigned long pfn, unsigned int low,
		   unsigned int high, int mt)
{
	while (high > low) {
		high--;
		unsigned long size = 1UL << high;
		struct page *half = pfn_to_page(pfn + size);
		set_buddy_order(half, high);
		add_to_free_list(half, z, high, mt, false);
	}
}

/* Linux's fallback order (v6.10 fallbacks[]): which other free lists a type may borrow from. */
static const int fallbacks[MIGRATE_TYPES][MIGRATE_TYPES - 1] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
};

/* Move every free block of @block (a pageblock) onto @mt's lists and retype the block. */
static void steal_pageblock(struct zone *z, unsigned long pfn, int old_mt, int mt)
{
	unsigned long start = pfn & ~(pageblock_nr_pages - 1), end = start + pageblock_nr_pages;

	for (unsigned long p = max(start, z->zone_start_pfn); p < end && p < zone_end_pfn(z);) {
		struct page *page = pfn_to_page(p);
		if (page && PageBuddy(page)) {
			unsigned int o = buddy_order(page);
			page_list_del(&z->free_area[o].free_list[old_mt], page);
			page_list_add(&z->free_area[o].free_list[mt], page);
			p += 1UL << o;
		} else {
			p++;
		}
	}
	set_pageblock_migratetype(z, start, mt);
}

/* Take a 2^order block of type @mt from @z, splitting as needed; zone->lock held.  NULL if none. */
static struct page *rmqueue(struct zone *z, unsigned int order, int mt)
{
	unsigned int o;
	struct page *page;

	for (o = order; o < NR_PAGE_ORDERS; o++) {
		page = page_list_first(&z->free_area[o].free_list[mt]);
		if (page)
			goto found;
	}
	/* Fallback: the largest block of another type, as v6.10's __rmqueue_fallback looks first
	 * for big blocks (they leave the least fragmentation behind). */
	for (int cur = MAX_PAGE_ORDER; cur >= (int)order; cur--) {
		for (int i = 0; i < MIGRATE_TYPES - 1; i++) {
			int fmt = fallbacks[mt][i];
			page = page_list_first(&z->free_area[cur].free_list[fmt]);
			if (!page)
				continue;
			o = (unsigned int)cur;
			/* Claim the whole pageblock when the block is at least half of it. */
			if (o >= pageblock_order / 2)
				steal_pageblock(z, page_to_pfn(page), fmt, mt);
			else
				mt = fmt;	/* borrow one block, leave the pageblock's type alone */
			goto found;
		}
	}
	return NULL;
found:;
	unsigned long pfn = page_to_pfn(page);
	del_page_from_free_list(page, z, o, mt);
	expand(z, page, pfn, order, o, mt);
	z->free_pages -= 1UL << order;
	return page;
}

/* ---- bad pages ---- */

/* Flags no page may carry into the allocator's hands (v6.10's PAGE_FLAGS_CHECK_AT_FREE). */
#define PAGE_FLAGS_CHECK_AT_FREE							\
	(1UL << PG_lru | 1UL << PG_locked | 1UL << PG_private | 1UL << PG_private_2 |	\
	 1UL << PG_writeback | 1UL << PG_reserved | 1UL << PG_active |			\
	 1UL << PG_unevictable | 1UL << PG_mlocked)
/* ... and none at all when handed out, but HWPoison (v6.10's PAGE_FLAGS_CHECK_AT_PREP). */
#define PAGE_FLAGS_CHECK_AT_PREP	(PAGEFLAGS_MASK & ~(1UL << PG_hwpoison))

/*
 * Report and leak a bad page (v6.10's bad_page()): the frame is never handed out again and the
 * kernel keeps running, tainted.
 */
static void bad_page(struct page *page, const char *reason)
{
	printk(KERN_ALERT "BUG: Bad page state in process swapper  pfn:%05lx\n", page_to_pfn(page));
	dump_page(page, reason);
	if (!kernel_tainted_bad_page)
		printk(KERN_ALERT "Disabling lock debugging due to kernel taint\n");
	kernel_tainted_bad_page = true;
	nr_bad_pages++;
	/* Leave a mark no later check mistakes for a good page: typed as nothing, never free. */
	atomic_set(&page->_mapcount, -1);
}

static const char *page_bad_reason(const struct page *page, unsigned long flags)
{
	if (page_type_has_type(page->page_type) && !PageBuddy(page))
		return "nonzero mapcount";
	if (PageBuddy(page))
		return "already free (PageBuddy): double free";
	if (atomic_read(&page->_mapcount) != -1)
		return "nonzero mapcount";
	if (page->mapping)
		return "non-NULL mapping";
	if (atomic_read(&page->_refcount) != 0)
		return "nonzero _refcount";
	if (page->flags & flags) {
		if (flags == PAGE_FLAGS_CHECK_AT_PREP)
			return "PAGE_FLAGS_CHECK_AT_PREP flag(s) set";
		return "PAGE_FLAGS_CHECK_AT_FREE flag(s) set";
	}
	return NULL;
}

/* true if the page is fit to be freed; otherwise it was reported and must be leaked. */
static bool free_page_is_good(struct page *page)
{
	const char *why = page_bad_reason(page, PAGE_FLAGS_CHECK_AT_FREE);

	if (likely(!why))
		return true;
	bad_page(page, why);
	return false;
}

/*
 * v6.10's free_pages_prepare(): check every frame of the block, clear the flags a free page
 * must not keep, undo the compound set-up.  false: something was bad, leak the whole block.
 */
static bool free_pages_prepare(struct page *page, unsigned int order)
{
	bool good = true;

	if (PageHWPoison(page) && !order) {
		/* An order-0 HWPoison frame is kept out quietly (v6.10 does the same). */
		page->flags &= ~PAGEFLAGS_MASK | (1UL << PG_hwpoison);
		return false;
	}
	if (PageTail(page)) {
		bad_page(page, "freeing a tail page");
		return false;
	}
	if (order) {
		bool compound = PageHead(page);
		for (unsigned long i = 1; i < (1UL << order); i++) {
			struct page *p = page + i;
			if (compound) {
				if (compound_head(p) != page) {
					bad_page(p, "corrupted mapping in compound page");
					good = false;
				}
				clear_compound_head(p);
			}
			if (page_checks && !free_page_is_good(p))
				good = false;
			p->flags &= ~PAGEFLAGS_MASK;
		}
		if (compound) {
			((struct folio *)page)->_flags_1 &= ~0xffUL;
			page->flags &= ~(1UL << PG_head);
		}
	}
	if (page_checks && !free_page_is_good(page))
		good = false;
	page->flags &= ~PAGEFLAGS_MASK;
	return good;
}

/* v6.10's check_new_pages(): false if a frame was bad (then it is reported and leaked). */
static bool check_new_pages(struct page *page, unsigned int order)
{
	bool good = true;

	for (unsigned long i = 0; i < (1UL << order); i++) {
		const char *why = page_bad_reason(page + i, PAGE_FLAGS_CHECK_AT_PREP);
		if (why) {
			bad_page(page + i, why);
			good = false;
		}
	}
	return good;
}

/* ---- allocation and freeing ---- */

static inline int gfp_migratetype(gfp_t gfp)
{
	if (gfp & __GFP_MOVABLE)
		return MIGRATE_MOVABLE;
	if (gfp & __GFP_RECLAIMABLE)
		return MIGRATE_RECLAIMABLE;
	return MIGRATE_UNMOVABLE;
}

static bool zone_watermark_ok(const struct zone *z, unsigned int order, gfp_t gfp)
{
	unsigned long min = z->_watermark[WMARK_MIN];

	if (gfp & __GFP_HIGH)
		min /= 2;		/* GFP_ATOMIC may dig into the reserve (v6.10: ALLOC_MIN_RESERVE) */
	return z->free_pages >= (1UL << order) + min;
}

unsigned long nr_alloc_failures;

static void warn_alloc(gfp_t gfp, unsigned int order)
{
	nr_alloc_failures++;
	if (gfp & __GFP_NOWARN)
		return;
	printk(KERN_WARNING "swapper: page allocation failure: order:%u, mode:%#x\n", order, gfp);
	show_buddyinfo(printk);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	int mt = gfp_migratetype(gfp);
	struct page *page = NULL;

	if (order > MAX_PAGE_ORDER) {
		WARN_ON_ONCE(!(gfp & __GFP_NOWARN));
		return NULL;
	}
	/* The zonelist: DMA only for __GFP_DMA; otherwise the highest zone first, DMA last. */
	int top = (gfp & __GFP_DMA) ? ZONE_DMA : MAX_NR_ZONES - 1;
	for (int zi = top; zi >= 0 && !page; zi--) {
		struct zone *z = &zones[zi];
		unsigned long flags;
		if (!z->managed_pages)
			continue;
		spin_lock_irqsave(&z->lock, flags);
		while (zone_watermark_ok(z, order, gfp)) {
			page = rmqueue(z, order, mt);
			if (!page || !page_checks || check_new_pages(page, order))
				break;
			page = NULL;		/* a bad block was reported and leaked: try another */
		}
		spin_unlock_irqrestore(&z->lock, flags);
	}
	if (!page) {
		warn_alloc(gfp, order);
		return NULL;
	}
	atomic_set(&page->_refcount, 1);
	if (order && (gfp & __GFP_COMP))
		prep_compound_page(page, order);
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	return page;
}

/* The last reference is gone: give the block back (v6.10's free_the_page path). */
static void free_the_page(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), flags;
	struct zone *z = page_zone(page);

	if (!free_pages_prepare(page, order))
		return;			/* bad: reported, leaked */
	spin_lock_irqsave(&z->lock, flags);
	__free_one_page(page, pfn, z, order, get_pageblock_migratetype(z, pfn));
	spin_unlock_irqrestore(&z->lock, flags);
}

void __free_pages(struct page *page, unsigned int order)
{
	if (!page)
		return;
	if (order > MAX_PAGE_ORDER) {
		bad_page(page, "freeing a block of an impossible order");
		return;
	}
	if (atomic_read(&page->_refcount) <= 0) {
		/* Already free (double free) or never allocated: report, change nothing. */
		bad_page(page, PageBuddy(page) ? "double free: block is already free" :
			 "freeing a page with refcount 0");
		return;
	}
	if (atomic_dec_and_test(&page->_refcount))
		free_the_page(page, order);
}

unsigned long nr_mlock_cleared;

void folio_put(struct folio *folio)
{
	if (!atomic_dec_and_test(&folio->_refcount))
		return;
	/* The release path clears PG_mlocked quietly and counts it (v6.10: __folio_put ->
	 * mlock_drain... NR_MLOCK / "mlock_cleared"); a bare __free_pages of it is a bad page. */
	if (folio_test_mlocked(folio)) {
		__folio_clear_mlocked(folio);
		nr_mlock_cleared++;
	}
	free_the_page(&folio->page, folio_order(folio));
}

struct folio *folio_alloc(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp | (order ? __GFP_COMP : 0), order);

	return (struct folio *)page;
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page((void *)addr), order);
}

/* ---- boot: zones, then every usable frame into the free lists ---- */

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

/* v6.10's init_per_zone_wmark_min() and __setup_per_zone_wmarks(), with its default scale. */
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
	while (s < e) {
		unsigned int order = MAX_PAGE_ORDER;
		while (order && ((s & ((1UL << order) - 1)) || s + (1UL << order) > e))
			order--;
		struct page *page = pfn_to_page(s);
		__free_one_page(page, s, z, order, get_pageblock_migratetype(z, s));
		z->managed_pages += 1UL << order;
		s += 1UL << order;
	}
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
			 * frames are reserved, like every other non-usable frame (v6.10's
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
	return 0;
}

unsigned long nr_free_pages(void)
{
	unsigned long n = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		n += READ_ONCE(zones[i].free_pages);
	return n;
}

unsigned long totalram_pages(void)
{
	unsigned long n = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		n += zones[i].managed_pages;
	return n;
}

/* @size bytes of whole frames, the unused tail of the power-of-two block given back (v6.10). */
void *alloc_pages_exact(size_t size, gfp_t gfp)
{
	unsigned long nr = (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	unsigned int order = 0;

	while ((1UL << order) < nr)
		order++;
	if (!size || order > MAX_PAGE_ORDER)
		return NULL;
	struct page *page = alloc_pages(gfp & ~__GFP_COMP, order);
	if (!page)
		return NULL;
	/* Split into order-0 frames with a reference each; free those past @size. */
	for (unsigned long i = 1; i < (1UL << order); i++)
		atomic_set(&page[i]._refcount, 1);
	for (unsigned long i = nr; i < (1UL << order); i++)
		__free_pages(page + i, 0);
	return page_address(page);
}

void free_pages_exact(void *virt, size_t size)
{
	struct page *page = virt_to_page(virt);

	for (unsigned long i = 0; i < (size + PAGE_SIZE - 1) >> PAGE_SHIFT; i++)
		__free_pages(page + i, 0);
}
