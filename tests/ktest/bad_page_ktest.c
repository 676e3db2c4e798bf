/*
 * bad_page_ktest.c - the reports of mm/page_check.c (suite `bad_page`, explicit: every case
 * reports bad pages on purpose; on every board and on the host through tests/host/
 * bad_page_test.c): v6.10's reason when several tests fail (the last wins: flags over refcount
 * over mapping over mapcount), the free-tail checks' words, the rate limit, the stack after the
 * report.  A frame spoiled for a case is put right and freed again afterwards, unless the case
 * says it is leaked.
 */
#include <string.h>
#include "tinymm/gfp.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/timer.h"
#include "../../mm/internal.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

#define GFP_TEST	(GFP_KERNEL | __GFP_NOWARN)

/* The log since the last bp_mark(): the ring is 8 KiB, a report with its stack 1-2 KiB. */
static char bp_log[8192 + 1];
static size_t bp_len;
static unsigned int bp_seq;

static void bp_out(const char *s, size_t n)
{
	n = min(n, sizeof(bp_log) - 1 - bp_len);
	memcpy(bp_log + bp_len, s, n);
	bp_len += n;
	bp_log[bp_len] = '\0';
}

static void bp_mark(void)
{
	printk(KERN_INFO "bad_page_ktest: mark %u\n", ++bp_seq);
}

/* The log after the last mark (NULL if the mark scrolled away). */
static const char *bp_since_mark(void)
{
	char mark[40];
	const char *since = NULL;

	ksnprintf(mark, sizeof(mark), "bad_page_ktest: mark %u\n", bp_seq);
	bp_len = 0;
	bp_log[0] = '\0';
	log_buf_dump(bp_out);
	for (const char *p = bp_log; (p = strstr(p, mark)); p++)
		since = p;
	return since;
}

static unsigned int count_of(const char *s, const char *needle)
{
	unsigned int n = 0;

	for (; s && (s = strstr(s, needle)); s++)
		n++;
	return n;
}

/*
 * Since the mark, exactly one report about @pfn, naming @reason, and its stack after it (before
 * the next report, if any).
 */
static bool reported_since_mark(unsigned long pfn, const char *reason)
{
	const char *log = bp_since_mark(), *bug, *end;
	char want[96];

	ksnprintf(want, sizeof(want), "BUG: Bad page state in process swapper  pfn:%05lx\n", pfn);
	if (!log || count_of(log, want) != 1)
		return false;
	bug = strstr(log, want);
	end = strstr(bug + 1, "BUG: Bad page state");
	ksnprintf(want, sizeof(want), "page dumped because: %s\n", reason);
	const char *why = strstr(bug, want), *trace = why ? strstr(why, "] Call trace:\n") : NULL;
	return why && trace && (!end || trace < end);
}

/* Reports since the mark, about any frame. */
static unsigned int reports_since_mark(void)
{
	return count_of(bp_since_mark(), "BUG: Bad page state in process ");
}

/* An allocated order-0 page, made to look as if freed: the checks see refcount 0. */
static struct page *spoilable_page(void)
{
	struct page *p = alloc_page(GFP_TEST);

	if (p)
		atomic_set(&p->_refcount, 0);
	return p;
}

/* Put a spoiled page right (no type, no mapping, no flags, one reference) and free it. */
static void unspoil_and_free(struct page *p)
{
	if (PageBuddy(p))
		__ClearPageBuddy(p);
	atomic_set(&p->_mapcount, -1);
	p->mapping = NULL;
	p->flags &= ~PAGEFLAGS_MASK;
	atomic_set(&p->_refcount, 1);
	__free_page(p);
}

/* free_pages_prepare() of @p as it is now: refused, one report, naming @reason. */
static void expect_free_reason(struct ktest *t, struct page *p, const char *reason)
{
	unsigned long bad = nr_bad_pages;

	bp_mark();
	KTEST_EXPECT_FALSE(t, free_pages_prepare(p, 0));
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 1);
	if (!reported_since_mark(page_to_pfn(p), reason)) {
		char msg[100];
		ksnprintf(msg, sizeof(msg), "no single report naming \"%s\" (and the stack)", reason);
		ktest_fail_msg(t, __FILE__, __LINE__, msg);
	}
	/* bad_page() leaves the evidence but the mapcount (typed as nothing) and a buddy type. */
	KTEST_EXPECT_TRUE(t, PageBuddy(p) || atomic_read(&p->_mapcount) == -1);
}

static bool checks_off(struct ktest *t)
{
	if (!page_checks)
		ktest_skip(t, "tinymm.check_pages=0");
	return !page_checks;
}

/* Linux's page_bad_reason(): all four tests run, the last that fails names the frame. */
static void last_failing_test_names_the_frame(struct ktest *t)
{
	if (checks_off(t))
		return;
	bad_page_rs = (struct bad_page_ratelimit){ 0 };
	struct page *p = spoilable_page();
	KTEST_ASSERT_TRUE(t, p);
	atomic_set(&p->_mapcount, 0);				/* mapped once */
	expect_free_reason(t, p, "nonzero mapcount");
	atomic_set(&p->_mapcount, 0);
	p->mapping = (struct address_space *)p;
	expect_free_reason(t, p, "non-NULL mapping");		/* over mapcount */
	atomic_set(&p->_mapcount, 0);
	atomic_set(&p->_refcount, 1);
	expect_free_reason(t, p, "nonzero _refcount");		/* over mapping and mapcount */
	atomic_set(&p->_mapcount, 0);
	__SetPageLocked(p);
	expect_free_reason(t, p, "PAGE_FLAGS_CHECK_AT_FREE flag(s) set");	/* over all */
	/* tinymm's words for a PageBuddy frame stand where Linux says "nonzero mapcount"... */
	atomic_set(&p->_refcount, 0);
	p->mapping = NULL;
	__ClearPageLocked(p);
	__SetPageBuddy(p);
	expect_free_reason(t, p, "already free (PageBuddy): double free");
	/* ... and a later test still wins over them. */
	p->mapping = (struct address_space *)p;
	expect_free_reason(t, p, "non-NULL mapping");
	__ClearPageBuddy(p);
	/* The allocation side (check_new_pages): the flags over the mapping. */
	__SetPageReferenced(p);
	unsigned long bad = nr_bad_pages;
	bp_mark();
	KTEST_EXPECT_FALSE(t, check_new_pages(p, 0));
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 1);
	KTEST_EXPECT_TRUE(t, reported_since_mark(page_to_pfn(p), "PAGE_FLAGS_CHECK_AT_PREP flag(s) set"));
	unspoil_and_free(p);
}

/*
 * Linux's free_tail_page_prepare() words: a tail whose compound_head names another head, and a
 * frame inside the folio that is no tail at all.  The folio is kept out whole (leaked).
 */
static void free_tail_checks_name_the_tail(struct ktest *t)
{
	struct folio *folio = folio_alloc(GFP_TEST, 2);

	KTEST_ASSERT_TRUE(t, folio);
	struct page *head = &folio->page;
	unsigned long pfn = page_to_pfn(head), bad = nr_bad_pages, free_before;
	bad_page_rs = (struct bad_page_ratelimit){ 0 };
	drain_all_pages(NULL);
	free_before = nr_free_pages();
	set_compound_head(head + 2, head + 1);		/* a tail of the wrong head */
	clear_compound_head(head + 3);			/* not a tail */
	bp_mark();
	folio_put(folio);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 2);
	KTEST_EXPECT_TRUE(t, reported_since_mark(pfn + 2, "compound_head not consistent"));
	KTEST_EXPECT_TRUE(t, reported_since_mark(pfn + 3, "PageTail not set"));
	KTEST_EXPECT_EQ(t, reports_since_mark(), 2);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free_before);	/* none of the four came back */
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

/*
 * Linux's rate limit, with the clock stood in for by its state: after a burst of 60 a report
 * before `resume` is only counted (the frame leaked all the same); the first one after it says
 * how many were suppressed, then reports, and starts the next burst.
 */
static void reports_after_a_burst_are_counted(struct ktest *t)
{
	if (checks_off(t))
		return;
	struct page *p = spoilable_page();
	KTEST_ASSERT_TRUE(t, p);
	unsigned long bad = nr_bad_pages;

	bad_page_rs = (struct bad_page_ratelimit){ .resume = jiffies + 60 * HZ,
						   .nr_shown = BAD_PAGE_BURST };
	for (int i = 0; i < 3; i++) {
		__SetPageLocked(p);
		bp_mark();
		KTEST_EXPECT_FALSE(t, free_pages_prepare(p, 0));
		KTEST_EXPECT_EQ(t, reports_since_mark(), 0);
	}
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 3);
	KTEST_EXPECT_EQ(t, bad_page_rs.nr_unshown, 3);
	bad_page_rs.resume = jiffies;			/* the minute is up */
	__SetPageLocked(p);
	bp_mark();
	KTEST_EXPECT_FALSE(t, free_pages_prepare(p, 0));
	const char *log = bp_since_mark();
	const char *count = log ? strstr(log, "] BUG: Bad page state: 3 messages suppressed\n") : NULL;
	const char *report = log ? strstr(log, "] BUG: Bad page state in process swapper  pfn:") : NULL;
	KTEST_EXPECT_TRUE(t, count && report && count < report);
	KTEST_EXPECT_EQ(t, bad_page_rs.nr_unshown, 0);
	KTEST_EXPECT_EQ(t, bad_page_rs.nr_shown, 1);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 4);
	bad_page_rs = (struct bad_page_ratelimit){ 0 };
	unspoil_and_free(p);
}

/*
 * An order-3 free (the order 1-3 fast path, mm/page_alloc_fast.c) checks every frame: a bad
 * tail is reported by its pfn with Linux's reason, keeps its evidence and the block is kept out
 * whole.  A tail with only flags a free clears (PG_referenced, PG_uptodate) is no bad page: no
 * report, the block is back and no frame keeps a flag.
 */
static void order3_free_checks_every_frame(struct ktest *t)
{
	static const char *const why[] = { "PAGE_FLAGS_CHECK_AT_FREE flag(s) set", "non-NULL mapping",
					   "nonzero mapcount" };

	if (checks_off(t))
		return;
	bad_page_rs = (struct bad_page_ratelimit){ 0 };
	for (unsigned int kind = 0; kind <= ARRAY_SIZE(why); kind++) {
		struct page *p = alloc_pages(GFP_TEST, 3), *tail = p + 5;
		KTEST_ASSERT_TRUE(t, p);
		unsigned long pfn = page_to_pfn(p), bad = nr_bad_pages, free_before;
		drain_all_pages(NULL);
		free_before = nr_free_pages_and_pcp();
		if (kind == 0)
			__SetPageLocked(tail);
		else if (kind == 1)
			tail->mapping = (struct address_space *)tail;
		else if (kind == 2)
			atomic_set(&tail->_mapcount, 0);
		else
			tail->flags |= 1UL << PG_referenced | 1UL << PG_uptodate;
		unsigned long flags = tail->flags;
		bp_mark();
		__free_pages(p, 3);
		if (kind == ARRAY_SIZE(why)) {
			KTEST_EXPECT_EQ(t, nr_bad_pages, bad);
			KTEST_EXPECT_EQ(t, reports_since_mark(), 0);
			for (int i = 0; i < 8; i++)
				KTEST_EXPECT_EQ(t, p[i].flags & PAGEFLAGS_MASK, 0);
			drain_all_pages(NULL);
			KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free_before + 8);
			break;
		}
		KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 1);
		KTEST_EXPECT_TRUE(t, reported_since_mark(pfn + 5, why[kind]));
		KTEST_EXPECT_EQ(t, reports_since_mark(), 1);
		KTEST_EXPECT_EQ(t, tail->flags, flags);		/* the evidence */
		drain_all_pages(NULL);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free_before);	/* kept out, leaked */
	}
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

static const struct ktest_case bad_page_cases[] = {
	KTEST_CASE(last_failing_test_names_the_frame),
	KTEST_CASE(free_tail_checks_name_the_tail),
	KTEST_CASE(reports_after_a_burst_are_counted),
	KTEST_CASE(order3_free_checks_every_frame),
	{}
};
KTEST_SUITE_EXPLICIT(bad_page, bad_page_cases);
