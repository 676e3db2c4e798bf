/*
 * truncate_ktest.c - mm/truncate.c (suite `truncate`, every board, and on the host under
 * ASan/UBSan with threads and a simulated clock through tests/host/truncate_test.c) over a fake
 * disk whose reads complete at once and which has no writepages (nothing writes our dirty
 * folios behind the cases' backs; writeback is started and ended by hand):
 *   - truncation removes every folio and value (shadow) entry of its range, dirty or clean,
 *     referenced or not, and only those: nrpages, NR_FILE_PAGES, NR_FILE_DIRTY, the DIRTY and
 *     TOWRITE tags all follow;
 *   - partial folios at the edges keep their bytes outside the range and get zeros inside;
 *   - a folio under writeback is waited for (a timer ends the writeback in interrupt context,
 *     as an I/O completion would), a locked one too (a thread holds the lock and sleeps);
 *   - invalidation removes only clean, unlocked, unused folios (a folio waiting in an LRU
 *     batch counts as unused: the batch is drained first) and the shadow entries, and counts
 *     them as v6.10 does; invalidate_inode_pages2_range waits, and reports a dirty folio;
 * and after every case the mapping is truncated empty, the counters are back and lru_check()
 * finds the lists consistent.
 */
#include <string.h>
#include "tinymm/completion.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/swap.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"

#define TR_DISK_PAGES	64
#define TR_FILL		0xa5

static struct address_space tr_mapping;
static unsigned long tr_pages_before, tr_dirty_before, tr_wb_before;
static unsigned long tr_lru_base[NR_LRU_LISTS];

static int tr_read_folio(struct address_space *m, struct folio *folio)
{
	(void)m;
	memset(page_address(&folio->page), TR_FILL, PAGE_SIZE);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static const struct address_space_operations tr_aops = {
	.read_folio = tr_read_folio,
};

static void tr_setup(void)
{
	lru_add_drain();
	address_space_init(&tr_mapping, &tr_aops, (loff_t)TR_DISK_PAGES * PAGE_SIZE);
	tr_pages_before = global_node_page_state(NR_FILE_PAGES);
	tr_dirty_before = global_node_page_state(NR_FILE_DIRTY);
	tr_wb_before = global_node_page_state(NR_WRITEBACK);
	for (int i = 0; i < NR_LRU_LISTS; i++)
		tr_lru_base[i] = node_lruvec.nr_pages[i];
}

static void tr_teardown(struct ktest *t)
{
	truncate_inode_pages(&tr_mapping, 0);
	inode_io_list_del(&tr_mapping);		/* dirtied cases put it on the flusher's list */
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 0UL);
	KTEST_EXPECT_TRUE(t, xa_empty(&tr_mapping.i_pages));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), tr_pages_before);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), tr_dirty_before);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), tr_wb_before);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, lru_batched_folios(), 0);
	for (int i = 0; i < NR_LRU_LISTS; i++)
		KTEST_EXPECT_EQ(t, node_lruvec.nr_pages[i], tr_lru_base[i]);
}

/* A new uptodate, unlocked folio at @index filled with TR_FILL; the caller holds a reference. */
static struct folio *tr_new(struct ktest *t, pgoff_t index)
{
	struct folio *folio = __filemap_get_folio(&tr_mapping, index, FGP_CREAT | FGP_LOCK, GFP_KERNEL);

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no folio");
		return NULL;
	}
	memset(page_address(&folio->page), TR_FILL, PAGE_SIZE);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return folio;
}

/* Make folios [first, last] and drop our references (the cache's keep them). */
static void tr_populate(struct ktest *t, pgoff_t first, pgoff_t last)
{
	for (pgoff_t i = first; i <= last; i++) {
		struct folio *folio = tr_new(t, i);
		if (folio)
			folio_put(folio);
	}
}

static void tr_dirty(struct folio *folio)
{
	folio_lock(folio);
	folio_mark_dirty(folio);
	folio_unlock(folio);
}

/* Writeback started as write_cache_pages would: locked, dirt moved to the write. */
static void tr_start_writeback(struct folio *folio)
{
	folio_lock(folio);
	folio_clear_dirty_for_io(folio);
	folio_start_writeback(folio);
	folio_unlock(folio);
}

/* A shadow entry, as reclaim leaves one (mm/workingset.c): under the index lock. */
static void tr_shadow(struct ktest *t, pgoff_t index)
{
	unsigned long flags;
	void *old;

	spin_lock_irqsave(&tr_mapping.i_pages.xa_lock, flags);
	old = xa_store(&tr_mapping.i_pages, index, xa_mk_value(0x5eed + index), GFP_ATOMIC);
	spin_unlock_irqrestore(&tr_mapping.i_pages.xa_lock, flags);
	KTEST_EXPECT_TRUE(t, old == NULL);
}

static void *tr_entry(pgoff_t index)
{
	unsigned long flags;
	void *entry;

	local_irq_save(flags);
	entry = xa_load(&tr_mapping.i_pages, index);
	local_irq_restore(flags);
	return entry;
}

static bool tr_has_folio(pgoff_t index)
{
	void *entry = tr_entry(index);

	return entry && !xa_is_value(entry);
}

static bool tr_has_value(pgoff_t index)
{
	void *entry = tr_entry(index);

	return entry && xa_is_value(entry);
}

/* How many bytes of @folio in [from, to) are not @c. */
static size_t tr_bytes_not(struct folio *folio, size_t from, size_t to, unsigned char c)
{
	const unsigned char *p = page_address(&folio->page);
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		n += p[i] != c;
	return n;
}

/* truncate_inode_pages(m, 0): every folio and value entry, dirty or referenced, and the counts. */
static void truncate_all(struct ktest *t)
{
	struct folio *f[8];
	unsigned long flags;

	for (int i = 0; i < 8; i++) {
		f[i] = tr_new(t, (pgoff_t)i);
		KTEST_ASSERT_TRUE(t, f[i]);
	}
	lru_add_drain();
	tr_populate(t, 20, 22);				/* these wait in the lru_add batch */
	tr_dirty(f[2]);
	tr_dirty(f[5]);
	spin_lock_irqsave(&tr_mapping.i_pages.xa_lock, flags);
	xa_set_mark(&tr_mapping.i_pages, 5, PAGECACHE_TAG_TOWRITE);	/* a sync pass tagged it */
	spin_unlock_irqrestore(&tr_mapping.i_pages.xa_lock, flags);
	tr_shadow(t, 12);
	tr_shadow(t, 40);
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 11UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), tr_pages_before + 11);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), tr_dirty_before + 2);
	KTEST_EXPECT_TRUE(t, xa_marked(&tr_mapping.i_pages, PAGECACHE_TAG_DIRTY));

	truncate_inode_pages(&tr_mapping, 0);

	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 0UL);
	KTEST_EXPECT_TRUE(t, xa_empty(&tr_mapping.i_pages));	/* the shadows went too */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), tr_pages_before);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), tr_dirty_before);
	KTEST_EXPECT_FALSE(t, xa_marked(&tr_mapping.i_pages, PAGECACHE_TAG_DIRTY));
	KTEST_EXPECT_FALSE(t, xa_marked(&tr_mapping.i_pages, PAGECACHE_TAG_TOWRITE));
	lru_add_drain();
	for (int i = 0; i < 8; i++) {
		/* Referenced by us and still removed; clean, unlocked, ours alone now. */
		KTEST_EXPECT_TRUE(t, f[i]->mapping == NULL);
		KTEST_EXPECT_FALSE(t, folio_test_dirty(f[i]));
		KTEST_EXPECT_FALSE(t, folio_test_locked(f[i]));
		KTEST_EXPECT_EQ(t, atomic_read(&f[i]->_refcount), 1);
		folio_put(f[i]);
	}
}

/* A page-aligned range: exactly its folios and value entries go. */
static void truncate_range_exact(struct ktest *t)
{
	tr_populate(t, 0, 9);
	tr_shadow(t, 11);
	tr_shadow(t, 13);
	struct folio *f4 = filemap_get_folio(&tr_mapping, 4);
	KTEST_ASSERT_TRUE(t, !IS_ERR(f4));
	tr_dirty(f4);
	folio_put(f4);
	/* pages 2..5 and 11; 13 is past lend */
	truncate_inode_pages_range(&tr_mapping, 2 * PAGE_SIZE, 6 * PAGE_SIZE - 1);
	truncate_inode_pages_range(&tr_mapping, 11 * PAGE_SIZE, 12 * PAGE_SIZE - 1);
	for (pgoff_t i = 0; i < 10; i++)
		KTEST_EXPECT_EQ(t, tr_has_folio(i), i < 2 || i > 5);
	KTEST_EXPECT_FALSE(t, tr_has_value(11));
	KTEST_EXPECT_TRUE(t, tr_has_value(13));
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 6UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), tr_pages_before + 6);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), tr_dirty_before);
	/* Bytes inside one page only: nothing removed. */
	truncate_inode_pages_range(&tr_mapping, 7 * PAGE_SIZE + 1, 8 * PAGE_SIZE - 1);
	KTEST_EXPECT_TRUE(t, tr_has_folio(7));
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 6UL);
}

/* Partial folios at both edges: zeros exactly in the truncated bytes, kept, still dirty. */
static void partial_edges_zeroed(struct ktest *t)
{
	struct folio *f[8];

	for (int i = 0; i < 8; i++) {
		f[i] = tr_new(t, (pgoff_t)i);
		KTEST_ASSERT_TRUE(t, f[i]);
	}
	tr_dirty(f[0]);
	/* bytes 100 .. 3 pages + 49: folio 0 from 100, 1 and 2 whole, folio 3 up to 49 */
	truncate_inode_pages_range(&tr_mapping, 100, 3 * PAGE_SIZE + 49);
	KTEST_EXPECT_TRUE(t, f[0]->mapping == &tr_mapping);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[0], 0, 100, TR_FILL), 0);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[0], 100, PAGE_SIZE, 0), 0);
	KTEST_EXPECT_TRUE(t, folio_test_dirty(f[0]));		/* as in Linux: kept as it was */
	KTEST_EXPECT_TRUE(t, xa_get_mark(&tr_mapping.i_pages, 0, PAGECACHE_TAG_DIRTY));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), tr_dirty_before + 1);
	KTEST_EXPECT_TRUE(t, f[1]->mapping == NULL);
	KTEST_EXPECT_TRUE(t, f[2]->mapping == NULL);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[1], 0, PAGE_SIZE, TR_FILL), 0);	/* removed, not zeroed */
	KTEST_EXPECT_TRUE(t, f[3]->mapping == &tr_mapping);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[3], 0, 50, 0), 0);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[3], 50, PAGE_SIZE, TR_FILL), 0);
	KTEST_EXPECT_FALSE(t, folio_test_locked(f[0]) || folio_test_locked(f[3]));
	/* Inside one folio: bytes 904..1903 of folio 5. */
	truncate_inode_pages_range(&tr_mapping, 5 * PAGE_SIZE + 904, 5 * PAGE_SIZE + 1903);
	KTEST_EXPECT_TRUE(t, f[5]->mapping == &tr_mapping);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[5], 0, 904, TR_FILL), 0);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[5], 904, 1904, 0), 0);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[5], 1904, PAGE_SIZE, TR_FILL), 0);
	/* To the end from inside folio 6: it keeps 10 bytes, 7 goes. */
	truncate_inode_pages(&tr_mapping, 6 * PAGE_SIZE + 10);
	KTEST_EXPECT_TRUE(t, f[6]->mapping == &tr_mapping);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[6], 0, 10, TR_FILL), 0);
	KTEST_EXPECT_EQ(t, tr_bytes_not(f[6], 10, PAGE_SIZE, 0), 0);
	KTEST_EXPECT_TRUE(t, f[7]->mapping == NULL);
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 5UL);		/* 0, 3, 4, 5, 6 */
	for (int i = 0; i < 8; i++)
		folio_put(f[i]);
}

/* ---- waiting ---- */

struct tr_wb_end {
	struct timer_list timer;
	struct folio *folio;
	volatile bool ended;
	size_t changed;			/* bytes 100.. of the folio not TR_FILL when it ended */
};

/* The I/O completion, in interrupt context: what the device wrote must not have changed. */
static void tr_end_writeback_fn(struct timer_list *timer)
{
	struct tr_wb_end *e = from_timer(e, timer, timer);

	e->changed = tr_bytes_not(e->folio, 100, PAGE_SIZE, TR_FILL);
	folio_end_writeback(e->folio);
	e->ended = true;
}

/* End @e's writeback from a timer at jiffy @expires. */
static void tr_wb_end_arm(struct tr_wb_end *e, unsigned long expires)
{
	timer_setup(&e->timer, tr_end_writeback_fn, 0);
	mod_timer(&e->timer, expires);
}

/* If the code under test did not wait, let the completion happen before the folio is freed. */
static void tr_wb_end_finish(struct tr_wb_end *e)
{
	for (int i = 0; i < 1000 && !e->ended; i++)
		msleep(1);
	del_timer_sync(&e->timer);
}

/*
 * Under writeback when truncation starts: folio 4 (redirtied while in flight) inside the range,
 * folio 2 at its partial start edge.  Both writes end later from timers; truncation waits for
 * each: 4 before it is removed, 2 before its truncated bytes are zeroed (the device still reads
 * them).
 */
static void truncate_waits_for_writeback(struct ktest *t)
{
	struct tr_wb_end edge = { .folio = NULL }, whole = { .folio = NULL };

	tr_populate(t, 0, 7);
	edge.folio = filemap_get_folio(&tr_mapping, 2);
	whole.folio = filemap_get_folio(&tr_mapping, 4);
	KTEST_ASSERT_TRUE(t, !IS_ERR(edge.folio) && !IS_ERR(whole.folio));
	tr_dirty(edge.folio);
	tr_start_writeback(edge.folio);
	tr_dirty(whole.folio);
	tr_start_writeback(whole.folio);
	tr_dirty(whole.folio);				/* written to while in flight */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), tr_wb_before + 2);
	unsigned long armed = jiffies + 8;
	tr_wb_end_arm(&edge, armed - 3);
	tr_wb_end_arm(&whole, armed);

	truncate_inode_pages(&tr_mapping, 2 * PAGE_SIZE + 100);

	KTEST_EXPECT_TRUE(t, edge.ended);		/* waited for both */
	KTEST_EXPECT_TRUE(t, whole.ended);
	KTEST_EXPECT_TRUE(t, time_after_eq(jiffies, armed));
	KTEST_EXPECT_EQ(t, edge.changed, 0);		/* zeroed only after the write */
	KTEST_EXPECT_TRUE(t, edge.folio->mapping == &tr_mapping);
	KTEST_EXPECT_EQ(t, tr_bytes_not(edge.folio, 100, PAGE_SIZE, 0), 0);
	KTEST_EXPECT_TRUE(t, whole.folio->mapping == NULL);	/* and then removed */
	KTEST_EXPECT_FALSE(t, folio_test_writeback(whole.folio));
	KTEST_EXPECT_FALSE(t, folio_test_dirty(whole.folio));
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 3UL);	/* 0, 1, 2 */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), tr_dirty_before);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), tr_wb_before);
	tr_wb_end_finish(&edge);
	tr_wb_end_finish(&whole);
	folio_put(edge.folio);
	folio_put(whole.folio);
}

struct tr_holder {
	struct ktest *t;
	struct folio *folio[2];
	struct completion locked;
	volatile bool released[2];
};

/*
 * Another thread's folio locks (a reader in the middle of its I/O, say), held across sleeps:
 * folio 0 (the partial edge) for 5 ms, folio 2 for 5 ms more, and before letting folio 2 go it
 * reads folio 1 back in, behind the truncation's walk (which by then sleeps on folio 2).
 */
static int tr_holder_fn(void *arg)
{
	struct tr_holder *h = arg;

	folio_lock(h->folio[0]);
	folio_lock(h->folio[1]);
	complete(&h->locked);
	msleep(5);
	h->released[0] = true;
	folio_unlock(h->folio[0]);
	msleep(5);
	struct folio *late = tr_new(h->t, 1);
	if (late)
		folio_put(late);
	h->released[1] = true;
	folio_unlock(h->folio[1]);
	return 0;
}

/*
 * Locked by someone else: the partial edge folio and a whole one are both waited for, and the
 * second pass walks again until nothing is left, so the folio added behind it goes too.
 */
static void truncate_waits_for_lock(struct ktest *t)
{
	struct tr_holder h = { .t = t, .released = { false, false } };

	tr_populate(t, 0, 3);
	h.folio[0] = filemap_get_folio(&tr_mapping, 0);
	h.folio[1] = filemap_get_folio(&tr_mapping, 2);
	KTEST_ASSERT_TRUE(t, !IS_ERR(h.folio[0]) && !IS_ERR(h.folio[1]));
	init_completion(&h.locked);
	struct task_struct *th = kthread_create_opts(tr_holder_fn, &h, "tr-holder", DEFAULT_PRIO, 2);
	KTEST_ASSERT_TRUE(t, th != NULL);
	wake_up_process(th);
	wait_for_completion(&h.locked);

	truncate_inode_pages(&tr_mapping, 100);		/* folio 0 from byte 100, 1.. whole */

	KTEST_EXPECT_TRUE(t, h.released[0]);
	KTEST_EXPECT_TRUE(t, h.released[1]);
	KTEST_EXPECT_TRUE(t, h.folio[0]->mapping == &tr_mapping);
	KTEST_EXPECT_EQ(t, tr_bytes_not(h.folio[0], 100, PAGE_SIZE, 0), 0);
	KTEST_EXPECT_EQ(t, tr_bytes_not(h.folio[0], 0, 100, TR_FILL), 0);
	KTEST_EXPECT_TRUE(t, h.folio[1]->mapping == NULL);
	KTEST_EXPECT_FALSE(t, tr_has_folio(1));		/* the late one */
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 1UL);
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);
	folio_put(h.folio[0]);
	folio_put(h.folio[1]);
}

/* ---- invalidation ---- */

/*
 * mapping_try_invalidate over 0..7: 0 clean, 1 dirty, 2 locked, 3 under writeback, 4 referenced
 * by us, 5 clean but waiting in the lru_add batch (drained first, so it goes), 6 a shadow entry,
 * 7 clean; 8 clean but out of range.  Evicted: 0, 5, 7 = 3 (the shadow goes but is not
 * counted: Linux counts it, tinymm's drop_caches prints the count as pages); nr_failed counts
 * the folios it locked and could not evict (1 and 4: the locked one and the one under writeback
 * are passed over before that).
 */
static void invalidate_skips_busy(struct ktest *t)
{
	struct folio *f[9];
	unsigned long failed = 0;

	for (int i = 0; i < 9; i++) {
		if (i == 5 || i == 6)
			continue;
		f[i] = tr_new(t, (pgoff_t)i);
		KTEST_ASSERT_TRUE(t, f[i]);
	}
	lru_add_drain();
	tr_dirty(f[1]);
	KTEST_ASSERT_TRUE(t, folio_trylock(f[2]));
	tr_start_writeback(f[3]);
	tr_shadow(t, 6);
	f[5] = tr_new(t, 5);
	KTEST_ASSERT_TRUE(t, f[5]);
	folio_put(f[5]);
	KTEST_EXPECT_FALSE(t, folio_test_lru(f[5]));		/* in the batch, with its reference */
	for (int i = 0; i < 9; i++)
		if (i != 4 && i != 5 && i != 6)
			folio_put(f[i]);			/* the cache's reference stays */

	KTEST_EXPECT_EQ(t, mapping_try_invalidate(&tr_mapping, 0, 7, &failed), 3UL);
	KTEST_EXPECT_EQ(t, failed, 2UL);
	for (pgoff_t i = 0; i < 9; i++)
		KTEST_EXPECT_EQ(t, tr_has_folio(i), (i >= 1 && i <= 4) || i == 8);
	KTEST_EXPECT_FALSE(t, tr_has_value(6));
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 5UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), tr_pages_before + 5);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), tr_dirty_before + 1);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);

	/* Unlocked, written, unreferenced: now they go; the dirty one still stays. */
	folio_unlock(f[2]);
	folio_end_writeback(f[3]);
	folio_put(f[4]);
	KTEST_EXPECT_EQ(t, invalidate_mapping_pages(&tr_mapping, 0, ~0UL), 4UL);	/* 2, 3, 4, 8 */
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 1UL);
	KTEST_EXPECT_TRUE(t, tr_has_folio(1));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), tr_wb_before);
}

/* folio_cancel_dirty on a folio that stays: flag, count and tags go together. */
static void cancel_dirty_keeps_tags_true(struct ktest *t)
{
	struct folio *f = tr_new(t, 3);
	unsigned long flags;

	KTEST_ASSERT_TRUE(t, f);
	tr_dirty(f);
	spin_lock_irqsave(&tr_mapping.i_pages.xa_lock, flags);
	xa_set_mark(&tr_mapping.i_pages, 3, PAGECACHE_TAG_TOWRITE);
	spin_unlock_irqrestore(&tr_mapping.i_pages.xa_lock, flags);
	folio_lock(f);
	folio_cancel_dirty(f);
	folio_cancel_dirty(f);				/* clean already: nothing more */
	folio_unlock(f);
	KTEST_EXPECT_FALSE(t, folio_test_dirty(f));
	KTEST_EXPECT_TRUE(t, f->mapping == &tr_mapping);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), tr_dirty_before);
	KTEST_EXPECT_FALSE(t, xa_get_mark(&tr_mapping.i_pages, 3, PAGECACHE_TAG_DIRTY));
	KTEST_EXPECT_FALSE(t, xa_get_mark(&tr_mapping.i_pages, 3, PAGECACHE_TAG_TOWRITE));
	folio_put(f);
}

/*
 * invalidate_inode_pages2_range over 0..4: 0 under writeback (ended later by a timer: waited
 * for), 1 dirty (stays: -EBUSY), 2 referenced by us (goes: Linux does not look at references),
 * 3 a shadow, 4 clean.  Once 1 is clean, invalidate_inode_pages2 empties the mapping: 0.
 */
static void invalidate2_waits_and_reports_busy(struct ktest *t)
{
	struct tr_wb_end e = { .folio = NULL };

	tr_populate(t, 0, 2);
	tr_populate(t, 4, 4);
	tr_shadow(t, 3);
	tr_shadow(t, 9);
	struct folio *f1 = filemap_get_folio(&tr_mapping, 1);
	struct folio *f2 = filemap_get_folio(&tr_mapping, 2);
	e.folio = filemap_get_folio(&tr_mapping, 0);
	KTEST_ASSERT_TRUE(t, !IS_ERR(f1) && !IS_ERR(f2) && !IS_ERR(e.folio));
	tr_dirty(f1);
	tr_start_writeback(e.folio);
	tr_wb_end_arm(&e, jiffies + 3);

	KTEST_EXPECT_EQ(t, invalidate_inode_pages2_range(&tr_mapping, 0, 4), -EBUSY);

	KTEST_EXPECT_TRUE(t, e.ended);
	for (pgoff_t i = 0; i < 5; i++)
		KTEST_EXPECT_EQ(t, tr_has_folio(i), i == 1);
	KTEST_EXPECT_FALSE(t, tr_has_value(3));
	KTEST_EXPECT_TRUE(t, tr_has_value(9));		/* out of range */
	KTEST_EXPECT_TRUE(t, f2->mapping == NULL);
	KTEST_EXPECT_EQ(t, tr_mapping.nrpages, 1UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_WRITEBACK), tr_wb_before);
	folio_lock(f1);
	folio_cancel_dirty(f1);
	folio_unlock(f1);
	KTEST_EXPECT_EQ(t, invalidate_inode_pages2(&tr_mapping), 0);
	KTEST_EXPECT_TRUE(t, xa_empty(&tr_mapping.i_pages));
	tr_wb_end_finish(&e);
	folio_put(e.folio);
	folio_put(f1);
	folio_put(f2);
}

#define TR_CASE(fn)								\
	static void fn##_case(struct ktest *t) { tr_setup(); fn(t); tr_teardown(t); }
TR_CASE(truncate_all)
TR_CASE(truncate_range_exact)
TR_CASE(partial_edges_zeroed)
TR_CASE(truncate_waits_for_writeback)
TR_CASE(truncate_waits_for_lock)
TR_CASE(invalidate_skips_busy)
TR_CASE(cancel_dirty_keeps_tags_true)
TR_CASE(invalidate2_waits_and_reports_busy)

static const struct ktest_case truncate_cases[] = {
	{ "truncate_all", truncate_all_case },
	{ "truncate_range_exact", truncate_range_exact_case },
	{ "partial_edges_zeroed", partial_edges_zeroed_case },
	{ "truncate_waits_for_writeback", truncate_waits_for_writeback_case },
	{ "truncate_waits_for_lock", truncate_waits_for_lock_case },
	{ "invalidate_skips_busy", invalidate_skips_busy_case },
	{ "cancel_dirty_keeps_tags_true", cancel_dirty_keeps_tags_true_case },
	{ "invalidate2_waits_and_reports_busy", invalidate2_waits_and_reports_busy_case },
	{}
};
KTEST_SUITE(truncate, truncate_cases);
