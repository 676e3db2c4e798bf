/*
 * readahead.c - on-demand readahead, as v6.10's mm/readahead.c, for order-0 folios.
 *
 * A sequential reader gets a window of pages read before it asks: the first miss opens a window
 * sized from the request (get_init_ra_size: x4 for small requests, x2 for medium, the maximum
 * for large), the folio async_size pages before the window's end carries PG_readahead, and
 * hitting it opens the next window, ramped up (get_next_ra_size: x4 while small, x2, then the
 * maximum, ra_pages: 128 KiB by default, tinymm.ra_kb=).  A miss that does not follow the last
 * read (prev_pos) and has no cached history before it is a random read: exactly what was asked
 * is read, and the window is left alone.
 * Where tinymm differs from v6.10, and why: no large folios in the page cache
 * (page_cache_ra_order always reads order 0), no bdi io_pages, no FMODE_RANDOM, no cgroup
 * congestion: tinymm has none of them.
 * Invariants: ra->start <= the marked folio's index < ra->start + ra->size; async_size <= size;
 *   size <= ra_pages except for an oversized read, which is capped by the request itself.
 * Locking: the file_ra_state belongs to its reader (one per block device here, used by the
 *   shell thread); the folios are added to the cache locked and unlocked by I/O completion.
 */
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/gfp.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"

unsigned int default_ra_pages = VM_READAHEAD_PAGES;
unsigned long nr_readahead_pages, nr_readahead_windows;

/* A setter of its own: the option is in KiB, the variable in pages. */
static int set_ra_kb(const char *val)
{
	unsigned long long kb;

	if (kstrtoull(val, &kb) || kb > 64 * 1024)
		return -1;
	default_ra_pages = (unsigned int)(kb * 1024 / PAGE_SIZE);
	return 0;
}
KPARAM(ra_kb, set_ra_kb, "readahead window maximum in KiB (default 128, 0 turns it off)");

void file_ra_state_init(struct file_ra_state *ra, unsigned int ra_pages)
{
	ra->start = 0;
	ra->size = 0;
	ra->async_size = 0;
	ra->ra_pages = ra_pages;
	ra->mmap_miss = 0;
	ra->prev_pos = -1;
}

static unsigned long roundup_pow_of_two(unsigned long n)
{
	unsigned long p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* The first window: four times a small request, twice a medium one, else the maximum. */
static unsigned long get_init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long newsize = roundup_pow_of_two(size);

	if (newsize <= max / 32)
		newsize = newsize * 4;
	else if (newsize <= max / 4)
		newsize = newsize * 2;
	else
		newsize = max;
	return newsize;
}

/* The next window: ramp up 4x while small, 2x while below half, then stay at the maximum. */
static unsigned long get_next_ra_size(struct file_ra_state *ra, unsigned long max)
{
	unsigned long cur = ra->size;

	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

struct folio *readahead_folio(struct readahead_control *rac)
{
	unsigned long flags;
	struct folio *folio;

	if (rac->_batch_count >= rac->_nr_pages)
		return NULL;
	spin_lock_irqsave(&rac->mapping->i_pages.xa_lock, flags);
	folio = xa_load(&rac->mapping->i_pages, rac->_index + rac->_batch_count);
	spin_unlock_irqrestore(&rac->mapping->i_pages.xa_lock, flags);
	rac->_batch_count++;
	folio_put(folio);	/* the batch's reference: the cache's keeps it alive */
	return folio;
}

/* Hand the batch to the mapping's readahead, then start a new (empty) batch after it. */
static void read_pages(struct readahead_control *rac)
{
	if (!rac->_nr_pages)
		return;
	nr_readahead_pages += rac->_nr_pages;
	rac->_batch_count = 0;
	rac->mapping->a_ops->readahead(rac);
	/* Folios the filesystem did not take: out of the cache, unlocked (read_pages). */
	struct folio *folio;
	while ((folio = readahead_folio(rac))) {
		folio_get(folio);
		filemap_remove_folio(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	rac->_index += rac->_nr_pages;
	rac->_nr_pages = 0;
	rac->_batch_count = 0;
}

/* New locked folios for the pages not cached, batched into
 * runs of consecutive pages; the one @lookahead_size before the end gets PG_readahead. */
static void page_cache_ra_unbounded(struct readahead_control *rac, unsigned long nr_to_read,
				    unsigned long lookahead_size)
{
	struct address_space *mapping = rac->mapping;
	pgoff_t index = readahead_index(rac);
	unsigned long mark = nr_to_read - lookahead_size;

	for (unsigned long i = 0; i < nr_to_read; i++) {
		struct folio *folio = filemap_get_folio(mapping, index + i);
		if (!IS_ERR(folio)) {
			/* Already cached: send the batch so far, the next batch starts after it. */
			folio_put(folio);
			read_pages(rac);
			rac->_index++;
			i = rac->_index + rac->_nr_pages - index - 1;
			continue;
		}
		/* readahead_gfp_mask(): readahead is speculative, so one round of reclaim
		 * at most and no warning; a failure just ends the window. */
		folio = folio_alloc(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 0);
		if (!folio)
			break;
		int ret = filemap_add_folio(mapping, folio, index + i,
					    GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
		if (ret < 0) {
			folio_put(folio);
			/* Out of memory for the cache's nodes: the window ends here, what was
			 * added is still read (below).  Otherwise (-EEXIST: someone added that
			 * page meanwhile) only this page is skipped, as for a cached one. */
			if (ret == -ENOMEM)
				break;
			read_pages(rac);
			rac->_index++;
			i = rac->_index + rac->_nr_pages - index - 1;
			continue;
		}
		if (i == mark)
			folio_set_readahead(folio);
		rac->_nr_pages++;	/* the allocation's reference now belongs to the batch */
	}
	read_pages(rac);
}

/* Never past the page holding the last byte of the mapping. */
static void do_page_cache_ra(struct readahead_control *rac, unsigned long nr_to_read,
			     unsigned long lookahead_size)
{
	loff_t isize = rac->mapping->size;
	pgoff_t index = readahead_index(rac), end_index;

	if (isize <= 0)
		return;
	end_index = (pgoff_t)((isize - 1) >> PAGE_SHIFT);
	if (index > end_index)
		return;
	if (nr_to_read > end_index - index)
		nr_to_read = end_index - index + 1;
	page_cache_ra_unbounded(rac, nr_to_read, lookahead_size);
}

/* A folio (not a shadow value entry) is at @index. */
static bool page_cached(struct address_space *mapping, pgoff_t index)
{
	unsigned long flags;

	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	void *entry = xa_load(&mapping->i_pages, index);
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	return entry && !xa_is_value(entry);
}

/* The first page at or before @index that is not cached, looking back at most @max pages
 * (index - max when all of them are cached); ~0UL if the walk passed page 0, as Linux's. */
static pgoff_t page_cache_prev_miss(struct address_space *mapping, pgoff_t index, unsigned long max)
{
	while (max--) {
		if (!page_cached(mapping, index))
			break;
		if (index == 0)
			return ~0UL;
		index--;
	}
	return index;
}

/* The first page after @index that is not cached, at most @max pages on (0 if it wraps). */
static pgoff_t page_cache_next_miss(struct address_space *mapping, pgoff_t index, unsigned long max)
{
	while (max--) {
		if (!page_cached(mapping, index))
			break;
		if (index == ~0UL)
			return 0;
		index++;
	}
	return index;
}

/* Cached history behind @index: a sequential reader leaves a run of cached pages. */
static bool try_context_readahead(struct address_space *mapping, struct file_ra_state *ra,
				  pgoff_t index, unsigned long req_size, unsigned long max)
{
	pgoff_t size = index - 1 - page_cache_prev_miss(mapping, index - 1, max);

	if (size <= req_size)
		return false;		/* not enough history: a random read */
	if (size >= index)
		size *= 2;		/* cached from the start: a long stream */
	ra->start = index;
	ra->size = (unsigned int)min(size + req_size, max);
	ra->async_size = 1;
	return true;
}

static void ondemand_readahead(struct readahead_control *rac, struct folio *folio,
			       unsigned long req_size)
{
	struct file_ra_state *ra = rac->ra;
	unsigned long max_pages = ra->ra_pages, add_pages;
	pgoff_t index = readahead_index(rac), expected, prev_index;

	if (!index)
		goto initial_readahead;		/* start of the file */

	/* The expected index (the marker, or the window's end): sequential, ramp up. */
	expected = ra->start + ra->size - ra->async_size;
	if (index == expected || index == ra->start + ra->size) {
		ra->start += ra->size;
		ra->size = (unsigned int)get_next_ra_size(ra, max_pages);
		ra->async_size = ra->size;
		goto readit;
	}

	/* A marked folio without matching state (interleaved readers): size from the cache. */
	if (folio) {
		pgoff_t start = page_cache_next_miss(rac->mapping, index + 1, max_pages);
		if (!start || start - index > max_pages)
			return;
		ra->start = start;
		ra->size = (unsigned int)(start - index);	/* the old async_size */
		ra->size += (unsigned int)req_size;
		ra->size = (unsigned int)get_next_ra_size(ra, max_pages);
		ra->async_size = ra->size;
		goto readit;
	}

	if (req_size > max_pages)
		goto initial_readahead;		/* oversized read */

	/* A sequential miss: right after the last read (or within its last page). */
	prev_index = (pgoff_t)((unsigned long long)ra->prev_pos >> PAGE_SHIFT);
	if (index - prev_index <= 1UL)
		goto initial_readahead;

	if (try_context_readahead(rac->mapping, ra, index, req_size, max_pages))
		goto readit;

	/* A small random read: read what was asked, leave the window alone. */
	do_page_cache_ra(rac, req_size, 0);
	return;

initial_readahead:
	ra->start = index;
	ra->size = (unsigned int)get_init_ra_size(req_size, max_pages);
	ra->async_size = ra->size > req_size ? ra->size - (unsigned int)req_size : ra->size;

readit:
	/* Would this read hit its own marker at once?  Then open the next window now, merged. */
	if (index == ra->start && ra->size == ra->async_size) {
		add_pages = get_next_ra_size(ra, max_pages);
		if (ra->size + add_pages <= max_pages) {
			ra->async_size = (unsigned int)add_pages;
			ra->size += (unsigned int)add_pages;
		} else {
			ra->size = (unsigned int)max_pages;
			ra->async_size = (unsigned int)(max_pages >> 1);
		}
	}
	nr_readahead_windows++;
	rac->_index = ra->start;
	do_page_cache_ra(rac, ra->size, ra->async_size);
}

void page_cache_sync_readahead(struct address_space *mapping, struct file_ra_state *ra, pgoff_t index,
			       unsigned long req_count)
{
	struct readahead_control rac = { .mapping = mapping, .ra = ra, ._index = index };

	if (!ra->ra_pages) {
		/* Readahead off: just the page (force_page_cache_ra of 1 page). */
		do_page_cache_ra(&rac, 1, 0);
		return;
	}
	ondemand_readahead(&rac, NULL, req_count);
}

void page_cache_async_readahead(struct address_space *mapping, struct file_ra_state *ra,
				struct folio *folio, unsigned long req_count)
{
	struct readahead_control rac = { .mapping = mapping, .ra = ra, ._index = folio->index };

	if (!ra->ra_pages)
		return;
	if (folio_test_writeback(folio))
		return;
	folio_clear_readahead(folio);
	ondemand_readahead(&rac, folio, req_count);
}
