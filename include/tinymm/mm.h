/*
 * mm.h - page frames: pfn <-> struct page <-> address, the memmap (mm/memmap.c).
 *
 * The memmap is one struct page array per RAM bank (a run of touching memblock regions), so a
 * hole between banks costs nothing and pfn_valid() is false there.  Lookups scan the (few)
 * banks; the last hit is remembered.  Invariant: banks are sorted and disjoint, and every frame
 * of every bank has an initialised struct page from memmap_init() on.
 */
#ifndef TINYMM_MM_H
#define TINYMM_MM_H

#include "memory.h"
#include "page-flags.h"

#define PHYS_PFN(pa)		((unsigned long)((pa) >> PAGE_SHIFT))
#define PFN_UP(pa)		((unsigned long)(((pa) + PAGE_SIZE - 1) >> PAGE_SHIFT))
#define PFN_PHYS(pfn)		((phys_addr_t)(pfn) << PAGE_SHIFT)
#define phys_to_pfn(pa)		PHYS_PFN(pa)

struct memmap_bank {
	unsigned long start_pfn, end_pfn;	/* [start, end) */
	struct page *map;			/* map[0] is start_pfn's page */
	/* The array's size in bytes, not its end: an array ending at the top of a 32-bit address
	 * space (RV32 with RAM up to 4 GiB) has an end pointer that wraps to 0. */
	unsigned long map_bytes;
	unsigned long nr_pages;			/* end_pfn - start_pfn: one load for hot paths */
};

/* The banks, for walkers (kpageflags, the memory map picture). */
int memmap_nr_banks(void);
const struct memmap_bank *memmap_bank(int i);

bool pfn_valid(unsigned long pfn);
struct page *__pfn_to_page_slow(unsigned long pfn);	/* NULL if !pfn_valid(pfn) */
/* The bank whose array holds @page, or NULL if @page is not in the memmap. */
const struct memmap_bank *memmap_bank_of_page(const struct page *page);
unsigned long __page_to_pfn_slow(const struct page *page);
extern const struct memmap_bank *memmap_hot_bank;	/* the bank of the last lookup */

/* NULL if !pfn_valid(pfn).  Inline and usually one bank check (the buddy merge and the split
 * look up a frame per step: a call and a bank search there cost more than the step itself). */
static inline struct page *pfn_to_page(unsigned long pfn)
{
	const struct memmap_bank *b = memmap_hot_bank;
	unsigned long off = pfn - b->start_pfn;

	if (likely(off < b->nr_pages))
		return b->map + off;
	return __pfn_to_page_slow(pfn);
}

/* The page must be in the memmap.  Inline and usually one bank check: allocator hot paths use it. */
static inline unsigned long page_to_pfn(const struct page *page)
{
	const struct memmap_bank *b = memmap_hot_bank;

	if (likely((uintptr_t)page - (uintptr_t)b->map < b->map_bytes))
		return b->start_pfn + (unsigned long)(page - b->map);
	return __page_to_pfn_slow(page);
}

static inline void *page_address(const struct page *page)
{
	return __va(PFN_PHYS(page_to_pfn(page)));
}

static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(PHYS_PFN(__pa(addr)));
}

/* virt_to_page() for hot paths: the page if @addr is in the last-used memmap bank, else NULL
 * (then the caller asks virt_to_page(), which searches every bank). */
static inline struct page *virt_to_page_hot(const void *addr)
{
	const struct memmap_bank *b = memmap_hot_bank;
	unsigned long i = PHYS_PFN(__pa(addr)) - b->start_pfn;

	return i < b->nr_pages ? b->map + i : NULL;
}

static inline int page_ref_count(const struct page *page)
{
	return atomic_read(&page->_refcount);
}

static inline int page_mapcount(const struct page *page)
{
	return atomic_read(&page->_mapcount) + 1;
}

/*
 * Build the memmap from memblock: allocate each bank's array (typed `memmap`), initialise every
 * struct page (zone, node, refcount 1, no mappings), mark everything memblock did not leave
 * usable PG_reserved, and leave usable frames at refcount 0 for the page allocator.
 * Prints "memmap: <N> pages, struct page <S> bytes, <K>K (<P>% of RAM)".  0 or -ENOMEM.
 */
int memmap_init(void);

#endif
