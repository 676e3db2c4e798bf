/*
 * page_reporting.c - free page reporting: tell a device (a hypervisor's balloon) which free
 * high-order blocks it may take back, as Linux v6.10's mm/page_reporting.c does.
 *
 * A pass walks every zone above its low watermark, every order from page_reporting_order up and
 * every migratetype; it pulls up to a capacity of blocks without PG_reported off the free lists
 * (__isolate_free_page), drops the zone lock, hands them to prdev->report(), retakes the lock and
 * puts each back at the tail of its list (__putback_isolated_page), PG_reported if the report
 * succeeded.  The allocator clears PG_reported whenever a block leaves the free lists (allocation,
 * split, merge), so a merged block is new and gets reported again.  Each list gets a budget of
 * report() calls per pass; a pass that runs out leaves the state "requested" for another.
 *
 * Driving: the allocator's page_reporting_notify_fn, called under the zone lock when a block of
 * order >= page_reporting_order is freed, marks a pass as requested and, going from idle,
 * schedules it PAGE_REPORTING_DELAY_MS later through page_reporting_schedule: delayed work on
 * system_wq (mm/page_reporting_work.c).  This file is portable (host tests link
 * it without a workqueue), hence the hook; with it NULL, passes run only when
 * page_reporting_process() is called (the `report` command, the KTAP suite).  A pass that ends
 * with a new request pending schedules itself again, 2 s later (Linux's pacing: an idle machine
 * reports what is free a batch-budget at a time, one pass every 2 s).
 *
 * Locking: page_reporting_lock serialises register/unregister.  zone->lock is held while blocks
 * are isolated and put back, never across report().
 *
 * Where tinymm differs from v6.10, and why: page_reporting_lock is a spinlock, not a mutex, and
 * the device pointer a plain pointer, not RCU (one CPU, and a pass never runs concurrently with
 * unregister).  The batch array is this file's (v6.10 kmallocs a scatterlist per pass): one
 * pass at a time.  The per-list budget divides by the device's capacity, not
 * PAGE_REPORTING_CAPACITY (the same "report() calls" meaning).  page_reporting_order belongs to
 * the device: v6.10 keeps an order set earlier (it is also a module parameter) and leaves it set
 * on unregister; here it goes back to ~0u ("no device", the allocator's off), so the next
 * device's order applies.  Unregister does not cancel_delayed_work_sync(): tinymm's balloon
 * unregisters from inside report() (a failed device), i.e. from the work itself, so waiting
 * would deadlock; a pending work finds no device and does nothing.  docs/page_reporting.md has
 * the flag's lifecycle, the invariants and the rest of the differences.
 */
#include "tinymm/errno.h"
#include "tinymm/page_alloc.h"
#include "tinymm/page_reporting.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/spinlock.h"
#include "tinymm/time.h"
#include "internal.h"

enum {
	PAGE_REPORTING_IDLE = 0,
	PAGE_REPORTING_REQUESTED,
	PAGE_REPORTING_ACTIVE
};

static DEFINE_SPINLOCK(page_reporting_lock);
static struct page_reporting_dev_info *pr_dev_info;
static bool page_reporting_enabled;		/* Linux's static key: set on the first register */
static struct page_report_block batch[PAGE_REPORTING_CAPACITY];
static struct page_reporting_stats stats;
static unsigned long pass_blocks;		/* reported by the pass in progress */
static atomic_t pass_running;			/* one pass at a time: the worker or `report` */

/*
 * Pointers, not calls to mm/page_reporting_work.c: the workqueue is kernel core and this file is
 * portable.  host.page_reporting (tests/host/page_reporting_test.c, host_kernel only) runs
 * passes by hand with both NULL, and page_reporting_ktest swaps in a fake scheduler to see each
 * request and keep the real worker out of its passes.  NULL: passes run only when asked (`report`).
 */
void (*page_reporting_schedule)(unsigned long delay_ms);
void (*page_reporting_cancel_sync)(void);

struct page_reporting_dev_info *page_reporting_device(void)
{
	return READ_ONCE(pr_dev_info);
}

static inline unsigned int prdev_capacity(const struct page_reporting_dev_info *prdev)
{
	return prdev->capacity ? prdev->capacity : PAGE_REPORTING_CAPACITY;
}

/* Run a pass @delay_ms from now, if something runs passes (any context: the zone lock may be held). */
static void page_reporting_kick(unsigned long delay_ms)
{
	void (*schedule)(unsigned long) = READ_ONCE(page_reporting_schedule);

	if (schedule)
		schedule(delay_ms);
}

/* Ask for a pass. */
static void __page_reporting_request(struct page_reporting_dev_info *prdev)
{
	if (atomic_read(&prdev->state) == PAGE_REPORTING_REQUESTED)
		return;
	/* Idle -> requested schedules the work 2 s ahead (the delay lets frees settle into bigger
	 * blocks first); active -> requested makes the running pass reschedule when it ends. */
	if (atomic_xchg(&prdev->state, PAGE_REPORTING_REQUESTED) == PAGE_REPORTING_IDLE)
		page_reporting_kick(PAGE_REPORTING_DELAY_MS);
}

/* page_reporting_notify_fn: a big enough block was freed (zone->lock held: only flip a state). */
static void __page_reporting_notify(void)
{
	struct page_reporting_dev_info *prdev = READ_ONCE(pr_dev_info);

	if (likely(prdev))
		__page_reporting_request(prdev);
}

bool page_reporting_requested(void)
{
	struct page_reporting_dev_info *prdev = READ_ONCE(pr_dev_info);

	return prdev && atomic_read(&prdev->state) == PAGE_REPORTING_REQUESTED;
}

/*
 * Make @page the first entry of @l, keeping the cyclic order: the entries before it move, in
 * order, to the tail (list_rotate_to_front, O(1)).  zone->lock held.  Belongs with the
 * page_list helpers in mm/internal.h.
 */
static void page_list_rotate_to_front(struct page_list *l, struct page *page)
{
	uint32_t prev = page->lru.prev;

	if (prev == PAGE_LINK_NONE)
		return;				/* already first */
	link_to_page(l->last)->lru.next = l->first;
	link_to_page(l->first)->lru.prev = l->last;
	link_to_page(prev)->lru.next = PAGE_LINK_NONE;
	page->lru.prev = PAGE_LINK_NONE;
	l->first = page_to_link(page);
	l->last = prev;
}

/*
 * Report the first @n blocks of the batch, then put them back (prdev->report() and
 * page_reporting_drain()).  Called without @z's lock; takes it for the putback.  A block whose
 * buddy became free meanwhile merges on the way back (__putback_isolated_page): the merged block
 * is unreported, as Linux's drain leaves it.
 */
static int page_reporting_flush(struct page_reporting_dev_info *prdev, struct zone *z,
				unsigned int n)
{
	unsigned long flags;
	int err;

	stats.requests++;
	err = prdev->report(prdev, batch, n);
	spin_lock_irqsave(&z->lock, flags);
	for (unsigned int i = 0; i < n; i++) {
		__putback_isolated_page(batch[i].page, batch[i].order, !err);
		if (err) {
			stats.failed_blocks++;
		} else {
			stats.blocks++;
			stats.pages += 1UL << batch[i].order;
			pass_blocks++;
		}
	}
	spin_unlock_irqrestore(&z->lock, flags);
	return err;
}

/*
 * One free list: isolate unreported blocks into the batch, which
 * holds *@n blocks on entry and may carry some out to the next list; report it whenever it is
 * full and another unreported block is waiting.  Returns 0 or report()'s error.
 */
static int page_reporting_cycle(struct page_reporting_dev_info *prdev, struct zone *z,
				unsigned int order, int mt, unsigned int *n)
{
	struct free_area *area = &z->free_area[order];
	struct page_list *list = &area->free_list[mt];
	unsigned int cap = prdev_capacity(prdev);
	struct page *page, *next = NULL;
	unsigned long flags;
	long budget;
	int err = 0;

	if (READ_ONCE(list->first) == PAGE_LINK_NONE)
		return 0;			/* unlocked: an empty list needs no lock */
	spin_lock_irqsave(&z->lock, flags);
	/*
	 * The budget: enough report() calls for a sixteenth of this order's blocks, plus one
	 * for blocks carried in from the previous list; then the pass asks for another.  On an
	 * idle machine everything is reported within a few passes, never in one long lock-hopping
	 * walk.  Divided by the device's capacity (see the header).
	 */
	budget = (long)((area->nr_free + cap * 16 - 1) / (cap * 16));
	for (page = page_list_first(list); page; page = next) {
		next = page_list_next(page);
		if (PageReported(page))
			continue;		/* reported and untouched since: skip */
		if (budget < 0) {
			atomic_set(&prdev->state, PAGE_REPORTING_REQUESTED);
			next = page;
			break;
		}
		if (*n < cap) {
			/* The zone is at its min watermark: leave this block and the rest. */
			if (!__isolate_free_page(page, order)) {
				next = page;
				break;
			}
			batch[(*n)++] = (struct page_report_block){ page, page_to_pfn(page), order };
			continue;
		}
		/* The batch is full and @page waits: make it the list's head so the walk resumes
		 * there (the reported blocks before it go to the tail), and report. */
		page_list_rotate_to_front(list, page);
		spin_unlock_irqrestore(&z->lock, flags);
		err = page_reporting_flush(prdev, z, *n);
		*n = 0;
		budget--;
		spin_lock_irqsave(&z->lock, flags);
		next = page_list_first(list);	/* the list changed while unlocked: start over */
		if (err)
			break;
	}
	/* Leave the first unreported block we stopped at at the head. */
	if (next && next != page_list_first(list))
		page_list_rotate_to_front(list, next);
	spin_unlock_irqrestore(&z->lock, flags);
	return err;
}

/* One zone. */
static int page_reporting_process_zone(struct page_reporting_dev_info *prdev, struct zone *z,
				       unsigned int min_order)
{
	unsigned int n = 0;
	int err = 0;

	/*
	 * The watermark: isolating a whole batch must leave the zone above its low watermark,
	 * so reporting never pushes it into reclaim.  Below that the zone is skipped for this pass
	 * and nothing asks for another (the next big free does).
	 */
	unsigned long watermark = z->_watermark[WMARK_LOW] +
				  ((unsigned long)prdev_capacity(prdev) << min_order);
	if (READ_ONCE(z->free_pages) <= watermark)
		return 0;
	for (unsigned int order = min_order; order < NR_PAGE_ORDERS; order++) {
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			err = page_reporting_cycle(prdev, z, order, mt, &n);
			if (err)
				return err;	/* the batch was just flushed: nothing is left out */
		}
	}
	if (n)				/* the leftovers, before going idle */
		err = page_reporting_flush(prdev, z, n);
	return err;
}

int page_reporting_process(void)
{
	struct page_reporting_dev_info *prdev = READ_ONCE(pr_dev_info);
	unsigned int min_order = READ_ONCE(page_reporting_order);
	int err = 0;

	if (!prdev || atomic_read(&prdev->state) != PAGE_REPORTING_REQUESTED ||
	    min_order > MAX_PAGE_ORDER)
		return 0;
	/* The batch array is this file's: a second pass (the worker and `report` at once) waits
	 * for the next request instead; the running one reschedules if one comes. */
	if (atomic_xchg(&pass_running, 1))
		return -EBUSY;
	/* Active: a request during the pass (a big free, a used-up budget) turns it back. */
	atomic_set(&prdev->state, PAGE_REPORTING_ACTIVE);
	stats.passes++;
	stats.last_pass_ns = ktime_get_ns();
	pass_blocks = 0;
	for (int i = 0; i < MAX_NR_ZONES && !err; i++)
		err = page_reporting_process_zone(prdev, &zones[i], min_order);
	/* Still active: idle.  Requested again: run again 2 s later. */
	if (atomic_cmpxchg(&prdev->state, PAGE_REPORTING_ACTIVE, PAGE_REPORTING_IDLE) ==
	    PAGE_REPORTING_REQUESTED && !err)
		page_reporting_kick(PAGE_REPORTING_DELAY_MS);
	atomic_set(&pass_running, 0);
	return err ? err : (int)pass_blocks;
}

int page_reporting_run(unsigned int max_passes, unsigned long *blocks, unsigned long *pages)
{
	unsigned long b0 = stats.blocks, p0 = stats.pages;
	unsigned int passes = 0;
	int err = 0;

	if (!READ_ONCE(pr_dev_info))
		return -ENOENT;
	while (passes < max_passes && page_reporting_requested()) {
		passes++;
		err = page_reporting_process();
		if (err < 0)
			break;
	}
	if (blocks)
		*blocks += stats.blocks - b0;
	if (pages)
		*pages += stats.pages - p0;
	return err < 0 ? err : (int)passes;
}

void page_reporting_get_stats(struct page_reporting_stats *st)
{
	*st = stats;
}

int page_reporting_register(struct page_reporting_dev_info *prdev)
{
	unsigned long flags;
	int err = 0;

	if (!prdev || !prdev->report || prdev->capacity > PAGE_REPORTING_CAPACITY)
		return -EINVAL;
	spin_lock_irqsave(&page_reporting_lock, flags);
	if (pr_dev_info) {
		err = -EBUSY;			/* one device at a time */
		goto out;
	}
	/* The device's order if it names a valid one, else pageblock_order (see the header). */
	page_reporting_order = prdev->order > 0 && prdev->order <= MAX_PAGE_ORDER ? prdev->order :
			       pageblock_order;
	atomic_set(&prdev->state, PAGE_REPORTING_IDLE);
	__page_reporting_request(prdev);	/* the initial pass over everything already free */
	smp_store_release(&pr_dev_info, prdev);
	WRITE_ONCE(page_reporting_notify_fn, __page_reporting_notify);
	if (!page_reporting_enabled) {
		page_reporting_enabled = true;
		pr_info("Free page reporting enabled\n");
	}
out:
	spin_unlock_irqrestore(&page_reporting_lock, flags);
	return err;
}

/*
 * Stop reporting to @prdev (anything else: no-op).  Blocks already reported keep
 * PG_reported while they stay free: the flag records what the host was
 * told, and the allocator clears it as usual when they leave the free lists.
 */
void page_reporting_unregister(struct page_reporting_dev_info *prdev)
{
	unsigned long flags;

	spin_lock_irqsave(&page_reporting_lock, flags);
	if (prdev && prdev == pr_dev_info) {
		WRITE_ONCE(page_reporting_notify_fn, NULL);
		WRITE_ONCE(pr_dev_info, NULL);
		/* "No device" is ~0u again, so the next device's order applies (the header). */
		WRITE_ONCE(page_reporting_order, ~0u);
		/* No cancel_delayed_work_sync() (the header): this may run from inside the work;
		 * page_reporting_cancel_sync is there for callers outside the work. */
		atomic_set(&prdev->state, PAGE_REPORTING_IDLE);
	}
	spin_unlock_irqrestore(&page_reporting_lock, flags);
}

/* `report`: the passes the delayed work would run, now. */
static int cmd_report(int argc, char **argv)
{
	unsigned long blocks = 0, pages = 0;

	if (shell_no_args(argc, argv))
		return 2;
	int ret = page_reporting_run(1000, &blocks, &pages);
	if (ret == -ENOENT) {
		kprintf("report: no free page reporting device registered\n");
		return 1;
	}
	if (ret == -EBUSY) {
		kprintf("report: a pass is running (the reporting worker); try again\n");
		return 1;
	}
	if (ret < 0) {
		kprintf("report: device failed (error %d) after %lu blocks, %lu pages\n", ret, blocks,
			pages);
		return 1;
	}
	kprintf("report: %lu blocks, %lu pages reported in %d pass%s\n", blocks, pages, ret,
		ret == 1 ? "" : "es");
	return 0;
}
SHELL_COMMAND(report, "", "run free page reporting passes until none is due", cmd_report);

/*
 * `reporting`: the totals since boot, then per order the free blocks the host was told about
 * (PG_reported) and the ones not (yet): a snapshot, one zone lock hold per zone.
 *   reporting: on, order 9 and up, capacity 32
 *   reported 412 blocks (824 MiB) in 14 requests, 5 passes; failed 0 blocks; last pass 3.014 s
 *   order  reported  unreported
 *       9         0           2
 *      10       412           0
 */
static int cmd_reporting(int argc, char **argv)
{
	unsigned long rep[NR_PAGE_ORDERS] = { 0 }, unrep[NR_PAGE_ORDERS] = { 0 }, flags;
	struct page_reporting_dev_info *prdev = READ_ONCE(pr_dev_info);
	unsigned int min_order = READ_ONCE(page_reporting_order);

	if (shell_no_args(argc, argv))
		return 2;
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		if (!z->managed_pages)
			continue;
		spin_lock_irqsave(&z->lock, flags);
		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				for (struct page *p = page_list_first(&z->free_area[o].free_list[mt]); p;
				     p = page_list_next(p)) {
					if (PageReported(p))
						rep[o]++;
					else
						unrep[o]++;
				}
		spin_unlock_irqrestore(&z->lock, flags);
	}
	if (prdev)
		kprintf("reporting: on, order %u and up, capacity %u\n", min_order, prdev_capacity(prdev));
	else
		kprintf("reporting: off (no device registered)\n");
	kprintf("reported %lu blocks (%lu MiB) in %lu requests, %lu passes; failed %lu blocks; ",
		stats.blocks, (stats.pages << PAGE_SHIFT) >> 20, stats.requests, stats.passes,
		stats.failed_blocks);
	if (stats.last_pass_ns)
		kprintf("last pass %llu.%03llu s\n", (unsigned long long)(stats.last_pass_ns / 1000000000ULL),
			(unsigned long long)(stats.last_pass_ns / 1000000ULL % 1000));
	else
		kprintf("last pass never\n");
	kprintf("order  reported  unreported\n");
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		kprintf("%5u  %8lu  %10lu\n", o, rep[o], unrep[o]);
	return 0;
}
SHELL_COMMAND(reporting, "", "free page reporting: totals, and reported/unreported free blocks per order",
	      cmd_reporting);
