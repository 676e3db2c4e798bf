/*
 * fdt_test.c - host tests for lib/fdt.c, checked against libfdt.
 *
 * Usage: fdt_test file.dtb...   (CTest passes QEMU's own DTBs; with no file the run fails.)
 *
 *  - differential: every node and property of each DTB (and of a packed and a v16 copy) is
 *    compared with libfdt: names, depths, parents, properties in order, paths, child/sibling
 *    links, cell counts, reg entries, compatible searches, the memreserve block.
 *  - hand-built blobs (libfdt's sequential-write API and a tiny token assembler below) cover
 *    memreserve entries, aliases, reg decoding and one named corruption per dt_open() check.
 *  - bogus offsets: every accessor on every offset of each DTB stays in bounds.
 *  - mutation: a fixed-seed PRNG derives 20000 corrupted blobs per DTB (and 2000 from its v16
 *    copy).  Each is copied into an exactly-sized malloc() buffer so ASan catches any overread.
 *    Whenever dt_open() accepts, every node and property is walked; when libfdt's
 *    fdt_check_full() accepts too, the differential comparison must hold: in full for every
 *    node, except that the checks costing a tree walk per call (dt_parent, dt_path, dt_reg,
 *    lookup by name, compatible searches) run for 2 PRNG-picked nodes / strings per mutant,
 *    to keep the run near 10 s.  FDT_TEST_FULL=1 runs them all (~100 s); FDT_TEST_VERBOSE=1
 *    prints the corruption messages and what libfdt accepts that dt_open() refuses.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -g -fsanitize=address,undefined
 *        -fno-sanitize-recover=all -Iinclude lib/fdt.c tests/host/fdt_test.c -lcmocka -lfdt
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "tinymm/fdt.h"

#define MUTATIONS	20000	/* per input DTB (the brief's floor) */
#define SEED		0x74696e796d6d0001ull

struct input {
	const char *path;
	uint8_t *data;
	size_t size;
};

static struct input inputs[16];
static int n_inputs;
static bool verbose;

/* What is being checked, for failure messages; the blob is dumped to a file on failure. */
static char ctx[160];
static const uint8_t *cur_blob;
static size_t cur_size;

static void dump_current(void)
{
	const char *name = "fdt_test-failure.dtb";
	FILE *f;

	if (!cur_blob || !(f = fopen(name, "wb")))
		return;
	fwrite(cur_blob, 1, cur_size, f);
	fclose(f);
	fprintf(stderr, "fdt_test: failing blob (%zu bytes) written to %s\n", cur_size, name);
}

#define CHECK(c)                                                                               \
	do {                                                                                   \
		if (!(c)) {                                                                    \
			dump_current();                                                        \
			fail_msg("%s: check failed: %s (line %d)", ctx, #c, __LINE__);         \
		}                                                                              \
	} while (0)

/* ---- small helpers ---- */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint8_t *dup_exact(const void *src, size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	assert_non_null(p);
	memcpy(p, src, n);
	return p;
}

/* Pack a blob (free space dropped) into an exactly-sized buffer; *size gets its length. */
static uint8_t *packed_copy(const void *blob, size_t *size)
{
	size_t cap = fdt_totalsize(blob) + 64;
	uint8_t *tmp = malloc(cap), *out;

	assert_non_null(tmp);
	assert_int_equal(fdt_open_into(blob, tmp, (int)cap), 0);
	assert_int_equal(fdt_pack(tmp), 0);
	*size = fdt_totalsize(tmp);
	out = dup_exact(tmp, *size);
	free(tmp);
	return out;
}

/* The same tree as a version-16 blob: no size_dt_struct, struct block runs to totalsize. */
static uint8_t *v16_copy(const uint8_t *packed, size_t size)
{
	uint8_t *p = dup_exact(packed, size);

	put32(p + 20, 16);
	put32(p + 24, 16);
	put32(p + 36, 0xdeadbeef);	/* not a header field in v16: must be ignored */
	return p;
}

/*
 * fdt_check_full(), but never on a blob of version < 16: libfdt 1.6.1 segfaults on some of
 * those (its pre-v16 name handling), and dt_open() refuses them anyway.
 */
static int libfdt_check(const uint8_t *blob, size_t size)
{
	if (size >= 24 && get32(blob + 20) < 16)
		return -FDT_ERR_BADVERSION;
	return fdt_check_full(blob, size);
}

/* ---- the differential comparison ---- */

/* #...-cells as dt_addr_cells()/dt_size_cells() define it, decoded from libfdt's view. */
static int want_cells(const void *fdt, int node, const char *name, int def)
{
	int len;
	const uint8_t *v = fdt_getprop(fdt, node, name, &len);

	if (!v)
		return def;
	if (len != 4 || get32(v) > 4)
		return -1;
	return (int)get32(v);
}

static uint64_t cells_by_hand(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 32 | get32(p + 4 * i);
	return v;
}

/*
 * Which of the checks that cost a walk of the tree per call (dt_parent, dt_path, dt_reg, one
 * compatible search) run: on real trees all of them; on a mutant every node still gets the
 * linear checks, but these only for @per items from a PRNG-chosen start, or 20000 mutants per
 * DTB would take minutes instead of seconds.
 */
struct sample {
	unsigned per;	/* 0: every item */
	unsigned salt;
};

static const struct sample ALL = { 0, 0 };

static bool picked(const struct sample *s, unsigned i, unsigned total)
{
	return s->per == 0 || total <= s->per || (i + s->salt) % (total / s->per) == 0;
}

static void compare_reg(const struct dt *dt, const void *fdt, int node, int parent)
{
	int len, ac, sc, n;
	const uint8_t *reg = fdt_getprop(fdt, node, "reg", &len);
	uint64_t a, s;

	CHECK(dt_reg(dt, node, -1, &a, &s) < 0);
	if (parent < 0 || !reg) {
		CHECK(dt_reg(dt, node, 0, &a, &s) == -1);
		return;
	}
	ac = want_cells(fdt, parent, "#address-cells", 2);
	sc = want_cells(fdt, parent, "#size-cells", 1);
	if (ac < 0 || sc < 0 || ac > 2 || sc > 2 || ac + sc == 0 || len % (4 * (ac + sc))) {
		CHECK(dt_reg(dt, node, 0, &a, &s) == -2);
		return;
	}
	n = len / (4 * (ac + sc));
	for (int i = 0; i < n; i++) {
		const uint8_t *e = reg + 4 * (ac + sc) * i;

		a = s = 0x5a5a5a5a5a5a5a5aull;
		CHECK(dt_reg(dt, node, i, &a, &s) == 0);
		CHECK(a == cells_by_hand(e, ac));
		CHECK(s == cells_by_hand(e + 4 * ac, sc));
	}
	CHECK(dt_reg(dt, node, n, NULL, NULL) == -1);
}

/* Every property in order; @lookup: also look each one up by name (quadratic in a node). */
static void compare_props(const struct dt *dt, const void *fdt, int node, bool lookup)
{
	int lp = fdt_first_property_offset(fdt, node), p = dt_first_prop(dt, node);

	for (; lp >= 0; lp = fdt_next_property_offset(fdt, lp), p = dt_next_prop(dt, p)) {
		const char *lname, *name = NULL;
		int llen, len = -7;
		const void *lval = fdt_getprop_by_offset(fdt, lp, &lname, &llen);
		const void *val = dt_prop_at(dt, p, &name, &len);

		CHECK(p == lp);
		CHECK(lval && val && name);
		CHECK(strcmp(name, lname) == 0);
		CHECK(len == llen);
		CHECK(val == lval);
		/* Lookup by name finds the first property of that name, as libfdt's does. */
		if (lookup) {
			CHECK(dt_getprop(dt, node, name, &len) == fdt_getprop(fdt, node, name, &llen));
			CHECK(len == llen);
		}
	}
	CHECK(p < 0);
	CHECK(dt_getprop(dt, node, "no-such-property,really", &p) == NULL && p == -1);
}

/* First child and next sibling of every node: together they fix the whole tree's shape. */
static void compare_links(const struct dt *dt, const void *fdt, int node)
{
	int lc = fdt_first_subnode(fdt, node), c = dt_first_child(dt, node);
	int ls = fdt_next_subnode(fdt, node), s = dt_next_sibling(dt, node);

	CHECK(lc >= 0 ? c == lc : c < 0);
	CHECK(ls >= 0 ? s == ls : s < 0);
}

/*
 * libfdt's fdt_stringlist_contains() compares one byte past the end of the list, so it "finds"
 * an unterminated last string, and "" in every list: compare only terminated lists and
 * non-empty strings.
 */
static bool compat_lists_sane(const void *fdt)
{
	for (int n = 0; n >= 0; n = fdt_next_node(fdt, n, NULL)) {
		int len;
		const char *v = fdt_getprop(fdt, n, "compatible", &len);

		if (v && len > 0 && v[len - 1] != '\0')
			return false;
	}
	return true;
}

/* dt_find_compatible() visits the same nodes as fdt_node_offset_by_compatible(). */
static void compare_compatible(const struct dt *dt, const void *fdt, const struct sample *sam)
{
	static const char *seen[1024];
	unsigned n_seen = 0;

	for (int n = 0; n >= 0; n = fdt_next_node(fdt, n, NULL)) {
		int len, i = 0;
		const char *v = fdt_getprop(fdt, n, "compatible", &len);

		for (; v && i < len; i += (int)strlen(v + i) + 1) {
			unsigned k = 0;

			if (v[i] == '\0')
				continue;
			while (k < n_seen && strcmp(seen[k], v + i) != 0)
				k++;
			if (k == n_seen && n_seen < 1024)
				seen[n_seen++] = v + i;
		}
	}
	for (unsigned k = 0; k < n_seen; k++) {
		int l, m;

		if (!picked(sam, k, n_seen))
			continue;
		l = fdt_node_offset_by_compatible(fdt, -1, seen[k]);
		m = dt_find_compatible(dt, -1, seen[k]);
		for (; l >= 0; l = fdt_node_offset_by_compatible(fdt, l, seen[k])) {
			CHECK(m == l);
			CHECK(dt_is_compatible(dt, m, seen[k]));
			m = dt_find_compatible(dt, m, seen[k]);
		}
		CHECK(m < 0);
	}
}

static void compare_aliases(const struct dt *dt, const void *fdt)
{
	int aliases = fdt_path_offset(fdt, "/aliases"), p;
	char buf[512];

	if (aliases < 0)
		return;
	fdt_for_each_property_offset(p, fdt, aliases) {
		const char *name;
		int len;
		const char *v = fdt_getprop_by_offset(fdt, p, &name, &len);

		/* libfdt follows any value with strlen() (and chains relative ones): skip those. */
		if (!v || len <= 0 || v[0] != '/' || !memchr(v, '\0', (size_t)len) ||
		    strlen(name) + 16 > sizeof(buf))
			continue;
		CHECK(dt_path(dt, name, strlen(name)) == fdt_path_offset(fdt, name));
		snprintf(buf, sizeof(buf), "%s:opts", name);
		CHECK(dt_path(dt, buf, strlen(name)) == fdt_path_offset(fdt, name));
	}
}

static void compare_memreserve(const struct dt *dt, const void *fdt)
{
	int n = fdt_num_mem_rsv(fdt);
	uint64_t a, s, la, ls;

	CHECK(n >= 0 && dt->nr_rsv == (uint32_t)n);
	for (int i = 0; i < n; i++) {
		CHECK(fdt_get_mem_rsv(fdt, i, &la, &ls) == 0);
		CHECK(dt_memreserve(dt, i, &a, &s) == 0);
		CHECK(a == la && s == ls);
	}
	CHECK(dt_memreserve(dt, n, &a, &s) == -1);
	CHECK(dt_memreserve(dt, -1, &a, &s) == -1);
}

static void compare_header(const struct dt *dt, const void *fdt)
{
	CHECK(dt->blob == fdt);
	CHECK(dt->totalsize == fdt_totalsize(fdt));
	CHECK(dt->off_struct == fdt_off_dt_struct(fdt));
	CHECK(dt->off_strings == fdt_off_dt_strings(fdt));
	CHECK(dt->size_strings == fdt_size_dt_strings(fdt));
	CHECK(dt->off_rsvmap == fdt_off_mem_rsvmap(fdt));
	CHECK(dt->version == fdt_version(fdt));
	CHECK(dt->last_comp_version == fdt_last_comp_version(fdt));
	CHECK(dt->boot_cpuid == fdt_boot_cpuid_phys(fdt));
	if (dt->version >= 17)
		CHECK(dt->size_struct == fdt_size_dt_struct(fdt));
	CHECK(dt_root(dt) == 0);
	CHECK(dt_peek_totalsize(fdt) == fdt_totalsize(fdt));
}

static unsigned count_nodes(const void *fdt)
{
	unsigned n = 0;

	for (int node = 0; node >= 0; node = fdt_next_node(fdt, node, NULL))
		n++;
	return n;
}

/*
 * Compare everything dt_* reports with libfdt, walking both trees in parallel.  @pristine: a
 * real tree, so each node's full path must lead back to that very node (mutants may have
 * duplicate names; then both parsers must at least agree on which node a path finds).
 */
static void compare_all(const struct dt *dt, const void *fdt, bool pristine,
			const struct sample *sam)
{
	static char path[1 << 16];
	size_t plen[64];
	int parent[64], node = 0, depth = 0, lnode = 0, ldepth = 0;
	unsigned index = 0, total = count_nodes(fdt);

	compare_header(dt, fdt);
	compare_memreserve(dt, fdt);
	for (; lnode >= 0 && ldepth >= 0; index++, lnode = fdt_next_node(fdt, lnode, &ldepth),
					  node = dt_next_node(dt, node, &depth)) {
		int llen, lpath, up;
		const char *lname = fdt_get_name(fdt, lnode, &llen), *name;
		bool deep;
		size_t at;

		CHECK(node == lnode && depth == ldepth && depth < 64);
		parent[depth] = node;
		up = depth ? parent[depth - 1] : -1;
		name = dt_node_name(dt, node);
		CHECK(name && lname && strcmp(name, lname) == 0 && strlen(name) == (size_t)llen);
		deep = picked(sam, index, total);
		compare_props(dt, fdt, node, deep);
		compare_links(dt, fdt, node);
		CHECK(dt_addr_cells(dt, node) == want_cells(fdt, node, "#address-cells", 2));
		CHECK(dt_size_cells(dt, node) == want_cells(fdt, node, "#size-cells", 1));

		/* path[0..plen[depth]) is this node's path ("" for the root). */
		at = depth ? plen[depth - 1] : 0;
		if (at + (size_t)llen + 2 >= sizeof(path))
			at = 0;	/* absurd mutant: the path is wrong, but both must still agree */
		path[at] = '/';
		memcpy(path + at + 1, name, (size_t)llen + 1);
		plen[depth] = depth ? at + 1 + (size_t)llen : 0;
		if (!deep)
			continue;
		CHECK(dt_parent(dt, node) == up);
		CHECK(up < 0 || fdt_parent_offset(fdt, node) == up);
		compare_reg(dt, fdt, node, up);
		if (!depth)
			path[1] = '\0';
		lpath = fdt_path_offset(fdt, path);
		CHECK(dt_path(dt, path, SIZE_MAX) == (lpath >= 0 ? lpath : -1));
		CHECK(!pristine || lpath == node);
		/* @len cuts the path exactly, as for stdout-path's "serial0:115200n8". */
		path[strlen(path)] = ':';
		CHECK(dt_path(dt, path, plen[depth] ? plen[depth] : 1) == (lpath >= 0 ? lpath : -1));
		path[plen[depth] ? plen[depth] : 1] = '\0';
	}
	CHECK(node < 0 && index == total);
	if (compat_lists_sane(fdt))
		compare_compatible(dt, fdt, sam);
	compare_aliases(dt, fdt);
}

/*
 * Exercise every accessor on every node and property of a blob only dt_open() accepts.  The
 * blob sits in an exactly-sized buffer, so ASan reports any read past it; walks must end.
 */
static unsigned long walk_everything(const struct dt *dt)
{
	unsigned long sum = 0, steps = 0, limit = dt->size_struct / 4 + 2;
	int node = 0, depth = 0;
	uint64_t a, s;

	for (uint32_t i = 0; i <= dt->nr_rsv; i++)
		sum += (unsigned long)dt_memreserve(dt, (int)i, &a, &s) + a;
	for (; node >= 0; node = dt_next_node(dt, node, &depth)) {
		const char *name = dt_node_name(dt, node), *pname;
		int len, c;

		CHECK(++steps <= limit && name && depth >= 0 && depth < 64);
		sum += strlen(name);
		for (int p = dt_first_prop(dt, node); p >= 0; p = dt_next_prop(dt, p)) {
			const uint8_t *v = dt_prop_at(dt, p, &pname, &len);

			CHECK(++steps <= limit && v && len >= 0);
			sum += strlen(pname);
			for (int i = 0; i < len; i++)
				sum += v[i];
			sum += dt_getprop(dt, node, pname, &len) != NULL;
			sum += dt_getprop_str(dt, node, pname) != NULL;
			sum += dt_getprop_u32(dt, node, pname, 0);
		}
		for (int i = 0; dt_reg(dt, node, i, &a, &s) == 0; i++)
			sum += a + s;
		for (c = dt_first_child(dt, node); c >= 0; c = dt_next_sibling(dt, c))
			CHECK(dt_parent(dt, c) == node);
		sum += (unsigned long)(dt_addr_cells(dt, node) + dt_size_cells(dt, node));
		sum += dt_is_compatible(dt, node, "virtio,mmio");
		CHECK((node == 0) == (dt_parent(dt, node) < 0));
	}
	sum += (unsigned long)dt_find_compatible(dt, -1, "ns16550a");
	sum += (unsigned long)dt_path(dt, "/soc/serial", SIZE_MAX);
	sum += (unsigned long)dt_path(dt, "serial0/x", SIZE_MAX);
	return sum;
}

/*
 * Open @blob (exactly @size bytes) with both parsers.  Returns 0 if dt_open() refuses it, 1 if
 * only dt_open() accepts it (then everything is walked), 2 if both do (then compared).
 */
static int check_blob(const uint8_t *blob, size_t size, bool pristine, const struct sample *sam,
		      char *err)
{
	struct dt dt;
	int rc = dt_open(&dt, blob, size, err);

	cur_blob = blob;
	cur_size = size;
	if (rc != 0) {
		CHECK(rc == -1 && err[0] != '\0' && strlen(err) < DT_ERR_MAX);
		CHECK(!strchr(err, '\n'));
		/* A failed open leaves a dt that every accessor refuses. */
		CHECK(dt.blob == NULL && dt_next_node(&dt, 0, NULL) < 0 && !dt_node_name(&dt, 0));
		CHECK(dt_path(&dt, "/", 1) < 0 && dt_memreserve(&dt, 0, NULL, NULL) < 0);
		return 0;
	}
	if (libfdt_check(blob, size) != 0) {
		walk_everything(&dt);
		return 1;
	}
	compare_all(&dt, blob, pristine, sam);
	return 2;
}

/* ---- tests on the DTBs given on the command line ---- */

static void test_inputs_given(void **state)
{
	(void)state;
	if (n_inputs == 0)
		fail_msg("no DTB given: usage: fdt_test file.dtb... (refusing to pass vacuously)");
}

static void test_differential(void **state)
{
	char err[DT_ERR_MAX];

	(void)state;
	for (int i = 0; i < n_inputs; i++) {
		size_t psize;
		uint8_t *packed = packed_copy(inputs[i].data, &psize), *v16;
		struct dt dt;

		snprintf(ctx, sizeof(ctx), "%s (as given)", inputs[i].path);
		cur_blob = inputs[i].data;
		cur_size = inputs[i].size;
		CHECK(fdt_check_full(inputs[i].data, inputs[i].size) == 0);
		if (dt_open(&dt, inputs[i].data, inputs[i].size, err) != 0)
			fail_msg("%s: dt_open: %s", ctx, err);
		compare_all(&dt, inputs[i].data, true, &ALL);

		snprintf(ctx, sizeof(ctx), "%s (packed)", inputs[i].path);
		CHECK(check_blob(packed, psize, true, &ALL, err) == 2);
		snprintf(ctx, sizeof(ctx), "%s (as v16)", inputs[i].path);
		v16 = v16_copy(packed, psize);
		CHECK(check_blob(v16, psize, true, &ALL, err) == 2);
		CHECK(dt_open(&dt, v16, psize, err) == 0);
		CHECK(dt.size_struct == fdt_size_dt_struct(packed));
		free(v16);
		free(packed);
	}
}

/*
 * Every accessor given every offset, aligned or not, in range or not.  Only a word that reads as
 * a BEGIN_NODE (or PROP) token may get an answer other than < 0 / NULL; if it is not a real
 * node, e.g. a value <1> inside some property, the answer is bounded nonsense, but dt_parent()
 * (which walks the real tree) must still refuse it.
 */
static void test_bogus_offsets(void **state)
{
	char err[DT_ERR_MAX];

	(void)state;
	for (int i = 0; i < n_inputs; i++) {
		size_t size;
		uint8_t *blob = packed_copy(inputs[i].data, &size), *real;
		unsigned long fake = 0, sum = 0;
		struct dt dt;

		snprintf(ctx, sizeof(ctx), "%s (bogus offsets)", inputs[i].path);
		cur_blob = blob;
		cur_size = size;
		CHECK(dt_open(&dt, blob, size, err) == 0);
		real = calloc(dt.size_struct, 1);
		assert_non_null(real);
		for (int n = 0; n >= 0; n = fdt_next_node(blob, n, NULL))
			real[n] = 1;
		for (int off = -9; off < (int)dt.size_struct + 9; off++) {
			bool in = off >= 0 && off % 4 == 0 && off < (int)dt.size_struct;
			uint32_t word = in ? get32(blob + dt.off_struct + off) : 0;
			const char *name, *n = dt_node_name(&dt, off);
			int len, d = 0;
			uint64_t a, s;

			if (word != 1) {
				CHECK(!n && dt_first_prop(&dt, off) < 0 && dt_first_child(&dt, off) < 0);
				CHECK(dt_next_sibling(&dt, off) < 0 && dt_next_node(&dt, off, &d) < 0);
				CHECK(dt_parent(&dt, off) < 0 && dt_reg(&dt, off, 0, &a, &s) < 0);
				CHECK(dt_addr_cells(&dt, off) < 0 && dt_size_cells(&dt, off) < 0);
				CHECK(!dt_getprop(&dt, off, "reg", &len) && !dt_is_compatible(&dt, off, ""));
				/* (a negative @from means "from the start") */
				CHECK(off < 0 || dt_find_compatible(&dt, off, "virtio,mmio") < 0);
			} else if (!real[off]) {
				fake++;
				CHECK(dt_parent(&dt, off) < 0 && dt_reg(&dt, off, 0, &a, &s) < 0);
				sum += n ? strlen(n) : 0;
				sum += (unsigned long)dt_first_prop(&dt, off);
				sum += (unsigned long)(dt_first_child(&dt, off) + dt_next_sibling(&dt, off));
				sum += (unsigned long)dt_next_node(&dt, off, &d);
				sum += (unsigned long)(dt_addr_cells(&dt, off) + dt_size_cells(&dt, off));
				sum += dt_getprop_u32(&dt, off, "reg", 1) + dt_is_compatible(&dt, off, "x");
				sum += (unsigned long)dt_find_compatible(&dt, off, "virtio,mmio");
			} else {
				CHECK(n && strcmp(n, fdt_get_name(blob, off, NULL)) == 0);
			}
			if (word != 3) {
				CHECK(dt_next_prop(&dt, off) < 0 && !dt_prop_at(&dt, off, &name, &len));
			} else if (dt_prop_at(&dt, off, &name, &len)) {
				sum += strlen(name) + (unsigned long)len;
				sum += (unsigned long)dt_next_prop(&dt, off);
			}
		}
		if (verbose)
			printf("  %s: %lu words inside values read as BEGIN_NODE (sum %lu)\n",
			       inputs[i].path, fake, sum);
		free(real);
		free(blob);
	}
}

/* ---- mutation ---- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(uint64_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

/* Values that sit on the boundaries dt_open() checks. */
static uint32_t interesting(uint32_t old, size_t size)
{
	static const uint32_t fixed[] = { 0, 1, 2, 3, 4, 8, 9, 16, 17, 0x28, 0x38, 0x40, 0x7fffffff,
					  0x80000000, 0xfffffffc, 0xffffffff, 0xd00dfeed };

	switch (below(6)) {
	case 0:
		return fixed[below(sizeof(fixed) / sizeof(fixed[0]))];
	case 1:
		return (uint32_t)size + below(9) - 4;
	case 2:
		return old + below(17) - 8;
	case 3:
		return below(size + 16);
	case 4:
		return old ^ (1u << below(32));
	default:
		return (uint32_t)rnd();
	}
}

/* Block layout of the unmutated blob, so mutations aim at the struct and strings blocks. */
struct layout {
	uint32_t soff, ssize, stroff, strsize;
};

/* Apply 2-3 random corruptions to buf[0..*size); may shrink *size. */
static void mutate(uint8_t *buf, size_t *size, const struct layout *l)
{
	uint32_t soff = l->soff, ssize = l->ssize, stroff = l->stroff, strsize = l->strsize;

	for (int n = 2 + (int)below(2); n > 0; n--) {
		size_t at;

		switch (below(8)) {
		case 0:	/* bit flip anywhere */
			at = below(*size);
			buf[at] ^= (uint8_t)(1u << below(8));
			break;
		case 1:	/* header field */
			at = 4 * below(10);
			if (at + 4 <= *size)
				put32(buf + at, interesting(get32(buf + at), *size));
			break;
		case 2:	/* struct block word */
		case 3:
			at = soff + 4 * below(ssize / 4);
			if (at + 4 <= *size)
				put32(buf + at, below(3) ? interesting(get32(buf + at), *size)
							 : 1 + below(9));
			break;
		case 4:	/* strings block byte */
			at = stroff + below(strsize);
			if (at < *size)
				buf[at] = below(2) ? 0 : (uint8_t)rnd();
			break;
		case 5:	/* truncate, keeping or fixing totalsize */
			*size = below(*size);
			if (below(2) && *size >= 8)
				put32(buf + 4, (uint32_t)*size);
			break;
		case 6:	/* totalsize or a block's offset or size: what dt_open() trusts least */
			at = (size_t[]){ 4, 8, 12, 16, 32, 36 }[below(6)];
			if (at + 4 <= *size)
				put32(buf + at, interesting(get32(buf + at), *size));
			break;
		default: /* a token where a token may be: turns nodes and properties into others */
			at = soff + 4 * below(ssize / 4);
			if (at + 4 <= *size && get32(buf + at) >= 1 && get32(buf + at) <= 9)
				put32(buf + at, 1 + below(4));
			break;
		}
		if (*size == 0)
			return;
	}
}

static void mutate_input(const char *label, const uint8_t *base, size_t size,
			 const struct layout *l, int count, uint64_t seed)
{
	unsigned long stat[3] = { 0, 0, 0 }, lib_only = 0;
	/* FDT_TEST_FULL=1: every check on every node of every mutant (about 2x slower). */
	struct sample sam = { getenv("FDT_TEST_FULL") ? 0 : 2, 0 };
	uint8_t *work = malloc(size);
	char err[DT_ERR_MAX];

	assert_non_null(work);
	rng = seed;
	for (int i = 0; i < count; i++) {
		size_t n = size;
		uint8_t *exact;
		int r;

		memcpy(work, base, size);
		mutate(work, &n, l);
		exact = dup_exact(work, n);
		snprintf(ctx, sizeof(ctx), "%s mutation %d (seed %#llx)", label, i,
			 (unsigned long long)seed);
		sam.salt = (unsigned)rnd();
		r = check_blob(exact, n, false, &sam, err);
		stat[r]++;
		if (r == 1 && verbose)
			printf("    dt_open-only (libfdt: %s)\n", fdt_strerror(libfdt_check(exact, n)));
		if (r == 0 && libfdt_check(exact, n) == 0) {
			lib_only++;
			if (verbose)
				printf("    libfdt-only: %s\n", err);
		}
		free(exact);
	}
	free(work);
	printf("  %s: %d mutants: %lu rejected (%lu of them accepted by libfdt), "
	       "%lu accepted by dt_open only, %lu compared with libfdt\n",
	       label, count, stat[0], lib_only, stat[1], stat[2]);
	/* The differential part must not be vacuous, nor the rejection part. */
	CHECK(stat[2] > (unsigned long)count / 20 && stat[0] > (unsigned long)count / 4);
}

static void test_mutations(void **state)
{
	/* FDT_TEST_MUTATIONS may raise the count, never lower it below the floor. */
	const char *env = getenv("FDT_TEST_MUTATIONS");
	int count = env && atoi(env) > MUTATIONS ? atoi(env) : MUTATIONS;

	(void)state;
	for (int i = 0; i < n_inputs; i++) {
		size_t size;
		uint8_t *packed = packed_copy(inputs[i].data, &size), *v16;
		struct layout l = { fdt_off_dt_struct(packed), fdt_size_dt_struct(packed),
				    fdt_off_dt_strings(packed), fdt_size_dt_strings(packed) };
		char label[128];

		snprintf(label, sizeof(label), "%s", inputs[i].path);
		mutate_input(label, packed, size, &l, count, SEED + (uint64_t)i);
		v16 = v16_copy(packed, size);
		snprintf(label, sizeof(label), "%s (v16)", inputs[i].path);
		mutate_input(label, v16, size, &l, count / 10, SEED + 0x100 + (uint64_t)i);
		free(v16);
		free(packed);
	}
}

/* ---- hand-built blobs: libfdt's sequential-write API ---- */

static const uint32_t mem_reg[] = { 0, 0x80, 0, 0x4000000, 0x1, 0, 0, 0x1000 };

/* A small tree with memreserve entries, aliases and buses of different cell sizes. */
static uint8_t *build_sw(size_t *size)
{
	static uint8_t buf[4096];
	fdt32_t reg[8];

#define OK(x) assert_int_equal((x), 0)
	OK(fdt_create(buf, sizeof(buf)));
	OK(fdt_add_reservemap_entry(buf, 0x80000000, 0x10000));
	OK(fdt_add_reservemap_entry(buf, 0x123456789abcdef0ull, 0x1000));
	OK(fdt_finish_reservemap(buf));
	OK(fdt_begin_node(buf, ""));
	OK(fdt_property_u32(buf, "#address-cells", 2));
	OK(fdt_property_u32(buf, "#size-cells", 2));
	OK(fdt_property_string(buf, "compatible", "tinymm,test"));
	OK(fdt_begin_node(buf, "aliases"));
	OK(fdt_property_string(buf, "serial0", "/soc/uart@1000"));
	OK(fdt_property_string(buf, "bus", "/soc"));
	OK(fdt_property_string(buf, "relative", "soc"));
	OK(fdt_property(buf, "unterminated", "/soc", 4));
	OK(fdt_end_node(buf));
	OK(fdt_begin_node(buf, "chosen"));
	OK(fdt_property_string(buf, "stdout-path", "serial0:115200n8"));
	OK(fdt_end_node(buf));
	OK(fdt_begin_node(buf, "memory@80000000"));
	OK(fdt_property_string(buf, "device_type", "memory"));
	for (int i = 0; i < 8; i++)
		reg[i] = cpu_to_fdt32(mem_reg[i]);
	OK(fdt_property(buf, "reg", reg, sizeof(reg)));
	OK(fdt_end_node(buf));
	OK(fdt_begin_node(buf, "cpus"));
	OK(fdt_property_u32(buf, "#address-cells", 1));
	OK(fdt_property_u32(buf, "#size-cells", 0));
	OK(fdt_begin_node(buf, "cpu@3"));
	OK(fdt_property_u32(buf, "reg", 3));
	OK(fdt_end_node(buf));
	OK(fdt_end_node(buf));
	OK(fdt_begin_node(buf, "soc"));
	OK(fdt_property_u32(buf, "#address-cells", 1));
	OK(fdt_property_u32(buf, "#size-cells", 1));
	OK(fdt_property_string(buf, "compatible", "simple-bus"));
	OK(fdt_begin_node(buf, "uart@1000"));
	OK(fdt_property(buf, "compatible", "ns16550a\0tinymm,uart", 21));
	OK(fdt_property_cell(buf, "reg", 0x1000));	/* no size cell: malformed */
	OK(fdt_end_node(buf));
	OK(fdt_begin_node(buf, "uart@2000"));
	OK(fdt_property_string(buf, "compatible", "tinymm,uart"));
	reg[0] = cpu_to_fdt32(0x2000);
	reg[1] = cpu_to_fdt32(0x100);
	reg[2] = cpu_to_fdt32(0x3000);
	reg[3] = cpu_to_fdt32(0x10);
	OK(fdt_property(buf, "reg", reg, 16));
	OK(fdt_property(buf, "odd", "ab", 2));
	OK(fdt_end_node(buf));
	OK(fdt_begin_node(buf, "wide"));
	OK(fdt_property_u32(buf, "#address-cells", 3));
	OK(fdt_property_u32(buf, "#size-cells", 7));
	OK(fdt_begin_node(buf, "dev@0"));
	OK(fdt_property_u32(buf, "reg", 0));
	OK(fdt_end_node(buf));
	OK(fdt_end_node(buf));
	OK(fdt_begin_node(buf, "empty"));
	OK(fdt_end_node(buf));
	OK(fdt_end_node(buf));	/* soc */
	OK(fdt_end_node(buf));	/* root */
	OK(fdt_finish(buf));
#undef OK
	*size = fdt_totalsize(buf);
	return dup_exact(buf, *size);
}

static void test_sw_blob(void **state)
{
	char err[DT_ERR_MAX];
	size_t size;
	uint8_t *blob = build_sw(&size);
	struct dt dt;
	uint64_t a, s;
	int uart1, uart2, soc, mem, cpu, dev, chosen;
	const char *sp;

	(void)state;
	snprintf(ctx, sizeof(ctx), "sequential-write blob");
	cur_blob = blob;
	cur_size = size;
	CHECK(check_blob(blob, size, true, &ALL, err) == 2);
	CHECK(dt_open(&dt, blob, size, err) == 0);
	/* memreserve, by hand and against libfdt (compare_all did the latter too) */
	CHECK(dt.nr_rsv == 2 && fdt_num_mem_rsv(blob) == 2);
	CHECK(dt_memreserve(&dt, 0, &a, &s) == 0 && a == 0x80000000 && s == 0x10000);
	CHECK(dt_memreserve(&dt, 1, &a, &s) == 0 && a == 0x123456789abcdef0ull && s == 0x1000);
	CHECK(dt_memreserve(&dt, 2, &a, &s) == -1);

	soc = fdt_path_offset(blob, "/soc");
	uart1 = fdt_path_offset(blob, "/soc/uart@1000");
	uart2 = fdt_path_offset(blob, "/soc/uart@2000");
	mem = fdt_path_offset(blob, "/memory@80000000");
	cpu = fdt_path_offset(blob, "/cpus/cpu@3");
	dev = fdt_path_offset(blob, "/soc/wide/dev@0");
	chosen = fdt_path_offset(blob, "/chosen");
	CHECK(soc > 0 && uart1 > 0 && uart2 > 0 && mem > 0 && cpu > 0 && dev > 0 && chosen > 0);

	/* paths and aliases */
	CHECK(dt_path(&dt, "/", 1) == 0 && dt_path(&dt, "/", SIZE_MAX) == 0);
	CHECK(dt_path(&dt, "", 0) < 0 && dt_path(&dt, "", 5) < 0 && dt_path(&dt, NULL, 5) < 0);
	CHECK(dt_path(&dt, "serial0", SIZE_MAX) == uart1);
	CHECK(fdt_path_offset(blob, "serial0") == uart1);
	sp = dt_getprop_str(&dt, chosen, "stdout-path");
	CHECK(sp && strcmp(sp, "serial0:115200n8") == 0);
	CHECK(dt_path(&dt, sp, (size_t)(strchr(sp, ':') - sp)) == uart1);
	CHECK(dt_path(&dt, sp, SIZE_MAX) < 0);	/* "serial0:115200n8" is no alias */
	CHECK(dt_path(&dt, "bus/uart@2000", SIZE_MAX) == uart2);
	CHECK(dt_path(&dt, "bus/uart", SIZE_MAX) == uart1);	/* first match, as libfdt */
	CHECK(fdt_path_offset(blob, "bus/uart") == uart1);
	CHECK(dt_path(&dt, "bus//wide/dev@0/", SIZE_MAX) == dev);
	CHECK(dt_path(&dt, "relative", SIZE_MAX) < 0);	/* no alias chains */
	CHECK(dt_path(&dt, "unterminated", SIZE_MAX) < 0);
	CHECK(dt_path(&dt, "serial", SIZE_MAX) < 0 && dt_path(&dt, "serial0x", SIZE_MAX) < 0);
	CHECK(dt_path(&dt, "//soc///uart@2000//", SIZE_MAX) == uart2);
	CHECK(dt_path(&dt, "/soc/uart@1000", 4) == soc);
	CHECK(dt_path(&dt, "/soc/uart@1", SIZE_MAX) < 0);
	CHECK(dt_path(&dt, "/memory", SIZE_MAX) == mem);
	CHECK(dt_path(&dt, "/memory@", SIZE_MAX) < 0);
	CHECK(dt_path(&dt, "/soc/uart@1000/x", SIZE_MAX) < 0);
	CHECK(dt_path(&dt, "/soc\0/uart@1000", 15) == soc);

	/* cells and reg */
	CHECK(dt_addr_cells(&dt, 0) == 2 && dt_size_cells(&dt, 0) == 2);
	CHECK(dt_addr_cells(&dt, mem) == 2 && dt_size_cells(&dt, mem) == 1);	/* defaults */
	CHECK(dt_reg(&dt, mem, 0, &a, &s) == 0 && a == 0x80 && s == 0x4000000);
	CHECK(dt_reg(&dt, mem, 1, &a, &s) == 0 && a == 0x100000000ull && s == 0x1000);
	CHECK(dt_reg(&dt, mem, 2, &a, &s) == -1);
	CHECK(dt_reg(&dt, cpu, 0, &a, &s) == 0 && a == 3 && s == 0);
	CHECK(dt_reg(&dt, uart2, 1, &a, &s) == 0 && a == 0x3000 && s == 0x10);
	CHECK(dt_reg(&dt, uart1, 0, &a, &s) == -2);	/* 4 bytes for 1+1 cells */
	CHECK(dt_reg(&dt, dev, 0, &a, &s) == -2);	/* parent's #size-cells 7 */
	CHECK(dt_addr_cells(&dt, fdt_parent_offset(blob, dev)) == 3);
	CHECK(dt_size_cells(&dt, fdt_parent_offset(blob, dev)) == -1);
	CHECK(dt_reg(&dt, 0, 0, &a, &s) == -1 && dt_reg(&dt, soc, 0, &a, &s) == -1);

	/* properties and compatible */
	CHECK(dt_getprop_u32(&dt, soc, "#size-cells", 9) == 1);
	CHECK(dt_getprop_u32(&dt, uart2, "reg", 9) == 9);	/* 16 bytes: not a u32 */
	CHECK(dt_getprop_u32(&dt, uart2, "nope", 9) == 9);
	CHECK(dt_getprop_str(&dt, uart2, "odd") == NULL);	/* not NUL-terminated */
	CHECK(dt_getprop_str(&dt, uart2, "compatible") != NULL);
	CHECK(dt_is_compatible(&dt, uart1, "ns16550a") && dt_is_compatible(&dt, uart1, "tinymm,uart"));
	CHECK(!dt_is_compatible(&dt, uart1, "ns16550") && !dt_is_compatible(&dt, uart1, "uart"));
	CHECK(!dt_is_compatible(&dt, uart1, NULL));
	CHECK(dt_find_compatible(&dt, -1, "tinymm,uart") == uart1);
	CHECK(dt_find_compatible(&dt, uart1, "tinymm,uart") == uart2);
	CHECK(dt_find_compatible(&dt, uart2, "tinymm,uart") < 0);
	CHECK(dt_find_compatible(&dt, -1, "tinymm,test") == 0);
	CHECK(strcmp(dt_node_name(&dt, 0), "") == 0 && strcmp(dt_node_name(&dt, mem), "memory@80000000") == 0);
	CHECK(dt_parent(&dt, 0) < 0 && dt_parent(&dt, uart2) == soc);
	free(blob);
}

static void test_helpers(void **state)
{
	static const uint8_t bytes[] = { 0xff, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
					 0x09, 0x0a, 0x0b, 0x0c, 0x0d };
	uint8_t hdr[8] = { 0xd0, 0x0d, 0xfe, 0xed, 0, 0, 0x10, 0x7e };

	(void)state;
	snprintf(ctx, sizeof(ctx), "helpers");
	CHECK(dt_be32(bytes + 1) == 0x01020304);	/* odd address: byte loads only */
	CHECK(dt_be64(bytes + 1) == 0x0102030405060708ull);
	CHECK(dt_read_cells(bytes + 1, 0) == 0);
	CHECK(dt_read_cells(bytes + 1, 1) == 0x01020304);
	CHECK(dt_read_cells(bytes + 1, 2) == 0x0102030405060708ull);
	CHECK(dt_read_cells(bytes + 1, 3) == 0x05060708090a0b0cull);	/* low 64 bits */
	CHECK(dt_peek_totalsize(hdr) == 0x107e);
	hdr[0] = 0;
	CHECK(dt_peek_totalsize(hdr) == 0 && dt_peek_totalsize(NULL) == 0);
}

/* ---- named corruptions: a tiny token assembler for blobs libfdt would not write ---- */

struct asm_blob {
	uint8_t b[2048];
	uint32_t n;		/* struct bytes so far (struct starts at 0x40) */
	uint32_t strsize;
};

#define A_STRUCT	0x40u
#define A_STRINGS	0x600u

static void a_word(struct asm_blob *a, uint32_t w)
{
	put32(a->b + A_STRUCT + a->n, w);
	a->n += 4;
}

static void a_begin(struct asm_blob *a, const char *name)
{
	a_word(a, 1);
	strcpy((char *)a->b + A_STRUCT + a->n, name);
	a->n += ((uint32_t)strlen(name) + 4) & ~3u;
}

static void a_prop(struct asm_blob *a, uint32_t nameoff, uint32_t len)
{
	a_word(a, 3);
	a_word(a, len);
	a_word(a, nameoff);
	a->n += (len + 3) & ~3u;
}

static void a_init(struct asm_blob *a)
{
	memset(a, 0, sizeof(*a));
	memcpy(a->b + A_STRINGS, "reg\0compatible", 15);
	a->strsize = 15;
}

/* Header for the assembled tokens: rsvmap at 0x28 (empty), struct at 0x40, strings at 0x600. */
static size_t a_finish(struct asm_blob *a, uint32_t version)
{
	put32(a->b, 0xd00dfeed);
	put32(a->b + 4, A_STRINGS + a->strsize);
	put32(a->b + 8, A_STRUCT);
	put32(a->b + 12, A_STRINGS);
	put32(a->b + 16, 0x28);
	put32(a->b + 20, version);
	put32(a->b + 24, 16);
	put32(a->b + 32, a->strsize);
	put32(a->b + 36, version >= 17 ? a->n : 0);
	return A_STRINGS + a->strsize;
}

/* dt_open must refuse buf[0..size) (read through an exact copy) with a reason naming @want. */
static void expect_reject(const char *what, const void *buf, size_t size, size_t avail,
			  const char *want)
{
	char err[DT_ERR_MAX];
	uint8_t *exact = dup_exact(buf, size);
	struct dt dt;

	snprintf(ctx, sizeof(ctx), "corruption '%s'", what);
	cur_blob = exact;
	cur_size = size;
	memset(err, 'x', sizeof(err));
	CHECK(dt_open(&dt, exact, avail, err) == -1);
	if (!strstr(err, want))
		fail_msg("%s: got \"%s\", want \"%s\"", ctx, err, want);
	if (verbose)
		printf("  %-34s -> %s\n", what, err);
	free(exact);
}

static void test_corruptions(void **state)
{
	char want[DT_ERR_MAX], err[DT_ERR_MAX];
	size_t size;
	uint8_t *base = build_sw(&size), *b = malloc(size);
	uint32_t soff, strsize, ssize, total = (uint32_t)size;
	int uart2, empty, prop;
	struct asm_blob a;
	struct dt dt;

	(void)state;
	assert_non_null(b);
	soff = fdt_off_dt_struct(base);
	ssize = fdt_size_dt_struct(base);
	strsize = fdt_size_dt_strings(base);
	uart2 = fdt_path_offset(base, "/soc/uart@2000");
	empty = fdt_path_offset(base, "/soc/empty");
	prop = fdt_first_property_offset(base, uart2);
	assert_true(uart2 > 0 && empty > 0 && prop > 0);
#define FRESH() memcpy(b, base, size)

	FRESH();
	put32(b, 0x12345678);
	expect_reject("bad magic", b, size, size, "bad magic 0x12345678");
	FRESH();
	put32(b + 4, total + 16);
	snprintf(want, sizeof(want), "totalsize %u exceeds available %u", total + 16, total);
	expect_reject("totalsize beyond avail", b, size, size, want);
	FRESH();
	snprintf(want, sizeof(want), "totalsize %u exceeds available %u", total, total - 1);
	expect_reject("truncated blob", b, size - 1, size - 1, want);
	expect_reject("truncated to a few bytes", b, 20, 20, "too small");
	expect_reject("truncated to 2 bytes", b, 2, 2, "too small");
	FRESH();
	put32(b + 8, total + 0x100);
	snprintf(want, sizeof(want), "struct block [%#x, +%#x) outside blob of %#x bytes",
		 total + 0x100, ssize, total);
	expect_reject("struct offset outside blob", b, size, size, want);
	FRESH();
	put32(b + 36, total);
	expect_reject("struct size past blob", b, size, size, "struct block [");
	FRESH();
	put32(b + 12, 0xfffffff0);
	expect_reject("strings offset outside blob", b, size, size, "strings block [0xfffffff0");
	FRESH();
	put32(b + 12, 8);
	expect_reject("strings block in header", b, size, size, "strings block at 0x8 overlaps");
	FRESH();
	put32(b + 8, soff + 2);
	put32(b + 36, ssize - 4);
	expect_reject("misaligned struct block", b, size, size, "not 4-byte aligned");
	FRESH();
	put32(b + 16, 0x2c);
	expect_reject("misaligned memreserve", b, size, size, "memreserve offset 0x2c not 8-byte");
	FRESH();
	put32(b + 20, 15);
	expect_reject("old version", b, size, size, "unsupported version 15");
	FRESH();
	put32(b + 24, 18);
	expect_reject("incompatible version", b, size, size, "last_comp_version 18");
	FRESH();
	put32(b + 20, 16);	/* last_comp_version stays 16; make it claim 17 */
	put32(b + 24, 17);
	expect_reject("version below last_comp", b, size, size, "version 16 older than");
	FRESH();
	put32(b + 4, 39);
	expect_reject("totalsize below header", b, size, size, "smaller than the header");

	FRESH();
	put32(b + 32, strsize - 1);	/* the last name loses its NUL */
	expect_reject("unterminated property name", b, size, size, "unterminated property name");
	FRESH();
	put32(b + soff + (uint32_t)prop + 8, 0x999);
	expect_reject("property name offset", b, size, size,
		      "property name offset 0x999 outside strings block");
	FRESH();
	put32(b + soff + (uint32_t)prop + 4, 0x10000);
	snprintf(want, sizeof(want), "property length 0x10000 at %#x runs past", soff + (uint32_t)prop);
	expect_reject("property length past block", b, size, size, want);
	FRESH();
	put32(b + soff + (uint32_t)prop + 4, 0xfffffff8);
	expect_reject("property length wraps", b, size, size, "property length 0xfffffff8");
	FRESH();
	/* NOP out "empty"'s BEGIN_NODE and name: its END_NODE closes soc, ... one too many. */
	put32(b + soff + (uint32_t)empty, 4);
	put32(b + soff + (uint32_t)empty + 4, 4);
	put32(b + soff + (uint32_t)empty + 8, 4);
	snprintf(want, sizeof(want), "unbalanced END_NODE at %#x", soff + (uint32_t)empty + 20);
	expect_reject("unbalanced nesting (extra end)", b, size, size, want);
	FRESH();
	put32(b + soff + (uint32_t)empty + 12, 4);	/* "empty"'s END_NODE -> NOP */
	expect_reject("unbalanced nesting (open node)", b, size, size, "inside 1 open node(s)");
	FRESH();
	put32(b + soff + ssize - 4, 4);	/* FDT_END -> NOP */
	expect_reject("missing FDT_END", b, size, size, "missing FDT_END");
	FRESH();
	put32(b + 36, ssize - 4);
	expect_reject("struct size cuts FDT_END", b, size, size, "missing FDT_END");
	FRESH();
	put32(b + 36, (uint32_t)empty + 7);	/* block ends inside "empty\0" */
	snprintf(want, sizeof(want), "unterminated node name at %#x", soff + (uint32_t)empty);
	expect_reject("unterminated node name", b, size, size, want);
	FRESH();
	put32(b + soff + (uint32_t)empty, 0x7);
	expect_reject("bad token", b, size, size, "bad token 0x00000007");
	FRESH();
	put32(b + fdt_off_mem_rsvmap(b) + 2 * 16 + 12, 1);	/* terminator's size */
	snprintf(want, sizeof(want), "memreserve block at %#x not terminated before %#x",
		 fdt_off_mem_rsvmap(b), soff);
	expect_reject("memreserve not terminated", b, size, size, want);
	FRESH();
	put32(b + fdt_off_mem_rsvmap(b) + 12, 0);	/* entry 0: size 0, address 0x80000000 */
	expect_reject("memreserve size-0 entry", b, size, size, "has address 0x80000000 but size 0");
	FRESH();
	put32(b + 16, soff + 8);
	expect_reject("memreserve inside struct", b, size, size, "lies inside the struct block");

	/* Shapes libfdt's writer cannot produce, from the assembler. */
	a_init(&a);
	a_word(&a, 4);
	a_begin(&a, "");
	a_word(&a, 2);
	a_word(&a, 9);
	expect_reject("NOP before the root", a.b, a_finish(&a, 17), sizeof(a.b), "does not start with a root");
	a_init(&a);
	a_begin(&a, "named");
	a_word(&a, 2);
	a_word(&a, 9);
	expect_reject("named root", a.b, a_finish(&a, 17), sizeof(a.b), "does not start with a root");
	a_init(&a);
	a_begin(&a, "");
	a_word(&a, 2);
	a_begin(&a, "");
	a_word(&a, 2);
	a_word(&a, 9);
	expect_reject("two roots", a.b, a_finish(&a, 17), sizeof(a.b), "second root node at 0x4c");
	a_init(&a);
	a_begin(&a, "");
	a_word(&a, 2);
	a_prop(&a, 0, 4);
	a_word(&a, 9);
	expect_reject("property outside root", a.b, a_finish(&a, 17), sizeof(a.b), "property outside any");
	a_init(&a);
	a_begin(&a, "");
	a_begin(&a, "child");
	a_word(&a, 2);
	a_prop(&a, 4, 0);
	a_word(&a, 2);
	a_word(&a, 9);
	expect_reject("property after subnode", a.b, a_finish(&a, 17), sizeof(a.b), "after a subnode");
	a_init(&a);
	a_begin(&a, "");
	a_word(&a, 2);
	a_word(&a, 9);
	a_word(&a, 4);
	expect_reject("data after FDT_END", a.b, a_finish(&a, 17), sizeof(a.b), "data after FDT_END at 0x4c");
	a_init(&a);
	a_begin(&a, "");
	a_word(&a, 2);
	a_word(&a, 2);
	a_word(&a, 9);
	expect_reject("unbalanced END_NODE", a.b, a_finish(&a, 17), sizeof(a.b), "unbalanced END_NODE at 0x4c");
	a_init(&a);
	for (int i = 0; i < 65; i++)
		a_begin(&a, i ? "n" : "");
	for (int i = 0; i < 65; i++)
		a_word(&a, 2);
	a_word(&a, 9);
	expect_reject("nesting too deep", a.b, a_finish(&a, 17), sizeof(a.b), "nesting deeper than 64");

	/* ... and what it must accept: 64 levels, NOPs, v16 with trailing bytes. */
	a_init(&a);
	for (int i = 0; i < 64; i++)
		a_begin(&a, i ? "n" : "");
	a_word(&a, 4);
	a_prop(&a, 0, 3);
	for (int i = 0; i < 64; i++)
		a_word(&a, 2);
	a_word(&a, 4);
	a_word(&a, 9);
	size = a_finish(&a, 17);
	snprintf(ctx, sizeof(ctx), "64 levels");
	CHECK(dt_open(&dt, a.b, size, err) == 0);
	{
		int node = 0, depth = 0, last = 0;

		while ((node = dt_next_node(&dt, node, &depth)) >= 0)
			last = node;
		CHECK(depth == 63 && dt_parent(&dt, last) > 0 && dt_getprop(&dt, last, "reg", NULL));
		CHECK(dt_next_sibling(&dt, last) < 0 && dt_first_child(&dt, last) < 0);
	}
	a_word(&a, 0xffffffff);	/* junk after FDT_END: fine for v16, whose size is unknown */
	size = a_finish(&a, 16);
	snprintf(ctx, sizeof(ctx), "v16 with trailing bytes");
	CHECK(dt_open(&dt, a.b, size, err) == 0 && dt.size_struct == a.n - 4);
	CHECK(dt_open(&dt, a.b, size, NULL) == 0 && dt_open(NULL, a.b, size, err) == -1);
	CHECK(dt_open(&dt, NULL, size, err) == -1 && dt_open(&dt, a.b, size, NULL) == 0);
#undef FRESH
	free(b);
	free(base);
}

/* ---- main ---- */

static uint8_t *load(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "fdt_test: cannot read %s\n", path);
		exit(2);
	}
	data = malloc((size_t)n);
	if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "fdt_test: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	*size = (size_t)n;
	return data;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inputs_given),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_sw_blob),
		cmocka_unit_test(test_corruptions),
		cmocka_unit_test(test_differential),
		cmocka_unit_test(test_bogus_offsets),
		cmocka_unit_test(test_mutations),
	};
	int rc;

	verbose = getenv("FDT_TEST_VERBOSE") != NULL;
	for (int i = 1; i < argc; i++) {
		if (n_inputs == (int)(sizeof(inputs) / sizeof(inputs[0]))) {
			fprintf(stderr, "fdt_test: too many inputs\n");
			return 2;
		}
		inputs[n_inputs].path = argv[i];
		inputs[n_inputs].data = load(argv[i], &inputs[n_inputs].size);
		n_inputs++;
	}
	if (n_inputs == 0)
		fprintf(stderr, "fdt_test: no DTB files given; usage: %s file.dtb...\n", argv[0]);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	for (int i = 0; i < n_inputs; i++)
		free(inputs[i].data);
	return rc || n_inputs == 0 ? 1 : 0;
}
