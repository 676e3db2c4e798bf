/*
 * rwsem.h - sleeping reader-writer locks, Linux's interface (kernel/rwsem.c): any number of
 * readers or one writer.
 *
 * count is the readers holding it, -1 while a writer does.  A reader gets it at once when no
 * writer holds it and nobody waits; a writer when nobody holds it and nobody waits; otherwise
 * each queues in arrival order and the release that frees it hands it on (the first waiter if
 * a writer, else every reader at the front of the queue), so a writer is not starved by a
 * stream of readers.  Simpler than v6.10's (one spinlock around every operation, no optimistic
 * spinning, no reader bias): tinymm's one rwsem, i_mmap's, is taken by rmap walks, which want
 * it shared (reclaim's folio_referenced() and try_to_unmap() in kswapd and in direct reclaim
 * at once), and written only by mmap and munmap.  Not from interrupt context nor with a
 * spinlock held (might_sleep() reports it); not recursively for writing.
 * Locking: wait_lock (a spinlock, irqs masked) protects count, writer and the wait list.
 */
#ifndef TINYMM_RWSEM_H
#define TINYMM_RWSEM_H

#include "list.h"
#include "lockdep_types.h"
#include "sched.h"
#include "spinlock.h"

struct rw_semaphore {
	spinlock_t wait_lock;
	long count;			/* readers holding it; -1: a writer */
	struct task_struct *writer;	/* the writer holding it, for lockdep_assert_held */
	struct list_head wait_list;
	const char *name;
	struct lockdep_map dep_map;	/* its class for the lock-order checker */
};

#define init_rwsem(sem)								\
	do {									\
		static struct lock_class_key __key;				\
		__init_rwsem((sem), #sem, &__key);				\
	} while (0)

void __init_rwsem(struct rw_semaphore *sem, const char *name, struct lock_class_key *key);
void down_read(struct rw_semaphore *sem);
/* 1 if taken for reading, 0 if a writer holds it or anyone waits (v6.10 fails then too). */
int down_read_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);

/* Held for writing by this task, or for reading by anyone (readers are not tracked). */
static inline bool rwsem_is_held_by_me(struct rw_semaphore *sem)
{
	long c = READ_ONCE(sem->count);

	return c > 0 || (c < 0 && READ_ONCE(sem->writer) == current);
}

#endif
