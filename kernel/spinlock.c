/*
 * spinlock.c - the ticket lock behind spinlock.h and its debug checks.
 *
 * Invariants: owner <= next (counted modulo 2^32); the lock is held exactly when they differ;
 * only the holder writes owner.  With TINYMM_DEBUG_SPINLOCK, owner_cpu and the owner pc are
 * set only while held, by the holder, so a CPU that finds its own number there is re-locking a
 * lock it holds: on one CPU that would spin forever, hence BUG() before waiting.
 * Locking: this file is the lock; the debug fields are written only by the holder and read
 * racily (READ_ONCE) for reports.
 */
#include <asm/processor.h>
#include "tinymm/kallsyms.h"
#include "tinymm/preempt.h"
#include "tinymm/printk.h"
#include "tinymm/spinlock.h"

/* Take a ticket, wait for it to be served.  fetch_inc is fully ordered; the acquire read of
 * owner keeps the critical section after the wait. */
void arch_spin_lock(arch_spinlock_t *l)
{
	int ticket = atomic_fetch_inc(&l->next);

	while (atomic_read_acquire(&l->owner) != ticket)
		cpu_relax();
}

/* Take the next ticket only if it would be served at once (next == owner).  A successful
 * cmpxchg is fully ordered, which also orders the read of owner before the critical section. */
static bool arch_spin_trylock(arch_spinlock_t *l)
{
	int owner = atomic_read(&l->owner);

	return atomic_cmpxchg(&l->next, owner, (int)((unsigned int)owner + 1)) == owner;
}

/* Serve the next ticket; the release store publishes the critical section first. */
void arch_spin_unlock(arch_spinlock_t *l)
{
	atomic_set_release(&l->owner, (int)((unsigned int)atomic_read(&l->owner) + 1));
}

static bool arch_spin_is_locked(arch_spinlock_t *l)
{
	return atomic_read(&l->owner) != atomic_read(&l->next);
}

bool spin_is_locked(spinlock_t *lock)
{
	return arch_spin_is_locked(&lock->raw_lock);
}

#if TINYMM_DEBUG_SPINLOCK

void __spin_lock_init(spinlock_t *lock, const char *name, struct lock_class_key *key)
{
	*lock = (spinlock_t)__SPIN_LOCK_UNLOCKED(lock);
	lock->name = name;
	lockdep_init_map(&lock->dep_map, name, key);
}

/* One line in Linux's spin_dump() shape.  A lock with bad magic was never initialised: its name
 * pointer is garbage, so it is not followed. */
static __attribute__((noinline, cold)) void spin_dump(spinlock_t *lock, const char *msg)
{
	unsigned int magic = READ_ONCE(lock->magic);
	void *pc = READ_ONCE(lock->owner);
	char owner[96] = "<none>";

	if (pc)
		sprint_symbol(owner, sizeof(owner), (unsigned long)pc);
	printk(KERN_EMERG "BUG: spinlock %s on CPU#%d, lock: %s/%p, .magic: %08x, .owner: %s, "
	       ".owner_cpu: %d\n", msg, raw_smp_processor_id(),
	       magic == SPINLOCK_MAGIC ? lock->name : "?", (void *)lock, magic, owner,
	       READ_ONCE(lock->owner_cpu));
}

/* A misuse the caller survives: report with a call trace, like WARN(), and go on. */
static __attribute__((noinline, cold)) void spin_bug(spinlock_t *lock, const char *msg)
{
	spin_dump(lock, msg);
	dump_stack();
}

static inline __attribute__((always_inline)) bool magic_ok(spinlock_t *lock)
{
	if (likely(READ_ONCE(lock->magic) == SPINLOCK_MAGIC))
		return true;
	/* Skip the operation: a garbage lock word could make spin_lock wait forever. */
	spin_bug(lock, "bad magic");
	return false;
}

static inline __attribute__((always_inline)) bool debug_lock_before(spinlock_t *lock)
{
	if (!magic_ok(lock))
		return false;
	if (unlikely(READ_ONCE(lock->owner_cpu) == raw_smp_processor_id())) {
		spin_dump(lock, "recursion");
		BUG();
	}
	return true;
}

static void debug_lock_after(spinlock_t *lock, void *pc)
{
	WRITE_ONCE(lock->owner_cpu, raw_smp_processor_id());
	WRITE_ONCE(lock->owner, pc);
}

static inline __attribute__((always_inline)) bool debug_unlock(spinlock_t *lock)
{
	if (!magic_ok(lock))
		return false;
	if (unlikely(!arch_spin_is_locked(&lock->raw_lock))) {
		/* Skipped: serving a ticket nobody holds would let the next two lockers both in. */
		spin_bug(lock, "already unlocked");
		return false;
	}
	if (unlikely(READ_ONCE(lock->owner_cpu) != raw_smp_processor_id()))
		spin_bug(lock, "wrong CPU");
	WRITE_ONCE(lock->owner, NULL);
	WRITE_ONCE(lock->owner_cpu, -1);
	return true;
}

/* debug_lock_before() and debug_unlock()'s tests without their reports: the fast paths'. */
static inline __attribute__((always_inline)) bool lock_checks_pass(spinlock_t *lock)
{
	return READ_ONCE(lock->magic) == SPINLOCK_MAGIC &&
	       READ_ONCE(lock->owner_cpu) != raw_smp_processor_id();
}

static inline __attribute__((always_inline)) bool unlock_checks_pass(spinlock_t *lock)
{
	return READ_ONCE(lock->magic) == SPINLOCK_MAGIC && arch_spin_is_locked(&lock->raw_lock) &&
	       READ_ONCE(lock->owner_cpu) == raw_smp_processor_id();
}

static inline __attribute__((always_inline)) void debug_unlock_clear(spinlock_t *lock)
{
	WRITE_ONCE(lock->owner, NULL);
	WRITE_ONCE(lock->owner_cpu, -1);
}

#else

static inline bool lock_checks_pass(spinlock_t *lock) { return true; }
static inline bool unlock_checks_pass(spinlock_t *lock) { return true; }
static inline void debug_unlock_clear(spinlock_t *lock) {}

void __spin_lock_init(spinlock_t *lock, const char *name, struct lock_class_key *key)
{
	*lock = (spinlock_t)__SPIN_LOCK_UNLOCKED(lock);
	lockdep_init_map(&lock->dep_map, name, key);
}

static inline bool magic_ok(spinlock_t *lock) { return true; }
static inline bool debug_lock_before(spinlock_t *lock) { return true; }
static inline void debug_lock_after(spinlock_t *lock, void *pc) {}
static inline bool debug_unlock(spinlock_t *lock) { return true; }

#endif

/* Every lock entry point passes its caller's address down as the owner to record. */
/* A held spinlock keeps its holder on the CPU: preemption is off from lock to unlock, so
 * nobody on this CPU can spin on it forever.  A skipped (buggy) operation leaves the count. */
static inline __attribute__((always_inline)) void do_spin_lock(spinlock_t *lock, void *pc)
{
	if (!debug_lock_before(lock))
		return;
	/* Checked before waiting, as in Linux: a real deadlock is reported before it hangs. */
	lock_acquire(&lock->dep_map, lock, 0, (unsigned long)pc);
	preempt_disable();
	arch_spin_lock(&lock->raw_lock);
	debug_lock_after(lock, pc);
}

static inline __attribute__((always_inline)) bool do_spin_unlock(spinlock_t *lock)
{
	if (!debug_unlock(lock))
		return false;
	lock_release(lock);
	arch_spin_unlock(&lock->raw_lock);
	return true;
}

/*
 * spin_lock() and spin_unlock() order the checker's call last where nothing can hang: a free
 * lock is taken first and then checked (an order it breaks is reported all the same, the
 * lock just already held), a lock is popped after it is released.  The checker's call is
 * then a tail call, and these two, the most frequent lock operations, need no frame of their
 * own.  A busy lock is checked before the wait, as in Linux, so a real deadlock is reported
 * before it hangs.
 */
/* A busy lock: checked, then waited for.  Out of line so spin_lock() makes tail calls only. */
static __attribute__((noinline, cold)) void spin_lock_wait(spinlock_t *lock, void *pc)
{
	lock_acquire(&lock->dep_map, lock, 0, (unsigned long)pc);
	arch_spin_lock(&lock->raw_lock);
	debug_lock_after(lock, pc);
}

/* spin_lock() with its checks' reports: out of line, so that spin_lock() only makes tail
 * calls (__fastpath: a report's call trace then names this function and spin_lock's caller). */
static __attribute__((noinline)) void spin_lock_checked(spinlock_t *lock, void *pc)
{
	if (!debug_lock_before(lock))
		return;
	preempt_disable();
	spin_lock_wait(lock, pc);
}

__fastpath void spin_lock(spinlock_t *lock)
{
	if (unlikely(!lock_checks_pass(lock))) {
		spin_lock_checked(lock, __builtin_return_address(0));
		return;
	}
	preempt_disable();
	if (unlikely(!arch_spin_trylock(&lock->raw_lock))) {
		spin_lock_wait(lock, __builtin_return_address(0));
		return;
	}
	debug_lock_after(lock, __builtin_return_address(0));
	lock_acquire(&lock->dep_map, lock, 0, (unsigned long)__builtin_return_address(0));
}

/* Like Linux's debug trylock: no recursion check, a held lock just fails. */
int spin_trylock(spinlock_t *lock)
{
	if (!magic_ok(lock))
		return 0;
	preempt_disable();
	if (!arch_spin_trylock(&lock->raw_lock)) {
		preempt_enable();
		return 0;
	}
	debug_lock_after(lock, __builtin_return_address(0));
	lock_acquire(&lock->dep_map, lock, 1, (unsigned long)__builtin_return_address(0));
	return 1;
}

/* spin_unlock()'s preemption point: popped first (the thread may not run again soon), then
 * the switch.  Out of line so spin_unlock() makes tail calls only. */
static __attribute__((noinline, cold)) void spin_unlock_resched(spinlock_t *lock)
{
	lock_release(lock);
	preempt_schedule();
}

/* spin_unlock() with its checks' reports, out of line (as spin_lock_checked()). */
static __attribute__((noinline, cold)) void spin_unlock_checked(spinlock_t *lock)
{
	if (!debug_unlock(lock))
		return;
	arch_spin_unlock(&lock->raw_lock);
	preempt_enable();
	lock_release(lock);
}

/* debug_unlock()'s checks, then preempt_enable() written out: a failed check and the rare call
 * to the scheduler go through the cold helpers, so this makes tail calls only. */
__fastpath void spin_unlock(spinlock_t *lock)
{
	if (unlikely(!unlock_checks_pass(lock))) {
		spin_unlock_checked(lock);
		return;
	}
	debug_unlock_clear(lock);
	arch_spin_unlock(&lock->raw_lock);
	barrier();
	if (unlikely(!(__preempt_count -= PREEMPT_OFFSET) && __need_resched)) {
		spin_unlock_resched(lock);
		return;
	}
	lock_release(lock);
}

/* The irq variants mask on their caller's behalf: the irqsoff tracer records the caller (_ip). */
void spin_lock_irq(spinlock_t *lock)
{
	local_irq_disable_ip((unsigned long)__builtin_return_address(0));
	do_spin_lock(lock, __builtin_return_address(0));
}

void spin_unlock_irq(spinlock_t *lock)
{
	bool ok = do_spin_unlock(lock);

	local_irq_enable_ip((unsigned long)__builtin_return_address(0));
	if (ok)
		preempt_enable();
}

unsigned long _spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags;

	local_irq_save_ip(flags, (unsigned long)__builtin_return_address(0));
	do_spin_lock(lock, __builtin_return_address(0));
	return flags;
}

void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	bool ok = do_spin_unlock(lock);

	local_irq_restore_ip(flags, (unsigned long)__builtin_return_address(0));
	if (ok)
		preempt_enable();
}
