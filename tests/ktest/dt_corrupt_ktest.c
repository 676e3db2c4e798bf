/*
 * dt_corrupt_ktest.c - header-level device-tree corruption, on every board (suite dt_corrupt).
 *
 * The live boot tree (boot_dt()) is copied compactly into a static buffer: header, /memreserve/
 * list, struct and strings blocks back to back, in that order (QEMU's ARM tree has a 1 MiB
 * totalsize that is almost all free space, so a byte-for-byte copy would not fit).  Each case
 * starts from a fresh copy, breaks one header field or the number of bytes dt_open() may read,
 * and checks that dt_open() refuses with the one-line reason docs/devicetree.md lists for it;
 * the unmodified copy must be accepted and read back as the same tree.
 */
#include <string.h>
#include "tinymm/devicetree.h"
#include "tinymm/fdt.h"
#include "tinymm/ktest.h"
#include "tinymm/printk.h"

#define HDR 40u			/* a version-17 header */

static uint8_t blob[32768] __attribute__((aligned(8)));	/* the H3's tree is 24 KiB */
static unsigned size, off_struct, off_strings, size_struct, size_strings;

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* A compact copy of the boot tree in blob[]; false if it does not fit. */
static bool fresh_copy(struct ktest *t)
{
	const struct dt *dt = boot_dt();
	unsigned rsv = 16 * ((unsigned)dt->nr_rsv + 1);

	size_struct = dt->size_struct;
	size_strings = dt->size_strings;
	off_struct = HDR + rsv;
	off_strings = off_struct + size_struct;
	size = off_strings + size_strings;
	if (size > sizeof(blob)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "the boot tree does not fit the copy buffer");
		return false;
	}
	memset(blob, 0, HDR);
	memcpy(blob + HDR, dt->blob + dt->off_rsvmap, rsv);
	memcpy(blob + off_struct, dt->blob + dt->off_struct, size_struct);
	memcpy(blob + off_strings, dt->blob + dt->off_strings, size_strings);
	put32(blob, 0xd00dfeed);
	put32(blob + 4, size);
	put32(blob + 8, off_struct);
	put32(blob + 12, off_strings);
	put32(blob + 16, HDR);		/* the /memreserve/ list follows the header */
	put32(blob + 20, 17);		/* version */
	put32(blob + 24, 16);		/* last_comp_version */
	put32(blob + 28, dt->boot_cpuid);
	put32(blob + 32, size_strings);
	put32(blob + 36, size_struct);
	return true;
}

/* dt_open() on the first @avail bytes of blob[] must refuse, with @want in its reason. */
static void expect_refused(struct ktest *t, size_t avail, const char *want)
{
	struct dt d;
	char err[DT_ERR_MAX];

	KTEST_EXPECT_EQ(t, dt_open(&d, blob, avail, err), -1);
	KTEST_EXPECT_TRUE(t, strstr(err, want) != NULL);
	if (!strstr(err, want))
		kprintf("    # dt_open said '%s'; expected '%s'\n", err, want);
	KTEST_EXPECT_TRUE(t, dt_node_name(&d, 0) == NULL);	/* nothing usable is left behind */
}

static void copy_is_accepted(struct ktest *t)
{
	const struct dt *live = boot_dt();
	struct dt d;
	char err[DT_ERR_MAX];
	int a = 0, b = 0, da = 0, db = 0, nodes = 0;

	KTEST_ASSERT_TRUE(t, live != NULL);
	if (!fresh_copy(t))
		return;
	KTEST_ASSERT_EQ(t, dt_open(&d, blob, size, err), 0);
	KTEST_EXPECT_EQ(t, err[0], '\0');
	KTEST_EXPECT_EQ(t, d.totalsize, size);
	KTEST_EXPECT_EQ(t, d.nr_rsv, live->nr_rsv);
	/* Same struct block, so the same node offsets, names and depths in the same order. */
	for (; a >= 0 && b >= 0; a = dt_next_node(&d, a, &da), b = dt_next_node(live, b, &db)) {
		KTEST_EXPECT_EQ(t, a, b);
		KTEST_EXPECT_EQ(t, da, db);
		KTEST_EXPECT_STREQ(t, dt_node_name(&d, a), dt_node_name(live, b));
		nodes++;
	}
	KTEST_EXPECT_TRUE(t, a < 0 && b < 0);
	KTEST_EXPECT_GT(t, nodes, 5);
	KTEST_EXPECT_EQ(t, dt_path(&d, "/chosen", 7), dt_path(live, "/chosen", 7));
	KTEST_EXPECT_GE(t, dt_path(&d, "/chosen", 7), 0);
}

static void bad_magic(struct ktest *t)
{
	if (!fresh_copy(t))
		return;
	put32(blob, 0xd00dfeee);
	expect_refused(t, size, "bad magic 0xd00dfeee");
	put32(blob, 0xedfe0dd0);	/* a little-endian write of the magic */
	expect_refused(t, size, "bad magic 0xedfe0dd0");
}

static void totalsize_past_available(struct ktest *t)
{
	char want[DT_ERR_MAX];

	if (!fresh_copy(t))
		return;
	put32(blob + 4, size + 16);
	ksnprintf(want, sizeof(want), "totalsize %u exceeds available %u", size + 16, size);
	expect_refused(t, size, want);
	put32(blob + 4, 0xffffffff);
	ksnprintf(want, sizeof(want), "totalsize 4294967295 exceeds available %u", (unsigned)sizeof(blob));
	expect_refused(t, sizeof(blob), want);
}

static void truncated_blob(struct ktest *t)
{
	char want[DT_ERR_MAX];

	if (!fresh_copy(t))
		return;
	/* The bytes run out before the header's totalsize ... */
	ksnprintf(want, sizeof(want), "totalsize %u exceeds available %u", size, size - 1);
	expect_refused(t, size - 1, want);
	ksnprintf(want, sizeof(want), "totalsize %u exceeds available %u", size, size / 2);
	expect_refused(t, size / 2, want);
	/* ... or before the header itself ... */
	expect_refused(t, HDR - 1, "blob of 39 bytes is too small for a header");
	/* ... or the header was patched to the cut length, which loses the last (strings) block. */
	put32(blob + 4, size - 4);
	ksnprintf(want, sizeof(want), "strings block [0x%x, +0x%x) outside blob of 0x%x bytes",
		  off_strings, size_strings, size - 4);
	expect_refused(t, size, want);
}

static void struct_block_outside(struct ktest *t)
{
	char want[DT_ERR_MAX];

	if (!fresh_copy(t))
		return;
	put32(blob + 8, size);
	ksnprintf(want, sizeof(want), "struct block [0x%x, +0x%x) outside blob of 0x%x bytes",
		  size, size_struct, size);
	expect_refused(t, size, want);
	fresh_copy(t);
	put32(blob + 36, 0xfffffff8);	/* offset + size would wrap in 32 bits */
	ksnprintf(want, sizeof(want), "struct block [0x%x, +0xfffffff8) outside blob of 0x%x bytes",
		  off_struct, size);
	expect_refused(t, size, want);
	fresh_copy(t);
	put32(blob + 8, 0x20);
	expect_refused(t, size, "struct block at 0x20 overlaps the 40-byte header");
}

static void strings_block_outside(struct ktest *t)
{
	char want[DT_ERR_MAX];

	if (!fresh_copy(t))
		return;
	put32(blob + 12, size - 2);
	ksnprintf(want, sizeof(want), "strings block [0x%x, +0x%x) outside blob of 0x%x bytes",
		  size - 2, size_strings, size);
	expect_refused(t, size, want);
	fresh_copy(t);
	put32(blob + 32, size_strings + 1);
	ksnprintf(want, sizeof(want), "strings block [0x%x, +0x%x) outside blob of 0x%x bytes",
		  off_strings, size_strings + 1, size);
	expect_refused(t, size, want);
}

static void memreserve_block_outside(struct ktest *t)
{
	char want[DT_ERR_MAX];

	if (!fresh_copy(t))
		return;
	put32(blob + 16, (size + 15) & ~7u);
	ksnprintf(want, sizeof(want), "memreserve block [0x%x, +0x0) outside blob of 0x%x bytes",
		  (size + 15) & ~7u, size);
	expect_refused(t, size, want);
	put32(blob + 16, 0x10);
	expect_refused(t, size, "memreserve block at 0x10 overlaps the 40-byte header");
}

static const struct ktest_case dt_corrupt_cases[] = {
	KTEST_CASE(copy_is_accepted),
	KTEST_CASE(bad_magic),
	KTEST_CASE(totalsize_past_available),
	KTEST_CASE(truncated_blob),
	KTEST_CASE(struct_block_outside),
	KTEST_CASE(strings_block_outside),
	KTEST_CASE(memreserve_block_outside),
	{ 0 },
};
KTEST_SUITE(dt_corrupt, dt_corrupt_cases);
