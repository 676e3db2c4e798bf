/*
 * blkdev.h - block devices and I/O requests (block/blk-core.c), Linux's vocabulary, small.
 *
 * A driver (drivers/virtio_blk.c, drivers/brd.c) fills a struct block_device and calls
 * add_disk(); a virtio disk is named "vda", "vdb", ... in registration order (a RAM disk keeps
 * its own name, "ram0") and gets a page-cache mapping (bd_mapping)
 * whose read_folio/readahead go back through submit_bio().
 *
 * I/O is a struct bio: one operation on consecutive 512-byte sectors from a list of page
 * fragments (bio_vec).  submit_bio() queues it and returns at once; bi_end_io(bio) is called
 * when it completes, in interrupt context (must not sleep), with bi_status 0 or a negative errno
 * (-EIO for a device error, -ENXIO for a failed or missing device, -EINVAL for a range beyond
 * the disk).  submit_bio_wait() is the sleeping form.
 *
 *   bio_alloc(bdev, nr_vecs, opf, gfp) / bio_put(bio)   from the "bio" slab cache
 *   bio_add_page(bio, page, len, offset)                len if it fit, 0 if the bio is full
 *   blkdev_get_by_name("vda") / blkdev_nth(i) / blkdev_count()
 * Counters per disk (blk stats): requests and bytes read/written, errors.  A partition is a
 * block device too (vda1: block/partitions/core.c); its I/O counts on it and on its disk.
 * Locking: a disk's queue lock (bd_queue_lock, irqs masked) guards its request queue
 * (bd_queue_head, bios the driver had no room for yet), bd_failed and the counters.  Lock
 * order: the queue lock, then the driver's own (virtio-blk's virtqueue lock).
 * docs/virtio-blk.md has the whole story; docs/block-partitions.md the partitions'.
 *
 * Changes from the first draft of this header (block/blk-core.c implements it): it named a
 * queue lock and a request queue but had neither, so struct block_device gained both, struct bio
 * gained bi_next (Linux's link for queued bios), and the driver's submit_bio returns whether it
 * took the bio (-EBUSY: no room, keep it queued and offer it again after blk_queue_run()).
 * The optional ops describe and test_inject serve `blk list` and `blk inject`.
 */
#ifndef TINYMM_BLKDEV_H
#define TINYMM_BLKDEV_H

#include <stdint.h>
#include "gfp.h"
#include "kernel.h"
#include "mm_types.h"
#include "spinlock.h"

typedef uint64_t sector_t;
#define SECTOR_SHIFT		9
#define SECTOR_SIZE		(1U << SECTOR_SHIFT)

enum req_op { REQ_OP_READ = 0, REQ_OP_WRITE = 1, REQ_OP_FLUSH = 2 };
#define REQ_OP_MASK		0xffU
#define REQ_RAHEAD		(1U << 8)	/* readahead: may be dropped, counted apart */

struct bio;
typedef void (bio_end_io_t)(struct bio *);

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

struct bio {
	struct block_device *bi_bdev;
	unsigned int bi_opf;			/* REQ_OP_* | flags */
	sector_t bi_sector;			/* first 512-byte sector */
	unsigned int bi_size;			/* bytes: the sum of the vecs */
	int bi_status;				/* 0 or -errno, set before bi_end_io */
	bio_end_io_t *bi_end_io;
	void *bi_private;
	struct bio *bi_next;			/* the disk's queue (block layer only) */
	/* The partition it was submitted to, while remapped to the whole disk (bi_bdev) and its
	 * sectors; bio_endio() gives both back before bi_end_io.  NULL otherwise. */
	struct block_device *bi_part;
	unsigned short bi_vcnt, bi_max_vecs;
	struct bio_vec bi_io_vec[];
};

static inline enum req_op bio_op(const struct bio *bio)
{
	return (enum req_op)(bio->bi_opf & REQ_OP_MASK);
}

struct blk_stats {
	unsigned long reads, writes, flushes;		/* requests completed */
	unsigned long long read_bytes, write_bytes;
	unsigned long readahead_reads;			/* of reads, those with REQ_RAHEAD */
	unsigned long long readahead_bytes;
	unsigned long errors;
};

struct block_device;
struct block_device_operations {
	/* Start @bio (range, alignment and segment count already checked against the disk) and
	 * complete it later with bio_endio().  0: started.  -EBUSY: no room now; the block layer
	 * keeps it at the head of the disk's queue and offers it again when the driver calls
	 * blk_queue_run().  1: nothing to do (a flush without a write cache), ended with
	 * status 0.  Any other -errno: not started, the block layer ends it with that status.  Called with the disk's queue lock held and irqs masked, possibly in interrupt
	 * context: must not sleep, must not call bio_endio() itself. */
	int (*submit_bio)(struct bio *bio);
	/* Optional, for `blk list`: transport and features, one line without '\n'. */
	void (*describe)(struct block_device *bdev, char *buf, size_t len);
	/* Optional test hook for `blk inject <dev> <what>`: 0, or -EINVAL for an unknown @what. */
	int (*test_inject)(struct block_device *bdev, const char *what);
};

/* For a test_inject: @what's 1-based index in the NULL-terminated @names, 0 if not there. */
unsigned int blk_inject_lookup(const char *what, const char *const *names);

struct address_space;
struct block_device {
	char bd_name[16];			/* "vda", "vda1", "mmcblk0p1" */
	sector_t bd_nr_sectors;			/* capacity in 512-byte sectors */
	unsigned int bd_logical_block_size;	/* bytes, a power of two >= 512 */
	unsigned int bd_max_segments;		/* page fragments per request the device takes */
	const struct block_device_operations *bd_ops;
	void *bd_private;			/* the driver's */
	bool bd_failed;				/* the device broke its contract: no more I/O */
	struct address_space *bd_mapping;	/* its page cache (mm/filemap.c) */
	struct blk_stats bd_stats;
	/* The block layer's (add_disk() initialises them): */
	spinlock_t bd_queue_lock;
	struct bio *bd_queue_head, *bd_queue_tail;	/* waiting for room in the driver */
	/* Partitions (block/partitions/core.c; set before add_disk, never changed): a whole disk
	 * has bd_partno 0 and bd_whole NULL (bdev_whole() gives the disk itself).  A partition
	 * has no queue of its own: its bios are remapped to bd_whole (blk_partition_remap) and
	 * only its counters are its own. */
	struct block_device *bd_whole;
	sector_t bd_start_sect;			/* a partition's first sector on bd_whole */
	uint8_t bd_partno;			/* 1..: vda1; 0: the whole disk */
	uint8_t bd_part_type;			/* the MBR entry's type (0x83, 0x05, ...) */
	bool bd_part_extended;			/* the extended container (2 sectors, v6.10) */
	uint32_t bd_dev;			/* MKDEV(major, minor) for `partitions` */
};

/* Device numbers as Linux's /proc/partitions shows them (block/partitions/core.c). */
#define MINORBITS		20
#define MAJOR(dev)		((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev)		((unsigned int)((dev) & ((1U << MINORBITS) - 1)))
#define MKDEV(ma, mi)		((uint32_t)(((ma) << MINORBITS) | (mi)))

static inline bool bdev_is_partition(const struct block_device *bdev)
{
	return bdev->bd_partno != 0;
}

static inline struct block_device *bdev_whole(struct block_device *bdev)
{
	return bdev->bd_whole ? bdev->bd_whole : bdev;
}

/* Register @bdev: named here (vda, vdb, ...) unless the driver named it (ram0); 0, -EEXIST
 * for a name taken, -ENOSPC for a full disk table.  After boot (blk_scan_boot_disks() has
 * run) it also reads the disk's partition table at once, so it sleeps and the disk must
 * already do I/O; a disk added while booting (before the first thread) is scanned later. */
int add_disk(struct block_device *bdev);
/*
 * Partitions (block/partitions/core.c, docs/block-partitions.md): read @disk's MBR and
 * register each partition as a block device of its own ("vda1", "mmcblk0p1"); a table that
 * cannot be trusted is refused in one line and the disk is used whole.  Sleeps.  Once per
 * disk (no rescan).  0, or -errno when nothing was registered because of an error.
 */
int disk_scan_partitions(struct block_device *disk);
/* add_disk()'s last step: scans a disk added after boot (block layer internal). */
void blk_disk_added(struct block_device *bdev);
/* The first thread, before the root is mounted: scan every disk added while booting. */
void blk_scan_boot_disks(void);
/* v6.10's blk_partition_remap: @bio, checked against its partition, goes to the whole disk. */
void blk_partition_remap(struct bio *bio);
/* The disk's major and minor (Linux's numbering: virtio 254, mmcblk 179, ram 1, blkext 259). */
void bdev_set_devt(struct block_device *bdev);
/* The disk named @name; a name not yet registered goes to the probes whose prefix it starts
 * with (they may make it: brd's ramN), so this may sleep.  NULL if there is none. */
struct block_device *blkdev_get_by_name(const char *name);
/* v6.10's __register_blkdev(major, name, probe), keyed by a name prefix ("ram"); 0 or -ENOSPC. */
int register_blkdev_probe(const char *prefix, void (*probe)(const char *name));
struct block_device *blkdev_nth(int i);
int blkdev_count(void);
static inline uint64_t bdev_nr_bytes(const struct block_device *bdev)
{
	return bdev->bd_nr_sectors << SECTOR_SHIFT;
}

struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs, unsigned int opf, gfp_t gfp);
void bio_put(struct bio *bio);
unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len, unsigned int off);
void submit_bio(struct bio *bio);
int submit_bio_wait(struct bio *bio);
/* The driver's completion: counts, then bi_end_io.  Interrupt context is fine. */
void bio_endio(struct bio *bio);
/* The driver has room again (requests completed): offer it the queued bios, in order. */
void blk_queue_run(struct block_device *bdev);
/* The page cache of a disk (block/fops.c): add_disk() calls blkdev_init_mapping(); the
 * readahead state is the disk's one "open file" (tinymm has no files). */
int blkdev_init_mapping(struct block_device *bdev);
struct file_ra_state *bdev_ra_state(struct block_device *bdev);
/*
 * What @err means for a disk, for one message line: "I/O error (-EIO)" (the name from errname()),
 * written into @buf; "error" for an error a disk does not return.  block/blk_cmd.c.
 */
#define BLK_ERRSTR_LEN	48
const char *blk_errstr(int err, char *buf, size_t len);
/* Linux's blkdev_fsync() for that open file: write back, wait, the write error since the last
 * look (once), then a cache flush; 0 or -errno.  The shell's `sync` (block/blk_cmd.c). */
int blkdev_fsync(struct block_device *bdev);

/* The `blk write` and `fwrite` byte stream (block/blk_cmd.c): xorshift64*, 8 bytes a step,
 * little-endian; seed 0 stands for 0x9E3779B97F4A7C15.  Byte i of a write is wgen_byte's i-th. */
struct wgen {
	uint64_t x;
	uint8_t buf[8];
	unsigned int used;	/* bytes of buf handed out */
};
void wgen_init(struct wgen *g, uint64_t seed);
uint8_t wgen_byte(struct wgen *g);

/* Mark @bdev failed with a one-line reason, printed as given (the device cannot be trusted any
 * more); the queued bios and every bio after this end with -ENXIO.  The driver ends its own
 * in-flight bios.  Not with the queue lock held. */
void blk_mark_failed(struct block_device *bdev, const char *reason);

#endif
