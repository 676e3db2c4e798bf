/*
 * sys_fd.c - the system calls on a file descriptor (Linux v6.10's fs/read_write.c, fs/open.c,
 * fs/stat.c, fs/readdir.c, fs/sync.c entry points): read, write, close, lseek and the 32-bit
 * ABIs' llseek/_llseek, fsync, ftruncate and ftruncate64, getdents64, fstat (RV64), fstat64
 * (ARM).  docs/syscalls.md lists the numbers per ABI.
 *
 * User memory is reached only through <tinymm/uaccess.h>, through a one-page bounce buffer:
 * a call moves at most MAX_RW_COUNT bytes, a page at a time, so a huge length never allocates
 * more than a page; a fault part-way returns the bytes done (Linux's short read/write), none
 * done is -EFAULT.  A read whose copy-out fails part-way moves f_pos back to what was copied.
 * Locking: none of its own; the VFS's f_pos_lock and i_rwsem inside vfs_*.  No lock is held
 * across a user copy (a fault takes mmap_lock and may read a file).
 * Where tinymm differs from v6.10: the console (fds 0-2) is a character device without a
 * line discipline (fs/file.c); lseek on it is -ESPIPE as on a tty.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/file.h"
#include "tinymm/page_alloc.h"
#include "tinymm/syscalls.h"
#include "tinymm/uaccess.h"
#include "tinymm/uapi/stat.h"
#include "tinymm/vfs.h"
#include "internal.h"
#include "sys_internal.h"

/* v6.10's MAX_RW_COUNT: one call moves at most INT_MAX rounded down to a page. */
#define MAX_RW_COUNT	((size_t)INT_MAX & ~(size_t)(PAGE_SIZE - 1))

static void *bounce_alloc(void)
{
	return (void *)__get_free_page(GFP_KERNEL);
}

static void bounce_free(void *p)
{
	free_pages((unsigned long)p, 0);
}

/*
 * What read and write share before their loops: the file (-EBADF), @count clamped to
 * MAX_RW_COUNT, the user range checked (-EFAULT) and a bounce page when there is anything to
 * move (-ENOMEM).  0 with *@filep referenced and *@kbuf (NULL for a count of 0) to free.
 */
static long rw_begin(unsigned int fd, const void __user *buf, size_t *count,
		     struct file **filep, void **kbuf)
{
	struct file *file = fdget((int)fd);

	if (!file)
		return -EBADF;
	if (*count > MAX_RW_COUNT)
		*count = MAX_RW_COUNT;
	*kbuf = NULL;
	if (!access_ok(buf, *count)) {
		fput(file);
		return -EFAULT;
	}
	if (*count && !(*kbuf = bounce_alloc())) {
		fput(file);
		return -ENOMEM;
	}
	*filep = file;
	return 0;
}

long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	struct file *file;
	size_t done = 0;
	void *kbuf;
	long ret = rw_begin(fd, buf, &count, &file, &kbuf);

	if (ret)
		return ret;
	if (!count)
		ret = vfs_read(file, NULL, 0);		/* the checks (EBADF, EISDIR) */
	while (done < count) {
		size_t chunk = count - done < PAGE_SIZE ? count - done : PAGE_SIZE;
		long n = vfs_read(file, kbuf, chunk);

		if (n <= 0) {
			ret = n;
			break;
		}
		unsigned long left = copy_to_user(buf + done, kbuf, (unsigned long)n);
		done += (size_t)n - left;
		if (left) {
			/* Give back what the task did not get: the next read returns it. */
			if (S_ISREG(file->f_inode->i_mode))
				vfs_llseek(file, -(loff_t)left, SEEK_CUR);
			ret = -EFAULT;
			break;
		}
		if ((size_t)n < chunk)
			break;			/* a short read (end of file, the console): done */
	}
	bounce_free(kbuf);
	fput(file);
	return done ? (long)done : ret;
}

long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	struct file *file;
	size_t done = 0;
	void *kbuf;
	long ret = rw_begin(fd, buf, &count, &file, &kbuf);

	if (ret)
		return ret;
	if (!count)
		ret = vfs_write(file, NULL, 0);
	while (done < count) {
		size_t chunk = count - done < PAGE_SIZE ? count - done : PAGE_SIZE;
		unsigned long left = copy_from_user(kbuf, buf + done, chunk);

		if (left == chunk) {
			ret = -EFAULT;
			break;
		}
		long n = vfs_write(file, kbuf, chunk - left);
		if (n <= 0) {
			ret = n;
			break;
		}
		done += (size_t)n;
		if (left) {
			ret = -EFAULT;
			break;
		}
		if ((size_t)n < chunk)
			break;
	}
	bounce_free(kbuf);
	fput(file);
	return done ? (long)done : ret;
}

long sys_close(unsigned int fd)
{
	return close_fd((int)fd);
}

static bool is_console(const struct file *file)
{
	return !file->f_inode->i_sb;
}

static loff_t do_lseek(unsigned int fd, loff_t offset, unsigned int whence)
{
	struct file *file = fdget((int)fd);
	loff_t ret;

	if (!file)
		return -EBADF;
	if (whence > SEEK_END)
		ret = -EINVAL;
	else if (is_console(file))
		ret = -ESPIPE;
	else
		ret = vfs_llseek(file, offset, (int)whence);
	fput(file);
	return ret;
}

/* RV64 (and ARM's lseek): a 64-bit offset in one register, or a 32-bit one sign-extended;
 * a result that does not fit the ABI's off_t (ARM) is -EOVERFLOW, as v6.10's. */
long sys_lseek(unsigned int fd, long offset, unsigned int whence)
{
	loff_t ret = do_lseek(fd, offset, whence);

	if (ret >= 0 && ret != (loff_t)(long)ret)
		return -EOVERFLOW;
	return (long)ret;
}

/* RV32's llseek, ARM's _llseek: the offset as two words, the result through a pointer. */
long sys_llseek(unsigned int fd, unsigned long offset_high, unsigned long offset_low,
		loff_t __user *result, unsigned int whence)
{
	loff_t offset = (loff_t)(((uint64_t)(uint32_t)offset_high << 32) | (uint32_t)offset_low);
	loff_t ret = do_lseek(fd, offset, whence);

	if (ret < 0)
		return (long)ret;
	if (copy_to_user(result, &ret, sizeof(ret)))
		return -EFAULT;
	return 0;
}

long sys_fsync(unsigned int fd)
{
	struct file *file = fdget((int)fd);
	int ret;

	if (!file)
		return -EBADF;
	ret = vfs_fsync(file);
	fput(file);
	return ret;
}

static long do_ftruncate(unsigned int fd, loff_t length)
{
	struct file *file;
	int ret;

	if (length < 0)
		return -EINVAL;
	file = fdget((int)fd);
	if (!file)
		return -EBADF;
	ret = vfs_ftruncate(file, length);
	fput(file);
	return ret;
}

long sys_ftruncate(unsigned int fd, long length)
{
	return do_ftruncate(fd, length);
}

/* RV32: the length in a1 (low) and a2 (high). */
long sys_ftruncate64(unsigned int fd, unsigned long length_low, unsigned long length_high)
{
	return do_ftruncate(fd, (loff_t)(((uint64_t)(uint32_t)length_high << 32) | (uint32_t)length_low));
}

/* ARM EABI: a 64-bit argument starts at an even register, so r1 is padding, r2:r3 the length. */
long sys_arm_ftruncate64(unsigned int fd, unsigned long pad, unsigned long length_low,
			 unsigned long length_high)
{
	(void)pad;
	return sys_ftruncate64(fd, length_low, length_high);
}

long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count)
{
	struct file *file = fdget((int)fd);
	size_t len = count < PAGE_SIZE ? count : PAGE_SIZE;
	void *kbuf;
	long ret;

	if (!file)
		return -EBADF;
	if (!access_ok(dirent, count)) {
		fput(file);
		return -EFAULT;
	}
	kbuf = bounce_alloc();
	if (!kbuf) {
		fput(file);
		return -ENOMEM;
	}
	if (is_console(file)) {
		ret = -ENOTDIR;
	} else {
		loff_t pos = file->f_pos;

		ret = vfs_getdents64(file, kbuf, len);
		if (ret > 0 && copy_to_user(dirent, kbuf, (unsigned long)ret)) {
			mutex_lock(&file->f_pos_lock);
			file->f_pos = pos;	/* the entries were not delivered */
			mutex_unlock(&file->f_pos_lock);
			ret = -EFAULT;
		}
	}
	bounce_free(kbuf);
	fput(file);
	return ret;
}

/* The device number st_dev reports, from the disk's name as Linux numbers them: virtio
 * disks 254:16n, RAM disks 1:n; a filesystem without a disk (ramfs) 0:0. */
void kstat_dev(const struct kstat *st, unsigned int *major, unsigned int *minor)
{
	*major = *minor = 0;
	if (st->dev[0] == 'v' && st->dev[1] == 'd' && st->dev[2] >= 'a' && st->dev[2] <= 'z') {
		*major = 254;
		*minor = 16U * (unsigned int)(st->dev[2] - 'a');
	} else if (!strncmp(st->dev, "ram", 3) && st->dev[3] >= '0' && st->dev[3] <= '9') {
		*major = 1;
		*minor = (unsigned int)(st->dev[3] - '0');
	}
}

/* The file's attributes; the console's are a character device's (Linux's /dev/console, 5:1). */
int file_getattr(struct file *file, struct kstat *st, unsigned int *rdev_major,
		 unsigned int *rdev_minor)
{
	*rdev_major = *rdev_minor = 0;
	if (is_console(file)) {
		memset(st, 0, sizeof(*st));
		st->mode = file->f_inode->i_mode;
		st->nlink = 1;
		st->blksize = 1024;
		*rdev_major = 5;
		*rdev_minor = 1;
		return 0;
	}
	return vfs_fstat(file, st);
}

static uint64_t encode_dev(unsigned int major, unsigned int minor)
{
	/* v6.10's new_encode_dev() */
	return (minor & 0xff) | (major << 8) | ((uint64_t)(minor & ~0xffU) << 12);
}

/* What fstat and fstat64 share: @fd's attributes and both device numbers; 0 or -errno. */
static int fd_getattr(int fd, struct kstat *st, unsigned int *rmaj, unsigned int *rmin,
		      unsigned int *dmaj, unsigned int *dmin)
{
	struct file *file = fdget(fd);
	int err;

	if (!file)
		return -EBADF;
	err = file_getattr(file, st, rmaj, rmin);
	fput(file);
	if (!err)
		kstat_dev(st, dmaj, dmin);
	return err;
}

long sys_fstat(unsigned int fd, struct linux_stat __user *statbuf)
{
	unsigned int rmaj, rmin, dmaj, dmin;
	struct linux_stat out;
	struct kstat st;
	int err = fd_getattr((int)fd, &st, &rmaj, &rmin, &dmaj, &dmin);

	if (err)
		return err;
	memset(&out, 0, sizeof(out));
	out.st_dev = encode_dev(dmaj, dmin);
	out.st_ino = st.ino;
	out.st_mode = st.mode;
	out.st_nlink = st.nlink;
	out.st_uid = st.uid;
	out.st_gid = st.gid;
	out.st_rdev = encode_dev(rmaj, rmin);
	out.st_size = st.size;
	out.st_blksize = (int32_t)st.blksize;
	out.st_blocks = (int64_t)st.blocks;
	out.st_atime_sec = st.atime.tv_sec;
	out.st_atime_nsec = (uint64_t)st.atime.tv_nsec;
	out.st_mtime_sec = st.mtime.tv_sec;
	out.st_mtime_nsec = (uint64_t)st.mtime.tv_nsec;
	out.st_ctime_sec = st.ctime.tv_sec;
	out.st_ctime_nsec = (uint64_t)st.ctime.tv_nsec;
	return copy_to_user(statbuf, &out, sizeof(out)) ? -EFAULT : 0;
}

long sys_fstat64(unsigned long fd, struct linux_stat64 __user *statbuf)
{
	unsigned int rmaj, rmin, dmaj, dmin;
	struct linux_stat64 out;
	struct kstat st;
	int err = fd_getattr((int)fd, &st, &rmaj, &rmin, &dmaj, &dmin);

	if (err)
		return err;
	memset(&out, 0, sizeof(out));
	/* v6.10's cp_new_stat64 on ARM: huge_encode_dev, the 32-bit st_ino copy truncated. */
	out.st_dev = encode_dev(dmaj, dmin);
	out.__st_ino = (uint32_t)st.ino;
	out.st_ino = st.ino;
	out.st_mode = st.mode;
	out.st_nlink = st.nlink;
	out.st_uid = st.uid;
	out.st_gid = st.gid;
	out.st_rdev = encode_dev(rmaj, rmin);
	out.st_size = st.size;
	out.st_blksize = st.blksize;
	out.st_blocks = st.blocks;
	out.st_atime_sec = (uint32_t)st.atime.tv_sec;
	out.st_atime_nsec = (uint32_t)st.atime.tv_nsec;
	out.st_mtime_sec = (uint32_t)st.mtime.tv_sec;
	out.st_mtime_nsec = (uint32_t)st.mtime.tv_nsec;
	out.st_ctime_sec = (uint32_t)st.ctime.tv_sec;
	out.st_ctime_nsec = (uint32_t)st.ctime.tv_nsec;
	return copy_to_user(statbuf, &out, sizeof(out)) ? -EFAULT : 0;
}
