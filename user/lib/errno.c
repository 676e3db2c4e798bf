/*
 * errno.c - a system call's -errno, in Linux's numbering, as picolibc's errno.
 *
 * The kernel returns Linux's error numbers (asm-generic/errno-base.h and errno.h, which ARM
 * and RISC-V share); picolibc numbers its E* constants as newlib does, which agree with Linux's
 * only up to ERANGE (34).  So a wrapper's failure is translated here, and strerror() and a
 * test for `errno == ENOSYS` see picolibc's own value.  A Linux error picolibc has no name for
 * (EUCLEAN, EHWPOISON, ...) becomes EIO: the call failed in the kernel, which is what EIO says.
 * tests/host/user_errno_test.c builds this file against glibc, whose numbers are Linux's: there
 * every entry must map a number to itself, which catches a name at the wrong index.
 */
/* picolibc names ENOTBLK and a few others only for code that asks for Linux's extensions */
#define __LINUX_ERRNO_EXTENSIONS__ 1
#include <errno.h>
#include "runtime.h"

/* Linux's number -> picolibc's, for the errors Linux v6.10 defines that picolibc names too. */
static const unsigned short linux_errno[] = {
	[1] = EPERM, [2] = ENOENT, [3] = ESRCH, [4] = EINTR, [5] = EIO, [6] = ENXIO, [7] = E2BIG,
	[8] = ENOEXEC, [9] = EBADF, [10] = ECHILD, [11] = EAGAIN, [12] = ENOMEM, [13] = EACCES,
	[14] = EFAULT, [15] = ENOTBLK, [16] = EBUSY, [17] = EEXIST, [18] = EXDEV, [19] = ENODEV,
	[20] = ENOTDIR, [21] = EISDIR, [22] = EINVAL, [23] = ENFILE, [24] = EMFILE, [25] = ENOTTY,
	[26] = ETXTBSY, [27] = EFBIG, [28] = ENOSPC, [29] = ESPIPE, [30] = EROFS, [31] = EMLINK,
	[32] = EPIPE, [33] = EDOM, [34] = ERANGE,
	[35] = EDEADLK, [36] = ENAMETOOLONG, [37] = ENOLCK, [38] = ENOSYS, [39] = ENOTEMPTY,
	[40] = ELOOP, [42] = ENOMSG, [43] = EIDRM, [61] = ENODATA, [62] = ETIME, [67] = ENOLINK,
	[71] = EPROTO, [74] = EBADMSG, [75] = EOVERFLOW, [84] = EILSEQ, [95] = EOPNOTSUPP,
	[110] = ETIMEDOUT, [125] = ECANCELED,
};

long __syscall_ret(long r)
{
	unsigned long e = -(unsigned long)r;

	if ((unsigned long)r < -4095UL)
		return r;
	errno = e < sizeof(linux_errno) / sizeof(linux_errno[0]) && linux_errno[e] ?
		linux_errno[e] : EIO;
	return -1;
}
