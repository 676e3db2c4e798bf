/*
 * hwpoison_ktest.h - what the parts of the `hwpoison` KTAP suite share: the fake disk, the log
 * capture and the helpers below are in tests/ktest/hwpoison_fixture.c, the page-cache and buddy
 * states in tests/ktest/hwpoison_ktest.c, the kernel, slab, reserved, unpoison and bad-input cases in
 * tests/ktest/hwpoison_kernel_ktest.c, a folio changing compound state under memory_failure()
 * in tests/ktest/hwpoison_race_ktest.c.  One suite, one case table (in the first file).
 */
#ifndef TESTS_KTEST_HWPOISON_KTEST_H
#define TESTS_KTEST_HWPOISON_KTEST_H

#include <stdbool.h>
#include "tinymm/ktest.h"
#include "tinymm/memory-failure.h"
#include "tinymm/pagemap.h"
#include "tinymm/swap.h"

struct hw_counts {
	long poisoned;
	struct memory_failure_stats st;
};

extern const struct address_space_operations hw_aops;
extern const struct address_space_operations hw_aops_noremove;	/* no error_remove_folio */
extern struct address_space hw_mapping;		/* the fake disk's page cache */
extern unsigned long hw_reads;			/* read_folio calls: a refetch shows here */
extern unsigned long hw_lru_base[NR_LRU_LISTS];	/* the LRU counters at hw_setup() */
void hw_setup(const struct address_space_operations *aops);
void hw_teardown(struct ktest *t);
void hw_mark(void);
bool hw_logged(const char *fmt, ...);
void hw_counts(struct hw_counts *c);
void hw_expect_counted(struct ktest *t, const struct hw_counts *b, int result);
bool hw_pfn_is_free(unsigned long pfn);
unsigned long hw_free_pfn(void);
void hw_never_handed_out(struct ktest *t, unsigned long pfn);
void hw_unpoison(struct ktest *t, unsigned long pfn);
void hw_unmark(unsigned long pfn);
bool hw_on_pcp(struct page *page);
void hw_populate(struct ktest *t, pgoff_t first, pgoff_t last);
size_t hw_bytes_wrong(pgoff_t index);
bool hw_cached(pgoff_t index);
void hw_dirty(struct folio *folio, unsigned char c);
void hw_expect_cache_frame_isolated(struct ktest *t, struct folio *f);

/* A case: the fake disk set up with @aops, the body, the checks and undoing of teardown. */
#define HW_CASE(fn, aops)					\
void fn##_case(struct ktest *t)				\
{								\
	hw_setup(aops);						\
	fn(t);							\
	hw_teardown(t);						\
}

#define EXPECT_LOGGED(t, ...)								\
	do {										\
		if (!hw_logged(__VA_ARGS__))						\
			ktest_fail_msg(t, __FILE__, __LINE__, "not in the log: " #__VA_ARGS__); \
	} while (0)
#define EXPECT_NOT_LOGGED(t, ...)							\
	do {										\
		if (hw_logged(__VA_ARGS__))						\
			ktest_fail_msg(t, __FILE__, __LINE__, "in the log: " #__VA_ARGS__); \
	} while (0)
#define EXPECT_ACTION(t, pfn, state, result)						\
	EXPECT_LOGGED(t, "Memory failure: %#lx: recovery action for %s: %s", (pfn), state, result)

/* The cases of tests/ktest/hwpoison_kernel_ktest.c. */
void kernel_page_case(struct ktest *t);
void kernel_page_unpoisoned_in_use_case(struct ktest *t);
void high_order_kernel_page_tail_case(struct ktest *t);
void frame_of_block_out_for_reporting_case(struct ktest *t);
void large_folio_unsplit_thp_case(struct ktest *t);
void slab_page_case(struct ktest *t);
void reserved_page_case(struct ktest *t);
void reserved_kernel_page_with_reference_case(struct ktest *t);
void already_poisoned_case(struct ktest *t);
void unpoison_returns_frame_case(struct ktest *t);
void invalid_pfn_case(struct ktest *t);
void check_pages_off_still_kept_out_case(struct ktest *t);
/* The cases of tests/ktest/hwpoison_race_ktest.c. */
void became_large_before_the_lock_case(struct ktest *t);
void different_compound_after_locking_case(struct ktest *t);

#endif
