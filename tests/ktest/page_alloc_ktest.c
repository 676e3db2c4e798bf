/*
 * page_alloc_ktest.c - suite `page_alloc`: the page allocator's rules that v6.10 states and a
 * test can pin, on every board and on the host (tests/host/page_alloc_test.c): the reserves
 * GFP_ATOMIC may use, __isolate_free_page()'s watermark and pageblock rules,
 * __putback_isolated_page()'s quiet return to the tail, folio_alloc()'s rmappable mark and what
 * MemFree counts.  Every case leaves the allocator as it found it; the watermark cases work with
 * interrupts masked, so nothing else allocates while a watermark is moved.
 */
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "../../mm/internal.h"

/* Linux's integer steps: __GFP_HIGH takes min - min/2, a non-blocking one a quarter off that. */
static void atomic_reserve_is_three_eighths_of_min(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, gfp_min_watermark(1000, GFP_ATOMIC), 375);
	KTEST_EXPECT_EQ(t, gfp_min_watermark(7, GFP_ATOMIC), 3);		/* 7-3=4, 4-1=3 */
	KTEST_EXPECT_EQ(t, gfp_min_watermark(1000, __GFP_HIGH | __GFP_DIRECT_RECLAIM), 500);
	KTEST_EXPECT_EQ(t, gfp_min_watermark(1000, GFP_ATOMIC | __GFP_NOMEMALLOC), 500);
	KTEST_EXPECT_EQ(t, gfp_min_watermark(1000, GFP_NOWAIT), 1000);	/* no __GFP_HIGH */
	KTEST_EXPECT_EQ(t, gfp_min_watermark(1000, GFP_KERNEL), 1000);
}

/*
 * The allocator itself: every zone's min raised to twice its free frames, so half of min is all
 * there is.  __GFP_HIGH alone (ALLOC_MIN_RESERVE) may not take the last of it; GFP_ATOMIC
 * (ALLOC_NON_BLOCK too) reaches a quarter deeper and gets a page.
 */
static void atomic_allocation_digs_deeper_than_high(struct ktest *t)
{
	void (*wakeup)(struct zone *, unsigned int, gfp_t) = reclaim_wakeup_hook;
	long (*reclaim)(gfp_t, unsigned int) = direct_reclaim_hook;
	unsigned long min[MAX_NR_ZONES], flags;

	reclaim_wakeup_hook = NULL;
	direct_reclaim_hook = NULL;
	local_irq_save(flags);
	drain_all_pages(NULL);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		min[i] = zones[i]._watermark[WMARK_MIN];
		zones[i]._watermark[WMARK_MIN] = 2 * zones[i].free_pages;
	}
	KTEST_EXPECT_GE(t, preferred_zone->free_pages, 4);
	struct page *high = alloc_page(__GFP_HIGH | __GFP_NOMEMALLOC | __GFP_NOWARN);
	struct page *atomic = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
	KTEST_EXPECT_TRUE(t, high == NULL);
	KTEST_EXPECT_TRUE(t, atomic != NULL);
	for (int i = 0; i < MAX_NR_ZONES; i++)
		zones[i]._watermark[WMARK_MIN] = min[i];
	if (high)
		__free_page(high);
	if (atomic)
		__free_page(atomic);
	drain_all_pages(NULL);
	local_irq_restore(flags);
	reclaim_wakeup_hook = wakeup;
	direct_reclaim_hook = reclaim;
}

/* The first free pageblock-sized block of @z, or NULL; zone->lock held. */
static struct page *free_pageblock(struct zone *z)
{
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		struct page *page = page_list_first(&z->free_area[pageblock_order].free_list[mt]);
		if (page)
			return page;
	}
	return NULL;
}

/*
 * __isolate_free_page() refuses at the min watermark (the zone must keep min + the block), and a
 * block of half a pageblock or more makes its pageblock MIGRATE_MOVABLE; back from isolation it
 * goes on the movable list, at the tail.
 */
static void isolate_free_page_as_v610(struct ktest *t)
{
	struct zone *z = preferred_zone;
	const unsigned int order = pageblock_order;
	unsigned long flags;

	spin_lock_irqsave(&z->lock, flags);
	struct page *page = free_pageblock(z);
	if (!page) {
		spin_unlock_irqrestore(&z->lock, flags);
		ktest_skip(t, "no free pageblock");
		return;
	}
	unsigned long pfn = page_to_pfn(page), min = z->_watermark[WMARK_MIN];
	unsigned long free = z->free_pages;
	int mt0 = pageblock_mt(z, pfn);

	if (mt0 != MIGRATE_UNMOVABLE)
		KTEST_EXPECT_TRUE(t, move_freepages_block(z, pfn, mt0, MIGRATE_UNMOVABLE));
	z->_watermark[WMARK_MIN] = free - (1UL << order);	/* free == min + block: refused */
	KTEST_EXPECT_EQ(t, __isolate_free_page(page, order), 0);
	KTEST_EXPECT_TRUE(t, PageBuddy(page));
	KTEST_EXPECT_EQ(t, z->free_pages, free);
	KTEST_EXPECT_EQ(t, pageblock_mt(z, pfn), MIGRATE_UNMOVABLE);
	z->_watermark[WMARK_MIN] = free - (1UL << order) - 1;	/* one frame above: taken */
	KTEST_EXPECT_EQ(t, __isolate_free_page(page, order), 1UL << order);
	KTEST_EXPECT_FALSE(t, PageBuddy(page));
	KTEST_EXPECT_EQ(t, z->free_pages, free - (1UL << order));
	KTEST_EXPECT_EQ(t, pageblock_mt(z, pfn), MIGRATE_MOVABLE);
	z->_watermark[WMARK_MIN] = min;
	__putback_isolated_page(page, order, false);
	KTEST_EXPECT_TRUE(t, PageBuddy(page));
	KTEST_EXPECT_EQ(t, z->free_pages, free);
	KTEST_EXPECT_TRUE(t, link_to_page(z->free_area[order].free_list[MIGRATE_MOVABLE].last) == page);
	if (mt0 != MIGRATE_MOVABLE)
		move_freepages_block(z, pfn, MIGRATE_MOVABLE, mt0);
	spin_unlock_irqrestore(&z->lock, flags);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

static unsigned long notified;
static void count_notify(void) { notified++; }

/* The free block holding @page (lists drained), or NULL. */
static struct page *head_of_free_block(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct page *h = pfn_to_page(pfn & ~((1UL << o) - 1));
		if (h && PageBuddy(h) && buddy_order(h) >= o)
			return h;
	}
	return NULL;
}

/*
 * A block back from isolation that merges with a buddy freed meanwhile: the merged block goes to
 * its list's tail and page reporting is not told (Linux: FPI_SKIP_REPORT_NOTIFY | FPI_TO_TAIL),
 * and it is not PG_reported (it is a new block).  Order 4, above the per-CPU lists' orders, so
 * the frees reach the buddy lists.
 */
static void putback_isolated_merges_quietly_to_tail(struct ktest *t)
{
	const unsigned int order = PAGE_ALLOC_COSTLY_ORDER + 1;
	struct page *pair = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order + 1);
	unsigned long flags;

	KTEST_ASSERT_TRUE(t, pair != NULL);
	struct page *a = pair, *b = pair + (1UL << order);
	struct zone *z = page_zone(a);
	atomic_set(&b->_refcount, 1);		/* split: each half freed on its own */
	__free_pages(a, order);
	spin_lock_irqsave(&z->lock, flags);
	KTEST_EXPECT_TRUE(t, PageBuddy(a) && buddy_order(a) == order);
	KTEST_EXPECT_EQ(t, __isolate_free_page(a, order), 1UL << order);
	spin_unlock_irqrestore(&z->lock, flags);
	__free_pages(b, order);			/* its buddy is out: no merge yet */

	spin_lock_irqsave(&z->lock, flags);
	unsigned int saved_order = page_reporting_order;
	void (*saved_fn)(void) = page_reporting_notify_fn;
	page_reporting_order = 0;
	page_reporting_notify_fn = count_notify;
	notified = 0;
	__putback_isolated_page(a, order, true);
	page_reporting_notify_fn = saved_fn;
	page_reporting_order = saved_order;
	struct page *head = head_of_free_block(a);
	KTEST_EXPECT_EQ(t, notified, 0);
	KTEST_ASSERT_TRUE(t, head != NULL);
	unsigned int o = buddy_order(head);
	int mt = pageblock_mt(z, page_to_pfn(head));
	KTEST_EXPECT_GT(t, o, order);		/* merged with b at least */
	KTEST_EXPECT_FALSE(t, PageReported(head));
	KTEST_EXPECT_TRUE(t, link_to_page(z->free_area[o].free_list[mt].last) == head);
	spin_unlock_irqrestore(&z->lock, flags);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

/* Linux's folio_alloc(): a large folio is marked rmappable; freeing it clears the mark. */
static void folio_alloc_large_is_rmappable(struct ktest *t)
{
	struct folio *folio = folio_alloc(GFP_KERNEL | __GFP_NOWARN, 2);

	KTEST_ASSERT_TRUE(t, folio != NULL);
	KTEST_EXPECT_TRUE(t, folio_test_large(folio));
	KTEST_EXPECT_TRUE(t, folio_test_large_rmappable(folio));
	struct page *page = &folio->page;
	folio_put(folio);
	KTEST_EXPECT_FALSE(t, page[1].flags & (1UL << PG_large_rmappable));
	/* A compound page from alloc_pages() is no folio of rmap's. */
	struct page *comp = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NOWARN, 2);
	KTEST_ASSERT_TRUE(t, comp != NULL);
	KTEST_EXPECT_FALSE(t, folio_test_large_rmappable(page_folio(comp)));
	__free_pages(comp, 2);
}

/*
 * MemFree and vmstat's nr_free_pages are Linux's NR_FREE_PAGES: the buddy lists' frames.  A
 * frame freed onto a per-CPU list is not in them until a drain returns it.
 */
static void memfree_leaves_out_per_cpu_lists(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	unsigned long flags;

	local_irq_save(flags);
	drain_all_pages(NULL);
	unsigned long free0 = nr_free_pages();
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);
	struct page *p = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
	KTEST_EXPECT_TRUE(t, p != NULL);
	if (p)
		__free_page(p);
	KTEST_EXPECT_GT(t, pcp_count(pcp), 0);
	KTEST_EXPECT_EQ(t, nr_free_pages() + (unsigned long)pcp_count(pcp), free0);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free0);
	local_irq_restore(flags);
}

/*
 * Linux's __free_pages(): a reference dropped that was not the last one.  On a non-compound
 * block whoever holds the first page holds only it (put_page() frees one frame), so the rest
 * goes back now; a compound block (a folio) stays whole with its holder.  Order 3 (the fast
 * path) and order 4 (the general one).
 */
static void free_pages_with_a_reference_left(struct ktest *t)
{
	static const unsigned int orders[] = { 3, 4 };

	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		unsigned int order = orders[i];
		drain_all_pages(NULL);
		unsigned long free0 = nr_free_pages_and_pcp();
		struct page *p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
		KTEST_ASSERT_TRUE(t, p != NULL);
		get_page(p);				/* someone else's reference */
		__free_pages(p, order);
		KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 - 1);	/* all but the first */
		put_page(p);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);

		struct folio *f = folio_alloc(GFP_KERNEL | __GFP_NOWARN, order);
		KTEST_ASSERT_TRUE(t, f != NULL);
		folio_get(f);
		__free_pages(&f->page, order);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 - (1UL << order));	/* whole */
		KTEST_EXPECT_TRUE(t, folio_test_large(f) && folio_order(f) == order);
		folio_put(f);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);
	}
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

static const struct ktest_case page_alloc_cases[] = {
	KTEST_CASE(atomic_reserve_is_three_eighths_of_min),
	KTEST_CASE(atomic_allocation_digs_deeper_than_high),
	KTEST_CASE(isolate_free_page_as_v610),
	KTEST_CASE(putback_isolated_merges_quietly_to_tail),
	KTEST_CASE(folio_alloc_large_is_rmappable),
	KTEST_CASE(memfree_leaves_out_per_cpu_lists),
	KTEST_CASE(free_pages_with_a_reference_left),
	{}
};
KTEST_SUITE(page_alloc, page_alloc_cases);
