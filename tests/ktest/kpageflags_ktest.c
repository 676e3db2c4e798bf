/*
 * kpageflags_ktest.c - suite "kpageflags": stable_page_flags() of hand-built struct pages (static
 * arrays, never the live memmap) in each state tinymm can put a page in, each against its exact
 * KPF word written out in hex, so the KPF bit numbers are checked too (Linux v6.10's: LOCKED 0 ...
 * PGTABLE 26, RESERVED 32 ... ARCH_3 42).  The host runs it as well (tests/host/kpageflags_test.c).
 */
#include <string.h>
#include "tinymm/kernel-page-flags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"

/* As memmap_init() leaves a page: no flags, zone and node set, refcount 1, not mapped. */
static void kpf_init_pages(struct page *p, unsigned long n)
{
	memset(p, 0, n * sizeof(*p));
	for (unsigned long i = 0; i < n; i++) {
		set_page_links(&p[i], ZONE_NORMAL, 0);
		atomic_set(&p[i]._mapcount, -1);
		atomic_set(&p[i]._refcount, 1);
	}
}

static struct page one_page;

/* The KPF word of a fresh small page with page-flag bit @bit set. */
static u64 with_flag(int bit)
{
	kpf_init_pages(&one_page, 1);
	__set_bit(bit, &one_page.flags);
	return stable_page_flags(&one_page);
}

static void null_is_nopage(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, stable_page_flags(NULL), 0x100000);
	KTEST_EXPECT_EQ(t, stable_page_flags_in(NULL, NULL, 0), 0x100000);
}

static void fresh_page_has_no_kpf_bits(struct ktest *t)
{
	kpf_init_pages(&one_page, 1);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0);
	/* The zone and node fields at the top of the flags word never leak into the KPF word. */
	set_page_links(&one_page, ZONE_MOVABLE, MAX_NUMNODES - 1);
	KTEST_EXPECT_NE(t, one_page.flags, 0);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0);
	/* Neither do a refcount of 0 on its own or a large refcount. */
	atomic_set(&one_page._refcount, 0);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0);
	atomic_set(&one_page._refcount, 100);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0);
}

static void each_flag_has_its_kpf_bit(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, with_flag(PG_locked), 0x1);			/* KPF_LOCKED 0 */
	KTEST_EXPECT_EQ(t, with_flag(PG_referenced), 0x4);		/* KPF_REFERENCED 2 */
	KTEST_EXPECT_EQ(t, with_flag(PG_uptodate), 0x8);		/* KPF_UPTODATE 3 */
	KTEST_EXPECT_EQ(t, with_flag(PG_dirty), 0x10);			/* KPF_DIRTY 4 */
	KTEST_EXPECT_EQ(t, with_flag(PG_lru), 0x20);			/* KPF_LRU 5 */
	KTEST_EXPECT_EQ(t, with_flag(PG_active), 0x40);			/* KPF_ACTIVE 6 */
	KTEST_EXPECT_EQ(t, with_flag(PG_writeback), 0x100);		/* KPF_WRITEBACK 8 */
	KTEST_EXPECT_EQ(t, with_flag(PG_reclaim), 0x200);		/* KPF_RECLAIM 9 */
	KTEST_EXPECT_EQ(t, with_flag(PG_swapbacked), 0x4000);		/* KPF_SWAPBACKED 14 */
	KTEST_EXPECT_EQ(t, with_flag(PG_unevictable), 0x40000);	/* KPF_UNEVICTABLE 18 */
	KTEST_EXPECT_EQ(t, with_flag(PG_hwpoison), 0x80000);		/* KPF_HWPOISON 19 */
	KTEST_EXPECT_EQ(t, with_flag(PG_idle), 0x2000000);		/* KPF_IDLE 25 */
	KTEST_EXPECT_EQ(t, with_flag(PG_reserved), 0x100000000LL);	/* KPF_RESERVED 32 */
	KTEST_EXPECT_EQ(t, with_flag(PG_mlocked), 0x200000000LL);	/* KPF_MLOCKED 33 */
	KTEST_EXPECT_EQ(t, with_flag(PG_mappedtodisk), 0x400000000LL);	/* KPF_MAPPEDTODISK 34 */
	KTEST_EXPECT_EQ(t, with_flag(PG_private), 0x800000000LL);	/* KPF_PRIVATE 35 */
	KTEST_EXPECT_EQ(t, with_flag(PG_private_2), 0x1000000000LL);	/* KPF_PRIVATE_2 36 */
	KTEST_EXPECT_EQ(t, with_flag(PG_owner_priv_1), 0x2000000000LL); /* KPF_OWNER_PRIVATE 37 */
	KTEST_EXPECT_EQ(t, with_flag(PG_arch_1), 0x4000000000LL);	/* KPF_ARCH 38 */
	KTEST_EXPECT_EQ(t, with_flag(PG_uncached), 0x8000000000LL);	/* KPF_UNCACHED 39 */
	KTEST_EXPECT_EQ(t, with_flag(PG_arch_2), 0x20000000000LL);	/* KPF_ARCH_2 41 */
	KTEST_EXPECT_EQ(t, with_flag(PG_arch_3), 0x40000000000LL);	/* KPF_ARCH_3 42 */
	/* Flags Linux exports no bit for: waiters, workingset, young. */
	KTEST_EXPECT_EQ(t, with_flag(PG_waiters), 0);
	KTEST_EXPECT_EQ(t, with_flag(PG_workingset), 0);
	KTEST_EXPECT_EQ(t, with_flag(PG_young), 0);
}

static void swapcache_needs_swapbacked(struct ktest *t)
{
	/* PG_swapcache is PG_owner_priv_1: alone it is only KPF_OWNER_PRIVATE. */
	kpf_init_pages(&one_page, 1);
	__SetPageSwapCache(&one_page);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x2000000000LL);
	__SetPageSwapBacked(&one_page);		/* SWAPCACHE 13 | SWAPBACKED 14 | OWNER_PRIVATE 37 */
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x2000006000LL);
	__ClearPageSwapCache(&one_page);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x4000);
}

static void page_cache_page(struct ktest *t)
{
	kpf_init_pages(&one_page, 1);
	__SetPageUptodate(&one_page);
	__SetPageLRU(&one_page);
	__SetPageReferenced(&one_page);
	__SetPageMappedToDisk(&one_page);
	__SetPagePrivate(&one_page);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0xc0000002cLL);
	__SetPageLocked(&one_page);
	__SetPageWriteback(&one_page);
	__SetPageReclaim(&one_page);
	__SetPagePrivate2(&one_page);
	__SetPageDirty(&one_page);
	__SetPageActive(&one_page);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x1c0000037dLL);
}

static unsigned long anon_vma_stand_in[2];	/* any aligned object: the mapping's pointer part */

static void mapcount_and_mapping(struct ktest *t)
{
	kpf_init_pages(&one_page, 1);
	atomic_set(&one_page._mapcount, 0);		/* mapped once: KPF_MMAP 11 */
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x800);
	atomic_set(&one_page._mapcount, 6);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x800);
	/* A file mapping (bit 0 clear) adds nothing by itself. */
	one_page.mapping = (struct address_space *)anon_vma_stand_in;
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x800);
	/* Anonymous: KPF_ANON 12, and KPF_KSM 21 with it, as v6.10 reports every anon page. */
	one_page.mapping = (struct address_space *)((unsigned long)anon_vma_stand_in | 1);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x201800);
	atomic_set(&one_page._mapcount, -1);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x201000);
	/* Movable (bit 1 only) is not anonymous. */
	one_page.mapping = (struct address_space *)((unsigned long)anon_vma_stand_in | 2);
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0);
}

static struct page folio_pages[4];

static void compound_tails_take_the_folio_flags(struct ktest *t)
{
	struct page *head = &folio_pages[0];

	kpf_init_pages(folio_pages, 4);
	prep_compound_page(head, 2);
	__SetPageLocked(head);
	__SetPageDirty(head);
	__SetPageMlocked(head);
	/* COMPOUND_HEAD 15 on the head, COMPOUND_TAIL 16 on each tail, the folio's flags on all */
	KTEST_EXPECT_EQ(t, stable_page_flags(head), 0x200008011LL);
	for (int i = 1; i < 4; i++)
		KTEST_EXPECT_EQ(t, stable_page_flags(&folio_pages[i]), 0x200010011LL);
	/* A large folio on the LRU is a THP to Linux (KPF_THP 22), on every page. */
	__SetPageLRU(head);
	KTEST_EXPECT_EQ(t, stable_page_flags(head), 0x200408031LL);
	KTEST_EXPECT_EQ(t, stable_page_flags(&folio_pages[3]), 0x200410031LL);
	/* Mapped: the folio's mapcount counts, so every page is KPF_MMAP. */
	atomic_set(&head->_mapcount, 0);
	KTEST_EXPECT_EQ(t, stable_page_flags(&folio_pages[2]), 0x200410831LL);
	atomic_set(&head->_mapcount, -1);
}

static void hwpoison_stays_per_page(struct ktest *t)
{
	struct page *head = &folio_pages[0];

	kpf_init_pages(folio_pages, 4);
	prep_compound_page(head, 2);
	__SetPageUptodate(head);
	__SetPageHWPoison(&folio_pages[2]);
	KTEST_EXPECT_EQ(t, stable_page_flags(head), 0x8008);
	KTEST_EXPECT_EQ(t, stable_page_flags(&folio_pages[1]), 0x10008);
	KTEST_EXPECT_EQ(t, stable_page_flags(&folio_pages[2]), 0x90008);	/* + KPF_HWPOISON 19 */
	KTEST_EXPECT_EQ(t, stable_page_flags(&folio_pages[3]), 0x10008);
	__ClearPageHWPoison(&folio_pages[2]);
	__SetPageHWPoison(head);			/* the head's own poison: the head only */
	KTEST_EXPECT_EQ(t, stable_page_flags(head), 0x88008);
	KTEST_EXPECT_EQ(t, stable_page_flags(&folio_pages[1]), 0x10008);
}

static void anon_large_folio_is_thp(struct ktest *t)
{
	struct page *head = &folio_pages[0];

	kpf_init_pages(folio_pages, 2);
	prep_compound_page(head, 1);
	head->mapping = (struct address_space *)((unsigned long)anon_vma_stand_in | 1);
	KTEST_EXPECT_EQ(t, stable_page_flags(head), 0x609000);		/* HEAD|ANON|KSM|THP */
	KTEST_EXPECT_EQ(t, stable_page_flags(&folio_pages[1]), 0x611000);	/* TAIL|ANON|KSM|THP */
}

#define BUDDY_PFN	0x1000UL	/* frame of buddy_pages[0]: aligned for every order below 12 */
static struct page buddy_pages[16];

/* Make buddy_pages[i] the head of a free order-@order block, as the buddy allocator will. */
static void make_free_block(struct page *pages, int i, unsigned int order)
{
	for (int j = i; j < i + (1 << order); j++)
		atomic_set(&pages[j]._refcount, 0);
	pages[i].private = order;
	__SetPageBuddy(&pages[i]);
}

static void buddy_type_encoding(struct ktest *t)
{
	kpf_init_pages(&one_page, 1);
	KTEST_EXPECT_EQ(t, one_page.page_type, 0xffffffffU);
	KTEST_EXPECT_FALSE(t, PageBuddy(&one_page));
	__SetPageBuddy(&one_page);			/* a type is a cleared bit */
	KTEST_EXPECT_EQ(t, one_page.page_type, 0xffffff7fU);
	KTEST_EXPECT_TRUE(t, PageBuddy(&one_page));
	KTEST_EXPECT_TRUE(t, page_type_has_type(one_page.page_type));
	one_page.private = 3;
	KTEST_EXPECT_EQ(t, buddy_order(&one_page), 3);
	__ClearPageBuddy(&one_page);
	KTEST_EXPECT_EQ(t, atomic_read(&one_page._mapcount), -1);
	KTEST_EXPECT_FALSE(t, page_type_has_type(one_page.page_type));
	/* A mapped page is never a buddy page. */
	atomic_set(&one_page._mapcount, 0);
	KTEST_EXPECT_FALSE(t, PageBuddy(&one_page));
}

/* An inflated balloon's frame (v6.10's PG_offline, 0x100): KPF_OFFLINE (23) and nothing else. */
static void offline_type_is_kpf_offline(struct ktest *t)
{
	kpf_init_pages(&one_page, 1);
	__SetPageOffline(&one_page);
	KTEST_EXPECT_EQ(t, one_page.page_type, 0xfffffeffU);
	KTEST_EXPECT_TRUE(t, PageOffline(&one_page));
	KTEST_EXPECT_FALSE(t, PageBuddy(&one_page));
	KTEST_EXPECT_FALSE(t, PageTable(&one_page));
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0x800000);
	__ClearPageOffline(&one_page);
	KTEST_EXPECT_FALSE(t, PageOffline(&one_page));
	KTEST_EXPECT_EQ(t, stable_page_flags(&one_page), 0);
}

static void buddy_block_every_page(struct ktest *t)
{
	kpf_init_pages(buddy_pages, 16);
	make_free_block(buddy_pages, 4, 2);		/* pfns 0x1004-0x1007 */
	make_free_block(buddy_pages, 8, 3);		/* pfns 0x1008-0x100f */
	for (int i = 0; i < 16; i++)
		KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[i], buddy_pages, BUDDY_PFN),
				i < 4 ? 0 : 0x400);		/* KPF_BUDDY 10 */
	/* A head is BUDDY through its page type alone, wherever it lives. */
	KTEST_EXPECT_EQ(t, stable_page_flags(&buddy_pages[8]), 0x400);
	/* A free page in no block, and one whose order-1 head is a too-small block, are not. */
	atomic_set(&buddy_pages[3]._refcount, 0);
	KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[3], buddy_pages, BUDDY_PFN), 0);
	buddy_pages[8].private = 1;			/* now covers 0x1008-0x1009 only */
	KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[9], buddy_pages, BUDDY_PFN), 0x400);
	KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[10], buddy_pages, BUDDY_PFN), 0);
	/* A page with a reference is not free, whatever block it seems to be in. */
	atomic_set(&buddy_pages[9]._refcount, 1);
	KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[9], buddy_pages, BUDDY_PFN), 0);
}

static void buddy_search_stays_inside_the_map(struct ktest *t)
{
	/* A map starting at pfn 0x1002: the order-2 head of 0x1002/0x1003 would be 0x1000, which
	 * has no struct page here; the search must stop (the host's ASan would see a read). */
	kpf_init_pages(buddy_pages, 16);
	atomic_set(&buddy_pages[0]._refcount, 0);
	atomic_set(&buddy_pages[1]._refcount, 0);
	make_free_block(buddy_pages, 2, 2);		/* pfns 0x1004-0x1007 */
	KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[0], buddy_pages, 0x1002), 0);
	KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[1], buddy_pages, 0x1002), 0);
	for (int i = 2; i < 6; i++)
		KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[i], buddy_pages, 0x1002), 0x400);
	/* Blocks are found by pfn alignment: the same pages at a misaligned pfn are no block. */
	KTEST_EXPECT_EQ(t, stable_page_flags_in(&buddy_pages[3], buddy_pages, 0x1001), 0);
}

static const struct ktest_case kpageflags_cases[] = {
	KTEST_CASE(null_is_nopage),
	KTEST_CASE(fresh_page_has_no_kpf_bits),
	KTEST_CASE(each_flag_has_its_kpf_bit),
	KTEST_CASE(swapcache_needs_swapbacked),
	KTEST_CASE(page_cache_page),
	KTEST_CASE(mapcount_and_mapping),
	KTEST_CASE(compound_tails_take_the_folio_flags),
	KTEST_CASE(hwpoison_stays_per_page),
	KTEST_CASE(anon_large_folio_is_thp),
	KTEST_CASE(buddy_type_encoding),
	KTEST_CASE(offline_type_is_kpf_offline),
	KTEST_CASE(buddy_block_every_page),
	KTEST_CASE(buddy_search_stays_inside_the_map),
	{ 0 },
};
KTEST_SUITE(kpageflags, kpageflags_cases);
