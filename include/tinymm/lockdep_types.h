/*
 * lockdep_types.h - what a lock carries for the lock-order checker (kernel/lockdep.c), and the
 * hooks the lock primitives call.  Separate from lockdep.h (the asserts) so spinlock.h and
 * mutex.h can include it without including each other.
 *
 * A lock's class is where it was initialised: the static lock_class_key each expansion of
 * spin_lock_init()/mutex_init() defines (@key, Linux's way: a loop the compiler unrolls is
 * still one site), or, for a lock made by a static initialiser (DEFINE_SPINLOCK,
 * __SPIN_LOCK_UNLOCKED on the stack), its name string, which the initialiser's expansion owns.
 * All folios' PG_locked bits are one class.  @class_idx is looked up at the first acquisition.
 *
 * Where tinymm differs from v6.10, and why: a static initialiser's class is its name string
 * (v6.10 uses a static key per initialiser; a string literal is the one static object an
 * initialiser can name).  MAX_LOCK_DEPTH is 16 (v6.10: 48): a batch of same-class locks (a folio
 * batch) takes one entry on the held-lock stack (struct lockdep_map's @still_held).
 */
#ifndef TINYMM_LOCKDEP_TYPES_H
#define TINYMM_LOCKDEP_TYPES_H

#include "kernel.h"

/* CONFIG_PROVE_LOCKING: on in every build that runs tests (the default). */
#ifndef TINYMM_LOCKDEP
#define TINYMM_LOCKDEP		1
#endif

#define MAX_LOCK_DEPTH		16	/* a folio batch takes one entry, see below */

struct lock_class_key {
	char unused;			/* only its address matters */
};

struct lockdep_map {
	const void *key;		/* the init site's lock_class_key; NULL: keyed by @name */
	const char *name;
	/* If set, an instance still on a stack whose lock went elsewhere (a folio unlocked by
	 * I/O completion) is dropped when this says it is no longer held; and the class has one
	 * entry per stack: a second instance (find_lock_entries() locks a batch of 31 folios)
	 * is checked but not pushed, as it would add no dependency (same-class nesting records
	 * none) and no depth would be enough. */
	bool (*still_held)(const void *instance);
	unsigned short class_idx;	/* 0: not looked up yet */
	/* A class this lock was last found to be taken after in a known order (order_known() in
	 * kernel/lockdep.c; 0: none yet).  The recorded dependencies only grow and a class's
	 * prunability never changes, so the answer stays true: the next acquisition nested in the
	 * same class skips the table (a pte lock inside mmap_lock, every fault).  In padding. */
	unsigned short prev_ok;
};

struct held_lock {
	const void *instance;		/* the lock (for the folio lock: the folio) */
	unsigned long acquire_ip;
	unsigned short class_idx;
};

/* The address of the instruction here (an inline's own call site, unlike a return address). */
#define _THIS_IP_	__extension__ ({ __label__ __here; __here: (unsigned long)&&__here; })

#define STATIC_LOCKDEP_MAP_INIT(_name)	{ .name = (_name) }

#if TINYMM_LOCKDEP
void lockdep_init_map(struct lockdep_map *map, const char *name, const void *key);
/* Before taking (trylock 0: the order is checked and recorded) or after a successful trylock
 * (1: only pushed, a trylock cannot deadlock).  @instance identifies the lock being held. */
void lock_acquire(struct lockdep_map *map, const void *instance, int trylock, unsigned long ip);
/* The order check alone, nothing pushed: a lock whose taking pushes later (folio_lock). */
void lock_check_order(struct lockdep_map *map, const void *instance, unsigned long ip);
/* Pop @instance off this thread's stack; absent (released by another context) is no error. */
void lock_release(const void *instance);
#else
static inline void lockdep_init_map(struct lockdep_map *map, const char *name, const void *key) {}
static inline void lock_acquire(struct lockdep_map *map, const void *instance, int trylock,
				unsigned long ip) {}
static inline void lock_check_order(struct lockdep_map *map, const void *instance,
				    unsigned long ip) {}
static inline void lock_release(const void *instance) {}
#endif

#endif
