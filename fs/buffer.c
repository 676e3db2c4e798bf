/*
 * buffer.c - buffer heads (include/tinymm/buffer_head.h): a folio's blocks, each mapped to a
 * disk block, for filesystems whose data and metadata live in the page cache.  Linux v6.10's
 * fs/buffer.c, small: attaching and freeing a folio's ring of buffers, the buffer lock, folio
 * I/O as one bio per run of blocks and its completion, dirtying, invalidation, and metadata
 * buffers in the block device's cache (__bread, mark_buffer_dirty, sync_dirty_buffer).  The
 * address_space_operations helpers built on them are fs/buffer_aops.c.
 *
 * Invariants:
 *   - PG_private <=> folio->private is the first of the folio's ring of buffers, and one
 *     folio reference is held for the ring (folio_attach_private); every buffer has b_folio
 *     == the folio and b_data inside it, and all have one b_size;
 *   - PG_mappedtodisk is set only when every buffer of the folio is BH_Mapped;
 *   - BH_Async_Read / BH_Async_Write are set only on BH_Lock'ed buffers of a locked (read) or
 *     writeback (write) folio; the completion that clears the last of them ends the folio's
 *     read (uptodate if every buffer is, unlock) or writeback;
 *   - a buffer is freed only when clean, unlocked and unreferenced (try_to_free_buffers);
 *   - a block device's folio holds buffers only while uptodate, all of one size.
 * Locking: the folio lock around attaching, detaching and mapping buffers; buffer_io_lock
 *   (irqs masked: completions run in interrupts) around the completions' "last one?" scan;
 *   BH_Lock, a sleeping bit lock, around one buffer's I/O.  Order: folio lock, BH_Lock,
 *   buffer_io_lock, then the mapping's xa_lock.
 *
 * Where tinymm differs from v6.10, and why: include/tinymm/buffer_head.h says (one page per
 * folio, whole-folio writeback of the block device, bios per run, no LRU or journal).
 */
#include <string.h>
#include "tinymm/bug.h"
#include "tinymm/buffer_head.h"
#include "tinymm/errno.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/wait.h"
#include "tinymm/writeback.h"
#include "buffer_internal.h"

static struct kmem_cache *bh_cachep;
static DEFINE_SPINLOCK(buffer_io_lock);
static DECLARE_WAIT_QUEUE_HEAD(buffer_wait);

static sector_t bh_sector(const struct buffer_head *bh)
{
	return bh->b_blocknr * (bh->b_size >> SECTOR_SHIFT);
}

/* ---- the buffer lock ---- */

void __lock_buffer(struct buffer_head *bh)
{
	wait_event(buffer_wait, trylock_buffer(bh));
}

void unlock_buffer(struct buffer_head *bh)
{
	clear_bit(BH_Lock, &bh->b_state);
	smp_mb__after_atomic();
	if (waitqueue_active(&buffer_wait))
		wake_up(&buffer_wait);
}

void __wait_on_buffer(struct buffer_head *bh)
{
	wait_event(buffer_wait, !buffer_locked(bh));
}

/* ---- attaching and freeing a folio's buffers ---- */

static struct buffer_head *alloc_buffer_head(gfp_t gfp)
{
	struct buffer_head *bh;

	/* Made on first use (as block/blk-core.c's bio cache): no boot hook needed. */
	if (!bh_cachep)
		bh_cachep = kmem_cache_create("buffer_head", sizeof(struct buffer_head), 0, 0, NULL);
	bh = bh_cachep ? kmem_cache_alloc(bh_cachep, gfp) : NULL;
	if (bh)
		memset(bh, 0, sizeof(*bh));
	return bh;
}

static void free_buffer_head(struct buffer_head *bh)
{
	kmem_cache_free(bh_cachep, bh);
}

struct buffer_head *create_empty_buffers(struct folio *folio, unsigned long blocksize,
					 unsigned long b_state)
{
	struct buffer_head *head = NULL, *tail = NULL;

	lockdep_assert_folio_locked(folio);
	if (WARN_ON(folio_buffers(folio)))
		return folio_buffers(folio);
	if (blocksize < SECTOR_SIZE || blocksize > PAGE_SIZE || (blocksize & (blocksize - 1))) {
		pr_warn("buffer: bad block size %lu\n", blocksize);
		return NULL;
	}
	/* From the last block down, as v6.10's folio_alloc_buffers(). */
	for (long off = (long)(PAGE_SIZE - blocksize); off >= 0; off -= (long)blocksize) {
		struct buffer_head *bh = alloc_buffer_head(GFP_NOFS);

		if (!bh) {
			while (head) {
				struct buffer_head *next = head->b_this_page;
				free_buffer_head(head);
				head = next;
			}
			return NULL;
		}
		bh->b_this_page = head;
		bh->b_folio = folio;
		bh->b_size = blocksize;
		bh->b_data = (char *)page_address(&folio->page) + off;
		bh->b_state = b_state;
		atomic_set(&bh->b_count, 0);
		if (!tail)
			tail = bh;
		head = bh;
	}
	tail->b_this_page = head;
	/* v6.10: a dirty folio's buffers are dirty, an uptodate folio's uptodate. */
	for (struct buffer_head *bh = head;;) {
		if (folio_test_dirty(folio))
			set_buffer_dirty(bh);
		if (folio_test_uptodate(folio))
			set_buffer_uptodate(bh);
		if ((bh = bh->b_this_page) == head)
			break;
	}
	folio_attach_private(folio, head);
	return head;
}

struct buffer_head *folio_create_buffers(struct folio *folio, struct inode *inode,
					 unsigned long b_state)
{
	lockdep_assert_folio_locked(folio);
	if (folio_buffers(folio))
		return folio_buffers(folio);
	return create_empty_buffers(folio, inode->i_sb->s_blocksize, b_state);
}

static bool buffer_busy(const struct buffer_head *bh)
{
	return atomic_read(&bh->b_count) ||
	       (bh->b_state & ((1UL << BH_Dirty) | (1UL << BH_Lock)));
}

bool try_to_free_buffers(struct folio *folio)
{
	struct buffer_head *head = folio_buffers(folio), *bh;

	lockdep_assert_folio_locked(folio);
	if (folio_test_writeback(folio))
		return false;
	if (!head)
		return true;
	bh = head;
	do {
		if (buffer_busy(bh))
			return false;
	} while ((bh = bh->b_this_page) != head);
	do {
		if (buffer_write_io_error(bh) && folio->mapping)
			mapping_set_error(folio->mapping, -EIO);
	} while ((bh = bh->b_this_page) != head);
	folio_detach_private(folio);
	bh = head;
	do {
		struct buffer_head *next = bh->b_this_page;
		free_buffer_head(bh);
		bh = next;
	} while (bh != head);
	/* v6.10: clean buffers on a dirty folio were written by hand (sync_dirty_buffer): the
	 * folio is clean too, or the VM would never see that the I/O was done. */
	if (folio->mapping)
		folio_cancel_dirty(folio);
	return true;
}

/* ---- folio I/O: a bio per contiguous run of buffers ---- */

static void buffer_io_error(struct buffer_head *bh, const char *what)
{
	pr_err("Buffer I/O error on dev %s, logical block %llu%s\n",
	       bh->b_bdev ? bh->b_bdev->bd_name : "?", (unsigned long long)bh->b_blocknr, what);
}

/*
 * The buffers of @folio at byte offsets [off, off + len) are done (status 0 or -errno).  The
 * completion that leaves no buffer in flight ends the folio: a read marks it uptodate if
 * every buffer is and unlocks it, a write ends its writeback.
 */
static void end_folio_buffers(struct folio *folio, unsigned int off, unsigned int len, int status,
			      bool write)
{
	struct buffer_head *head = folio_buffers(folio), *bh = head;
	int async = write ? BH_Async_Write : BH_Async_Read;
	bool busy = false, uptodate = true;
	unsigned long flags;

	if (status && write && folio->mapping)
		mapping_set_error(folio->mapping, status);	/* before the folio's end */
	spin_lock_irqsave(&buffer_io_lock, flags);
	do {
		unsigned int o = bh_offset(bh);

		if (o >= off && o < off + len && test_bit(async, &bh->b_state)) {
			if (!status && !write)
				set_buffer_uptodate(bh);
			if (status) {
				clear_buffer_uptodate(bh);
				if (write)
					set_buffer_write_io_error(bh);
			}
			clear_bit(async, &bh->b_state);
			clear_bit(BH_Lock, &bh->b_state);
		}
		busy |= test_bit(async, &bh->b_state);
		uptodate &= buffer_uptodate(bh);
	} while ((bh = bh->b_this_page) != head);
	spin_unlock_irqrestore(&buffer_io_lock, flags);
	smp_mb__after_atomic();
	if (waitqueue_active(&buffer_wait))
		wake_up(&buffer_wait);
	if (busy)
		return;
	if (write) {
		folio_end_writeback(folio);
	} else {
		if (uptodate)
			folio_mark_uptodate(folio);
		folio_unlock(folio);
	}
}

static void end_bio_bh_io(struct bio *bio)
{
	struct folio *folio = page_folio(bio->bi_io_vec[0].bv_page);
	bool write = bio_op(bio) == REQ_OP_WRITE;

	if (bio->bi_status) {
		struct buffer_head *head = folio_buffers(folio), *bh = head;
		while (bh_offset(bh) != bio->bi_io_vec[0].bv_offset)
			bh = bh->b_this_page;
		buffer_io_error(bh, write ? ", lost async page write" : ", async page read");
	}
	end_folio_buffers(folio, bio->bi_io_vec[0].bv_offset, bio->bi_size, bio->bi_status, write);
	bio_put(bio);
}

/*
 * Submit the @nr buffers of @arr (one folio's, in order, each locked and marked async) as
 * one bio per run of consecutive disk blocks adjacent in the folio.  A bio that cannot be
 * allocated ends its run with -ENOMEM.
 */
void submit_bh_runs(struct buffer_head **arr, int nr, unsigned int op)
{
	for (int i = 0; i < nr;) {
		int j = i + 1;

		while (j < nr && arr[j]->b_blocknr == arr[j - 1]->b_blocknr + 1 &&
		       bh_offset(arr[j]) == bh_offset(arr[j - 1]) + arr[j - 1]->b_size &&
		       arr[j]->b_bdev == arr[i]->b_bdev)
			j++;
		unsigned int len = (unsigned int)(arr[i]->b_size * (size_t)(j - i));
		struct bio *bio = bio_alloc(arr[i]->b_bdev, 1, op, GFP_NOIO);

		if (!bio) {
			end_folio_buffers(arr[i]->b_folio, bh_offset(arr[i]), len, -ENOMEM,
					  op == REQ_OP_WRITE);
		} else {
			bio->bi_sector = bh_sector(arr[i]);
			bio->bi_end_io = end_bio_bh_io;
			bio_add_page(bio, &arr[i]->b_folio->page, len, bh_offset(arr[i]));
			submit_bio(bio);
		}
		i = j;
	}
}

/* One buffer, synchronously (the caller holds its BH_Lock): 0 or -errno. */
static int submit_bh_wait(unsigned int op, struct buffer_head *bh)
{
	struct bio *bio = bio_alloc(bh->b_bdev, 1, op, GFP_NOIO);
	int err;

	if (!bio)
		return -ENOMEM;
	bio->bi_sector = bh_sector(bh);
	bio_add_page(bio, &bh->b_folio->page, (unsigned int)bh->b_size, bh_offset(bh));
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* v6.10's bh_read(): read one mapped buffer now.  0 or -EIO. */
int bh_read(struct buffer_head *bh)
{
	int err = 0;

	lock_buffer(bh);
	if (!buffer_uptodate(bh)) {
		err = submit_bh_wait(REQ_OP_READ, bh);
		if (!err)
			set_buffer_uptodate(bh);
		else
			buffer_io_error(bh, ", sync read");
	}
	unlock_buffer(bh);
	return err ? -EIO : 0;
}

bool block_dirty_folio(struct address_space *mapping, struct folio *folio)
{
	struct buffer_head *head = folio_buffers(folio), *bh = head;

	lockdep_assert_folio_locked(folio);
	if (head) {
		do {
			set_buffer_dirty(bh);
		} while ((bh = bh->b_this_page) != head);
	}
	return filemap_dirty_folio(mapping, folio);
}

/* ---- truncation and invalidation ---- */

/* v6.10's discard_buffer: the block is no longer the file's. */
static void discard_buffer(struct buffer_head *bh)
{
	lock_buffer(bh);
	clear_buffer_dirty(bh);
	bh->b_bdev = NULL;
	bh->b_state &= ~((1UL << BH_Mapped) | (1UL << BH_New) | (1UL << BH_Req));
	unlock_buffer(bh);
}

void block_invalidate_folio(struct folio *folio, size_t offset, size_t length)
{
	struct buffer_head *head = folio_buffers(folio), *bh = head;
	size_t curr_off = 0, stop = offset + length;

	lockdep_assert_folio_locked(folio);
	if (!head)
		return;
	BUG_ON(stop > PAGE_SIZE || stop < length);
	do {
		size_t next_off = curr_off + bh->b_size;
		struct buffer_head *next = bh->b_this_page;

		if (next_off > stop)
			break;
		if (offset <= curr_off)
			discard_buffer(bh);
		curr_off = next_off;
		bh = next;
	} while (bh != head);
	/* Only a whole folio loses its buffers: their mappings are gone, no I/O can follow. */
	if (length == PAGE_SIZE)
		filemap_release_folio(folio, 0);
}

/* ---- metadata buffers in the block device's page cache ---- */

/*
 * The folio of @bdev's cache holding block @block of @size bytes, locked, uptodate, with its
 * buffers (created mapped and uptodate); NULL (with a reason line for a bad request).
 */
static struct folio *bdev_folio_buffers(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct address_space *mapping = bdev->bd_mapping;
	struct folio *folio;

	if (size < SECTOR_SIZE || size > PAGE_SIZE || (size & (size - 1)) ||
	    size < bdev->bd_logical_block_size) {
		pr_err("buffer: %s: bad block size %u\n", bdev->bd_name, size);
		return NULL;
	}
	if (!mapping || block >= bdev_nr_bytes(bdev) / size) {
		pr_err("buffer: %s: block %llu is beyond the end of the device\n", bdev->bd_name,
		       (unsigned long long)block);
		return NULL;
	}
	pgoff_t index = (pgoff_t)((block * size) >> PAGE_SHIFT);
	for (;;) {
		folio = read_cache_folio(mapping, index);
		if (IS_ERR(folio))
			return NULL;
		folio_lock(folio);
		if (folio->mapping == mapping)
			break;
		folio_unlock(folio);		/* truncated meanwhile: again */
		folio_put(folio);
	}
	struct buffer_head *head = folio_buffers(folio), *bh;
	if (head && head->b_size != size) {
		pr_warn("buffer: %s: block %llu asked in %u-byte blocks, cached in %zu-byte ones\n",
			bdev->bd_name, (unsigned long long)block, size, head->b_size);
		folio_unlock(folio);
		folio_put(folio);
		return NULL;
	}
	if (!head) {
		head = create_empty_buffers(folio, size, (1UL << BH_Mapped) | (1UL << BH_Uptodate));
		if (!head) {
			folio_unlock(folio);
			folio_put(folio);
			return NULL;
		}
		sector_t first = ((sector_t)index << PAGE_SHIFT) / size;
		bh = head;
		do {
			bh->b_bdev = bdev;
			bh->b_blocknr = first + bh_offset(bh) / size;
		} while ((bh = bh->b_this_page) != head);
	}
	return folio;
}

struct buffer_head *__getblk(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct folio *folio = bdev_folio_buffers(bdev, block, size);
	struct buffer_head *bh;

	if (!folio)
		return NULL;
	bh = folio_buffers(folio);
	while (bh->b_blocknr != block)
		bh = bh->b_this_page;
	get_bh(bh);
	/* The buffer's reference keeps the folio (try_to_free_buffers refuses it), and the
	 * buffers' own folio reference keeps it allocated: ours can go. */
	folio_unlock(folio);
	folio_put(folio);
	return bh;
}

struct buffer_head *__bread(struct block_device *bdev, sector_t block, unsigned int size)
{
	return __getblk(bdev, block, size);	/* it reads (buffer_head.h says why) */
}

void brelse(struct buffer_head *bh)
{
	if (!bh)
		return;
	if (WARN_ON_ONCE(atomic_read(&bh->b_count) <= 0))
		return;
	put_bh(bh);
}

void mark_buffer_dirty(struct buffer_head *bh)
{
	if (buffer_dirty(bh))
		return;
	if (!test_and_set_bit(BH_Dirty, &bh->b_state)) {
		struct folio *folio = bh->b_folio;

		filemap_dirty_folio(READ_ONCE(folio->mapping), folio);
	}
}

int sync_dirty_buffer(struct buffer_head *bh)
{
	int err = 0;

	lock_buffer(bh);
	if (test_clear_buffer_dirty(bh)) {
		get_bh(bh);
		err = submit_bh_wait(REQ_OP_WRITE, bh);
		if (err) {
			buffer_io_error(bh, ", lost sync page write");
			set_buffer_write_io_error(bh);
			if (bh->b_folio->mapping)
				mapping_set_error(bh->b_folio->mapping, -EIO);
			err = -EIO;
		}
		put_bh(bh);
	}
	unlock_buffer(bh);
	return err;
}

/*
 * The cached copies of blocks [block, block + len) of @bdev: clean, no longer to be written
 * (v6.10's clean_bdev_aliases).  The blocks' size is the buffers' own: each size a folio of
 * the device may hold buffers of is looked at.
 */
void clean_bdev_aliases(struct block_device *bdev, sector_t block, sector_t len)
{
	if (!bdev || !bdev->bd_mapping)
		return;
	for (sector_t b = block; b < block + len; b++) {
		for (unsigned int size = SECTOR_SIZE; size <= PAGE_SIZE; size <<= 1) {
			struct folio *folio = filemap_get_folio(bdev->bd_mapping,
								(pgoff_t)((b * size) >> PAGE_SHIFT));
			struct buffer_head *head, *bh;

			if (IS_ERR(folio))
				continue;
			folio_lock(folio);
			head = folio_buffers(folio);
			if (head && head->b_size == size) {
				bh = head;
				do {
					if (bh->b_blocknr == b) {
						clear_buffer_dirty(bh);
						wait_on_buffer(bh);
						clear_buffer_req(bh);
					}
				} while ((bh = bh->b_this_page) != head);
			}
			folio_unlock(folio);
			folio_put(folio);
		}
	}
}
