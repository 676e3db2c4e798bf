/*
 * timer_test.c - the kernel core's time on the host, under ASan/UBSan, with ucontext threads and
 * a simulated clock (tests/host/host_sched_arch.c): timer_list, hrtimer, msleep and
 * schedule_timeout fire exactly at their deadlines rounded up to a counter tick (at 3 MHz and at
 * QEMU ARM's 62.5 MHz), wait_event_timeout's return values, and the workqueue's delayed work.
 * Shared set-up: tests/host/host_sched_test.h.
 */
#include "host_sched_test.h"

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

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(timers_fire_at_simulated_deadlines),
		cmocka_unit_test_teardown(timers_fire_at_simulated_deadlines_62_5_mhz, restore_freq),
		cmocka_unit_test(wait_event_timeout_exact),
		cmocka_unit_test(workqueue_runs_delays_and_cancels),
	};

	return host_sched_main(tests, ARRAY_SIZE(tests));
}
