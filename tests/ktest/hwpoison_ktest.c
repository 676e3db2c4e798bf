/*
 * hwpoison_ktest.c - mm/memory-failure.c (suite `hwpoison`, every board, and on the host under
 * ASan/UBSan in host scheduler threads through tests/host/hwpoison_test.c), one case per page
 * state of v6.10's table, over a fake disk whose reads complete at once and fill each page with
 * a pattern of its index (the "disk").  Each case checks:
 *   - the printed lines (from the log ring, after a mark the case prints), v6.10's words:
 *     "Memory failure: 0x<pfn>: recovery action for <state>: <result>" and the others;
 *   - the flags and the reference count afterwards, and the counters: num_poisoned_pages and
 *     the node's statistics move by one (total and the result's), or not at all;
 *   - for the page cache: the folio left the mapping (the next read fetches the disk's bytes
 *     again), the other folios still hold the disk's bytes, the LRU counters follow, a dirty
 *     folio's loss reaches the mapping's errseq exactly once;
 *   - that no poisoned frame is handed out by 100 000 later allocations of mixed orders
 *     (hw_never_handed_out: every frame of every block is looked at), and that it is on no
 *     free list;
 * and undoes what it did (unpoison, or by hand where v6.10 refuses), so the machine stays
 * whole for the suites after it: teardown checks num_poisoned_pages is back, the mapping empty
 * and the LRU consistent.  No case injects a "hardware" error: that would turn unpoison off for
 * the rest of the boot (v6.10); the QEMU test tests/qemu/hwpoison.cmake does that in a boot of
 * its own.
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

#define HW_DISK_PAGES	32
#define HW_ALLOCS	100000

struct address_space hw_mapping;
static unsigned long hw_reads;		/* read_folio calls: a refetch shows here */
static long hw_poisoned_before;
static unsigned long hw_lru_base[NR_LRU_LISTS];

/* The disk: byte i of page @index. */
static unsigned char hw_disk_byte(pgoff_t index, size_t i)
{
	return (unsigned char)(index * 37 + i / 16 + 5);
}

static int hw_read_folio(struct address_space *m, struct folio *folio)
{
	unsigned char *b = page_address(&folio->page);

	(void)m;
	for (size_t i = 0; i < PAGE_SIZE; i++)
		b[i] = hw_disk_byte(folio->index, i);
	hw_reads++;
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static const char *hw_name(struct address_space *m)
{
	(void)m;
	return "hwp0";
}

/* As a block device's (block/fops.c): punched out on a memory error, named. */
const struct address_space_operations hw_aops = {
	.read_folio = hw_read_folio,
	.error_remove_folio = generic_error_remove_folio,
	.name = hw_name,
};

/* v6.10's block devices: no error_remove_folio, so only a clean, unused folio can go. */
static const struct address_space_operations hw_aops_noremove = {
	.read_folio = hw_read_folio,
	.name = hw_name,
};

void hw_setup(const struct address_space_operations *aops)
{
	lru_add_drain();
	address_space_init(&hw_mapping, aops, (loff_t)HW_DISK_PAGES * PAGE_SIZE);
	hw_reads = 0;
	hw_poisoned_before = atomic_long_read(&num_poisoned_pages);
	for (int i = 0; i < NR_LRU_LISTS; i++)
		hw_lru_base[i] = node_lruvec.nr_pages[i];
}

void hw_teardown(struct ktest *t)
{
	truncate_inode_pages(&hw_mapping, 0);
	inode_io_list_del(&hw_mapping);		/* dirtied cases put it on the flusher's list */
	lru_add_drain();
	KTEST_EXPECT_EQ(t, hw_mapping.nrpages, 0UL);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	for (int i = 0; i < NR_LRU_LISTS; i++)
		KTEST_EXPECT_EQ(t, node_lruvec.nr_pages[i], hw_lru_base[i]);
	KTEST_EXPECT_EQ(t, atomic_long_read(&num_poisoned_pages), hw_poisoned_before);
	KTEST_EXPECT_EQ(t, buddy_check(printk), 0);
}


/* ---- the log ---- */

static char hw_log[8192 + 1];
static size_t hw_log_len;
static unsigned int hw_mark_seq;

static void hw_log_out(const char *s, size_t n)
{
	n = min(n, sizeof(hw_log) - 1 - hw_log_len);
	memcpy(hw_log + hw_log_len, s, n);
	hw_log_len += n;
	hw_log[hw_log_len] = '\0';
}

/* Lines printed from now on are the ones the checks below look at. */
void hw_mark(void)
{
	printk(KERN_DEBUG "hwpoison_ktest: mark %u\n", ++hw_mark_seq);
}

/* Was a line "<text>\n" (after any timestamp) printed since the mark? */
bool hw_logged(const char *fmt, ...)
{
	char mark[48], want[200];
	const char *since = NULL;
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	ksnprintf(mark, sizeof(mark), "hwpoison_ktest: mark %u\n", hw_mark_seq);
	hw_log_len = 0;
	hw_log[0] = '\0';
	log_buf_dump(hw_log_out);
	for (const char *p = hw_log; (p = strstr(p, mark)); p++)
		since = p;
	if (!since)
		return false;
	for (const char *p = since; (p = strstr(p, want)); p++)
		if (p[-1] == '\n' || p[-1] == ' ')	/* a whole line, after its timestamp */
			if (p[strlen(want)] == '\n')
				return true;
	return false;
}

/* ---- counters ---- */


void hw_counts(struct hw_counts *c)
{
	c->poisoned = atomic_long_read(&num_poisoned_pages);
	memory_failure_get_stats(&c->st);
}

/* One more poisoned frame, one more action of @result; or (@result < 0) nothing moved. */
void hw_expect_counted(struct ktest *t, const struct hw_counts *b, int result)
{
	struct hw_counts a;
	int n = result >= 0;

	hw_counts(&a);
	KTEST_EXPECT_EQ(t, a.poisoned, b->poisoned + n);
	KTEST_EXPECT_EQ(t, a.st.total, b->st.total + n);
	KTEST_EXPECT_EQ(t, a.st.ignored, b->st.ignored + (result == MF_IGNORED));
	KTEST_EXPECT_EQ(t, a.st.failed, b->st.failed + (result == MF_FAILED));
	KTEST_EXPECT_EQ(t, a.st.delayed, b->st.delayed + (result == MF_DELAYED));
	KTEST_EXPECT_EQ(t, a.st.recovered, b->st.recovered + (result == MF_RECOVERED));
}

/* ---- frames ---- */

/* The free block holding @pfn (per-CPU lists drained first), or NULL. */
static struct page *hw_free_block_of(unsigned long pfn)
{
	drain_all_pages(NULL);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct page *h = pfn_to_page(pfn & ~((1UL << o) - 1));
		if (h && PageBuddy(h) && buddy_order(h) >= o)
			return h;
	}
	return NULL;
}

bool hw_pfn_is_free(unsigned long pfn)
{
	return hw_free_block_of(pfn) != NULL;
}

static bool hw_on_pcp(struct page *page)
{
	struct per_cpu_pages *pcp = &page_zone(page)->pcp[0];
	unsigned long flags;
	bool found = false;

	local_irq_save(flags);
	for (int i = 0; i < NR_PCP_LISTS; i++) {
		struct page *q;
		for_each_pcp_block(q, &pcp->lists[i])
			found |= q == page;
	}
	local_irq_restore(flags);
	return found;
}

/* A frame in the middle of the largest free block (order >= 3), or 0. */
unsigned long hw_free_pfn(void)
{
	struct page *h = NULL, *p;
	unsigned int o = 0;

	drain_all_pages(NULL);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			for (unsigned int i = 3; i <= MAX_PAGE_ORDER; i++)
				if ((p = page_list_first(&zones[z].free_area[i].free_list[mt])) && i > o) {
					h = p;
					o = i;
				}
	return h ? page_to_pfn(h) + (1UL << o) / 2 + 1 : 0;
}

/*
 * 100 000 allocations of mixed orders (31 in 32 of order 0, the rest of orders 1-4; kept up to
 * 32 at a time, freed in a mixed order): no block handed out may hold a PG_hwpoison frame, nor
 * @pfn.  Every frame of every block is looked at.  Then, structurally: @pfn is in no free
 * block and on no per-CPU list.  (Mostly order 0: a higher order costs ten times as much, and
 * the suite must stay a second or two under QEMU, inside ktest.all's 20 s.)
 */
void hw_never_handed_out(struct ktest *t, unsigned long pfn)
{
	struct { struct page *page; unsigned int order; } held[32] = { { NULL, 0 } };
	unsigned int x = 2463534242u, bad = 0;
	unsigned long frames = 0;

	for (int n = 0; n < HW_ALLOCS; n++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		unsigned int slot = x % ARRAY_SIZE(held), order = (x >> 8) % 32;
		order = order < 31 ? 0 : 1 + (x >> 16) % 4;
		if (held[slot].page)
			__free_pages(held[slot].page, held[slot].order);
		struct page *p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
		held[slot].page = p;
		held[slot].order = order;
		if (!p)
			continue;
		unsigned long first = page_to_pfn(p);
		for (unsigned long i = 0; i < (1UL << order); i++)
			if (PageHWPoison(p + i) || first + i == pfn)
				bad++;
		frames += 1UL << order;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(held); i++)
		if (held[i].page)
			__free_pages(held[i].page, held[i].order);
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_GT(t, frames, (unsigned long)HW_ALLOCS);	/* they did happen */
	KTEST_EXPECT_FALSE(t, hw_on_pcp(pfn_to_page(pfn)));
	KTEST_EXPECT_FALSE(t, hw_pfn_is_free(pfn));	/* drains the per-CPU lists first */
}

/* ---- page-cache folios ---- */

/* A new uptodate, unlocked, listed folio at @index, read from the disk; our reference held. */
static struct folio *hw_new(struct ktest *t, pgoff_t index)
{
	struct folio *folio = read_cache_folio(&hw_mapping, index);

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no folio");
		return NULL;
	}
	lru_add_drain();
	return folio;
}

/* Folios first..last in the cache, our references dropped. */
static void hw_populate(struct ktest *t, pgoff_t first, pgoff_t last)
{
	for (pgoff_t i = first; i <= last; i++) {
		struct folio *f = hw_new(t, i);
		if (f)
			folio_put(f);
	}
}

/* Bytes of the folio at @index that differ from the disk's (the cache is read through). */
static size_t hw_bytes_wrong(pgoff_t index)
{
	struct folio *f = read_cache_folio(&hw_mapping, index);
	size_t wrong = 0;

	if (IS_ERR(f))
		return PAGE_SIZE + 1;
	const unsigned char *b = page_address(&f->page);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		wrong += b[i] != hw_disk_byte(index, i);
	folio_put(f);
	return wrong;
}

static bool hw_cached(pgoff_t index)
{
	struct folio *f = filemap_get_folio(&hw_mapping, index);

	if (IS_ERR_OR_NULL(f))
		return false;
	folio_put(f);
	return true;
}

/* Write @c over the folio and dirty it, as `blk write` would. */
static void hw_dirty(struct folio *folio, unsigned char c)
{
	folio_lock(folio);
	memset(page_address(&folio->page), c, PAGE_SIZE);
	folio_mark_dirty(folio);
	folio_unlock(folio);
}

/* After a recovered page-cache folio: off the LRU, out of the mapping, poisoned, ours only. */
static void hw_expect_cache_frame_isolated(struct ktest *t, struct folio *f)
{
	KTEST_EXPECT_TRUE(t, PageHWPoison(&f->page));
	KTEST_EXPECT_FALSE(t, folio_test_lru(f));
	KTEST_EXPECT_FALSE(t, folio_test_active(f));
	KTEST_EXPECT_FALSE(t, folio_test_unevictable(f));
	KTEST_EXPECT_FALSE(t, folio_test_dirty(f));
	KTEST_EXPECT_FALSE(t, folio_test_locked(f));
	KTEST_EXPECT_TRUE(t, f->mapping == NULL);
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 1);
}

/* Unpoison @pfn: 0, and the line. */
void hw_unpoison(struct ktest *t, unsigned long pfn)
{
	hw_mark();
	KTEST_EXPECT_EQ(t, unpoison_memory(pfn), 0);
	EXPECT_LOGGED(t, "Unpoison: Software-unpoisoned page %#lx", pfn);
	KTEST_EXPECT_FALSE(t, PageHWPoison(pfn_to_page(pfn)));
}

/* Undo a poisoning unpoison refuses (slab, reserved): the mark and the count, by hand. */
void hw_unmark(unsigned long pfn)
{
	ClearPageHWPoison(pfn_to_page(pfn));
	num_poisoned_pages_sub(pfn, 1);
}

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
	/* errseq: the error once, then nothing (v6.10's file_check_and_advance_wb_err). */
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

/* Under writeback: memory_failure() waits for it (v6.10: folio_wait_writeback), then clean. */
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

/* Locked by someone else: memory_failure() sleeps on the folio lock (v6.10), then acts. */
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

/* PG_mlocked (the MMU issue sets it; set by hand here): v6.10's "clean mlocked LRU page". */
static void mlocked_page(struct ktest *t)
{
	struct hw_counts c;
	struct folio *f = read_cache_folio(&hw_mapping, 4);

	KTEST_ASSERT_TRUE(t, !IS_ERR(f));
	folio_set_mlocked(f);			/* before the batch drains: unevictable list */
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
 * is not in the swap cache (v6.10's folio_test_swapcache()), so it is still "truncated". */
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
