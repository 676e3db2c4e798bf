/*
 * timer.c - the timer queue, the one-shot clock event, jiffies-based timers and delays.
 *
 * One queue of struct hrtimer per CPU, sorted by expiry (timer_list embeds one); a timer goes
 * on the queue of the CPU that arms it (v6.10's per-CPU bases, without migration to a busier
 * CPU).  A CPU's clock event is programmed for min(its first expiry, end of its running
 * thread's turn if someone waits for the CPU); nothing is programmed when neither exists
 * (tickless: see include/tinymm/timer.h).  timer_interrupt() runs every expired timer of its
 * CPU in expiry order, each dequeued before its callback runs (so the callback may re-arm it),
 * then tells the scheduler, then reprograms.
 *
 * Invariants: queued <=> on the queue of base cpu; each queue is sorted by expires, equal
 *   expiries in arming order; programmed_ns is what that CPU's hardware was last told (0:
 *   nothing); running is the timer whose callback runs on that CPU now.
 * Locking: a base's lock (interrupts masked) guards its queue, each queued timer's fields and
 *   running; callbacks run in the interrupt without it.  A timer's base can change only while
 *   it is not queued, under the new base's lock.
 */
#include "tinymm/arch.h"
#include "tinymm/delay.h"
#include "tinymm/irqflags.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include "tinymm/spinlock.h"
#include "tinymm/timer.h"

struct timer_base {
	spinlock_t lock;
	struct list_head queue;
	uint64_t programmed_ns;
	struct hrtimer *running;
	unsigned long nr_interrupts, nr_callbacks;
} __attribute__((aligned(64)));

static struct timer_base timer_bases[NR_CPUS];
static bool clockevent_ready, bases_ready;

/* Before the first timer: the boot CPU alone runs then. */
static void init_timer_bases(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		spin_lock_init(&timer_bases[cpu].lock);
		INIT_LIST_HEAD(&timer_bases[cpu].queue);
	}
	smp_store_release(&bases_ready, true);
}

static struct timer_base *base_of(unsigned int cpu)
{
	if (unlikely(!smp_load_acquire(&bases_ready)))
		init_timer_bases();
	return &timer_bases[cpu];
}

static struct timer_base *this_base(void)
{
	return base_of((unsigned int)smp_processor_id());
}

/* The first counter tick at or after @ns (ticks_to_ns() of it is >= @ns). */
static uint64_t ns_to_counter_ceil(uint64_t ns)
{
	uint64_t f = time_counter_freq();
	uint32_t npt = time_ns_per_tick();

	if (npt)
		return ns / npt + (ns % npt != 0);

	/* ns * f / 1e9 without overflow: whole seconds, then the rest. */
	return ns / NSEC_PER_SEC * f + (ns % NSEC_PER_SEC * f + NSEC_PER_SEC - 1) / NSEC_PER_SEC;
}

/* This CPU's, its base's lock held, interrupts masked. */
static void __clockevent_update(struct timer_base *b)
{
	uint64_t next = 0, slice = sched_next_preempt_ns();

	if (!clockevent_ready)
		return;
	if (!list_empty(&b->queue))
		next = (uint64_t)list_first_entry(&b->queue, struct hrtimer, node)->expires;
	if (slice && (!next || slice < next))
		next = slice;
	if (next == b->programmed_ns)
		return;
	b->programmed_ns = next;
	/* Rounded up to a whole counter tick, so the interrupt never comes before the deadline
	 * (and not a tick after it when the deadline is a whole tick). */
	arch_timer_set_next(next ? ns_to_counter_ceil(next) : UINT64_MAX);
}

/* Interrupts masked. */
void clockevent_update(void)
{
	struct timer_base *b = this_base();

	spin_lock(&b->lock);
	__clockevent_update(b);
	spin_unlock(&b->lock);
}

static void enqueue_timer(struct timer_base *b, struct hrtimer *t)
{
	struct hrtimer *pos;

	lockdep_assert_held(&b->lock);
	list_for_each_entry(pos, &b->queue, node)
		if (pos->expires > t->expires)
			break;
	list_add_tail(&t->node, &pos->node);	/* before pos: after every equal expiry */
	t->cpu = (unsigned char)(b - timer_bases);
	WRITE_ONCE(t->queued, true);
}

static void dequeue_timer(struct hrtimer *t)
{
	list_del_init(&t->node);
	WRITE_ONCE(t->queued, false);
}

/* @t's base, locked, with @t not moving to another: its cpu is stable only under it. */
static struct timer_base *lock_timer_base(struct hrtimer *t, unsigned long *flags)
{
	for (;;) {
		struct timer_base *b = base_of(READ_ONCE(t->cpu));

		spin_lock_irqsave(&b->lock, *flags);
		if (&timer_bases[READ_ONCE(t->cpu)] == b)
			return b;
		spin_unlock_irqrestore(&b->lock, *flags);
	}
}

void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode)
{
	(void)clock_id;
	(void)mode;
	INIT_LIST_HEAD(&timer->node);
	timer->queued = false;
	timer->expires = 0;
	timer->cpu = 0;
}

void hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode)
{
	unsigned long flags;
	struct timer_base *old = lock_timer_base(timer, &flags), *b;

	if (timer->queued)
		dequeue_timer(timer);
	b = this_base();	/* interrupts are masked: this CPU stays */
	if (b != old) {
		spin_unlock(&old->lock);
		spin_lock(&b->lock);
	}
	timer->expires = mode == HRTIMER_MODE_REL ? ktime_get() + tim : tim;
	enqueue_timer(b, timer);
	__clockevent_update(b);
	spin_unlock_irqrestore(&b->lock, flags);
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	unsigned long flags;
	struct timer_base *b = lock_timer_base(timer, &flags);
	int was = timer->queued;

	if (was) {
		dequeue_timer(timer);
		if (b == this_base())
			__clockevent_update(b);	/* another CPU's fires once for nothing */
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return was;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	int was = hrtimer_try_to_cancel(timer);

	/* Its callback may be running on another CPU (and may re-arm it): wait, then again. */
	for (;;) {
		unsigned long flags;
		struct timer_base *b = lock_timer_base(timer, &flags);
		bool running = b->running == timer && b != this_base();

		if (!running && !timer->queued) {
			spin_unlock_irqrestore(&b->lock, flags);
			return was;
		}
		spin_unlock_irqrestore(&b->lock, flags);
		if (running)
			cpu_relax();
		else
			was |= hrtimer_try_to_cancel(timer);
	}
}

uint64_t hrtimer_forward_now(struct hrtimer *timer, ktime_t interval)
{
	ktime_t now = ktime_get();
	uint64_t n;

	if (interval <= 0 || timer->expires > now)
		return 0;
	n = (uint64_t)(now - timer->expires) / (uint64_t)interval + 1;
	timer->expires += (ktime_t)n * interval;
	return n;
}

static enum hrtimer_restart timer_list_fn(struct hrtimer *hr)
{
	struct timer_list *t = container_of(hr, struct timer_list, hr);

	t->function(t);
	return HRTIMER_NORESTART;
}

void timer_setup(struct timer_list *timer, void (*func)(struct timer_list *), unsigned int flags)
{
	hrtimer_init(&timer->hr, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	timer->hr.function = timer_list_fn;
	timer->function = func;
	timer->flags = flags;
	timer->expires = 0;
}

/* Jiffies are whole NSEC_PER_JIFFY steps of the clock; expires is reached at its first ns.
 * The 32-bit jiffies value is widened against the current 64-bit count (wrap-safe). */
static ktime_t jiffies_to_ktime(unsigned long expires)
{
	uint64_t now64 = get_jiffies_64();
	long delta = (long)(expires - (unsigned long)now64);

	return (ktime_t)(((int64_t)now64 + delta) * (int64_t)NSEC_PER_JIFFY);
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	int was = timer_pending(timer);

	timer->expires = expires;
	hrtimer_start(&timer->hr, jiffies_to_ktime(expires), HRTIMER_MODE_ABS);
	return was;
}

void add_timer(struct timer_list *timer)
{
	mod_timer(timer, timer->expires);
}

int timer_delete(struct timer_list *timer)
{
	return hrtimer_try_to_cancel(&timer->hr);
}

int timer_delete_sync(struct timer_list *timer)
{
	return hrtimer_cancel(&timer->hr);
}

/* Interrupts masked. */
void timer_interrupt(void)
{
	struct timer_base *b = this_base();
	uint64_t now = ktime_get_ns();

	spin_lock(&b->lock);
	b->nr_interrupts++;
	b->programmed_ns = 0;	/* the hardware fired: nothing is armed any more */
	while (!list_empty(&b->queue)) {
		struct hrtimer *t = list_first_entry(&b->queue, struct hrtimer, node);
		if ((uint64_t)t->expires > now)
			break;
		dequeue_timer(t);
		b->nr_callbacks++;
		b->running = t;
		spin_unlock(&b->lock);
		enum hrtimer_restart r = t->function(t);
		spin_lock(&b->lock);
		b->running = NULL;
		/* Re-armed by the callback (hrtimer_start) meanwhile: that expiry stands. */
		if (r == HRTIMER_RESTART && !t->queued)
			enqueue_timer(b, t);
		now = ktime_get_ns();
	}
	spin_unlock(&b->lock);
	sched_tick(now);
	clockevent_update();
}

unsigned long timer_interrupts(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(timer_bases[cpu].nr_interrupts);
	return n;
}

unsigned long timer_callbacks_run(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(timer_bases[cpu].nr_callbacks);
	return n;
}

void timers_init(const struct dt *dt)
{
	(void)this_base();
	if (arch_timer_init(dt))
		return;
	clockevent_ready = true;
	pr_info("clockevent: %s, one-shot (tickless), HZ=%d for jiffies\n", arch_timer_name(), HZ);
}

void ndelay(unsigned long nsecs)
{
	uint64_t end = ktime_get_ns() + nsecs;

	while (ktime_get_ns() < end)
		;
}

void udelay(unsigned long usecs)
{
	ndelay(usecs * NSEC_PER_USEC);
}

void mdelay(unsigned long msecs)
{
	while (msecs--)
		udelay(1000);
}

/* Linux's msleep: at least @msecs, so one jiffy more than the rounded-up count. */
void msleep(unsigned int msecs)
{
	long timeout = (long)msecs_to_jiffies(msecs) + 1;

	might_sleep();
	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
}
