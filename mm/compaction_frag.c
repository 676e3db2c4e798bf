/*
 * compaction_frag.c - a fragmented zone made on purpose, for compaction's tests, its benchmark
 * row and the shell (`fragment`): tinymm's own fixture, no Linux counterpart.
 *
 * fragment_zone(zone, nr_blocks):
 *   - every free block of every zone is taken off the buddy lists and held, so nothing outside
 *     the window below is free (and nothing held is movable: the frames are not on the LRU);
 *   - the window: @nr_blocks wholly free pageblocks of @zone (made MIGRATE_MOVABLE if they
 *     were not: they are on no list), highest first;
 *     in each, every even frame is freed again and every odd one becomes a clean page-cache
 *     folio of a private mapping, filled with a pattern of its index.
 *   - one more pageblock becomes an unmovable reserve: retyped MIGRATE_UNMOVABLE, two of its
 *     quarters free (order pageblock_order - 2, their buddies held), so the kernel's own
 *     unmovable allocations meanwhile need not fall back to the window's blocks.
 * Free memory is then only order-0 frames between LRU folios, and the reserve's two quarters:
 * no block of pageblock_order - 1 or more is free anywhere, and compaction can make one by
 * moving the folios.  fragment_check() finds every
 * folio at its index with its bytes and counts those that moved; fragment_release() gives
 * everything back (the folios dropped from the cache, the held blocks freed).
 *
 * Invariants: a held block is off every list but the fixture's own, its order in ->private;
 * the window's frames are each free or a folio of frag_mapping.  One fixture at a time.
 * Locking: zone->lock while blocks are taken or returned; fragment_* are called from one thread
 * (the shell's, a test's) and sleep.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/compaction.h"
#include "tinymm/errno.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/swap.h"
#include "internal.h"

static struct address_space frag_mapping;
static struct page_list frag_held;	/* blocks taken, order in ->private */
static unsigned long *frag_pfn;		/* each index's frame when made */
static size_t frag_pfn_size;
static unsigned long frag_nr;		/* folios made */
static bool frag_active;
static unsigned long frag_reserve_pfn;	/* the unmovable reserve's pageblock, 0: none */
static int frag_reserve_mt;		/* its type before */

static int frag_read_folio(struct address_space *m, struct folio *folio)
{
	(void)m;
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static const struct address_space_operations frag_aops = { .read_folio = frag_read_folio };

static unsigned long frag_word(unsigned long idx, unsigned long i)
{
	return (idx * 2654435761UL) ^ (i << 7) ^ 0x5a5a5a5aUL;
}

static void frag_take_all_free(void)
{
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct zone *z = &zones[zi];
		unsigned long flags;

		if (!z->managed_pages)
			continue;
		spin_lock_irqsave(&z->lock, flags);
		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				struct page *p;
				while ((p = page_list_first(&z->free_area[o].free_list[mt]))) {
					del_page_from_free_list(p, z, o, mt);
					z->free_pages -= 1UL << o;
					p->private = o;
					page_list_add(&frag_held, p);
				}
			}
		spin_unlock_irqrestore(&z->lock, flags);
	}
}

static void frag_release_held(void)
{
	struct page *p;

	while ((p = page_list_first(&frag_held))) {
		struct zone *z = page_zone(p);
		unsigned long pfn = page_to_pfn(p), flags;
		unsigned int o = (unsigned int)p->private;

		page_list_del(&frag_held, p);
		p->private = 0;
		spin_lock_irqsave(&z->lock, flags);
		__free_one_page(p, pfn, z, o, pageblock_mt(z, pfn), FPI_NONE);
		spin_unlock_irqrestore(&z->lock, flags);
	}
}

/* The window's blocks, moved off the held list (at most @want; their first pfns in @window). */
static unsigned long frag_pick_window(struct zone *zone, unsigned long *window, unsigned long want)
{
	unsigned long got = 0;

	/* The held list has the last-taken, highest orders first. */
	for (struct page *p = page_list_first(&frag_held), *n; p && got < want; p = n) {
		unsigned long pfn = page_to_pfn(p);

		n = page_list_next(p);
		if (p->private != pageblock_order || page_zone(p) != zone ||
		    !zone_spans_pfn(zone, pfn + pageblock_nr_pages - 1))
			continue;
		/* Wholly free and on no list: it may simply become MIGRATE_MOVABLE. */
		if (pageblock_mt(zone, pfn) != MIGRATE_MOVABLE) {
			unsigned long flags;

			spin_lock_irqsave(&zone->lock, flags);
			set_pageblock_migratetype(zone, pfn, MIGRATE_MOVABLE);
			spin_unlock_irqrestore(&zone->lock, flags);
		}
		page_list_del(&frag_held, p);
		p->private = 0;
		window[got++] = pfn;
	}
	return got;
}

int fragment_zone(struct zone *zone, unsigned long nr_blocks)
{
	unsigned long *window, got, flags;
	int err = 0;

	if (frag_active)
		return -EBUSY;
	if (!zone || !zone->managed_pages || !nr_blocks)
		return -EINVAL;
	if (nr_blocks > zone->spanned_pages >> pageblock_order)
		return -ENOSPC;
	page_list_init(&frag_held);
	address_space_init(&frag_mapping, &frag_aops, 0);
	frag_nr = 0;
	frag_pfn_size = nr_blocks * (pageblock_nr_pages / 2) * sizeof(*frag_pfn);
	frag_pfn = alloc_pages_exact(frag_pfn_size, GFP_KERNEL | __GFP_NOWARN);
	window = alloc_pages_exact(nr_blocks * sizeof(*window), GFP_KERNEL | __GFP_NOWARN);
	if (!frag_pfn || !window) {
		err = -ENOMEM;
		goto out;
	}
	lru_add_drain_all();
	drain_all_pages(NULL);
	frag_take_all_free();
	got = frag_pick_window(zone, window, nr_blocks);
	if (got < nr_blocks) {
		for (unsigned long b = 0; b < got; b++) {	/* back whole */
			struct page *p = pfn_to_page(window[b]);
			p->private = pageblock_order;
			page_list_add(&frag_held, p);
		}
		frag_release_held();
		err = -ENOSPC;
		goto out;
	}
	/* The unmovable reserve: one more pageblock, retyped MIGRATE_UNMOVABLE, its first and third
	 * quarters free (the others held, so they do not merge).  Without it every unmovable
	 * allocation (a slab page, a stack) would have to fall back to the window and would take
	 * the largest free block there: the very block compaction just made. */
	if (frag_pick_window(zone, &frag_reserve_pfn, 1)) {
		unsigned int q = pageblock_order - 2;

		spin_lock_irqsave(&zone->lock, flags);
		frag_reserve_mt = pageblock_mt(zone, frag_reserve_pfn);
		move_freepages_block(zone, frag_reserve_pfn, frag_reserve_mt, MIGRATE_UNMOVABLE);
		for (unsigned long k = 0; k < 4; k++) {
			unsigned long pfn = frag_reserve_pfn + (k << q);
			struct page *p = pfn_to_page(pfn);

			if (k & 1) {
				p->private = q;
				page_list_add(&frag_held, p);
			} else {
				__free_one_page(p, pfn, zone, q, MIGRATE_UNMOVABLE, FPI_NONE);
			}
		}
		spin_unlock_irqrestore(&zone->lock, flags);
	} else {
		frag_reserve_pfn = 0;
	}
	/* Even frames free again; their odd buddies stay in use, so nothing merges.  (The window
	 * is an array: a freed frame's lru words belong to the free lists.) */
	for (unsigned long b = 0; b < got; b++) {
		struct page *p = pfn_to_page(window[b]);

		spin_lock_irqsave(&zone->lock, flags);
		for (unsigned long i = 0; i < pageblock_nr_pages; i += 2)
			__free_one_page(&p[i], window[b] + i, zone, 0, MIGRATE_MOVABLE, FPI_NONE);
		spin_unlock_irqrestore(&zone->lock, flags);
	}
	/* Odd frames: clean page-cache folios, numbered in pfn order within each block. */
	for (unsigned long b = 0; b < got; b++) {
		struct page *head = pfn_to_page(window[b]);

		for (unsigned long i = 1; i < pageblock_nr_pages; i += 2) {
			struct page *page = head + i;
			struct folio *folio = (struct folio *)page;
			unsigned long *w = page_address(page);

			atomic_set(&page->_refcount, 1);
			set_page_pcp_mt(page, MIGRATE_MOVABLE);
			for (unsigned long k = 0; k < PAGE_SIZE / sizeof(*w); k++)
				w[k] = frag_word(frag_nr, k);
			if (filemap_add_folio(&frag_mapping, folio, frag_nr, GFP_KERNEL)) {
				__free_page(page);
				err = -ENOMEM;
				continue;
			}
			folio_mark_uptodate(folio);
			folio_unlock(folio);
			folio_put(folio);		/* the cache's reference remains */
			frag_pfn[frag_nr++] = page_to_pfn(page);
		}
	}
	lru_add_drain_all();
	drain_all_pages(NULL);
	frag_active = true;
out:
	if (window)
		free_pages_exact(window, nr_blocks * sizeof(*window));
	if (!frag_active && frag_pfn) {
		free_pages_exact(frag_pfn, frag_pfn_size);
		frag_pfn = NULL;
	}
	if (err && frag_active)
		fragment_release();
	return err;
}

unsigned long fragment_nr_folios(void)
{
	return frag_active ? frag_nr : 0;
}

struct folio *fragment_folio(unsigned long idx, unsigned long *pfn_made)
{
	struct folio *folio;

	if (!frag_active || idx >= frag_nr)
		return NULL;
	if (pfn_made)
		*pfn_made = frag_pfn[idx];
	folio = filemap_get_folio(&frag_mapping, idx);
	return IS_ERR_OR_NULL(folio) ? NULL : folio;
}

bool fragment_folio_is_ours(const struct folio *folio)
{
	return folio->mapping == &frag_mapping;
}

/* Each folio at its index with its bytes: returns the number wrong or missing; *@moved those
 * not on the frame they were made on. */
unsigned long fragment_check(unsigned long *moved)
{
	unsigned long bad = 0, mv = 0;

	for (unsigned long idx = 0; idx < fragment_nr_folios(); idx++) {
		unsigned long pfn;
		struct folio *folio = fragment_folio(idx, &pfn);
		const unsigned long *w;

		if (!folio) {
			bad++;
			continue;
		}
		w = page_address(&folio->page);
		for (unsigned long k = 0; k < PAGE_SIZE / sizeof(*w); k++)
			if (w[k] != frag_word(idx, k)) {
				bad++;
				break;
			}
		mv += page_to_pfn(&folio->page) != pfn;
		folio_put(folio);
	}
	if (moved)
		*moved = mv;
	return bad;
}

/* Everything back: the folios out of the cache (a folio someone still holds stays until its
 * last put), the held blocks to the buddy lists.  Returns the folios left in the cache. */
unsigned long fragment_release(void)
{
	unsigned long left;

	if (!frag_active)
		return 0;
	lru_add_drain_all();
	invalidate_mapping_pages(&frag_mapping, 0, ~0UL);
	left = frag_mapping.nrpages;
	frag_release_held();
	if (frag_reserve_pfn) {		/* the reserve's pageblock gets its type back */
		struct zone *z = page_zone(pfn_to_page(frag_reserve_pfn));
		unsigned long flags;

		/* From the type it has now: a reclaimable fallback may have claimed it meanwhile. */
		spin_lock_irqsave(&z->lock, flags);
		int mt = pageblock_mt(z, frag_reserve_pfn);
		if (mt != frag_reserve_mt)
			move_freepages_block(z, frag_reserve_pfn, mt, frag_reserve_mt);
		spin_unlock_irqrestore(&z->lock, flags);
		frag_reserve_pfn = 0;
	}
	free_pages_exact(frag_pfn, frag_pfn_size);
	frag_pfn = NULL;
	frag_active = false;
	drain_all_pages(NULL);
	return left;
}

/* `fragment <MiB>|check|release`: the fixture in the highest populated zone (the shell's way to make
 * `compact` and `extfrag` show something). */
static int cmd_fragment(int argc, char **argv)
{
	unsigned long long mib;
	int err;

	if (argc != 2)
		return shell_usage_error(argv[0], "usage: fragment <MiB>|check|release");
	if (!strcmp(argv[1], "release")) {
		unsigned long left = fragment_release();
		kprintf("fragment: released%s\n", left ? " (some folios still held)" : "");
		return 0;
	}
	if (!strcmp(argv[1], "check")) {
		unsigned long moved = 0, wrong;

		if (!frag_active) {
			kprintf("fragment: nothing to check (no fixture)\n");
			return 1;
		}
		wrong = fragment_check(&moved);
		kprintf("fragment: %lu folios, %lu moved, %lu wrong or missing\n", frag_nr, moved, wrong);
		return wrong ? 1 : 0;
	}
	if (kstrtoull(argv[1], &mib) || !mib || mib > (1ULL << 20)) {
		kprintf("fragment: '%s' is not a size in MiB\n", argv[1]);
		return 2;
	}
	unsigned long blocks = (unsigned long)((mib << (20 - PAGE_SHIFT)) + pageblock_nr_pages - 1) >>
			       pageblock_order;
	err = fragment_zone(preferred_zone, blocks);
	if (err) {
		kprintf("fragment: %s\n", err == -EBUSY ? "already fragmented (fragment release first)" :
			err == -ENOSPC ? "not enough wholly free movable pageblocks" :
			"out of memory");
		return 1;
	}
	kprintf("fragment: %lu pageblocks, %lu folios between %lu free frames\n", blocks, frag_nr,
		blocks * pageblock_nr_pages - frag_nr);
	return 0;
}
SHELL_COMMAND(fragment, "<MiB>|check|release",
	      "take all free memory; in <MiB> of free movable pageblocks keep every other frame as a page-cache folio (compaction's fixture)",
	      cmd_fragment);
