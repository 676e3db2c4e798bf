/*
 * pcp_batch_ktest.c - suite `pcp_batch`: the per-CPU lists' worst case is bounded (mm/pcp.c).
 * No zone->lock hold of a bulk move between the per-CPU and the buddy lists moves more than
 * batch << pcp_batch_scale_max blocks, whatever tinymm.pcp_batch and tinymm.pcp_batch_scale_max
 * are: refills, drains at high, runs of high-order frees, drain_all_pages() and decay.  Each hold
 * is seen through pcp_zone_lock_watch.  Booted with several settings by tests/qemu/pcp_batch.cmake
 * and tests/host/pcp_batch_test.c; the cases that fill the lists past the bound by hand
 * (drain_all_pages, decay) fail if a path stops chunking.  Each case leaves the allocator as it
 * found it (frames, marks, lists drained).
 */
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "../../mm/internal.h"

#define GFP_BATCH_TEST	(GFP_NOWAIT | __GFP_NOWARN)

/* What the watch saw since pcp_watch_start(). */
static struct {
	int holds, most, blocks;	/* lock holds, the most blocks in one, blocks in all */
	int over;			/* holds past their own zone's bound */
	int unmasked;			/* watch calls with interrupts on (must be none) */
	int unpaired;			/* a release without a take, or two takes */
	bool open;
} seen;

static void pcp_batch_watch(struct zone *z, int moved)
{
	if (!irqs_disabled())
		seen.unmasked++;
	if (moved < 0) {
		seen.unpaired += seen.open;
		seen.open = true;
		return;
	}
	seen.unpaired += !seen.open;
	seen.open = false;
	seen.holds++;
	seen.over += moved > (z->pcp[0].batch << pcp_batch_scale_max);
	seen.most = max(seen.most, moved);
	seen.blocks += moved;
}

static void pcp_watch_start(void)
{
	seen.holds = seen.most = seen.blocks = seen.over = seen.unmasked = seen.unpaired = 0;
	seen.open = false;
	WRITE_ONCE(pcp_zone_lock_watch, pcp_batch_watch);
}

/* Stop watching; every hold within the bound, each taken and released with interrupts masked. */
static void pcp_watch_check(struct ktest *t, const struct per_cpu_pages *pcp)
{
	WRITE_ONCE(pcp_zone_lock_watch, NULL);
	KTEST_EXPECT_LE(t, seen.most, pcp->batch << pcp_batch_scale_max);
	KTEST_EXPECT_EQ(t, seen.over, 0);
	KTEST_EXPECT_EQ(t, seen.unmasked, 0);
	KTEST_EXPECT_EQ(t, seen.unpaired, 0);
	KTEST_EXPECT_FALSE(t, seen.open);
}

struct batch_saved {
	int high, high_min, high_max;
	unsigned char alloc_factor;
	unsigned long free;
};

static void batch_save(struct per_cpu_pages *pcp, struct batch_saved *s)
{
	drain_all_pages(NULL);
	*s = (struct batch_saved){ pcp->high, pcp->high_min, pcp->high_max, pcp->alloc_factor,
				   nr_free_pages() };
}

/* Marks by hand, the fast paths' counters brought up to date around the change. */
static void marks_set(struct per_cpu_pages *pcp, int high_min, int high, int high_max)
{
	pcp_refresh(pcp->zone);
	pcp->high_min = high_min;
	pcp->high = high;
	pcp->high_max = high_max;
	pcp_refresh(pcp->zone);
}

static void batch_restore(struct ktest *t, struct per_cpu_pages *pcp, const struct batch_saved *s)
{
	drain_all_pages(NULL);
	marks_set(pcp, s->high_min, s->high, s->high_max);
	pcp->alloc_factor = s->alloc_factor;
	KTEST_EXPECT_EQ(t, pcp_count(pcp), 0);
	KTEST_EXPECT_EQ(t, nr_free_pages(), s->free);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

/* Up to @n blocks of @order chained through ->private; the count in @got. */
static struct page *take(int n, unsigned int order, int *got)
{
	struct page *chain = NULL;

	for (*got = 0; *got < n; ++*got) {
		struct page *p = alloc_pages(GFP_BATCH_TEST, order);
		if (!p)
			break;
		p->private = (unsigned long)chain;
		chain = p;
	}
	return chain;
}

static void give_back(struct page *chain, unsigned int order)
{
	while (chain) {
		struct page *p = chain;
		chain = (struct page *)p->private;
		p->private = 0;
		__free_pages(p, order);
	}
}

/* Blocks for a case: @want, or what a quarter of the free memory holds. */
static int room_for(int want, unsigned int order)
{
	return (int)min((unsigned long)want, (nr_free_pages() / 4) >> order);
}

/* The boot parameters are in force: the batch is tinymm.pcp_batch's (or Linux's
 * zone_batchsize()), high_min at least four batches, the scale in 0..6. */
static void parameters_in_force(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];

	KTEST_EXPECT_EQ(t, pcp->batch, pcp_zone_batch(preferred_zone));
	if (pcp_batch_param)
		KTEST_EXPECT_EQ(t, pcp->batch, pcp_batch_param);
	KTEST_EXPECT_GE(t, pcp->batch, 1);
	KTEST_EXPECT_LE(t, pcp->batch, PCP_BATCH_LIMIT);
	KTEST_EXPECT_GE(t, pcp_batch_scale_max, 0);
	KTEST_EXPECT_LE(t, pcp_batch_scale_max, PCP_SCALE_LIMIT);
	KTEST_EXPECT_GE(t, pcp->high_min, 4 * pcp->batch);
	KTEST_EXPECT_LE(t, pcp->alloc_factor, pcp_batch_scale_max);
}

/*
 * A long run of order-0 allocations (each refill in a row doubles the next, up to batch << scale)
 * and then of frees (free_count grows, so each drain at high gives back more): every hold
 * within the bound, and the lists were refilled and drained at all.
 */
static void order0_runs_bounded(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	int bound = pcp->batch << pcp_batch_scale_max, n, got;
	struct batch_saved saved;

	batch_save(pcp, &saved);
	n = room_for(4 * bound + 2 * pcp->high_min, 0);
	pcp_watch_start();
	struct page *chain = take(n, 0, &got);
	pcp_watch_check(t, pcp);
	KTEST_EXPECT_EQ(t, got, n);
	KTEST_EXPECT_GT(t, seen.holds, 0);
	KTEST_EXPECT_LE(t, pcp->alloc_factor, pcp_batch_scale_max);
	/* The refills raised high (the zone is above its high watermark): back to high_min, so
	 * the frees reach it. */
	marks_set(pcp, saved.high_min, saved.high_min, saved.high_max);
	pcp_watch_start();
	give_back(chain, 0);
	pcp_watch_check(t, pcp);
	KTEST_EXPECT_GT(t, seen.holds, 0);
	KTEST_EXPECT_LE(t, pcp->free_count, bound);
	batch_restore(t, pcp, &saved);
}

/* Order-3 frees in a row drain all but a batch at each (free_high): within the bound too. */
static void order3_runs_bounded(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	struct batch_saved saved;
	int got;

	batch_save(pcp, &saved);
	int n = room_for(2 * (pcp->batch << pcp_batch_scale_max) + 64, 3);
	pcp_watch_start();
	struct page *chain = take(n, 3, &got);
	give_back(chain, 3);
	pcp_watch_check(t, pcp);
	KTEST_EXPECT_EQ(t, got, n);
	KTEST_EXPECT_GT(t, seen.holds, 0);
	batch_restore(t, pcp, &saved);
}

/* @n order-0 frames onto the lists, high raised by hand so no free drains them. */
static int fill_lists(struct ktest *t, struct per_cpu_pages *pcp, int n)
{
	int got;
	struct page *chain = take(n, 0, &got);

	int high = n + 2 * (pcp->batch << pcp_batch_scale_max);	/* past what the refills left */

	marks_set(pcp, high, high, high);
	give_back(chain, 0);
	KTEST_EXPECT_EQ(t, got, n);
	return pcp_count(pcp);
}

/*
 * drain_all_pages() of lists holding more than batch << scale frames: chunks of at most that
 * many, every frame back, in at least count / bound holds (one hold would break the bound).
 */
static void drain_all_in_chunks(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	int bound = pcp->batch << pcp_batch_scale_max;
	struct batch_saved saved;

	batch_save(pcp, &saved);
	int n = room_for(3 * bound + 1, 0);
	int count = fill_lists(t, pcp, n);
	KTEST_EXPECT_GT(t, count, bound);
	pcp_watch_start();
	drain_all_pages(NULL);
	pcp_watch_check(t, pcp);
	KTEST_EXPECT_EQ(t, pcp_count(pcp), 0);
	KTEST_EXPECT_EQ(t, seen.blocks, count);
	KTEST_EXPECT_GE(t, seen.holds, (count + bound - 1) / bound);
	batch_restore(t, pcp, &saved);
}

/*
 * decay_pcp_high() with the lists far above a high lowered by hand: at most batch << scale
 * blocks a call, "more to do" until the count is down to high.
 */
static void decay_in_chunks(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	int bound = pcp->batch << pcp_batch_scale_max, calls = 0;
	struct batch_saved saved;
	unsigned long flags;

	batch_save(pcp, &saved);
	int count = fill_lists(t, pcp, room_for(3 * bound + 1, 0));
	KTEST_EXPECT_GT(t, count, bound + pcp->batch);
	local_irq_save(flags);		/* no decay from the vmstat work between */
	marks_set(pcp, pcp->batch, pcp->batch, pcp->batch);
	pcp_watch_start();
	while (pcp_count(pcp) > pcp->high && calls < count) {
		int before = pcp_count(pcp);
		KTEST_EXPECT_TRUE(t, decay_pcp_high_all());
		KTEST_EXPECT_LE(t, before - pcp_count(pcp), bound);
		calls++;
	}
	pcp_watch_check(t, pcp);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, pcp_count(pcp), pcp->batch);
	KTEST_EXPECT_GE(t, calls, (count - pcp->batch + bound - 1) / bound);
	batch_restore(t, pcp, &saved);
}

/* A refill asked for more than the bound (a hand-set alloc_factor past the scale) gets the bound. */
static void refill_capped(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	int bound = pcp->batch << pcp_batch_scale_max;
	struct batch_saved saved;
	unsigned long flags;

	batch_save(pcp, &saved);
	int big = room_for(4 * bound + 4 * pcp->batch, 0);
	local_irq_save(flags);
	marks_set(pcp, big, big, big);
	pcp->alloc_factor = (unsigned char)(pcp_batch_scale_max + 2);
	pcp_watch_start();
	struct page *p = alloc_page(GFP_BATCH_TEST);
	pcp_watch_check(t, pcp);
	local_irq_restore(flags);
	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_EQ(t, seen.holds, 1);
	KTEST_EXPECT_LE(t, pcp_count(pcp) + 1, bound);
	__free_page(p);
	batch_restore(t, pcp, &saved);
}

static const struct ktest_case pcp_batch_cases[] = {
	KTEST_CASE(parameters_in_force),
	KTEST_CASE(order0_runs_bounded),
	KTEST_CASE(order3_runs_bounded),
	KTEST_CASE(drain_all_in_chunks),
	KTEST_CASE(decay_in_chunks),
	KTEST_CASE(refill_capped),
	{}
};
KTEST_SUITE(pcp_batch, pcp_batch_cases);
