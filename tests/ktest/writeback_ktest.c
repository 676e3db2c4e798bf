/*
 * writeback_ktest.c - mm/page-writeback.c, mm/fs-writeback.c's writeback_single_inode and
 * lib/errseq.c (suite `writeback`, every board, and on the host under ASan/UBSan through
 * tests/host/writeback_test.c) over a fake "disk" whose writepages records what it was given and
 * ends writeback at once, or later when a case holds the completions back to look at the
 * in-flight state.  Nothing sleeps: WB_SYNC_ALL is only run with no writeback in flight.
 *
 * errseq by hand from v6.10's lib/errseq.c (MAX_ERRNO 4095 = 0xfff, SEEN 0x1000, counter step
 * 0x2000), starting from 0:
 *   set(-EIO)            (0 & ~0x1fff) | 5                      = 0x0005 (not seen: no step)
 *   check_and_advance    0x0005 | SEEN                           = 0x1005, reports -5
 *   set(-EIO)            seen, so (0x1005 & ~0x1fff) | 5 + 0x2000 = 0x2005
 *   set(-ENOSPC) unseen  (0x2005 & ~0x1fff) | 28                  = 0x201c (no step)
 *   set(-ENOSPC) again   the same value: unchanged                = 0x201c
 *   check_and_advance    0x201c | SEEN                           = 0x301c, reports -28
 *   counter wrap         0xfffff005 seen, set(-EIO): 0xffffe005 + 0x2000 = 0x00000005 (32 bits)
 */
#include <limits.h>
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/errseq.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"

#define WB_DISK_PAGES	64

static struct address_space wb_mapping;
static pgoff_t written[256];		/* indices handed to writepage, in order */
static int nr_written;
static bool hold_completions;		/* keep folios under writeback until complete_held() */
static struct folio *held[256];
static int nr_held;
static pgoff_t fail_index = ~0UL;	/* the write of this folio fails with -EIO */
static unsigned long dirty_before, writeback_before;

static void wb_complete(struct folio *folio)
{
	if (folio->index == fail_index)
		mapping_set_error(folio->mapping, -EIO);
	folio_end_writeback(folio);
}

static int fake_writepage(struct folio *folio, struct writeback_control *wbc, void *data)
{
	(void)wbc;
	(void)data;
	written[nr_written++] = folio->index;
	folio_start_writeback(folio);
	folio_unlock(folio);
	if (hold_completions)
		held[nr_held++] = folio;
	else
		wb_complete(folio);
	return 0;
}

static void complete_held(void)
{
	for (int i = 0; i < nr_held; i++)
		wb_complete(held[i]);
	nr_held = 0;
}

static int fake_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	return write_cache_pages(mapping, wbc, fake_writepage, NULL);
}

static int fake_read_folio(struct address_space *m, struct folio *folio)
{
	(void)m;
	memset(page_address(&folio->page), 0, PAGE_SIZE);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static const struct address_space_operations wb_fake_aops = {
	.read_folio = fake_read_folio,
	.writepages = fake_writepages,
};

static void wb_setup(void)
{
	address_space_init(&wb_mapping, &wb_fake_aops, (loff_t)WB_DISK_PAGES * PAGE_SIZE);
	nr_written = nr_held = 0;
	hold_completions = false;
	fail_index = ~0UL;
	dirty_before = global_node_page_state(NR_FILE_DIRTY);
	writeback_before = global_node_page_state(NR_WRITEBACK);
}

/* Make folio @index (uptodate) and dirty it as a writer does: locked. */
static void dirty_page(struct ktest *t, pgoff_t index)
{
	struct folio *folio = __filemap_get_folio(&wb_mapping, index, FGP_LOCK | FGP_CREAT, GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, !IS_ERR(folio));
	if (!folio_test_uptodate(folio))
		folio_mark_uptodate(folio);
	folio_mark_dirty(folio);
	folio_unlock(folio);
	folio_put(folio);
}

static bool tagged(pgoff_t index, xa_mark_t mark)
{
	return xa_get_mark(&wb_mapping.i_pages, index, mark);
}

static struct folio *peek(pgoff_t index)
{
	struct folio *folio = filemap_get_folio(&wb_mapping, index);

	if (IS_ERR(folio))
		return NULL;
	folio_put(folio);		/* the cache's reference keeps it */
	return folio;
}

/* Every case ends here: nothing in flight, dirty dropped, the mapping empty, counters back. */
static void wb_teardown(struct ktest *t)
{
	unsigned long index;
	void *entry;

	complete_held();
	xa_for_each(&wb_mapping.i_pages, index, entry) {
		struct folio *folio = entry;
		folio_lock(folio);
		folio_clear_dirty_for_io(folio);
		folio_unlock(folio);
	}
	invalidate_mapping_pages(&wb_mapping, 0, ~0UL);
	inode_io_list_del(&wb_mapping);
	KTEST_EXPECT_EQ(t, wb_mapping.nrpages, 0UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty_before);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), writeback_before);
}

/* folio_mark_dirty: PG_dirty, the DIRTY tag, NR_FILE_DIRTY once, the mapping dirty and aged. */
static void mark_dirty_tags_and_counts(struct ktest *t)
{
	unsigned long before = jiffies;

	dirty_page(t, 3);
	struct folio *folio = peek(3);
	KTEST_ASSERT_TRUE(t, folio != NULL);
	KTEST_EXPECT_TRUE(t, folio_test_dirty(folio));
	KTEST_EXPECT_TRUE(t, tagged(3, PAGECACHE_TAG_DIRTY));
	KTEST_EXPECT_FALSE(t, tagged(3, PAGECACHE_TAG_WRITEBACK));
	KTEST_EXPECT_TRUE(t, mapping_tagged(&wb_mapping, PAGECACHE_TAG_DIRTY));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty_before + 1);
	KTEST_EXPECT_TRUE(t, wb_mapping.i_state & I_DIRTY_PAGES);
	KTEST_EXPECT_FALSE(t, time_before(wb_mapping.dirtied_when, before));
	unsigned long when = wb_mapping.dirtied_when;
	folio_lock(folio);
	KTEST_EXPECT_FALSE(t, folio_mark_dirty(folio));		/* already dirty: nothing changes */
	folio_unlock(folio);
	dirty_page(t, 4);					/* the mapping's age is its first dirtying */
	KTEST_EXPECT_EQ(t, wb_mapping.dirtied_when, when);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty_before + 2);
}

/* Dirty -> Writeback -> clean, with the tags and counters at each step. */
static void writeback_moves_tags_and_counters(struct ktest *t)
{
	dirty_page(t, 5);
	dirty_page(t, 0);
	dirty_page(t, 1);
	hold_completions = true;
	KTEST_EXPECT_EQ(t, filemap_fdatawrite_range(&wb_mapping, 0, LLONG_MAX), 0);
	KTEST_EXPECT_EQ(t, nr_written, 3);
	KTEST_EXPECT_EQ(t, written[0], 0);			/* index order */
	KTEST_EXPECT_EQ(t, written[1], 1);
	KTEST_EXPECT_EQ(t, written[2], 5);
	for (int i = 0; i < 3; i++) {
		struct folio *folio = peek(written[i]);
		KTEST_EXPECT_FALSE(t, folio_test_dirty(folio));
		KTEST_EXPECT_TRUE(t, folio_test_writeback(folio));
		KTEST_EXPECT_FALSE(t, folio_test_locked(folio));
		KTEST_EXPECT_TRUE(t, tagged(written[i], PAGECACHE_TAG_WRITEBACK));
		KTEST_EXPECT_FALSE(t, tagged(written[i], PAGECACHE_TAG_DIRTY));
		KTEST_EXPECT_FALSE(t, tagged(written[i], PAGECACHE_TAG_TOWRITE));
	}
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty_before);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), writeback_before + 3);
	KTEST_EXPECT_TRUE(t, mapping_tagged(&wb_mapping, PAGECACHE_TAG_WRITEBACK));
	complete_held();
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), writeback_before);
	KTEST_EXPECT_FALSE(t, mapping_tagged(&wb_mapping, PAGECACHE_TAG_WRITEBACK));
	KTEST_EXPECT_FALSE(t, mapping_tagged(&wb_mapping, PAGECACHE_TAG_DIRTY));
	KTEST_EXPECT_FALSE(t, folio_test_writeback(peek(5)));
	/* Clean: the flusher's bookkeeping drops the mapping. */
	struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = LONG_MAX, .range_cyclic = 1 };
	KTEST_EXPECT_EQ(t, writeback_single_inode(&wb_mapping, &wbc), 0);
	KTEST_EXPECT_FALSE(t, wb_mapping.i_state & I_DIRTY_PAGES);
}

/* Redirtied while under writeback: both tags; WB_SYNC_NONE skips it until the write ends. */
static void redirty_during_writeback(struct ktest *t)
{
	dirty_page(t, 7);
	hold_completions = true;
	struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = LONG_MAX, .range_cyclic = 1 };
	do_writepages(&wb_mapping, &wbc);
	KTEST_EXPECT_EQ(t, nr_written, 1);
	dirty_page(t, 7);
	KTEST_EXPECT_TRUE(t, tagged(7, PAGECACHE_TAG_DIRTY));
	KTEST_EXPECT_TRUE(t, tagged(7, PAGECACHE_TAG_WRITEBACK));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty_before + 1);
	wbc = (struct writeback_control){ .sync_mode = WB_SYNC_NONE, .nr_to_write = LONG_MAX, .range_cyclic = 1 };
	/* still in flight: the writeback is skipped, the folio stays dirty */
	KTEST_EXPECT_EQ(t, writeback_single_inode(&wb_mapping, &wbc), 0);
	KTEST_EXPECT_EQ(t, nr_written, 1);
	KTEST_EXPECT_TRUE(t, wb_mapping.i_state & I_DIRTY_PAGES);	/* still dirty: kept */
	complete_held();
	KTEST_EXPECT_TRUE(t, folio_test_dirty(peek(7)));
	hold_completions = false;
	wbc = (struct writeback_control){ .sync_mode = WB_SYNC_NONE, .nr_to_write = LONG_MAX, .range_cyclic = 1 };
	KTEST_EXPECT_EQ(t, writeback_single_inode(&wb_mapping, &wbc), 1);
	KTEST_EXPECT_EQ(t, nr_written, 2);
	KTEST_EXPECT_FALSE(t, folio_test_dirty(peek(7)));
	KTEST_EXPECT_FALSE(t, wb_mapping.i_state & I_DIRTY_PAGES);
}

/* WB_SYNC_ALL tags first: TOWRITE on exactly the dirty folios of the range. */
static void towrite_tags_the_dirty_range(struct ktest *t)
{
	for (pgoff_t i = 10; i < 20; i += 2)
		dirty_page(t, i);
	struct folio *folio = __filemap_get_folio(&wb_mapping, 15, FGP_CREAT, GFP_KERNEL);
	folio_put(folio);					/* a clean folio in between */
	tag_pages_for_writeback(&wb_mapping, 12, 16);
	KTEST_EXPECT_FALSE(t, tagged(10, PAGECACHE_TAG_TOWRITE));
	KTEST_EXPECT_TRUE(t, tagged(12, PAGECACHE_TAG_TOWRITE));
	KTEST_EXPECT_TRUE(t, tagged(14, PAGECACHE_TAG_TOWRITE));
	KTEST_EXPECT_FALSE(t, tagged(15, PAGECACHE_TAG_TOWRITE));
	KTEST_EXPECT_TRUE(t, tagged(16, PAGECACHE_TAG_TOWRITE));
	KTEST_EXPECT_FALSE(t, tagged(18, PAGECACHE_TAG_TOWRITE));
	/* An integrity pass over [12, 16] writes exactly those and clears their TOWRITE. */
	KTEST_EXPECT_EQ(t, filemap_write_and_wait_range(&wb_mapping, 12 * PAGE_SIZE,
							  17 * PAGE_SIZE - 1), 0);
	KTEST_EXPECT_EQ(t, nr_written, 3);
	KTEST_EXPECT_EQ(t, written[0], 12);
	KTEST_EXPECT_EQ(t, written[2], 16);
	KTEST_EXPECT_FALSE(t, mapping_tagged(&wb_mapping, PAGECACHE_TAG_TOWRITE));
	KTEST_EXPECT_TRUE(t, folio_test_dirty(peek(10)));
	KTEST_EXPECT_TRUE(t, folio_test_dirty(peek(18)));
}

/* WB_SYNC_NONE stops after nr_to_write; range_cyclic resumes there and wraps to 0 at the end. */
static void nr_to_write_and_cyclic_resume(struct ktest *t)
{
	for (pgoff_t i = 30; i < 35; i++)
		dirty_page(t, i);
	struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = 2, .range_cyclic = 1 };
	do_writepages(&wb_mapping, &wbc);
	KTEST_EXPECT_EQ(t, nr_written, 2);
	KTEST_EXPECT_EQ(t, wb_mapping.writeback_index, 32);
	dirty_page(t, 30);					/* behind the resume point */
	wbc = (struct writeback_control){ .sync_mode = WB_SYNC_NONE, .nr_to_write = 2, .range_cyclic = 1 };
	do_writepages(&wb_mapping, &wbc);
	KTEST_EXPECT_EQ(t, nr_written, 4);
	KTEST_EXPECT_EQ(t, written[2], 32);
	KTEST_EXPECT_EQ(t, written[3], 33);
	wbc = (struct writeback_control){ .sync_mode = WB_SYNC_NONE, .nr_to_write = 10, .range_cyclic = 1 };
	do_writepages(&wb_mapping, &wbc);
	KTEST_EXPECT_EQ(t, nr_written, 5);			/* 34, then the end: no wrap */
	KTEST_EXPECT_EQ(t, written[4], 34);
	KTEST_EXPECT_EQ(t, wb_mapping.writeback_index, 0);
	KTEST_EXPECT_EQ(t, wbc.nr_to_write, 9);
	wbc = (struct writeback_control){ .sync_mode = WB_SYNC_NONE, .nr_to_write = 10, .range_cyclic = 1 };
	do_writepages(&wb_mapping, &wbc);
	KTEST_EXPECT_EQ(t, nr_written, 6);
	KTEST_EXPECT_EQ(t, written[5], 30);
}

/* A failed write: the folio is clean, uptodate and not under writeback (Linux's block path);
 * the legacy flag tells the first checker, the errseq every cursor once. */
static void write_error_reported_once_per_cursor(struct ktest *t)
{
	errseq_t before = errseq_sample(&wb_mapping.wb_err), other = before;

	KTEST_EXPECT_EQ(t, before, 0);
	dirty_page(t, 2);
	dirty_page(t, 3);
	fail_index = 3;
	KTEST_EXPECT_EQ(t, filemap_write_and_wait_range(&wb_mapping, 0, LLONG_MAX), -EIO);
	KTEST_EXPECT_EQ(t, filemap_write_and_wait_range(&wb_mapping, 0, LLONG_MAX), 0);
	struct folio *folio = peek(3);
	KTEST_EXPECT_FALSE(t, folio_test_dirty(folio));
	KTEST_EXPECT_TRUE(t, folio_test_uptodate(folio));
	KTEST_EXPECT_FALSE(t, folio_test_writeback(folio));
	KTEST_EXPECT_EQ(t, wb_mapping.wb_err, 0x0005);		/* by hand: not seen yet */
	errseq_t late = errseq_sample(&wb_mapping.wb_err);
	KTEST_EXPECT_EQ(t, late, 0);				/* unseen: a new opener is told too */
	KTEST_EXPECT_EQ(t, file_check_and_advance_wb_err(&wb_mapping, &before), -EIO);
	KTEST_EXPECT_EQ(t, wb_mapping.wb_err, 0x1005);
	KTEST_EXPECT_EQ(t, before, 0x1005);
	KTEST_EXPECT_EQ(t, file_check_and_advance_wb_err(&wb_mapping, &before), 0);
	KTEST_EXPECT_EQ(t, file_check_and_advance_wb_err(&wb_mapping, &other), -EIO);
	KTEST_EXPECT_EQ(t, file_check_and_advance_wb_err(&wb_mapping, &other), 0);
	KTEST_EXPECT_EQ(t, errseq_sample(&wb_mapping.wb_err), 0x1005);	/* seen: not for new ones */
	/* A second failure is news to every cursor again. */
	dirty_page(t, 3);
	KTEST_EXPECT_EQ(t, filemap_fdatawrite_range(&wb_mapping, 0, LLONG_MAX), 0);
	KTEST_EXPECT_EQ(t, wb_mapping.wb_err, 0x2005);
	KTEST_EXPECT_EQ(t, file_check_and_advance_wb_err(&wb_mapping, &before), -EIO);
	KTEST_EXPECT_EQ(t, file_check_and_advance_wb_err(&wb_mapping, &before), 0);
}

/* lib/errseq.c's arithmetic against the values in the header, by hand. */
static void errseq_arithmetic(struct ktest *t)
{
	errseq_t e = 0, since = errseq_sample(&e);

	KTEST_EXPECT_EQ(t, errseq_set(&e, -EIO), 0);		/* returns the previous value */
	KTEST_EXPECT_EQ(t, e, 0x0005);
	KTEST_EXPECT_EQ(t, errseq_check(&e, since), -EIO);
	KTEST_EXPECT_EQ(t, errseq_check_and_advance(&e, &since), -EIO);
	KTEST_EXPECT_EQ(t, e, 0x1005);
	KTEST_EXPECT_EQ(t, errseq_check(&e, since), 0);
	KTEST_EXPECT_EQ(t, errseq_set(&e, -EIO), 0x1005);
	KTEST_EXPECT_EQ(t, e, 0x2005);
	errseq_set(&e, -ENOSPC);
	KTEST_EXPECT_EQ(t, e, 0x201c);
	errseq_set(&e, -ENOSPC);
	KTEST_EXPECT_EQ(t, e, 0x201c);
	KTEST_EXPECT_EQ(t, errseq_check_and_advance(&e, &since), -ENOSPC);
	KTEST_EXPECT_EQ(t, e, 0x301c);
	KTEST_EXPECT_EQ(t, since, 0x301c);
	e = 0xfffff005;
	errseq_set(&e, -EIO);
	KTEST_EXPECT_EQ(t, e, 0x00000005);
}

/* Thresholds: ratios of free + cache pages; background at most half the hard limit. */
static void dirty_limits(struct ktest *t)
{
	unsigned int r = vm_dirty_ratio, b = dirty_background_ratio;
	unsigned long bg, th, avail = nr_free_pages() + global_node_page_state(NR_FILE_PAGES);

	vm_dirty_ratio = 20;
	dirty_background_ratio = 10;
	global_dirty_limits(&bg, &th);
	KTEST_EXPECT_LE(t, th, avail / 5 + 1);
	KTEST_EXPECT_GE(t, th + 1, avail / 5);
	KTEST_EXPECT_LE(t, bg, avail / 10 + 1);
	KTEST_EXPECT_GE(t, bg + 1, avail / 10);
	dirty_background_ratio = 30;
	global_dirty_limits(&bg, &th);
	KTEST_EXPECT_EQ(t, bg, th / 2);
	vm_dirty_ratio = r;
	dirty_background_ratio = b;
}

/* PG_reclaim at the end of writeback: cleared (and handed to the LRU's rotate hook). */
static void end_writeback_clears_reclaim(struct ktest *t)
{
	dirty_page(t, 9);
	hold_completions = true;
	KTEST_EXPECT_EQ(t, filemap_fdatawrite_range(&wb_mapping, 0, LLONG_MAX), 0);
	struct folio *folio = peek(9);
	folio_set_reclaim(folio);
	complete_held();
	KTEST_EXPECT_FALSE(t, folio_test_reclaim(folio));
	KTEST_EXPECT_FALSE(t, folio_test_writeback(folio));
}

#define WB_CASE(fn)								\
	static void fn##_case(struct ktest *t) { wb_setup(); fn(t); wb_teardown(t); }
WB_CASE(mark_dirty_tags_and_counts)
WB_CASE(writeback_moves_tags_and_counters)
WB_CASE(redirty_during_writeback)
WB_CASE(towrite_tags_the_dirty_range)
WB_CASE(nr_to_write_and_cyclic_resume)
WB_CASE(write_error_reported_once_per_cursor)
WB_CASE(end_writeback_clears_reclaim)

static const struct ktest_case writeback_cases[] = {
	{ "mark_dirty_tags_and_counts", mark_dirty_tags_and_counts_case },
	{ "writeback_moves_tags_and_counters", writeback_moves_tags_and_counters_case },
	{ "redirty_during_writeback", redirty_during_writeback_case },
	{ "towrite_tags_the_dirty_range", towrite_tags_the_dirty_range_case },
	{ "nr_to_write_and_cyclic_resume", nr_to_write_and_cyclic_resume_case },
	{ "write_error_reported_once_per_cursor", write_error_reported_once_per_cursor_case },
	{ "end_writeback_clears_reclaim", end_writeback_clears_reclaim_case },
	KTEST_CASE(errseq_arithmetic),
	KTEST_CASE(dirty_limits),
	{}
};
KTEST_SUITE(writeback, writeback_cases);
