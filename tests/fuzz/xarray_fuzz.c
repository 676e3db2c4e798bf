/*
 * xarray_fuzz.c - libFuzzer target for lib/xarray.c: CTest fuzz.xarray; long runs: README.md.
 *
 * The page and slab allocators boot once over a fake RAM (64 MiB); each input drives one fresh
 * array and the sorted-array model of tests/ktest/xarray_model.h side by side.  The input, read
 * round and round for at least OPS_PER_INPUT operations, decodes to operations (op byte % 16):
 *   0-3   xa_store of a pointer or a value entry (now and then with a node allocation failing:
 *         then -ENOMEM, and the array must equal the model, node count unchanged)
 *   4, 5  xa_erase, or xa_store of NULL
 *   6, 7  xa_set_mark / 8 xa_clear_mark (mark = a byte % 3), then xa_get_mark
 *   9     xa_load and xa_get_mark of every mark
 *   10    xa_find, 11 xa_find_after (filter: XA_PRESENT or a mark; max: the index plus a byte
 *         or two, or ULONG_MAX)
 *   12    a walk over a range: xa_for_each_range, or by mark, up to 64 steps
 *   13    xa_destroy (the node count back to 0), rarely; or xa_delete_node of a node on the
 *         shadow list (taken off it first, as shadow_lru_isolate does, or not), its entries
 *         erased from the model; else a replace of a present entry
 *   14, 15 the same as 0-5 on an index of an entry already present
 * Indices: a byte (small), a power of 64 plus or minus a few (every level boundary of the word
 * size), ULONG_MAX minus a byte, one of the last 8 indices used, or 8 raw bytes.
 * The array's update callback is xm_shadow_update (xarray_model.h), which keeps the list of
 * all-values leaves as mm/workingset.c will; after every operation xm_shadow_check() holds it to
 * exactly the all-values leaves of the tree (nothing stale, nothing missing).
 * Every result is compared with the model; xa_check() after every operation; the whole array
 * (every entry and mark, the mark iterations) against the model every FULL_EVERY operations and
 * at the end, then xa_destroy() must bring the node count to 0.  A difference prints what and
 * where and aborts (libFuzzer keeps the input).
 *
 * XARRAY_FUZZ_BREAK=1 stores an entry behind the model's back at the end of every input (the
 * comparison must abort), =2 sets a root mark no entry carries (xa_check must abort): CTests
 * fuzz.xarray_model_mismatch_aborts and fuzz.xarray_broken_invariant_aborts.  =3 makes the
 * callback forget to unlist a leaf that gains a pointer (xm_shadow_check must abort).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/xarray.h"
#include "../ktest/xarray_model.h"
#include "fake_ram.h"
#include "fuzz_input.h"

#define MIB		(1UL << 20)
#define RAM_SIZE	(64 * MIB)
#define MODEL_CAP	2048
#define OPS_PER_INPUT	160
#define FULL_EVERY	32

static char *ram;
static struct xm_ent ents[MODEL_CAP];
static struct xm model = { ents, 0, MODEL_CAP };
static struct xarray xa;
static unsigned long recent[8], op_index;
static unsigned int nr_recent;
static unsigned long long total_ops, total_inputs, total_deletes;
static int break_mode;

static void __attribute__((noreturn)) fuzz_fail(int line, const char *what)
{
	fprintf(stderr, "xarray_fuzz: mismatch at %s:%d, operation %lu of the input: %s\n",
		__FILE__, line, op_index, what);
	fprintf(stderr, "%u entries in the model, %lu nodes; xa_check says:\n", model.nr,
		xa_nr_nodes());
	xa_check(&xa, eprintf);
	abort();
}
#define CHECK(cond)	do { if (!(cond)) fuzz_fail(__LINE__, #cond); } while (0)

static void report(void)
{
	fprintf(stderr, "xarray_fuzz: %llu operations in %llu inputs, %llu shadow nodes deleted\n",
		total_ops, total_inputs, total_deletes);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	break_mode = fuzz_break_mode("XARRAY_FUZZ_BREAK");
	ram = fake_ram_alloc(RAM_SIZE);
	if (!ram)
		abort();
	console_loglevel = 0;
	if (fake_ram_one_bank(__pa(ram), RAM_SIZE) || memmap_init() || page_alloc_init())
		abort();
	kmem_cache_init();
	radix_tree_init();
	xa_init(&xa);
	xa_set_update(&xa, xm_shadow_update);
	atexit(report);
	return 0;
}

static unsigned long index_from(struct input *in)
{
	unsigned int k = byte(in), levels = (BITS_PER_LONG + 5) / 6;
	unsigned long x = 0;

	switch (k % 8) {
	case 0: case 1:
		x = byte(in);
		break;
	case 2: case 3:
		x = (1UL << (6 * ((k >> 3) % levels))) + (unsigned long)((int)(byte(in) % 9) - 4);
		break;
	case 4:
		x = ~0UL - byte(in) % 64;
		break;
	case 5: case 6:
		x = nr_recent ? recent[(k >> 3) % (nr_recent < 8 ? nr_recent : 8)] : byte(in);
		break;
	default:
		for (unsigned int i = 0; i < sizeof(long); i++)
			x = x << 8 | byte(in);
		break;
	}
	recent[nr_recent++ % 8] = x;
	return x;
}

static unsigned long present_index(struct input *in)
{
	if (!model.nr)
		return index_from(in);
	unsigned int b = byte(in);
	return model.ents[(b << 8 | byte(in)) % model.nr].index;
}

static void *entry_from(struct input *in)
{
	unsigned long v = byte(in);

	v = v << 8 | byte(in);
	if (v & 1)
		return xa_mk_value(v >> 1);
	return (void *)((v << 3) | 4);		/* aligned, not NULL, never dereferenced */
}

static void store_op(struct input *in, unsigned long index)
{
	void *e = entry_from(in);
	unsigned int b = byte(in);
	bool full;

	if (model.nr == model.cap && !xm_get(&model, index))
		return;				/* the model is full */

	if (b % 8 == 0) {
		/* One node allocation fails: the first, second, ... of this store. */
		unsigned long nodes = xa_nr_nodes();
		xa_alloc_fail_nth = 1 + (b >> 3) % 24;
		void *r = xa_store(&xa, index, e, GFP_KERNEL);
		bool failed = xa_alloc_fail_nth == 0;
		xa_alloc_fail_nth = 0;
		if (xa_is_err(r)) {
			CHECK(failed && xa_err(r) == -ENOMEM);
			CHECK(xa_nr_nodes() == nodes);
			CHECK(xm_compare(&model, &xa, eprintf) == 0);
			return;
		}
		CHECK(r == xm_store(&model, index, e, &full) && !full);
		return;
	}
	void *old = xm_store(&model, index, e, &full);
	if (full)
		return;
	CHECK(xa_store(&xa, index, e, GFP_KERNEL) == old);
	CHECK(xa_load(&xa, index) == e);
}

static void erase_op(struct input *in, unsigned long index)
{
	bool full;
	void *old = xm_store(&model, index, NULL, &full);

	if (byte(in) & 1)
		CHECK(xa_erase(&xa, index) == old);
	else
		CHECK(xa_store(&xa, index, NULL, GFP_KERNEL) == old);
	CHECK(xa_load(&xa, index) == NULL);
	for (xa_mark_t m = 0; m <= XA_MARK_MAX; m++)
		CHECK(!xa_get_mark(&xa, index, m));
}

static void walk_op(struct input *in, unsigned long index)
{
	unsigned int b = byte(in);
	xa_mark_t filter = b & 4 ? XA_PRESENT : b % 3;
	unsigned long max = b & 8 ? ~0UL : index + (byte(in) << (b >> 4)), want = index, got;
	unsigned int n = 0;
	void *entry, *me;

	if (max < index)
		max = ~0UL;
	me = xm_find(&model, &want, max, filter);
	if (filter == XA_PRESENT) {
		xa_for_each_range(&xa, got, entry, index, max) {
			CHECK(entry == me && got == want);
			me = xm_find_after(&model, &want, max, filter);
			if (++n == 64)
				break;
		}
	} else {
		for (got = index, entry = xa_find(&xa, &got, max, filter); entry;
		     entry = xa_find_after(&xa, &got, max, filter)) {
			CHECK(entry == me && got == want);
			me = xm_find_after(&model, &want, max, filter);
			if (++n == 64)
				break;
		}
	}
	CHECK(n == 64 || !me);
}

/* shadow_lru_isolate(): one of the listed nodes, maybe unlisted first, deleted whole. */
static void delete_node_op(struct input *in)
{
	struct xm_shadow *s = xm_shadow();
	struct list_head *p = s->nodes.next;
	bool values;

	for (unsigned int k = byte(in) % s->nr; k; k--)
		p = p->next;
	struct xa_node *node = list_entry(p, struct xa_node, private_list);
	unsigned long first = xm_node_index(node), nodes = xa_nr_nodes();
	CHECK(!node->shift && node->array == &xa && xm_leaf(&xa, first) == node);
	CHECK(xm_erase_range(&model, first, first + XA_CHUNK_MASK, &values) == node->count && values);
	if (byte(in) & 1) {
		list_del_init(&node->private_list);
		s->nr--;
	}
	xa_delete_node(node);
	total_deletes++;
	CHECK(xa_nr_nodes() < nodes && !xm_leaf(&xa, first));
	CHECK(!xa_find(&xa, &first, first + XA_CHUNK_MASK, XA_PRESENT));
}

static void one_op(struct input *in)
{
	unsigned int op = byte(in) % 16, b;
	unsigned long index = op >= 14 ? present_index(in) : index_from(in), got, want, max;
	xa_mark_t mark;
	void *e;

	switch (op) {
	case 0: case 1: case 2: case 3:
		store_op(in, index);
		break;
	case 4: case 5:
		erase_op(in, index);
		break;
	case 6: case 7: case 8:
		mark = byte(in) % 3;
		xm_mark(&model, index, mark, op != 8);
		if (op == 8)
			xa_clear_mark(&xa, index, mark);
		else
			xa_set_mark(&xa, index, mark);
		CHECK(xa_get_mark(&xa, index, mark) == xm_get_mark(&model, index, mark));
		CHECK(xa_marked(&xa, mark) == !!xm_find(&model, &(unsigned long){ 0 }, ~0UL, mark));
		break;
	case 9:
		CHECK(xa_load(&xa, index) == xm_load(&model, index));
		for (mark = 0; mark <= XA_MARK_MAX; mark++)
			CHECK(xa_get_mark(&xa, index, mark) == xm_get_mark(&model, index, mark));
		break;
	case 10: case 11:
		b = byte(in);
		mark = b & 4 ? XA_PRESENT : b % 3;
		max = b & 8 ? ~0UL : index + (byte(in) << (b >> 4));
		got = want = index;
		if (op == 10) {
			e = xa_find(&xa, &got, max, mark);
			CHECK(e == xm_find(&model, &want, max, mark) && got == want);
		} else {
			e = xa_find_after(&xa, &got, max, mark);
			CHECK(e == xm_find_after(&model, &want, max, mark) && got == want);
		}
		break;
	case 12:
		walk_op(in, index);
		break;
	case 13:
		b = byte(in);
		if (b < 8) {
			xa_destroy(&xa);
			model.nr = 0;
			CHECK(xa_empty(&xa) && xa_nr_nodes() == 0 && !(xa.xa_flags & XA_FLAGS_MARKS));
			CHECK(list_empty(&xm_shadow()->nodes));
		} else if (b < 128 && xm_shadow()->nr) {
			delete_node_op(in);
		} else if (model.nr) {
			index = model.ents[b % model.nr].index;
			store_op(in, index);
		}
		break;
	default:
		if (byte(in) & 1)
			store_op(in, index);
		else
			erase_op(in, index);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size, 0, 0 };
	size_t ops = size < 2 ? 0 : max(size, (size_t)OPS_PER_INPUT);

	total_inputs++;
	nr_recent = 0;
	for (op_index = 0; op_index < ops; op_index++, total_ops++) {
		one_op(&in);
		CHECK(xa_check(&xa, eprintf) == 0);
		CHECK(xm_shadow_check(&xa, eprintf) == 0);
		if (op_index % FULL_EVERY == FULL_EVERY - 1)
			CHECK(xm_compare(&model, &xa, eprintf) == 0);
	}
	if (break_mode == 1) {
		bool full;
		xm_store(&model, 7, NULL, &full);
		xa_store(&xa, 7, xa_mk_value(7), GFP_KERNEL);	/* the model does not know */
	} else if (break_mode == 2) {
		for (unsigned int i = 0; i < model.nr; i++) {
			xa_clear_mark(&xa, model.ents[i].index, XA_MARK_2);
			model.ents[i].marks &= ~(1U << XA_MARK_2);
		}
		xa.xa_flags |= XA_FLAGS_MARK(XA_MARK_2);	/* and no entry carries it */
	} else if (break_mode == 3) {
		bool full;
		xa_destroy(&xa);
		model.nr = 0;
		xm_shadow()->broken = true;
		xm_store(&model, 7, xa_mk_value(7), &full);
		xa_store(&xa, 7, xa_mk_value(7), GFP_KERNEL);	/* listed */
		xm_store(&model, 8, (void *)8, &full);
		xa_store(&xa, 8, (void *)8, GFP_KERNEL);	/* and left listed */
		xm_shadow()->broken = false;
		CHECK(xm_shadow_check(&xa, eprintf) == 0);
	}
	CHECK(xa_check(&xa, eprintf) == 0);
	CHECK(xm_compare(&model, &xa, eprintf) == 0);
	xa_destroy(&xa);
	model.nr = 0;
	CHECK(xa_nr_nodes() == 0 && list_empty(&xm_shadow()->nodes) && !xm_shadow()->nr);
	return 0;
}
