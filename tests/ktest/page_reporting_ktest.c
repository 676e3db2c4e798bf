/*
 * page_reporting_ktest.c - suite `page_reporting` (mm/page_reporting.c) on the live allocator,
 * with a fake device that records every block report() gets, checks each is isolated, and can
 * fail or act while blocks are out; buddy_check() after every step.  The suite drives the passes
 * itself (nothing else runs them yet) and leaves no device and no PG_reported behind.
 * tests/host/page_reporting_test.c runs it on the host.
 */
#include "tinymm/errno.h"
#include "tinymm/gfp.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/page_reporting.h"
#include "../../mm/internal.h"

#define PR_ORDER	(MAX_PAGE_ORDER - 2)	/* the fake device's threshold: order-8 blocks and up */
#define PR_CAP		4			/* small, so a run takes several batches and passes */
#define PR_GFP		(__GFP_MOVABLE | __GFP_NOWARN)
#define MAX_RECORDS	2048

struct pr_record {
	unsigned long pfn;
	unsigned int order;
};
static struct pr_record records[MAX_RECORDS];
static unsigned int nr_records, nr_calls, max_nents, bad_blocks;
static int fail_with;				/* what report() returns */
static void (*during_report)(struct page_report_block *b, unsigned int n);

static int fake_report(struct page_reporting_dev_info *prdev, struct page_report_block *b,
		       unsigned int n)
{
	nr_calls++;
	max_nents = max(max_nents, n);
	for (unsigned int i = 0; i < n; i++) {
		struct page *p = b[i].page;
		/* Isolated: off the lists, not a buddy, unreported, aligned, big enough. */
		bad_blocks += !p || page_to_pfn(p) != b[i].pfn || PageBuddy(p) || PageReported(p) ||
			      page_ref_count(p) || b[i].order < page_reporting_order ||
			      (b[i].pfn & ((1UL << b[i].order) - 1));
		if (nr_records < MAX_RECORDS)
			records[nr_records] = (struct pr_record){ b[i].pfn, b[i].order };
		nr_records++;
	}
	if (during_report)
		during_report(b, n);
	return fail_with;
}

static struct page_reporting_dev_info fake_dev = { .report = fake_report, .order = PR_ORDER,
						   .capacity = PR_CAP };

static unsigned int times_recorded(unsigned long pfn, unsigned int order)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < min(nr_records, MAX_RECORDS); i++)
		n += records[i].pfn == pfn && records[i].order == order;
	return n;
}


/* Visit every free block on the buddy lists, list by list, each zone's lock held. */
typedef void visit_fn(struct zone *z, unsigned int order, struct page_list *l, struct page *p);

static void for_each_free_block(visit_fn *fn)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		unsigned long flags;
		if (!z->managed_pages)
			continue;
		spin_lock_irqsave(&z->lock, flags);
		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				struct page_list *l = &z->free_area[o].free_list[mt];
				for (struct page *p = page_list_first(l), *n; p; p = n) {
					n = page_list_next(p);
					fn(z, o, l, p);
				}
			}
		spin_unlock_irqrestore(&z->lock, flags);
	}
}

/* What count_blocks() finds ("big": order >= the threshold; none while no device). */
static unsigned long n_big, n_big_unreported, n_small_reported, n_tail_breaks, n_not_once;
static bool over_budget;		/* a list holds more unreported blocks than a pass takes */
static struct page_list *cur_list, *longest;
static struct zone *longest_zone;
static unsigned long run_len, list_len, longest_len;
static bool seen_reported;

static void tally(struct zone *z, unsigned int o, struct page_list *l, struct page *p)
{
	if (l != cur_list) {			/* a new list: reported blocks must form its tail */
		cur_list = l;
		seen_reported = false;
		run_len = list_len = 0;
	}
	if (o < page_reporting_order || page_reporting_order > MAX_PAGE_ORDER) {
		n_small_reported += PageReported(p);
		return;
	}
	n_big++;
	if (++list_len > longest_len) {
		longest_len = list_len;
		longest = l;
		longest_zone = z;
	}
	if (PageReported(p)) {
		seen_reported = true;
	} else {
		n_big_unreported++;
		n_tail_breaks += seen_reported;
		/* A pass takes at most budget + 1 batches from one list (Linux's budget). */
		unsigned long budget = (z->free_area[o].nr_free + PR_CAP * 16 - 1) / (PR_CAP * 16);
		over_budget |= ++run_len > (budget + 1) * PR_CAP;
	}
	n_not_once += times_recorded(page_to_pfn(p), o) != 1;
}

static void count_blocks(void)
{
	n_big = n_big_unreported = n_small_reported = n_tail_breaks = n_not_once = 0;
	longest_len = 0;
	over_budget = false;
	cur_list = NULL;
	for_each_free_block(tally);
}

static void unreport(struct zone *z, unsigned int o, struct page_list *l, struct page *p)
{ ClearPageReported(p); }

/* The kernel's pass driver (delayed work) and its device (a virtio-balloon, if the board has
 * one), kept aside while the suite drives passes by hand with its own device: there is one device
 * slot.  The last case puts both back. */
static void (*saved_schedule)(unsigned long delay_ms);
static struct page_reporting_dev_info *saved_dev;
static bool schedule_saved;

/* Start and end every case alike: no device, no PG_reported anywhere, the fake device reset,
 * no delayed work running passes behind the case's back. */
static void reset(void)
{
	if (!schedule_saved) {
		saved_schedule = page_reporting_schedule;
		saved_dev = page_reporting_device();
		schedule_saved = true;
		page_reporting_schedule = NULL;
		if (saved_dev)
			page_reporting_unregister(saved_dev);
		if (page_reporting_cancel_sync)		/* no pass of the worker's from here on */
			page_reporting_cancel_sync();
	}
	page_reporting_schedule = NULL;
	page_reporting_unregister(&fake_dev);
	fake_dev = (struct page_reporting_dev_info){ .report = fake_report, .order = PR_ORDER,
						     .capacity = PR_CAP };
	fail_with = 0;
	during_report = NULL;
	nr_records = nr_calls = max_nents = bad_blocks = 0;
	for_each_free_block(unreport);
}

#define run_all()	page_reporting_run(1000, NULL, NULL)

/* Blocks a case holds: a list through page->lru, the order in ->private (the owner's fields). */
static struct page_list held = { PAGE_LINK_NONE, PAGE_LINK_NONE };

static void hold(struct page *p, unsigned int order)
{
	p->private = order;
	page_list_add(&held, p);
}

static void release_all(void)
{
	for (struct page *p; (p = page_list_first(&held));) {
		unsigned int order = (unsigned int)p->private;
		page_list_del(&held, p);
		p->private = 0;
		__free_pages(p, order);
	}
}

/* An order-PR_ORDER block split off a bigger free one, so its buddy is free (others held). */
static struct page *alloc_split_block(void)
{
	for (int i = 0; i < 256; i++) {
		struct page *p = alloc_pages(PR_GFP, PR_ORDER);
		if (!p)
			return NULL;
		struct page *b = pfn_to_page(page_to_pfn(p) ^ (1UL << PR_ORDER));
		if (b && PageBuddy(b) && buddy_order(b) == PR_ORDER)
			return p;
		hold(p, PR_ORDER);
	}
	return NULL;
}

/* Ask for a pass the way the allocator does: free a block of the threshold order or more. */
static bool kick(void)
{
	struct page *p = alloc_pages(PR_GFP, MAX_PAGE_ORDER);

	__free_pages(p, MAX_PAGE_ORDER);		/* NULL: a no-op */
	return p && page_reporting_requested();
}

/* The free block holding @pfn (its order in *@order), or NULL. */
static struct page *free_block_of(unsigned long pfn, unsigned int *order)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct page *h = pfn_to_page(pfn & ~((1UL << o) - 1));
		if (h && PageBuddy(h) && buddy_order(h) >= o) {
			*order = buddy_order(h);
			return h;
		}
	}
	return NULL;
}

static void register_unregister(struct ktest *t)
{
	static struct page_reporting_dev_info other;

	other = (struct page_reporting_dev_info){ .report = fake_report };
	reset();
	KTEST_EXPECT_EQ(t, page_reporting_process(), 0);	/* no device: nothing to do */
	KTEST_EXPECT_EQ(t, run_all(), -ENOENT);
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	KTEST_EXPECT_EQ(t, page_reporting_order, PR_ORDER);
	KTEST_EXPECT_TRUE(t, page_reporting_notify_fn != NULL);
	KTEST_EXPECT_TRUE(t, page_reporting_requested());	/* the initial pass */
	KTEST_EXPECT_EQ(t, page_reporting_register(&other), -EBUSY);
	KTEST_EXPECT_EQ(t, page_reporting_register(&fake_dev), -EBUSY);
	page_reporting_unregister(&other);			/* not the device: no-op */
	KTEST_EXPECT_EQ(t, page_reporting_order, PR_ORDER);
	page_reporting_unregister(&fake_dev);
	KTEST_EXPECT_EQ(t, page_reporting_order, ~0u);
	KTEST_EXPECT_TRUE(t, page_reporting_notify_fn == NULL);
	KTEST_EXPECT_FALSE(t, page_reporting_requested());
	/* Order 0 or too big: pageblock_order (as Linux).  Capacity 0: PAGE_REPORTING_CAPACITY. */
	for (int i = 0; i < 2; i++) {
		other.order = i ? MAX_PAGE_ORDER + 1 : 0;
		KTEST_ASSERT_EQ(t, page_reporting_register(&other), 0);
		KTEST_EXPECT_EQ(t, page_reporting_order, pageblock_order);
		page_reporting_unregister(&other);
	}
	other.capacity = PAGE_REPORTING_CAPACITY + 1;
	KTEST_EXPECT_EQ(t, page_reporting_register(&other), -EINVAL);
	other.capacity = 0;
	other.report = NULL;
	KTEST_EXPECT_EQ(t, page_reporting_register(&other), -EINVAL);
	KTEST_EXPECT_EQ(t, page_reporting_register(NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, page_reporting_order, ~0u);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

static void every_block_reported_once(struct ktest *t)
{
	unsigned long free = nr_free_pages_and_pcp();
	int passes = 0;

	reset();
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	count_blocks();
	bool needs_passes = over_budget;
	KTEST_ASSERT_TRUE(t, n_big > 0);
	while (page_reporting_requested() && passes++ < 1000) {
		KTEST_EXPECT_GE(t, page_reporting_process(), 0);
		count_blocks();
		KTEST_EXPECT_EQ(t, n_tail_breaks, 0);	/* reported blocks at the tails */
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free);
		KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	}
	KTEST_EXPECT_EQ(t, n_big_unreported, 0);	/* every big block reported ... */
	KTEST_EXPECT_EQ(t, n_not_once, 0);		/* ... exactly once */
	KTEST_EXPECT_EQ(t, nr_records, n_big);
	KTEST_EXPECT_EQ(t, n_small_reported, 0);	/* nothing below the threshold */
	KTEST_EXPECT_EQ(t, bad_blocks, 0);
	KTEST_EXPECT_LE(t, max_nents, PR_CAP);
	KTEST_EXPECT_GE(t, nr_calls, (nr_records + PR_CAP - 1) / PR_CAP);
	if (needs_passes)			/* the budget held each pass back */
		KTEST_EXPECT_GT(t, passes, 1);
	reset();
}

/* Allocation clears PG_reported, so does a merge; the merged block is reported next pass. */
static void allocation_and_merge_clear_reported(struct ktest *t)
{
	unsigned long bad = nr_bad_pages;
	unsigned int o;

	reset();
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	KTEST_ASSERT_TRUE(t, run_all() > 0);
	count_blocks();
	KTEST_ASSERT_EQ(t, n_big_unreported, 0);	/* whatever is allocated was reported */
	struct page *a = alloc_split_block();
	KTEST_ASSERT_TRUE(t, a);
	KTEST_EXPECT_FALSE(t, PageReported(a));		/* the allocator cleared it ... */
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad);		/* ... so check_new_pages had no complaint */
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	/* The split's leftovers (the free blocks just above @a) went back unreported ... */
	for (o = PR_ORDER; o < MAX_PAGE_ORDER && !(page_to_pfn(a) & ((2UL << o) - 1)); o++) {
		struct page *h = pfn_to_page(page_to_pfn(a) + (1UL << o));
		if (!h || !PageBuddy(h) || buddy_order(h) != o)
			break;
		KTEST_EXPECT_FALSE(t, PageReported(h));
	}
	KTEST_EXPECT_FALSE(t, page_reporting_requested());	/* ... and wait for a big free */
	KTEST_ASSERT_TRUE(t, kick());
	KTEST_EXPECT_GT(t, run_all(), 0);
	struct page *b = pfn_to_page(page_to_pfn(a) ^ (1UL << PR_ORDER));
	KTEST_EXPECT_TRUE(t, PageReported(b));
	__free_pages(a, PR_ORDER);			/* merges with its reported buddy */
	KTEST_EXPECT_FALSE(t, PageReported(b));		/* the buddy's flag went with the merge */
	struct page *h = free_block_of(page_to_pfn(a), &o);
	KTEST_ASSERT_TRUE(t, h);
	KTEST_EXPECT_GT(t, o, PR_ORDER);
	KTEST_EXPECT_FALSE(t, PageReported(h));
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	KTEST_EXPECT_TRUE(t, page_reporting_requested());
	nr_records = 0;
	KTEST_EXPECT_GT(t, run_all(), 0);
	KTEST_EXPECT_EQ(t, nr_records, 1);		/* the merged block, and only it */
	KTEST_EXPECT_EQ(t, times_recorded(page_to_pfn(h), o), 1);
	KTEST_EXPECT_TRUE(t, PageReported(h));
	release_all();
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	reset();
}

/* While the victim's buddy is out being reported: allocate (must not get it), free the victim. */
static struct page *victim;
static unsigned int overlaps, hook_runs;

static void free_buddy_meanwhile(struct page_report_block *b, unsigned int n)
{
	unsigned long vb = page_to_pfn(victim) ^ (1UL << PR_ORDER);
	bool ours = false;

	for (unsigned int i = 0; i < n; i++)
		ours |= b[i].pfn == vb;
	if (!ours || hook_runs++)
		return;
	struct page *x = alloc_pages(PR_GFP, PR_ORDER);
	unsigned long xp = x ? page_to_pfn(x) : 0;
	for (unsigned int i = 0; x && i < n; i++)
		overlaps += xp < b[i].pfn + (1UL << b[i].order) && b[i].pfn < xp + (1UL << PR_ORDER);
	if (x)
		__free_pages(x, PR_ORDER);
	__free_pages(victim, PR_ORDER);		/* its buddy is isolated: no merge yet */
}

static void putback_merges_with_freed_buddy(struct ktest *t)
{
	unsigned int o;

	reset();
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	KTEST_ASSERT_TRUE(t, run_all() > 0);
	victim = alloc_split_block();
	KTEST_ASSERT_TRUE(t, victim);
	overlaps = hook_runs = 0;
	KTEST_ASSERT_TRUE(t, kick());
	during_report = free_buddy_meanwhile;
	KTEST_EXPECT_GT(t, page_reporting_process(), 0);
	during_report = NULL;
	KTEST_EXPECT_EQ(t, hook_runs, 1);
	KTEST_EXPECT_EQ(t, overlaps, 0);		/* isolated blocks are not handed out */
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	/* The buddy came back and merged with the victim: unreported, another pass asked for. */
	struct page *h = free_block_of(page_to_pfn(victim), &o);
	KTEST_ASSERT_TRUE(t, h);
	KTEST_EXPECT_GT(t, o, PR_ORDER);
	KTEST_EXPECT_FALSE(t, PageReported(h));
	KTEST_EXPECT_TRUE(t, page_reporting_requested());
	nr_records = 0;
	KTEST_EXPECT_GT(t, run_all(), 0);
	KTEST_EXPECT_EQ(t, times_recorded(page_to_pfn(h), o), 1);
	KTEST_EXPECT_TRUE(t, PageReported(h));
	count_blocks();
	KTEST_EXPECT_EQ(t, n_big_unreported, 0);
	KTEST_EXPECT_EQ(t, bad_blocks, 0);
	release_all();
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	reset();
}

/*
 * Unreported blocks behind reported ones (as a failed report or a merge queued at the tail leaves
 * them): a pass cut short by its budget leaves the unreported ones first (Linux's rotations).
 */
static void budget_leaves_unreported_first(struct ktest *t)
{
	unsigned long flags, i = 0;

	reset();
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	KTEST_ASSERT_TRUE(t, run_all() > 0);
	count_blocks();
	KTEST_ASSERT_TRUE(t, longest_len > 3 * PR_CAP + 2);
	spin_lock_irqsave(&longest_zone->lock, flags);
	for (struct page *p = page_list_first(longest); p; p = page_list_next(p))
		if (i++ >= 2)
			ClearPageReported(p);	/* two reported blocks, then unreported ones */
	spin_unlock_irqrestore(&longest_zone->lock, flags);
	count_blocks();
	KTEST_ASSERT_TRUE(t, over_budget);
	KTEST_ASSERT_TRUE(t, kick());
	KTEST_EXPECT_GT(t, page_reporting_process(), 0);
	KTEST_EXPECT_TRUE(t, page_reporting_requested());	/* the budget ran out */
	count_blocks();
	KTEST_EXPECT_GT(t, n_big_unreported, 0);
	KTEST_EXPECT_EQ(t, n_tail_breaks, 0);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	KTEST_EXPECT_GT(t, run_all(), 0);
	count_blocks();
	KTEST_EXPECT_EQ(t, n_big_unreported, 0);
	reset();
}

static void failed_report_leaves_blocks_unreported(struct ktest *t)
{
	unsigned long free = nr_free_pages_and_pcp();
	struct page_reporting_stats before, after;

	reset();
	page_reporting_get_stats(&before);
	fail_with = -EIO;
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	KTEST_EXPECT_EQ(t, page_reporting_process(), -EIO);
	KTEST_EXPECT_EQ(t, nr_calls, 1);		/* the pass stopped at the error */
	KTEST_EXPECT_GE(t, nr_records, 1);
	KTEST_EXPECT_LE(t, nr_records, PR_CAP);
	KTEST_EXPECT_FALSE(t, page_reporting_requested());	/* idle until the next big free */
	count_blocks();
	KTEST_EXPECT_EQ(t, n_big_unreported, n_big);	/* nothing marked */
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free);	/* everything back */
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	page_reporting_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.failed_blocks - before.failed_blocks, nr_records);
	KTEST_EXPECT_EQ(t, after.blocks, before.blocks);
	fail_with = 0;				/* the device recovers; the next big free ... */
	KTEST_ASSERT_TRUE(t, kick());
	KTEST_EXPECT_GT(t, run_all(), 0);	/* ... gets everything reported */
	count_blocks();
	KTEST_EXPECT_EQ(t, n_big_unreported, 0);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	reset();
}

/* Could a pass report from @z: above the low watermark by a batch, with a block big enough? */
static bool zone_reportable(struct zone *z)
{
	unsigned long big = 0;

	for (unsigned int o = PR_ORDER; o < NR_PAGE_ORDERS; o++)
		big += READ_ONCE(z->free_area[o].nr_free);
	return big && READ_ONCE(z->free_pages) > z->_watermark[WMARK_LOW] +
						  ((unsigned long)PR_CAP << PR_ORDER);
}

/*
 * A zone at its reporting watermark is skipped: the zone movable allocations come from first
 * (the highest with pages: ZONE_NORMAL on QEMU virt, ZONE_DMA on the Orange Pi PC, whose
 * dma-ranges cover all of RAM) is allocated down to it, and a pass reports none of its blocks,
 * while another zone still above its own watermark (with tinymm.zone_dma_limit, ZONE_DMA) is
 * reported as usual; with one zone the pass reports nothing at all.
 */
static void low_zone_is_skipped(struct ktest *t)
{
	struct zone *z = NULL;

	for (int i = MAX_NR_ZONES - 1; i >= 0 && !z; i--)
		if (zones[i].managed_pages)
			z = &zones[i];
	reset();
	KTEST_ASSERT_TRUE(t, z);
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	unsigned long wm = z->_watermark[WMARK_LOW] + ((unsigned long)PR_CAP << PR_ORDER);
	/* Allocate until the zone is at Linux's reporting watermark: low + a batch's worth. */
	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		while (READ_ONCE(z->free_pages) > wm) {
			struct page *p = alloc_pages(PR_GFP, (unsigned int)o);
			if (!p)
				break;
			hold(p, (unsigned int)o);
			if (page_zone(p) != z)
				break;
		}
	}
	KTEST_EXPECT_LE(t, z->free_pages, wm);
	KTEST_EXPECT_FALSE(t, zone_reportable(z));
	bool others = false;			/* what the pass must still report */
	for (int i = 0; i < MAX_NR_ZONES; i++)
		others |= &zones[i] != z && zones[i].managed_pages && zone_reportable(&zones[i]);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	KTEST_EXPECT_GE(t, run_all(), 1);
	KTEST_EXPECT_EQ(t, bad_blocks, 0);
	if (others)
		KTEST_EXPECT_GT(t, nr_records, 0);
	else
		KTEST_EXPECT_EQ(t, nr_records, 0);
	for (unsigned int i = 0; i < min(nr_records, MAX_RECORDS); i++)
		KTEST_EXPECT_TRUE(t, page_zone(pfn_to_page(records[i].pfn)) != z);
	KTEST_EXPECT_FALSE(t, page_reporting_requested());	/* skipped, not retried */
	release_all();				/* plenty free again: the frees ask for a pass */
	drain_all_pages(NULL);			/* small blocks back from the per-CPU lists too */
	KTEST_EXPECT_TRUE(t, page_reporting_requested());
	KTEST_EXPECT_TRUE(t, zone_reportable(z));
	nr_records = 0;
	KTEST_EXPECT_GT(t, run_all(), 0);
	bool from_z = false;			/* now z's blocks are reported */
	for (unsigned int i = 0; i < min(nr_records, MAX_RECORDS); i++)
		from_z |= page_zone(pfn_to_page(records[i].pfn)) == z;
	KTEST_EXPECT_TRUE(t, from_z);
	count_blocks();
	KTEST_EXPECT_EQ(t, n_big_unreported, 0);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	reset();
}

/* Unregister: Linux leaves PG_reported on the blocks still free; the allocator goes on as usual. */
static void unregister_keeps_flags(struct ktest *t)
{
	unsigned long bad = nr_bad_pages;

	reset();
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	KTEST_ASSERT_TRUE(t, run_all() > 0);
	count_blocks();
	unsigned long n = n_big - n_big_unreported;
	KTEST_EXPECT_GT(t, n, 0);
	page_reporting_unregister(&fake_dev);
	KTEST_EXPECT_EQ(t, page_reporting_order, ~0u);
	KTEST_EXPECT_TRUE(t, page_reporting_notify_fn == NULL);
	count_blocks();				/* no threshold now: every block counts as small */
	KTEST_EXPECT_EQ(t, n_small_reported, n);	/* the flags stay */
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	KTEST_EXPECT_EQ(t, page_reporting_process(), 0);
	struct page *a = alloc_pages(PR_GFP, PR_ORDER);
	KTEST_ASSERT_TRUE(t, a);
	KTEST_EXPECT_FALSE(t, PageReported(a));		/* still cleared on the way out */
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad);
	__free_pages(a, PR_ORDER);
	KTEST_EXPECT_FALSE(t, page_reporting_requested());
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	reset();
	count_blocks();
	KTEST_EXPECT_EQ(t, n_small_reported, 0);
}

/*
 * During a report, the batch's blocks are off the free lists: allocating everything the allocator
 * will give of the batch's order (up to a bound) never returns one of them.
 */
static unsigned int handed_out_twice;
static void allocate_during_report(struct page_report_block *b, unsigned int n)
{
	for (int i = 0; i < 64; i++) {
		struct page *p = alloc_pages(PR_GFP | __GFP_NOWARN, PR_ORDER);
		if (!p)
			break;
		for (unsigned int j = 0; j < n; j++)
			handed_out_twice += page_to_pfn(p) < b[j].pfn + (1UL << b[j].order) &&
					    b[j].pfn < page_to_pfn(p) + (1UL << PR_ORDER);
		hold(p, PR_ORDER);
	}
}

static void reported_block_not_handed_out(struct ktest *t)
{
	reset();
	handed_out_twice = 0;
	during_report = allocate_during_report;
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);
	KTEST_EXPECT_GE(t, run_all(), 1);
	KTEST_EXPECT_GT(t, nr_calls, 0U);
	KTEST_EXPECT_EQ(t, handed_out_twice, 0U);
	KTEST_EXPECT_EQ(t, bad_blocks, 0U);
	release_all();
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
	reset();
}

/*
 * The pacing, v6.10's: the first request from idle schedules a pass PAGE_REPORTING_DELAY_MS
 * later; more requests before it runs schedule nothing more; a pass that ends with a request
 * pending (its budget ran out) schedules the next one 2 s later.  Then the kernel's own driver
 * is put back (this is the suite's last case).
 */
static unsigned int nr_scheduled;
static unsigned long last_delay;
static void fake_schedule(unsigned long delay_ms)
{
	nr_scheduled++;
	last_delay = delay_ms;
}

static void pass_scheduled_after_delay(struct ktest *t)
{
	reset();
	nr_scheduled = 0;
	page_reporting_schedule = fake_schedule;
	KTEST_ASSERT_EQ(t, page_reporting_register(&fake_dev), 0);	/* the initial request */
	KTEST_EXPECT_EQ(t, nr_scheduled, 1U);
	KTEST_EXPECT_EQ(t, last_delay, (unsigned long)PAGE_REPORTING_DELAY_MS);
	KTEST_EXPECT_TRUE(t, kick());		/* already requested: nothing more */
	KTEST_EXPECT_EQ(t, nr_scheduled, 1U);
	/* Pass after pass; each one that stops on its budget asks for the next. */
	unsigned int passes = 0;
	while (page_reporting_requested() && passes < 1000) {
		unsigned int before = nr_scheduled;
		KTEST_EXPECT_GE(t, page_reporting_process(), 0);
		passes++;
		KTEST_EXPECT_EQ(t, nr_scheduled, before + (page_reporting_requested() ? 1U : 0U));
	}
	KTEST_EXPECT_FALSE(t, page_reporting_requested());
	KTEST_EXPECT_TRUE(t, kick());		/* idle -> requested: scheduled again */
	KTEST_EXPECT_EQ(t, last_delay, (unsigned long)PAGE_REPORTING_DELAY_MS);
	reset();
	page_reporting_schedule = saved_schedule;	/* the kernel's driver again */
	if (saved_dev)					/* and its device, with a fresh pass */
		KTEST_EXPECT_EQ(t, page_reporting_register(saved_dev), 0);
	schedule_saved = false;
}

static const struct ktest_case page_reporting_cases[] = {
	KTEST_CASE(register_unregister),
	KTEST_CASE(every_block_reported_once),
	KTEST_CASE(allocation_and_merge_clear_reported),
	KTEST_CASE(putback_merges_with_freed_buddy),
	KTEST_CASE(budget_leaves_unreported_first),
	KTEST_CASE(failed_report_leaves_blocks_unreported),
	KTEST_CASE(low_zone_is_skipped),
	KTEST_CASE(unregister_keeps_flags),
	KTEST_CASE(reported_block_not_handed_out),
	KTEST_CASE(pass_scheduled_after_delay),	/* last: restores the kernel's pass driver */
	{}
};
KTEST_SUITE(page_reporting, page_reporting_cases);
