/*
 * page_alloc_fast.c - the page allocator's fast paths: alloc_pages() and __free_pages() for a
 * block of order <= PAGE_ALLOC_COSTLY_ORDER that this CPU's per-CPU lists can serve (a pop or a
 * push, one combined check per frame, a counter), and the entry points that send every other
 * case to the general paths in mm/page_alloc.c (alloc_pages_slowpath(), __free_pages_slow(),
 * free_the_page()) and mm/pcp.c (refills, drains, Linux's counters: rmqueue_pcplist(),
 * free_unref_page()).  docs/page_alloc.md ("The fast paths") and docs/benchmarks.md ("Where the
 * instructions go") measure what each step costs.
 *
 * Where tinymm differs from v6.10, and why: v6.10 has one path (rmqueue_pcplist(),
 * free_unref_page()) for every order with the per-CPU lock taken; tinymm keeps the common case
 * here, without a stack frame (every exit a tail call), and the v6.10 counters the order-0 paths
 * skip are brought up to date by pcp_sync() (mm/pcp.c's header).  At orders 1-3 the fast paths
 * keep v6.10's counters exactly themselves, and take the fast way only when no order-0 counts
 * are pending (the allocation folds them first; the free leaves that case to free_unref_page()).
 * A freed block goes on the list of its pcp mt hint, set when it left the buddy lists; v6.10
 * looks its pageblock up (mmzone.h, page-flags.rst "The flags word"), a load the fast path
 * avoids.
 *
 * Invariants and locking: as mm/pcp.c: a CPU's lists and counters under its pcp->lock, taken
 * with interrupts masked (so the task stays on the CPU whose lists it chose); the fast paths
 * try the lock inline (pcp_fast_trylock(), mm/internal.h; on failure the general path, which
 * waits) and drop it before any call; no zone->lock here.  This CPU's lists come from the
 * running task (this_cpu_pcp_fast(), this_cpu_fast(): smp.h), one load.  A frame is never in flight (refcount 0, on no list) with interrupts
 * unmasked on its CPU: memory_failure() marks with interrupts masked (docs/hwpoison.md; on
 * another CPU it retries such a frame, mf_settle()).
 */
#include "tinymm/bug.h"
#include "tinymm/cache.h"
#include "tinymm/gfp.h"
#include "tinymm/irqflags.h"
#include "tinymm/page_alloc.h"
#include "internal.h"

/* The fast paths' per-CPU lists: the preferred zone's (allocation) and each zone's (free), or
 * pcp_off while the fast paths are off (before page_alloc_init, or with page poisoning, whose
 * fills and checks need the general paths).  pcp_off's lock is held for ever (its word is its
 * own address, the held mark), so the fast paths' trylock fails and sends every call to the
 * general path, with no test of its own; nothing ever takes it or touches its lists. */
struct per_cpu_pages pcp_off = { .lock_word = (unsigned long)&pcp_off, .lists = PCP_LISTS_EMPTY(pcp_off),
				 .lock = { .owner_cpu = -1,
					   .dep_map = STATIC_LOCKDEP_MAP_INIT("pcp_off.lock") } };
/* Each CPU's fast-path pointers (smp.h), reached through the running task (this_cpu_fast()). */
DEFINE_PER_CPU(struct cpu_fast, cpu_fast) = {
	[0 ... NR_CPUS - 1] = { .pcp_fast = &pcp_off,
				.zone_pcp = { [0 ... CPU_FAST_ZONES - 1] = &pcp_off } } };

/*
 * check_new_page() for one frame, as one test: no flag at all (HWPoison included, as
 * Linux's fast test; check_new_pages() then tells the cases apart), no mapping, refcount 0,
 * mapcount -1.  Shifting the flags word left drops the zone, node and pcp mt fields above the
 * flags at once, with no mask to load.
 */
static inline bool new_page_is_clean(const struct page *page)
{
	return !((page->flags << (BITS_PER_LONG - NR_PAGEFLAGS)) | (unsigned long)page->mapping |
		 (unsigned int)atomic_read(&page->_refcount) |
		 ((unsigned int)atomic_read(&page->_mapcount) + 1));
}

/* Out of line, so the fast paths need no stack frame (no callee-saved registers to spill). */
static __attribute__((noinline)) struct page *alloc_pages_bad_fast(struct page *page, gfp_t gfp);
static __attribute__((noinline)) struct page *alloc_pages_bad_block(struct page *page, gfp_t gfp,
								    unsigned int order);
static __attribute__((noinline)) struct page *alloc_pages_order_fast(gfp_t gfp, unsigned int order);

/*
 * The fast path is a pop from this CPU's order-0 list of the preferred zone and one combined
 * check; everything else (other orders, DMA, zeroing, poisoning, an empty list, a bad page)
 * takes the general path below.  The list is indexed by the gfp's migratetype bits as they are
 * (mmzone.h: PCP_SLOTS).  __GFP_COMP means nothing at order 0.  No frame pointer: the fast path
 * calls nothing but its tail calls, so a backtrace from those loses nothing.
 */
__fastpath struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	if (likely(!(order | (gfp & (__GFP_DMA | __GFP_ZERO))))) {
		struct per_cpu_pages *pcp;
		struct page **list, *page;
		unsigned long flags;

		/* Masked from the pop to the refcount: memory_failure() (which marks with interrupts
		 * masked) never finds the frame in flight on this CPU, on no list at refcount 0.
		 * Masked first: then this CPU's lists stay this CPU's. */
		local_irq_save(flags);
		pcp = this_cpu_pcp_fast();
		/* pcp + the list's byte offset, hidden so GCC computes it once, scaled, and leaves
		 * the lists' own offset to the load and the store (it would shift twice, or add
		 * that offset separately: an instruction each). */
		char *at = (char *)pcp + ((gfp & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT) * sizeof(*list);
		OPTIMIZER_HIDE_VAR(at);
		list = (struct page **)(at + offsetof(struct per_cpu_pages, lists));
		unsigned long word = pcp_fast_trylock(pcp);
		if (pcp_fast_busy(pcp, word)) {		/* the slow path waits */
			local_irq_restore_unchanged(flags);
			return alloc_pages_slowpath(gfp, 0);
		}
		int room = (int)(long)word;
		page = *list;
		if (likely(page != pcp_list_end(pcp))) {
			*list = page->pcp_next;
			room++;
			pcp->alloc_room = room;		/* the slow path's mark (mm/pcp.c: pcp_sync) */
			pcp_fast_unlock(pcp, room);
			page->pcp_next = NULL;
			if (unlikely(page_checks && !new_page_is_clean(page))) {
				local_irq_restore(flags);
				return alloc_pages_bad_fast(page, gfp);	/* report, leak, retry */
			}
			page->private = 0;		/* post_alloc_hook */
			atomic_set(&page->_refcount, 1);
			local_irq_restore_unchanged(flags);	/* loads, stores, atomics since the save */
			return page;
		}
		pcp_fast_unlock(pcp, room);
		local_irq_restore_unchanged(flags);
	}
	if (order)
		return alloc_pages_order_fast(gfp, order);
	return alloc_pages_slowpath(gfp, order);	/* all tail calls: no registers to save */
}

static __attribute__((noinline)) struct page *alloc_pages_bad_fast(struct page *page, gfp_t gfp)
{
	return alloc_pages_bad_block(page, gfp, 0);
}

static __attribute__((noinline)) struct page *alloc_pages_bad_block(struct page *page, gfp_t gfp,
								    unsigned int order)
{
	unsigned long flags;

	/* The one-test check and check_new_pages() test the same state: it must report. */
	WARN_ON_ONCE(check_new_pages(page, order));
	/* The next block is taken within the same allocation: one step on free_count.  The
	 * fast path took it and the general path will take it again; doubling in between makes
	 * the two one, exactly ((f >> 1) << 1 >> 1 == f >> 1). */
	struct per_cpu_pages *pcp;
	local_irq_save(flags);
	pcp = this_cpu_fast()->pcp_fast;
	pcp_spin_lock(pcp);
	pcp->free_count <<= 1;
	pcp_spin_unlock(pcp);
	local_irq_restore(flags);
	return alloc_pages_slowpath(gfp, order);
}

/*
 * The tests of every frame of an order >= 1 block, folded across its frames, two a round: the
 * flags words ORed (tested once at the end: a shift or a mask drops the zone, node and pcp mt
 * fields of them all at once), mapping and refcount ORed (with @links, the link word too: a
 * tail's compound_head, or a frame still on a per-CPU list), mapcounts ANDed (all -1 exactly
 * when the AND is -1).  A few loads and ORs a frame (docs/benchmarks.md counts them).
 */
struct block_fold {
	unsigned long flags, other;
	unsigned int mapcount;
};

static inline __attribute__((always_inline)) struct block_fold fold_block(const struct page *page,
									   unsigned int order, bool links)
{
	const struct page *end = page + (1U << order);
	struct block_fold f = { 0, 0, ~0U };

	do {
		f.flags |= page[0].flags | page[1].flags;
		f.other |= (unsigned long)page[0].mapping | (unsigned long)page[1].mapping |
			   (unsigned int)atomic_read(&page[0]._refcount) |
			   (unsigned int)atomic_read(&page[1]._refcount);
		if (links)
			f.other |= (unsigned long)page[0].pcp_next | (unsigned long)page[1].pcp_next;
		f.mapcount &= (unsigned int)atomic_read(&page[0]._mapcount) &
			      (unsigned int)atomic_read(&page[1]._mapcount);
		page += 2;
	} while (page < end);
	return f;
}

/* new_page_is_clean() for every frame (check_new_pages() walks them all). */
static inline bool new_block_is_clean(const struct page *page, unsigned int order)
{
	struct block_fold f = fold_block(page, order, false);

	return !((f.flags << (BITS_PER_LONG - NR_PAGEFLAGS)) | f.other | (f.mapcount + 1));
}

static __attribute__((noinline)) struct page *alloc_pages_order_sync(gfp_t gfp, unsigned int order);
static __attribute__((noinline)) struct page *alloc_pages_compound(struct page *page, unsigned int order);

/*
 * Orders 1 to PAGE_ALLOC_COSTLY_ORDER: the same pop from this CPU's list for (order, gfp's
 * migratetype bits), plus what rmqueue_pcplist() does at every allocation and the
 * order-0 fast path leaves to pcp_sync(): free_count halved (a run of frees ends).  So the
 * counters stay Linux's exactly: the order-0 fast paths' pending counts are folded in first
 * (alloc_pages_order_sync(), only when they left any), then this allocation is counted as a slow
 * path would count it (room and sync_room move together).  Interrupts masked from the pop to
 * the refcount, as at order 0.  An empty list, DMA, zeroing or poisoning: the general path.
 * Every other exit is a tail call, so no stack frame.
 */
__fastpath static __attribute__((noinline)) struct page *alloc_pages_order_fast(gfp_t gfp,
										 unsigned int order)
{
	struct per_cpu_pages *pcp;
	struct page **list, *page;
	unsigned long flags;

	if (order > PAGE_ALLOC_COSTLY_ORDER || (gfp & (__GFP_DMA | __GFP_ZERO)))
		return alloc_pages_slowpath(gfp, order);
	local_irq_save(flags);
	pcp = this_cpu_pcp_fast();
	list = &pcp->lists[order * PCP_SLOTS + ((gfp & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT)];
	unsigned long word = pcp_fast_trylock(pcp);
	if (pcp_fast_busy(pcp, word)) {			/* the slow path waits */
		local_irq_restore(flags);
		return alloc_pages_slowpath(gfp, order);
	}
	int room = (int)(long)word;
	page = *list;
	if (unlikely(page == pcp_list_end(pcp))) {
		pcp_fast_unlock(pcp, room);
		local_irq_restore(flags);
		return alloc_pages_slowpath(gfp, order);
	}
	if (unlikely(pcp->alloc_room != PCP_NO_ALLOC || room != pcp->sync_room)) {
		pcp_fast_unlock(pcp, room);
		local_irq_restore(flags);
		return alloc_pages_order_sync(gfp, order);
	}
	*list = page->pcp_next;
	room += 1 << order;
	pcp->sync_room = room;
	pcp->free_count >>= 1;
	pcp_fast_unlock(pcp, room);
	page->pcp_next = NULL;
	if (unlikely(page_checks && !new_block_is_clean(page, order))) {
		local_irq_restore(flags);
		return alloc_pages_bad_block(page, gfp, order);	/* report, leak, retry */
	}
	page->private = 0;		/* post_alloc_hook */
	atomic_set(&page->_refcount, 1);
	local_irq_restore_unchanged(flags);	/* loads, stores, atomics since the save */
	if (gfp & __GFP_COMP)
		return alloc_pages_compound(page, order);
	return page;
}

/* The order-0 fast paths left counts to fold in: fold them (and recompute the threshold their
 * frees may have moved), then the fast path again (an interrupt's own allocations in between
 * only send it here once more). */
static __attribute__((noinline)) struct page *alloc_pages_order_sync(gfp_t gfp, unsigned int order)
{
	pcp_refresh_local();
	return alloc_pages_order_fast(gfp, order);
}

static __attribute__((noinline)) struct page *alloc_pages_compound(struct page *page, unsigned int order)
{
	prep_compound_page(page, order);
	return page;
}

/*
 * The flags freed_page_is_clean() tests, as a variable on purpose (never written): RISC-V builds
 * builds this 22-bit constant with lui and addi but reads a small-data variable with one
 * gp-relative load.
 */
unsigned long free_fast_check_flags __small_data =
	PAGE_FLAGS_CHECK_AT_FREE | 1UL << PG_hwpoison | 1UL << PG_head;

/*
 * free_page_is_bad() for one frame whose flags word is @flags, plus HWPoison and PG_head
 * (a compound head freed as order 0), as one test.  A tail page needs no test here: its refcount
 * is 0 (a tail's references are its folio's), so its free never reaches this point.
 */
static inline bool freed_page_is_clean(const struct page *page, unsigned long flags)
{
	return !((flags & free_fast_check_flags) |
		 (unsigned long)page->mapping | ((unsigned int)atomic_read(&page->_mapcount) + 1));
}

static __attribute__((noinline)) void __free_pages_undo(struct page *page, int old, unsigned int order,
						     unsigned long head_flags);
static __attribute__((noinline)) void __free_pages_order_fast(struct page *page, unsigned int order);

/*
 * Fast path: the last reference to a clean order-0 page goes onto this CPU's list for the pcp mt
 * its flags word names (page-flags.h).  The reference is dropped first and the old count tells
 * the cases apart: 1 frees, more returns, 0 or less was a double free (undone, then reported).
 * Every other case leaves by a tail call, so the fast path needs no stack frame.  A literal order
 * 0 comes here straight from the call (page_alloc.h); any other order through __free_pages().
 * Interrupts are masked from before the drop to after the push: memory_failure() marks frames
 * with interrupts masked, so it never sees this frame in flight (refcount 0, on no list) and a
 * mark it made before is seen by the check (docs/hwpoison.md, "Freeing").  The exits unmask
 * first; the fast path's instructions are the same, in another order.
 */
__fastpath void __free_page0(struct page *page)
{
	unsigned long irqflags;

	if (unlikely(!page))
		return;
	local_irq_save(irqflags);
	int old = atomic_fetch_dec(&page->_refcount);
	if (unlikely(old != 1)) {
		local_irq_restore(irqflags);
		return __free_pages_undo(page, old, 0, 0);
	}
	unsigned long flags = page->flags;
	if (unlikely(!freed_page_is_clean(page, flags))) {
		local_irq_restore(irqflags);
		return free_the_page(page, 0);		/* reports, or handles HWPoison quietly */
	}
	/* The flags cleared: the fields above them kept (the bits between are unused, page-flags.h),
	 * shifted down once for the store, the zone and the pcp mt alike (hidden, or GCC would
	 * mask the flags word with a constant it must build first). */
	unsigned long fields = flags >> PCPMT_PGSHIFT;
	OPTIMIZER_HIDE_VAR(fields);
	page->flags = fields << PCPMT_PGSHIFT;
	pcp_free_order0(page, fields, irqflags);
}

/* The name in parentheses: the function, not page_alloc.h's macro of the same name. */
__fastpath void (__free_pages)(struct page *page, unsigned int order)
{
	if (likely(!order))
		return __free_page0(page);
	__free_pages_order_fast(page, order);
}

/* Not the last reference: nothing to do, but a non-compound block's other frames (@head_flags,
 * read before the drop, has no PG_head) are freed as __free_pages() does.  Not a reference at all:
 * undone, then reported. */
static __attribute__((noinline)) void __free_pages_undo(struct page *page, int old, unsigned int order,
							unsigned long head_flags)
{
	if (old > 1) {
		if (!(head_flags & (1UL << PG_head)))
			free_pages_tail_blocks(page, order);
		return;
	}
	atomic_inc(&page->_refcount);
	__free_pages_slow(page, order);
}


/*
 * free_pages_prepare()'s checks of a non-compound order >= 1 block, every frame: flags
 * against free_fast_check_flags, no mapping, refcount 0, no link, mapcount -1.  *@flags_or: the
 * ORed flags words, so a block with no flag to clear stores nothing.
 */
static inline bool freed_block_is_clean(const struct page *page, unsigned int order,
					unsigned long *flags_or)
{
	struct block_fold f = fold_block(page, order, true);

	*flags_or = f.flags;
	return !((f.flags & free_fast_check_flags) | f.other | (f.mapcount + 1));
}

/* The flags a freed frame loses: all of them (PG_hwpoison sends a block to the general path),
 * the zone, node and pcp mt fields above them kept. */
static inline void freed_block_clear_flags(struct page *page, unsigned int order)
{
	for (struct page *end = page + (1U << order); page < end; page++)
		page->flags &= ~PAGEFLAGS_MASK;
}

/*
 * Orders 1 to PAGE_ALLOC_COSTLY_ORDER, the block not compound: what free_the_page(),
 * free_pages_prepare() and free_unref_page() do, when nothing is out of the ordinary.  The
 * reference dropped and the block checked with interrupts masked (as at order 0), its frames'
 * flags cleared, then free_unref_page_commit() for a free that neither drains nor
 * tunes high: alloc_factor halved, PCPF_PREV_FREE_HIGH_ORDER set, free_count up by the block,
 * the block pushed and the count up (room down; room and sync_room together, so pcp_sync() sees
 * nothing to fold).  The general path takes every other case: a compound block, a block outside
 * the hot memmap bank or not aligned to its order, a frame not clean, page poisoning, counts the
 * order-0 fast paths left to fold, a zone below its high watermark or under reclaim (high is
 * tuned at every free then), free_high (a run of high-order frees drains them) and a
 * free that reaches high.
 */
__fastpath static __attribute__((noinline)) void __free_pages_order_fast(struct page *page,
									  unsigned int order)
{
	const struct memmap_bank *bank = memmap_hot_bank;
	unsigned long irqflags, flags_or = 0;

	if (unlikely(!page || order > PAGE_ALLOC_COSTLY_ORDER))
		return __free_pages_slow(page, order);
	unsigned long head = page->flags;
	uintptr_t off = (uintptr_t)page - (uintptr_t)bank->map;
	local_irq_save(irqflags);
	struct per_cpu_pages *pcp = this_cpu_fast()->zone_pcp[(head >> ZONES_PGSHIFT) &
									     ZONES_MASK];
	int old = atomic_fetch_dec(&page->_refcount);
	if (unlikely(old != 1)) {
		local_irq_restore(irqflags);
		return __free_pages_undo(page, old, order, head);
	}
	/* The last reference: from here every other case is free_the_page()'s (the block must lie
	 * in the hot bank whole: a wrong-order free at a bank's end must not be read past it). */
	if (unlikely((head & (1UL << PG_head)) || off >= bank->map_bytes ||
		     bank->map_bytes - off < (sizeof(struct page) << order) ||
		     ((bank->start_pfn + off / sizeof(struct page)) & ((1UL << order) - 1))))
		goto general;
	if (page_checks) {
		if (unlikely(!freed_block_is_clean(page, order, &flags_or)))
			goto general;
	} else {
		for (struct page *p = page, *end = page + (1U << order); p < end; p++)
			flags_or |= p->flags;
		if (unlikely(flags_or & (1UL << PG_hwpoison | 1UL << PG_head)))
			goto general;
	}
	unsigned long word = pcp_fast_trylock(pcp);
	if (pcp_fast_busy(pcp, word))	/* pcp_off (poisoning), or another CPU: free_the_page() */
		goto general;
	int room = (int)(long)word, batch = pcp->batch, fc = pcp->free_count;
	unsigned char pflags = pcp->flags;
	if (unlikely(pcp->alloc_room != PCP_NO_ALLOC || room != pcp->sync_room ||
		     (READ_ONCE(pcp->zone->flags) & (1UL << ZONE_BELOW_HIGH | 1UL << ZONE_RECLAIM_ACTIVE)))) {
		pcp_fast_unlock(pcp, room);
		goto commit;
	}
	if (flags_or & PAGEFLAGS_MASK)
		freed_block_clear_flags(page, order);
	if (unlikely(fc >= batch && (pflags & PCPF_PREV_FREE_HIGH_ORDER))) {
		/* free_high: a run of high-order frees drains the lists.  Holding nothing
		 * else, they would drain just this block: straight to the buddy lists (only
		 * this CPU adds to its lists, so they stay empty after the unlock). */
		bool alone = room == pcp->drain_at;
		pcp_fast_unlock(pcp, room);
		if (alone)
			return pcp_free_high_alone(page, order, irqflags);
		goto unmask;
	}
	if (unlikely(room - (1 << order) <= 0)) {
		pcp_fast_unlock(pcp, room);
		goto unmask;
	}
	room -= 1 << order;
	/* The list of the pcp mt hint (set when the block left the buddy lists), as at order 0;
	 * see the header. */
	pcp_push(&pcp->lists[order * PCP_SLOTS + page_pcp_mt(head)], page);
	pcp->sync_room = room;
	pcp->alloc_factor >>= 1;
	pcp->flags = pflags | PCPF_PREV_FREE_HIGH_ORDER;
	if (fc < batch << pcp_batch_scale_max)
		pcp->free_count = fc + (1 << order);
	pcp_fast_unlock(pcp, room);
	local_irq_restore(irqflags);
	return;
commit:
	if (flags_or & PAGEFLAGS_MASK)
		freed_block_clear_flags(page, order);
unmask:
	/* Prepared and clean: free_unref_page() does the rest (and looks for HWPoison again). */
	local_irq_restore(irqflags);
	return free_unref_page(page, order);
general:
	local_irq_restore(irqflags);
	return free_the_page(page, order);
}
