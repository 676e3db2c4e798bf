/*
 * xarray_test.c - lib/xarray.c on the host, under ASan/UBSan, its nodes from the real slab
 * allocator over a fake RAM (8 MiB): the in-kernel suite `xarray` (tests/ktest/xarray_ktest.c),
 * then what is too long or too host-specific for the boards: 100000 random operations against
 * the sorted-array model, every node allocation of 300 random stores failing in turn, 65536
 * entries erased in random order back to no node, xa_find by mark over 262144 entries stepping
 * through a handful of nodes, the nodes' slab cache, a bad mark warned about, xa_check() seeing
 * a broken root mark.  Shadow nodes: the 100000 random operations keep the shadow list; 20000
 * values reclaimed node by node off it down to no node; xa_check() seeing a wrong nr_values,
 * array or stray private_list; the shadow list's check seeing a missed unlink and a node
 * dropped behind its back; a callback that leaves a freed node listed warned about (and the
 * node unlinked); xa_delete_node() refusing a node with a pointer.  Every test boots the page
 * and slab allocators afresh.
 */
#include "test.h"
#include "tinymm/bug.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/xarray.h"

#include "../ktest/xarray_ktest.c"
#include "fake_ram.h"

#define MIB		(1UL << 20)
#define RAM_SIZE	(64 * MIB)
static char *ram;

static int group_setup(void **state)
{
	ram = fake_ram_alloc(RAM_SIZE);
	return ram ? 0 : -1;
}

static int group_teardown(void **state)
{
	free(ram);
	return 0;
}

/* Fresh page and slab allocators and node cache. */
static int setup(void **state)
{
	assert_int_equal(fake_ram_one_bank(__pa(ram), RAM_SIZE), 0);
	fake_ram_reserve_kernel(__pa(ram));
	assert_int_equal(memmap_init(), 0);
	assert_int_equal(page_alloc_init(), 0);
	kmem_cache_init();
	radix_tree_init();
	assert_int_equal(xa_nr_nodes(), 0);
	console_loglevel = 7;
	shim_console_reset();
	xa_alloc_fail_nth = 0;
	return 0;
}

static int pr(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vfprintf(stderr, fmt, ap);
	va_end(ap);
	return n;
}

static void ktest_suite_passes(void **state)
{
	char want[64];
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "xarray");

	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n",
		 ARRAY_SIZE(xarray_cases) - 1);
	assert_console_has(want);
	assert_int_equal(xa_nr_nodes(), 0);
}

static struct xm_ent big_ents[4096];

static void random_100k_against_model(void **state)
{
	struct xarray xa;
	struct xm m = { big_ents, 0, ARRAY_SIZE(big_ents) };

	xa_init(&xa);
	xa_set_update(&xa, xm_shadow_update);
	assert_int_equal(xm_random_run(&xa, &m, 100000, 0x2545f4914f6cdd1dULL, 100, 0, pr), 0);
	xa_destroy(&xa);
	assert_int_equal(xa_nr_nodes(), 0);
	assert_true(list_empty(&xm_shadow()->nodes));
	assert_int_equal(xm_shadow()->nr, 0);
}

/* 300 random stores into a random array of 500 entries, each failing at every node allocation
 * in turn until it succeeds: -ENOMEM, the array and the node count as they were. */
static void enomem_at_every_allocation(void **state)
{
	struct xarray xa;
	struct xm m = { big_ents, 0, ARRAY_SIZE(big_ents) };
	uint64_t seed = 12345;
	unsigned long failures = 0;
	bool full;

	xa_init(&xa);
	for (int i = 0; i < 500; i++) {
		unsigned long index = xm_index(xm_rand(&seed));
		void *e = xm_entry(xm_rand(&seed));
		xm_store(&m, index, e, &full);
		xa_store(&xa, index, e, GFP_KERNEL);
		xa_set_mark(&xa, index, i % 3);
		xm_mark(&m, index, i % 3, true);
	}
	assert_int_equal(xm_compare(&m, &xa, pr), 0);
	for (int i = 0; i < 300; i++) {
		unsigned long index = xm_index(xm_rand(&seed));
		void *e = xm_entry(xm_rand(&seed));
		for (unsigned int nth = 1;; nth++) {
			unsigned long nodes = xa_nr_nodes();
			xa_alloc_fail_nth = nth;
			void *r = xa_store(&xa, index, e, GFP_KERNEL);
			xa_alloc_fail_nth = 0;
			if (!xa_is_err(r)) {
				assert_ptr_equal(r, xm_store(&m, index, e, &full));
				break;
			}
			failures++;
			assert_int_equal(xa_err(r), -ENOMEM);
			assert_int_equal(xa_nr_nodes(), nodes);
			assert_int_equal(xa_check(&xa, pr), 0);
			assert_int_equal(xm_compare(&m, &xa, pr), 0);
			assert_true(nth < 2 * BITS_PER_LONG / 6 + 2);
		}
	}
	assert_int_equal(xm_compare(&m, &xa, pr), 0);
	assert_true(failures > 300);
	xa_destroy(&xa);
	assert_int_equal(xa_nr_nodes(), 0);
}

/* 65536 entries (a dense run and the random mix), erased in a random order: no node is left. */
static void erase_everything_frees_every_node(void **state)
{
	enum { N = 1 << 16 };
	unsigned long *idx = malloc(N * sizeof(*idx));
	struct xarray xa;
	uint64_t seed = 99;

	assert_non_null(idx);
	xa_init(&xa);
	for (unsigned long i = 0; i < N; i++) {
		idx[i] = i < N / 2 ? i : xm_index(xm_rand(&seed));
		xa_store(&xa, idx[i], xa_mk_value(i), GFP_KERNEL);
	}
	assert_int_equal(xa_check(&xa, pr), 0);
	for (unsigned long i = N - 1; i > 0; i--) {		/* Fisher-Yates */
		unsigned long j = xm_rand(&seed) % (i + 1), x = idx[i];
		idx[i] = idx[j];
		idx[j] = x;
	}
	for (unsigned long i = 0; i < N; i++) {
		xa_erase(&xa, idx[i]);
		if (i % (N / 8) == 0)
			assert_int_equal(xa_check(&xa, pr), 0);
	}
	assert_true(xa_empty(&xa));
	assert_int_equal(xa_nr_nodes(), 0);
	free(idx);
}

/* 262144 entries, 3 levels; a mark on the first and the last: a step per level up and down. */
static void find_marked_is_logarithmic(void **state)
{
	const unsigned long n = 1UL << 18;
	struct xarray xa;
	unsigned long index = 0, steps;

	xa_init(&xa);
	for (unsigned long i = 0; i < n; i++)
		xa_store(&xa, i, xa_mk_value(i), GFP_KERNEL);
	xa_set_mark(&xa, 0, XA_MARK_0);
	xa_set_mark(&xa, n - 1, XA_MARK_0);
	assert_ptr_equal(xa_find(&xa, &index, ~0UL, XA_MARK_0), xa_mk_value(0));
	steps = xa_find_steps;
	assert_ptr_equal(xa_find_after(&xa, &index, ~0UL, XA_MARK_0), xa_mk_value(n - 1));
	assert_int_equal(index, n - 1);
	assert_in_range(xa_find_steps - steps, 4, 8);		/* leaf, up 2, down 2 */
	xa_destroy(&xa);
	assert_int_equal(xa_nr_nodes(), 0);
}

/* Nodes come from "radix_tree_node" (the head is a tagged node pointer). */
static void nodes_come_from_their_cache(void **state)
{
	DEFINE_XARRAY(xa);

	xa_store(&xa, 1000, xa_mk_value(1), GFP_KERNEL);
	assert_int_equal(xa_nr_nodes(), 2);
	void *node = (char *)xa.xa_head - 2;
	assert_string_equal(slab_cache_name_of(virt_to_page(node)), "radix_tree_node");
	xa_destroy(&xa);
	assert_int_equal(xa_nr_nodes(), 0);
}

static void bad_mark_warns_and_does_nothing(void **state)
{
	DEFINE_XARRAY(xa);
	unsigned long warnings = nr_warnings(), index = 0;

	xa_store(&xa, 3, xa_mk_value(3), GFP_KERNEL);
	xa_set_mark(&xa, 3, 3);
	assert_false(xa_get_mark(&xa, 3, 3));
	assert_null(xa_find(&xa, &index, ~0UL, 5));
	assert_int_equal(xa.xa_flags, 0);
	assert_int_equal(nr_warnings(), warnings + 3);
	xa_destroy(&xa);
}

static void xa_check_sees_a_stray_root_mark(void **state)
{
	DEFINE_XARRAY(xa);

	assert_int_equal(xa_check(&xa, NULL), 0);
	xa.xa_flags |= XA_FLAGS_MARK(XA_MARK_1);
	assert_int_equal(xa_check(&xa, NULL), 1);
	xa.xa_flags = 0;
	for (unsigned long i = 0; i < 100; i++)
		xa_store(&xa, i * 100, xa_mk_value(i), GFP_KERNEL);
	xa_set_mark(&xa, 500, XA_MARK_0);
	assert_int_equal(xa_check(&xa, NULL), 0);
	xa.xa_flags &= ~XA_FLAGS_MARK(XA_MARK_0);
	assert_int_equal(xa_check(&xa, NULL), 1);
	xa.xa_flags |= XA_FLAGS_MARK(XA_MARK_0);
	xa_destroy(&xa);
}

/* 20000 values over 1 << 18 indices and 100 pointers: the shrinker's loop (take the oldest
 * shadow node off the list, xa_delete_node) leaves the pointers and the values beside them. */
static void shadow_nodes_reclaimed_to_nothing(void **state)
{
	DEFINE_XARRAY(xa);
	uint64_t seed = 7;
	unsigned long deleted = 0, ptrs = 0, index;
	void *entry;

	xa_set_update(&xa, xm_shadow_update);
	for (int i = 0; i < 20000; i++)
		xa_store(&xa, xm_rand(&seed) % (1UL << 18), xa_mk_value(i), GFP_KERNEL);
	for (unsigned long i = 0; i < 100; i++)
		xa_store(&xa, i * 2099, (void *)(i * 8 + 8), GFP_KERNEL);
	assert_int_equal(xm_shadow_check(&xa, pr), 0);
	assert_true(xm_shadow()->nr > 3000);
	while (!list_empty(&xm_shadow()->nodes)) {
		struct xa_node *node = list_first_entry(&xm_shadow()->nodes, struct xa_node,
							private_list);
		unsigned long nodes = xa_nr_nodes();
		list_del_init(&node->private_list);	/* as list_lru_isolate() */
		xm_shadow()->nr--;
		xa_delete_node(node);
		assert_true(xa_nr_nodes() < nodes);
		if (++deleted % 500 == 0) {
			assert_int_equal(xa_check(&xa, pr), 0);
			assert_int_equal(xm_shadow_check(&xa, pr), 0);
		}
	}
	xa_for_each(&xa, index, entry) {
		struct xa_node *leaf = xm_leaf(&xa, index);
		assert_true(leaf && leaf->nr_values < leaf->count);
		ptrs += !xa_is_value(entry);
	}
	assert_int_equal(ptrs, 100);
	assert_int_equal(xa_check(&xa, pr), 0);
	assert_int_equal(xm_shadow_check(&xa, pr), 0);
	xa_for_each(&xa, index, entry)
		xa_erase(&xa, index);
	assert_true(xa_empty(&xa));
	assert_int_equal(xa_nr_nodes(), 0);
}

static void xa_check_sees_wrong_shadow_fields(void **state)
{
	DEFINE_XARRAY(xa);
	DEFINE_XARRAY(other);
	LIST_HEAD(list);

	xa_store(&xa, 70, xa_mk_value(1), GFP_KERNEL);
	xa_store(&xa, 71, (void *)8, GFP_KERNEL);
	struct xa_node *leaf = xm_leaf(&xa, 70), *top = xa_to_node(xa.xa_head);
	assert_int_equal(xa_check(&xa, NULL), 0);
	leaf->nr_values = 2;
	assert_int_equal(xa_check(&xa, NULL), 1);
	leaf->nr_values = 1;
	top->nr_values = 1;				/* an inner node holds no values */
	assert_int_equal(xa_check(&xa, NULL), 1);
	top->nr_values = 0;
	leaf->array = &other;
	assert_int_equal(xa_check(&xa, NULL), 1);
	leaf->array = &xa;
	list_add(&leaf->private_list, &list);		/* listed, and no callback to unlist it */
	assert_int_equal(xa_check(&xa, NULL), 1);
	list_del_init(&leaf->private_list);
	assert_int_equal(xa_check(&xa, NULL), 0);
	xa_destroy(&xa);
}

/* The shadow list's own check fails: a leaf left listed after it gained a pointer (broken
 * callback), a listed leaf taken off behind the tracker's back. */
static void shadow_check_sees_a_wrong_list(void **state)
{
	DEFINE_XARRAY(xa);

	xa_set_update(&xa, xm_shadow_update);
	xa_store(&xa, 100, xa_mk_value(1), GFP_KERNEL);
	xa_store(&xa, 300, xa_mk_value(1), GFP_KERNEL);
	assert_int_equal(xm_shadow_check(&xa, pr), 0);
	assert_int_equal(xm_shadow()->nr, 2);
	xm_shadow()->broken = true;
	xa_store(&xa, 101, (void *)8, GFP_KERNEL);
	xm_shadow()->broken = false;
	assert_int_equal(xm_shadow_check(&xa, NULL), 2);	/* the leaf, and the list's length */
	assert_int_equal(xm_shadow_leaf_ok(xm_leaf(&xa, 100), NULL), 1);
	xa_store(&xa, 101, xa_mk_value(1), GFP_KERNEL);		/* right again */
	assert_int_equal(xm_shadow_check(&xa, pr), 0);
	struct xa_node *leaf = xm_leaf(&xa, 300);
	list_del_init(&leaf->private_list);			/* behind its back */
	assert_int_equal(xm_shadow_check(&xa, NULL), 2);	/* the leaf, and the list's length */
	list_add_tail(&leaf->private_list, &xm_shadow()->nodes);
	assert_int_equal(xm_shadow_check(&xa, pr), 0);
	xa_destroy(&xa);
	assert_true(list_empty(&xm_shadow()->nodes));
	assert_int_equal(xm_shadow_check(&xa, pr), 0);
}

static LIST_HEAD(sticky_list);

/* A callback that never unlists: freeing its node is warned about and the node unlinked. */
static void sticky_update(struct xa_node *node)
{
	if (list_empty(&node->private_list))
		list_add(&node->private_list, &sticky_list);
}

static void freed_node_left_listed_warns(void **state)
{
	DEFINE_XARRAY(xa);
	unsigned long warnings = nr_warnings();

	xa_set_update(&xa, sticky_update);
	xa_store(&xa, 5, xa_mk_value(5), GFP_KERNEL);
	xa_store(&xa, 500, xa_mk_value(5), GFP_KERNEL);
	assert_int_equal(nr_warnings(), warnings);
	xa_erase(&xa, 5);
	assert_int_equal(nr_warnings(), warnings + 1);
	assert_true(list_is_singular(&sticky_list));		/* 500's leaf only */
	xa_destroy(&xa);
	assert_int_equal(nr_warnings(), warnings + 2);
	assert_true(list_empty(&sticky_list));
	assert_int_equal(xa_nr_nodes(), 0);
}

/* xa_delete_node() of a leaf holding a pointer, or of an inner node: a warning, nothing done. */
static void delete_node_refuses_pointers(void **state)
{
	DEFINE_XARRAY(xa);
	unsigned long warnings = nr_warnings();

	xa_store(&xa, 70, xa_mk_value(1), GFP_KERNEL);
	xa_store(&xa, 71, (void *)8, GFP_KERNEL);
	xa_delete_node(xm_leaf(&xa, 70));
	xa_delete_node(xa_to_node(xa.xa_head));
	assert_int_equal(nr_warnings(), warnings + 2);
	assert_int_equal(xa_nr_nodes(), 2);
	assert_ptr_equal(xa_load(&xa, 70), xa_mk_value(1));
	assert_ptr_equal(xa_load(&xa, 71), (void *)8);
	assert_int_equal(xa_check(&xa, pr), 0);
	xa_destroy(&xa);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(ktest_suite_passes, setup),
		cmocka_unit_test_setup(random_100k_against_model, setup),
		cmocka_unit_test_setup(enomem_at_every_allocation, setup),
		cmocka_unit_test_setup(erase_everything_frees_every_node, setup),
		cmocka_unit_test_setup(find_marked_is_logarithmic, setup),
		cmocka_unit_test_setup(nodes_come_from_their_cache, setup),
		cmocka_unit_test_setup(bad_mark_warns_and_does_nothing, setup),
		cmocka_unit_test_setup(xa_check_sees_a_stray_root_mark, setup),
		cmocka_unit_test_setup(shadow_nodes_reclaimed_to_nothing, setup),
		cmocka_unit_test_setup(xa_check_sees_wrong_shadow_fields, setup),
		cmocka_unit_test_setup(shadow_check_sees_a_wrong_list, setup),
		cmocka_unit_test_setup(freed_node_left_listed_warns, setup),
		cmocka_unit_test_setup(delete_node_refuses_pointers, setup),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
