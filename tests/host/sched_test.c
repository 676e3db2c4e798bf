/*
 * sched_test.c - the kernel core's threads and locks (kernel/sched.c, kthread.c, wait.c,
 * mutex.c, completion.c; mm/filemap.c's folio lock) on the host, under ASan/UBSan, with
 * cooperative ucontext threads and a simulated clock (tests/host/host_sched_arch.c).  Timers
 * and the workqueue are tests/host/timer_test.c; the shared set-up is host_sched_test.h.
 *
 * main() boots the page and slab allocators over a fake RAM, then moves to the shim's boot stack
 * (host_sched_boot()), where sched_init() makes it the idle thread, timers_init() and
 * workqueue_init() start, and cmocka runs.  Each test runs its scenario in a "ctl" thread while
 * the idle thread drives host_idle_until(): when nothing is runnable the clock jumps to the
 * programmed deadline and the timer interrupt is delivered, so every time below is exact and the
 * whole run takes no wall-clock waiting.  Checks inside threads go through CHECK*() (cmocka's
 * assertions longjmp, which must not cross thread stacks); the test asserts none failed.
 */
#include "host_sched_test.h"

/* A timer callback counts and wakes its waiter (the might_sleep case). */
static DECLARE_WAIT_QUEUE_HEAD(wq_cb);
static int cb_count;

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

	unsigned long before = nr_free_pages_and_pcp();
	p = kthread_create_opts(returns_42, NULL, "ret42", DEFAULT_PRIO, 1);
	CHECK(p != NULL);
	CHECK_EQ(p->__state, TASK_NEW);
	CHECK_EQ(nr_free_pages_and_pcp(), before - 2);		/* an 8 KiB stack */
	wake_up_process(p);
	CHECK_EQ(kthread_join(p), 42);
	CHECK_EQ(nr_free_pages_and_pcp(), before);		/* its stack is back */

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
	CHECK_EQ(nr_free_pages_and_pcp(), before);

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

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(waitqueue_ping_pong_10000_rounds),
		cmocka_unit_test(mutex_8_threads_exact_and_fifo),
		cmocka_unit_test(folio_lock_4_threads_exclusive),
		cmocka_unit_test(folio_shared_bucket_wakes_only_own_waiter),
		cmocka_unit_test(folio_lock_hands_off_after_5_unfair_tries),
		cmocka_unit_test(completion_counts_and_times),
		cmocka_unit_test(might_sleep_counts_atomic_contexts),
		cmocka_unit_test(kthread_join_exit_code_and_stack_freed),
	};

	return host_sched_main(tests, ARRAY_SIZE(tests));
}
