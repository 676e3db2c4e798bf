/*
 * stat.c - stat, fstat, statfs and readlink (Linux's fs/stat.c, fs/statfs.c and readlink in
 * fs/namei.c, reduced): what the inode says, in struct kstat.  st_blksize is the filesystem's
 * block size; dev names the block device ("none" for a filesystem without one).
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/errno.h"
#include "internal.h"

static void generic_fillattr(struct inode *inode, struct kstat *st)
{
	struct super_block *sb = inode->i_sb;

	memset(st, 0, sizeof(*st));
	st->ino = inode->i_ino;
	st->mode = inode->i_mode;
	st->nlink = inode->i_nlink;
	st->uid = inode->i_uid;
	st->gid = inode->i_gid;
	st->size = inode->i_size;
	st->blocks = inode->i_blocks;
	st->blksize = (unsigned int)sb->s_blocksize;
	st->atime = inode->i_atime;
	st->mtime = inode->i_mtime;
	st->ctime = inode->i_ctime;
	strncpy(st->dev, sb->s_bdev ? sb->s_bdev->bd_name : "none", sizeof(st->dev) - 1);
}

int vfs_fstat(struct file *file, struct kstat *st)
{
	generic_fillattr(file->f_inode, st);
	return 0;
}

int vfs_stat(const char *path, struct kstat *st, bool follow)
{
	struct path p;
	int err = kern_path(path, follow ? LOOKUP_FOLLOW : 0, &p);

	if (err)
		return err;
	generic_fillattr(p.dentry->d_inode, st);
	path_put(&p);
	return 0;
}

int vfs_readlink(const char *path, char *buf, size_t len)
{
	struct path p;
	int err = kern_path(path, 0, &p);

	if (err)
		return err;
	struct inode *inode = p.dentry->d_inode;
	if (!S_ISLNK(inode->i_mode) || !inode->i_op || !inode->i_op->get_link)
		err = -EINVAL;
	else
		err = inode->i_op->get_link(inode, buf, len);
	path_put(&p);
	return err;
}

int vfs_statfs(const char *path, struct kstatfs *buf)
{
	struct path p;
	int err = kern_path(path, LOOKUP_FOLLOW, &p);

	if (err)
		return err;
	struct super_block *sb = p.dentry->d_sb;
	memset(buf, 0, sizeof(*buf));
	if (sb->s_op && sb->s_op->statfs)
		err = sb->s_op->statfs(sb, buf);
	else
		err = -ENOSYS;
	path_put(&p);
	return err;
}
