/*
 * fdt_address_test.c - dt_address() (lib/fdt_address.c): a device's "reg" through every bus's
 * "ranges" to a CPU physical address, on a tree built with libfdt's sequential-write API:
 * the Raspberry Pi's soc window (bus 0x7e000000 at CPU 0x3f000000) and its identity window for
 * the local controller, a nested bus with 2 address cells, an identity bus ("ranges;"), a bus
 * that is not memory-mapped (no "ranges": I2C), an address outside every window and one that
 * straddles a window's end, malformed ranges, and nodes at the root (no translation).  Every
 * case is also checked against the Pi's real DTB when tools/install-deps has put it in place.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <libfdt.h>
#include "tinymm/fdt.h"

static uint8_t blob[4096];

static void prop_cells(void *buf, const char *name, const uint32_t *v, int n)
{
	fdt32_t c[16];

	for (int i = 0; i < n; i++)
		c[i] = cpu_to_fdt32(v[i]);
	assert_int_equal(fdt_property(buf, name, c, (int)(4 * n)), 0);
}

static void node_reg(void *buf, const char *name, const uint32_t *reg, int n)
{
	assert_int_equal(fdt_begin_node(buf, name), 0);
	prop_cells(buf, "reg", reg, n);
	assert_int_equal(fdt_end_node(buf), 0);
}

static void bus(void *buf, const char *name, uint32_t ac, uint32_t sc)
{
	assert_int_equal(fdt_begin_node(buf, name), 0);
	assert_int_equal(fdt_property_u32(buf, "#address-cells", ac), 0);
	assert_int_equal(fdt_property_u32(buf, "#size-cells", sc), 0);
}

static void build(struct dt *dt)
{
	char err[DT_ERR_MAX];
	void *b = blob;

	assert_int_equal(fdt_create(b, sizeof(blob)), 0);
	assert_int_equal(fdt_finish_reservemap(b), 0);
	bus(b, "", 1, 1);
	node_reg(b, "memory@0", (const uint32_t[]){ 0, 0x3c000000 }, 2);
	bus(b, "soc", 1, 1);
	prop_cells(b, "ranges", (const uint32_t[]){ 0x7e000000, 0x3f000000, 0x01000000,
						    0x40000000, 0x40000000, 0x1000 }, 6);
	node_reg(b, "serial@7e201000", (const uint32_t[]){ 0x7e201000, 0x200 }, 2);
	node_reg(b, "two@7e00b200", (const uint32_t[]){ 0x7e00b200, 0x200, 0x7e00a000, 0x24 }, 4);
	node_reg(b, "local_intc@40000000", (const uint32_t[]){ 0x40000000, 0x100 }, 2);
	node_reg(b, "outside@7f000000", (const uint32_t[]){ 0x7f000000, 0x10 }, 2);
	node_reg(b, "straddle@7efffff0", (const uint32_t[]){ 0x7efffff0, 0x20 }, 2);
	node_reg(b, "lastbyte@7efffff0", (const uint32_t[]){ 0x7efffff0, 0x10 }, 2);
	bus(b, "wide", 2, 1);
	prop_cells(b, "ranges", (const uint32_t[]){ 0x1, 0x0, 0x7e100000, 0x1000 }, 4);
	node_reg(b, "dev@1,10", (const uint32_t[]){ 0x1, 0x10, 0x8 }, 3);
	assert_int_equal(fdt_end_node(b), 0);
	bus(b, "same", 1, 1);
	assert_int_equal(fdt_property(b, "ranges", NULL, 0), 0);
	node_reg(b, "dev@7e000010", (const uint32_t[]){ 0x7e000010, 0x4 }, 2);
	assert_int_equal(fdt_end_node(b), 0);
	bus(b, "i2c@7e205000", 1, 0);
	node_reg(b, "eeprom@50", (const uint32_t[]){ 0x50 }, 1);
	assert_int_equal(fdt_end_node(b), 0);
	bus(b, "badranges", 1, 1);
	prop_cells(b, "ranges", (const uint32_t[]){ 0x0, 0x7e000000 }, 2);	/* 8 bytes, entry 12 */
	node_reg(b, "dev@0", (const uint32_t[]){ 0x0, 0x4 }, 2);
	assert_int_equal(fdt_end_node(b), 0);
	assert_int_equal(fdt_end_node(b), 0);	/* soc */
	assert_int_equal(fdt_end_node(b), 0);	/* root */
	assert_int_equal(fdt_finish(b), 0);
	assert_int_equal(dt_open(dt, blob, fdt_totalsize(blob), err), 0);
}

static int path(const struct dt *dt, const char *p)
{
	int n = dt_path(dt, p, strlen(p));

	assert_true(n >= 0);
	return n;
}

static void expect(const struct dt *dt, const char *p, int index, int ret, uint64_t addr,
		   uint64_t size)
{
	uint64_t a = 0x5a5a, s = 0x5a5a;

	assert_int_equal(dt_address(dt, path(dt, p), index, &a, &s), ret);
	if (ret == 0) {
		assert_int_equal(a, addr);
		assert_int_equal(s, size);
	} else {
		assert_int_equal(a, 0x5a5a);	/* nothing written on failure */
		assert_int_equal(s, 0x5a5a);
	}
}

static void test_translation(void **state)
{
	struct dt dt;

	(void)state;
	build(&dt);
	expect(&dt, "/soc/serial@7e201000", 0, 0, 0x3f201000, 0x200);
	expect(&dt, "/soc/two@7e00b200", 0, 0, 0x3f00b200, 0x200);
	expect(&dt, "/soc/two@7e00b200", 1, 0, 0x3f00a000, 0x24);
	expect(&dt, "/soc/two@7e00b200", 2, -1, 0, 0);			/* no such entry */
	expect(&dt, "/soc/local_intc@40000000", 0, 0, 0x40000000, 0x100);	/* second window */
	expect(&dt, "/soc/outside@7f000000", 0, -3, 0, 0);
	expect(&dt, "/soc/straddle@7efffff0", 0, -3, 0, 0);		/* runs past the window */
	expect(&dt, "/soc/lastbyte@7efffff0", 0, 0, 0x3ffffff0, 0x10);	/* ends on its last byte */
	expect(&dt, "/soc/wide/dev@1,10", 0, 0, 0x3f100010, 0x8);		/* two levels */
	expect(&dt, "/soc/same/dev@7e000010", 0, 0, 0x3f000010, 0x4);	/* "ranges;" then soc's */
	expect(&dt, "/soc/i2c@7e205000/eeprom@50", 0, -3, 0, 0);		/* not memory-mapped */
	expect(&dt, "/soc/badranges/dev@0", 0, -2, 0, 0);
	expect(&dt, "/memory@0", 0, 0, 0, 0x3c000000);			/* on the root: as is */
	/* dt_reg() stays the raw bus address. */
	uint64_t a, s;
	assert_int_equal(dt_reg(&dt, path(&dt, "/soc/serial@7e201000"), 0, &a, &s), 0);
	assert_int_equal(a, 0x7e201000);
	/* NULL outputs are allowed, as for dt_reg(). */
	assert_int_equal(dt_address(&dt, path(&dt, "/soc/serial@7e201000"), 0, NULL, NULL), 0);
}

/* The Pi's own tree (Debian's, as the board's build uses it): every device the kernel drives. */
static void test_raspi2b_dtb(void **state)
{
	static uint8_t buf[1 << 17];
	char err[DT_ERR_MAX];
	struct dt dt;
	FILE *f = fopen("/usr/local/share/tinymm/dtbs/bcm2836-rpi-2-b.dtb", "rb");

	(void)state;
	if (!f) {
		/* tools/install-deps puts it there on every machine that runs make test. */
		fail_msg("no /usr/local/share/tinymm/dtbs/bcm2836-rpi-2-b.dtb: run tools/install-deps");
	}
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(dt_open(&dt, buf, n, err), 0);
	expect(&dt, "/soc/serial@7e201000", 0, 0, 0x3f201000, 0x200);
	expect(&dt, "/soc/interrupt-controller@7e00b200", 0, 0, 0x3f00b200, 0x200);
	expect(&dt, "/soc/local_intc@40000000", 0, 0, 0x40000000, 0x100);
	expect(&dt, "/soc/watchdog@7e100000", 0, 0, 0x3f100000, 0x114);
	expect(&dt, "/memory@0", 0, 0, 0, 0x40000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_translation),
		cmocka_unit_test(test_raspi2b_dtb),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
