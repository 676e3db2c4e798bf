/*
 * migratetype.c - when a migratetype's free lists are empty: borrow from another type's, and
 * claim a pageblock for the new type when enough of it fits (as v6.10's __rmqueue_fallback,
 * find_suitable_fallback, can_steal_fallback and steal_suitable_fallback, with their rules).
 *
 * Pageblocks (pageblock_order frames, aligned) carry one migratetype each, so that unmovable
 * allocations cluster in few blocks and the rest stay free for large, movable use.  An
 * allocation that must borrow takes the *largest* free block of a fallback type (the one most
 * likely to sit in a mostly free pageblock), and:
 *   - a block of pageblock_order or more becomes the new type whole;
 *   - else, if the type may steal (UNMOVABLE and RECLAIMABLE always, MOVABLE only when the
 *     block found is of half pageblock_order or more: Linux asks about the block's order, not the
 *     request's), the pageblock is claimed when its free frames plus the frames "alike" the
 *     request fill half of it: every free block in it moves to the new type's lists;
 *   - else one block is borrowed: split off, the rest left on the old type's lists.  A MOVABLE
 *     request that may not steal takes the *smallest* fitting block instead, so that it does
 *     not break up a big one it cannot claim.
 * "Alike": for a MOVABLE request, the block's movable frames (PageLRU); for the others, taking
 * from a MOVABLE block, every frame neither free nor movable; else none.
 *
 * Where tinymm differs from v6.10, and why: "alike" does not count __PageMovable frames, which
 * tinymm has not.  Not here: ALLOC_NOFRAGMENT (only with a populated ZONE_DMA32, which tinymm
 * has not), MIGRATE_HIGHATOMIC and watermark boosting.  The boost raises the watermarks after
 * a fallback until kswapd has reclaimed back to them; with no reclaim yet, nothing would ever
 * lower it again, so it waits for the reclaim issue.
 *
 * Invariant kept: every free block is on the list of its pageblock's current type (buddy_check
 * verifies it).  Locking: zone->lock held throughout, as for every free list change.
 */
#include "tinymm/page_alloc.h"
#include "internal.h"

/* fallbacks[]: which other free lists a type may borrow from, in order. */
static const int fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
};

/* May an allocation of @start_mt take a whole pageblock when it finds a block of @order? */
static bool can_steal_fallback(unsigned int order, int start_mt)
{
	return order >= pageblock_order / 2 || start_mt == MIGRATE_RECLAIMABLE ||
	       start_mt == MIGRATE_UNMOVABLE;
}

/* The first fallback type of @mt with a free block at @order, or -1; *can_steal as above. */
static int find_suitable_fallback(struct zone *z, unsigned int order, int mt, bool *can_steal)
{
	*can_steal = false;
	if (!z->free_area[order].nr_free)
		return -1;
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		int fmt = fallbacks[mt][i];
		if (page_list_empty(&z->free_area[order].free_list[fmt]))
			continue;
		*can_steal = can_steal_fallback(order, mt);
		return fmt;
	}
	return -1;
}

/*
 * Count the pageblock at @start: its free frames and its movable ones.  false if the block is
 * not wholly inside the zone (prep_move_freepages_block: such a block is never moved).
 */
static bool pageblock_census(struct zone *z, unsigned long start, unsigned long *nr_free,
			     unsigned long *nr_movable)
{
	unsigned long end = start + pageblock_nr_pages;

	*nr_free = *nr_movable = 0;
	if (!zone_spans_pfn(z, start) || !zone_spans_pfn(z, end - 1))
		return false;
	for (unsigned long pfn = start; pfn < end;) {
		struct page *page = pfn_to_page(pfn);
		if (page && PageBuddy(page)) {
			*nr_free += 1UL << buddy_order(page);
			pfn += 1UL << buddy_order(page);
			continue;
		}
		if (page && PageLRU(page))
			(*nr_movable)++;
		pfn++;
	}
	return true;
}

/* Every free block of the pageblock at @start onto @mt's lists, at the tail (Linux's
 * move_freepages: reported blocks stay last), and the block retyped. */
static void move_freepages(struct zone *z, unsigned long start, int old_mt, int mt)
{
	for (unsigned long pfn = start; pfn < start + pageblock_nr_pages;) {
		struct page *page = pfn_to_page(pfn);
		if (page && PageBuddy(page)) {
			unsigned int o = buddy_order(page);
			page_list_del(&z->free_area[o].free_list[old_mt], page);
			page_list_add_tail(&z->free_area[o].free_list[mt], page);
			pfn += 1UL << o;
		} else {
			pfn++;
		}
	}
	set_pageblock_migratetype(z, start, mt);
}

/* The pageblock holding @pfn, only if wholly inside @z. */
bool move_freepages_block(struct zone *z, unsigned long pfn, int old_mt, int mt)
{
	unsigned long start = pfn & ~(pageblock_nr_pages - 1);

	lockdep_assert_held(&z->lock);
	if (!zone_spans_pfn(z, start) || !zone_spans_pfn(z, start + pageblock_nr_pages - 1))
		return false;
	move_freepages(z, start, old_mt, mt);
	return true;
}

unsigned long nr_pageblocks_claimed;	/* fallbacks that retyped a pageblock */
unsigned long nr_fallback_borrows;	/* fallbacks that took one block, type unchanged */

static struct page *steal_suitable_fallback(struct zone *z, struct page *page,
					    unsigned int current_order, unsigned int order,
					    int start_mt, bool whole_block)
{
	unsigned long pfn = page_to_pfn(page), start = pfn & ~(pageblock_nr_pages - 1);
	unsigned long nr_free, nr_movable, alike;
	int block_mt = pageblock_mt(z, pfn);

	if (current_order >= pageblock_order) {
		/* A whole pageblock (or more): it is the new type's outright. */
		del_page_from_free_list(page, z, current_order, block_mt);
		for (unsigned long p = pfn; p < pfn + (1UL << current_order); p += pageblock_nr_pages)
			set_pageblock_migratetype(z, p, start_mt);
		expand(z, page, pfn, order, current_order, start_mt);
		set_page_pcp_mt(page, start_mt);
		nr_pageblocks_claimed++;
		return page;
	}
	if (whole_block && pageblock_census(z, start, &nr_free, &nr_movable)) {
		if (start_mt == MIGRATE_MOVABLE)
			alike = nr_movable;
		else if (block_mt == MIGRATE_MOVABLE)
			alike = pageblock_nr_pages - (nr_free + nr_movable);
		else
			alike = 0;	/* UNMOVABLE vs RECLAIMABLE: cannot tell them apart */
		if (nr_free + alike >= pageblock_nr_pages / 2) {
			move_freepages(z, start, block_mt, start_mt);
			nr_pageblocks_claimed++;
			return __rmqueue_smallest(z, order, start_mt);
		}
	}
	page_del_and_expand(z, page, order, current_order, block_mt);
	nr_fallback_borrows++;
	return page;
}

struct page *__rmqueue_fallback(struct zone *z, unsigned int order, int start_mt)
{
	bool can_steal;
	int cur, fmt = -1;

	lockdep_assert_held(&z->lock);
	/* The largest free block of a fallback type: roughly, the most free pageblock. */
	for (cur = MAX_PAGE_ORDER; cur >= (int)order; cur--) {
		fmt = find_suitable_fallback(z, (unsigned int)cur, start_mt, &can_steal);
		if (fmt < 0)
			continue;
		/* MOVABLE that cannot claim the block: take the smallest block that fits instead,
		 * which leaves no lasting fragmentation even if the next one falls back elsewhere. */
		if (!can_steal && start_mt == MIGRATE_MOVABLE && cur > (int)order) {
			for (cur = (int)order; cur <= MAX_PAGE_ORDER; cur++) {
				fmt = find_suitable_fallback(z, (unsigned int)cur, start_mt, &can_steal);
				if (fmt >= 0)
					break;
			}
		}
		break;
	}
	if (fmt < 0 || cur < (int)order || cur > MAX_PAGE_ORDER)
		return NULL;
	struct page *page = page_list_first(&z->free_area[cur].free_list[fmt]);
	return steal_suitable_fallback(z, page, (unsigned int)cur, order, start_mt, can_steal);
}
