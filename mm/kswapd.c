/*
 * kswapd.c - kswapd, the node's background reclaimer.  The page allocator wakes it
 * (wakeup_kswapd(), its reclaim_wakeup_hook) when an allocation finds a zone below its low
 * watermark; kswapd then runs balance_pgdat(): shrink_node() passes (mm/vmscan.c) at a rising
 * priority until some eligible zone is above its high watermark, and sleeps until woken again.
 * kswapd_run() starts the thread at boot and sets both of the allocator's reclaim hooks
 * (direct reclaim's is mm/vmscan.c's direct_reclaim()).  docs/reclaim.md, "Who reclaims, and
 * when".
 *
 * Invariants:
 *   - kswapd runs with PF_MEMALLOC | PF_KSWAPD: its own allocations never reclaim again, and
 *     shrink_folio_list() knows it is kswapd (only kswapd writes folios out);
 *   - kswapd_highest_zoneidx is -1 exactly when no wake-up is pending: wakers only raise it and
 *     kswapd_order, kswapd takes both and resets them in one hold of the lock;
 *   - a node kswapd failed on MAX_RECLAIM_RETRIES runs in a row is not woken again until
 *     reclaim makes progress (shrink_node() resets pgdat.kswapd_failures).
 * Locking: kswapd_wait's lock (irqsave) around the wake-up request; wakeup_kswapd() may be
 *   called from any context, interrupts included.  balance_pgdat() takes reclaim's locks
 *   (mm/vmscan.c) and nothing of its own.
 *
 * Where tinymm differs from v6.10, and why: v6.10 has all of this in mm/vmscan.c; it is a file
 * of its own here because the thread and its watermarks are one idea and the list scanning
 * another.  One node, so its pglist_data is two plain structures (pgdat, reclaim's flags and
 * failure count, mm/internal.h; kswapd_pgdat below, the thread's) and its zones are zones[].
 * kcompactd (mm/compaction.c) is woken through kcompactd_wakeup_hook, as v6.10 does: by a
 * waker with enough free memory (or on a hopeless node) but a failed high order, unless it
 * compacts itself (direct reclaim allowed), and by kswapd after a high-order run.  No order
 * reset once enough was freed; no watermark boosting; no kswapd_try_to_sleep() nap: kswapd
 * sleeps as soon as the work it was woken for is done, and a waker does not look whether it is asleep (a pending request is
 * enough).  pgdat_balanced() compares free pages with the high watermark plus the request's
 * size and the lowmem reserve, without __zone_watermark_ok()'s per-order free-area walk.
 */
#include "tinymm/compaction.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shrinker.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "tinymm/wait.h"
#include "internal.h"

/* kswapd's thread and its wake-up request (pglist_data's fields). */
static struct {
	struct task_struct *kswapd;
	struct wait_queue_head kswapd_wait;
	unsigned int kswapd_order;	/* the largest order a waker wants */
	int kswapd_highest_zoneidx;	/* -1: nobody asked */
} kswapd_pgdat = { .kswapd_highest_zoneidx = -1 };

static bool zone_balanced(const struct zone *z, unsigned int order, int highest_zoneidx)
{
	return z->free_pages >= z->_watermark[WMARK_HIGH] + (1UL << order) + z->lowmem_reserve[highest_zoneidx];
}

/* Any eligible zone above its high watermark will do. */
static bool pgdat_balanced(unsigned int order, int highest_zoneidx)
{
	bool any = false;

	for (int i = 0; i <= highest_zoneidx; i++) {
		if (!zones[i].managed_pages)
			continue;
		any = true;
		if (zone_balanced(&zones[i], order, highest_zoneidx))
			return true;
	}
	return !any;
}

static unsigned long high_wmark_pages_sum(int highest_zoneidx)
{
	unsigned long sum = 0;

	for (int i = 0; i <= highest_zoneidx; i++)
		if (zones[i].managed_pages)
			sum += max(zones[i]._watermark[WMARK_HIGH], SWAP_CLUSTER_MAX);
	return sum;
}

/* set_reclaim_active()/clear_reclaim_active(): while kswapd reclaims a zone its per-CPU
 * lists hold at most four batches (mm/pcp.c: nr_pcp_high). */
static void set_reclaim_active(int highest_zoneidx, bool on)
{
	for (int i = 0; i <= highest_zoneidx && i < MAX_NR_ZONES; i++)
		if (zones[i].managed_pages)
			zone_set_flag(&zones[i], ZONE_RECLAIM_ACTIVE, on);
}

/* Raise the priority until a pass reclaims enough, stop once balanced. */
static void balance_pgdat(unsigned int order, int highest_zoneidx)
{
	struct scan_control sc = { .gfp_mask = GFP_KERNEL, .order = order, .may_writepage = true };
	bool balanced = false;

	count_vm_events(PAGEOUTRUN, 1);
	set_reclaim_active(highest_zoneidx, true);
	sc.priority = DEF_PRIORITY;
	do {
		unsigned long nr_reclaimed = sc.nr_reclaimed;
		bool raise_priority = true;

		balanced = pgdat_balanced(sc.order, highest_zoneidx);
		if (balanced)
			break;
		sc.nr_to_reclaim = high_wmark_pages_sum(highest_zoneidx);
		sc.nr_scanned = 0;
		shrink_node(&sc);
		if (sc.nr_scanned >= sc.nr_to_reclaim)
			raise_priority = false;
		if (raise_priority || sc.nr_reclaimed == nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1);
	set_reclaim_active(highest_zoneidx, false);
	if (!sc.nr_reclaimed)
		pgdat.kswapd_failures++;
	if (balanced)
		pgdat.flags &= ~(1UL << PGDAT_DIRTY | 1UL << PGDAT_WRITEBACK);
	snapshot_refaults(&node_lruvec);
}

static bool kswapd_should_run(void)
{
	return READ_ONCE(kswapd_pgdat.kswapd_highest_zoneidx) >= 0;
}

static int kswapd(void *unused)
{
	(void)unused;
	current->flags |= PF_MEMALLOC | PF_KSWAPD;
	for (;;) {
		unsigned long flags;
		/* Interruptible: an idle kswapd is "S", not "D" (it holds up nothing). */
		wait_event_interruptible(kswapd_pgdat.kswapd_wait, kswapd_should_run());
		spin_lock_irqsave(&kswapd_pgdat.kswapd_wait.lock, flags);
		unsigned int order = kswapd_pgdat.kswapd_order;
		int highest = kswapd_pgdat.kswapd_highest_zoneidx;
		kswapd_pgdat.kswapd_order = 0;
		kswapd_pgdat.kswapd_highest_zoneidx = -1;
		spin_unlock_irqrestore(&kswapd_pgdat.kswapd_wait.lock, flags);
		balance_pgdat(order, highest);
		/* v6.10's kswapd_try_to_sleep(): reclaim made room, compaction makes the block. */
		if (order && kcompactd_wakeup_hook)
			kcompactd_wakeup_hook(order, highest);
		/* Still short after a full run that achieved nothing: sleep until woken again
		 * (wakeup_kswapd stops waking a hopeless node after MAX_RECLAIM_RETRIES). */
	}
	return 0;
}

/*
 * The page allocator's reclaim_wakeup_hook: any context, interrupts included.  A hopeless node
 * (kswapd failed MAX_RECLAIM_RETRIES times running) or a balanced one is left alone: direct
 * reclaim resets the count when it makes progress.
 */
static void wakeup_kswapd(struct zone *z, unsigned int order, gfp_t gfp)
{
	int idx = (int)(z - zones);
	unsigned long flags;

	if (!kswapd_pgdat.kswapd)
		return;
	if (pgdat.kswapd_failures >= MAX_RECLAIM_RETRIES || pgdat_balanced(order, idx)) {
		/* A hopeless node, or memory enough but no block: fragmentation, which kcompactd
		 * is for; compaction_suitable() decides (a caller that may reclaim compacts
		 * itself: v6.10's rule). */
		if (order && !(gfp & __GFP_DIRECT_RECLAIM) && kcompactd_wakeup_hook)
			kcompactd_wakeup_hook(order, idx);
		return;
	}
	spin_lock_irqsave(&kswapd_pgdat.kswapd_wait.lock, flags);
	if (order > kswapd_pgdat.kswapd_order)
		kswapd_pgdat.kswapd_order = order;
	if (idx > kswapd_pgdat.kswapd_highest_zoneidx)
		kswapd_pgdat.kswapd_highest_zoneidx = idx;
	spin_unlock_irqrestore(&kswapd_pgdat.kswapd_wait.lock, flags);
	wake_up(&kswapd_pgdat.kswapd_wait);
}

void kswapd_run(void)
{
	init_waitqueue_head(&kswapd_pgdat.kswapd_wait);
	direct_reclaim_hook = direct_reclaim;
	kswapd_pgdat.kswapd = kthread_run(kswapd, NULL, "kswapd0");
	if (!kswapd_pgdat.kswapd)
		pr_err("kswapd: cannot start the thread; only direct reclaim will run\n");
	else
		reclaim_wakeup_hook = wakeup_kswapd;
}
