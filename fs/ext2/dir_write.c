/*
 * dir_write.c - changing ext2 directories: adding a name (ext2_add_link), removing one
 * (ext2_delete_entry), pointing one at another inode (ext2_set_link, for rename and a moved
 * directory's ".."), a new directory's first block (ext2_make_empty), and whether a directory
 * holds anything but "." and ".." (ext2_empty_dir).  Linux v6.10 fs/ext2/dir.c's writers.
 *
 * A change to a chunk goes through the directory's page cache as a write would: the chunk's
 * folio is read (and checked) as a lookup's is, locked, its block mapped with
 * __block_write_begin() (a new block past i_size: block_write_begin() allocates and zeroes
 * it), changed with dir_block.c's functions, and committed with
 * generic_write_end(), which dirties the folio and its buffer and moves i_size up: the
 * directory's writeback writes it like file data.  A directory grows one block at a time, past its size.
 * Where tinymm differs from v6.10, and why: a name is placed in the first chunk with room,
 * found by trying the change on a copy of each chunk first (dir_block.c has no "room?" query
 * of its own); DIRSYNC directories are not written synchronously (no such flag is set here).
 * Locking: the VFS holds the directory's i_rwsem, so its entries cannot change under a scan.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "dir_block.h"
#include "ext2.h"

/*
 * The chunk at @pos, its folio locked and referenced with the chunk's bytes valid.  A chunk
 * inside the directory is read (and checked) first, as v6.10 changes only a folio it got from
 * ext2_get_folio(): block_write_begin() reads only the blocks a write covers in part, and a
 * chunk is always written whole, so on a folio reclaim dropped since the caller's lookup the
 * change would be made to whatever the new frame held and that written over the block.  A
 * chunk past i_size is new: block_write_begin() allocates and zeroes it, and the op fills it.
 */
static int ext2_prepare_chunk(struct inode *dir, loff_t pos, unsigned int len, struct folio **foliop)
{
	struct folio *folio;
	int err;

	if (pos >= dir->i_size)
		return block_write_begin(dir->i_mapping, pos, len, foliop, ext2_get_block);
	for (;;) {
		folio = ext2_get_dir_folio(dir, (unsigned long)(pos >> PAGE_SHIFT));
		if (IS_ERR(folio))
			return (int)PTR_ERR(folio);
		folio_lock(folio);
		/* Our reference keeps reclaim from freeing it and i_rwsem truncation; a folio
		 * taken out of the cache all the same (memory failure) is looked up again. */
		if (folio->mapping == dir->i_mapping)
			break;
		folio_unlock(folio);
		folio_put(folio);
	}
	err = folio_test_uptodate(folio) ? __block_write_begin(folio, pos, len, ext2_get_block) : -EIO;
	if (err) {
		folio_unlock(folio);
		folio_put(folio);
		return err;
	}
	*foliop = folio;
	return 0;
}

static void ext2_commit_chunk(struct inode *dir, struct folio *folio, loff_t pos, unsigned int len)
{
	generic_write_end(dir->i_mapping, pos, len, len, folio);	/* dirty, i_size, unlocked, put */
	EXT2_I(dir)->i_flags &= ~EXT2_INDEX_FL;	/* an htree index (ext3's) no longer matches */
	dir->i_mtime = dir->i_ctime = current_time(dir);
	mark_inode_dirty(dir);
}

static char *chunk_ptr(struct folio *folio, loff_t pos)
{
	return (char *)page_address(&folio->page) + (pos & (PAGE_SIZE - 1));
}

static uint8_t ext2_file_type(struct super_block *sb, unsigned int mode)
{
	if (!(EXT2_SB(sb)->geo.feature_incompat & EXT2_FEATURE_INCOMPAT_FILETYPE))
		return EXT2_FT_UNKNOWN;
	switch (mode & S_IFMT) {
	case S_IFREG: return EXT2_FT_REG_FILE;
	case S_IFDIR: return EXT2_FT_DIR;
	case S_IFLNK: return EXT2_FT_SYMLINK;
	case S_IFCHR: return EXT2_FT_CHRDEV;
	case S_IFBLK: return EXT2_FT_BLKDEV;
	case S_IFIFO: return EXT2_FT_FIFO;
	case S_IFSOCK: return EXT2_FT_SOCK;
	}
	return EXT2_FT_UNKNOWN;
}

/* Apply @op to the chunk at directory byte @pos through the page cache. */
static int ext2_chunk_op(struct inode *dir, loff_t pos, int (*op)(char *chunk, void *arg), void *arg)
{
	unsigned int bs = (unsigned int)dir->i_sb->s_blocksize;
	struct folio *folio;
	int err = ext2_prepare_chunk(dir, pos, bs, &folio);

	if (err)
		return err;
	err = op(chunk_ptr(folio, pos), arg);
	ext2_commit_chunk(dir, folio, pos, bs);
	return err;
}

struct add_args {
	const struct qstr *name;
	uint32_t ino;
	uint8_t type;
	unsigned int bs;
	bool fresh;		/* a new block past the end: initialise it first */
};

static int add_op(char *chunk, void *arg)
{
	struct add_args *a = arg;
	unsigned int at;

	if (a->fresh)
		ext2_dirblock_init_empty(chunk, a->bs);
	return ext2_dirblock_add(chunk, a->bs, a->name->name, a->name->len, a->ino, a->type, &at);
}

int ext2_add_link(struct dentry *dentry, struct inode *inode)
{
	struct inode *dir = dentry->d_parent->d_inode;
	unsigned int bs = (unsigned int)dir->i_sb->s_blocksize;
	struct add_args a = { .name = &dentry->d_name, .ino = (uint32_t)inode->i_ino,
			      .type = ext2_file_type(dir->i_sb, inode->i_mode), .bs = bs };
	char *copy = kmalloc(bs, GFP_KERNEL);
	loff_t pos;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	/* The first chunk with room, tried on a copy (the name's absence is the VFS's check). */
	for (pos = 0; pos < dir->i_size; pos += bs) {
		struct folio *folio = ext2_get_dir_folio(dir, (unsigned long)(pos >> PAGE_SHIFT));
		unsigned int at;
		if (IS_ERR(folio)) {
			err = (int)PTR_ERR(folio);
			goto out;
		}
		memcpy(copy, chunk_ptr(folio, pos), bs);
		folio_put(folio);
		err = ext2_dirblock_add(copy, bs, a.name->name, a.name->len, a.ino, a.type, &at);
		if (err != -ENOSPC)
			break;
	}
	if (err && err != -ENOSPC)
		goto out;
	a.fresh = pos >= dir->i_size;	/* no room anywhere: a new block at the end */
	err = ext2_chunk_op(dir, pos, add_op, &a);
out:
	kfree(copy);
	return err;
}

struct del_args {
	unsigned int bs, offset;
	uint32_t ino;
	uint8_t type;
};

static int del_op(char *chunk, void *arg)
{
	struct del_args *a = arg;

	return ext2_dirblock_delete(chunk, a->bs, a->offset);
}

int ext2_delete_entry(struct inode *dir, loff_t pos)
{
	unsigned int bs = (unsigned int)dir->i_sb->s_blocksize;
	struct del_args a = { .bs = bs, .offset = (unsigned int)(pos & (bs - 1)) };

	return ext2_chunk_op(dir, pos & ~(loff_t)(bs - 1), del_op, &a);
}

static int set_op(char *chunk, void *arg)
{
	struct del_args *a = arg;

	return ext2_dirblock_set_ino(chunk, a->bs, a->offset, a->ino, a->type);
}

int ext2_set_link(struct inode *dir, loff_t pos, struct inode *inode)
{
	unsigned int bs = (unsigned int)dir->i_sb->s_blocksize;
	struct del_args a = { .bs = bs, .offset = (unsigned int)(pos & (bs - 1)),
			      .ino = (uint32_t)inode->i_ino,
			      .type = ext2_file_type(dir->i_sb, inode->i_mode) };

	return ext2_chunk_op(dir, pos & ~(loff_t)(bs - 1), set_op, &a);
}

struct empty_args {
	unsigned int bs;
	uint32_t self, parent;
};

static int make_empty_op(char *chunk, void *arg)
{
	struct empty_args *a = arg;

	ext2_dirblock_make_empty(chunk, a->bs, a->self, a->parent);
	return 0;
}

int ext2_make_empty(struct inode *inode, struct inode *parent)
{
	struct empty_args a = { .bs = (unsigned int)inode->i_sb->s_blocksize,
				.self = (uint32_t)inode->i_ino, .parent = (uint32_t)parent->i_ino };

	return ext2_chunk_op(inode, 0, make_empty_op, &a);
}

bool ext2_empty_dir(struct inode *inode)
{
	unsigned int bs = (unsigned int)inode->i_sb->s_blocksize;

	for (loff_t pos = 0; pos < inode->i_size; pos += bs) {
		struct folio *folio = ext2_get_dir_folio(inode, (unsigned long)(pos >> PAGE_SHIFT));
		if (IS_ERR(folio))
			return false;	/* unreadable or corrupt: not known to be empty */
		bool empty = ext2_dirblock_is_empty(chunk_ptr(folio, pos), bs, (uint32_t)inode->i_ino,
						    pos == 0);
		folio_put(folio);
		if (!empty)
			return false;
	}
	return true;
}
