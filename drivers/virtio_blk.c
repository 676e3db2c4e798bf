/*
 * virtio_blk.c - the virtio block device (virtio 1.2 §5.2) as a tinymm disk (blkdev.h).
 *
 * One request = one descriptor chain: a 16-byte header (type, sector; device-readable), the
 * bio's page fragments (device-writable for a read, readable for a write; at most seg_max of
 * them), and a 1-byte status the device writes.  Requests come from the "virtio_blk_req" slab
 * cache.  Indirect descriptors are not used (VIRTIO_RING_F_INDIRECT_DESC is not accepted even
 * when offered): a chain of at most seg_max + 2 descriptors always fits QEMU's 256-entry queue,
 * and one mechanism is one thing less to verify.
 *
 * Configuration is read once, checked, and never trusted beyond the checks: capacity (at most
 * 2^48 sectors), blk_size (a power of two, 512 B to 64 KiB), seg_max (at least 1), size_max (at
 * least a page).  A bad field fails the disk at probe; it is still registered, failed, so
 * `blk list` shows it.  A bad used-ring entry (virtio_ring.c checks each) fails it at run time:
 *   reset the device (it stops using the rings and our buffers), fail the disk (queued bios end
 *   with -ENXIO, later ones at once), end every in-flight bio with -EIO.
 * The ring pages stay allocated after a failure: nothing the device was told about is reused.
 *
 * Locking: vblk->lock (irqs masked) guards the virtqueue.  submit runs under the disk's queue
 * lock (blk-core) and takes vblk->lock inside it; the interrupt path takes vblk->lock alone and
 * drops it before calling back into the block layer (bio_endio, blk_queue_run,
 * blk_mark_failed), so the order is always queue lock -> vblk->lock.
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/irq.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/spinlock.h"
#include "tinymm/timer.h"
#include "tinymm/virtio.h"

#define VIRTIO_BLK_F_SIZE_MAX	1
#define VIRTIO_BLK_F_SEG_MAX	2
#define VIRTIO_BLK_F_RO		5
#define VIRTIO_BLK_F_BLK_SIZE	6
#define VIRTIO_BLK_F_FLUSH	9

#define VIRTIO_BLK_T_IN		0
#define VIRTIO_BLK_T_OUT	1
#define VIRTIO_BLK_T_FLUSH	4

#define VIRTIO_BLK_S_OK		0
#define VIRTIO_BLK_S_IOERR	1
#define VIRTIO_BLK_S_UNSUPP	2

/* Config space offsets (struct virtio_blk_config). */
#define VBLK_CFG_CAPACITY	0
#define VBLK_CFG_SIZE_MAX	8
#define VBLK_CFG_SEG_MAX	12
#define VBLK_CFG_BLK_SIZE	20

#define VBLK_MAX_QUEUE		256
#define VBLK_MAX_SECTORS	(1ULL << 48)

struct virtio_blk_outhdr {
	uint32_t type;
	uint32_t ioprio;
	uint64_t sector;
};

struct vblk_req {
	struct virtio_blk_outhdr hdr;	/* device-readable */
	uint8_t status;			/* device-writable */
	struct bio *bio;
	struct vblk_req *next;		/* completion list in vblk_done() */
};

struct virtio_blk {
	struct virtio_device *vdev;
	struct virtqueue *vq;
	struct block_device disk;
	spinlock_t lock;
	uint32_t size_max;		/* 0: no limit */
	bool failed;			/* reset and failed: the rings are dead */
	char irq_name[20];
	/* A device that stops answering must not hang its callers: a timer watches for progress
	 * while requests are in flight (Linux's blk-mq request timeout, 30 s by default). */
	struct timer_list timeout;
	unsigned long completions, completions_seen;
};

static unsigned int vblk_timeout_ms = 30000;

KPARAM_UINT(blk_timeout_ms, vblk_timeout_ms, 1, 3600000,
	    "virtio-blk: fail a disk whose requests make no progress for this long (default 30000)");

static void vblk_done(struct virtqueue *vq);

/* Under vblk->lock: (re)arm the watch from now, remembering how far the device had got. */
static void vblk_arm_timeout(struct virtio_blk *vblk)
{
	vblk->completions_seen = vblk->completions;
	mod_timer(&vblk->timeout, jiffies + msecs_to_jiffies(vblk_timeout_ms));
}

/* Timer interrupt: requests in flight and not one completed for a whole timeout: the device is
 * broken (failed as any other violation, from vblk_done). */
static void vblk_timeout_fn(struct timer_list *t)
{
	struct virtio_blk *vblk = from_timer(vblk, t, timeout);
	unsigned long flags;
	bool stuck;

	spin_lock_irqsave(&vblk->lock, flags);
	stuck = !vblk->failed && vblk->vq->in_flight && vblk->completions == vblk->completions_seen;
	if (stuck && !vblk->vq->broken) {
		vblk->vq->broken = true;
		ksnprintf(vblk->vq->err, sizeof(vblk->vq->err),
			  "%u requests made no progress in %u ms", vblk->vq->in_flight, vblk_timeout_ms);
	} else if (!vblk->failed && vblk->vq->in_flight) {
		vblk_arm_timeout(vblk);
	}
	spin_unlock_irqrestore(&vblk->lock, flags);
	if (stuck)
		vblk_done(vblk->vq);
}

static struct kmem_cache *vblk_req_cache;

/* The i-th buffer of @req's chain: header, data fragments, status. */
static void vblk_get_buf(void *data, unsigned int i, struct vq_buf *b)
{
	struct vblk_req *req = data;
	struct bio *bio = req->bio;
	unsigned int nseg = bio_op(bio) == REQ_OP_FLUSH ? 0 : bio->bi_vcnt;

	if (i == 0) {
		b->addr = __pa(&req->hdr);
		b->len = sizeof(req->hdr);
		b->write = false;
	} else if (i <= nseg) {
		const struct bio_vec *bv = &bio->bi_io_vec[i - 1];

		b->addr = PFN_PHYS(page_to_pfn(bv->bv_page)) + bv->bv_offset;
		b->len = bv->bv_len;
		b->write = bio_op(bio) == REQ_OP_READ;
	} else {
		b->addr = __pa(&req->status);
		b->len = 1;
		b->write = true;
	}
}

static int vblk_submit(struct bio *bio)
{
	struct virtio_blk *vblk = bio->bi_bdev->bd_private;
	enum req_op op = bio_op(bio);
	struct vblk_req *req;
	unsigned long flags;
	unsigned int n;
	int ret;

	if (op == REQ_OP_FLUSH && !virtio_has_feature(vblk->vdev, VIRTIO_BLK_F_FLUSH))
		return 1;	/* no volatile write cache: nothing to flush (as Linux) */
	if (op != REQ_OP_FLUSH && vblk->size_max)
		for (unsigned int i = 0; i < bio->bi_vcnt; i++)
			if (bio->bi_io_vec[i].bv_len > vblk->size_max)
				return -EINVAL;
	req = kmem_cache_alloc(vblk_req_cache, GFP_ATOMIC);
	spin_lock_irqsave(&vblk->lock, flags);
	if (vblk->failed) {
		ret = -ENXIO;
		goto out;
	}
	if (!req) {
		/* Memory comes back when a request completes; with none in flight, nothing would
		 * ever retry: fail this one instead of waiting forever. */
		ret = vblk->vq->in_flight ? -EBUSY : -ENOMEM;
		goto out;
	}
	req->bio = bio;
	req->status = 0xff;	/* not a valid status: a device that never wrote it is caught */
	req->hdr.type = op == REQ_OP_READ ? VIRTIO_BLK_T_IN :
			op == REQ_OP_WRITE ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_FLUSH;
	req->hdr.ioprio = 0;
	req->hdr.sector = op == REQ_OP_FLUSH ? 0 : bio->bi_sector;
	n = (op == REQ_OP_FLUSH ? 0 : bio->bi_vcnt) + 2;
	ret = virtqueue_add(vblk->vq, n, req, vblk_get_buf);
	if (ret == -ENOSPC)
		ret = -EBUSY;	/* the block layer keeps it and retries after a completion */
	if (!ret) {
		virtqueue_kick(vblk->vq);
		req = NULL;
		if (!timer_pending(&vblk->timeout))
			vblk_arm_timeout(vblk);
	}
out:
	spin_unlock_irqrestore(&vblk->lock, flags);
	if (req)
		kmem_cache_free(vblk_req_cache, req);
	return ret;
}

static int vblk_status(struct virtio_blk *vblk, uint8_t status)
{
	switch (status) {
	case VIRTIO_BLK_S_OK:
		return 0;
	case VIRTIO_BLK_S_IOERR:
		return -EIO;
	case VIRTIO_BLK_S_UNSUPP:
		return -EOPNOTSUPP;
	default:
		pr_err("virtio-blk %s: device returned status %u, not one of 0-2: I/O error\n",
		       vblk->disk.bd_name, status);
		return -EIO;
	}
}

/* Used-buffer interrupt (hard-irq context). */
static void vblk_done(struct virtqueue *vq)
{
	struct virtio_blk *vblk = vq->vdev->priv;
	struct vblk_req *req, *done = NULL, **tail = &done;
	unsigned long flags;
	bool broke = false;
	uint32_t len;
	char line[200];

	spin_lock_irqsave(&vblk->lock, flags);
	while ((req = virtqueue_get_buf(vq, &len))) {
		int status = vblk_status(vblk, READ_ONCE(req->status));
		vblk->completions++;
		/* §2.7.8.2: nothing beyond len was written.  A successful read must have written
		 * all its data and the status byte; less would leave stale memory marked uptodate. */
		if (!status && bio_op(req->bio) == REQ_OP_READ && len != req->bio->bi_size + 1u) {
			if (!vq->broken) {
				vq->broken = true;
				ksnprintf(vq->err, sizeof(vq->err), "used len %u for a read of %u bytes",
					  (unsigned int)len, req->bio->bi_size);
			}
			status = -EIO;
		}
		req->bio->bi_status = status;
		*tail = req;
		tail = &req->next;
	}
	if (vq->broken && !vblk->failed) {
		/* Stop the device before giving any buffer back to its owner.  One that ignores the
		 * reset may still write into them: those buffers stay with it (never completed,
		 * their folios stay locked), the only way to keep its writes out of reused memory. */
		bool stopped = virtio_reset(vblk->vdev);
		virtio_set_failed(vblk->vdev);
		if (vblk->vdev->irq)
			disable_irq(vblk->vdev->irq);	/* a failed device may not storm us */
		vblk->failed = true;
		broke = true;
		while (stopped && (req = virtqueue_detach_unused_buf(vq))) {
			req->bio->bi_status = -EIO;
			*tail = req;
			tail = &req->next;
		}
		ksnprintf(line, sizeof(line), "virtio-blk %s: device error: %s; device failed%s",
			  vblk->disk.bd_name, vq->err,
			  stopped ? "" : " (it ignored the reset: its buffers stay with it)");
	}
	*tail = NULL;
	if (vblk->failed || !vq->in_flight)
		timer_delete(&vblk->timeout);
	spin_unlock_irqrestore(&vblk->lock, flags);

	/* Failed first, so whatever the completions submit next fails at once. */
	if (broke)
		blk_mark_failed(&vblk->disk, line);
	while (done) {
		struct bio *bio = done->bio;

		req = done;
		done = req->next;
		kmem_cache_free(vblk_req_cache, req);
		bio_endio(bio);
	}
	if (!broke)
		blk_queue_run(&vblk->disk);
}

static void vblk_describe(struct block_device *bdev, char *buf, size_t len)
{
	struct virtio_blk *vblk = bdev->bd_private;
	struct virtio_device *vdev = vblk->vdev;

	ksnprintf(buf, len, "virtio-mmio@0x%08llx irq %u queue %u, features%s%s%s%s%s",
		  (unsigned long long)vdev->phys, vdev->irq, vblk->vq ? vblk->vq->num : 0,
		  virtio_has_feature(vdev, VIRTIO_BLK_F_FLUSH) ? " flush" : "",
		  virtio_has_feature(vdev, VIRTIO_BLK_F_SEG_MAX) ? " seg_max" : "",
		  virtio_has_feature(vdev, VIRTIO_BLK_F_BLK_SIZE) ? " blk_size" : "",
		  virtio_has_feature(vdev, VIRTIO_BLK_F_SIZE_MAX) ? " size_max" : "",
		  virtio_has_feature(vdev, VIRTIO_BLK_F_RO) ? " ro" : "");
}

static int vblk_inject(struct block_device *bdev, const char *what)
{
	struct virtio_blk *vblk = bdev->bd_private;
	unsigned long flags;
	int ret;

	if (!vblk->vq)
		return -ENXIO;
	spin_lock_irqsave(&vblk->lock, flags);
	ret = virtqueue_inject(vblk->vq, what);
	spin_unlock_irqrestore(&vblk->lock, flags);
	return ret;
}

static const struct block_device_operations vblk_ops = {
	.submit_bio = vblk_submit,
	.describe = vblk_describe,
	.test_inject = vblk_inject,
};

/* Read and check the configuration; NULL if it is sound, else why not. */
static const char *vblk_read_config(struct virtio_blk *vblk, char *why, size_t len)
{
	struct virtio_device *vdev = vblk->vdev;
	struct block_device *disk = &vblk->disk;
	uint64_t cap;

	if (virtio_cread64(vdev, VBLK_CFG_CAPACITY, &cap)) {
		ksnprintf(why, len, "config capacity keeps changing (ConfigGeneration)");
		return why;
	}
	if (cap > VBLK_MAX_SECTORS) {
		ksnprintf(why, len, "config capacity %llu sectors is beyond 2^48", (unsigned long long)cap);
		return why;
	}
	disk->bd_nr_sectors = cap;
	disk->bd_logical_block_size = SECTOR_SIZE;
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_BLK_SIZE)) {
		uint32_t bs = virtio_cread32(vdev, VBLK_CFG_BLK_SIZE);

		/* Larger than a page: a page-sized bio could not be a whole block (Linux's
		 * blk_validate_block_size refuses it too). */
		if (bs < 512 || bs > PAGE_SIZE || (bs & (bs - 1))) {
			ksnprintf(why, len, "config blk_size %u is not a power of two from 512 to %lu",
				  (unsigned int)bs, PAGE_SIZE);
			return why;
		}
		disk->bd_logical_block_size = bs;
	}
	disk->bd_max_segments = 1;	/* §5.2.6.1: without SEG_MAX, one data buffer */
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_SEG_MAX)) {
		uint32_t seg = virtio_cread32(vdev, VBLK_CFG_SEG_MAX);

		if (!seg) {
			ksnprintf(why, len, "config seg_max is 0");
			return why;
		}
		disk->bd_max_segments = seg;
	}
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_SIZE_MAX)) {
		uint32_t sm = virtio_cread32(vdev, VBLK_CFG_SIZE_MAX);

		/* 0 and anything below a page: tinymm's fragments are up to a page and it does
		 * not split them (QEMU never offers this feature). */
		if (sm < PAGE_SIZE) {
			ksnprintf(why, len, "config size_max %u is below a page", (unsigned int)sm);
			return why;
		}
		vblk->size_max = sm;
	}
	return NULL;
}

int virtio_blk_probe(struct virtio_device *vdev)
{
	uint64_t want = (1ULL << VIRTIO_F_VERSION_1) | (1ULL << VIRTIO_BLK_F_SIZE_MAX) |
			(1ULL << VIRTIO_BLK_F_SEG_MAX) | (1ULL << VIRTIO_BLK_F_RO) |
			(1ULL << VIRTIO_BLK_F_BLK_SIZE) | (1ULL << VIRTIO_BLK_F_FLUSH);
	struct virtio_blk *vblk;
	const char *bad = NULL;
	char why[120], line[200];

	if (!vblk_req_cache)
		vblk_req_cache = kmem_cache_create("virtio_blk_req", sizeof(struct vblk_req), 8, 0, NULL);
	vblk = kzalloc(sizeof(*vblk), GFP_KERNEL);
	if (!vblk || !vblk_req_cache) {
		pr_err("virtio-blk %s: no memory\n", vdev->name);
		kfree(vblk);
		return -ENOMEM;
	}
	vblk->vdev = vdev;
	vdev->priv = vblk;
	spin_lock_init(&vblk->lock);
	timer_setup(&vblk->timeout, vblk_timeout_fn, 0);
	virtio_get_features(vdev);
	if (virtio_finalize_features(vdev, want, why, sizeof(why))) {
		pr_err("virtio-blk %s: %s; not used\n", vdev->name, why);
		return -EIO;	/* no disk: the device never got as far as a disk */
	}
	bad = vblk_read_config(vblk, why, sizeof(why));
	if (!bad) {
		vblk->vq = virtio_find_vq(vdev, 0, VBLK_MAX_QUEUE, vblk_done, why, sizeof(why));
		if (!vblk->vq)
			bad = why;
		else if (vblk->disk.bd_max_segments > vblk->vq->num - 2)
			vblk->disk.bd_max_segments = vblk->vq->num - 2;	/* header + status */
	}
	vblk->disk.bd_ops = &vblk_ops;
	vblk->disk.bd_private = vblk;
	if (add_disk(&vblk->disk)) {
		pr_err("virtio-blk %s: cannot register a disk\n", vdev->name);
		return -ENOSPC;
	}
	ksnprintf(vblk->irq_name, sizeof(vblk->irq_name), "virtio-blk %s", vblk->disk.bd_name);
	if (!bad && virtio_request_irq(vdev, vblk->irq_name)) {
		ksnprintf(why, sizeof(why), "cannot request its interrupt (irq %u)", vdev->irq);
		bad = why;
	}
	if (bad) {
		virtio_reset(vdev);
		vblk->failed = true;
		ksnprintf(line, sizeof(line), "virtio-blk %s: device error: %s; device failed",
			  vblk->disk.bd_name, bad);
		blk_mark_failed(&vblk->disk, line);
		return -EIO;
	}
	virtio_device_ready(vdev);
	pr_info("virtio-blk %s: %llu bytes (%llu sectors), block %u, seg_max %u, queue %u%s, at %s irq %u\n",
		vblk->disk.bd_name, (unsigned long long)bdev_nr_bytes(&vblk->disk),
		(unsigned long long)vblk->disk.bd_nr_sectors, vblk->disk.bd_logical_block_size,
		vblk->disk.bd_max_segments, vblk->vq->num,
		virtio_has_feature(vdev, VIRTIO_BLK_F_FLUSH) ? ", flush" : "", vdev->name, vdev->irq);
	return 0;
}
