/*
 * hwpoison_ktest.c - mm/memory-failure.c and mm/hwpoison_actions.c (suite `hwpoison`, every
 * board, and on the host under ASan/UBSan in host scheduler threads through
 * tests/host/hwpoison_test.c), one case per page state of v6.10's table, over a fake disk whose
 * reads complete at once and fill each page with a pattern of its index (the "disk").  Each
 * case checks:
 *   - the printed lines (from the log ring, after a mark the case prints), Linux's words:
 *     "Memory failure: 0x<pfn>: recovery action for <state>: <result>" and the others;
 *   - the flags and the reference count afterwards, and the counters: num_poisoned_pages and
 *     the node's statistics move by one (total and the result's), or not at all;
 *   - for the page cache: the folio left the mapping (the next read fetches the disk's bytes
 *     again), the other folios still hold the disk's bytes, the LRU counters follow, a dirty
 *     folio's loss reaches the mapping's errseq exactly once;
 *   - that no poisoned frame is handed out by 100 000 later allocations of mixed orders
 *     (hw_never_handed_out: every frame of every block is looked at), and that it is on no
 *     free list;
 * and undoes what it did (unpoison, or by hand where Linux refuses), so the machine stays
 * whole for the suites after it: teardown checks num_poisoned_pages is back, the mapping empty
 * and the LRU consistent.  No case injects a "hardware" error: that would turn unpoison off for
 * the rest of the boot (as in Linux); the QEMU test tests/qemu/hwpoison.cmake does that in a
 * boot of its own.
 *
 * This file holds the page-cache and buddy cases and the case table; the fake disk, setup,
 * teardown and the helpers are in hwpoison_fixture.c (see hwpoison_ktest.h for the other parts).
 */
#include <stdarg.h>
#include <string.h>
#include "tinymm/completion.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/mlock.h"
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

/* ---- the cases ---- */

/* A frame in a free block: taken off the buddy (the block split around it), Recovered. */
static void free_buddy_page(struct ktest *t)
{
	unsigned long pfn = hw_free_pfn(), free0;
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, pfn);
	KTEST_ASSERT_TRUE(t, hw_pfn_is_free(pfn));
	free0 = nr_free_pages_and_pcp();
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	EXPECT_ACTION(t, pfn, "free buddy page", "Recovered");
	hw_expect_counted(t, &c, MF_RECOVERED);
	struct page *p = pfn_to_page(pfn);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p) && PageHWPoisonTakenOff(p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 1);		/* memory_failure()'s, forever */
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn - 1) && hw_pfn_is_free(pfn + 1));	/* split around it */
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 - 1);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 0);
}

/* A frame on a per-CPU list: drained to the buddy first, then as above. */
static void pcp_list_page(struct ktest *t)
{
	struct page *p = alloc_page(GFP_KERNEL);
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p);
	__free_page(p);
	KTEST_ASSERT_TRUE(t, hw_on_pcp(p));
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	EXPECT_ACTION(t, pfn, "free buddy page", "Recovered");
	hw_expect_counted(t, &c, MF_RECOVERED);
	KTEST_EXPECT_FALSE(t, hw_on_pcp(p));
	KTEST_EXPECT_TRUE(t, PageHWPoisonTakenOff(p));
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(pfn));
}

/* A clean cache folio: out of the LRU and the mapping; the next read refetches it. */
static void clean_lru_page(struct ktest *t)
{
	unsigned long files = global_node_page_state(NR_FILE_PAGES);
	unsigned long inactive = node_lruvec.nr_pages[LRU_INACTIVE_FILE];
	struct hw_counts c;

	hw_populate(t, 0, 4);
	struct folio *f = filemap_get_folio(&hw_mapping, 2);
	KTEST_ASSERT_TRUE(t, !IS_ERR_OR_NULL(f));
	folio_put(f);					/* the cache's is enough */
	unsigned long pfn = page_to_pfn(&f->page), reads = hw_reads;
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	EXPECT_ACTION(t, pfn, "clean LRU page", "Recovered");
	EXPECT_NOT_LOGGED(t, "Memory failure: %#lx: dirty data lost: hwp0 offset 8192 length 4096", pfn);
	hw_expect_counted(t, &c, MF_RECOVERED);
	hw_expect_cache_frame_isolated(t, f);
	KTEST_EXPECT_FALSE(t, hw_cached(2));
	KTEST_EXPECT_EQ(t, hw_mapping.nrpages, 4UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), files + 4);
	KTEST_EXPECT_EQ(t, node_lruvec.nr_pages[LRU_INACTIVE_FILE], inactive + 4);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	for (pgoff_t i = 0; i <= 4; i++)		/* the others intact, 2 read again */
		KTEST_EXPECT_EQ(t, hw_bytes_wrong(i), 0);
	KTEST_EXPECT_EQ(t, hw_reads, reads + 1);
	struct folio *again = filemap_get_folio(&hw_mapping, 2);
	KTEST_EXPECT_TRUE(t, !IS_ERR(again) && again != f);	/* a new frame */
	if (!IS_ERR(again))
		folio_put(again);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 0);	/* freed */
}

/* A dirty cache folio: removed, its loss named, -EIO to the next fsync exactly once. */
static void dirty_lru_page(struct ktest *t)
{
	unsigned long dirty = global_node_page_state(NR_FILE_DIRTY);
	errseq_t cursor = errseq_sample(&hw_mapping.wb_err);
	struct hw_counts c;

	hw_populate(t, 0, 7);
	struct folio *f = filemap_get_folio(&hw_mapping, 5);
	KTEST_ASSERT_TRUE(t, !IS_ERR_OR_NULL(f));
	hw_dirty(f, 0xd1);
	folio_put(f);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty + 1);
	unsigned long pfn = page_to_pfn(&f->page);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	EXPECT_LOGGED(t, "Memory failure: %#lx: dirty data lost: hwp0 offset %lu length %lu", pfn,
		      5 * PAGE_SIZE, PAGE_SIZE);
	EXPECT_ACTION(t, pfn, "dirty LRU page", "Recovered");
	hw_expect_counted(t, &c, MF_RECOVERED);
	hw_expect_cache_frame_isolated(t, f);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty);
	/* errseq: the error once, then nothing (Linux's file_check_and_advance_wb_err). */
	KTEST_EXPECT_EQ(t, errseq_check_and_advance(&hw_mapping.wb_err, &cursor), -EIO);
	KTEST_EXPECT_EQ(t, errseq_check_and_advance(&hw_mapping.wb_err, &cursor), 0);
	KTEST_EXPECT_EQ(t, file_check_and_advance_wb_err(&hw_mapping, &cursor), 0);
	KTEST_EXPECT_EQ(t, hw_bytes_wrong(5), 0);	/* the disk's bytes: the written ones are lost */
	for (pgoff_t i = 0; i <= 7; i++)
		KTEST_EXPECT_EQ(t, hw_bytes_wrong(i), 0);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
}

/*
 * v6.10's block devices have no error_remove_folio: a dirty folio cannot be invalidated, so it
 * stays cached (off the LRU, poisoned): "Failed to invalidate", Failed; the error is recorded
 * all the same, and nothing is said lost.  (tinymm's disks punch it out: dirty_lru_page.)
 */
static void dirty_lru_page_without_error_remove_folio(struct ktest *t)
{
	errseq_t cursor = errseq_sample(&hw_mapping.wb_err);
	struct hw_counts c;

	hw_populate(t, 0, 2);
	struct folio *f = filemap_get_folio(&hw_mapping, 1);
	KTEST_ASSERT_TRUE(t, !IS_ERR_OR_NULL(f));
	hw_dirty(f, 0xd2);
	folio_put(f);
	unsigned long pfn = page_to_pfn(&f->page);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	EXPECT_LOGGED(t, "Memory failure: %#lx: Failed to invalidate", pfn);
	EXPECT_ACTION(t, pfn, "dirty LRU page", "Failed");
	EXPECT_NOT_LOGGED(t, "Memory failure: %#lx: dirty data lost: hwp0 offset 4096 length 4096", pfn);
	hw_expect_counted(t, &c, MF_FAILED);
	KTEST_EXPECT_TRUE(t, hw_cached(1));
	KTEST_EXPECT_FALSE(t, folio_test_lru(f));
	KTEST_EXPECT_TRUE(t, folio_test_dirty(f));
	KTEST_EXPECT_EQ(t, errseq_check_and_advance(&hw_mapping.wb_err, &cursor), -EIO);
	hw_never_handed_out(t, pfn);
	truncate_inode_pages(&hw_mapping, 0);		/* out, so unpoison can free it */
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 1);
	hw_unpoison(t, pfn);
}

struct hw_wb_end {
	struct timer_list timer;
	struct folio *folio;
	volatile bool ended;
};

/* The I/O completion, in interrupt context. */
static void hw_end_writeback_fn(struct timer_list *timer)
{
	struct hw_wb_end *e = from_timer(e, timer, timer);

	folio_end_writeback(e->folio);
	e->ended = true;
}

/* Under writeback: memory_failure() waits for it (Linux: folio_wait_writeback), then clean. */
static void writeback_page_waited_for(struct ktest *t)
{
	unsigned long wb = global_node_page_state(NR_WRITEBACK);
	struct hw_wb_end e = { .folio = NULL, .ended = false };
	struct hw_counts c;

	hw_populate(t, 0, 3);
	e.folio = filemap_get_folio(&hw_mapping, 3);
	KTEST_ASSERT_TRUE(t, !IS_ERR_OR_NULL(e.folio));
	hw_dirty(e.folio, 0xd3);
	folio_lock(e.folio);				/* as write_cache_pages starts it */
	folio_clear_dirty_for_io(e.folio);
	folio_start_writeback(e.folio);
	folio_unlock(e.folio);
	folio_put(e.folio);
	unsigned long pfn = page_to_pfn(&e.folio->page), armed = jiffies + 5;
	timer_setup(&e.timer, hw_end_writeback_fn, 0);
	mod_timer(&e.timer, armed);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	KTEST_EXPECT_TRUE(t, e.ended);			/* it waited */
	KTEST_EXPECT_TRUE(t, time_after_eq(jiffies, armed));
	EXPECT_ACTION(t, pfn, "clean LRU page", "Recovered");
	hw_expect_counted(t, &c, MF_RECOVERED);
	hw_expect_cache_frame_isolated(t, e.folio);
	KTEST_EXPECT_FALSE(t, folio_test_writeback(e.folio));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), wb);
	for (int i = 0; i < 1000 && !e.ended; i++)
		msleep(1);
	del_timer_sync(&e.timer);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
}

struct hw_holder {
	struct folio *folio;
	struct completion locked;
	volatile bool released;
};

/* Another thread's folio lock (a reader in the middle of its I/O), held across a sleep. */
static int hw_holder_fn(void *arg)
{
	struct hw_holder *h = arg;

	folio_lock(h->folio);
	complete(&h->locked);
	msleep(5);
	h->released = true;
	folio_unlock(h->folio);
	return 0;
}

/* Locked by someone else: memory_failure() sleeps on the folio lock (as in Linux), then acts. */
static void locked_page_waited_for(struct ktest *t)
{
	struct hw_holder h = { .folio = NULL, .released = false };
	struct hw_counts c;

	hw_populate(t, 0, 3);
	h.folio = filemap_get_folio(&hw_mapping, 1);
	KTEST_ASSERT_TRUE(t, !IS_ERR_OR_NULL(h.folio));
	folio_put(h.folio);
	unsigned long pfn = page_to_pfn(&h.folio->page);
	init_completion(&h.locked);
	struct task_struct *th = kthread_create_opts(hw_holder_fn, &h, "hw-holder", DEFAULT_PRIO, 2);
	KTEST_ASSERT_TRUE(t, th != NULL);
	wake_up_process(th);
	wait_for_completion(&h.locked);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	KTEST_EXPECT_TRUE(t, h.released);		/* it waited */
	EXPECT_ACTION(t, pfn, "clean LRU page", "Recovered");
	hw_expect_counted(t, &c, MF_RECOVERED);
	hw_expect_cache_frame_isolated(t, h.folio);
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);
	for (pgoff_t i = 0; i <= 3; i++)
		KTEST_EXPECT_EQ(t, hw_bytes_wrong(i), 0);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
}

/* An unevictable mapping's folio: off the unevictable list, Unevictable counts it out. */
static void unevictable_page(struct ktest *t)
{
	unsigned long unevictable = global_node_page_state(NR_UNEVICTABLE);
	struct hw_counts c;

	mapping_set_unevictable(&hw_mapping);
	hw_populate(t, 0, 3);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), unevictable + 4);
	struct folio *f = filemap_get_folio(&hw_mapping, 0);
	KTEST_ASSERT_TRUE(t, !IS_ERR_OR_NULL(f));
	folio_put(f);
	KTEST_EXPECT_TRUE(t, folio_test_unevictable(f) && folio_test_lru(f));
	unsigned long pfn = page_to_pfn(&f->page);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	EXPECT_ACTION(t, pfn, "clean unevictable LRU page", "Recovered");
	hw_expect_counted(t, &c, MF_RECOVERED);
	hw_expect_cache_frame_isolated(t, f);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), unevictable + 3);
	KTEST_EXPECT_EQ(t, node_lruvec.nr_pages[LRU_UNEVICTABLE], hw_lru_base[LRU_UNEVICTABLE] + 3);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
	mapping_clear_unevictable(&hw_mapping);
}

/* PG_mlocked (mlock_folio, as a VM_LOCKED area's fault would): Linux's "clean mlocked LRU page". */
static void mlocked_page(struct ktest *t)
{
	struct hw_counts c;
	struct folio *f = read_cache_folio(&hw_mapping, 4);

	KTEST_ASSERT_TRUE(t, !IS_ERR(f));
	mlock_folio(f);				/* counted in Mlocked; the drain: unevictable list */
	lru_add_drain();
	folio_put(f);
	KTEST_EXPECT_TRUE(t, folio_test_unevictable(f) && folio_test_lru(f));
	unsigned long pfn = page_to_pfn(&f->page);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	EXPECT_ACTION(t, pfn, "clean mlocked LRU page", "Recovered");
	hw_expect_counted(t, &c, MF_RECOVERED);
	KTEST_EXPECT_FALSE(t, folio_test_lru(f) || folio_test_unevictable(f));
	hw_unpoison(t, pfn);			/* the last put clears PG_mlocked quietly */
}

/* On the LRU but out of its mapping (truncated while someone held it): Ignored, left as is.
 * A filesystem's PG_checked left on it is the swapcache bit, but without PG_swapbacked the folio
 * is not in the swap cache (Linux's folio_test_swapcache()), so it is still "truncated". */
static void already_truncated_lru_page(struct ktest *t)
{
	struct hw_counts c;

	hw_populate(t, 0, 2);
	struct folio *f = filemap_get_folio(&hw_mapping, 2);
	KTEST_ASSERT_TRUE(t, !IS_ERR_OR_NULL(f));
	truncate_inode_pages(&hw_mapping, 2 * PAGE_SIZE);	/* our reference keeps it listed */
	KTEST_ASSERT_TRUE(t, f->mapping == NULL && folio_test_lru(f));
	folio_set_checked(f);
	unsigned long pfn = page_to_pfn(&f->page);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	EXPECT_ACTION(t, pfn, "already truncated LRU page", "Ignored");
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_TRUE(t, PageHWPoison(&f->page) && folio_test_lru(f));
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 2);	/* ours and memory_failure()'s */
	folio_put(f);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);			/* the last put takes it off the LRU */
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 0);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
}

/* Someone else still holds the folio: removed all the same, but Failed (has_extra_refcount). */
static void still_referenced_page(struct ktest *t)
{
	struct hw_counts c;

	hw_populate(t, 0, 1);
	struct folio *f = filemap_get_folio(&hw_mapping, 1);
	KTEST_ASSERT_TRUE(t, !IS_ERR_OR_NULL(f));
	unsigned long pfn = page_to_pfn(&f->page);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	EXPECT_LOGGED(t, "Memory failure: %#lx: clean LRU page still referenced by 1 users", pfn);
	EXPECT_ACTION(t, pfn, "clean LRU page", "Failed");
	hw_expect_counted(t, &c, MF_FAILED);
	KTEST_EXPECT_FALSE(t, hw_cached(1));
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 2);
	hw_mark();
	KTEST_EXPECT_EQ(t, unpoison_memory(pfn), -EBUSY);	/* while we hold it */
	EXPECT_LOGGED(t, "Unpoison: Someone grabs the hwpoison page %#lx", pfn);
	folio_put(f);
	hw_never_handed_out(t, pfn);
	hw_unpoison(t, pfn);
}

HW_CASE(free_buddy_page, &hw_aops)
HW_CASE(pcp_list_page, &hw_aops)
HW_CASE(clean_lru_page, &hw_aops)
HW_CASE(dirty_lru_page, &hw_aops)
HW_CASE(dirty_lru_page_without_error_remove_folio, &hw_aops_noremove)
HW_CASE(writeback_page_waited_for, &hw_aops)
HW_CASE(locked_page_waited_for, &hw_aops)
HW_CASE(unevictable_page, &hw_aops)
HW_CASE(mlocked_page, &hw_aops)
HW_CASE(already_truncated_lru_page, &hw_aops)
HW_CASE(still_referenced_page, &hw_aops)


static const struct ktest_case hwpoison_cases[] = {
	{ "free_buddy_page", free_buddy_page_case },
	{ "pcp_list_page", pcp_list_page_case },
	{ "clean_lru_page", clean_lru_page_case },
	{ "dirty_lru_page", dirty_lru_page_case },
	{ "dirty_lru_page_without_error_remove_folio", dirty_lru_page_without_error_remove_folio_case },
	{ "writeback_page_waited_for", writeback_page_waited_for_case },
	{ "locked_page_waited_for", locked_page_waited_for_case },
	{ "unevictable_page", unevictable_page_case },
	{ "mlocked_page", mlocked_page_case },
	{ "already_truncated_lru_page", already_truncated_lru_page_case },
	{ "still_referenced_page", still_referenced_page_case },
	{ "became_large_before_the_lock", became_large_before_the_lock_case },
	{ "different_compound_after_locking", different_compound_after_locking_case },
	{ "kernel_page", kernel_page_case },
	{ "kernel_page_unpoisoned_in_use", kernel_page_unpoisoned_in_use_case },
	{ "high_order_kernel_page_tail", high_order_kernel_page_tail_case },
	{ "frame_of_block_out_for_reporting", frame_of_block_out_for_reporting_case },
	{ "large_folio_unsplit_thp", large_folio_unsplit_thp_case },
	{ "slab_page", slab_page_case },
	{ "reserved_page", reserved_page_case },
	{ "reserved_kernel_page_with_reference", reserved_kernel_page_with_reference_case },
	{ "already_poisoned", already_poisoned_case },
	{ "unpoison_returns_frame", unpoison_returns_frame_case },
	{ "invalid_pfn", invalid_pfn_case },
	{ "check_pages_off_still_kept_out", check_pages_off_still_kept_out_case },
	{}
};
KTEST_SUITE(hwpoison, hwpoison_cases);
