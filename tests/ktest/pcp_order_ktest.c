/*
 * pcp_order_ktest.c - suite `pcp_order`: the order 1-3 fast paths (mm/page_alloc_fast.c) keep
 * v6.10's per-CPU counters exactly, on every board and on the host (tests/host/
 * pcp_order_test.c).  A fixed-seed random run of order-3 allocations and frees, with order-0
 * frees between (counts the order-0 fast path leaves for pcp_sync()), checked after every
 * order-3 call against a model of Linux's rmqueue_pcplist() / free_unref_page_commit():
 * free_count, alloc_factor, PCPF_PREV_FREE_HIGH_ORDER and the count, including free_high's
 * drains (a run of high-order frees); and a bad block taken off a list counted as Linux counts
 * it (reported and leaked on purpose: the reports in the log are expected).  The lists' high marks are set out of reach, so the only
 * drains are free_high's; the allocator is left as it was found.
 */
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "../../mm/internal.h"

#define GFP_PO		(GFP_NOWAIT | __GFP_NOWARN)	/* unmovable: list pindex(order, 0) */
#define PO_STEPS	600
#define PO_BLOCKS	24	/* order-3 blocks held at most */
#define PO_SMALL	48	/* order-0 pages to free between */

struct po_model {
	int fc, af, prev, count;
};

static uint32_t po_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static int list_len(const struct per_cpu_pages *pcp, struct page *const *list)
{
	const struct page *p;
	int n = 0;

	for_each_pcp_block(p, pcp, list)
		n++;
	return n;
}

/* free_pcppages_bulk(@want frames) from list @pidx round-robin, each list a whole number of
 * blocks up to what is left: the frames it frees, from the lists as they are now (with the
 * block just freed counted on @pidx's list). */
static int bulk_frees(const struct per_cpu_pages *pcp, int want, unsigned int pidx)
{
	int freed = 0;

	for (unsigned int n = 0, i = pidx; want > 0 && n < NR_PCP_LISTS; n++, i = (i + 1) % NR_PCP_LISTS) {
		unsigned int order = i / PCP_SLOTS;
		int len = list_len(pcp, &pcp->lists[i]) + (i == pidx);
		int take = min(len, (want + (1 << order) - 1) >> order);
		want -= take << order;
		freed += take << order;
	}
	return freed;
}

static bool po_expect(struct ktest *t, struct per_cpu_pages *pcp, const struct po_model *m, int step)
{
	pcp_refresh(pcp->zone);		/* nothing pending after an order-3 call: changes nothing */
	if (pcp->free_count != m->fc || pcp->alloc_factor != m->af ||
	    !!(pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) != m->prev || pcp_count(pcp) != m->count) {
		char msg[160];
		ksnprintf(msg, sizeof(msg), "step %d: free_count %d/%d alloc_factor %d/%d prev %d/%d "
			  "count %d/%d (tinymm/model)", step, pcp->free_count, m->fc, pcp->alloc_factor,
			  m->af, !!(pcp->flags & PCPF_PREV_FREE_HIGH_ORDER), m->prev, pcp_count(pcp),
			  m->count);
		ktest_fail_msg(t, __FILE__, __LINE__, msg);
		return false;
	}
	return true;
}

struct po_tally {
	int hits, refills, pushes, free_highs, pending;
};

/* One run of PO_STEPS calls with pcp->batch set to @batch (the runs differ in how soon a run of
 * frees is free_high and how much a refill brings).  false: the model and tinymm parted. */
static bool po_run(struct ktest *t, struct per_cpu_pages *pcp, int batch, struct po_tally *n)
{
	struct zone *z = pcp->zone;
	struct page *blocks[PO_BLOCKS], *small[PO_SMALL];
	int nb = 0, ns, cap = batch << pcp_batch_scale_max, old_batch = pcp->batch;
	int old_min = pcp->high_min, old_high = pcp->high, old_max = pcp->high_max;
	bool below = z->flags & (1UL << ZONE_BELOW_HIGH), bad = false;
	uint32_t seed = 0x9e3779b9u ^ (uint32_t)batch;
	unsigned long flags;
	struct po_model m;

	for (ns = 0; ns < PO_SMALL; ns++)
		if (!(small[ns] = alloc_page(GFP_PO))) {
			ktest_fail_msg(t, __FILE__, __LINE__, "order-0 allocation failed");
			while (ns > 0)
				__free_page(small[--ns]);
			return false;
		}
	local_irq_save(flags);		/* no decay, no other user of the lists meanwhile */
	drain_all_pages(NULL);
	zone_set_flag(z, ZONE_BELOW_HIGH, false);
	pcp_refresh(z);
	pcp->batch = batch;
	pcp->high_min = pcp->high = pcp->high_max = 1 << 20;	/* only free_high drains */
	pcp_refresh(z);
	m = (struct po_model){ pcp->free_count, pcp->alloc_factor,
			       !!(pcp->flags & PCPF_PREV_FREE_HIGH_ORDER), pcp_count(pcp) };
	for (int step = 0; step < PO_STEPS && !bad; step++) {
		uint32_t r = po_rand(&seed) % 8;
		if (r < 2 && ns > 0) {
			/* Order-0 frees, fast, left pending: pcp_sync() folds them at the next call. */
			int k = 1 + (int)(po_rand(&seed) % 4);
			for (; k > 0 && ns > 0; k--) {
				__free_page(small[--ns]);
				m.af >>= 1;
				m.prev = 0;
				if (m.fc < cap)
					m.fc++;
				m.count++;
			}
			n->pending++;
			continue;
		}
		if ((r < 5 && nb < PO_BLOCKS) || nb == 0) {
			bool empty = pcp_list_empty(pcp, &pcp->lists[pindex(3, MIGRATE_UNMOVABLE)]);
			struct page *p = alloc_pages(GFP_PO, 3);
			if (!p) {
				ktest_fail_msg(t, __FILE__, __LINE__, "order-3 allocation failed");
				break;
			}
			KTEST_EXPECT_EQ(t, page_to_pfn(p) & 7, 0);
			blocks[nb++] = p;
			m.fc >>= 1;
			if (empty) {
				m.count += (batch > 1 ? max(batch >> 3, 2) : 1) << 3;
				n->refills++;
			} else {
				n->hits++;
			}
			m.count -= 8;
		} else {
			int i = (int)(po_rand(&seed) % (uint32_t)nb);
			struct page *p = blocks[i];
			blocks[i] = blocks[--nb];
			m.af >>= 1;
			bool free_high = m.fc >= batch && m.prev;
			m.prev = 1;
			if (m.fc < cap)
				m.fc += 8;
			m.count += 8;
			int drained = free_high ? bulk_frees(pcp, min(m.count, cap),
							     pindex(3, MIGRATE_UNMOVABLE)) : 0;
			__free_pages(p, 3);
			m.count -= drained;
			n->free_highs += free_high;
			n->pushes += !free_high;
		}
		bad = !po_expect(t, pcp, &m, step);
	}
	while (nb > 0)
		__free_pages(blocks[--nb], 3);
	while (ns > 0)
		__free_page(small[--ns]);
	drain_all_pages(NULL);
	zone_set_flag(z, ZONE_BELOW_HIGH, below);
	pcp_refresh(z);
	pcp->batch = old_batch;
	pcp->high_min = old_min;
	pcp->high = old_high;
	pcp->high_max = old_max;
	pcp_refresh(z);
	local_irq_restore(flags);
	return !bad;
}

static void order3_counters_as_v610(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	struct po_tally n = { 0 };
	unsigned long free_before;

	if (pcp != pcp_fast_of(raw_smp_processor_id())) {
		ktest_skip(t, "no per-CPU fast path (page poisoning)");
		return;
	}
	drain_all_pages(NULL);
	free_before = nr_free_pages();
	/* The zone's own batch, then 63 (Linux's largest: a zone of 1 GiB or more) and 15. */
	if (po_run(t, pcp, pcp->batch, &n) && po_run(t, pcp, 63, &n))
		po_run(t, pcp, 15, &n);
	printk(KERN_INFO "pcp_order: %d hits, %d refills, %d pushes, %d free_high drains, %d "
	       "order-0 runs folded in\n", n.hits, n.refills, n.pushes, n.free_highs, n.pending);
	/* The runs went through every case: hits, refills, pushes, free_high drains, pending
	 * order-0 counts folded by the allocation and by the free. */
	KTEST_EXPECT_GT(t, n.hits, 100);
	KTEST_EXPECT_GT(t, n.refills, 20);
	KTEST_EXPECT_GT(t, n.pushes, 100);
	KTEST_EXPECT_GT(t, n.free_highs, 20);
	KTEST_EXPECT_GT(t, n.pending, 20);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free_before);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

/*
 * A bad block popped by an order-3 allocation is reported, kept out, and the next one taken, all
 * one allocation as Linux's __rmqueue_pcplist() (one step on free_count, the count down by every
 * block popped): first through the fast path (a bad top block, a good one below), then through
 * the general path's retry (two bad blocks, then a refill).
 */
static void bad_block_is_one_allocation(struct ktest *t)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];
	struct zone *z = pcp->zone;
	struct page *b[4];
	unsigned long flags, bad = nr_bad_pages;

	if (pcp != pcp_fast_of(raw_smp_processor_id()) || !page_checks) {
		ktest_skip(t, pcp != pcp_fast_of(raw_smp_processor_id()) ? "no per-CPU fast path (page poisoning)" :
			   "tinymm.check_pages=0");
		return;
	}
	for (int i = 0; i < 4; i++)
		KTEST_ASSERT_TRUE(t, b[i] = alloc_pages(GFP_PO, 3));
	local_irq_save(flags);
	drain_all_pages(NULL);
	pcp_refresh(z);
	int old_min = pcp->high_min, old_high = pcp->high, old_max = pcp->high_max;
	pcp->high_min = pcp->high = pcp->high_max = 1 << 20;	/* no drain */
	pcp_refresh(z);
	for (int i = 3; i >= 0; i--) {
		pcp->free_count = 0;		/* no free_high: each stays on the list */
		__free_pages(b[i], 3);		/* the list: b[0] on top, then b[1], b[2], b[3] */
	}
	struct page **list = &pcp->lists[pindex(3, MIGRATE_UNMOVABLE)];
	KTEST_EXPECT_TRUE(t, *list == b[0] && b[0]->pcp_next == b[1]);
	__SetPageReferenced(b[0] + 5);		/* written after the free */
	pcp_refresh(z);
	pcp->free_count = 40;
	int count = pcp_count(pcp);
	struct page *p = alloc_pages(GFP_PO, 3);
	pcp_refresh(z);
	KTEST_EXPECT_TRUE(t, p == b[1]);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 1);
	KTEST_EXPECT_EQ(t, pcp->free_count, 20);
	KTEST_EXPECT_EQ(t, pcp_count(pcp), count - 16);
	/* Now both blocks left are bad: the fast path pops b[2], the general path b[3], then
	 * refills and hands out a new block; still one step. */
	__SetPageReferenced(b[2] + 1);
	__SetPageReferenced(b[3] + 7);
	pcp->free_count = 40;
	struct page *q = alloc_pages(GFP_PO, 3);
	pcp_refresh(z);
	KTEST_EXPECT_TRUE(t, q && q != b[2] && q != b[3]);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 3);
	KTEST_EXPECT_EQ(t, pcp->free_count, 20);
	if (p)
		__free_pages(p, 3);
	if (q)
		__free_pages(q, 3);
	drain_all_pages(NULL);
	pcp_refresh(z);
	pcp->high_min = old_min;
	pcp->high = old_high;
	pcp->high_max = old_max;
	pcp_refresh(z);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

static struct ktest_case pcp_order_cases[] = {
	KTEST_CASE(order3_counters_as_v610),
	KTEST_CASE(bad_block_is_one_allocation),
	{}
};
KTEST_SUITE(pcp_order, pcp_order_cases);
