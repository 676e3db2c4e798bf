/*
 * timer.h - kernel timers, jiffies and the clock event (kernel/timer.c).
 *
 * tinymm is tickless: there is no periodic interrupt.  The one-shot CPU timer (ARM virtual
 * timer, RISC-V stimecmp or SBI set_timer) is programmed for the earliest of the next timer's
 * expiry and the end of the running thread's round-robin turn (only when another thread of its
 * priority waits).  An idle machine takes no interrupts at all, `-icount` runs stay repeatable,
 * and a timer fires at its deadline, not at the next tick.  Why: periodic ticks cost an
 * interrupt every 1/HZ for nothing on an idle board and quantise every timeout.
 *
 * jiffies are therefore derived from the clock (ktime_get() / (NSEC_PER_SEC / HZ)) rather than
 * counted by a tick; they behave like Linux's (HZ per second, wrap-safe time_after()).
 *
 *   struct timer_list (Linux's): timer_setup(), mod_timer(t, expires_jiffies), add_timer(),
 *     del_timer() / timer_delete(), del_timer_sync(), timer_pending().  One-shot; the callback
 *     may re-arm it with mod_timer().
 *   struct hrtimer (Linux's, nanoseconds): hrtimer_init(), hrtimer_start(t, ns, mode),
 *     hrtimer_cancel(); a callback returning HRTIMER_RESTART after hrtimer_forward_now() is a
 *     periodic timer.
 * Callbacks run in the timer interrupt (hard irq context, interrupts masked): they must not
 * sleep; Linux runs timer_list callbacks in softirq context, tinymm has no softirqs.
 * SMP: each CPU has its own queue and clock event (v6.10's per-CPU timer bases); a timer joins
 * the queue of the CPU that arms it and its callback runs there.
 * Locking: each queue has a lock, taken with interrupts masked.  hrtimer_cancel() /
 * del_timer_sync() also wait for a callback running on another CPU to return (v6.10's
 * hrtimer_cancel()); del_timer() / timer_delete() / hrtimer_try_to_cancel() do not wait.
 */
#ifndef TINYMM_TIMER_H
#define TINYMM_TIMER_H

#include "kernel.h"
#include "list.h"
#include "time.h"

#define HZ			1000
#define NSEC_PER_JIFFY		(NSEC_PER_SEC / HZ)
#define NSEC_PER_MSEC		1000000ULL
#define NSEC_PER_USEC		1000ULL
#define USEC_PER_SEC		1000000ULL
#define MSEC_PER_SEC		1000ULL

typedef int64_t ktime_t;

static inline ktime_t ktime_get(void)
{
	return (ktime_t)ktime_get_ns();
}

static inline uint64_t get_jiffies_64(void)
{
	return ktime_get_ns() / NSEC_PER_JIFFY;
}
#define jiffies			((unsigned long)get_jiffies_64())

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

static inline unsigned long msecs_to_jiffies(unsigned int m)
{
	return (m + (MSEC_PER_SEC / HZ) - 1) / (MSEC_PER_SEC / HZ);
}
static inline unsigned long usecs_to_jiffies(unsigned int u)
{
	return (unsigned long)(((uint64_t)u * NSEC_PER_USEC + NSEC_PER_JIFFY - 1) / NSEC_PER_JIFFY);
}
static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)(j * (MSEC_PER_SEC / HZ));
}

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode { HRTIMER_MODE_ABS, HRTIMER_MODE_REL };
#define CLOCK_MONOTONIC		1

struct hrtimer {
	struct list_head node;		/* on its CPU's timer queue, sorted by expiry */
	ktime_t expires;		/* absolute, ns on ktime_get()'s clock */
	enum hrtimer_restart (*function)(struct hrtimer *);
	bool queued;
	unsigned char cpu;		/* whose queue it is on (or its callback runs on) */
};

void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode);
void hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode);
/* Stop it if queued, and wait for its callback if it runs on another CPU; 1 if it was queued. */
int hrtimer_cancel(struct hrtimer *timer);
/* Stop it if queued (no waiting); 1 if it was queued. */
int hrtimer_try_to_cancel(struct hrtimer *timer);
static inline bool hrtimer_active(const struct hrtimer *timer)
{
	return timer->queued;
}
/* Move the expiry forward by whole @interval steps until it is in the future; the number of
 * steps (missed periods + 1).  For periodic callbacks, before returning HRTIMER_RESTART. */
uint64_t hrtimer_forward_now(struct hrtimer *timer, ktime_t interval);

struct timer_list {
	struct hrtimer hr;
	unsigned long expires;		/* jiffies */
	void (*function)(struct timer_list *);
	unsigned int flags;
};

#define from_timer(var, callback_timer, timer_fieldname)				\
	container_of(callback_timer, __typeof__(*var), timer_fieldname)

void timer_setup(struct timer_list *timer, void (*func)(struct timer_list *), unsigned int flags);
/* (Re)arm for @expires jiffies; 1 if it was pending before. */
int mod_timer(struct timer_list *timer, unsigned long expires);
void add_timer(struct timer_list *timer);
/* 1 if it was pending.  _sync: and its callback is not running anywhere when this returns. */
int timer_delete(struct timer_list *timer);
int timer_delete_sync(struct timer_list *timer);
#define del_timer(t)		timer_delete(t)
#define del_timer_sync(t)	timer_delete_sync(t)
static inline bool timer_pending(const struct timer_list *timer)
{
	return timer->hr.queued;
}

struct dt;
/* Bring-up: after the interrupt controllers, before the first thread sleeps. */
void timers_init(const struct dt *dt);
/* The arch's timer interrupt handler calls this (interrupts masked). */
void timer_interrupt(void);
/* Reprogram the clock event for the earliest of the timer queue and the scheduler's slice. */
void clockevent_update(void);
/* Counters for `irqs`/tests: timer interrupts taken, callbacks run. */
unsigned long timer_interrupts(void);
unsigned long timer_callbacks_run(void);

#endif
