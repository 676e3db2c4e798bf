/*
 * blk-core.c - the block layer (include/tinymm/blkdev.h): disks, bios, a queue per disk,
 * completion and counters.  Small, but with Linux's rules:
 *   - submit_bio() never sleeps and never drops a bio: a bad bio (past the end, misaligned, too
 *     many segments) or a failed disk ends at once with -EINVAL / -ENXIO without reaching the
 *     driver; a good one is queued and offered to the driver in order; if the driver has no
 *     room (-EBUSY) it waits at the head of the queue until the driver calls blk_queue_run().
 *   - bio_endio() counts, then calls bi_end_io, possibly in interrupt context.
 *   - A failed disk (blk_mark_failed) ends everything queued and everything later with -ENXIO.
 * Counters (bd_stats): reads/writes/flushes and bytes count bios that succeeded; errors counts
 * the ones that did not (any status, including -EINVAL and -ENXIO).  Readahead (REQ_RAHEAD)
 * reads are also counted apart.  A partition's bio (block/partitions/core.c) is checked
 * against the partition, then remapped to its whole disk, and counts on both (a bio refused by
 * the partition's check only on the partition).
 * The table holds whole disks and partitions (vda1, registered after their disk).
 * Names: virtio disks are vda, vdb, ... in their own order; a driver that names its disk
 * (brd's ram0) keeps the name.  A name nobody registered yet goes to the probes
 * (register_blkdev_probe(), v6.10's __register_blkdev probe): blkdev_get_by_name() may sleep.
 * Locking: bd_queue_lock (irqs masked) guards the queue, bd_failed and bd_stats; the driver's
 * submit_bio runs under it (and takes its own lock inside).  bi_end_io is called with no lock
 * held.  The disk table only grows: at boot, and when a probe makes a disk (in a thread; the
 * probing driver serialises its own probes).
 */
#include <string.h>
#include "tinymm/barrier.h"
#include "tinymm/blkdev.h"
#include "tinymm/meminfo.h"
#include "tinymm/completion.h"
#include "tinymm/errno.h"
#include "tinymm/fs.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/vmstat.h"

#define MAX_DISKS		128	/* disks and partitions */
#define MAX_VIRTIO_DISKS	26	/* vda .. vdz */
#define BIO_INLINE_VECS		32	/* 128 KiB of pages: the default readahead maximum */
#define BIO_MAX_VECS		256

/* A disk's page cache lives in block/fops.c (blkdev_init_mapping()). */

static struct block_device *disks[MAX_DISKS];
static int nr_disks, nr_virtio_disks;

/* Drivers that make a disk when it is first asked for by name (brd's ramN). */
#define MAX_PROBES		4
static struct blkdev_probe {
	const char *prefix;
	void (*probe)(const char *name);
} probes[MAX_PROBES];
static struct kmem_cache *bio_cache;

static struct kmem_cache *bio_cache_get(void)
{
	/* Created by the first add_disk() at boot; a bio for no disk creates it here. */
	if (!bio_cache)
		bio_cache = kmem_cache_create("bio", sizeof(struct bio) +
					      BIO_INLINE_VECS * sizeof(struct bio_vec), 8, 0, NULL);
	return bio_cache;
}

/* Linux's nr_blockdev_pages(): meminfo's Buffers (registered in add_disk). */
static unsigned long nr_blockdev_pages(void)
{
	unsigned long n = 0;

	for (int i = 0; i < nr_disks; i++)
		if (disks[i]->bd_mapping)
			n += READ_ONCE(disks[i]->bd_mapping->nrpages);
	return n;
}

int add_disk(struct block_device *bdev)
{
	if (nr_disks == MAX_DISKS || !bio_cache_get())
		return -ENOSPC;
	if (bdev->bd_name[0]) {
		for (int i = 0; i < nr_disks; i++)
			if (!strcmp(disks[i]->bd_name, bdev->bd_name))
				return -EEXIST;
	} else {
		if (nr_virtio_disks == MAX_VIRTIO_DISKS)
			return -ENOSPC;
		bdev->bd_name[0] = 'v';
		bdev->bd_name[1] = 'd';
		bdev->bd_name[2] = (char)('a' + nr_virtio_disks++);
		bdev->bd_name[3] = '\0';
	}
	spin_lock_init(&bdev->bd_queue_lock);
	bdev->bd_queue_head = bdev->bd_queue_tail = NULL;
	memset(&bdev->bd_stats, 0, sizeof(bdev->bd_stats));
	if (!bdev->bd_logical_block_size)
		bdev->bd_logical_block_size = SECTOR_SIZE;
	if (!bdev->bd_max_segments)
		bdev->bd_max_segments = 1;
	if (blkdev_init_mapping(bdev))
		pr_warn("%s: no memory for its page cache\n", bdev->bd_name);
	bdev_set_devt(bdev);
	/* Published whole: blkdev_nth() readers may run while a probe adds a disk. */
	disks[nr_disks] = bdev;
	smp_store_release(&nr_disks, nr_disks + 1);
	meminfo_set_blockdev_pages(nr_blockdev_pages);
	blk_disk_added(bdev);		/* its partitions, if boot is over */
	return 0;
}

static struct block_device *find_disk(const char *name)
{
	for (int i = 0; i < nr_disks; i++)
		if (!strcmp(disks[i]->bd_name, name))
			return disks[i];
	return NULL;
}

int register_blkdev_probe(const char *prefix, void (*probe)(const char *name))
{
	for (int i = 0; i < MAX_PROBES; i++) {
		if (!probes[i].probe) {
			probes[i].prefix = prefix;
			probes[i].probe = probe;
			return 0;
		}
	}
	return -ENOSPC;
}

struct block_device *blkdev_get_by_name(const char *name)
{
	struct block_device *bdev = find_disk(name);

	/* v6.10's blk_request_module(): a driver may make the disk now (brd's ramN). */
	for (int i = 0; !bdev && i < MAX_PROBES && probes[i].probe; i++) {
		if (!strncmp(name, probes[i].prefix, strlen(probes[i].prefix))) {
			probes[i].probe(name);
			bdev = find_disk(name);
		}
	}
	return bdev;
}

struct block_device *blkdev_nth(int i)
{
	return i >= 0 && i < smp_load_acquire(&nr_disks) ? disks[i] : NULL;
}

int blkdev_count(void)
{
	return smp_load_acquire(&nr_disks);
}

struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs, unsigned int opf, gfp_t gfp)
{
	struct kmem_cache *cache = bio_cache_get();
	struct bio *bio;
	unsigned short max = BIO_INLINE_VECS;

	if (nr_vecs > BIO_MAX_VECS)
		return NULL;
	if (nr_vecs > BIO_INLINE_VECS) {
		max = nr_vecs;
		bio = kmalloc(sizeof(*bio) + max * sizeof(struct bio_vec), gfp);
	} else {
		bio = cache ? kmem_cache_alloc(cache, gfp) : NULL;
	}
	if (!bio)
		return NULL;
	memset(bio, 0, sizeof(*bio));
	bio->bi_bdev = bdev;
	bio->bi_opf = opf;
	bio->bi_max_vecs = max;
	return bio;
}

void bio_put(struct bio *bio)
{
	if (!bio)
		return;
	if (bio->bi_max_vecs > BIO_INLINE_VECS)
		kfree(bio);
	else
		kmem_cache_free(bio_cache, bio);
}

unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len, unsigned int off)
{
	unsigned int limit = bio->bi_max_vecs;
	struct bio_vec *prev = bio->bi_vcnt ? &bio->bi_io_vec[bio->bi_vcnt - 1] : NULL;

	if (!len || bio->bi_size + len < bio->bi_size)
		return 0;
	/* The next fragment of the same page joins the last vec (as Linux's bvec merging). */
	if (prev && prev->bv_page == page && prev->bv_offset + prev->bv_len == off) {
		prev->bv_len += len;
		bio->bi_size += len;
		return len;
	}
	/* No more fragments than the disk takes in one request: a full bio is the caller's cue
	 * to submit it and start another. */
	if (bio->bi_bdev && bio->bi_bdev->bd_max_segments < limit)
		limit = bio->bi_bdev->bd_max_segments;
	if (bio->bi_vcnt >= limit)
		return 0;
	bio->bi_io_vec[bio->bi_vcnt].bv_page = page;
	bio->bi_io_vec[bio->bi_vcnt].bv_len = len;
	bio->bi_io_vec[bio->bi_vcnt].bv_offset = off;
	bio->bi_vcnt++;
	bio->bi_size += len;
	return len;
}

static void blk_account(struct block_device *bdev, const struct bio *bio)
{
	struct blk_stats *st = &bdev->bd_stats;
	unsigned long flags;

	spin_lock_irqsave(&bdev->bd_queue_lock, flags);
	if (bio->bi_status) {
		st->errors++;
	} else if (bio_op(bio) == REQ_OP_READ) {
		st->reads++;
		st->read_bytes += bio->bi_size;
		if (bio->bi_opf & REQ_RAHEAD) {
			st->readahead_reads++;
			st->readahead_bytes += bio->bi_size;
		}
	} else if (bio_op(bio) == REQ_OP_WRITE) {
		st->writes++;
		st->write_bytes += bio->bi_size;
	} else {
		st->flushes++;
	}
	spin_unlock_irqrestore(&bdev->bd_queue_lock, flags);
}

void bio_endio(struct bio *bio)
{
	struct block_device *part = bio->bi_part;

	if (bio->bi_bdev)
		blk_account(bio->bi_bdev, bio);
	if (part) {
		/* A partition's bio counts on it too, and is its own again for bi_end_io. */
		blk_account(part, bio);
		bio->bi_bdev = part;
		bio->bi_sector -= part->bd_start_sect;
		bio->bi_part = NULL;
	}
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
}

/* 0 if the disk can take @bio as it is, else the status it ends with. */
static int bio_check(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	unsigned int lbs = bdev->bd_logical_block_size, sum = 0;
	sector_t nr;

	switch (bio_op(bio)) {
	case REQ_OP_FLUSH:
		return bio->bi_size ? -EINVAL : 0;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	default:
		return -EOPNOTSUPP;
	}
	for (unsigned int i = 0; i < bio->bi_vcnt; i++)
		sum += bio->bi_io_vec[i].bv_len;
	if (!bio->bi_size || sum != bio->bi_size || bio->bi_vcnt > bdev->bd_max_segments)
		return -EINVAL;
	if (bio->bi_size % lbs || (bio->bi_sector << SECTOR_SHIFT) % lbs)
		return -EINVAL;
	nr = bio->bi_size >> SECTOR_SHIFT;
	if (bio->bi_sector > bdev->bd_nr_sectors || nr > bdev->bd_nr_sectors - bio->bi_sector)
		return -EINVAL;		/* past the end: never sent */
	return 0;
}

/*
 * Offer the queued bios to the driver, in order, until it has no room.  Called with the queue
 * lock held; bios the driver refused with an error are moved to *@failed to be ended after
 * the lock is dropped (bi_end_io may submit again).
 */
static void run_queue_locked(struct block_device *bdev, struct bio **failed)
{
	struct bio *bio;

	lockdep_assert_held(&bdev->bd_queue_lock);
	while ((bio = bdev->bd_queue_head)) {
		int ret = bdev->bd_failed ? -ENXIO : bdev->bd_ops->submit_bio(bio);

		if (ret == -EBUSY)
			break;
		bdev->bd_queue_head = bio->bi_next;
		if (!bdev->bd_queue_head)
			bdev->bd_queue_tail = NULL;
		bio->bi_next = NULL;
		if (ret) {
			bio->bi_status = ret > 0 ? 0 : ret;	/* > 0: done, nothing to do */
			bio->bi_next = *failed;
			*failed = bio;
		}
	}
}

static void end_list(struct bio *list)
{
	while (list) {
		struct bio *bio = list;

		list = bio->bi_next;
		bio->bi_next = NULL;
		bio_endio(bio);
	}
}

void blk_queue_run(struct block_device *bdev)
{
	struct bio *failed = NULL;
	unsigned long flags;

	spin_lock_irqsave(&bdev->bd_queue_lock, flags);
	run_queue_locked(bdev, &failed);
	spin_unlock_irqrestore(&bdev->bd_queue_lock, flags);
	end_list(failed);
}

void submit_bio(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	struct bio *failed = NULL;
	unsigned long flags;
	int ret;

	/* Linux's submit_bio counts every bio, good or bad, in 512-byte sectors (vmstat halves). */
	if (bio_op(bio) == REQ_OP_READ)
		count_vm_events(PGPGIN, (long)(bio->bi_size >> 9));
	else if (bio_op(bio) == REQ_OP_WRITE)
		count_vm_events(PGPGOUT, (long)(bio->bi_size >> 9));
	bio->bi_status = 0;
	bio->bi_next = NULL;
	if (!bdev || !bdev->bd_ops) {
		bio->bi_bdev = NULL;	/* a missing disk: nothing to count against */
		bio->bi_status = -ENXIO;
		bio_endio(bio);
		return;
	}
	bio->bi_part = NULL;
	ret = bio_check(bio);		/* against the partition, for a partition's bio */
	if (!ret && bdev_is_partition(bdev)) {
		blk_partition_remap(bio);
		bdev = bio->bi_bdev;
	}
	spin_lock_irqsave(&bdev->bd_queue_lock, flags);
	if (!ret && bdev->bd_failed)
		ret = -ENXIO;
	if (!ret) {
		/* Behind whatever already waits: bios reach the device in submission order. */
		if (bdev->bd_queue_tail)
			bdev->bd_queue_tail->bi_next = bio;
		else
			bdev->bd_queue_head = bio;
		bdev->bd_queue_tail = bio;
		run_queue_locked(bdev, &failed);
	}
	spin_unlock_irqrestore(&bdev->bd_queue_lock, flags);
	if (ret) {
		bio->bi_status = ret;
		bio_endio(bio);
	}
	end_list(failed);
}

static void submit_bio_wait_endio(struct bio *bio)
{
	complete(bio->bi_private);
}

int submit_bio_wait(struct bio *bio)
{
	struct completion done;

	init_completion(&done);
	bio->bi_private = &done;
	bio->bi_end_io = submit_bio_wait_endio;
	submit_bio(bio);
	wait_for_completion(&done);
	return bio->bi_status;
}

void blk_mark_failed(struct block_device *bdev, const char *reason)
{
	struct bio *queued;
	unsigned long flags;
	bool was;

	spin_lock_irqsave(&bdev->bd_queue_lock, flags);
	was = bdev->bd_failed;
	bdev->bd_failed = true;
	queued = bdev->bd_queue_head;
	bdev->bd_queue_head = bdev->bd_queue_tail = NULL;
	spin_unlock_irqrestore(&bdev->bd_queue_lock, flags);
	if (!was)
		pr_err("%s\n", reason);
	for (struct bio *b = queued; b; b = b->bi_next)
		b->bi_status = -ENXIO;
	end_list(queued);
}

unsigned int blk_inject_lookup(const char *what, const char *const *names)
{
	for (unsigned int i = 0; names[i]; i++)
		if (!strcmp(what, names[i]))
			return i + 1;
	return 0;
}
