/*
 * xarray_ktest.c - suite `xarray`: lib/xarray.c on every board (unsigned long is 32 bits on ARM
 * and RV32, 64 on RV64) and on the host (tests/host/xarray_test.c, which adds the long checks):
 * loads, stores and erases at 0, small, power-of-64 and top-of-range indices; the index-0 head
 * entry; dense and sparse ranges; marks, and xa_find by mark stepping over unmarked subtrees;
 * range and mark iteration in index order; value entries; reserved entries refused; every
 * node allocation failing in turn leaving the array as it was; and a randomized run against
 * the sorted-array model of xarray_model.h.  xa_check() must find nothing after every case,
 * and every case gives back every node it took.
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

static void random_against_model(struct ktest *t)
{
	DEFINE_XARRAY(xa);
	unsigned long nodes0 = xa_nr_nodes();

	xm_model.nr = 0;
	KTEST_EXPECT_EQ(t, xm_random_run(&xa, &xm_model, 20000, 0x9e3779b97f4a7c15ULL, 250, nodes0,
					 printk), 0);
	xa_destroy(&xa);
	KTEST_EXPECT_EQ(t, xa_nr_nodes(), nodes0);
}

static const struct ktest_case xarray_cases[] = {
	KTEST_CASE(edges_load_store_erase), KTEST_CASE(head_entry_and_shrinking),
	KTEST_CASE(dense_and_sparse), KTEST_CASE(marks_follow_entries),
	KTEST_CASE(find_by_mark_skips_subtrees), KTEST_CASE(iterate_ranges_in_order),
	KTEST_CASE(value_entries), KTEST_CASE(reserved_entries_refused),
	KTEST_CASE(enomem_leaves_array_unchanged), KTEST_CASE(random_against_model),
	{}
};
KTEST_SUITE(xarray, xarray_cases);
