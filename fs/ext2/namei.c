/*
 * namei.c - ext2's directory inode operations: lookup, create, mkdir, unlink, rmdir, rename,
 * link, symlink.  Linux v6.10 fs/ext2/namei.c, reduced.  The VFS (fs/namei.c) has already
 * checked what it can (the name absent for create, present for unlink; not a mountpoint;
 * a directory not renamed into itself; -EROFS on a read-only mount) and holds the
 * directories' i_rwsem; ext2 checks what only it knows (an empty directory for rmdir and for a
 * rename over a directory, the link-count limit) and keeps the link counts as Linux does: a
 * directory counts its "." and each subdirectory's "..".
 * A failure half-way is undone in the order Linux's is: a new inode that could not be linked
 * loses its link and is freed by its last iput (evict).
 * Where tinymm differs from v6.10, and why: no device nodes (mknod: nothing in tinymm opens
 * them), no tmpfile, no whiteouts or RENAME_EXCHANGE.
 */
#include <string.h>
#include "tinymm/cacheflush.h"
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "ext2.h"

#define EXT2_LINK_MAX	32000

static int ext2_lookup(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = NULL;
	uint32_t ino;
	int err = ext2_inode_by_name(dir, &dentry->d_name, &ino);

	if (err && err != -ENOENT)
		return err;
	if (!err) {
		inode = ext2_iget(dir->i_sb, ino);
		if (IS_ERR(inode))
			return (int)PTR_ERR(inode);
	}
	d_add(dentry, inode);		/* NULL: a negative entry, "no such name" */
	return 0;
}

/* Link a new inode in, or undo it: its only link goes and the last iput frees it. */
static int ext2_add_nondir(struct dentry *dentry, struct inode *inode)
{
	int err = ext2_add_link(dentry, inode);

	if (err) {
		drop_nlink(inode);
		mark_inode_dirty(inode);
		iput(inode);
		return err;
	}
	d_instantiate(dentry, inode);
	return 0;
}

static int ext2_create(struct inode *dir, struct dentry *dentry, unsigned int mode)
{
	struct inode *inode = ext2_new_inode(dir, S_IFREG | (mode & S_IALLUGO));

	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	return ext2_add_nondir(dentry, inode);
}

static int ext2_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	struct super_block *sb = dir->i_sb;
	size_t len = strlen(target);
	struct inode *inode;
	int err;

	if (len + 1 > sb->s_blocksize)
		return -ENAMETOOLONG;
	inode = ext2_new_inode(dir, S_IFLNK | 0777);
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	if (len < sizeof(EXT2_I(inode)->i_data)) {
		/* Fast: the target's bytes in i_data, which is kept in host order. */
		uint32_t raw[EXT2_N_BLOCKS] = { 0 };
		memcpy(raw, target, len);
		for (int i = 0; i < EXT2_N_BLOCKS; i++)
			EXT2_I(inode)->i_data[i] = le32_to_cpu(raw[i]);
		inode->i_op = &ext2_fast_symlink_inode_operations;
		i_size_write(inode, (loff_t)len);
	} else {
		struct folio *folio;
		inode->i_op = &ext2_symlink_inode_operations;
		err = block_write_begin(inode->i_mapping, 0, (unsigned int)len, &folio, ext2_get_block);
		if (err)
			goto fail;
		memcpy(page_address(&folio->page), target, len);
		flush_dcache_folio(folio);
		generic_write_end(inode->i_mapping, 0, (unsigned int)len, (unsigned int)len, folio);
	}
	mark_inode_dirty(inode);
	return ext2_add_nondir(dentry, inode);
fail:
	drop_nlink(inode);
	iput(inode);
	return err;
}

static int ext2_link(struct dentry *old_dentry, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = old_dentry->d_inode;
	int err;

	(void)dir;		/* dentry->d_parent's inode: ext2_add_link finds it there */
	if (inode->i_nlink >= EXT2_LINK_MAX)
		return -EMLINK;
	inode->i_ctime = current_time(inode);
	inc_nlink(inode);
	ihold(inode);
	err = ext2_add_link(dentry, inode);
	if (err) {
		drop_nlink(inode);
		iput(inode);
		return err;
	}
	mark_inode_dirty(inode);
	d_instantiate(dentry, inode);
	return 0;
}

static int ext2_mkdir(struct inode *dir, struct dentry *dentry, unsigned int mode)
{
	struct inode *inode;
	int err;

	if (dir->i_nlink >= EXT2_LINK_MAX)
		return -EMLINK;
	inode = ext2_new_inode(dir, S_IFDIR | (mode & S_IALLUGO));
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	inc_nlink(inode);			/* its "." */
	err = ext2_make_empty(inode, dir);
	if (err)
		goto out_dir;
	err = ext2_add_link(dentry, inode);
	if (err)
		goto out_dir;
	inc_nlink(dir);				/* its ".." */
	mark_inode_dirty(dir);
	d_instantiate(dentry, inode);
	return 0;
out_dir:
	clear_nlink(inode);
	mark_inode_dirty(inode);
	iput(inode);
	return err;
}

static int ext2_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	uint32_t ino;
	loff_t pos;
	int err = ext2_find_entry(dir, &dentry->d_name, &pos, &ino);

	if (err)
		return err;
	if (ino != inode->i_ino) {
		ext2_msg(dir->i_sb, KERN_ERR, "directory #%lu: '%.*s' names inode %u, not %lu",
			 dir->i_ino, (int)dentry->d_name.len, dentry->d_name.name, (unsigned int)ino, inode->i_ino);
		return -EUCLEAN;
	}
	err = ext2_delete_entry(dir, pos);
	if (err)
		return err;
	inode->i_ctime = dir->i_ctime;
	drop_nlink(inode);
	mark_inode_dirty(inode);
	return 0;
}

static int ext2_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	int err;

	if (!ext2_empty_dir(inode))
		return -ENOTEMPTY;
	err = ext2_unlink(dir, dentry);
	if (err)
		return err;
	i_size_write(inode, 0);
	drop_nlink(inode);			/* its "." */
	mark_inode_dirty(inode);
	drop_nlink(dir);			/* its ".." */
	mark_inode_dirty(dir);
	return 0;
}

static int ext2_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		       struct dentry *new_dentry)
{
	static const struct qstr dotdot = { .name = "..", .len = 2 };
	struct inode *old_inode = old_dentry->d_inode, *new_inode = new_dentry->d_inode;
	bool is_dir = S_ISDIR(old_inode->i_mode);
	loff_t old_pos, new_pos, dotdot_pos = 0;
	uint32_t ino;
	int err = ext2_find_entry(old_dir, &old_dentry->d_name, &old_pos, &ino);

	if (err)
		return err;
	if (is_dir && (err = ext2_find_entry(old_inode, &dotdot, &dotdot_pos, &ino)))
		return err == -ENOENT ? -EUCLEAN : err;
	if (new_inode) {
		if (is_dir && !ext2_empty_dir(new_inode))
			return -ENOTEMPTY;
		err = ext2_find_entry(new_dir, &new_dentry->d_name, &new_pos, &ino);
		if (err)
			return err;
		err = ext2_set_link(new_dir, new_pos, old_inode);
		if (err)
			return err;
		new_inode->i_ctime = current_time(new_inode);
		if (is_dir)
			drop_nlink(new_inode);	/* its "." */
		drop_nlink(new_inode);
		mark_inode_dirty(new_inode);
	} else {
		if (is_dir && new_dir->i_nlink >= EXT2_LINK_MAX)
			return -EMLINK;
		err = ext2_add_link(new_dentry, old_inode);
		if (err)
			return err;
		if (is_dir) {
			inc_nlink(new_dir);
			mark_inode_dirty(new_dir);
		}
	}
	old_inode->i_ctime = current_time(old_inode);
	mark_inode_dirty(old_inode);
	err = ext2_delete_entry(old_dir, old_pos);
	if (err)
		return err;
	if (is_dir) {
		if (old_dir != new_dir) {
			err = ext2_set_link(old_inode, dotdot_pos, new_dir);
			if (err)
				return err;
		}
		drop_nlink(old_dir);
		mark_inode_dirty(old_dir);
	}
	return 0;
}

const struct inode_operations ext2_dir_inode_operations = {
	.lookup = ext2_lookup,
	.create = ext2_create,
	.mkdir = ext2_mkdir,
	.unlink = ext2_unlink,
	.rmdir = ext2_rmdir,
	.rename = ext2_rename,
	.link = ext2_link,
	.symlink = ext2_symlink,
};
