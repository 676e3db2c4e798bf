/*
 * fs.h - the page cache's objects: struct address_space (one per block device here: tinymm
 * has no filesystems), its operations, and readahead state.  Linux's names and meanings.
 *
 *   struct address_space   i_pages (XArray of folios by page index; later also shadow value
 *                          entries), nrpages, a_ops, host (the block device), wb_err (errseq_t
 *                          of write errors), and what Linux keeps in the inode for writeback:
 *                          i_state (I_DIRTY_PAGES), dirtied_when, i_io_list (the flusher's
 *                          b_dirty list), writeback_index (where cyclic writeback resumes)
 *   address_space_operations: read_folio(folio) starts reading one locked folio and returns;
 *                          the I/O completion marks it uptodate (or not) and unlocks it.
 *                          readahead(rac) starts reads for the locked, new folios of the
 *                          readahead_control batch.
 *                          writepages(mapping, wbc) writes the dirty folios wbc selects
 *                          (write_cache_pages(), mm/page-writeback.c), ending each folio's
 *                          writeback from its I/O completion.
 *                          error_remove_folio(mapping, folio) and name(mapping): optional,
 *                          for memory_failure() (docs/hwpoison.md).
 *   struct file_ra_state   Linux's: start, size, async_size, ra_pages, mmap_miss, prev_pos
 *
 * Where tinymm differs from v6.10, and why: no filesystems yet, so no inode: the mapping carries
 * what Linux keeps in the inode for writeback (i_state, dirtied_when, i_io_list), and I_SYNC is
 * a bool of its own (i_sync) because it is under the flusher's list lock, not the xa_lock.
 * write_begin/write_end take no file and no fsdata (no filesystem yet), and the optional
 * a_ops->name is tinymm's: mm/ names a mapping in messages without looking inside its host.
 * Locking: mapping->i_pages.xa_lock (irqs masked) for the index, its marks, nrpages, i_state and
 *   dirtied_when; each folio's PG_locked while it is being read or prepared for writeback;
 *   i_io_list under the flusher's list lock (mm/fs-writeback.c); i_mmap under i_mmap_lock
 *   (i_mmap_lock_read/write, include/tinymm/pagemap.h; order: mmap_lock, folio lock,
 *   i_mmap_lock, page_table_lock).
 */
#ifndef TINYMM_FS_H
#define TINYMM_FS_H

#include "errseq.h"
#include "gfp.h"
#include "kernel.h"
#include "list.h"
#include "migrate_mode.h"
#include "mm_types.h"
#include "mutex.h"
#include "rwsem.h"
#include "xarray.h"

typedef unsigned long pgoff_t;
typedef long long loff_t;

struct file_ra_state {
	pgoff_t start;			/* where the current window starts */
	unsigned int size;		/* its size in pages */
	unsigned int async_size;	/* start the next window when this many pages are left */
	unsigned int ra_pages;		/* the maximum window */
	unsigned int mmap_miss;
	loff_t prev_pos;		/* the last byte read (-1: none) */
};

struct readahead_control;
struct address_space;
struct writeback_control;

struct address_space_operations {
	int (*read_folio)(struct address_space *mapping, struct folio *folio);
	void (*readahead)(struct readahead_control *rac);
	int (*writepages)(struct address_space *mapping, struct writeback_control *wbc);
	/* One locked, dirty-cleared folio; unlocks it.  Reclaim's pageout() uses it, as Linux's. */
	int (*writepage)(struct folio *folio, struct writeback_control *wbc);
	/* The write path (generic_perform_write; Linux's pair without the file and fsdata):
	 * write_begin returns in *@foliop the folio holding byte @pos, referenced and locked, ready
	 * for @len bytes at pos's offset in it (read from the backing store first when they cover
	 * it only in part and it is not uptodate); 0 or -errno.  write_end, after @copied bytes
	 * went in: uptodate, dirty, unlocked and the reference dropped; @copied or -errno. */
	int (*write_begin)(struct address_space *mapping, loff_t pos, unsigned int len,
			   struct folio **foliop);
	int (*write_end)(struct address_space *mapping, loff_t pos, unsigned int len,
			 unsigned int copied, struct folio *folio);
	/* Optional, Linux's: take the locked @folio out of @mapping after a memory error, dirty
	 * or not (memory_failure(); generic_error_remove_folio() does it).  Without it only a
	 * clean, unused folio can go (mapping_evict_folio). */
	int (*error_remove_folio)(struct address_space *mapping, struct folio *folio);
	/* Optional, tinymm's: the name of what @mapping caches ("vda"), for messages from mm/
	 * (memory_failure()'s "dirty data lost" line), which cannot look inside the host. */
	const char *(*name)(struct address_space *mapping);
	/* Optional, Linux's, for folios with private data (buffer heads, fs/buffer.c):
	 * dirty_folio marks the folio and its buffers dirty (folio_mark_dirty() calls it when
	 * set); release_folio frees a clean folio's private data before reclaim or invalidation
	 * drops it (true: freed, the folio may go); invalidate_folio drops the private data
	 * covering [offset, offset + len) of a folio being truncated. */
	bool (*dirty_folio)(struct address_space *mapping, struct folio *folio);
	bool (*release_folio)(struct folio *folio, gfp_t gfp);
	void (*invalidate_folio)(struct folio *folio, size_t offset, size_t len);
	/* Optional, Linux's: move a locked folio with private data to @dst (mm/migrate.c calls it;
	 * buffer_migrate_folio, fs/buffer_migrate.c): 0, -EAGAIN (someone holds it) or -EBUSY
	 * (its private data is in use).  Without it such a folio's data is released first. */
	int (*migrate_folio)(struct address_space *mapping, struct folio *dst, struct folio *src,
			     enum migrate_mode mode);
};

struct block_device;
struct address_space {
	struct xarray i_pages;
	unsigned long nrpages;
	const struct address_space_operations *a_ops;
	struct block_device *host;
	loff_t size;			/* bytes: reads stop here */
	errseq_t wb_err;		/* write errors (mapping_set_error), lib/errseq.c */
	unsigned long flags;		/* AS_* */
	/* Linux keeps these in the inode; tinymm's mapping is its block device's inode. */
	unsigned long i_state;		/* I_DIRTY_PAGES */
	unsigned long dirtied_when;	/* jiffies when I_DIRTY_PAGES was last set */
	struct list_head i_io_list;	/* on the flusher's b_dirty list while I_DIRTY_PAGES */
	/* Linux's I_SYNC: a flusher pass has taken the mapping off its lists and is writing it.
	 * A separate word, under the flusher's list lock (i_state is under the xa_lock). */
	bool i_sync;
	pgoff_t writeback_index;	/* range_cyclic writeback resumes here */
	/* Every area mapping this file (vma->shared), for the file side of rmap
	 * (mm/rmap_file.c, docs/shared-mappings.md); v6.10's i_mmap tree and i_mmap_rwsem:
	 * rmap walks share it, mmap and munmap write it. */
	struct list_head i_mmap;
	struct rw_semaphore i_mmap_rwsem;
};

/* mapping->i_state bits (Linux's inode i_state). */
#define I_DIRTY_PAGES	(1UL << 2)

/* The page-cache marks (Linux's PAGECACHE_TAG_*), on i_pages entries. */
#define PAGECACHE_TAG_DIRTY	XA_MARK_0	/* PG_dirty, or written back but tag not yet cleared */
#define PAGECACHE_TAG_WRITEBACK	XA_MARK_1	/* PG_writeback */
#define PAGECACHE_TAG_TOWRITE	XA_MARK_2	/* tagged by a WB_SYNC_ALL pass: it must write these */

/* mapping->flags bits (Linux's AS_*). */
#define AS_EIO		0		/* a write failed: reported once (filemap_check_errors), then cleared */
#define AS_ENOSPC	1
#define AS_UNEVICTABLE	3		/* Linux's: folios stay on LRU_UNEVICTABLE (mm/swap.c) */

/* The batch of locked, new folios a readahead hands to a_ops->readahead. */
struct readahead_control {
	struct address_space *mapping;
	struct file_ra_state *ra;
	pgoff_t _index;			/* first page of the batch */
	unsigned int _nr_pages;		/* pages in the batch */
	unsigned int _batch_count;	/* pages already taken by readahead_folio() */
};

#endif
