/*
 * xarray_model.h - the obviously-right XArray the tests compare lib/xarray.c with: a sorted array
 * of (index, entry, marks), binary search, memmove.  Shared by tests/ktest/xarray_ktest.c (and
 * so tests/host/xarray_test.c) and tests/fuzz/xarray_fuzz.c.  Also: a xorshift generator and
 * the index mix every randomized test draws from; and the shadow-node list mm/workingset.c will
 * keep through the update callback, with a check that it holds exactly the all-values leaves.
 */
#ifndef TINYMM_XARRAY_MODEL_H
#define TINYMM_XARRAY_MODEL_H

#include <stdint.h>
#include <string.h>
#include "tinymm/xarray.h"

struct xm_ent {
	unsigned long index;
	void *entry;
	unsigned int marks;		/* bit m: XA_MARK_m */
};

struct xm {
	struct xm_ent *ents;
	unsigned int nr, cap;
};

/* The first position whose index is >= @index. */
static inline unsigned int xm_pos(const struct xm *m, unsigned long index)
{
	unsigned int lo = 0, hi = m->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		if (m->ents[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static inline struct xm_ent *xm_get(const struct xm *m, unsigned long index)
{
	unsigned int p = xm_pos(m, index);

	return p < m->nr && m->ents[p].index == index ? &m->ents[p] : NULL;
}

static inline void *xm_load(const struct xm *m, unsigned long index)
{
	struct xm_ent *e = xm_get(m, index);

	return e ? e->entry : NULL;
}

/* xa_store's meaning (NULL erases; replacing keeps the marks); the old entry.  A new index when
 * the model is full is refused: *full set, nothing stored (the caller skips the operation). */
static inline void *xm_store(struct xm *m, unsigned long index, void *entry, bool *full)
{
	unsigned int p = xm_pos(m, index);
	bool here = p < m->nr && m->ents[p].index == index;
	void *old = here ? m->ents[p].entry : NULL;

	*full = false;
	if (here && entry) {
		m->ents[p].entry = entry;
	} else if (here) {
		memmove(&m->ents[p], &m->ents[p + 1], (m->nr - p - 1) * sizeof(m->ents[0]));
		m->nr--;
	} else if (entry && m->nr == m->cap) {
		*full = true;
	} else if (entry) {
		memmove(&m->ents[p + 1], &m->ents[p], (m->nr - p) * sizeof(m->ents[0]));
		m->ents[p] = (struct xm_ent){ index, entry, 0 };
		m->nr++;
	}
	return old;
}

static inline void xm_mark(struct xm *m, unsigned long index, xa_mark_t mark, bool on)
{
	struct xm_ent *e = xm_get(m, index);

	if (e && on)
		e->marks |= 1U << mark;
	else if (e)
		e->marks &= ~(1U << mark);
}

static inline bool xm_get_mark(const struct xm *m, unsigned long index, xa_mark_t mark)
{
	struct xm_ent *e = xm_get(m, index);

	return e && (e->marks >> mark & 1);
}

static inline bool xm_passes(const struct xm_ent *e, xa_mark_t filter)
{
	return filter == XA_PRESENT || (e->marks >> filter & 1);
}

/* xa_find's meaning: the first entry in [*index, max] passing @filter; *index set if found. */
static inline void *xm_find(const struct xm *m, unsigned long *index, unsigned long max, xa_mark_t filter)
{
	if (*index > max)
		return NULL;
	for (unsigned int p = xm_pos(m, *index); p < m->nr && m->ents[p].index <= max; p++)
		if (xm_passes(&m->ents[p], filter)) {
			*index = m->ents[p].index;
			return m->ents[p].entry;
		}
	return NULL;
}

static inline void *xm_find_after(const struct xm *m, unsigned long *index, unsigned long max,
			   xa_mark_t filter)
{
	unsigned long i = *index + 1;
	void *e;

	if (!i)
		return NULL;
	e = xm_find(m, &i, max, filter);
	if (e)
		*index = i;
	return e;
}

/* The whole array against the model: every entry and mark, in order, via xa_for_each; then each
 * mark's iteration.  The number of differences (the first few printed through @pr). */
static inline int xm_compare(const struct xm *m, struct xarray *xa, int (*pr)(const char *fmt, ...))
{
	unsigned long index;
	unsigned int p = 0;
	int bad = 0;
	void *entry;

	xa_for_each(xa, index, entry) {
		const struct xm_ent *e = p < m->nr ? &m->ents[p] : NULL;
		unsigned int marks = 0;
		for (xa_mark_t k = 0; k <= XA_MARK_MAX; k++)
			marks |= (unsigned int)xa_get_mark(xa, index, k) << k;
		if (!e || e->index != index || e->entry != entry || e->marks != marks) {
			if (bad++ < 4 && pr)
				pr("xarray: at %#lx found %p marks %u; model: %#lx %p marks %u\n", index,
				   entry, marks, e ? e->index : 0, e ? e->entry : NULL, e ? e->marks : 0);
		}
		if (p++ >= m->nr + 4)
			break;
	}
	if (p != m->nr) {
		bad++;
		if (pr)
			pr("xarray: %u entries iterated, the model has %u\n", p, m->nr);
	}
	for (xa_mark_t k = 0; k <= XA_MARK_MAX; k++) {
		unsigned int want = 0, got = 0;
		for (p = 0; p < m->nr; p++)
			want += m->ents[p].marks >> k & 1;
		xa_for_each_marked(xa, index, entry, k) {
			if (!xm_get_mark(m, index, k) || xm_load(m, index) != entry) {
				if (bad++ < 8 && pr)
					pr("xarray: mark %u iteration found %#lx\n", k, index);
			}
			if (++got > want)
				break;
		}
		if (got != want || xa_marked(xa, k) != (want != 0)) {
			bad++;
			if (pr)
				pr("xarray: mark %u: %u iterated, xa_marked %d, model %u\n", k, got,
				   xa_marked(xa, k), want);
		}
	}
	return bad;
}

/* Erase the model's entries in [first, last]; their number; *@values: all of them value entries. */
static inline unsigned int xm_erase_range(struct xm *m, unsigned long first, unsigned long last,
					  bool *values)
{
	unsigned int p = xm_pos(m, first), q = p;

	*values = true;
	for (; q < m->nr && m->ents[q].index <= last; q++)
		*values &= xa_is_value(m->ents[q].entry);
	memmove(&m->ents[p], &m->ents[q], (m->nr - q) * sizeof(m->ents[0]));
	m->nr -= q - p;
	return q - p;
}

/* ---- shadow nodes ---- */

/*
 * What Linux's workingset_update_node() does, with a plain list for its list_lru: a leaf is on
 * the list iff it holds entries and all of them are value entries.  One array at a time uses it
 * (xa_set_update(xa, xm_shadow_update)).  broken: a fault to show the check fails (a leaf that
 * gains a pointer stays listed).
 */
struct xm_shadow {
	struct list_head nodes;
	unsigned long nr, calls, inner_calls;
	bool broken;
};

static inline struct xm_shadow *xm_shadow(void)
{
	static struct xm_shadow s = { LIST_HEAD_INIT(s.nodes), 0, 0, 0, false };

	return &s;
}

static inline void xm_shadow_update(struct xa_node *node)
{
	struct xm_shadow *s = xm_shadow();

	s->calls++;
	s->inner_calls += node->shift != 0;
	if (node->count && node->count == node->nr_values) {
		if (list_empty(&node->private_list)) {
			list_add_tail(&node->private_list, &s->nodes);
			s->nr++;
		}
	} else if (!list_empty(&node->private_list) && !(s->broken && node->count)) {
		list_del_init(&node->private_list);
		s->nr--;
	}
}

/* The first index of @node's range, from its offsets up the tree. */
static inline unsigned long xm_node_index(const struct xa_node *node)
{
	unsigned long index = 0;

	for (; node->parent; node = node->parent)
		index |= (unsigned long)node->offset << node->parent->shift;
	return index;
}

/* The leaf of @xa whose range holds @index, or NULL. */
static inline struct xa_node *xm_leaf(const struct xarray *xa, unsigned long index)
{
	if (!xa_is_node(xa->xa_head))
		return NULL;
	struct xa_node *node = xa_to_node(xa->xa_head);
	unsigned int top = node->shift + XA_CHUNK_SHIFT;
	if (top < sizeof(long) * 8 && index >> top)
		return NULL;
	while (node && node->shift) {
		void *e = node->slots[(index >> node->shift) & XA_CHUNK_MASK];
		node = e ? xa_to_node(e) : NULL;
	}
	return node;
}

/* Is @leaf (NULL: none) listed exactly when its slots, counted afresh, are all values?
 * 0 if so, else 1. */
static inline int xm_shadow_leaf_ok(const struct xa_node *leaf, int (*pr)(const char *fmt, ...))
{
	unsigned int n = 0, v = 0;

	if (!leaf)
		return 0;
	for (unsigned int i = 0; i < XA_CHUNK_SIZE; i++) {
		n += leaf->slots[i] != NULL;
		v += leaf->slots[i] && xa_is_value(leaf->slots[i]);
	}
	if ((n && n == v) == !list_empty(&leaf->private_list))
		return 0;
	if (pr)
		pr("xarray: leaf at %#lx (%u entries, %u values) %s the shadow list\n",
		   xm_node_index(leaf), n, v, n && n == v ? "missing from" : "wrongly on");
	return 1;
}

static inline unsigned long xm_shadow_walk(const struct xa_node *node, int *bad,
					   int (*pr)(const char *fmt, ...))
{
	unsigned long want = 0;

	if (!node->shift) {
		*bad += xm_shadow_leaf_ok(node, pr);
		return node->count && node->count == node->nr_values;
	}
	for (unsigned int i = 0; i < XA_CHUNK_SIZE; i++)
		if (xa_is_node(node->slots[i]))
			want += xm_shadow_walk(xa_to_node(node->slots[i]), bad, pr);
	return want;
}

/* Every all-values leaf of @xa is on the list, no other leaf is, and nothing else (a freed node)
 * is: its length is theirs.  Inner nodes never reached the callback.  The number of problems. */
static inline int xm_shadow_check(const struct xarray *xa, int (*pr)(const char *fmt, ...))
{
	struct xm_shadow *s = xm_shadow();
	unsigned long want = 0, len = 0;
	int bad = 0;

	if (xa_is_node(xa->xa_head))
		want = xm_shadow_walk(xa_to_node(xa->xa_head), &bad, pr);
	for (struct list_head *p = s->nodes.next; p != &s->nodes && len <= want; p = p->next)
		len++;				/* (bounded: a stale node may loop) */
	if (len != want || s->nr != want || s->inner_calls) {
		bad++;
		if (pr)
			pr("xarray: shadow list: %lu listed (counted %lu), %lu all-values leaves, "
			   "%lu calls for inner nodes\n", len, s->nr, want, s->inner_calls);
	}
	return bad;
}

/* ---- randomness ---- */

static inline uint64_t xm_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* An index from the mix: small, within a few of a power of 64 (either side), near the top of the
 * range, or anywhere.  @r picks; unsigned long is 32 bits on the 32-bit boards. */
static inline unsigned long xm_index(uint64_t r)
{
	unsigned int kind = r & 7, near = (r >> 3) & 7;
	unsigned int power = (unsigned int)((r >> 6) % ((sizeof(long) * 8 + 5) / 6));
	unsigned long base = power ? 1UL << (6 * power) : 0;

	switch (kind) {
	case 0: case 1: case 2:
		return (unsigned long)(r >> 8) % 200;
	case 3: case 4:
		return base + near - 4;		/* (4 below 1 is near the top: fine) */
	case 5:
		return ~0UL - (unsigned long)((r >> 8) % 70);
	case 6:
		return (unsigned long)(r >> 8) % 5000;
	default:
		return (unsigned long)(r >> 8) ^ (unsigned long)(r << 20);
	}
}

/* A distinct entry for @n: an aligned "pointer" or now and then a value entry. */
static inline void *xm_entry(uint64_t r)
{
	if (r & 1)
		return xa_mk_value((unsigned long)(r >> 2) & (~0UL >> 1));
	return (void *)(uintptr_t)(((unsigned long)(r >> 8) | 1) << 2);
}

/* An index for an operation that wants a present entry most of the time. */
static inline unsigned long xm_pick(const struct xm *m, uint64_t *seed)
{
	uint64_t r = xm_rand(seed);

	if (m->nr && (r & 3))
		return m->ents[(r >> 2) % m->nr].index + ((r >> 40) % 4 == 0 ? 1 : 0);
	return xm_index(r >> 2);
}

/*
 * @ops random operations on @xa and the model @m side by side, every result compared; xa_check()
 * and the whole-array comparison every @check_every; now and then xa_destroy(), after which the
 * node count must be back to @nodes0.  The number of differences (the first printed via @pr).
 */
static inline int xm_random_run(struct xarray *xa, struct xm *m, unsigned long ops, uint64_t seed,
			 unsigned long check_every, unsigned long nodes0,
			 int (*pr)(const char *fmt, ...))
{
	bool full, shadow = xa->xa_update == xm_shadow_update;
	int bad = 0;

#define XM_SAME(cond, what)									\
	do {											\
		if (!(cond) && bad++ < 4 && pr)							\
			pr("xarray: op %lu (%s) at %#lx: %s\n", i, what, index, #cond);		\
	} while (0)
	for (unsigned long i = 0; i < ops && !bad; i++) {
		uint64_t r = xm_rand(&seed);
		xa_mark_t mark = (xa_mark_t)((r >> 8) % 3), filter = (r >> 10) & 1 ? XA_PRESENT : mark;
		unsigned long index = r & 0x100000 ? xm_pick(m, &seed) : xm_index(xm_rand(&seed));
		unsigned long max = (r >> 12) & 1 ? ~0UL : index + ((r >> 13) & 0xfff);
		unsigned long got = index, want = index;
		void *entry = xm_entry(xm_rand(&seed));

		if (max < index)
			max = ~0UL;
		switch (r % 16) {
		case 0: case 1: case 2: case 3: {
			void *old = xm_store(m, index, entry, &full);
			if (full)
				break;
			XM_SAME(xa_store(xa, index, entry, GFP_KERNEL) == old, "store");
			break;
		}
		case 4: case 5: case 6: {
			index = xm_pick(m, &seed);
			void *old = xm_store(m, index, NULL, &full);
			XM_SAME(((r >> 20) & 1 ? xa_erase(xa, index) :
				 xa_store(xa, index, NULL, GFP_KERNEL)) == old, "erase");
			break;
		}
		case 7: case 8:
			xm_mark(m, index, mark, true);
			xa_set_mark(xa, index, mark);
			XM_SAME(xa_get_mark(xa, index, mark) == xm_get_mark(m, index, mark), "set_mark");
			break;
		case 9:
			xm_mark(m, index, mark, false);
			xa_clear_mark(xa, index, mark);
			XM_SAME(!xa_get_mark(xa, index, mark), "clear_mark");
			break;
		case 10: {
			/* The lockless walk finds what the locked one does; no writer: no retry. */
			unsigned int seq = xa_read_begin(xa);
			XM_SAME(xa_load(xa, index) == xm_load(m, index), "load");
			XM_SAME(xa_load_lockless(xa, index) == xm_load(m, index), "load_lockless");
			XM_SAME(!xa_read_retry(xa, seq), "read_retry");
			XM_SAME(!(seq & 1), "xa_seq even between calls");
			XM_SAME(xa_get_mark(xa, index, mark) == xm_get_mark(m, index, mark), "get_mark");
			break;
		}
		case 11: case 12:
			XM_SAME(xa_find(xa, &got, max, filter) == xm_find(m, &want, max, filter) &&
				got == want, "find");
			break;
		case 13:
			XM_SAME(xa_find_after(xa, &got, max, filter) ==
				xm_find_after(m, &want, max, filter) && got == want, "find_after");
			break;
		case 14: {
			/* Up to 40 steps of a range walk, plain or by mark. */
			unsigned long gi, n = 0;
			void *ge, *me;
			want = index;
			me = xm_find(m, &want, max, filter);
			for (gi = index, ge = xa_find(xa, &gi, max, filter); ge && n < 40;
			     ge = xa_find_after(xa, &gi, max, filter), n++) {
				XM_SAME(me == ge && gi == want, "range walk");
				if (me != ge || gi != want)
					break;
				me = xm_find_after(m, &want, max, filter);
			}
			XM_SAME(n == 40 || (!ge && !me), "range walk end");
			break;
		}
		default:
			if (!((r >> 16) & 255)) {
				xa_destroy(xa);
				m->nr = 0;
				XM_SAME(xa_empty(xa) && xa_nr_nodes() == nodes0, "destroy");
				XM_SAME(!shadow || list_empty(&xm_shadow()->nodes), "destroy unlisted");
			} else if (shadow && (r >> 24) % 4 == 0 && !list_empty(&xm_shadow()->nodes)) {
				/* shadow_lru_isolate(): the oldest shadow node, unlisted first or not */
				struct xa_node *node = list_first_entry(&xm_shadow()->nodes,
									 struct xa_node, private_list);
				unsigned long nodes = xa_nr_nodes();
				unsigned int count = node->count;
				bool values;
				index = xm_node_index(node);
				XM_SAME(xm_erase_range(m, index, index + XA_CHUNK_MASK, &values) == count &&
					values, "delete_node model");
				if ((r >> 26) & 1) {
					list_del_init(&node->private_list);
					xm_shadow()->nr--;
				}
				xa_delete_node(node);
				XM_SAME(xa_nr_nodes() < nodes && !xm_leaf(xa, index), "delete_node");
			} else if (m->nr) {
				/* Replace a present entry: its marks stay. */
				index = m->ents[(r >> 16) % m->nr].index;
				void *old = xm_store(m, index, entry, &full);
				XM_SAME(xa_store(xa, index, entry, GFP_KERNEL) == old, "replace");
			}
			break;
		}
		if (shadow)	/* the leaf of the index operated on, at once */
			XM_SAME(xm_shadow_leaf_ok(xm_leaf(xa, index), pr) == 0, "shadow leaf");
		if (i % check_every == check_every - 1 || i == ops - 1) {
			int c = xa_check(xa, pr);
			XM_SAME(c == 0, "xa_check");
			c = xm_compare(m, xa, pr);
			XM_SAME(c == 0, "compare");
			c = shadow ? xm_shadow_check(xa, pr) : 0;
			XM_SAME(c == 0, "shadow list");
		}
	}
#undef XM_SAME
	return bad;
}

#endif
