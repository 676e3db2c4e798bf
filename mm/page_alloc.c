/*
 * page_alloc.c - the buddy allocator: zones, free lists per order and migratetype, split on
 * allocation, merge on free, bad-page checks (as Linux v6.10's mm/page_alloc.c, in miniature;
 * the functions keep Linux's names).
 *
 * The fast paths (orders 0-3 from this CPU's lists) are mm/page_alloc_fast.c; this file is the
 * general path they hand every other case to:
 * alloc_pages_slowpath(gfp, order) -> zonelist walk (DMA only for __GFP_DMA, else NORMAL then DMA) ->
 * __rmqueue(): the smallest free block of the wanted migratetype, else another type's
 * (mm/migratetype.c: the fallback and pageblock-claiming rules) -> expand(): split down to
 * @order, halves back on the free lists -> check_new_pages() -> the page, refcount 1.
 * __free_pages_slow() -> refcount to 0 -> free_the_page() -> free_pages_prepare() (bad-page
 * checks) -> the per-CPU lists (free_unref_page, orders 0-3) or __free_one_page():
 * merge with the buddy while it is free and of the same order, then onto a free list.
 *
 * Invariants (buddy_check() verifies them all): a free block is 2^order frames, aligned to its
 * size, inside one zone, its head PageBuddy with the order in ->private and on exactly the list
 * free_area[order].free_list[pageblock migratetype]; its other frames are untyped with refcount
 * 0; no two free buddies of one order coexist (merging is maximal); zone->free_pages and every
 * nr_free match the lists.  Locking: zone->lock (irqsave) guards all of it.
 *
 * Where tinymm differs from v6.10, and why: one node, so warn_alloc() prints nodemask=(null) and
 * buddyinfo stands in for show_mem().  A gfp with both migratetype bits is a caller's bug that
 * v6.10 warns about; tinymm picks MOVABLE.  The zone below its high watermark (ZONE_BELOW_HIGH)
 * is noted at pcp refills and on the general path, because the fast path skips the zonelist walk
 * where v6.10 notes it.  should_reclaim_retry() is simplified: a costly order gets no retries
 * (v6.10 retries those only with compaction, which tinymm lacks); all rounds are capped at 4x
 * MAX_RECLAIM_RETRIES so a reclaimer whose pages others take cannot loop forever; v6.10's stop
 * when free + reclaimable pages could not meet the min watermark is left out.  When reclaim
 * has failed, the OOM killer (mm/oom_kill.c) gets at most MAX_OOM_ROUNDS tries before the
 * allocation fails, where v6.10 retries as long as it makes progress: tinymm has no oom reaper
 * to end a wait on a victim that cannot exit.  kswapd's wakeup, direct reclaim, the OOM killer
 * and the page-reporting notify are function pointers, not calls (reasons at each).
 */
#include <string.h>
#include "tinymm/cache.h"
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/gfp.h"
#include "tinymm/memblock.h"
#include "tinymm/memory-failure.h"
#include "tinymm/oom.h"
#include "tinymm/page_alloc.h"
#include "tinymm/vmstat.h"
#include "tinymm/sched.h"
#include "tinymm/printk.h"
#include "tinymm/swap.h"
#include "tinymm/time.h"
#include "internal.h"

/* Free page reporting (mm/page_reporting.c) is told when a big enough block becomes free.  A
 * pointer where Linux calls __page_reporting_notify(): page_alloc_ktest's
 * putback_isolated_merges_quietly_to_tail counts through it to prove __putback_isolated_page()
 * does not notify (FPI_SKIP_REPORT_NOTIFY), which a direct call would not let it see. */
unsigned int page_reporting_order = ~0u;	/* no reporting until a device registers */
void (*page_reporting_notify_fn)(void);

static inline void page_reporting_notify_free(unsigned int order)
{
	if (order >= page_reporting_order && page_reporting_notify_fn)
		page_reporting_notify_fn();
}

struct zone zones[MAX_NR_ZONES];
int nr_zones;
const char *const zone_names[MAX_NR_ZONES] = { "DMA", "Normal", "Movable" };
phys_addr_t zone_dma_limit;	/* tinymm.zone_dma_limit: ZONE_DMA below it; 0: none */
bool page_checks = true;		/* tinymm.check_pages */

KPARAM_BOOL(check_pages, page_checks, "1 (default): bad-page checks on every alloc and free; 0: off");

/* A setter of its own: the limit must be page-aligned, which no range says. */
static int set_zone_dma_limit(const char *v)
{
	unsigned long long x;

	if (kstrtoull(v, &x) || x & (PAGE_SIZE - 1))
		return -1;
	zone_dma_limit = x;
	return 0;
}
KPARAM(zone_dma_limit, set_zone_dma_limit, "physical address: frames below it form ZONE_DMA");


/* Out-of-line copy for the public header's users (vmstat, tests). */
int get_pageblock_migratetype(const struct zone *z, unsigned long pfn)
{
	return pageblock_mt(z, pfn);
}

/* The free buddy of @pfn at @order, or NULL: it must exist, be in the zone and free at @order. */
static struct page *find_buddy_page(struct zone *z, unsigned long pfn, unsigned int order,
				    unsigned long *buddy_pfn)
{
	unsigned long b = pfn ^ (1UL << order);
	struct page *buddy;

	if (!zone_spans_pfn(z, b))
		return NULL;
	buddy = pfn_to_page(b);
	if (!buddy || !PageBuddy(buddy) || buddy_order(buddy) != order || page_zone(buddy) != z)
		return NULL;
	*buddy_pfn = b;
	return buddy;
}

/* Free the block at @pfn; zone->lock held.  Merges while the buddy is free. */
/*
 * The last line against a PG_hwpoison frame on the free lists, where every block goes on with
 * zone->lock held (memory_failure() marks frames with interrupts masked, so on one CPU it
 * cannot run between this look and the insert).  A frame can be marked after its free path
 * looked at it: a free preempted on its way, a block out with page reporting, a tail of a
 * high-order block whose owner frees it later.  Then the clean pieces go back (each through
 * __free_one_page, in the largest aligned blocks without a bad frame) and each bad frame is set
 * aside as take_page_off_buddy() leaves one.  true: done, nothing left to insert.  Only once
 * something was poisoned (hwpoison_seen): one load and a branch on the way otherwise.
 */
static __attribute__((noinline)) bool __free_around_hwpoison(struct page *page, unsigned long pfn,
							       struct zone *z, unsigned int order, int mt,
							       fpi_t fpi)
{
	unsigned long end = pfn + (1UL << order);

	lockdep_assert_held(&z->lock);
	if (!free_block_has_hwpoison(page, order))
		return false;
	for (unsigned long p = pfn; p < end;) {
		struct page *head = page + (p - pfn);
		unsigned int o = 0;

		if (PageHWPoison(head)) {
			SetPageHWPoisonTakenOff(head);
			p++;
			continue;
		}
		while (o < order && !(p & ((2UL << o) - 1)) && p + (2UL << o) <= end) {
			bool clean = true;
			for (unsigned long i = p + (1UL << o); i < p + (2UL << o) && clean; i++)
				clean = !PageHWPoison(page + (i - pfn));
			if (!clean)
				break;
			o++;
		}
		__free_one_page(head, p, z, o, mt, fpi);
		p += 1UL << o;
	}
	return true;
}

bool free_block_has_hwpoison(const struct page *page, unsigned int order)
{
	unsigned long bad = 0;

	for (unsigned long i = 0; i < (1UL << order); i++)
		bad |= page[i].flags & (1UL << PG_hwpoison);
	return bad;
}

void free_around_hwpoison(struct page *page, unsigned int order)
{
	struct zone *z = page_zone(page);
	unsigned long pfn = page_to_pfn(page), flags;

	spin_lock_irqsave(&z->lock, flags);
	if (!__free_around_hwpoison(page, pfn, z, order, pageblock_mt(z, pfn), FPI_NONE))
		__free_one_page(page, pfn, z, order, pageblock_mt(z, pfn), FPI_NONE);
	spin_unlock_irqrestore(&z->lock, flags);
}

void __free_one_page(struct page *page, unsigned long pfn, struct zone *z, unsigned int order,
		     int mt, fpi_t fpi)
{
	unsigned long buddy_pfn;
	struct page *buddy;

	lockdep_assert_held(&z->lock);
	if (unlikely(READ_ONCE(hwpoison_seen)) && __free_around_hwpoison(page, pfn, z, order, mt, fpi))
		return;
	z->free_pages += 1UL << order;
	while (order < MAX_PAGE_ORDER) {
		buddy = find_buddy_page(z, pfn, order, &buddy_pfn);
		if (!buddy)
			break;
		del_page_from_free_list(buddy, z, order, pageblock_mt(z, buddy_pfn));
		pfn &= buddy_pfn;		/* the lower of the two heads the merged block */
		page = pfn_to_page(pfn);
		order++;
	}
	set_buddy_order(page, order);
	/* FPI_TO_TAIL (a block back from page reporting) goes last, so the allocator hands out
	 * unreported blocks first.  Otherwise, if the next-larger block could merge later, the
	 * tail too (Linux's heuristic: it is likely to merge, so hand out other blocks first). */
	bool tail = fpi & FPI_TO_TAIL;
	if (!tail && order < MAX_PAGE_ORDER - 1) {
		unsigned long hp = pfn & ~((2UL << order) - 1);
		tail = find_buddy_page(z, hp, order + 1, &buddy_pfn) != NULL;
	}
	add_to_free_list(page, z, order, mt, tail);
	if (!(fpi & FPI_SKIP_REPORT_NOTIFY))
		page_reporting_notify_free(order);
}

/* A free block back on the lists as it is: its buddy is known not to be free (the split case). */
void __free_one_page_nomerge(struct page *page, unsigned long pfn, struct zone *z,
			     unsigned int order, int mt)
{
	(void)pfn;
	z->free_pages += 1UL << order;
	set_buddy_order(page, order);
	add_to_free_list(page, z, order, mt, false);
}

/* Take the free 2^high block @page off @mt's list and keep its first 2^low frames. */
void page_del_and_expand(struct zone *z, struct page *page, unsigned int low, unsigned int high,
			 int mt)
{
	del_page_from_free_list(page, z, high, mt);
	expand(z, page, page_to_pfn(page), low, high, mt);
	set_page_pcp_mt(page, mt);	/* where the free fast path will file it */
}

/* The smallest free block of type @mt that holds 2^order frames, split down.
 * Inline here for __rmqueue, the refill's path; migratetype.c calls the copy below. */
static inline struct page *rmqueue_smallest(struct zone *z, unsigned int order, int mt)
{
	for (unsigned int o = order; o < NR_PAGE_ORDERS; o++) {
		struct page *page = page_list_first(&z->free_area[o].free_list[mt]);
		if (page) {
			unsigned long pfn = page_to_pfn(page);
			del_page_from_free_list(page, z, o, mt);
			expand(z, page, pfn, order, o, mt);
			set_page_pcp_mt(page, mt);
			return page;
		}
	}
	return NULL;
}

struct page *__rmqueue_smallest(struct zone *z, unsigned int order, int mt)
{
	lockdep_assert_held(&z->lock);
	return rmqueue_smallest(z, order, mt);
}

/* Take a 2^order block of type @mt from @z, splitting as needed; zone->lock held.  NULL if none.
 * Another type's block only when @mt has none (mm/migratetype.c). */
struct page *__rmqueue(struct zone *z, unsigned int order, int mt)
{
	struct page *page;

	lockdep_assert_held(&z->lock);
	page = rmqueue_smallest(z, order, mt);
	if (unlikely(!page))
		page = __rmqueue_fallback(z, order, mt);
	if (page)
		z->free_pages -= 1UL << order;
	return page;
}

/* ---- allocation and freeing ---- */

static inline int gfp_migratetype(gfp_t gfp)
{
	if ((gfp & GFP_MOVABLE_MASK) == GFP_MOVABLE_MASK)
		return MIGRATE_MOVABLE;		/* both: a caller's bug (see the header) */
	return (int)((gfp & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT);
}
_Static_assert((__GFP_MOVABLE >> GFP_MOVABLE_SHIFT) == MIGRATE_MOVABLE &&
	       (__GFP_RECLAIMABLE >> GFP_MOVABLE_SHIFT) == MIGRATE_RECLAIMABLE,
	       "the gfp migratetype bits must read as the migratetype, as in v6.10");

/*
 * gfp_to_alloc_flags() and __zone_watermark_ok() for the min watermark: __GFP_HIGH
 * (ALLOC_MIN_RESERVE) may use half of the min reserve; a caller that cannot block as well
 * (ALLOC_NON_BLOCK: no __GFP_DIRECT_RECLAIM, no __GFP_NOMEMALLOC; GFP_ATOMIC is both) a quarter
 * of what is left on top: its mark is 3/8 of min, in Linux's integer steps.  A non-blocking
 * caller without __GFP_HIGH (GFP_NOWAIT) gets no reserve at all.
 * @highest: the highest zone the request may use; a lower zone keeps its lowmem reserve.
 */
unsigned long gfp_min_watermark(unsigned long min, gfp_t gfp)
{
	if (gfp & __GFP_HIGH) {
		min -= min / 2;
		if (!(gfp & (__GFP_DIRECT_RECLAIM | __GFP_NOMEMALLOC)))
			min -= min / 4;
	}
	return min;
}

static bool zone_watermark_ok(const struct zone *z, unsigned int order, gfp_t gfp, int highest,
			      unsigned int alloc_flags)
{
	unsigned long min = gfp_min_watermark(z->_watermark[WMARK_MIN], gfp);

	if (alloc_flags & ALLOC_OOM)
		min -= min / 2;

	return z->free_pages >= (1UL << order) + min + z->lowmem_reserve[highest];
}

unsigned long nr_alloc_failures;

/*
 * The reclaim hook: kswapd is woken when an allocation finds a zone below its low watermark
 * (wakeup_kswapd in the slow path); mm/kswapd.c's kswapd_run() sets this hook.  It is called
 * with no lock held, in any context; kswapd_wakeups counts the calls (also without a hook).
 * This and direct_reclaim_hook are pointers, not calls, because vmscan.c is kernel core and this
 * file portable: host.buddy, host.buddy_order7, host.slab, host.vmstat, host.page_reporting (the
 * host_kernel-only targets of cmake/host.cmake), the buddy, slab and xarray fuzzers and host_bench
 * link the allocator without the core and would not link; NULL there means no reclaim.
 */
void (*reclaim_wakeup_hook)(struct zone *z, unsigned int order, gfp_t gfp);
unsigned long kswapd_wakeups;

static void wakeup_kswapd(struct zone *z, unsigned int order, gfp_t gfp)
{
	kswapd_wakeups++;
	if (reclaim_wakeup_hook)
		reclaim_wakeup_hook(z, order, gfp);
}

/*
 * Zero 1 << @order pages with word stores (Linux's clear_page() is the architecture's; one
 * portable loop serves here).  Not memset(): picolibc's, built for size, stores a byte at a time,
 * and the optimize attribute keeps GCC from turning this loop back into a call to it.
 */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif		/* (clang builds only the host tests and fuzzers, where speed does not matter) */
static void clear_pages(void *addr, unsigned int order)
{
	unsigned long *p = addr, *end = p + ((PAGE_SIZE << order) / sizeof(*p));

	for (; p < end; p += 8) {
		p[0] = 0; p[1] = 0; p[2] = 0; p[3] = 0;
		p[4] = 0; p[5] = 0; p[6] = 0; p[7] = 0;
	}
}

void clear_page(void *addr)
{
	clear_pages(addr, 0);
}

void warn_alloc(gfp_t gfp, const char *fmt, ...)
{
	/* nopage_rs: at most 10 reports in 5 s, page allocator and vmalloc together (an interrupt
	 * storm of failed GFP_ATOMIC allocations must not drown the console). */
	static uint64_t window_start;
	static unsigned int in_window;
	uint64_t now = ktime_get_ns();
	char msg[128], names[160];
	va_list ap;

	if (gfp & __GFP_NOWARN)
		return;
	if (!in_window || now - window_start >= 5000000000ULL) {
		window_start = now;
		in_window = 0;
	}
	if (++in_window > 10)
		return;
	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	format_gfp_flags(names, sizeof(names), gfp);
	/* Linux's line, the stack, then the summary of free memory (buddyinfo: see the header). */
	printk(KERN_WARNING "%s: %s, mode:%#x(%s), nodemask=(null)\n",
	       current ? current->comm : "swapper", msg, gfp, names);
	dump_stack();
	show_buddyinfo(printk);
}

struct zone *preferred_zone;	/* the highest populated zone */
/*
 * The zonelist walk.  DMA only for __GFP_DMA; otherwise the
 * highest zone first, DMA last.  The highest zone that can serve uses its per-CPU lists; lower
 * zones are a fallback guarded by their lowmem reserve (so their pcp refill, which knows no
 * reserve, is skipped).  A zone found below its low watermark wakes kswapd.  @alloc_flags:
 * ALLOC_NO_WATERMARKS for a task inside reclaim that needs memory to free memory, ALLOC_OOM
 * for an OOM victim on its way out.
 */
static struct page *get_page_from_freelist(gfp_t gfp, unsigned int order, int mt,
					   unsigned int alloc_flags)
{
	struct page *page = NULL;
	int top = (gfp & __GFP_DMA) ? ZONE_DMA : MAX_NR_ZONES - 1;
	int highest = top;

	while (highest > 0 && !zones[highest].managed_pages)
		highest--;
	for (int zi = top; zi >= 0 && !page; zi--) {
		struct zone *z = &zones[zi];
		unsigned long flags;
		if (!z->managed_pages)
			continue;
		for (;;) {
			/* Small blocks come from this CPU's list (refilled above the min watermark);
			 * the rest, and whatever the list cannot give, from the buddy lists. */
			/* A zone below its high watermark is noted so frees shrink its per-CPU
			 * lists (ZONE_BELOW_HIGH; also at refills: see the header).  Unlocked
			 * read: a hint. */
			if (READ_ONCE(z->free_pages) < z->_watermark[WMARK_HIGH] + (1UL << order))
				zone_mark_below_high(z);
			page = order <= PAGE_ALLOC_COSTLY_ORDER && zi == highest ?
			       rmqueue_pcplist(z, order, mt) : NULL;
			bool checked = page != NULL;	/* rmqueue_pcplist checked it */
			/* A list refill took the zone below low: wake kswapd now, as Linux's
			 * first, low-watermark attempt would have (unlocked read: a hint). */
			if (page && READ_ONCE(z->free_pages) < z->_watermark[WMARK_LOW] &&
			    (gfp & __GFP_KSWAPD_RECLAIM))
				wakeup_kswapd(z, order, gfp);
			if (!page) {
				bool low;
				spin_lock_irqsave(&z->lock, flags);
				low = z->free_pages < z->_watermark[WMARK_LOW] + (1UL << order);
				if ((alloc_flags & ALLOC_NO_WATERMARKS) ||
				    zone_watermark_ok(z, order, gfp, highest, alloc_flags))
					page = __rmqueue(z, order, mt);
				spin_unlock_irqrestore(&z->lock, flags);
				if (low && (gfp & __GFP_KSWAPD_RECLAIM))
					wakeup_kswapd(z, order, gfp);
			}
			if (!page)
				break;
			if ((checked || !page_checks || check_new_pages(page, order)) &&
			    (!page_poisoning_enabled || check_poison_pages(page, 1UL << order)))
				break;
			page = NULL;		/* a bad block was reported and leaked: try another */
		}
	}
	return page;
}

long (*direct_reclaim_hook)(gfp_t gfp, unsigned int order);	/* a pointer: see reclaim_wakeup_hook */
bool (*alloc_pages_oom_hook)(gfp_t gfp, unsigned int order);	/* mm/oom_kill.c's, the same way */

/* v6.10's __alloc_pages_may_oom(): not for a costly order, nor for a caller that would rather
 * fail; the hook decides the rest (a user task's context only).  true: progress, retry. */
static bool alloc_pages_may_oom(gfp_t gfp, unsigned int order)
{
	if (!alloc_pages_oom_hook || order > PAGE_ALLOC_COSTLY_ORDER ||
	    (gfp & (__GFP_NORETRY | __GFP_RETRY_MAYFAIL)))
		return false;
	return alloc_pages_oom_hook(gfp, order);
}

/* v6.10's oom_reserves_allowed() via __gfp_pfmemalloc_flags(): a victim, not in an interrupt. */
static bool oom_reserves_allowed(gfp_t gfp)
{
	return current && !in_interrupt() && tsk_is_oom_victim(current) &&
	       !(gfp & __GFP_NOMEMALLOC);
}

/*
 * Another round unless the caller asked for one only (__GFP_NORETRY; a costly order without
 * __GFP_RETRY_MAYFAIL: no compaction to make it worth it), or MAX_RECLAIM_RETRIES rounds in a
 * row made no progress (progress on a costly order does not count: freed small pages need not
 * add up to a big block).  All rounds are capped (4x), so the allocation fails with NULL,
 * never hangs (see the header).
 */
static bool should_reclaim_retry(gfp_t gfp, unsigned int order, long progress, int *no_progress,
				 int rounds)
{
	if ((gfp & __GFP_NORETRY) ||
	    (order > PAGE_ALLOC_COSTLY_ORDER && !(gfp & __GFP_RETRY_MAYFAIL)))
		return false;
	if (progress && order <= PAGE_ALLOC_COSTLY_ORDER)
		*no_progress = 0;
	else
		++*no_progress;
	return *no_progress <= MAX_RECLAIM_RETRIES && rounds < 4 * MAX_RECLAIM_RETRIES;
}

__attribute__((noinline)) struct page *alloc_pages_slowpath(gfp_t gfp, unsigned int order)
{
	int mt = gfp_migratetype(gfp);
	struct page *page;

	if (order > MAX_PAGE_ORDER) {
		WARN_ON_ONCE(!(gfp & __GFP_NOWARN));
		return NULL;
	}
	page = get_page_from_freelist(gfp, order, mt, ALLOC_WMARK_MIN);
	/* __alloc_pages_direct_reclaim() in a loop, while should_reclaim_retry() says so.
	 * The hook decides whether this context may reclaim at all; inside reclaim (PF_MEMALLOC)
	 * it answers RECLAIM_USE_RESERVES instead: such a task may ignore the watermarks
	 * (ALLOC_NO_WATERMARKS), so writing a dirty page out to free it cannot fail for want of
	 * the bio it needs.  An OOM victim tries its reserve first in every round.  Then the OOM
	 * killer, at most MAX_OOM_ROUNDS times (v6.10 loops while it makes progress); a victim
	 * that had its reserve stops (v6.10: no looping endlessly without watermarks). */
	if (!page && direct_reclaim_hook) {
		int no_progress = 0, rounds = 0, oom_rounds = 0;
		for (;;) {
			unsigned int alloc_flags = ALLOC_WMARK_MIN;

			if (oom_reserves_allowed(gfp)) {
				alloc_flags = ALLOC_OOM;
				page = get_page_from_freelist(gfp, order, mt, ALLOC_OOM);
				if (page)
					break;
			}
			long progress = direct_reclaim_hook(gfp, order);
			if (progress == RECLAIM_USE_RESERVES) {
				if (!(gfp & __GFP_NOMEMALLOC))
					page = get_page_from_freelist(gfp, order, mt, ALLOC_NO_WATERMARKS);
				break;
			}
			if (progress < 0)
				break;		/* may not reclaim here (atomic, no __GFP_DIRECT_RECLAIM) */
			page = get_page_from_freelist(gfp, order, mt, ALLOC_WMARK_MIN);
			if (page)
				break;
			if (should_reclaim_retry(gfp, order, progress, &no_progress, ++rounds))
				continue;
			/* Reclaim has failed us: each kill (or wait) buys one more round. */
			if (oom_rounds++ >= MAX_OOM_ROUNDS || !alloc_pages_may_oom(gfp, order))
				break;
			/* A victim that had its reserve, or may not have it: no more rounds. */
			if (tsk_is_oom_victim(current) &&
			    ((alloc_flags & ALLOC_OOM) || (gfp & __GFP_NOMEMALLOC)))
				break;
		}
	}
	if (!page) {
		nr_alloc_failures++;
		warn_alloc(gfp, "page allocation failure: order:%u", order);
		return NULL;
	}
	page->private = 0;
	atomic_set(&page->_refcount, 1);
	if (order && (gfp & __GFP_COMP))
		prep_compound_page(page, order);
	if (gfp & __GFP_ZERO)
		clear_pages(page_address(page), order);
	return page;
}

/* The last reference is gone: give the block back. */
__attribute__((noinline)) void free_the_page(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), flags;
	struct zone *z = page_zone(page);

	if (!free_pages_prepare(page, order))
		return;			/* bad: reported, leaked */
	if (page_poisoning_enabled)
		kernel_poison_pages(page, 1UL << order);
	if (order <= PAGE_ALLOC_COSTLY_ORDER) {
		free_unref_page(page, order);
		return;
	}
	spin_lock_irqsave(&z->lock, flags);
	__free_one_page(page, pfn, z, order, pageblock_mt(z, pfn), FPI_NONE);
	spin_unlock_irqrestore(&z->lock, flags);
}

__attribute__((noinline)) void __free_pages_slow(struct page *page, unsigned int order)
{
	if (!page)
		return;
	if (order > MAX_PAGE_ORDER) {
		bad_page(page, "freeing a block of an impossible order");
		return;
	}
	if (atomic_read(&page->_refcount) <= 0) {
		/* Already free (double free) or never allocated: report, and take the frame off the
		 * free lists if it is on them, so it is never handed out again (leaked). */
		bool was_free = PageBuddy(page);
		take_page_off_buddy(page);
		bad_page(page, was_free ? "double free: block is already free" :
			 "freeing a page with refcount 0");
		return;
	}
	bool head = PageHead(page);	/* before the reference goes */
	if (atomic_dec_and_test(&page->_refcount))
		free_the_page(page, order);
	else if (!head)
		free_pages_tail_blocks(page, order);
}

/*
 * __free_pages() when the reference dropped was not the last one on a non-compound
 * block: whoever still holds the first page holds only it (put_page() frees one frame), so the
 * rest goes back now, as the blocks of each lower order above it.
 */
void free_pages_tail_blocks(struct page *page, unsigned int order)
{
	while (order-- > 0)
		free_the_page(page + (1UL << order), order);
}

/* The last reference is gone (folio_put(), page_alloc.h): v6.10's __folio_put(). */
void __folio_put(struct folio *folio)
{
	/* A folio on an LRU list leaves it first (__page_cache_release); an
	 * LRU folio is always freed here, never by __free_pages, whose fast path stays untouched
	 * (PG_lru is a PAGE_FLAGS_CHECK_AT_FREE bad-page flag there). */
	if (unlikely(folio_test_lru(folio)))
		__page_cache_release(folio);
	/* v6.10's __page_cache_release: a folio freed still mlocked (truncation raced with
	 * munlock) loses PG_mlocked quietly, counted; a bare __free_pages of it is a bad page. */
	if (unlikely(folio_test_mlocked(folio))) {
		long nr = (long)folio_nr_pages(folio);

		__folio_clear_mlocked(folio);
		mod_node_page_state(NR_MLOCK, -nr);
		count_vm_events(UNEVICTABLE_PGCLEARED, nr);
	}
	/* An anonymous folio's mapping is its owner with PAGE_MAPPING_ANON (mm/memory.c), a
	 * driver's movable page's its ops with PAGE_MAPPING_MOVABLE (mm/migrate.c), not an
	 * address_space: v6.10's free_pages_prepare() clears such a mapping (PageMappingFlags),
	 * and so does this. */
	if ((unsigned long)folio->mapping & PAGE_MAPPING_FLAGS)
		folio->mapping = NULL;
	free_the_page(&folio->page, folio_order(folio));
}

/* A large folio is also rmappable (page_rmappable_folio()), the mark on
 * its second page that rmap and the deferred split queue look for. */
static __attribute__((noinline)) struct folio *folio_alloc_large(gfp_t gfp, unsigned int order)
{
	struct folio *folio = (struct folio *)alloc_pages(gfp | __GFP_COMP, order);

	if (folio && folio_test_large(folio))
		folio_set_large_rmappable(folio);
	return folio;
}

/* An order-0 folio is its page as allocated: a tail call, no frame (every anonymous fault). */
__fastpath struct folio *folio_alloc(gfp_t gfp, unsigned int order)
{
	if (likely(!order))
		return (struct folio *)alloc_pages(gfp, 0);
	return folio_alloc_large(gfp, order);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page((void *)addr), order);
}

/* NR_FREE_PAGES (MemFree, vmstat's nr_free_pages): the frames on the buddy lists.  A
 * pcp refill takes its frames out of the count, as rmqueue_bulk() does; a drain puts them
 * back. */
unsigned long nr_free_pages(void)
{
	unsigned long n = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		n += READ_ONCE(zones[i].free_pages);
	return n;
}

/* Every free frame: the buddy lists' and every CPU's per-CPU lists' (leak checks). */
unsigned long nr_free_pages_and_pcp(void)
{
	unsigned long n = nr_free_pages();

	for (int i = 0; i < MAX_NR_ZONES; i++)
		for (int cpu = 0; cpu < CONFIG_NR_CPUS; cpu++)
			n += (unsigned long)pcp_count(&zones[i].pcp[cpu]);
	return n;
}

unsigned long totalram_pages(void)
{
	unsigned long n = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		n += zones[i].managed_pages;
	return n;
}

/* @size bytes of whole frames, the unused tail of the power-of-two block given back. */
void *alloc_pages_exact(size_t size, gfp_t gfp)
{
	unsigned long nr = size / PAGE_SIZE + !!(size % PAGE_SIZE);	/* no overflow near SIZE_MAX */
	unsigned int order = 0;

	if (!size)
		return NULL;
	while (order <= MAX_PAGE_ORDER && (1UL << order) < nr)
		order++;
	/* __GFP_COMP makes no sense here (warned, dropped); a size beyond MAX_PAGE_ORDER
	 * reaches alloc_pages(), which warns unless __GFP_NOWARN and returns NULL. */
	if (WARN_ON_ONCE(gfp & __GFP_COMP))
		gfp &= ~__GFP_COMP;
	struct page *page = alloc_pages(gfp, order);
	if (!page)
		return NULL;
	/* Split into order-0 frames with a reference each (and the head's pcp mt, for their
	 * frees); free those past @size. */
	for (unsigned long i = 1; i < (1UL << order); i++) {
		atomic_set(&page[i]._refcount, 1);
		set_page_pcp_mt(&page[i], page_pcp_mt(page->flags));
	}
	for (unsigned long i = nr; i < (1UL << order); i++)
		__free_pages(page + i, 0);
	return page_address(page);
}

void free_pages_exact(void *virt, size_t size)
{
	struct page *page = virt_to_page(virt);

	for (unsigned long i = 0; i < (size + PAGE_SIZE - 1) >> PAGE_SHIFT; i++)
		__free_pages(page + i, 0);
}
