/*
 * pcp_ktest.c - suite `pcp`: the per-CPU lists' sizing, tuning and draining as v6.10's (mm/pcp.c)
 * on every board and on the host (tests/host/pcp_test.c).  Each case drains the lists first,
 * sets the marks it needs by hand where Linux's tuning would take many steps to get there, and
 * puts the pcp and the zone flags back; the allocator is left as it was found (frames and
 * buddyinfo, lists drained).
 */
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "../../mm/internal.h"

/* Some cases allocate with interrupts masked (so decay's work cannot run between): no sleeping. */
#define GFP_PCP_TEST	(GFP_NOWAIT | __GFP_NOWARN)

struct pcp_saved {
	int high, high_min, high_max;
	unsigned long zone_flags, free;
};

static void pcp_save(struct per_cpu_pages *pcp, struct pcp_saved *s)
{
	drain_all_pages(NULL);
	*s = (struct pcp_saved){ pcp->high, pcp->high_min, pcp->high_max, pcp->zone->flags,
				 nr_free_pages() };
}

/* Marks set by hand (what the fast paths did so far counted first), the fast paths'
 * threshold recomputed. */
static void pcp_set(struct per_cpu_pages *pcp, int high_min, int high, int high_max)
{
	pcp_refresh(pcp->zone);
	pcp->high_min = high_min;
	pcp->high = high;
	pcp->high_max = high_max;
	pcp_refresh(pcp->zone);
}

static void pcp_restore(struct ktest *t, struct per_cpu_pages *pcp, const struct pcp_saved *s)
{
	drain_all_pages(NULL);
	zone_set_flag(pcp->zone, ZONE_BELOW_HIGH, s->zone_flags & (1UL << ZONE_BELOW_HIGH));
	pcp_set(pcp, s->high_min, s->high, s->high_max);
	KTEST_EXPECT_EQ(t, nr_free_pages(), s->free);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

/* @n order-0 pages of @gfp chained through ->private. */
static struct page *take(int n, gfp_t gfp)
{
	struct page *chain = NULL;

	for (int i = 0; i < n; i++) {
		struct page *p = alloc_page(gfp);
		if (!p)
			break;
		p->private = (unsigned long)chain;
		chain = p;
	}
	return chain;
}

static int chain_len(const struct page *c)
{
	int n = 0;

	for (; c; c = (const struct page *)c->private)
		n++;
	return n;
}

static void give_back(struct page *chain)
{
	while (chain) {
		struct page *p = chain;
		chain = (struct page *)p->private;
		p->private = 0;
		__free_page(p);
	}
}

/* give_back(), returning the most frames @pcp held after any one free. */
static int give_back_watching(struct page *chain, const struct per_cpu_pages *pcp)
{
	int most = 0;

	while (chain) {
		struct page *p = chain;
		chain = (struct page *)p->private;
		p->private = 0;
		__free_page(p);
		most = max(most, pcp_count(pcp));
	}
	return most;
}

static bool on_list_of(const struct per_cpu_pages *pcp, struct page *const *list,
		       const struct page *page)
{
	const struct page *p;

	for_each_pcp_block(p, pcp, list)
		if (p == page)
			return true;
	return false;
}

/* The tuning cases assume Linux's batch and scale (tinymm.pcp_batch and
 * tinymm.pcp_batch_scale_max change how much each step moves: suite pcp_batch covers them). */
static bool pcp_params_changed(struct ktest *t)
{
	if (!pcp_batch_param && pcp_batch_scale_max == PCP_SCALE_DEFAULT)
		return false;
	ktest_skip(t, "tinymm.pcp_batch or tinymm.pcp_batch_scale_max set");
	return true;
}

/* Linux's zone_batchsize() and zone_highsize() at boot: high_min from the low watermark,
 * high_max an eighth of the zone, each split over the CPUs, both at least four batches; high
 * starts at high_min. */
static void sizing_as_zone_highsize(struct ktest *t)
{
	struct zone *z = preferred_zone;
	struct per_cpu_pages *pcp = &z->pcp[0];
	unsigned long b = z->managed_pages / 1024, p2 = 1;

	if (b > 256)
		b = 256;
	b /= 4;
	while (p2 * 2 <= b + b / 2)
		p2 *= 2;
	int batch = pcp_batch_param ? pcp_batch_param : p2 > 1 ? (int)p2 - 1 : 1;
	KTEST_EXPECT_EQ(t, pcp->batch, batch);
	KTEST_EXPECT_EQ(t, pcp->high_min, (int)max(z->_watermark[WMARK_LOW] / pcp_split_cpus,
						     4UL * batch));
	KTEST_EXPECT_EQ(t, pcp->high_max, (int)max(z->managed_pages / 8 / pcp_split_cpus,
						     4UL * batch));
	KTEST_EXPECT_GE(t, pcp->high, pcp->high_min);
	KTEST_EXPECT_LE(t, pcp->high, pcp->high_max);
}

/*
 * free_pcppages_bulk() takes each list's coldest frames (freed first) and goes round the lists
 * from the one asked for: here decay's drain, which starts at list 0 (order 0, unmovable).
 */
static void drain_takes_coldest_round_robin(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	struct pcp_saved saved;
	struct page *u[4], *m[4];
	unsigned long flags;

	if (pcp_params_changed(t))
		return;

	pcp_save(pcp, &saved);
	for (int i = 0; i < 4; i++) {
		u[i] = alloc_page(GFP_PCP_TEST);
		m[i] = alloc_page(GFP_PCP_TEST | __GFP_MOVABLE);
		KTEST_ASSERT_TRUE(t, u[i] && m[i]);
		KTEST_ASSERT_EQ(t, page_pcp_mt(u[i]->flags), MIGRATE_UNMOVABLE);
		KTEST_ASSERT_EQ(t, page_pcp_mt(m[i]->flags), MIGRATE_MOVABLE);
	}
	local_irq_save(flags);
	drain_all_pages(NULL);
	pcp_set(pcp, 1000, 1000, 1000);		/* no drain while they go on */
	for (int i = 0; i < 4; i++)
		__free_page(u[i]);
	for (int i = 0; i < 4; i++)
		__free_page(m[i]);
	KTEST_EXPECT_EQ(t, pcp_count(pcp), 8);
	struct page **ul = &pcp->lists[pindex(0, MIGRATE_UNMOVABLE)];
	struct page **ml = &pcp->lists[pindex(0, MIGRATE_MOVABLE)];
	pcp_set(pcp, 5, 5, 5);
	decay_pcp_high_all();			/* 3 back: the three coldest unmovable */
	KTEST_EXPECT_EQ(t, pcp_count(pcp), 5);
	KTEST_EXPECT_FALSE(t, on_list_of(pcp, ul, u[0]) || on_list_of(pcp, ul, u[1]) || on_list_of(pcp, ul, u[2]));
	KTEST_EXPECT_TRUE(t, on_list_of(pcp, ul, u[3]));
	for (int i = 0; i < 4; i++)
		KTEST_EXPECT_TRUE(t, on_list_of(pcp, ml, m[i]));
	pcp_set(pcp, 3, 3, 3);
	decay_pcp_high_all();			/* 2 back: the last unmovable, then the coldest movable */
	KTEST_EXPECT_EQ(t, pcp_count(pcp), 3);
	KTEST_EXPECT_FALSE(t, on_list_of(pcp, ul, u[3]) || on_list_of(pcp, ml, m[0]));
	KTEST_EXPECT_TRUE(t, on_list_of(pcp, ml, m[1]) && on_list_of(pcp, ml, m[2]) && on_list_of(pcp, ml, m[3]));
	local_irq_restore(flags);
	pcp_restore(t, pcp, &saved);
}

/*
 * nr_pcp_free(): after a run of frees with no allocation between, the drain at high gives back
 * all but one batch (free_count frames, at most high - batch), not one batch as pre-5.14 Linux.
 * high_min == high_max: no tuning in the way.
 */
static void run_of_frees_drains_more(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	int batch = pcp->batch, h = 4 * batch + 4;
	struct pcp_saved saved;
	unsigned long flags;

	if (pcp_params_changed(t))
		return;

	pcp_save(pcp, &saved);
	struct page *chain = take(h, GFP_PCP_TEST);
	KTEST_ASSERT_EQ(t, chain_len(chain), h);
	local_irq_save(flags);
	drain_all_pages(NULL);
	pcp_set(pcp, h, h, h);
	pcp->free_count = 0;
	int most = 0, least_after = h;
	for (int i = 0; chain; i++) {
		struct page *p = chain;
		int before = pcp_count(pcp);
		chain = (struct page *)p->private;
		p->private = 0;
		__free_page(p);
		most = max(most, pcp_count(pcp));
		if (pcp_count(pcp) <= before)
			least_after = min(least_after, pcp_count(pcp));
	}
	KTEST_EXPECT_EQ(t, most, h - 1);		/* the h-th free drains */
	KTEST_EXPECT_EQ(t, least_after, batch);		/* clamp(free_count = h, batch, h - batch) */
	local_irq_restore(flags);
	pcp_restore(t, pcp, &saved);
}

/*
 * Tuning: refills raise high a batch at a time (nr_pcp_alloc) while the zone is above its high
 * watermark; decay_pcp_high() takes an eighth off per call down to high_min and drains what
 * lies above.  Below the high watermark (ZONE_BELOW_HIGH) frees drain at high_min and pull high
 * down; while kswapd reclaims (ZONE_RECLAIM_ACTIVE) the lists hold less than four batches.
 */
static void high_tunes_between_its_marks(struct ktest *t)
{
	struct zone *z = preferred_zone;
	struct per_cpu_pages *pcp = &z->pcp[0];
	struct pcp_saved saved;
	unsigned long flags;

	if (pcp_params_changed(t))
		return;

	if (z->free_pages <= z->_watermark[WMARK_HIGH] + 2 * (unsigned long)pcp->high_max) {
		ktest_skip(t, "the zone is too near its high watermark");
		return;
	}
	pcp_save(pcp, &saved);
	zone_set_flag(z, ZONE_BELOW_HIGH, false);
	pcp_set(pcp, saved.high_min, saved.high_min, saved.high_max);
	int n = saved.high_min + 4 * pcp->batch;
	local_irq_save(flags);
	struct page *chain = take(n, GFP_PCP_TEST);
	int raised = pcp->high, got = chain_len(chain);
	give_back(chain);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, got, n);
	KTEST_EXPECT_GT(t, raised, pcp->high_min);		/* the refills raised it */
	KTEST_EXPECT_LE(t, raised, pcp->high_max);
	int high = pcp->high, rounds = 0;
	while (decay_pcp_high_all() && rounds < 200) {
		KTEST_EXPECT_TRUE(t, pcp->high < high || pcp->high == pcp->high_min);
		KTEST_EXPECT_LE(t, pcp_count(pcp), pcp->high);
		high = pcp->high;
		rounds++;
	}
	KTEST_EXPECT_EQ(t, pcp->high, pcp->high_min);
	KTEST_EXPECT_LE(t, pcp_count(pcp), pcp->high_min);

	/* Below the high watermark: frees drain once the count reaches high_min. */
	chain = take(2 * pcp->high_min, GFP_PCP_TEST);
	KTEST_ASSERT_EQ(t, chain_len(chain), 2 * pcp->high_min);
	local_irq_save(flags);
	drain_all_pages(NULL);
	pcp_set(pcp, pcp->high_min, pcp->high_max, pcp->high_max);
	zone_set_flag(z, ZONE_BELOW_HIGH, true);
	int most = give_back_watching(chain, pcp);
	KTEST_EXPECT_LT(t, most, pcp->high_min);
	KTEST_EXPECT_LT(t, pcp->high, pcp->high_max);		/* pulled down by the frees */
	zone_set_flag(z, ZONE_BELOW_HIGH, false);
	local_irq_restore(flags);

	/* kswapd at work: at most four batches stay. */
	chain = take(8 * pcp->batch, GFP_PCP_TEST);
	local_irq_save(flags);
	drain_all_pages(NULL);
	zone_set_flag(z, ZONE_RECLAIM_ACTIVE, true);
	most = give_back_watching(chain, pcp);
	KTEST_EXPECT_LT(t, most, 4 * pcp->batch);
	zone_set_flag(z, ZONE_RECLAIM_ACTIVE, false);
	local_irq_restore(flags);
	pcp_restore(t, pcp, &saved);
}

/* Refills in a row without a free grow (alloc_factor); each free halves it. */
static void refills_in_a_row_grow(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	struct pcp_saved saved;

	if (pcp_params_changed(t))
		return;

	pcp_save(pcp, &saved);
	pcp_set(pcp, saved.high_max, saved.high_max, saved.high_max);	/* room for the refills */
	pcp->alloc_factor = 0;
	struct page *chain = take(2 + pcp->batch * 7, GFP_PCP_TEST);
	KTEST_ASSERT_TRUE(t, chain != NULL);
	KTEST_EXPECT_GE(t, pcp->alloc_factor, 2);
	struct page *one = chain;
	chain = (struct page *)one->private;
	drain_all_pages(NULL);			/* a slow path: nothing freed, nothing changes */
	int factor = pcp->alloc_factor;
	KTEST_EXPECT_GE(t, factor, 2);
	__free_page(one);			/* a fast-path free... */
	drain_all_pages(NULL);			/* ...counted by the next slow path */
	KTEST_EXPECT_EQ(t, pcp->alloc_factor, factor >> 1);
	give_back(chain);
	pcp_restore(t, pcp, &saved);
}

static const struct ktest_case pcp_cases[] = {
	KTEST_CASE(sizing_as_zone_highsize),
	KTEST_CASE(drain_takes_coldest_round_robin),
	KTEST_CASE(run_of_frees_drains_more),
	KTEST_CASE(high_tunes_between_its_marks),
	KTEST_CASE(refills_in_a_row_grow),
	{}
};
KTEST_SUITE(pcp, pcp_cases);
