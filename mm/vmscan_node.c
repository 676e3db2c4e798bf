/*
 * vmscan_node.c - how reclaim walks the LRU lists (Linux v6.10's mm/vmscan.c, the classic
 * two-list LRU, not MGLRU): shrink_node() for kswapd (mm/kswapd.c) and direct reclaim
 * (try_to_free_pages(), here), get_scan_count()'s share of each list, the inactive lists
 * scanned from their tails (each folio decided by mm/vmscan.c's shrink_folio_list()), the
 * active lists deactivated, the slab shrinkers, and direct reclaim's entry from the page
 * allocator.  The anon lists are scanned only while swap has a free slot (docs/swap.md).
 *
 * Invariants: every folio a scan isolates goes back (move_folios_to_lru) or is freed; the
 * active file list is shrunk only when the inactive one is too small or refaults show the
 * workingset changing; a task inside reclaim carries PF_MEMALLOC and never reclaims again.
 * Locking: lru_lock (irqsave) around isolation and putback only; nothing else is held across
 * a scan (mm/vmscan.c has the per-folio order).
 *
 * Where tinymm differs from v6.10, and why:
 *   - One node, one memcg: get_scan_count() has no cost model (no lru_note_cost: swappiness
 *     alone weighs anon against file), proportional scanning is replaced by stopping once
 *     nr_to_reclaim is met.  No compaction: an order > 0 request is treated as order 0 pages
 *     freed.  No anonymous workingset: anon refaults are not detected, so the active anon list
 *     is shrunk when the inactive one is low (v6.10's inactive_is_low).
 *   - No reclaim_throttle(): direct reclaim that made no progress while folios are dirty or
 *     under writeback wakes the flusher and sleeps HZ/10 once (VMSCAN_THROTTLE_WRITEBACK's
 *     timeout).  v6.10 spares kernel threads and workqueue workers; every tinymm thread is a
 *     kernel thread (the shell and test threads stand in for user tasks), so only the workers,
 *     the flusher among them, are spared.
 *   - shrink_node() counts the slab pages the shrinkers freed by comparing totals, without
 *     reclaim_state.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/mmap.h"
#include "tinymm/irqflags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/sched.h"
#include "tinymm/shrinker.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"
#include "internal.h"
#include "vmscan.h"

/* inactive_is_low(): the inactive list may be smaller than the active one by a ratio
 * that grows with the square root of the cache size (1 below 1 GiB). */
static bool inactive_is_low(struct lruvec *lruvec, enum lru_list inactive_lru)
{
	unsigned long inactive = lruvec->nr_pages[inactive_lru];
	unsigned long active = lruvec->nr_pages[inactive_lru + LRU_ACTIVE];
	unsigned long gb = (inactive + active) >> (30 - PAGE_SHIFT), ratio = 1;

	if (gb)
		while ((ratio + 1) * (ratio + 1) <= 10 * gb)	/* int_sqrt(10 * gb) */
			ratio++;
	return inactive * ratio < active;
}

bool inactive_file_is_low(struct lruvec *lruvec)
{
	return inactive_is_low(lruvec, LRU_INACTIVE_FILE);
}


#define DEACTIVATE_ANON		1	/* may_deactivate's bits, v6.10's */
#define DEACTIVATE_FILE		2

/* v6.10's vm_swappiness: the relative cost of swapping anonymous memory against dropping
 * cache, 0-200 (100: equal; 60: cache goes first, as v6.10's default). */
static unsigned int vm_swappiness = 60;
KPARAM_UINT(swappiness, vm_swappiness, 0, 200,
	    "0-200 (default 60): how readily reclaim swaps anonymous memory rather than drop cache");


/* ---- the scanners ---- */

static unsigned long shrink_inactive_list(unsigned long nr_to_scan, struct lruvec *lruvec,
					  struct scan_control *sc, enum lru_list lru)
{
	struct reclaim_stat stat = { 0 };
	struct page_list list;
	unsigned long nr_scanned, nr_taken, nr_reclaimed, flags;
	bool kswapd = current_is_kswapd();

	page_list_init(&list);
	lru_add_drain();
	spin_lock_irqsave(&lruvec->lru_lock, flags);
	nr_taken = isolate_lru_folios(nr_to_scan, lruvec, &list, &nr_scanned, lru);
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	count_vm_events(kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT, (long)nr_scanned);
	if (!nr_taken)
		return 0;
	nr_reclaimed = shrink_folio_list(&list, sc, &stat);
	move_folios_to_lru(lruvec, &list);
	count_vm_events(kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, (long)nr_reclaimed);
	/* Dirty file folios nobody queued for I/O reached the tail: the flusher is behind. */
	if (lru == LRU_INACTIVE_FILE && stat.nr_unqueued_dirty == nr_taken)
		wakeup_flusher_threads(WB_REASON_VMSCAN);
	sc->nr.dirty += stat.nr_dirty;
	sc->nr.congested += stat.nr_congested;
	sc->nr.unqueued_dirty += stat.nr_unqueued_dirty;
	sc->nr.writeback += stat.nr_writeback;
	sc->nr.immediate += stat.nr_immediate;
	sc->nr.taken += nr_taken;
	if (lru == LRU_INACTIVE_FILE)
		sc->nr.file_taken += nr_taken;
	return nr_reclaimed;
}

/*
 * Every folio scanned is deactivated (PG_active cleared) and marked PG_workingset: it was once
 * in the workingset, which a later refault of it will remember; it goes to the head of the
 * inactive list.  Except, as v6.10: an executable file folio some pte used since the last look
 * gets another trip round the active list, so code stays in memory under moderate pressure
 * (streaming reads cannot push it out).  folio_referenced() clears the young bits either way.
 */
static void shrink_active_list(unsigned long nr_to_scan, struct lruvec *lruvec, enum lru_list lru)
{
	struct page_list hold, l_active, l_inactive;
	unsigned long nr_scanned, nr_taken, flags, nr_deactivate;

	page_list_init(&hold);
	page_list_init(&l_active);
	page_list_init(&l_inactive);
	lru_add_drain();
	spin_lock_irqsave(&lruvec->lru_lock, flags);
	nr_taken = isolate_lru_folios(nr_to_scan, lruvec, &hold, &nr_scanned, lru);
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	count_vm_events(PGREFILL, (long)nr_scanned);
	if (!nr_taken)
		return;
	/* Oldest first (the tail), each pushed on a head: both lists keep the order. */
	while (!page_list_empty(&hold)) {
		struct page *p = link_to_page(hold.last);
		struct folio *folio = page_folio(p);
		unsigned long vm_flags = 0;

		page_list_del(&hold, p);
		if (folio_evictable(folio)) {	/* else putback culls it */
			if (folio_mapped(folio) && folio_referenced(folio, 0, &vm_flags) && (vm_flags & VM_EXEC) &&
			    !folio_test_swapbacked(folio)) {
				page_list_add(&l_active, p);
				continue;
			}
			folio_clear_active(folio);
			folio_set_workingset(folio);
		}
		page_list_add(&l_inactive, p);
	}
	move_folios_to_lru(lruvec, &l_active);
	nr_deactivate = move_folios_to_lru(lruvec, &l_inactive);
	count_vm_events(PGDEACTIVATE, (long)nr_deactivate);
}

/* The zones' high watermarks together (v6.10's total_high_wmark in prepare_scan_control). */
static unsigned long high_wmark_pages_total(void)
{
	unsigned long sum = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		sum += zones[i]._watermark[WMARK_HIGH];
	return sum;
}

/*
 * v6.10's get_scan_count(), without the cost model (no lru_note_cost: anon and file cost the
 * same, so swappiness alone sets the balance): how many of each list this pass scans.  No
 * free swap: files only.  Priority 0 with swappiness: both equally.  The file lists nearly
 * empty (their pages and the free pages under the high watermarks): anon only, as v6.10's
 * file_is_tiny.  Otherwise each list's size >> priority, anon weighted swappiness and file
 * 200 - swappiness.
 */
static void get_scan_count(struct lruvec *lruvec, struct scan_control *sc, unsigned long *nr)
{
	unsigned long ap = vm_swappiness, fp = 200 - vm_swappiness, denominator;
	unsigned long file = lruvec->nr_pages[LRU_INACTIVE_FILE] + lruvec->nr_pages[LRU_ACTIVE_FILE];
	enum lru_list lru;

	if (get_nr_swap_pages() <= 0) {
		ap = 0;
		fp = 1;
	} else if (!sc->priority && vm_swappiness) {
		ap = fp = 1;
	} else if (file + nr_free_pages() <= high_wmark_pages_total()) {
		ap = 1;
		fp = 0;
	}
	denominator = ap + fp;
	for (lru = LRU_INACTIVE_ANON; lru <= LRU_ACTIVE_FILE; lru++) {
		unsigned long scan = lruvec->nr_pages[lru] >> sc->priority;
		bool is_file = lru >= LRU_INACTIVE_FILE;

		nr[lru] = scan * (is_file ? fp : ap) / denominator;
	}
}

/* The four lists in SWAP_CLUSTER_MAX steps, each inactive list before its active one, until
 * nr_to_reclaim is met (v6.10's shrink_lruvec without the proportional tail). */
static void shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	unsigned long nr[NR_LRU_LISTS] = { 0 }, nr_reclaimed = 0;
	enum lru_list lru;

	get_scan_count(lruvec, sc, nr);
	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_ANON] || nr[LRU_INACTIVE_FILE] ||
	       nr[LRU_ACTIVE_FILE]) {
		for (lru = LRU_INACTIVE_ANON; lru <= LRU_ACTIVE_FILE; lru++) {
			unsigned long n = min(nr[lru], SWAP_CLUSTER_MAX);
			unsigned int bit = lru >= LRU_INACTIVE_FILE ? DEACTIVATE_FILE : DEACTIVATE_ANON;

			if (!n)
				continue;
			nr[lru] -= n;
			if (!(lru & LRU_ACTIVE))
				nr_reclaimed += shrink_inactive_list(n, lruvec, sc, lru);
			else if (sc->may_deactivate & bit)
				shrink_active_list(n, lruvec, lru);
			else
				sc->skipped_deactivate = true;
		}
		if (nr_reclaimed >= sc->nr_to_reclaim)
			break;
	}
	sc->nr_reclaimed += nr_reclaimed;
}

/* Shrink the active file list only when refaults since the last run
 * say the workingset changed, or the inactive list is too small. */
static void prepare_scan_control(struct lruvec *lruvec, struct scan_control *sc)
{
	unsigned long refaults = global_node_page_state(WORKINGSET_ACTIVATE_FILE);

	if (sc->force_deactivate || refaults != lruvec->refaults_file || inactive_file_is_low(lruvec))
		sc->may_deactivate |= DEACTIVATE_FILE;
	else
		sc->may_deactivate &= ~DEACTIVATE_FILE;
	/* Anonymous memory has no refault tracking: its active list shrinks when the inactive
	 * one is small (v6.10's rule without the anon refaults). */
	if (sc->force_deactivate || inactive_is_low(lruvec, LRU_INACTIVE_ANON))
		sc->may_deactivate |= DEACTIVATE_ANON;
	else
		sc->may_deactivate &= ~DEACTIVATE_ANON;
}

void shrink_node(struct scan_control *sc)
{
	struct lruvec *lruvec = &node_lruvec;
	unsigned long nr_reclaimed = sc->nr_reclaimed;
	unsigned long slab_before = slab_pages_reclaimable() + slab_pages_unreclaimable();

	memset(&sc->nr, 0, sizeof(sc->nr));
	prepare_scan_control(lruvec, sc);
	shrink_lruvec(lruvec, sc);
	shrink_slab(sc->gfp_mask, 0, NULL, sc->priority);
	unsigned long slab_after = slab_pages_reclaimable() + slab_pages_unreclaimable();
	if (slab_after < slab_before)
		sc->nr_reclaimed += slab_before - slab_after;
	if (current_is_kswapd()) {
		if (sc->nr.writeback && sc->nr.writeback == sc->nr.taken)
			set_bit(PGDAT_WRITEBACK, &pgdat.flags);
		if (sc->nr.unqueued_dirty == sc->nr.file_taken)
			set_bit(PGDAT_DIRTY, &pgdat.flags);
	}
	if (sc->nr_reclaimed > nr_reclaimed)
		pgdat.kswapd_failures = 0;
}

void snapshot_refaults(struct lruvec *lruvec)
{
	lruvec->refaults_file = global_node_page_state(WORKINGSET_ACTIVATE_FILE);
}

/* ---- direct reclaim ---- */

/* Priority 12 down to 0 until enough is freed; if nothing was
 * because the active list was left alone, once more with deactivation forced. */
static unsigned long do_try_to_free_pages(struct scan_control *sc)
{
	int initial_priority = sc->priority;

retry:
	do {
		shrink_node(sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
	} while (--sc->priority >= 0);
	snapshot_refaults(&node_lruvec);
	if (sc->nr_reclaimed)
		return sc->nr_reclaimed;
	if (sc->skipped_deactivate) {
		sc->priority = initial_priority;
		sc->force_deactivate = true;
		sc->skipped_deactivate = false;
		goto retry;
	}
	return 0;
}

unsigned long try_to_free_pages(gfp_t gfp_mask, unsigned int order)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX, .gfp_mask = gfp_mask, .order = order,
		.priority = DEF_PRIORITY, .may_writepage = true,
	};
	unsigned int saved = current->flags & PF_MEMALLOC;

	current->flags |= PF_MEMALLOC;		/* memalloc_noreclaim_save() */
	count_vm_events(ALLOCSTALL, 1);
	unsigned long nr = do_try_to_free_pages(&sc);
	current->flags = (current->flags & ~PF_MEMALLOC) | saved;
	return nr;
}

/*
 * The page allocator's direct reclaim hook: reclaim only where sleeping is allowed and not from
 * inside reclaim.  -1: may not reclaim here.  No progress with folios under writeback: wait a
 * little for them (HZ/10), as their end frees the way.
 */
long direct_reclaim(gfp_t gfp, unsigned int order)
{
	if (!current || in_interrupt())
		return -1;
	if (current->flags & PF_MEMALLOC)	/* never reclaim from inside reclaim: use reserves */
		return RECLAIM_USE_RESERVES;
	if (in_atomic() || irqs_disabled() || !(gfp & __GFP_DIRECT_RECLAIM))
		return -1;
	unsigned long nr = try_to_free_pages(gfp, order);
	/* Not in a workqueue worker: the flusher (a system_wq worker) must not sleep waiting for
	 * the writeback it is there to start. */
	if (!nr && !(current->flags & PF_WQ_WORKER) &&
	    (global_node_page_state(NR_WRITEBACK) || global_node_page_state(NR_FILE_DIRTY))) {
		wakeup_flusher_threads(WB_REASON_VMSCAN);
		schedule_timeout_uninterruptible((long)msecs_to_jiffies(100));
	}
	return (long)nr;
}
