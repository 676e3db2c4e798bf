/*
 * smp_stress_ktest.c - suite "smp_stress": the allocators under real concurrency, one worker
 * thread pinned to each online CPU (docs/smp.md, issue 38's stress list, its first two parts).
 *
 *   folios: each worker allocates folios of orders 0-3, stamps every page with a tag derived
 *     from its pfn, takes a second reference and hands it to the next CPU's worker through a
 *     mailbox (xchg); the receiver checks the stamps and drops that reference while the
 *     allocator may already have dropped its own: a folio is freed by whichever CPU puts last.
 *   kmalloc: sizes 8 to 2048 bytes, each filled with a byte of its own and kept in a small ring;
 *     an object leaving the ring is checked, then freed, often on a CPU other than the one that
 *     last freed into that cache.
 * Afterwards: every folio came back with its stamps intact, buddy_check() and slab_check()
 * find nothing, and no lock-order report or WARNING was printed.  With one CPU online the same
 * runs with a single worker handing folios to itself.
 * Not here (yet): page-cache readers and writers on one file, reclaim under pressure and
 * memory_failure() of random frames from every CPU.
 */
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/smp.h"

#define STRESS_ROUNDS	20000
#define STRESS_MAX_ORDER 3
#define KRING		8
#define STAMP		0x5eed0000UL

struct stress_worker {
	unsigned int index, next;	/* its slot; the worker it hands folios to */
	struct folio *mailbox;		/* a folio (one reference) handed to this worker */
	unsigned long folios, handoffs, kmallocs, failures;
	unsigned long bad_stamps, bad_bytes;
	unsigned int cpu_seen;		/* the CPU it ran on (checked against its pin) */
	bool moved;
};

static struct stress_worker workers[NR_CPUS];

static unsigned long xorshift(unsigned long *s)
{
	unsigned long x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static unsigned long stamp_of(const struct page *page)
{
	return STAMP ^ page_to_pfn(page);
}

static void stamp_folio(struct folio *folio)
{
	for (unsigned long i = 0; i < folio_nr_pages(folio); i++) {
		struct page *page = folio_page(folio, i);
		unsigned long *w = page_address(page);

		w[0] = stamp_of(page);
		w[PAGE_SIZE / sizeof(long) - 1] = ~stamp_of(page);
	}
}

static bool stamps_intact(struct folio *folio)
{
	for (unsigned long i = 0; i < folio_nr_pages(folio); i++) {
		struct page *page = folio_page(folio, i);
		const unsigned long *w = page_address(page);

		if (w[0] != stamp_of(page) || w[PAGE_SIZE / sizeof(long) - 1] != ~stamp_of(page))
			return false;
	}
	return true;
}

/* Take what was handed to @w (if anything), check it and drop that reference. */
static void receive(struct stress_worker *w)
{
	struct folio *got = xchg(&w->mailbox, NULL);

	if (!got)
		return;
	if (!stamps_intact(got))
		w->bad_stamps++;
	w->handoffs++;
	folio_put(got);
}

static bool object_intact(const unsigned char *p, size_t size, unsigned char fill)
{
	for (size_t i = 0; i < size; i++)
		if (p[i] != fill)
			return false;
	return true;
}

static int stress_worker_fn(void *arg)
{
	struct stress_worker *w = arg;
	struct { unsigned char *p; size_t size; unsigned char fill; } ring[KRING] = { { 0 } };
	unsigned long seed = 0x9e3779b9UL * (w->index + 1);

	w->cpu_seen = (unsigned int)raw_smp_processor_id();
	for (unsigned int i = 0; i < STRESS_ROUNDS; i++) {
		unsigned long r = xorshift(&seed);
		unsigned int order = (unsigned int)(r % (STRESS_MAX_ORDER + 1));
		struct folio *folio = folio_alloc(GFP_KERNEL, order);

		if (folio) {
			stamp_folio(folio);
			folio_get(folio);		/* the next worker's reference */
			struct folio *old = xchg(&workers[w->next].mailbox, folio);
			if (old) {			/* not taken yet: ours to check and drop */
				if (!stamps_intact(old))
					w->bad_stamps++;
				folio_put(old);
			}
			folio_put(folio);		/* ours: the receiver may free it */
			w->folios++;
		} else {
			w->failures++;
		}
		receive(w);

		unsigned int slot = i % KRING;
		if (ring[slot].p) {
			if (!object_intact(ring[slot].p, ring[slot].size, ring[slot].fill))
				w->bad_bytes++;
			kfree(ring[slot].p);
		}
		ring[slot].size = (size_t)8 << ((r >> 8) % 9);	/* 8 .. 2048 */
		ring[slot].fill = (unsigned char)(r >> 16);
		ring[slot].p = kmalloc(ring[slot].size, GFP_KERNEL);
		if (ring[slot].p) {
			memset(ring[slot].p, ring[slot].fill, ring[slot].size);
			w->kmallocs++;
		} else {
			w->failures++;
		}
		if ((unsigned int)raw_smp_processor_id() != w->cpu_seen)
			w->moved = true;
	}
	for (unsigned int slot = 0; slot < KRING; slot++) {
		if (!ring[slot].p)
			continue;
		if (!object_intact(ring[slot].p, ring[slot].size, ring[slot].fill))
			w->bad_bytes++;
		kfree(ring[slot].p);
	}
	return 0;
}

static void smp_stress_folios_and_kmalloc(struct ktest *t)
{
	struct task_struct *tasks[NR_CPUS] = { 0 };
	unsigned int cpus[NR_CPUS], n = 0, cpu;
	unsigned long reports = lockdep_nr_reports(), warnings = nr_warnings();

	memset(workers, 0, sizeof(workers));
	for_each_online_cpu(cpu)
		cpus[n++] = cpu;
	for (unsigned int i = 0; i < n; i++) {
		struct cpumask pin = { 1UL << cpus[i] };

		workers[i].index = i;
		workers[i].next = (i + 1) % n;
		tasks[i] = kthread_create(stress_worker_fn, &workers[i], "stress/%u", cpus[i]);
		KTEST_ASSERT_TRUE(t, tasks[i] != NULL);
		KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(tasks[i], &pin), 0);
	}
	for (unsigned int i = 0; i < n; i++)
		wake_up_process(tasks[i]);
	for (unsigned int i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, kthread_join(tasks[i]), 0);
	for (unsigned int i = 0; i < n; i++)	/* what the last round handed over */
		receive(&workers[i]);

	unsigned long folios = 0, handoffs = 0, kmallocs = 0;
	for (unsigned int i = 0; i < n; i++) {
		struct stress_worker *w = &workers[i];

		KTEST_EXPECT_EQ(t, w->bad_stamps, 0);
		KTEST_EXPECT_EQ(t, w->bad_bytes, 0);
		KTEST_EXPECT_EQ(t, w->failures, 0);
		KTEST_EXPECT_EQ(t, w->cpu_seen, cpus[i]);	/* pinned: it ran where it was put */
		KTEST_EXPECT_FALSE(t, w->moved);
		KTEST_EXPECT_TRUE(t, w->mailbox == NULL);
		folios += w->folios;
		handoffs += w->handoffs;
		kmallocs += w->kmallocs;
	}
	KTEST_EXPECT_EQ(t, folios, (unsigned long)n * STRESS_ROUNDS);
	KTEST_EXPECT_EQ(t, kmallocs, (unsigned long)n * STRESS_ROUNDS);
	KTEST_EXPECT_GT(t, handoffs, 0);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, buddy_check(printk), 0);
	KTEST_EXPECT_EQ(t, slab_check(printk), 0);
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), reports);
	KTEST_EXPECT_EQ(t, nr_warnings(), warnings);
}

static const struct ktest_case smp_stress_cases[] = {
	KTEST_CASE(smp_stress_folios_and_kmalloc),
	{}
};
KTEST_SUITE(smp_stress, smp_stress_cases);
