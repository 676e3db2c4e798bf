/*
 * compaction.c - memory compaction: movable pages moved from the bottom of a zone to free frames
 * at its top, so that the free frames left behind join into high-order blocks (Linux v6.10's
 * mm/compaction.c, reduced; docs/compaction.md).
 *
 * compact_zone() runs two scanners towards each other, a pageblock at a time:
 *   - the migrate scanner (isolate_migratepages) from the zone's first frame up: LRU folios
 *     taken off their list (folio_isolate_lru) and non-LRU movable pages (a balloon's:
 *     isolate_movable_page), COMPACT_CLUSTER_MAX at a time;
 *   - the free scanner (isolate_freepages) from the zone's last pageblock down: free buddy
 *     blocks taken off the lists (__isolate_free_page) and split into order-0 frames, only
 *     in MIGRATE_MOVABLE pageblocks and never a wholly free pageblock;
 * migrate_pages() moves each isolated folio into a frame compaction_alloc() hands it (and
 * compaction_free() takes back an unused one).  It ends when compact_finished() sees a free
 * block of the wanted order (after the migrate scanner finished its pageblock) or the scanners
 * met; the free frames left over go back to the buddy lists.
 * Entry points: try_to_compact_pages() (direct compaction from the allocator's slow path, for
 * orders above PAGE_ALLOC_COSTLY_ORDER), kcompactd (woken through wakeup_kcompactd() by kswapd
 * when a high-order allocation failed), compact_node() (the shell's `compact`, v6.10's
 * /proc/sys/vm/compact_memory: every zone, whole).
 *
 * Which pageblocks a scanner may use (v6.10's suitable_migration_source/target): the free
 * scanner only MIGRATE_MOVABLE blocks (a frame taken for a movable folio must stay in a block of
 * movable pages); the migrate scanner any block, except for asynchronous direct compaction,
 * which takes only blocks of the allocation's own migratetype.
 * Invariants: an isolated free frame is off the buddy lists, out of zone->free_pages, refcount
 * 0, on cc->freepages and nowhere else; every one goes back to the buddy lists (or out to a
 * migrated folio) before compact_zone() returns.  An isolated folio is off the LRU with
 * isolation's reference (or PG_isolated for a movable page) and on cc->migratepages until
 * migrate_pages() moved it or putback_movable_pages() returned it.  The free scanner never
 * scans the pageblock the migrate scanner is in.
 * Locking: zone->lock (irqsave) while the free scanner takes blocks off one pageblock's lists
 * and when leftover frames go back; lruvec.lru_lock inside folio_isolate_lru(); never both,
 * and neither across migrate_pages(), which sleeps.  Everything here runs in process context.
 *
 * Where tinymm differs from v6.10, and why: no skip hints, no deferral (compact_defer_shift),
 * no fast free/migrate search (fast_isolate_freepages, fast_find_migrateblock), no capture of
 * the freed block for the caller, no proactive compaction: one zone's scan is short enough
 * here (a 64 MiB zone is 16 pageblocks) that the heuristics would cost more than they save.
 * Free frames are all order 0 and large folios are skipped: tinymm migrates order-0 folios
 * only (mm/migrate.c).  An anonymous folio is "pinned" when its references exceed its
 * mappings plus isolation's (v6.10's check), skipped and counted (cc->nr_pinned).
 */
#include "tinymm/compaction.h"
#include "tinymm/errno.h"
#include "tinymm/migrate.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "tinymm/wait.h"
#include "internal.h"

#define COMPACT_CLUSTER_MAX	SWAP_CLUSTER_MAX	/* folios isolated per migrate_pages() call */
#define sysctl_extfrag_threshold	500		/* v6.10's default */

struct compact_control {
	struct page_list freepages;	/* isolated free frames, order 0, refcount 0 */
	struct page_list migratepages;	/* isolated folios waiting to move */
	unsigned long nr_freepages;	/* on freepages */
	unsigned long nr_migratepages;	/* on migratepages and not yet given a frame */
	unsigned long free_pfn;		/* the free scanner's pageblock (its first pfn) */
	unsigned long free_cursor;	/* where in it the free scanner goes on */
	unsigned long migrate_pfn;	/* the migrate scanner's next pfn */
	struct zone *zone;
	unsigned long total_migrate_scanned, total_free_scanned;
	unsigned long nr_isolated_migrate, nr_isolated_free;
	unsigned long nr_migrated, nr_failed, nr_pinned;
	int order;			/* the order wanted; -1: the whole zone */
	int migratetype;		/* the allocation's (direct compaction) */
	gfp_t gfp_mask;
	enum migrate_mode mode;
	bool direct_compaction;
};

static inline unsigned long pageblock_start_pfn(unsigned long pfn)
{
	return pfn & ~(pageblock_nr_pages - 1);
}

static inline unsigned long pageblock_end_pfn(unsigned long pfn)
{
	return pageblock_start_pfn(pfn) + pageblock_nr_pages;
}

/* The scanners are in the same pageblock or have crossed (v6.10's compact_scanners_met). */
static bool compact_scanners_met(const struct compact_control *cc)
{
	return (cc->free_pfn >> pageblock_order) <= (cc->migrate_pfn >> pageblock_order);
}

/* A frame of the zone, or NULL (a hole, or another zone's frame in a shared pageblock). */
static struct page *zone_page(struct zone *zone, unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);

	return page && page_zone(page) == zone ? page : NULL;
}

/* ---- the free scanner ---- */

/* v6.10's suitable_migration_target(): a movable pageblock that is not wholly free. */
static bool suitable_migration_target(struct zone *zone, unsigned long block_pfn)
{
	struct page *page = zone_page(zone, block_pfn);

	if (page && PageBuddy(page) && buddy_order(page) >= pageblock_order)
		return false;	/* breaking up a free pageblock is what compaction undoes */
	return pageblock_mt(zone, max(block_pfn, zone->zone_start_pfn)) == MIGRATE_MOVABLE;
}

/*
 * Free blocks in [@start, @end) (one pageblock) taken off the lists and split to order-0
 * frames on cc->freepages, until there are enough for the folios waiting.  Returns the pfn to
 * go on from (@end: the block is done).  *@stop is set when the zone is at its min watermark.
 */
static unsigned long isolate_freepages_block(struct compact_control *cc, unsigned long start,
					     unsigned long end, bool *stop)
{
	struct zone *zone = cc->zone;
	unsigned long pfn, flags, scanned = 0, isolated = 0;

	spin_lock_irqsave(&zone->lock, flags);
	for (pfn = start; pfn < end; pfn++) {
		struct page *page = zone_page(zone, pfn);
		unsigned int order;
		unsigned long n;

		scanned++;
		if (!page || !PageBuddy(page))
			continue;
		order = buddy_order(page);
		n = __isolate_free_page(page, order);
		if (!n) {
			*stop = true;	/* at the min watermark: taking more would eat the reserve */
			break;
		}
		for (unsigned long i = 0; i < n; i++) {	/* v6.10's split_map_pages, order 0 */
			page[i].private = 0;
			page_list_add_tail(&cc->freepages, &page[i]);
		}
		cc->nr_freepages += n;
		isolated += n;
		pfn += n - 1;
		if (cc->nr_freepages >= cc->nr_migratepages) {
			pfn++;
			break;
		}
	}
	spin_unlock_irqrestore(&zone->lock, flags);
	cc->total_free_scanned += scanned;
	cc->nr_isolated_free += isolated;
	return min(pfn, end);
}

/* Fill cc->freepages for the folios waiting, moving the free scanner down; never into the
 * migrate scanner's pageblock. */
static void isolate_freepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long low = pageblock_end_pfn(cc->migrate_pfn);
	bool stop = false;

	while (cc->nr_freepages < cc->nr_migratepages && cc->free_pfn >= low && !stop) {
		unsigned long end = min(cc->free_pfn + pageblock_nr_pages, zone_end_pfn(zone));

		if (cc->free_cursor < end && suitable_migration_target(zone, cc->free_pfn))
			cc->free_cursor = isolate_freepages_block(cc, cc->free_cursor, end, &stop);
		else
			cc->free_cursor = end;
		if (cc->free_cursor >= end) {	/* done with this block: the next one down */
			if (cc->free_pfn < pageblock_nr_pages)
				break;
			cc->free_pfn -= pageblock_nr_pages;
			cc->free_cursor = max(cc->free_pfn, zone->zone_start_pfn);
		}
	}
}

/* migrate_pages()'s get_new_folio: an isolated free frame, prepared as an allocation. */
static struct folio *compaction_alloc(struct folio *src, unsigned long data)
{
	struct compact_control *cc = (struct compact_control *)data;
	struct page *page;

	if (folio_test_large(src))
		return NULL;		/* order-0 frames only (see the header) */
	for (;;) {
		if (page_list_empty(&cc->freepages))
			isolate_freepages(cc);
		page = page_list_first(&cc->freepages);
		if (!page)
			return NULL;
		page_list_del(&cc->freepages, page);
		cc->nr_freepages--;
		set_page_pcp_mt(page, pageblock_mt(cc->zone, page_to_pfn(page)));
		/* The allocator's checks on the way out (a bad frame is reported and leaked). */
		if ((!page_checks || check_new_pages(page, 0)) &&
		    (!page_poisoning_enabled || check_poison_pages(page, 1)))
			break;
	}
	atomic_set(&page->_refcount, 1);
	cc->nr_migratepages--;
	return (struct folio *)page;
}

/* migrate_pages()'s put_new_folio: a frame it did not use comes back to cc->freepages. */
static void compaction_free(struct folio *dst, unsigned long data)
{
	struct compact_control *cc = (struct compact_control *)data;
	struct page *page = &dst->page;

	cc->nr_migratepages++;
	if (!atomic_dec_and_test(&page->_refcount))
		return;			/* someone still holds it: theirs to free */
	if (!free_pages_prepare(page, 0))
		return;			/* bad: reported, leaked */
	if (page_poisoning_enabled)
		kernel_poison_pages(page, 1);
	page_list_add(&cc->freepages, page);
	cc->nr_freepages++;
}

/* The frames the free scanner took and nobody used, back to the buddy lists. */
static void release_freepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long flags;
	struct page *page;

	spin_lock_irqsave(&zone->lock, flags);
	while ((page = page_list_first(&cc->freepages))) {
		unsigned long pfn = page_to_pfn(page);

		page_list_del(&cc->freepages, page);
		__free_one_page(page, pfn, zone, 0, pageblock_mt(zone, pfn), FPI_NONE);
	}
	spin_unlock_irqrestore(&zone->lock, flags);
	cc->nr_freepages = 0;
}

/* ---- the migrate scanner ---- */

/* v6.10's suitable_migration_source(): asynchronous direct compaction keeps to its own type. */
static bool suitable_migration_source(struct compact_control *cc, unsigned long pfn)
{
	if (cc->mode != MIGRATE_ASYNC || !cc->direct_compaction)
		return true;
	return pageblock_mt(cc->zone, pfn) == cc->migratetype;
}

/* An anonymous folio with more references than its mappings and isolation's own: someone
 * (a DMA, a kernel user) holds it and expects it to stay (v6.10's check in
 * isolate_migratepages_block). */
static bool folio_maybe_pinned(struct folio *folio)
{
	return !folio_mapping(folio) &&
	       page_ref_count(&folio->page) - 1 > folio_mapcount(folio);
}

/*
 * Isolate movable folios in [@low, @end) (within one pageblock) onto cc->migratepages, at most
 * COMPACT_CLUSTER_MAX of them.  Returns the pfn to go on from.
 */
static unsigned long isolate_migratepages_block(struct compact_control *cc, unsigned long low,
						unsigned long end)
{
	struct zone *zone = cc->zone;
	unsigned long scanned = 0, isolated = 0;

	for (; low < end && cc->nr_migratepages < COMPACT_CLUSTER_MAX; low++) {
		struct page *page = zone_page(zone, low);
		struct folio *folio;

		scanned++;
		if (!page)
			continue;
		if (PageBuddy(page)) {	/* free: skip the block (its order read racily) */
			unsigned long order = READ_ONCE(page->private);
			if (order > 0 && order < NR_PAGE_ORDERS)
				low += (1UL << order) - 1;
			continue;
		}
		if (PageCompound(page)) {	/* large folios do not move here (see the header) */
			if (PageHead(page)) {
				unsigned int order = folio_order((struct folio *)page);
				if (order < NR_PAGE_ORDERS)
					low += (1UL << order) - 1;
			}
			continue;
		}
		if (PageReserved(page))
			continue;
		if (!PageLRU(page)) {
			/* A driver's movable page (v6.10: locked and isolated through its ops). */
			if (__PageMovable(page) && !PageIsolated(page) &&
			    isolate_movable_page(page, cc->mode == MIGRATE_ASYNC ? 0 : ISOLATE_UNEVICTABLE)) {
				page_list_add_tail(&cc->migratepages, page);
				cc->nr_migratepages++;
				isolated++;
			}
			continue;
		}
		folio = page_folio(page);
		if (!folio_try_get(folio))
			continue;		/* being freed */
		if (folio_maybe_pinned(folio)) {
			cc->nr_pinned++;
			folio_put(folio);
			continue;
		}
		if (cc->mode == MIGRATE_ASYNC && folio_test_writeback(folio)) {
			folio_put(folio);	/* asynchronous: never wait for I/O */
			continue;
		}
		if (!folio_isolate_lru(folio)) {	/* someone else took it off first */
			folio_put(folio);
			continue;
		}
		folio_put(folio);		/* isolation holds its own reference */
		page_list_add_tail(&cc->migratepages, &folio->page);
		cc->nr_migratepages++;
		isolated++;
	}
	cc->total_migrate_scanned += scanned;
	cc->nr_isolated_migrate += isolated;
	return low;
}

/* The migrate scanner's next batch, pageblock by pageblock below the free scanner's. */
static void isolate_migratepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;

	while (!cc->nr_migratepages && !compact_scanners_met(cc)) {
		unsigned long end = min(pageblock_end_pfn(cc->migrate_pfn), zone_end_pfn(zone));

		if (suitable_migration_source(cc, cc->migrate_pfn))
			cc->migrate_pfn = isolate_migratepages_block(cc, cc->migrate_pfn, end);
		else
			cc->migrate_pfn = end;
	}
}

/* ---- one zone ---- */

/* v6.10's __compact_finished(): the scanners met, or (at a pageblock boundary of the migrate
 * scanner) a free block of the order wanted exists; any type will do, since the allocator
 * falls back to another type's block (mm/migratetype.c). */
static enum compact_result compact_finished(struct compact_control *cc)
{
	if (compact_scanners_met(cc))
		return COMPACT_COMPLETE;
	if (cc->order < 0)
		return COMPACT_CONTINUE;
	if (cc->migrate_pfn & (pageblock_nr_pages - 1))
		return COMPACT_CONTINUE;	/* finish the pageblock first */
	for (unsigned int o = (unsigned int)cc->order; o < NR_PAGE_ORDERS; o++)
		if (READ_ONCE(cc->zone->free_area[o].nr_free))
			return COMPACT_SUCCESS;
	return COMPACT_CONTINUE;
}

/* A free block of @order exists and the zone is above its low watermark with it taken. */
static bool zone_order_ok(const struct zone *z, unsigned int order, int highest)
{
	if (READ_ONCE(z->free_pages) < z->_watermark[WMARK_LOW] + (1UL << order) +
					 z->lowmem_reserve[highest])
		return false;
	for (unsigned int o = order; o < NR_PAGE_ORDERS; o++)
		if (READ_ONCE(z->free_area[o].nr_free))
			return true;
	return false;
}

/*
 * v6.10's compaction_suit_allocation_order() and compaction_suitable(): COMPACT_SUCCESS if the
 * allocation can already succeed, COMPACT_SKIPPED if there are too few free frames to migrate
 * into (the watermark plus twice the block), COMPACT_NOT_SUITABLE_ZONE if a costly order would
 * fail for want of memory rather than fragmentation (index <= 500), else COMPACT_CONTINUE.
 */
static enum compact_result compaction_suitable(struct zone *z, unsigned int order, int highest)
{
	unsigned long watermark;

	if (zone_order_ok(z, order, highest))
		return COMPACT_SUCCESS;
	watermark = (order > PAGE_ALLOC_COSTLY_ORDER ? z->_watermark[WMARK_LOW] :
		     z->_watermark[WMARK_MIN]) + (2UL << order) + z->lowmem_reserve[highest];
	if (READ_ONCE(z->free_pages) < watermark)
		return COMPACT_SKIPPED;
	if (order > PAGE_ALLOC_COSTLY_ORDER) {
		int fragindex = fragmentation_index(z, order);
		if (fragindex >= 0 && fragindex <= sysctl_extfrag_threshold)
			return COMPACT_NOT_SUITABLE_ZONE;
	}
	return COMPACT_CONTINUE;
}

static enum compact_result compact_zone(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long last_migrated_pfn = 0;	/* in the pageblock last migrated from; 0: none */
	enum compact_result ret;

	page_list_init(&cc->freepages);
	page_list_init(&cc->migratepages);
	/* Folios in the per-CPU LRU batches are on no list yet; free frames on the per-CPU
	 * lists are on no buddy list: both back where the scanners see them. */
	lru_add_drain_all();
	drain_all_pages(zone);
	cc->migrate_pfn = zone->zone_start_pfn;
	cc->free_pfn = pageblock_start_pfn(zone_end_pfn(zone) - 1);
	cc->free_cursor = max(cc->free_pfn, zone->zone_start_pfn);

	for (;;) {
		unsigned int nr_succeeded = 0;
		int err;

		/* The migrate scanner left the pageblock it last moved folios out of: the frames
		 * they left went to the per-CPU lists; drained, they merge and compact_finished()
		 * sees the block at once (v6.10 drains at the same point). */
		if (last_migrated_pfn &&
		    pageblock_start_pfn(cc->migrate_pfn) > pageblock_start_pfn(last_migrated_pfn)) {
			drain_all_pages(zone);
			last_migrated_pfn = 0;
		}
		ret = compact_finished(cc);
		if (ret != COMPACT_CONTINUE)
			break;
		isolate_migratepages(cc);
		if (!cc->nr_migratepages)
			continue;		/* the scanners met: compact_finished says so */
		err = migrate_pages(&cc->migratepages, compaction_alloc, compaction_free,
				    (unsigned long)cc, cc->mode, MR_COMPACTION, &nr_succeeded);
		cc->nr_migrated += nr_succeeded;
		if (nr_succeeded)
			last_migrated_pfn = cc->migrate_pfn - 1;
		if (err > 0)		/* tried and left in place (-ENOMEM: the rest never tried) */
			cc->nr_failed += (unsigned long)err;
		cc->nr_migratepages = 0;
		if (err) {
			putback_movable_pages(&cc->migratepages);
			/* No frame left to move into: going on would only isolate and put back. */
			if (err == -ENOMEM && !compact_scanners_met(cc)) {
				ret = COMPACT_CONTENDED;
				break;
			}
		}
		if (current && fatal_signal_pending(current)) {
			ret = COMPACT_CONTENDED;
			break;
		}
	}
	release_freepages(cc);
	if (last_migrated_pfn)		/* the last pageblock's freed frames, as above */
		drain_all_pages(zone);
	count_vm_events(COMPACTMIGRATE_SCANNED, (long)cc->total_migrate_scanned);
	count_vm_events(COMPACTFREE_SCANNED, (long)cc->total_free_scanned);
	count_vm_events(COMPACTISOLATED, (long)(cc->nr_isolated_migrate + cc->nr_isolated_free));
	return ret;
}

static int gfp_to_migratetype(gfp_t gfp)
{
	if ((gfp & GFP_MOVABLE_MASK) == GFP_MOVABLE_MASK)
		return MIGRATE_MOVABLE;		/* as mm/page_alloc.c reads it */
	return (int)((gfp & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT);
}

static enum compact_result __compact_zone_order(struct zone *zone, unsigned int order, gfp_t gfp,
						enum compact_priority prio, int highest)
{
	struct compact_control cc = {
		.zone = zone,
		.order = (int)order,
		.gfp_mask = gfp,
		.migratetype = gfp_to_migratetype(gfp),
		.mode = prio == COMPACT_PRIO_ASYNC ? MIGRATE_ASYNC : MIGRATE_SYNC_LIGHT,
		.direct_compaction = true,
	};
	enum compact_result ret = compaction_suitable(zone, order, highest);

	if (ret != COMPACT_CONTINUE)
		return ret;
	return compact_zone(&cc);
}

enum compact_result compact_zone_order(struct zone *zone, unsigned int order, gfp_t gfp,
				       enum compact_priority prio)
{
	return __compact_zone_order(zone, order, gfp, prio, (int)(zone - zones));
}

/*
 * Direct compaction: each zone the allocation may use, highest first (the allocator's order),
 * until one has a block of @order.  The best result.  Only with __GFP_IO (v6.10: migration may
 * write a dirty folio out).
 */
enum compact_result try_to_compact_pages(gfp_t gfp, unsigned int order, enum compact_priority prio)
{
	enum compact_result rc = COMPACT_SKIPPED;
	int top = (gfp & __GFP_DMA) ? ZONE_DMA : MAX_NR_ZONES - 1, highest = top;

	if (!(gfp & __GFP_IO) || order > MAX_PAGE_ORDER)
		return COMPACT_SKIPPED;
	while (highest > 0 && !zones[highest].managed_pages)
		highest--;
	for (int zi = highest; zi >= 0; zi--) {
		enum compact_result status;

		if (!zones[zi].managed_pages)
			continue;
		status = __compact_zone_order(&zones[zi], order, gfp, prio, highest);
		rc = max(rc, status);
		if (status == COMPACT_SUCCESS)
			break;
		if (current && fatal_signal_pending(current))
			break;
	}
	return rc;
}

/* v6.10's compact_node(): every populated zone, whole and synchronously. */
void compact_node(struct compact_totals *t)
{
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct compact_control cc = {
			.zone = &zones[zi],
			.order = -1,
			.gfp_mask = GFP_KERNEL,
			.mode = MIGRATE_SYNC,
		};

		if (!zones[zi].managed_pages)
			continue;
		compact_zone(&cc);
		if (t) {
			t->migrate_scanned += cc.total_migrate_scanned;
			t->free_scanned += cc.total_free_scanned;
			t->isolated += cc.nr_isolated_migrate + cc.nr_isolated_free;
			t->migrated += cc.nr_migrated;
			t->failed += cc.nr_failed;
			t->pinned += cc.nr_pinned;
		}
	}
}

/* ---- kcompactd ---- */

/* The node's kcompactd and its request (v6.10's pgdat->kcompactd*). */
static struct {
	struct task_struct *kcompactd;
	struct wait_queue_head kcompactd_wait;
	unsigned int kcompactd_max_order;
	int kcompactd_highest_zoneidx;		/* -1: nothing asked */
} kcompactd_pgdat = { .kcompactd_highest_zoneidx = -1 };

/* Ask kcompactd for a block of @order (any context: the request under the wait queue's lock). */
void wakeup_kcompactd(unsigned int order, int highest_zoneidx)
{
	unsigned long flags;

	if (!order || !kcompactd_pgdat.kcompactd)
		return;
	spin_lock_irqsave(&kcompactd_pgdat.kcompactd_wait.lock, flags);
	if (order > kcompactd_pgdat.kcompactd_max_order)
		kcompactd_pgdat.kcompactd_max_order = order;
	if (highest_zoneidx > kcompactd_pgdat.kcompactd_highest_zoneidx)
		kcompactd_pgdat.kcompactd_highest_zoneidx = highest_zoneidx;
	spin_unlock_irqrestore(&kcompactd_pgdat.kcompactd_wait.lock, flags);
	wake_up(&kcompactd_pgdat.kcompactd_wait);
}

/* v6.10's kcompactd_do_work(): each zone up to @highest that compaction can help. */
static void kcompactd_do_work(unsigned int order, int highest)
{
	for (int zi = 0; zi <= highest && zi < MAX_NR_ZONES; zi++) {
		struct compact_control cc = {
			.zone = &zones[zi],
			.order = (int)order,
			.gfp_mask = GFP_KERNEL,
			.migratetype = MIGRATE_MOVABLE,
			.mode = MIGRATE_SYNC_LIGHT,
		};

		if (!zones[zi].managed_pages ||
		    compaction_suitable(&zones[zi], order, zi) != COMPACT_CONTINUE)
			continue;
		compact_zone(&cc);
	}
}

static bool kcompactd_running;		/* inside kcompactd_do_work() */

/* Nothing asked of kcompactd and nothing in progress (for tests: wait for it to finish). */
bool kcompactd_idle(void)
{
	return READ_ONCE(kcompactd_pgdat.kcompactd_highest_zoneidx) < 0 &&
	       !READ_ONCE(kcompactd_running);
}

static bool kcompactd_work_requested(void)
{
	return READ_ONCE(kcompactd_pgdat.kcompactd_highest_zoneidx) >= 0;
}

static int kcompactd(void *unused)
{
	(void)unused;
	for (;;) {
		unsigned long flags;

		wait_event_interruptible(kcompactd_pgdat.kcompactd_wait, kcompactd_work_requested());
		count_vm_events(KCOMPACTD_WAKE, 1);
		spin_lock_irqsave(&kcompactd_pgdat.kcompactd_wait.lock, flags);
		WRITE_ONCE(kcompactd_running, true);	/* before the request is seen taken */
		unsigned int order = kcompactd_pgdat.kcompactd_max_order;
		int highest = kcompactd_pgdat.kcompactd_highest_zoneidx;
		kcompactd_pgdat.kcompactd_max_order = 0;
		kcompactd_pgdat.kcompactd_highest_zoneidx = -1;
		spin_unlock_irqrestore(&kcompactd_pgdat.kcompactd_wait.lock, flags);
		kcompactd_do_work(order, highest);
		WRITE_ONCE(kcompactd_running, false);
	}
	return 0;
}

void kcompactd_run(void)
{
	init_waitqueue_head(&kcompactd_pgdat.kcompactd_wait);
	direct_compact_hook = try_to_compact_pages;
	kcompactd_pgdat.kcompactd = kthread_run(kcompactd, NULL, "kcompactd0");
	if (!kcompactd_pgdat.kcompactd)
		pr_err("kcompactd: cannot start the thread; only direct compaction will run\n");
	else
		kcompactd_wakeup_hook = wakeup_kcompactd;
}

/* ---- the shell's `compact` (v6.10's /proc/sys/vm/compact_memory, with a summary) ---- */

static int cmd_compact(int argc, char **argv)
{
	struct compact_totals t = { 0 };

	if (shell_no_args(argc, argv))
		return 2;
	compact_node(&t);
	kprintf("compact: %lu pages migrated, %lu failed, %lu pinned skipped; scanned %lu to migrate, %lu free; %lu isolated\n",
		t.migrated, t.failed, t.pinned, t.migrate_scanned, t.free_scanned, t.isolated);
	return 0;
}
SHELL_COMMAND(compact, "", "compact every zone fully (as /proc/sys/vm/compact_memory), then one line of what moved",
	      cmd_compact);
