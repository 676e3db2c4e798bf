/*
 * pcp.c - per-CPU page lists: the allocator's fast path (v6.10's rmqueue_pcplist /
 * free_unref_page, in miniature).
 *
 * A block of order <= PAGE_ALLOC_COSTLY_ORDER freed by its last user goes onto its CPU's list for
 * (order, migratetype) instead of the buddy lists; an allocation of that size pops it.  An empty
 * list is refilled with `batch` frames' worth of blocks taken from the buddy lists under the zone
 * lock; a CPU holding more than `high` frames gives `batch` back.  So most calls touch no lock
 * and no buddy.
 * The lists are LIFO stacks (mm/internal.h: pcp_push/pcp_pop): the most recently freed, cache-warm
 * block is handed out first, and a drain returns the most recent ones too.
 * Invariants: a block on a pcp list is not PageBuddy, has refcount 0 and clean flags, and is of
 * the order its list is for (a block's order is known from its list alone, as v6.10's
 * pindex_to_order: ->private is the last owner's and is cleared at allocation); pcp_count(pcp)
 * (high - room) is the frames on all lists; pcp frames are not in zone->free_pages.  A zone's
 * zone_pcp[] entry is its CPU 0 lists, or NULL while page poisoning is on (every free then fills
 * the frame before it joins a list: pcp_free_nofast).
 * Locking: a CPU's lists are touched only by that CPU with interrupts masked (local_irq_save);
 * moving blocks between a pcp list and the buddy lists also takes zone->lock, always after.
 */
#include "tinymm/cache.h"
#include "tinymm/irqflags.h"
#include "tinymm/memory-failure.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "internal.h"

/* v6.10's zone_batchsize(): about a quarter of a MiB per batch, at most 63 frames; high = 6 batches. */
void pcp_init(struct zone *z)
{
	unsigned long batch = z->managed_pages / 1024;

	if (batch * PAGE_SIZE > 1024 * 1024)
		batch = (1024 * 1024) / PAGE_SIZE;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	unsigned long b = 1;
	while (b * 2 <= batch + batch / 2)
		b *= 2;
	batch = b > 1 ? b - 1 : 1;
	zone_pcp[z - zones] = page_poisoning_enabled ? NULL : &z->pcp[0];
	for (int cpu = 0; cpu < CONFIG_NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &z->pcp[cpu];
		pcp->zone = z;
		pcp->batch = (int)batch;
		pcp->high = (int)(6 * batch);
		pcp->room = pcp->high;		/* no frames yet */
		for (int i = 0; i < NR_PCP_LISTS; i++)
			pcp->lists[i] = NULL;
	}
}

/* In small data: on RISC-V one gp-relative instruction finds it (pcp_free_order0). */
struct per_cpu_pages *zone_pcp[MAX_NR_ZONES] __small_data;

/* Move up to batch frames of (order, mt) from the buddy lists to @pcp; irqs off.  Blocks added. */
static int rmqueue_bulk(struct zone *z, struct per_cpu_pages *pcp, unsigned int order, int mt)
{
	int n = 0, want = pcp->batch >> order;

	if (want < 1)
		want = 1;
	struct page *tmp = NULL;

	spin_lock(&z->lock);
	for (; n < want; n++) {
		if (z->free_pages < z->_watermark[WMARK_MIN] + (1UL << order))
			break;		/* keep the reserve for the slow path's watermark rules */
		struct page *page = __rmqueue(z, order, mt);
		if (!page)
			break;
		pcp_push(&tmp, page);
		pcp->room -= 1 << order;
	}
	spin_unlock(&z->lock);
	/* Pushed through a second stack so the blocks come out in the order the buddy lists gave
	 * them (ascending within a split), as Linux's list_add_tail refill does. */
	while (tmp)
		pcp_push(&pcp->lists[pindex(order, mt)], pcp_pop(&tmp));
	return n;
}

struct page *rmqueue_pcplist(struct zone *z, unsigned int order, int mt)
{
	struct per_cpu_pages *pcp = &z->pcp[0];
	struct page **list = &pcp->lists[pindex(order, mt)];
	unsigned long flags;
	struct page *page;

	local_irq_save(flags);
	if (!*list && !rmqueue_bulk(z, pcp, order, mt)) {
		local_irq_restore(flags);
		return NULL;
	}
	page = pcp_pop(list);
	pcp->room += 1 << order;
	local_irq_restore(flags);
	page->private = 0;
	return page;
}

/* Give @count frames' worth of blocks back to the buddy lists, oldest first; irqs off. */
void free_pcppages_bulk(struct zone *z, struct per_cpu_pages *pcp, int count)
{
	if (count > pcp_count(pcp))
		count = pcp_count(pcp);		/* so count > 0 also means "lists not empty" */
	spin_lock(&z->lock);
	for (int i = NR_PCP_LISTS - 1; i >= 0 && count > 0; i--) {
		struct page **list = &pcp->lists[i];
		unsigned int order = (unsigned int)i / PCP_SLOTS;
		while (count > 0 && *list) {
			struct page *page = pcp_pop(list);
			pcp->room += 1 << order;
			count -= 1 << order;
			unsigned long pfn = page_to_pfn(page);
			__free_one_page(page, pfn, z, order, pageblock_mt(z, pfn));
		}
	}
	spin_unlock(&z->lock);
}

/* The last reference to a small block is gone and it passed the free checks: keep it close. */
void free_unref_page(struct page *page, unsigned int order)
{
	struct zone *z = page_zone(page);
	struct per_cpu_pages *pcp = &z->pcp[0];
	unsigned long flags;
	int mt = pageblock_mt(z, page_to_pfn(page));

	local_irq_save(flags);
	/* Marked after free_pages_prepare() looked (memory_failure() masks interrupts too, so it
	 * cannot come between this look and the push): never onto a list with it. */
	if (unlikely(READ_ONCE(hwpoison_seen)) && free_block_has_hwpoison(page, order)) {
		local_irq_restore(flags);
		free_around_hwpoison(page, order);
		return;
	}
	pcp_push(&pcp->lists[pindex(order, mt)], page);
	pcp->room -= 1 << order;
	if (pcp->room < 0)
		free_pcppages_bulk(z, pcp, pcp->batch);
	local_irq_restore(flags);
}

/* The fast path's free of @page overfilled its zone's lists: give a batch back, then unmask
 * (see pcp_free_order0).  @page is only the way to its zone: it may be in the batch. */
void pcp_free_overflow(struct page *page, unsigned long irqflags)
{
	struct per_cpu_pages *pcp = &page_zone(page)->pcp[0];

	free_pcppages_bulk(pcp->zone, pcp, pcp->batch);
	local_irq_restore(irqflags);
}

/* The fast path's free found no per-CPU lists to use (page poisoning is on): fill the frame, as
 * free_the_page() does, then file it as any other free, and unmask.  Still masked while it
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

	local_irq_save(flags);
	for (int cpu = 0; cpu < CONFIG_NR_CPUS; cpu++) {
		struct page *const *lists = z->pcp[cpu].lists;
		for (unsigned int i = 0; i < nr_lists; i++)
			for (const struct page *p = lists[i]; p; p = p->pcp_next)
				if ((uintptr_t)p - (uintptr_t)page < bytes)
					goto found;
	}
	local_irq_restore(flags);
	return false;
found:
	local_irq_restore(flags);
	return true;
}

/* Everything on every CPU's lists back to the buddy lists (v6.10: drain_all_pages(NULL)). */
void drain_all_pages(struct zone *only)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		unsigned long flags;
		if ((only && z != only) || !z->managed_pages)
			continue;
		local_irq_save(flags);
		free_pcppages_bulk(z, &z->pcp[0], pcp_count(&z->pcp[0]));
		local_irq_restore(flags);
	}
}

static int cmd_drain(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	drain_all_pages(NULL);
	return 0;
}
SHELL_COMMAND(drain, "", "return the per-CPU page lists to the buddy lists", cmd_drain);
