/*
 * bench_pcp.c - `bench pcp [quick]`: the per-CPU lists' latency against their throughput, for
 * docs/benchmarks.md ("Latency against throughput: pcp batch and scale"); tools/bench
 * --batch-table boots it under QEMU -icount (see kernel/bench.c for how instructions are
 * counted).
 *
 * For each batch of 1, 4, 15 and the zone's default (Linux's zone_batchsize(), once if it is one
 * of those), each at scale 5 (v6.10's CONFIG_PCP_BATCH_SCALE_MAX default) and at scale 0, the
 * lists are drained and sized anew (pcp_set_batch(), as a boot with tinymm.pcp_batch= and
 * tinymm.pcp_batch_scale_max= would), then NR order-0 allocations in a row are measured one call
 * each, the lists are drained and sized anew, and the frees of those NR frames in a shuffled
 * order are measured, and every zone->lock hold of a bulk move between
 * the per-CPU and buddy lists meanwhile (pcp_zone_lock_watch: from just after the lock is taken
 * to just before it is released), the closing drain_all_pages() included.  Rows:
 *   batch<N>[-scale0]-order0-alloc, batch<N>[-scale0]-order0-free, batch<N>[-scale0]-zone-lock-hold
 * in the contract's format (min / lower median / max), and a line with the number of holds and
 * of blocks moved (the lock traffic a smaller batch costs).  The state first, once: the `bench`
 * scenario's fragmentation (2000 blocks of orders 0-3 from the same seed, a random half freed).
 * NR is 4000 (enough allocations in a row for batch 63's refills to reach 63 << 5), 1000 with
 * `quick` (CTest: the rows' form and the ordering of the worst cases).  The booted batch and scale
 * are put back at the end, and the frames must all come back.
 * Locking: none beyond the allocator's; the watch runs under zone->lock with interrupts masked.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/gfp.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "../mm/internal.h"

#define NR_FULL		4000
#define NR_QUICK	1000
#define NR_FRAG		2000
#define NR_HOLDS(nr)	(4 * (nr) + 8192)	/* a refill and a drain per call at batch 1, and more */
#define NR_PERM(nr)	max(nr, NR_FRAG)
#define BENCH_SEED	0x2545f491u

#define MEASURE(slot, stmt)	BENCH_MEASURE(slot, stmt)

static struct {
	uint32_t *samples;	/* instructions per hold */
	int n, cap;
	unsigned long blocks;	/* moved in all the holds */
	uint64_t t0;
} holds;

static void bench_hold_watch(struct zone *z, int moved)
{
	uint64_t now = arch_instret();

	(void)z;
	if (moved < 0) {
		holds.t0 = now;
	} else if (holds.n < holds.cap) {
		holds.blocks += (unsigned long)moved;
		holds.samples[holds.n++] = (uint32_t)(now - holds.t0);
	} else {
		holds.n = holds.cap + 1;	/* overflowed: the run fails */
	}
}

static uint32_t rand_state;

static uint32_t bench_rand(void)
{
	uint32_t x = rand_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rand_state = x;
}

static void permute(uint16_t *perm, int n)
{
	for (int i = 0; i < n; i++)
		perm[i] = (uint16_t)i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(bench_rand() % (uint32_t)(i + 1));
		uint16_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

struct pcp_bench {
	struct page **pages;	/* nr */
	uint32_t *samples;	/* nr */
	uint16_t *perm;		/* NR_PERM(nr): the frees' order, and the pre-fragmentation's */
	struct page **frag;	/* NR_FRAG */
	uint8_t *frag_order;	/* NR_FRAG */
	int nr;
	uint32_t overhead;	/* the empty interval */
};

/* One setting's three rows.  0 or 1. */
static int bench_setting(struct pcp_bench *b, int batch, int scale)
{
	char op[48];
	const char *suffix = scale ? "" : "-scale0";

	pcp_set_batch(batch, scale);
	batch = preferred_zone->pcp[0].batch;
	holds.n = 0;
	holds.blocks = 0;
	WRITE_ONCE(pcp_zone_lock_watch, bench_hold_watch);
	for (int i = 0; i < b->nr; i++) {
		struct page *page;
		MEASURE(b->samples[i], page = alloc_pages(GFP_KERNEL, 0));
		if (!page) {
			WRITE_ONCE(pcp_zone_lock_watch, NULL);
			kprintf("bench: pcp: allocation failed at batch %d scale %d\n", batch, scale);
			for (int k = 0; k < i; k++)
				__free_pages(b->pages[k], 0);
			return 1;
		}
		b->pages[i] = page;
	}
	ksnprintf(op, sizeof(op), "batch%d%s-order0-alloc", batch, suffix);
	bench_summary(op, b->samples, b->nr, b->overhead);
	/* The refills raised high past what the frees would reach: the lists sized anew (drained,
	 * high back at high_min, the tuning from scratch), so the frees drain as a run of frees
	 * into a fresh pcp does. */
	pcp_set_batch(pcp_batch_param, scale);
	permute(b->perm, b->nr);
	for (int i = 0; i < b->nr; i++) {
		struct page *page = b->pages[b->perm[i]];
		__asm__ __volatile__("" : "+r"(page));	/* picked before the interval (bench.c) */
		MEASURE(b->samples[i], __free_pages(page, 0));
	}
	ksnprintf(op, sizeof(op), "batch%d%s-order0-free", batch, suffix);
	bench_summary(op, b->samples, b->nr, b->overhead);
	drain_all_pages(NULL);
	WRITE_ONCE(pcp_zone_lock_watch, NULL);
	if (holds.n > holds.cap || !holds.n) {
		kprintf("bench: pcp: %s zone-lock holds at batch %d scale %d\n",
			holds.n ? "too many" : "no", batch, scale);
		return 1;
	}
	kprintf("bench: pcp: batch%d%s: %d zone-lock holds, %lu blocks moved\n", batch, suffix,
		holds.n, holds.blocks);
	ksnprintf(op, sizeof(op), "batch%d%s-zone-lock-hold", batch, suffix);
	bench_summary(op, holds.samples, holds.n, b->overhead);
	return 0;
}

static int bench_settings(struct pcp_bench *b)
{
	static const int scales[] = { PCP_SCALE_DEFAULT, 0 };
	int batches[4] = { 1, 4, 15 }, nb = 3;

	pcp_set_batch(0, PCP_SCALE_DEFAULT);
	int def = preferred_zone->pcp[0].batch;		/* Linux's zone_batchsize() */
	if (def != 1 && def != 4 && def != 15)
		batches[nb++] = def;
	kprintf("bench: pcp: %lu frames managed, default batch %d, %d samples a row\n",
		preferred_zone->managed_pages, def, b->nr);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < nb; i++)
			if (bench_setting(b, batches[i], scales[s]))
				return 1;
	return 0;
}

int bench_pcp(bool quick)
{
	int nr = quick ? NR_QUICK : NR_FULL, ret = 0;
	size_t bytes = nr * (sizeof(struct page *) + sizeof(uint32_t)) + NR_PERM(nr) * sizeof(uint16_t) +
		       NR_FRAG * (sizeof(struct page *) + 1) + NR_HOLDS(nr) * sizeof(uint32_t);
	int booted_batch = pcp_batch_param, booted_scale = pcp_batch_scale_max;
	struct pcp_bench b = { .nr = nr, .overhead = ~0u };
	char *mem;

	_Static_assert(NR_FULL <= 65536 && NR_FRAG <= 65536, "perm is uint16_t");
	drain_all_pages(NULL);
	unsigned long free_before = nr_free_pages_and_pcp();
	mem = alloc_pages_exact(bytes, GFP_KERNEL);
	if (!mem) {
		kprintf("bench: pcp: no memory for the scratch arrays\n");
		return 1;
	}
	memset(mem, 0, bytes);
	holds.samples = (uint32_t *)mem;
	holds.cap = NR_HOLDS(nr);
	b.samples = holds.samples + holds.cap;
	b.pages = (struct page **)(b.samples + nr);
	b.frag = b.pages + nr;
	b.perm = (uint16_t *)(b.frag + NR_FRAG);
	b.frag_order = (uint8_t *)(b.perm + NR_PERM(nr));
	for (int i = 0; i < nr; i++) {		/* the cost of reading the counter twice */
		MEASURE(b.samples[i], (void)0);
		b.overhead = min(b.overhead, b.samples[i]);
	}
	if (!b.overhead) {
		kprintf("bench: pcp: the instruction counter does not count (QEMU needs -icount)\n");
		ret = 1;
	}
	rand_state = BENCH_SEED;
	for (int i = 0; !ret && i < NR_FRAG; i++) {
		b.frag_order[i] = (uint8_t)(bench_rand() & 3);
		b.frag[i] = alloc_pages(GFP_KERNEL, b.frag_order[i]);
		if (!b.frag[i]) {
			kprintf("bench: pcp: allocation failed in the pre-fragmentation\n");
			ret = 1;
		}
	}
	if (!ret) {
		permute(b.perm, NR_FRAG);
		for (int i = 0; i < NR_FRAG / 2; i++) {
			__free_pages(b.frag[b.perm[i]], b.frag_order[b.perm[i]]);
			b.frag[b.perm[i]] = NULL;
		}
		ret = bench_settings(&b);
	}
	for (int i = 0; i < NR_FRAG; i++)
		if (b.frag[i])
			__free_pages(b.frag[i], b.frag_order[i]);
	pcp_set_batch(booted_batch, booted_scale);
	free_pages_exact(mem, bytes);
	drain_all_pages(NULL);
	if (nr_free_pages_and_pcp() != free_before || buddy_check(printk)) {
		kprintf("bench: pcp: frames lost or the buddy lists broken after the run\n");
		ret = 1;
	}
	return ret;
}
