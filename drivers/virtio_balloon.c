/*
 * virtio_balloon.c - the virtio memory balloon (virtio 1.2 §5.5), Linux v6.10's
 * drivers/virtio/virtio_balloon.c reduced: inflate and deflate toward the device's target, and
 * free page reporting (docs/balloon.md, docs/page_reporting.md "virtio-balloon").
 *
 * Queues: inflateq 0 and deflateq 1 always; the reporting queue at the index §5.5.2's rules give
 * it (below).  Features accepted: VIRTIO_F_VERSION_1, VIRTIO_BALLOON_F_MUST_TELL_HOST, and
 * VIRTIO_BALLOON_F_REPORTING unless tinymm.page_poison=1 (QEMU then discards nothing while the
 * poison value is non-zero, and memory it discards reads back as zeros, which the poison check at
 * allocation would take for corruption: reporting is then left off, said in one line).  Never
 * VIRTIO_BALLOON_F_PAGE_POISON, F_STATS_VQ, F_FREE_PAGE_HINT or F_DEFLATE_ON_OOM.
 *
 * Inflate/deflate: the device writes its target, num_pages (4 KiB pages), and raises a config
 * change interrupt; the handler queues vb->update_work, which fills or leaks the balloon toward
 * the target in batches of at most VIRTIO_BALLOON_ARRAY_PFNS_MAX frames (one request: one
 * device-readable buffer of 32-bit little-endian PFNs) and writes `actual` after each batch.
 * Inflated frames go to the balloon_dev_info (mm/balloon_compaction.c: PageOffline, movable) and
 * leave the managed page count (MemTotal falls).  Deflating tells the host before the frames go
 * back to the allocator (what VIRTIO_BALLOON_F_MUST_TELL_HOST requires; v6.10 always does it in
 * this order).  A frame the allocator cannot give ends the batch; the work retries 200 ms later,
 * said once until a batch succeeds again.  A target above the guest's memory is capped to it,
 * said once per target.
 *
 * Reporting: one request = one descriptor chain of @nents device-writable descriptors, one per
 * block: [PFN_PHYS(pfn), + PAGE_SIZE << order), page-aligned and naturally aligned.  QEMU discards
 * each range and returns the request with used len 0.
 *
 * Every request is waited for with a timeout (tinymm.balloon_timeout_ms, 5 s), and the ring
 * checks every used entry (index, id, length): a device that does not answer or breaks a rule is
 * reset and failed, reporting is unregistered (its blocks go back unreported), and the frames
 * still in the balloon go back to the guest (the reset device has no claim on them).
 *
 * Invariants: at most one request is in flight on the whole device, and only inside
 * virtballoon_tell(); once vb->failed, no queue is touched again.  vb->num_pages == the frames
 * in vb->vb_dev_info (on its list or isolated) == what the device was told, and `actual` is
 * written from it.
 * Locking: vb->lock (a mutex) serialises every request: report(), the update work's batches and
 * the migration callback (which only trylocks it: migration must not wait for the device).  The
 * interrupt handler only wakes vb->acked or queues the work.  Lock order: vb->lock, then the
 * balloon's pages_lock, then a zone lock (adjust_managed_page_count).
 *
 * Where tinymm differs from v6.10, and why: no statistics queue and no free page hinting (tinymm
 * has no use for them), so no deflate on OOM (v6.10 needs an OOM notifier for it; tinymm keeps
 * the managed count exact instead).  A reporting queue smaller than PAGE_REPORTING_CAPACITY is
 * used with a smaller capacity (v6.10: -ENOSPC).  Requests time out and fail the device (v6.10
 * waits for ever), so a broken device cannot hang reporting, the work or migration.  The target
 * is capped to the guest's memory with one line (v6.10 tries, and keeps trying, to inflate it).
 */
#include <string.h>
#include "tinymm/balloon_compaction.h"
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/irq.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/page_reporting.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/timer.h"
#include "tinymm/virtio.h"
#include "tinymm/wait.h"
#include "tinymm/workqueue.h"

/* Feature bits (virtio 1.2 §5.5.3; Linux's include/uapi/linux/virtio_balloon.h). */
#define VIRTIO_BALLOON_F_MUST_TELL_HOST	0
#define VIRTIO_BALLOON_F_STATS_VQ	1
#define VIRTIO_BALLOON_F_DEFLATE_ON_OOM	2
#define VIRTIO_BALLOON_F_FREE_PAGE_HINT	3
#define VIRTIO_BALLOON_F_PAGE_POISON	4
#define VIRTIO_BALLOON_F_REPORTING	5

/* Config space (§5.5.4): both 32-bit little-endian, in 4 KiB pages. */
#define VIRTIO_BALLOON_CFG_NUM_PAGES	0
#define VIRTIO_BALLOON_CFG_ACTUAL	4

#define VIRTIO_BALLOON_PFN_SHIFT	12	/* the device's page: 4 KiB */
#define VIRTIO_BALLOON_ARRAY_PFNS_MAX	256	/* PFNs per inflate/deflate request (v6.10's) */
#define VIRTIO_BALLOON_RETRY_MS		200	/* v6.10's "out of puff" sleep */
_Static_assert(PAGE_SHIFT == VIRTIO_BALLOON_PFN_SHIFT, "one guest page is one balloon page");

struct virtio_balloon {
	struct virtio_device *vdev;
	struct virtqueue *inflate_vq, *deflate_vq, *reporting_vq;
	struct page_reporting_dev_info pr_dev_info;
	struct balloon_dev_info vb_dev_info;
	struct mutex lock;			/* one request at a time (the header) */
	struct wait_queue_head acked;		/* requests sleep here; the interrupt wakes them */
	struct delayed_work update_work;	/* toward the target (config change, retries) */
	struct page_report_block *blocks;	/* the report being added (virtballoon_get_buf) */
	uint32_t pfns[VIRTIO_BALLOON_ARRAY_PFNS_MAX];	/* the inflate/deflate request; lock */
	struct page *batch[VIRTIO_BALLOON_ARRAY_PFNS_MAX];	/* the update work's own (not on
								 * its stack: 1-2 KiB) */
	unsigned int num_pfns;			/* entries of pfns in the request; lock */
	unsigned long num_pages;		/* frames in the balloon, told to the device; lock */
	unsigned long guest_pages;		/* managed frames at probe: the most it may take */
	uint32_t capped_target;			/* the last target said to be capped (once each) */
	bool out_of_puff;			/* said that allocation failed; until a batch works */
	bool reporting;				/* reporting registered */
	bool failed;				/* reset and failed: no queue is touched again */
	bool no_notify;				/* test hook: never kick (a device that never answers) */
	char irq_name[24];
};

/* The one balloon (the `balloon` command's); QEMU gives a guest at most one. */
static struct virtio_balloon *the_balloon;

static unsigned int balloon_timeout_ms = 5000;

KPARAM_UINT(balloon_timeout_ms, balloon_timeout_ms, 1, 3600000,
	    "virtio-balloon: a request the device has not returned after this long fails it (default 5000)");

/* Test hook, as `blk inject` for disks: what the device (seems to) do wrong with the first
 * report, or with the first inflate request for the inflate- forms.  no-notify: never kicked, so
 * the device never answers (the timeout path); bad-used-id/-len/-idx: the used entry reads as
 * corrupt (the ring's checks). */
static char balloon_inject[24];

static int set_balloon_inject(const char *val)
{
	const char *what = strncmp(val, "inflate-", 8) ? val : val + 8;

	if (strcmp(what, "no-notify") && strcmp(what, "bad-used-id") && strcmp(what, "bad-used-len") &&
	    strcmp(what, "bad-used-idx"))
		return -1;
	strcpy(balloon_inject, val);
	return 0;
}
KPARAM(balloon_inject, set_balloon_inject,
       "virtio-balloon test hook: [inflate-]no-notify|bad-used-id|bad-used-len|bad-used-idx");

/* The i-th descriptor of a report: the i-th block, device-writable (QEMU walks in_sg only). */
static void virtballoon_get_buf(void *data, unsigned int i, struct vq_buf *b)
{
	struct virtio_balloon *vb = data;

	b->addr = PFN_PHYS(vb->blocks[i].pfn);
	b->len = (uint32_t)(PAGE_SIZE << vb->blocks[i].order);
	b->write = true;
}

/* An inflate/deflate request: one device-readable buffer, the PFN array. */
static void virtballoon_get_pfns(void *data, unsigned int i, struct vq_buf *b)
{
	struct virtio_balloon *vb = data;

	(void)i;
	b->addr = __pa(vb->pfns);
	b->len = (uint32_t)(vb->num_pfns * sizeof(vb->pfns[0]));
	b->write = false;
}

/* Used-buffer interrupt (hard-irq context): Linux's balloon_ack. */
static void balloon_ack(struct virtqueue *vq)
{
	struct virtio_balloon *vb = vq->vdev->priv;

	wake_up(&vb->acked);
}

/* Config change interrupt (hard-irq context): Linux's virtballoon_changed. */
static void virtballoon_changed(struct virtio_device *vdev)
{
	struct virtio_balloon *vb = vdev->priv;

	if (!READ_ONCE(vb->failed))
		mod_delayed_work(system_wq, &vb->update_work, 0);
}

/* The wait's condition: our request came back on @vq (*@tok set), or the used ring broke a rule. */
static bool virtballoon_returned(struct virtqueue *vq, void **tok)
{
	uint32_t len;

	*tok = virtqueue_get_buf(vq, &len);
	return *tok || vq->broken;
}

/*
 * The device is not to be trusted any more: stop it before any frame it was told about goes back
 * to the allocator (a device still holding them could discard memory after it is reused: it would
 * read back as zeros), fail it, stop reporting, and give the balloon's frames back (the update
 * work does, outside this lock's caller).  vb->lock held.  One line says why.
 */
static void virtballoon_fail(struct virtio_balloon *vb, const char *why, bool in_report)
{
	struct virtio_device *vdev = vb->vdev;
	bool stopped;

	lockdep_assert_held(&vb->lock);
	stopped = virtio_reset(vdev);
	virtio_set_failed(vdev);
	if (vdev->irq)
		disable_irq(vdev->irq);		/* a failed device may not storm us */
	WRITE_ONCE(vb->failed, true);
	for (unsigned int i = 0; stopped && i < vdev->nvqs; i++)
		while (virtqueue_detach_unused_buf(vdev->vqs[i]))
			;
	/* Safe from inside report(): the running pass ends with this batch (page_reporting.h). */
	if (vb->reporting)
		page_reporting_unregister(&vb->pr_dev_info);
	/* A device that ignores the reset may still discard memory; nothing can keep the frames
	 * out of the allocator, so this is said, not prevented (QEMU's reset is immediate). */
	if (in_report)
		pr_err("virtio-balloon %s: %s; blocks returned unreported, device failed, free page reporting off%s\n",
		       vdev->name, why, stopped ? "" : " (it ignored the reset: it may still discard them)");
	else
		pr_err("virtio-balloon %s: %s; device failed, the balloon's %lu pages go back to the guest%s%s\n",
		       vdev->name, why, vb->num_pages, vb->reporting ? ", free page reporting off" : "",
		       stopped ? "" : " (it ignored the reset: it may still discard them)");
	vb->reporting = false;
	schedule_delayed_work(&vb->update_work, 0);	/* deflates what is left (not in report()) */
}

/*
 * Kick @vq (the request just added) and sleep until the device returns it: 0, or -EIO /
 * -ETIMEDOUT after failing the device.  vb->lock held.
 */
static int virtballoon_wait(struct virtio_balloon *vb, struct virtqueue *vq, bool in_report)
{
	char why[160];
	void *tok = NULL;
	bool kick = true;

	lockdep_assert_held(&vb->lock);
	if (vb->no_notify && vq == (!strncmp(balloon_inject, "inflate-", 8) ? vb->inflate_vq
									      : vb->reporting_vq)) {
		kick = false;
		vb->no_notify = false;
	}
	if (kick)
		virtqueue_kick(vq);
	(void)wait_event_timeout(vb->acked, virtballoon_returned(vq, &tok),
				 (long)msecs_to_jiffies(balloon_timeout_ms));
	if (tok)
		return 0;
	if (vq->broken) {
		ksnprintf(why, sizeof(why), "device error: %s", vq->err);
		virtballoon_fail(vb, why, in_report);
		return -EIO;
	}
	ksnprintf(why, sizeof(why), "%s timed out after %u ms", in_report ? "report" : "request",
		  balloon_timeout_ms);
	virtballoon_fail(vb, why, in_report);
	return -ETIMEDOUT;
}

/* Linux's tell_host: vb->pfns[0..num_pfns) to @vq, waited for.  vb->lock held. */
static int virtballoon_tell(struct virtio_balloon *vb, struct virtqueue *vq)
{
	char why[96];
	int err;

	lockdep_assert_held(&vb->lock);
	if (vb->failed)
		return -EIO;
	err = virtqueue_add(vq, 1, vb, virtballoon_get_pfns);
	if (err) {
		/* The only request, one descriptor: a broken queue (-EIO) is all it can be. */
		ksnprintf(why, sizeof(why), "cannot queue a request (error %d)", err);
		virtballoon_fail(vb, why, false);
		return -EIO;
	}
	return virtballoon_wait(vb, vq, false);
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
	char why[96];
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
	err = virtqueue_add(vb->reporting_vq, nents, vb, virtballoon_get_buf);
	vb->blocks = NULL;
	if (err) {
		ksnprintf(why, sizeof(why), "cannot queue a report (error %d)", err);
		virtballoon_fail(vb, why, true);
		err = -EIO;
	} else {
		err = virtballoon_wait(vb, vb->reporting_vq, true);
	}
	mutex_unlock(&vb->lock);
	return err;
}

/* ---- inflate and deflate (v6.10's fill_balloon, leak_balloon, update_balloon_size_func) ---- */

/*
 * The device's target in frames, capped to the guest's memory (said once per target).  The
 * device writes num_pages whenever it likes: it is read once per batch and checked here.
 */
static unsigned long virtballoon_target(struct virtio_balloon *vb)
{
	uint32_t target = virtio_cread32(vb->vdev, VIRTIO_BALLOON_CFG_NUM_PAGES);

	if (target > vb->guest_pages) {
		if (target != vb->capped_target)
			pr_warn("virtio-balloon %s: target %u pages is above the guest's %lu; capped to %lu\n",
				vb->vdev->name, (unsigned int)target, vb->guest_pages, vb->guest_pages);
		vb->capped_target = target;
		return vb->guest_pages;
	}
	vb->capped_target = 0;
	return target;
}

/* Up to @num frames into the balloon, the host told: how many went in.  Allocation failure
 * ends the batch early (*@short_of set). */
static unsigned long fill_balloon(struct virtio_balloon *vb, unsigned long num, bool *short_of)
{
	struct page **pages = vb->batch;	/* only the update work fills or leaks */
	unsigned int n = 0;

	num = min(num, (unsigned long)VIRTIO_BALLOON_ARRAY_PFNS_MAX);
	/* Allocated before the lock, as v6.10: reclaim may run, and must not wait for us. */
	while (n < num) {
		struct page *page = balloon_page_alloc();

		if (!page) {
			*short_of = true;
			break;
		}
		pages[n++] = page;
	}
	mutex_lock(&vb->lock);
	if (vb->failed) {
		mutex_unlock(&vb->lock);
		for (unsigned int i = 0; i < n; i++)
			put_page(pages[i]);
		return 0;
	}
	vb->num_pfns = 0;
	for (unsigned int i = 0; i < n; i++) {
		balloon_page_enqueue(&vb->vb_dev_info, pages[i]);
		vb->pfns[vb->num_pfns++] = (uint32_t)page_to_pfn(pages[i]);
		vb->num_pages++;
		adjust_managed_page_count(pages[i], -1);
	}
	if (vb->num_pfns)
		(void)virtballoon_tell(vb, vb->inflate_vq);	/* a failure deflates it all */
	mutex_unlock(&vb->lock);
	return n;
}

/* Frames back to the allocator after the host was told (or the device is gone): lock held. */
static void release_pages_balloon(struct virtio_balloon *vb, struct page **pages, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		adjust_managed_page_count(pages[i], 1);
		put_page(pages[i]);
	}
}

/* Up to @num frames out of the balloon, the host told first: how many came out. */
static unsigned long leak_balloon(struct virtio_balloon *vb, unsigned long num)
{
	struct page **pages = vb->batch;	/* only the update work fills or leaks */
	unsigned int n = 0;

	num = min(num, (unsigned long)VIRTIO_BALLOON_ARRAY_PFNS_MAX);
	mutex_lock(&vb->lock);
	num = min(num, vb->num_pages);
	vb->num_pfns = 0;
	while (n < num) {
		struct page *page = balloon_page_dequeue(&vb->vb_dev_info);

		if (!page)
			break;		/* the rest are isolated for migration: later */
		pages[n++] = page;
		vb->pfns[vb->num_pfns++] = (uint32_t)page_to_pfn(page);
		vb->num_pages--;
	}
	/* MUST_TELL_HOST: the host hears of it before the guest touches the frames again. */
	if (n && !vb->failed)
		(void)virtballoon_tell(vb, vb->deflate_vq);
	release_pages_balloon(vb, pages, n);
	mutex_unlock(&vb->lock);
	return n;
}

static void update_balloon_size(struct virtio_balloon *vb)
{
	mutex_lock(&vb->lock);
	if (!vb->failed)
		virtio_cwrite32(vb->vdev, VIRTIO_BALLOON_CFG_ACTUAL, (uint32_t)vb->num_pages);
	mutex_unlock(&vb->lock);
}

/* One batch toward the target; queued again while the balloon is not there yet. */
static void update_balloon_size_func(struct work_struct *work)
{
	struct virtio_balloon *vb = container_of(to_delayed_work(work), struct virtio_balloon,
						 update_work);
	unsigned long target, cur, done;
	bool short_of = false;

	if (READ_ONCE(vb->failed)) {
		/* The device is reset: every frame it was told about comes back (not migrating). */
		while (leak_balloon(vb, VIRTIO_BALLOON_ARRAY_PFNS_MAX))
			;
		return;
	}
	mutex_lock(&vb->lock);
	target = virtballoon_target(vb);
	cur = vb->num_pages;		/* only this work changes it */
	mutex_unlock(&vb->lock);
	if (target > cur) {
		done = fill_balloon(vb, target - cur, &short_of);
		if (short_of && !vb->out_of_puff)
			pr_warn("virtio-balloon %s: out of puff: no free page for the balloon at %lu of %lu pages; retrying every %u ms\n",
				vb->vdev->name, vb->num_pages, target, VIRTIO_BALLOON_RETRY_MS);
		vb->out_of_puff = short_of;
	} else if (target < cur) {
		done = leak_balloon(vb, cur - target);
	} else {
		return;
	}
	update_balloon_size(vb);
	if (READ_ONCE(vb->failed))
		return;			/* virtballoon_fail queued the deflate */
	/* Short of memory, or pages out for migration: retry later, never spin. */
	if (short_of || !done)
		schedule_delayed_work(&vb->update_work, msecs_to_jiffies(VIRTIO_BALLOON_RETRY_MS));
	else if (done)
		schedule_delayed_work(&vb->update_work, 0);
}

/*
 * b_dev_info->migratepage (v6.10's virtballoon_migratepage): @newpage takes @page's place in the
 * balloon.  The host hears of the new frame (inflate) before it gives the old one back
 * (deflate).  Both pages are locked by the migration core; @page is isolated.
 */
static int virtballoon_migratepage(struct balloon_dev_info *b_dev_info, struct page *newpage,
				   struct page *page, enum migrate_mode mode)
{
	struct virtio_balloon *vb = container_of(b_dev_info, struct virtio_balloon, vb_dev_info);
	unsigned long flags;

	(void)mode;
	/* The work or a report holds it: this migration must not wait for a device. */
	if (!mutex_trylock(&vb->lock))
		return -EAGAIN;
	if (vb->failed) {
		mutex_unlock(&vb->lock);
		return -EAGAIN;
	}
	get_page(newpage);		/* the balloon's reference */
	if (page_zonenum(page) != page_zonenum(newpage)) {
		adjust_managed_page_count(page, 1);
		adjust_managed_page_count(newpage, -1);
	}
	spin_lock_irqsave(&b_dev_info->pages_lock, flags);
	balloon_page_insert(b_dev_info, newpage);
	b_dev_info->isolated_pages--;
	spin_unlock_irqrestore(&b_dev_info->pages_lock, flags);
	vb->num_pfns = 1;
	vb->pfns[0] = (uint32_t)page_to_pfn(newpage);
	(void)virtballoon_tell(vb, vb->inflate_vq);

	spin_lock_irqsave(&b_dev_info->pages_lock, flags);
	balloon_page_delete(page);
	spin_unlock_irqrestore(&b_dev_info->pages_lock, flags);
	vb->num_pfns = 1;
	vb->pfns[0] = (uint32_t)page_to_pfn(page);
	(void)virtballoon_tell(vb, vb->deflate_vq);
	mutex_unlock(&vb->lock);
	put_page(page);			/* the balloon's reference to the old frame */
	return MIGRATEPAGE_SUCCESS;
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
 * free-page-hint=on too.  virtio-mmio lets us select any index (QueueSel): statsq and
 * free_page_vq stay not ready, and QEMU ignores queues that are not.
 */
static unsigned int virtballoon_reporting_index(const struct virtio_device *vdev)
{
	return 2 + (unsigned int)((vdev->features >> VIRTIO_BALLOON_F_STATS_VQ) & 1) +
	       (unsigned int)((vdev->features >> VIRTIO_BALLOON_F_FREE_PAGE_HINT) & 1);
}

/* Reporting on top of a probed balloon: 0, or -errno after saying why (the balloon stays). */
static int virtballoon_setup_reporting(struct virtio_balloon *vb, unsigned int index)
{
	struct virtio_device *vdev = vb->vdev;

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
		pr_err("virtio-balloon %s: another device already does free page reporting; reporting not used\n",
		       vdev->name);
		return -EBUSY;
	}
	vb->reporting = true;
	pr_info("virtio-balloon %s: free page reporting on (queue %u of %u entries, order %u and up, capacity %u), irq %u\n",
		vdev->name, index, vb->reporting_vq->num, page_reporting_order,
		vb->pr_dev_info.capacity, vdev->irq);
	return 0;
}

int virtio_balloon_probe(struct virtio_device *vdev)
{
	uint64_t want = (1ULL << VIRTIO_F_VERSION_1) | (1ULL << VIRTIO_BALLOON_F_MUST_TELL_HOST);
	struct virtio_balloon *vb;
	unsigned int index = 0;
	bool report = false;
	char why[120];

	virtio_get_features(vdev);
	if (!((vdev->features >> VIRTIO_BALLOON_F_REPORTING) & 1))
		pr_info("virtio-balloon %s: no free page reporting (VIRTIO_BALLOON_F_REPORTING not offered)\n",
			vdev->name);
	else if (page_poisoning_enabled)
		pr_warn("virtio-balloon %s: free page reporting off: tinymm.page_poison=1 fills free pages, and pages the host discards read back as zeros\n",
			vdev->name);
	else
		report = true;
	if (report)
		want |= 1ULL << VIRTIO_BALLOON_F_REPORTING;
	if (the_balloon) {
		pr_err("virtio-balloon %s: a second balloon; not used\n", vdev->name);
		virtio_reset(vdev);
		return -EBUSY;
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
	INIT_DELAYED_WORK(&vb->update_work, update_balloon_size_func);
	balloon_devinfo_init(&vb->vb_dev_info);
	vb->vb_dev_info.migratepage = virtballoon_migratepage;
	if (virtio_finalize_features(vdev, want, why, sizeof(why))) {
		pr_err("virtio-balloon %s: %s; not used\n", vdev->name, why);
		return -EIO;		/* vb stays: vdev->priv points at it */
	}
	vb->inflate_vq = virtio_find_vq(vdev, 0, VIRTIO_BALLOON_ARRAY_PFNS_MAX, balloon_ack, why,
					sizeof(why));
	if (vb->inflate_vq)
		vb->deflate_vq = virtio_find_vq(vdev, 1, VIRTIO_BALLOON_ARRAY_PFNS_MAX, balloon_ack,
						why, sizeof(why));
	if (vb->deflate_vq && report) {
		index = virtballoon_reporting_index(vdev);
		vb->reporting_vq = virtio_find_vq(vdev, index, PAGE_REPORTING_CAPACITY, balloon_ack,
						  why, sizeof(why));
	}
	if (!vb->deflate_vq || (report && !vb->reporting_vq)) {
		pr_err("virtio-balloon %s: %s; not used\n", vdev->name, why);
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
	if (balloon_inject[0]) {
		bool inflate = !strncmp(balloon_inject, "inflate-", 8);
		const char *what = inflate ? balloon_inject + 8 : balloon_inject;
		struct virtqueue *vq = inflate ? vb->inflate_vq : vb->reporting_vq;

		if (!strcmp(what, "no-notify"))
			vb->no_notify = true;
		else if (vq)
			virtqueue_inject(vq, what);
	}
	vb->guest_pages = totalram_pages();
	vdev->config_changed = virtballoon_changed;
	the_balloon = vb;
	virtio_device_ready(vdev);
	pr_info("virtio-balloon %s: inflate/deflate on (queues 0 and 1 of %u entries%s), irq %u\n",
		vdev->name, vb->inflate_vq->num,
		virtio_has_feature(vdev, VIRTIO_BALLOON_F_MUST_TELL_HOST) ? ", must tell host" : "",
		vdev->irq);
	if (report)
		(void)virtballoon_setup_reporting(vb, index);
	/* A target set before the driver came (v6.10 checks too). */
	schedule_delayed_work(&vb->update_work, 0);
	return 0;
}

/* `balloon`: the balloon's state, as the driver sees it. */
static int cmd_balloon(int argc, char **argv)
{
	struct virtio_balloon *vb = the_balloon;

	if (shell_no_args(argc, argv))
		return 2;
	if (!vb) {
		kprintf("balloon: no virtio-balloon device\n");
		return 1;
	}
	mutex_lock(&vb->lock);
	uint32_t target = vb->failed ? 0 : virtio_cread32(vb->vdev, VIRTIO_BALLOON_CFG_NUM_PAGES);
	kprintf("balloon: %lu pages (%lu MiB) inflated, target %u pages, %lu isolated%s\n",
		vb->num_pages, vb->num_pages >> (20 - PAGE_SHIFT), (unsigned int)target,
		vb->vb_dev_info.isolated_pages, vb->failed ? ", device failed" : "");
	mutex_unlock(&vb->lock);
	return 0;
}
SHELL_COMMAND(balloon, "", "the virtio balloon: pages inflated, the device's target", cmd_balloon);
