/*
 * pagemap.h - the folio lock and waiting on folio flags (mm/filemap.c), Linux v6.10's API.
 *
 *   folio_trylock(f)          take PG_locked if free: true if taken (never sleeps)
 *   folio_lock(f)             sleep until PG_locked is ours
 *   folio_unlock(f)           release; wakes sleepers only when PG_waiters was set
 *   folio_wait_locked(f)      sleep until PG_locked is clear (without taking it)
 *   folio_start_writeback(f)  set PG_writeback (the writeback issue adds the accounting)
 *   folio_end_writeback(f)    clear PG_writeback, wake folio_wait_writeback() sleepers
 *   folio_wait_writeback(f)   sleep while PG_writeback is set
 *
 * Sleepers wait on one of PAGE_WAIT_TABLE_SIZE wait queues chosen by hashing the folio's
 * address (folio_waitqueue()), so struct page needs no wait queue of its own.  A sleeper sets
 * PG_waiters before it sleeps; the releasing atomic returns the old flags, and only a set
 * PG_waiters sends the releaser to the hashed queue.  The uncontended unlock is therefore one
 * atomic operation.  Waiters of other folios in the same bucket are skipped (their key does not
 * match); the waker clears PG_waiters when no waiter for this folio remains in the bucket, or
 * the bucket is empty, so on a shared bucket it may stay set until a later wake-up.
 * Lock hand-off as v6.10: after 5 unfair attempts, an exclusive waiter is marked
 * WQ_FLAG_CUSTOM and the waker takes PG_locked for it before waking it.
 */
#ifndef TINYMM_PAGEMAP_H
#define TINYMM_PAGEMAP_H

#include "mm_types.h"
#include "page-flags.h"
#include "wait.h"

#define PAGE_WAIT_TABLE_BITS	8
#define PAGE_WAIT_TABLE_SIZE	(1 << PAGE_WAIT_TABLE_BITS)

/* Bring-up: the hashed wait queues, before the first thread (boot/main.c). */
void pagecache_init(void);
struct wait_queue_head *folio_waitqueue(struct folio *folio);

static inline bool folio_trylock(struct folio *folio)
{
	return !test_and_set_bit(PG_locked, &folio->flags);
}

void __folio_lock(struct folio *folio);
static inline void folio_lock(struct folio *folio)
{
	might_sleep();
	if (!folio_trylock(folio))
		__folio_lock(folio);
}
void folio_unlock(struct folio *folio);
void folio_wait_bit(struct folio *folio, int bit_nr);
static inline void folio_wait_locked(struct folio *folio)
{
	if (folio_test_locked(folio))
		folio_wait_bit(folio, PG_locked);
}
void folio_start_writeback(struct folio *folio);
void folio_end_writeback(struct folio *folio);
void folio_wait_writeback(struct folio *folio);

/* Calls of folio_wake_bit() so far: the slow path of unlock / end of writeback (for tests). */
unsigned long folio_wake_bit_calls(void);

#endif
