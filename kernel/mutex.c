/*
 * mutex.c - sleeping locks (include/tinymm/mutex.h).
 *
 * Fast paths: lock is cmpxchg(owner, 0, current), unlock cmpxchg(owner, current, 0).  Slow
 * paths run under wait_lock: a locker that finds the mutex held sets MUTEX_FLAG_WAITERS in the
 * same cmpxchg loop that re-reads the owner (so an unlock racing with it either frees the lock
 * before the flag lands, and the locker takes it, or sees the flag and takes the slow path),
 * queues itself at the tail, and sleeps until owner == itself.  An unlock that sees the flag
 * takes wait_lock, dequeues the first waiter, makes it the owner (keeping the flag if more
 * wait) and wakes it: FIFO, and a woken waiter never finds the lock gone.
 * The lock-order checker sees a free mutex right after it is taken and a held one before the
 * wait (mutex_lock()), and a release right after it (see docs/lockdep.md, "The fast paths").
 * Invariants: WAITERS set => the lock is held or being handed over under wait_lock; a task on
 *   wait_list sleeps until owner (without the flag) is that task.
 * Locking: wait_lock (irqs masked) for the list and every owner change while WAITERS is set.
 */
#include "tinymm/bug.h"
#include "tinymm/mutex.h"
#include "tinymm/printk.h"

struct mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

static unsigned long contended;

void __mutex_init(struct mutex *lock, const char *name, struct lock_class_key *key)
{
	atomic_long_set(&lock->owner, 0);
	spin_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
	lock->name = name;
	lockdep_init_map(&lock->dep_map, name, key);
}

static bool __mutex_trylock_fast(struct mutex *lock)
{
	long zero = 0;

	return atomic_long_try_cmpxchg(&lock->owner, &zero, (long)current);
}

int mutex_trylock(struct mutex *lock)
{
	if (!__mutex_trylock_fast(lock))
		return 0;
	lock_acquire(&lock->dep_map, lock, 1, (unsigned long)__builtin_return_address(0));
	return 1;
}

static __attribute__((noinline)) void __mutex_lock_slowpath(struct mutex *lock)
{
	struct mutex_waiter w = { .task = current };
	unsigned long flags;
	long old;

	spin_lock_irqsave(&lock->wait_lock, flags);
	old = atomic_long_read(&lock->owner);
	for (;;) {
		if (!(old & ~MUTEX_FLAG_WAITERS)) {	/* freed meanwhile: take it */
			long new = (long)current | (list_empty(&lock->wait_list) ? 0 : MUTEX_FLAG_WAITERS);
			if (atomic_long_try_cmpxchg(&lock->owner, &old, new))
				goto out;
			continue;
		}
		if ((struct task_struct *)(old & ~MUTEX_FLAG_WAITERS) == current) {
			spin_unlock_irqrestore(&lock->wait_lock, flags);
			printk(KERN_ERR "BUG: recursive mutex_lock of %s by %s/%d\n", lock->name,
			       current->comm, current->pid);
			BUG();
		}
		if (atomic_long_try_cmpxchg(&lock->owner, &old, old | MUTEX_FLAG_WAITERS))
			break;
	}
	contended++;
	list_add_tail(&w.list, &lock->wait_list);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (__mutex_owner(lock) == current)
			break;
		spin_unlock_irqrestore(&lock->wait_lock, flags);
		schedule();
		spin_lock_irqsave(&lock->wait_lock, flags);
	}
	__set_current_state(TASK_RUNNING);
out:
	spin_unlock_irqrestore(&lock->wait_lock, flags);
}

/* A free mutex is taken, then checked (the checker's call a tail call: no frame here); a held
 * one is checked before the wait, as in Linux, so a deadlock is reported before it hangs. */
/* The cold half of mutex_lock() (might_sleep()'s report, a held mutex), out of line so the
 * hot half makes tail calls only (__fastpath). */
static __attribute__((noinline, cold)) void mutex_lock_slow(struct mutex *lock, unsigned long ip)
{
	if (preempt_count() || irqs_disabled())
		__might_sleep(__FILE__, __LINE__);
	if (__mutex_trylock_fast(lock)) {
		lock_acquire(&lock->dep_map, lock, 0, ip);
		return;
	}
	lock_acquire(&lock->dep_map, lock, 0, ip);
	__mutex_lock_slowpath(lock);
}

__fastpath void mutex_lock(struct mutex *lock)
{
	unsigned long ip = (unsigned long)__builtin_return_address(0);

	/* might_sleep()'s test, then the free mutex; anything else is mutex_lock_slow()'s. */
	if (unlikely(preempt_count() || irqs_disabled()) || unlikely(!__mutex_trylock_fast(lock))) {
		mutex_lock_slow(lock, ip);
		return;
	}
	lock_acquire(&lock->dep_map, lock, 0, ip);
}

static __attribute__((noinline)) void __mutex_unlock_slowpath(struct mutex *lock, long owner)
{
	unsigned long flags;
	struct task_struct *next = NULL;

	if ((struct task_struct *)(owner & ~MUTEX_FLAG_WAITERS) != current) {
		printk(KERN_ERR "BUG: mutex_unlock of %s by %s/%d, owner %s\n", lock->name,
		       current->comm, current->pid,
		       owner ? ((struct task_struct *)(owner & ~MUTEX_FLAG_WAITERS))->comm : "(none)");
		dump_stack();
		lock_release(lock);
		return;
	}
	spin_lock_irqsave(&lock->wait_lock, flags);
	if (!list_empty(&lock->wait_list)) {
		struct mutex_waiter *w = list_first_entry(&lock->wait_list, struct mutex_waiter, list);
		list_del_init(&w->list);
		next = w->task;
	}
	atomic_long_set(&lock->owner, next ? (long)next | (list_empty(&lock->wait_list) ? 0 :
							    MUTEX_FLAG_WAITERS) : 0);
	if (next)
		wake_up_process(next);
	spin_unlock_irqrestore(&lock->wait_lock, flags);
	lock_release(lock);
}

/* Released, then popped off the checker's stack (a tail call, as in mutex_lock()). */
__fastpath void mutex_unlock(struct mutex *lock)
{
	long owner = (long)current;

	if (unlikely(!atomic_long_try_cmpxchg(&lock->owner, &owner, 0))) {
		__mutex_unlock_slowpath(lock, owner);	/* pops it too: a tail call here */
		return;
	}
	lock_release(lock);
}

unsigned long mutex_contended(void)
{
	return contended;
}
