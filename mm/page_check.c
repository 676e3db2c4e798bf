/*
 * page_check.c - the bad-page checks for the page allocator (as v6.10's mm/page_alloc.c): what a
 * page must look like when it is freed (free_pages_prepare) and when it is handed out
 * (check_new_pages), and what happens when it does not (bad_page: report, taint, leak).  The hot
 * paths in page_alloc.c use one-test versions of the same rules and call here only when
 * something is wrong or the block is large.
 * A PG_hwpoison frame is no bad page: freed, it is set aside quietly, and a block holding one is
 * freed around it (free_has_hwpoisoned); handed out, it is refused quietly (docs/hwpoison.md).
 *
 * As v6.10: one cheap test per frame (page_expected_state); only a frame known bad has its reason
 * worked out (page_bad_reason), every test run and the last that fails named (flags over
 * refcount over mapping over mapcount).  bad_page() shows a burst of 60 reports a minute, then
 * counts the rest and says how many were suppressed before the next one it shows; each report
 * ends with the stack.  Where tinymm differs from v6.10:
 *   - A PageBuddy frame (its type overlays _mapcount, so v6.10 says "nonzero mapcount") is named
 *     "already free (PageBuddy): double free"; a later test that also fails still wins.
 *   - Tail frames: no TAIL_MAPPING poison and no entire/nr_pages_mapped counters in tinymm's
 *     folio, so of free_tail_page_prepare()'s checks only "PageTail not set" and "compound_head
 *     not consistent" exist; a tail's ->mapping must be NULL like any frame's.  tinymm checks
 *     the tails' links with page checks off too (v6.10 only clears them then).
 *   - Reasons of tinymm's own: a tail freed, a misaligned block, a compound page freed at
 *     another order, a misaligned block (v6.10: VM_BUG_ON_PAGE, in free_pages_prepare and
 *     __free_one_page).  No "Modules linked in:" line (no modules); the process is always
 *     "swapper".
 *   - A block freed with a PG_hwpoison frame inside goes back around it (free_has_hwpoisoned,
 *     Linux 6.15's); v6.10 frees the whole block and relies on check_new_page() at allocation,
 *     which page checks off (tinymm.check_pages=0) would not do.  An order-0 HWPoison frame set
 *     aside is marked as taken off, so unpoison_memory() can give it back (v6.10 cannot: its
 *     comment calls that frame a known leak).
 * Locking: runs without the zone lock; the pages are the caller's (being freed or just taken).
 * The rate limit's state is bad_page()'s alone (statics, unlocked as in Linux).
 */
#include "tinymm/memory-failure.h"
#include "tinymm/page_alloc.h"
#include "tinymm/bug.h"
#include "tinymm/printk.h"
#include "tinymm/timer.h"
#include "internal.h"

unsigned long nr_bad_pages;		/* frames leaked by bad_page() */
bool kernel_tainted_bad_page;
struct bad_page_ratelimit bad_page_rs;

/*
 * Report and leak a bad page: the frame is never handed out again and the
 * kernel keeps running, tainted.  A burst of 60 reports, then quiet until a minute after the
 * burst began; or a steady drip of one a second.
 */
void bad_page(struct page *page, const char *reason)
{
	struct bad_page_ratelimit *rs = &bad_page_rs;

	if (rs->nr_shown == BAD_PAGE_BURST) {
		if (time_before(jiffies, rs->resume)) {
			rs->nr_unshown++;
			goto out;
		}
		if (rs->nr_unshown) {
			printk(KERN_ALERT "BUG: Bad page state: %lu messages suppressed\n",
			       rs->nr_unshown);
			rs->nr_unshown = 0;
		}
		rs->nr_shown = 0;
	}
	if (rs->nr_shown++ == 0)
		rs->resume = jiffies + 60 * HZ;
	printk(KERN_ALERT "BUG: Bad page state in process swapper  pfn:%05lx\n", page_to_pfn(page));
	dump_page(page, reason);
	dump_stack();
out:
	if (!kernel_tainted_bad_page)
		printk(KERN_ALERT "Disabling lock debugging due to kernel taint\n");
	kernel_tainted_bad_page = true;
	nr_bad_pages++;
	/* Leave a mark no later check mistakes for a good page: typed as nothing, never free.
	 * A free block's head keeps its type: it is still on a list, and the lists stay sound. */
	if (!PageBuddy(page))
		atomic_set(&page->_mapcount, -1);
}

/* One test for a clean frame.  A page type (PageBuddy, PageSlab)
 * overlays _mapcount, so a typed frame fails the first half.  Inline everywhere: out of line it
 * would cost free_page_is_good() a call per frame. */
static inline __attribute__((always_inline)) bool page_expected_state(const struct page *page,
								       unsigned long check_flags)
{
	if (unlikely(atomic_read(&page->_mapcount) != -1))
		return false;
	return likely(!((unsigned long)page->mapping |
			(unsigned int)atomic_read(&page->_refcount) |
			(page->flags & check_flags)));
}

/* Every test, the last that fails wins.  Only for a frame
 * page_expected_state() found bad. */
static const char *page_bad_reason(const struct page *page, unsigned long flags)
{
	const char *bad_reason = NULL;

	if (atomic_read(&page->_mapcount) != -1)
		bad_reason = PageBuddy(page) ? "already free (PageBuddy): double free" :
					       "nonzero mapcount";
	if (page->mapping)
		bad_reason = "non-NULL mapping";
	if (atomic_read(&page->_refcount) != 0)
		bad_reason = "nonzero _refcount";
	if (page->flags & flags) {
		if (flags == PAGE_FLAGS_CHECK_AT_PREP)
			bad_reason = "PAGE_FLAGS_CHECK_AT_PREP flag(s) set";
		else
			bad_reason = "PAGE_FLAGS_CHECK_AT_FREE flag(s) set";
	}
	return bad_reason;
}

static __attribute__((noinline, cold)) void free_page_is_bad_report(struct page *page)
{
	bad_page(page, page_bad_reason(page, PAGE_FLAGS_CHECK_AT_FREE));
}

/* true if the page is fit to be freed; otherwise it was reported and must be leaked. */
static bool free_page_is_good(struct page *page)
{
	if (likely(page_expected_state(page, PAGE_FLAGS_CHECK_AT_FREE)))
		return true;
	free_page_is_bad_report(page);
	return false;
}

/*
 * A block being freed holds PG_hwpoison frames (a poisoned tail of a kernel allocation, or of a
 * large folio): every other frame goes back to the buddy lists, in the largest aligned blocks
 * that hold no poisoned frame, and each poisoned frame is set aside as take_page_off_buddy()
 * leaves one (MAGIC_HWPOISON in ->private, refcount 0: unpoison_memory() can give it back).
 * Linux 6.15's free_has_hwpoisoned() (see the header).  The frames' flags are cleared already
 * but for PG_hwpoison; the poisoned frames' contents are never touched.
 */
static __attribute__((noinline)) void free_has_hwpoisoned(struct page *page, unsigned int order)
{
	if (page_poisoning_enabled)		/* the clean frames only: never touch a bad one */
		for (unsigned long i = 0; i < (1UL << order); i++)
			if (!PageHWPoison(page + i))
				kernel_poison_pages(page + i, 1);
	free_around_hwpoison(page, order);	/* the pieces and the set-aside: mm/page_alloc.c */
}

/* A compound block's tail @p (free_tail_page_prepare()): one report per tail at most;
 * its link to the head cleared either way.  false if it was bad. */
static inline bool free_tail_page_prepare(struct page *head, struct page *p)
{
	bool good = true;

	if (unlikely(!PageTail(p))) {
		bad_page(p, "PageTail not set");
		good = false;
	} else if (unlikely(compound_head(p) != head)) {
		bad_page(p, "compound_head not consistent");
		good = false;
	}
	clear_compound_head(p);
	return good;
}

/*
 * Frames of a wrong-order free may sit on a per-CPU list (a frame split off the block and freed
 * on its own, then the block freed whole), where they look clean.  Only a frame with a non-NULL
 * pcp_next can be on one (mmzone.h: pcp_list_end), so this runs only when one of the block's
 * frames has a link at all; it drains the lists if the walk finds one, and checks every frame
 * again, where the drained frames are now PageBuddy (reported as a double free).  false if bad.
 */
static __attribute__((noinline)) bool free_block_recheck_pcp(struct page *page, unsigned int order)
{
	bool good = true;

	if (!pcp_holds_part_of(page_zone(page), page, order))
		return true;
	drain_all_pages(page_zone(page));
	for (unsigned long i = 0; i < (1UL << order); i++)
		if (!free_page_is_good(page + i))
			good = false;
	return good;
}

/*
 * free_pages_prepare() of an order > 0 block, in one pass over its frames as Linux's: each tail's
 * compound link checked and cleared, each frame checked (page checks on) and, if good, its flags
 * cleared (PG_hwpoison kept: before any frame was poisoned no frame has it, so keeping it costs
 * nothing, and one OR per frame finds a poisoned one for free_has_hwpoisoned()).  A bad frame
 * keeps its flags (the evidence) and the whole block is leaked.
 */
static bool free_pages_prepare_block(struct page *page, unsigned int order)
{
	const unsigned long keep = ~PAGEFLAGS_MASK | (1UL << PG_hwpoison);
	struct page *end = page + (1UL << order);
	bool compound = PageHead(page), good = true;
	unsigned long seen = 0, links = 0;

	/* Page 1's order byte and second-page flags are the folio's, not flags to check (Linux
	 * clears them first too, in free_tail_page_prepare). */
	if (compound) {
		((struct folio *)page)->_flags_1 &= ~(0xffUL | 1UL << PG_has_hwpoisoned |
						      1UL << PG_large_rmappable);
		for (struct page *p = page + 1; p < end; p++) {
			if (!free_tail_page_prepare(page, p))
				good = false;
			if (page_checks && !free_page_is_good(p)) {
				good = false;
				continue;
			}
			seen |= p->flags;
			p->flags &= keep;
		}
	} else if (page_checks) {
		/* Not compound: no tail links, but a frame on a per-CPU list has one (pcp_next). */
		for (struct page *p = page + 1; p < end; p++) {
			links |= (unsigned long)p->pcp_next;
			if (!free_page_is_good(p)) {
				good = false;
				continue;
			}
			seen |= p->flags;
			p->flags &= keep;
		}
	} else {
		for (struct page *p = page + 1; p < end; p++) {
			seen |= p->flags;
			p->flags &= keep;
		}
	}
	if (page_checks && !free_page_is_good(page))
		good = false;
	if (unlikely(links) && good)
		good = free_block_recheck_pcp(page, order);
	if (!good)
		return false;	/* leaked: the bad frames keep their flags, the evidence */
	seen |= page->flags;
	page->flags &= keep;
	if (unlikely(seen & (1UL << PG_hwpoison))) {
		free_has_hwpoisoned(page, order);
		return false;
	}
	return true;
}

/*
 * Check every frame of the block, clear the flags a free page
 * must not keep, undo the compound set-up.  false: something was bad, leak the whole block, or
 * it held a PG_hwpoison frame and is freed here around it.
 */
bool free_pages_prepare(struct page *page, unsigned int order)
{
	/* A large folio freed at another order than its own (a report of tinymm's own: see the
	 * header).  Freed at a smaller order its tails would be lost with their
	 * compound_head set; at a larger one frames beyond it would go too.  Reported and kept out
	 * whole: the tails still point at the head, so nothing of it is handed out again. */
	if (PageHead(page) && folio_order((struct folio *)page) != order) {
		bad_page(page, "compound page freed at the wrong order");
		return false;
	}
	if (PageHWPoison(page) && !order) {
		/* An order-0 HWPoison frame is kept out quietly, marked as taken off, so
		 * unpoison_memory() can give it back (see the header). */
		page->flags &= ~PAGEFLAGS_MASK | (1UL << PG_hwpoison);
		SetPageHWPoisonTakenOff(page);
		return false;
	}
	if (PageTail(page)) {
		bad_page(page, "freeing a tail page");
		return false;
	}
	/* Blocks are aligned to their size; a misaligned free claims part of its neighbour, which
	 * the walk below would not find on a per-CPU list. */
	if (order && (page_to_pfn(page) & ((1UL << order) - 1))) {
		bad_page(page, "freeing a block not aligned to its order");
		return false;
	}
	/* Nor may it run past the end of its memory bank (a wrong-order free at the end of RAM):
	 * the frames checked below must be frames. */
	if (order && pfn_to_page(page_to_pfn(page) + (1UL << order) - 1) != page + (1UL << order) - 1) {
		bad_page(page, "freeing a block beyond the end of its memory");
		return false;
	}
	if (order)
		return free_pages_prepare_block(page, order);
	if (page_checks && !free_page_is_good(page))
		return false;
	page->flags &= ~PAGEFLAGS_MASK;
	return true;
}

/*
 * Every frame of a block just taken from the free lists must be
 * clean.  A PG_hwpoison frame is bad without a report (check_new_page_bad(): "don't
 * complain about hwpoisoned pages"): the block is kept out and the allocator takes another.
 * tinymm's free path never puts one on the lists; this is the second line (page checks on).
 */
bool check_new_pages(struct page *page, unsigned int order)
{
	bool good = true;

	for (unsigned long i = 0; i < (1UL << order); i++) {
		/* One test for a clean frame, HWPoison included; the cases apart only if not. */
		if (likely(page_expected_state(page + i, PAGEFLAGS_MASK)))
			continue;
		good = false;
		if (!PageHWPoison(page + i))
			bad_page(page + i, page_bad_reason(page + i, PAGE_FLAGS_CHECK_AT_PREP));
	}
	return good;
}
