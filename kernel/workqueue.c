/*
 * workqueue.c - work items and their worker threads (include/tinymm/workqueue.h).
 *
 * Each workqueue has one worker thread sleeping on its wait queue until work arrives.  The
 * PENDING bit is set by whoever queues the item and cleared by the worker just before it calls
 * func, so an item may be queued again while it runs (it then runs again).
 * Invariants: an item is on a worklist <=> PENDING and not a delayed item still in its timer;
 *   wq->current_work is the item whose func is running (NULL between items).
 * Locking: wq->lock (irqs masked) for the worklist, each item's entry and current_work.
 *   PENDING is an atomic bit and an ownership token, as v6.10's: whoever sets it owns the item
 *   until it is on a worklist or in its timer (queue_*), or until it gives it back (cancel).
 *   Queueing runs with interrupts masked from setting PENDING to the insertion, so an
 *   interrupt on the same CPU never waits for an item its own CPU is half-way through queueing;
 *   try_grab_pending() (cancel, mod_delayed_work) takes the bit from a timer or a worklist, and
 *   waits out an item between the two (a timer callback inserting it on another CPU).
 */
#include "tinymm/bug.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/wait.h"
#include "tinymm/workqueue.h"

struct workqueue_struct {
	spinlock_t lock;
	struct list_head worklist;
	struct wait_queue_head more_work;	/* the worker sleeps here */
	struct wait_queue_head work_done;	/* flushers sleep here */
	struct work_struct *current_work;
	unsigned long seq;			/* items finished, for flush_workqueue */
	struct task_struct *worker;
	char name[24];
};

static struct workqueue_struct system_workqueue;
struct workqueue_struct *system_wq;

void INIT_WORK(struct work_struct *work, work_func_t func)
{
	work->data = 0;
	INIT_LIST_HEAD(&work->entry);
	work->func = func;
	work->wq = NULL;
}

static void delayed_work_timer_fn(struct timer_list *t);

void INIT_DELAYED_WORK(struct delayed_work *dwork, work_func_t func)
{
	INIT_WORK(&dwork->work, func);
	timer_setup(&dwork->timer, delayed_work_timer_fn, 0);
	dwork->wq = NULL;
}

static void insert_work(struct workqueue_struct *wq, struct work_struct *work)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	work->wq = wq;
	list_add_tail(&work->entry, &wq->worklist);
	spin_unlock_irqrestore(&wq->lock, flags);
	wake_up(&wq->more_work);
}

static bool test_and_set_pending(struct work_struct *work)
{
	return __atomic_fetch_or(&work->data, WORK_STRUCT_PENDING, __ATOMIC_ACQ_REL) &
	       WORK_STRUCT_PENDING;
}

static void clear_pending(struct work_struct *work)
{
	__atomic_fetch_and(&work->data, ~WORK_STRUCT_PENDING, __ATOMIC_RELEASE);
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	unsigned long flags;
	bool queued = false;

	local_irq_save(flags);
	if (!test_and_set_pending(work)) {
		spin_lock(&wq->lock);
		work->wq = wq;
		list_add_tail(&work->entry, &wq->worklist);
		spin_unlock(&wq->lock);
		queued = true;
	}
	local_irq_restore(flags);
	if (queued)
		wake_up(&wq->more_work);	/* interrupts on: the worker may run at once */
	return queued;
}

static void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = from_timer(dwork, t, timer);

	insert_work(dwork->wq, &dwork->work);
}

/* PENDING is ours, interrupts masked. */
static void __queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
				 unsigned long delay)
{
	if (!delay) {
		insert_work(wq, &dwork->work);
		return;
	}
	dwork->wq = wq;
	mod_timer(&dwork->timer, jiffies + delay);
}

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool queued = false;

	local_irq_save(flags);
	if (!test_and_set_pending(&dwork->work)) {
		__queue_delayed_work(wq, dwork, delay);
		queued = true;
	}
	local_irq_restore(flags);
	return queued;
}

/*
 * Make PENDING ours: true if the item was pending (taken off its timer or worklist), false if
 * it was idle.  An item whose PENDING is set but which is on neither yet is being queued on
 * another CPU (or its timer's callback is inserting it there): wait for it to land.
 * Interrupts masked (the caller's), so this CPU is never the one half-way through queueing.
 */
static bool try_grab_pending(struct work_struct *work, struct timer_list *timer)
{
	for (;;) {
		if (timer && timer_delete(timer))
			return true;
		if (!test_and_set_pending(work))
			return false;
		struct workqueue_struct *wq = READ_ONCE(work->wq);
		if (wq) {
			bool stolen = false;

			spin_lock(&wq->lock);
			if (work->wq == wq && !list_empty(&work->entry)) {
				list_del_init(&work->entry);
				stolen = true;
			}
			spin_unlock(&wq->lock);
			if (stolen)
				return true;
		}
		cpu_relax();
	}
}

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;

	local_irq_save(flags);
	bool was = try_grab_pending(&dwork->work, &dwork->timer);
	__queue_delayed_work(wq, dwork, delay);
	local_irq_restore(flags);
	return was;
}

/* PENDING first (acquire), then current_work: the worker sets current_work before it clears
 * PENDING (release), so an item between the two is never seen idle. */
static bool work_busy_on(struct workqueue_struct *wq, struct work_struct *work)
{
	if (!wq)
		return false;
	if (__atomic_load_n(&work->data, __ATOMIC_ACQUIRE) & WORK_STRUCT_PENDING)
		return true;
	return READ_ONCE(wq->current_work) == work;
}

bool flush_work(struct work_struct *work)
{
	struct workqueue_struct *wq = work->wq;

	might_sleep();
	if (!work_busy_on(wq, work))
		return false;
	wait_event(wq->work_done, !work_busy_on(wq, work));
	return true;
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	unsigned long flags;

	/* A delayed item still in its timer is queued now, then waited for, as Linux does (the
	 * timer deleted: PENDING is ours until inserted). */
	local_irq_save(flags);
	if (timer_delete(&dwork->timer))
		insert_work(dwork->wq, &dwork->work);
	local_irq_restore(flags);
	return flush_work(&dwork->work);
}

/* Take @work from wherever it waits, wait until its func is not running, give PENDING back. */
static bool __cancel_work_sync(struct work_struct *work, struct timer_list *timer)
{
	unsigned long flags;

	might_sleep();
	local_irq_save(flags);
	bool was = try_grab_pending(work, timer);
	local_irq_restore(flags);
	struct workqueue_struct *wq = READ_ONCE(work->wq);
	if (wq)
		wait_event(wq->work_done, READ_ONCE(wq->current_work) != work);
	clear_pending(work);
	return was;
}

bool cancel_work_sync(struct work_struct *work)
{
	return __cancel_work_sync(work, NULL);
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	return __cancel_work_sync(&dwork->work, &dwork->timer);
}

void flush_workqueue(struct workqueue_struct *wq)
{
	unsigned long flags;
	bool idle;

	might_sleep();
	for (;;) {
		spin_lock_irqsave(&wq->lock, flags);
		idle = list_empty(&wq->worklist) && !wq->current_work;
		spin_unlock_irqrestore(&wq->lock, flags);
		if (idle)
			return;
		wait_event(wq->work_done, list_empty(&wq->worklist) && !READ_ONCE(wq->current_work));
	}
}

static int worker_thread(void *arg)
{
	struct workqueue_struct *wq = arg;
	unsigned long flags;

	current->flags |= PF_WQ_WORKER;		/* reclaim does not throttle workers (mm/vmscan.c) */
	for (;;) {
		wait_event_interruptible(wq->more_work, !list_empty(&wq->worklist));
		spin_lock_irqsave(&wq->lock, flags);
		struct work_struct *work = list_first_entry(&wq->worklist, struct work_struct, entry);
		list_del_init(&work->entry);
		WRITE_ONCE(wq->current_work, work);
		clear_pending(work);	/* it may be queued again from here, and run again */
		spin_unlock_irqrestore(&wq->lock, flags);

		work->func(work);
		if (preempt_count() || irqs_disabled()) {
			printk(KERN_ERR "BUG: workqueue leaked lock or atomic: %s/%d, last function %p\n",
			       current->comm, current->pid, (void *)work->func);
		}

		spin_lock_irqsave(&wq->lock, flags);
		wq->current_work = NULL;
		wq->seq++;
		spin_unlock_irqrestore(&wq->lock, flags);
		wake_up_all(&wq->work_done);
	}
	return 0;
}

static int start_workqueue(struct workqueue_struct *wq, const char *name, int prio)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->worklist);
	init_waitqueue_head(&wq->more_work);
	init_waitqueue_head(&wq->work_done);
	ksnprintf(wq->name, sizeof(wq->name), "%s", name);
	char comm[TASK_COMM_LEN];
	ksnprintf(comm, sizeof(comm), "kworker/%s", name);
	wq->worker = kthread_create_opts(worker_thread, wq, comm, prio, THREAD_SIZE_ORDER);
	if (!wq->worker)
		return -1;
	kthread_detach(wq->worker);
	wake_up_process(wq->worker);
	return 0;
}

struct workqueue_struct *alloc_workqueue(const char *name, int prio)
{
	struct workqueue_struct *wq = kzalloc(sizeof(*wq), GFP_KERNEL);

	if (!wq)
		return NULL;
	if (start_workqueue(wq, name, prio)) {
		kfree(wq);
		return NULL;
	}
	return wq;
}

void workqueue_init(void)
{
	if (start_workqueue(&system_workqueue, "events", WORKER_PRIO))
		panic("workqueue: cannot start the system workqueue's worker");
	system_wq = &system_workqueue;
}
