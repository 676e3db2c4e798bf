/*
 * bench_core.c - the kernel core's rows of `make bench` (targets only; see kernel/bench.c for
 * how instructions are counted).  Each row is one uncontended operation, measured NR samples
 * times on the bench thread:
 *   spin-lock-irqsave   spin_lock_irqsave + spin_unlock_irqrestore (debug spinlocks on)
 *   mutex-lock-unlock   mutex_lock + mutex_unlock, nobody waiting
 *   folio-lock-unlock   folio_lock + folio_unlock, nobody waiting: one atomic each way
 *   wake-up-empty       wake_up() on a queue with no sleepers
 *   hrtimer-start-cancel  arm a timer on an empty queue (reprograms the clock event) and cancel
 *   yield-roundtrip     yield() to an equal-priority thread that yields straight back: two
 *                       context switches through schedule()
 *   pagecache-hit       filemap_get_folio() + folio_put() of a cached folio (lookup, reference,
 *                       release), in a mapping of 16384 pages (a three-level index)
 *   vmalloc-16k         vmalloc(16384): a range, the bookkeeping, four order-0 pages, their
 *                       ptes (the pte table stays between samples: the range is reused)
 *   vfree-16k           vfree() of it: the ptes cleared and the TLB flushed, the pages freed
 *   memcpy-4k           memcpy() of one page to another (lib/string.c: a word at a time)
 *   memset-4k           memset() of one page
 * Locking: none beyond what each operation takes.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/errno.h"
#include "tinymm/gfp.h"
#include "tinymm/mm.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/swap.h"
#include "tinymm/timer.h"
#include "tinymm/vmalloc.h"
#include "tinymm/wait.h"

#define NR	500

#define MEASURE(slot, stmt)	BENCH_MEASURE(slot, stmt)

static uint32_t samples[NR];
static volatile bool partner_stop;

static int yield_partner(void *unused)
{
	(void)unused;
	while (!partner_stop)
		yield();
	return 0;
}

static enum hrtimer_restart never_fn(struct hrtimer *t)
{
	(void)t;
	return HRTIMER_NORESTART;
}

static int bench_read_folio(struct address_space *mapping, struct folio *folio)
{
	(void)mapping;
	folio_unlock(folio);
	return -EIO;
}

static const struct address_space_operations bench_aops = { .read_folio = bench_read_folio };

/* A mapping the size of a 64 MiB disk with one cached folio near its end. */
static int bench_pagecache(void)
{
	static struct address_space m;
	const pgoff_t index = 16383;
	uint32_t overhead = ~0u;

	address_space_init(&m, &bench_aops, (loff_t)(index + 1) << PAGE_SHIFT);
	/* Unevictable: kswapd must not take the folio (the lookups below would get an error
	 * pointer) nor leave a shadow entry behind for the next run's address_space_init. */
	mapping_set_unevictable(&m);
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	if (!folio || filemap_add_folio(&m, folio, index, GFP_KERNEL)) {
		if (folio)
			folio_put(folio);
		kprintf("bench: cannot set up the page-cache mapping\n");
		return 1;
	}
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	folio_put(folio);		/* the cache's reference alone keeps it */
	for (int i = 0; i < NR; i++) {
		MEASURE(samples[i], (void)0);
		overhead = min(overhead, samples[i]);
	}
	for (int i = 0; i < NR; i++) {
		struct folio *f;
		MEASURE(samples[i], f = filemap_get_folio(&m, index); folio_put(f));
	}
	bench_summary("pagecache-hit", samples, NR, overhead);
	if (invalidate_mapping_pages(&m, 0, ~0UL) != 1 || !xa_empty(&m.i_pages)) {
		kprintf("bench: the page-cache mapping did not empty\n");
		return 1;
	}
	return 0;
}

static uint32_t samples_free[NR];

/* Alternating, so every vmalloc() finds the range its predecessor freed (first fit). */
static int bench_vmalloc(uint32_t overhead)
{
	for (int i = 0; i < NR; i++) {
		void *p;

		MEASURE(samples[i], p = vmalloc(16384));
		if (!p) {
			kprintf("bench: vmalloc(16384) failed\n");
			return 1;
		}
		MEASURE(samples_free[i], vfree(p));
	}
	bench_summary("vmalloc-16k", samples, NR, overhead);
	bench_summary("vfree-16k", samples_free, NR, overhead);
	return 0;
}

/* Two whole pages, page-aligned: what the page cache and __GFP_ZERO-free clearing copy. */
static int bench_string(uint32_t overhead)
{
	struct page *pages = alloc_pages(GFP_KERNEL, 1);

	if (!pages) {
		kprintf("bench: no memory for two pages\n");
		return 1;
	}
	char *a = page_address(pages), *b = a + PAGE_SIZE;
	for (int i = 0; i < NR; i++)
		MEASURE(samples[i], memcpy(b, a, PAGE_SIZE));
	bench_summary("memcpy-4k", samples, NR, overhead);
	for (int i = 0; i < NR; i++)
		MEASURE(samples[i], memset(a, i, PAGE_SIZE));
	bench_summary("memset-4k", samples, NR, overhead);
	__free_pages(pages, 1);
	return 0;
}

int bench_core(void)
{
	uint32_t overhead = ~0u;
	unsigned long flags;
	DEFINE_SPINLOCK(lock);
	DEFINE_MUTEX(mutex);
	DECLARE_WAIT_QUEUE_HEAD(wq);
	struct hrtimer timer;
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);

	if (!folio) {
		kprintf("bench: no memory for a folio\n");
		return 1;
	}
	for (int i = 0; i < NR; i++) {
		MEASURE(samples[i], (void)0);
		overhead = min(overhead, samples[i]);
	}

	for (int i = 0; i < NR; i++)
		MEASURE(samples[i], spin_lock_irqsave(&lock, flags); spin_unlock_irqrestore(&lock, flags));
	bench_summary("spin-lock-irqsave", samples, NR, overhead);
	for (int i = 0; i < NR; i++)
		MEASURE(samples[i], mutex_lock(&mutex); mutex_unlock(&mutex));
	bench_summary("mutex-lock-unlock", samples, NR, overhead);
	unsigned long wakes = folio_wake_bit_calls();
	for (int i = 0; i < NR; i++)
		MEASURE(samples[i], folio_lock(folio); folio_unlock(folio));
	bench_summary("folio-lock-unlock", samples, NR, overhead);
	for (int i = 0; i < NR; i++)
		MEASURE(samples[i], wake_up(&wq));
	bench_summary("wake-up-empty", samples, NR, overhead);
	hrtimer_init(&timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	timer.function = never_fn;
	for (int i = 0; i < NR; i++)
		MEASURE(samples[i], hrtimer_start(&timer, NSEC_PER_SEC, HRTIMER_MODE_REL);
			hrtimer_cancel(&timer));
	bench_summary("hrtimer-start-cancel", samples, NR, overhead);

	partner_stop = false;
	struct task_struct *p = kthread_create_opts(yield_partner, NULL, "bench-yield", current->prio,
						    THREAD_SIZE_ORDER);
	if (!p) {
		folio_put(folio);
		kprintf("bench: cannot create the yield partner\n");
		return 1;
	}
	wake_up_process(p);
	yield();		/* let it start */
	unsigned long switches = sched_nr_switches();
	for (int i = 0; i < NR; i++)
		MEASURE(samples[i], yield());
	switches = sched_nr_switches() - switches;
	partner_stop = true;
	kthread_join(p);
	bench_summary("yield-roundtrip", samples, NR, overhead);
	folio_put(folio);
	int ret = bench_pagecache();
	if (!ret)
		ret = bench_vmalloc(overhead);
	if (!ret)
		ret = bench_string(overhead);
	if (folio_wake_bit_calls() != wakes || switches < 2 * NR) {
		kprintf("bench: the core rows were not uncontended (wake-ups %lu, switches %lu)\n",
			folio_wake_bit_calls() - wakes, switches);
		return 1;
	}
	return ret;
}
