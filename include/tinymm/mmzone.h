/*
 * mmzone.h - zones and nodes (the zones themselves arrive with the page allocator) and the
 * per-CPU page lists, after Linux v6.10's include/linux/mmzone.h.
 *
 * Where tinymm differs from v6.10, and why:
 *   - pageblock_order is MAX_PAGE_ORDER (v6.10: min(HUGETLB_PAGE_ORDER, MAX_PAGE_ORDER)): tinymm
 *     has no huge pages.
 *   - Each order has PCP_SLOTS per-CPU lists, a power of two, so the allocation fast path can
 *     index them with the gfp's migratetype bits as they are; the slot of MOVABLE|RECLAIMABLE
 *     (which v6.10 warns about) stays empty.
 *   - struct per_cpu_pages keeps @room, the frees left before a drain, where v6.10 keeps a count
 *     and asks nr_pcp_high() at every free: the free fast path then tests one counter it already
 *     changes.  pcp_count() gives the count.
 *   - v6.10 updates its tuning counters (free_count, alloc_factor, the flags) on every pcp
 *     allocation and free; here the allocation fast path stores only @alloc_room and the slow
 *     paths bring the counters up to date from it (mm/pcp.c: pcp_sync), so the fast paths stay
 *     a pop or a push.
 */
#ifndef TINYMM_MMZONE_H
#define TINYMM_MMZONE_H

#include "config.h"

enum zone_type {
	ZONE_DMA,	/* below a board's DMA limit (dma-ranges or a configured limit) */
	ZONE_NORMAL,
	ZONE_MOVABLE,
	__MAX_NR_ZONES
};
#define MAX_NR_ZONES	__MAX_NR_ZONES
#define MAX_NUMNODES	(1 << CONFIG_NODES_SHIFT)

#ifndef __ASSEMBLER__
#include "mm_types.h"
#include "smp.h"
#include "spinlock.h"

#define NR_PAGE_ORDERS		(MAX_PAGE_ORDER + 1)
/* The largest order: tinymm has no huge pages (see the header). */
#define pageblock_order		MAX_PAGE_ORDER
#define pageblock_nr_pages	(1UL << pageblock_order)
#define PAGE_ALLOC_COSTLY_ORDER	3

enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES,
	MIGRATE_TYPES = MIGRATE_PCPTYPES,
};

/* A free list: head and tail as compressed page links (mm/internal.h). */
struct page_list {
	uint32_t first, last;
};

struct free_area {
	struct page_list free_list[MIGRATE_TYPES];
	unsigned long nr_free;		/* blocks of this order, all migratetypes */
};

enum zone_watermarks { WMARK_MIN, WMARK_LOW, WMARK_HIGH, NR_WMARK };

/*
 * Per-CPU page lists (mm/pcp.c): small free blocks kept off the buddy lists so the common
 * allocation and free are a list pop and push with interrupts masked, no zone lock.  One list per
 * (order <= PAGE_ALLOC_COSTLY_ORDER, migratetype), as Linux's NR_PCP_LISTS.  Each order has
 * PCP_SLOTS lists, MIGRATE_PCPTYPES rounded up to a power of two, so the allocation fast path can
 * index them with the gfp's migratetype bits as they are: slot 3 (__GFP_MOVABLE and
 * __GFP_RECLAIMABLE both set, which Linux warns about) is never filled, so such a request finds it
 * empty and takes the general path, which picks MOVABLE.
 */
#define NR_PCP_ORDERS		(PAGE_ALLOC_COSTLY_ORDER + 1)
#define PCP_SLOTS		4
_Static_assert(MIGRATE_PCPTYPES <= PCP_SLOTS, "PCP_SLOTS too small");
#define NR_PCP_LISTS		(PCP_SLOTS * NR_PCP_ORDERS)

struct page;
struct zone;
/*
 * Linux's struct per_cpu_pages.  The fast paths (page_alloc_fast.c, mm/internal.h) touch only the
 * lock word, the lists and @alloc_room; everything else is the slow paths' (mm/pcp.c).
 */
struct per_cpu_pages {
	/* v6.10's pcp->lock and @room in one word (mm/internal.h: pcp_fast_lock): @room while the
	 * lock is free, this pcp's own address while it is held (@room, an int bounded by twice the
	 * zone's frames, never equals an address as a long).  Taking the lock by an exchange hands
	 * the taker the room, releasing it stores the new room: the fast paths' counter costs no
	 * load or store of its own.  First, because an atomic takes no offset. */
	unsigned long lock_word;
	struct page *lists[NR_PCP_LISTS];	/* LIFO stacks through page->pcp_next (below) */
	/* The rest of v6.10's pcp->lock: it guards every field here, for its CPU and for a CPU
	 * draining the lists from afar (mm/pcp.c's header). */
	struct pcp_lock {
		int owner_cpu;		/* a slow path's holder (pcp_lockdep_assert_held), else -1 */
		struct lockdep_map dep_map;	/* its class for the lock-order checker */
	} lock;
	/* drain_at - count: frees the fast path may still take before one must go the slow way
	 * (<= 0 after its push): the difference to the count at which nr_pcp_high() would say
	 * "drain" next (the header says why not the count).  Linux's count is pcp_count().  The
	 * slow paths' copy, valid while they hold the lock (taken from and put back into
	 * @lock_word); pcp_room() reads it from anywhere. */
	int room;
	int sync_room;		/* @room when a slow path last finished */
	/* @room after the last fast-path allocation, PCP_NO_ALLOC: none since the last slow path
	 * (pcp.c: pcp_sync).  Not next to @room: GCC would merge the two stores of the allocation
	 * fast path into one 64-bit store built with shifts on RV64, slower than the two stores
	 * (docs/benchmarks.md). */
	int alloc_room;
	int drain_at;		/* the count at which a free takes the slow path */
	int high;		/* Linux's pcp->high: tuned between high_min and high_max */
	int high_min, high_max;	/* Linux's zone_highsize(): from the low watermark, managed / 8 */
	int batch;		/* frames moved per refill (scaled by alloc_factor) or drain */
	int free_count;		/* frames freed lately without allocations between (Linux's) */
	unsigned char alloc_factor;	/* refills in a row without frees: batch << this */
	unsigned char flags;		/* PCPF_PREV_FREE_HIGH_ORDER */
	struct zone *zone;	/* whose lists these are */
};
#define PCP_NO_ALLOC		(-0x40000000)

/*
 * An empty per-CPU list's head points at its per_cpu_pages and a list's last block links to it,
 * as the end of Linux's circular pcp_list: so every block on a per-CPU list has a non-NULL
 * pcp_next, while a frame on no list has NULL there (pcp_pop clears it).  mm/page_check.c relies
 * on that to skip the search of the lists on almost every free of an order > 0 block; the
 * allocation fast path pays nothing for it (it compares with the pcp's address, already in a
 * register for the lock; the list's own address, the end before issue 38, would cost an add).
 */
#define pcp_list_end(pcp)	((struct page *)(pcp))
static inline bool pcp_list_empty(const struct per_cpu_pages *pcp, struct page *const *list)
{
	return *list == pcp_list_end(pcp);
}
#define for_each_pcp_block(p, pcp, list)						\
	for ((p) = *(list); (p) != pcp_list_end(pcp); (p) = (p)->pcp_next)
static inline void pcp_lists_init(struct per_cpu_pages *pcp)
{
	for (int i = 0; i < NR_PCP_LISTS; i++)
		pcp->lists[i] = pcp_list_end(pcp);
}
/* A static per_cpu_pages' lists, empty (pcp_off is used before any code could init it). */
#define PCP_LISTS_EMPTY(pcp)	{ [0 ... NR_PCP_LISTS - 1] = pcp_list_end(&(pcp)) }
#define PCPF_PREV_FREE_HIGH_ORDER	0x01

/* @pcp's room: the lock word's while the lock is free, the holder's copy while it is held
 * (racy from another CPU, as v6.10's zoneinfo reads its count). */
static inline int pcp_room(const struct per_cpu_pages *pcp)
{
	unsigned long word = READ_ONCE(pcp->lock_word);

	return word == (unsigned long)pcp ? READ_ONCE(pcp->room) : (int)(long)word;
}

/* Frames on all of @pcp's lists (Linux's pcp->count). */
static inline int pcp_count(const struct per_cpu_pages *pcp)
{
	return pcp->drain_at - pcp_room(pcp);
}

/* zone->flags bits (Linux's enum zone_flags, the two the per-CPU lists read). */
enum zone_flags {
	ZONE_BELOW_HIGH,	/* an allocation found the zone below its high watermark */
	ZONE_RECLAIM_ACTIVE,	/* kswapd is reclaiming for it */
};

/*
 * A zone: a pfn range the allocator treats alike.  Locking: @lock guards free_area, free_pages
 * and the pageblock migratetypes; the counters read without it are snapshots.
 */
struct zone {
	const char *name;
	unsigned long zone_start_pfn, spanned_pages;	/* [start, start + spanned), holes included */
	unsigned long present_pages;			/* frames with a struct page */
	unsigned long managed_pages;			/* frames given to the allocator */
	unsigned long _watermark[NR_WMARK];
	/* Frames kept back from allocations that could have used a higher zone (Linux's
	 * lowmem_reserve[highest_zoneidx]): protects ZONE_DMA from ordinary allocations. */
	unsigned long lowmem_reserve[MAX_NR_ZONES];
	spinlock_t lock;
	struct free_area free_area[NR_PAGE_ORDERS];
	unsigned long free_pages;			/* NR_FREE_PAGES: on the buddy lists */
	unsigned char *pageblock_mt;			/* one migratetype per pageblock */
	unsigned long flags;				/* enum zone_flags; atomic bit ops */
	struct per_cpu_pages pcp[CONFIG_NR_CPUS];	/* each guarded by its pcp->lock */
};

static inline unsigned long zone_end_pfn(const struct zone *z)
{
	return z->zone_start_pfn + z->spanned_pages;
}

static inline bool zone_spans_pfn(const struct zone *z, unsigned long pfn)
{
	return pfn >= z->zone_start_pfn && pfn < zone_end_pfn(z);
}
#endif

#endif
