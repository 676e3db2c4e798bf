/*
 * buddy_ktest.h - what the two parts of the `buddy` KTAP suite share: the helpers and the cases
 * of a working allocator are in tests/ktest/buddy_ktest.c (with the one case table, whose order
 * matters), the bad frees and the bad allocation, each reported once, in
 * tests/ktest/buddy_bad_ktest.c.  tests/host/buddy_test.c includes both.
 */
#ifndef TESTS_KTEST_BUDDY_KTEST_H
#define TESTS_KTEST_BUDDY_KTEST_H
#include <stdbool.h>
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"

#define GFP_TEST	(GFP_KERNEL | __GFP_NOWARN)

/* buddy_check()'s error count, its details to the log. */
int buddy_errors(void);
#define EXPECT_BUDDY_OK(t)	KTEST_EXPECT_EQ(t, buddy_errors(), 0)

/* What buddyinfo shows, and the free frames. */
struct snap {
	unsigned long nr_free[MAX_NR_ZONES][NR_PAGE_ORDERS], free;
};

void buddy_take_snap(struct snap *s);
/* The free blocks per zone and order and the free frames are @before's; buddy_check() is happy. */
void buddy_expect_same(struct ktest *t, const struct snap *before);
/* The free block holding @pfn (per-CPU lists drained first), or NULL; *order gets its order. */
struct page *buddy_free_block_of(unsigned long pfn, unsigned int *order);
bool buddy_pfn_is_free(unsigned long pfn);
/* Frame @pfn is leaked (or kept) on purpose: it must never be handed out again. */
void buddy_record_leak(unsigned long pfn);
/* The last Bad page state report in the log is about @pfn and gives @reason (NULL: any). */
bool buddy_reported(unsigned long pfn, const char *reason);
/* Order-@o blocks until two in one zone are buddies: *a (lower) and *b; the rest freed. */
bool buddy_get_pair(unsigned int o, struct page **a, struct page **b);
/* Is @page on its zone's per-CPU list for @mt? */
bool buddy_on_pcp_list(struct page *page, int mt);

/* The cases of tests/ktest/buddy_bad_ktest.c. */
void bad_free_locked(struct ktest *t);
void bad_free_mlocked(struct ktest *t);
void bad_free_mapping(struct ktest *t);
void bad_free_mapcount(struct ktest *t);
void bad_free_impossible_order(struct ktest *t);
void bad_free_tail_page(struct ktest *t);
void bad_free_wrong_order(struct ktest *t);
void bad_double_free(struct ktest *t);
void bad_free_wrong_order_over_free_buddy(struct ktest *t);
void bad_free_wrong_order_over_pcp_buddy(struct ktest *t);
void bad_free_compound_wrong_order(struct ktest *t);
void bad_free_misaligned(struct ktest *t);
void bad_alloc_spoiled_while_free(struct ktest *t);
#endif
