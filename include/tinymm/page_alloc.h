/*
 * page_alloc.h - the page allocator's interface (mm/page_alloc.c), Linux's names and meaning.
 *
 *   alloc_pages(gfp, order)  2^order contiguous frames, refcount 1, or NULL (never waits forever)
 *   __free_pages(page, order) drop a reference; the last one frees the block
 *   folio_alloc(gfp, order)  a (large) folio: __GFP_COMP for order > 0
 *   get_page/put_page, folio_get/folio_put   references; the last put frees
 *   __get_free_pages/free_pages, alloc_pages_exact/free_pages_exact   by address
 *
 * Where tinymm differs from v6.10, and why: a literal order-0 __free_pages() goes straight to
 * the order-0 fast path (__free_page0), where v6.10 has the one entry point, so the common free
 * has no order to pass or test.
 */
#ifndef TINYMM_PAGE_ALLOC_H
#define TINYMM_PAGE_ALLOC_H

#include "gfp.h"
#include "mm.h"
#include "mmzone.h"

struct page *alloc_pages(gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
/*
 * A literal order 0 (__free_page() and most callers) calls the order-0 fast path
 * directly: no order argument to pass, none to test (see the header).
 * @order is evaluated only when it is a constant, @page once either way.
 */
void __free_page0(struct page *page);
#define __free_pages(page, order)							\
	(__builtin_constant_p(order) && (order) == 0 ? __free_page0(page) :			\
	 (__free_pages)(page, order))
struct folio *folio_alloc(gfp_t gfp, unsigned int order);
void __folio_put(struct folio *folio);
/* Inline, as v6.10's: a put that is not the last is one atomic, with no call and no frame
 * (the out-of-line freeing path saves eight registers). */
static inline void folio_put(struct folio *folio)
{
	if (atomic_dec_and_test(&folio->_refcount))
		__folio_put(folio);
}
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
void free_pages(unsigned long addr, unsigned int order);
void *alloc_pages_exact(size_t size, gfp_t gfp);
void free_pages_exact(void *virt, size_t size);

#define alloc_page(gfp)		alloc_pages(gfp, 0)
#define __free_page(page)	__free_pages(page, 0)
#define __get_free_page(gfp)	__get_free_pages(gfp, 0)
#define free_page(addr)		free_pages(addr, 0)

static inline void folio_get(struct folio *folio)
{
	VM_BUG_ON_PAGE(atomic_read(&folio->_refcount) <= 0, &folio->page);
	atomic_inc(&folio->_refcount);
}

/*
 * v6.10's folio_try_get(): a reference, unless the count is 0 (free, being freed, or frozen by
 * folio_ref_freeze()).  For a reader that found the folio without holding a reference (the
 * page cache's lockless lookup, page_idle's pfn walk): it must look again afterwards that the
 * folio is still where it found it, since the frame may have been freed and reused meanwhile.
 * Fully ordered on success, so that second look reads after the reference.
 */
static inline bool folio_try_get(struct folio *folio)
{
	return atomic_inc_not_zero(&folio->_refcount);	/* v6.10: page_ref_add_unless(page, 1, 0) */
}

/* v6.10's folio_ref_freeze(): the count from exactly @count to 0, so no folio_try_get() can
 * succeed until folio_ref_unfreeze() sets it again (release: the changes made while frozen
 * are seen by whoever takes the next reference). */
static inline bool folio_ref_freeze(struct folio *folio, int count)
{
	return atomic_cmpxchg(&folio->_refcount, count, 0) == count;
}

static inline void folio_ref_unfreeze(struct folio *folio, int count)
{
	VM_BUG_ON_PAGE(atomic_read(&folio->_refcount) != 0, &folio->page);
	atomic_set_release(&folio->_refcount, count);
}

static inline void get_page(struct page *page)
{
	folio_get(page_folio(page));
}

static inline void put_page(struct page *page)
{
	folio_put(page_folio(page));
}

/* ZONE_DMA ends at @limit (from the device tree's dma-ranges) unless the command line said. */
void zone_dma_limit_from_firmware(phys_addr_t limit);
/* ZONE_DMA's end (0: none), for the DMA API's mask checks (v6.10: include/linux/dma-direct.h). */
extern phys_addr_t zone_dma_limit;
/* Boot: zones from the memmap, every usable frame into the free lists.  0 or -ENOMEM. */
int page_alloc_init(void);
unsigned long nr_free_pages(void);	/* MemFree: the buddy lists' frames, as Linux's */
unsigned long nr_free_pages_and_pcp(void);	/* and the per-CPU lists' (leak checks) */
void vmstat_work_init(void);	/* mm/vmstat_work.c: at boot, after workqueue_init() */
/* Empty the per-CPU lists of @zone (NULL: every zone) into the buddy lists. */
struct zone;
void drain_all_pages(struct zone *zone);
unsigned long totalram_pages(void);
/* @count frames more (or, negative, fewer) in @page's zone's managed_pages: a balloon gives frames
 * to the hypervisor and takes them back (v6.10's; mm/mm_init.c).  Takes the zone lock. */
void adjust_managed_page_count(struct page *page, long count);
int get_pageblock_migratetype(const struct zone *z, unsigned long pfn);

/* Verify every invariant (see mm/page_alloc.c's header); prints each violation; returns their
 * number (0 = consistent). */
int buddy_check(int (*pr)(const char *fmt, ...));
/* /proc/buddyinfo's lines through @pr. */
void show_buddyinfo(int (*pr)(const char *fmt, ...));

/* For page reporting and HWPoison (zone->lock held for the two __ ones). */
unsigned long __isolate_free_page(struct page *page, unsigned int order);	/* 0: below min */
void __putback_isolated_page(struct page *page, unsigned int order, bool reported);
bool take_page_off_buddy(struct page *page);
bool put_page_back_buddy(struct page *page);	/* HWPoison: give a taken-off frame back */
extern unsigned int page_reporting_order;	/* blocks of this order and up are reported */
extern void (*page_reporting_notify_fn)(void);	/* set by page_reporting_register() */

/* mm/page_poison.c: tinymm.page_poison=1 fills free frames and verifies them at allocation. */
extern bool page_poisoning_enabled;
extern unsigned long nr_poison_mismatches;
void kernel_poison_pages(struct page *page, unsigned long nr);
bool check_poison_pages(struct page *page, unsigned long nr);	/* false: reported, leak it */

/* Called when an allocation finds a zone below its low watermark (Linux: wakeup_kswapd);
 * mm/kswapd.c fills it in.  kswapd_wakeups counts the occasions. */
extern void (*reclaim_wakeup_hook)(struct zone *z, unsigned int order, gfp_t gfp);
extern unsigned long kswapd_wakeups;
/* Direct reclaim (mm/vmscan.c's, set by kswapd_run()): called by any allocation that found no
 * page; returns pages reclaimed, -1 where reclaim may not run (no __GFP_DIRECT_RECLAIM, atomic
 * context), or RECLAIM_USE_RESERVES for a task inside reclaim (PF_MEMALLOC, not in an
 * interrupt), which then allocates below the watermarks as Linux's ALLOC_NO_WATERMARKS.  The
 * allocator retries as Linux's should_reclaim_retry (MAX_RECLAIM_RETRIES). */
extern long (*direct_reclaim_hook)(gfp_t gfp, unsigned int order);
#define RECLAIM_USE_RESERVES	(-2L)
#ifndef MAX_RECLAIM_RETRIES
#define MAX_RECLAIM_RETRIES	16
#endif

/* Zero one page with word stores (Linux's clear_page(); __GFP_ZERO uses the same loop).  The
 * fault path allocates without __GFP_ZERO, which the order-0 fast path does not serve, and
 * clears the page itself, as v6.10's clear_user_highpage() callers do. */
void clear_page(void *addr);

extern bool page_checks;		/* tinymm.check_pages */
extern unsigned long nr_bad_pages, nr_alloc_failures;
/* mm/migratetype.c: fallbacks that claimed a pageblock for the new type, and that took one block. */
extern unsigned long nr_pageblocks_claimed, nr_fallback_borrows;

/* CPUs came up: every zone's per-CPU high split anew over the possible CPUs (v6.10's
 * zone_pcp_update() from page_alloc_cpu_online; the SMP bring-up calls it once). */
void zone_pcp_update_all(void);

#endif
