/*
 * xarray.h - Linux's XArray interface (lib/xarray.c): an array of pointers indexed by unsigned
 * long, sparse, with three marks per entry and value entries.  The page cache indexes folios
 * by file offset in one (struct address_space's i_pages).
 *
 *   xa_init(xa)                        empty array
 *   xa_load(xa, index)                 the entry, or NULL
 *   xa_store(xa, index, entry, gfp)    replace; the old entry, or xa_err() < 0 (-ENOMEM,
 *                                      -EINVAL for a reserved pointer); storing NULL erases
 *   xa_erase(xa, index)                remove; the old entry
 *   xa_set_mark / xa_clear_mark / xa_get_mark(xa, index, mark)   XA_MARK_0..2 on present entries
 *   xa_find(xa, &index, max, filter)   first present entry at index..max (filter: XA_PRESENT or
 *                                      a mark); index updated; NULL if none
 *   xa_find_after(xa, &index, max, filter)   the same, strictly after index
 *   xa_for_each_range / xa_for_each_marked / xa_for_each   loops built on those
 *   xa_mk_value(v) / xa_is_value(e) / xa_to_value(e)   integers stored in place of pointers
 *                                      (bit 0 set; v < LONG_MAX), as shadow entries are
 *   xa_empty(xa), xa_destroy(xa)       free every node (entries are the caller's)
 *   xa_marked(xa, mark)                some entry carries @mark (O(1): the root's mark bits)
 *   xa_lock(xa) / xa_unlock(xa), xa_lock_irq, xa_lock_irqsave(xa, flags)   the array's lock
 *   xa_set_update(xa, fn)              fn(node) after a leaf's count or nr_values changed, and
 *                                      with count 0 just before a leaf is freed (shadow nodes)
 *   xa_delete_node(node)               erase every entry of an all-values leaf, free it
 * Replacing a present entry (xa_store of non-NULL) keeps its marks; erasing it clears them.
 * Entries must be 4-byte aligned pointers or value entries.
 * Nodes come from the "radix_tree_node" slab cache (Linux's name for the XArray node cache).
 *   xa_read_begin(xa) / xa_load_lockless(xa, index) / xa_read_retry(xa, seq)   a lookup
 *                                      without the lock (below)
 * Locking: xa_lock (a spinlock) is the caller's to take around changes that must be atomic
 *   with other state (the page cache does); each function here is safe by itself only if the
 *   caller serialises writers.  Readers hold the lock too, except the lockless lookup.
 */
#ifndef TINYMM_XARRAY_H
#define TINYMM_XARRAY_H

#include "bitops.h"
#include "gfp.h"
#include "kernel.h"
#include "list.h"
#include "spinlock.h"

typedef unsigned int xa_mark_t;
#define XA_MARK_0		0U
#define XA_MARK_1		1U
#define XA_MARK_2		2U
#define XA_PRESENT		8U
#define XA_MARK_MAX		XA_MARK_2

/* The root's marks (some entry has the mark) live in xa_flags above the gfp bits, as Linux's
 * XA_FLAGS_MARK(); xa_init() and XARRAY_INIT() callers must leave these bits clear. */
#define XA_FLAGS_MARK(mark)	((gfp_t)(1U << (24 + (mark))))
#define XA_FLAGS_MARKS		(XA_FLAGS_MARK(0) | XA_FLAGS_MARK(1) | XA_FLAGS_MARK(2))

/* 64 slots: a 1 GiB file (262144 pages) is 3 levels deep.  16 (shift 4, Linux's
 * CONFIG_BASE_SMALL) also works: -DXA_CHUNK_SHIFT=4. */
#ifndef XA_CHUNK_SHIFT
#define XA_CHUNK_SHIFT		6
#endif
#define XA_CHUNK_SIZE		(1U << XA_CHUNK_SHIFT)
#define XA_CHUNK_MASK		(XA_CHUNK_SIZE - 1)
#define XA_MAX_MARKS		3
#define XA_MARK_LONGS		BITS_TO_LONGS(XA_CHUNK_SIZE)
_Static_assert(XA_CHUNK_SHIFT >= 2 && XA_CHUNK_SHIFT <= 7, "count and offset are bytes");

struct xarray;

/*
 * A node of the tree, public as in Linux so that mm/workingset.c can keep "shadow nodes" (leaves
 * holding only value entries) on a list of its own and reclaim them: 576 bytes on 64-bit, 300 on
 * 32-bit.  Only lib/xarray.c changes a node, with the array's lock held; users read count,
 * nr_values and array and own private_list (from the update callback, under the lock).
 */
struct xa_node {
	unsigned char shift;		/* slot of index i: (i >> shift) & XA_CHUNK_MASK; 0: a leaf */
	unsigned char offset;		/* this node's slot in its parent */
	unsigned char count;		/* non-NULL slots */
	unsigned char nr_values;	/* slots holding value entries (xa_is_value); 0 if inner */
	struct xa_node *parent;		/* NULL: the top node */
	struct xarray *array;		/* the array the node belongs to */
	struct list_head private_list;	/* empty from allocation; the update callback's to use */
	void *slots[XA_CHUNK_SIZE];	/* entries (leaf) or tagged child nodes */
	unsigned long marks[XA_MAX_MARKS][XA_MARK_LONGS];
};

typedef void (*xa_update_node_t)(struct xa_node *node);

/*
 * xa_update: called with the leaf (shift 0, never an inner node) after any xa_store / xa_erase /
 * xa_delete_node changed its count or nr_values, and with count == nr_values == 0 just before a
 * leaf is freed (an emptied leaf gets that one call only); never for an entry alone in xa_head.
 * The caller of the changing function holds xa_lock, so the callback runs under it and must not
 * change the array.  Before a node is freed its private_list must be empty again (else a WARN,
 * and the XArray unlinks it, so no list keeps pointing to freed memory).
 * Linux passes the callback per operation (xas_set_update(&xas, fn)); tinymm has no xa_state,
 * so it is per array: xa_set_update(), NULL (none) from xa_init() / XARRAY_INIT().
 */
struct xarray {
	spinlock_t xa_lock;
	gfp_t xa_flags;
	void *xa_head;
	xa_update_node_t xa_update;
	unsigned int xa_seq;		/* odd while a writer changes slots or shape (below) */
};

#define XARRAY_INIT(name, flags)	{ .xa_lock = __SPIN_LOCK_UNLOCKED(name.xa_lock),	\
					  .xa_flags = flags, .xa_head = NULL, .xa_update = NULL,	\
					  .xa_seq = 0 }
#define DEFINE_XARRAY(name)		struct xarray name = XARRAY_INIT(name, 0)

void xa_init(struct xarray *xa);
void *xa_load(struct xarray *xa, unsigned long index);
void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
void *xa_erase(struct xarray *xa, unsigned long index);
void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
void *xa_find(struct xarray *xa, unsigned long *index, unsigned long max, xa_mark_t filter);
void *xa_find_after(struct xarray *xa, unsigned long *index, unsigned long max, xa_mark_t filter);
void xa_destroy(struct xarray *xa);
/* Erase every entry of @node, a leaf holding only value entries (count == nr_values; else a WARN
 * and nothing), through the update callback, and free it and the ancestors it leaves empty, as
 * xa_erase would.  The caller holds xa_lock(node->array).  (Linux's xa_delete_node(node, update)
 * for mm/workingset.c's shadow_lru_isolate(); the callback is the array's here.) */
void xa_delete_node(struct xa_node *node);
/* Nodes in use by all arrays (for tests and meminfo-style accounting). */
unsigned long xa_nr_nodes(void);
/* The "radix_tree_node" cache, (re)made: optional at boot after kmem_cache_init() (the first
 * node allocation makes it otherwise); host tests that restart the slab allocator call it after
 * each kmem_cache_init() (it also zeroes xa_nr_nodes()). */
void radix_tree_init(void);
/* Verify every invariant of @xa's tree (docs/xarray.md); prints each problem through @pr (NULL:
 * quiet); returns their number. */
int xa_check(const struct xarray *xa, int (*pr)(const char *fmt, ...));
/* Fault injection for tests: when > 0, counts node allocations down and fails the one that
 * brings it to 0 (then stays 0: no more failures). */
extern unsigned int xa_alloc_fail_nth;
/* Nodes xa_find() and xa_find_after() have stepped through (tests hold its complexity to it). */
extern unsigned long xa_find_steps;

#define xa_lock(xa)			spin_lock(&(xa)->xa_lock)
#define xa_unlock(xa)			spin_unlock(&(xa)->xa_lock)
#define xa_lock_irq(xa)			spin_lock_irq(&(xa)->xa_lock)
#define xa_unlock_irq(xa)		spin_unlock_irq(&(xa)->xa_lock)
#define xa_lock_irqsave(xa, flags)	spin_lock_irqsave(&(xa)->xa_lock, flags)
#define xa_unlock_irqrestore(xa, flags)	spin_unlock_irqrestore(&(xa)->xa_lock, flags)

static inline void xa_set_update(struct xarray *xa, xa_update_node_t fn)
{
	xa->xa_update = fn;
}

static inline bool xa_marked(const struct xarray *xa, xa_mark_t mark)
{
	return xa->xa_flags & XA_FLAGS_MARK(mark);
}

static inline bool xa_empty(const struct xarray *xa)
{
	return xa->xa_head == NULL;
}

static inline void *xa_mk_value(unsigned long v)
{
	return (void *)((v << 1) | 1);
}
static inline bool xa_is_value(const void *entry)
{
	return (unsigned long)entry & 1;
}
static inline unsigned long xa_to_value(const void *entry)
{
	return (unsigned long)entry >> 1;
}

/* Errors travel as small negative numbers in a pointer (never a valid entry). */
static inline bool xa_is_err(const void *entry)
{
	return (unsigned long)entry >= (unsigned long)-4095 && ((unsigned long)entry & 3) == 2;
}
static inline int xa_err(void *entry)
{
	return xa_is_err(entry) ? (int)((long)entry >> 2) : 0;
}
static inline void *xa_mk_err(int err)
{
	return (void *)(((unsigned long)(long)err << 2) | 2);	/* (a negative << is undefined) */
}

/* A node in a slot or xa_head is tagged as an internal entry (bits 1:0 == 10); so are errors,
 * which are never stored. */
static inline bool xa_is_internal(const void *entry)
{
	return ((unsigned long)entry & 3) == 2;
}
static inline bool xa_is_node(const void *entry)
{
	return xa_is_internal(entry) && !xa_is_err(entry);
}
static inline struct xa_node *xa_to_node(const void *entry)
{
	return (struct xa_node *)((unsigned long)entry - 2);
}

/*
 * Lockless lookups: tinymm's stand-in for v6.10's walk under rcu_read_lock() (tinymm has no
 * RCU; docs/xarray.md, "Lockless lookups").
 *
 *	do {
 *		seq = xa_read_begin(xa);
 *		entry = xa_load_lockless(xa, index);
 *	} while (xa_read_retry(xa, seq));
 *
 * The entry is what @index held at one moment during the loop.  What makes the racing walk
 * safe: every change of a slot or of the tree's shape (xa_store, xa_erase, xa_delete_node,
 * xa_destroy) happens between two increments of xa_seq, so a walk that overlapped one sees
 * another count and is thrown away; nodes come from a type-stable cache (SLAB_TYPESAFE_BY_RCU:
 * their memory holds nodes for ever, the free pointer outside them), so a node freed under the
 * walk still reads as one; and a new node is linked with release order after its contents, so
 * a walk that meets it never reads what the memory held before.  A walk that read stale node
 * fields is bounded (each step to a smaller shift) and masked (the shift) until its answer is
 * thrown away.
 * Marks are not covered: they are read under the lock.  A writer's cost: two stores and two
 * smp_wmb() per change, and a release per node linked.
 */
static inline unsigned int xa_read_begin(const struct xarray *xa)
{
	/* An odd count (a writer inside) cannot match the second read: no wait here. */
	unsigned int seq = READ_ONCE(xa->xa_seq) & ~1U;

	smp_rmb();
	return seq;
}

static inline bool xa_read_retry(const struct xarray *xa, unsigned int seq)
{
	smp_rmb();
	return READ_ONCE(xa->xa_seq) != seq;
}

/* xa_read_retry() right after a fully ordered atomic that took effect (folio_try_get() that
 * succeeded): its barrier already orders the count's load after the reads before it. */
static inline bool xa_read_retry_after_atomic(const struct xarray *xa, unsigned int seq)
{
	return READ_ONCE(xa->xa_seq) != seq;
}

/*
 * The walk of xa_load(), every load once; inline: the page cache's hit path.  Over stale nodes
 * it stays bounded: each step must go to a smaller shift (a real child's is 6 less), and the
 * shift is masked to the word.  A node pointer is recognised by its tag alone (xa_is_internal):
 * errors are never stored, so the range test of xa_is_node() is not needed here.
 */
static inline __attribute__((always_inline)) void *xa_load_lockless(const struct xarray *xa,
								     unsigned long index)
{
	void *entry = READ_ONCE(xa->xa_head);

	if (!xa_is_internal(entry))
		return index ? NULL : entry;
	const struct xa_node *node = xa_to_node(entry);
	unsigned int shift = READ_ONCE(node->shift);
	/* Beyond the top node?  (A top whose shift + 6 reaches the word covers every index, and
	 * then index >> shift has at most 6 bits left.) */
	if ((index >> (shift & (BITS_PER_LONG - 1))) >> XA_CHUNK_SHIFT)
		return NULL;
	for (;;) {
		entry = READ_ONCE(node->slots[(index >> (shift & (BITS_PER_LONG - 1))) &
					      XA_CHUNK_MASK]);
		if (!shift)
			return entry;
		if (!xa_is_internal(entry))
			return NULL;
		node = xa_to_node(entry);
		unsigned int next = READ_ONCE(node->shift);
		if (next >= shift)
			return NULL;		/* not a child: a stale walk, thrown away */
		shift = next;
	}
}

#define xa_for_each_range(xa, index, entry, start, last)				\
	for (index = start, entry = xa_find(xa, &index, last, XA_PRESENT); entry;	\
	     entry = xa_find_after(xa, &index, last, XA_PRESENT))
#define xa_for_each_start(xa, index, entry, start)					\
	xa_for_each_range(xa, index, entry, start, ~0UL)
#define xa_for_each(xa, index, entry)	xa_for_each_start(xa, index, entry, 0)
#define xa_for_each_marked(xa, index, entry, filter)					\
	for (index = 0, entry = xa_find(xa, &index, ~0UL, filter); entry;		\
	     entry = xa_find_after(xa, &index, ~0UL, filter))

#endif
