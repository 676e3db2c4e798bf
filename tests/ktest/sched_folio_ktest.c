/*
 * sched_folio_ktest.c - the `sched` suite's folio-lock cases (the table: sched_ktest.c): the lock
 * with PG_waiters under threads that contend for it (exclusion, and no wake-up when nobody
 * waits), two folios sharing a wait-table hash bucket (each waiter woken for its own folio
 * only), and waiting for writeback to end.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/completion.h"
#include "tinymm/delay.h"
#include "tinymm/devicetree.h"
#include "tinymm/fdt.h"
#include "tinymm/gfp.h"
#include "tinymm/irq.h"
#include "tinymm/irq-gic.h"
#include "tinymm/ktest.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/rtc-goldfish.h"
#include "tinymm/sched.h"
#include "tinymm/timer.h"
#include "tinymm/wait.h"
#include "tinymm/workqueue.h"
#include "sched_ktest.h"

/* ---- the folio lock ---- */

#define FOLIO_THREADS	4
#define FOLIO_ROUNDS	100

struct folio_test {
	struct folio *folio;
	volatile int inside, violations;
	volatile unsigned long counter;
};

static int folio_worker(void *arg)
{
	struct folio_test *f = arg;

	for (int i = 0; i < FOLIO_ROUNDS; i++) {
		folio_lock(f->folio);
		if (f->inside++)
			f->violations++;
		unsigned long c = f->counter;
		if (!(i % 8))
			msleep(1);	/* sleep holding it: the others queue with PG_waiters */
		else
			yield();
		f->counter = c + 1;
		f->inside--;
		folio_unlock(f->folio);
	}
	return 0;
}

/* No other folio's waiters in @folio's bucket (so PG_waiters must end clear). */
static bool bucket_idle(struct folio *folio)
{
	return !waitqueue_active(folio_waitqueue(folio));
}

/* 4 threads contend for one folio lock: exclusive; PG_waiters set while they queue and clear
 * after the last unlock; the uncontended trylock/unlock pair performs no wake-up at all. */
void folio_lock_contended_by_4(struct ktest *t)
{
	static struct folio_test f;
	struct task_struct *th[FOLIO_THREADS];

	f.folio = folio_alloc(GFP_KERNEL, 0);
	KTEST_ASSERT_TRUE(t, f.folio != NULL);
	KTEST_ASSERT_TRUE(t, bucket_idle(f.folio));
	f.inside = f.violations = 0;
	f.counter = 0;

	unsigned long wakes = folio_wake_bit_calls();
	for (int i = 0; i < 100; i++) {
		KTEST_ASSERT_TRUE(t, folio_trylock(f.folio));
		KTEST_EXPECT_FALSE(t, folio_trylock(f.folio));
		folio_unlock(f.folio);
	}
	folio_lock(f.folio);	/* uncontended: the fast path */
	folio_unlock(f.folio);
	KTEST_EXPECT_EQ(t, folio_wake_bit_calls(), wakes);	/* no wake-up without waiters */
	KTEST_EXPECT_FALSE(t, folio_test_waiters(f.folio));

	for (int i = 0; i < FOLIO_THREADS; i++) {
		th[i] = kthread_create(folio_worker, &f, "folio%d", i);
		KTEST_ASSERT_TRUE(t, th[i] != NULL);
	}
	for (int i = 0; i < FOLIO_THREADS; i++)
		wake_up_process(th[i]);
	for (int i = 0; i < FOLIO_THREADS; i++)
		kthread_join(th[i]);
	KTEST_EXPECT_EQ(t, f.counter, (unsigned long)FOLIO_THREADS * FOLIO_ROUNDS);
	KTEST_EXPECT_EQ(t, f.violations, 0);
	KTEST_EXPECT_GT(t, folio_wake_bit_calls(), wakes);	/* contention did wake */
	KTEST_EXPECT_FALSE(t, folio_test_locked(f.folio));
	KTEST_EXPECT_FALSE(t, folio_test_waiters(f.folio));	/* cleared by the last wake */
	KTEST_EXPECT_TRUE(t, bucket_idle(f.folio));
	folio_put(f.folio);
}

struct bucket_waiter {
	struct folio *folio;
	volatile int got;
};

static int bucket_waiter_fn(void *arg)
{
	struct bucket_waiter *w = arg;

	folio_lock(w->folio);
	w->got = 1;
	folio_unlock(w->folio);
	return 0;
}

/* Two folios whose wait queues hash to one bucket; each has a sleeper.  Unlocking one wakes
 * its own waiter only; the other keeps sleeping; no wake-up is lost. */
void folio_shared_bucket(struct ktest *t)
{
	static struct folio *pool[PAGE_WAIT_TABLE_SIZE + 1];	/* pigeonhole: two must collide */
	struct folio *a = NULL, *b = NULL;
	int n = 0;

	for (; n < (int)ARRAY_SIZE(pool); n++) {
		pool[n] = folio_alloc(GFP_KERNEL, 0);
		if (!pool[n])
			break;
		for (int i = 0; i < n && !a; i++)
			if (folio_waitqueue(pool[i]) == folio_waitqueue(pool[n])) {
				a = pool[i];
				b = pool[n];
			}
		if (a)
			break;
	}
	if (!a) {
		for (int i = 0; i < n; i++)
			folio_put(pool[i]);
		ktest_skip(t, "out of memory before two folios shared a wait-queue bucket");
		return;
	}
	struct bucket_waiter wa = { .folio = a }, wb = { .folio = b };
	folio_lock(a);
	folio_lock(b);
	struct task_struct *ta = kthread_create(bucket_waiter_fn, &wa, "bucket-a");
	struct task_struct *tb = kthread_create(bucket_waiter_fn, &wb, "bucket-b");
	KTEST_ASSERT_TRUE(t, ta && tb);
	wake_up_process(ta);
	wake_up_process(tb);
	msleep(2);		/* both asleep in the shared bucket now */
	KTEST_EXPECT_TRUE(t, folio_test_waiters(a));
	KTEST_EXPECT_TRUE(t, folio_test_waiters(b));
	KTEST_EXPECT_FALSE(t, wa.got || wb.got);

	folio_unlock(a);
	msleep(2);
	KTEST_EXPECT_EQ(t, wa.got, 1);
	KTEST_EXPECT_EQ(t, wb.got, 0);		/* not woken for the wrong folio */
	KTEST_EXPECT_TRUE(t, folio_test_waiters(b));
	folio_unlock(b);
	KTEST_EXPECT_EQ(t, kthread_join(tb), 0);
	KTEST_EXPECT_EQ(t, kthread_join(ta), 0);
	KTEST_EXPECT_EQ(t, wb.got, 1);
	KTEST_EXPECT_FALSE(t, folio_test_waiters(b));
	KTEST_EXPECT_FALSE(t, folio_test_locked(a) || folio_test_locked(b));
	for (int i = 0; i <= n; i++)
		folio_put(pool[i]);
}

static int writeback_waiter_fn(void *arg)
{
	struct folio *folio = arg;

	folio_wait_writeback(folio);
	return folio_test_writeback(folio) ? -1 : 1;
}

/* Writeback starts under the folio lock, as write_cache_pages starts it. */
static void start_writeback_locked(struct folio *folio)
{
	folio_lock(folio);
	folio_start_writeback(folio);
	folio_unlock(folio);
}

/* folio_wait_writeback sleeps until folio_end_writeback; end without sleepers wakes nobody. */
void folio_writeback_wait(struct ktest *t)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);

	KTEST_ASSERT_TRUE(t, folio != NULL);
	unsigned long wakes = folio_wake_bit_calls();
	start_writeback_locked(folio);
	folio_end_writeback(folio);
	KTEST_EXPECT_EQ(t, folio_wake_bit_calls(), wakes);

	start_writeback_locked(folio);
	struct task_struct *w = kthread_run(writeback_waiter_fn, folio, "wb-wait");
	KTEST_ASSERT_TRUE(t, w != NULL);
	msleep(2);
	KTEST_EXPECT_TRUE(t, folio_test_waiters(folio));
	folio_end_writeback(folio);
	KTEST_EXPECT_EQ(t, kthread_join(w), 1);
	KTEST_EXPECT_EQ(t, folio_wake_bit_calls(), wakes + 1);
	KTEST_EXPECT_FALSE(t, folio_test_waiters(folio));
	folio_put(folio);
}
