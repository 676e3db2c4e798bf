/*
 * page_reporting.h - free page reporting (mm/page_reporting.c), Linux v6.10's
 * include/linux/page_reporting.h adapted: a device (drivers/virtio_balloon.c) registers and is told,
 * in batches, which free high-order blocks it may discard; the allocator keeps those blocks at the
 * tails of its free lists with PG_reported set until they leave the lists (docs/page_reporting.md).
 *
 *   page_reporting_register(prdev)    one device at a time: 0, -EBUSY, -EINVAL
 *   page_reporting_unregister(prdev)  stops reporting; PG_reported stays on blocks still free
 *   page_reporting_process()          one pass if one was requested (Linux's work function)
 *   page_reporting_run()              passes until none is requested (the `report` command)
 *
 * Driving: a free of a block of order >= page_reporting_order sets a "requested" state (the
 * allocator calls page_reporting_notify_fn with the zone lock held) and, from idle, schedules a
 * pass 2 s later as delayed work on system_wq (mm/page_reporting_work.c), as Linux does.  The
 * `report` command and the KTAP suite can also call page_reporting_process()/_run() directly;
 * one pass runs at a time (a second caller gets -EBUSY).
 *
 * Where tinymm differs from v6.10, and why: report() gets {pfn, order} blocks, not a
 * scatterlist to DMA-map (tinymm has no scatterlist or DMA-mapping layer, and a block is one
 * naturally aligned power-of-two run); a device may ask for fewer than PAGE_REPORTING_CAPACITY
 * blocks per call (@capacity, which v6.10 lacks: its balloon refuses a smaller queue, tinymm's
 * takes smaller batches); the delayed work lives in mm/page_reporting_work.c behind
 * page_reporting_schedule, so host tests can run passes without a workqueue.
 */
#ifndef TINYMM_PAGE_REPORTING_H
#define TINYMM_PAGE_REPORTING_H

#include "atomic.h"
#include "mm_types.h"

/* Blocks per report() call at most (Linux's; a power of two, see the budget in the cycle). */
#define PAGE_REPORTING_CAPACITY		32

/*
 * One isolated free block handed to report(), instead of a scatterlist entry (physical addresses
 * are bus addresses on every board, and the block is one naturally aligned power-of-two run), so
 * {pfn, order} says everything: the range is [PFN_PHYS(pfn), PFN_PHYS(pfn) + (PAGE_SIZE << order)).
 * @page is the head's struct page, for drivers that want it (it must not be touched: the block is
 * off the free lists, not PageBuddy, refcount 0, and returns to the allocator after report()).
 */
struct page_report_block {
	struct page *page;
	unsigned long pfn;
	unsigned int order;
};

struct page_reporting_dev_info {
	/*
	 * Tell the device about @nents (1..capacity) isolated blocks; 0 on success, or a negative
	 * errno: then every block goes back unreported and the pass ends.  Called without any zone
	 * lock; may take as long as the device needs (the blocks stay isolated meanwhile).
	 */
	int (*report)(struct page_reporting_dev_info *prdev, struct page_report_block *blocks,
		      unsigned int nents);
	/* Minimal order to report: 0 or > MAX_PAGE_ORDER means pageblock_order (as Linux). */
	unsigned int order;
	/* Blocks per report() call: 0 means PAGE_REPORTING_CAPACITY; more than that is -EINVAL
	 * (tinymm's field, see the header). */
	unsigned int capacity;
	/* Set by page_reporting_register(): idle, requested or active (Linux's).  Linux's
	 * struct delayed_work is mm/page_reporting_work.c's (one device at a time). */
	atomic_t state;
};

int page_reporting_register(struct page_reporting_dev_info *prdev);
void page_reporting_unregister(struct page_reporting_dev_info *prdev);

/*
 * One reporting pass over every zone if a pass was requested (Linux's page_reporting_process()).
 * Returns the blocks reported by the pass (0 if none was due or no device is registered), or the
 * device's negative errno (-EBUSY: another pass is running).  Unregistering during a pass is
 * safe (a driver may do it from report() when its device fails): the pass ends with that batch.
 */
int page_reporting_process(void);
/* How passes get run: mm/page_reporting_work.c sets it to schedule delayed work (Linux's
 * prdev->work) at boot; NULL runs nothing by itself (host tests, and the KTAP suite while it
 * drives passes by hand).  Called in any context, zone lock possibly held. */
extern void (*page_reporting_schedule)(unsigned long delay_ms);
#define PAGE_REPORTING_DELAY_MS		2000	/* Linux's PAGE_REPORTING_DELAY (2 * HZ) */
/* Cancels a scheduled pass and waits for a running one (cancel_delayed_work_sync; never from
 * the pass itself).  Set with page_reporting_schedule; NULL: nothing to wait for. */
extern void (*page_reporting_cancel_sync)(void);
/* The registered device, or NULL (the KTAP suite sets a real one aside and puts it back). */
struct page_reporting_dev_info *page_reporting_device(void);
void page_reporting_init(void);		/* mm/page_reporting_work.c: at boot */
/* True if a pass is due: a big enough block was freed, or the last pass used up its budget. */
bool page_reporting_requested(void);

/*
 * Passes until none is requested (at most @max_passes), as the delayed work would run them one
 * every 2 s.  Returns the number of passes or a negative errno; adds to *@blocks and *@pages
 * (either may be NULL) what was reported.  -ENOENT if no device is registered.
 */
int page_reporting_run(unsigned int max_passes, unsigned long *blocks, unsigned long *pages);

/* Totals since boot (the `report` and `reporting` commands). */
struct page_reporting_stats {
	unsigned long passes;		/* passes run */
	unsigned long requests;		/* report() calls */
	unsigned long blocks, pages;	/* reported successfully */
	unsigned long failed_blocks;	/* handed to a report() that failed: back unreported */
	uint64_t last_pass_ns;		/* ktime_get_ns() when the last pass started; 0: never */
};
void page_reporting_get_stats(struct page_reporting_stats *st);

#endif
