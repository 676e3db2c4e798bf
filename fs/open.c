/*
 * open.c - opening, closing and truncating files (Linux's fs/open.c and do_filp_open's tail in
 * fs/namei.c, reduced).  vfs_open finds or creates the file, checks the access mode against
 * the file type and the mount (-EISDIR, -ENOTDIR, -EROFS, -ELOOP for O_NOFOLLOW on a link),
 * truncates with O_TRUNC and makes the struct file: its own readahead state, and the mapping's
 * error cursor sampled now so fsync reports only errors after the open (f_wb_err).
 *
 * Invariants: an open file holds its path (dentry and mount references) and counts in
 *   i_openers; the dentry keeps the inode alive, so an unlinked file lives until its last
 *   close (d_delete unhashed the dentry; the final dput evicts the inode).
 * Locking: i_rwsem around ->setsize; i_openers under vfs_lock.
 *
 * Where tinymm differs from v6.10, and why: the descriptors are fs/file.c's; f_count counts
 * the references (vfs_open's caller holds the first, an fd or a mapping's pin more), and
 * vfs_close() is v6.10's fput(): the last one releases the file, synchronously (v6.10 defers
 * it to task_work); no permission checks; O_TRUNC truncates only regular
 * files, with any access mode, as Linux (the brief's "truncate down and up" is via
 * vfs_truncate/vfs_ftruncate).
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/pagemap.h"
#include "tinymm/slab.h"
#include "internal.h"

/* open(O_CREAT): the file at @name, created if missing (Linux's open_last_lookups, reduced):
 * *@created says so.  A referenced path or -errno. */
static int path_openat_creat(const char *name, unsigned int flags, unsigned int mode, struct path *out,
		      bool *created)
{
	struct nameidata nd;
	struct dentry *d = parent_lookup(&nd, name);
	int err = 0;

	*created = false;
	if (!d) {
		err = -EISDIR;			/* "/", "." or "..": directories */
		goto out;
	}
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto out;
	}
	struct inode *dir = nd.path.dentry->d_inode;
	if (nd.trailing_slash) {
		/* Before looking at the name, as v6.10's open_last_lookups(): "link/" with O_CREAT
		 * is EISDIR even when the link leads to a file (found by tests/fuzz/ext2_fuzz.c). */
		err = -EISDIR;
	} else if (d->d_inode) {
		if (flags & O_EXCL)
			err = -EEXIST;
		else if (S_ISLNK(d->d_inode->i_mode) && !(flags & O_NOFOLLOW))
			err = 1;		/* follow it with an ordinary walk */
		else if (S_ISDIR(d->d_inode->i_mode))
			err = -EISDIR;
	} else if (sb_rdonly(nd.path.mnt->mnt_sb)) {
		err = -EROFS;
	} else if (!dir->i_op || !dir->i_op->create) {
		err = -EACCES;
	} else {
		err = dir->i_op->create(dir, d, S_IFREG | (mode & S_IALLUGO));
		*created = !err;
	}
	if (!err) {
		out->mnt = mntget(nd.path.mnt);
		out->dentry = dget(d);
	}
	parent_unlock(&nd, d);
out:
	terminate_walk(&nd);
	if (err == 1)
		err = kern_path(name, LOOKUP_FOLLOW, out);
	return err;
}

static bool open_for_write(unsigned int flags)
{
	return (flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR;
}

/* The size of a regular file, under its i_rwsem, with the fs's ->setsize. */
static int do_truncate(struct path *path, loff_t size)
{
	struct inode *inode = path->dentry->d_inode;
	int err;

	if (size < 0)
		return -EINVAL;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if (sb_rdonly(inode->i_sb))
		return -EROFS;
	if ((uint64_t)size > inode->i_sb->s_maxbytes)
		return -EFBIG;
	if (!inode->i_op || !inode->i_op->setsize)
		return -EPERM;
	mutex_lock(&inode->i_rwsem);
	err = inode->i_op->setsize(inode, size);
	mutex_unlock(&inode->i_rwsem);
	return err;
}

int vfs_truncate(const char *path, loff_t size)
{
	struct path p;
	int err = kern_path(path, LOOKUP_FOLLOW, &p);

	if (err)
		return err;
	err = do_truncate(&p, size);
	path_put(&p);
	return err;
}

int vfs_ftruncate(struct file *file, loff_t size)
{
	if (!open_for_write(file->f_flags))
		return -EINVAL;			/* Linux's do_sys_ftruncate: not open for writing */
	return do_truncate(&file->f_path, size);
}

/* A struct file on @path (its references become the file's). */
struct file *alloc_file(const struct path *path, unsigned int flags)
{
	struct file *file = kzalloc(sizeof(*file), GFP_KERNEL);
	struct inode *inode = path->dentry->d_inode;

	if (!file)
		return NULL;
	file->f_path = *path;
	file->f_inode = inode;
	file->f_op = inode->i_fop;
	file->f_flags = flags;
	file_ra_state_init(&file->f_ra, default_ra_pages);
	file->f_ra.prev_pos = -1;
	file->f_wb_err = errseq_sample(&inode->i_mapping->wb_err);
	mutex_init(&file->f_pos_lock);
	atomic_set(&file->f_count, 1);
	return file;
}

int vfs_open(const char *name, unsigned int flags, unsigned int mode, struct file **filep)
{
	struct path path;
	bool created = false;
	int err;

	*filep = NULL;
	if (flags & O_CREAT)
		err = path_openat_creat(name, flags, mode, &path, &created);
	else
		err = kern_path(name, (flags & O_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, &path);
	if (err)
		return err;
	struct inode *inode = path.dentry->d_inode;
	if (S_ISLNK(inode->i_mode))
		err = -ELOOP;			/* O_NOFOLLOW met a link */
	else if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		err = -ENOTDIR;
	else if (S_ISDIR(inode->i_mode) && (open_for_write(flags) || (flags & (O_CREAT | O_TRUNC))))
		err = -EISDIR;
	else if ((open_for_write(flags) || (flags & O_TRUNC)) && sb_rdonly(inode->i_sb))
		err = -EROFS;
	else if ((flags & O_ACCMODE) == O_ACCMODE)
		err = -EINVAL;
	if (!err && (flags & O_TRUNC) && !created && S_ISREG(inode->i_mode))
		err = do_truncate(&path, 0);
	if (err) {
		path_put(&path);
		return err;
	}
	struct file *file = alloc_file(&path, flags);
	if (!file) {
		path_put(&path);
		return -ENOMEM;
	}
	if (file->f_op && file->f_op->open) {
		err = file->f_op->open(inode, file);
		if (err) {
			path_put(&path);
			kfree(file);
			return err;
		}
	}
	mutex_lock(&vfs_lock);
	inode->i_openers++;
	mutex_unlock(&vfs_lock);
	*filep = file;
	return 0;
}

int vfs_close(struct file *file)
{
	struct inode *inode = file->f_inode;

	/* One reference dropped (fput); the last one releases the file. */
	if (!atomic_dec_and_test(&file->f_count))
		return 0;
	if (file->f_op && file->f_op->release)
		file->f_op->release(inode, file);
	mutex_lock(&vfs_lock);
	inode->i_openers--;
	mutex_unlock(&vfs_lock);
	if (file->f_path.mnt)			/* none: an anonymous file (the console, fs/file.c) */
		path_put(&file->f_path);	/* may be the unlinked file's last reference */
	kfree(file);
	return 0;
}
