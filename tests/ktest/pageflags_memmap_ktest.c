/*
 * pageflags_memmap_ktest.c - suite `pageflags_memmap`: the live memmap, read-only (the page
 * allocator owns its pages; hand-made pages are suite `pageflags`'s, pageflags_ktest.c).
 * pfn <-> struct page <-> address round trips on every frame, the ends of each bank, holes
 * between banks and beyond the last one; the state memmap_init() left: every frame typed by
 * memblock, reserved ones (kernel image, memmap, dtb, firmware) PG_reserved at refcount 1,
 * usable ones at refcount 0 with no flags; the memmap's own frames and the kernel image's
 * (on a board) reserved.
 */
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "../../mm/internal.h"
#ifndef TINYMM_HOST
#include "tinymm/sections.h"

static char kernel_bss[8];
#endif

static void pfn_round_trips(struct ktest *t)
{
	int nr = memmap_nr_banks();

	KTEST_ASSERT_TRUE(t, nr >= 1);
	for (int i = 0; i < nr; i++) {
		const struct memmap_bank *b = memmap_bank(i);
		unsigned long bad = 0;
		KTEST_ASSERT_TRUE(t, b && b->start_pfn < b->end_pfn);
		for (unsigned long pfn = b->start_pfn; pfn < b->end_pfn; pfn++) {
			struct page *page = pfn_to_page(pfn);
			bad += !pfn_valid(pfn) || page != b->map + (pfn - b->start_pfn) ||
			       page_to_pfn(page) != pfn;
		}
		KTEST_EXPECT_EQ(t, bad, 0);
		unsigned long ends[2] = { b->start_pfn, b->end_pfn - 1 };
		for (int e = 0; e < 2; e++) {
			struct page *page = pfn_to_page(ends[e]);
			char *va = page_address(page);
			KTEST_EXPECT_EQ(t, (uintptr_t)va, (uintptr_t)__va(PFN_PHYS(ends[e])));
			KTEST_EXPECT_EQ(t, __pa(va), PFN_PHYS(ends[e]));
			KTEST_EXPECT_TRUE(t, virt_to_page(va) == page);
			KTEST_EXPECT_TRUE(t, virt_to_page(va + PAGE_SIZE - 1) == page);
		}
		if (i + 1 < nr) {
			const struct memmap_bank *n = memmap_bank(i + 1);
			KTEST_EXPECT_LT(t, b->end_pfn, n->start_pfn);	/* sorted, apart */
			if (b->end_pfn < n->start_pfn) {	/* the hole between them */
				KTEST_EXPECT_FALSE(t, pfn_valid(b->end_pfn));
				KTEST_EXPECT_FALSE(t, pfn_valid(n->start_pfn - 1));
				KTEST_EXPECT_TRUE(t, pfn_to_page(b->end_pfn) == NULL);
			}
		}
	}
	/* QEMU's boards have one bank, so no hole: beyond the ends must be invalid too. */
	const struct memmap_bank *first = memmap_bank(0), *last = memmap_bank(nr - 1);
	KTEST_EXPECT_FALSE(t, pfn_valid(last->end_pfn));
	KTEST_EXPECT_TRUE(t, pfn_to_page(last->end_pfn) == NULL);
	KTEST_EXPECT_FALSE(t, pfn_valid(~0UL));
	if (first->start_pfn)
		KTEST_EXPECT_FALSE(t, pfn_valid(first->start_pfn - 1));
	KTEST_EXPECT_TRUE(t, memmap_bank(nr) == NULL);
}

/* The zone every frame must be in: ZONE_DMA below the DMA limit (tinymm.zone_dma_limit, else
 * the device tree's dma-ranges: all of RAM on the Orange Pi PC's H3), ZONE_NORMAL above it and
 * everywhere when there is none (QEMU virt, the host).  Either layout is legitimate. */
static enum zone_type zone_of(unsigned long pfn)
{
	return zone_dma_limit && pfn < PHYS_PFN(zone_dma_limit) ? ZONE_DMA : ZONE_NORMAL;
}

/* What memmap_init() and page_alloc_init() left: every frame of RAM typed by memblock and in
 * its zone, from the struct page.  The only usable frames in use when tests run are the first
 * threads' (stacks, task_structs). */
static void frames_match_memblock(struct ktest *t)
{
	int kernel = 0, memmap = 0;
	unsigned long in_zone[MAX_NR_ZONES] = { 0 };

	for (int i = 0; i < memblock_count(); i++) {
		const struct memblock_region *r = memblock_region(i);
		unsigned long bad = 0;
		kernel += r->type == MEMBLOCK_KERNEL;
		memmap += r->type == MEMBLOCK_MEMMAP;
		for (phys_addr_t pa = r->base; pa < r->base + r->size; pa += PAGE_SIZE) {
			const struct page *p = pfn_to_page(PHYS_PFN(pa));
			unsigned long was = bad;
			if (p)
				in_zone[page_zonenum(p)]++;
			if (!p)
				bad++;
			else if (page_zonenum(p) != zone_of(PHYS_PFN(pa)) || page_to_nid(p) != 0)
				bad++;
			else if (r->type == MEMBLOCK_USABLE && (page_ref_count(p) || PageSlab(p)))
				/* In use since boot: the first threads' stacks and task_structs. */
				bad += PageReserved(p);
			else if (r->type == MEMBLOCK_USABLE)	/* free, or a tail of a block in use */
				bad += p->mapping || PageCompound(p) ||
				       (!PageBuddy(p) && page_mapcount(p) != 0) ||
				       (p->flags & PAGEFLAGS_MASK) != 0;
			else					/* kernel, memmap, dtb, firmware... */
				bad += p->mapping || PageCompound(p) || page_mapcount(p) != 0 ||
				       page_ref_count(p) != 1 ||
				       (p->flags & PAGEFLAGS_MASK) != 1UL << PG_reserved;
			if (bad != was && bad <= 4)
				kprintf("    # pfn 0x%lx%s: flags 0x%lx ref %d\n",
					(unsigned long)PHYS_PFN(pa), p ? "" : " has no struct page",
					p ? p->flags : 0, p ? page_ref_count(p) : 0);
		}
		if (bad) {
			char msg[120];
			ksnprintf(msg, sizeof(msg), "%lu bad frames in region %d (%s)", bad, i,
				  memblock_type_name(r->type));
			ktest_fail_msg(t, __FILE__, __LINE__, msg);
		}
	}
	KTEST_EXPECT_GE(t, kernel, 1);
	KTEST_EXPECT_GE(t, memmap, 1);
	KTEST_EXPECT_GT(t, in_zone[ZONE_DMA] + in_zone[ZONE_NORMAL], 0);
	KTEST_EXPECT_EQ(t, in_zone[ZONE_MOVABLE], 0);
	kprintf("    # %lu frames in ZONE_DMA, %lu in ZONE_NORMAL\n", in_zone[ZONE_DMA],
		in_zone[ZONE_NORMAL]);
}

static bool reserved_at(const void *va)
{
	const struct page *p = virt_to_page(va);

	return p && PageReserved(p) && page_ref_count(p) == 1;
}

/* The memmap's own frames, and (on a board) the kernel image's, are reserved. */
static void memmap_and_kernel_are_reserved(struct ktest *t)
{
	unsigned long bad = 0;

	for (int i = 0; i < memmap_nr_banks(); i++) {
		const struct memmap_bank *b = memmap_bank(i);
		const char *hi = (const char *)(b->map + (b->end_pfn - b->start_pfn));
		for (const char *va = (const char *)b->map; va < hi; va += PAGE_SIZE)
			bad += !reserved_at(va);
		bad += !reserved_at(hi - 1);
	}
#ifndef TINYMM_HOST
	for (const char *va = _start_kernel; va < _end; va += PAGE_SIZE)
		bad += !reserved_at(va);
	bad += !reserved_at((const void *)((uintptr_t)_end - 1));
	KTEST_EXPECT_TRUE(t, reserved_at((const void *)(uintptr_t)pfn_round_trips));	/* code */
	KTEST_EXPECT_TRUE(t, reserved_at(&kernel_bss));					/* bss */
#endif
	KTEST_EXPECT_EQ(t, bad, 0);
}

static const struct ktest_case pageflags_memmap_cases[] = {
	KTEST_CASE(pfn_round_trips),
	KTEST_CASE(frames_match_memblock),
	KTEST_CASE(memmap_and_kernel_are_reserved),
	{}
};
KTEST_SUITE(pageflags_memmap, pageflags_memmap_cases);
