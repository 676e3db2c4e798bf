/*
 * timer.c - the timer queue, the one-shot clock event, jiffies-based timers and delays.
 *
 * One queue of struct hrtimer sorted by expiry (timer_list embeds one).  The clock event is
 * programmed for min(first expiry, end of the running thread's turn if someone waits for the
 * CPU); nothing is programmed when neither exists (tickless: see include/tinymm/timer.h).
 * timer_interrupt() runs every expired timer in expiry order, each dequeued before its
 * callback runs (so the callback may re-arm it), then tells the scheduler, then reprograms.
 *
 * Invariants: queued <=> on timer_queue; the queue is sorted by expires, equal expiries in
 *   arming order; programmed_ns is what the hardware was last told (0: nothing).
 * Locking: the queue is changed with interrupts masked; callbacks run in the interrupt.
 */
#include "tinymm/arch.h"
#include "tinymm/delay.h"
#include "tinymm/irqflags.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/timer.h"

static LIST_HEAD(timer_queue);
static uint64_t programmed_ns;
static unsigned long nr_interrupts, nr_callbacks;
static bool clockevent_ready;

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

/* Interrupts masked. */
void clockevent_update(void)
{
	uint64_t next = 0, slice = sched_next_preempt_ns();

	if (!clockevent_ready)
		return;
	if (!list_empty(&timer_queue))
		next = (uint64_t)list_first_entry(&timer_queue, struct hrtimer, node)->expires;
	if (slice && (!next || slice < next))
		next = slice;
	if (next == programmed_ns)
		return;
	programmed_ns = next;
	/* Rounded up to a whole counter tick, so the interrupt never comes before the deadline
	 * (and not a tick after it when the deadline is a whole tick). */
	arch_timer_set_next(next ? ns_to_counter_ceil(next) : UINT64_MAX);
}

static void enqueue_timer(struct hrtimer *t)
{
	struct hrtimer *pos;

	list_for_each_entry(pos, &timer_queue, node)
		if (pos->expires > t->expires)
			break;
	list_add_tail(&t->node, &pos->node);	/* before pos: after every equal expiry */
	t->queued = true;
}

static void dequeue_timer(struct hrtimer *t)
{
	list_del_init(&t->node);
	t->queued = false;
}

void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode)
{
	(void)clock_id;
	(void)mode;
	INIT_LIST_HEAD(&timer->node);
	timer->queued = false;
	timer->expires = 0;
}

void hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode)
{
	unsigned long flags;

	local_irq_save(flags);
	if (timer->queued)
		dequeue_timer(timer);
	timer->expires = mode == HRTIMER_MODE_REL ? ktime_get() + tim : tim;
	enqueue_timer(timer);
	clockevent_update();
	local_irq_restore(flags);
}

int hrtimer_cancel(struct hrtimer *timer)
{
	unsigned long flags;
	int was;

	local_irq_save(flags);
	was = timer->queued;
	if (was) {
		dequeue_timer(timer);
		clockevent_update();
	}
	local_irq_restore(flags);
	return was;
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
	return hrtimer_cancel(&timer->hr);
}

void timer_interrupt(void)
{
	uint64_t now = ktime_get_ns();

	nr_interrupts++;
	programmed_ns = 0;	/* the hardware fired: nothing is armed any more */
	while (!list_empty(&timer_queue)) {
		struct hrtimer *t = list_first_entry(&timer_queue, struct hrtimer, node);
		if ((uint64_t)t->expires > now)
			break;
		dequeue_timer(t);
		nr_callbacks++;
		if (t->function(t) == HRTIMER_RESTART)
			enqueue_timer(t);
		now = ktime_get_ns();
	}
	sched_tick(now);
	clockevent_update();
}

unsigned long timer_interrupts(void)
{
	return nr_interrupts;
}

unsigned long timer_callbacks_run(void)
{
	return nr_callbacks;
}

void timers_init(const struct dt *dt)
{
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
