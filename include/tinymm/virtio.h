/*
 * virtio.h - virtio devices over the virtio-mmio transport (drivers/virtio_mmio.c) with split
 * virtqueues (drivers/virtio_ring.c), virtio 1.2's names and layouts (§2.7 split virtqueues,
 * §4.2 virtio over MMIO).  Modern (Version 2) devices only.  docs/virtio-blk.md explains it.
 *
 * Bring-up of a device, in the order the specification's §3.1.1 requires:
 *   virtio_mmio_init(dt)      at boot: every "virtio,mmio" node, highest address first; a device
 *                             reset, ACKNOWLEDGE, DRIVER, then the driver's probe:
 *   virtio_get_features()     the device's 64 feature bits (both selector words)
 *   virtio_finalize_features() write ours (VIRTIO_F_VERSION_1 always), FEATURES_OK, read back
 *   virtio_find_vq()          one split virtqueue in physically contiguous pages
 *   virtio_device_ready()     DRIVER_OK
 * The kernel never trusts the device: everything read from it (used ring, config space) is
 * checked before use, and a violation "breaks" the queue (vq->broken, vq->err says why) instead
 * of touching memory the device named.  The driver then resets the device and fails it.
 * All structures are little-endian as the specification says; every tinymm board is too.
 * Locking: a virtqueue has none of its own; its driver serialises add/get/detach (virtio-blk's
 * lock, irqs masked).
 */
#ifndef TINYMM_VIRTIO_H
#define TINYMM_VIRTIO_H

#include "kernel.h"

struct dt;

/* Device status (§2.1). */
#define VIRTIO_STATUS_ACKNOWLEDGE	1
#define VIRTIO_STATUS_DRIVER		2
#define VIRTIO_STATUS_DRIVER_OK		4
#define VIRTIO_STATUS_FEATURES_OK	8
#define VIRTIO_STATUS_NEEDS_RESET	64
#define VIRTIO_STATUS_FAILED		128

/* Transport-independent feature bits (§6). */
#define VIRTIO_RING_F_INDIRECT_DESC	28
#define VIRTIO_RING_F_EVENT_IDX		29
#define VIRTIO_F_VERSION_1		32

#define VIRTIO_ID_BLOCK			2
#define VIRTIO_ID_BALLOON		5

/* Split virtqueue layout (§2.7). */
#define VRING_DESC_F_NEXT		1
#define VRING_DESC_F_WRITE		2
#define VRING_DESC_F_INDIRECT		4

struct vring_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};

struct vring_avail {
	uint16_t flags;
	uint16_t idx;
	uint16_t ring[];	/* then used_event (unused: no VIRTIO_RING_F_EVENT_IDX) */
};

struct vring_used_elem {
	uint32_t id;
	uint32_t len;
};

struct vring_used {
	uint16_t flags;
	uint16_t idx;
	struct vring_used_elem ring[];	/* then avail_event */
};

/* What the driver wants corrupted next, as if the device had written it (`blk inject`). */
enum vq_inject { VQ_INJECT_NONE, VQ_INJECT_BAD_ID, VQ_INJECT_BAD_LEN, VQ_INJECT_BAD_IDX };

/* The driver's private state of one descriptor chain, by its head index. */
struct vq_chain {
	void *data;		/* the driver's token; NULL: not in flight */
	uint16_t ndescs;
	uint32_t in_len;	/* device-writable bytes offered: the most a used len may say */
};

struct virtio_device;
struct virtqueue {
	struct virtio_device *vdev;
	unsigned int index;
	unsigned int num;		/* queue size: a power of two */
	struct vring_desc *desc;	/* device-readable */
	struct vring_avail *avail;	/* device-readable */
	struct vring_used *used;	/* device-written: every value read is checked */
	struct page *pages;
	unsigned int order;
	uint16_t *next;			/* free list and chains, a private copy (never read back) */
	struct vq_chain *chain;
	uint16_t free_head, num_free;
	uint16_t avail_idx;		/* the next avail->idx we publish */
	uint16_t last_used;		/* the used->idx we have consumed up to */
	unsigned int in_flight;		/* chains given to the device, not yet back */
	bool broken;
	enum vq_inject inject;
	void (*callback)(struct virtqueue *vq);
	/* The transport's doorbell (Linux's vq->notify, set by virtio_find_vq): false if it could
	 * not ring it, which breaks the queue.  The ring calls nothing else of the transport. */
	bool (*notify)(struct virtqueue *vq);
	char err[112];			/* why it broke */
};

/* One buffer of a chain. */
struct vq_buf {
	phys_addr_t addr;
	uint32_t len;
	bool write;		/* device-writable; all of them must come after the readable ones */
};

/* Add a chain of @n buffers (the i-th from @get(@data, i, &buf)) with token @data; 0, -ENOSPC
 * (not enough free descriptors), -EINVAL (bad chain), -EIO (the queue is broken). */
int virtqueue_add(struct virtqueue *vq, unsigned int n, void *data,
		  void (*get)(void *data, unsigned int i, struct vq_buf *buf));
/* Tell the device (vq->notify: virtio-mmio's QueueNotify), after making the new avail entries
 * visible. */
void virtqueue_kick(struct virtqueue *vq);
/* The token of the next chain the device finished, its used length in *@len; NULL if there is
 * none, or if the device broke a rule (then vq->broken, and vq->err holds the reason). */
void *virtqueue_get_buf(struct virtqueue *vq, uint32_t *len);
/* After a reset: take back one chain still in flight; NULL when none is left. */
void *virtqueue_detach_unused_buf(struct virtqueue *vq);
static inline unsigned int virtqueue_num_free(const struct virtqueue *vq) { return vq->num_free; }
/* Ring memory for @num entries: one block of 2^order pages; the three parts' offsets. */
unsigned int vring_size(unsigned int num, size_t *avail_off, size_t *used_off);
/* -EINVAL for an unknown name; the next used entry the driver reads is corrupted. */
int virtqueue_inject(struct virtqueue *vq, const char *what);

#define VIRTIO_MAX_VQS	4		/* the most queues one device's driver sets up */

struct virtio_device {
	uintptr_t base;			/* the transport's registers */
	phys_addr_t phys;		/* their physical address, for messages */
	unsigned int irq;		/* virq, 0 if none */
	uint32_t device_id, vendor_id;
	uint64_t features;		/* the device's offer */
	uint64_t negotiated;		/* what FEATURES_OK accepted */
	struct virtqueue *vq;		/* the first queue set up (virtio-blk's only one) */
	struct virtqueue *vqs[VIRTIO_MAX_VQS];	/* every queue set up, in order (the interrupt's) */
	unsigned int nvqs;
	/* Configuration change interrupt (InterruptStatus bit 1), hard-irq context; NULL: ignored. */
	void (*config_changed)(struct virtio_device *vdev);
	void *priv;			/* the driver's */
	char name[32];			/* "virtio-mmio@0x0a003e00" */
};

static inline bool virtio_has_feature(const struct virtio_device *vdev, unsigned int bit)
{
	return bit < 64 && (vdev->negotiated >> bit) & 1;
}

/* Boot: scan the device tree, probe every device a driver exists for. */
void virtio_mmio_init(const struct dt *dt);

uint64_t virtio_get_features(struct virtio_device *vdev);
/* 0, or -EIO with the reason in @err (no VERSION_1, FEATURES_OK not kept). */
int virtio_finalize_features(struct virtio_device *vdev, uint64_t want, char *err, size_t errlen);
/* Set up queue @index with at most @max_num entries; NULL with the reason in @err. */
struct virtqueue *virtio_find_vq(struct virtio_device *vdev, unsigned int index,
				 unsigned int max_num, void (*callback)(struct virtqueue *vq),
				 char *err, size_t errlen);
void virtio_device_ready(struct virtio_device *vdev);
/* Request the transport's interrupt (its handler acknowledges InterruptStatus and runs the
 * queue's callback in hard-irq context); 0 or -errno. */
int virtio_request_irq(struct virtio_device *vdev, const char *name);
/* Write 0 to Status and wait (bounded) for it to read 0: the device forgets the queues. */
/* Reset; true once the device confirmed it (Status reads 0), false if it did not in 100 ms. */
bool virtio_reset(struct virtio_device *vdev);
void virtio_set_failed(struct virtio_device *vdev);
/* Device-specific configuration (offset from 0x100).  The 64-bit read is retried while
 * ConfigGeneration changes, at most a few times: 0, or -EIO if it never settles. */
uint32_t virtio_cread32(struct virtio_device *vdev, unsigned int off);
int virtio_cread64(struct virtio_device *vdev, unsigned int off, uint64_t *val);
void virtio_cwrite32(struct virtio_device *vdev, unsigned int off, uint32_t val);

/* Drivers the transport knows (one device type each). */
int virtio_blk_probe(struct virtio_device *vdev);
int virtio_balloon_probe(struct virtio_device *vdev);	/* drivers/virtio_balloon.c */

#endif
