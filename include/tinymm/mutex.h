/*
 * mutex.h - sleeping locks, Linux's interface (kernel/mutex.c).
 *
 * One owner at a time; a locker that finds it taken sleeps on the mutex's wait list and is
 * handed the lock in arrival order when the owner unlocks (tinymm hands off to the first
 * waiter instead of Linux's optimistic spinning: one CPU has nobody to spin against).  Only the
 * owner may unlock; a mutex may not be taken in interrupt context or with a spinlock held
 * (might_sleep() reports it); it may not be taken recursively ("BUG: recursive mutex_lock").
 * Locking: wait_lock (a spinlock, irqs masked) protects owner and the wait list.
 */
#ifndef TINYMM_MUTEX_H
#define TINYMM_MUTEX_H

#include "list.h"
#include "sched.h"
#include "spinlock.h"

struct mutex {
	struct task_struct *owner;
	spinlock_t wait_lock;
	struct list_head wait_list;
	const char *name;
};

#define __MUTEX_INITIALIZER(lockname)							\
	{ .owner = NULL, .wait_lock = __SPIN_LOCK_UNLOCKED(lockname.wait_lock),		\
	  .wait_list = LIST_HEAD_INIT(lockname.wait_list), .name = #lockname }
#define DEFINE_MUTEX(mutexname)	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)
#define mutex_init(m)		__mutex_init((m), #m)

void __mutex_init(struct mutex *lock, const char *name);
void mutex_lock(struct mutex *lock);
/* 1 if taken, 0 if someone holds it. */
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
static inline bool mutex_is_locked(struct mutex *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}
/* Contended acquisitions so far (all mutexes; for tests). */
unsigned long mutex_contended(void);

#endif
