/*
 * syscalls.h - Linux's system-call ABI: the table the architectures' entry code indexes, and the
 * calls (kernel/sys.c and its neighbours, fs/, mm/).  docs/syscalls.md lists every call with its numbers.
 *
 * The entry (arch/<arch>/entry*.S, traps.c) takes the number and six word arguments from the
 * ABI's registers (ARM EABI: r7, r0-r5; RISC-V: a7, a0-a5), calls invoke_syscall() and puts the
 * result in r0 / a0: a value in [-4095, -1] is -errno (Linux's).  An architecture's private calls
 * (ARM's set_tls) are its own business, before invoke_syscall.  64-bit arguments on the 32-bit
 * ABIs arrive as register pairs: the per-ABI wrappers (sys_llseek, sys_ftruncate64, ...) take
 * the halves as separate words, as v6.10's compat-free 32-bit entry points do.
 * Every call may sleep; it runs in the calling task with interrupts enabled and reaches user
 * memory only through <tinymm/uaccess.h>.
 */
#ifndef TINYMM_SYSCALLS_H
#define TINYMM_SYSCALLS_H

#include "fs.h"
#include "kernel.h"
#include "uapi/unistd.h"

typedef long (*syscall_fn_t)(unsigned long, unsigned long, unsigned long, unsigned long,
			     unsigned long, unsigned long);

/* Indexed by the ABI's number; NULL entries (and numbers past the end) are -ENOSYS. */
extern const syscall_fn_t sys_call_table[];
extern const unsigned int nr_syscalls;

long invoke_syscall(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		    unsigned long a3, unsigned long a4, unsigned long a5);

struct linux_stat;
struct linux_stat64;
struct linux_statx;
struct linux_new_utsname;
struct linux_old_timespec;
struct linux_timespec64;

/* kernel/sys.c, kernel/exit.c */
long sys_getpid(void);
long sys_sched_yield(void);
__noreturn long sys_exit(int error_code);
__noreturn long sys_exit_group(int error_code);
long sys_newuname(struct linux_new_utsname *name);
long sys_wait4(int pid, int *stat_addr, int options, void *ru);
long sys_waitid(int which, int upid, void *infop, int options, void *ru);
/* kernel/fork.c: clone with SIGCHLD semantics only (docs/fork.md); ARM EABI's fork */
long sys_clone(unsigned long clone_flags, unsigned long newsp, int *parent_tidptr,
	       unsigned long tls, int *child_tidptr);
long sys_fork(void);
/* RISC-V's instruction-coherence call (arch/riscv/cacheflush.c, docs/cacheflush.md). */
long sys_riscv_flush_icache(unsigned long start, unsigned long end, unsigned long flags);

/* kernel/sys_sched.c: CPU affinity (v6.10's semantics, one-word masks) and getcpu */
struct cpumask;
long sched_setaffinity(int pid, const struct cpumask *mask);
long sched_getaffinity(int pid, struct cpumask *mask);
long sys_sched_setaffinity(int pid, unsigned int len, const unsigned long *user_mask);
long sys_sched_getaffinity(int pid, unsigned int len, unsigned long *user_mask);
long sys_getcpu(unsigned int *cpup, unsigned int *nodep, void *unused);

/* kernel/sys_time.c */
long sys_clock_gettime(int which, struct linux_old_timespec *tp);
long sys_clock_gettime64(int which, struct linux_timespec64 *tp);
long sys_nanosleep(struct linux_old_timespec *rqtp, struct linux_old_timespec *rmtp);
long sys_clock_nanosleep_time64(int which, int flags, struct linux_timespec64 *rqtp,
				struct linux_timespec64 *rmtp);

/* fs/sys_fd.c */
long sys_read(unsigned int fd, char *buf, size_t count);
long sys_write(unsigned int fd, const char *buf, size_t count);
long sys_close(unsigned int fd);
long sys_lseek(unsigned int fd, long offset, unsigned int whence);
long sys_llseek(unsigned int fd, unsigned long offset_high, unsigned long offset_low,
		loff_t *result, unsigned int whence);
long sys_fsync(unsigned int fd);
long sys_ftruncate(unsigned int fd, long length);
long sys_ftruncate64(unsigned int fd, unsigned long length_low, unsigned long length_high);
long sys_arm_ftruncate64(unsigned int fd, unsigned long pad, unsigned long length_low,
			 unsigned long length_high);
long sys_getdents64(unsigned int fd, void *dirent, unsigned int count);
long sys_fstat(unsigned int fd, struct linux_stat *statbuf);
long sys_fstat64(unsigned long fd, struct linux_stat64 *statbuf);

/* fs/sys_path.c */
long sys_openat(int dfd, const char *filename, int flags, unsigned int mode);
long sys_mkdirat(int dfd, const char *pathname, unsigned int mode);
long sys_unlinkat(int dfd, const char *pathname, int flag);
long sys_renameat2(int olddfd, const char *oldname, int newdfd, const char *newname,
		   unsigned int flags);
long sys_renameat(int olddfd, const char *oldname, int newdfd, const char *newname);
long sys_statx(int dfd, const char *filename, unsigned int flags, unsigned int mask,
	       struct linux_statx *buffer);

/* mm/mmap_sys.c */
unsigned long sys_brk(unsigned long brk);
long ksys_mmap_pgoff(unsigned long addr, unsigned long len, unsigned long prot,
		     unsigned long flags, unsigned long fd, unsigned long pgoff);
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off);
long sys_mmap2(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	       unsigned long fd, unsigned long pgoff);
long sys_munmap(unsigned long addr, size_t len);
long sys_mprotect(unsigned long start, size_t len, unsigned long prot);
long sys_madvise(unsigned long start, size_t len_in, int behavior);
/* mm/msync.c */
long sys_msync(unsigned long start, size_t len, int flags);
/* mm/mincore.c */
long sys_mincore(unsigned long start, size_t len, unsigned char *vec);
/* mm/mlock_sys.c */
long sys_mlock(unsigned long start, size_t len);
long sys_mlock2(unsigned long start, size_t len, int flags);
long sys_munlock(unsigned long start, size_t len);
long sys_mlockall(int flags);
long sys_munlockall(void);

#endif
