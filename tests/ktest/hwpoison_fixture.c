/*
 * hwpoison_fixture.c - what every case of the `hwpoison` suite stands on (the cases:
 * hwpoison_ktest.c, hwpoison_kernel_ktest.c, hwpoison_race_ktest.c; shared: hwpoison_ktest.h):
 * the fake disk whose reads complete at once with a pattern of the page's index, a case's setup
 * and the teardown that checks the machine is whole again, the log capture after a mark, the
 * counters, the frames (free, on a per-CPU list, never handed out again) and the page-cache
 * folios of the fake disk.
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
unsigned long hw_reads;		/* read_folio calls: a refetch shows here */
static long hw_poisoned_before;
unsigned long hw_lru_base[NR_LRU_LISTS];

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

/* Linux's block devices: no error_remove_folio, so only a clean, unused folio can go. */
const struct address_space_operations hw_aops_noremove = {
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

bool hw_on_pcp(struct page *page)
{
	struct per_cpu_pages *pcp = &page_zone(page)->pcp[0];
	unsigned long flags;
	bool found = false;

	local_irq_save(flags);
	for (int i = 0; i < NR_PCP_LISTS; i++) {
		struct page *q;
		for_each_pcp_block(q, pcp, &pcp->lists[i])
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
void hw_populate(struct ktest *t, pgoff_t first, pgoff_t last)
{
	for (pgoff_t i = first; i <= last; i++) {
		struct folio *f = hw_new(t, i);
		if (f)
			folio_put(f);
	}
}

/* Bytes of the folio at @index that differ from the disk's (the cache is read through). */
size_t hw_bytes_wrong(pgoff_t index)
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

bool hw_cached(pgoff_t index)
{
	struct folio *f = filemap_get_folio(&hw_mapping, index);

	if (IS_ERR_OR_NULL(f))
		return false;
	folio_put(f);
	return true;
}

/* Write @c over the folio and dirty it, as `blk write` would. */
void hw_dirty(struct folio *folio, unsigned char c)
{
	folio_lock(folio);
	memset(page_address(&folio->page), c, PAGE_SIZE);
	folio_mark_dirty(folio);
	folio_unlock(folio);
}

/* After a recovered page-cache folio: off the LRU, out of the mapping, poisoned, ours only. */
void hw_expect_cache_frame_isolated(struct ktest *t, struct folio *f)
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
