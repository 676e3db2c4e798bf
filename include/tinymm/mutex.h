/*
 * mutex.h - sleeping locks, Linux's interface (kernel/mutex.c).
 *
 * owner is the holder's task_struct pointer with Linux's flag in bit 0: MUTEX_FLAG_WAITERS,
 * set while someone sleeps on the wait list.  Uncontended, lock and unlock are one cmpxchg each
 * (NULL -> current, current -> NULL); the unlock's cmpxchg fails when WAITERS is set, and the
 * slow path hands the lock to the first waiter in arrival order (tinymm always hands off;
 * Linux lets a new arrival steal it unless a waiter starved, and spins optimistically, which
 * one CPU has no use for).  Only the owner may unlock; a mutex may not be taken in interrupt
 * context or with a spinlock held (might_sleep() reports it), nor recursively ("BUG:
 * recursive mutex_lock").
 * Locking: owner changes by atomic cmpxchg; wait_lock (spinlock, irqs masked) protects the
 * wait list and every owner change made while WAITERS is set.
 */
#ifndef TINYMM_MUTEX_H
#define TINYMM_MUTEX_H

#include "list.h"
#include "sched.h"
#include "spinlock.h"

#define MUTEX_FLAG_WAITERS	0x01UL

struct mutex {
	atomic_long_t owner;		/* task_struct pointer | MUTEX_FLAG_WAITERS */
	spinlock_t wait_lock;
	struct list_head wait_list;
	const char *name;
	struct lockdep_map dep_map;	/* its class for the lock-order checker */
};

#define __MUTEX_INITIALIZER(lockname)							\
	{ .owner = ATOMIC_LONG_INIT(0), .wait_lock = __SPIN_LOCK_UNLOCKED(lockname.wait_lock),		\
	  .wait_list = LIST_HEAD_INIT(lockname.wait_list), .name = #lockname,	\
	  .dep_map = STATIC_LOCKDEP_MAP_INIT(#lockname) }
#define DEFINE_MUTEX(mutexname)	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)
#define mutex_init(m)									\
	do {										\
		static struct lock_class_key __key;					\
		__mutex_init((m), #m, &__key);						\
	} while (0)

void __mutex_init(struct mutex *lock, const char *name, struct lock_class_key *key);
void mutex_lock(struct mutex *lock);
/* 1 if taken, 0 if someone holds it. */
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
static inline struct task_struct *__mutex_owner(struct mutex *lock)
{
	return (struct task_struct *)(atomic_long_read(&lock->owner) & ~MUTEX_FLAG_WAITERS);
}
static inline bool mutex_is_locked(struct mutex *lock)
{
	return __mutex_owner(lock) != NULL;
}
/* Contended acquisitions so far (all mutexes; for tests). */
unsigned long mutex_contended(void);

#endif
