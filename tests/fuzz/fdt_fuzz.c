/*
 * fdt_fuzz.c - libFuzzer target for lib/fdt.c (CTest fuzz.fdt; long runs: README.md).
 *
 * Each input is copied into an exactly-sized heap buffer (ASan sees any overread) and opened:
 *  - refused: the reason must be one documented one-line message, the same on a second call,
 *    and the struct dt must be left so that every accessor rejects it;
 *  - accepted: the blob is cut to its totalsize in a buffer of its own and reopened; one byte
 *    less must be refused with the documented reason.  The reference model (fdt_model.c, no
 *    lib/fdt.c code) must find its header and structure well formed; then every accessor is
 *    compared with the model: dt_next_node (offsets, depths), first_child / next_sibling / parent /
 *    node_name, dt_path of each node's full path (= the model's lookup; where the path is
 *    unambiguous it must come back to the node), /aliases entries, the property iterators,
 *    dt_prop_at, getprop by each property name (the first of that name), the _str and _u32
 *    forms, the cell counts, dt_reg entries, dt_find_compatible chains for each compatible
 *    string, dt_memreserve, and accessors on bogus offsets (answers stay inside the blob).
 *
 * Cost: dt_parent, dt_path, dt_reg and a dt_find_compatible chain walk the tree from the root on
 * every call, so checking them on every node is quadratic (~13 ms for QEMU's ARM tree under
 * ASan).  Per input they (and the _str/_u32 forms) run on at most DEEP nodes and DEEP
 * compatible strings, and the bogus offsets on a 1 KiB window, chosen by a stride whose phase
 * is a hash of the input, so mutants of one tree cover all of it; all other checks run on
 * every node and property.
 * FDT_FUZZ_FULL=1 checks everything on every input (CTest fuzz.fdt_seeds_full does, on the
 * seeds).  FDT_FUZZ_BREAK=1 makes the node-count check fail on purpose
 * (fuzz.fdt_mismatch_aborts: a mismatch must reach the exit status).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdt_fuzz.h"

#define DEEP	8
#define WINDOW	1024	/* bytes of bogus offsets per input */

static bool full, break_on_purpose;
static unsigned salt;

void fuzz_mismatch(const char *file, int line, const char *what)
{
	fprintf(stderr, "fdt_fuzz: mismatch at %s:%d: %s\n", file, line, what);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	full = getenv("FDT_FUZZ_FULL") && *getenv("FDT_FUZZ_FULL") == '1';
	break_on_purpose = getenv("FDT_FUZZ_BREAK") && *getenv("FDT_FUZZ_BREAK") == '1';
	return 0;
}

/* Is item @i of @total among this input's deep checks? */
static bool picked(int i, int total)
{
	int stride = (total + DEEP - 1) / DEEP;

	return full || total <= DEEP || (unsigned)i % (unsigned)stride == salt % (unsigned)stride;
}

/* Lib offset @got is the model's node @idx (or none, for idx < 0). */
static bool is(const struct tree *t, int got, int idx)
{
	return idx >= 0 ? got == t->n[idx].off : got < 0;
}

static void check_reg(const struct tree *t, int i)
{
	const struct dt *dt = t->dt;
	int off = t->n[i].off, reg = model_prop(t, i, "reg"), ac, sc, count, k;
	uint64_t a, s;

	CHECK(dt_reg(dt, off, -1, &a, &s) < 0);
	if (reg < 0 || i == 0) {
		CHECK(dt_reg(dt, off, 0, &a, &s) == -1);
		return;
	}
	/* The parent's cell counts, 0-2 each and not both 0; whole entries only. */
	ac = model_cells(t, t->n[i].parent, "#address-cells", 2);
	sc = model_cells(t, t->n[i].parent, "#size-cells", 1);
	if (ac < 0 || sc < 0 || ac > 2 || sc > 2 || ac + sc == 0 || t->p[reg].len % (4 * (ac + sc))) {
		CHECK(dt_reg(dt, off, 0, &a, &s) == -2);
		return;
	}
	count = t->p[reg].len / (4 * (ac + sc));
	for (k = 0; k < count; k = k + 1 >= 4 && k + 1 < count - 1 ? count - 1 : k + 1) {
		const uint8_t *e = t->p[reg].val + 4 * (ac + sc) * k;

		CHECK(dt_reg(dt, off, k, &a, &s) == 0);
		CHECK(a == cells(e, ac) && s == cells(e + 4 * ac, sc));
	}
	CHECK(dt_reg(dt, off, count, NULL, NULL) == -1);
}

/* Node @i and its subtree; @path holds the parent's path, @plen its length. */
static void check_node(const struct tree *t, int i, char *path, size_t plen)
{
	const struct dt *dt = t->dt;
	const struct node *n = &t->n[i];
	int len, k, count = 0, p;
	size_t mine = plen;

	CHECK(dt_node_name(dt, n->off) == n->name);
	CHECK(is(t, dt_first_child(dt, n->off), n->child));
	CHECK(is(t, dt_next_sibling(dt, n->off), n->sib));
	CHECK(is(t, dt_next_node(dt, n->off, NULL), i + 1 < t->nn ? i + 1 : -1));
	if (i)
		mine += (size_t)sprintf(path + plen, "/%s", n->name);
	if (i && picked(i, t->nn)) {
		CHECK(is(t, dt_parent(dt, n->off), n->parent));
		/* Also as stdout-path passes it: the length stops before ":options". */
		strcpy(path + mine, ":115200n8");
		CHECK(is(t, dt_path(dt, path, mine), model_path(t, path, mine)));
		path[mine] = '\0';
		if (n->plain)	/* unambiguous: it must round-trip */
			CHECK(model_path(t, path, mine) == i && dt_path(dt, path, SIZE_MAX) == n->off);
		check_reg(t, i);
	}
	for (p = dt_first_prop(dt, n->off); p >= 0; p = dt_next_prop(dt, p), count++) {
		const struct prop *q = &t->p[n->prop0 + (count < n->nprops ? count : 0)];
		const char *name = NULL, *str;
		const void *v;

		CHECK(count < n->nprops && p == q->off);
		CHECK(dt_prop_at(dt, p, &name, &len) == q->val && name == q->name && len == q->len);
		k = model_prop(t, i, q->name);
		CHECK(dt_getprop(dt, n->off, q->name, &len) == t->p[k].val && len == t->p[k].len);
		if (!picked(i, t->nn))
			continue;
		v = t->p[k].val;
		str = len > 0 && memchr(v, 0, (size_t)len) ? v : NULL;
		CHECK(dt_getprop_str(dt, n->off, q->name) == str);
		CHECK(dt_getprop_u32(dt, n->off, q->name, 7) == (len == 4 ? be32(v) : 7));
	}
	CHECK(count == n->nprops);
	CHECK(dt_getprop(dt, n->off, "\x01no-such", &len) == NULL && len == -1);
	CHECK(dt_addr_cells(dt, n->off) == model_cells(t, i, "#address-cells", 2));
	CHECK(dt_size_cells(dt, n->off) == model_cells(t, i, "#size-cells", 1));
	for (int c = n->child; c >= 0; c = t->n[c].sib)
		check_node(t, c, path, mine);
	path[plen] = '\0';
}

/* dt_is_compatible on every entry; a dt_find_compatible chain per (picked) distinct string. */
static void check_compatible(const struct tree *t)
{
	const char *seen[256];
	int n_seen = 0, k, m;

	for (int i = 0; i < t->nn; i++) {
		const char *v, *end, *s;

		if ((k = model_prop(t, i, "compatible")) < 0)
			continue;
		v = (const char *)t->p[k].val;
		end = v + t->p[k].len;
		for (s = v; s < end && memchr(s, 0, (size_t)(end - s)); s += strlen(s) + 1) {
			CHECK(dt_is_compatible(t->dt, t->n[i].off, s));
			for (m = 0; m < n_seen && strcmp(seen[m], s); m++)
				;
			if (m == n_seen && n_seen < 256)
				seen[n_seen++] = s;
		}
	}
	for (k = 0; k < n_seen; k++) {
		if (!picked(k, n_seen))
			continue;
		m = -1;
		for (int j = 0; j < t->nn; j++)
			if (model_compat(t, j, seen[k]))
				CHECK(is(t, m = dt_find_compatible(t->dt, m, seen[k]), j));
		CHECK(dt_find_compatible(t->dt, m, seen[k]) < 0);
	}
	CHECK(dt_find_compatible(t->dt, -1, "\x01no-such") < 0);
}

/* Accessors on offsets that may be anything: answers stay inside the blob. */
static void check_bogus(const struct tree *t)
{
	const struct dt *dt = t->dt;
	const uint8_t *s = t->s, *end = t->s + dt->size_struct, *v;
	int from = full ? -8 : (int)(salt % (dt->size_struct / 4 + 1)) * 4 - 8, len, c;

	for (int off = from; off < (int)dt->size_struct + 8 && (full || off < from + WINDOW); off += 4) {
		const char *name = dt_node_name(dt, off), *pname;

		CHECK(!name || ((const uint8_t *)name > s &&
				memchr(name, 0, (size_t)(end - (const uint8_t *)name))));
		v = dt_prop_at(dt, off, &pname, &len);
		CHECK(!v || (v >= s && len >= 0 && v + len <= end && pname >= (const char *)t->str &&
			     memchr(pname, 0, (size_t)((const char *)t->str + dt->size_strings - pname))));
		v = dt_getprop(dt, off, "reg", &len);
		CHECK(!v || (v >= s && v + len <= end));
		c = dt_first_child(dt, off);
		CHECK(c < 0 || (c % 4 == 0 && c < (int)dt->size_struct));
		c = dt_first_prop(dt, off);
		CHECK(c < 0 || (c % 4 == 0 && c < (int)dt->size_struct));
		c = dt_next_prop(dt, off);
		CHECK(c < 0 || (c % 4 == 0 && c < (int)dt->size_struct));
		CHECK(!dt_node_name(dt, off + 1) && !dt_prop_at(dt, off + 2, NULL, NULL));
	}
}

static void check_tree(const struct dt *dt, const uint8_t *blob)
{
	struct tree t = { dt, blob + dt->off_struct, blob + dt->off_strings, NULL, NULL, 0, 0 };
	const uint8_t *rsv = blob + dt->off_rsvmap;
	int depth = 0, i, node, al;
	uint64_t a, s;
	char *path;

	t.n = calloc(dt->size_struct / 8 + 1, sizeof(*t.n));
	t.p = calloc(dt->size_struct / 12 + 1, sizeof(*t.p));
	path = calloc(dt->size_struct + 80, 1);
	CHECK(t.n && t.p && path);
	model_header(dt, blob);
	model_scan(&t);
	/* Plain: no empty name or '/' on the way, and no earlier sibling that matches first. */
	t.n[0].plain = true;
	for (i = 1; i < t.nn; i++) {
		struct node *n = &t.n[i];

		n->plain = t.n[n->parent].plain && *n->name && !strchr(n->name, '/');
		for (int c = t.n[n->parent].child; n->plain && c != i; c = t.n[c].sib)
			n->plain = !model_name_matches(t.n[c].name, n->name, strlen(n->name));
	}
	CHECK(dt_root(dt) == 0);
	for (node = 0, i = 0; node >= 0; node = dt_next_node(dt, node, &depth), i++)
		CHECK(i < t.nn && node == t.n[i].off && depth == t.n[i].depth);
	CHECK(i == t.nn + break_on_purpose);
	CHECK(dt_parent(dt, 0) < 0 && dt_path(dt, "/", 1) == 0 && dt_path(dt, "", 0) < 0);
	check_node(&t, 0, path, 0);
	check_compatible(&t);
	if ((al = model_walk(&t, 0, "/aliases", 8)) >= 0)
		for (int k = t.n[al].prop0; k < t.n[al].prop0 + t.n[al].nprops; k++) {
			size_t n = strlen(t.p[k].name);

			CHECK(is(&t, dt_path(dt, t.p[k].name, n), model_path(&t, t.p[k].name, n)));
		}
	/* /memreserve/: entries up to a (0,0) one inside the blob, none of size 0 before it. */
	for (i = 0; dt_memreserve(dt, i, &a, &s) == 0; i++)
		CHECK(a == cells(rsv + 16 * i, 2) && s == cells(rsv + 16 * i + 8, 2) && s != 0);
	CHECK((uint32_t)i == dt->nr_rsv && dt->off_rsvmap + 16 * (uint64_t)i + 16 <= dt->totalsize);
	CHECK(!cells(rsv + 16 * i, 2) && !cells(rsv + 16 * i + 8, 2));
	CHECK(dt_memreserve(dt, -1, &a, &s) == -1);
	check_bogus(&t);
	free(t.n);
	free(t.p);
	free(path);
}

/* Every reason dt_open() gives (docs/devicetree.md, "Error messages"), by its fixed start. */
static const char *const reasons[] = {
	"bad magic 0x", "blob of ", "totalsize ", "unsupported version ", "last_comp_version ",
	"version ", "struct block ", "strings block ", "memreserve block ", "memreserve offset ",
	"memreserve entry ", "unterminated node name at ", "property length ", "bad token 0x",
	"missing FDT_END ", "truncated token at ", "second root node at ", "nesting deeper than ",
	"unbalanced END_NODE at ", "property outside any node at ", "property after a subnode at ",
	"property name offset ", "unterminated property name at ", "FDT_END at ",
	"data after FDT_END at ",
};

static void check_refusal(const struct dt *dt, const char *err)
{
	size_t n = strnlen(err, DT_ERR_MAX), k = 0, nr = sizeof(reasons) / sizeof(reasons[0]);

	CHECK(n > 0 && n < DT_ERR_MAX && !strchr(err, '\n'));
	while (k < nr && strncmp(err, reasons[k], strlen(reasons[k])))
		k++;
	CHECK(k < nr);
	/* A failed open leaves a struct dt that every accessor rejects. */
	CHECK(!dt->blob && !dt->totalsize && !dt_node_name(dt, 0) && dt_first_child(dt, 0) < 0);
	CHECK(dt_path(dt, "/", 1) < 0 && dt_memreserve(dt, 0, NULL, NULL) < 0);
	CHECK(!dt_getprop(dt, 0, "reg", NULL) && dt_find_compatible(dt, -1, "x") < 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1), *exact;
	char err[DT_ERR_MAX], err2[DT_ERR_MAX], want[DT_ERR_MAX];
	struct dt dt, dt2;
	uint32_t total;

	CHECK(buf);
	memcpy(buf, data, size);
	memset(&dt, 0xa5, sizeof(dt));
	memset(err, 0xa5, sizeof(err));
	if (dt_open(&dt, buf, size, err)) {
		check_refusal(&dt, err);
		CHECK(dt_open(&dt2, buf, size, err2) == -1 && !strcmp(err, err2));
		free(buf);
		return 0;
	}
	salt = 2166136261u;	/* FNV-1a of the input: the phase of the sampled checks */
	for (size_t i = 0; i < size; i++)
		salt = (salt ^ data[i]) * 16777619u;
	CHECK(err[0] == '\0' && dt.blob == buf && dt.totalsize <= size);
	CHECK(dt_peek_totalsize(buf) == dt.totalsize);
	/* Cut to totalsize in a buffer of its own: nothing past totalsize may be read either. */
	total = dt.totalsize;
	exact = malloc(total);
	CHECK(exact);
	memcpy(exact, buf, total);
	free(buf);
	CHECK(dt_open(&dt2, exact, total, err2) == 0 && dt2.blob == exact);
	CHECK(dt2.off_struct == dt.off_struct && dt2.size_struct == dt.size_struct);
	CHECK(dt2.off_strings == dt.off_strings && dt2.size_strings == dt.size_strings);
	CHECK(dt2.off_rsvmap == dt.off_rsvmap && dt2.nr_rsv == dt.nr_rsv);
	CHECK(dt2.version == be32(exact + 20) && dt2.boot_cpuid == be32(exact + 28));
	check_tree(&dt2, exact);
	/* One byte short: refused with the documented reason. */
	if (total - 1 < 40)
		snprintf(want, sizeof(want), "blob of %u bytes is too small for a header", total - 1);
	else
		snprintf(want, sizeof(want), "totalsize %u exceeds available %u", total, total - 1);
	CHECK(dt_open(&dt2, exact, total - 1, err2) == -1 && !strcmp(err2, want));
	free(exact);
	return 0;
}
