/*
 * sched_test.c - the kernel core (kernel/sched.c, kthread.c, timer.c, wait.c, mutex.c,
 * completion.c, workqueue.c, irq.c; mm/filemap.c) on the host, under ASan/UBSan, with
 * cooperative ucontext threads and a simulated clock (tests/host/host_sched_arch.c).
 *
 * main() boots the page and slab allocators over a fake RAM, then moves to the shim's boot stack
 * (host_sched_boot()), where sched_init() makes it the idle thread, timers_init() and
 * workqueue_init() start, and cmocka runs.  Each test runs its scenario in a "ctl" thread while
 * the idle thread drives host_idle_until(): when nothing is runnable the clock jumps to the
 * programmed deadline and the timer interrupt is delivered, so every time below is exact and the
 * whole run takes no wall-clock waiting.  Checks inside threads go through CHECK*() (cmocka's
 * assertions longjmp, which must not cross thread stacks); the test asserts none failed.
 */
#include "test.h"
#include "host_sched.h"
#include "tinymm/completion.h"
#include "tinymm/delay.h"
#include "tinymm/irqflags.h"
#include "tinymm/memblock.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/spinlock.h"
#include "tinymm/time.h"
#include "tinymm/timer.h"
#include "tinymm/wait.h"
#include "tinymm/workqueue.h"

#define MIB		(1UL << 20)
#define RAM_SIZE	(16 * MIB)
/* 3 MHz: a jiffy is exactly 3000 ticks, most nanosecond deadlines fall between two ticks, and
 * 1e9 / 3e6 is not whole (the timer code's general path).  One test repeats at QEMU ARM's
 * 62.5 MHz (16 ns a tick: the one-multiply path of kernel/time.c). */
#define FREQ		3000000ULL
static uint64_t freq = FREQ;
#define STACK_ORDER	2		/* test threads: 16 KiB (ASan's frames are larger) */

static char *ram;

/* ---- checks inside threads ---- */

static int failures;

#define CHECK(c)									\
	do {										\
		if (!(c)) {								\
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
			failures++;							\
		}									\
	} while (0)
#define CHECK_EQ(a, b)									\
	do {										\
		long long __a = (long long)(a), __b = (long long)(b);			\
		if (__a != __b) {							\
			fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n",	\
				__FILE__, __LINE__, #a, #b, __a, __b);			\
			failures++;							\
		}									\
	} while (0)

/* The time a deadline of @ns is met: the first counter tick at or after it, in ns. */
static uint64_t tick_ceil(uint64_t ns)
{
	uint64_t c = ns / NSEC_PER_SEC * freq + (ns % NSEC_PER_SEC * freq + NSEC_PER_SEC - 1) / NSEC_PER_SEC;

	return ticks_to_ns(c, freq);
}

static uint64_t jiffy_deadline(unsigned long j)
{
	return tick_ceil((uint64_t)j * NSEC_PER_JIFFY);
}

static struct task_struct *start(int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *p = kthread_create_opts(fn, arg, name, DEFAULT_PRIO, STACK_ORDER);

	CHECK(p != NULL);
	wake_up_process(p);
	return p;
}

/* ---- scenarios: run in a thread while the idle thread drives the clock ---- */

static volatile bool scenario_done;

struct scenario {
	int (*fn)(void);
	int ret;
};

static int controller(void *arg)
{
	struct scenario *s = arg;

	s->ret = s->fn();
	scenario_done = true;
	return 0;
}

static void run_scenario(int (*fn)(void))
{
	struct scenario s = { .fn = fn, .ret = -1 };
	struct task_struct *ctl;

	failures = 0;
	scenario_done = false;
	ctl = kthread_create_opts(controller, &s, "ctl", DEFAULT_PRIO, STACK_ORDER);
	assert_non_null(ctl);
	kthread_detach(ctl);
	wake_up_process(ctl);
	host_idle_until(&scenario_done);
	assert_int_equal(s.ret, 0);
	assert_int_equal(failures, 0);
	assert_int_equal(preempt_count(), 0);
	assert_false(irqs_disabled());
}

/* ---- wait queues: ping-pong ---- */

#define PINGPONG_ROUNDS	10000
static DECLARE_WAIT_QUEUE_HEAD(wq_ping);
static DECLARE_WAIT_QUEUE_HEAD(wq_pong);
static int turn, rounds[2];

static int pingpong_thread(void *arg)
{
	int me = (int)(long)arg;
	struct wait_queue_head *mine = me ? &wq_pong : &wq_ping, *other = me ? &wq_ping : &wq_pong;

	for (int i = 0; i < PINGPONG_ROUNDS; i++) {
		wait_event(*mine, READ_ONCE(turn) == me);
		CHECK_EQ(rounds[me], rounds[!me] - me);		/* strictly alternating */
		rounds[me]++;
		WRITE_ONCE(turn, !me);
		wake_up(other);
	}
	return 0;
}

static int pingpong(void)
{
	unsigned long switches = sched_nr_switches();
	uint64_t t0 = ktime_get_ns();

	turn = 0;
	rounds[0] = rounds[1] = 0;
	struct task_struct *a = start(pingpong_thread, (void *)0L, "ping");
	struct task_struct *b = start(pingpong_thread, (void *)1L, "pong");
	CHECK_EQ(kthread_join(a), 0);
	CHECK_EQ(kthread_join(b), 0);
	CHECK_EQ(rounds[0], PINGPONG_ROUNDS);
	CHECK_EQ(rounds[1], PINGPONG_ROUNDS);
	CHECK(sched_nr_switches() - switches >= 2 * PINGPONG_ROUNDS);
	CHECK_EQ(ktime_get_ns(), t0);		/* no timer was needed */
	CHECK(!waitqueue_active(&wq_ping) && !waitqueue_active(&wq_pong));
	return 0;
}

static void waitqueue_ping_pong_10000_rounds(void **state)
{
	run_scenario(pingpong);
}

/* ---- mutex: 8 threads, yields inside the critical section ---- */

#define MUTEX_THREADS	8
#define MUTEX_ITERS	50
static DEFINE_MUTEX(test_mutex);
static long mutex_counter;
static int arrive[MUTEX_THREADS * MUTEX_ITERS], acquire[MUTEX_THREADS * MUTEX_ITERS];
static int narrive, nacquire, in_critical;

static int mutex_thread(void *arg)
{
	int id = (int)(long)arg;

	for (int i = 0; i < MUTEX_ITERS; i++) {
		/* No switch between logging the arrival and queueing in mutex_lock(): cooperative
		 * threads of one priority, so the log is the wait list's order. */
		arrive[narrive++] = id;
		mutex_lock(&test_mutex);
		acquire[nacquire++] = id;
		CHECK_EQ(in_critical, 0);
		CHECK(__mutex_owner(&test_mutex) == current);
		in_critical = 1;
		long v = mutex_counter;
		yield();
		if (i % 3 == 0)
			yield();
		mutex_counter = v + 1;
		in_critical = 0;
		mutex_unlock(&test_mutex);
		if (i % 2)
			yield();
	}
	return 0;
}

static int mutex_contention(void)
{
	struct task_struct *t[MUTEX_THREADS];
	unsigned long contended = mutex_contended();

	mutex_counter = 0;
	narrive = nacquire = 0;
	for (long i = 0; i < MUTEX_THREADS; i++)
		t[i] = start(mutex_thread, (void *)i, "mutex");
	for (int i = 0; i < MUTEX_THREADS; i++)
		CHECK_EQ(kthread_join(t[i]), 0);
	CHECK_EQ(mutex_counter, MUTEX_THREADS * MUTEX_ITERS);
	CHECK_EQ(nacquire, MUTEX_THREADS * MUTEX_ITERS);
	CHECK_EQ(narrive, nacquire);
	int first_diff = -1;
	for (int i = 0; i < nacquire && first_diff < 0; i++)
		if (arrive[i] != acquire[i])
			first_diff = i;
	CHECK_EQ(first_diff, -1);		/* acquired in arrival order: FIFO hand-off */
	CHECK(mutex_contended() - contended >= MUTEX_THREADS * MUTEX_ITERS / 2);
	CHECK(!mutex_is_locked(&test_mutex));
	CHECK(list_empty(&test_mutex.wait_list));
	return 0;
}

static void mutex_8_threads_exact_and_fifo(void **state)
{
	run_scenario(mutex_contention);
}

/* ---- the folio lock ---- */

static struct folio folios[4096];

static bool bucket_idle(struct folio *f)
{
	return !waitqueue_active(folio_waitqueue(f));
}

#define FOLIO_THREADS	4
#define FOLIO_ITERS	100
static struct folio *lock_folio;
static int folio_holders, folio_sleeps;

static int folio_thread(void *arg)
{
	for (int i = 0; i < FOLIO_ITERS; i++) {
		if (folio_test_locked(lock_folio))
			folio_sleeps++;
		folio_lock(lock_folio);
		CHECK_EQ(folio_holders, 0);
		folio_holders++;
		yield();
		CHECK(folio_test_locked(lock_folio));
		CHECK_EQ(folio_holders, 1);
		folio_holders--;
		folio_unlock(lock_folio);
		if (i % 2)
			yield();
	}
	return 0;
}

static int folio_lock_4(void)
{
	struct task_struct *t[FOLIO_THREADS];

	lock_folio = &folios[1];
	CHECK(bucket_idle(lock_folio));
	/* Uncontended: one atomic each way, never the hashed queue. */
	unsigned long calls = folio_wake_bit_calls();
	CHECK(folio_trylock(lock_folio));
	CHECK(!folio_trylock(lock_folio));
	folio_unlock(lock_folio);
	folio_lock(lock_folio);
	folio_unlock(lock_folio);
	CHECK_EQ(folio_wake_bit_calls(), calls);
	CHECK(!folio_test_locked(lock_folio) && !folio_test_waiters(lock_folio));

	folio_holders = folio_sleeps = 0;
	for (int i = 0; i < FOLIO_THREADS; i++)
		t[i] = start(folio_thread, NULL, "folio");
	for (int i = 0; i < FOLIO_THREADS; i++)
		CHECK_EQ(kthread_join(t[i]), 0);
	CHECK(folio_sleeps > 0);
	CHECK(folio_wake_bit_calls() > calls);
	CHECK(!folio_test_locked(lock_folio));
	CHECK(!folio_test_waiters(lock_folio));		/* cleared by the last contended unlock */
	CHECK(bucket_idle(lock_folio));
	calls = folio_wake_bit_calls();
	CHECK(folio_trylock(lock_folio));
	folio_unlock(lock_folio);
	CHECK_EQ(folio_wake_bit_calls(), calls);
	return 0;
}

static void folio_lock_4_threads_exclusive(void **state)
{
	run_scenario(folio_lock_4);
}

/* Two folios hashed to one bucket. */
static struct folio *share_a, *share_b;
static DECLARE_WAIT_QUEUE_HEAD(wq_release);
static bool release_a, release_b, got_a, got_b;

static int share_thread(void *arg)
{
	bool is_a = arg != NULL;
	struct folio *f = is_a ? share_a : share_b;

	folio_lock(f);
	WRITE_ONCE(*(is_a ? &got_a : &got_b), true);
	wait_event(wq_release, READ_ONCE(*(is_a ? &release_a : &release_b)));
	folio_unlock(f);
	return 0;
}

static int shared_bucket(void)
{
	share_a = share_b = NULL;
	for (size_t i = 2; i < ARRAY_SIZE(folios) && !share_b; i++)
		for (size_t j = i + 1; j < ARRAY_SIZE(folios); j++)
			if (folio_waitqueue(&folios[i]) == folio_waitqueue(&folios[j])) {
				share_a = &folios[i];
				share_b = &folios[j];
				break;
			}
	CHECK(share_b != NULL);
	if (!share_b)
		return -1;
	CHECK(bucket_idle(share_a));
	release_a = release_b = got_a = got_b = false;

	CHECK(folio_trylock(share_a));
	CHECK(folio_trylock(share_b));
	/* B's waiter queues first, so A's wake-up walks past it. */
	struct task_struct *tb = start(share_thread, NULL, "waiter-b");
	struct task_struct *ta = start(share_thread, (void *)1L, "waiter-a");
	yield();			/* both run and sleep in folio_lock() */
	CHECK_EQ(ta->__state, TASK_UNINTERRUPTIBLE);
	CHECK_EQ(tb->__state, TASK_UNINTERRUPTIBLE);
	CHECK(folio_test_waiters(share_a) && folio_test_waiters(share_b));

	unsigned long calls = folio_wake_bit_calls();
	folio_unlock(share_a);
	CHECK_EQ(folio_wake_bit_calls(), calls + 1);
	CHECK_EQ(ta->__state, TASK_RUNNING);		/* its waiter woke ... */
	CHECK_EQ(tb->__state, TASK_UNINTERRUPTIBLE);	/* ... the other folio's did not */
	CHECK(folio_test_waiters(share_b));
	yield();
	CHECK(READ_ONCE(got_a) && !READ_ONCE(got_b));
	CHECK(folio_test_locked(share_a));
	CHECK_EQ(tb->__state, TASK_UNINTERRUPTIBLE);

	/* A's holder unlocks: the walk meets only B's waiter, so A's PG_waiters clears. */
	WRITE_ONCE(release_a, true);
	wake_up_all(&wq_release);
	CHECK_EQ(kthread_join(ta), 0);
	CHECK(!folio_test_locked(share_a));
	CHECK(!folio_test_waiters(share_a));
	CHECK(folio_test_waiters(share_b));		/* still set, its waiter still sleeps */
	CHECK_EQ(tb->__state, TASK_UNINTERRUPTIBLE);
	CHECK_EQ(folio_wake_bit_calls(), calls + 2);

	/* B's own unlock wakes its waiter and clears its PG_waiters. */
	folio_unlock(share_b);
	CHECK_EQ(folio_wake_bit_calls(), calls + 3);
	CHECK(!folio_test_waiters(share_b));
	CHECK(folio_test_locked(share_b) || tb->__state == TASK_RUNNING);
	WRITE_ONCE(release_b, true);
	CHECK_EQ(kthread_join(tb), 0);
	CHECK(got_b);
	CHECK(!folio_test_locked(share_b) && !folio_test_waiters(share_b));
	CHECK_EQ(folio_wake_bit_calls(), calls + 3);	/* uncontended final unlock */
	CHECK(bucket_idle(share_a));
	return 0;
}

static void folio_shared_bucket_wakes_only_own_waiter(void **state)
{
	run_scenario(shared_bucket);
}

/* The loser: queued behind a holder that takes the lock back after every unlock. */
static struct folio *handoff_folio;
static bool loser_got;

static int loser_thread(void *arg)
{
	folio_lock(handoff_folio);
	loser_got = true;
	folio_unlock(handoff_folio);
	return 0;
}

static int handoff(void)
{
	handoff_folio = &folios[0];
	CHECK(bucket_idle(handoff_folio));
	loser_got = false;
	CHECK(folio_trylock(handoff_folio));
	struct task_struct *w = start(loser_thread, NULL, "loser");
	yield();			/* w sleeps in folio_lock(): attempt 1 */
	int steals = 0;
	bool handed = false;
	for (int round = 0; round < 20; round++) {
		CHECK_EQ(w->__state, TASK_UNINTERRUPTIBLE);
		folio_unlock(handoff_folio);
		if (folio_test_locked(handoff_folio)) {
			/* Taken for the sleeping waiter by its wake function: the hand-off. */
			handed = true;
			break;
		}
		CHECK(folio_trylock(handoff_folio));	/* the unfair steal */
		steals++;
		yield();		/* w finds it gone and queues again */
	}
	CHECK(handed);
	CHECK_EQ(steals, 5);		/* PAGE_LOCK_UNFAIRNESS: the 6th queueing is WQ_FLAG_CUSTOM */
	CHECK(!loser_got);
	CHECK(!folio_trylock(handoff_folio));
	CHECK_EQ(kthread_join(w), 0);
	CHECK(loser_got);
	CHECK(!folio_test_locked(handoff_folio) && !folio_test_waiters(handoff_folio));
	return 0;
}

static void folio_lock_hands_off_after_5_unfair_tries(void **state)
{
	run_scenario(handoff);
}

/* ---- timers against their simulated deadlines ---- */

static DECLARE_WAIT_QUEUE_HEAD(wq_cb);
static uint64_t cb_ns[8];
static int cb_count;
static bool cb_in_irq;

static void tl_fn(struct timer_list *t)
{
	cb_ns[cb_count++] = ktime_get_ns();
	cb_in_irq = in_interrupt() && irqs_disabled();
	wake_up(&wq_cb);
}

static struct hrtimer periodic;
#define PERIOD_NS	2500000

static enum hrtimer_restart hr_fn(struct hrtimer *t)
{
	cb_ns[cb_count++] = ktime_get_ns();
	cb_in_irq = in_interrupt() && irqs_disabled();
	wake_up(&wq_cb);
	if (t == &periodic && cb_count < 4) {
		hrtimer_forward_now(t, PERIOD_NS);
		return HRTIMER_RESTART;
	}
	return HRTIMER_NORESTART;
}

static int timers(void)
{
	unsigned long j0, irqs;
	uint64_t t0;

	/* msleep(10): 10 jiffies rounded up, plus one (Linux's "at least"). */
	j0 = jiffies;
	irqs = host_idle_interrupts();
	msleep(10);
	CHECK_EQ(ktime_get_ns(), jiffy_deadline(j0 + 11));
	CHECK_EQ(host_idle_interrupts() - irqs, 1);	/* tickless: one interrupt, at the end */

	/* schedule_timeout(7) */
	j0 = jiffies;
	set_current_state(TASK_UNINTERRUPTIBLE);
	CHECK_EQ(schedule_timeout(7), 0);
	CHECK_EQ(ktime_get_ns(), jiffy_deadline(j0 + 7));

	/* a timer_list 5 jiffies ahead, in interrupt context */
	struct timer_list tl;
	cb_count = 0;
	timer_setup(&tl, tl_fn, 0);
	j0 = jiffies;
	CHECK_EQ(mod_timer(&tl, j0 + 5), 0);
	CHECK(timer_pending(&tl));
	wait_event(wq_cb, cb_count == 1);
	CHECK_EQ(cb_ns[0], jiffy_deadline(j0 + 5));
	CHECK_EQ(ktime_get_ns(), cb_ns[0]);
	CHECK(cb_in_irq);
	CHECK(!timer_pending(&tl));

	/* a deleted timer_list never fires */
	cb_count = 0;
	mod_timer(&tl, jiffies + 3);
	CHECK_EQ(del_timer(&tl), 1);
	CHECK_EQ(del_timer(&tl), 0);
	msleep(5);
	CHECK_EQ(cb_count, 0);

	/* an hrtimer 1234567 ns ahead (between two ticks: rounded up to the next) */
	struct hrtimer hr;
	cb_count = 0;
	hrtimer_init(&hr, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hr.function = hr_fn;
	t0 = ktime_get_ns();
	hrtimer_start(&hr, 1234567, HRTIMER_MODE_REL);
	wait_event(wq_cb, cb_count == 1);
	CHECK_EQ(cb_ns[0], tick_ceil(t0 + 1234567));
	CHECK(cb_ns[0] > t0 + 1234567);
	CHECK(cb_in_irq);

	/* a periodic hrtimer: 4 expiries PERIOD_NS apart from an absolute start */
	cb_count = 0;
	hrtimer_init(&periodic, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	periodic.function = hr_fn;
	t0 = ktime_get_ns() + 1000;
	hrtimer_start(&periodic, (ktime_t)t0, HRTIMER_MODE_ABS);
	wait_event(wq_cb, cb_count == 4);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(cb_ns[i], tick_ceil(t0 + (uint64_t)i * PERIOD_NS));
	CHECK(!hrtimer_active(&periodic));

	/* hrtimer_cancel before it fires */
	cb_count = 0;
	hrtimer_start(&hr, 500000, HRTIMER_MODE_REL);
	CHECK_EQ(hrtimer_cancel(&hr), 1);
	msleep(2);
	CHECK_EQ(cb_count, 0);
	CHECK_EQ(hrtimer_cancel(&hr), 0);
	CHECK_EQ(del_timer_sync(&tl), 0);
	return 0;
}

static void timers_fire_at_simulated_deadlines(void **state)
{
	run_scenario(timers);
}

/* Change the counter's frequency between scenarios (nothing programmed), time going on. */
static void set_freq(uint64_t f)
{
	uint64_t now = ktime_get_ns();

	assert_false(host_timer_armed(NULL));
	freq = f;
	time_init(f);
	shim_counter_freq = f;
	shim_counter = (now / NSEC_PER_SEC * f + (now % NSEC_PER_SEC * f + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
	assert_true(ktime_get_ns() >= now);
}

static void timers_fire_at_simulated_deadlines_62_5_mhz(void **state)
{
	set_freq(62500000);
	run_scenario(timers);
}

static int restore_freq(void **state)
{
	set_freq(FREQ);
	return 0;
}

/* ---- wait_event_timeout ---- */

static DECLARE_WAIT_QUEUE_HEAD(wq_cond);
static bool cond_flag;

static int cond_setter(void *arg)
{
	msleep((unsigned int)(long)arg);
	WRITE_ONCE(cond_flag, true);
	wake_up(&wq_cond);
	return 0;
}

static int wait_timeout(void)
{
	unsigned long j0, jw;
	long r;

	cond_flag = false;
	j0 = jiffies;
	r = wait_event_timeout(wq_cond, READ_ONCE(cond_flag), 20);
	CHECK_EQ(r, 0);
	CHECK_EQ(ktime_get_ns(), jiffy_deadline(j0 + 20));
	CHECK(!waitqueue_active(&wq_cond));

	/* woken early: the setter's msleep(3) ends 4 jiffies later */
	struct task_struct *s = start(cond_setter, (void *)3L, "setter");
	j0 = jiffies;
	r = wait_event_timeout(wq_cond, READ_ONCE(cond_flag), 50);
	jw = jiffies;
	CHECK(cond_flag);
	CHECK_EQ(jw, j0 + 4);
	CHECK_EQ(r, (long)(j0 + 50 - jw));
	CHECK_EQ(r, 46);
	CHECK_EQ(kthread_join(s), 0);

	/* already true: the whole timeout back, no sleep */
	r = wait_event_timeout(wq_cond, READ_ONCE(cond_flag), 9);
	CHECK_EQ(r, 9);
	CHECK_EQ(jiffies, jw);
	return 0;
}

static void wait_event_timeout_exact(void **state)
{
	run_scenario(wait_timeout);
}

/* ---- completions ---- */

static struct completion comp;
static int comp_order[3], comp_n;

static int comp_waiter(void *arg)
{
	wait_for_completion(&comp);
	comp_order[comp_n++] = (int)(long)arg;
	return 0;
}

static void complete_from_irq(struct timer_list *t)
{
	complete(&comp);
}

static int completions(void)
{
	struct task_struct *w[3];

	init_completion(&comp);
	comp_n = 0;
	for (long i = 0; i < 3; i++)
		w[i] = start(comp_waiter, (void *)i, "comp");
	yield();			/* all three wait */
	CHECK_EQ(comp_n, 0);
	complete(&comp);		/* wakes exactly one, the first */
	yield();
	CHECK_EQ(comp_n, 1);
	CHECK_EQ(comp_order[0], 0);
	complete(&comp);
	complete(&comp);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(kthread_join(w[i]), 0);
	CHECK_EQ(comp_n, 3);
	CHECK(comp_order[1] == 1 && comp_order[2] == 2);
	CHECK(!completion_done(&comp));

	/* done counts: two complete()s, two waits without sleeping */
	complete(&comp);
	complete(&comp);
	CHECK(try_wait_for_completion(&comp));
	unsigned long left = wait_for_completion_timeout(&comp, 5);
	CHECK_EQ(left, 5);
	CHECK(!try_wait_for_completion(&comp));

	/* timing out, exactly */
	unsigned long j0 = jiffies;
	CHECK_EQ(wait_for_completion_timeout(&comp, 15), 0);
	CHECK_EQ(ktime_get_ns(), jiffy_deadline(j0 + 15));
	CHECK(!waitqueue_active(&comp.wait));

	/* completed from a timer interrupt 6 jiffies in: the rest of the timeout is left */
	struct timer_list tl;
	timer_setup(&tl, complete_from_irq, 0);
	j0 = jiffies;
	mod_timer(&tl, j0 + 6);
	CHECK_EQ(wait_for_completion_timeout(&comp, 30), 24);
	CHECK_EQ(ktime_get_ns(), jiffy_deadline(j0 + 6));
	CHECK_EQ(del_timer_sync(&tl), 0);	/* (on this stack: never left queued) */

	/* complete_all: every waiter, and done stays */
	comp_n = 0;
	reinit_completion(&comp);
	w[0] = start(comp_waiter, (void *)0L, "comp");
	w[1] = start(comp_waiter, (void *)1L, "comp");
	yield();
	complete_all(&comp);
	CHECK_EQ(kthread_join(w[0]), 0);
	CHECK_EQ(kthread_join(w[1]), 0);
	CHECK_EQ(comp_n, 2);
	CHECK(completion_done(&comp));
	wait_for_completion(&comp);
	CHECK(completion_done(&comp));
	return 0;
}

static void completion_counts_and_times(void **state)
{
	run_scenario(completions);
}

/* ---- workqueue ---- */

static DECLARE_WAIT_QUEUE_HEAD(wq_work);
static int work_runs, dwork_runs, slow_runs;
static uint64_t dwork_ns;
static bool work_in_worker, slow_running, slow_finished;

static void work_fn(struct work_struct *w)
{
	work_runs++;
	work_in_worker = !strcmp(current->comm, "kworker/events") && in_task() && !irqs_disabled();
	wake_up(&wq_work);
}

static void dwork_fn(struct work_struct *w)
{
	dwork_runs++;
	dwork_ns = ktime_get_ns();
	wake_up(&wq_work);
}

static void slow_fn(struct work_struct *w)
{
	slow_running = true;
	msleep(5);		/* work may sleep */
	slow_runs++;
	slow_finished = true;
	slow_running = false;
}

static int workqueue(void)
{
	struct work_struct w, slow;
	struct delayed_work dw, dw2;

	CHECK(system_wq != NULL);
	work_runs = dwork_runs = slow_runs = 0;
	INIT_WORK(&w, work_fn);
	/* The worker (WORKER_PRIO) outranks us: it runs as soon as it is woken. */
	CHECK(schedule_work(&w));
	CHECK_EQ(work_runs, 1);
	CHECK(work_in_worker);
	CHECK(!work_pending(&w));
	CHECK(!flush_work(&w));		/* idle already */

	/* queued twice while pending: runs once */
	preempt_disable();
	CHECK(schedule_work(&w));
	CHECK(!schedule_work(&w));
	CHECK(work_pending(&w));
	preempt_enable();
	CHECK_EQ(work_runs, 2);

	/* delayed work at its simulated time */
	INIT_DELAYED_WORK(&dw, dwork_fn);
	unsigned long j0 = jiffies;
	CHECK(schedule_delayed_work(&dw, 7));
	CHECK(!schedule_delayed_work(&dw, 7));
	CHECK(delayed_work_pending(&dw));
	wait_event(wq_work, dwork_runs == 1);
	CHECK_EQ(dwork_ns, jiffy_deadline(j0 + 7));
	CHECK(!delayed_work_pending(&dw));

	/* cancelled before its timer: never runs */
	INIT_DELAYED_WORK(&dw2, dwork_fn);
	CHECK(schedule_delayed_work(&dw2, 5));
	CHECK(cancel_delayed_work_sync(&dw2));
	CHECK(!delayed_work_pending(&dw2));
	msleep(20);
	CHECK_EQ(dwork_runs, 1);
	CHECK(!cancel_delayed_work_sync(&dw2));	/* not pending any more */

	/* cancel_work_sync waits for a running item */
	INIT_WORK(&slow, slow_fn);
	slow_finished = false;
	CHECK(schedule_work(&slow));
	CHECK(slow_running);			/* it ran until its msleep */
	uint64_t t0 = ktime_get_ns();
	CHECK(!cancel_work_sync(&slow));	/* running, not pending */
	CHECK(slow_finished);
	CHECK(ktime_get_ns() > t0);
	CHECK_EQ(slow_runs, 1);
	flush_workqueue(system_wq);
	return 0;
}

static void workqueue_runs_delays_and_cancels(void **state)
{
	run_scenario(workqueue);
}

/* ---- might_sleep in atomic context ---- */

static DEFINE_SPINLOCK(test_lock);

static void might_sleep_in_irq(struct timer_list *t)
{
	might_sleep();
	cb_count++;
	wake_up(&wq_cb);
}

static int might_sleep_checks(void)
{
	msleep(1100);		/* past the one-a-second limit of any earlier report */
	shim_console_reset();
	unsigned long base = might_sleep_warnings();

	might_sleep();
	CHECK_EQ(might_sleep_warnings() - base, 0);
	preempt_disable();
	might_sleep();
	preempt_enable();
	CHECK_EQ(might_sleep_warnings() - base, 1);
	local_irq_disable();
	might_sleep();
	local_irq_enable();
	CHECK_EQ(might_sleep_warnings() - base, 2);
	spin_lock(&test_lock);
	might_sleep();
	spin_unlock(&test_lock);
	CHECK_EQ(might_sleep_warnings() - base, 3);

	struct timer_list tl;
	cb_count = 0;
	timer_setup(&tl, might_sleep_in_irq, 0);
	mod_timer(&tl, jiffies + 1);
	wait_event(wq_cb, cb_count == 1);
	CHECK_EQ(might_sleep_warnings() - base, 4);
	CHECK_EQ(del_timer_sync(&tl), 0);
	might_sleep();
	CHECK_EQ(might_sleep_warnings() - base, 4);

	/* Printed once (rate limit), naming this file. */
	const char *msg = "BUG: sleeping function called from invalid context at tests/host/sched_test.c:";
	const char *first = strstr(shim_console, msg);
	CHECK(first != NULL);
	CHECK(first && !strstr(first + 1, msg));
	CHECK(strstr(shim_console, "in_atomic(): 1, irqs_disabled(): 0") != NULL);
	return 0;
}

static void might_sleep_counts_atomic_contexts(void **state)
{
	run_scenario(might_sleep_checks);
}

/* ---- kthread lifetime ---- */

static int returns_42(void *arg)
{
	CHECK(task_stack_high_water(current) < current->stack_size - 1024);
	return 42;
}

static __noreturn void deep_exit(int depth)
{
	if (depth)
		deep_exit(depth - 1);
	kthread_exit(7);
}

static int exits_7(void *arg)
{
	deep_exit(3);
}

static int kthreads(void)
{
	struct task_struct *p;

	/* Warm the task_struct cache, then count pages. */
	p = kthread_create_opts(returns_42, NULL, "warm", DEFAULT_PRIO, 1);
	wake_up_process(p);
	CHECK_EQ(kthread_join(p), 42);

	unsigned long before = nr_free_pages();
	p = kthread_create_opts(returns_42, NULL, "ret42", DEFAULT_PRIO, 1);
	CHECK(p != NULL);
	CHECK_EQ(p->__state, TASK_NEW);
	CHECK_EQ(nr_free_pages(), before - 2);		/* an 8 KiB stack */
	wake_up_process(p);
	CHECK_EQ(kthread_join(p), 42);
	CHECK_EQ(nr_free_pages(), before);		/* its stack is back */

	p = start(exits_7, NULL, "exit7");
	CHECK_EQ(kthread_join(p), 7);

	/* joined after it ended */
	p = start(returns_42, NULL, "early");
	msleep(1);
	CHECK(p->exited);
	CHECK(p->stack == NULL);			/* freed at the switch after its end */
	CHECK_EQ(kthread_join(p), 42);

	/* detached: cleans up after itself */
	p = kthread_create_opts(returns_42, NULL, "detached", DEFAULT_PRIO, 1);
	kthread_detach(p);
	wake_up_process(p);
	msleep(1);
	CHECK_EQ(nr_free_pages(), before);

	/* ps lists the live threads */
	CHECK_EQ(shim_run("ps"), 0);
	CHECK(strstr(shim_console, "kworker/events") != NULL);
	CHECK(strstr(shim_console, "ctl") != NULL);
	CHECK(strstr(shim_console, "detached") == NULL);
	return 0;
}

static void kthread_join_exit_code_and_stack_freed(void **state)
{
	run_scenario(kthreads);
}

/* ---- boot ---- */

static void boot_memory(void)
{
	memblock_reset();
	if (memblock_add(__pa(ram), RAM_SIZE, NULL))
		abort();
	memblock_reserve(__pa(ram), 0x10000, MEMBLOCK_KERNEL);
	if (memmap_init() || page_alloc_init())
		abort();
	kmem_cache_init();
	time_init(freq);
	shim_counter_freq = freq;
	shim_counter = 1234567;		/* not on a jiffy */
	console_loglevel = 7;
}

static int on_boot_stack(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(waitqueue_ping_pong_10000_rounds),
		cmocka_unit_test(mutex_8_threads_exact_and_fifo),
		cmocka_unit_test(folio_lock_4_threads_exclusive),
		cmocka_unit_test(folio_shared_bucket_wakes_only_own_waiter),
		cmocka_unit_test(folio_lock_hands_off_after_5_unfair_tries),
		cmocka_unit_test(timers_fire_at_simulated_deadlines),
		cmocka_unit_test_teardown(timers_fire_at_simulated_deadlines_62_5_mhz, restore_freq),
		cmocka_unit_test(wait_event_timeout_exact),
		cmocka_unit_test(completion_counts_and_times),
		cmocka_unit_test(workqueue_runs_delays_and_cancels),
		cmocka_unit_test(might_sleep_counts_atomic_contexts),
		cmocka_unit_test(kthread_join_exit_code_and_stack_freed),
	};

	sched_init();			/* this context becomes the idle thread */
	pagecache_init();		/* the folio wait table */
	timers_init(NULL);
	workqueue_init();		/* the worker runs at once, then sleeps */
	return cmocka_run_group_tests(tests, NULL, NULL);
}

int main(void)
{
	ram = aligned_alloc(4 * MIB, RAM_SIZE);
	if (!ram)
		return 1;
	boot_memory();
	int ret = host_sched_boot(on_boot_stack);
	free(ram);
	return ret;
}
