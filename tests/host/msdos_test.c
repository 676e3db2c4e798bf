/*
 * msdos_test.c - the MBR parser (block/partitions/msdos.c) over tables Debian's sfdisk made
 * (tests/host/msdos_images.sh, run first as a fixture; argv[1] is its directory): primaries,
 * an extended partition of each type with its logicals, an empty table, no signature, a GPT,
 * a FAT-style boot sector; and the tables it must refuse, each with its one reason: past the
 * disk's end, overlapping primaries or logicals, a logical outside its extended partition, a
 * looping chain, a chain one link too long (and the longest it takes), an unreadable block.
 */
#include <errno.h>
#include "test.h"
#include "tinymm/msdos_partition.h"

static const char *dir;

struct img {
	FILE *f;
	uint64_t nr_blocks;
	int fail_block;		/* this block reads as -EIO; -1: none */
};

static int img_read(void *ctx, uint64_t block, uint8_t *buf)
{
	struct img *im = ctx;

	assert_true(block < im->nr_blocks);	/* the parser never reads past the disk */
	if ((int64_t)block == im->fail_block)
		return -EIO;
	if (fseek(im->f, (long)(block * 512), SEEK_SET) || fread(buf, 512, 1, im->f) != 1)
		return -EIO;
	return 0;
}

static enum msdos_result parse_fail_at(const char *name, struct msdos_table *t, char *why,
				       int fail_block)
{
	char path[512];
	uint8_t buf[512];
	struct img im = { .fail_block = fail_block };
	enum msdos_result r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	im.f = fopen(path, "rb");
	if (!im.f) {
		fprintf(stderr, "msdos_test: %s: %s (run msdos_images.sh first)\n", path, strerror(errno));
		fail();
	}
	fseek(im.f, 0, SEEK_END);
	im.nr_blocks = (uint64_t)ftell(im.f) / 512;
	r = msdos_partition(img_read, &im, im.nr_blocks, 512, buf, t, why, 200);
	fclose(im.f);
	return r;
}

static enum msdos_result parse(const char *name, struct msdos_table *t, char *why)
{
	return parse_fail_at(name, t, why, -1);
}

static void expect_part(const struct msdos_table *t, int i, int partno, uint64_t start,
			uint64_t size, uint8_t type, bool extended)
{
	assert_true(i < t->nr_parts);
	assert_int_equal(t->parts[i].partno, partno);
	assert_int_equal(t->parts[i].start, start);
	assert_int_equal(t->parts[i].nr_sects, size);
	assert_int_equal(t->parts[i].sys_ind, type);
	assert_int_equal(t->parts[i].extended, extended);
}

static struct msdos_table t;
static char why[200];

static void primaries(void **state)
{
	assert_int_equal(parse("primaries.img", &t, why), MSDOS_TABLE);
	assert_int_equal(t.nr_parts, 3);
	expect_part(&t, 0, 1, 2048, 4096, 0x83, false);
	expect_part(&t, 1, 2, 6144, 2048, 0x0c, false);
	expect_part(&t, 2, 3, 8192, 8192, 0x82, false);
}

/* Each extended type: the container as partition 4, 2 sectors (v6.10), logicals 5 and 6. */
static void extended(void **state)
{
	static const struct { const char *img; uint8_t type; } ext[] = {
		{ "extended_5.img", 0x05 }, { "extended_f.img", 0x0f }, { "extended_85.img", 0x85 },
	};

	for (unsigned int k = 0; k < 3; k++) {
		assert_int_equal(parse(ext[k].img, &t, why), MSDOS_TABLE);
		assert_int_equal(t.nr_parts, 6);
		expect_part(&t, 0, 1, 2048, 4096, 0x83, false);
		expect_part(&t, 1, 2, 6144, 4096, 0x83, false);
		expect_part(&t, 2, 3, 10240, 4096, 0x83, false);
		expect_part(&t, 3, 4, 14336, 2, ext[k].type, true);
		expect_part(&t, 4, 5, 16384, 2048, 0x83, false);
		expect_part(&t, 5, 6, 20480, 4096, 0x83, false);
	}
}

static void no_partitions(void **state)
{
	assert_int_equal(parse("empty.img", &t, why), MSDOS_TABLE);
	assert_int_equal(t.nr_parts, 0);
	assert_int_equal(parse("nosig.img", &t, why), MSDOS_NO_TABLE);
	assert_int_equal(t.nr_parts, 0);
	assert_int_equal(parse("fatboot.img", &t, why), MSDOS_NO_TABLE);
	assert_int_equal(parse("gpt.img", &t, why), MSDOS_GPT);
	assert_int_equal(t.nr_parts, 0);
}

static void refused(const char *img, const char *reason)
{
	memset(&t, 0xa5, sizeof(t));
	assert_int_equal(parse(img, &t, why), MSDOS_BAD);
	assert_int_equal(t.nr_parts, 0);
	if (strcmp(why, reason)) {
		fprintf(stderr, "%s: got \"%s\"\n   wanted \"%s\"\n", img, why, reason);
		fail();
	}
}

static void beyond_end(void **state)
{
	refused("beyond.img", "partition 2 (blocks 8192-24575) ends beyond the disk's end (16384 blocks)");
	refused("beyond_logical.img",
		"partition 1 (blocks 2048-32767) ends beyond the disk's end (16384 blocks)");
	refused("outside.img",
		"logical partition 6 (blocks 20480-36863) lies outside extended partition 4 (blocks 14336-32767)");
}

static void overlapping(void **state)
{
	refused("overlap.img", "partitions 1 and 2 overlap (blocks 2048-6143 and 4096-8191)");
	refused("overlap_logical.img",
		"partitions 5 and 6 overlap (blocks 4096-12287 and 10240-14335)");
}

static void chains(void **state)
{
	refused("loop.img", "the extended partition's chain loops (block 14336 comes twice)");
	refused("chain33.img", "the extended partition's chain is longer than 32 links");
	/* The longest chain taken: 32 logicals, 5..36, each after its own EBR. */
	assert_int_equal(parse("chain32.img", &t, why), MSDOS_TABLE);
	assert_int_equal(t.nr_parts, 1 + 32);
	expect_part(&t, 0, 1, 2048, 2, 0x05, true);
	for (int i = 1; i <= 32; i++) {
		assert_int_equal(t.parts[i].partno, 4 + i);
		assert_int_equal(t.parts[i].nr_sects, 2048);
		assert_true(t.parts[i].start > t.parts[i - 1].start);
	}
}

static void read_errors(void **state)
{
	assert_int_equal(parse_fail_at("extended_5.img", &t, why, 0), MSDOS_IO_ERROR);
	assert_string_equal(why, "cannot read the MBR (block 0): -EIO");
	assert_int_equal(parse_fail_at("extended_5.img", &t, why, 14336), MSDOS_IO_ERROR);
	assert_string_equal(why, "cannot read an extended boot record (block 14336): -EIO");
	assert_int_equal(t.nr_parts, 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(primaries),
		cmocka_unit_test(extended),
		cmocka_unit_test(no_partitions),
		cmocka_unit_test(beyond_end),
		cmocka_unit_test(overlapping),
		cmocka_unit_test(chains),
		cmocka_unit_test(read_errors),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: msdos_test IMAGE_DIR\n");
		return 2;
	}
	dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
