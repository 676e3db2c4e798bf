/*
 * swapfile.c - the swap slots: swap_info[], each area's swap_map and the allocator that hands
 * out its slots, and the counts a slot carries (ptes naming it, SWAP_HAS_CACHE while a folio
 * for it is in the swap cache).  Linux v6.10's mm/swapfile.c, the slot half; mm/swapon.c has
 * the areas' life (swapon, swapoff, /proc/swaps).  docs/swap.md.
 *
 * Invariants (each area, under si->lock): inuse_pages is the number of slots whose map is
 * neither 0 nor SWAP_MAP_BAD; every free slot lies in [lowest_bit, highest_bit] (a full area
 * has lowest_bit == max, highest_bit == 0, as v6.10); slot 0 (the header) and the bad pages
 * are SWAP_MAP_BAD and never given out; a slot is free (map 0) exactly when its count and its
 * cache bit are both gone.  nr_swap_pages is the sum over SWP_WRITEOK areas of their free
 * slots; total_swap_pages the sum of their usable slots.
 *
 * Where tinymm differs from v6.10, and why: a 16-bit map without count continuations, no
 * clusters and no per-CPU slot cache (see include/tinymm/swapfile.h); areas of equal priority
 * are not rotated (the first found is used until full).  A slot freed while its area is not
 * SWP_WRITEOK (swapoff running) does not go back to nr_swap_pages: swapoff took only the free
 * slots out (v6.10 takes out all of si->pages and lets every freed slot add one back, so
 * nr_swap_pages dips below the true number while swapoff runs); here it stays exact.
 * An invalid entry gets v6.10's one line ("swap_free: Bad swap offset entry 00000403") and
 * changes nothing; v6.10's swap_free() names its helper, here the caller is named.
 *
 * Locking: swap_lock (swap_info[], priorities) before si->lock (the map, the counters, the
 * bounds, si->flags' SWP_WRITEOK, which swapoff changes holding both).  Never taken in
 * interrupt context.  The areas' structs are never freed (swapoff only clears SWP_USED and
 * swap_map, under si->lock), so a lookup that raced with swapoff finds a dead area, not freed
 * memory.
 */
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/swapfile.h"
#include "tinymm/vmstat.h"

struct swap_info_struct *swap_info[MAX_SWAPFILES];
DEFINE_SPINLOCK(swap_lock);
atomic_long_t nr_swap_pages;
long total_swap_pages;

static const char Bad_file[] = "Bad swap file entry ";
static const char Bad_offset[] = "Bad swap offset entry ";
static const char Unused_offset[] = "Unused swap offset entry ";
static const char No_cache[] = "No swap cache on entry ";	/* tinymm's: v6.10 BUGs */

void swap_info_init_map(struct swap_info_struct *si, uint16_t *map, unsigned long max,
			const uint32_t *bad, unsigned int nr_bad)
{
	unsigned long nbad = 1;

	for (unsigned long i = 0; i < max; i++)
		map[i] = 0;
	map[0] = SWAP_MAP_BAD;
	for (unsigned int i = 0; i < nr_bad; i++) {
		/* Bad pages past a truncated area are outside it (v6.10: page_nr < maxpages). */
		if (bad[i] && bad[i] < max && map[bad[i]] != SWAP_MAP_BAD) {
			map[bad[i]] = SWAP_MAP_BAD;
			nbad++;
		}
	}
	si->swap_map = map;
	si->max = max;
	si->pages = max > nbad ? max - nbad : 0;
	si->inuse_pages = 0;
	si->lowest_bit = max;
	si->highest_bit = 0;
	for (unsigned long i = 1; i < max; i++) {
		if (!map[i]) {
			if (si->lowest_bit == max)
				si->lowest_bit = i;
			si->highest_bit = i;
		}
	}
	si->cluster_next = si->lowest_bit;
}

/* @offset taken (its map just became non-zero): counters and bounds. */
static void swap_range_alloc_locked(struct swap_info_struct *si, unsigned long offset)
{
	lockdep_assert_held(&si->lock);
	si->inuse_pages++;
	if (offset == si->lowest_bit)
		si->lowest_bit++;
	if (offset == si->highest_bit)
		si->highest_bit--;
	if (si->inuse_pages == si->pages) {
		si->lowest_bit = si->max;
		si->highest_bit = 0;
	}
	if (si->flags & SWP_WRITEOK)
		atomic_long_dec(&nr_swap_pages);
}

/* @offset free again (its map just became 0). */
static void swap_range_free_locked(struct swap_info_struct *si, unsigned long offset)
{
	lockdep_assert_held(&si->lock);
	if (offset < si->lowest_bit)
		si->lowest_bit = offset;
	if (offset > si->highest_bit)
		si->highest_bit = offset;
	si->inuse_pages--;
	if (si->flags & SWP_WRITEOK)
		atomic_long_inc(&nr_swap_pages);
}

unsigned long scan_swap_map_slot(struct swap_info_struct *si)
{
	unsigned long offset = 0;

	spin_lock(&si->lock);
	if (!(si->flags & SWP_WRITEOK) || si->inuse_pages >= si->pages)
		goto out;
	unsigned long lo = si->lowest_bit, hi = si->highest_bit;
	unsigned long start = si->cluster_next;

	if (start < lo || start > hi)
		start = lo;
	/* Next fit: from where the last one was given to the top, then from the bottom. */
	for (unsigned long i = start; i <= hi; i++) {
		if (!si->swap_map[i]) {
			offset = i;
			goto found;
		}
	}
	for (unsigned long i = lo; i < start; i++) {
		if (!si->swap_map[i]) {
			offset = i;
			goto found;
		}
	}
	pr_err("swap: area %u counts %lu of %lu slots in use but has no free one\n", si->type,
	       si->inuse_pages, si->pages);
	goto out;
found:
	si->swap_map[offset] = SWAP_HAS_CACHE;
	swap_range_alloc_locked(si, offset);
	si->cluster_next = offset + 1;
out:
	spin_unlock(&si->lock);
	return offset;
}

swp_entry_t folio_alloc_swap(struct folio *folio)
{
	swp_entry_t entry = { 0 };
	unsigned int tried = 0;

	(void)folio;	/* order 0 only: one slot */
	if (get_nr_swap_pages() <= 0)
		return entry;
	spin_lock(&swap_lock);
	for (;;) {
		struct swap_info_struct *best = NULL;

		for (unsigned int i = 0; i < MAX_SWAPFILES; i++) {
			struct swap_info_struct *si = swap_info[i];

			if (!si || (tried & (1U << i)) ||
			    (si->flags & (SWP_USED | SWP_WRITEOK)) != (SWP_USED | SWP_WRITEOK))
				continue;
			if (!best || si->prio > best->prio)
				best = si;
		}
		if (!best)
			break;
		tried |= 1U << best->type;
		unsigned long offset = scan_swap_map_slot(best);
		if (offset) {
			entry = swp_entry(best->type, offset);
			break;
		}
	}
	spin_unlock(&swap_lock);
	return entry;
}

/* The live area @entry names, locked, or NULL: with v6.10's one line naming @fn unless @fn is
 * NULL (the quiet lookups of __swap_count and swap_map_value). */
static struct swap_info_struct *swap_info_get_locked(swp_entry_t entry, const char *fn)
{
	unsigned long type = swp_type(entry), offset = swp_offset(entry);
	struct swap_info_struct *si;

	if (!entry.val)
		return NULL;	/* v6.10: no entry, no complaint */
	si = type < MAX_SWAPFILES ? swap_info[type] : NULL;
	if (si) {
		spin_lock(&si->lock);
		if ((si->flags & SWP_USED) && si->swap_map) {
			if (offset < si->max)
				return si;
			spin_unlock(&si->lock);
			if (fn)
				pr_err("%s: %s%08lx\n", fn, Bad_offset, entry.val);
			return NULL;
		}
		spin_unlock(&si->lock);
	}
	if (fn)
		pr_err("%s: %s%08lx\n", fn, Bad_file, entry.val);
	return NULL;
}

struct swap_info_struct *swp_swap_info(swp_entry_t entry)
{
	struct swap_info_struct *si = swap_info_get_locked(entry, "get_swap_device");

	if (si)
		spin_unlock(&si->lock);
	return si;
}

/* One of @usage (1: a count, SWAP_HAS_CACHE: the cache bit) dropped from a used slot; the
 * slot freed when nothing is left.  v6.10's __swap_entry_free_locked. */
static void swap_entry_put_locked(struct swap_info_struct *si, unsigned long offset,
				  unsigned int usage)
{
	uint16_t v = si->swap_map[offset];

	lockdep_assert_held(&si->lock);
	if (usage == SWAP_HAS_CACHE)
		v &= ~SWAP_HAS_CACHE;
	else
		v--;
	si->swap_map[offset] = v;
	if (!v)
		swap_range_free_locked(si, offset);
}

void swap_free(swp_entry_t entry)
{
	struct swap_info_struct *si = swap_info_get_locked(entry, __func__);

	if (!si)
		return;
	uint16_t v = si->swap_map[swp_offset(entry)];
	const char *why = NULL;

	if (SWAP_COUNT(v) == SWAP_MAP_BAD)
		why = Bad_offset;
	else if (!SWAP_COUNT(v))
		why = Unused_offset;	/* free, or only the cache holds it */
	else
		swap_entry_put_locked(si, swp_offset(entry), 1);
	spin_unlock(&si->lock);
	if (why)
		pr_err("%s: %s%08lx\n", __func__, why, entry.val);
}

void put_swap_folio(swp_entry_t entry)
{
	struct swap_info_struct *si = swap_info_get_locked(entry, __func__);

	if (!si)
		return;
	uint16_t v = si->swap_map[swp_offset(entry)];
	const char *why = NULL;

	if (SWAP_COUNT(v) == SWAP_MAP_BAD)
		why = Bad_offset;
	else if (!v)
		why = Unused_offset;
	else if (!(v & SWAP_HAS_CACHE))
		why = No_cache;		/* held by ptes, but no folio was in the cache for it */
	else
		swap_entry_put_locked(si, swp_offset(entry), SWAP_HAS_CACHE);
	spin_unlock(&si->lock);
	if (why)
		pr_err("%s: %s%08lx\n", __func__, why, entry.val);
}

int swap_duplicate(swp_entry_t entry)
{
	struct swap_info_struct *si = swap_info_get_locked(entry, __func__);
	int err = 0;

	if (!si)
		return -ENOENT;
	uint16_t *v = &si->swap_map[swp_offset(entry)];
	unsigned int count = SWAP_COUNT(*v);

	if (count == SWAP_MAP_BAD || !*v)
		err = -ENOENT;		/* v6.10: an unused entry */
	else if (count >= SWAP_MAP_MAX)
		err = -ENOMEM;		/* v6.10 would add a continuation page */
	else
		(*v)++;
	spin_unlock(&si->lock);
	return err;
}

int swapcache_prepare(swp_entry_t entry)
{
	struct swap_info_struct *si = swap_info_get_locked(entry, __func__);
	int err = 0;

	if (!si)
		return -ENOENT;
	uint16_t *v = &si->swap_map[swp_offset(entry)];
	unsigned int count = SWAP_COUNT(*v);

	if (count == SWAP_MAP_BAD)
		err = -ENOENT;
	else if (*v & SWAP_HAS_CACHE)
		err = -EEXIST;
	else if (!count)
		err = -ENOENT;
	else
		*v |= SWAP_HAS_CACHE;
	spin_unlock(&si->lock);
	return err;
}

unsigned int __swap_count(swp_entry_t entry)
{
	struct swap_info_struct *si = swap_info_get_locked(entry, NULL);

	if (!si)
		return 0;
	unsigned int count = SWAP_COUNT(si->swap_map[swp_offset(entry)]);

	spin_unlock(&si->lock);
	return count == SWAP_MAP_BAD ? 0 : count;
}

uint16_t swap_map_value(swp_entry_t entry)
{
	struct swap_info_struct *si = swap_info_get_locked(entry, NULL);

	if (!si)
		return 0;
	uint16_t v = si->swap_map[swp_offset(entry)];

	spin_unlock(&si->lock);
	return v;
}

bool vm_swap_full(void)
{
	return atomic_long_read(&nr_swap_pages) * 2 < READ_ONCE(total_swap_pages);
}

