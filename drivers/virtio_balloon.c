/*
 * virtio_balloon.c - the virtio memory balloon (virtio 1.2 §5.5) as a free page reporting
 * device: the host is told which free high-order blocks it may discard (mm/page_reporting.c,
 * docs/page_reporting.md, "virtio-balloon").  Linux v6.10's drivers/virtio/virtio_balloon.c,
 * reporting part only: no inflate/deflate, no stats, no free page hinting.
 *
 * Features: VIRTIO_F_VERSION_1 and VIRTIO_BALLOON_F_REPORTING, nothing else.  Never
 * VIRTIO_BALLOON_F_PAGE_POISON: QEMU then discards nothing while the poison value is non-zero
 * (virtio_balloon_handle_report skips every element), and memory it discards reads back as
 * zeros, which tinymm.page_poison=1's check at allocation would take for corruption.  So with
 * page poisoning on the device is left alone, said in one line; likewise without F_REPORTING.
 *
 * One request = one descriptor chain of @nents device-writable descriptors, one per block:
 * [PFN_PHYS(pfn), + PAGE_SIZE << order), page-aligned (QEMU ignores ranges that are not aligned
 * to its RAM block's page size) and naturally aligned.  QEMU pops the element, walks in_sg and
 * discards each range, then returns it with used len 0 (Linux ignores the len; so do we, beyond
 * the ring's own check that it is within what was offered).  report() waits for it with a
 * timeout (tinymm.balloon_timeout_ms, 5 s): a device that does not answer is reset and failed,
 * reporting is unregistered, and the blocks go back unreported.
 *
 * Invariants: at most one request is in flight, and only inside report() (the token is @vb);
 * once vb->failed, the queue is never touched again and no report() is accepted.
 * Locking: vb->lock (a mutex) serialises report() calls (the core runs one pass at a time
 * already; the mutex keeps this file right without relying on it); only report() touches the
 * virtqueue.  The interrupt handler only wakes vb->acked: the used ring is read by the waiter,
 * in process context.  report() runs in a workqueue worker or the shell thread and sleeps.
 *
 * Where tinymm differs from v6.10, and why: the reporting part only (the one use tinymm has for
 * a balloon).  A reporting queue smaller than PAGE_REPORTING_CAPACITY entries is used with a
 * smaller capacity, where v6.10 refuses it (-ENOSPC): tinymm's core takes smaller batches.  A
 * report() the device does not answer in time resets and fails it (v6.10 waits for ever), so a
 * broken device cannot hang the reporting pass.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/irq.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/page_reporting.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/timer.h"
#include "tinymm/virtio.h"
#include "tinymm/wait.h"

/* Feature bits (virtio 1.2 §5.5.3; Linux's include/uapi/linux/virtio_balloon.h). */
#define VIRTIO_BALLOON_F_MUST_TELL_HOST	0
#define VIRTIO_BALLOON_F_STATS_VQ	1
#define VIRTIO_BALLOON_F_DEFLATE_ON_OOM	2
#define VIRTIO_BALLOON_F_FREE_PAGE_HINT	3
#define VIRTIO_BALLOON_F_PAGE_POISON	4
#define VIRTIO_BALLOON_F_REPORTING	5

struct virtio_balloon {
	struct virtio_device *vdev;
	struct virtqueue *reporting_vq;
	struct page_reporting_dev_info pr_dev_info;
	struct mutex lock;			/* one report() at a time */
	struct wait_queue_head acked;		/* report() sleeps here; the interrupt wakes it */
	struct page_report_block *blocks;	/* the request being added (virtballoon_get_buf) */
	bool failed;				/* reset and failed: the queue is dead */
	bool no_notify;				/* test hook: never kick (a device that never answers) */
	char irq_name[24];
};

static unsigned int balloon_timeout_ms = 5000;

KPARAM_UINT(balloon_timeout_ms, balloon_timeout_ms, 1, 3600000,
	    "virtio-balloon: a report the device has not returned after this long fails it (default 5000)");

/* Test hook, as `blk inject` for disks: what the device (seems to) do wrong with the first
 * report.  no-notify: the request is never kicked, so the device never answers (the timeout
 * path); bad-used-id/-len/-idx: the used entry reads as corrupt (the ring's checks). */
static char balloon_inject[16];

/* A setter of its own: the value is one of four words. */
static int set_balloon_inject(const char *val)
{
	if (strcmp(val, "no-notify") && strcmp(val, "bad-used-id") && strcmp(val, "bad-used-len") &&
	    strcmp(val, "bad-used-idx"))
		return -1;
	strcpy(balloon_inject, val);
	return 0;
}
KPARAM(balloon_inject, set_balloon_inject,
       "virtio-balloon test hook: no-notify|bad-used-id|bad-used-len|bad-used-idx");

/* The i-th descriptor of the request: the i-th block, device-writable (QEMU walks in_sg only). */
static void virtballoon_get_buf(void *data, unsigned int i, struct vq_buf *b)
{
	struct virtio_balloon *vb = data;

	b->addr = PFN_PHYS(vb->blocks[i].pfn);
	b->len = (uint32_t)(PAGE_SIZE << vb->blocks[i].order);
	b->write = true;
}

/* Used-buffer interrupt (hard-irq context): Linux's balloon_ack. */
static void balloon_ack(struct virtqueue *vq)
{
	struct virtio_balloon *vb = vq->vdev->priv;

	wake_up(&vb->acked);
}

/* The wait's condition: our request came back (*@tok set), or the used ring broke a rule. */
static bool virtballoon_returned(struct virtio_balloon *vb, void **tok)
{
	uint32_t len;

	*tok = virtqueue_get_buf(vb->reporting_vq, &len);
	return *tok || vb->reporting_vq->broken;
}

/*
 * The device is not to be trusted any more: stop it before the blocks go back to the allocator
 * (a device still holding them could discard memory after it is reused: it would read back as
 * zeros), fail it, stop reporting.  vb->lock held.  One line says why.
 */
static void virtballoon_fail(struct virtio_balloon *vb, const char *why)
{
	struct virtio_device *vdev = vb->vdev;
	bool stopped;

	lockdep_assert_held(&vb->lock);
	stopped = virtio_reset(vdev);
	virtio_set_failed(vdev);
	if (vdev->irq)
		disable_irq(vdev->irq);		/* a failed device may not storm us */
	vb->failed = true;
	while (stopped && virtqueue_detach_unused_buf(vb->reporting_vq))
		;
	/* Safe from inside report(): the running pass ends with this batch (page_reporting.h). */
	page_reporting_unregister(&vb->pr_dev_info);
	/* A device that ignores the reset may still discard the blocks; the reporting core has no
	 * way to keep them out of the allocator, so this is said, not prevented (QEMU's reset is
	 * immediate). */
	pr_err("virtio-balloon %s: %s; blocks returned unreported, device failed, free page reporting off%s\n",
	       vdev->name, why, stopped ? "" : " (it ignored the reset: it may still discard them)");
}

/*
 * prdev->report (Linux's virtballoon_free_page_report): all @nents blocks in one request, kick,
 * sleep until the device returns it.  0, -EIO (the device broke a rule, or failed earlier),
 * -ETIMEDOUT, -EINVAL (a batch this driver cannot describe: never from the core).
 */
static int virtballoon_free_page_report(struct page_reporting_dev_info *pr_dev_info,
					struct page_report_block *blocks, unsigned int nents)
{
	struct virtio_balloon *vb = container_of(pr_dev_info, struct virtio_balloon, pr_dev_info);
	struct virtqueue *vq = vb->reporting_vq;
	char why[160];
	void *tok = NULL;
	int err;

	if (!nents || nents > pr_dev_info->capacity)
		return -EINVAL;
	for (unsigned int i = 0; i < nents; i++)
		if (blocks[i].order > MAX_PAGE_ORDER)
			return -EINVAL;
	mutex_lock(&vb->lock);
	if (vb->failed) {
		mutex_unlock(&vb->lock);
		return -EIO;
	}
	vb->blocks = blocks;
	err = virtqueue_add(vq, nents, vb, virtballoon_get_buf);
	vb->blocks = NULL;
	if (err) {
		/* The only request, within the queue size: a broken queue (-EIO) is all it can be. */
		ksnprintf(why, sizeof(why), "cannot queue a report (error %d)", err);
		virtballoon_fail(vb, why);
		mutex_unlock(&vb->lock);
		return -EIO;
	}
	if (!vb->no_notify)
		virtqueue_kick(vq);
	vb->no_notify = false;
	(void)wait_event_timeout(vb->acked, virtballoon_returned(vb, &tok),
				 (long)msecs_to_jiffies(balloon_timeout_ms));
	if (tok) {
		err = 0;
	} else if (vq->broken) {
		ksnprintf(why, sizeof(why), "device error: %s", vq->err);
		virtballoon_fail(vb, why);
		err = -EIO;
	} else {
		ksnprintf(why, sizeof(why), "report timed out after %u ms", balloon_timeout_ms);
		virtballoon_fail(vb, why);
		err = -ETIMEDOUT;
	}
	mutex_unlock(&vb->lock);
	return err;
}

/*
 * The reporting queue's index.  virtio 1.2 §5.5.2 lists inflateq 0, deflateq 1, statsq 2,
 * free_page_vq 3, reporting_vq 4, each of the last three "only if" its feature; devices and
 * drivers number the queues that exist consecutively (Linux's virtio_find_vqs skips absent
 * ones).  Which exist is decided by the device's offer, not by what we accept: QEMU 7.2's
 * virtio_balloon_device_realize (hw/virtio/virtio-balloon.c) always adds ivq, dvq and svq
 * (STATS_VQ is always offered), then free_page_vq if free-page-hint=on (F_FREE_PAGE_HINT
 * offered; it needs an iothread), then reporting_vq (32 entries) if free-page-reporting=on.
 * So `-device virtio-balloon-device,free-page-reporting=on` puts it at index 3, and at 4 with
 * free-page-hint=on too.  virtio-mmio lets us select any index (QueueSel): only this queue is
 * set up; 0-2 stay not ready, and QEMU ignores queues that are not.
 */
static unsigned int virtballoon_reporting_index(const struct virtio_device *vdev)
{
	return 2 + (unsigned int)((vdev->features >> VIRTIO_BALLOON_F_STATS_VQ) & 1) +
	       (unsigned int)((vdev->features >> VIRTIO_BALLOON_F_FREE_PAGE_HINT) & 1);
}

int virtio_balloon_probe(struct virtio_device *vdev)
{
	uint64_t want = (1ULL << VIRTIO_F_VERSION_1) | (1ULL << VIRTIO_BALLOON_F_REPORTING);
	struct virtio_balloon *vb;
	unsigned int index;
	char why[120];

	virtio_get_features(vdev);
	/* Not driving the device by choice: reset (status 0, as if no driver came), no FAILED. */
	if (!((vdev->features >> VIRTIO_BALLOON_F_REPORTING) & 1)) {
		pr_info("virtio-balloon %s: no free page reporting (VIRTIO_BALLOON_F_REPORTING not offered): disabled\n",
			vdev->name);
		virtio_reset(vdev);
		return 0;
	}
	if (page_poisoning_enabled) {
		pr_warn("virtio-balloon %s: free page reporting off: tinymm.page_poison=1 fills free pages, and pages the host discards read back as zeros\n",
			vdev->name);
		virtio_reset(vdev);
		return 0;
	}
	vb = kzalloc(sizeof(*vb), GFP_KERNEL);
	if (!vb) {
		pr_err("virtio-balloon %s: no memory\n", vdev->name);
		return -ENOMEM;
	}
	vb->vdev = vdev;
	vdev->priv = vb;
	mutex_init(&vb->lock);
	init_waitqueue_head(&vb->acked);
	if (virtio_finalize_features(vdev, want, why, sizeof(why))) {
		pr_err("virtio-balloon %s: %s; not used\n", vdev->name, why);
		return -EIO;		/* vb stays: vdev->priv points at it */
	}
	index = virtballoon_reporting_index(vdev);
	vb->reporting_vq = virtio_find_vq(vdev, index, PAGE_REPORTING_CAPACITY, balloon_ack, why,
					  sizeof(why));
	if (!vb->reporting_vq) {
		pr_err("virtio-balloon %s: reporting queue: %s; not used\n", vdev->name, why);
		virtio_reset(vdev);
		return -EIO;
	}
	ksnprintf(vb->irq_name, sizeof(vb->irq_name), "virtio-balloon");
	if (virtio_request_irq(vdev, vb->irq_name)) {
		pr_err("virtio-balloon %s: cannot request its interrupt (irq %u); not used\n",
		       vdev->name, vdev->irq);
		virtio_reset(vdev);	/* the ring pages stay allocated: nothing is reused */
		return -EIO;
	}
	if (!strcmp(balloon_inject, "no-notify"))
		vb->no_notify = true;
	else if (balloon_inject[0])
		virtqueue_inject(vb->reporting_vq, balloon_inject);
	virtio_device_ready(vdev);
	/*
	 * Order 0: pageblock_order (v6.10's default; Linux's driver changes it only for arm64 with
	 * 64 KiB pages).  Capacity: the queue's size, at most PAGE_REPORTING_CAPACITY (see the
	 * header).  QEMU's queue has 32: capacity 32.
	 */
	vb->pr_dev_info.report = virtballoon_free_page_report;
	vb->pr_dev_info.order = 0;
	vb->pr_dev_info.capacity = min(PAGE_REPORTING_CAPACITY, vb->reporting_vq->num);
	if (page_reporting_register(&vb->pr_dev_info)) {
		/* -EBUSY: another device already reports (one at a time, as in Linux). */
		pr_err("virtio-balloon %s: another device already does free page reporting; not used\n",
		       vdev->name);
		vb->failed = true;
		virtio_reset(vdev);
		return -EBUSY;
	}
	pr_info("virtio-balloon %s: free page reporting on (queue %u of %u entries, order %u and up, capacity %u), irq %u\n",
		vdev->name, index, vb->reporting_vq->num, page_reporting_order,
		vb->pr_dev_info.capacity, vdev->irq);
	return 0;
}
