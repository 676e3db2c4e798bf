/*
 * xarray.c - Linux's XArray (lib/xarray.c), the subset of include/tinymm/xarray.h: a radix tree
 * of 64-slot nodes mapping unsigned long indices to entries (4-byte aligned pointers or value
 * entries), with three marks per entry.  The page cache keeps folios in one by page index and
 * tags them dirty / writeback / towrite with XA_MARK_0..2.  docs/xarray.md has the picture.
 *
 * Shape.  xa_head is NULL (empty), an entry (the only one, at index 0: no node), or a node
 * pointer tagged as an internal entry (bits 1:0 == 10, which no entry may have).  A node at
 * shift s holds index i in slot (i >> s) & 63; shift-0 nodes (leaves) hold entries, the others
 * child nodes.  The top node covers [0, 64 << shift) (all of it once shift + 6 >= BITS_PER_LONG).
 * Invariants (xa_check() verifies every one):
 *   - every node has count == its non-NULL slots and count > 0 (empty nodes are freed at once),
 *     nr_values == its value entries (0 in inner nodes), array == the array it hangs in;
 *   - the top node is never "count 1, slot 0": such a top is replaced by its slot 0 (shrinking),
 *     so the tree for a given set of indices is unique and as shallow as its largest index needs;
 *   - node->parent / node->offset / node->shift agree with where the node hangs;
 *   - mark bit m of slot k is set in a leaf iff the entry there carries m, in an inner node iff
 *     the child subtree holds an entry carrying m; the root's bit (XA_FLAGS_MARK(m) in xa_flags)
 *     iff any entry carries m.  Marks exist on present entries only: erasing clears them.
 * A store that needs nodes allocates them on the way down; if one allocation fails, the nodes
 * added so far are empty or a single-slot chain above the old top, and the same delete-empty +
 * shrink that erase uses takes them away: the array is as it was (the shape is unique).
 *
 * Shadow nodes (mm/workingset.c): the array's xa_update callback hears of every leaf whose count
 * or nr_values changed, and of every leaf about to be freed (count 0) - see xarray.h.
 *
 * Locking: none here.  The caller serialises every call that changes the array (xa_store,
 * xa_erase, xa_set_mark, xa_clear_mark, xa_destroy, xa_delete_node) with xa_lock (irqsave where
 * an interrupt handler may touch the array, as the page cache does); readers (xa_load, xa_find,
 * xa_get_mark) need only exclude writers.  One reader needs no lock at all: xa_load_lockless()
 * (xarray.h), for which the calls that change slots or the shape count xa_seq up around the
 * change (write_begin/write_end), link new nodes with release order (publish) and take their
 * nodes from a type-stable cache.  Where tinymm differs from v6.10, and why: v6.10's readers
 * walk under RCU and its writers leave retry entries behind; tinymm has no RCU, so a sequence
 * count tells a racing walk to start again, and freed nodes stay node memory for ever instead
 * of for a grace period.
 */
#include <string.h>
#include "tinymm/bitops.h"
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/slab.h"
#include "tinymm/xarray.h"

/* struct xa_node and XA_CHUNK_SHIFT (64 slots) are in the header, for mm/workingset.c. */
#define XA_NR_MARKS		XA_MAX_MARKS
_Static_assert(XA_MAX_MARKS == XA_MARK_MAX + 1, "a bitmap per mark");

static struct kmem_cache *xa_node_cache;
static unsigned long nr_nodes;
unsigned int xa_alloc_fail_nth;
unsigned long xa_find_steps;

static inline void *xa_mk_node(const struct xa_node *node)
{
	return (void *)((unsigned long)node | 2);
}

void radix_tree_init(void)
{
	/* Type-stable: a lockless walk may still read a node freed under it (xarray.h). */
	xa_node_cache = kmem_cache_create("radix_tree_node", sizeof(struct xa_node),
					  __alignof__(struct xa_node),
					  SLAB_RECLAIM_ACCOUNT | SLAB_TYPESAFE_BY_RCU, NULL);
	nr_nodes = 0;
}

unsigned long xa_nr_nodes(void)
{
	return nr_nodes;
}

static struct xa_node *node_alloc(struct xarray *xa, gfp_t gfp)
{
	if (xa_alloc_fail_nth && !--xa_alloc_fail_nth)
		return NULL;
	if (!xa_node_cache)
		radix_tree_init();
	struct xa_node *node = xa_node_cache ? kmem_cache_alloc(xa_node_cache, gfp) : NULL;
	if (node) {
		memset(node, 0, sizeof(*node));
		node->array = xa;
		INIT_LIST_HEAD(&node->private_list);
		nr_nodes++;
	}
	return node;
}

/* The writers' side of xa_read_begin() / xa_read_retry(): the count is odd while slots or the
 * shape change, and every store before write_begin (the entry's own fields: a folio's index)
 * is visible before the first slot store. */
static inline void write_begin(struct xarray *xa)
{
	WRITE_ONCE(xa->xa_seq, xa->xa_seq + 1);
	smp_wmb();
}

static inline void write_end(struct xarray *xa)
{
	smp_wmb();
	WRITE_ONCE(xa->xa_seq, xa->xa_seq + 1);
}

/* Link a node where a lockless walk may meet it: after its contents (v6.10's
 * rcu_assign_pointer()), so the walk never reads what its memory held before. */
static inline void publish(void **where, struct xa_node *node)
{
	smp_store_release(where, xa_mk_node(node));
}

/* @leaf's count or nr_values changed (Linux's xas_update(); leaves only, see xarray.h). */
static void update(struct xa_node *leaf)
{
	if (leaf->array->xa_update)
		leaf->array->xa_update(leaf);
}

/*
 * The only place a node is freed, so the user's last word on a leaf is always a call with
 * count 0 here (as Linux's xas_shrink and update_node + xas_delete_node give): a list it keeps
 * via private_list can never point to freed memory.  A callback that left the node listed is a
 * bug, warned about; the node is unlinked all the same.
 */
static void node_free(struct xa_node *node)
{
	if (!node->shift) {
		node->count = 0;
		node->nr_values = 0;
		update(node);
	}
	if (WARN_ON(!list_empty(&node->private_list)))
		list_del_init(&node->private_list);
	nr_nodes--;
	kmem_cache_free(xa_node_cache, node);
}

/* Does a node at @shift, as the top, cover @index? */
static bool covers(unsigned int shift, unsigned long index)
{
	return shift + XA_CHUNK_SHIFT >= BITS_PER_LONG || !(index >> (shift + XA_CHUNK_SHIFT));
}

/* The shift of the smallest top node covering @index. */
static unsigned int shift_for(unsigned long index)
{
	unsigned int shift = 0;

	while (!covers(shift, index))
		shift += XA_CHUNK_SHIFT;
	return shift;
}

static unsigned int slot_of(const struct xa_node *node, unsigned long index)
{
	return (index >> node->shift) & XA_CHUNK_MASK;
}

/* The first index of slot @slot of the node at @shift whose range holds @index. */
static unsigned long slot_base(unsigned long index, unsigned int shift, unsigned int slot)
{
	unsigned long high = shift + XA_CHUNK_SHIFT >= BITS_PER_LONG ? 0 :
		index & ~((1UL << (shift + XA_CHUNK_SHIFT)) - 1);

	return high | (unsigned long)slot << shift;
}

static bool node_marked(const struct xa_node *node, xa_mark_t mark)
{
	for (unsigned int i = 0; i < XA_MARK_LONGS; i++)
		if (node->marks[mark][i])
			return true;
	return false;
}

/* The first set bit at @from or after in a node's mark bitmap, or XA_CHUNK_SIZE. */
static unsigned int next_bit(const unsigned long *map, unsigned int from)
{
	for (unsigned int i = from / BITS_PER_LONG; from < XA_CHUNK_SIZE && i < XA_MARK_LONGS; i++) {
		unsigned long word = map[i];
		if (i == from / BITS_PER_LONG)
			word &= ~0UL << (from % BITS_PER_LONG);
		if (word)
			return i * BITS_PER_LONG + (unsigned int)__builtin_ctzl(word);
	}
	return XA_CHUNK_SIZE;
}

/* The first slot at @from or after holding something that passes @filter, or XA_CHUNK_SIZE. */
static unsigned int next_slot(const struct xa_node *node, unsigned int from, xa_mark_t filter)
{
	if (filter != XA_PRESENT)
		return next_bit(node->marks[filter], from);
	for (; from < XA_CHUNK_SIZE; from++)
		if (node->slots[from])
			return from;
	return XA_CHUNK_SIZE;
}

static void root_mark(struct xarray *xa, xa_mark_t mark, bool on)
{
	if (on)
		xa->xa_flags |= XA_FLAGS_MARK(mark);
	else
		xa->xa_flags &= ~XA_FLAGS_MARK(mark);
}

/* @node's bitmap for @mark changed: bring its ancestors' bits and the root's into line. */
static void marks_up(struct xarray *xa, struct xa_node *node, xa_mark_t mark)
{
	for (;;) {
		bool any = node_marked(node, mark);
		struct xa_node *parent = node->parent;

		if (!parent) {
			root_mark(xa, mark, any);
			return;
		}
		if (test_bit(node->offset, parent->marks[mark]) == any)
			return;			/* the parent's state does not change: nor above */
		if (any)
			__set_bit(node->offset, parent->marks[mark]);
		else
			__clear_bit(node->offset, parent->marks[mark]);
		node = parent;
	}
}

/* The leaf whose slots hold @index, or NULL (no node array, outside the top, no path). */
/* Inline: xa_load(), on every page-cache lookup, is its main caller. */
static inline __attribute__((always_inline)) struct xa_node *leaf_of(const struct xarray *xa,
								    unsigned long index)
{
	if (!xa_is_node(xa->xa_head))
		return NULL;
	struct xa_node *node = xa_to_node(xa->xa_head);
	if (!covers(node->shift, index))
		return NULL;
	while (node->shift) {
		void *child = node->slots[slot_of(node, index)];
		if (!child)
			return NULL;
		node = xa_to_node(child);
	}
	return node;
}

/* While the top node holds only slot 0, its slot 0 becomes the head (entry or node). */
static void shrink(struct xarray *xa)
{
	while (xa_is_node(xa->xa_head)) {
		struct xa_node *node = xa_to_node(xa->xa_head);
		void *first = node->slots[0];

		if (node->count != 1 || !first)
			return;
		if (node->shift)
			xa_to_node(first)->parent = NULL;
		/* (A leaf's entry goes to the head: the root's mark bits are already its marks.) */
		WRITE_ONCE(xa->xa_head, first);
		node_free(node);
	}
}

/* Free @node and its ancestors while they are empty, then shrink. */
static void delete_empty(struct xarray *xa, struct xa_node *node)
{
	while (node && !node->count) {
		struct xa_node *parent = node->parent;

		if (parent) {
			WRITE_ONCE(parent->slots[node->offset], NULL);
			parent->count--;
		} else {
			WRITE_ONCE(xa->xa_head, NULL);
			xa->xa_flags &= ~XA_FLAGS_MARKS;
		}
		node_free(node);
		node = parent;
	}
	shrink(xa);
}

/* Grow the tree until the top node covers @index (a head entry goes into a new leaf's slot 0). */
static int expand(struct xarray *xa, unsigned long index, gfp_t gfp)
{
	while (!xa_is_node(xa->xa_head) || !covers(xa_to_node(xa->xa_head)->shift, index)) {
		void *head = xa->xa_head;
		struct xa_node *node = node_alloc(xa, gfp);

		if (!node) {
			shrink(xa);		/* the chain grown so far collapses back */
			return -ENOMEM;
		}
		if (!head) {
			node->shift = shift_for(index);		/* count 0: filled on the way down */
		} else if (!xa_is_node(head)) {
			for (xa_mark_t m = 0; m < XA_NR_MARKS; m++)
				if (xa_marked(xa, m))
					__set_bit(0, node->marks[m]);
		} else {
			struct xa_node *top = xa_to_node(head);
			node->shift = top->shift + XA_CHUNK_SHIFT;
			top->parent = node;
			top->offset = 0;
			for (xa_mark_t m = 0; m < XA_NR_MARKS; m++)
				if (node_marked(top, m))
					__set_bit(0, node->marks[m]);
		}
		if (head) {
			node->slots[0] = head;
			node->count = 1;
			node->nr_values = xa_is_value(head);
		}
		publish(&xa->xa_head, node);
		if (head && !node->shift)
			update(node);		/* the head entry now lives in a leaf */
	}
	return 0;
}

void xa_init(struct xarray *xa)
{
	spin_lock_init(&xa->xa_lock);
	xa->xa_flags = 0;
	xa->xa_head = NULL;
	xa->xa_update = NULL;
	xa->xa_seq = 0;
}

void *xa_load(struct xarray *xa, unsigned long index)
{
	if (!xa_is_node(xa->xa_head))
		return index ? NULL : xa->xa_head;
	struct xa_node *leaf = leaf_of(xa, index);
	return leaf ? leaf->slots[index & XA_CHUNK_MASK] : NULL;
}

static void *store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	void *head = xa->xa_head;
	if (!index && !xa_is_node(head)) {
		WRITE_ONCE(xa->xa_head, entry);		/* NULL or the head entry: marks stay */
		return head;
	}
	if (expand(xa, index, gfp))
		return xa_mk_err(-ENOMEM);
	struct xa_node *node = xa_to_node(xa->xa_head);
	while (node->shift) {
		unsigned int slot = slot_of(node, index);
		if (!node->slots[slot]) {
			struct xa_node *child = node_alloc(xa, gfp);
			if (!child) {
				delete_empty(xa, node);		/* back to the array as it was */
				return xa_mk_err(-ENOMEM);
			}
			child->shift = node->shift - XA_CHUNK_SHIFT;
			child->offset = slot;
			child->parent = node;
			publish(&node->slots[slot], child);
			node->count++;
		}
		node = xa_to_node(node->slots[slot]);
	}
	unsigned int slot = index & XA_CHUNK_MASK;
	void *old = node->slots[slot];
	int values = xa_is_value(entry) - (old && xa_is_value(old));
	WRITE_ONCE(node->slots[slot], entry);
	node->nr_values += values;
	if (!old)
		node->count++;
	if (!old || values)
		update(node);
	return old;
}

void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	if (!entry)
		return xa_erase(xa, index);
	if (xa_is_internal(entry))
		return xa_mk_err(-EINVAL);	/* internal entries (and errors) are reserved */
	write_begin(xa);
	void *old = store(xa, index, entry, gfp);
	write_end(xa);
	return old;
}

static void *erase(struct xarray *xa, unsigned long index)
{
	void *head = xa->xa_head;

	if (!xa_is_node(head)) {
		if (index || !head)
			return NULL;
		WRITE_ONCE(xa->xa_head, NULL);
		xa->xa_flags &= ~XA_FLAGS_MARKS;
		return head;
	}
	struct xa_node *leaf = leaf_of(xa, index);
	unsigned int slot = index & XA_CHUNK_MASK;
	void *old = leaf ? leaf->slots[slot] : NULL;
	if (!old)
		return NULL;
	WRITE_ONCE(leaf->slots[slot], NULL);
	leaf->count--;
	leaf->nr_values -= xa_is_value(old);
	for (xa_mark_t m = 0; m < XA_NR_MARKS; m++)
		if (__test_and_clear_bit(slot, leaf->marks[m]))
			marks_up(xa, leaf, m);
	if (leaf->count)
		update(leaf);
	delete_empty(xa, leaf);		/* count 0: node_free() makes the call */
	return old;
}

void *xa_erase(struct xarray *xa, unsigned long index)
{
	write_begin(xa);
	void *old = erase(xa, index);
	write_end(xa);
	return old;
}

/* Linux stores NULL over the node's range in its parent; here the node is emptied in place and
 * goes the way of a leaf whose last entry was erased, so the shape comes out as erase's. */
void xa_delete_node(struct xa_node *node)
{
	struct xarray *xa = node->array;

	if (WARN_ON(node->shift || !node->count || node->count != node->nr_values))
		return;
	for (xa_mark_t m = 0; m < XA_NR_MARKS; m++) {
		if (!node_marked(node, m))
			continue;
		memset(node->marks[m], 0, sizeof(node->marks[m]));
		marks_up(xa, node, m);
	}
	write_begin(xa);
	memset(node->slots, 0, sizeof(node->slots));
	node->count = 0;
	node->nr_values = 0;
	delete_empty(xa, node);
	write_end(xa);
}

/* The leaf holding a present entry at @index, or NULL; *@head: the entry is the head entry. */
static struct xa_node *present_leaf(struct xarray *xa, unsigned long index, bool *head)
{
	*head = !index && xa->xa_head && !xa_is_node(xa->xa_head);
	struct xa_node *leaf = leaf_of(xa, index);
	return leaf && leaf->slots[index & XA_CHUNK_MASK] ? leaf : NULL;
}

void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	bool head;

	if (WARN_ON(mark > XA_MARK_MAX))
		return;
	struct xa_node *leaf = present_leaf(xa, index, &head);
	if (head)
		root_mark(xa, mark, true);
	else if (leaf && !__test_and_set_bit(index & XA_CHUNK_MASK, leaf->marks[mark]))
		marks_up(xa, leaf, mark);
}

void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	bool head;

	if (WARN_ON(mark > XA_MARK_MAX))
		return;
	struct xa_node *leaf = present_leaf(xa, index, &head);
	if (head)
		root_mark(xa, mark, false);
	else if (leaf && __test_and_clear_bit(index & XA_CHUNK_MASK, leaf->marks[mark]))
		marks_up(xa, leaf, mark);
}

bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	bool head;

	if (WARN_ON(mark > XA_MARK_MAX))
		return false;
	struct xa_node *leaf = present_leaf(xa, index, &head);
	if (head)
		return xa_marked(xa, mark);
	return leaf && test_bit(index & XA_CHUNK_MASK, leaf->marks[mark]);
}

/*
 * Down from the top to the first slot at or after *indexp that passes @filter; when a node has
 * none left, up to its parent's next slot.  A mark filter reads the nodes' mark bitmaps, so a
 * subtree without the mark is skipped whole: O(depth) nodes visited per entry found (plus one
 * climb), whatever lies between.
 */
void *xa_find(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter)
{
	unsigned long index = *indexp;
	void *head = xa->xa_head;

	if (filter != XA_PRESENT && WARN_ON(filter > XA_MARK_MAX))
		return NULL;
	if (index > max || !head || (filter != XA_PRESENT && !xa_marked(xa, filter)))
		return NULL;
	if (!xa_is_node(head)) {
		if (index)
			return NULL;
		*indexp = 0;
		return head;
	}
	struct xa_node *node = xa_to_node(head);
	if (!covers(node->shift, index))
		return NULL;
	unsigned int from = slot_of(node, index);
	for (;;) {
		unsigned int slot = next_slot(node, from, filter);
		xa_find_steps++;
		if (slot == XA_CHUNK_SIZE) {
			if (!node->parent)
				return NULL;
			from = node->offset + 1;	/* XA_CHUNK_SIZE: up again */
			node = node->parent;
			continue;
		}
		/* On the way down the first slot is index's own; any other lies beyond index. */
		unsigned long base = slot_base(index, node->shift, slot);
		if (base > index)
			index = base;
		if (index > max)
			return NULL;
		if (!node->shift) {
			*indexp = index;
			return node->slots[slot];
		}
		node = xa_to_node(node->slots[slot]);
		from = slot_of(node, index);
	}
}

void *xa_find_after(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter)
{
	unsigned long index = *indexp + 1;

	if (!index)
		return NULL;			/* *indexp was ULONG_MAX: nothing after it */
	void *entry = xa_find(xa, &index, max, filter);
	if (entry)
		*indexp = index;
	return entry;
}

static void free_subtree(struct xa_node *node)
{
	for (unsigned int i = 0; node->shift && i < XA_CHUNK_SIZE; i++)
		if (node->slots[i])
			free_subtree(xa_to_node(node->slots[i]));
	node_free(node);
}

void xa_destroy(struct xarray *xa)
{
	write_begin(xa);
	if (xa_is_node(xa->xa_head))
		free_subtree(xa_to_node(xa->xa_head));
	xa->xa_head = NULL;
	xa->xa_flags &= ~XA_FLAGS_MARKS;
	write_end(xa);
}

/* ---- xa_check ---- */

struct check {
	const struct xarray *xa;
	int (*pr)(const char *fmt, ...);
	int bad;
};

static void complain(struct check *c, const struct xa_node *node, const char *what,
		     unsigned long arg)
{
	c->bad++;
	if (c->pr)
		c->pr("xa_check: node %p (shift %u): %s (%lu)\n", (const void *)node,
		      node ? node->shift : 0, what, arg);
}

/* One node below @parent at @offset (NULL: the top); its subtree holds [base, ...). */
static void check_node(struct check *c, const struct xa_node *node, const struct xa_node *parent,
		       unsigned int offset, unsigned int shift, unsigned long base)
{
	unsigned int count = 0, values = 0;

	if (node->array != c->xa)
		complain(c, node, "array wrong, shift", node->shift);
	if (!c->xa->xa_update && !list_empty(&node->private_list))
		complain(c, node, "on a private_list, with no update callback to unlink it", 0);
	if (node->parent != parent || (parent && node->offset != offset))
		complain(c, node, "parent or offset wrong, offset", node->offset);
	if (node->shift != shift)
		complain(c, node, "shift wrong, want", shift);
	for (unsigned int i = 0; i < XA_CHUNK_SIZE; i++) {
		void *e = node->slots[i];
		unsigned long index = base | (unsigned long)i << shift;
		count += e != NULL;
		values += e && xa_is_value(e);
		if (e && xa_is_internal(e) != (shift != 0))
			complain(c, node, shift ? "entry in an inner node, slot" :
				 "internal entry in a leaf, slot", i);
		if (e && shift && xa_is_node(e))
			check_node(c, xa_to_node(e), node, i, shift - XA_CHUNK_SHIFT, index);
		for (xa_mark_t m = 0; m < XA_NR_MARKS; m++) {
			bool want = e && (!shift ? true : xa_is_node(e) && node_marked(xa_to_node(e), m));
			if (test_bit(i, node->marks[m]) && !want)
				complain(c, node, "a mark on an empty or unmarked slot", i);
			else if (!test_bit(i, node->marks[m]) && want && shift)
				complain(c, node, "a mark missing over a marked child, slot", i);
		}
	}
	if (node->count != count || !count)
		complain(c, node, "count wrong or zero, slots used", count);
	if (node->nr_values != values)
		complain(c, node, "nr_values wrong, value entries", values);
}

int xa_check(const struct xarray *xa, int (*pr)(const char *fmt, ...))
{
	struct check c = { xa, pr, 0 };
	void *head = xa->xa_head;

	if (!xa_is_node(head)) {
		if (!head && (xa->xa_flags & XA_FLAGS_MARKS))
			complain(&c, NULL, "empty array with root marks", xa->xa_flags);
		return c.bad;
	}
	const struct xa_node *top = xa_to_node(head);
	if (top->shift % XA_CHUNK_SHIFT || top->shift > shift_for(~0UL))
		complain(&c, top, "bad top shift", top->shift);
	else
		check_node(&c, top, NULL, 0, top->shift, 0);
	if (top->count == 1 && top->slots[0])
		complain(&c, top, "top node holds only slot 0: not shrunk", 0);
	for (xa_mark_t m = 0; m < XA_NR_MARKS; m++)
		if (xa_marked(xa, m) != node_marked(top, m))
			complain(&c, top, "root mark disagrees with the top node, mark", m);
	return c.bad;
}
