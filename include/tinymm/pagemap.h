/*
 * pagemap.h - the folio lock and waiting on folio flags (mm/filemap.c), Linux v6.10's API.
 *
 *   folio_trylock(f)          take PG_locked if free: true if taken (never sleeps)
 *   folio_lock(f)             sleep until PG_locked is ours
 *   folio_unlock(f)           release; wakes sleepers only when PG_waiters was set
 *   folio_wait_locked(f)      sleep until PG_locked is clear (without taking it)
 *   folio_start_writeback(f)  set PG_writeback, PAGECACHE_TAG_WRITEBACK, NR_WRITEBACK
 *                             (__folio_start_writeback, mm/page-writeback.c)
 *   folio_end_writeback(f)    PG_reclaim: rotate it (the LRU's hook); clear PG_writeback and its
 *                             accounting (__folio_end_writeback), wake folio_wait_writeback()
 *   folio_wait_writeback(f)   sleep while PG_writeback is set
 *
 * Sleepers wait on one of PAGE_WAIT_TABLE_SIZE wait queues chosen by hashing the folio's
 * address (folio_waitqueue()), so struct page needs no wait queue of its own.  A sleeper sets
 * PG_waiters before it sleeps; the releasing atomic returns the old flags, and only a set
 * PG_waiters sends the releaser to the hashed queue.  The uncontended unlock is therefore one
 * atomic operation.  Waiters of other folios in the same bucket are skipped (their key does not
 * match); the waker clears PG_waiters when no waiter for this folio remains in the bucket, or
 * the bucket is empty, so on a shared bucket it may stay set until a later wake-up.
 * Lock hand-off as Linux's: after 5 unfair attempts, an exclusive waiter is marked
 * WQ_FLAG_CUSTOM and the waker takes PG_locked for it before waking it.
 */
#ifndef TINYMM_PAGEMAP_H
#define TINYMM_PAGEMAP_H

#include "err.h"
#include "fs.h"
#include "gfp.h"
#include "lockdep.h"		/* lockdep_assert_folio_locked() comes with the folio lock */
#include "mm_types.h"
#include "page-flags.h"
#include "page_alloc.h"
#include "wait.h"

#define PAGE_WAIT_TABLE_BITS	8
#define PAGE_WAIT_TABLE_SIZE	(1 << PAGE_WAIT_TABLE_BITS)

/* Bring-up: the hashed wait queues, before the first thread (boot/main.c). */
void pagecache_init(void);
struct wait_queue_head *folio_waitqueue(struct folio *folio);

/* Every folio's PG_locked is one class of the lock-order checker (mm/filemap.c). */
extern struct lockdep_map folio_lock_map;

static inline bool folio_trylock(struct folio *folio)
{
	if (test_and_set_bit(PG_locked, &folio->flags))
		return false;
	lock_acquire(&folio_lock_map, folio, 1, _THIS_IP_);
	return true;
}

void __folio_lock(struct folio *folio);
/* The order is checked before waiting; the folio joins the held stack once taken. */
static inline void folio_lock(struct folio *folio)
{
	might_sleep();
	lock_check_order(&folio_lock_map, folio, _THIS_IP_);
	if (!folio_trylock(folio))
		__folio_lock(folio);
}
void folio_unlock(struct folio *folio);
void folio_wait_bit(struct folio *folio, int bit_nr);
static inline void folio_wait_locked(struct folio *folio)
{
	if (folio_test_locked(folio))
		folio_wait_bit(folio, PG_locked);
}
/* Clear @mask's bits (which the caller knows are set) and say whether PG_waiters was set: one
 * atomic read-modify-write, Linux's folio_xor_flags_has_waiters(). */
static inline bool folio_xor_flags_has_waiters(struct folio *folio, unsigned long mask)
{
	atomic_long_t *flags = (atomic_long_t *)&folio->flags;

	return atomic_long_fetch_xor((long)mask, flags) & (1L << PG_waiters);
}
/* mm/page-writeback.c: the flag, the index tags and the counters. */
void __folio_start_writeback(struct folio *folio, bool keep_write);
bool __folio_end_writeback(struct folio *folio);
static inline void folio_start_writeback(struct folio *folio)
{
	__folio_start_writeback(folio, false);
}
void folio_end_writeback(struct folio *folio);
void folio_wait_writeback(struct folio *folio);

/*
 * The page cache (mm/filemap.c): folios of a mapping indexed by page offset.
 *   filemap_add_folio(mapping, folio, index, gfp)  insert a new folio, locked, with the cache's
 *       reference; 0, -EEXIST (something is there), -ENOMEM
 *   __filemap_get_folio(mapping, index, fgp, gfp)  a referenced folio or ERR_PTR(-ENOENT /
 *       -ENOMEM); FGP_LOCK returns it locked (and still in the mapping), FGP_CREAT makes it
 *   filemap_get_folio(mapping, index)              lookup only
 *   filemap_read(mapping, ra, pos, buf, count)     bytes read, or -errno if none; readahead
 *   read_cache_folio(mapping, index)               an uptodate referenced folio, or ERR_PTR
 *   generic_perform_write(mapping, pos, len, fill, ctx, &err)  bytes written through the
 *       mapping's write_begin/write_end; fewer than @len only with err set (-errno)
 *   filemap_remove_folio(folio)                    locked folio out of its mapping
 *   invalidate_mapping_pages(mapping, start, end)  drop clean, unlocked, unused folios: count
 * Invariants: a folio in a mapping has folio->mapping == mapping, folio->index == its index,
 *   and holds one reference for the cache; it is read only while locked; PG_uptodate is set
 *   (with a write barrier) only after its bytes arrived and is never cleared while cached.
 */
#define FGP_ACCESSED		0x00000001
#define FGP_LOCK		0x00000002
#define FGP_CREAT		0x00000004
#define FGP_WRITE		0x00000008	/* for writing: __GFP_WRITE, not a refault */

int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index, gfp_t gfp);
struct folio *__filemap_get_folio(struct address_space *mapping, pgoff_t index, unsigned int fgp_flags,
				  gfp_t gfp);
/* Lookup only: __filemap_get_folio(mapping, index, 0, 0), the page-cache hit's fast path. */
struct folio *filemap_get_folio(struct address_space *mapping, pgoff_t index);
long filemap_read(struct address_space *mapping, struct file_ra_state *ra, loff_t pos, void *buf,
		  size_t count);
struct folio *read_cache_folio(struct address_space *mapping, pgoff_t index);
/* What a write copies in (tinymm's stand-in for the iov_iter): the bytes of offsets
 * [pos, pos + n) of the mapping into @dst. */
typedef void (*filemap_fill_fn)(void *ctx, uint64_t pos, uint8_t *dst, unsigned int n);
uint64_t generic_perform_write(struct address_space *mapping, loff_t pos, uint64_t len,
			       filemap_fill_fn fill, void *ctx, int *err);
void filemap_remove_folio(struct folio *folio);
void __filemap_remove_folio(struct folio *folio, void *shadow);	/* xa_lock held */
unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end);
/* Truncation and invalidation (mm/truncate.c; docs/pagecache.md): byte ranges for
 * truncation (lend inclusive, -1: to the end), page ranges (inclusive) for invalidation. */
void truncate_inode_pages_range(struct address_space *mapping, loff_t lstart, loff_t lend);
void truncate_inode_pages(struct address_space *mapping, loff_t lstart);
/* v6.10's: unmap past @newsize (mm/rmap_file.c), truncate, unmap again; i_size set first. */
struct inode;
void truncate_pagecache(struct inode *inode, loff_t newsize);
unsigned long mapping_try_invalidate(struct address_space *mapping, pgoff_t start, pgoff_t end,
				     unsigned long *nr_failed);
int invalidate_inode_pages2_range(struct address_space *mapping, pgoff_t start, pgoff_t end);
int invalidate_inode_pages2(struct address_space *mapping);
void folio_cancel_dirty(struct folio *folio);
/* HWPoison's removals (mm/truncate.c): a locked folio out of its mapping, dirty or
 * not (0, -EINVAL, -EIO); a locked, clean folio nobody else holds (pages evicted, or 0). */
int generic_error_remove_folio(struct address_space *mapping, struct folio *folio);
long mapping_evict_folio(struct address_space *mapping, struct folio *folio);
void address_space_init(struct address_space *mapping, const struct address_space_operations *a_ops,
			loff_t size);
/* Record a failed write on the mapping, as Linux's mapping_set_error: errseq_set(wb_err) for
 * fsync/sync callers, and AS_EIO / AS_ENOSPC for filemap_check_errors(). */
void mapping_set_error(struct address_space *mapping, int error);
/* Frames in the page cache (all of it block devices': meminfo's Buffers). */
unsigned long nr_pagecache_pages(void);

/*
 * Readahead (mm/readahead.c), Linux's on-demand algorithm.
 *   file_ra_state_init(ra, ra_pages)      a fresh state with a maximum window
 *   page_cache_sync_readahead(mapping, ra, index, req_count)    a cache miss at @index
 *   page_cache_async_readahead(mapping, ra, folio, req_count)   a hit on a PG_readahead folio
 *   readahead_folio(rac): the next locked folio of the batch for a_ops->readahead (the batch's
 *   reference is dropped: the cache's keeps it), NULL at the end.
 */
#define VM_READAHEAD_PAGES	(128 * 1024 / PAGE_SIZE)
extern unsigned int default_ra_pages;	/* tinymm.ra_kb= / 4 */
void file_ra_state_init(struct file_ra_state *ra, unsigned int ra_pages);
void page_cache_sync_readahead(struct address_space *mapping, struct file_ra_state *ra, pgoff_t index,
			       unsigned long req_count);
void page_cache_async_readahead(struct address_space *mapping, struct file_ra_state *ra,
				struct folio *folio, unsigned long req_count);
struct folio *readahead_folio(struct readahead_control *rac);
static inline pgoff_t readahead_index(const struct readahead_control *rac)
{
	return rac->_index;
}
static inline unsigned int readahead_count(const struct readahead_control *rac)
{
	return rac->_nr_pages;
}
/* For tests: folios started by readahead (sync and async), windows opened. */
extern unsigned long nr_readahead_pages, nr_readahead_windows;

/*
 * A folio's private data (a filesystem's buffer heads, fs/buffer.c), Linux's:
 *   folio_attach_private(folio, data)  ->private = data, PG_private set, one folio reference
 *                                       taken for it (so a folio with buffers is never freed)
 *   folio_detach_private(folio)        the data, PG_private cleared, ->private 0, that
 *                                       reference dropped (the caller holds another); NULL and
 *                                       nothing done without PG_private
 *   filemap_release_folio(folio, gfp)  (mm/filemap.c) free a locked folio's private data
 *       before reclaim or invalidation drops it: true if it has none (left); false under
 *       writeback or when a_ops->release_folio (default: try_to_free_buffers) refused
 *   folio_invalidate(folio, off, len)  (mm/truncate.c) a_ops->invalidate_folio for the bytes
 *       [off, off + len) of a locked folio being truncated
 * Invariant: PG_private <=> ->private is the owner's data and one reference is held for it.
 * The folio lock is held for attach and detach.
 */
static inline void folio_attach_private(struct folio *folio, void *data)
{
	lockdep_assert_folio_locked(folio);
	folio_get(folio);
	folio->private = (unsigned long)data;
	folio_set_private(folio);
}

static inline void *folio_detach_private(struct folio *folio)
{
	void *data = (void *)folio->private;

	if (!folio_test_private(folio))
		return NULL;
	folio_clear_private(folio);
	folio->private = 0;
	folio_put(folio);
	return data;
}

bool filemap_release_folio(struct folio *folio, gfp_t gfp);
void folio_invalidate(struct folio *folio, size_t offset, size_t length);

/* Calls of folio_wake_bit() so far: the slow path of unlock / end of writeback (for tests). */
unsigned long folio_wake_bit_calls(void);

#endif
