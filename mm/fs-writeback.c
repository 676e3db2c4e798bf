/*
 * fs-writeback.c - the flusher (Linux's fs/fs-writeback.c; tinymm has no fs/, and its
 * "inodes" are the block devices' mappings): one delayed work item, wb_workfn, writing for
 * every disk.
 *
 * What it does each time it runs (wb_do_writeback, reduced):
 *   - background: while dirty + writeback pages exceed the background threshold (woken by
 *     balance_dirty_pages), write every dirty mapping, oldest dirtied first, in slices of
 *     MAX_WRITEBACK_PAGES;
 *   - periodic ("kupdate"): at most every dirty_writeback_interval ms, write every mapping whose
 *     dirtied_when is at least dirty_expire_interval ms old;
 *   - it re-arms itself dirty_writeback_interval later while any mapping is dirty, and sleeps
 *     (no timer at all) once everything is clean, as wb_wakeup_delayed() does.
 * Ages are per mapping (Linux's inode dirtied_when): a mapping written by the flusher that has
 * been dirtied again meanwhile keeps its old dirtied_when, so the new dirt is written by the
 * next periodic pass (as Linux when no other inode is waiting: redirty_tail keeps the time).
 * No per-folio age, as in Linux.
 * Invariants: a mapping is on b_dirty iff it has I_DIRTY_PAGES and no flusher pass holds it on
 *   its private list; i_sync is set from the moment a pass takes a mapping off that list until
 *   its writing and list settling are done (Linux's I_SYNC), and inode_io_list_del() - what an
 *   owner calls before it reuses or frees a mapping, as Linux's evict() - waits for it to
 *   clear.  Without that wait the pass would go on writing, and re-list, a mapping its owner
 *   had reinitialised: a self-linked b_dirty entry, and the next pass spinning for ever with
 *   interrupts masked (seen under load and under -icount).
 * Locking: wb_list_lock (irqs masked, taken inside a mapping's xa_lock by folio_mark_dirty)
 *   guards b_dirty and every i_io_list; I_DIRTY_PAGES changes under the mapping's xa_lock.
 *   wb_workfn runs in its worker thread and may sleep (folio locks, integrity waits never).
 *
 * Where tinymm differs from v6.10, and why: no fs/, so the "inodes" are the block devices'
 * mappings and one work item writes for every disk.  v6.10 queues it on its own "writeback"
 * workqueue (bdi_wq); tinymm queues it on system_wq (kworker/events): each tinymm workqueue owns
 * a thread, and one more thread at boot would shift every pid and the boot-time memory picture
 * for nothing while no disk is dirty.  Only data is written (no inode metadata).
 */
#include <limits.h>
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/spinlock.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "tinymm/workqueue.h"
#include "tinymm/writeback.h"

#define MAX_WRITEBACK_PAGES	1024	/* one slice per inode per pass (4 MiB) */

static LIST_HEAD(b_dirty);
static DEFINE_SPINLOCK(wb_list_lock);
static struct workqueue_struct *bdi_wq;	/* system_wq once writeback_init() ran */
static DECLARE_WAIT_QUEUE_HEAD(wb_sync_wait);	/* owners waiting for i_sync to clear */
static struct delayed_work wb_dwork;
static unsigned long wb_reasons;		/* 1 << WB_REASON_*: work asked for */
static unsigned long last_old_flush;		/* jiffies of the last periodic pass */

/* Under the mapping's xa_lock: it just became dirty. */
void inode_io_list_add(struct address_space *mapping)
{
	unsigned long flags;
	bool was_empty;

	spin_lock_irqsave(&wb_list_lock, flags);
	was_empty = list_empty(&b_dirty);
	list_del(&mapping->i_io_list);
	list_add_tail(&mapping->i_io_list, &b_dirty);
	spin_unlock_irqrestore(&wb_list_lock, flags);
	/* The first dirty mapping arms the periodic pass (wb_wakeup_delayed). */
	if (was_empty && bdi_wq && dirty_writeback_interval)
		queue_delayed_work(bdi_wq, &wb_dwork, msecs_to_jiffies(dirty_writeback_interval));
}

static void __inode_io_list_del(struct address_space *mapping)
{
	unsigned long flags;

	spin_lock_irqsave(&wb_list_lock, flags);
	list_del(&mapping->i_io_list);
	INIT_LIST_HEAD(&mapping->i_io_list);
	spin_unlock_irqrestore(&wb_list_lock, flags);
}

/* Off the flusher's lists for good, once no pass is writing it (evict():
 * inode_wait_for_writeback, then inode_io_list_del).  May sleep; never from the flusher. */
void inode_io_list_del(struct address_space *mapping)
{
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&wb_list_lock, flags);
		if (!mapping->i_sync) {
			list_del(&mapping->i_io_list);
			INIT_LIST_HEAD(&mapping->i_io_list);
			spin_unlock_irqrestore(&wb_list_lock, flags);
			return;
		}
		spin_unlock_irqrestore(&wb_list_lock, flags);
		wait_event(wb_sync_wait, !READ_ONCE(mapping->i_sync));
	}
}

/*
 * Write @mapping as the flusher does (__writeback_single_inode, data only) and settle
 * its dirty state: still DIRTY-tagged (dirtied again meanwhile, or the slice ran out) keeps
 * I_DIRTY_PAGES and dirtied_when and goes back on b_dirty; clean loses I_DIRTY_PAGES.  Checked
 * under the xa_lock folio_mark_dirty() takes, so a concurrent dirtying is never lost.
 */
long writeback_single_inode(struct address_space *mapping, struct writeback_control *wbc)
{
	long before = wbc->nr_to_write;
	unsigned long flags;

	do_writepages(mapping, wbc);
	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	if (!mapping_tagged(mapping, PAGECACHE_TAG_DIRTY)) {
		mapping->i_state &= ~I_DIRTY_PAGES;
		__inode_io_list_del(mapping);
	} else if (list_empty(&mapping->i_io_list)) {
		spin_lock(&wb_list_lock);
		list_add_tail(&mapping->i_io_list, &b_dirty);
		spin_unlock(&wb_list_lock);
	}
	spin_lock(&wb_list_lock);
	mapping->i_sync = false;		/* taken by io_next() */
	spin_unlock(&wb_list_lock);
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	wake_up_all(&wb_sync_wait);
	return before - wbc->nr_to_write;
}

/* Move the mappings the pass should write to @io (queue_io / move_expired_inodes):
 * all of them, or those dirtied at or before @older_than.  Not assumed sorted: a mapping a
 * pass put back keeps its old dirtied_when but goes to the tail. */
static void queue_io(struct list_head *io, bool expired_only, unsigned long older_than)
{
	struct list_head *pos, *n;
	unsigned long flags;

	struct list_head *prev = &b_dirty;

	spin_lock_irqsave(&wb_list_lock, flags);
	for (pos = b_dirty.next, n = pos->next; pos != &b_dirty; pos = n, n = pos->next) {
		struct address_space *mapping = container_of(pos, struct address_space, i_io_list);

		/* A mapping reinitialised (or freed) while still listed breaks the back link; walking
		 * on would spin for ever with interrupts masked.  Say so, cut the list there. */
		if (unlikely(pos->prev != prev)) {
			pr_err("writeback: b_dirty corrupted at %p (a mapping reused without "
			       "inode_io_list_del()?); the mappings after it are no longer listed\n", pos);
			prev->next = &b_dirty;
			b_dirty.prev = prev;
			break;
		}
		if (expired_only && time_after(mapping->dirtied_when, older_than)) {
			prev = pos;
			continue;
		}
		list_del(pos);
		list_add_tail(pos, io);
	}
	spin_unlock_irqrestore(&wb_list_lock, flags);
}

static struct address_space *io_next(struct list_head *io)
{
	struct address_space *mapping = NULL;
	unsigned long flags;

	spin_lock_irqsave(&wb_list_lock, flags);
	if (!list_empty(io)) {
		mapping = container_of(io->next, struct address_space, i_io_list);
		list_del(&mapping->i_io_list);
		INIT_LIST_HEAD(&mapping->i_io_list);
		mapping->i_sync = true;		/* until writeback_single_inode() settles it */
	}
	spin_unlock_irqrestore(&wb_list_lock, flags);
	return mapping;
}

static bool over_bground_thresh(void)
{
	unsigned long bg, thresh;

	global_dirty_limits(&bg, &thresh);
	return global_node_page_state(NR_FILE_DIRTY) + global_node_page_state(NR_WRITEBACK) > bg;
}

/* One pass over the queued mappings; pages written. */
static long wb_writeback(bool expired_only, bool background)
{
	LIST_HEAD(io);
	struct address_space *mapping;
	long wrote = 0;

	queue_io(&io, expired_only, jiffies - msecs_to_jiffies(dirty_expire_interval));
	while ((mapping = io_next(&io))) {
		struct writeback_control wbc = {
			.sync_mode = WB_SYNC_NONE, .range_cyclic = 1,
			.for_kupdate = expired_only, .for_background = background,
			.nr_to_write = background ? MAX_WRITEBACK_PAGES : LONG_MAX,
		};

		if (background && !over_bground_thresh()) {
			/* Done: whatever was not reached goes back, unwritten. */
			writeback_single_inode(mapping, &(struct writeback_control){ .nr_to_write = 0 });
			continue;
		}
		wrote += writeback_single_inode(mapping, &wbc);
	}
	return wrote;
}

static void wb_workfn(struct work_struct *work)
{
	unsigned long flags;
	bool requeue;

	(void)work;
	if (test_and_clear_bit(WB_REASON_BACKGROUND, &wb_reasons))
		while (over_bground_thresh() && wb_writeback(false, true) > 0)
			;
	/* Reclaim met dirty folios nobody had queued: write everything (Linux asks for all the
	 * dirty pages with WB_REASON_VMSCAN). */
	if (test_and_clear_bit(WB_REASON_VMSCAN, &wb_reasons))
		wb_writeback(false, false);
	if (dirty_writeback_interval &&
	    time_after_eq(jiffies, last_old_flush + msecs_to_jiffies(dirty_writeback_interval) / 2)) {
		/* Periodic: half an interval of slack so a slightly early timer still counts. */
		last_old_flush = jiffies;
		wb_writeback(true, false);
	}
	spin_lock_irqsave(&wb_list_lock, flags);
	requeue = !list_empty(&b_dirty);
	spin_unlock_irqrestore(&wb_list_lock, flags);
	if (requeue && dirty_writeback_interval)
		queue_delayed_work(bdi_wq, &wb_dwork, msecs_to_jiffies(dirty_writeback_interval));
}

/* Background writeback now (balance_dirty_pages above the background threshold). */
void wakeup_flusher_threads(enum wb_reason reason)
{
	if (!bdi_wq || test_and_set_bit(reason, &wb_reasons))
		return;
	mod_delayed_work(bdi_wq, &wb_dwork, 0);
}

/* At boot, after workqueue_init() and before the first disk. */
void writeback_init(void)
{
	INIT_DELAYED_WORK(&wb_dwork, wb_workfn);
	bdi_wq = system_wq;
}
