/*
 * dir.c - ext2 directories through their page cache: each folio of a directory holds
 * PAGE_SIZE / block-size chunks of rec_len-linked entries (dir_block.c works on one chunk).
 * A folio is checked whole the first time it is read, and PG_checked says so from then on, as
 * Linux's ext2_check_folio() does: every later walk trusts the entries' rec_len.  A folio that
 * fails the check is "ext2 (vda): directory #N: <what>, at byte B" once and -EUCLEAN for the
 * operation; it is not marked, so it is checked (and refused) again next time.
 * Linux v6.10 fs/ext2/dir.c, reduced.
 * Where tinymm differs from v6.10, and why: lookups scan the directory from its start (no
 * i_dir_start_lookup hint yet); the check runs on the whole folio at once rather than up to
 * i_size within it, with the bytes past i_size (in the folio's last page) not checked, as Linux.
 * Locking: readers of a directory hold a reference on the folio; its PG_checked is set with
 * the folio's uptodate contents and never cleared while cached.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "dir_block.h"
#include "ext2.h"

/* Directory bytes held by folio @n (the last one may be partial). */
static unsigned int ext2_dir_folio_bytes(struct inode *dir, unsigned long n)
{
	loff_t start = (loff_t)n << PAGE_SHIFT;

	if (dir->i_size <= start)
		return 0;
	return dir->i_size - start >= (loff_t)PAGE_SIZE ? PAGE_SIZE : (unsigned int)(dir->i_size - start);
}

/* Linux's ext2_check_folio(): every chunk of the folio's bytes; PG_checked once all pass. */
static int ext2_check_folio(struct inode *dir, struct folio *folio, unsigned int bytes)
{
	const struct ext2_geometry *geo = &EXT2_SB(dir->i_sb)->geo;
	char *base = page_address(&folio->page), err[96];

	if (bytes % geo->block_size) {
		ext2_msg(dir->i_sb, KERN_ERR, "directory #%lu: size %lld is not a multiple of the block size",
			 dir->i_ino, (long long)dir->i_size);
		return -EUCLEAN;
	}
	for (unsigned int off = 0; off < bytes; off += geo->block_size) {
		if (ext2_dirblock_check(base + off, geo->block_size, geo->inodes_count, err,
					sizeof(err))) {
			ext2_msg(dir->i_sb, KERN_ERR, "directory #%lu: %s, in the chunk at byte %llu",
				 dir->i_ino, err,
				 (unsigned long long)(((loff_t)folio->index << PAGE_SHIFT) + off));
			return -EUCLEAN;
		}
	}
	folio_set_checked(folio);
	return 0;
}

/* Folio @n of the directory, read, checked and referenced; ERR_PTR on failure. */
struct folio *ext2_get_dir_folio(struct inode *dir, unsigned long n)
{
	struct folio *folio = read_cache_folio(dir->i_mapping, n);

	if (IS_ERR(folio))
		return folio;
	if (!folio_test_checked(folio)) {
		int err = ext2_check_folio(dir, folio, ext2_dir_folio_bytes(dir, n));
		if (err) {
			folio_put(folio);
			return ERR_PTR(err);
		}
	}
	return folio;
}

int ext2_find_entry(struct inode *dir, const struct qstr *name, loff_t *posp, uint32_t *ino)
{
	const struct ext2_geometry *geo = &EXT2_SB(dir->i_sb)->geo;
	unsigned long npages = (unsigned long)((dir->i_size + PAGE_SIZE - 1) >> PAGE_SHIFT);

	if (name->len > EXT2_NAME_LEN)
		return -ENAMETOOLONG;
	for (unsigned long n = 0; n < npages; n++) {
		struct folio *folio = ext2_get_dir_folio(dir, n);
		unsigned int bytes = ext2_dir_folio_bytes(dir, n);
		if (IS_ERR(folio))
			return (int)PTR_ERR(folio);
		char *base = page_address(&folio->page);
		for (unsigned int off = 0; off < bytes; off += geo->block_size) {
			unsigned int at;
			if (!ext2_dirblock_find(base + off, geo->block_size, name->name, name->len, &at)) {
				const struct ext2_dir_entry_2 *de = (const void *)(base + off + at);
				*ino = le32_to_cpu(de->inode);
				if (posp)
					*posp = ((loff_t)n << PAGE_SHIFT) + off + at;
				folio_put(folio);
				return 0;
			}
		}
		folio_put(folio);
	}
	return -ENOENT;
}

int ext2_inode_by_name(struct inode *dir, const struct qstr *name, uint32_t *ino)
{
	return ext2_find_entry(dir, name, NULL, ino);
}

static unsigned int ext2_dt(uint8_t file_type)
{
	static const unsigned char dt[] = {
		[EXT2_FT_UNKNOWN] = DT_UNKNOWN, [EXT2_FT_REG_FILE] = DT_REG, [EXT2_FT_DIR] = DT_DIR,
		[EXT2_FT_CHRDEV] = DT_CHR, [EXT2_FT_BLKDEV] = DT_BLK, [EXT2_FT_FIFO] = DT_FIFO,
		[EXT2_FT_SOCK] = DT_SOCK, [EXT2_FT_SYMLINK] = DT_LNK,
	};
	return file_type < ARRAY_SIZE(dt) ? dt[file_type] : DT_UNKNOWN;
}

/* ctx->pos is the byte offset in the directory of the next entry to report. */
static int ext2_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file->f_inode;
	const struct ext2_geometry *geo = &EXT2_SB(dir->i_sb)->geo;

	if (ctx->pos < 0 || ctx->pos >= dir->i_size)
		return 0;
	for (unsigned long n = (unsigned long)(ctx->pos >> PAGE_SHIFT);
	     (loff_t)n << PAGE_SHIFT < dir->i_size; n++) {
		struct folio *folio = ext2_get_dir_folio(dir, n);
		unsigned int bytes = ext2_dir_folio_bytes(dir, n);
		if (IS_ERR(folio))
			return (int)PTR_ERR(folio);
		char *base = page_address(&folio->page);
		unsigned int in_folio = (unsigned int)(ctx->pos & (PAGE_SIZE - 1));
		unsigned int chunk = in_folio & ~(geo->block_size - 1);
		for (; chunk < bytes; chunk += geo->block_size) {
			unsigned int pos = in_folio > chunk ? in_folio - chunk : 0;
			struct ext2_dirent_view e;
			while (ext2_dirblock_next(base + chunk, geo->block_size, &pos, &e) > 0) {
				loff_t at = ((loff_t)n << PAGE_SHIFT) + chunk + e.offset;
				loff_t next = ((loff_t)n << PAGE_SHIFT) + chunk + pos;
				if (ctx->actor(ctx, e.name, (int)e.name_len, at, e.inode,
					       ext2_dt(e.file_type))) {
					folio_put(folio);
					return 0;	/* the caller's buffer is full: resume at `at` */
				}
				ctx->pos = next;
			}
			in_folio = 0;
			ctx->pos = ((loff_t)n << PAGE_SHIFT) + chunk + geo->block_size;
		}
		folio_put(folio);
	}
	return 0;
}

const struct file_operations ext2_dir_operations = {
	.iterate_shared = ext2_readdir,
	.fsync = generic_file_fsync,
};
