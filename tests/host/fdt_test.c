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
 * Three files, one executable: this one (inputs, helpers, the differential comparison, main),
 * fdt_test_mutate.c (the mutation run), fdt_test_blobs.c (hand-built blobs, named corruptions);
 * fdt_test.h between them.  Build: gcc -std=c11 -Wall -Wextra -Werror -g
 * -fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude lib/fdt.c lib/fdt_check.c
 * tests/host/fdt_test*.c -lcmocka -lfdt
 */
#include "fdt_test.h"

struct input inputs[16];
int n_inputs;
bool verbose;

/* What is being checked, for failure messages; the blob is dumped to a file on failure. */
char ctx[160];
const uint8_t *cur_blob;
size_t cur_size;

void dump_current(void)
{
	const char *name = "fdt_test-failure.dtb";
	FILE *f;

	if (!cur_blob || !(f = fopen(name, "wb")))
		return;
	fwrite(cur_blob, 1, cur_size, f);
	fclose(f);
	fprintf(stderr, "fdt_test: failing blob (%zu bytes) written to %s\n", cur_size, name);
}


/* ---- small helpers ---- */

void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint8_t *dup_exact(const void *src, size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	assert_non_null(p);
	memcpy(p, src, n);
	return p;
}

/* Pack a blob (free space dropped) into an exactly-sized buffer; *size gets its length. */
uint8_t *packed_copy(const void *blob, size_t *size)
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
uint8_t *v16_copy(const uint8_t *packed, size_t size)
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
int libfdt_check(const uint8_t *blob, size_t size)
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

const struct sample ALL = { 0, 0 };

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
int check_blob(const uint8_t *blob, size_t size, bool pristine, const struct sample *sam,
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

void test_inputs_given(void **state)
{
	(void)state;
	if (n_inputs == 0)
		fail_msg("no DTB given: usage: fdt_test file.dtb... (refusing to pass vacuously)");
}

void test_differential(void **state)
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
void test_bogus_offsets(void **state)
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
