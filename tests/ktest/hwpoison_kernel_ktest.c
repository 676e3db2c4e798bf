/*
 * hwpoison_kernel_ktest.c - the second half of the `hwpoison` KTAP suite (the case table and
 * the first half are in tests/ktest/hwpoison_ktest.c; tests/ktest/hwpoison_ktest.h says what
 * they share): frames memory_failure() leaves to their owner (a kernel page, a tail of a
 * high-order allocation, a large folio off the LRU, a slab page, reserved frames), a frame
 * already poisoned, unpoison, an invalid pfn, and the allocator's checks turned off.  Each case
 * checks the printed lines, the counters, and that no poisoned frame is handed out again.
 */
#include <stdarg.h>
#include <string.h>
#include "tinymm/completion.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/memory-failure.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"
#include "../../mm/internal.h"
#include "hwpoison_ktest.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

/*
 * A kernel page (neither LRU nor free): Linux's "unhandlable page.", then "unknown page",
 * Ignored; its owner keeps it.  When the owner frees it, the free path sets it aside.
 */
static void kernel_page(struct ktest *t)
{
	struct page *p = alloc_page(GFP_KERNEL);
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	EXPECT_LOGGED(t, "Memory failure: %#lx: unhandlable page.", pfn);
	EXPECT_LOGGED(t, "Memory failure: %#lx: kernel page: left to its owner, kept from the "
		      "allocator once freed", pfn);
	EXPECT_ACTION(t, pfn, "unknown page", "Ignored");
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 1);	/* the owner's: none taken */
	__free_page(p);					/* the owner lets go: set aside */
	KTEST_EXPECT_TRUE(t, PageHWPoisonTakenOff(p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 0);
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn));
}

/* The same, unpoisoned while the owner still has it: only the mark goes (tinymm; v6.10 would
 * drop a reference memory_failure() never took, freeing the owner's page). */
static void kernel_page_unpoisoned_in_use(struct ktest *t)
{
	struct page *p = alloc_page(GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p);
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	hw_unpoison(t, pfn);
	KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));
	__free_page(p);					/* an ordinary free */
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn));
}

/*
 * A tail of a non-compound order-2 block (refcount 0, not free): unhandlable, "unknown page",
 * Ignored.  Freed later: the other three frames go back, the poisoned one stays out.
 */
static void high_order_kernel_page_tail(struct ktest *t)
{
	struct page *p = alloc_pages(GFP_KERNEL, 2);
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, p);
	unsigned long head = page_to_pfn(p), pfn = head + 1;
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	EXPECT_LOGGED(t, "Memory failure: %#lx: unhandlable page.", pfn);
	EXPECT_ACTION(t, pfn, "unknown page", "Ignored");
	hw_expect_counted(t, &c, MF_IGNORED);
	drain_all_pages(NULL);
	unsigned long free0 = nr_free_pages_and_pcp();
	__free_pages(p, 2);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 + 3);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(head) && hw_pfn_is_free(head + 2) && hw_pfn_is_free(head + 3));
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));
	KTEST_EXPECT_TRUE(t, PageHWPoisonTakenOff(pfn_to_page(pfn)));
	KTEST_EXPECT_EQ(t, buddy_check(printk), 0);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn));
}

/*
 * A free block out with page reporting (isolated: refcount 0, on no list) when one of its frames
 * goes bad: memory_failure() waits a few ticks for it to come back, then leaves it ("unknown
 * page", Ignored).  The putback must not return the bad frame to the free lists: the other
 * frames go back, the bad one is set aside and never handed out; unpoison returns it.
 */
static void frame_of_block_out_for_reporting(struct ktest *t)
{
	unsigned long pfn = hw_free_pfn(), flags;
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, pfn);
	struct page *p = pfn_to_page(pfn);
	struct zone *z = page_zone(p);
	unsigned int order = 0;
	unsigned long head;

	spin_lock_irqsave(&z->lock, flags);
	for (order = 0; order <= MAX_PAGE_ORDER; order++) {	/* the free block holding it */
		head = pfn & ~((1UL << order) - 1);
		if (PageBuddy(pfn_to_page(head)) && buddy_order(pfn_to_page(head)) == order)
			break;
	}
	if (order <= MAX_PAGE_ORDER)
		__isolate_free_page(pfn_to_page(head), order);
	spin_unlock_irqrestore(&z->lock, flags);
	KTEST_ASSERT_TRUE(t, order <= MAX_PAGE_ORDER && order > 0);
	unsigned long free0 = nr_free_pages_and_pcp();
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	EXPECT_ACTION(t, pfn, "unknown page", "Ignored");
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p));
	spin_lock_irqsave(&z->lock, flags);
	__putback_isolated_page(pfn_to_page(head), order, false);
	spin_unlock_irqrestore(&z->lock, flags);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 + (1UL << order) - 1);
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(head == pfn ? pfn + 1 : head));
	KTEST_EXPECT_TRUE(t, PageHWPoisonTakenOff(p));
	KTEST_EXPECT_EQ(t, buddy_check(printk), 0);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn));
}

/*
 * A large folio (order 2, not on any LRU), the caller holding a reference (MF_COUNT_INCREASED):
 * PG_has_hwpoisoned, then the split v6.10 cannot do for such a folio: "unsplit thp", Ignored,
 * the caller's reference dropped.  Freed, it leaves the poisoned frame out.
 */
static void large_folio_unsplit_thp(struct ktest *t)
{
	struct folio *f = folio_alloc(GFP_KERNEL, 2);
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, f);
	unsigned long head = page_to_pfn(&f->page), pfn = head + 2;
	folio_get(f);					/* the caller's, handed over */
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED | MF_COUNT_INCREASED), -EBUSY);
	EXPECT_ACTION(t, pfn, "unsplit thp", "Ignored");
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_TRUE(t, folio_test_has_hwpoisoned(f));
	KTEST_EXPECT_TRUE(t, PageHWPoison(pfn_to_page(pfn)));
	KTEST_EXPECT_FALSE(t, PageHWPoison(&f->page));
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 1);
	/* Reported again: already poisoned, nothing more done. */
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EHWPOISON);
	drain_all_pages(NULL);
	unsigned long free0 = nr_free_pages_and_pcp();
	folio_put(f);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 + 3);
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(head) && hw_pfn_is_free(head + 3));
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
}

/* A slab page: unhandlable, Ignored; unpoison refuses it (as Linux, silently).  Linux's table has a
 * "kernel slab page" that nothing reports: a slab frame is an "unknown page" there too. */
static void slab_page(struct ktest *t)
{
	void *obj = kmalloc(256, GFP_KERNEL);
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, obj);
	struct page *p = virt_to_page(obj);
	unsigned long pfn = page_to_pfn(p);
	KTEST_ASSERT_TRUE(t, PageSlab(p));
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	EXPECT_LOGGED(t, "Memory failure: %#lx: unhandlable page.", pfn);
	EXPECT_LOGGED(t, "Memory failure: %#lx: slab page: left to its owner, kept from the "
		      "allocator once freed", pfn);
	EXPECT_ACTION(t, pfn, "unknown page", "Ignored");
	EXPECT_NOT_LOGGED(t, "Memory failure: %#lx: recovery action for kernel slab page: Ignored", pfn);
	KTEST_EXPECT_STREQ(t, mf_action_page_type_name(MF_MSG_SLAB), "kernel slab page");
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p) && PageSlab(p));
	KTEST_EXPECT_EQ(t, unpoison_memory(pfn), -EBUSY);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p));
	hw_never_handed_out(t, pfn);
	hw_unmark(pfn);
	kfree(obj);
}

/* A reserved frame (the kernel image's, the memmap's): unhandlable, Ignored. */
static struct page *hw_reserved_page(void)
{
	for (int b = 0; b < memmap_nr_banks(); b++) {
		const struct memmap_bank *bank = memmap_bank(b);
		for (unsigned long i = 0; i < bank->nr_pages; i++) {
			struct page *p = &bank->map[i];
			if (PageReserved(p) && !PageHWPoison(p) && page_ref_count(p) == 1 &&
			    !PageCompound(p))
				return p;
		}
	}
	return NULL;
}

static void reserved_page(struct ktest *t)
{
	struct page *p = hw_reserved_page();
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	EXPECT_LOGGED(t, "Memory failure: %#lx: unhandlable page.", pfn);
	EXPECT_LOGGED(t, "Memory failure: %#lx: reserved page: left to its owner, kept from the "
		      "allocator once freed", pfn);
	EXPECT_ACTION(t, pfn, "unknown page", "Ignored");
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p) && PageReserved(p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
	KTEST_EXPECT_EQ(t, unpoison_memory(pfn), -EBUSY);	/* refused */
	hw_never_handed_out(t, pfn);
	hw_unmark(pfn);
}

/* With the caller's reference (MF_COUNT_INCREASED) a reserved frame reaches the table: Linux's
 * me_kernel(), "reserved kernel page", Ignored; the reference stays. */
static void reserved_kernel_page_with_reference(struct ktest *t)
{
	struct page *p = hw_reserved_page();
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p);
	get_page(p);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED | MF_COUNT_INCREASED), -EBUSY);
	EXPECT_ACTION(t, pfn, "reserved kernel page", "Ignored");
	EXPECT_NOT_LOGGED(t, "Memory failure: %#lx: unhandlable page.", pfn);
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_EQ(t, page_ref_count(p), 2);
	KTEST_EXPECT_FALSE(t, PageLocked(p));
	hw_unmark(pfn);
	put_page(p);
}

/* Twice: the second is "already hardware poisoned", -EHWPOISON, nothing counted or changed. */
static void already_poisoned(struct ktest *t)
{
	unsigned long pfn = hw_free_pfn();
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, pfn);
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	hw_counts(&c);
	unsigned long free0 = nr_free_pages_and_pcp();
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EHWPOISON);
	EXPECT_LOGGED(t, "Memory failure: %#lx: already hardware poisoned", pfn);
	EXPECT_NOT_LOGGED(t, "Memory failure: %#lx: recovery action for free buddy page: Recovered", pfn);
	hw_expect_counted(t, &c, -1);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);
	KTEST_EXPECT_EQ(t, page_ref_count(pfn_to_page(pfn)), 1);
	hw_unpoison(t, pfn);
}

/* Unpoison gives the frame back: free again, allocatable, counted out; a second is refused. */
static void unpoison_returns_frame(struct ktest *t)
{
	unsigned long pfn = hw_free_pfn();
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, pfn);
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	hw_counts(&c);
	unsigned long free0 = nr_free_pages_and_pcp();
	hw_unpoison(t, pfn);
	KTEST_EXPECT_EQ(t, atomic_long_read(&num_poisoned_pages), c.poisoned - 1);
	struct memory_failure_stats st;
	memory_failure_get_stats(&st);
	KTEST_EXPECT_EQ(t, st.total, c.st.total);		/* the statistics only grow */
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 + 1);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn));
	KTEST_EXPECT_FALSE(t, PageHWPoisonTakenOff(pfn_to_page(pfn)));
	KTEST_EXPECT_EQ(t, buddy_check(printk), 0);
	hw_mark();
	KTEST_EXPECT_EQ(t, unpoison_memory(pfn), -EBUSY);
	EXPECT_LOGGED(t, "Unpoison: Page was already unpoisoned %#lx", pfn);
	/* And it is handed out again: take it from the buddy and use it. */
	KTEST_EXPECT_TRUE(t, take_page_off_buddy(pfn_to_page(pfn)));
	struct page *p = pfn_to_page(pfn);
	atomic_set(&p->_refcount, 1);
	memset(page_address(p), 0x5a, PAGE_SIZE);
	__free_page(p);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn));
}

/* No such frame (a hole, past memory): one line, -ENXIO, nothing counted. */
static void invalid_pfn(struct ktest *t)
{
	const struct memmap_bank *last = memmap_bank(memmap_nr_banks() - 1);
	unsigned long bad[] = { last->end_pfn, last->end_pfn + 123456, 0 };
	struct hw_counts c;

	hw_counts(&c);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		if (pfn_valid(bad[i]))
			continue;
		hw_mark();
		KTEST_EXPECT_EQ(t, memory_failure(bad[i], MF_SW_SIMULATED), -ENXIO);
		EXPECT_LOGGED(t, "Memory failure: %#lx: memory outside kernel control", bad[i]);
		KTEST_EXPECT_EQ(t, unpoison_memory(bad[i]), -ENXIO);
	}
	hw_expect_counted(t, &c, -1);
	KTEST_EXPECT_FALSE(t, memory_failure_hw_seen());
}

/* Page checks off (tinymm.check_pages=0): nothing at allocation catches a poisoned frame, so
 * the free path must have kept it out. */
static void check_pages_off_still_kept_out(struct ktest *t)
{
	bool checks = page_checks;
	struct page *p = alloc_pages(GFP_KERNEL, 3);

	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p) + 6;
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	page_checks = false;
	__free_pages(p, 3);
	hw_never_handed_out(t, pfn);
	page_checks = checks;
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));
	hw_unpoison(t, pfn);
}

HW_CASE(kernel_page, &hw_aops)
HW_CASE(kernel_page_unpoisoned_in_use, &hw_aops)
HW_CASE(high_order_kernel_page_tail, &hw_aops)
HW_CASE(frame_of_block_out_for_reporting, &hw_aops)
HW_CASE(large_folio_unsplit_thp, &hw_aops)
HW_CASE(slab_page, &hw_aops)
HW_CASE(reserved_page, &hw_aops)
HW_CASE(reserved_kernel_page_with_reference, &hw_aops)
HW_CASE(already_poisoned, &hw_aops)
HW_CASE(unpoison_returns_frame, &hw_aops)
HW_CASE(invalid_pfn, &hw_aops)
HW_CASE(check_pages_off_still_kept_out, &hw_aops)
