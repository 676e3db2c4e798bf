/*
 * partitions_ktest.c - partitions as block devices (block/partitions/core.c; suite
 * `partitions`, explicit-only: it needs vda to carry tests/qemu/partitions_test.sh's table,
 * 3 primaries, an extended 4 and logicals 5 and 6, and writes into vda3).
 *
 * The devices and their geometry; a partition's bio reaches the whole disk at start + sector
 * (the same bytes through vda and through vdaN, a write through vda3 read back through vda)
 * and comes back to bi_end_io as the partition's own; a bio past or across a partition's end
 * ends with -EINVAL, counted on the partition only; a partition's I/O counts on it and on vda.
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"

static const struct {
	const char *name;
	sector_t start, nr;
} geometry[] = {
	{ "vda1", 2048, 4096 }, { "vda2", 6144, 4096 }, { "vda3", 10240, 4096 },
	{ "vda4", 14336, 2 }, { "vda5", 16384, 2048 }, { "vda6", 20480, 8192 },
};

/* One bio of @len bytes at @sector of @b into/from @page; its status.  @seen gets the bio's
 * device and sector as bi_end_io saw them. */
struct seen {
	struct block_device *bdev;
	sector_t sector;
	struct block_device *part;
};

static int rw(struct block_device *b, enum req_op op, sector_t sector, unsigned int len,
	      struct page *page, struct seen *seen)
{
	struct bio *bio = bio_alloc(b, 1, op, GFP_KERNEL);
	int ret;

	if (!bio)
		return -ENOMEM;
	bio->bi_sector = sector;
	if (bio_add_page(bio, page, len, 0) != len) {
		bio_put(bio);
		return -E2BIG;
	}
	ret = submit_bio_wait(bio);
	if (seen) {
		seen->bdev = bio->bi_bdev;
		seen->sector = bio->bi_sector;
		seen->part = bio->bi_part;
	}
	bio_put(bio);
	return ret;
}

static struct blk_stats stats(struct block_device *b)
{
	struct blk_stats s;
	unsigned long flags;

	spin_lock_irqsave(&b->bd_queue_lock, flags);
	s = b->bd_stats;
	spin_unlock_irqrestore(&b->bd_queue_lock, flags);
	return s;
}

static void devices_and_geometry(struct ktest *t)
{
	struct block_device *vda = blkdev_get_by_name("vda");

	KTEST_ASSERT_TRUE(t, vda != NULL);
	KTEST_EXPECT_FALSE(t, bdev_is_partition(vda));
	KTEST_EXPECT_TRUE(t, bdev_whole(vda) == vda);
	for (unsigned int i = 0; i < ARRAY_SIZE(geometry); i++) {
		struct block_device *p = blkdev_get_by_name(geometry[i].name);

		KTEST_ASSERT_TRUE(t, p != NULL);
		KTEST_EXPECT_TRUE(t, bdev_is_partition(p));
		KTEST_EXPECT_TRUE(t, bdev_whole(p) == vda);
		KTEST_EXPECT_EQ(t, p->bd_start_sect, geometry[i].start);
		KTEST_EXPECT_EQ(t, p->bd_nr_sectors, geometry[i].nr);
		KTEST_EXPECT_EQ(t, p->bd_partno, (uint8_t)(geometry[i].name[3] - '0'));
		KTEST_EXPECT_TRUE(t, p->bd_mapping != NULL && p->bd_mapping != vda->bd_mapping);
		KTEST_EXPECT_EQ(t, MAJOR(p->bd_dev), 254U);
		KTEST_EXPECT_EQ(t, MINOR(p->bd_dev), (unsigned int)p->bd_partno);
	}
	KTEST_EXPECT_TRUE(t, blkdev_get_by_name("vda7") == NULL);
	KTEST_EXPECT_TRUE(t, blkdev_get_by_name("vda0") == NULL);
}

/* The last 4 KiB of vda6 through vda6 and through vda: the same bytes; the bio is vda6's again
 * when it completes. */
static void remap_reads_the_disk(struct ktest *t)
{
	struct block_device *vda = blkdev_get_by_name("vda"), *p = blkdev_get_by_name("vda6");
	struct page *a = alloc_page(GFP_KERNEL), *b = alloc_page(GFP_KERNEL);
	struct seen seen;

	KTEST_ASSERT_TRUE(t, vda && p && a && b);
	KTEST_EXPECT_EQ(t, rw(p, REQ_OP_READ, 8192 - 8, 4096, a, &seen), 0);
	KTEST_EXPECT_TRUE(t, seen.bdev == p);
	KTEST_EXPECT_EQ(t, seen.sector, (sector_t)(8192 - 8));
	KTEST_EXPECT_TRUE(t, seen.part == NULL);
	KTEST_EXPECT_EQ(t, rw(vda, REQ_OP_READ, 20480 + 8192 - 8, 4096, b, NULL), 0);
	KTEST_EXPECT_EQ(t, memcmp(page_address(a), page_address(b), 4096), 0);
	__free_page(a);
	__free_page(b);
}

/* A write through vda3 lands at vda's 10240 + 16; vda2's last sector and vda3's next are
 * untouched. */
static void write_lands_at_start(struct ktest *t)
{
	struct block_device *vda = blkdev_get_by_name("vda"), *p = blkdev_get_by_name("vda3");
	struct page *a = alloc_page(GFP_KERNEL), *b = alloc_page(GFP_KERNEL);
	unsigned char *pa, *pb;

	KTEST_ASSERT_TRUE(t, vda && p && a && b);
	pa = page_address(a);
	pb = page_address(b);
	/* Before: the sectors around it, read through vda. */
	KTEST_EXPECT_EQ(t, rw(vda, REQ_OP_READ, 10240 + 15, 1536, b, NULL), 0);
	for (int i = 0; i < 512; i++)
		pa[i] = (unsigned char)(i * 13 + 5);
	KTEST_EXPECT_EQ(t, rw(p, REQ_OP_WRITE, 16, 512, a, NULL), 0);
	memcpy(pa + 512, pb + 512, 512);	/* what vda must read now at 10240 + 16 */
	memcpy(pb + 512, pa, 512);
	KTEST_EXPECT_EQ(t, rw(vda, REQ_OP_READ, 10240 + 15, 1536, a, NULL), 0);
	KTEST_EXPECT_EQ(t, memcmp(pa, pb, 1536), 0);
	__free_page(a);
	__free_page(b);
}

/* Past or across vda5's end: -EINVAL, counted as an error on vda5, nothing on vda. */
static void past_the_end_is_einval(struct ktest *t)
{
	struct block_device *vda = blkdev_get_by_name("vda"), *p = blkdev_get_by_name("vda5");
	struct page *a = alloc_page(GFP_KERNEL);
	struct blk_stats d0, p0, d1, p1;

	KTEST_ASSERT_TRUE(t, vda && p && a);
	d0 = stats(vda);
	p0 = stats(p);
	KTEST_EXPECT_EQ(t, rw(p, REQ_OP_READ, 2048, 512, a, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, rw(p, REQ_OP_WRITE, 2047, 1024, a, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, rw(blkdev_get_by_name("vda4"), REQ_OP_READ, 0, 4096, a, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, rw(p, REQ_OP_READ, 2047, 512, a, NULL), 0);	/* the last one is fine */
	d1 = stats(vda);
	p1 = stats(p);
	KTEST_EXPECT_EQ(t, p1.errors - p0.errors, 2UL);
	KTEST_EXPECT_EQ(t, p1.reads - p0.reads, 1UL);
	KTEST_EXPECT_EQ(t, d1.errors, d0.errors);
	KTEST_EXPECT_EQ(t, d1.reads - d0.reads, 1UL);
	KTEST_EXPECT_EQ(t, d1.writes, d0.writes);
	__free_page(a);
}

/* A partition's read and write count on it and on the disk, bytes too. */
static void counted_on_both(struct ktest *t)
{
	struct block_device *vda = blkdev_get_by_name("vda"), *p = blkdev_get_by_name("vda1");
	struct page *a = alloc_page(GFP_KERNEL);
	struct blk_stats d0, p0, d1, p1;

	KTEST_ASSERT_TRUE(t, vda && p && a);
	d0 = stats(vda);
	p0 = stats(p);
	KTEST_EXPECT_EQ(t, rw(p, REQ_OP_READ, 0, 4096, a, NULL), 0);
	KTEST_EXPECT_EQ(t, rw(p, REQ_OP_WRITE, 8, 2048, a, NULL), 0);
	d1 = stats(vda);
	p1 = stats(p);
	KTEST_EXPECT_EQ(t, p1.reads - p0.reads, 1UL);
	KTEST_EXPECT_EQ(t, p1.read_bytes - p0.read_bytes, 4096ULL);
	KTEST_EXPECT_EQ(t, p1.writes - p0.writes, 1UL);
	KTEST_EXPECT_EQ(t, p1.write_bytes - p0.write_bytes, 2048ULL);
	KTEST_EXPECT_EQ(t, d1.reads - d0.reads, 1UL);
	KTEST_EXPECT_EQ(t, d1.read_bytes - d0.read_bytes, 4096ULL);
	KTEST_EXPECT_EQ(t, d1.writes - d0.writes, 1UL);
	KTEST_EXPECT_EQ(t, d1.write_bytes - d0.write_bytes, 2048ULL);
	__free_page(a);
}

static const struct ktest_case partitions_cases[] = {
	KTEST_CASE(devices_and_geometry),
	KTEST_CASE(remap_reads_the_disk),
	KTEST_CASE(write_lands_at_start),
	KTEST_CASE(past_the_end_is_einval),
	KTEST_CASE(counted_on_both),
	{}
};
KTEST_SUITE_EXPLICIT(partitions, partitions_cases);
