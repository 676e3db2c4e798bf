/*
 * page_reporting_work.c - what runs free page reporting passes: v6.10's prdev->work, a delayed
 * work item on system_wq, scheduled PAGE_REPORTING_DELAY_MS after a request (mm/page_reporting.c
 * calls page_reporting_schedule).  Kept apart from mm/page_reporting.c because that file is
 * portable and links into host tests without the kernel's workqueues.
 *
 * Invariants: one work item for the one device; scheduling an already pending item keeps its
 * earlier deadline (schedule_delayed_work), as Linux's.  The work function runs one pass; a pass
 * that ends with a request pending schedules the next one itself.
 * Locking: the workqueue's own; the schedule hook may be called with a zone lock held and
 * interrupts masked (queue_delayed_work takes its lock irqsave).
 */
#include "tinymm/errno.h"
#include "tinymm/page_reporting.h"
#include "tinymm/printk.h"
#include "tinymm/timer.h"
#include "tinymm/workqueue.h"

static struct delayed_work page_reporting_work;

static void page_reporting_workfn(struct work_struct *work)
{
	(void)work;
	int err = page_reporting_process();
	if (err < 0 && err != -EBUSY)
		pr_warn("page_reporting: the device failed a report (error %d): those blocks stay unreported\n",
			err);
}

static void page_reporting_schedule_work(unsigned long delay_ms)
{
	schedule_delayed_work(&page_reporting_work, msecs_to_jiffies((unsigned int)delay_ms));
}

static void page_reporting_cancel_work_sync(void)
{
	cancel_delayed_work_sync(&page_reporting_work);
}

/* At boot, after workqueue_init() and before any device can register. */
void page_reporting_init(void)
{
	INIT_DELAYED_WORK(&page_reporting_work, page_reporting_workfn);
	page_reporting_cancel_sync = page_reporting_cancel_work_sync;
	page_reporting_schedule = page_reporting_schedule_work;
}
