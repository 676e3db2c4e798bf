/*
 * sched_ktest.c - the kernel core on every board (suite `sched`): timers against their
 * deadlines, thread ping-pong through a wait queue, a mutex under contention, the folio lock
 * with PG_waiters (exclusion, no wake-up when uncontended, shared hash buckets), priorities and
 * round-robin, join/exit/cleanup, thread stacks (vmalloc with a guard page), completions,
 * workqueues, might_sleep(), and an interrupt line with no handler.  The stack-overflow panic
 * has its own explicit suite (`sched_overflow`) because it ends the machine.
 *
 * The folio-lock cases are in sched_folio_ktest.c and the stack case in sched_stack_ktest.c
 * (declared in sched_ktest.h); the case table, one for the suite, is here.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/completion.h"
#include "tinymm/delay.h"
#include "tinymm/devicetree.h"
#include "tinymm/fdt.h"
#include "tinymm/gfp.h"
#include "tinymm/irq.h"
#include "tinymm/ktest.h"
#include "tinymm/mutex.h"
#include "tinymm/rwsem.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/rtc-goldfish.h"
#include "tinymm/sched.h"
#include "tinymm/timer.h"
#include "tinymm/wait.h"
#include "tinymm/workqueue.h"
#include "sched_ktest.h"

/* ---- timers ---- */

/*
 * Lower bounds (never early) always hold.  Upper bounds (within one tick) are exact only when
 * guest time is tied to instructions: without -icount a busy host may hold the vCPU back for
 * milliseconds of real time, which the guest's counter sees.  The -icount CTest passes
 * tinymm.ktest_strict_timing=1; other runs allow LOOSE_NS of host jitter.
 */
static bool strict_timing;
#define LOOSE_NS	(50 * NSEC_PER_MSEC)

KPARAM_BOOL(ktest_strict_timing, strict_timing,
       "1: the sched suite checks timers to one tick (for -icount runs)");

static ktime_t late_limit_ns(void)
{
	return strict_timing ? (ktime_t)NSEC_PER_JIFFY : (ktime_t)LOOSE_NS;
}

struct stamp_timer {
	struct hrtimer hr;
	volatile ktime_t fired_at;
	volatile int runs;
	ktime_t period;
};

static enum hrtimer_restart stamp_fn(struct hrtimer *hr)
{
	struct stamp_timer *s = container_of(hr, struct stamp_timer, hr);

	s->fired_at = ktime_get();
	s->runs++;
	if (s->period && s->runs < 5) {
		hrtimer_forward_now(hr, s->period);
		return HRTIMER_RESTART;
	}
	return HRTIMER_NORESTART;
}

/* A one-shot timer fires after its deadline and within one tick (1 ms) of it. */
static void hrtimer_fires_on_time(struct ktest *t)
{
	struct stamp_timer s = { .runs = 0 };

	for (int i = 1; i <= 3; i++) {
		s.runs = 0;
		hrtimer_init(&s.hr, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		s.hr.function = stamp_fn;
		ktime_t deadline = ktime_get() + i * 3 * (ktime_t)NSEC_PER_MSEC;
		hrtimer_start(&s.hr, deadline, HRTIMER_MODE_ABS);
		msleep(i * 3 + 5);
		KTEST_ASSERT_EQ(t, s.runs, 1);
		KTEST_EXPECT_GE(t, s.fired_at, deadline);
		KTEST_EXPECT_LT(t, s.fired_at - deadline, late_limit_ns());
		KTEST_EXPECT_FALSE(t, hrtimer_active(&s.hr));
	}
}

/* A periodic timer (HRTIMER_RESTART) runs once per period, each run after its own deadline. */
static void hrtimer_periodic(struct ktest *t)
{
	struct stamp_timer s = { .period = 2 * (ktime_t)NSEC_PER_MSEC };
	ktime_t start = ktime_get();

	hrtimer_init(&s.hr, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	s.hr.function = stamp_fn;
	hrtimer_start(&s.hr, s.period, HRTIMER_MODE_REL);
	/* 10 ms of periods, waited for up to a second: a loaded host may run the guest late, and
	 * a fixed sleep would leave the timer running on this frame after it returned. */
	for (int i = 0; i < 200 && s.runs < 5; i++)
		msleep(5);
	msleep(10);		/* a sixth run would show now */
	KTEST_EXPECT_EQ(t, s.runs, 5);
	KTEST_EXPECT_GE(t, s.fired_at, start + 5 * s.period);
	KTEST_EXPECT_FALSE(t, hrtimer_active(&s.hr));
	hrtimer_cancel(&s.hr);	/* never leave it armed on a dead stack frame */
}

struct jiffy_timer {
	struct timer_list timer;
	volatile unsigned long fired_jiffies;
	volatile int runs;
};

static void jiffy_fn(struct timer_list *tl)
{
	struct jiffy_timer *j = from_timer(j, tl, timer);

	j->fired_jiffies = jiffies;
	j->runs++;
}

/* timer_list: fires at its jiffy, not before; a deleted timer never fires; mod_timer re-arms.
 * A loaded host can stall QEMU for the few jiffies between two statements: a timer that fired
 * meanwhile is counted (the second mod_timer then re-arms it: "was not pending"), never an
 * early or a lost run. */
static void timer_list_jiffies(struct ktest *t)
{
	struct jiffy_timer j = { .runs = 0 };
	unsigned long expires = jiffies + 4;

	timer_setup(&j.timer, jiffy_fn, 0);
	KTEST_EXPECT_EQ(t, mod_timer(&j.timer, expires), 0);
	KTEST_EXPECT_TRUE(t, timer_pending(&j.timer) || j.runs == 1);
	int was = mod_timer(&j.timer, expires);
	int early = was ? 0 : 1;		/* fired before the re-arm */
	KTEST_EXPECT_EQ(t, j.runs, early);
	msleep(10);
	KTEST_EXPECT_EQ(t, j.runs, early + 1);
	KTEST_EXPECT_TRUE(t, time_after_eq(j.fired_jiffies, expires));
	KTEST_EXPECT_TRUE(t, time_before_eq(j.fired_jiffies,
					    expires + 1 + (unsigned long)(late_limit_ns() / NSEC_PER_JIFFY)));

	int runs = j.runs;
	mod_timer(&j.timer, jiffies + 3);
	int deleted = del_timer_sync(&j.timer);
	msleep(6);
	KTEST_EXPECT_EQ(t, j.runs, runs + !deleted);	/* deleted: it never fires */
	KTEST_EXPECT_EQ(t, del_timer(&j.timer), 0);
}

/* msleep sleeps at least as long as asked; udelay spins at least as long. */
static void sleeps_and_delays(struct ktest *t)
{
	uint64_t t0 = ktime_get_ns();
	msleep(20);
	uint64_t slept = ktime_get_ns() - t0;
	KTEST_EXPECT_GE(t, slept, 20 * NSEC_PER_MSEC);
	KTEST_EXPECT_LT(t, slept, 20 * NSEC_PER_MSEC + 2 * NSEC_PER_JIFFY + (uint64_t)late_limit_ns());
	t0 = ktime_get_ns();
	udelay(500);
	KTEST_EXPECT_GE(t, ktime_get_ns() - t0, 500 * NSEC_PER_USEC);
}

/* ---- threads ---- */

#define PINGPONG_ROUNDS	10000

struct pingpong {
	struct wait_queue_head wq;
	volatile unsigned long turn;	/* even: ping's turn, odd: pong's */
};

static int pong_fn(void *arg)
{
	struct pingpong *pp = arg;

	for (unsigned long i = 0; i < PINGPONG_ROUNDS; i++) {
		wait_event(pp->wq, pp->turn == 2 * i + 1);
		pp->turn++;
		wake_up(&pp->wq);
	}
	return 7;
}

/* 10 000 round trips through one wait queue: every wake-up arrives, none is lost. */
static void wait_queue_ping_pong(struct ktest *t)
{
	static struct pingpong pp;

	init_waitqueue_head(&pp.wq);
	pp.turn = 0;
	unsigned long switches = sched_nr_switches();
	struct task_struct *pong = kthread_create(pong_fn, &pp, "pong");
	KTEST_ASSERT_TRUE(t, pong != NULL);
	wake_up_process(pong);
	for (unsigned long i = 0; i < PINGPONG_ROUNDS; i++) {
		pp.turn++;
		wake_up(&pp.wq);
		wait_event(pp.wq, pp.turn == 2 * i + 2);
	}
	KTEST_EXPECT_EQ(t, kthread_join(pong), 7);
	KTEST_EXPECT_EQ(t, pp.turn, 2 * PINGPONG_ROUNDS);
	KTEST_EXPECT_GE(t, sched_nr_switches() - switches, 2 * PINGPONG_ROUNDS);
}

#define MUTEX_THREADS	8
#define MUTEX_ROUNDS	200

struct mutex_test {
	struct mutex lock;
	volatile unsigned long counter;
	volatile int inside;
	volatile int violations;
};

static int mutex_worker(void *arg)
{
	struct mutex_test *m = arg;

	for (int i = 0; i < MUTEX_ROUNDS; i++) {
		mutex_lock(&m->lock);
		if (m->inside++)
			m->violations++;
		unsigned long c = m->counter;
		if (!(i % 16))
			yield();	/* hold it across a switch: the others must wait */
		m->counter = c + 1;
		m->inside--;
		mutex_unlock(&m->lock);
	}
	return 0;
}

/* 8 threads, read-modify-write of a shared counter under a mutex held across switches. */
static void mutex_contended_by_8(struct ktest *t)
{
	static struct mutex_test m;
	struct task_struct *th[MUTEX_THREADS];
	unsigned long contended = mutex_contended();

	mutex_init(&m.lock);
	m.counter = 0;
	m.inside = m.violations = 0;
	for (int i = 0; i < MUTEX_THREADS; i++) {
		th[i] = kthread_create(mutex_worker, &m, "mutex%d", i);
		KTEST_ASSERT_TRUE(t, th[i] != NULL);
	}
	for (int i = 0; i < MUTEX_THREADS; i++)
		wake_up_process(th[i]);
	for (int i = 0; i < MUTEX_THREADS; i++)
		kthread_join(th[i]);
	KTEST_EXPECT_EQ(t, m.counter, (unsigned long)MUTEX_THREADS * MUTEX_ROUNDS);
	KTEST_EXPECT_EQ(t, m.violations, 0);
	KTEST_EXPECT_GT(t, mutex_contended() - contended, 0UL);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&m.lock));
	KTEST_EXPECT_TRUE(t, mutex_trylock(&m.lock));
	KTEST_EXPECT_FALSE(t, mutex_trylock(&m.lock));
	mutex_unlock(&m.lock);
}

#define RWSEM_READERS	6
#define RWSEM_WRITERS	2
#define RWSEM_ROUNDS	100

struct rwsem_test {
	struct rw_semaphore sem;
	volatile unsigned long counter;
	volatile int readers, writers, max_readers, violations;
};

static int rwsem_reader(void *arg)
{
	struct rwsem_test *r = arg;

	for (int i = 0; i < RWSEM_ROUNDS; i++) {
		down_read(&r->sem);
		if (r->writers)
			r->violations++;
		if (++r->readers > r->max_readers)
			r->max_readers = r->readers;
		yield();	/* hold it across a switch: other readers come in, writers wait */
		r->readers--;
		up_read(&r->sem);
	}
	return 0;
}

static int rwsem_writer(void *arg)
{
	struct rwsem_test *r = arg;

	for (int i = 0; i < RWSEM_ROUNDS; i++) {
		down_write(&r->sem);
		if (r->readers || r->writers++)
			r->violations++;
		unsigned long c = r->counter;
		if (!(i % 8))
			yield();
		r->counter = c + 1;
		r->writers--;
		up_write(&r->sem);
	}
	return 0;
}

/* 6 readers and 2 writers holding an rwsem across switches: readers share it (more than one
 * inside at once: a mutex would fail this), a writer is alone, no update is lost; trylock. */
static void rwsem_readers_share_writers_exclude(struct ktest *t)
{
	static struct rwsem_test r;
	struct task_struct *th[RWSEM_READERS + RWSEM_WRITERS];

	init_rwsem(&r.sem);
	r.counter = 0;
	r.readers = r.writers = r.max_readers = r.violations = 0;
	for (int i = 0; i < RWSEM_READERS + RWSEM_WRITERS; i++) {
		th[i] = kthread_create(i < RWSEM_READERS ? rwsem_reader : rwsem_writer, &r, "rwsem%d", i);
		KTEST_ASSERT_TRUE(t, th[i] != NULL);
	}
	for (int i = 0; i < RWSEM_READERS + RWSEM_WRITERS; i++)
		wake_up_process(th[i]);
	for (int i = 0; i < RWSEM_READERS + RWSEM_WRITERS; i++)
		kthread_join(th[i]);
	KTEST_EXPECT_EQ(t, r.counter, (unsigned long)RWSEM_WRITERS * RWSEM_ROUNDS);
	KTEST_EXPECT_EQ(t, r.violations, 0);
	KTEST_EXPECT_GE(t, r.max_readers, 2);
	KTEST_EXPECT_EQ(t, r.sem.count, 0);
	KTEST_EXPECT_TRUE(t, down_read_trylock(&r.sem));
	KTEST_EXPECT_TRUE(t, down_read_trylock(&r.sem));	/* readers share */
	KTEST_EXPECT_TRUE(t, rwsem_is_held_by_me(&r.sem));
	up_read(&r.sem);
	up_read(&r.sem);
	down_write(&r.sem);
	KTEST_EXPECT_TRUE(t, rwsem_is_held_by_me(&r.sem));
	KTEST_EXPECT_FALSE(t, down_read_trylock(&r.sem));	/* a writer holds it */
	up_write(&r.sem);
	KTEST_EXPECT_FALSE(t, rwsem_is_held_by_me(&r.sem));
}

/* ---- scheduling ---- */

static volatile unsigned long spins[3];
static volatile bool stop_spinning;

static int spinner_fn(void *arg)
{
	unsigned long i = (unsigned long)arg;

	while (!stop_spinning)
		spins[i]++;
	return 0;
}

/* Two busy threads of equal priority both make progress (timer-driven round-robin); a
 * higher-priority one woken by the test preempts them at once. */
static void round_robin_and_priority(struct ktest *t)
{
	struct task_struct *a, *b;

	stop_spinning = false;
	spins[0] = spins[1] = 0;
	a = kthread_create_opts(spinner_fn, (void *)0, "spin-a", DEFAULT_PRIO - 1, THREAD_SIZE_ORDER);
	b = kthread_create_opts(spinner_fn, (void *)1, "spin-b", DEFAULT_PRIO - 1, THREAD_SIZE_ORDER);
	KTEST_ASSERT_TRUE(t, a && b);
	wake_up_process(a);
	wake_up_process(b);
	/* The test thread outranks them: it gets the CPU back on time.  Four preemptions take
	 * 40-60 ms of 10 ms turns on an idle host; a loaded one fits fewer turns in the same time
	 * (QEMU's clock runs on while its process waits; seen once: 3 in 60 ms), so wait for them,
	 * up to 2 s, rather than for a fixed time. */
	unsigned long preempted = 0;
	for (int ms = 0; ms < 2000 && preempted < 4; ms += 20) {
		msleep(20);
		preempted = a->nivcsw + b->nivcsw;
	}
	unsigned long sa = spins[0], sb = spins[1];
	stop_spinning = true;
	kthread_join(a);
	kthread_join(b);
	KTEST_EXPECT_GT(t, sa, 0UL);		/* both ran: their turns alternated */
	KTEST_EXPECT_GT(t, sb, 0UL);
	KTEST_EXPECT_GE(t, preempted, 4UL);	/* 60 ms of 10 ms turns, plus our wake-ups */
}

static int record_fn(void *arg)
{
	*(volatile int *)arg = 1;
	return 0;
}

/* Waking a higher-priority thread switches to it before wake_up_process returns. */
static void higher_priority_preempts(struct ktest *t)
{
	volatile int ran = 0;
	struct task_struct *p = kthread_create_opts(record_fn, (void *)&ran, "urgent",
						    DEFAULT_PRIO + 2, THREAD_SIZE_ORDER);

	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	KTEST_EXPECT_EQ(t, ran, 1);
	kthread_join(p);

	ran = 0;
	p = kthread_create_opts(record_fn, (void *)&ran, "patient", DEFAULT_PRIO - 2, THREAD_SIZE_ORDER);
	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	KTEST_EXPECT_EQ(t, ran, 0);	/* lower priority: waits until we sleep */
	kthread_join(p);
	KTEST_EXPECT_EQ(t, ran, 1);
}

static int return_fn(void *arg)
{
	return (int)(unsigned long)arg;
}

static bool task_listed;
static void find_task(struct task_struct *p, void *arg)
{
	if (p == arg)
		task_listed = true;
}

/* A thread that returns exits with its return value; joined, it is gone; detached, it cleans
 * itself up: its stack pages go back to the allocator either way. */
static void exit_join_and_cleanup(struct ktest *t)
{
	struct task_struct *p = kthread_run(return_fn, (void *)42UL, "returns");

	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_EQ(t, kthread_join(p), 42);
	task_listed = false;
	for_each_task(find_task, p);
	KTEST_EXPECT_FALSE(t, task_listed);

	unsigned long free_before = nr_free_pages_and_pcp();
	for (int i = 0; i < 20; i++) {
		p = kthread_run(return_fn, NULL, "detached");
		KTEST_ASSERT_TRUE(t, p != NULL);
		kthread_detach(p);
	}
	/* They run, return and are reaped; their vmalloc stacks are freed by the worker, which
	 * may run on another CPU, later: give it up to 200 ms (a leak never comes back). */
	for (int ms = 0; ms < 200 && nr_free_pages_and_pcp() + 4 < free_before; ms++) {
		msleep(1);
		flush_thread_stack_frees();
	}
	KTEST_EXPECT_GE(t, nr_free_pages_and_pcp() + 4, free_before);
}

/* ---- completions, wait_event_timeout, workqueues ---- */

static int completer_fn(void *arg)
{
	msleep(3);
	complete(arg);
	return 0;
}

static void completion_and_timeout(struct ktest *t)
{
	struct completion done;
	DECLARE_WAIT_QUEUE_HEAD(never);

	init_completion(&done);
	KTEST_EXPECT_EQ(t, wait_for_completion_timeout(&done, 2), 0UL);
	struct task_struct *p = kthread_run(completer_fn, &done, "completer");
	KTEST_ASSERT_TRUE(t, p != NULL);
	wait_for_completion(&done);
	KTEST_EXPECT_FALSE(t, completion_done(&done));	/* consumed */
	kthread_join(p);
	complete(&done);
	KTEST_EXPECT_GT(t, wait_for_completion_timeout(&done, 5), 0UL);

	uint64_t t0 = ktime_get_ns();
	long left = wait_event_timeout(never, false, 5);
	KTEST_EXPECT_EQ(t, left, 0L);
	KTEST_EXPECT_GE(t, ktime_get_ns() - t0, 4 * NSEC_PER_MSEC);
	KTEST_EXPECT_EQ(t, wait_event_timeout(never, true, 5), 5L);
}

struct work_test {
	struct work_struct work;
	struct delayed_work dwork;
	volatile int runs, druns;
	struct task_struct *ran_on;
	volatile uint64_t dran_at;
};

static void work_fn(struct work_struct *w)
{
	struct work_test *wt = container_of(w, struct work_test, work);

	wt->ran_on = current;
	msleep(1);		/* work runs in process context: it may sleep */
	wt->runs++;
}

static void dwork_fn(struct work_struct *w)
{
	struct work_test *wt = container_of(to_delayed_work(w), struct work_test, dwork);

	wt->dran_at = ktime_get_ns();
	wt->druns++;
}

static void workqueue_runs_work(struct ktest *t)
{
	static struct work_test wt;

	memset(&wt, 0, sizeof(wt));
	INIT_WORK(&wt.work, work_fn);
	INIT_DELAYED_WORK(&wt.dwork, dwork_fn);
	preempt_disable();	/* the worker outranks us: keep it from taking the item at once */
	KTEST_EXPECT_TRUE(t, schedule_work(&wt.work));
	/* Already pending: refused, unless the worker took it meanwhile on another CPU (then it
	 * is queued again and runs twice). */
	bool again = schedule_work(&wt.work);
	KTEST_EXPECT_TRUE(t, !again || num_online_cpus() > 1);
	preempt_enable();
	/* Whether flush_work() still has to wait (true) depends on the host: a QEMU stalled past
	 * the work's msleep(1) finds it done.  Done, it must be; and idle, flush says so. */
	flush_work(&wt.work);
	KTEST_EXPECT_EQ(t, wt.runs, again ? 2 : 1);
	KTEST_EXPECT_FALSE(t, flush_work(&wt.work));		/* idle: nothing to wait for */
	KTEST_EXPECT_TRUE(t, wt.ran_on != current && wt.ran_on != NULL);
	KTEST_EXPECT_STREQ(t, wt.ran_on->comm, "kworker/events");

	uint64_t t0 = ktime_get_ns();
	KTEST_EXPECT_TRUE(t, schedule_delayed_work(&wt.dwork, 5));
	msleep(10);
	KTEST_EXPECT_EQ(t, wt.druns, 1);
	KTEST_EXPECT_GE(t, wt.dran_at - t0, 4 * NSEC_PER_MSEC);

	/* 1 s ahead, so that a stalled host cannot let it fire before the cancel. */
	KTEST_EXPECT_TRUE(t, schedule_delayed_work(&wt.dwork, HZ));
	KTEST_EXPECT_TRUE(t, cancel_delayed_work_sync(&wt.dwork));
	msleep(8);
	KTEST_EXPECT_EQ(t, wt.druns, 1);			/* cancelled: never ran */
}

/* ---- might_sleep and interrupts ---- */

static void might_sleep_warns_in_atomic(struct ktest *t)
{
	DEFINE_SPINLOCK(lock);
	unsigned long before = might_sleep_warnings(), flags;

	might_sleep();
	KTEST_EXPECT_EQ(t, might_sleep_warnings(), before);
	spin_lock(&lock);
	might_sleep();
	spin_unlock(&lock);
	KTEST_EXPECT_EQ(t, might_sleep_warnings(), before + 1);
	local_irq_save(flags);
	might_sleep();
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, might_sleep_warnings(), before + 2);
	preempt_disable();
	might_sleep();
	preempt_enable();
	KTEST_EXPECT_EQ(t, might_sleep_warnings(), before + 3);
	KTEST_EXPECT_EQ(t, preempt_count(), 0U);
}

/* The line the stray interrupt is raised on, where software can raise one
 * (irq_set_irqchip_state): on a GIC an SPI no device uses, below every ARM board's GIC size
 * (QEMU virt: 256 SPIs, devices on 1-47; the Allwinner H3: 128, devices up to 123) and apart
 * from arm_irq's test lines (SPIs 125-127, arch/arm/irq_ktest.c); on the BCM2836's per-core
 * controller (the Raspberry Pi 2) mailbox 2 of the boot core, hwirq 6, which arm_irq also uses
 * but never leaves raised. */
#define STRAY_GIC_SPI		(32 + 124)
#define STRAY_BCM2836_MAILBOX	6

static unsigned int stray_line(void)
{
	const struct dt *dt = boot_dt();
	int node = dt_find_compatible(dt, -1, "arm,cortex-a15-gic");
	unsigned int hw = STRAY_GIC_SPI;

	if (node < 0)
		node = dt_find_compatible(dt, -1, "arm,gic-400");
	if (node < 0) {
		node = dt_find_compatible(dt, -1, "brcm,bcm2836-l1-intc");
		hw = STRAY_BCM2836_MAILBOX;
	}
	struct irq_domain *d = node >= 0 ? irq_find_host(node) : NULL;
	return d ? irq_find_mapping(d, hw) : 0;
}

/* A line that fires with no handler is masked and reported once: one interrupt, not a storm.
 * The Goldfish RTC's alarm holds a real level line high (QEMU virt RISC-V); else a line is
 * raised by software (ARM: a GIC's pending bit on QEMU virt and the Orange Pi PC, a BCM2836
 * mailbox on the Raspberry Pi 2, which stays raised until cleared: a true level line).  A PLIC
 * alone (the HiFive) has no software pending set, so nothing can raise an interrupt there: skip. */
static void unhandled_irq_is_masked(struct ktest *t)
{
	unsigned int irq = goldfish_rtc_irq();
	unsigned long unhandled = irq_unhandled_count();
	bool rtc = irq != 0;

	if (!rtc)
		irq = stray_line();
	if (!irq) {
		ktest_skip(t, "no Goldfish RTC and no GIC or BCM2836 mailbox: nothing to raise an "
			      "interrupt with (a PLIC has no software pending set)");
		return;
	}
	unsigned long count = kstat_irqs(irq);
	KTEST_EXPECT_TRUE(t, irq_is_masked(irq));	/* no handler: kept masked from boot */
	enable_irq(irq);	/* as a buggy driver might: let this one through */
	if (rtc)
		KTEST_ASSERT_EQ(t, goldfish_rtc_fire_alarm(), 0);
	else
		KTEST_ASSERT_EQ(t, irq_set_irqchip_state(irq, IRQCHIP_STATE_PENDING, true), 0);
	msleep(5);		/* a level line still high: only masking stops it */
	KTEST_EXPECT_EQ(t, kstat_irqs(irq), count + 1);
	KTEST_EXPECT_TRUE(t, irq_is_masked(irq));
	KTEST_EXPECT_EQ(t, irq_unhandled_count(), unhandled + 1);
	msleep(5);
	KTEST_EXPECT_EQ(t, kstat_irqs(irq), count + 1);
	if (rtc)
		goldfish_rtc_clear();
	else
		irq_set_irqchip_state(irq, IRQCHIP_STATE_PENDING, false);
}

static const struct ktest_case sched_cases[] = {
	KTEST_CASE(hrtimer_fires_on_time),
	KTEST_CASE(hrtimer_periodic),
	KTEST_CASE(timer_list_jiffies),
	KTEST_CASE(sleeps_and_delays),
	KTEST_CASE(wait_queue_ping_pong),
	KTEST_CASE(mutex_contended_by_8),
	KTEST_CASE(rwsem_readers_share_writers_exclude),
	KTEST_CASE(folio_lock_contended_by_4),
	KTEST_CASE(folio_shared_bucket),
	KTEST_CASE(folio_writeback_wait),
	KTEST_CASE(round_robin_and_priority),
	KTEST_CASE(higher_priority_preempts),
	KTEST_CASE(exit_join_and_cleanup),
	KTEST_CASE(thread_stack_vmalloc_with_guard),
	KTEST_CASE(completion_and_timeout),
	KTEST_CASE(workqueue_runs_work),
	KTEST_CASE(might_sleep_warns_in_atomic),
	KTEST_CASE(unhandled_irq_is_masked),
	{}
};
KTEST_SUITE(sched, sched_cases);

/* ---- stack overflow: explicit, it ends the machine ---- */

static volatile unsigned long overflow_depth;

/* Recurse until the stack pointer is inside the canary words, write there, then switch. */
static void __attribute__((noinline)) dig(unsigned long *bottom)
{
	volatile unsigned long pad[16];
	unsigned long sp = (unsigned long)__builtin_frame_address(0);

	pad[0] = overflow_depth++;
	if (sp > (unsigned long)(bottom + STACK_CANARY_WORDS) + 256)
		dig(bottom);
	else
		bottom[STACK_CANARY_WORDS - 1 - (pad[0] & 1)] = pad[0];	/* the overflow */
	barrier();
}

static int overflow_fn(void *arg)
{
	dig(current->stack);
	yield();		/* the switch checks the canary: panic naming this thread */
	return 0;
}

static void stack_overflow_panics(struct ktest *t)
{
	struct task_struct *p = kthread_run(overflow_fn, NULL, "overflow-test");

	KTEST_ASSERT_TRUE(t, p != NULL);
	kthread_join(p);	/* never returns: the machine stops */
	KTEST_EXPECT_TRUE(t, false);
}

static const struct ktest_case overflow_cases[] = {
	KTEST_CASE(stack_overflow_panics),
	{}
};
KTEST_SUITE_EXPLICIT(sched_overflow, overflow_cases);
