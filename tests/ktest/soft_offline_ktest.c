/*
 * soft_offline_ktest.c - mm/soft-offline.c (suite `soft_offline`, every board, and on the host
 * under ASan/UBSan in a host scheduler thread through tests/host/soft_offline_test.c) over a
 * fake disk whose reads complete at once (each page's bytes a pattern of its index) and whose
 * writepages records what it was handed (index, frame, checksum) and ends writeback at once.
 * What v6.10's soft_offline_page() does, case by case:
 *   - a free frame, in the middle of a free buddy block or on a per-CPU list: taken off,
 *     PG_hwpoison, one reference, counted once; the buddy stays consistent;
 *   - a clean page-cache folio: the same bytes at the same index in a new frame, its LRU list,
 *     PG_referenced/active/workingset kept; the old frame PG_hwpoison, one reference, no
 *     mapping, on no list; nrpages and NR_FILE_PAGES unchanged;
 *   - a dirty folio stays dirty (tag, NR_FILE_DIRTY) and writeback then writes the new frame's
 *     bytes; one under writeback is waited for (a timer ends it, as an I/O completion would);
 *     an unevictable mapping's stays on the unevictable list (nothing culled);
 *   - a reader looking the index up throughout always finds an uptodate folio with the bytes;
 *   - a folio someone else keeps a reference to is not moved: -EBUSY, v6.10's "migration
 *     failed 1" line, nothing changes;
 *   - a kernel page, a slab page, a reserved frame: -EIO, "unhandlable page.", nothing changes;
 *     already poisoned: 0 and v6.10's line; no such frame (past the end, a hole): -ENXIO;
 *   - no soft-offlined frame comes back from 100 000 allocations of orders 0-3 that exhaust
 *     memory again and again; then unpoison_memory() gives each one back.
 * num_poisoned_pages grows by exactly one per frame taken, and memory_failure()'s per-node
 * statistics never move (v6.10 does not count soft offline there).  After every case the
 * mapping is truncated empty and lru_check() and buddy_check() find nothing.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/delay.h"
#include "tinymm/errno.h"
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

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

#define SO_PAGES	64
#define SO_MAX_POISONED	16
#define SO_ALLOCS	100000UL

static struct address_space so_mapping;
static unsigned long so_poisoned[SO_MAX_POISONED];	/* frames this suite took, in order */
static unsigned int so_nr_poisoned;
static long so_poison_base;			/* num_poisoned_pages before the suite */
static unsigned long so_mf_total;			/* memory_failure stats' total, likewise */

/* What the fake disk's writepage was handed. */
static struct { pgoff_t index; unsigned long pfn; uint64_t sum; } so_written[8];
static unsigned int so_nr_written;

/* FNV-1a over a folio's bytes. */
static uint64_t so_hash(const unsigned char *p, unsigned long n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (unsigned long i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t so_sum(struct folio *folio)
{
	return so_hash(page_address(&folio->page), folio_nr_pages(folio) * PAGE_SIZE);
}

/* One page's bytes (a reader's copy of an order-0 folio). */
static uint64_t so_sum_bytes(const unsigned char *p)
{
	return so_hash(p, PAGE_SIZE);
}

static void so_fill(struct folio *folio)
{
	unsigned char *p = page_address(&folio->page);

	for (unsigned long i = 0; i < PAGE_SIZE; i++)
		p[i] = (unsigned char)(folio->index * 131 + i * 7 + (i >> 8));
}

static int so_read_folio(struct address_space *m, struct folio *folio)
{
	(void)m;
	so_fill(folio);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static int so_writepage(struct folio *folio, struct writeback_control *wbc, void *data)
{
	(void)wbc;
	(void)data;
	if (so_nr_written < ARRAY_SIZE(so_written)) {
		so_written[so_nr_written].index = folio->index;
		so_written[so_nr_written].pfn = page_to_pfn(&folio->page);
		so_written[so_nr_written].sum = so_sum(folio);
	}
	so_nr_written++;
	folio_start_writeback(folio);
	folio_unlock(folio);
	folio_end_writeback(folio);
	return 0;
}

static int so_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	return write_cache_pages(mapping, wbc, so_writepage, NULL);
}

static const struct address_space_operations so_aops = {
	.read_folio = so_read_folio,
	.writepages = so_writepages,
};

static long so_poisoned_now(void)
{
	return atomic_long_read(&num_poisoned_pages);
}

static unsigned long so_mf_stats_total(void)
{
	struct memory_failure_stats st;

	memory_failure_get_stats(&st);
	return st.total;
}

static void so_setup(void)
{
	lru_add_drain();
	address_space_init(&so_mapping, &so_aops, (loff_t)SO_PAGES * PAGE_SIZE);
	so_nr_written = 0;
}

static void so_teardown(struct ktest *t)
{
	truncate_inode_pages(&so_mapping, 0);
	inode_io_list_del(&so_mapping);		/* dirtied cases put it on the flusher's list */
	KTEST_EXPECT_EQ(t, so_mapping.nrpages, 0UL);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, buddy_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, so_poisoned_now(), so_poison_base + (long)so_nr_poisoned);
	KTEST_EXPECT_EQ(t, so_mf_stats_total(), so_mf_total);
}

#define SO_CASE(fn)						\
static void fn##_case(struct ktest *t)				\
{								\
	so_setup();						\
	fn(t);							\
	so_teardown(t);						\
}

/* The log holds @line (the messages checked name their pfn, so they are this call's). */
static char so_log[2048];
static size_t so_log_len;

static void so_log_out(const char *s, size_t n)
{
	for (; n--; s++) {
		if (so_log_len == sizeof(so_log) - 1)
			memmove(so_log, so_log + 1024, so_log_len -= 1024);
		so_log[so_log_len++] = *s;
	}
	so_log[so_log_len] = '\0';
}

static bool so_logged(const char *line)
{
	so_log_len = 0;
	log_buf_dump(so_log_out);
	return strstr(so_log, line) != NULL;
}

/* A new uptodate, unlocked cache folio at @index on its LRU list; the caller holds a reference. */
static struct folio *so_new(struct ktest *t, pgoff_t index)
{
	struct folio *folio = __filemap_get_folio(&so_mapping, index, FGP_CREAT | FGP_LOCK, GFP_KERNEL);

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no folio");
		return NULL;
	}
	so_fill(folio);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	lru_add_drain();
	return folio;
}

static void so_remember(unsigned long pfn)
{
	if (so_nr_poisoned < SO_MAX_POISONED)
		so_poisoned[so_nr_poisoned++] = pfn;
}

/* What page_handle_poison() leaves: marked, one reference (its own), nothing else. */
static void so_expect_poisoned(struct ktest *t, unsigned long pfn)
{
	struct page *p = pfn_to_page(pfn);

	KTEST_EXPECT_TRUE(t, PageHWPoison(p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
	KTEST_EXPECT_TRUE(t, p->mapping == NULL);
	KTEST_EXPECT_FALSE(t, PageBuddy(p));
	KTEST_EXPECT_EQ(t, p->flags & (1UL << PG_lru | 1UL << PG_locked | 1UL << PG_dirty |
				       1UL << PG_writeback | 1UL << PG_active | 1UL << PG_unevictable |
				       1UL << PG_mlocked), 0);
}

/*
 * Soft-offline the folio cached at @index (nobody else holding it) and check the move: same
 * bytes and index in a new frame, the old one poisoned and counted.  The new folio (referenced),
 * or NULL.
 */
static struct folio *so_move_tries(struct ktest *t, pgoff_t index, int tries)
{
	unsigned long pages = so_mapping.nrpages, file = global_node_page_state(NR_FILE_PAGES);
	long poisoned = so_poisoned_now();
	struct folio *folio = filemap_get_folio(&so_mapping, index);

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "nothing cached");
		return NULL;
	}
	unsigned long old = page_to_pfn(&folio->page);
	uint64_t sum = so_sum(folio);
	folio_put(folio);

	int ret;
	/* A concurrent holder (the reader case) can outlast soft offline's ten passes: v6.10 gives
	 * up then too (-EBUSY, nothing lost).  Only that case tries more than once. */
	while ((ret = soft_offline_page(old, 0)) == -EBUSY && --tries > 0)
		msleep(1);
	KTEST_EXPECT_EQ(t, ret, 0);
	so_remember(old);
	so_expect_poisoned(t, old);
	KTEST_EXPECT_EQ(t, so_poisoned_now(), poisoned + 1);
	KTEST_EXPECT_EQ(t, so_mapping.nrpages, pages);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), file);
	folio = filemap_get_folio(&so_mapping, index);
	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "the index lost its folio");
		return NULL;
	}
	KTEST_EXPECT_NE(t, page_to_pfn(&folio->page), old);
	KTEST_EXPECT_TRUE(t, folio_test_uptodate(folio));
	KTEST_EXPECT_FALSE(t, PageHWPoison(&folio->page));
	KTEST_EXPECT_TRUE(t, folio->mapping == &so_mapping);
	KTEST_EXPECT_EQ(t, folio->index, index);
	KTEST_EXPECT_EQ(t, so_sum(folio), sum);
	return folio;
}

#define so_move(t, index)	so_move_tries(t, index, 1)

/* ---- free frames ---- */

/* Frame 5 of a free order-3 block: the block is split around it, the rest stays free. */
static void free_buddy_frame(struct ktest *t)
{
	struct page *block = alloc_pages(GFP_KERNEL, 3);
	long poisoned = so_poisoned_now();

	KTEST_ASSERT_TRUE(t, block);
	unsigned long pfn = page_to_pfn(block) + 5;
	__free_pages(block, 3);
	drain_all_pages(NULL);
	unsigned long free = nr_free_pages_and_pcp();
	KTEST_EXPECT_EQ(t, page_ref_count(pfn_to_page(pfn)), 0);

	KTEST_EXPECT_EQ(t, soft_offline_page(pfn, 0), 0);
	so_remember(pfn);
	so_expect_poisoned(t, pfn);
	KTEST_EXPECT_EQ(t, so_poisoned_now(), poisoned + 1);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free - 1);
}

/* An order-0 frame just freed waits on this CPU's list: drained, then taken as above. */
static void free_pcp_frame(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	long poisoned = so_poisoned_now();

	KTEST_ASSERT_TRUE(t, page);
	unsigned long pfn = page_to_pfn(page);
	__free_page(page);
	KTEST_EXPECT_FALSE(t, PageBuddy(page));		/* on the per-CPU list, not the buddy's */
	KTEST_EXPECT_EQ(t, page_ref_count(page), 0);

	KTEST_EXPECT_EQ(t, soft_offline_page(pfn, 0), 0);
	so_remember(pfn);
	so_expect_poisoned(t, pfn);
	KTEST_EXPECT_EQ(t, so_poisoned_now(), poisoned + 1);
}

/* ---- page-cache folios ---- */

static void clean_folio_moves(struct ktest *t)
{
	struct folio *f = so_new(t, 3);

	KTEST_ASSERT_TRUE(t, f);
	folio_put(f);
	unsigned long inactive = global_node_page_state(NR_INACTIVE_FILE);
	f = so_move(t, 3);
	KTEST_ASSERT_TRUE(t, f);
	KTEST_EXPECT_FALSE(t, folio_test_dirty(f));
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, folio_test_lru(f));
	KTEST_EXPECT_EQ(t, folio_lru_list(f), LRU_INACTIVE_FILE);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_INACTIVE_FILE), inactive);
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 2);	/* the cache's and ours */
	folio_put(f);
}

/* Its age on the LRU moves with it: active, referenced, workingset. */
static void lru_state_moves(struct ktest *t)
{
	struct folio *f = so_new(t, 4);

	KTEST_ASSERT_TRUE(t, f);
	folio_mark_accessed(f);
	folio_mark_accessed(f);			/* second touch: the active list */
	folio_mark_accessed(f);			/* and referenced there */
	folio_set_workingset(f);
	KTEST_EXPECT_EQ(t, folio_lru_list(f), LRU_ACTIVE_FILE);
	folio_put(f);
	unsigned long active = global_node_page_state(NR_ACTIVE_FILE);
	unsigned long activations = global_vm_event(PGACTIVATE);
	f = so_move(t, 4);
	KTEST_ASSERT_TRUE(t, f);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, folio_test_active(f));
	KTEST_EXPECT_TRUE(t, folio_test_referenced(f));
	KTEST_EXPECT_TRUE(t, folio_test_workingset(f));
	KTEST_EXPECT_EQ(t, folio_lru_list(f), LRU_ACTIVE_FILE);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ACTIVE_FILE), active);
	KTEST_EXPECT_EQ(t, global_vm_event(PGACTIVATE), activations);
	folio_put(f);
}

/* Dirty stays dirty in the new frame; writeback then writes the new frame's (the old) bytes. */
static void dirty_folio_moves_and_writes_back(struct ktest *t)
{
	struct folio *f = so_new(t, 7);

	KTEST_ASSERT_TRUE(t, f);
	folio_lock(f);
	memset((char *)page_address(&f->page) + 100, 0x5a, 1000);	/* a write */
	folio_mark_dirty(f);
	folio_unlock(f);
	uint64_t sum = so_sum(f);
	folio_put(f);
	unsigned long dirty = global_node_page_state(NR_FILE_DIRTY);

	f = so_move(t, 7);
	KTEST_ASSERT_TRUE(t, f);
	KTEST_EXPECT_TRUE(t, folio_test_dirty(f));
	KTEST_EXPECT_TRUE(t, xa_get_mark(&so_mapping.i_pages, 7, PAGECACHE_TAG_DIRTY));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty);
	KTEST_EXPECT_EQ(t, so_sum(f), sum);
	unsigned long pfn = page_to_pfn(&f->page);
	folio_put(f);

	KTEST_EXPECT_EQ(t, filemap_write_and_wait_range(&so_mapping, 0, LLONG_MAX), 0);
	KTEST_ASSERT_EQ(t, so_nr_written, 1U);
	KTEST_EXPECT_EQ(t, so_written[0].index, 7);
	KTEST_EXPECT_EQ(t, so_written[0].pfn, pfn);
	KTEST_EXPECT_TRUE(t, so_written[0].sum == sum);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty - 1);
	KTEST_EXPECT_FALSE(t, xa_get_mark(&so_mapping.i_pages, 7, PAGECACHE_TAG_DIRTY));
}

struct so_wb_end {
	struct timer_list timer;
	struct folio *folio;
	volatile bool ended;
};

static void so_end_writeback_fn(struct timer_list *timer)
{
	struct so_wb_end *e = from_timer(e, timer, timer);

	folio_end_writeback(e->folio);
	e->ended = true;
}

/* Under writeback: waited for (a timer ends it in interrupt context, as a completion would). */
static void writeback_folio_is_waited_for(struct ktest *t)
{
	struct so_wb_end e = { .ended = false };
	unsigned long wb = global_node_page_state(NR_WRITEBACK);
	struct folio *f = so_new(t, 9);

	KTEST_ASSERT_TRUE(t, f);
	folio_lock(f);
	folio_mark_dirty(f);
	folio_clear_dirty_for_io(f);
	folio_start_writeback(f);
	folio_unlock(f);
	e.folio = f;
	unsigned long armed = jiffies + 5;
	timer_setup(&e.timer, so_end_writeback_fn, 0);
	mod_timer(&e.timer, armed);
	folio_put(f);

	f = so_move(t, 9);
	KTEST_EXPECT_TRUE(t, e.ended);
	KTEST_EXPECT_TRUE(t, time_after_eq(jiffies, armed));
	for (int i = 0; i < 1000 && !e.ended; i++)	/* if it did not wait: before anything goes */
		msleep(1);
	del_timer_sync(&e.timer);
	KTEST_ASSERT_TRUE(t, f);
	KTEST_EXPECT_FALSE(t, folio_test_writeback(f));
	KTEST_EXPECT_FALSE(t, folio_test_dirty(f));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), wb);
	folio_put(f);
}

/* An unevictable mapping's folio: unevictable in its new frame too, counted once, not culled. */
static void unevictable_folio_stays_unevictable(struct ktest *t)
{
	mapping_set_unevictable(&so_mapping);
	struct folio *f = so_new(t, 11);

	KTEST_ASSERT_TRUE(t, f);
	KTEST_EXPECT_EQ(t, folio_lru_list(f), LRU_UNEVICTABLE);
	folio_put(f);
	unsigned long unevictable = global_node_page_state(NR_UNEVICTABLE);
	unsigned long culled = global_vm_event(UNEVICTABLE_PGCULLED);
	unsigned long rescued = global_vm_event(UNEVICTABLE_PGRESCUED);

	f = so_move(t, 11);
	KTEST_ASSERT_TRUE(t, f);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, folio_test_unevictable(f));
	KTEST_EXPECT_EQ(t, folio_lru_list(f), LRU_UNEVICTABLE);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), unevictable);
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGCULLED), culled);
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGRESCUED), rescued);
	folio_put(f);
	mapping_clear_unevictable(&so_mapping);
}

struct so_reader {
	pgoff_t index;
	uint64_t sum;
	volatile bool stop;
	unsigned long reads, bad, frames_seen;
	unsigned long last_pfn;
	unsigned char copy[PAGE_SIZE];
};

/* Looks the index up, checks, lets go, sleeps: as many readers as the case lasts. */
static int so_reader_fn(void *arg)
{
	struct so_reader *r = arg;

	while (!r->stop) {
		struct folio *folio = filemap_get_folio(&so_mapping, r->index);
		unsigned long pfn = 0;
		bool ok = !IS_ERR(folio) && folio_test_uptodate(folio);
		if (!IS_ERR(folio)) {
			/* Hold the folio only to copy it, as a read() does; hash the copy: a hold as
			 * long as the hash (tens of ms on a slow CPU) would outlast soft offline. */
			memcpy(r->copy, page_address(&folio->page), PAGE_SIZE);
			pfn = page_to_pfn(&folio->page);
			folio_put(folio);
		}
		if (!ok || so_sum_bytes(r->copy) != r->sum) {
			r->bad++;
		} else if (pfn != r->last_pfn) {
			r->last_pfn = pfn;
			r->frames_seen++;
		}
		r->reads++;
		msleep(1);
	}
	return 0;
}

/* A reader running throughout never misses: the index always holds an uptodate folio with
 * the bytes, the old one before the move and the new one after. */
static void concurrent_reader_never_misses(struct ktest *t)
{
	struct folio *f = so_new(t, 13);
	static struct so_reader r;	/* static: a page-sized copy does not belong on a stack */

	memset(&r, 0, sizeof(r));
	r.index = 13;

	KTEST_ASSERT_TRUE(t, f);
	r.sum = so_sum(f);
	folio_put(f);
	struct task_struct *th = kthread_create_opts(so_reader_fn, &r, "so-reader", DEFAULT_PRIO, 2);
	KTEST_ASSERT_TRUE(t, th != NULL);
	wake_up_process(th);
	while (r.reads < 3)
		msleep(1);
	f = so_move_tries(t, 13, 20);
	unsigned long reads = r.reads;
	while (r.reads < reads + 3)
		msleep(1);
	r.stop = true;
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);
	KTEST_EXPECT_EQ(t, r.bad, 0UL);
	KTEST_EXPECT_EQ(t, r.frames_seen, 2UL);		/* the old frame, then the new one */
	if (f)
		folio_put(f);
}

/* Someone keeps a reference throughout: not moved (v6.10's 10 passes, then "migration
 * failed 1"), -EBUSY, the folio where it was, unpoisoned, back on its list, nothing counted. */
static void busy_folio_is_left_alone(struct ktest *t)
{
	struct folio *f = so_new(t, 15);
	char line[96];

	KTEST_ASSERT_TRUE(t, f);
	unsigned long pfn = page_to_pfn(&f->page);
	uint64_t sum = so_sum(f);
	long poisoned = so_poisoned_now();

	KTEST_EXPECT_EQ(t, soft_offline_page(pfn, 0), -EBUSY);
	ksnprintf(line, sizeof(line), "soft offline: %#lx: page migration failed 1, type ", pfn);
	KTEST_EXPECT_TRUE(t, so_logged(line));
	KTEST_EXPECT_EQ(t, so_poisoned_now(), poisoned);
	KTEST_EXPECT_FALSE(t, PageHWPoison(&f->page));
	struct folio *now = filemap_get_folio(&so_mapping, 15);
	KTEST_EXPECT_TRUE(t, now == f);			/* still the one cached there */
	if (!IS_ERR(now))
		folio_put(now);
	KTEST_EXPECT_TRUE(t, f->mapping == &so_mapping);
	KTEST_EXPECT_TRUE(t, folio_test_uptodate(f));
	KTEST_EXPECT_EQ(t, so_sum(f), sum);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, folio_test_lru(f));
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 2);	/* the cache's and ours */
	folio_put(f);
}

/* ---- what cannot be soft-offlined ---- */

/* -EIO and v6.10's "unhandlable page." line; the frame as it was, nothing counted. */
static void so_expect_refused(struct ktest *t, struct page *page)
{
	unsigned long pfn = page_to_pfn(page), flags = page->flags;
	int ref = page_ref_count(page);
	long poisoned = so_poisoned_now();
	char line[64];

	KTEST_EXPECT_EQ(t, soft_offline_page(pfn, 0), -EIO);
	ksnprintf(line, sizeof(line), "Memory failure: %#lx: unhandlable page.\n", pfn);
	KTEST_EXPECT_TRUE(t, so_logged(line));
	KTEST_EXPECT_EQ(t, page->flags, flags);
	KTEST_EXPECT_EQ(t, page_ref_count(page), ref);
	KTEST_EXPECT_EQ(t, so_poisoned_now(), poisoned);
}

static void kernel_pages_are_refused(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	void *obj = kmalloc(64, GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, page && obj);
	so_expect_refused(t, page);			/* the kernel's own page */
	so_expect_refused(t, virt_to_page(obj));	/* a slab's */
	__free_page(page);
	kfree(obj);
	/* A reserved frame (firmware, the kernel image, the memmap): the first one found. */
	const struct memmap_bank *b = memmap_bank(0);
	for (unsigned long pfn = b->start_pfn; pfn < b->end_pfn; pfn++)
		if (PageReserved(pfn_to_page(pfn))) {
			so_expect_refused(t, pfn_to_page(pfn));
			break;
		}
}

static void already_poisoned_is_success(struct ktest *t)
{
	char line[64];

	KTEST_ASSERT_GT(t, so_nr_poisoned, 0U);
	unsigned long pfn = so_poisoned[0];
	long poisoned = so_poisoned_now();

	KTEST_EXPECT_EQ(t, soft_offline_page(pfn, 0), 0);
	ksnprintf(line, sizeof(line), "soft_offline_page: %#lx page already poisoned\n", pfn);
	KTEST_EXPECT_TRUE(t, so_logged(line));
	KTEST_EXPECT_EQ(t, so_poisoned_now(), poisoned);
	so_expect_poisoned(t, pfn);
}

static void no_such_frame(struct ktest *t)
{
	int last = memmap_nr_banks() - 1;
	long poisoned = so_poisoned_now();

	KTEST_EXPECT_EQ(t, soft_offline_page(memmap_bank(last)->end_pfn, 0), -ENXIO);
	KTEST_EXPECT_EQ(t, soft_offline_page(~0UL, 0), -ENXIO);
	for (int i = 1; i <= last; i++)			/* a hole between two banks */
		if (memmap_bank(i)->start_pfn > memmap_bank(i - 1)->end_pfn)
			KTEST_EXPECT_EQ(t, soft_offline_page(memmap_bank(i - 1)->end_pfn, 0), -ENXIO);
	KTEST_EXPECT_EQ(t, so_poisoned_now(), poisoned);
}

/* ---- afterwards ---- */

static bool so_block_holds_poisoned(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);

	for (unsigned int i = 0; i < so_nr_poisoned; i++)
		if (so_poisoned[i] - pfn < (1UL << order))
			return true;
	return false;
}

/*
 * 100 000 allocations of orders 0-3, movable and not, each round taking all it can (no reclaim,
 * no reserves) before giving everything back: none may hold a soft-offlined frame.  The blocks
 * are chained through their own first words.
 */
static void poisoned_frames_never_handed_out(struct ktest *t)
{
	unsigned long allocs = 0, bad = 0, bad_pages = nr_bad_pages;

	KTEST_ASSERT_GT(t, so_nr_poisoned, 0U);
	while (allocs < SO_ALLOCS) {
		void **chain = NULL;
		unsigned int order = (unsigned int)(allocs % 4);
		while (allocs < SO_ALLOCS) {
			gfp_t gfp = __GFP_NOWARN | (allocs & 1 ? __GFP_MOVABLE : 0);
			struct page *page = alloc_pages(gfp, order);
			if (!page) {
				if (!order)
					break;		/* memory exhausted: give it all back */
				order--;
				continue;
			}
			allocs++;
			if (so_block_holds_poisoned(page, order))
				bad++;
			void **block = page_address(page);
			block[0] = chain;
			block[1] = (void *)(unsigned long)order;
			chain = block;
			order = (unsigned int)((allocs * 7) % 11 % 4);
		}
		KTEST_ASSERT_TRUE(t, chain != NULL);
		while (chain) {
			void **next = chain[0];
			__free_pages(virt_to_page(chain), (unsigned int)(unsigned long)chain[1]);
			chain = next;
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad_pages);
	for (unsigned int i = 0; i < so_nr_poisoned; i++)
		so_expect_poisoned(t, so_poisoned[i]);
}

/* unpoison_memory() gives every frame back, whatever it held: free again, counted out. */
static void unpoison_gives_frames_back(struct ktest *t)
{
	if (memory_failure_hw_seen()) {
		ktest_skip(t, "unpoison is off after a hardware memory failure (v6.10)");
		return;
	}
	for (unsigned int i = 0; i < so_nr_poisoned; i++) {
		struct page *p = pfn_to_page(so_poisoned[i]);
		KTEST_EXPECT_EQ(t, unpoison_memory(so_poisoned[i]), 0);
		KTEST_EXPECT_FALSE(t, PageHWPoison(p));
		KTEST_EXPECT_EQ(t, page_ref_count(p), 0);
	}
	so_nr_poisoned = 0;				/* so_teardown: back to the base */
	drain_all_pages(NULL);
}

/* The first case also starts the suite's books (a suite may run more than once a boot). */
static void free_buddy_frame_case(struct ktest *t)
{
	so_nr_poisoned = 0;
	so_poison_base = so_poisoned_now();
	so_mf_total = so_mf_stats_total();
	so_setup();
	free_buddy_frame(t);
	so_teardown(t);
}
SO_CASE(free_pcp_frame)
SO_CASE(clean_folio_moves)
SO_CASE(lru_state_moves)
SO_CASE(dirty_folio_moves_and_writes_back)
SO_CASE(writeback_folio_is_waited_for)
SO_CASE(unevictable_folio_stays_unevictable)
SO_CASE(concurrent_reader_never_misses)
SO_CASE(busy_folio_is_left_alone)
SO_CASE(kernel_pages_are_refused)
SO_CASE(already_poisoned_is_success)
SO_CASE(no_such_frame)
SO_CASE(poisoned_frames_never_handed_out)
SO_CASE(unpoison_gives_frames_back)

#define SO_ENTRY(fn)	{ #fn, fn##_case }
static const struct ktest_case soft_offline_cases[] = {
	SO_ENTRY(free_buddy_frame),
	SO_ENTRY(free_pcp_frame),
	SO_ENTRY(clean_folio_moves),
	SO_ENTRY(lru_state_moves),
	SO_ENTRY(dirty_folio_moves_and_writes_back),
	SO_ENTRY(writeback_folio_is_waited_for),
	SO_ENTRY(unevictable_folio_stays_unevictable),
	SO_ENTRY(concurrent_reader_never_misses),
	SO_ENTRY(busy_folio_is_left_alone),
	SO_ENTRY(kernel_pages_are_refused),
	SO_ENTRY(already_poisoned_is_success),
	SO_ENTRY(no_such_frame),
	SO_ENTRY(poisoned_frames_never_handed_out),
	SO_ENTRY(unpoison_gives_frames_back),
	{}
};
KTEST_SUITE(soft_offline, soft_offline_cases);
