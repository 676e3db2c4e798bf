/*
 * memmap.c - one struct page per frame of every RAM bank, allocated from memblock at boot.
 *
 * Invariants: banks[] sorted by pfn, disjoint, each map fully initialised; never freed.
 * Locking: built once during single-threaded boot, read-only afterwards (struct page contents
 * are the flags' and allocators' business, not this file's).
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "internal.h"

static struct memmap_bank banks[CONFIG_MAX_MEMMAP_BANKS];
uintptr_t page_link_base;	/* the lowest map: page links are offsets from it */
static int nr_banks;
static int last_hit;	/* lookups cluster: try the previous bank first */

int memmap_nr_banks(void)
{
	return nr_banks;
}

const struct memmap_bank *memmap_bank(int i)
{
	return i >= 0 && i < nr_banks ? &banks[i] : NULL;
}

static const struct memmap_bank *bank_of_pfn(unsigned long pfn)
{
	const struct memmap_bank *b = &banks[last_hit];

	if (nr_banks && pfn >= b->start_pfn && pfn < b->end_pfn)
		return b;
	for (int i = 0; i < nr_banks; i++)
		if (pfn >= banks[i].start_pfn && pfn < banks[i].end_pfn) {
			last_hit = i;
			memmap_hot_bank = &banks[i];
			return &banks[i];
		}
	return NULL;
}

bool pfn_valid(unsigned long pfn)
{
	return bank_of_pfn(pfn) != NULL;
}

struct page *__pfn_to_page_slow(unsigned long pfn)
{
	const struct memmap_bank *b = bank_of_pfn(pfn);

	return b ? b->map + (pfn - b->start_pfn) : NULL;
}

/* An empty bank until memmap_init(), so the inline page_to_pfn() test always works. */
static const struct memmap_bank no_bank;
const struct memmap_bank *memmap_hot_bank = &no_bank;

const struct memmap_bank *memmap_bank_of_page(const struct page *page)
{
	for (int i = 0; i < nr_banks; i++)
		if ((uintptr_t)page - (uintptr_t)banks[i].map < banks[i].map_bytes)
			return &banks[i];
	return NULL;
}

unsigned long __page_to_pfn_slow(const struct page *page)
{
	const struct memmap_bank *b = memmap_bank_of_page(page);

	BUG_ON(!b);	/* not a memmap page: a wild pointer, never a hole */
	memmap_hot_bank = b;
	return b->start_pfn + (unsigned long)(page - b->map);
}

/*
 * Fill the struct pages of [pfn, end) of @b from @tmpl.  One struct store per frame from a
 * template the compiler keeps in registers, not memset + field stores: this loop runs once per
 * frame of RAM and is most of boot's cost.
 */
static void memmap_fill(const struct memmap_bank *b, unsigned long pfn, unsigned long end,
			const struct page *tmpl)
{
	const struct page t = *tmpl;

	for (struct page *p = b->map + (pfn - b->start_pfn), *e = b->map + (end - b->start_pfn); p < e; p++)
		*p = t;
}

int memmap_init(void)
{
	unsigned long total_pages = 0;
	phys_addr_t total_bytes = 0;

	nr_banks = last_hit = 0;
	memmap_hot_bank = &no_bank;
	/* Banks: runs of touching regions.  A partial first/last frame belongs to its bank. */
	for (int i = 0; i < memblock_count(); i++) {
		const struct memblock_region *r = memblock_region(i);
		unsigned long s = PHYS_PFN(r->base), e = PHYS_PFN(r->base + r->size + PAGE_SIZE - 1);
		if (nr_banks && banks[nr_banks - 1].end_pfn >= s) {
			banks[nr_banks - 1].end_pfn = max(banks[nr_banks - 1].end_pfn, e);
			continue;
		}
		if (nr_banks == CONFIG_MAX_MEMMAP_BANKS) {
			pr_err("memmap: more than %d RAM banks; the rest has no struct page\n",
			       CONFIG_MAX_MEMMAP_BANKS);
			break;
		}
		banks[nr_banks++] = (struct memmap_bank){ s, e, NULL, 0, 0 };
	}
	/* Allocate every map first: the allocations change memblock types the init reads. */
	for (int i = 0; i < nr_banks; i++) {
		struct memmap_bank *b = &banks[i];
		phys_addr_t bytes = (phys_addr_t)(b->end_pfn - b->start_pfn) * sizeof(struct page);
		phys_addr_t pa = memblock_alloc(ALIGN(bytes, (phys_addr_t)PAGE_SIZE), PAGE_SIZE,
						MEMBLOCK_MEMMAP);
		if (!pa) {
			pr_err("memmap: no room for %llu bytes of struct page for pfns 0x%lx-0x%lx\n",
			       (unsigned long long)bytes, b->start_pfn, b->end_pfn - 1);
			nr_banks = i;
			return -ENOMEM;
		}
		b->map = __va(pa);
		b->map_bytes = (b->end_pfn - b->start_pfn) * sizeof(struct page);
		b->nr_pages = b->end_pfn - b->start_pfn;
		if (!i || (uintptr_t)b->map < page_link_base)
			page_link_base = (uintptr_t)b->map;
		total_pages += b->end_pfn - b->start_pfn;
		total_bytes += ALIGN(bytes, (phys_addr_t)PAGE_SIZE);
	}
	struct page usable, reserved;	/* usable: refcount 0, for the page allocator */
	memset(&usable, 0, sizeof(usable));
	set_page_links(&usable, ZONE_NORMAL, 0);
	atomic_set(&usable._mapcount, -1);
	reserved = usable;
	atomic_set(&reserved._refcount, 1);
	__SetPageReserved(&reserved);
	/* A frame is usable when the region holding its first byte is (regions are sorted and
	 * disjoint; a bank is a run of touching regions, so no region spans two banks).  Frames
	 * between regions are reserved.  Filled run by run. */
	for (int i = 0, cursor = 0; i < nr_banks; i++) {
		struct memmap_bank *b = &banks[i];
		unsigned long pfn = b->start_pfn;
		for (; cursor < memblock_count(); cursor++) {
			const struct memblock_region *r = memblock_region(cursor);
			unsigned long rs = PFN_UP(r->base), re = PFN_UP(r->base + r->size);
			if (rs >= b->end_pfn)
				break;			/* a later bank's */
			if (re <= pfn)
				continue;
			rs = max(rs, pfn);
			re = min(re, b->end_pfn);
			memmap_fill(b, pfn, rs, &reserved);
			memmap_fill(b, rs, re, r->type == MEMBLOCK_USABLE ? &usable : &reserved);
			pfn = re;
		}
		memmap_fill(b, pfn, b->end_pfn, &reserved);
	}
	unsigned long long ram = memblock_phys_mem_size();
	unsigned long long hundredths = ram ? (unsigned long long)total_bytes * 10000 / ram : 0;
	pr_info("memmap: %lu pages, struct page %zu bytes, %lluK (%llu.%02llu%% of RAM)\n",
		total_pages, sizeof(struct page), (unsigned long long)(total_bytes >> 10),
		hundredths / 100, hundredths % 100);
	return 0;
}
