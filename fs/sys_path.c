/*
 * sys_path.c - the system calls that take a path name (Linux v6.10's fs/open.c, fs/namei.c,
 * fs/stat.c entry points): openat, mkdirat, unlinkat, renameat (ARM), renameat2, statx.
 * docs/syscalls.md lists the numbers per ABI.
 *
 * A name is copied in with strncpy_from_user into a page (v6.10's getname): -EFAULT for a bad
 * pointer, -ENAMETOOLONG from PATH_MAX bytes on, -ENOENT for "".  A relative name is resolved
 * against its directory fd by making it absolute (dir_path: the dentries' names up to the root,
 * across mounts); AT_FDCWD means "/", since tinymm has no per-task working directory yet.
 * Open flags arrive in the ABI's values (uapi/fcntl.h: ARM moves O_DIRECTORY and O_NOFOLLOW)
 * and are translated to the VFS's generic ones; flags the VFS has no use for are accepted and
 * ignored, as v6.10's openat does (only openat2 refuses unknown flags).
 * Locking: vfs_lock while dir_path walks the dentries; nothing held across a user copy.
 * Where tinymm differs from v6.10: RENAME_NOREPLACE is a check before the rename (one thread
 * per process and one user: nothing can create the name in between); RENAME_EXCHANGE and
 * RENAME_WHITEOUT are -EINVAL (no filesystem here supports them, v6.10's answer for those).
 */
#include <string.h>
#include "tinymm/err.h"
#include "tinymm/errno.h"
#include "tinymm/file.h"
#include "tinymm/page_alloc.h"
#include "tinymm/syscalls.h"
#include "tinymm/uaccess.h"
#include "tinymm/uapi/fcntl.h"
#include "tinymm/uapi/stat.h"
#include "tinymm/vfs.h"
#include "internal.h"
#include "sys_internal.h"

/* The user's name in a fresh page: the page, or an ERR_PTR. */
static char *getname(const char __user *name, bool empty_ok)
{
	char *buf = (char *)__get_free_page(GFP_KERNEL);
	long len;

	if (!buf)
		return ERR_PTR(-ENOMEM);
	len = strncpy_from_user(buf, name, PATH_MAX);
	if (len < 0 || len >= PATH_MAX || (!len && !empty_ok)) {
		free_pages((unsigned long)buf, 0);
		return ERR_PTR(len < 0 ? len : len ? -ENAMETOOLONG : -ENOENT);
	}
	return buf;
}

static void putname(char *name)
{
	free_pages((unsigned long)name, 0);
}

/* @file's directory as an absolute path at the start of @buf (PATH_MAX bytes): its length,
 * or -errno (-ENOENT for a directory already removed). */
static int dir_path(struct file *file, char *buf)
{
	struct vfsmount *mnt = file->f_path.mnt;
	struct dentry *d = file->f_path.dentry;
	int pos = PATH_MAX - 1, err = 0;

	buf[pos] = '\0';
	mutex_lock(&vfs_lock);
	for (;;) {
		if (d == mnt->mnt_root) {
			if (mnt->mnt_parent == mnt)
				break;			/* the root of everything */
			d = mnt->mnt_mountpoint;
			mnt = mnt->mnt_parent;
			continue;
		}
		if (d->d_unhashed) {
			err = -ENOENT;
			break;
		}
		if ((int)d->d_name.len + 1 > pos) {
			err = -ENAMETOOLONG;
			break;
		}
		pos -= (int)d->d_name.len;
		memcpy(buf + pos, d->d_name.name, d->d_name.len);
		buf[--pos] = '/';
		d = d->d_parent;
	}
	mutex_unlock(&vfs_lock);
	if (err)
		return err;
	if (pos == PATH_MAX - 1)
		buf[--pos] = '/';
	memmove(buf, buf + pos, (size_t)(PATH_MAX - pos));
	return PATH_MAX - 1 - pos;
}

/* The name @dfd and the user's @name mean, as a page to putname(), or an ERR_PTR. */
static char *getname_at(int dfd, const char __user *uname)
{
	char *name = getname(uname, false), *full;
	struct file *dir;
	int len;

	if (IS_ERR(name) || name[0] == '/' || dfd == LINUX_AT_FDCWD)
		return name;
	dir = fdget(dfd);
	if (!dir) {
		putname(name);
		return ERR_PTR(-EBADF);
	}
	if (!S_ISDIR(dir->f_inode->i_mode) || !dir->f_path.mnt) {
		fput(dir);
		putname(name);
		return ERR_PTR(-ENOTDIR);
	}
	full = (char *)__get_free_page(GFP_KERNEL);
	len = full ? dir_path(dir, full) : -ENOMEM;
	fput(dir);
	if (len >= 0 && (size_t)len + 1 + strlen(name) >= PATH_MAX)
		len = -ENAMETOOLONG;
	if (len < 0) {
		if (full)
			putname(full);
		putname(name);
		return ERR_PTR(len);
	}
	if (full[len - 1] != '/')
		full[len++] = '/';
	strcpy(full + len, name);
	putname(name);
	return full;
}

/* The ABI's open flags to the VFS's (vfs.h: the generic values). */
static unsigned int open_flags_from_user(unsigned int uflags)
{
	unsigned int f = uflags & LINUX_O_ACCMODE;

	if (uflags & LINUX_O_CREAT)
		f |= O_CREAT;
	if (uflags & LINUX_O_EXCL)
		f |= O_EXCL;
	if (uflags & LINUX_O_TRUNC)
		f |= O_TRUNC;
	if (uflags & LINUX_O_APPEND)
		f |= O_APPEND;
	if (uflags & LINUX_O_DIRECTORY)
		f |= O_DIRECTORY;
	if (uflags & LINUX_O_NOFOLLOW)
		f |= O_NOFOLLOW;
	if (uflags & LINUX_O_CLOEXEC)
		f |= O_CLOEXEC;
	return f;
}

long sys_openat(int dfd, const char __user *filename, int flags, unsigned int mode)
{
	unsigned int f = open_flags_from_user((unsigned int)flags);
	struct file *file;
	char *name;
	int err, fd;

	/* v6.10's build_open_flags: O_CREAT|O_DIRECTORY is -EINVAL since 6.4; O_TMPFILE
	 * (no filesystem here has ->tmpfile) -EOPNOTSUPP. */
	if ((f & O_CREAT) && (f & O_DIRECTORY))
		return -EINVAL;
	if (((unsigned int)flags & LINUX_O_TMPFILE) == LINUX_O_TMPFILE)
		return -EOPNOTSUPP;
	name = getname_at(dfd, filename);
	if (IS_ERR(name))
		return PTR_ERR(name);
	err = vfs_open(name, f & ~O_CLOEXEC, mode & S_IALLUGO, &file);
	putname(name);
	if (err)
		return err;
	fd = fd_install_new(file, f);
	if (fd < 0)
		fput(file);
	return fd;
}

long sys_mkdirat(int dfd, const char __user *pathname, unsigned int mode)
{
	char *name = getname_at(dfd, pathname);
	int err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = vfs_mkdir(name, mode & S_IALLUGO);
	putname(name);
	return err;
}

long sys_unlinkat(int dfd, const char __user *pathname, int flag)
{
	char *name;
	int err;

	if ((unsigned int)flag & ~(unsigned int)LINUX_AT_REMOVEDIR)
		return -EINVAL;
	name = getname_at(dfd, pathname);
	if (IS_ERR(name))
		return PTR_ERR(name);
	err = (flag & LINUX_AT_REMOVEDIR) ? vfs_rmdir(name) : vfs_unlink(name);
	putname(name);
	return err;
}

long sys_renameat2(int olddfd, const char __user *oldname, int newdfd,
		   const char __user *newname, unsigned int flags)
{
	char *from, *to;
	int err;

	if (flags & ~(unsigned int)(LINUX_RENAME_NOREPLACE | LINUX_RENAME_EXCHANGE |
				    LINUX_RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & LINUX_RENAME_NOREPLACE) && (flags & LINUX_RENAME_EXCHANGE))
		return -EINVAL;
	if (flags & (LINUX_RENAME_EXCHANGE | LINUX_RENAME_WHITEOUT))
		return -EINVAL;
	from = getname_at(olddfd, oldname);
	if (IS_ERR(from))
		return PTR_ERR(from);
	to = getname_at(newdfd, newname);
	if (IS_ERR(to)) {
		putname(from);
		return PTR_ERR(to);
	}
	err = 0;
	if (flags & LINUX_RENAME_NOREPLACE) {
		struct kstat st;
		int e = vfs_stat(to, &st, false);

		if (!e)
			err = -EEXIST;
		else if (e != -ENOENT)
			err = e;
	}
	if (!err)
		err = vfs_rename(from, to);
	putname(to);
	putname(from);
	return err;
}

long sys_renameat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname)
{
	return sys_renameat2(olddfd, oldname, newdfd, newname, 0);
}

static void statx_ts(struct linux_statx_timestamp *t, const struct timespec64 *ts)
{
	t->tv_sec = ts->tv_sec;
	t->tv_nsec = (uint32_t)ts->tv_nsec;
}

long sys_statx(int dfd, const char __user *filename, unsigned int flags, unsigned int mask,
	       struct linux_statx __user *buffer)
{
	unsigned int rmaj = 0, rmin = 0, dmaj, dmin;
	struct linux_statx out;
	struct kstat st;
	char *name;
	int err;

	if (flags & ~(unsigned int)(LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_NO_AUTOMOUNT |
				    LINUX_AT_EMPTY_PATH | LINUX_AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & LINUX_AT_STATX_SYNC_TYPE) == LINUX_AT_STATX_SYNC_TYPE)
		return -EINVAL;
	if (mask & LINUX_STATX__RESERVED)
		return -EINVAL;
	name = getname(filename, flags & LINUX_AT_EMPTY_PATH);
	if (IS_ERR(name))
		return PTR_ERR(name);
	if (!name[0]) {
		/* AT_EMPTY_PATH: the fd itself (AT_FDCWD: the working directory, "/"). */
		struct file *file = dfd == LINUX_AT_FDCWD ? NULL : fdget(dfd);

		if (dfd == LINUX_AT_FDCWD)
			err = vfs_stat("/", &st, true);
		else if (!file)
			err = -EBADF;
		else
			err = file_getattr(file, &st, &rmaj, &rmin);
		if (file)
			fput(file);
	} else {
		if (name[0] != '/' && dfd != LINUX_AT_FDCWD) {
			char *full;

			putname(name);
			full = getname_at(dfd, filename);
			if (IS_ERR(full))
				return PTR_ERR(full);
			name = full;
		}
		err = vfs_stat(name, &st, !(flags & LINUX_AT_SYMLINK_NOFOLLOW));
	}
	putname(name);
	if (err)
		return err;
	kstat_dev(&st, &dmaj, &dmin);
	memset(&out, 0, sizeof(out));
	out.stx_mask = LINUX_STATX_BASIC_STATS;	/* no birth time: ext2 has none */
	out.stx_blksize = st.blksize;
	out.stx_nlink = st.nlink;
	out.stx_uid = st.uid;
	out.stx_gid = st.gid;
	out.stx_mode = (uint16_t)st.mode;
	out.stx_ino = st.ino;
	out.stx_size = (uint64_t)st.size;
	out.stx_blocks = st.blocks;
	statx_ts(&out.stx_atime, &st.atime);
	statx_ts(&out.stx_mtime, &st.mtime);
	statx_ts(&out.stx_ctime, &st.ctime);
	out.stx_rdev_major = rmaj;
	out.stx_rdev_minor = rmin;
	out.stx_dev_major = dmaj;
	out.stx_dev_minor = dmin;
	return copy_to_user(buffer, &out, sizeof(out)) ? -EFAULT : 0;
}
