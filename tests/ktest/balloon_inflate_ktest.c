/*
 * balloon_inflate_ktest.c - suite `balloon_inflate`: the balloon_compaction core
 * (mm/balloon_compaction.c) on the live allocator with a device-less balloon_dev_info, so it runs
 * on every board whether or not QEMU gives it a virtio-balloon (the device itself is tested
 * through QEMU's monitor: tests/qemu/balloon_inflate_test.sh).  A frame in the balloon is
 * PageOffline, movable through balloon_mops, owned by the balloon (page->private), KPF_OFFLINE in
 * kpageflags, and out of the managed count while the test holds it out as the driver does; it
 * comes back clean.  Isolation and putback through balloon_mops directly, then through the
 * migration core (mm/migrate.c): isolate_movable_page() sets PG_isolated, migrate_pages() with a
 * new-frame callback moves a balloon page through a device-less migratepage (the virtio driver's
 * less its requests), an owner that refuses keeps its page.  The suite leaves every frame and the
 * managed count as it found them.
 */
#include "tinymm/balloon_compaction.h"
#include "tinymm/errno.h"
#include "tinymm/kernel-page-flags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "../../mm/internal.h"

#define NR_BALLOON	8

static struct balloon_dev_info test_balloon;

/* Fill the test balloon with @n frames, taken out of the managed count as the driver does. */
static unsigned int fill(struct ktest *t, struct page **pages, unsigned int n)
{
	unsigned int got = 0;

	balloon_devinfo_init(&test_balloon);
	while (got < n) {
		struct page *page = balloon_page_alloc();

		if (!page)
			break;
		balloon_page_enqueue(&test_balloon, page);
		adjust_managed_page_count(page, -1);
		pages[got++] = page;
	}
	KTEST_EXPECT_EQ(t, got, n);
	return got;
}

/* Empty it again: every frame back to the allocator and the managed count.  How many. */
static unsigned int leak(void)
{
	struct page *page;
	unsigned int n = 0;

	while ((page = balloon_page_dequeue(&test_balloon))) {
		adjust_managed_page_count(page, 1);
		put_page(page);
		n++;
	}
	return n;
}

static bool clean_again(const struct page *page)
{
	return !PageOffline(page) && !page->mapping && !page->private &&
	       !(stable_page_flags(page) & (1ULL << KPF_OFFLINE));
}

static void enqueue_makes_offline_movable_pages(struct ktest *t)
{
	struct page *pages[NR_BALLOON];
	unsigned long free0 = nr_free_pages_and_pcp(), total0 = totalram_pages();
	unsigned int n = fill(t, pages, NR_BALLOON);

	KTEST_EXPECT_EQ(t, test_balloon.nr_pages, n);
	KTEST_EXPECT_EQ(t, test_balloon.isolated_pages, 0);
	KTEST_EXPECT_EQ(t, totalram_pages(), total0 - n);
	for (unsigned int i = 0; i < n; i++) {
		struct page *p = pages[i];

		KTEST_EXPECT_TRUE(t, PageOffline(p));
		KTEST_EXPECT_TRUE(t, PageBalloon(p));
		KTEST_EXPECT_TRUE(t, PageMovable(p));
		KTEST_EXPECT_TRUE(t, page_movable_ops(p) == &balloon_mops);
		KTEST_EXPECT_TRUE(t, balloon_page_device(p) == &test_balloon);
		KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
		KTEST_EXPECT_FALSE(t, PageLocked(p));
		KTEST_EXPECT_FALSE(t, PageBuddy(p));
		/* KPF_OFFLINE, and nothing that would call it mapped, anon or on an LRU */
		u64 kpf = stable_page_flags(p);
		KTEST_EXPECT_EQ(t, kpf & (1ULL << KPF_OFFLINE), 1ULL << KPF_OFFLINE);
		KTEST_EXPECT_EQ(t, kpf & ((1ULL << KPF_MMAP) | (1ULL << KPF_ANON) | (1ULL << KPF_LRU) |
					  (1ULL << KPF_BUDDY)), 0);
	}
	KTEST_EXPECT_EQ(t, leak(), n);
	KTEST_EXPECT_EQ(t, test_balloon.nr_pages, 0);
	KTEST_EXPECT_TRUE(t, balloon_page_dequeue(&test_balloon) == NULL);
	for (unsigned int i = 0; i < n; i++)
		KTEST_EXPECT_TRUE(t, clean_again(pages[i]));
	KTEST_EXPECT_EQ(t, totalram_pages(), total0);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);
}

/* A page someone has locked (isolate_movable_page looking at it) or a poisoned one stays. */
static void dequeue_skips_locked_and_poisoned(struct ktest *t)
{
	struct page *pages[3];
	unsigned int n = fill(t, pages, 3);

	KTEST_ASSERT_EQ(t, n, 3);
	/* The list is LIFO: pages[2] first.  Lock it and poison pages[1]: pages[0] comes out. */
	KTEST_ASSERT_TRUE(t, folio_trylock(page_folio(pages[2])));
	SetPageHWPoison(pages[1]);
	struct page *got = balloon_page_dequeue(&test_balloon);
	KTEST_EXPECT_TRUE(t, got == pages[0]);
	KTEST_EXPECT_TRUE(t, balloon_page_dequeue(&test_balloon) == NULL);
	KTEST_EXPECT_EQ(t, test_balloon.nr_pages, 2);
	KTEST_EXPECT_TRUE(t, PageOffline(pages[1]) && PageOffline(pages[2]));
	folio_unlock(page_folio(pages[2]));
	ClearPageHWPoison(pages[1]);
	if (got) {
		adjust_managed_page_count(got, 1);
		put_page(got);
	}
	KTEST_EXPECT_EQ(t, leak(), 2);
}

/* The driver's inflate and deflate, reduced to the counts: MemTotal falls and comes back. */
static void managed_count_follows_the_balloon(struct ktest *t)
{
	struct page *pages[NR_BALLOON];
	unsigned long total0 = totalram_pages();
	unsigned int n = fill(t, pages, NR_BALLOON);

	KTEST_EXPECT_EQ(t, totalram_pages(), total0 - n);
	/* zone by zone too: each frame left its own zone's count */
	KTEST_EXPECT_EQ(t, leak(), n);
	KTEST_EXPECT_EQ(t, totalram_pages(), total0);
}

/* isolate_page takes a page off the list for the migration core, putback_page returns it;
 * dequeue never hands out an isolated page. */
static void isolate_and_putback(struct ktest *t)
{
	struct page *pages[2];
	unsigned int n = fill(t, pages, 2);

	KTEST_ASSERT_EQ(t, n, 2);
	struct folio *f = page_folio(pages[1]);
	KTEST_ASSERT_TRUE(t, folio_trylock(f));
	KTEST_EXPECT_TRUE(t, balloon_mops.isolate_page(pages[1], 0));
	SetPageIsolated(pages[1]);		/* what the migration core does around the call */
	folio_unlock(f);
	KTEST_EXPECT_EQ(t, test_balloon.isolated_pages, 1);
	KTEST_EXPECT_EQ(t, test_balloon.nr_pages, 1);
	KTEST_EXPECT_TRUE(t, PageOffline(pages[1]));
	/* only the one on the list comes out */
	struct page *got = balloon_page_dequeue(&test_balloon);
	KTEST_EXPECT_TRUE(t, got == pages[0]);
	KTEST_EXPECT_TRUE(t, balloon_page_dequeue(&test_balloon) == NULL);
	if (got) {
		adjust_managed_page_count(got, 1);
		put_page(got);
	}
	KTEST_ASSERT_TRUE(t, folio_trylock(f));
	balloon_mops.putback_page(pages[1]);
	ClearPageIsolated(pages[1]);
	folio_unlock(f);
	KTEST_EXPECT_EQ(t, test_balloon.isolated_pages, 0);
	KTEST_EXPECT_EQ(t, leak(), 1);
	KTEST_EXPECT_TRUE(t, clean_again(pages[1]));
}

/* Without a migratepage callback the balloon's pages refuse to move: -EAGAIN. */
static void migrate_without_callback_refuses(struct ktest *t)
{
	struct page *pages[1];
	unsigned int n = fill(t, pages, 1);

	KTEST_ASSERT_EQ(t, n, 1);
	struct page *dst = balloon_page_alloc();
	KTEST_ASSERT_TRUE(t, dst != NULL);
	KTEST_ASSERT_TRUE(t, folio_trylock(page_folio(pages[0])));
	KTEST_ASSERT_TRUE(t, folio_trylock(page_folio(dst)));
	KTEST_EXPECT_EQ(t, balloon_mops.migrate_page(dst, pages[0], MIGRATE_SYNC), -EAGAIN);
	folio_unlock(page_folio(dst));
	folio_unlock(page_folio(pages[0]));
	put_page(dst);
	KTEST_EXPECT_TRUE(t, PageOffline(pages[0]));
	KTEST_EXPECT_EQ(t, leak(), 1);
}

/* ---- through the migration core (mm/migrate.c) ---- */

static struct page *moved_to;		/* the frame test_migratepage took */
static unsigned int migratepage_calls;

/* The driver's callback without a device (drivers/virtio_balloon.c's, less the requests). */
static int test_migratepage(struct balloon_dev_info *b, struct page *newpage, struct page *page,
			    enum migrate_mode mode)
{
	unsigned long flags;

	(void)mode;
	migratepage_calls++;
	get_page(newpage);
	if (page_zonenum(page) != page_zonenum(newpage)) {
		adjust_managed_page_count(page, 1);
		adjust_managed_page_count(newpage, -1);
	}
	spin_lock_irqsave(&b->pages_lock, flags);
	balloon_page_insert(b, newpage);
	b->isolated_pages--;
	spin_unlock_irqrestore(&b->pages_lock, flags);
	spin_lock_irqsave(&b->pages_lock, flags);
	balloon_page_delete(page);
	spin_unlock_irqrestore(&b->pages_lock, flags);
	put_page(page);
	moved_to = newpage;
	return MIGRATEPAGE_SUCCESS;
}

static struct folio *new_frame(struct folio *src, unsigned long private)
{
	struct page *page = balloon_page_alloc();

	(void)src;
	(void)private;
	return page ? page_folio(page) : NULL;
}

/* isolate_movable_page() sets PG_isolated and takes the page off the balloon's list; a second
 * isolation fails; putback_movable_pages() gives it back, PG_isolated clear. */
static void core_isolates_and_puts_back(struct ktest *t)
{
	struct page *pages[2];
	struct page_list list;
	unsigned int n = fill(t, pages, 2);

	KTEST_ASSERT_EQ(t, n, 2);
	page_list_init(&list);
	KTEST_ASSERT_TRUE(t, isolate_movable_page(pages[0], 0));
	page_list_add_tail(&list, pages[0]);
	KTEST_EXPECT_TRUE(t, PageIsolated(pages[0]));
	KTEST_EXPECT_FALSE(t, PageIsolated(pages[1]));
	KTEST_EXPECT_EQ(t, test_balloon.isolated_pages, 1);
	KTEST_EXPECT_EQ(t, test_balloon.nr_pages, 1);
	KTEST_EXPECT_EQ(t, page_ref_count(pages[0]), 2);	/* the balloon's and the isolation's */
	KTEST_EXPECT_FALSE(t, isolate_movable_page(pages[0], 0));
	putback_movable_pages(&list);
	KTEST_EXPECT_FALSE(t, PageIsolated(pages[0]));
	KTEST_EXPECT_TRUE(t, PageOffline(pages[0]));
	KTEST_EXPECT_EQ(t, page_ref_count(pages[0]), 1);
	KTEST_EXPECT_EQ(t, test_balloon.isolated_pages, 0);
	KTEST_EXPECT_EQ(t, test_balloon.nr_pages, 2);
	KTEST_EXPECT_EQ(t, leak(), 2);
}

/* migrate_pages() moves a balloon page: the new frame is in the balloon (Offline, owned,
 * KPF_OFFLINE, one reference), the old one is freed clean, the counts are as before. */
static void migration_moves_a_balloon_page(struct ktest *t)
{
	struct page *pages[2];
	struct page_list list;
	unsigned long total0 = totalram_pages();
	unsigned int n = fill(t, pages, 2), ok = 0;

	KTEST_ASSERT_EQ(t, n, 2);
	test_balloon.migratepage = test_migratepage;
	moved_to = NULL;
	migratepage_calls = 0;
	page_list_init(&list);
	KTEST_ASSERT_TRUE(t, isolate_movable_page(pages[0], 0));
	KTEST_EXPECT_TRUE(t, PageIsolated(pages[0]));
	page_list_add_tail(&list, pages[0]);
	KTEST_EXPECT_EQ(t, migrate_pages(&list, new_frame, NULL, 0, MIGRATE_SYNC, MR_COMPACTION, &ok), 0);
	KTEST_EXPECT_EQ(t, ok, 1);
	KTEST_EXPECT_EQ(t, migratepage_calls, 1);
	KTEST_EXPECT_TRUE(t, page_list_first(&list) == NULL);
	KTEST_ASSERT_TRUE(t, moved_to != NULL && moved_to != pages[0]);
	KTEST_EXPECT_TRUE(t, PageBalloon(moved_to));
	KTEST_EXPECT_TRUE(t, balloon_page_device(moved_to) == &test_balloon);
	KTEST_EXPECT_EQ(t, page_ref_count(moved_to), 1);
	KTEST_EXPECT_FALSE(t, PageIsolated(moved_to) || PageLocked(moved_to));
	KTEST_EXPECT_EQ(t, stable_page_flags(moved_to) & (1ULL << KPF_OFFLINE), 1ULL << KPF_OFFLINE);
	/* the old frame: freed, nothing of the balloon left on it */
	KTEST_EXPECT_EQ(t, page_ref_count(pages[0]), 0);
	KTEST_EXPECT_FALSE(t, PageIsolated(pages[0]));
	KTEST_EXPECT_TRUE(t, clean_again(pages[0]));
	KTEST_EXPECT_EQ(t, test_balloon.isolated_pages, 0);
	KTEST_EXPECT_EQ(t, test_balloon.nr_pages, 2);
	KTEST_EXPECT_EQ(t, totalram_pages(), total0 - 2);
	KTEST_EXPECT_EQ(t, leak(), 2);
	KTEST_EXPECT_EQ(t, totalram_pages(), total0);
}

/* An owner that says no (no migratepage: -EAGAIN through every pass) keeps its page: it stays
 * on the caller's list, isolated, and goes back with putback_movable_pages(). */
static void refused_migration_keeps_the_page(struct ktest *t)
{
	struct page *pages[1];
	struct page_list list;
	unsigned int n = fill(t, pages, 1), ok = 5;

	KTEST_ASSERT_EQ(t, n, 1);
	page_list_init(&list);
	KTEST_ASSERT_TRUE(t, isolate_movable_page(pages[0], 0));
	page_list_add_tail(&list, pages[0]);
	KTEST_EXPECT_EQ(t, migrate_pages(&list, new_frame, NULL, 0, MIGRATE_ASYNC, MR_COMPACTION, &ok), 1);
	KTEST_EXPECT_EQ(t, ok, 0);
	KTEST_EXPECT_TRUE(t, page_list_first(&list) == pages[0]);
	KTEST_EXPECT_TRUE(t, PageIsolated(pages[0]) && PageOffline(pages[0]));
	putback_movable_pages(&list);
	KTEST_EXPECT_FALSE(t, PageIsolated(pages[0]));
	KTEST_EXPECT_EQ(t, test_balloon.isolated_pages, 0);
	KTEST_EXPECT_EQ(t, leak(), 1);
}

static const struct ktest_case balloon_inflate_cases[] = {
	KTEST_CASE(enqueue_makes_offline_movable_pages),
	KTEST_CASE(dequeue_skips_locked_and_poisoned),
	KTEST_CASE(managed_count_follows_the_balloon),
	KTEST_CASE(isolate_and_putback),
	KTEST_CASE(migrate_without_callback_refuses),
	KTEST_CASE(core_isolates_and_puts_back),
	KTEST_CASE(migration_moves_a_balloon_page),
	KTEST_CASE(refused_migration_keeps_the_page),
	{ 0 },
};
KTEST_SUITE(balloon_inflate, balloon_inflate_cases);
