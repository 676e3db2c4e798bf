/*
 * pcp.c - per-CPU page lists: the allocator's fast path (v6.10's rmqueue_pcplist, free_unref_page
 * and their sizing and tuning: zone_highsize, nr_pcp_alloc, nr_pcp_high, nr_pcp_free,
 * free_pcppages_bulk, decay_pcp_high).
 *
 * A block of order <= PAGE_ALLOC_COSTLY_ORDER freed by its last user goes onto its CPU's list for
 * (order, migratetype) instead of the buddy lists; an allocation of that size pops it.  An empty
 * list is refilled from the buddy lists under the zone lock (nr_pcp_alloc() blocks: batch, doubled
 * by each refill in a row without a free, up to 32x); a free that brings the count to the high
 * mark nr_pcp_high() gives gives nr_pcp_free() frames back, the coldest first (each list's
 * tail), round-robin over the lists from the one just freed to.  So most calls touch no lock.
 * High is sized as zone_highsize(): high_min from the zone's low watermark, high_max an
 * eighth of its managed pages, neither below 4 x batch; it grows by a batch at each refill while
 * the zone is above its high watermark, grows to hold a run of frees, shrinks by the frames freed
 * while the zone is below its high watermark (ZONE_BELOW_HIGH) or kswapd reclaims it
 * (ZONE_RECLAIM_ACTIVE), and decays by an eighth a second towards high_min (decay_pcp_high(),
 * driven by mm/vmstat_work.c, as Linux's vmstat_update).
 *
 * Where tinymm differs from v6.10, and why: the order-0 fast paths (page_alloc_fast.c) must stay a
 * pop or a push and a counter (their cost: docs/benchmarks.md), so they do not update free_count,
 * alloc_factor and PCPF_PREV_FREE_HIGH_ORDER per call as v6.10 does.  The allocation fast path
 * leaves one mark (alloc_room: the room after it) and every slow path first brings those up to
 * date (pcp_sync): exactly when only frees happened since the last slow path, otherwise as if the
 * allocations since came first and the frees since the last allocation last.  Likewise the
 * per-free lowering of high below the high watermark is applied for all of those frees at once.
 * The lists are singly linked LIFO stacks, so taking the coldest frames walks a list once per
 * drain (v6.10's doubly linked lists take them from the tail directly).  The boot pageset, CPU
 * hotplug, percpu_pagelist_high_fraction and the cache-size PCPF_FREE_HIGH_BATCH rule are not
 * here (CPUs are not hot-plugged, no sysctl, no cacheinfo).  The order 1-3 free_high case on
 * otherwise empty lists sends the block to the buddy lists directly (pcp_free_high_alone) where v6.10 pushes it
 * and drains it again: the same end state.
 *
 * The worst case is bounded (v6.10's CONFIG_PCP_BATCH_SCALE_MAX, here tinymm.pcp_batch_scale_max,
 * with tinymm.pcp_batch for the batch): no call moves more than batch << scale blocks between
 * the lists and the buddy lists, each such move is one zone->lock hold, and a drain of more
 * (drain_all_pages, decay) goes in chunks with interrupts unmasked between.  free_pcppages_bulk
 * caps itself where v6.10 relies on its callers' arithmetic (nr_pcp_free() may ask for up to
 * 7 frames more after high-order frees); and it takes the blocks off the lists before it takes
 * the lock, so the lock is held for the buddy work only.  pcp_zone_lock_watch lets the tests
 * and the bench see every hold.
 *
 * Invariants: a block on a pcp list is not PageBuddy, has refcount 0 and clean flags, and is of
 * the order its list is for (->private is cleared at allocation); pcp_count(pcp) is the frames
 * on all lists, and they are not in zone->free_pages.  A CPU's cpu_fast zone_pcp[] entry (smp.h)
 * for a zone is that CPU's lists of it, or pcp_off while page poisoning is on (its lock always
 * held: every free then takes pcp_free_nofast(), which fills the frame first).  Outside a slow path, room == drain_at - count, and the free fast
 * path sends a free to the slow path exactly when the count reaches drain_at.  Only a CPU adds
 * blocks to its own lists; another CPU only takes them off (drains).
 *
 * Locking (v6.10's pcp->lock): a CPU's lists and pcp fields are guarded by its pcp->lock, always
 * taken with interrupts masked, so the CPU that takes its own lock cannot be interrupted by
 * another taker of it and its task cannot move; drain_all_pages(), decay, the zone flag updates
 * and the list walks take every CPU's lock in turn (never two at once) and work on remote
 * lists from the caller, as v6.10's drain_pages_zone().  Moving blocks between a pcp list and
 * the buddy lists also takes zone->lock, always after pcp->lock.  The fast paths try the lock
 * inline, unchecked (mm/internal.h: pcp_fast_trylock, v6.10's pcp_spin_trylock) and take the
 * slow path, which waits, when another CPU holds it.  The lock word doubles as the fast paths'
 * room counter (mmzone.h: lock_word): pcp->room is the holder's copy.  zone->flags' bits change by atomic bit operations and are read racily (a stale
 * read only picks the other threshold for one call).  The `vmstat` pcp report reads remote
 * counters racily, as v6.10's zoneinfo.
 */
#include "tinymm/cache.h"
#include "tinymm/cmdline.h"
#include "tinymm/irqflags.h"
#include "tinymm/memory-failure.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "internal.h"

#define MIN_PERCPU_PAGELIST_HIGH_FRACTION 8

/* Each CPU's lists by zone, for the free fast path: struct cpu_fast's zone_pcp (smp.h). */
_Static_assert(MAX_NR_ZONES <= CPU_FAST_ZONES, "struct cpu_fast holds every zone");

void (*pcp_decay_schedule)(void);	/* mm/vmstat_work.c: decay_pcp_high() in a second */
void (*pcp_zone_lock_watch)(struct zone *z, int moved);

int pcp_batch_param;			/* tinymm.pcp_batch; 0: zone_batchsize() */
int pcp_batch_scale_max = PCP_SCALE_DEFAULT;	/* tinymm.pcp_batch_scale_max */

/* 0, the unset default, is not accepted: it would read as "zone_batchsize()'s". */
KPARAM_UINT(pcp_batch, pcp_batch_param, 1, PCP_BATCH_LIMIT,
	    "1-1024: frames per per-CPU refill and drain (default: v6.10's zone_batchsize())");
KPARAM_UINT(pcp_batch_scale_max, pcp_batch_scale_max, 0, PCP_SCALE_LIMIT,
	    "0-6 (default 5): at most batch << this blocks move per refill, drain or zone-lock hold");

/* The most blocks one call moves between @pcp's lists and the buddy lists (one lock hold). */
static inline int pcp_bulk_max(const struct per_cpu_pages *pcp)
{
	return pcp->batch << pcp_batch_scale_max;
}

/* Tests and the bench watch each zone->lock hold of a bulk move: taken (-1), then @moved. */
static inline void pcp_watch(struct zone *z, int moved)
{
	void (*watch)(struct zone *, int) = READ_ONCE(pcp_zone_lock_watch);

	if (watch)
		watch(z, moved);
}

/* pcp->lock (mm/internal.h); the caller masked interrupts.  Checked by the lock-order checker
 * before the wait, as spin_lock(); every CPU's lock is one class (never two held at once). */
void pcp_spin_lock(struct per_cpu_pages *pcp)
{
	lock_acquire(&pcp->lock.dep_map, &pcp->lock, 0, (unsigned long)__builtin_return_address(0));
	unsigned long word = pcp_fast_trylock(pcp);
	if (pcp_fast_busy(pcp, word))
		word = pcp_lock_wait(pcp);
	pcp->room = (int)(long)word;
	WRITE_ONCE(pcp->lock.owner_cpu, (int)smp_processor_id());
}

void pcp_spin_unlock(struct per_cpu_pages *pcp)
{
	WRITE_ONCE(pcp->lock.owner_cpu, -1);
	lock_release(&pcp->lock);
	pcp_fast_unlock(pcp, pcp->room);
}

unsigned long pcp_lock_wait(struct per_cpu_pages *pcp)
{
	unsigned long held = (unsigned long)pcp, room;

	do {
		while (READ_ONCE(pcp->lock_word) == held)	/* read until free: no stores */
			cpu_relax();
	} while ((room = xchg(&pcp->lock_word, held)) == held);
	return room;
}

/* Free, @pcp->room in the word: after the pcp's fields are set (pcp_init). */
void pcp_lock_init(struct per_cpu_pages *pcp)
{
	static struct lock_class_key key;

	pcp->lock_word = (unsigned long)(long)pcp->room;
	pcp->lock.owner_cpu = -1;
	lockdep_init_map(&pcp->lock.dep_map, "&pcp->lock", &key);
}

/* About a quarter of a MiB per batch, at most 63 frames. */
static int zone_batchsize(const struct zone *z)
{
	unsigned long batch = z->managed_pages / 1024;

	if (batch * PAGE_SIZE > 1024 * 1024)
		batch = (1024 * 1024) / PAGE_SIZE;
	batch /= 4;
	unsigned long b = 1;
	while (b * 2 <= batch + batch / 2)
		b *= 2;
	batch = b - 1;		/* rounddown_pow_of_two(batch + batch / 2) - 1 */
	return batch < 1 ? 1 : (int)batch;
}

/* v6.10's nr_split_cpus: the CPUs the lists were last sized for (the possible ones then: one
 * at page_alloc_init, before smp_init() reads the device tree; zone_pcp_update_all()). */
unsigned int pcp_split_cpus = 1;

/* @fraction 0 from the low watermark, else managed pages / @fraction,
 * split over the node's CPUs, at least 4 batches. */
static int zone_highsize(const struct zone *z, int batch, unsigned long fraction)
{
	unsigned long total = fraction ? z->managed_pages / fraction : z->_watermark[WMARK_LOW];
	long high = (long)(total / pcp_split_cpus);

	return (int)max(high, (long)batch << 2);
}

/* Where the next free must take the slow path: nr_pcp_high()'s answer for the state now. */
static int pcp_drain_at(const struct per_cpu_pages *pcp, const struct zone *z)
{
	int high = clamp(pcp->high, pcp->high_min, pcp->high_max);

	if (!high)
		return 0;
	if (READ_ONCE(z->flags) & (1UL << ZONE_RECLAIM_ACTIVE))
		return min(pcp->batch << 2, high);
	if (pcp->high_min != pcp->high_max && (READ_ONCE(z->flags) & (1UL << ZONE_BELOW_HIGH)))
		return pcp->high_min;
	return high;
}

/* A slow path is done with @pcp, which holds @count frames: the fast paths' counters anew. */
static void pcp_commit(struct per_cpu_pages *pcp, int count)
{
	pcp->drain_at = pcp_drain_at(pcp, pcp->zone);
	pcp->room = pcp->drain_at - count;
	pcp->sync_room = pcp->room;
	pcp->alloc_room = PCP_NO_ALLOC;
}

/* What the fast paths did since the last slow path, into Linux's counters (the header says how
 * exactly).  Returns the count of frames on the lists. */
int pcp_sync(struct per_cpu_pages *pcp)
{
	int cap = pcp_bulk_max(pcp), frees, fc = pcp->free_count;

	/* free_count grows only while it is below the cap (an order-3 free may then take
	 * it up to 7 above): so the frees are added up to the cap, and a count above stays. */
	if (pcp->alloc_room == PCP_NO_ALLOC) {
		frees = pcp->sync_room - pcp->room;		/* frees only */
		if (fc < cap)
			fc = min(fc + frees, cap);
	} else {
		int run = pcp->alloc_room - pcp->room;		/* after the last allocation */
		int allocs = max(pcp->alloc_room - pcp->sync_room, 1);
		frees = run + max(pcp->sync_room - pcp->alloc_room + 1, 0);
		fc >>= min(allocs, 31);
		if (fc < cap)
			fc = min(fc + run, cap);
	}
	pcp->free_count = fc;
	if (frees > 0) {
		pcp->alloc_factor >>= min(frees, 7);
		pcp->flags &= ~PCPF_PREV_FREE_HIGH_ORDER;
		const struct zone *z = pcp->zone;
		bool lower = (READ_ONCE(z->flags) & (1UL << ZONE_RECLAIM_ACTIVE)) ||
			     (pcp->high_min != pcp->high_max && (READ_ONCE(z->flags) & (1UL << ZONE_BELOW_HIGH)));
		if (lower) {
			long drop = (long)frees * max(pcp->free_count, pcp->batch);
			pcp->high = (int)max((long)pcp->high - drop, (long)pcp->high_min);
		}
	}
	pcp->sync_room = pcp->room;
	pcp->alloc_room = PCP_NO_ALLOC;
	return pcp_count(pcp);
}

int pcp_zone_batch(const struct zone *z)
{
	return pcp_batch_param ? pcp_batch_param : zone_batchsize(z);
}

/* @pcp's batch and marks as boot sizes them (zone_set_pageset_high_and_batch()); its
 * tuning starts over. */
static void pcp_size(struct per_cpu_pages *pcp, struct zone *z)
{
	pcp->batch = pcp_zone_batch(z);
	pcp->high_min = pcp->high = zone_highsize(z, pcp->batch, 0);
	pcp->high_max = zone_highsize(z, pcp->batch, MIN_PERCPU_PAGELIST_HIGH_FRACTION);
	pcp->free_count = 0;
	pcp->alloc_factor = 0;
}

void pcp_init(struct zone *z)
{
	pcp_split_cpus = max(cpumask_weight(cpu_possible_mask), 1U);
	z->flags = 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &z->pcp[cpu];
		per_cpu(cpu_fast, cpu).zone_pcp[z - zones] = page_poisoning_enabled ? &pcp_off : pcp;
		*pcp = (struct per_cpu_pages){ .zone = z };
		pcp_size(pcp, z);
		pcp_lists_init(pcp);
		pcp_commit(pcp, 0);
		pcp_lock_init(pcp);
	}
}

static void pcp_resize(struct zone *z);

void pcp_set_batch(int batch, int scale)
{
	pcp_batch_param = batch;
	pcp_batch_scale_max = scale;
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		if (!z->managed_pages)
			continue;
		drain_all_pages(z);
		pcp_resize(z);
	}
}

/* Every CPU's lists of @z sized anew, each under its lock. */
static void pcp_resize(struct zone *z)
{
	unsigned long flags;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &z->pcp[cpu];
		pcp_spin_lock_irqsave(pcp, flags);
		int count = pcp_sync(pcp);
		pcp_size(pcp, z);
		pcp_commit(pcp, count);
		pcp_spin_unlock_irqrestore(pcp, flags);
	}
}

/* More CPUs came up (v6.10's page_alloc_cpu_online -> zone_pcp_update()): high split anew
 * over the possible CPUs.  A list above its new high drains at its next free or decay. */
void zone_pcp_update_all(void)
{
	pcp_split_cpus = max(cpumask_weight(cpu_possible_mask), 1U);
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (zones[i].managed_pages)
			pcp_resize(&zones[i]);
}

/* @z's pcp marks or flags are about to change: bring the counters up to date under the old
 * state, flip @bit (-1: none), then recompute the fast paths' threshold.  One CPU's lists at a
 * time, each under its lock: what another CPU's fast paths do between the two passes is
 * folded under the new state (exact on one CPU). */
static void pcp_update(struct zone *z, int bit, int on)
{
	unsigned long flags;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &z->pcp[cpu];
		pcp_spin_lock_irqsave(pcp, flags);
		pcp_sync(pcp);
		pcp_spin_unlock_irqrestore(pcp, flags);
	}
	if (bit >= 0) {
		if (on)
			set_bit(bit, &z->flags);
		else
			clear_bit(bit, &z->flags);
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &z->pcp[cpu];
		pcp_spin_lock_irqsave(pcp, flags);
		pcp_commit(pcp, pcp_sync(pcp));
		pcp_spin_unlock_irqrestore(pcp, flags);
	}
}

/* The order 1-3 allocation fast path found order-0 counts to fold: this CPU's alone. */
void pcp_refresh_local(void)
{
	unsigned long flags;

	local_irq_save(flags);
	struct per_cpu_pages *pcp = this_cpu_fast()->pcp_fast;
	pcp_spin_lock(pcp);
	pcp_commit(pcp, pcp_sync(pcp));
	pcp_spin_unlock(pcp);
	local_irq_restore(flags);
}

void zone_set_flag(struct zone *z, int bit, bool on)
{
	if (!!(READ_ONCE(z->flags) & (1UL << bit)) != on)
		pcp_update(z, bit, on);
}

void pcp_refresh(struct zone *z)
{
	pcp_update(z, -1, 0);
}

/* Blocks to refill @order's list with. */
static int nr_pcp_alloc(struct per_cpu_pages *pcp, struct zone *z, unsigned int order, int count)
{
	int base = pcp->batch, batch;
	int high = pcp->high = clamp(pcp->high, pcp->high_min, pcp->high_max);

	if (high < base)
		return 1;
	batch = order ? base : base << pcp->alloc_factor;
	/* Room for a bigger list saves trips to the zone: grow high unless memory is short. */
	if (pcp->high_min != pcp->high_max && !(READ_ONCE(z->flags) & (1UL << ZONE_BELOW_HIGH)))
		high = pcp->high = min(high + batch, pcp->high_max);
	if (!order) {
		int max_nr_alloc = max(high - count - base, base);
		/* Each refill in a row without a free doubles the next one. */
		if (batch <= max_nr_alloc && pcp->alloc_factor < pcp_batch_scale_max)
			pcp->alloc_factor++;
		batch = min(batch, max_nr_alloc);
	}
	if (batch > 1)
		batch = max(batch >> order, 2);
	return batch;
}

/* Move up to @want blocks of (order, mt), at most pcp_bulk_max(), from the buddy lists to @pcp;
 * irqs off.  Blocks added. */
static int rmqueue_bulk(struct zone *z, struct per_cpu_pages *pcp, unsigned int order, int mt, int want)
{
	struct page *tmp = NULL;
	int n = 0;

	pcp_lockdep_assert_held(pcp);
	want = min(want, pcp_bulk_max(pcp));
	spin_lock(&z->lock);
	pcp_watch(z, -1);
	for (; n < want; n++) {
		if (z->free_pages < z->_watermark[WMARK_MIN] + (1UL << order))
			break;		/* keep the reserve for the slow path's watermark rules */
		struct page *page = __rmqueue(z, order, mt);
		if (!page)
			break;
		pcp_push(&tmp, page);
	}
	pcp_watch(z, n);
	spin_unlock(&z->lock);
	/* Pushed through a second stack so the blocks come out in the order the buddy lists gave
	 * them (ascending within a split), as Linux's list_add_tail refill does. */
	while (tmp)
		pcp_push(&pcp->lists[pindex(order, mt)], pcp_pop(&tmp));
	return n;
}

struct page *rmqueue_pcplist(struct zone *z, unsigned int order, int mt)
{
	struct per_cpu_pages *pcp;
	struct page **list;
	struct page *page = NULL;
	unsigned long flags;

	local_irq_save(flags);
	pcp = this_cpu_pcp(z);
	list = &pcp->lists[pindex(order, mt)];
	pcp_spin_lock(pcp);
	int count = pcp_sync(pcp), high = pcp->high;
	pcp->free_count >>= 1;		/* an allocation ends a run of frees */
	/* __rmqueue_pcplist(): a bad block is reported and leaked and the next one taken,
	 * refilling as needed, all as one allocation (one step on free_count). */
	for (;;) {
		if (pcp_list_empty(pcp, list))
			count += rmqueue_bulk(z, pcp, order, mt, nr_pcp_alloc(pcp, z, order, count)) << order;
		if (pcp_list_empty(pcp, list))
			break;
		page = pcp_pop(list);
		count -= 1 << order;
		if (!page_checks || check_new_pages(page, order))
			break;
		page = NULL;
	}
	pcp_commit(pcp, count);
	/* A refill raised high: decay must bring it back down (the free path schedules it too). */
	bool decay = pcp->high > high;
	pcp_spin_unlock(pcp);
	if (decay && pcp_decay_schedule)
		pcp_decay_schedule();
	local_irq_restore(flags);
	if (page)
		page->private = 0;
	return page;
}

/*
 * Give @count frames' worth of blocks back to the buddy lists, at
 * most pcp_bulk_max() blocks, round-robin over the lists from @pidx, each list's coldest (oldest)
 * blocks first, a list emptied before the next; irqs off.  @total is the frames on the lists (so
 * one round ends it).  The blocks come off the lists first, then one zone->lock hold files them.
 * Returns the frames freed.
 */
static int free_pcppages_bulk(struct zone *z, struct per_cpu_pages *pcp, int count, int total,
			      unsigned int pidx)
{
	struct page *chain = NULL, **tail = &chain;	/* oldest first; ->private: the order */
	int freed = 0, moved = 0;

	pcp_lockdep_assert_held(pcp);
	count = min(min(count, total), pcp_bulk_max(pcp));
	for (unsigned int n = 0, i = pidx; count > 0 && n < NR_PCP_LISTS; n++, i = (i + 1) % NR_PCP_LISTS) {
		struct page **list = &pcp->lists[i], *p;
		unsigned int order = i / PCP_SLOTS;
		int len = 0;

		for_each_pcp_block(p, pcp, list)
			len++;
		if (!len)
			continue;
		int take = min(len, (count + (1 << order) - 1) >> order);
		/* The last @take blocks are the coldest: cut them off, then chain the oldest first. */
		struct page **cut = list;
		for (int k = 0; k < len - take; k++)
			cut = &(*cut)->pcp_next;
		struct page *cold = *cut, *oldest = NULL, *last = cold;
		*cut = pcp_list_end(pcp);
		for (int k = 0; k < take; k++) {
			p = pcp_pop(&cold);
			p->private = order;
			pcp_push(&oldest, p);
		}
		*tail = oldest;
		tail = &last->pcp_next;
		count -= take << order;
	}
	if (!chain)
		return 0;
	spin_lock(&z->lock);
	pcp_watch(z, -1);
	do {
		struct page *page = pcp_pop(&chain);
		unsigned int order = page->private;
		unsigned long pfn = page_to_pfn(page);
		page->private = 0;
		__free_one_page(page, pfn, z, order, pageblock_mt(z, pfn), FPI_NONE);
		freed += 1 << order;
		moved++;
	} while (chain);
	pcp_watch(z, moved);
	spin_unlock(&z->lock);
	return freed;
}

/* The count at which this free drains, tuning pcp->high on the way. */
static int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *z, int batch, bool free_high, int count)
{
	int high_min = pcp->high_min, high_max = pcp->high_max;
	int high = pcp->high = clamp(pcp->high, high_min, high_max);

	if (!high)
		return 0;
	if (free_high) {
		pcp->high = max(high - pcp_bulk_max(pcp), high_min);
		return 0;
	}
	if (READ_ONCE(z->flags) & (1UL << ZONE_RECLAIM_ACTIVE)) {
		pcp->high = max(high - max(pcp->free_count, batch), high_min);
		return min(batch << 2, pcp->high);
	}
	if (high_min == high_max)
		return high;
	if (READ_ONCE(z->flags) & (1UL << ZONE_BELOW_HIGH)) {
		pcp->high = max(high - max(pcp->free_count, batch), high_min);
		high = max(count, high_min);
	} else if (count >= high) {
		int need_high = pcp->free_count + batch;
		/* Large enough to hold a batch of frees. */
		if (pcp->high < need_high)
			pcp->high = clamp(need_high, high_min, high_max);
	}
	return high;
}

/* Frames to give back once the count reached @high. */
static int nr_pcp_free(const struct per_cpu_pages *pcp, int batch, int high, bool free_high, int count)
{
	if (free_high)
		return min(count, pcp_bulk_max(pcp));
	if (high < batch)
		return 1;
	/* Leave a batch on the lists; free more after a long run of frees (less lock traffic). */
	return clamp(pcp->free_count, batch, high - batch);
}

/*
 * free_unref_page_commit() after the push: @count frames on the lists (the new block
 * included), @order the block's, @pidx its list.  @counted: pcp_sync() already counted this free
 * (the fast path's), so its steps on free_count, alloc_factor and the flag are done.  irqs off.
 */
static void free_unref_page_commit(struct zone *z, struct per_cpu_pages *pcp, unsigned int order,
				   unsigned int pidx, int count, bool counted)
{
	int batch = pcp->batch, high;
	bool free_high = false;

	if (!counted) {
		pcp->alloc_factor >>= 1;
		/* High-order blocks freed in a row without allocations fragment memory: drain them. */
		if (order && order <= PAGE_ALLOC_COSTLY_ORDER) {
			free_high = pcp->free_count >= batch && (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER);
			pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
		} else {
			pcp->flags &= ~PCPF_PREV_FREE_HIGH_ORDER;
		}
		if (pcp->free_count < pcp_bulk_max(pcp))
			pcp->free_count += 1 << order;
	}
	high = nr_pcp_high(pcp, z, batch, free_high, count);
	if (count >= high) {
		count -= free_pcppages_bulk(z, pcp, nr_pcp_free(pcp, batch, high, free_high, count),
					    count, pidx);
		/* Back above the high watermark: pcp may grow again (as zone_watermark_ok()). */
		if ((READ_ONCE(z->flags) & (1UL << ZONE_BELOW_HIGH)) &&
		    READ_ONCE(z->free_pages) > z->_watermark[WMARK_HIGH])
			clear_bit(ZONE_BELOW_HIGH, &z->flags);
	}
	pcp_commit(pcp, count);
}

/* The last reference to a small block is gone and it passed the free checks: keep it close. */
void free_unref_page(struct page *page, unsigned int order)
{
	struct zone *z = page_zone(page);
	struct per_cpu_pages *pcp;
	unsigned long flags;
	int mt = pageblock_mt(z, page_to_pfn(page));

	local_irq_save(flags);
	/* Marked after free_pages_prepare() looked (memory_failure() masks interrupts too, so on
	 * this CPU it cannot come between this look and the push; on another it retries a frame
	 * in flight): never onto a list with it. */
	if (unlikely(READ_ONCE(hwpoison_seen)) && free_block_has_hwpoison(page, order)) {
		local_irq_restore(flags);
		free_around_hwpoison(page, order);
		return;
	}
	pcp = this_cpu_pcp(z);
	pcp_spin_lock(pcp);
	int count = pcp_sync(pcp);
	pcp_push(&pcp->lists[pindex(order, mt)], page);
	free_unref_page_commit(z, pcp, order, pindex(order, mt), count + (1 << order), false);
	bool decay = pcp->high > pcp->high_min;
	pcp_spin_unlock(pcp);
	if (decay && pcp_decay_schedule)
		pcp_decay_schedule();
	local_irq_restore(flags);
}

/*
 * The order 1-3 free fast path's free_high case while the lists hold nothing else
 * (mm/page_alloc_fast.c): Linux pushes the block, then drains min(count, batch << scale) frames
 * round-robin from its list, which is this block alone.  So it goes to the buddy lists directly,
 * the counters and high as free_unref_page_commit() leaves them.  The block is prepared and
 * checked with interrupts masked since; they are restored here.  The fast path dropped
 * pcp->lock: taken again here (another CPU may only have drained the lists meanwhile).
 */
void pcp_free_high_alone(struct page *page, unsigned int order, unsigned long irqflags)
{
	struct zone *z = page_zone(page);
	struct per_cpu_pages *pcp = this_cpu_pcp(z);
	unsigned long pfn = page_to_pfn(page);

	pcp_spin_lock(pcp);
	int batch = pcp->batch;

	pcp->alloc_factor >>= 1;
	pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
	if (pcp->free_count < pcp_bulk_max(pcp))
		pcp->free_count += 1 << order;
	nr_pcp_high(pcp, z, batch, true, 1 << order);	/* high lowered; "drain them all" */
	spin_lock(&z->lock);
	pcp_watch(z, -1);
	__free_one_page(page, pfn, z, order, pageblock_mt(z, pfn), FPI_NONE);
	pcp_watch(z, 1);
	spin_unlock(&z->lock);
	pcp_commit(pcp, 0);
	bool decay = pcp->high > pcp->high_min;
	pcp_spin_unlock(pcp);
	if (decay && pcp_decay_schedule)
		pcp_decay_schedule();
	local_irq_restore(irqflags);
}

/* The fast path's free of @page reached drain_at (pushed, and counted by its room: pcp_sync
 * counts it as a fast free; @pidx its list): the rest of free_unref_page(), then unmask.
 * The fast path dropped pcp->lock, so another CPU may have drained the lists meanwhile (and
 * @page with them: only @pidx is used). */
void pcp_free_overflow(struct page *page, unsigned int pidx, unsigned long irqflags)
{
	struct zone *z = page_zone(page);
	struct per_cpu_pages *pcp = this_cpu_pcp(z);

	pcp_spin_lock(pcp);
	free_unref_page_commit(z, pcp, 0, pidx, pcp_sync(pcp), true);
	bool decay = pcp->high > pcp->high_min;
	pcp_spin_unlock(pcp);
	if (decay && pcp_decay_schedule)
		pcp_decay_schedule();
	local_irq_restore(irqflags);
}

/* The fast path's free could not take the lists' lock: another CPU holds it, or they are pcp_off
 * (page poisoning is on).  Fill the frame if poisoning, as free_the_page() does, then file it as
 * any other free (free_unref_page() waits for the lock), and unmask.  Still masked while it
 * fills: memory_failure() cannot mark the frame in between, so a poisoned frame is never
 * written (free_unref_page() checks for one again). */
void pcp_free_nofast(struct page *page, unsigned long irqflags)
{
	if (page_poisoning_enabled)
		kernel_poison_pages(page, 1);
	free_unref_page(page, 0);
	local_irq_restore(irqflags);
}

/*
 * decay_pcp_high(), every second while some high is above high_min (mm/vmstat_work.c):
 * high loses an eighth (not below the count less batch << scale, nor high_min) and what the
 * lists hold above it goes back, at most batch << scale blocks a call (the rest next time: a
 * high lowered by hand may leave more above it).  true while there is more to do.
 */
bool decay_pcp_high_all(void)
{
	bool more = false;

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		if (!z->managed_pages)
			continue;
		for (int cpu = 0; cpu < NR_CPUS; cpu++) {
			struct per_cpu_pages *pcp = &z->pcp[cpu];
			unsigned long flags;
			pcp_spin_lock_irqsave(pcp, flags);
			int count = pcp_sync(pcp);
			if (pcp->high > pcp->high_min) {
				pcp->high = max3(count - pcp_bulk_max(pcp),
						 pcp->high - (pcp->high >> 3), pcp->high_min);
				more |= pcp->high > pcp->high_min;
			}
			if (count > pcp->high) {
				count -= free_pcppages_bulk(z, pcp, count - pcp->high, count, 0);
				more = true;
			}
			pcp_commit(pcp, count);
			pcp_spin_unlock_irqrestore(pcp, flags);
		}
	}
	return more;
}

/* The allocator found @z below its high watermark (get_page_from_freelist): from now on
 * frees shrink pcp->high and drain at high_min, until a drain sees the zone above it again. */
void zone_mark_below_high(struct zone *z)
{
	if (!(READ_ONCE(z->flags) & (1UL << ZONE_BELOW_HIGH)))
		zone_set_flag(z, ZONE_BELOW_HIGH, true);
}

/*
 * Is any block on @z's per-CPU lists inside the @order block at @page?  Only a wrong-order free
 * can make it so (a correct free's frames are all its own), and such frames look clean where they
 * sit (refcount 0, no flags) while on the buddy lists the free checks would see them (PageBuddy).
 * A walk of the lists of smaller orders, pointers compared (a block lies in one memmap bank):
 * cheaper than draining them all on every free of a non-compound block.
 */
bool pcp_holds_part_of(struct zone *z, const struct page *page, unsigned int order)
{
	uintptr_t bytes = sizeof(struct page) << order;	/* one unsigned compare per frame */
	unsigned int nr_lists = (order < NR_PCP_ORDERS ? order : NR_PCP_ORDERS) * PCP_SLOTS;
	unsigned long flags;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &z->pcp[cpu];
		bool found = false;
		pcp_spin_lock_irqsave(pcp, flags);
		for (unsigned int i = 0; i < nr_lists && !found; i++) {
			const struct page *p;
			for_each_pcp_block(p, pcp, &pcp->lists[i])
				if ((uintptr_t)p - (uintptr_t)page < bytes)
					found = true;
		}
		pcp_spin_unlock_irqrestore(pcp, flags);
		if (found)
			return true;
	}
	return false;
}

/* Everything on every CPU's lists back to the buddy lists (drain_all_pages(NULL)): each CPU's
 * drained from here under its pcp->lock, as v6.10's drain_pages_zone() (no cross-CPU call). */
void drain_all_pages(struct zone *only)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		unsigned long flags;
		if ((only && z != only) || !z->managed_pages)
			continue;
		for (int cpu = 0; cpu < NR_CPUS; cpu++) {
			struct per_cpu_pages *pcp = &z->pcp[cpu];
			int count, freed;
			/* In chunks of pcp_bulk_max() blocks, the lock dropped and interrupts
			 * unmasked between (Linux's drain_pages_zone()): the longest masked stretch
			 * does not grow with the lists. */
			do {
				pcp_spin_lock_irqsave(pcp, flags);
				count = pcp_sync(pcp);
				freed = free_pcppages_bulk(z, pcp, count, count, 0);
				count -= freed;
				pcp_commit(pcp, count);
				pcp_spin_unlock_irqrestore(pcp, flags);
			} while (count > 0 && freed);
		}
	}
}
