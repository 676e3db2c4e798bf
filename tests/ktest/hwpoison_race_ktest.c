/*
 * hwpoison_race_ktest.c - the third part of the `hwpoison` KTAP suite (the case table is in
 * tests/ktest/hwpoison_ktest.c; tests/ktest/hwpoison_ktest.h says what the parts share): a
 * page-cache folio whose compound state changes while memory_failure() holds no lock on it.
 * v6.10 looks again once it has the folio lock: a folio that became large is retried from the
 * start, once, and then given up as "different compound page after locking".  Nothing in tinymm
 * turns a referenced small folio into a large one, so mf_race_hook stands in for the racing
 * thread: the frame is the first frame of an order-1 block of the case's own (not compound), and the
 * hook makes it the head of an order-1 folio, or back.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/memory-failure.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/swap.h"
#include "../../mm/internal.h"
#include "hwpoison_ktest.h"

static struct {
	int calls[2];		/* per enum mf_race_point */
	bool twice;		/* large before every lock, small again at every pass's start */
} race;

static void make_large(struct page *p)
{
	if (!PageHead(p))
		prep_compound_page(p, 1);
}

/* Undo prep_compound_page(p, 1): page 1's order byte and second-page flags, its link, PG_head. */
static void make_small(struct page *p)
{
	if (!PageHead(p))
		return;
	p[1].flags &= ~(0xffUL | 1UL << PG_has_hwpoisoned | 1UL << PG_large_rmappable);
	clear_compound_head(p + 1);
	__ClearPageHead(p);
}

static void race_hook(struct page *p, enum mf_race_point where)
{
	race.calls[where]++;
	if (where == MF_RACE_LOCK && (race.twice || race.calls[where] == 1))
		make_large(p);
	if (where == MF_RACE_PASS && race.twice)
		make_small(p);
}

/*
 * A clean page-cache folio at @index on the first frame of an order-1 block of ours (the second
 * frame, also ours, is what the hook makes its tail): listed, uptodate, unlocked, held by the
 * cache alone.
 */
static struct page *race_setup(struct ktest *t, pgoff_t index)
{
	struct page *p = alloc_pages(GFP_KERNEL, 1);

	if (!p)
		return NULL;
	struct folio *f = (struct folio *)p;
	KTEST_EXPECT_EQ(t, filemap_add_folio(&hw_mapping, f, index, GFP_KERNEL), 0);
	memset(page_address(p), 0x5a, PAGE_SIZE);
	folio_mark_uptodate(f);
	folio_unlock(f);
	lru_add_drain();
	folio_put(f);				/* the allocation's reference */
	memset(&race, 0, sizeof(race));
	mf_race_hook = race_hook;
	return p;
}

/* Small again, out of the cache, unpoisoned (back on the free lists), the second frame freed. */
static void race_cleanup(struct ktest *t, struct page *p)
{
	mf_race_hook = NULL;
	make_small(p);
	truncate_inode_pages(&hw_mapping, 0);
	lru_add_drain();
	hw_unpoison(t, page_to_pfn(p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 0);
	KTEST_EXPECT_EQ(t, page_ref_count(p + 1), 0);
	atomic_set(&p[1]._refcount, 1);		/* ours since the allocation: free it alone */
	__free_page(p + 1);
	KTEST_EXPECT_TRUE(t, hw_pfn_is_free(page_to_pfn(p)) && hw_pfn_is_free(page_to_pfn(p + 1)));
}

/*
 * Large by the time memory_failure() has the lock: Linux looks again from the start, where the
 * folio is now large: PG_has_hwpoisoned, the split fails, "unsplit thp", Ignored.  One action
 * line, counted once; no reference kept.
 */
static void became_large_before_the_lock(struct ktest *t)
{
	struct page *p = race_setup(t, 4);
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p);
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	KTEST_EXPECT_EQ(t, race.calls[MF_RACE_PASS], 2);	/* retried once */
	KTEST_EXPECT_EQ(t, race.calls[MF_RACE_LOCK], 1);	/* the retry stopped before the lock */
	EXPECT_ACTION(t, pfn, "unsplit thp", "Ignored");
	EXPECT_NOT_LOGGED(t, "Memory failure: %#lx: recovery action for huge page: Failed", pfn);
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p) && folio_test_has_hwpoisoned((struct folio *)p));
	KTEST_EXPECT_FALSE(t, folio_test_locked((struct folio *)p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 1);		/* the cache's */
	race_cleanup(t, p);
}

/*
 * Small at each first look and large at each lock: retried once, then Linux's "different
 * compound page after locking", Ignored, the folio unlocked and memory_failure()'s reference
 * kept (unpoison drops it).
 */
static void different_compound_after_locking(struct ktest *t)
{
	struct page *p = race_setup(t, 5);
	struct hw_counts c;

	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p);
	race.twice = true;
	hw_counts(&c);
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), -EBUSY);
	KTEST_EXPECT_EQ(t, race.calls[MF_RACE_PASS], 2);
	KTEST_EXPECT_EQ(t, race.calls[MF_RACE_LOCK], 2);
	EXPECT_ACTION(t, pfn, "different compound page after locking", "Ignored");
	hw_expect_counted(t, &c, MF_IGNORED);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p));
	KTEST_EXPECT_FALSE(t, folio_test_locked((struct folio *)p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 2);		/* the cache's and memory_failure()'s */
	race_cleanup(t, p);
}

HW_CASE(became_large_before_the_lock, &hw_aops)
HW_CASE(different_compound_after_locking, &hw_aops)
