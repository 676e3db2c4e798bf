/*
 * virtio_blk_ktest.c - the block layer and a disk driver against a real disk (suite `virtio_blk`,
 * explicit-only: it needs a scratch disk, vda unless tinymm.ktest_disk names another, whose
 * first 4 MiB it overwrites).  tests/qemu/blk.cmake runs it on every board with a fresh image;
 * tests/qemu/sdmmc.cmake on the Orange Pi PC's card (tinymm.ktest_disk=mmcblk0, a throw-away
 * copy of the card: the kernel is already in RAM when the suite overwrites U-Boot).
 *
 * Round trips at several offsets, sizes and segmentations (one page, many pages, sub-page
 * fragments of different pages, a page split in two fragments); bios past or across the end,
 * misaligned or empty ones end with -EINVAL and are never sent; flush; more bios at once than
 * the virtqueue holds (the block layer's queue); bio_add_page's segment limit; the counters.
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/completion.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"

#define NPAGES	16

static char scratch_name[8] = "vda";

static int set_ktest_disk(const char *val)
{
	if (!val[0] || strlen(val) >= sizeof(scratch_name))
		return -EINVAL;
	strcpy(scratch_name, val);
	return 0;
}
KPARAM(ktest_disk, set_ktest_disk, "the scratch disk the virtio_blk KTAP suite overwrites (default vda)");

static struct block_device *scratch(struct ktest *t)
{
	struct block_device *b = blkdev_get_by_name(scratch_name);

	if (!b)
		ktest_fail_msg(t, __FILE__, __LINE__, "no scratch disk (vda: tools/run --disk img; or tinymm.ktest_disk)");
	else if (bdev_nr_bytes(b) < 4 * SZ_1M)
		ktest_fail_msg(t, __FILE__, __LINE__, "the scratch disk is smaller than the 4 MiB this suite needs");
	return b && bdev_nr_bytes(b) >= 4 * SZ_1M ? b : NULL;
}

static unsigned char pattern(uint64_t byte, unsigned int seed)
{
	return (unsigned char)((byte >> 9) * 31 + (byte & 511) * 7 + seed);
}

/* Do @op on @len bytes at byte @pos, the data in @pages split into fragments of @frag bytes
 * (each fragment from the next page, at offset (i % 2) * 512 when it fits, so consecutive
 * fragments never merge). */
static int rw(struct block_device *b, enum req_op op, uint64_t pos, unsigned int len,
	      struct page **pages, unsigned int frag)
{
	unsigned int nfrag = (len + frag - 1) / frag;
	struct bio *bio = bio_alloc(b, (unsigned short)nfrag, op, GFP_KERNEL);
	int ret;

	if (!bio)
		return -ENOMEM;
	bio->bi_sector = pos >> SECTOR_SHIFT;
	for (unsigned int i = 0; i < nfrag; i++) {
		unsigned int n = min(frag, len - i * frag);
		unsigned int off = frag <= PAGE_SIZE / 2 ? (i % 2) * 512 : 0;

		if (bio_add_page(bio, pages[i % NPAGES], n, off) != n) {
			bio_put(bio);
			return -E2BIG;
		}
	}
	ret = submit_bio_wait(bio);
	bio_put(bio);
	return ret;
}

static void fill(struct page **pages, uint64_t pos, unsigned int len, unsigned int frag,
		 unsigned int seed, bool check, struct ktest *t)
{
	for (unsigned int i = 0; i * frag < len; i++) {
		unsigned int n = min(frag, len - i * frag);
		unsigned int off = frag <= PAGE_SIZE / 2 ? (i % 2) * 512 : 0;
		unsigned char *p = (unsigned char *)page_address(pages[i % NPAGES]) + off;

		for (unsigned int j = 0; j < n; j++) {
			unsigned char want = pattern(pos + i * frag + j, seed);
			if (!check) {
				p[j] = want;
			} else if (p[j] != want) {
				KTEST_EXPECT_EQ(t, p[j], want);
				return;
			}
		}
	}
}

static struct page *pages[NPAGES];

static bool get_pages(struct ktest *t)
{
	for (int i = 0; i < NPAGES; i++)
		if (!pages[i] && !(pages[i] = alloc_page(GFP_KERNEL))) {
			ktest_fail_msg(t, __FILE__, __LINE__, "out of memory");
			return false;
		}
	return true;
}

static void round_trips(struct ktest *t)
{
	static const struct { uint64_t pos; unsigned int len, wfrag, rfrag; } cases[] = {
		{ 0, 512, 512, 512 },				/* one sector */
		{ 4096, 4096, 4096, 4096 },			/* one page */
		{ 8192 + 512, 3 * 4096, 4096, 1024 },		/* unaligned, re-segmented */
		{ SZ_1M, NPAGES * 4096, 4096, 4096 },		/* 16 segments */
		{ 2 * SZ_1M - 1536, 12 * 512, 512, 2048 },	/* 12 sub-page fragments */
		{ 3 * SZ_1M, 32 * 1024, 4096, 2048 },		/* 8 pages, read as 16 halves */
	};

	struct block_device *b = scratch(t);
	if (!b || !get_pages(t))
		return;
	for (unsigned int c = 0; c < ARRAY_SIZE(cases); c++) {
		unsigned int len = cases[c].len;

		fill(pages, cases[c].pos, len, cases[c].wfrag, c, false, t);
		KTEST_ASSERT_EQ(t, rw(b, REQ_OP_WRITE, cases[c].pos, len, pages, cases[c].wfrag), 0);
		for (int i = 0; i < NPAGES; i++)
			memset(page_address(pages[i]), 0xee, PAGE_SIZE);
		KTEST_ASSERT_EQ(t, rw(b, REQ_OP_READ, cases[c].pos, len, pages, cases[c].rfrag), 0);
		fill(pages, cases[c].pos, len, cases[c].rfrag, c, true, t);
	}
}

static void bad_bios_fail_einval(struct ktest *t)
{
	struct block_device *b = scratch(t);
	unsigned long errors, reads;
	uint64_t end;

	if (!b || !get_pages(t))
		return;
	end = bdev_nr_bytes(b);
	errors = b->bd_stats.errors;
	reads = b->bd_stats.reads;
	KTEST_EXPECT_EQ(t, rw(b, REQ_OP_READ, end, 512, pages, 512), -EINVAL);		/* at the end */
	KTEST_EXPECT_EQ(t, rw(b, REQ_OP_READ, end - 512, 1024, pages, 1024), -EINVAL);	/* across it */
	KTEST_EXPECT_EQ(t, rw(b, REQ_OP_WRITE, end + SZ_1M, 4096, pages, 4096), -EINVAL);
	KTEST_EXPECT_EQ(t, rw(b, REQ_OP_READ, 0, 100, pages, 100), -EINVAL);		/* not sectors */
	KTEST_EXPECT_EQ(t, rw(b, REQ_OP_READ, end - 512, 512, pages, 512), 0);		/* the last one */

	struct bio *bio = bio_alloc(b, 1, REQ_OP_READ, GFP_KERNEL);	/* empty */
	KTEST_ASSERT_TRUE(t, bio);
	bio->bi_sector = ~0ULL >> 8;					/* and far away */
	KTEST_EXPECT_EQ(t, submit_bio_wait(bio), -EINVAL);
	bio_put(bio);
	KTEST_EXPECT_EQ(t, b->bd_stats.errors - errors, 5);
	KTEST_EXPECT_EQ(t, b->bd_stats.reads - reads, 1);
}

static void flush_works(struct ktest *t)
{
	struct block_device *b = scratch(t);
	unsigned long flushes;

	if (!b)
		return;
	flushes = b->bd_stats.flushes;
	struct bio *bio = bio_alloc(b, 0, REQ_OP_FLUSH, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, bio);
	KTEST_EXPECT_EQ(t, submit_bio_wait(bio), 0);
	bio_put(bio);
	KTEST_EXPECT_EQ(t, b->bd_stats.flushes - flushes, 1);
}

static struct completion many_done;
static void many_end_io(struct bio *bio)
{
	complete(&many_done);
}

/* 200 one-page writes at once (3 descriptors each: about 85 fit a 256-entry queue), then 200
 * reads: every one completes, in any order, with the right data. */
static void more_bios_than_the_queue_holds(struct ktest *t)
{
	enum { N = 200 };
	static struct bio *bios[N];
	struct block_device *b = scratch(t);
	int bad = 0;

	if (!b || !get_pages(t))
		return;
	for (int op = REQ_OP_WRITE; op >= REQ_OP_READ; op--) {
		init_completion(&many_done);
		for (int i = 0; i < N; i++) {
			uint64_t pos = SZ_1M + (uint64_t)i * 512;

			bios[i] = bio_alloc(b, 1, (unsigned int)op, GFP_KERNEL);
			KTEST_ASSERT_TRUE(t, bios[i]);
			bios[i]->bi_sector = pos >> SECTOR_SHIFT;
			bios[i]->bi_end_io = many_end_io;
			/* Each bio 512 bytes of one of the pages (filled when submitted). */
			bio_add_page(bios[i], pages[i / 8 % NPAGES], 512, (i % 8) * 512);
		}
		/* 200 slots of 512 bytes need 25 pages; there are 16: two rounds (128, then 72
		 * bios), so no two bios in flight share bytes.  Either round overflows the queue. */
		for (int round = 0; round < 2; round++) {
			int lo = round ? 128 : 0, hi = round ? N : 128;

			reinit_completion(&many_done);
			for (int i = lo; i < hi; i++) {
				unsigned char *p = (unsigned char *)page_address(pages[i / 8 % NPAGES]) + (i % 8) * 512;
				for (int j = 0; j < 512; j++)
					p[j] = op == REQ_OP_WRITE ? pattern(SZ_1M + (uint64_t)i * 512 + j, 77) : 0;
				submit_bio(bios[i]);
			}
			for (int i = lo; i < hi; i++)
				wait_for_completion(&many_done);
			for (int i = lo; i < hi; i++) {
				bad += bios[i]->bi_status != 0;
				if (op == REQ_OP_READ) {
					unsigned char *p = (unsigned char *)page_address(pages[i / 8 % NPAGES]) + (i % 8) * 512;
					for (int j = 0; j < 512; j++)
						if (p[j] != pattern(SZ_1M + (uint64_t)i * 512 + j, 77)) {
							bad++;
							break;
						}
				}
			}
		}
		for (int i = 0; i < N; i++)
			bio_put(bios[i]);
	}
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_TRUE(t, b->bd_queue_head == NULL);
}

static void bio_add_page_respects_the_segment_limit(struct ktest *t)
{
	struct block_device *b = scratch(t);
	unsigned int added = 0;

	if (!b || !get_pages(t))
		return;
	struct bio *bio = bio_alloc(b, 256, REQ_OP_READ, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, bio);
	for (unsigned int i = 0; i < 256; i++)
		added += bio_add_page(bio, pages[i % NPAGES], 512, (i % 2) * 1024) ? 1 : 0;
	KTEST_EXPECT_EQ(t, added, min(256U, b->bd_max_segments));
	/* Two touching fragments of one page are one segment. */
	struct bio *m = bio_alloc(b, 2, REQ_OP_READ, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, m);
	KTEST_EXPECT_EQ(t, bio_add_page(m, pages[0], 512, 0), 512);
	KTEST_EXPECT_EQ(t, bio_add_page(m, pages[0], 512, 512), 512);
	KTEST_EXPECT_EQ(t, m->bi_vcnt, 1);
	KTEST_EXPECT_EQ(t, m->bi_size, 1024);
	bio_put(m);
	bio_put(bio);
}

/* The virtio disks are vda, vdb, ... in registration order (partitions and other drivers'
 * disks, mmcblk0, may come between them). */
static void disks_are_named_in_order(struct ktest *t)
{
	int v = 0;

	for (int i = 0; i < blkdev_count(); i++) {
		char want[4] = { 'v', 'd', (char)('a' + v), 0 };

		/* vda1 and friends come after their disk; mmcblk0 is not virtio's */
		if (bdev_is_partition(blkdev_nth(i)) || strncmp(blkdev_nth(i)->bd_name, "vd", 2))
			continue;
		v++;
		KTEST_EXPECT_STREQ(t, blkdev_nth(i)->bd_name, want);
		KTEST_EXPECT_TRUE(t, blkdev_get_by_name(want) == blkdev_nth(i));
	}
	KTEST_EXPECT_TRUE(t, blkdev_get_by_name("vdz") == NULL);
	KTEST_EXPECT_TRUE(t, blkdev_nth(blkdev_count()) == NULL);
}

static void release_pages(struct ktest *t)
{
	for (int i = 0; i < NPAGES; i++)
		if (pages[i]) {
			__free_page(pages[i]);
			pages[i] = NULL;
		}
	KTEST_EXPECT_EQ(t, 0, 0);
}

static const struct ktest_case virtio_blk_cases[] = {
	KTEST_CASE(disks_are_named_in_order),
	KTEST_CASE(round_trips),
	KTEST_CASE(bad_bios_fail_einval),
	KTEST_CASE(flush_works),
	KTEST_CASE(more_bios_than_the_queue_holds),
	KTEST_CASE(bio_add_page_respects_the_segment_limit),
	KTEST_CASE(release_pages),
	{}
};
KTEST_SUITE_EXPLICIT(virtio_blk, virtio_blk_cases);
