/*
 * brd.c - RAM disks (Linux's drivers/block/brd.c): ram0..ram3, block devices whose sectors live
 * in pages of memory, for a filesystem on a board with no disk of its own.
 *
 * ram0 starts as the built-in sample filesystem (tools/mkramdisk: a 2 MiB ext2 image) and ram1
 * as the board's root filesystem (build/<board>/rootfs.img: the user programs in /bin), for a
 * board with no disk driver to boot it from (tinymm.root=ram1).  Both are linked in by
 * drivers/brd_image.S with their all-zero runs left out, and brd_images[] says which disk gets
 * which; a disk takes its image's size.  ram2..ram3, and ram1 in a build without the rootfs
 * image (the host's), start as zeros, 4 MiB each (v6.10's CONFIG_BLK_DEV_RAM_SIZE default).
 * A disk is made the first time something asks for it by name (`mount ram0 /mnt`,
 * `blk read ram2 0 16`, tinymm.root=ram1): the block layer calls brd_probe() as v6.10's
 * blk_request_module() calls brd_probe() for a /dev/ramN that does not exist yet.  Nothing is
 * allocated before then.
 *
 * Sectors are kept in pages, one xarray entry per PAGE_SIZE of the disk, allocated on the first
 * write there; a read of a page never written gives zeros (as v6.10).  Every bio is done inside
 * submit_bio, under the disk's queue lock with interrupts masked, so a page is allocated there
 * with GFP_NOWAIT: if none is free the write ends with -ENOMEM (v6.10 allocates with GFP_NOIO
 * and may sleep, because its submit_bio is not called under a spinlock).
 * Locking: the disk's queue lock (bd_queue_lock) serialises every use of its pages and xarray;
 * brd_reset() runs with the disk unused (nothing mounted).  Disks are never freed (the block
 * layer has no del_gendisk).
 */
#include <string.h>
#include "tinymm/cacheflush.h"
#include "tinymm/blkdev.h"
#include "tinymm/brd.h"
#include "tinymm/errno.h"
#include "tinymm/kernel.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/xarray.h"

#define BRD_NR_DISKS		4
#define BRD_DEFAULT_BYTES	(4UL << 20)
#define PAGE_SECTORS		(PAGE_SIZE / SECTOR_SIZE)
#define SAMPLE_MAGIC		"TMRD"
#define SAMPLE_VERSION		1U
#define SAMPLE_MAX_BYTES	(64ULL << 20)

/* drivers/brd_image.S: tools/mkramdisk's output. */
extern const unsigned char brd_sample_image[], brd_sample_image_end[];
extern const unsigned char brd_rootfs_image[], brd_rootfs_image_end[];

/* A disk's first contents; an empty blob (start == end) means none: zeros. */
struct brd_image {
	const unsigned char *start, *end;
	const char *what;			/* for `blk list` and the error line */
};

static const struct brd_image brd_images[] = {
	{ brd_sample_image, brd_sample_image_end, "the sample filesystem" },
	{ brd_rootfs_image, brd_rootfs_image_end, "the root filesystem image" },
};

/* ramN's built-in image, or NULL if it starts as zeros. */
static const struct brd_image *brd_image_of(int number)
{
	if (number >= (int)ARRAY_SIZE(brd_images) || brd_images[number].start == brd_images[number].end)
		return NULL;
	return &brd_images[number];
}

struct brd_device {
	struct block_device disk;
	struct xarray pages;			/* page index on the disk -> struct page */
	unsigned long nr_pages;			/* allocated */
	int number;				/* N of ramN */
	unsigned int fail_reads;		/* `blk inject ramN read-error`: reads to fail */
};

static struct brd_device *brd_devices[BRD_NR_DISKS];
static DEFINE_MUTEX(brd_devices_mutex);

static uint32_t get_le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const unsigned char *p)
{
	return get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

/* The page holding @sector, allocated if @alloc; NULL if none (a hole, or no memory). */
static struct page *brd_lookup_page(struct brd_device *brd, sector_t sector, bool alloc, gfp_t gfp)
{
	pgoff_t index = (pgoff_t)(sector / PAGE_SECTORS);
	struct page *page = xa_load(&brd->pages, index);

	if (page || !alloc)
		return page;
	page = alloc_page(gfp | __GFP_ZERO | __GFP_NOWARN);
	if (!page)
		return NULL;
	if (xa_err(xa_store(&brd->pages, index, page, gfp | __GFP_NOWARN))) {
		__free_page(page);
		return NULL;
	}
	brd->nr_pages++;
	return page;
}

/* Copy @len bytes between @buf and the disk at @sector (@len within one disk page). */
static int brd_do_one(struct brd_device *brd, bool write, void *buf, sector_t sector,
		      unsigned int len, gfp_t gfp)
{
	unsigned int off = (unsigned int)(sector % PAGE_SECTORS) * SECTOR_SIZE;
	struct page *page = brd_lookup_page(brd, sector, write, gfp);

	if (write) {
		if (!page)
			return -ENOMEM;
		memcpy((char *)page_address(page) + off, buf, len);
	} else if (page) {
		memcpy(buf, (char *)page_address(page) + off, len);
	} else {
		memset(buf, 0, len);
	}
	return 0;
}

/* @len bytes at byte @pos of the disk, split at the disk's page boundaries. */
static int brd_rw(struct brd_device *brd, bool write, char *buf, uint64_t pos, size_t len, gfp_t gfp)
{
	while (len) {
		unsigned int chunk = PAGE_SIZE - (unsigned int)(pos % PAGE_SIZE);
		int err;

		if (chunk > len)
			chunk = (unsigned int)len;
		err = brd_do_one(brd, write, buf, pos >> SECTOR_SHIFT, chunk, gfp);
		if (err)
			return err;
		buf += chunk;
		pos += chunk;
		len -= chunk;
	}
	return 0;
}

static int brd_submit_bio(struct bio *bio)
{
	struct brd_device *brd = bio->bi_bdev->bd_private;
	bool write = bio_op(bio) == REQ_OP_WRITE;
	uint64_t pos = bio->bi_sector << SECTOR_SHIFT;

	lockdep_assert_held(&bio->bi_bdev->bd_queue_lock);
	if (bio_op(bio) == REQ_OP_FLUSH)
		return 1;		/* memory has no write cache */
	if (!write && brd->fail_reads) {
		brd->fail_reads--;	/* a test's media error (brd_inject) */
		return -EIO;
	}
	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct bio_vec *bv = &bio->bi_io_vec[i];
		int err = brd_rw(brd, write, (char *)page_address(bv->bv_page) + bv->bv_offset,
				 pos, bv->bv_len, GFP_NOWAIT);

		if (err)
			return err;
		if (!write)
			flush_dcache_page(bv->bv_page);	/* v6.10's brd_do_bvec: the CPU wrote it */
		pos += bv->bv_len;
	}
	return 1;		/* done: the block layer ends it with status 0 */
}

static void brd_describe(struct block_device *bdev, char *buf, size_t len)
{
	struct brd_device *brd = bdev->bd_private;
	const struct brd_image *img = brd_image_of(brd->number);

	ksnprintf(buf, len, "RAM disk, %lu KiB in memory%s%s", brd->nr_pages * (PAGE_SIZE / 1024),
		  img ? ", " : "", img ? img->what : "");
}

/* `blk inject ramN read-error`: the next read request ends with -EIO, as a media error would
 * (the swap and filesystem tests' failing device).  Under the queue lock, as submit_bio. */
static int brd_inject(struct block_device *bdev, const char *what)
{
	struct brd_device *brd = bdev->bd_private;
	unsigned long flags;

	if (strcmp(what, "read-error"))
		return -EINVAL;
	spin_lock_irqsave(&bdev->bd_queue_lock, flags);
	brd->fail_reads++;
	spin_unlock_irqrestore(&bdev->bd_queue_lock, flags);
	return 0;
}

static const struct block_device_operations brd_ops = {
	.submit_bio = brd_submit_bio,
	.describe = brd_describe,
	.test_inject = brd_inject,
};

/*
 * A built-in image's size, after checking the whole blob (tools/mkramdisk's format): 0 and a
 * reason in @why if it is not one.  The blob is the build's, but a bad one must not write
 * past the disk.
 */
static uint64_t image_check(const struct brd_image *img, const char **why)
{
	const unsigned char *p = img->start, *end = img->end;
	uint64_t bytes;
	uint32_t n;

	if (end - p < 20 || memcmp(p, SAMPLE_MAGIC, 4) || get_le32(p + 4) != SAMPLE_VERSION) {
		*why = "no TMRD version 1 header";
		return 0;
	}
	bytes = get_le64(p + 8);
	n = get_le32(p + 16);
	if (!bytes || bytes > SAMPLE_MAX_BYTES || bytes % PAGE_SIZE) {
		*why = "image size not a whole number of pages up to 64 MiB";
		return 0;
	}
	for (p += 20; n--; ) {
		uint64_t off, len;

		if (end - p < 12) {
			*why = "truncated extent header";
			return 0;
		}
		off = get_le64(p);
		len = get_le32(p + 4 + 4);
		p += 12;
		if (off > bytes || len > bytes - off || len > (uint64_t)(end - p)) {
			*why = "extent past the image or the blob";
			return 0;
		}
		p += len;
	}
	if (p != end) {
		*why = "bytes after the last extent";
		return 0;
	}
	return bytes;
}

/* Write a built-in image's extents to @brd (checked by image_check()); 0 or -ENOMEM. */
static int image_load(struct brd_device *brd, const struct brd_image *img)
{
	const unsigned char *p = img->start + 20;
	uint32_t n = get_le32(img->start + 16);

	while (n--) {
		uint64_t off = get_le64(p);
		uint32_t len = get_le32(p + 8);
		int err = brd_rw(brd, true, (char *)(p + 12), off, len, GFP_KERNEL);

		if (err)
			return err;
		p += 12 + len;
	}
	return 0;
}

/* Give back every page: the disk reads as zeros again. */
static void brd_free_pages(struct brd_device *brd)
{
	unsigned long index;
	struct page *page;

	xa_for_each(&brd->pages, index, page)
		__free_page(page);
	xa_destroy(&brd->pages);
	brd->nr_pages = 0;
}

static int brd_fill(struct brd_device *brd)
{
	const struct brd_image *img = brd_image_of(brd->number);
	int err = img ? image_load(brd, img) : 0;

	if (err)
		brd_free_pages(brd);
	return err;
}

static struct brd_device *brd_alloc(int number)
{
	const struct brd_image *img = brd_image_of(number);
	const char *why = NULL;
	uint64_t bytes = img ? image_check(img, &why) : BRD_DEFAULT_BYTES;
	struct brd_device *brd;

	if (!bytes) {
		pr_err("brd: ram%d: the built-in image (%s) is bad: %s; no ram%d\n", number,
		       img->what, why, number);
		return NULL;
	}
	brd = kzalloc(sizeof(*brd), GFP_KERNEL);
	if (!brd)
		return NULL;
	xa_init(&brd->pages);
	brd->number = number;
	ksnprintf(brd->disk.bd_name, sizeof(brd->disk.bd_name), "ram%d", number);
	brd->disk.bd_nr_sectors = bytes >> SECTOR_SHIFT;
	brd->disk.bd_logical_block_size = SECTOR_SIZE;
	brd->disk.bd_max_segments = 256;
	brd->disk.bd_ops = &brd_ops;
	brd->disk.bd_private = brd;
	if (brd_fill(brd) || add_disk(&brd->disk)) {
		pr_err("brd: %s: no memory for the disk\n", brd->disk.bd_name);
		brd_free_pages(brd);
		kfree(brd);
		return NULL;
	}
	return brd;
}

/* The block layer's probe for a name it does not know (blkdev_get_by_name()). */
static void brd_probe(const char *name)
{
	int number;

	if (strncmp(name, "ram", 3) || name[3] < '0' || name[3] >= '0' + BRD_NR_DISKS || name[4])
		return;
	number = name[3] - '0';
	mutex_lock(&brd_devices_mutex);
	if (!brd_devices[number])
		brd_devices[number] = brd_alloc(number);
	mutex_unlock(&brd_devices_mutex);
}

void brd_init(void)
{
	if (register_blkdev_probe("ram", brd_probe))
		pr_err("brd: cannot register its probe: no RAM disks\n");
}

int brd_reset(struct block_device *bdev)
{
	struct brd_device *brd;
	int err;

	if (!bdev || bdev->bd_ops != &brd_ops)
		return -EINVAL;
	brd = bdev->bd_private;
	/* The disk's cache first: nothing of the old contents may be read or written back. */
	truncate_inode_pages(bdev->bd_mapping, 0);
	spin_lock_irq(&bdev->bd_queue_lock);
	brd_free_pages(brd);
	spin_unlock_irq(&bdev->bd_queue_lock);
	err = brd_fill(brd);
	if (err)
		pr_err("brd: %s: no memory to reload it; it reads as zeros\n", bdev->bd_name);
	return err;
}
