/*
 * buddy_bad_ktest.c - the `buddy` suite's bad frees and bad allocation (the case table and the
 * helpers: buddy_ktest.c; shared: buddy_ktest.h).  Each makes a page bad one way (a flag left
 * set, a mapping, a mapcount, a tail page, an impossible or wrong order, a double free, a
 * misaligned block, a free frame spoiled before its allocation) and expects exactly one
 * Bad page state report, about the right frame and for the right reason, the frame kept out of
 * the allocator (recorded as leaked), and the free lists as buddy_check() wants them.
 */
#include <stdint.h>
#include <string.h>
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "../../mm/internal.h"
#include "buddy_ktest.h"

/* A bad free: one report (about @report_pfn, for @reason), frame @leak_pfn kept out, the free
 * frames as before it. */
static unsigned long bad0, free0;

static void bad_begin(void)
{
	drain_all_pages(NULL);
	bad0 = nr_bad_pages;
	free0 = nr_free_pages_and_pcp();
}

static void bad_end(struct ktest *t, unsigned long report_pfn, const char *reason, unsigned long leak_pfn)
{
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad0 + 1);
	KTEST_EXPECT_TRUE(t, buddy_reported(report_pfn, reason));
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);
	KTEST_EXPECT_FALSE(t, buddy_pfn_is_free(leak_pfn));
	buddy_record_leak(leak_pfn);
	EXPECT_BUDDY_OK(t);
}

enum bad_kind { BAD_LOCKED, BAD_MLOCKED, BAD_MAPPING, BAD_MAPCOUNT, BAD_ORDER, BAD_TAIL,
		BAD_DOUBLE, BAD_WRONG_ORDER, BAD_WRONG_ORDER_FREE_BUDDY };

/*
 * Free a page made bad one way: one report (about @p, or for a too-large order about its buddy
 * @other), @p kept out, and a bad page left as it was for the post-mortem (Linux returns before
 * it clears a bad page's flags).  The buddy, someone else's, may still be freed by its owner.
 */
static void bad_free(struct ktest *t, enum bad_kind kind, const char *reason)
{
	struct page *p = NULL, *other = NULL, *victim;

	if (kind == BAD_WRONG_ORDER || kind == BAD_WRONG_ORDER_FREE_BUDDY)
		KTEST_ASSERT_TRUE(t, buddy_get_pair(0, &p, &other));
	else
		p = kind == BAD_TAIL ? (struct page *)folio_alloc(GFP_TEST, 1) : alloc_page(GFP_TEST);
	KTEST_ASSERT_TRUE(t, p);
	if (kind == BAD_WRONG_ORDER_FREE_BUDDY)
		__free_page(other);
	victim = kind == BAD_TAIL ? p + 1 : p;
	bad_begin();
	if (kind == BAD_LOCKED)
		__SetPageLocked(p);
	if (kind == BAD_MLOCKED)
		__SetPageMlocked(p);	/* through __free_pages, not folio_put: a bad page */
	if (kind == BAD_MAPPING)
		p->mapping = (struct address_space *)p;
	if (kind == BAD_MAPCOUNT)
		atomic_set(&p->_mapcount, 0);	/* mapped once */
	if (kind == BAD_DOUBLE)
		__free_page(p);
	unsigned long flags = p->flags;
	__free_pages(victim, kind == BAD_ORDER ? MAX_PAGE_ORDER + 1 : other ? 1 : 0);
	bad_end(t, page_to_pfn(other ? other : victim), reason, page_to_pfn(victim));
	if (kind <= BAD_ORDER)
		KTEST_EXPECT_EQ(t, p->flags, flags);
	if (kind == BAD_ORDER || kind == BAD_TAIL) {	/* nothing was dropped */
		KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
		buddy_record_leak(page_to_pfn(p));
	}
	if (kind == BAD_TAIL)				/* the folio is intact, with its owner */
		KTEST_EXPECT_TRUE(t, PageHead(p) && PageTail(victim) && page_folio(victim) == (struct folio *)p);
	if (kind == BAD_WRONG_ORDER) {
		__free_page(other);
		drain_all_pages(NULL);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 + 1);
	}
	if (kind == BAD_WRONG_ORDER_FREE_BUDDY)
		KTEST_EXPECT_TRUE(t, buddy_pfn_is_free(page_to_pfn(other)));	/* and stays free */
	EXPECT_BUDDY_OK(t);
}

#define AT_FREE	"PAGE_FLAGS_CHECK_AT_FREE flag(s) set"
#define BAD_FREE_CASE(name, kind, reason) void name(struct ktest *t) { bad_free(t, kind, reason); }
BAD_FREE_CASE(bad_free_locked, BAD_LOCKED, AT_FREE)
BAD_FREE_CASE(bad_free_mlocked, BAD_MLOCKED, AT_FREE)
BAD_FREE_CASE(bad_free_mapping, BAD_MAPPING, "non-NULL mapping")
BAD_FREE_CASE(bad_free_mapcount, BAD_MAPCOUNT, "nonzero mapcount")
BAD_FREE_CASE(bad_free_impossible_order, BAD_ORDER, "freeing a block of an impossible order")
BAD_FREE_CASE(bad_free_tail_page, BAD_TAIL, NULL)
/* Order 1 for an order-0 block whose buddy is someone else's: the report names the buddy. */
BAD_FREE_CASE(bad_free_wrong_order, BAD_WRONG_ORDER, "nonzero _refcount")
/* These two run last: an allocator that gets them wrong corrupts its free lists. */
BAD_FREE_CASE(bad_double_free, BAD_DOUBLE, NULL)
BAD_FREE_CASE(bad_free_wrong_order_over_free_buddy, BAD_WRONG_ORDER_FREE_BUDDY, NULL)

/*
 * A wrong-order free whose buddy sits on a per-CPU list (freed just before, not drained): there it
 * looks clean, so free_pages_prepare() must find it (pcp_holds_part_of) and drain before its
 * checks.  One report about the buddy, the freed frame kept out, the buddy free.
 */
void bad_free_wrong_order_over_pcp_buddy(struct ktest *t)
{
	struct page *p, *other;

	KTEST_ASSERT_TRUE(t, buddy_get_pair(0, &p, &other));
	bad_begin();
	__free_page(other);
	KTEST_ASSERT_TRUE(t, buddy_on_pcp_list(other, page_pcp_mt(other->flags)));
	__free_pages(p, 1);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad0 + 1);
	KTEST_EXPECT_TRUE(t, buddy_reported(page_to_pfn(other), NULL));
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0 + 1);
	KTEST_EXPECT_TRUE(t, buddy_pfn_is_free(page_to_pfn(other)));
	KTEST_EXPECT_FALSE(t, buddy_pfn_is_free(page_to_pfn(p)));
	buddy_record_leak(page_to_pfn(p));
	EXPECT_BUDDY_OK(t);
}

/*
 * A large folio freed at another order than its own (smaller: its tails would be lost; larger:
 * frames past it would go too): one report about the head, the whole folio kept out, intact.
 */
void bad_free_compound_wrong_order(struct ktest *t)
{
	static const unsigned int orders[] = { 0, 1, 3 };

	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		struct folio *f = folio_alloc(GFP_TEST, 2);
		KTEST_ASSERT_TRUE(t, f);
		unsigned long pfn = page_to_pfn(&f->page);
		bad_begin();
		__free_pages(&f->page, orders[i]);
		bad_end(t, pfn, "compound page freed at the wrong order", pfn);
		for (unsigned long j = 1; j < 4; j++) {
			KTEST_EXPECT_FALSE(t, buddy_pfn_is_free(pfn + j));
			KTEST_EXPECT_TRUE(t, page_folio(pfn_to_page(pfn + j)) == f);
			buddy_record_leak(pfn + j);
		}
		KTEST_EXPECT_TRUE(t, PageHead(&f->page) && folio_order(f) == 2);
	}
}

/* A block freed at an order its start is not aligned to (an odd frame as order 1): reported,
 * kept out; the neighbour it would have claimed is untouched. */
void bad_free_misaligned(struct ktest *t)
{
	struct page *p = NULL, *held[16];
	int n = 0;

	while (!p && n < (int)ARRAY_SIZE(held)) {
		struct page *q = alloc_page(GFP_TEST);
		KTEST_ASSERT_TRUE(t, q);
		if (page_to_pfn(q) & 1)
			p = q;
		else
			held[n++] = q;
	}
	while (n)
		__free_page(held[--n]);
	KTEST_ASSERT_TRUE(t, p);
	unsigned long pfn = page_to_pfn(p);
	bad_begin();
	bool next_free = buddy_pfn_is_free(pfn + 1);	/* as drained */
	__free_pages(p, 1);
	bad_end(t, pfn, "freeing a block not aligned to its order", pfn);
	KTEST_EXPECT_EQ(t, buddy_pfn_is_free(pfn + 1), next_free);
}

/* The gfp bits whose migratetype is @mt: an allocation that pops that per-CPU list. */
static gfp_t gfp_of_mt(int mt)
{
	return mt == MIGRATE_MOVABLE ? __GFP_MOVABLE : mt == MIGRATE_RECLAIMABLE ? __GFP_RECLAIMABLE : 0;
}

/*
 * A frame spoiled while free on a per-CPU list (a flag written after the free): the allocation
 * that pops it reports it (check_new_pages, PAGE_FLAGS_CHECK_AT_PREP), keeps it out and hands out
 * another block - through the order-0 fast path, and for an order-3 block with a bad tail frame
 * through the order 1-3 fast path (mm/page_alloc_fast.c).
 */
void bad_alloc_spoiled_while_free(struct ktest *t)
{
	static const char why[] = "PAGE_FLAGS_CHECK_AT_PREP flag(s) set";

	if (!page_checks) {
		ktest_skip(t, "tinymm.check_pages=0");
		return;
	}
	for (unsigned int order = 0; order <= 3; order += 3) {
		struct page *p = alloc_pages(GFP_TEST, order);
		KTEST_ASSERT_TRUE(t, p);
		/* The block must stay on its list: emptied first, the lists take it unless their
		 * drain mark is not above its size (tiny RAM: order 0 only there). */
		if (preferred_zone->pcp[0].drain_at <= (1 << order)) {
			__free_pages(p, order);
			break;
		}
		drain_all_pages(NULL);
		unsigned long pfn = page_to_pfn(p), bad_pfn = pfn + (order ? 5 : 0);
		gfp_t gfp = GFP_TEST | gfp_of_mt(page_pcp_mt(p->flags));
		unsigned long bad = nr_bad_pages, free_before = nr_free_pages_and_pcp();
		__free_pages(p, order);
		KTEST_ASSERT_TRUE(t, zones[page_zonenum(p)].pcp[0].lists[pindex(order, page_pcp_mt(p->flags))] == p);
		__SetPageReferenced(pfn_to_page(bad_pfn));	/* the write after free */
		struct page *q = alloc_pages(gfp, order);
		KTEST_ASSERT_TRUE(t, q != NULL);
		KTEST_EXPECT_TRUE(t, q != p);
		KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 1);
		KTEST_EXPECT_TRUE(t, buddy_reported(bad_pfn, why));
		__free_pages(q, order);
		drain_all_pages(NULL);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free_before);	/* p kept out, q back */
		for (unsigned long j = 0; j < (1UL << order); j++) {
			KTEST_EXPECT_FALSE(t, buddy_pfn_is_free(pfn + j));
			buddy_record_leak(pfn + j);
		}
		EXPECT_BUDDY_OK(t);
	}
}
