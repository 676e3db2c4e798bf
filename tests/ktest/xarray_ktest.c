/*
 * xarray_ktest.c - suite `xarray`: lib/xarray.c on every board (unsigned long is 32 bits on ARM
 * and RV32, 64 on RV64) and on the host (tests/host/xarray_test.c, which adds the long checks):
 * loads, stores and erases at 0, small, power-of-64 and top-of-range indices; the index-0 head
 * entry; dense and sparse ranges; marks, and xa_find by mark stepping over unmarked subtrees;
 * range and mark iteration in index order; value entries; reserved entries refused; every
 * node allocation failing in turn leaving the array as it was; and a randomized run against
 * the sorted-array model of xarray_model.h.  Shadow nodes (for mm/workingset.c): nr_values
 * through store, replace and erase; the update callback's calls, node by node, down to the
 * count-0 call before a leaf is freed; xa_delete_node in the middle of a tree, at its top and
 * under a chain; a mixed tree and the random run keeping the shadow list of xarray_model.h
 * exact.  xa_check() must find nothing after every case, and every case gives back every node
 * it took.
 */
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/xarray.h"
#include "xarray_model.h"

#define GFP_TEST	(GFP_KERNEL | __GFP_NOWARN)
#define XM_CAP		1024

static struct xm_ent xm_ents[XM_CAP];
static struct xm xm_model = { xm_ents, 0, XM_CAP };

/* Increasing indices where the tree changes shape, on either word size. */
static unsigned long edge_index(unsigned int i)
{
	static const unsigned long fixed[] = { 0, 1, 2, 63, 64, 65, 4095, 4096, 4097, 262143, 262144 };
	unsigned int levels = (BITS_PER_LONG + 5) / 6;

	if (i < ARRAY_SIZE(fixed))
		return fixed[i];
	i -= ARRAY_SIZE(fixed);
	if (i < 2 * (levels - 4))		/* either side of 64^4, 64^5, ... */
		return (1UL << (6 * (4 + i / 2))) - 1 + (i & 1);
	switch (i - 2 * (levels - 4)) {
	case 0: return ~0UL >> 1;			/* LONG_MAX */
	case 1: return (~0UL >> 1) + 1;
	case 2: return ~0UL - 64;
	case 3: return ~0UL - 1;
	default: return ~0UL;
	}
}
#define NR_EDGES	(11 + 2 * ((BITS_PER_LONG + 5) / 6 - 4) + 5)

static void *ptr(unsigned long n)
{
	return (void *)((n << 3) | 4);		/* aligned, never NULL, never a node */
}

#define EXPECT_XA_OK(t, xa)	KTEST_EXPECT_EQ(t, xa_check(xa, printk), 0)

/* Each edge index alone, then all of them together; the nodes come back each time. */
static void edges_load_store_erase(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes(), index;

	for (unsigned int i = 0; i < NR_EDGES; i++) {
		unsigned long x = edge_index(i);
		KTEST_EXPECT_TRUE(t, xa_store(&xa, x, ptr(i), GFP_TEST) == NULL);
		KTEST_EXPECT_TRUE(t, xa_load(&xa, x) == ptr(i));
		KTEST_EXPECT_TRUE(t, xa_load(&xa, x + 1) == NULL);
		KTEST_EXPECT_TRUE(t, xa_load(&xa, x - 1) == NULL);
		index = 0;
		KTEST_EXPECT_TRUE(t, xa_find(&xa, &index, ~0UL, XA_PRESENT) == ptr(i));
		KTEST_EXPECT_EQ(t, index, x);
		KTEST_EXPECT_TRUE(t, xa_find_after(&xa, &index, ~0UL, XA_PRESENT) == NULL);
		KTEST_EXPECT_EQ(t, index, x);			/* unchanged when nothing is found */
		KTEST_EXPECT_TRUE(t, xa_store(&xa, x, ptr(i + 100), GFP_TEST) == ptr(i));
		EXPECT_XA_OK(t, &xa);
		KTEST_EXPECT_TRUE(t, xa_erase(&xa, x) == ptr(i + 100));
		KTEST_EXPECT_TRUE(t, xa_erase(&xa, x) == NULL);
		KTEST_EXPECT_TRUE(t, xa_empty(&xa));
		KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
	}
	for (unsigned int i = 0; i < NR_EDGES; i++)
		xa_store(&xa, edge_index(i), ptr(i), GFP_TEST);
	EXPECT_XA_OK(t, &xa);
	for (unsigned int i = 0; i < NR_EDGES; i++)
		KTEST_EXPECT_TRUE(t, xa_load(&xa, edge_index(i)) == ptr(i));
	/* Iteration visits them in index order (edge_index is increasing). */
	unsigned int n = 0;
	void *entry;
	xa_for_each(&xa, index, entry) {
		KTEST_EXPECT_EQ(t, index, edge_index(n));
		n++;
	}
	KTEST_EXPECT_EQ(t, n, NR_EDGES);
	for (unsigned int i = NR_EDGES; i-- > 0;) {
		KTEST_EXPECT_TRUE(t, xa_erase(&xa, edge_index(i)) == ptr(i));
		EXPECT_XA_OK(t, &xa);
	}
	KTEST_EXPECT_TRUE(t, xa_empty(&xa));
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
}

/* Index 0 alone lives in the head (no node); its marks survive the tree growing and shrinking. */
static void head_entry_and_shrinking(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes();

	xa_store(&xa, 0, xa_mk_value(7), GFP_TEST);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
	xa_set_mark(&xa, 0, XA_MARK_1);
	KTEST_EXPECT_TRUE(t, xa_marked(&xa, XA_MARK_1));
	xa_store(&xa, ~0UL, ptr(1), GFP_TEST);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 2 * ((BITS_PER_LONG + 5) / 6) - 1);
	KTEST_EXPECT_TRUE(t, xa_get_mark(&xa, 0, XA_MARK_1));
	KTEST_EXPECT_FALSE(t, xa_get_mark(&xa, ~0UL, XA_MARK_1));
	EXPECT_XA_OK(t, &xa);
	xa_erase(&xa, ~0UL);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);		/* shrunk back to the head entry */
	KTEST_EXPECT_TRUE(t, xa_get_mark(&xa, 0, XA_MARK_1));
	xa_store(&xa, 1, ptr(2), GFP_TEST);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 1);
	xa_store(&xa, 64, ptr(3), GFP_TEST);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 3);
	xa_erase(&xa, 0);
	KTEST_EXPECT_FALSE(t, xa_marked(&xa, XA_MARK_1));
	xa_erase(&xa, 1);			/* leaf 0 empties: top has only slot 1 left */
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 2);
	EXPECT_XA_OK(t, &xa);
	xa_destroy(&xa);
	KTEST_EXPECT_TRUE(t, xa_empty(&xa));
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
}

/* The lockless walk at every edge index, alone and all together; and on node memory a racing
 * writer left stale (xarray.h): a node whose slots all point back to itself, and one with an
 * impossible shift, end the walk (the depth bound, the masked shift) instead of looping. */
static void lockless_walk_edges_and_stale_nodes(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	static struct xa_node loop __attribute__((aligned(8)));

	for (unsigned int i = 0; i < NR_EDGES; i++) {
		xa_store(&xa, edge_index(i), ptr(i), GFP_TEST);
		KTEST_EXPECT_TRUE(t, xa_load_lockless(&xa, edge_index(i)) == ptr(i));
		KTEST_EXPECT_TRUE(t, xa_load_lockless(&xa, edge_index(i) ^ 8) ==
				     xa_load(&xa, edge_index(i) ^ 8));
		xa_erase(&xa, edge_index(i));
		KTEST_EXPECT_TRUE(t, xa_load_lockless(&xa, edge_index(i)) == NULL);
	}
	for (unsigned int i = 0; i < NR_EDGES; i++)
		xa_store(&xa, edge_index(i), ptr(i), GFP_TEST);
	for (unsigned int i = 0; i < NR_EDGES; i++)
		KTEST_EXPECT_TRUE(t, xa_load_lockless(&xa, edge_index(i)) == ptr(i));
	KTEST_EXPECT_EQ(t, xa.xa_seq, 6U * NR_EDGES);		/* two per store and per erase */
	xa_destroy(&xa);

	struct xarray stale = { .xa_head = (void *)((unsigned long)&loop | 2) };
	loop.shift = XA_CHUNK_SHIFT;
	for (unsigned int i = 0; i < XA_CHUNK_SIZE; i++)
		loop.slots[i] = stale.xa_head;
	KTEST_EXPECT_TRUE(t, xa_load_lockless(&stale, 5) == NULL);
	loop.shift = 250;
	KTEST_EXPECT_TRUE(t, xa_load_lockless(&stale, 5) == NULL);
}

/* 3000 consecutive entries, then every third erased, then sparse ones far apart. */
static void dense_and_sparse(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes(), index, n = 0;
	void *entry;

	for (unsigned long i = 0; i < 3000; i++)
		KTEST_ASSERT_TRUE(t, xa_store(&xa, i, xa_mk_value(i), GFP_TEST) == NULL);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 47 + 1);	/* 47 leaves and the top */
	for (unsigned long i = 0; i < 3000; i += 3)
		xa_erase(&xa, i);
	xa_for_each(&xa, index, entry) {
		KTEST_EXPECT_TRUE(t, index % 3 && xa_to_value(entry) == index);
		n++;
	}
	KTEST_EXPECT_EQ(t, n, 2000);
	EXPECT_XA_OK(t, &xa);
	xa_destroy(&xa);
	for (unsigned long i = 0; i < 200; i++)
		xa_store(&xa, i * 0x1234567UL + (i << (BITS_PER_LONG - 8)), ptr(i), GFP_TEST);
	for (unsigned long i = 0; i < 200; i++)
		KTEST_EXPECT_TRUE(t, xa_load(&xa, i * 0x1234567UL + (i << (BITS_PER_LONG - 8))) == ptr(i));
	EXPECT_XA_OK(t, &xa);
	for (unsigned long i = 0; i < 200; i++)
		xa_erase(&xa, i * 0x1234567UL + (i << (BITS_PER_LONG - 8)));
	KTEST_EXPECT_TRUE(t, xa_empty(&xa));
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
}

static void marks_follow_entries(struct ktest *t)
{
	DEFINE_XARRAY(xa);

	xa_set_mark(&xa, 5, XA_MARK_0);			/* absent: nothing */
	KTEST_EXPECT_FALSE(t, xa_get_mark(&xa, 5, XA_MARK_0));
	KTEST_EXPECT_FALSE(t, xa_marked(&xa, XA_MARK_0));
	for (unsigned long i = 0; i < 300; i++)
		xa_store(&xa, i * 7, ptr(i), GFP_TEST);
	xa_set_mark(&xa, 5, XA_MARK_0);			/* still absent */
	KTEST_EXPECT_FALSE(t, xa_marked(&xa, XA_MARK_0));
	xa_set_mark(&xa, 700, XA_MARK_0);
	xa_set_mark(&xa, 700, XA_MARK_2);
	xa_set_mark(&xa, 707, XA_MARK_2);
	KTEST_EXPECT_TRUE(t, xa_get_mark(&xa, 700, XA_MARK_0));
	KTEST_EXPECT_FALSE(t, xa_get_mark(&xa, 700, XA_MARK_1));
	KTEST_EXPECT_TRUE(t, xa_marked(&xa, XA_MARK_2) && !xa_marked(&xa, XA_MARK_1));
	EXPECT_XA_OK(t, &xa);
	xa_store(&xa, 700, ptr(1000), GFP_TEST);	/* replacing keeps the marks */
	KTEST_EXPECT_TRUE(t, xa_get_mark(&xa, 700, XA_MARK_0) && xa_get_mark(&xa, 700, XA_MARK_2));
	xa_clear_mark(&xa, 700, XA_MARK_2);
	KTEST_EXPECT_FALSE(t, xa_get_mark(&xa, 700, XA_MARK_2));
	KTEST_EXPECT_TRUE(t, xa_marked(&xa, XA_MARK_2));	/* 707 still */
	xa_erase(&xa, 707);				/* erasing clears the marks */
	KTEST_EXPECT_FALSE(t, xa_marked(&xa, XA_MARK_2));
	xa_store(&xa, 707, ptr(1), GFP_TEST);
	KTEST_EXPECT_FALSE(t, xa_get_mark(&xa, 707, XA_MARK_2));
	xa_erase(&xa, 700);
	KTEST_EXPECT_FALSE(t, xa_marked(&xa, XA_MARK_0));
	EXPECT_XA_OK(t, &xa);
	xa_destroy(&xa);
}

/* 64^2 * 4 entries, two marked far apart: xa_find by mark visits a few nodes per level. */
static void find_by_mark_skips_subtrees(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	const unsigned long n = 64 * 64 * 4, far = n - 3;
	unsigned long index = 0, steps;

	for (unsigned long i = 0; i < n; i++)
		KTEST_ASSERT_TRUE(t, xa_store(&xa, i, xa_mk_value(i), GFP_TEST) == NULL);
	xa_set_mark(&xa, 3, XA_MARK_0);
	xa_set_mark(&xa, far, XA_MARK_0);
	KTEST_EXPECT_TRUE(t, xa_find(&xa, &index, ~0UL, XA_MARK_0) == xa_mk_value(3));
	KTEST_EXPECT_EQ(t, index, 3);
	steps = xa_find_steps;
	KTEST_EXPECT_TRUE(t, xa_find_after(&xa, &index, ~0UL, XA_MARK_0) == xa_mk_value(far));
	KTEST_EXPECT_EQ(t, index, far);
	KTEST_EXPECT_LE(t, xa_find_steps - steps, 8);	/* 3 levels: up 2, down 2, and the leaf */
	KTEST_EXPECT_TRUE(t, xa_find_after(&xa, &index, ~0UL, XA_MARK_0) == NULL);
	index = 4;
	KTEST_EXPECT_TRUE(t, xa_find(&xa, &index, far - 1, XA_MARK_0) == NULL);	/* past max */
	index = 0;
	KTEST_EXPECT_TRUE(t, xa_find(&xa, &index, ~0UL, XA_MARK_1) == NULL);
	KTEST_EXPECT_EQ(t, index, 0);
	xa_destroy(&xa);
}

/* Ranges across node boundaries and up to ULONG_MAX, plain and by mark, in index order. */
static void iterate_ranges_in_order(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long index, last = 0, n = 0;
	void *entry;

	for (unsigned int i = 0; i < NR_EDGES; i++) {
		xa_store(&xa, edge_index(i), ptr(i), GFP_TEST);
		if (i % 2)
			xa_set_mark(&xa, edge_index(i), XA_MARK_1);
	}
	xa_for_each_range(&xa, index, entry, 60, 4096) {
		KTEST_EXPECT_TRUE(t, index >= 60 && index <= 4096 && (!n || index > last));
		last = index;
		n++;
	}
	KTEST_EXPECT_EQ(t, n, 5);				/* 63 64 65 4095 4096 */
	n = 0;
	xa_for_each_range(&xa, index, entry, ~0UL - 1, ~0UL)
		n++;
	KTEST_EXPECT_EQ(t, n, 2);
	n = 0;
	xa_for_each_marked(&xa, index, entry, XA_MARK_1) {
		KTEST_EXPECT_TRUE(t, xa_get_mark(&xa, index, XA_MARK_1) && (!n || index > last));
		last = index;
		n++;
	}
	KTEST_EXPECT_EQ(t, n, NR_EDGES / 2);
	xa_destroy(&xa);
}

static void value_entries(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	const unsigned long v[] = { 0, 1, 12345, ~0UL >> 1 };

	for (unsigned int i = 0; i < ARRAY_SIZE(v); i++) {
		void *e = xa_mk_value(v[i]);
		KTEST_EXPECT_TRUE(t, xa_is_value(e) && !xa_is_err(e) && xa_to_value(e) == v[i]);
		xa_store(&xa, i * 1000, e, GFP_TEST);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(v); i++)
		KTEST_EXPECT_EQ(t, xa_to_value(xa_load(&xa, i * 1000)), v[i]);
	KTEST_EXPECT_TRUE(t, xa_store(&xa, 0, ptr(1), GFP_TEST) == xa_mk_value(0));
	xa_destroy(&xa);
}

/* Internal entries (an xa_mk_err(), anything with bits 1:0 == 10) are refused; errors decode. */
static void reserved_entries_refused(struct ktest *t)
{
	DEFINE_XARRAY(xa);

	xa_store(&xa, 1, ptr(1), GFP_TEST);
	void *r = xa_store(&xa, 1, xa_mk_err(-EIO), GFP_TEST);
	KTEST_EXPECT_TRUE(t, xa_is_err(r));
	KTEST_EXPECT_EQ(t, xa_err(r), -EINVAL);
	KTEST_EXPECT_EQ(t, xa_err(xa_store(&xa, 2, (void *)0x1002, GFP_TEST)), -EINVAL);
	KTEST_EXPECT_EQ(t, xa_err(xa_mk_err(-ENOMEM)), -ENOMEM);
	KTEST_EXPECT_EQ(t, xa_err(ptr(1)), 0);
	KTEST_EXPECT_TRUE(t, xa_load(&xa, 1) == ptr(1) && !xa_load(&xa, 2));
	xa_destroy(&xa);
}

/* Each node allocation of a store failing in turn: -ENOMEM and the array as it was. */
static void enomem_leaves_array_unchanged(struct ktest *t)
{
	static const struct { unsigned long setup[4]; unsigned long index; } cases[] = {
		{ { 0 }, 1 }, { { 0 }, ~0UL }, { { 5, 64 * 64 }, ~0UL - 64 }, { { 3, 70, 4000 }, 4100 },
	};
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes(), failures = 0;
	bool full;

	for (unsigned int c = 0; c < ARRAY_SIZE(cases); c++) {
		xm_model.nr = 0;
		for (unsigned int i = 0; i < 4 && (i == 0 || cases[c].setup[i]); i++) {
			xa_store(&xa, cases[c].setup[i], ptr(i), GFP_TEST);
			xm_store(&xm_model, cases[c].setup[i], ptr(i), &full);
			xa_set_mark(&xa, cases[c].setup[i], i % 3);
			xm_mark(&xm_model, cases[c].setup[i], i % 3, true);
		}
		for (unsigned int nth = 1;; nth++) {
			unsigned long nodes = xa_nr_nodes();
			xa_alloc_fail_nth = nth;
			void *r = xa_store(&xa, cases[c].index, ptr(9), GFP_TEST);
			xa_alloc_fail_nth = 0;
			if (!xa_is_err(r))
				break;
			failures++;
			KTEST_EXPECT_EQ(t, xa_err(r), -ENOMEM);
			KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes);
			KTEST_EXPECT_EQ(t, xm_compare(&xm_model, &xa, printk), 0);
			EXPECT_XA_OK(t, &xa);
			KTEST_ASSERT_TRUE(t, nth < 40);
		}
		KTEST_EXPECT_TRUE(t, xa_load(&xa, cases[c].index) == ptr(9));
		xm_store(&xm_model, cases[c].index, ptr(9), &full);
		KTEST_EXPECT_EQ(t, xm_compare(&xm_model, &xa, printk), 0);
		xa_destroy(&xa);
	}
	KTEST_EXPECT_GE(t, failures, 10);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
}


/* Leaf 64..127: its count and nr_values (values counted apart from pointers) as entries come,
 * change kind and go; the head entry's value is counted when it moves into a leaf. */
static void nr_values_counting(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	struct xa_node *leaf;

#define EXPECT_LEAF(i, c, v)							\
	do {									\
		leaf = xm_leaf(&xa, i);						\
		KTEST_ASSERT_TRUE(t, leaf != NULL);				\
		KTEST_EXPECT_EQ(t, leaf->count, c);				\
		KTEST_EXPECT_EQ(t, leaf->nr_values, v);				\
		KTEST_EXPECT_TRUE(t, leaf->array == &xa);			\
		EXPECT_XA_OK(t, &xa);						\
	} while (0)
	xa_store(&xa, 0, xa_mk_value(0), GFP_TEST);		/* the head: no node */
	KTEST_EXPECT_TRUE(t, xm_leaf(&xa, 0) == NULL);
	xa_store(&xa, 1, xa_mk_value(1), GFP_TEST);
	EXPECT_LEAF(0, 2, 2);
	xa_store(&xa, 64, xa_mk_value(64), GFP_TEST);
	EXPECT_LEAF(64, 1, 1);
	xa_store(&xa, 65, ptr(65), GFP_TEST);
	EXPECT_LEAF(64, 2, 1);
	xa_store(&xa, 64, ptr(64), GFP_TEST);			/* value -> pointer */
	EXPECT_LEAF(64, 2, 0);
	xa_store(&xa, 65, xa_mk_value(5), GFP_TEST);		/* pointer -> value */
	EXPECT_LEAF(64, 2, 1);
	xa_store(&xa, 65, xa_mk_value(6), GFP_TEST);		/* value -> value */
	EXPECT_LEAF(64, 2, 1);
	xa_set_mark(&xa, 65, XA_MARK_0);
	xa_store(&xa, 127, xa_mk_value(7), GFP_TEST);
	EXPECT_LEAF(64, 3, 2);
	xa_erase(&xa, 65);
	EXPECT_LEAF(64, 2, 1);
	xa_store(&xa, 64, NULL, GFP_TEST);
	EXPECT_LEAF(64, 1, 1);
	KTEST_EXPECT_EQ(t, xa_to_node(xa.xa_head)->nr_values, 0);	/* inner */
	EXPECT_LEAF(0, 2, 2);
	xa_erase(&xa, 1);
	xa_erase(&xa, 0);
	EXPECT_LEAF(64, 1, 1);
#undef EXPECT_LEAF
	xa_destroy(&xa);
}

static struct { struct xa_node *node; unsigned int shift, count, nr_values; } calls[16];
static unsigned int nr_calls;

static void record_update(struct xa_node *node)
{
	if (nr_calls < ARRAY_SIZE(calls))
		calls[nr_calls] = (__typeof__(calls[0])){ node, node->shift, node->count,
							 node->nr_values };
	nr_calls++;
	xm_shadow_update(node);
}

/* The calls the last operation made: @n of them, the last with @node, @count, @values. */
#define EXPECT_CALLS(t, n, nd, c, v)							\
	do {										\
		KTEST_EXPECT_EQ(t, nr_calls, n);					\
		if (nr_calls && nr_calls <= ARRAY_SIZE(calls)) {			\
			KTEST_EXPECT_TRUE(t, calls[nr_calls - 1].node == (nd));		\
			KTEST_EXPECT_EQ(t, calls[nr_calls - 1].count, c);		\
			KTEST_EXPECT_EQ(t, calls[nr_calls - 1].nr_values, v);		\
		}									\
		for (unsigned int k = 0; k < nr_calls && k < ARRAY_SIZE(calls); k++)	\
			KTEST_EXPECT_EQ(t, calls[k].shift, 0);				\
		KTEST_EXPECT_EQ(t, xm_shadow_check(&xa, printk), 0);			\
		EXPECT_XA_OK(t, &xa);							\
		nr_calls = 0;								\
	} while (0)

/* Each operation's calls, node and counts: leaves only, only when count or nr_values changes,
 * and an emptied or shrunk-away leaf's last call has count 0, just before it is freed. */
static void update_callback_calls(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes();
	struct xa_node *leaf0, *leaf3;

	xa_set_update(&xa, record_update);
	nr_calls = 0;
	xa_store(&xa, 0, xa_mk_value(0), GFP_TEST);		/* the head entry: no node */
	EXPECT_CALLS(t, 0, NULL, 0, 0);
	xa_store(&xa, 1, xa_mk_value(1), GFP_TEST);
	leaf0 = xm_leaf(&xa, 0);
	KTEST_EXPECT_EQ(t, calls[0].count, 1);			/* the head entry moved in */
	EXPECT_CALLS(t, 2, leaf0, 2, 2);
	KTEST_EXPECT_FALSE(t, list_empty(&leaf0->private_list));	/* all values: listed */
	xa_store(&xa, 1, xa_mk_value(2), GFP_TEST);		/* value -> value: no change */
	xa_set_mark(&xa, 1, XA_MARK_1);
	xa_load(&xa, 1);
	EXPECT_CALLS(t, 0, NULL, 0, 0);
	xa_store(&xa, 1, ptr(1), GFP_TEST);
	EXPECT_CALLS(t, 1, leaf0, 2, 1);
	KTEST_EXPECT_TRUE(t, list_empty(&leaf0->private_list));
	xa_store(&xa, 200, xa_mk_value(200), GFP_TEST);		/* a new top (inner: no call) */
	leaf3 = xm_leaf(&xa, 200);
	EXPECT_CALLS(t, 1, leaf3, 1, 1);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 3);
	xa_store(&xa, 1, xa_mk_value(1), GFP_TEST);
	EXPECT_CALLS(t, 1, leaf0, 2, 2);
	xa_erase(&xa, 200);			/* leaf3 empties: one call, count 0; the top goes too */
	EXPECT_CALLS(t, 1, leaf3, 0, 0);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 1);
	xa_erase(&xa, 0);			/* leaf0 holds slot 1 only: stays */
	EXPECT_CALLS(t, 1, leaf0, 1, 1);
	xa_store(&xa, 0, ptr(0), GFP_TEST);
	EXPECT_CALLS(t, 1, leaf0, 2, 1);
	xa_erase(&xa, 1);			/* slot 0 alone: shrunk into the head, count 0 first */
	KTEST_EXPECT_EQ(t, calls[0].count, 1);
	EXPECT_CALLS(t, 2, leaf0, 0, 0);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
	xa_erase(&xa, 0);
	EXPECT_CALLS(t, 0, NULL, 0, 0);
	/* A failed store: the leaf made for the head entry goes with a count-0 call. */
	xa_store(&xa, 0, xa_mk_value(0), GFP_TEST);
	xa_alloc_fail_nth = 2;
	KTEST_EXPECT_EQ(t, xa_err(xa_store(&xa, 64, ptr(2), GFP_TEST)), -ENOMEM);
	xa_alloc_fail_nth = 0;
	KTEST_EXPECT_EQ(t, calls[0].count, 1);
	EXPECT_CALLS(t, 2, calls[0].node, 0, 0);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
	/* xa_destroy: every leaf's last call has count 0 (the list empties). */
	xa_erase(&xa, 0);
	for (unsigned long i = 1; i < 5; i++)
		xa_store(&xa, i << 12, xa_mk_value(i), GFP_TEST);
	KTEST_EXPECT_EQ(t, xm_shadow()->nr, 4);
	nr_calls = 0;
	xa_destroy(&xa);
	KTEST_EXPECT_EQ(t, nr_calls, 4);
	KTEST_EXPECT_TRUE(t, list_empty(&xm_shadow()->nodes) && xm_shadow()->nr == 0);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
	nr_calls = 0;
}

/* An all-values leaf deleted whole: in the middle (neighbours untouched), under a chain (the
 * chain goes), the last leaf below a top (the tree shrinks), the only leaf (empty array). */
static void delete_node_cases(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes(), nodes;
	struct xa_node *leaf;

	xa_set_update(&xa, xm_shadow_update);
	for (unsigned long i = 0; i < 64; i++)
		xa_store(&xa, i, ptr(i), GFP_TEST);			/* leaf 0: pointers */
	for (unsigned long i = 64; i < 128; i += 9)
		xa_store(&xa, i, xa_mk_value(i), GFP_TEST);		/* leaf 1: values */
	for (unsigned long i = 128; i < 131; i++)
		xa_store(&xa, i, i == 130 ? ptr(i) : xa_mk_value(i), GFP_TEST);
	xa_set_mark(&xa, 73, XA_MARK_2);				/* only on leaf 1 */
	xa_set_mark(&xa, 130, XA_MARK_0);
	xa_set_mark(&xa, 10, XA_MARK_0);
	leaf = xm_leaf(&xa, 64);
	KTEST_ASSERT_TRUE(t, leaf && leaf->count == 8 && leaf->nr_values == 8);
	KTEST_EXPECT_EQ(t, xm_shadow()->nr, 1);
	nodes = xa_nr_nodes();
	xa_delete_node(leaf);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes - 1);
	KTEST_EXPECT_TRUE(t, xm_leaf(&xa, 64) == NULL);
	for (unsigned long i = 0; i < 131; i++)
		KTEST_EXPECT_TRUE(t, xa_load(&xa, i) == (i >= 64 && i < 128 ? NULL :
			i < 64 || i == 130 ? ptr(i) : xa_mk_value(i)));
	KTEST_EXPECT_FALSE(t, xa_marked(&xa, XA_MARK_2));
	KTEST_EXPECT_TRUE(t, xa_get_mark(&xa, 130, XA_MARK_0) && xa_get_mark(&xa, 10, XA_MARK_0));
	KTEST_EXPECT_EQ(t, xm_shadow_check(&xa, printk), 0);
	KTEST_EXPECT_EQ(t, xm_shadow()->nr, 0);
	EXPECT_XA_OK(t, &xa);
	xa_destroy(&xa);

	/* Under a chain of inner nodes, beside the head entry: back to the head entry alone. */
	xa_store(&xa, 0, ptr(0), GFP_TEST);
	for (unsigned long i = 0; i < 3; i++)
		xa_store(&xa, (1UL << 20) + i, xa_mk_value(i), GFP_TEST);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 7);	/* top (18); 12, 6 and a leaf twice */
	xa_delete_node(xm_leaf(&xa, 1UL << 20));
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
	KTEST_EXPECT_TRUE(t, xa.xa_head == ptr(0));
	EXPECT_XA_OK(t, &xa);
	/* The last leaf below a top beside leaf 0: the top shrinks to leaf 0. */
	xa_store(&xa, 3, ptr(3), GFP_TEST);
	xa_store(&xa, 64, xa_mk_value(64), GFP_TEST);
	xa_store(&xa, 65, xa_mk_value(65), GFP_TEST);
	xa_delete_node(xm_leaf(&xa, 64));
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0 + 1);
	KTEST_EXPECT_EQ(t, xa_to_node(xa.xa_head)->shift, 0);
	KTEST_EXPECT_TRUE(t, xa_load(&xa, 0) == ptr(0) && xa_load(&xa, 3) == ptr(3));
	EXPECT_XA_OK(t, &xa);
	/* The only leaf: the array empties, root marks and all. */
	xa_erase(&xa, 0);
	xa_store(&xa, 3, xa_mk_value(3), GFP_TEST);
	xa_set_mark(&xa, 3, XA_MARK_1);
	xa_delete_node(xm_leaf(&xa, 3));
	KTEST_EXPECT_TRUE(t, xa_empty(&xa) && !xa_marked(&xa, XA_MARK_1));
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
	KTEST_EXPECT_EQ(t, xm_shadow_check(&xa, printk), 0);
	EXPECT_XA_OK(t, &xa);
}

/* Four leaves turned all-values and back by stores, replaces and erases: the shadow list follows
 * each step; the node count drops as a deleted shadow node goes. */
static void mixed_tree_shadow_list(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes(), nodes;

#define STEP(op)								\
	do {									\
		op;								\
		KTEST_EXPECT_EQ(t, xm_shadow_check(&xa, printk), 0);		\
	} while (0)
	xa_set_update(&xa, xm_shadow_update);
	for (unsigned long i = 0; i < 256; i += 5)
		STEP(xa_store(&xa, i, i % 2 ? xa_mk_value(i) : ptr(i), GFP_TEST));
	KTEST_EXPECT_EQ(t, xm_shadow()->nr, 0);
	for (unsigned long i = 70; i < 128; i += 10)		/* leaf 1: pointers -> values */
		STEP(xa_store(&xa, i, xa_mk_value(i), GFP_TEST));
	KTEST_EXPECT_EQ(t, xm_shadow()->nr, 1);
	for (unsigned long i = 130; i < 192; i += 10)		/* leaf 2: pointers erased */
		STEP(xa_erase(&xa, i));
	KTEST_EXPECT_EQ(t, xm_shadow()->nr, 2);
	STEP(xa_store(&xa, 100, ptr(1), GFP_TEST));		/* leaf 1 off again */
	KTEST_EXPECT_EQ(t, xm_shadow()->nr, 1);
	STEP(xa_store(&xa, 1UL << 14, xa_mk_value(1), GFP_TEST));	/* a new level */
	KTEST_EXPECT_EQ(t, xm_shadow()->nr, 2);
	nodes = xa_nr_nodes();
	STEP(xa_delete_node(list_first_entry(&xm_shadow()->nodes, struct xa_node, private_list)));
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes - 1);
	KTEST_EXPECT_TRUE(t, xa_load(&xa, 135) == NULL && xa_load(&xa, 130) == NULL &&
			  xa_load(&xa, 100) == ptr(1) && xa_load(&xa, 195) == xa_mk_value(195));
	STEP(xa_erase(&xa, 1UL << 14));				/* its chain and a level go */
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes - 4);
	EXPECT_XA_OK(t, &xa);
	STEP(xa_destroy(&xa));
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
#undef STEP
}

/* Also keeps the shadow list, which xa_delete_node() of its oldest node now and then uses. */
static void random_against_model(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes();

	xm_model.nr = 0;
	xa_set_update(&xa, xm_shadow_update);
	KTEST_EXPECT_EQ(t, xm_random_run(&xa, &xm_model, 20000, 0x9e3779b97f4a7c15ULL, 250, nodes0,
					 printk), 0);
	xa_destroy(&xa);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
	KTEST_EXPECT_TRUE(t, list_empty(&xm_shadow()->nodes) && !xm_shadow()->inner_calls);
}

static const struct ktest_case xarray_cases[] = {
	KTEST_CASE(edges_load_store_erase), KTEST_CASE(head_entry_and_shrinking),
	KTEST_CASE(dense_and_sparse), KTEST_CASE(marks_follow_entries),
	KTEST_CASE(find_by_mark_skips_subtrees), KTEST_CASE(iterate_ranges_in_order),
	KTEST_CASE(value_entries), KTEST_CASE(reserved_entries_refused),
	KTEST_CASE(enomem_leaves_array_unchanged), KTEST_CASE(nr_values_counting),
	KTEST_CASE(update_callback_calls), KTEST_CASE(delete_node_cases),
	KTEST_CASE(mixed_tree_shadow_list), KTEST_CASE(random_against_model),
	KTEST_CASE(lockless_walk_edges_and_stale_nodes),
	{}
};
KTEST_SUITE(xarray, xarray_cases);
