/*
 * rwsem.c - sleeping reader-writer locks (include/tinymm/rwsem.h).
 *
 * Every operation runs under wait_lock; a waiter is granted the lock by the release that frees
 * it (count set for it before it is woken), so it never races a newcomer for it.
 * Locking: wait_lock (irqs masked) around count, writer and wait_list.
 */
#include "tinymm/bug.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/rwsem.h"

struct rwsem_waiter {
	struct list_head list;
	struct task_struct *task;
	bool write;
	bool granted;			/* under wait_lock: the lock is now the waiter's */
};

void __init_rwsem(struct rw_semaphore *sem, const char *name, struct lock_class_key *key)
{
	spin_lock_init(&sem->wait_lock);
	sem->count = 0;
	sem->writer = NULL;
	INIT_LIST_HEAD(&sem->wait_list);
	sem->name = name;
	lockdep_init_map(&sem->dep_map, name, key);
}

/* wait_lock held, the lock free: hand it to the first waiter, or to every reader at the front. */
static void rwsem_wake(struct rw_semaphore *sem)
{
	struct rwsem_waiter *w, *tmp;

	list_for_each_entry_safe(w, tmp, &sem->wait_list, list) {
		if (w->write) {
			if (sem->count)
				break;		/* readers were granted: the writer waits on */
			sem->count = -1;
			sem->writer = w->task;
		} else {
			sem->count++;
		}
		list_del_init(&w->list);
		w->granted = true;
		wake_up_process(w->task);
		if (sem->count < 0)
			break;
	}
}

/*
 * wait_lock held (irqs saved in *flags): queue @w and sleep until a release grants the lock.
 * @w lives in the caller's frame, which outlives the wait (the waker unlinks it first).
 */
static __attribute__((noinline)) void rwsem_wait(struct rw_semaphore *sem, struct rwsem_waiter *w,
						 unsigned long *flags)
{
	w->task = current;
	w->granted = false;
	list_add_tail(&w->list, &sem->wait_list);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(w->granted))
			break;
		spin_unlock_irqrestore(&sem->wait_lock, *flags);
		schedule();
		spin_lock_irqsave(&sem->wait_lock, *flags);
	}
	__set_current_state(TASK_RUNNING);
}

void down_read(struct rw_semaphore *sem)
{
	struct rwsem_waiter w = { .write = false };
	unsigned long flags;

	might_sleep();
	lock_acquire(&sem->dep_map, sem, 0, (unsigned long)__builtin_return_address(0));
	spin_lock_irqsave(&sem->wait_lock, flags);
	if (sem->count >= 0 && list_empty(&sem->wait_list))
		sem->count++;
	else
		rwsem_wait(sem, &w, &flags);
	spin_unlock_irqrestore(&sem->wait_lock, flags);
}

int down_read_trylock(struct rw_semaphore *sem)
{
	unsigned long flags;
	int ok;

	spin_lock_irqsave(&sem->wait_lock, flags);
	ok = sem->count >= 0 && list_empty(&sem->wait_list);
	if (ok)
		sem->count++;
	spin_unlock_irqrestore(&sem->wait_lock, flags);
	if (ok)
		lock_acquire(&sem->dep_map, sem, 1, (unsigned long)__builtin_return_address(0));
	return ok;
}

void up_read(struct rw_semaphore *sem)
{
	unsigned long flags;

	spin_lock_irqsave(&sem->wait_lock, flags);
	if (sem->count <= 0) {
		spin_unlock_irqrestore(&sem->wait_lock, flags);
		printk(KERN_ERR "BUG: up_read of %s by %s/%d, not held for reading\n", sem->name,
		       current->comm, current->pid);
		dump_stack();
		return;
	}
	if (--sem->count == 0)
		rwsem_wake(sem);
	spin_unlock_irqrestore(&sem->wait_lock, flags);
	lock_release(sem);
}

void down_write(struct rw_semaphore *sem)
{
	struct rwsem_waiter w = { .write = true };
	unsigned long flags;

	might_sleep();
	lock_acquire(&sem->dep_map, sem, 0, (unsigned long)__builtin_return_address(0));
	spin_lock_irqsave(&sem->wait_lock, flags);
	if (sem->count < 0 && sem->writer == current) {
		spin_unlock_irqrestore(&sem->wait_lock, flags);
		printk(KERN_ERR "BUG: recursive down_write of %s by %s/%d\n", sem->name,
		       current->comm, current->pid);
		BUG();
	}
	if (!sem->count && list_empty(&sem->wait_list)) {
		sem->count = -1;
		sem->writer = current;
	} else {
		rwsem_wait(sem, &w, &flags);
	}
	spin_unlock_irqrestore(&sem->wait_lock, flags);
}

void up_write(struct rw_semaphore *sem)
{
	unsigned long flags;

	spin_lock_irqsave(&sem->wait_lock, flags);
	if (sem->count >= 0 || sem->writer != current) {
		spin_unlock_irqrestore(&sem->wait_lock, flags);
		printk(KERN_ERR "BUG: up_write of %s by %s/%d, not its writer\n", sem->name,
		       current->comm, current->pid);
		dump_stack();
		return;
	}
	sem->count = 0;
	sem->writer = NULL;
	rwsem_wake(sem);
	spin_unlock_irqrestore(&sem->wait_lock, flags);
	lock_release(sem);
}
