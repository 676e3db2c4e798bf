/*
 * buddy_check.c - the allocator's invariant checker (the list in mm/page_alloc.c's header),
 * run by the `buddycheck` command, by the KTAP suite after each step, and by the fuzzer.
 * It walks every zone's free lists and every frame, so it is O(frames): a debugging tool.
 * Locking: takes each zone's lock while it checks that zone's buddy lists, then each CPU's
 * pcp->lock while it checks that CPU's lists of it (mm/pcp.c's order: never inside zone->lock).
 */
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "internal.h"

#define FAIL(...) do { errors++; if (pr) pr(__VA_ARGS__); } while (0)

static int check_zone(struct zone *z, int (*pr)(const char *fmt, ...))
{
	int errors = 0;
	unsigned long free = 0;

	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		unsigned long n = 0;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			const struct page_list *l = &z->free_area[o].free_list[mt];
			uint32_t prev = PAGE_LINK_NONE;
			for (uint32_t link = l->first; link != PAGE_LINK_NONE;) {
				struct page *page = link_to_page(link);
				unsigned long pfn = page_to_pfn(page);
				if (page->lru.prev != prev)
					FAIL("buddycheck: %s order %u: broken back link at pfn %#lx\n", z->name, o, pfn);
				if (!PageBuddy(page) || buddy_order(page) != o)
					FAIL("buddycheck: %s order %u: pfn %#lx on the list but not a free block of that order\n",
					     z->name, o, pfn);
				if (pfn & ((1UL << o) - 1))
					FAIL("buddycheck: %s: block pfn %#lx not aligned to order %u\n", z->name, pfn, o);
				if (!zone_spans_pfn(z, pfn) || !zone_spans_pfn(z, pfn + (1UL << o) - 1) ||
				    page_zone(page) != z)
					FAIL("buddycheck: %s: block pfn %#lx order %u outside its zone\n", z->name, pfn, o);
				if (get_pageblock_migratetype(z, pfn) != mt)
					FAIL("buddycheck: %s: block pfn %#lx on list %d of a type-%d pageblock\n",
					     z->name, pfn, mt, get_pageblock_migratetype(z, pfn));
				if (atomic_read(&page->_refcount) || (page->flags & PAGEFLAGS_MASK & ~(1UL << PG_reported)))
					FAIL("buddycheck: free block pfn %#lx has refcount %d or flags %#lx\n", pfn,
					     atomic_read(&page->_refcount), page->flags & PAGEFLAGS_MASK);
				for (unsigned long i = 1; i < (1UL << o); i++) {
					const struct page *p = page + i;
					if (!pfn_valid(pfn + i) || p != pfn_to_page(pfn + i)) {
						FAIL("buddycheck: block pfn %#lx order %u runs into a hole\n", pfn, o);
						break;
					}
					if (PageBuddy(p) || atomic_read(&p->_refcount) || (p->flags & PAGEFLAGS_MASK) ||
					    PageTail(p))
						FAIL("buddycheck: free block pfn %#lx order %u: frame %#lx not clean\n",
						     pfn, o, pfn + i);
				}
				if (o < MAX_PAGE_ORDER) {	/* maximal merging: the buddy must not be free */
					unsigned long b = pfn ^ (1UL << o);
					struct page *bp = zone_spans_pfn(z, b) ? pfn_to_page(b) : NULL;
					if (bp && PageBuddy(bp) && buddy_order(bp) == o && page_zone(bp) == z)
						FAIL("buddycheck: %s: free buddies pfn %#lx and %#lx of order %u not merged\n",
						     z->name, pfn, b, o);
				}
				n++;
				free += 1UL << o;
				prev = link;
				link = page->lru.next;
				if (n > z->spanned_pages) {
					FAIL("buddycheck: %s order %u: list loops\n", z->name, o);
					break;
				}
			}
			if (l->last != prev)
				FAIL("buddycheck: %s order %u type %d: tail link wrong\n", z->name, o, mt);
		}
		if (n != z->free_area[o].nr_free)
			FAIL("buddycheck: %s order %u: nr_free %lu but %lu blocks on the lists\n", z->name, o,
			     z->free_area[o].nr_free, n);
	}
	if (free != z->free_pages)
		FAIL("buddycheck: %s: free_pages %lu but %lu free frames on the lists\n", z->name,
		     z->free_pages, free);
	/* Every PageBuddy frame in the zone heads a listed block (no lost blocks, no overlap). */
	unsigned long heads = 0;
	for (unsigned long pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn++) {
		struct page *page = pfn_to_page(pfn);
		if (page && PageBuddy(page)) {
			heads += 1UL << buddy_order(page);
			pfn += (1UL << buddy_order(page)) - 1;
		}
	}
	if (heads != free)
		FAIL("buddycheck: %s: %lu frames in PageBuddy blocks, %lu on the lists\n", z->name, heads, free);
	if (z->free_pages > z->managed_pages)
		FAIL("buddycheck: %s: more free (%lu) than managed (%lu)\n", z->name, z->free_pages,
		     z->managed_pages);
	return errors;
}

/* One CPU's lists of @z (its pcp->lock held): small clean blocks of the order their list says,
 * and the right count. */
static int check_pcp(struct zone *z, const struct per_cpu_pages *pcp,
		     int (*pr)(const char *fmt, ...))
{
	int errors = 0;
	long frames = 0;

	for (int i = 0; i < NR_PCP_LISTS; i++) {
		unsigned int o = (unsigned int)i / PCP_SLOTS;
		unsigned long n = 0;
		if (i % PCP_SLOTS >= MIGRATE_PCPTYPES && !pcp_list_empty(pcp, &pcp->lists[i]))
			FAIL("buddycheck: %s pcp list %d is for no migratetype but holds pfn %#lx\n",
			     z->name, i, page_to_pfn(pcp->lists[i]));
		const struct page *page;
		for_each_pcp_block(page, pcp, &pcp->lists[i]) {
			unsigned long pfn = page_to_pfn(page);
			if (PageBuddy(page) || atomic_read(&page->_refcount) ||
			    (pfn & ((1UL << o) - 1)) || page_zone(page) != z || (page->flags & PAGEFLAGS_MASK))
				FAIL("buddycheck: %s pcp list %d: pfn %#lx is not a clean order-%u block\n",
				     z->name, i, pfn, o);
			frames += 1L << o;
			if (!page->pcp_next) {	/* the last block links to its pcp */
				FAIL("buddycheck: %s pcp list %d: pfn %#lx ends the list with NULL\n",
				     z->name, i, pfn);
				break;
			}
			if (++n > z->spanned_pages) {
				FAIL("buddycheck: %s pcp list %d loops\n", z->name, i);
				break;
			}
		}
	}
	if (frames != pcp_count(pcp))
		FAIL("buddycheck: %s pcp count %d but %ld frames on its lists\n", z->name, pcp_count(pcp), frames);
	return errors;
}

int buddy_check(int (*pr)(const char *fmt, ...))
{
	int errors = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &zones[i];
		unsigned long flags;
		if (!z->spanned_pages)
			continue;
		spin_lock_irqsave(&z->lock, flags);
		errors += check_zone(z, pr);
		spin_unlock_irqrestore(&z->lock, flags);
		/* Each CPU's lists under their own lock (taken before zone->lock, never inside). */
		for (int cpu = 0; cpu < NR_CPUS; cpu++) {
			struct per_cpu_pages *pcp = &z->pcp[cpu];
			pcp_spin_lock_irqsave(pcp, flags);
			errors += check_pcp(z, pcp, pr);
			pcp_spin_unlock_irqrestore(pcp, flags);
		}
	}
	return errors;
}

static int cmd_buddycheck(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	int errors = buddy_check(kprintf);
	kprintf("buddycheck: %s (%d problem%s)\n", errors ? "FAILED" : "ok", errors, errors == 1 ? "" : "s");
	return errors ? 1 : 0;
}
SHELL_COMMAND(buddycheck, "", "verify every buddy allocator invariant", cmd_buddycheck);
