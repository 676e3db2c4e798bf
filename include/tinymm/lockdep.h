/*
 * lockdep.h - lock rules the code checks (Linux's names; kernel/lockdep.c, docs/lockdep.md).
 *
 *   lockdep_assert_held(l)    a spinlock_t *, struct mutex * or struct rw_semaphore * (for
 *                             reading: held by anyone, readers are not tracked): held by this
 *                             CPU / task, else a
 *                             "WARNING: ... <function>() called without <lock> held" line and a
 *                             call trace; goes on (Linux warns too: WARN_ON(!lockdep_is_held)).
 *   lockdep_assert_folio_locked(f)  the folio's PG_locked is set, else the same one-line
 *                             "WARNING: ... <function>() called without folio_lock(<f>) held"
 *                             and a call trace; goes on (Linux has
 *                             VM_BUG_ON_FOLIO(!folio_test_locked(folio), folio), a BUG).
 *
 * A spinlock knows its holder's CPU with TINYMM_DEBUG_SPINLOCK (spinlock.h; without it only
 * "held by someone" can be checked), a mutex its owner task.  The checks are a load and a
 * compare: they cost nothing on the page allocator's fast paths, which take no lock.
 */
#ifndef TINYMM_LOCKDEP_H
#define TINYMM_LOCKDEP_H

#include <asm/processor.h>
#include "lockdep_types.h"
#include "mutex.h"
#include "rwsem.h"
#include "spinlock.h"

/* kernel/lockdep.c: reports printed, classes and direct dependencies seen (tests, `lockdep`). */
unsigned long lockdep_nr_reports(void);
unsigned int lockdep_nr_classes(void);
unsigned int lockdep_nr_dependencies(void);
/* @instance is on this thread's stack of held locks. */
bool lock_is_held(const void *instance);

/* kernel/panic.c: the report of a failed assert; @caller's function named, a call trace. */
void __warn_lock_not_held(const char *file, int line, const char *func, const char *lock);

static inline bool spin_is_held_by_me(spinlock_t *lock)
{
#if TINYMM_DEBUG_SPINLOCK
	return READ_ONCE(lock->owner_cpu) == raw_smp_processor_id();	/* -1 when free */
#else
	return spin_is_locked(lock);
#endif
}

static inline bool mutex_is_held_by_me(struct mutex *lock)
{
	return __mutex_owner(lock) == current;
}

#define lockdep_is_held(l)							\
	_Generic((l), spinlock_t *: spin_is_held_by_me, struct mutex *: mutex_is_held_by_me,	\
		 struct rw_semaphore *: rwsem_is_held_by_me)(l)

#define lockdep_assert_held(l)							\
	do {									\
		if (unlikely(!lockdep_is_held(l)))				\
			__warn_lock_not_held(__FILE__, __LINE__, __func__, #l);	\
	} while (0)

/* lockdep_assert_held()'s report for a test made by a __fastpath function (kernel.h) with
 * lockdep_is_held(): its out-of-line half reports in the fast function's name, so the fast
 * one keeps no frame (vma_lookup, anon_vma_prepare). */
#define lockdep_warn_not_held(l, func)	__warn_lock_not_held(__FILE__, __LINE__, func, #l)

/* PG_locked is a bit, not an owned lock: set by anyone will do, as in v6.10's check.  Expands
 * to folio_test_locked(): the user has page-flags.h (pagemap.h brings both). */
#define lockdep_assert_folio_locked(f)						\
	do {									\
		if (unlikely(!folio_test_locked(f)))				\
			__warn_lock_not_held(__FILE__, __LINE__, __func__,	\
					     "folio_lock(" #f ")");		\
	} while (0)

#endif
