/*
 * extfrag_ktest.c - suite `extfrag` (mm/vmstat_extfrag.c): Linux's unusable free space index
 * and fragmentation index on zones whose free lists the suite sets by hand (only nr_free is
 * read), against figures worked out on paper; then the live zones' figures against the free
 * lists counted block by block.  tests/qemu/extfrag_test.sh checks the shell's text.
 */
#include "tinymm/compaction.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "../../mm/internal.h"

/* 4 order-0, 2 order-1 and 1 order-3 free blocks: 16 frames in 7 blocks. */
static void fake_zone(struct zone *z)
{
	memset(z, 0, sizeof(*z));
	z->free_area[0].nr_free = 4;
	z->free_area[1].nr_free = 2;
	z->free_area[3].nr_free = 1;
}

static void contig_page_info_counts(struct ktest *t)
{
	struct zone z;
	struct contig_page_info info;

	fake_zone(&z);
	fill_contig_page_info(&z, 1, &info);
	KTEST_EXPECT_EQ(t, info.free_pages, 16);
	KTEST_EXPECT_EQ(t, info.free_blocks_total, 7);
	KTEST_EXPECT_EQ(t, info.free_blocks_suitable, 6);	/* 2 + the order-3 block's 4 */
	fill_contig_page_info(&z, 3, &info);
	KTEST_EXPECT_EQ(t, info.free_blocks_suitable, 1);
	fill_contig_page_info(&z, 4, &info);
	KTEST_EXPECT_EQ(t, info.free_blocks_suitable, 0);
}

static void unusable_index_by_hand(struct ktest *t)
{
	/* (free - suitable << order) * 1000 / free: 0, (16-12), (16-8), (16-8), 16 of 16. */
	static const int want[] = { 0, 250, 500, 500, 1000, 1000 };
	struct zone z;
	struct contig_page_info info;

	fake_zone(&z);
	for (unsigned int o = 0; o < ARRAY_SIZE(want); o++) {
		fill_contig_page_info(&z, o, &info);
		KTEST_EXPECT_EQ(t, unusable_free_index(o, &info), want[o]);
	}
	memset(&z, 0, sizeof(z));		/* nothing free: all of it "unusable" */
	fill_contig_page_info(&z, 0, &info);
	KTEST_EXPECT_EQ(t, unusable_free_index(0, &info), 1000);
}

static void fragmentation_index_by_hand(struct ktest *t)
{
	struct zone z;

	fake_zone(&z);
	for (unsigned int o = 0; o <= 3; o++)		/* a block of that order is free */
		KTEST_EXPECT_EQ(t, fragmentation_index(&z, o), -1000);
	/* 1000 - (1000 + 16 * 1000 / 16) / 7 = 1000 - 285; order 5: 1000 - 1500 / 7 = 1000 - 214 */
	KTEST_EXPECT_EQ(t, fragmentation_index(&z, 4), 715);
	KTEST_EXPECT_EQ(t, fragmentation_index(&z, 5), 786);
	/* Many small blocks: 1024 order-0 frames, an order-6 request (every build has order 6):
	 * 1000 - (1000 + 1024000 / 64) / 1024 = 1000 - 16 */
	memset(&z, 0, sizeof(z));
	z.free_area[0].nr_free = 1024;
	KTEST_EXPECT_EQ(t, fragmentation_index(&z, 6), 984);
	memset(&z, 0, sizeof(z));		/* nothing free: 0, not a failure of fragmentation */
	KTEST_EXPECT_EQ(t, fragmentation_index(&z, 2), 0);
	KTEST_EXPECT_EQ(t, fragmentation_index(&z, MAX_PAGE_ORDER + 1), 0);	/* beyond: 0 */
}

/* The live zones: nr_free (what the indices read) matches the free lists walked block by block. */
static void live_zones_match_free_lists(struct ktest *t)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		unsigned long counted = 0, pages = 0, flags;
		struct contig_page_info info;

		if (!z->present_pages)
			continue;
		spin_lock_irqsave(&z->lock, flags);
		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				for (struct page *p = page_list_first(&z->free_area[o].free_list[mt]); p;
				     p = page_list_next(p)) {
					counted++;
					pages += 1UL << o;
				}
		fill_contig_page_info(z, 0, &info);
		spin_unlock_irqrestore(&z->lock, flags);
		KTEST_EXPECT_EQ(t, info.free_blocks_total, counted);
		KTEST_EXPECT_EQ(t, info.free_pages, pages);
		KTEST_EXPECT_EQ(t, info.free_blocks_suitable, pages);	/* order 0: every frame */
	}
}

static const struct ktest_case extfrag_cases[] = {
	KTEST_CASE(contig_page_info_counts),
	KTEST_CASE(unusable_index_by_hand),
	KTEST_CASE(fragmentation_index_by_hand),
	KTEST_CASE(live_zones_match_free_lists),
	{}
};
KTEST_SUITE(extfrag, extfrag_cases);
