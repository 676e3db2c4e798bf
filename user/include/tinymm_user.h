/*
 * tinymm_user.h - what tinymm's small C runtime (user/lib) adds to picolibc's headers for the
 * programs under user/: calls picolibc does not declare (it has no <sys/mman.h>,
 * <sys/utsname.h> or <dirent.h> for a bare-metal target), with Linux's constants.
 */
#ifndef TINYMM_USER_H
#define TINYMM_USER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "../../include/tinymm/uapi/mman.h"
#include "../../include/tinymm/uapi/utsname.h"

/* Set the program break to @addr: 0, or -1 with errno ENOMEM (Linux's brk, as glibc wraps it). */
int brk(void *addr);

/* <sys/mman.h>: Linux's values (uapi/mman.h). */
#define PROT_NONE		LINUX_PROT_NONE
#define PROT_READ		LINUX_PROT_READ
#define PROT_WRITE		LINUX_PROT_WRITE
#define PROT_EXEC		LINUX_PROT_EXEC
#define MAP_SHARED		LINUX_MAP_SHARED
#define MAP_PRIVATE		LINUX_MAP_PRIVATE
#define MAP_FIXED		LINUX_MAP_FIXED
#define MAP_ANONYMOUS		LINUX_MAP_ANONYMOUS
#define MAP_ANON		LINUX_MAP_ANONYMOUS
#define MAP_FIXED_NOREPLACE	LINUX_MAP_FIXED_NOREPLACE
#define MAP_LOCKED		LINUX_MAP_LOCKED
#define MAP_POPULATE		LINUX_MAP_POPULATE
#define MAP_FAILED		LINUX_MAP_FAILED
#define MADV_NORMAL		LINUX_MADV_NORMAL
#define MADV_RANDOM		LINUX_MADV_RANDOM
#define MADV_SEQUENTIAL		LINUX_MADV_SEQUENTIAL
#define MADV_WILLNEED		LINUX_MADV_WILLNEED
#define MADV_DONTNEED		LINUX_MADV_DONTNEED
#define MS_ASYNC		LINUX_MS_ASYNC
#define MS_INVALIDATE		LINUX_MS_INVALIDATE
#define MS_SYNC			LINUX_MS_SYNC
void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t length);
int mprotect(void *addr, size_t length, int prot);
int madvise(void *addr, size_t length, int advice);
int msync(void *addr, size_t length, int flags);
/* Bit 0 of vec[i]: page i of [addr, addr + length) is resident (Linux's mincore(2)). */
int mincore(void *addr, size_t length, unsigned char *vec);
#define MCL_CURRENT		LINUX_MCL_CURRENT
#define MCL_FUTURE		LINUX_MCL_FUTURE
#define MCL_ONFAULT		LINUX_MCL_ONFAULT
#define MLOCK_ONFAULT		LINUX_MLOCK_ONFAULT
int mlock(const void *addr, size_t length);
int mlock2(const void *addr, size_t length, unsigned int flags);
int munlock(const void *addr, size_t length);
int mlockall(int flags);
int munlockall(void);

/* <sys/utsname.h>: Linux's struct new_utsname. */
struct utsname {
	char sysname[LINUX_NEW_UTS_LEN + 1];
	char nodename[LINUX_NEW_UTS_LEN + 1];
	char release[LINUX_NEW_UTS_LEN + 1];
	char version[LINUX_NEW_UTS_LEN + 1];
	char machine[LINUX_NEW_UTS_LEN + 1];
	char domainname[LINUX_NEW_UTS_LEN + 1];
};
int uname(struct utsname *buf);

/* getdents64(2) as glibc declares it, and Linux's record. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};
#define DT_UNKNOWN	0
#define DT_DIR		4
#define DT_REG		8
#define DT_LNK		10
ssize_t getdents64(int fd, void *dirp, size_t count);

/* Any system call by number (include/tinymm/uapi/unistd.h), the kernel's raw result: a value
 * in [-4095, -1] is -errno in Linux's numbering; errno is not touched. */
long tinymm_syscall6(long n, long a, long b, long c, long d, long e, long f);

/* picolibc declares the POSIX clocks and sleeps only where _POSIX_TIMERS is set (RTEMS,
 * Cygwin); the runtime has them (lib/syscalls_time.c), with picolibc's clock numbering. */
#include <time.h>
int clock_gettime(clockid_t clock_id, struct timespec *tp);
int nanosleep(const struct timespec *rqtp, struct timespec *rmtp);
#ifndef CLOCK_REALTIME
#define CLOCK_REALTIME		((clockid_t)1)
#endif
#ifndef CLOCK_MONOTONIC		/* picolibc: only with _POSIX_MONOTONIC_CLOCK */
#define CLOCK_MONOTONIC		((clockid_t)4)
#endif

/* fork() is picolibc's <unistd.h> declaration; waitpid() Linux's (user/lib/syscalls_time.c). */
pid_t waitpid(pid_t pid, int *status, int options);
int sched_yield(void);

/* CPU affinity and the CPU a task runs on, as glibc declares them (<sched.h> with _GNU_SOURCE;
 * picolibc has no cpu_set_t for this target): glibc's 1024-bit set, Linux's calls
 * (user/lib/syscalls_sched.c).  sched_getaffinity zeroes what the kernel did not fill. */
#ifndef _SYS_CPUSET_H_
#define _SYS_CPUSET_H_
#define CPU_SETSIZE		1024
typedef struct {
	unsigned long __bits[CPU_SETSIZE / (8 * sizeof(unsigned long))];
} cpu_set_t;
#endif
#define __CPU_WORD(cpu)		((cpu) / (8 * sizeof(unsigned long)))
#define __CPU_BIT(cpu)		(1UL << ((cpu) % (8 * sizeof(unsigned long))))
#define CPU_ZERO(set)		__builtin_memset((set), 0, sizeof(cpu_set_t))
#define CPU_SET(cpu, set)	((void)((set)->__bits[__CPU_WORD(cpu)] |= __CPU_BIT(cpu)))
#define CPU_CLR(cpu, set)	((void)((set)->__bits[__CPU_WORD(cpu)] &= ~__CPU_BIT(cpu)))
#define CPU_ISSET(cpu, set)	(((set)->__bits[__CPU_WORD(cpu)] & __CPU_BIT(cpu)) != 0)
int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set);
int getcpu(unsigned int *cpu, unsigned int *node);
int sched_getcpu(void);
int CPU_COUNT(const cpu_set_t *set);

#endif
