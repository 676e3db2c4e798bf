/*
 * internal.h - helpers private to mm/: compressed page links and the free lists built on them.
 *
 * A page link is 32 bits: (page address - page_link_base) >> 3.  Every struct page is 16-byte
 * aligned (maps are page-aligned, the struct is 32 or 48 bytes), so the value is always even and
 * bit 0 stays free for compound_head's tail mark, which shares the word.  32 bits of 8-byte units
 * reach 32 GiB of memmap addresses.  PAGE_LINK_NONE (0xfffffffe) ends a list.
 * Lists are doubly linked and not circular: head.first/last are links, the ends hold NONE.
 * Locking: callers hold the zone lock of the list they touch.
 */
#ifndef TINYMM_MM_INTERNAL_H
#define TINYMM_MM_INTERNAL_H

#include "tinymm/mm.h"
#include "tinymm/irqflags.h"
#include "tinymm/mmzone.h"

extern uintptr_t page_link_base;

static inline uint32_t page_to_link(const struct page *page)
{
	return (uint32_t)(((uintptr_t)page - page_link_base) >> 3);
}

static inline struct page *link_to_page(uint32_t link)
{
	return (struct page *)(page_link_base + ((uintptr_t)link << 3));
}

static inline void page_list_init(struct page_list *l)
{
	l->first = l->last = PAGE_LINK_NONE;
}

static inline bool page_list_empty(const struct page_list *l)
{
	return l->first == PAGE_LINK_NONE;
}

static inline struct page *page_list_first(const struct page_list *l)
{
	return page_list_empty(l) ? NULL : link_to_page(l->first);
}

static inline void page_list_add(struct page_list *l, struct page *page)
{
	uint32_t me = page_to_link(page);

	page->lru.prev = PAGE_LINK_NONE;
	page->lru.next = l->first;
	if (l->first != PAGE_LINK_NONE)
		link_to_page(l->first)->lru.prev = me;
	else
		l->last = me;
	l->first = me;
}

static inline void page_list_add_tail(struct page_list *l, struct page *page)
{
	uint32_t me = page_to_link(page);

	page->lru.next = PAGE_LINK_NONE;
	page->lru.prev = l->last;
	if (l->last != PAGE_LINK_NONE)
		link_to_page(l->last)->lru.next = me;
	else
		l->first = me;
	l->last = me;
}

static inline void page_list_del(struct page_list *l, struct page *page)
{
	uint32_t next = page->lru.next, prev = page->lru.prev;

	if (prev != PAGE_LINK_NONE)
		link_to_page(prev)->lru.next = next;
	else
		l->first = next;
	if (next != PAGE_LINK_NONE)
		link_to_page(next)->lru.prev = prev;
	else
		l->last = prev;
	page->lru.next = page->lru.prev = 0;
}

/*
 * Per-CPU lists are LIFO stacks threaded through lru.next only (lru.prev unused): push and pop
 * are three memory operations, which is most of the allocator's fast path.
 */
static inline void pcp_push(struct page_list *l, struct page *page)
{
	page->lru.next = l->first;
	l->first = page_to_link(page);
}

static inline struct page *pcp_pop(struct page_list *l)
{
	struct page *page = link_to_page(l->first);

	l->first = page->lru.next;
	page->lru.next = 0;
	return page;
}

/* page_check.c: v6.10's bad-page rules. */
/* Flags no page may carry into the allocator's hands (v6.10's PAGE_FLAGS_CHECK_AT_FREE). */
#define PAGE_FLAGS_CHECK_AT_FREE							\
	(1UL << PG_lru | 1UL << PG_locked | 1UL << PG_private | 1UL << PG_private_2 |	\
	 1UL << PG_writeback | 1UL << PG_reserved | 1UL << PG_active |			\
	 1UL << PG_unevictable | 1UL << PG_mlocked)
/* ... and none at all when handed out, but HWPoison (v6.10's PAGE_FLAGS_CHECK_AT_PREP). */
#define PAGE_FLAGS_CHECK_AT_PREP	(PAGEFLAGS_MASK & ~(1UL << PG_hwpoison))
void bad_page(struct page *page, const char *reason);
bool free_pages_prepare(struct page *page, unsigned int order);	/* false: leak the block */
bool check_new_pages(struct page *page, unsigned int order);	/* false: reported and leaked */
extern bool kernel_tainted_bad_page;

/* page_alloc.c */
extern struct zone zones[MAX_NR_ZONES];
extern int nr_zones;
extern const char *const zone_names[MAX_NR_ZONES];
extern phys_addr_t zone_dma_limit;
extern struct zone *preferred_zone;	/* highest populated zone */

static inline struct zone *page_zone(const struct page *page)
{
	return &zones[page_zonenum(page)];
}

/* Pageblocks are numbered from the one holding the zone's first frame. */
static inline unsigned long pageblock_index(const struct zone *z, unsigned long pfn)
{
	return (pfn >> pageblock_order) - (z->zone_start_pfn >> pageblock_order);
}

static inline int pageblock_mt(const struct zone *z, unsigned long pfn)
{
	return z->pageblock_mt[pageblock_index(z, pfn)];
}
/* A 2^order block of type @mt off the buddy lists, split as needed; zone->lock held. */
struct page *__rmqueue(struct zone *z, unsigned int order, int mt);
/* pcp.c */
void pcp_init(struct zone *z);
struct page *rmqueue_pcplist(struct zone *z, unsigned int order, int mt);
void free_unref_page(struct page *page, unsigned int order);
void free_pcppages_bulk(struct zone *z, struct per_cpu_pages *pcp, int count);

/* free_unref_page() for order 0, inline: the allocator's free fast path (irqs masked inside). */
static inline void pcp_free_order0(struct page *page)
{
	struct zone *z = page_zone(page);
	struct per_cpu_pages *pcp = &z->pcp[0];
	struct page_list *list = &pcp->lists[pageblock_mt(z, page_to_pfn(page))];
	unsigned long flags;

	local_irq_save(flags);
	pcp_push(list, page);
	if (unlikely(++pcp->count > pcp->high))
		free_pcppages_bulk(z, pcp, pcp->batch);
	local_irq_restore(flags);
}
/* Put a free block on the lists, merging with free buddies; zone->lock held. */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *z, unsigned int order, int mt);

#endif
