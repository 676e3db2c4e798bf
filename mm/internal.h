/*
 * internal.h - helpers private to mm/: compressed page links and the free lists built on them.
 *
 * A page link is 32 bits: (page address - page_link_base) >> 3.  Every struct page is 16-byte
 * aligned (maps are page-aligned, the struct is 32 or 48 bytes), so the value is always even and
 * bit 0 stays free for compound_head's tail mark, which shares the word.  32 bits of 8-byte units
 * reach 32 GiB of memmap addresses.  PAGE_LINK_NONE (0xfffffffe) ends a list.
 * Lists are doubly linked and not circular: head.first/last are links, the ends hold NONE.
 * Locking: callers hold the zone lock of the list they touch.
 *
 * Where tinymm differs from v6.10, and why: v6.10 links pages with a struct list_head (two
 * pointers); tinymm's two 32-bit links keep struct page small (32 or 48 bytes).
 * The rest declares the allocator's and the per-CPU lists' internals under Linux's names.
 */
#ifndef TINYMM_MM_INTERNAL_H
#define TINYMM_MM_INTERNAL_H

#include "tinymm/gfp.h"
#include "tinymm/mm.h"
#include "tinymm/irqflags.h"
#include "tinymm/lockdep.h"
#include "tinymm/memory-failure.h"
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

/* The page after @page on its list, or NULL at the end. */
static inline struct page *page_list_next(const struct page *page)
{
	return page->lru.next == PAGE_LINK_NONE ? NULL : link_to_page(page->lru.next);
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
 * Per-CPU lists are LIFO stacks of struct page pointers threaded through page->pcp_next: push
 * and pop are three memory operations, which is most of the allocator's fast path.  A popped
 * frame's link is cleared, so its lru and compound_head read 0 (not a tail).
 */
static inline void pcp_push(struct page **list, struct page *page)
{
	page->pcp_next = *list;
	*list = page;
}

static inline struct page *pcp_pop(struct page **list)
{
	struct page *page = *list;

	*list = page->pcp_next;
	page->pcp_next = NULL;
	return page;
}

/* The per-CPU list index of (order, migratetype) (order_to_pindex). */
static inline unsigned int pindex(unsigned int order, int mt)
{
	return order * PCP_SLOTS + (unsigned int)mt;
}

/* The pcp mt field of page->flags (page-flags.h): set when the frame leaves the buddy lists. */
static inline int page_pcp_mt(unsigned long flags)
{
	return (int)((flags >> PCPMT_PGSHIFT) & PCPMT_MASK);
}

static inline void set_page_pcp_mt(struct page *page, int mt)
{
	page->flags = (page->flags & ~(PCPMT_MASK << PCPMT_PGSHIFT)) |
		      ((unsigned long)mt & PCPMT_MASK) << PCPMT_PGSHIFT;
}

/* page_check.c: the bad-page rules. */
/* Flags no page may carry into the allocator's hands. */
#define PAGE_FLAGS_CHECK_AT_FREE							\
	(1UL << PG_lru | 1UL << PG_locked | 1UL << PG_private | 1UL << PG_private_2 |	\
	 1UL << PG_writeback | 1UL << PG_reserved | 1UL << PG_active |			\
	 1UL << PG_unevictable | 1UL << PG_mlocked)
/* ... and none at all when handed out, but HWPoison. */
#define PAGE_FLAGS_CHECK_AT_PREP	(PAGEFLAGS_MASK & ~(1UL << PG_hwpoison))
void bad_page(struct page *page, const char *reason);
/* bad_page()'s rate limit, Linux's statics (here for tests): a burst of BAD_PAGE_BURST reports
 * from resume - 60 s on; after it, reports before resume are only counted in nr_unshown. */
#define BAD_PAGE_BURST	60
struct bad_page_ratelimit {
	unsigned long resume;		/* jiffies */
	unsigned long nr_shown, nr_unshown;
};
extern struct bad_page_ratelimit bad_page_rs;
/* %pGp's text of a flags word: "0x...(name|name|node=N|zone=Z)" (mm/debug.c). */
void format_page_flags(char *buf, size_t len, unsigned long flags);
void format_gfp_flags(char *buf, size_t len, gfp_t gfp);	/* printk's %pGg */

/* How far below the watermarks the slow path may go (v6.10's alloc_flags, the ones it uses):
 * ALLOC_NO_WATERMARKS for a task inside reclaim, ALLOC_OOM for an OOM victim (mm/oom_kill.c),
 * which may use half of what is left of the min reserve, so it can exit.  An allocation makes
 * at most MAX_OOM_ROUNDS trips to the OOM killer, then fails (a user fault then retries). */
#define ALLOC_WMARK_MIN		0x00
#define ALLOC_NO_WATERMARKS	0x04
#define ALLOC_OOM		0x08
#define MAX_OOM_ROUNDS		16
/* mm/page_alloc.c: "<comm>: <fmt>, mode:..., nodemask=(null)", a stack and the free lists,
 * unless __GFP_NOWARN; one rate limit (10 in 5 s) for the page allocator and vmalloc. */
void warn_alloc(gfp_t gfp, const char *fmt, ...) __printf(2, 3);
bool free_pages_prepare(struct page *page, unsigned int order);	/* false: leak the block */
bool check_new_pages(struct page *page, unsigned int order);	/* false: reported and leaked */
extern bool kernel_tainted_bad_page;

/* page_alloc.c */
extern struct zone zones[MAX_NR_ZONES];
extern int nr_zones;
extern const char *const zone_names[MAX_NR_ZONES];
extern phys_addr_t zone_dma_limit;
extern struct zone *preferred_zone;	/* highest populated zone */
/* Each CPU's lists of the preferred zone, or &pcp_off (its lock always held): fast paths off. */
#define pcp_fast_of(cpu)	(per_cpu(cpu_fast, (cpu)).pcp_fast)
extern struct per_cpu_pages pcp_off;

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
static inline void set_pageblock_migratetype(struct zone *z, unsigned long pfn, int mt)
{
	z->pageblock_mt[pageblock_index(z, pfn)] = (unsigned char)mt;
}

/* ---- free list bookkeeping; zone->lock held ---- */
static inline void set_buddy_order(struct page *page, unsigned int order)
{
	page->private = order;
	__SetPageBuddy(page);
}

static inline void add_to_free_list(struct page *page, struct zone *z, unsigned int order, int mt,
				    bool tail)
{
	struct free_area *area = &z->free_area[order];

	lockdep_assert_held(&z->lock);
	if (tail)
		page_list_add_tail(&area->free_list[mt], page);
	else
		page_list_add(&area->free_list[mt], page);
	area->nr_free++;
}

static inline void del_page_from_free_list(struct page *page, struct zone *z, unsigned int order,
					   int mt)
{
	lockdep_assert_held(&z->lock);
	page_list_del(&z->free_area[order].free_list[mt], page);
	__ClearPageBuddy(page);
	ClearPageReported(page);	/* a block leaving the free lists is no longer reported */
	page->private = 0;
	z->free_area[order].nr_free--;
}

/* Split a 2^high block at @page down to 2^low: the upper halves go back on the free lists. */
static inline void expand(struct zone *z, struct page *page, unsigned long pfn, unsigned int low,
			  unsigned int high, int mt)
{
	(void)page;
	lockdep_assert_held(&z->lock);
	while (high > low) {
		high--;
		struct page *half = pfn_to_page(pfn + (1UL << high));
		set_buddy_order(half, high);
		add_to_free_list(half, z, high, mt, false);
	}
}

/* A free block back on the lists as it is: its buddy is known not to be free; zone->lock held. */
void __free_one_page_nomerge(struct page *page, unsigned long pfn, struct zone *z,
			     unsigned int order, int mt);
void page_del_and_expand(struct zone *z, struct page *page, unsigned int low, unsigned int high,
			 int mt);
struct page *__rmqueue_smallest(struct zone *z, unsigned int order, int mt);
/* migratetype.c: another type's block, claiming its pageblock when Linux would. */
struct page *__rmqueue_fallback(struct zone *z, unsigned int order, int start_mt);
/* A 2^order block of type @mt off the buddy lists, split as needed; zone->lock held. */
struct page *__rmqueue(struct zone *z, unsigned int order, int mt);
/* pcp.c */
#define PCP_BATCH_LIMIT		1024	/* tinymm.pcp_batch: 1..this */
#define PCP_SCALE_LIMIT		6	/* tinymm.pcp_batch_scale_max: 0..this */
#define PCP_SCALE_DEFAULT	5	/* CONFIG_PCP_BATCH_SCALE_MAX's default */
extern int pcp_batch_param;		/* tinymm.pcp_batch; 0: zone_batchsize() */
extern int pcp_batch_scale_max;		/* tinymm.pcp_batch_scale_max */
/* Called with zone->lock held around each bulk move between the per-CPU and the buddy lists:
 * @moved -1 just after the lock is taken, then the blocks moved just before it is released.
 * NULL (the default) in normal runs; tests and `bench pcp` set it. */
extern void (*pcp_zone_lock_watch)(struct zone *z, int moved);
/* The batch @z's lists get: tinymm.pcp_batch, or zone_batchsize(). */
int pcp_zone_batch(const struct zone *z);
/* New batch (@batch 0: the zone's default) and scale, every zone's lists drained and sized anew
 * as at boot (zone_set_pageset_high_and_batch()): for `bench pcp` and tests. */
void pcp_set_batch(int batch, int scale);
void pcp_init(struct zone *z);
extern unsigned int pcp_split_cpus;	/* the CPUs high is split over (v6.10's nr_split_cpus) */
struct page *rmqueue_pcplist(struct zone *z, unsigned int order, int mt);
/* Fold the fast paths' counts into Linux's counters; pcp->lock held.  Returns the frames listed. */
int pcp_sync(struct per_cpu_pages *pcp);
/* This CPU's lists of @z: call with interrupts masked (the task cannot move). */
static inline struct per_cpu_pages *this_cpu_pcp(struct zone *z)
{
	return &z->pcp[smp_processor_id()];
}
/*
 * pcp->lock (mm/pcp.c's header), always with interrupts masked.  The slow paths take it with
 * pcp_spin_lock() (the lock-order checker sees it; pcp_lockdep_assert_held() checks it), which
 * waits; the fast paths try it inline, pcp_fast_trylock(): one xchg, unchecked (nothing nests
 * inside, no call is made while it is held), and on failure take their slow path, as v6.10's
 * pcp_spin_trylock() callers do.  Masked interrupts mean this CPU cannot hold it already, so it
 * fails only while another CPU drains or walks the lists, or for pcp_off, whose lock is never
 * free (the fast paths off).  The lock word holds the room (mmzone.h): the trylock returns it,
 * pcp_fast_unlock() stores the new one, and the slow paths keep it in pcp->room meanwhile.
 */
void pcp_spin_lock(struct per_cpu_pages *pcp);
void pcp_spin_unlock(struct per_cpu_pages *pcp);
void pcp_lock_init(struct per_cpu_pages *pcp);
#define pcp_spin_lock_irqsave(pcp, flags)					\
	do { local_irq_save(flags); pcp_spin_lock(pcp); } while (0)
#define pcp_spin_unlock_irqrestore(pcp, flags)					\
	do { pcp_spin_unlock(pcp); local_irq_restore(flags); } while (0)
#define pcp_lockdep_assert_held(pcp)						\
	do {									\
		if (unlikely(READ_ONCE((pcp)->lock.owner_cpu) != (int)smp_processor_id()))	\
			__warn_lock_not_held(__FILE__, __LINE__, __func__, #pcp "->lock");	\
	} while (0)
/* Only host.smp_mm_nolock defines it: its race test must then fail (tests/host/smp_mm_test.c). */
#ifdef TINYMM_TEST_PCP_NO_LOCK
#define pcp_lock_off	1
#else
#define pcp_lock_off	0
#endif
/*
 * v6.10's pcp_spin_trylock() for the fast paths: exchange the held mark (the pcp's address) into
 * the lock word; the word it held.  pcp_fast_busy(): another CPU held the lock (nothing changed),
 * so the caller takes its slow path, whose pcp_spin_lock() waits, as v6.10's fast paths fall
 * back when the trylock fails.  Otherwise the word was the room, and the lock is the caller's.
 */
static inline __attribute__((always_inline)) unsigned long pcp_fast_trylock(struct per_cpu_pages *pcp)
{
	unsigned long held = (unsigned long)pcp, word;

	if (pcp_lock_off) {		/* the same word, no exclusion */
		word = READ_ONCE(pcp->lock_word);
		WRITE_ONCE(pcp->lock_word, held);
		return word == held ? (unsigned long)(long)READ_ONCE(pcp->room) : word;
	}
	return xchg(&pcp->lock_word, held);
}
#define pcp_fast_busy(pcp, word)	unlikely((word) == (unsigned long)(pcp))
/* pcp_spin_lock()'s wait (mm/pcp.c): until @pcp's lock is free, then take it; the room. */
unsigned long pcp_lock_wait(struct per_cpu_pages *pcp);
/* Release it, @room the new room. */
static inline __attribute__((always_inline)) void pcp_fast_unlock(struct per_cpu_pages *pcp, int room)
{
	if (pcp_lock_off)
		WRITE_ONCE(pcp->lock_word, (unsigned long)(long)room);
	else
		store_release_long(&pcp->lock_word, (unsigned long)(long)room);
}
/* The general paths the fast paths (mm/page_alloc_fast.c) hand every other case to. */
struct page *alloc_pages_slowpath(gfp_t gfp, unsigned int order);
void __free_pages_slow(struct page *page, unsigned int order);
void free_the_page(struct page *page, unsigned int order);	/* the last reference is gone */
/* Not the last reference to a non-compound block: all but its first page freed. */
void free_pages_tail_blocks(struct page *page, unsigned int order);
void free_unref_page(struct page *page, unsigned int order);
/* The allocator found @z below its high watermark: ZONE_BELOW_HIGH, pcp shrinks. */
void zone_mark_below_high(struct zone *z);
/* Set or clear a zone flag (enum zone_flags), the per-CPU lists' thresholds updated. */
void zone_set_flag(struct zone *z, int bit, bool on);
/* @z's pcp high marks were changed by hand (tests): the fast paths' threshold follows. */
void pcp_refresh(struct zone *z);
/* The same for this CPU's lists of the preferred zone only (the order 1-3 allocation fast path). */
void pcp_refresh_local(void);
/* decay_pcp_high() for every zone and CPU; true while some high is above high_min. */
bool decay_pcp_high_all(void);
extern void (*pcp_decay_schedule)(void);	/* run decay_pcp_high_all() in a second */
/* Is a block on @z's per-CPU lists part of the @order block at @page (a wrong-order free)? */
bool pcp_holds_part_of(struct zone *z, const struct page *page, unsigned int order);

/*
 * free_unref_page() for a clean order-0 frame whose flags word was @flags, inline: the end of the
 * allocator's free fast path, entered and left with interrupts masked (@irqflags: as they were).
 * The zone and the per-CPU list come from the flags word (zone field, pcp mt field), so nothing
 * else of the page is read.  An overfull list drains a batch out of line; a zone without
 * fast-path lists (page poisoning) files the frame out of line; both unmask.  Only loads, stores
 * and the lock's atomics since the save: the restore that just writes the saved state back is
 * sound here (irqflags.h).  The out-of-line paths get the lock released (they take it again
 * as a spinlock, checked).
 */
void pcp_free_overflow(struct page *page, unsigned int pidx, unsigned long irqflags);
void pcp_free_high_alone(struct page *page, unsigned int order, unsigned long irqflags);
/* The trylock failed: another CPU holds the lock (free_unref_page() waits for it), or the lists
 * are pcp_off (page poisoning: the frame is filled first); then unmask. */
void pcp_free_nofast(struct page *page, unsigned long irqflags);
/* The per-CPU lists come from this CPU's cpu_fast zone_pcp[] (smp.h), indexed by the flags
 * word's zone field; pcp_off (mm/pcp.c) while the free fast path is off.  @fields: the flags
 * word >> PCPMT_PGSHIFT (zone, node and pcp mt, low bits first). */
static inline void pcp_free_order0(struct page *page, unsigned long fields, unsigned long irqflags)
{
	struct per_cpu_pages *pcp = this_cpu_fast()->zone_pcp[(fields >> (ZONES_PGSHIFT - PCPMT_PGSHIFT)) &
								ZONES_MASK];
	unsigned int pidx = fields & PCPMT_MASK;	/* order 0's lists come first */
	unsigned long word = pcp_fast_trylock(pcp);

	if (pcp_fast_busy(pcp, word)) {
		pcp_free_nofast(page, irqflags);
		return;
	}
	int room = (int)(long)word - 1;
	pcp_push(&pcp->lists[pidx], page);
	pcp_fast_unlock(pcp, room);
	if (unlikely(room <= 0)) {	/* the count reached drain_at */
		pcp_free_overflow(page, pidx, irqflags);
		return;
	}
	local_irq_restore_unchanged(irqflags);
}
/* A block on its way to the free lists holds a PG_hwpoison frame (any context); free its clean
 * pieces and set the bad frames aside (mm/page_alloc.c; takes zone->lock). */
bool free_block_has_hwpoison(const struct page *page, unsigned int order);
void free_around_hwpoison(struct page *page, unsigned int order);
/* How __free_one_page() files a block (fpi_t): FPI_TO_TAIL at its list's tail,
 * FPI_SKIP_REPORT_NOTIFY without telling page reporting. */
typedef unsigned int fpi_t;
#define FPI_NONE		0u
#define FPI_SKIP_REPORT_NOTIFY	(1u << 0)
#define FPI_TO_TAIL		(1u << 1)
/* Put a free block on the lists, merging with free buddies; zone->lock held. */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *z, unsigned int order, int mt,
		     fpi_t fpi);
/* mm/migratetype.c: every free block of the pageblock at @pfn onto @mt's lists, the block
 * retyped; false (nothing done) if the block is not wholly inside @z.  zone->lock held. */
bool move_freepages_block(struct zone *z, unsigned long pfn, int old_mt, int mt);
/* The min watermark an allocation with @gfp must keep (Linux's ALLOC_MIN_RESERVE and
 * ALLOC_NON_BLOCK reductions of @min). */
unsigned long gfp_min_watermark(unsigned long min, gfp_t gfp);

/* ---- reclaim: mm/vmscan.c (the scanners, direct reclaim) and mm/kswapd.c ---- */
/* One reclaim run's parameters and tallies (scan_control's fields for the file lists). */
struct scan_control {
	unsigned long nr_to_reclaim;
	gfp_t gfp_mask;
	unsigned int order;
	int priority;			/* scan lru_size >> priority per pass: 12 down to 0 */
	unsigned int may_deactivate;
	bool force_deactivate, skipped_deactivate;
	bool may_writepage;
	unsigned long nr_scanned, nr_reclaimed;
	struct {			/* this shrink_node() pass (Linux's sc->nr) */
		unsigned int dirty, unqueued_dirty, congested, writeback, immediate, taken, file_taken;
	} nr;
};
/* The node's reclaim state both files keep (pglist_data's fields; kswapd's thread and wake-up
 * request are mm/kswapd.c's alone). */
#define PGDAT_DIRTY	0	/* kswapd found only dirty folios at the tail: it may write */
#define PGDAT_WRITEBACK	1	/* ... only folios under writeback */
struct pgdat_reclaim {
	unsigned long flags;
	int kswapd_failures;		/* balance_pgdat runs that reclaimed nothing */
};
extern struct pgdat_reclaim pgdat;
/* One pass over the node (mm/vmscan_node.c): the LRU lists at sc->priority, then the slab
 * shrinkers. */
void shrink_node(struct scan_control *sc);
struct lruvec;
/* Remember the refault count reclaim last saw (prepare_scan_control() compares with it). */
void snapshot_refaults(struct lruvec *lruvec);
/* The page allocator's direct_reclaim_hook (kswapd_run() sets it): -1 may not reclaim here,
 * RECLAIM_USE_RESERVES inside reclaim, else the pages freed. */
long direct_reclaim(gfp_t gfp, unsigned int order);

/* mm/memory-failure.c, shared with mm/soft-offline.c: get_hwpoison_page() (per-CPU
 * lists drained; 1 in use with a reference taken, 0 free, -EBUSY/-EIO unhandlable). */
int get_hwpoison_page(struct page *p, int flags);
/* mm/memory-failure.c and mm/hwpoison_actions.c, under mf_mutex: the folio's action by
 * error_states[] (entered with the folio locked, left with it unlocked), and the outcome counted,
 * recorded and printed ("recovery action for <state>: <result>"); both return 0 for Recovered
 * and Delayed, -EBUSY otherwise. */
int identify_page_state(unsigned long pfn, struct page *p, unsigned long page_flags);
int action_result(unsigned long pfn, enum mf_action_page_type type, enum mf_result result);
/* Test hook (KTAP hwpoison; NULL otherwise): what a racing thread could do to the frame where
 * memory_failure() has no lock on it: at the start of each pass (MF_RACE_PASS), and between
 * the first look at its compound state and the folio lock (MF_RACE_LOCK). */
enum mf_race_point { MF_RACE_PASS, MF_RACE_LOCK };
extern void (*mf_race_hook)(struct page *p, enum mf_race_point where);

/* mm/mmap.c for mm/mlock_sys.c and fork: [start, end) as areas of their own (split at the
 * ends; the indices of the first and last inside, first > last if none; 0 or -ENOMEM, nothing
 * changed then), and areas @first..@last merged with each other and their neighbours where
 * alike.  mmap_lock held. */
struct mm_struct;
int vma_isolate_range(struct mm_struct *mm, unsigned long start, unsigned long end,
		      int *first, int *last);
void vma_merge_range(struct mm_struct *mm, int first, int last);

#endif
