/*
 * pagecache.c - the page cache proper: a mapping's folios indexed by page offset in its XArray,
 * lookup, insertion and removal (leaving workingset shadows), the read path with readahead.
 * Truncation and invalidation are mm/truncate.c's.  Linux keeps all of this in mm/filemap.c
 * with the folio lock; tinymm keeps the lock and bit waits in mm/filemap.c and
 * the cache here, so each file holds one idea.
 *
 * Invariants (see include/tinymm/pagemap.h for the API):
 *   - a folio in mapping->i_pages has folio->mapping == mapping and folio->index == its index,
 *     holds one reference for the cache, and is counted in mapping->nrpages and NR_FILE_PAGES;
 *   - a folio enters the cache locked and not uptodate; its reader sets PG_uptodate (or records
 *     the error) and unlocks it; PG_uptodate is never cleared while it is cached;
 *   - a folio leaves the cache only locked, with mapping set to NULL under the index lock, so a
 *     lookup that raced with removal sees mapping != the mapping and retries.
 * Locking: mapping->i_pages.xa_lock (spin_lock_irqsave: I/O completions run in interrupts)
 *   around every change of the index and nrpages; lookups run with interrupts masked only (the
 *   one-CPU stand-in for Linux's RCU walk, see filemap_get_entry); PG_locked around reading a
 *   folio; lock order: folio lock, then xa_lock.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "tinymm/workingset.h"

void address_space_init(struct address_space *mapping, const struct address_space_operations *a_ops,
			loff_t size)
{
	memset(mapping, 0, sizeof(*mapping));
	xa_init(&mapping->i_pages);
	xa_set_update(&mapping->i_pages, workingset_update_node);	/* v6.10's mapping_set_update */
	INIT_LIST_HEAD(&mapping->i_io_list);
	mapping->a_ops = a_ops;
	mapping->size = size;
}

/* v6.10's: the errseq_t for every fsync/sync caller (each told once), and the legacy flags
 * for filemap_check_errors() (the first caller is told, then they are cleared). */
void mapping_set_error(struct address_space *mapping, int error)
{
	if (!error)
		return;
	errseq_set(&mapping->wb_err, error);
	set_bit(error == -ENOSPC ? AS_ENOSPC : AS_EIO, &mapping->flags);
}

unsigned long nr_pagecache_pages(void)
{
	return global_node_page_state(NR_FILE_PAGES);
}

int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index, gfp_t gfp)
{
	unsigned long flags;
	void *old, *shadow = NULL;

	__folio_set_locked(folio);
	folio->mapping = mapping;
	folio->index = index;
	folio_get(folio);			/* the cache's reference */
	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	old = xa_load(&mapping->i_pages, index);
	if (old && !xa_is_value(old)) {
		old = xa_mk_err(-EEXIST);
	} else {
		/* Under a spinlock: the node allocation must not sleep (Linux preallocates with
		 * xas_nomem() outside the lock; tinymm's allocator never sleeps, but says so). */
		old = xa_store(&mapping->i_pages, index, folio, (gfp & ~GFP_KERNEL) | GFP_ATOMIC);
		if (!xa_is_err(old)) {
			shadow = old;		/* a workingset shadow entry, or NULL */
			mapping->nrpages++;
			mod_node_page_state(NR_FILE_PAGES, 1);
		}
	}
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	if (xa_is_err(old)) {
		folio->mapping = NULL;
		__folio_clear_locked(folio);
		folio_put(folio);
		return xa_err(old);
	}
	/* Evicted not long ago?  The shadow decides whether it starts active (a folio being
	 * written, __GFP_WRITE, is not a refault: its old contents are not wanted back). */
	if (shadow && !(gfp & __GFP_WRITE))
		workingset_refault(folio, shadow);
	folio_add_lru(folio);		/* v6.10: via this CPU's lru_add batch (mm/swap.c) */
	return 0;
}

/* v6.10's page_cache_delete() + filemap_unaccount_folio(); xa_lock held, folio locked.  The
 * slot's marks go and @shadow (a value entry, or NULL) takes its place. */
void __filemap_remove_folio(struct folio *folio, void *shadow)
{
	struct address_space *mapping = folio->mapping;

	lockdep_assert_held(&mapping->i_pages.xa_lock);
	VM_BUG_ON_PAGE(!folio_test_locked(folio), &folio->page);
	for (xa_mark_t m = XA_MARK_0; m <= XA_MARK_MAX; m++)
		xa_clear_mark(&mapping->i_pages, folio->index, m);
	if (shadow)
		xa_store(&mapping->i_pages, folio->index, shadow, GFP_ATOMIC);	/* same slot: no node */
	else
		xa_erase(&mapping->i_pages, folio->index);
	folio->mapping = NULL;
	mapping->nrpages--;
	mod_node_page_state(NR_FILE_PAGES, -1);
	/* A dirty folio leaving the cache (truncation) takes its NR_FILE_DIRTY with it; PG_dirty
	 * stays for the caller to see. */
	if (folio_test_dirty(folio))
		mod_node_page_state(NR_FILE_DIRTY, -1);
}

void filemap_remove_folio(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;
	unsigned long flags;

	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	__filemap_remove_folio(folio, NULL);
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	folio_put(folio);			/* the cache's reference; the caller still holds one */
}

/*
 * A referenced folio at @index, or NULL.  Value entries (workingset shadows) are misses.
 * Linux looks up under rcu_read_lock() with folio_try_get() and a re-check, never taking the
 * index lock.  tinymm's equivalent on its one CPU: interrupts masked, so no writer (they hold
 * xa_lock with interrupts masked) and no I/O completion can run in the middle of the walk; the
 * reference is taken before anything could remove the folio.  SMP would need the real thing.
 */
static inline struct folio *filemap_get_entry(struct address_space *mapping, pgoff_t index)
{
	unsigned long flags;
	struct folio *folio;

	local_irq_save(flags);
	folio = xa_load(&mapping->i_pages, index);
	if (folio && xa_is_value(folio))
		folio = NULL;
	if (folio)
		folio_get(folio);
	local_irq_restore(flags);
	return folio;
}

/* The hit path: no stack frame beyond xa_load's, no flag tests (bench: pagecache-hit). */
__fastpath struct folio *filemap_get_folio(struct address_space *mapping, pgoff_t index)
{
	struct folio *folio = filemap_get_entry(mapping, index);

	return folio ? folio : ERR_PTR(-ENOENT);
}

struct folio *__filemap_get_folio(struct address_space *mapping, pgoff_t index, unsigned int fgp_flags,
				  gfp_t gfp)
{
	struct folio *folio;

repeat:
	folio = filemap_get_entry(mapping, index);
	if (folio && (fgp_flags & FGP_LOCK)) {
		folio_lock(folio);
		if (unlikely(folio->mapping != mapping)) {	/* removed while we slept */
			folio_unlock(folio);
			folio_put(folio);
			goto repeat;
		}
	}
	if (folio)
		return folio;
	if (!(fgp_flags & FGP_CREAT))
		return ERR_PTR(-ENOENT);
	if (fgp_flags & FGP_WRITE)
		gfp |= __GFP_WRITE;
	folio = folio_alloc(gfp, 0);
	if (!folio)
		return ERR_PTR(-ENOMEM);
	int err = filemap_add_folio(mapping, folio, index, gfp);
	if (err) {
		folio_put(folio);
		if (err == -EEXIST)
			goto repeat;
		return ERR_PTR(err);
	}
	if (!(fgp_flags & FGP_LOCK))
		folio_unlock(folio);
	return folio;
}

/* Start reading a locked folio and wait for it; 0 if it came back uptodate, else -EIO.  An
 * error quarters the reader's readahead window (v6.10's shrink_readahead_size_eio()). */
static int filemap_read_folio(struct address_space *mapping, struct file_ra_state *ra,
			      struct folio *folio)
{
	int err = mapping->a_ops->read_folio(mapping, folio);	/* unlocks when done */

	if (!err) {
		folio_wait_locked(folio);
		err = folio_test_uptodate(folio) ? 0 : -EIO;
	}
	if (err && ra)
		ra->ra_pages /= 4;
	return err;
}

#define AOP_TRUNCATED_PAGE	0x80001

/* A folio found not uptodate: lock it, re-check, read it if still needed. */
static int filemap_update_page(struct address_space *mapping, struct file_ra_state *ra,
			       struct folio *folio)
{
	folio_lock(folio);
	if (!folio->mapping) {			/* removed while we waited */
		folio_unlock(folio);
		return AOP_TRUNCATED_PAGE;
	}
	if (folio_test_uptodate(folio)) {
		folio_unlock(folio);
		return 0;
	}
	return filemap_read_folio(mapping, ra, folio);
}

/* A new folio at @index, read synchronously (the readahead could not make one). */
static int filemap_create_folio(struct address_space *mapping, struct file_ra_state *ra,
				pgoff_t index, struct folio **out)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	int err;

	if (!folio)
		return -ENOMEM;
	err = filemap_add_folio(mapping, folio, index, GFP_KERNEL);
	if (err) {
		folio_put(folio);
		return err;		/* -EEXIST: someone else made it, go and find it */
	}
	err = filemap_read_folio(mapping, ra, folio);
	if (err) {
		folio_put(folio);
		return err;
	}
	*out = folio;
	return 0;
}

/* v6.10's filemap_get_pages() for one folio: the uptodate folio at @index, referenced. */
static int filemap_get_page(struct address_space *mapping, struct file_ra_state *ra, pgoff_t index,
			    pgoff_t last_index, struct folio **out)
{
	struct folio *folio;
	int err;

retry:
	folio = filemap_get_entry(mapping, index);
	if (!folio) {
		page_cache_sync_readahead(mapping, ra, index, last_index - index);
		folio = filemap_get_entry(mapping, index);
	}
	if (!folio) {
		err = filemap_create_folio(mapping, ra, index, &folio);
		if (err == -EEXIST)
			goto retry;
		if (err)
			return err;
	}
	if (folio_test_readahead(folio))
		page_cache_async_readahead(mapping, ra, folio, last_index - index);
	if (!folio_test_uptodate(folio)) {
		err = filemap_update_page(mapping, ra, folio);
		if (err) {
			folio_put(folio);
			if (err == AOP_TRUNCATED_PAGE)
				goto retry;
			return err;
		}
	}
	*out = folio;
	return 0;
}

long filemap_read(struct address_space *mapping, struct file_ra_state *ra, loff_t pos, void *buf,
		  size_t count)
{
	size_t done = 0;
	int err = 0;

	if (pos < 0)
		return -EINVAL;
	if (pos >= mapping->size || !count)
		return 0;
	if ((uint64_t)count > (uint64_t)(mapping->size - pos))
		count = (size_t)(mapping->size - pos);
	pgoff_t last_index = (pgoff_t)((pos + (loff_t)count + PAGE_SIZE - 1) >> PAGE_SHIFT);
	while (done < count) {
		struct folio *folio;
		err = filemap_get_page(mapping, ra, (pgoff_t)(pos >> PAGE_SHIFT), last_index, &folio);
		if (err)
			break;
		size_t off = (size_t)(pos & (PAGE_SIZE - 1)), n = min(PAGE_SIZE - off, count - done);
		/* v6.10: marked accessed unless the last byte read before was in this folio too, so
		 * small reads through one folio count as one touch (pos_same_folio(pos, last - 1)). */
		if ((pos >> PAGE_SHIFT) != (((done ? pos : ra->prev_pos) - 1) >> PAGE_SHIFT))
			folio_mark_accessed(folio);
		memcpy((char *)buf + done, (char *)page_address(&folio->page) + off, n);
		folio_put(folio);
		done += n;
		pos += (loff_t)n;
	}
	if (done)
		ra->prev_pos = pos;	/* v6.10: the byte after the last one read; unchanged if none */
	return done ? (long)done : err;
}

struct folio *read_cache_folio(struct address_space *mapping, pgoff_t index)
{
	struct folio *folio;
	int err;

repeat:
	folio = __filemap_get_folio(mapping, index, FGP_CREAT | FGP_LOCK, GFP_KERNEL);
	if (IS_ERR(folio))
		return folio;
	if (folio_test_uptodate(folio)) {
		folio_unlock(folio);
		return folio;
	}
	err = filemap_read_folio(mapping, NULL, folio);
	if (err) {
		folio_put(folio);
		return ERR_PTR(err);
	}
	if (!folio->mapping) {
		folio_put(folio);
		goto repeat;
	}
	return folio;
}
