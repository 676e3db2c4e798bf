/*
 * blk-fops.c - a block device's page cache (Linux's block/fops.c: def_blk_aops): the
 * address_space operations that read folios through bios, the per-device readahead state, and
 * the page-cache shell commands `blk sha256` and `drop_caches`.
 *
 * read_folio: one bio for one folio; readahead: the batch's consecutive folios in as few bios
 * as the device's segment limit allows, marked REQ_RAHEAD.  The completion (interrupt context)
 * marks each folio uptodate, or leaves it not uptodate on an error, then unlocks it, which
 * wakes any reader waiting on the folio lock.  A page straddling the end
 * of the disk is read up to the last sector and the rest zeroed.
 * Invariants: every folio handed to read_folio/readahead is locked and not uptodate, and is
 *   unlocked exactly once, by the completion or by the failure path here.
 * Locking: none of its own: folio locks and the mapping's index lock (mm/pagecache.c).
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sha256.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"

/* What Linux keeps in the block device's inode and its open file. */
struct bdev_inode {
	struct address_space mapping;
	struct file_ra_state ra;
	struct block_device *bdev;
};

static struct bdev_inode *BDEV_I(struct address_space *mapping)
{
	return container_of(mapping, struct bdev_inode, mapping);
}

static void blkdev_read_end_io(struct bio *bio)
{
	struct address_space *mapping = bio->bi_private;

	/* A failed read leaves the folio not uptodate, which is how the reader learns of it; v6.10's
	 * read completions never touch the mapping's error (that is writeback's channel). */
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

static const struct address_space_operations def_blk_aops = {
	.read_folio = blkdev_read_folio,
	.readahead = blkdev_readahead,
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
	ei->bdev = bdev;
	bdev->bd_mapping = &ei->mapping;
	return 0;
}

struct file_ra_state *bdev_ra_state(struct block_device *bdev)
{
	return bdev->bd_mapping ? &BDEV_I(bdev->bd_mapping)->ra : NULL;
}

/* Parse "<dev> <offset> <length>" for the blk subcommands; 0, or prints the error and 2. */
int blk_parse_range(int argc, char **argv, struct block_device **bdev, uint64_t *off, uint64_t *len)
{
	unsigned long long o, l;

	if (argc != 5) {
		kprintf("blk: usage: blk %s <dev> <offset> <length>\n", argv[1]);
		return 2;
	}
	*bdev = blkdev_get_by_name(argv[2]);
	if (!*bdev) {
		kprintf("blk: no device '%s'\n", argv[2]);
		return 2;
	}
	for (int i = 3; i <= 4; i++)
		if (kstrtoull(argv[i], i == 3 ? &o : &l)) {
			kprintf("blk: invalid number '%s'\n", argv[i]);
			return 2;
		}
	if (!l) {
		kprintf("blk: zero length\n");
		return 2;
	}
	uint64_t size = (*bdev)->bd_mapping ? (uint64_t)(*bdev)->bd_mapping->size : bdev_nr_bytes(*bdev);
	if (o > size || l > size - o) {
		kprintf("blk: range 0x%llx+0x%llx is past the end of %s (%llu bytes)\n", o, l,
			(*bdev)->bd_name, (unsigned long long)size);
		return 2;
	}
	*off = o;
	*len = l;
	return 0;
}

/* `blk sha256 <dev> <offset> <length>`: the bytes read through the page cache (readahead and
 * all), hashed; 64 lowercase hex digits. */
int blk_cmd_sha256(int argc, char **argv)
{
	struct block_device *bdev;
	uint64_t off, len;
	struct sha256_ctx c;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	int ret = blk_parse_range(argc, argv, &bdev, &off, &len);

	if (ret)
		return ret;
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf) {
		kprintf("blk: out of memory\n");
		return 1;
	}
	sha256_init(&c);
	while (len) {
		size_t chunk = (size_t)min(len, (uint64_t)PAGE_SIZE);
		long n = filemap_read(bdev->bd_mapping, bdev_ra_state(bdev), (loff_t)off, buf, chunk);
		if (n <= 0) {
			kprintf("blk: %s: read error at offset 0x%llx: %s\n", bdev->bd_name,
				(unsigned long long)off, bdev->bd_failed ? "device failed (-EIO)" :
				n == -EIO ? "I/O error (-EIO)" : n == -ENOMEM ?
				"out of memory (-ENOMEM)" : "error");
			kfree(buf);
			return 1;
		}
		sha256_update(&c, buf, (size_t)n);
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	kfree(buf);
	sha256_final(&c, digest);
	sha256_hex(digest, hex);
	kprintf("%s\n", hex);
	return 0;
}

/*
 * `blk readrand <dev> <total> <chunk> [seed]`: @total bytes read through the page cache in
 * @chunk-sized reads at pseudo-random offsets (xorshift32 from @seed) on a grid of
 * READRAND_GRID bytes, to watch what random access does to readahead (`blk stats` before and
 * after).  The grid keeps reads from landing next to each other: v6.10's context readahead
 * rightly takes a run of cached pages just before a miss for a sequential reader's trail, and
 * a dense random stream makes such runs by chance.  Offset 0 is left out: v6.10 takes a read
 * at the start of a file for the start of a sequential stream.  Prints the reads made and how
 * many found their page already cached.
 */
#define READRAND_GRID	(4 * PAGE_SIZE)

int blk_cmd_readrand(int argc, char **argv)
{
	unsigned long long total, chunk, seed = 1;
	struct block_device *bdev;

	if (argc < 5 || argc > 6) {
		kprintf("blk: usage: blk readrand <dev> <total> <chunk> [seed]\n");
		return 2;
	}
	bdev = blkdev_get_by_name(argv[2]);
	if (!bdev) {
		kprintf("blk: no device '%s'\n", argv[2]);
		return 2;
	}
	if (kstrtoull(argv[3], &total) || kstrtoull(argv[4], &chunk) ||
	    (argc == 6 && (kstrtoull(argv[5], &seed) || !seed || seed > 0xffffffffULL)) ||
	    !chunk || chunk > PAGE_SIZE || !total || bdev_nr_bytes(bdev) < 2 * READRAND_GRID) {
		kprintf("blk: readrand: bad numbers (chunk 1..%lu bytes, total > 0, seed 1..2^32-1)\n",
			PAGE_SIZE);
		return 2;
	}
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf) {
		kprintf("blk: out of memory\n");
		return 1;
	}
	uint32_t x = (uint32_t)seed;
	uint64_t slots = bdev_nr_bytes(bdev) / READRAND_GRID;
	unsigned long reads = 0, hits = 0;
	for (unsigned long long done = 0; done < total; done += chunk, reads++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		uint64_t off = (1 + (uint64_t)x % (slots - 1)) * READRAND_GRID;
		struct folio *cached = filemap_get_folio(bdev->bd_mapping, (pgoff_t)(off >> PAGE_SHIFT));
		if (!IS_ERR(cached)) {
			hits++;
			folio_put(cached);
		}
		long n = filemap_read(bdev->bd_mapping, bdev_ra_state(bdev), (loff_t)off, buf,
				      (size_t)min(chunk, total - done));
		if (n <= 0) {
			kprintf("blk: %s: read error at offset 0x%llx: %s\n", bdev->bd_name,
				(unsigned long long)off, bdev->bd_failed ? "device failed (-EIO)" :
				n == -ENOMEM ? "out of memory (-ENOMEM)" : "I/O error (-EIO)");
			kfree(buf);
			return 1;
		}
	}
	kfree(buf);
	kprintf("blk readrand: %lu reads of %llu bytes, %lu found cached\n", reads, chunk, hits);
	return 0;
}

static int cmd_drop_caches(int argc, char **argv)
{
	unsigned long dropped = 0;

	if (shell_no_args(argc, argv))
		return 2;
	for (int i = 0; i < blkdev_count(); i++) {
		struct block_device *bdev = blkdev_nth(i);
		if (bdev->bd_mapping)
			dropped += invalidate_mapping_pages(bdev->bd_mapping, 0, ~0UL);
	}
	kprintf("drop_caches: %lu clean pages dropped, %lu still cached\n", dropped,
		nr_pagecache_pages());
	return 0;
}
SHELL_COMMAND(drop_caches, "", "drop the clean page cache of every disk (Linux's drop_caches=1)",
	      cmd_drop_caches);
