/*
 * workqueue.h - deferred work run by worker threads, Linux's interface (kernel/workqueue.c).
 *
 * schedule_work(w) queues w on system_wq unless it is already pending (PENDING bit); a worker
 * thread ("kworker/<wq>") runs queued items in order, in process context, so they may sleep.
 * schedule_delayed_work(dw, jiffies) queues it when a timer expires.  flush_work() waits until
 * the item is idle; cancel_work_sync()/cancel_delayed_work_sync() dequeue it and wait for a
 * running instance.  An item may requeue itself while it runs.
 * tinymm differs from Linux: one worker thread per workqueue (no worker pools, no concurrency
 * management); alloc_workqueue() makes a workqueue with its own worker.
 * Locking: each workqueue's spinlock (irqs masked) guards its list, so queueing works from
 * interrupt handlers.
 */
#ifndef TINYMM_WORKQUEUE_H
#define TINYMM_WORKQUEUE_H

#include "list.h"
#include "timer.h"

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

#define WORK_STRUCT_PENDING	0x1UL

struct work_struct {
	unsigned long data;		/* WORK_STRUCT_PENDING */
	struct list_head entry;
	work_func_t func;
	struct workqueue_struct *wq;	/* last queued on */
};

struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	struct workqueue_struct *wq;
};

struct workqueue_struct;
extern struct workqueue_struct *system_wq;

#define to_delayed_work(w)	container_of(w, struct delayed_work, work)

void INIT_WORK(struct work_struct *work, work_func_t func);
void INIT_DELAYED_WORK(struct delayed_work *dwork, work_func_t func);

/* true if queued, false if it was already pending. */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay);
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay);
static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}
static inline bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay)
{
	return queue_delayed_work(system_wq, dwork, delay);
}
static inline bool work_pending(const struct work_struct *work)
{
	return work->data & WORK_STRUCT_PENDING;
}
#define delayed_work_pending(dw)	work_pending(&(dw)->work)

/* true if it had to wait. */
bool flush_work(struct work_struct *work);
bool flush_delayed_work(struct delayed_work *dwork);
/* true if it was pending. */
bool cancel_work_sync(struct work_struct *work);
bool cancel_delayed_work_sync(struct delayed_work *dwork);
void flush_workqueue(struct workqueue_struct *wq);

struct workqueue_struct *alloc_workqueue(const char *name, int prio);
void workqueue_init(void);

#endif
