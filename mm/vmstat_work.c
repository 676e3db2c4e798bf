/*
 * vmstat_work.c - v6.10's vmstat_update(), once a second (sysctl_stat_interval, HZ): every CPU's
 * counter differentials folded into the globals (include/tinymm/vmstat.h), and decay_pcp_high()
 * while some per-CPU list's high is above its high_min, so lists that grew during a burst give
 * their frames back when it is over.  It runs while either has work: a differential folded at
 * its threshold or a raised high arms it, and it stops once nothing is left (v6.10's shepherd
 * stops a quiet CPU's likewise).  Kept apart from
 * mm/pcp.c because that file is portable and links into host tests without the kernel's
 * workqueues (the host tests call decay_pcp_high_all() themselves).
 *
 * Invariants: one delayed work item; scheduling it while pending keeps the earlier deadline
 * (schedule_delayed_work), so a stream of frees that raise high does not postpone the decay.
 * Locking: the workqueue's own; the schedule hook is called with interrupts masked (from the
 * free path), which queue_delayed_work allows (it takes its lock irqsave).
 */
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "tinymm/workqueue.h"
#include "internal.h"

static struct delayed_work vmstat_work;
/* Set while the work is queued or running: the fold path (every threshold crossing) reads it
 * and calls into the workqueue only when it is clear.  Cleared before the work looks, so an
 * arm that races with its end queues it again. */
static bool vmstat_armed;

static void vmstat_schedule(void)
{
	if (READ_ONCE(vmstat_armed))
		return;
	WRITE_ONCE(vmstat_armed, true);
	schedule_delayed_work(&vmstat_work, HZ);
}

static void vmstat_update(struct work_struct *work)
{
	(void)work;
	WRITE_ONCE(vmstat_armed, false);
	smp_mb();		/* the flag clear before the differentials are read */
	/* Both, every time: | not || */
	if (decay_pcp_high_all() | vmstat_fold_all())
		vmstat_schedule();
}

/* At boot, after workqueue_init(). */
void vmstat_work_init(void)
{
	INIT_DELAYED_WORK(&vmstat_work, vmstat_update);
	pcp_decay_schedule = vmstat_schedule;
	refresh_zone_stat_thresholds();
	vmstat_fold_schedule = vmstat_schedule;
}
