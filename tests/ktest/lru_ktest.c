/*
 * lru_ktest.c - mm/swap.c's LRU rules (suite `lru`, every board, and on the host under
 * ASan/UBSan through tests/host/lru_test.c) over a fake disk whose reads complete at once:
 *   - a new cache folio waits in the lru_add batch (a reference, no PG_lru) until the batch
 *     fills (PAGEVEC_SIZE = 31, as Linux) or is drained, then sits at the inactive list's head;
 *   - two-touch activation, v6.10's folio_mark_accessed: touch 1 sets PG_referenced, touch 2
 *     moves the folio to the active list (PG_active, PG_referenced cleared, pgactivate + 1),
 *     touch 3 sets PG_referenced on the active list; two touches in the batch land it active;
 *   - the read path touches a folio once per run of reads inside it (pos_same_folio);
 *   - an unevictable mapping's folios go to LRU_UNEVICTABLE with PG_unevictable, touches do not
 *     activate them, and releasing the mapping returns them to the inactive list;
 *   - folio_rotate_reclaimable moves a clean unlocked folio to the inactive tail (active or not),
 *     at the next drain, and leaves a locked or dirty one alone;
 *   - the last folio_put of a listed folio takes it off its list;
 * and after every case, lru_check(): each list's flags and length match its count and the node
 * stats.  No thread sleeps: every folio is unlocked before anyone could wait on it.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "../../mm/internal.h"

#define LRU_DISK_PAGES	64

static struct address_space lru_mapping;
static struct file_ra_state lru_ra;
static unsigned long lru_base[NR_LRU_LISTS];	/* list lengths before the case (real disks) */

static void lru_complete(struct folio *folio)
{
	memset(page_address(&folio->page), (int)folio->index, PAGE_SIZE);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
}

static int lru_read_folio(struct address_space *m, struct folio *folio)
{
	lru_complete(folio);
	return 0;
}

static void lru_readahead(struct readahead_control *rac)
{
	struct folio *folio;

	while ((folio = readahead_folio(rac)))
		lru_complete(folio);
}

static const struct address_space_operations lru_aops = {
	.read_folio = lru_read_folio,
	.readahead = lru_readahead,
};

static int lru_pr(const char *fmt, ...)
{
	return 0;
}

static void lru_setup(void)
{
	lru_add_drain();		/* start with empty batches */
	address_space_init(&lru_mapping, &lru_aops, (loff_t)LRU_DISK_PAGES * PAGE_SIZE);
	file_ra_state_init(&lru_ra, 0);	/* one page per miss: the cases count folios exactly */
	for (int i = 0; i < NR_LRU_LISTS; i++)
		lru_base[i] = node_lruvec.nr_pages[i];
}

static void lru_teardown(struct ktest *t)
{
	invalidate_mapping_pages(&lru_mapping, 0, ~0UL);
	KTEST_EXPECT_EQ(t, lru_mapping.nrpages, 0UL);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, lru_batched_folios(), 0);
	for (int i = 0; i < NR_LRU_LISTS; i++)
		KTEST_EXPECT_EQ(t, node_lruvec.nr_pages[i], lru_base[i]);
}

/* A new uptodate, unlocked cache folio at @index; the caller holds the returned reference. */
static struct folio *lru_new(struct ktest *t, pgoff_t index)
{
	struct folio *folio = __filemap_get_folio(&lru_mapping, index, FGP_CREAT | FGP_LOCK, GFP_KERNEL);

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no folio");
		return NULL;
	}
	lru_complete(folio);
	return folio;
}

/* Position of @folio on @lru counted from the head (0), or -1 if it is not there. */
static long lru_pos(struct folio *folio, enum lru_list lru)
{
	long n = 0;

	for (struct page *p = page_list_first(&node_lruvec.lists[lru]); p; p = page_list_next(p), n++)
		if (p == &folio->page)
			return n;
	return -1;
}

static bool lru_is_tail(struct folio *folio, enum lru_list lru)
{
	return !page_list_empty(&node_lruvec.lists[lru]) &&
	       link_to_page(node_lruvec.lists[lru].last) == &folio->page;
}

static unsigned long lru_len(enum lru_list lru)
{
	return node_lruvec.nr_pages[lru] - lru_base[lru];
}

/* Batched until the 31st add drains the batch: then PG_lru, inactive head, counted. */
static void batch_then_lru(struct ktest *t)
{
	struct folio *f[PAGEVEC_SIZE];
	unsigned long inactive = global_node_page_state(NR_INACTIVE_FILE);

	for (int i = 0; i < PAGEVEC_SIZE - 1; i++) {
		f[i] = lru_new(t, (pgoff_t)i);
		KTEST_ASSERT_TRUE(t, f[i]);
	}
	KTEST_EXPECT_EQ(t, lru_batched_folios(), PAGEVEC_SIZE - 1);
	KTEST_EXPECT_FALSE(t, folio_test_lru(f[0]));
	KTEST_EXPECT_EQ(t, atomic_read(&f[0]->_refcount), 3);	/* ours, the cache's, the batch's */
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), 0);
	f[PAGEVEC_SIZE - 1] = lru_new(t, PAGEVEC_SIZE - 1);		/* fills the batch: drained */
	KTEST_ASSERT_TRUE(t, f[PAGEVEC_SIZE - 1]);
	KTEST_EXPECT_EQ(t, lru_batched_folios(), 0);
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), PAGEVEC_SIZE);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_INACTIVE_FILE), inactive + PAGEVEC_SIZE);
	for (int i = 0; i < PAGEVEC_SIZE; i++) {
		KTEST_EXPECT_TRUE(t, folio_test_lru(f[i]));
		KTEST_EXPECT_FALSE(t, folio_test_active(f[i]));
		KTEST_EXPECT_EQ(t, atomic_read(&f[i]->_refcount), 2);
	}
	KTEST_EXPECT_EQ(t, lru_pos(f[PAGEVEC_SIZE - 1], LRU_INACTIVE_FILE), 0);	/* newest at the head */
	KTEST_EXPECT_TRUE(t, lru_is_tail(f[0], LRU_INACTIVE_FILE));
	struct folio *g = lru_new(t, 40);
	KTEST_ASSERT_TRUE(t, g);
	KTEST_EXPECT_FALSE(t, folio_test_lru(g));
	lru_add_drain();						/* drained by hand */
	KTEST_EXPECT_TRUE(t, folio_test_lru(g));
	KTEST_EXPECT_EQ(t, lru_pos(g, LRU_INACTIVE_FILE), 0);
	folio_put(g);
	for (int i = 0; i < PAGEVEC_SIZE; i++)
		folio_put(f[i]);
}

/* Linux's folio_mark_accessed, touch by touch, on a listed folio. */
static void two_touch_activation(struct ktest *t)
{
	struct folio *f = lru_new(t, 3);

	KTEST_ASSERT_TRUE(t, f);
	lru_add_drain();
	unsigned long act = global_vm_event(PGACTIVATE);
	folio_mark_accessed(f);					/* 1: referenced, still inactive */
	KTEST_EXPECT_TRUE(t, folio_test_referenced(f));
	KTEST_EXPECT_FALSE(t, folio_test_active(f));
	KTEST_EXPECT_EQ(t, lru_pos(f, LRU_INACTIVE_FILE), 0);
	folio_mark_accessed(f);					/* 2: activated */
	KTEST_EXPECT_FALSE(t, folio_test_referenced(f));
	KTEST_EXPECT_TRUE(t, folio_test_active(f));
	KTEST_EXPECT_TRUE(t, folio_test_lru(f));
	KTEST_EXPECT_EQ(t, lru_pos(f, LRU_ACTIVE_FILE), 0);
	KTEST_EXPECT_EQ(t, lru_pos(f, LRU_INACTIVE_FILE), -1);
	KTEST_EXPECT_EQ(t, lru_len(LRU_ACTIVE_FILE), 1);
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), 0);
	KTEST_EXPECT_EQ(t, global_vm_event(PGACTIVATE), act + 1);
	folio_mark_accessed(f);					/* 3: referenced on the active list */
	KTEST_EXPECT_TRUE(t, folio_test_referenced(f));
	KTEST_EXPECT_TRUE(t, folio_test_active(f));
	folio_mark_accessed(f);					/* 4: nothing more to do */
	KTEST_EXPECT_EQ(t, lru_pos(f, LRU_ACTIVE_FILE), 0);
	KTEST_EXPECT_EQ(t, global_vm_event(PGACTIVATE), act + 1);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	folio_put(f);
}

/* Two touches while still batched: PG_active without PG_lru, active list at drain. */
static void touched_in_batch_lands_active(struct ktest *t)
{
	struct folio *f = lru_new(t, 5);

	KTEST_ASSERT_TRUE(t, f);
	folio_mark_accessed(f);
	folio_mark_accessed(f);
	KTEST_EXPECT_FALSE(t, folio_test_lru(f));
	KTEST_EXPECT_TRUE(t, folio_test_active(f));
	KTEST_EXPECT_FALSE(t, folio_test_referenced(f));
	lru_add_drain();
	KTEST_EXPECT_EQ(t, lru_pos(f, LRU_ACTIVE_FILE), 0);
	KTEST_EXPECT_EQ(t, lru_len(LRU_ACTIVE_FILE), 1);
	folio_put(f);
}

static void lru_read(struct ktest *t, loff_t pos, size_t len)
{
	static char buf[3 * PAGE_SIZE];

	KTEST_EXPECT_EQ(t, filemap_read(&lru_mapping, &lru_ra, pos, buf, len), (long)len);
}

/* filemap_read: reads inside one folio after a read that ended in it are not a second touch. */
static void read_path_touches_once_per_folio(struct ktest *t)
{
	lru_read(t, 0, 2048);				/* page 0 made, touched once */
	lru_read(t, 2048, 2048);			/* same folio as the last byte read: no touch */
	lru_add_drain();
	struct folio *f0 = filemap_get_folio(&lru_mapping, 0);
	KTEST_ASSERT_TRUE(t, !IS_ERR(f0));
	KTEST_EXPECT_TRUE(t, folio_test_referenced(f0));
	KTEST_EXPECT_FALSE(t, folio_test_active(f0));
	lru_read(t, PAGE_SIZE, PAGE_SIZE);		/* page 1: its first touch */
	lru_read(t, 0, 100);				/* page 0 again, after page 1: touch 2 */
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, folio_test_active(f0));
	KTEST_EXPECT_EQ(t, lru_len(LRU_ACTIVE_FILE), 1);
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), 1);
	/* 0: no touch (the last read ended in it), 1: touch 2, activated, 2: new, touch 1 */
	lru_read(t, 0, 3 * PAGE_SIZE);
	lru_add_drain();
	KTEST_EXPECT_FALSE(t, folio_test_referenced(f0));
	KTEST_EXPECT_EQ(t, lru_len(LRU_ACTIVE_FILE), 2);
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), 1);
	folio_put(f0);
}

/* AS_UNEVICTABLE: the unevictable list, touches change nothing, release moves them back. */
static void unevictable_mapping(struct ktest *t)
{
	struct folio *f[3];
	unsigned long rescued = global_vm_event(UNEVICTABLE_PGRESCUED);

	mapping_set_unevictable(&lru_mapping);
	for (int i = 0; i < 3; i++) {
		f[i] = lru_new(t, (pgoff_t)(10 + i));
		KTEST_ASSERT_TRUE(t, f[i]);
	}
	folio_mark_accessed(f[0]);			/* in the batch: would activate an evictable one */
	folio_mark_accessed(f[0]);
	lru_add_drain();
	KTEST_EXPECT_EQ(t, lru_len(LRU_UNEVICTABLE), 3);
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), 0);
	KTEST_EXPECT_EQ(t, lru_len(LRU_ACTIVE_FILE), 0);
	for (int i = 0; i < 3; i++) {
		KTEST_EXPECT_TRUE(t, folio_test_unevictable(f[i]));
		KTEST_EXPECT_FALSE(t, folio_test_active(f[i]));
		KTEST_EXPECT_TRUE(t, lru_pos(f[i], LRU_UNEVICTABLE) >= 0);
	}
	folio_mark_accessed(f[1]);
	folio_mark_accessed(f[1]);			/* unevictable: referenced only */
	KTEST_EXPECT_TRUE(t, folio_test_referenced(f[1]));
	KTEST_EXPECT_FALSE(t, folio_test_active(f[1]));
	KTEST_EXPECT_EQ(t, lru_len(LRU_UNEVICTABLE), 3);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), lru_base[LRU_UNEVICTABLE] + 3);
	KTEST_EXPECT_EQ(t, mapping_release_unevictable(&lru_mapping), 3);
	KTEST_EXPECT_FALSE(t, mapping_unevictable(&lru_mapping));
	KTEST_EXPECT_EQ(t, lru_len(LRU_UNEVICTABLE), 0);
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), 3);
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGRESCUED), rescued + 3);
	for (int i = 0; i < 3; i++) {
		KTEST_EXPECT_FALSE(t, folio_test_unevictable(f[i]));
		KTEST_EXPECT_TRUE(t, folio_test_lru(f[i]));
		folio_put(f[i]);
	}
}

/* folio_rotate_reclaimable: to the inactive tail at the next drain, active or not. */
static void rotate_reclaimable_moves_to_tail(struct ktest *t)
{
	struct folio *f[4];

	for (int i = 0; i < 4; i++) {
		f[i] = lru_new(t, (pgoff_t)(20 + i));
		KTEST_ASSERT_TRUE(t, f[i]);
	}
	lru_add_drain();				/* inactive, head to tail: 3 2 1 0 */
	KTEST_EXPECT_TRUE(t, lru_is_tail(f[0], LRU_INACTIVE_FILE));
	unsigned long rotated = global_vm_event(PGROTATED);
	folio_rotate_reclaimable(f[3]);
	KTEST_EXPECT_FALSE(t, folio_test_lru(f[3]));	/* claimed by the batch */
	KTEST_EXPECT_EQ(t, lru_pos(f[3], LRU_INACTIVE_FILE), 0);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, folio_test_lru(f[3]));
	KTEST_EXPECT_TRUE(t, lru_is_tail(f[3], LRU_INACTIVE_FILE));
	KTEST_EXPECT_EQ(t, global_vm_event(PGROTATED), rotated + 1);
	folio_mark_accessed(f[2]);
	folio_mark_accessed(f[2]);			/* active */
	KTEST_EXPECT_TRUE(t, folio_test_active(f[2]));
	folio_rotate_reclaimable(f[2]);
	lru_add_drain();
	KTEST_EXPECT_FALSE(t, folio_test_active(f[2]));	/* Linux's lru_move_tail_fn */
	KTEST_EXPECT_TRUE(t, lru_is_tail(f[2], LRU_INACTIVE_FILE));
	KTEST_EXPECT_EQ(t, lru_len(LRU_ACTIVE_FILE), 0);
	folio_lock(f[1]);				/* locked: left alone */
	folio_rotate_reclaimable(f[1]);
	folio_unlock(f[1]);
	folio_set_dirty(f[0]);				/* dirty: left alone */
	folio_rotate_reclaimable(f[0]);
	folio_clear_dirty(f[0]);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, lru_is_tail(f[2], LRU_INACTIVE_FILE));
	KTEST_EXPECT_EQ(t, global_vm_event(PGROTATED), rotated + 2);
	for (int i = 0; i < 4; i++)
		folio_put(f[i]);
}

/* The last put of a listed folio takes it off its list; a batched one is freed at drain. */
static void freeing_lru_folio_removes_it(struct ktest *t)
{
	struct folio *a = lru_new(t, 30), *b = lru_new(t, 31);

	KTEST_ASSERT_TRUE(t, a && b);
	lru_add_drain();
	folio_mark_accessed(a);
	folio_mark_accessed(a);				/* a active, b inactive */
	unsigned long free_before = nr_free_pages_and_pcp();
	folio_lock(a);
	filemap_remove_folio(a);			/* the cache's reference goes */
	folio_unlock(a);
	KTEST_EXPECT_TRUE(t, folio_test_lru(a));	/* still listed: we hold it */
	folio_put(a);					/* the last one: off the active list */
	KTEST_EXPECT_EQ(t, lru_len(LRU_ACTIVE_FILE), 0);
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), 1);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free_before + 1);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	struct folio *c = lru_new(t, 32);		/* batched, then removed from the cache */
	KTEST_ASSERT_TRUE(t, c);
	folio_lock(c);
	filemap_remove_folio(c);
	folio_unlock(c);
	folio_put(c);					/* the batch still holds it */
	KTEST_EXPECT_EQ(t, lru_batched_folios(), 1);
	free_before = nr_free_pages_and_pcp();
	lru_add_drain();				/* listed, then its last put: off again */
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free_before + 1);
	KTEST_EXPECT_EQ(t, lru_len(LRU_INACTIVE_FILE), 1);
	KTEST_EXPECT_EQ(t, lru_pos(b, LRU_INACTIVE_FILE), 0);
	folio_put(b);
}

/* lru_check() itself finds a count that disagrees with its list (so the teardowns can fail). */
static void lru_check_catches_bad_count(struct ktest *t)
{
	unsigned long flags;

	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	node_lruvec.nr_pages[LRU_ACTIVE_FILE]++;
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
	KTEST_EXPECT_GT(t, lru_check(lru_pr), 0);
	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	node_lruvec.nr_pages[LRU_ACTIVE_FILE]--;
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
	KTEST_EXPECT_EQ(t, lru_check(lru_pr), 0);
}

#define LRU_CASE(fn)								\
	static void fn##_case(struct ktest *t) { lru_setup(); fn(t); lru_teardown(t); }
LRU_CASE(batch_then_lru)
LRU_CASE(two_touch_activation)
LRU_CASE(touched_in_batch_lands_active)
LRU_CASE(read_path_touches_once_per_folio)
LRU_CASE(unevictable_mapping)
LRU_CASE(rotate_reclaimable_moves_to_tail)
LRU_CASE(freeing_lru_folio_removes_it)
LRU_CASE(lru_check_catches_bad_count)

static const struct ktest_case lru_cases[] = {
	{ "batch_then_lru", batch_then_lru_case },
	{ "two_touch_activation", two_touch_activation_case },
	{ "touched_in_batch_lands_active", touched_in_batch_lands_active_case },
	{ "read_path_touches_once_per_folio", read_path_touches_once_per_folio_case },
	{ "unevictable_mapping", unevictable_mapping_case },
	{ "rotate_reclaimable_moves_to_tail", rotate_reclaimable_moves_to_tail_case },
	{ "freeing_lru_folio_removes_it", freeing_lru_folio_removes_it_case },
	{ "lru_check_catches_bad_count", lru_check_catches_bad_count_case },
	{}
};
KTEST_SUITE(lru, lru_cases);
