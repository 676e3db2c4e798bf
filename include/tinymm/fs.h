/*
 * fs.h - the page cache's objects: struct address_space (one per block device here: tinymm
 * has no filesystems), its operations, and readahead state.  Linux's names and meanings.
 *
 *   struct address_space   i_pages (XArray of folios by page index; later also shadow value
 *                          entries), nrpages, a_ops, host (the block device), wb_err
 *   address_space_operations: read_folio(folio) starts reading one locked folio and returns;
 *                          the I/O completion marks it uptodate (or not) and unlocks it.
 *                          readahead(rac) starts reads for the locked, new folios of the
 *                          readahead_control batch.
 *   struct file_ra_state   v6.10's: start, size, async_size, ra_pages, mmap_miss, prev_pos
 * Locking: mapping->i_pages.xa_lock (irqs masked) for the index and nrpages; each folio's
 *   PG_locked while it is being read.
 */
#ifndef TINYMM_FS_H
#define TINYMM_FS_H

#include "kernel.h"
#include "mm_types.h"
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

struct address_space_operations {
	int (*read_folio)(struct address_space *mapping, struct folio *folio);
	void (*readahead)(struct readahead_control *rac);
};

struct block_device;
struct address_space {
	struct xarray i_pages;
	unsigned long nrpages;
	const struct address_space_operations *a_ops;
	struct block_device *host;
	loff_t size;			/* bytes: reads stop here */
	int wb_err;			/* errseq_t, for the writeback issue */
	unsigned long flags;		/* AS_* */
};

/* mapping->flags bits (Linux's AS_*). */
#define AS_EIO		0		/* a read or write failed: reported once, then cleared */
#define AS_ENOSPC	1

/* The batch of locked, new folios a readahead hands to a_ops->readahead. */
struct readahead_control {
	struct address_space *mapping;
	struct file_ra_state *ra;
	pgoff_t _index;			/* first page of the batch */
	unsigned int _nr_pages;		/* pages in the batch */
	unsigned int _batch_count;	/* pages already taken by readahead_folio() */
};

#endif
