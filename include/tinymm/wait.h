/*
 * wait.h - wait queues, Linux's (kernel/wait.c).
 *
 * A wait_queue_head is a spinlock and a list of wait_queue_entry.  A sleeper queues an entry,
 * sets its task state, re-checks its condition and calls schedule(); a waker calls each entry's
 * func (default: wake the task).  WQ_FLAG_EXCLUSIVE entries sit at the tail and wake_up() wakes
 * only one of them (and every non-exclusive one before it); wake_up_all() wakes all.
 *
 *   wait_event(wq, cond)                  sleep until cond is true
 *   wait_event_timeout(wq, cond, jiffies) 0 if it timed out with cond false, else the jiffies
 *                                         left (at least 1)
 *   wake_up(&wq), wake_up_all(&wq), waitqueue_active(&wq)
 *   prepare_to_wait(), prepare_to_wait_exclusive(), finish_wait(): the pieces, for custom loops
 * Locking: wq->lock is taken with interrupts masked, so wake_up() works from interrupt handlers.
 * The condition is checked after the task state is set, so a wake-up that makes it true can
 * never be missed.
 */
#ifndef TINYMM_WAIT_H
#define TINYMM_WAIT_H

#include "list.h"
#include "sched.h"
#include "spinlock.h"

struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry, unsigned int mode, int flags,
				 void *key);

#define WQ_FLAG_EXCLUSIVE	0x01
#define WQ_FLAG_WOKEN		0x02
#define WQ_FLAG_CUSTOM		0x04
#define WQ_FLAG_DONE		0x08

struct wait_queue_entry {
	unsigned int flags;
	void *private;			/* the task */
	wait_queue_func_t func;
	struct list_head entry;
};
typedef struct wait_queue_entry wait_queue_entry_t;

struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)						\
	{ .lock = __SPIN_LOCK_UNLOCKED(name.lock), .head = LIST_HEAD_INIT(name.head) }
#define DECLARE_WAIT_QUEUE_HEAD(name)	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)
void init_waitqueue_head(struct wait_queue_head *wq_head);

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, int flags, void *key);
int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, int flags, void *key);

#define DEFINE_WAIT_FUNC(name, function)						\
	struct wait_queue_entry name = {						\
		.private = current, .func = function, .entry = LIST_HEAD_INIT((name).entry) }
#define DEFINE_WAIT(name)	DEFINE_WAIT_FUNC(name, autoremove_wake_function)

static inline void init_wait_entry(struct wait_queue_entry *e, unsigned int flags)
{
	e->flags = flags;
	e->private = current;
	e->func = autoremove_wake_function;
	INIT_LIST_HEAD(&e->entry);
}

static inline bool waitqueue_active(struct wait_queue_head *wq_head)
{
	return !list_empty(&wq_head->head);
}

void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void add_wait_queue_exclusive(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
/* Under wq_head->lock, already held: */
static inline void __add_wait_queue_entry_tail(struct wait_queue_head *wq_head,
					       struct wait_queue_entry *wq_entry)
{
	list_add_tail(&wq_entry->entry, &wq_head->head);
}

void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry, int state);
void prepare_to_wait_exclusive(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
			       int state);
void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);

/* Wake @nr_exclusive exclusive waiters (0: all) and every non-exclusive one; @key goes to func. */
void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr_exclusive, void *key);
/* The same with wq_head->lock held by the caller (irqs masked). */
void __wake_up_locked_key(struct wait_queue_head *wq_head, unsigned int mode, void *key);
#define wake_up(x)		__wake_up(x, TASK_NORMAL, 1, NULL)
#define wake_up_nr(x, nr)	__wake_up(x, TASK_NORMAL, nr, NULL)
#define wake_up_all(x)		__wake_up(x, TASK_NORMAL, 0, NULL)
#define wake_up_interruptible(x)	wake_up(x)

#define ___wait_event(wq_head, condition, state, exclusive, ret, cmd)			\
__extension__ ({									\
	struct wait_queue_entry __wq_entry;						\
	long __ret = ret;								\
	init_wait_entry(&__wq_entry, exclusive ? WQ_FLAG_EXCLUSIVE : 0);		\
	for (;;) {									\
		if (exclusive)								\
			prepare_to_wait_exclusive(&(wq_head), &__wq_entry, state);	\
		else									\
			prepare_to_wait(&(wq_head), &__wq_entry, state);		\
		if (condition)								\
			break;								\
		cmd;									\
	}										\
	finish_wait(&(wq_head), &__wq_entry);						\
	__ret;										\
})

#define wait_event(wq_head, condition)							\
do {											\
	might_sleep();									\
	if (condition)									\
		break;									\
	(void)___wait_event(wq_head, condition, TASK_UNINTERRUPTIBLE, 0, 0, schedule());	\
} while (0)

/* tinymm has no signals: the sleep is TASK_INTERRUPTIBLE ("S" in ps, as an idle tty reader or
 * kworker in Linux) and always ends with the condition true, returning 0. */
#define wait_event_interruptible(wq_head, condition)					\
__extension__ ({									\
	might_sleep();									\
	if (!(condition))								\
		(void)___wait_event(wq_head, condition, TASK_INTERRUPTIBLE, 0, 0, schedule()); \
	0;										\
})

/* As Linux: the condition is re-tested once more when time runs out, so a true condition always
 * gives a non-zero result. */
#define ___wait_cond_timeout(condition)							\
__extension__ ({									\
	bool __cond = (condition);							\
	if (__cond && !__ret)								\
		__ret = 1;								\
	__cond || !__ret;								\
})

#define wait_event_timeout(wq_head, condition, timeout)					\
__extension__ ({									\
	long __ret = (timeout);								\
	might_sleep();									\
	if (!___wait_cond_timeout(condition))						\
		__ret = ___wait_event(wq_head, ___wait_cond_timeout(condition),		\
				      TASK_UNINTERRUPTIBLE, 0, timeout,			\
				      __ret = schedule_timeout(__ret));			\
	__ret;										\
})

#endif
