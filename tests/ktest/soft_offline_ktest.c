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
 *   - a folio someone else keeps a reference to is not moved: -EBUSY, Linux's "migration
 *     failed 1" line, nothing changes;
 *   - a kernel page, a slab page, a reserved frame: -EIO, "unhandlable page.", nothing changes;
 *     already poisoned: 0 and Linux's line; no such frame (past the end, a hole): -ENXIO;
 *   - no soft-offlined frame comes back from 100 000 allocations of orders 0-3 that exhaust
 *     memory again and again; then unpoison_memory() gives each one back.
 * num_poisoned_pages grows by exactly one per frame taken, and memory_failure()'s per-node
 * statistics never move (Linux does not count soft offline there).  After every case the
 * mapping is truncated empty and lru_check() and buddy_check() find nothing.
 *
 * This file holds the cases and the case table; the fake disk, setup, teardown and the helpers
 * are in soft_offline_fixture.c, what both share in soft_offline_ktest.h.
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
#include "soft_offline_ktest.h"

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

/* Its age on the LRU moves with it: active, referenced, workingset; PG_dcache_clean does not. */
static void lru_state_moves(struct ktest *t)
{
	struct folio *f = so_new(t, 4);

	KTEST_ASSERT_TRUE(t, f);
	folio_mark_accessed(f);
	folio_mark_accessed(f);			/* second touch: the active list */
	folio_mark_accessed(f);			/* and referenced there */
	folio_set_workingset(f);
	folio_set_dcache_clean(f);	/* as an executable mapping would leave it */
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
	KTEST_EXPECT_FALSE(t, folio_test_dcache_clean(f));	/* not copied: the new frame's
								 * lines need the maintenance */
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

/* Someone keeps a reference throughout: not moved (Linux's 10 passes, then "migration
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

/* -EIO and Linux's "unhandlable page." line; the frame as it was, nothing counted. */
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
