/* errno.h - the Linux error numbers tinymm returns (negated), so messages read the same. */
#ifndef TINYMM_ERRNO_H
#define TINYMM_ERRNO_H
#define EPERM	1
#define ENOENT	2
#define ESRCH	3
#define EIO	5
#define ENXIO	6
#define E2BIG	7
#define ENOEXEC	8
#define EBADF	9
#define ECHILD	10
#define EAGAIN	11	/* try again (mlock: not everything could be faulted in) */
#define ENOMEM	12
#define EACCES	13
#define EFAULT	14
#define ENOTBLK	15
#define EBUSY	16
#define EEXIST	17
#define EXDEV	18
#define ENODEV	19
#define ENOTDIR	20
#define EISDIR	21
#define EINVAL	22
#define ENFILE	23
#define EMFILE	24
#define EFBIG	27
#define ENOSPC	28
#define ESPIPE	29
#define EROFS	30
#define EMLINK	31
#define ERANGE	34
#define ENAMETOOLONG	36
#define ENOSYS	38
#define ENOTEMPTY	39
#define ELOOP	40
#define EOVERFLOW	75
#define EOPNOTSUPP	95
#define ETIMEDOUT	110
#define EUCLEAN	117	/* structure needs cleaning (a corrupt filesystem; ext2/ext4's EFSCORRUPTED) */
#define EHWPOISON	133	/* memory page has hardware error (memory_failure) */

#endif
