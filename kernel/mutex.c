/*
 * mutex.c - sleeping locks (include/tinymm/mutex.h).
 *
 * Waiters queue in arrival order on wait_list.  Unlock with waiters hands the lock straight to
 * the first one (owner = that task) and wakes it, so a thread that arrives later cannot take it
 * first and a woken waiter never finds the lock gone: FIFO and starvation-free.  (Linux also
 * hands off, but only after a waiter has been starved; with one CPU the hand-off is simplest.)
 * Invariants: owner != NULL while held; a task on wait_list sleeps until owner == that task.
 * Locking: lock->wait_lock (irqs masked) for owner changes made by others and the list.
 */
#include "tinymm/bug.h"
#include "tinymm/mutex.h"
#include "tinymm/printk.h"

struct mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

static unsigned long contended;

void __mutex_init(struct mutex *lock, const char *name)
{
	lock->owner = NULL;
	spin_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
	lock->name = name;
}

int mutex_trylock(struct mutex *lock)
{
	unsigned long flags;
	int got = 0;

	spin_lock_irqsave(&lock->wait_lock, flags);
	if (!lock->owner) {
		lock->owner = current;
		got = 1;
	}
	spin_unlock_irqrestore(&lock->wait_lock, flags);
	return got;
}

void mutex_lock(struct mutex *lock)
{
	struct mutex_waiter w = { .task = current };
	unsigned long flags;

	might_sleep();
	spin_lock_irqsave(&lock->wait_lock, flags);
	if (!lock->owner) {
		lock->owner = current;
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		return;
	}
	if (lock->owner == current) {
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		printk(KERN_ERR "BUG: recursive mutex_lock of %s by %s/%d\n", lock->name,
		       current->comm, current->pid);
		BUG();
	}
	contended++;
	list_add_tail(&w.list, &lock->wait_list);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(lock->owner) == current)
			break;
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		schedule();
		spin_lock_irqsave(&lock->wait_lock, flags);
	}
	__set_current_state(TASK_RUNNING);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

void mutex_unlock(struct mutex *lock)
{
	unsigned long flags;
	struct task_struct *next = NULL;

	spin_lock_irqsave(&lock->wait_lock, flags);
	if (lock->owner != current) {
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		printk(KERN_ERR "BUG: mutex_unlock of %s by %s/%d, owner %s\n", lock->name,
		       current->comm, current->pid, lock->owner ? lock->owner->comm : "(none)");
		dump_stack();
		return;
	}
	if (!list_empty(&lock->wait_list)) {
		struct mutex_waiter *w = list_first_entry(&lock->wait_list, struct mutex_waiter, list);
		list_del_init(&w->list);
		next = w->task;
	}
	lock->owner = next;
	if (next)
		wake_up_process(next);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

unsigned long mutex_contended(void)
{
	return contended;
}
