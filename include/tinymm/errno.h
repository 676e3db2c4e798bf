/* errno.h - the Linux error numbers tinymm returns (negated), so messages read the same. */
#ifndef TINYMM_ERRNO_H
#define TINYMM_ERRNO_H
#define ENOENT	2
#define EIO	5
#define ENXIO	6
#define E2BIG	7
#define ENOMEM	12
#define EBUSY	16
#define EEXIST	17
#define ENODEV	19
#define EINVAL	22
#define ENOSPC	28
#define ERANGE	34
#define EOPNOTSUPP	95
#define ETIMEDOUT	110
#define EHWPOISON	133	/* memory page has hardware error (memory_failure) */
#endif
