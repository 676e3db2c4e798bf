/*
 * spinlock.h - spinlock_t with Linux's interface (kernel/spinlock.c).
 *
 *   DEFINE_SPINLOCK(x), spin_lock_init(&l)
 *   spin_lock / spin_unlock / spin_trylock (1 if taken)
 *   spin_lock_irqsave(&l, flags) / spin_unlock_irqrestore(&l, flags)   also mask local irqs
 *   spin_lock_irq / spin_unlock_irq    only where irqs are known to be enabled
 *   spin_is_locked(&l), assert_spin_locked(&l) (BUG if not held)
 *
 * The lock word is a ticket lock: a locker takes the next ticket and waits until it is served,
 * so waiters get the lock in arrival order.  Taking a lock is an acquire, releasing it a
 * release: everything done inside the critical section stays inside.
 * Rules: never sleep holding a spinlock; a lock also taken in interrupt context must be taken
 * with irqs masked (irqsave) everywhere else; nested locks are always taken in the same order.
 * Single CPU today, but the lock word is real, so SMP changes nothing here.
 *
 * TINYMM_DEBUG_SPINLOCK (default 1) records the holder and checks each use (Linux's
 * CONFIG_DEBUG_SPINLOCK): taking a lock this CPU holds is "BUG: spinlock recursion" and BUG();
 * releasing a free lock is "BUG: spinlock already unlocked"; a lock that was never initialised
 * is "BUG: spinlock bad magic".  The last two are reported with a call trace and the operation
 * is skipped.
 */
#ifndef TINYMM_SPINLOCK_H
#define TINYMM_SPINLOCK_H

#include "atomic.h"
#include "bug.h"
#include "irqflags.h"
#include "kernel.h"
#include "lockdep_types.h"

#ifndef TINYMM_DEBUG_SPINLOCK
#define TINYMM_DEBUG_SPINLOCK	1
#endif

/* Free when owner == next; both only ever count up (and wrap together). */
typedef struct {
	atomic_t next;		/* the ticket the next locker takes */
	atomic_t owner;		/* the ticket being served: its holder owns the lock */
} arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED	{ ATOMIC_INIT(0), ATOMIC_INIT(0) }

typedef struct spinlock {
	arch_spinlock_t raw_lock;
#if TINYMM_DEBUG_SPINLOCK
	unsigned int magic;	/* SPINLOCK_MAGIC once initialised */
	int owner_cpu;		/* holder's CPU, -1 when free */
	void *owner;		/* holder's pc: the return address of the lock call; NULL when free */
	const char *name;	/* for reports */
#endif
	struct lockdep_map dep_map;	/* its class for the lock-order checker */
} spinlock_t;

#define SPINLOCK_MAGIC		0xdead4eadU

#define SPIN_DEP_MAP_INIT(lockname)	, .dep_map = STATIC_LOCKDEP_MAP_INIT(#lockname)
#if TINYMM_DEBUG_SPINLOCK
#define __SPIN_LOCK_UNLOCKED(lockname)							\
	{ .raw_lock = __ARCH_SPIN_LOCK_UNLOCKED, .magic = SPINLOCK_MAGIC,		\
	  .owner_cpu = -1, .owner = NULL, .name = #lockname SPIN_DEP_MAP_INIT(lockname) }
#else
#define __SPIN_LOCK_UNLOCKED(lockname)							\
	{ .raw_lock = __ARCH_SPIN_LOCK_UNLOCKED SPIN_DEP_MAP_INIT(lockname) }
#endif

#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
/* A static key per expansion is the lock's class (lockdep_types.h), as in Linux. */
#define spin_lock_init(lock)								\
	do {										\
		static struct lock_class_key __key;					\
		__spin_lock_init((lock), #lock, &__key);				\
	} while (0)

/* The bare ticket lock, no checks: for the lock-order checker's own table lock. */
void arch_spin_lock(arch_spinlock_t *l);
void arch_spin_unlock(arch_spinlock_t *l);

void __spin_lock_init(spinlock_t *lock, const char *name, struct lock_class_key *key);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
int spin_trylock(spinlock_t *lock);
void spin_lock_irq(spinlock_t *lock);
void spin_unlock_irq(spinlock_t *lock);
unsigned long _spin_lock_irqsave(spinlock_t *lock);
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
/* Held by anyone (a snapshot: only meaningful to the holder or for assertions). */
bool spin_is_locked(spinlock_t *lock);

#define spin_lock_irqsave(lock, flags)							\
	do { __irqflags_check(flags); (flags) = _spin_lock_irqsave(lock); } while (0)

#define assert_spin_locked(lock)	BUG_ON(!spin_is_locked(lock))

#endif
