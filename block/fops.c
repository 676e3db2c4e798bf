/*
 * fops.c - a block device's page cache (Linux's block/fops.c: def_blk_aops): the
 * address_space operations that read folios through bios, prepare and finish a write into a
 * folio (write_begin/write_end, which mm/filemap.c's generic_perform_write calls) and write
 * folios back, the per-device readahead state, and blkdev_fsync() for the shell's `sync`.
 *
 * read_folio: one bio for one folio; readahead: the batch's consecutive folios in as few bios
 * as the device's segment limit allows, marked REQ_RAHEAD.  The completion (interrupt context)
 * marks each folio uptodate, or leaves it not uptodate on an error, then unlocks it, which
 * wakes any reader waiting on the folio lock.  A page straddling the end
 * of the disk is read up to the last sector and the rest zeroed.
 * Invariants: every folio handed to read_folio/readahead is locked and not uptodate, and is
 *   unlocked exactly once, by the completion or by the failure path here.
 * Locking: none of its own: folio locks and the mapping's index lock (mm/filemap.c).
 *
 * A filesystem's metadata buffers live on these folios (fs/buffer.c: __bread and friends); a
 * folio with buffers is written buffer by buffer, only the dirty ones (block_write_dirty_buffers),
 * as v6.10 does; a folio without them (the shell's `blk write`) is written whole.
 *
 * Where tinymm differs from v6.10, and why: a write error of a folio without buffers prints
 * v6.10's buffer_io_error() line once per bio, not per buffer.  def_blk_aops has an
 * error_remove_folio (v6.10's has none: there a dirty block-device folio stays, "Failed"):
 * tinymm's disks are its files, so a memory error punches the folio out of the cache as a
 * filesystem's generic_error_remove_folio() does (docs/hwpoison.md).
 */
#include <limits.h>
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/buffer_head.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/writeback.h"

/* What Linux keeps in the block device's inode and its open file: the shell is one long-lived
 * opener of every disk, with one readahead state and one write-error cursor (f_wb_err). */
struct bdev_inode {
	struct address_space mapping;
	struct file_ra_state ra;
	errseq_t f_wb_err;
	struct block_device *bdev;
};

static struct bdev_inode *BDEV_I(struct address_space *mapping)
{
	return container_of(mapping, struct bdev_inode, mapping);
}

static void blkdev_read_end_io(struct bio *bio)
{
	struct address_space *mapping = bio->bi_private;

	/* A failed read leaves the folio not uptodate, which is how the reader learns of it;
	 * Linux's read completions never touch the mapping's error (writeback's channel). */
	(void)mapping;
	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct folio *folio = page_folio(bio->bi_io_vec[i].bv_page);
		if (!bio->bi_status)
			folio_mark_uptodate(folio);
		folio_unlock(folio);
	}
	bio_put(bio);
}

/* Bytes of the folio at @index that lie on the disk (a whole page except at the very end). */
static unsigned int folio_disk_bytes(struct address_space *mapping, pgoff_t index)
{
	uint64_t pos = (uint64_t)index << PAGE_SHIFT, size = (uint64_t)mapping->size;

	if (pos >= size)
		return 0;
	return size - pos >= PAGE_SIZE ? PAGE_SIZE : (unsigned int)(size - pos);
}

static struct bio *blkdev_bio(struct address_space *mapping, pgoff_t index, unsigned int nr_vecs,
			      unsigned int opf)
{
	struct bio *bio = bio_alloc(BDEV_I(mapping)->bdev, (unsigned short)nr_vecs, opf, GFP_KERNEL);

	if (bio) {
		bio->bi_sector = (sector_t)index << (PAGE_SHIFT - SECTOR_SHIFT);
		bio->bi_end_io = blkdev_read_end_io;
		bio->bi_private = mapping;
	}
	return bio;
}

/* Add @folio to @bio; the part beyond the disk's end is zeroed, not read. */
static bool blkdev_add_folio(struct address_space *mapping, struct bio *bio, struct folio *folio)
{
	unsigned int len = folio_disk_bytes(mapping, folio->index);

	len = ALIGN(len, SECTOR_SIZE);
	if (len < PAGE_SIZE)
		memset((char *)page_address(&folio->page) + len, 0, PAGE_SIZE - len);
	return len && bio_add_page(bio, &folio->page, len, 0) == len;
}

static int blkdev_read_folio(struct address_space *mapping, struct folio *folio)
{
	struct bio *bio = blkdev_bio(mapping, folio->index, 1, REQ_OP_READ);

	if (!bio || !blkdev_add_folio(mapping, bio, folio)) {
		if (bio)
			bio_put(bio);
		folio_unlock(folio);
		return bio ? -EINVAL : -ENOMEM;
	}
	submit_bio(bio);
	return 0;
}

static void blkdev_readahead(struct readahead_control *rac)
{
	struct address_space *mapping = rac->mapping;
	unsigned int max_vecs = BDEV_I(mapping)->bdev->bd_max_segments;
	struct bio *bio = NULL;
	struct folio *folio;

	if (!max_vecs)
		max_vecs = 1;
	while ((folio = readahead_folio(rac))) {
		/* Not contiguous with the bio so far, or the bio is full (the device's segment
		 * limit, or the bio's own size): send it and start another for this folio. */
		for (int attempt = 0; attempt < 2; attempt++) {
			if (bio && (bio->bi_vcnt >= max_vecs ||
				    bio->bi_sector + (bio->bi_size >> SECTOR_SHIFT) !=
				    (sector_t)folio->index << (PAGE_SHIFT - SECTOR_SHIFT))) {
				submit_bio(bio);
				bio = NULL;
			}
			if (!bio)
				bio = blkdev_bio(mapping, folio->index,
						 min(max_vecs, readahead_count(rac)), REQ_OP_READ | REQ_RAHEAD);
			if (!bio || blkdev_add_folio(mapping, bio, folio))
				break;
			if (!bio->bi_vcnt) {		/* refused by an empty bio: never will fit */
				bio_put(bio);
				bio = NULL;
				break;
			}
			submit_bio(bio);		/* full: send it, try a fresh one */
			bio = NULL;
		}
		if (!bio || bio->bi_io_vec[bio->bi_vcnt - 1].bv_page != &folio->page)
			folio_unlock(folio);	/* not read: stays not uptodate, read on demand */
	}
	if (bio) {
		if (bio->bi_vcnt)
			submit_bio(bio);
		else
			bio_put(bio);
	}
}

/* Write completion (interrupt context): the error goes to the mapping before any folio's
 * writeback ends, so a sync that waited for the folios sees it. */
static void blkdev_write_end_io(struct bio *bio)
{
	struct address_space *mapping = bio->bi_private;

	if (bio->bi_status) {
		struct block_device *bdev = BDEV_I(mapping)->bdev;
		/* Linux's buffer_io_error() line (once per bio: see the header). */
		pr_err("Buffer I/O error on dev %s, logical block %llu, lost async page write\n",
		       bdev->bd_name, (unsigned long long)(bio->bi_sector /
			(bdev->bd_logical_block_size >> SECTOR_SHIFT)));
		mapping_set_error(mapping, bio->bi_status);
	}
	for (unsigned int i = 0; i < bio->bi_vcnt; i++)
		folio_end_writeback(page_folio(bio->bi_io_vec[i].bv_page));
	bio_put(bio);
}

struct blkdev_wb_ctx {
	struct bio *bio;
	unsigned int max_vecs;		/* 0: as many as the device takes (up to 256) */
};

static void blkdev_wb_submit(struct blkdev_wb_ctx *ctx)
{
	if (ctx->bio)
		submit_bio(ctx->bio);
	ctx->bio = NULL;
}

/* write_cache_pages()'s writepage: @folio is locked, dirty bit cleared for I/O. */
static int blkdev_write_folio(struct folio *folio, struct writeback_control *wbc, void *data)
{
	struct blkdev_wb_ctx *ctx = data;
	struct address_space *mapping = folio->mapping;
	unsigned int len = ALIGN(folio_disk_bytes(mapping, folio->index), SECTOR_SIZE);
	unsigned int max_vecs = max(BDEV_I(mapping)->bdev->bd_max_segments, 1U);

	if (ctx->max_vecs)
		max_vecs = min(max_vecs, ctx->max_vecs);
	sector_t sector = (sector_t)folio->index << (PAGE_SHIFT - SECTOR_SHIFT);
	struct bio *bio = ctx->bio;

	if (!len) {				/* wholly past the end: nothing on disk to write */
		folio_unlock(folio);
		return 0;
	}
	/*
	 * A folio holding a filesystem's metadata buffers: only its dirty buffers go, as v6.10's
	 * block_write_full_folio on a block device.  A clean buffer's block may have been freed
	 * and now belong to a file (a freed indirect block reused for data), whose writeback owns
	 * those bytes on disk: writing the whole folio would put this cache's stale copy over them.
	 */
	if (folio_buffers(folio)) {
		blkdev_wb_submit(ctx);		/* keep the bios in folio order */
		return block_write_dirty_buffers(folio, wbc);
	}
	/* A new bio unless this folio continues the current one and it has room. */
	if (bio && (bio->bi_vcnt == bio->bi_max_vecs || bio->bi_size % PAGE_SIZE ||
		    bio->bi_sector + (bio->bi_size >> SECTOR_SHIFT) != sector))
		blkdev_wb_submit(ctx);
	if (!ctx->bio) {
		ctx->bio = bio_alloc(BDEV_I(mapping)->bdev, (unsigned short)min(max_vecs, 256U),
				     REQ_OP_WRITE, GFP_KERNEL);
		if (!ctx->bio) {
			folio_redirty_for_writepage(wbc, folio);
			folio_unlock(folio);
			return -ENOMEM;
		}
		ctx->bio->bi_sector = sector;
		ctx->bio->bi_end_io = blkdev_write_end_io;
		ctx->bio->bi_private = mapping;
	}
	if (bio_add_page(ctx->bio, &folio->page, len, 0) != len) {	/* cannot happen: room checked */
		folio_redirty_for_writepage(wbc, folio);
		folio_unlock(folio);
		return -EIO;
	}
	folio_start_writeback(folio);
	folio_unlock(folio);
	return 0;
}

static int blkdev_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	struct blkdev_wb_ctx ctx = { 0 };
	int err = write_cache_pages(mapping, wbc, blkdev_write_folio, &ctx);

	blkdev_wb_submit(&ctx);
	return err;
}

/* Reclaim's single folio (Linux's blkdev_writepage): a bio of its own, one vector (one folio),
 * submitted at once.  Small on purpose: it is allocated while memory is short. */
static int blkdev_writepage(struct folio *folio, struct writeback_control *wbc)
{
	struct blkdev_wb_ctx ctx = { NULL, 1 };
	int err = blkdev_write_folio(folio, wbc, &ctx);

	blkdev_wb_submit(&ctx);
	return err;
}

/* A locked folio the write covers only in part must hold the disk's bytes first (Linux's
 * __block_write_begin reads the rest).  0 with the folio locked and uptodate; else -errno and
 * the folio unlocked.  1: it left the mapping while being read, look it up again. */
static int blkdev_write_begin_read(struct address_space *mapping, struct folio *folio)
{
	int err = mapping->a_ops->read_folio(mapping, folio);	/* unlocks when done */

	if (err)
		return err;
	folio_lock(folio);
	if (folio->mapping != mapping) {
		folio_unlock(folio);
		return 1;
	}
	if (!folio_test_uptodate(folio)) {
		folio_unlock(folio);
		return -EIO;
	}
	return 0;
}

/* True when [pos, pos + len) covers every byte of its folio that lies on the disk. */
static bool blkdev_write_whole(struct address_space *mapping, loff_t pos, unsigned int len)
{
	unsigned int poff = (unsigned int)(pos & (PAGE_SIZE - 1));

	return poff == 0 && len >= folio_disk_bytes(mapping, (pgoff_t)(pos >> PAGE_SHIFT));
}

/* Linux's blkdev_write_begin (block_write_begin): the folio found or created locked, read
 * first unless the write covers all of it that is on the disk or it is uptodate already. */
static int blkdev_write_begin(struct address_space *mapping, loff_t pos, unsigned int len,
			      struct folio **foliop)
{
	pgoff_t index = (pgoff_t)(pos >> PAGE_SHIFT);

	for (;;) {
		unsigned int fgp = FGP_LOCK | FGP_CREAT | FGP_WRITE;
		struct folio *folio = __filemap_get_folio(mapping, index, fgp, GFP_KERNEL);

		if (IS_ERR(folio))
			return (int)PTR_ERR(folio);
		if (!blkdev_write_whole(mapping, pos, len) && !folio_test_uptodate(folio)) {
			int e = blkdev_write_begin_read(mapping, folio);
			if (e) {
				folio_put(folio);
				if (e == 1)
					continue;		/* gone meanwhile: again */
				return e;
			}
		}
		*foliop = folio;
		return 0;
	}
}

/* Linux's blkdev_write_end (block_write_end): a folio written whole becomes uptodate, its bytes
 * beyond the disk's end zeroed (they read as zeroes); dirty, unlocked, released. */
static int blkdev_write_end(struct address_space *mapping, loff_t pos, unsigned int len,
			    unsigned int copied, struct folio *folio)
{
	if (blkdev_write_whole(mapping, pos, len) && !folio_test_uptodate(folio)) {
		unsigned int disk_bytes = folio_disk_bytes(mapping, folio->index);
		uint8_t *p = page_address(&folio->page);

		if (disk_bytes < PAGE_SIZE)
			memset(p + disk_bytes, 0, PAGE_SIZE - disk_bytes);
		folio_mark_uptodate(folio);
	}
	folio_mark_dirty(folio);
	folio_unlock(folio);
	folio_put(folio);
	return (int)copied;
}

/* The disk's name, for memory_failure()'s "dirty data lost" line (mm/ cannot read the host). */
static const char *blkdev_mapping_name(struct address_space *mapping)
{
	return BDEV_I(mapping)->bdev->bd_name;
}

/* error_remove_folio: tinymm's own (the header says why).  dirty_folio and invalidate_folio
 * are v6.10's, for the metadata buffers a filesystem keeps here (fs/buffer.c); release_folio
 * is left to filemap_release_folio()'s default, try_to_free_buffers(), which is what v6.10's
 * blkdev_release_folio() calls; migrate_folio moves a folio with its buffers when none is in
 * use (v6.10's buffer_migrate_folio_norefs). */
static const struct address_space_operations def_blk_aops = {
	.read_folio = blkdev_read_folio,
	.readahead = blkdev_readahead,
	.writepages = blkdev_writepages,
	.writepage = blkdev_writepage,
	.write_begin = blkdev_write_begin,
	.write_end = blkdev_write_end,
	.error_remove_folio = generic_error_remove_folio,
	.name = blkdev_mapping_name,
	.dirty_folio = block_dirty_folio,
	.invalidate_folio = block_invalidate_folio,
	.migrate_folio = buffer_migrate_folio,
};

int blkdev_init_mapping(struct block_device *bdev)
{
	struct bdev_inode *ei = kzalloc(sizeof(*ei), GFP_KERNEL);

	if (!ei)
		return -ENOMEM;
	uint64_t bytes = bdev_nr_bytes(bdev);
	/* A page index is an unsigned long: 32-bit boards cache at most 2^32 pages (16 TiB), as
	 * Linux's MAX_LFS_FILESIZE limits them; the rest of a bigger disk is beyond the cache. */
	if (sizeof(pgoff_t) < 8 && bytes > ((uint64_t)1 << (32 + PAGE_SHIFT))) {
		pr_warn("%s: only the first 16 TiB can be cached on this 32-bit CPU\n", bdev->bd_name);
		bytes = (uint64_t)1 << (32 + PAGE_SHIFT);
	}
	address_space_init(&ei->mapping, &def_blk_aops, (loff_t)bytes);
	ei->mapping.host = bdev;
	file_ra_state_init(&ei->ra, default_ra_pages);
	ei->f_wb_err = errseq_sample(&ei->mapping.wb_err);	/* "opened" now */
	ei->bdev = bdev;
	bdev->bd_mapping = &ei->mapping;
	return 0;
}

struct file_ra_state *bdev_ra_state(struct block_device *bdev)
{
	return bdev->bd_mapping ? &BDEV_I(bdev->bd_mapping)->ra : NULL;
}

/*
 * Linux's blkdev_fsync() for the shell's "open file" of @bdev: write back and wait
 * (file_write_and_wait_range: WB_SYNC_ALL, then the error since this file last looked, once),
 * then a cache flush; a device without a volatile cache completes it at once (-EOPNOTSUPP is
 * success, as in Linux).
 */
int blkdev_fsync(struct block_device *bdev)
{
	struct address_space *mapping = bdev->bd_mapping;
	int err = 0, err2;

	if (mapping->nrpages) {
		err = __filemap_fdatawrite_range(mapping, 0, LLONG_MAX, WB_SYNC_ALL);
		if (err != -EIO)
			__filemap_fdatawait_range(mapping, 0, LLONG_MAX);
	}
	err2 = file_check_and_advance_wb_err(mapping, &BDEV_I(mapping)->f_wb_err);
	if (!err)
		err = err2;
	if (err)
		return err;
	struct bio *bio = bio_alloc(bdev, 0, REQ_OP_FLUSH, GFP_KERNEL);
	if (!bio)
		return -ENOMEM;
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err == -EOPNOTSUPP ? 0 : err;
}
