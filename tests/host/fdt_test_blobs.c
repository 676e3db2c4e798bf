/*
 * fdt_test_blobs.c - fdt_test's hand-built blobs (tests/host/fdt_test.c has the whole
 * picture): libfdt's sequential-write API for memreserve entries, aliases and buses of several
 * cell sizes, and a tiny token assembler for one named corruption per dt_open() check.
 */
#include "fdt_test.h"

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

void test_sw_blob(void **state)
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

void test_helpers(void **state)
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

void test_corruptions(void **state)
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
