/*
 * buffer_head.h - buffer heads (fs/buffer.c): a folio's blocks, each mapped to a disk block,
 * Linux's fs/buffer.c API, small.
 *
 * A folio of a file's page cache holds PAGE_SIZE / blocksize blocks.  While a filesystem needs
 * to know which disk block each holds (reading, writing back, truncating), the folio carries a
 * ring of struct buffer_head, one per block (b_this_page links them; folio->private points at
 * the first): folio_attach_private() sets PG_private with that pointer and takes a folio
 * reference, folio_detach_private() clears both (try_to_free_buffers, block_invalidate_folio).
 * A buffer is BH_Mapped once b_blocknr is its disk block (get_block said so), BH_New when that
 * block was just allocated (its old contents are garbage: zeroed, never read), BH_Uptodate when
 * its bytes are valid, BH_Dirty when they must be written.  PG_mappedtodisk is set on a folio
 * when every one of its blocks is mapped (a hole has none), as Linux's block_read_full_folio
 * and __block_write_begin do.
 *
 * Metadata (superblock, bitmaps, inode tables, indirect blocks, directories are in their own
 * inode's cache) lives in the block device's page cache: __bread(bdev, block, size) returns the
 * buffer for one block with a reference, read and uptodate; brelse() drops it;
 * mark_buffer_dirty() dirties the buffer and its folio (the bdev mapping's writeback writes it
 * out); sync_dirty_buffer() writes one buffer now and waits.
 *
 * get_block(inode, iblock, bh, create): map file block @iblock: set b_blocknr and BH_Mapped
 * (map_bh), with @create allocate a block for a hole and set BH_New; leave it unmapped for a
 * hole when !create.  0 or -errno (-ENOSPC, -EIO, -EUCLEAN).
 *
 * Where tinymm differs from v6.10, and why: one folio is one page (no large folios), so a
 * folio's buffers are at most PAGE_SIZE / 512; no BH_Async_Read/Write bit-spinlock dance: the
 * folio lock covers a folio's buffers during I/O and the bio completion ends a whole folio's
 * I/O at once; no buffer LRU (bh_lru), no journal hooks, no per-buffer bio: each folio's I/O is
 * one bio per contiguous run of mapped blocks.
 * Locking: a folio's buffers change only with the folio locked; b_count is atomic.
 */
#ifndef TINYMM_BUFFER_HEAD_H
#define TINYMM_BUFFER_HEAD_H

#include "atomic.h"
#include "blkdev.h"
#include "fs.h"
#include "kernel.h"
#include "mm_types.h"

struct inode;
struct super_block;
struct writeback_control;

enum bh_state_bits {
	BH_Uptodate,	/* contains valid data */
	BH_Dirty,	/* must be written back */
	BH_Lock,	/* under I/O (metadata reads and sync writes) */
	BH_Req,		/* has been submitted for I/O */
	BH_Mapped,	/* b_blocknr is valid */
	BH_New,		/* just allocated by get_block: not on disk yet */
	BH_Boundary,	/* the next block is discontiguous (indirect-block boundary) */
	BH_Write_EIO,	/* the last write failed */
};

struct buffer_head {
	unsigned long b_state;
	struct buffer_head *b_this_page;	/* the folio's ring of buffers */
	struct folio *b_folio;
	sector_t b_blocknr;			/* in units of b_size */
	size_t b_size;
	char *b_data;				/* its bytes in the folio */
	struct block_device *b_bdev;
	atomic_t b_count;
};

#define BUFFER_FNS(bit, name)							\
static inline void set_buffer_##name(struct buffer_head *bh)			\
{ set_bit(BH_##bit, &bh->b_state); }						\
static inline void clear_buffer_##name(struct buffer_head *bh)			\
{ clear_bit(BH_##bit, &bh->b_state); }						\
static inline bool buffer_##name(const struct buffer_head *bh)			\
{ return test_bit(BH_##bit, &bh->b_state); }
BUFFER_FNS(Uptodate, uptodate)
BUFFER_FNS(Dirty, dirty)
BUFFER_FNS(Lock, locked)
BUFFER_FNS(Req, req)
BUFFER_FNS(Mapped, mapped)
BUFFER_FNS(New, new)
BUFFER_FNS(Boundary, boundary)
BUFFER_FNS(Write_EIO, write_io_error)

typedef int (get_block_t)(struct inode *inode, sector_t iblock, struct buffer_head *bh_result,
			  int create);

static inline struct buffer_head *folio_buffers(const struct folio *folio)
{
	return (struct buffer_head *)folio->private;
}

/* A folio's buffers, created empty (unmapped, not uptodate) if it has none: the folio is locked. */
struct buffer_head *create_empty_buffers(struct folio *folio, unsigned long blocksize,
					 unsigned long b_state);
struct buffer_head *folio_create_buffers(struct folio *folio, struct inode *inode,
					 unsigned long b_state);
/* Free a clean, unlocked folio's buffers (release_folio): true if it has none left. */
bool try_to_free_buffers(struct folio *folio);

/* address_space_operations helpers for a filesystem with a get_block. */
int block_read_full_folio(struct folio *folio, get_block_t *get_block);
int block_write_begin(struct address_space *mapping, loff_t pos, unsigned int len,
		      struct folio **foliop, get_block_t *get_block);
int block_write_end(struct address_space *mapping, loff_t pos, unsigned int len,
		    unsigned int copied, struct folio *folio);
int block_write_full_folio(struct folio *folio, struct writeback_control *wbc,
			   get_block_t *get_block);
void block_invalidate_folio(struct folio *folio, size_t offset, size_t length);
bool block_dirty_folio(struct address_space *mapping, struct folio *folio);
/* Zero the part of the folio holding @from..end of its block, for a truncate that leaves a
 * partial last block (Linux's block_truncate_page). */
int block_truncate_page(struct address_space *mapping, loff_t from, get_block_t *get_block);

/* Metadata buffers in the block device's page cache. */
struct buffer_head *__bread(struct block_device *bdev, sector_t block, unsigned int size);
struct buffer_head *__getblk(struct block_device *bdev, sector_t block, unsigned int size);
void brelse(struct buffer_head *bh);
void mark_buffer_dirty(struct buffer_head *bh);
int sync_dirty_buffer(struct buffer_head *bh);
/* Drop any cached copy of @block of @bdev (a freed metadata block reused for data). */
void clean_bdev_aliases(struct block_device *bdev, sector_t block, sector_t len);

static inline void get_bh(struct buffer_head *bh)
{
	atomic_inc(&bh->b_count);
}

static inline void put_bh(struct buffer_head *bh)
{
	atomic_dec(&bh->b_count);
}

#include "vfs.h"

static inline void map_bh(struct buffer_head *bh, struct super_block *sb, sector_t block)
{
	set_buffer_mapped(bh);
	bh->b_bdev = sb->s_bdev;
	bh->b_blocknr = block;
	bh->b_size = sb->s_blocksize;
}

static inline struct buffer_head *sb_bread(struct super_block *sb, sector_t block)
{
	return __bread(sb->s_bdev, block, (unsigned int)sb->s_blocksize);
}

static inline struct buffer_head *sb_getblk(struct super_block *sb, sector_t block)
{
	return __getblk(sb->s_bdev, block, (unsigned int)sb->s_blocksize);
}

#endif
