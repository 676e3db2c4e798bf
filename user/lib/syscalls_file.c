/*
 * syscalls_file.c - the file calls (docs/syscalls.md): open/openat, mkdir(at), unlink(at),
 * rmdir, rename(at), ftruncate, fsync, fstat, stat, getdents64.  picolibc's O_* and AT_*
 * values are newlib's and differ from Linux's (uapi/fcntl.h has Linux's, per ABI: ARM moves
 * O_DIRECTORY and O_NOFOLLOW), so each call translates; a newlib flag Linux has no bit for
 * is EINVAL here rather than silently dropped.  Paths are used as given: the kernel has no
 * working directory yet, a relative name starts at "/".
 */
#define _DEFAULT_SOURCE 1	/* picolibc: the POSIX 2008 and BSD names (O_CLOEXEC, AT_FDCWD, ...) */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime.h"
#include "tinymm_user.h"
#include "unistd_nr.h"
#include "../../include/tinymm/uapi/fcntl.h"
#include "../../include/tinymm/uapi/stat.h"

/* newlib's open flags -> Linux's, or -1 for a flag with no Linux meaning here. */
static long open_flags(int flags)
{
	static const struct { int newlib; long linux_flag; } map[] = {
		{ O_CREAT, LINUX_O_CREAT }, { O_EXCL, LINUX_O_EXCL }, { O_TRUNC, LINUX_O_TRUNC },
		{ O_APPEND, LINUX_O_APPEND }, { O_NONBLOCK, LINUX_O_NONBLOCK },
		{ O_NOCTTY, LINUX_O_NOCTTY }, { O_SYNC, LINUX_O_SYNC }, { O_CLOEXEC, LINUX_O_CLOEXEC },
		{ O_NOFOLLOW, LINUX_O_NOFOLLOW }, { O_DIRECTORY, LINUX_O_DIRECTORY },
	};
	long out = flags & O_ACCMODE;
	int left = flags & ~O_ACCMODE;

	for (unsigned int i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (left & map[i].newlib) {
			out |= map[i].linux_flag;
			left &= ~map[i].newlib;
		}
	}
	return left ? -1 : out | LINUX_O_LARGEFILE;	/* 64-bit offsets, as glibc asks */
}

static long at_fd(int dirfd)
{
	return dirfd == AT_FDCWD ? LINUX_AT_FDCWD : dirfd;
}

int openat(int dirfd, const char *path, int flags, ...)
{
	long lflags = open_flags(flags);
	mode_t mode = 0;
	va_list ap;

	if (lflags < 0) {
		errno = EINVAL;
		return -1;
	}
	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return (int)__syscall_ret(__syscall6(__NR_openat, at_fd(dirfd), (long)path, lflags,
					     (long)mode, 0, 0));
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return openat(AT_FDCWD, path, flags, mode);
}

int mkdirat(int dirfd, const char *path, mode_t mode)
{
	return (int)__syscall_ret(__syscall3(__NR_mkdirat, at_fd(dirfd), path, mode));
}

int mkdir(const char *path, mode_t mode)
{
	return mkdirat(AT_FDCWD, path, mode);
}

int unlinkat(int dirfd, const char *path, int flags)
{
	if (flags & ~AT_REMOVEDIR) {
		errno = EINVAL;
		return -1;
	}
	return (int)__syscall_ret(__syscall3(__NR_unlinkat, at_fd(dirfd), path,
					     (flags & AT_REMOVEDIR) ? LINUX_AT_REMOVEDIR : 0));
}

int unlink(const char *path)
{
	return unlinkat(AT_FDCWD, path, 0);
}

int rmdir(const char *path)
{
	return unlinkat(AT_FDCWD, path, AT_REMOVEDIR);
}

int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
#if defined(__arm__)
	return (int)__syscall_ret(__syscall6(__NR_renameat, at_fd(olddirfd), (long)oldpath,
					     at_fd(newdirfd), (long)newpath, 0, 0));
#else
	return (int)__syscall_ret(__syscall5(__NR_renameat2, at_fd(olddirfd), oldpath,
					     at_fd(newdirfd), newpath, 0));
#endif
}

int rename(const char *oldpath, const char *newpath)
{
	return renameat(AT_FDCWD, oldpath, AT_FDCWD, newpath);
}

int fsync(int fd)
{
	return (int)__syscall_ret(__syscall1(__NR_fsync, fd));
}

/* RV64: ftruncate(fd, length); RV32: ftruncate64 with the length in a1 (low), a2 (high);
 * ARM EABI: ftruncate64 with r1 padding and the length in r2:r3. */
static int do_ftruncate(int fd, int64_t length)
{
#if defined(__riscv) && __riscv_xlen == 64
	return (int)__syscall_ret(__syscall2(__NR_ftruncate, fd, length));
#elif defined(__riscv)
	return (int)__syscall_ret(__syscall3(__NR_ftruncate64, fd, (long)(uint32_t)length,
					     (long)(uint32_t)((uint64_t)length >> 32)));
#else
	return (int)__syscall_ret(__syscall6(__NR_ftruncate64, fd, 0, (long)(uint32_t)length,
					     (long)(uint32_t)((uint64_t)length >> 32), 0, 0));
#endif
}

int ftruncate(int fd, off_t length)
{
	return do_ftruncate(fd, length);
}

/* picolibc's struct stat from whichever the ABI reports. */
static int to_stat(struct stat *st, uint64_t dev, uint64_t ino, uint32_t mode, uint32_t nlink,
		   uint32_t uid, uint32_t gid, uint64_t rdev, int64_t size, long blksize,
		   int64_t blocks, const int64_t t[6])
{
	memset(st, 0, sizeof(*st));
	if ((off_t)size != size) {
		errno = EOVERFLOW;
		return -1;
	}
	st->st_dev = (dev_t)dev;
	st->st_ino = (ino_t)ino;
	st->st_mode = (mode_t)mode;
	st->st_nlink = (nlink_t)nlink;
	st->st_uid = (uid_t)uid;
	st->st_gid = (gid_t)gid;
	st->st_rdev = (dev_t)rdev;
	st->st_size = (off_t)size;
	st->st_blksize = (blksize_t)blksize;
	st->st_blocks = (blkcnt_t)blocks;
	st->st_atim.tv_sec = (time_t)t[0];
	st->st_atim.tv_nsec = (long)t[1];
	st->st_mtim.tv_sec = (time_t)t[2];
	st->st_mtim.tv_nsec = (long)t[3];
	st->st_ctim.tv_sec = (time_t)t[4];
	st->st_ctim.tv_nsec = (long)t[5];
	return 0;
}

/* statx on every ABI (RV32 has nothing else): the wrapper's common path. */
static int statx_basic(int dirfd, const char *path, int flags, struct linux_statx *stx)
{
	return (int)__syscall_ret(__syscall5(__NR_statx, dirfd, path, flags,
					     LINUX_STATX_BASIC_STATS, stx));
}

static int statx_to_stat(const struct linux_statx *x, struct stat *st)
{
	int64_t t[6] = { x->stx_atime.tv_sec, x->stx_atime.tv_nsec, x->stx_mtime.tv_sec,
			 x->stx_mtime.tv_nsec, x->stx_ctime.tv_sec, x->stx_ctime.tv_nsec };
	uint64_t dev = ((uint64_t)x->stx_dev_major << 8) | x->stx_dev_minor;
	uint64_t rdev = ((uint64_t)x->stx_rdev_major << 8) | x->stx_rdev_minor;

	return to_stat(st, dev, x->stx_ino, x->stx_mode, x->stx_nlink, x->stx_uid, x->stx_gid,
		       rdev, (int64_t)x->stx_size, x->stx_blksize, (int64_t)x->stx_blocks, t);
}

int fstat(int fd, struct stat *st)
{
#if defined(__riscv) && __riscv_xlen == 64
	struct linux_stat k;
	if (__syscall_ret(__syscall2(__NR_fstat, fd, &k)) < 0)
		return -1;
	int64_t t[6] = { k.st_atime_sec, (int64_t)k.st_atime_nsec, k.st_mtime_sec,
			 (int64_t)k.st_mtime_nsec, k.st_ctime_sec, (int64_t)k.st_ctime_nsec };
	return to_stat(st, k.st_dev, k.st_ino, k.st_mode, k.st_nlink, k.st_uid, k.st_gid,
		       k.st_rdev, k.st_size, k.st_blksize, k.st_blocks, t);
#elif defined(__arm__)
	struct linux_stat64 k;
	if (__syscall_ret(__syscall2(__NR_fstat64, fd, &k)) < 0)
		return -1;
	int64_t t[6] = { k.st_atime_sec, k.st_atime_nsec, k.st_mtime_sec, k.st_mtime_nsec,
			 k.st_ctime_sec, k.st_ctime_nsec };
	return to_stat(st, k.st_dev, k.st_ino, k.st_mode, k.st_nlink, k.st_uid, k.st_gid,
		       k.st_rdev, k.st_size, (long)k.st_blksize, (int64_t)k.st_blocks, t);
#else
	struct linux_statx x;
	if (statx_basic(fd, "", LINUX_AT_EMPTY_PATH, &x) < 0)
		return -1;
	return statx_to_stat(&x, st);
#endif
}

int stat(const char *path, struct stat *st)
{
	struct linux_statx x;

	if (statx_basic(LINUX_AT_FDCWD, path, 0, &x) < 0)
		return -1;
	return statx_to_stat(&x, st);
}

ssize_t getdents64(int fd, void *dirp, size_t count)
{
	return __syscall_ret(__syscall3(__NR_getdents64, fd, dirp, count));
}
