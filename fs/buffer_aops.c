/*
 * buffer_aops.c - a file's page cache through buffer heads: the address_space_operations
 * helpers of include/tinymm/buffer_head.h for a filesystem with a get_block (Linux v6.10's
 * fs/buffer.c and fs/mpage.c, small): reading a folio (holes and the part past i_size zeroed,
 * PG_mappedtodisk when every block is mapped), preparing a write (blocks allocated, new ones
 * zeroed where the write does not fill them, partly written ones read), committing it,
 * writing a folio's dirty buffers back, and zeroing the tail block of a truncation.
 *
 * Invariants: every function here runs with the folio locked (lockdep_assert_folio_locked);
 *   a folio's buffers are created here only with the inode's block size; a BH_New buffer is
 *   zeroed where the write does not reach before anyone can read the folio, and loses BH_New
 *   when the write is committed (or fails).
 * Locking: the folio lock; BH_Lock per buffer while it is read or written (fs/buffer.c).
 *   The caller of the write path holds the inode's i_rwsem (vfs.h), which keeps i_size still.
 *
 * Where tinymm differs from v6.10, and why: include/tinymm/buffer_head.h says; in short,
 * reads of partly written blocks are synchronous one by one (v6.10 starts them all, then
 * waits), and mpage_* are block_read_full_folio / block_write_full_folio per folio (every
 * folio has buffers here: no bio spanning folios).
 */
#include "tinymm/bug.h"
#include "tinymm/buffer_head.h"
#include "tinymm/errno.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/writeback.h"
#include "buffer_internal.h"

/* ---- reading a folio ---- */

int block_read_full_folio(struct folio *folio, get_block_t *get_block)
{
	struct inode *inode = mapping_inode(folio->mapping);
	struct buffer_head *arr[MAX_BUF_PER_PAGE], *head, *bh;
	bool fully_mapped = true, error = false;
	unsigned int i = 0;
	int nr = 0;

	lockdep_assert_folio_locked(folio);
	head = folio_create_buffers(folio, inode, 0);
	if (!head) {
		folio_unlock(folio);
		return -ENOMEM;
	}
	size_t blocksize = head->b_size;
	sector_t iblock = ((sector_t)folio->index << PAGE_SHIFT) / blocksize;
	sector_t lblock = ((sector_t)i_size_read(inode) + blocksize - 1) / blocksize;

	bh = head;
	do {
		if (!buffer_mapped(bh) && iblock < lblock) {
			if (get_block(inode, iblock, bh, 0))
				error = true;
		}
		fully_mapped &= buffer_mapped(bh);
		if (buffer_uptodate(bh))
			continue;
		if (!buffer_mapped(bh)) {		/* a hole, or past the end of the file */
			folio_zero_range(folio, i * blocksize, blocksize);
			if (!error)
				set_buffer_uptodate(bh);
			continue;
		}
		arr[nr++] = bh;
	} while (i++, iblock++, (bh = bh->b_this_page) != head);

	if (fully_mapped)
		folio_set_mappedtodisk(folio);
	if (!nr) {
		if (!error)
			folio_mark_uptodate(folio);
		folio_unlock(folio);
		return 0;
	}
	/* Every buffer is marked before the first bio goes: a completion must not see the
	 * folio's read finished while later runs are still to be sent. */
	for (int k = 0; k < nr; k++) {
		lock_buffer(arr[k]);
		set_buffer_async_read(arr[k]);
	}
	submit_bh_runs(arr, nr, REQ_OP_READ);
	return 0;
}

void mpage_readahead(struct readahead_control *rac, get_block_t *get_block)
{
	struct folio *folio;

	while ((folio = readahead_folio(rac)))
		block_read_full_folio(folio, get_block);
}

/* ---- the write path ---- */

/* A buffer (or part) the write did not fill, newly allocated: zero it, it holds garbage
 * (v6.10's folio_zero_new_buffers). */
static void folio_zero_new_buffers(struct folio *folio, size_t from, size_t to)
{
	struct buffer_head *head = folio_buffers(folio), *bh = head;
	size_t block_start = 0;

	if (!head)
		return;
	do {
		size_t block_end = block_start + bh->b_size;

		if (buffer_new(bh)) {
			if (block_end > from && block_start < to) {
				if (!folio_test_uptodate(folio)) {
					size_t start = max(from, block_start), end = min(to, block_end);
					folio_zero_range(folio, start, end - start);
					set_buffer_uptodate(bh);
				}
				clear_buffer_new(bh);
				mark_buffer_dirty(bh);
			}
		}
		block_start = block_end;
	} while ((bh = bh->b_this_page) != head);
}

int __block_write_begin(struct folio *folio, loff_t pos, unsigned int len, get_block_t *get_block)
{
	size_t from = (size_t)(pos & (PAGE_SIZE - 1)), to = from + len, block_start = 0;
	struct inode *inode = mapping_inode(folio->mapping);
	struct buffer_head *head, *bh;
	bool fully_mapped = true;
	int err = 0;

	lockdep_assert_folio_locked(folio);
	BUG_ON(to > PAGE_SIZE);
	head = folio_create_buffers(folio, inode, 0);
	if (!head)
		return -ENOMEM;
	size_t blocksize = head->b_size;
	sector_t block = ((sector_t)folio->index << PAGE_SHIFT) / blocksize;

	bh = head;
	do {
		size_t block_end = block_start + blocksize;

		if (block_end <= from || block_start >= to) {
			if (folio_test_uptodate(folio))
				set_buffer_uptodate(bh);
			goto next;
		}
		clear_buffer_new(bh);
		if (!buffer_mapped(bh)) {
			err = get_block(inode, block, bh, 1);
			if (err)
				break;
			if (buffer_new(bh)) {
				/* A freed metadata block reused: its cached copy must not be
				 * written back over the data. */
				clean_bdev_aliases(bh->b_bdev, bh->b_blocknr, 1);
				if (folio_test_uptodate(folio)) {
					clear_buffer_new(bh);
					set_buffer_uptodate(bh);
					mark_buffer_dirty(bh);
					goto next;
				}
				if (block_end > to)
					folio_zero_range(folio, to, block_end - to);
				if (block_start < from)
					folio_zero_range(folio, block_start, from - block_start);
				goto next;
			}
		}
		if (folio_test_uptodate(folio)) {
			set_buffer_uptodate(bh);
			goto next;
		}
		if (!buffer_uptodate(bh) && (block_start < from || block_end > to)) {
			err = bh_read(bh);
			if (err)
				break;
		}
next:
		fully_mapped &= buffer_mapped(bh);
		block_start = block_end;
		block++;
	} while ((bh = bh->b_this_page) != head);
	if (err) {
		folio_zero_new_buffers(folio, from, to);
		return err;
	}
	if (fully_mapped)
		folio_set_mappedtodisk(folio);
	return 0;
}

int block_write_begin(struct address_space *mapping, loff_t pos, unsigned int len,
		      struct folio **foliop, get_block_t *get_block)
{
	struct folio *folio = __filemap_get_folio(mapping, (pgoff_t)(pos >> PAGE_SHIFT),
						  FGP_LOCK | FGP_WRITE | FGP_CREAT, GFP_NOFS);
	int err;

	if (IS_ERR(folio))
		return (int)PTR_ERR(folio);
	err = __block_write_begin(folio, pos, len, get_block);
	if (err) {
		folio_unlock(folio);
		folio_put(folio);
		return err;
	}
	*foliop = folio;
	return 0;
}

/* v6.10's __block_commit_write: the written buffers uptodate and dirty, BH_New gone. */
static void block_commit_write(struct folio *folio, size_t from, size_t to)
{
	struct buffer_head *head = folio_buffers(folio), *bh = head;
	size_t block_start = 0;
	bool partial = false;

	do {
		size_t block_end = block_start + bh->b_size;

		if (block_end <= from || block_start >= to) {
			if (!buffer_uptodate(bh))
				partial = true;
		} else {
			set_buffer_uptodate(bh);
			mark_buffer_dirty(bh);
		}
		clear_buffer_new(bh);
		block_start = block_end;
	} while ((bh = bh->b_this_page) != head);
	if (!partial)
		folio_mark_uptodate(folio);
}

int block_write_end(struct address_space *mapping, loff_t pos, unsigned int len,
		    unsigned int copied, struct folio *folio)
{
	size_t start = (size_t)(pos & (PAGE_SIZE - 1));

	lockdep_assert_folio_locked(folio);
	if (copied < len) {
		/* A short copy into a folio whose other bytes are not valid: nothing counts. */
		if (!folio_test_uptodate(folio))
			copied = 0;
		folio_zero_new_buffers(folio, start + copied, start + len);
	}
	block_commit_write(folio, start, start + copied);
	return (int)copied;
}

int generic_write_end(struct address_space *mapping, loff_t pos, unsigned int len,
		      unsigned int copied, struct folio *folio)
{
	struct inode *inode = mapping_inode(mapping);
	int done = block_write_end(mapping, pos, len, copied, folio);

	/* Before the unlock, as v6.10: a reader that finds the folio sees the size too. */
	if (pos + done > i_size_read(inode))
		i_size_write(inode, pos + done);
	folio_unlock(folio);
	folio_put(folio);
	return done;
}

/* ---- writing a folio back ---- */

/* v6.10's __block_write_full_folio: the locked, dirty-cleared folio's dirty buffers. */
static int __block_write_full_folio(struct inode *inode, struct folio *folio,
				    get_block_t *get_block, struct writeback_control *wbc)
{
	struct buffer_head *head, *bh;
	int err = 0;

	head = folio_create_buffers(folio, inode, (1UL << BH_Dirty) | (1UL << BH_Uptodate));
	if (!head) {
		folio_redirty_for_writepage(wbc, folio);
		folio_unlock(folio);
		return -ENOMEM;
	}
	size_t blocksize = head->b_size;
	sector_t block = ((sector_t)folio->index << PAGE_SHIFT) / blocksize;
	sector_t last_block = ((sector_t)i_size_read(inode) - 1) / blocksize;

	/* Map every dirty buffer inside i_size; those past it were zeroed by the caller. */
	bh = head;
	do {
		if (block > last_block) {
			clear_buffer_dirty(bh);
			set_buffer_uptodate(bh);
		} else if (!buffer_mapped(bh) && buffer_dirty(bh)) {
			err = get_block(inode, block, bh, 1);
			if (err)
				break;
			if (buffer_new(bh)) {
				clear_buffer_new(bh);
				clean_bdev_aliases(bh->b_bdev, bh->b_blocknr, 1);
			}
		}
		block++;
	} while ((bh = bh->b_this_page) != head);
	if (err) {
		/* ENOSPC or an I/O error: what is mapped is still written (blocks may already
		 * be in the file: stale data must not show), the rest is dropped, the error is
		 * the mapping's (v6.10's "recover" path). */
		bh = head;
		do {
			if (!buffer_mapped(bh))
				clear_buffer_dirty(bh);
		} while ((bh = bh->b_this_page) != head);
		mapping_set_error(folio->mapping, err);
	}
	int werr = block_write_dirty_buffers(folio, wbc);
	return err ? err : werr;
}

int block_write_dirty_buffers(struct folio *folio, struct writeback_control *wbc)
{
	struct buffer_head *arr[MAX_BUF_PER_PAGE], *head = folio_buffers(folio), *bh = head;
	int nr = 0;

	lockdep_assert_folio_locked(folio);
	do {
		if (!buffer_mapped(bh))
			continue;
		if (wbc->sync_mode != WB_SYNC_NONE) {
			lock_buffer(bh);
		} else if (!trylock_buffer(bh)) {
			folio_redirty_for_writepage(wbc, folio);
			continue;
		}
		if (test_clear_buffer_dirty(bh)) {
			set_buffer_async_write(bh);
			arr[nr++] = bh;
		} else {
			unlock_buffer(bh);
		}
	} while ((bh = bh->b_this_page) != head);

	BUG_ON(folio_test_writeback(folio));
	folio_start_writeback(folio);
	submit_bh_runs(arr, nr, REQ_OP_WRITE);
	folio_unlock(folio);
	/* Dirty folio, clean buffers: someone wrote them by hand (sync_dirty_buffer). */
	if (!nr)
		folio_end_writeback(folio);
	return 0;
}

int block_write_full_folio(struct folio *folio, struct writeback_control *wbc,
			   get_block_t *get_block)
{
	struct inode *inode = mapping_inode(folio->mapping);
	loff_t i_size = i_size_read(inode), pos = (loff_t)folio->index << PAGE_SHIFT;

	lockdep_assert_folio_locked(folio);
	if (pos + (loff_t)PAGE_SIZE <= i_size)
		return __block_write_full_folio(inode, folio, get_block, wbc);
	if (pos >= i_size) {			/* wholly past the end: a truncate is under way */
		folio_unlock(folio);
		return 0;
	}
	/* Straddling i_size: the bytes past it read as zero and are never written as data. */
	folio_zero_range(folio, (size_t)(i_size - pos), (size_t)(pos + (loff_t)PAGE_SIZE - i_size));
	return __block_write_full_folio(inode, folio, get_block, wbc);
}

struct mpage_ctx {
	get_block_t *get_block;
};

static int mpage_write_folio(struct folio *folio, struct writeback_control *wbc, void *data)
{
	return block_write_full_folio(folio, wbc, ((struct mpage_ctx *)data)->get_block);
}

/* v6.10's mpage_writepages falls back to block_write_full_folio for folios with buffers;
 * here every folio has them, so it is always that: one bio per contiguous run per folio. */
int mpage_writepages(struct address_space *mapping, struct writeback_control *wbc,
		     get_block_t *get_block)
{
	struct mpage_ctx ctx = { get_block };

	return write_cache_pages(mapping, wbc, mpage_write_folio, &ctx);
}

int block_truncate_page(struct address_space *mapping, loff_t from, get_block_t *get_block)
{
	struct inode *inode = mapping_inode(mapping);
	size_t blocksize = inode->i_sb->s_blocksize, offset, length = (size_t)from & (blocksize - 1);
	struct buffer_head *bh;
	struct folio *folio;
	int err = 0;

	if (!length)
		return 0;			/* the new end is on a block boundary */
	length = blocksize - length;
	folio = __filemap_get_folio(mapping, (pgoff_t)(from >> PAGE_SHIFT),
				    FGP_LOCK | FGP_CREAT | FGP_ACCESSED, GFP_NOFS);
	if (IS_ERR(folio))
		return (int)PTR_ERR(folio);
	bh = folio_create_buffers(folio, inode, 0);
	if (!bh) {
		err = -ENOMEM;
		goto unlock;
	}
	offset = (size_t)from & (PAGE_SIZE - 1);
	sector_t iblock = ((sector_t)folio->index << PAGE_SHIFT) / blocksize;
	for (size_t pos = blocksize; offset >= pos; pos += blocksize) {
		bh = bh->b_this_page;
		iblock++;
	}
	if (!buffer_mapped(bh)) {
		err = get_block(inode, iblock, bh, 0);
		if (err || !buffer_mapped(bh))
			goto unlock;		/* a hole: nothing on disk to zero */
	}
	if (folio_test_uptodate(folio))
		set_buffer_uptodate(bh);
	if (!buffer_uptodate(bh)) {
		err = bh_read(bh);
		if (err)
			goto unlock;
	}
	folio_zero_range(folio, offset, length);
	mark_buffer_dirty(bh);
unlock:
	folio_unlock(folio);
	folio_put(folio);
	return err;
}

