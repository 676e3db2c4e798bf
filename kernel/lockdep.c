/*
 * lockdep.c - a small lock-order checker: v6.10's lockdep idea (CONFIG_PROVE_LOCKING), not
 * its size.  docs/lockdep.md says how to read a report.
 *
 * Every acquisition pushes (class, instance, ip) on the acquiring thread's stack of held locks:
 * one of LOCKDEP_STACKS stacks, lent to a thread at its first lock and kept while it is not
 * needed elsewhere (task_struct's lockdep_slot): taken back, empty, only when another thread
 * needs one and none is free, so the common lock and unlock never search; before the first
 * thread, and
 * for host test threads without one, a per-CPU boot stack.  A blocking acquisition of class B
 * while holding A records the dependency A -> B, with both acquisition points, the first time
 * it is seen; if B -> A was recorded before, the two orders can deadlock and one "WARNING:
 * possible circular locking dependency detected" report names both chains, once per pair.
 * Where tinymm differs from v6.10, and why (lockdep's idea, not its size): only direct
 * (two-lock) cycles are found, not longer chains through the graph; no irq-safe/irq-unsafe
 * states, no read locks; nesting two locks of the same class is allowed and records nothing
 * (v6.10 reports "possible recursive locking" unless annotated); classes and dependencies live
 * in small fixed tables (127 classes, 512 dependencies; v6.10: 8191 and 32768), and when one is
 * full the checker says so once and stops recording, as Linux's "BUG: MAX_LOCKDEP_KEYS too
 * low!".  The held stacks are lent to threads, where v6.10 keeps 48 entries in every
 * task_struct: that would grow the task_struct cache and move every page the tests expect.
 * lock_acquire() and lock_release() do the common cases themselves, without a call (nothing
 * held, or one lock held whose order is recorded; releasing the top entry); the rest goes to
 * __lock_acquire() and __lock_release(); both fast functions are frameless (__fastpath), and
 * a lock's map remembers the class it last nested in with a known order (prev_ok: the answer
 * never turns false).  tinymm.lockdep=0 clears debug_locks from boot.
 * Invariants: deps bit [a][b] set <=> dep_list holds the (a, b) entry; a held stack never
 *   exceeds MAX_LOCK_DEPTH (beyond it the checker turns itself off).
 * Locking: the tables under graph_lock (a raw ticket lock, never checked itself) with irqs
 *   masked; the held stack is the thread's own, irqs masked around its change.  A report
 *   prints with the recursion flag set, so printk's and the console's locks are not checked.
 */
#include <asm/processor.h>
#include "tinymm/bug.h"
#include "tinymm/cmdline.h"
#include "tinymm/kallsyms.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"

#define MAX_LOCKDEP_KEYS	127		/* class indices 1..127 */
#define MAX_LOCKDEP_ENTRIES	512		/* direct dependencies */
#define BOOT_CPUS		8		/* host test threads play CPUs 0..7 */
#define LOCKDEP_STACKS		32		/* threads holding a lock at one time */
#define DEP_WORDS		((MAX_LOCKDEP_KEYS + 1 + 31) / 32)

struct lock_class {
	const void *key;
	const char *name;
	bool (*still_held)(const void *instance);	/* the map's, see lockdep_types.h */
};

struct lock_list {				/* the dependency from -> to, first seen here */
	unsigned short from, to;
	unsigned long from_ip, to_ip;
};

static struct lock_class lock_classes[MAX_LOCKDEP_KEYS + 1];
static unsigned int nr_lock_classes;
static uint32_t deps[MAX_LOCKDEP_KEYS + 1][DEP_WORDS];
static uint32_t reported[MAX_LOCKDEP_KEYS + 1][DEP_WORDS];
static struct lock_list dep_list[MAX_LOCKDEP_ENTRIES];
static unsigned int nr_deps;
static unsigned long nr_reports;
static unsigned int nr_prunable;		/* classes with a still_held() */
/* v6.10's debug_locks: cleared when a table overflows, or from boot by tinymm.lockdep=0. */
static bool debug_locks = true;
KPARAM_BOOL(lockdep, debug_locks,
	    "1 (default): the lock-order checker on; 0: off from boot (lock pairs then cost what a v6.10 build without CONFIG_PROVE_LOCKING pays)");
/* Classes with a still_held() (lock_class's), as bits: the nested fast path tests one. */
static uint32_t prunable[DEP_WORDS];
static arch_spinlock_t graph_lock = __ARCH_SPIN_LOCK_UNLOCKED;

struct lock_stack {
	const struct task_struct *task;		/* NULL: free */
	unsigned int depth;
	struct held_lock held[MAX_LOCK_DEPTH];
};
static struct lock_stack stacks[LOCKDEP_STACKS];
static struct lock_stack boot_stacks[BOOT_CPUS];
static bool lockdep_recursion[BOOT_CPUS];

static bool test_dep(uint32_t (*m)[DEP_WORDS], unsigned int a, unsigned int b)
{
	return m[a][b / 32] & (1U << (b % 32));
}

static void set_dep(uint32_t (*m)[DEP_WORDS], unsigned int a, unsigned int b)
{
	m[a][b / 32] |= 1U << (b % 32);
}

void lockdep_init_map(struct lockdep_map *map, const char *name, const void *key)
{
	map->key = key;
	map->name = name;
	map->still_held = NULL;
	map->class_idx = 0;
	map->prev_ok = 0;
}

static unsigned int prune_stale(struct held_lock *stack, unsigned int depth);

/* Give back every lent stack that holds nothing, or whose locks all went elsewhere (see
 * prune_stale()).  Its thread's lockdep_slot is left: held_stack() checks the owner, and the
 * thread may be gone.  SMP: only a stack whose owner runs on no CPU, taken under graph_lock;
 * only its owner pushes on it, and it is not running (it could start to between the check and
 * the prune: then it finds its stack taken and is lent another, losing what it held to the
 * checker, never corrupting a stack; docs/atomics-and-locks.md). */
static void reclaim_stacks(void)
{
	arch_spin_lock(&graph_lock);
	for (unsigned int i = 0; i < LOCKDEP_STACKS; i++) {
		const struct task_struct *t = READ_ONCE(stacks[i].task);

		if (t && (NR_CPUS == 1 || t == current || !task_curr(t)) &&
		    !(stacks[i].depth = prune_stale(stacks[i].held, stacks[i].depth)))
			WRITE_ONCE(stacks[i].task, NULL);
	}
	arch_spin_unlock(&graph_lock);
}

/* This thread's stack of held locks; with @lend, one is lent if it has none.  NULL: none (or
 * not tracked: a host thread beyond BOOT_CPUS, or no stack left).  Irqs masked. */
static struct lock_stack *held_stack(bool lend)
{
	unsigned int cpu = (unsigned int)raw_smp_processor_id(), i;
	struct task_struct *curr = current;

	if (!curr)
		return cpu < BOOT_CPUS ? &boot_stacks[cpu] : NULL;
	if (curr->lockdep_slot && stacks[curr->lockdep_slot - 1].task == curr)
		return &stacks[curr->lockdep_slot - 1];
	if (!lend)
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < LOCKDEP_STACKS; i++) {
			const struct task_struct *free = NULL;

			/* Another CPU may lend the same free stack at once: one wins it. */
			if (!READ_ONCE(stacks[i].task) &&
			    __atomic_compare_exchange_n(&stacks[i].task, &free, curr, false,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
				stacks[i].depth = 0;
				curr->lockdep_slot = (unsigned char)(i + 1);
				return &stacks[i];
			}
		}
		reclaim_stacks();
	}
	return NULL;
}


/* Once, then the checker is off: Linux's debug_locks_off() after a table overflow. */
static void lockdep_off_because(const char *what)
{
	if (!debug_locks)
		return;
	debug_locks = false;
	printk(KERN_ERR "BUG: %s too low!\nturning off the locking correctness validator.\n", what);
	dump_stack();
}

/* graph_lock held. */
static unsigned short register_lock_class(struct lockdep_map *map)
{
	const void *key = map->key ? map->key : (const void *)map->name;
	unsigned int i;

	for (i = 1; i <= nr_lock_classes; i++)
		if (lock_classes[i].key == key)
			return (unsigned short)i;
	if (nr_lock_classes == MAX_LOCKDEP_KEYS) {
		lockdep_off_because("MAX_LOCKDEP_KEYS");
		return 0;
	}
	i = ++nr_lock_classes;
	lock_classes[i].key = key;
	lock_classes[i].name = map->name ? map->name : "(unnamed)";
	lock_classes[i].still_held = map->still_held;
	if (map->still_held) {
		nr_prunable++;
		set_dep(&prunable, 0, i);
	}
	return (unsigned short)i;
}

static struct lock_list *find_dep(unsigned int from, unsigned int to)
{
	for (unsigned int i = 0; i < nr_deps; i++)
		if (dep_list[i].from == from && dep_list[i].to == to)
			return &dep_list[i];
	return NULL;
}

/* Linux's print_circular_bug(), for a two-lock cycle: @prev held, @next wanted, and the
 * recorded next -> prev dependency @back.  One printk per line (each gets its timestamp). */
static void print_circular_bug(const struct held_lock *prev, unsigned int next_class,
			       const void *next, unsigned long next_ip, const struct lock_list *back)
{
	const char *comm = current ? current->comm : "swapper";
	const char *pn = lock_classes[prev->class_idx].name, *nn = lock_classes[next_class].name;
	int pid = current ? current->pid : 0;
	char at_next[96], at_prev[96], back_to[96], back_from[96];

	nr_reports++;
	sprint_symbol(at_next, sizeof(at_next), next_ip);
	sprint_symbol(at_prev, sizeof(at_prev), prev->acquire_ip);
	sprint_symbol(back_to, sizeof(back_to), back->to_ip);
	sprint_symbol(back_from, sizeof(back_from), back->from_ip);
	printk(KERN_WARNING "======================================================\n");
	printk(KERN_WARNING "WARNING: possible circular locking dependency detected\n");
	printk(KERN_WARNING "------------------------------------------------------\n");
	printk(KERN_WARNING "%s/%d is trying to acquire lock:\n", comm, pid);
	printk(KERN_WARNING "%p (%s), at: %s\n", next, nn, at_next);
	printk(KERN_WARNING "but task is already holding lock:\n");
	printk(KERN_WARNING "%p (%s), at: %s\n", prev->instance, pn, at_prev);
	printk(KERN_WARNING "which lock already depends on the new lock.\n");
	printk(KERN_WARNING "the existing dependency chain (in reverse order) is:\n");
	printk(KERN_WARNING "-> #1 (%s): taken at %s\n", pn, back_to);
	printk(KERN_WARNING "       while holding (%s) taken at %s\n", nn, back_from);
	printk(KERN_WARNING "-> #0 (%s): taken at %s\n", nn, at_next);
	printk(KERN_WARNING " Possible unsafe locking scenario:\n");
	printk(KERN_WARNING "       CPU0                    CPU1\n");
	printk(KERN_WARNING "       ----                    ----\n");
	printk(KERN_WARNING "  lock(%s);\n", pn);
	printk(KERN_WARNING "                               lock(%s);\n", nn);
	printk(KERN_WARNING "                               lock(%s);\n", pn);
	printk(KERN_WARNING "  lock(%s);\n", nn);
	printk(KERN_WARNING " *** DEADLOCK ***\n");
	printk(KERN_WARNING "stack backtrace:\n");
	dump_stack();
}

/* Record prev -> next and check for next -> prev; graph_lock held.  False: a report to print
 * (in *@back), after graph_lock is dropped. */
static bool check_prev_add(const struct held_lock *prev, unsigned int next, unsigned long ip,
			   const struct lock_list **back)
{
	unsigned int p = prev->class_idx;

	if (test_dep(deps, next, p) && !test_dep(reported, p, next)) {
		set_dep(reported, p, next);
		set_dep(reported, next, p);
		*back = find_dep(next, p);
		return false;
	}
	if (test_dep(deps, p, next))
		return true;
	if (nr_deps == MAX_LOCKDEP_ENTRIES) {
		lockdep_off_because("MAX_LOCKDEP_ENTRIES");
		return true;
	}
	dep_list[nr_deps++] = (struct lock_list){ .from = (unsigned short)p,
		.to = (unsigned short)next, .from_ip = prev->acquire_ip, .to_ip = ip };
	set_dep(deps, p, next);
	return true;
}

/* Drop stack entries whose lock another context released (a folio unlocked by I/O end). */
static unsigned int prune_stale(struct held_lock *stack, unsigned int depth)
{
	unsigned int i, j = 0;

	for (i = 0; i < depth; i++) {
		const struct lock_class *c = &lock_classes[stack[i].class_idx];

		if (c->still_held && !c->still_held(stack[i].instance))
			continue;
		stack[j++] = stack[i];
	}
	return j;
}

/* May @class be taken while @held is held, without the graph?  The same class (nesting records
 * nothing), or @held -> @class already recorded and @held never released elsewhere. */
static inline bool order_known(unsigned int held, unsigned int class)
{
	if ((prunable[held / 32] >> (held % 32)) & 1)
		return false;	/* may be stale: the general path prunes, one entry per class */
	return held == class || ((deps[held][class / 32] >> (class % 32)) & 1);
}

/*
 * May @class be pushed on @ls without the graph: every held lock of another class already
 * depends on it in the table, none of them may have been released elsewhere (a prunable
 * class), and there is room.  The dependency bits only ever go from clear to set, so a stale
 * read sends the caller to the slow path, never past a check.  Irqs masked.
 */
static bool known_order(const struct lock_stack *ls, unsigned int class)
{
	const struct held_lock *h = ls->held, *end = h + ls->depth;

	if (ls->depth >= MAX_LOCK_DEPTH)
		return false;
	for (; h < end; h++) {
		unsigned int held = h->class_idx;

		if (!order_known(held, class))
			return false;
	}
	return true;
}

static __attribute__((noinline)) void __lock_acquire(struct lockdep_map *map,
						     const void *instance, bool check, bool push,
						     unsigned long ip)
{
	unsigned int cpu = (unsigned int)raw_smp_processor_id() % BOOT_CPUS;
	const struct held_lock *bad = NULL;
	const struct lock_list *back = NULL;
	struct lock_stack *ls;
	unsigned int d;
	unsigned long flags;

	if (!debug_locks || lockdep_recursion[cpu])
		return;
	flags = arch_local_irq_save();
	ls = held_stack(push);
	if (!ls || (!push && !ls->depth))
		goto out;	/* nothing held (a check alone), or not tracked */
	if (map->class_idx && !ls->depth && push) {
		/* Nothing held: nothing to check, no table to change (the common case). */
		ls->held[0] = (struct held_lock){ .instance = instance, .acquire_ip = ip,
						  .class_idx = map->class_idx };
		ls->depth = 1;
		goto out;
	}
	if (map->class_idx && check && known_order(ls, map->class_idx)) {
		if (!push)
			goto out;	/* a check alone (folio_lock before its trylock) */
		/* Every pair already recorded (so none can close a cycle: a recorded a -> b means
		 * b -> a was never recorded, see check_prev_add) and nothing to prune: push
		 * without the graph lock.  The second most common case: one lock nested in one
		 * other, seen before (a pte lock inside mmap_lock). */
		ls->held[ls->depth] = (struct held_lock){ .instance = instance, .acquire_ip = ip,
							  .class_idx = map->class_idx };
		ls->depth++;
		goto out;
	}
	lockdep_recursion[cpu] = true;
	arch_spin_lock(&graph_lock);
	if (!map->class_idx)
		map->class_idx = register_lock_class(map);
	if (!map->class_idx)
		goto unlock;
	d = ls->depth;
	if (nr_prunable)
		d = ls->depth = prune_stale(ls->held, d);
	if (check) {
		for (unsigned int i = 0; i < d; i++) {
			const struct lock_list *b = NULL;

			if (ls->held[i].class_idx == map->class_idx)
				continue;	/* same class nested: allowed here */
			if (!check_prev_add(&ls->held[i], map->class_idx, ip, &b) && !bad) {
				bad = &ls->held[i];
				back = b;
			}
		}
	}
	if (push && lock_classes[map->class_idx].still_held) {
		for (unsigned int i = 0; i < d; i++)
			if (ls->held[i].class_idx == map->class_idx)
				push = false;	/* one entry per such class (lockdep_types.h) */
	}
	if (!push)
		goto unlock;
	if (d == MAX_LOCK_DEPTH) {
		lockdep_off_because("MAX_LOCK_DEPTH");
		goto unlock;
	}
	ls->held[d] = (struct held_lock){ .instance = instance, .acquire_ip = ip,
					  .class_idx = map->class_idx };
	ls->depth = d + 1;
unlock:
	arch_spin_unlock(&graph_lock);
	if (bad && back)
		print_circular_bug(bad, map->class_idx, instance, ip, back);
	lockdep_recursion[cpu] = false;
out:
	arch_local_irq_restore(flags);
}

/*
 * The two common cases inline, without the graph and without another call: nothing held
 * yet, or a lock whose order after every held lock is already recorded (known_order()).  The
 * rest (a class's first use, a trylock under another lock, a thread without its stack, a
 * prunable class held) takes __lock_acquire().  Half the instructions of a lock pair were
 * the call and the saved registers of the general path.
 */
/* order_known(@held, @map's class), remembered in the map (lockdep_types.h, prev_ok). */
static inline bool known_after(struct lockdep_map *map, unsigned int held)
{
	if (likely(map->prev_ok == held))
		return true;
	if (!order_known(held, map->class_idx))
		return false;
	map->prev_ok = (unsigned short)held;
	return true;
}

/* This thread's stack as held_stack(false) finds it, or NULL (the general path decides). */
static inline struct lock_stack *fast_stack(struct task_struct *curr, unsigned int cpu)
{
	struct lock_stack *ls;

	if (!curr)	/* before the first thread; the host's test threads */
		return cpu < BOOT_CPUS ? &boot_stacks[cpu] : NULL;
	if (!curr->lockdep_slot)
		return NULL;
	ls = &stacks[curr->lockdep_slot - 1];
	return ls->task == curr ? ls : NULL;
}

__fastpath void lock_acquire(struct lockdep_map *map, const void *instance, int trylock,
				unsigned long ip)
{
	unsigned int raw = (unsigned int)raw_smp_processor_id(), cpu = raw % BOOT_CPUS;
	unsigned int class = map->class_idx, d;
	struct lock_stack *ls;
	unsigned long flags;

	if (unlikely(!debug_locks))
		return;
	if (unlikely(!class))
		goto slow;
	flags = arch_local_irq_save();
	ls = fast_stack(current, raw);
	if (likely(ls && !lockdep_recursion[cpu])) {
		d = ls->depth;
		/* Depth 0 or 1 here (a pte lock inside mmap_lock); deeper nests take the loop in
		 * __lock_acquire(), whose registers would otherwise be saved on every call. */
		if (likely(!d) || (d == 1 && !trylock && known_after(map, ls->held[0].class_idx))) {
			ls->held[d] = (struct held_lock){ .instance = instance, .acquire_ip = ip,
							  .class_idx = (unsigned short)class };
			ls->depth = d + 1;
			arch_local_irq_restore(flags);
			return;
		}
	}
	arch_local_irq_restore(flags);
slow:
	__lock_acquire(map, instance, !trylock, true, ip);
}

void lock_check_order(struct lockdep_map *map, const void *instance, unsigned long ip)
{
	__lock_acquire(map, instance, true, false, ip);
}

/* The general release: the lock may be anywhere on the stack, or on none. */
static __attribute__((noinline)) void __lock_release(const void *instance)
{
	unsigned int cpu = (unsigned int)raw_smp_processor_id() % BOOT_CPUS;
	struct lock_stack *ls;
	unsigned long flags;

	if (!debug_locks || lockdep_recursion[cpu])
		return;
	flags = arch_local_irq_save();
	ls = held_stack(false);
	if (ls) {
		/* Locks are mostly released in reverse order: search from the top. */
		for (unsigned int i = ls->depth; i-- > 0;) {
			if (ls->held[i].instance != instance)
				continue;
			for (; i + 1 < ls->depth; i++)
				ls->held[i] = ls->held[i + 1];
			ls->depth--;
			break;
		}
	}
	arch_local_irq_restore(flags);
}

/* The common case inline: the lock is the thread's last one taken. */
__fastpath void lock_release(const void *instance)
{
	unsigned int raw = (unsigned int)raw_smp_processor_id(), cpu = raw % BOOT_CPUS;
	struct lock_stack *ls;
	unsigned long flags;
	unsigned int d;

	if (unlikely(!debug_locks))
		return;
	flags = arch_local_irq_save();
	ls = fast_stack(current, raw);
	if (likely(ls && (d = ls->depth) && ls->held[d - 1].instance == instance &&
		   !lockdep_recursion[cpu])) {
		ls->depth = d - 1;
		arch_local_irq_restore(flags);
		return;
	}
	arch_local_irq_restore(flags);
	__lock_release(instance);
}

bool lock_is_held(const void *instance)
{
	unsigned long flags = arch_local_irq_save();
	struct lock_stack *ls = held_stack(false);
	bool held = false;

	for (unsigned int i = 0; ls && i < ls->depth; i++)
		if (ls->held[i].instance == instance)
			held = true;
	arch_local_irq_restore(flags);
	return held;
}

unsigned long lockdep_nr_reports(void)
{
	return nr_reports;
}

unsigned int lockdep_nr_classes(void)
{
	return nr_lock_classes;
}

unsigned int lockdep_nr_dependencies(void)
{
	return nr_deps;
}

/* The first lines of Linux's /proc/lockdep_stats (kernel/locking/lockdep_proc.c's format);
 * its "dynamic-keys:" line is left out: tinymm has no lockdep_register_key(). */
static int cmd_lockdep(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	kprintf(" lock-classes:                  %11u [max: %u]\n", nr_lock_classes,
		MAX_LOCKDEP_KEYS);
	kprintf(" direct dependencies:           %11u [max: %u]\n", nr_deps, MAX_LOCKDEP_ENTRIES);
	if (!debug_locks)
		kprintf(" debug_locks:                   %11u\n", 0);
	return 0;
}
SHELL_COMMAND(lockdep, "", "lock classes and direct dependencies, as /proc/lockdep_stats",
	      cmd_lockdep);
