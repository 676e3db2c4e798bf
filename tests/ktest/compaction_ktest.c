/*
 * compaction_ktest.c - suite `compaction` (mm/compaction.c) on the live allocator, every board.
 * Each case builds a fragmented machine with mm/compaction_frag.c's fixture (all free memory
 * taken; in a window of free movable pageblocks every other frame a clean page-cache folio, the
 * frames between free), so no block of CP_ORDER (MAX_PAGE_ORDER - 1: order 9) is free anywhere
 * and such an allocation fails; then compaction runs (by hand, through the allocator's direct
 * compaction, or kcompactd) and the case checks that the allocation succeeds, that every
 * folio's bytes are exact at its index wherever it moved, that a folio held by an extra
 * reference (pinned) did not move and was counted (pgmigrate_fail), and that buddy_check() and
 * lru_check() find nothing wrong once the fixture is released.  A balloon's pages placed in the
 * window (mm/balloon_compaction.c, a device-less balloon) move too: compaction isolates them
 * (PG_isolated, seen by the balloon's migratepage), the balloon keeps its size, every page of
 * it still Offline and the balloon's.
 */
#include "tinymm/balloon_compaction.h"
#include "tinymm/compaction.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "../../mm/internal.h"

#define CP_ORDER	(MAX_PAGE_ORDER - 1)
#define CP_NOCOMPACT	(__GFP_MOVABLE | __GFP_NOWARN)	/* no reclaim, no compaction, no kswapd */

static struct folio *cp_pinned;		/* the extra reference a case holds, or NULL */

/* Any free block of @order or larger in any zone. */
static bool cp_free_block_of(unsigned int order)
{
	for (int zi = 0; zi < MAX_NR_ZONES; zi++)
		for (unsigned int o = order; o < NR_PAGE_ORDERS; o++)
			if (zones[zi].managed_pages && READ_ONCE(zones[zi].free_area[o].nr_free))
				return true;
	return false;
}

/* Pageblocks the window needs: enough free frames (half of each) for the low watermark plus
 * compaction's gap, twice over, and never less than 16 (the cache's own nodes and a
 * pinned folio spoil a few pageblocks). */
static unsigned long cp_window_blocks(const struct zone *z)
{
	unsigned long need = 2 * (z->_watermark[WMARK_LOW] + (2UL << CP_ORDER) +
				  z->lowmem_reserve[MAX_NR_ZONES - 1]);

	return max(16UL, need / (pageblock_nr_pages / 2) + 1);
}

/* The fixture, and the fragmentation is real: nothing of CP_ORDER free, an allocation fails. */
static bool cp_setup(struct ktest *t)
{
	unsigned long want = cp_window_blocks(preferred_zone);
	struct page *page;
	int err;

	cp_pinned = NULL;
	if (want * 2 > preferred_zone->managed_pages / pageblock_nr_pages) {
		ktest_skip(t, "zone too small for the window");
		return false;
	}
	err = fragment_zone(preferred_zone, want);
	if (err) {
		ktest_skip(t, err == -ENOSPC ? "not enough free movable pageblocks" : "no fixture");
		return false;
	}
	KTEST_EXPECT_EQ(t, fragment_nr_folios(), want * pageblock_nr_pages / 2);
	KTEST_EXPECT_FALSE(t, cp_free_block_of(CP_ORDER));
	page = alloc_pages(CP_NOCOMPACT, CP_ORDER);
	KTEST_EXPECT_TRUE(t, page == NULL);
	if (page) {
		__free_pages(page, CP_ORDER);
		fragment_release();
		return false;
	}
	return true;
}

static void cp_teardown(struct ktest *t)
{
	if (cp_pinned)
		folio_put(cp_pinned);
	cp_pinned = NULL;
	KTEST_EXPECT_EQ(t, fragment_release(), 0);
	KTEST_EXPECT_EQ(t, buddy_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
}

/* Every folio at its index with its bytes; how many moved. */
static unsigned long cp_check_data(struct ktest *t)
{
	unsigned long moved = 0;

	KTEST_EXPECT_EQ(t, fragment_check(&moved), 0);
	kprintf("    # %lu of %lu folios moved\n", moved, fragment_nr_folios());
	return moved;
}

/* compact_zone_order() by hand; a pinned folio on the lowest frame of the window stays put. */
static void compact_zone_makes_high_order_block(struct ktest *t)
{
	unsigned long fail0 = global_vm_event(PGMIGRATE_FAIL);
	unsigned long iso0 = global_vm_event(COMPACTISOLATED);
	unsigned long pin_pfn = 0, lowest = ~0UL;
	struct page *page;

	if (!cp_setup(t))
		return;
	for (unsigned long i = 0; i < fragment_nr_folios(); i++) {	/* compacted first */
		unsigned long pfn;
		struct folio *f = fragment_folio(i, &pfn);
		if (f && pfn < lowest) {
			lowest = pfn;
			if (cp_pinned)
				folio_put(cp_pinned);
			cp_pinned = f;
		} else if (f) {
			folio_put(f);
		}
	}
	KTEST_ASSERT_TRUE(t, cp_pinned != NULL);
	pin_pfn = page_to_pfn(&cp_pinned->page);
	enum compact_result r = compact_zone_order(preferred_zone, CP_ORDER, GFP_KERNEL | __GFP_MOVABLE,
						   COMPACT_PRIO_SYNC_LIGHT);
	KTEST_EXPECT_EQ(t, r, COMPACT_SUCCESS);
	KTEST_EXPECT_TRUE(t, cp_free_block_of(CP_ORDER));
	page = alloc_pages(CP_NOCOMPACT, CP_ORDER);
	KTEST_EXPECT_TRUE(t, page != NULL);
	if (page)
		__free_pages(page, CP_ORDER);
	KTEST_EXPECT_GT(t, cp_check_data(t), 0);
	/* Now a block is free: compaction_suitable() says so and nothing more moves. */
	unsigned long ok0 = global_vm_event(PGMIGRATE_SUCCESS);
	KTEST_EXPECT_EQ(t, compact_zone_order(preferred_zone, CP_ORDER, GFP_KERNEL | __GFP_MOVABLE,
					      COMPACT_PRIO_ASYNC), COMPACT_SUCCESS);
	KTEST_EXPECT_EQ(t, global_vm_event(PGMIGRATE_SUCCESS), ok0);
	/* The pinned folio did not move, is still the cache's, and its failure was counted. */
	KTEST_EXPECT_EQ(t, page_to_pfn(&cp_pinned->page), pin_pfn);
	KTEST_EXPECT_TRUE(t, fragment_folio_is_ours(cp_pinned));
	KTEST_EXPECT_GT(t, global_vm_event(PGMIGRATE_FAIL), fail0);
	KTEST_EXPECT_GT(t, global_vm_event(COMPACTISOLATED), iso0);
	cp_teardown(t);
}

/* The allocator's slow path compacts for a costly order by itself (compact_stall, _success). */
static void direct_compaction_in_slow_path(struct ktest *t)
{
	unsigned long stall0 = global_vm_event(COMPACTSTALL);
	unsigned long ok0 = global_vm_event(COMPACTSUCCESS);
	struct page *page;

	if (!cp_setup(t))
		return;
	page = alloc_pages(GFP_KERNEL | __GFP_MOVABLE | __GFP_NOWARN, CP_ORDER);
	KTEST_EXPECT_TRUE(t, page != NULL);
	if (page)
		__free_pages(page, CP_ORDER);
	KTEST_EXPECT_GT(t, global_vm_event(COMPACTSTALL), stall0);
	KTEST_EXPECT_GT(t, global_vm_event(COMPACTSUCCESS), ok0);
	cp_check_data(t);
	cp_teardown(t);
}

/* A failed costly allocation that may not compact itself wakes kswapd, which wakes kcompactd;
 * it makes the block in the background. */
static void kcompactd_woken_by_failed_allocation(struct ktest *t)
{
	unsigned long wake0 = global_vm_event(KCOMPACTD_WAKE);
	struct page *page;

	if (!cp_setup(t))
		return;
	page = alloc_pages(CP_NOCOMPACT | __GFP_KSWAPD_RECLAIM, CP_ORDER);
	KTEST_EXPECT_TRUE(t, page == NULL);
	if (page)
		__free_pages(page, CP_ORDER);
	/* Until the block is there or kcompactd is done (under -icount shift=10 a compaction
	 * takes tens of seconds of guest time; the bound only stops a hang). */
	for (int i = 0; i < 60000 && !cp_free_block_of(CP_ORDER); i++) {
		if (i >= 10 && kcompactd_idle())
			break;
		msleep(10);
	}
	KTEST_EXPECT_GT(t, global_vm_event(KCOMPACTD_WAKE), wake0);
	KTEST_EXPECT_TRUE(t, cp_free_block_of(CP_ORDER));
	page = alloc_pages(CP_NOCOMPACT, CP_ORDER);
	KTEST_EXPECT_TRUE(t, page != NULL);
	if (page)
		__free_pages(page, CP_ORDER);
	cp_check_data(t);
	cp_teardown(t);
}

/* compact_node() (the shell's `compact`) over the whole zone: nothing movable is left below
 * the free frames, so the window's pageblocks end up free but for what migration left. */
static void compact_node_whole_zone(struct ktest *t)
{
	struct compact_totals tot = { 0 };

	if (!cp_setup(t))
		return;
	compact_node(&tot);
	KTEST_EXPECT_GT(t, tot.migrated, 0);
	KTEST_EXPECT_TRUE(t, cp_free_block_of(CP_ORDER));
	KTEST_EXPECT_GE(t, tot.isolated, 2 * tot.migrated);	/* each folio and its frame */
	cp_check_data(t);
	cp_teardown(t);
}

/* ---- a balloon's pages move too ---- */

#define CP_BALLOON_PAGES	64
static struct balloon_dev_info cp_balloon;
static unsigned int cp_balloon_moves, cp_balloon_isolated_seen;

/* The driver's migratepage without a device (drivers/virtio_balloon.c's, less the requests;
 * one zone, so the managed count does not move). */
static int cp_balloon_migratepage(struct balloon_dev_info *b, struct page *newpage,
				  struct page *page, enum migrate_mode mode)
{
	unsigned long flags;

	(void)mode;
	if (PageIsolated(page))		/* isolate_movable_page() marked it */
		cp_balloon_isolated_seen++;
	get_page(newpage);		/* the balloon's reference */
	spin_lock_irqsave(&b->pages_lock, flags);
	balloon_page_insert(b, newpage);
	b->isolated_pages--;
	balloon_page_delete(page);
	spin_unlock_irqrestore(&b->pages_lock, flags);
	put_page(page);			/* the balloon's reference on the old frame */
	cp_balloon_moves++;
	return MIGRATEPAGE_SUCCESS;
}

/* Free order-0 frame @pfn off the buddy lists, prepared as an allocation (one reference), as
 * compaction's free scanner and compaction_alloc() take one; NULL if it is not such a frame. */
static struct page *cp_take_free_frame(unsigned long pfn)
{
	struct page *page = pfn_valid(pfn) ? pfn_to_page(pfn) : NULL;
	struct zone *z = page ? page_zone(page) : NULL;
	unsigned long flags, n = 0;

	if (!page)
		return NULL;
	spin_lock_irqsave(&z->lock, flags);
	if (PageBuddy(page) && buddy_order(page) == 0)
		n = __isolate_free_page(page, 0);
	spin_unlock_irqrestore(&z->lock, flags);
	if (!n)
		return NULL;
	page->private = 0;
	set_page_pcp_mt(page, pageblock_mt(z, pfn));
	if ((page_checks && !check_new_pages(page, 0)) ||
	    (page_poisoning_enabled && !check_poison_pages(page, 1)))
		return NULL;		/* bad: reported and leaked, as the allocator does */
	atomic_set(&page->_refcount, 1);
	return page;
}

static void balloon_pages_move(struct ktest *t)
{
	struct compact_totals tot = { 0 };
	unsigned long before[CP_BALLOON_PAGES], moved = 0, n = 0;
	struct page *page;

	if (!cp_setup(t))
		return;
	balloon_devinfo_init(&cp_balloon);
	cp_balloon.migratepage = cp_balloon_migratepage;
	cp_balloon_moves = cp_balloon_isolated_seen = 0;
	/* The balloon's pages are free frames of the window's lowest quarter, taken off the buddy
	 * lists as an allocation would take them (the allocator itself hands out the top of the
	 * window first, which the free scanner consumes before the scanners meet). */
	unsigned long lo = ~0UL, hi = 0, pfn;
	for (unsigned long i = 0; i < fragment_nr_folios(); i++) {
		struct folio *f = fragment_folio(i, &pfn);
		if (f)
			folio_put(f);
		lo = min(lo, pfn);
		hi = max(hi, pfn);
	}
	for (pfn = lo; n < CP_BALLOON_PAGES && pfn < lo + (hi - lo) / 4; pfn++) {
		page = cp_take_free_frame(pfn);
		if (page) {
			before[n++] = pfn;
			balloon_page_enqueue(&cp_balloon, page);
		}
	}
	KTEST_EXPECT_EQ(t, n, (unsigned long)CP_BALLOON_PAGES);
	compact_node(&tot);
	KTEST_EXPECT_GT(t, cp_balloon_moves, 0U);
	KTEST_EXPECT_EQ(t, cp_balloon_isolated_seen, cp_balloon_moves);
	KTEST_EXPECT_EQ(t, cp_balloon.nr_pages, n);
	KTEST_EXPECT_EQ(t, cp_balloon.isolated_pages, 0UL);
	KTEST_EXPECT_TRUE(t, cp_free_block_of(CP_ORDER));
	for (page = page_list_first(&cp_balloon.pages); page; page = page_list_next(page)) {
		bool was_there = false;

		KTEST_EXPECT_TRUE(t, PageBalloon(page) && balloon_page_device(page) == &cp_balloon);
		KTEST_EXPECT_FALSE(t, PageIsolated(page));
		for (unsigned long i = 0; i < n; i++)
			was_there |= before[i] == page_to_pfn(page);
		moved += !was_there;
	}
	KTEST_EXPECT_EQ(t, moved, (unsigned long)cp_balloon_moves);
	kprintf("    # %u of %lu balloon pages moved\n", cp_balloon_moves, n);
	while ((page = balloon_page_dequeue(&cp_balloon)))
		put_page(page);
	KTEST_EXPECT_EQ(t, cp_balloon.nr_pages, 0UL);
	cp_check_data(t);
	cp_teardown(t);
}

static const struct ktest_case compaction_cases[] = {
	KTEST_CASE(compact_zone_makes_high_order_block),
	KTEST_CASE(balloon_pages_move),
	KTEST_CASE(direct_compaction_in_slow_path),
	KTEST_CASE(kcompactd_woken_by_failed_allocation),
	KTEST_CASE(compact_node_whole_zone),
	{}
};
KTEST_SUITE(compaction, compaction_cases);
