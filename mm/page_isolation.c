/*
 * page_isolation.c - taking blocks out of the buddy lists for a while and putting them back:
 * page reporting's isolation (__isolate_free_page, __putback_isolated_page) and HWPoison's
 * single frames (take_page_off_buddy, put_page_back_buddy), Linux's functions of those names.
 *
 * Invariants: as mm/page_alloc.c's: a block out of the lists is no PageBuddy block and not in
 * zone->free_pages; a frame taken off for HWPoison keeps PG_hwpoison and MAGIC_HWPOISON in
 * ->private (buddy_check() knows both).  Locking: zone->lock, taken here or held by the caller
 * (lockdep_assert_held() where it is the caller's).
 *
 * Where tinymm differs from v6.10, and why: v6.10 has these in mm/page_alloc.c; here the buddy
 * allocator's file keeps allocation and freeing, and these, which move blocks aside, are on
 * their own.  put_page_back_buddy() clears PG_hwpoison before the free (v6.10: after it, under
 * the zone lock), so no free block ever holds a PG_hwpoison frame (buddy_check()).
 */
#include "tinymm/lockdep.h"
#include "tinymm/memory-failure.h"
#include "tinymm/page_alloc.h"
#include "internal.h"

/*
 * Take the free block headed by @page (order @order) off its list without allocating it: it stays
 * out until __putback_isolated_page().  zone->lock held.  As if
 * it were allocated, the zone must stay above its min watermark (a high-order check emulated by a
 * raised order-0 mark: the block is known to exist), else 0 and nothing changes; a block of at
 * least half a pageblock turns its pageblock(s) MIGRATE_MOVABLE, free neighbours moved along
 * (every tinymm migratetype is mergeable).  Returns the frames taken.
 */
unsigned long __isolate_free_page(struct page *page, unsigned int order)
{
	struct zone *z = page_zone(page);
	unsigned long pfn = page_to_pfn(page);

	VM_BUG_ON_PAGE(!PageBuddy(page) || buddy_order(page) != order, page);
	lockdep_assert_held(&z->lock);
	if (z->free_pages <= z->_watermark[WMARK_MIN] + (1UL << order))
		return 0;
	del_page_from_free_list(page, z, order, pageblock_mt(z, pfn));
	z->free_pages -= 1UL << order;
	if (order + 1 >= pageblock_order) {
		for (unsigned long p = pfn; p < pfn + (1UL << order); p += pageblock_nr_pages) {
			int mt = pageblock_mt(z, p);
			if (mt != MIGRATE_MOVABLE)
				move_freepages_block(z, p, mt, MIGRATE_MOVABLE);
		}
	}
	return 1UL << order;
}

/*
 * Return an isolated block to the free lists: __free_one_page() with
 * FPI_SKIP_REPORT_NOTIFY | FPI_TO_TAIL (merged as any free, at the tail of its list, reporting
 * not told again).  @reported marks it PG_reported if it did not merge (Linux's
 * page_reporting_drain: a merged block is a new, unreported one).  zone->lock held.
 */
void __putback_isolated_page(struct page *page, unsigned int order, bool reported)
{
	struct zone *z = page_zone(page);
	unsigned long pfn = page_to_pfn(page);

	lockdep_assert_held(&z->lock);
	__free_one_page(page, pfn, z, order, pageblock_mt(z, pfn),
			FPI_SKIP_REPORT_NOTIFY | FPI_TO_TAIL);
	/* A poisoned frame marked while out was freed around: then @page may be no head now. */
	if (reported && PageBuddy(page) && buddy_order(page) == order)
		__SetPageReported(page);
}

/*
 * Keep one frame out of the allocator for good (HWPoison): split the free block holding it,
 * return every other piece, leave the frame off every list.  true if the frame was free and is
 * now taken; false if it is not in a free block.
 */
bool take_page_off_buddy(struct page *page)
{
	struct zone *z = page_zone(page);
	unsigned long pfn = page_to_pfn(page), flags;
	bool taken = false;

	drain_all_pages(z);	/* the frame may sit on a per-CPU list */
	spin_lock_irqsave(&z->lock, flags);
	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		unsigned long head_pfn = pfn & ~((1UL << order) - 1);
		struct page *head = pfn_to_page(head_pfn);
		if (!head || !PageBuddy(head) || buddy_order(head) < order)
			continue;
		unsigned int o = buddy_order(head);
		int mt = pageblock_mt(z, head_pfn);
		del_page_from_free_list(head, z, o, mt);
		z->free_pages -= 1UL << o;
		/* Give back the halves that do not hold @pfn, from the largest down. */
		while (o) {
			o--;
			unsigned long half = head_pfn + (1UL << o);
			if (pfn >= half) {
				__free_one_page_nomerge(head, head_pfn, z, o, mt);
				head_pfn = half;
				head = pfn_to_page(half);
			} else {
				__free_one_page_nomerge(pfn_to_page(half), half, z, o, mt);
			}
		}
		taken = true;
		break;
	}
	spin_unlock_irqrestore(&z->lock, flags);
	return taken;
}

/*
 * Undo take_page_off_buddy() for an unpoisoned frame: drop the
 * reference memory_failure() held (a frame the free path set aside holds none), clear
 * PG_hwpoison and the mark in ->private, and free the frame, merging it with its free buddies.
 * false if someone else holds a reference (the frame is left as it is).  The flag is cleared
 * before the free, still under the lock (see the header).
 */
bool put_page_back_buddy(struct page *page)
{
	struct zone *z = page_zone(page);
	unsigned long pfn = page_to_pfn(page), flags;
	bool ret = false;

	spin_lock_irqsave(&z->lock, flags);
	if (atomic_read(&page->_refcount) <= 1 && TestClearPageHWPoison(page)) {
		atomic_set(&page->_refcount, 0);
		page->private = 0;
		if (page_poisoning_enabled)	/* the fill a free frame must hold */
			kernel_poison_pages(page, 1);
		__free_one_page(page, pfn, z, 0, pageblock_mt(z, pfn), FPI_NONE);
		ret = true;
	}
	spin_unlock_irqrestore(&z->lock, flags);
	return ret;
}
