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
 * The block device's metadata folios are written back whole by block/fops.c (their buffers'
 * BH_Dirty cleared as the write starts), so a buffer there must never be dirtied in a folio
 * that is not uptodate: __getblk() reads the folio as __bread() does (v6.10 does not read).
 * A folio of a block device holds buffers of one size; asking for another size there is
 * refused (NULL, one warning line), as v6.10's __getblk_slow() refuses a size the device's
 * block size does not allow.
 *
 * Where tinymm differs from v6.10, and why: one folio is one page (no large folios), so a
 * folio's buffers are at most PAGE_SIZE / 512; BH_Async_Read/Write mark a folio's buffers in
 * flight as v6.10's, but one spinlock (not a bit spinlock in the first buffer) decides which
 * completion ends the folio's read or writeback; no buffer LRU (bh_lru), no journal hooks, no
 * per-buffer bio: each folio's I/O is one bio per contiguous run of blocks.  PG_mappedtodisk
 * is set whenever every block of the folio is mapped after get_block (v6.10's
 * block_read_full_folio sets it only when they were mapped before the call; mpage_read_folio
 * as here).  block_write_end() and generic_write_end() are v6.10's pair: the first commits the
 * bytes (the folio stays locked: ext2's directory code needs that), the second is the
 * a_ops->write_end, which also unlocks, releases and moves i_size.
 * Locking: a folio's buffers are attached, detached and mapped only with the folio locked;
 * b_count is atomic; BH_Lock is a sleeping bit lock (lock_buffer) held for a buffer's I/O;
 * the state bits are atomic bit operations.
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
	BH_Async_Read,	/* in flight in a folio read (block_read_full_folio) */
	BH_Async_Write,	/* in flight in a folio write (block_write_full_folio) */
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
BUFFER_FNS(Async_Read, async_read)
BUFFER_FNS(Async_Write, async_write)

static inline bool test_clear_buffer_dirty(struct buffer_head *bh)
{
	return test_and_clear_bit(BH_Dirty, &bh->b_state);
}

/* The buffer's I/O lock (BH_Lock): lock_buffer() sleeps until it is free, unlock_buffer()
 * wakes waiters, wait_on_buffer() waits for the I/O without taking it. */
void __lock_buffer(struct buffer_head *bh);
void unlock_buffer(struct buffer_head *bh);
void __wait_on_buffer(struct buffer_head *bh);
static inline bool trylock_buffer(struct buffer_head *bh)
{
	return !test_and_set_bit(BH_Lock, &bh->b_state);
}
static inline void lock_buffer(struct buffer_head *bh)
{
	if (!trylock_buffer(bh))
		__lock_buffer(bh);
}
static inline void wait_on_buffer(struct buffer_head *bh)
{
	if (buffer_locked(bh))
		__wait_on_buffer(bh);
}

typedef int (get_block_t)(struct inode *inode, sector_t iblock, struct buffer_head *bh_result,
			  int create);

static inline struct buffer_head *folio_buffers(const struct folio *folio)
{
	return (struct buffer_head *)folio->private;
}

/* Attach a ring of @blocksize buffers (512..PAGE_SIZE, a power of two) with @b_state to a
 * locked folio that has none (folio_attach_private); the first, or NULL without memory.
 * folio_create_buffers: the folio's buffers, created with the inode's block size if it has
 * none (NULL without memory). */
struct buffer_head *create_empty_buffers(struct folio *folio, unsigned long blocksize,
					 unsigned long b_state);
struct buffer_head *folio_create_buffers(struct folio *folio, struct inode *inode,
					 unsigned long b_state);
/* Free a locked folio's buffers if none is dirty, locked or referenced, and it is not under
 * writeback (release_folio): true if it has none left (PG_private clear). */
bool try_to_free_buffers(struct folio *folio);
/* a_ops->migrate_folio for folios with buffers (fs/buffer_migrate.c, mm/migrate.c): the bytes,
 * the slot and the buffers to @dst; 0, -EAGAIN (the folio is held) or -EBUSY (a buffer is). */
int buffer_migrate_folio(struct address_space *mapping, struct folio *dst, struct folio *src,
			 enum migrate_mode mode);

/*
 * address_space_operations helpers for a filesystem whose data blocks get_block maps; the
 * folio's mapping is the inode's i_data (the inode is container_of(mapping, struct inode,
 * i_data)).
 *   block_read_full_folio  a_ops->read_folio: the locked folio, read, unlocked by the I/O
 *                          completion (holes and blocks past i_size zeroed); 0 or -ENOMEM
 *   block_write_begin      a_ops->write_begin: *foliop locked and referenced, blocks of the
 *                          write mapped (allocated), partly covered ones read
 *   __block_write_begin    the same on a folio the caller has locked (ext2's directories)
 *   block_write_end        commit @copied bytes: buffers uptodate and dirty, the folio
 *                          uptodate when all its buffers are; the folio stays locked; @copied
 *                          (0 when a short copy hit a folio that is not uptodate)
 *   generic_write_end      a_ops->write_end: block_write_end, i_size (and the mapping's size)
 *                          moved up to pos + copied, the folio unlocked and released.  It does
 *                          not mark the inode dirty: the caller does when i_size grew
 *   block_write_full_folio writepage: the dirty buffers (mapped now if need be) written, one
 *                          bio per contiguous run; the bytes past i_size zeroed first
 *   mpage_writepages       a_ops->writepages: write_cache_pages() with block_write_full_folio
 *   mpage_readahead        a_ops->readahead: block_read_full_folio for each folio
 *   block_invalidate_folio a_ops->invalidate_folio: buffers wholly inside the range unmapped
 *                          and cleaned; the whole folio: its buffers freed if possible
 *   block_dirty_folio      a_ops->dirty_folio: every buffer dirty, then the folio
 */
int block_read_full_folio(struct folio *folio, get_block_t *get_block);
int block_write_begin(struct address_space *mapping, loff_t pos, unsigned int len,
		      struct folio **foliop, get_block_t *get_block);
int __block_write_begin(struct folio *folio, loff_t pos, unsigned int len, get_block_t *get_block);
int block_write_end(struct address_space *mapping, loff_t pos, unsigned int len,
		    unsigned int copied, struct folio *folio);
int generic_write_end(struct address_space *mapping, loff_t pos, unsigned int len,
		      unsigned int copied, struct folio *folio);
int block_write_full_folio(struct folio *folio, struct writeback_control *wbc,
			   get_block_t *get_block);
/* Write back the locked, dirty-cleared @folio's dirty mapped buffers and only those (one bio
 * per run), the folio's writeback ended by their completion; unlocks it.  What the block
 * device's writeback does for a folio holding metadata buffers (block/fops.c). */
int block_write_dirty_buffers(struct folio *folio, struct writeback_control *wbc);
int mpage_writepages(struct address_space *mapping, struct writeback_control *wbc,
		     get_block_t *get_block);
void mpage_readahead(struct readahead_control *rac, get_block_t *get_block);
void block_invalidate_folio(struct folio *folio, size_t offset, size_t length);
bool block_dirty_folio(struct address_space *mapping, struct folio *folio);
/* Zero the part of the folio holding @from..end of its block, for a truncate that leaves a
 * partial last block (Linux's block_truncate_page). */
int block_truncate_page(struct address_space *mapping, loff_t from, get_block_t *get_block);

/*
 * Metadata buffers in the block device's page cache (bdev->bd_mapping): block @block of
 * @size bytes is at byte block * size of the device.
 *   __bread / __getblk     the buffer, referenced, uptodate (both read the folio: see above);
 *                          NULL for a bad size, a block past the end, a read error, no memory
 *   brelse                 drop the reference (NULL is fine)
 *   mark_buffer_dirty      BH_Dirty and the folio dirty (filemap_dirty_folio, no folio lock
 *                          needed: the caller's reference keeps the folio in its mapping)
 *   sync_dirty_buffer      write the buffer now if dirty and wait: 0 or -EIO
 */
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
