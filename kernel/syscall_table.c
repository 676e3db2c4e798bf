/*
 * syscall_table.c - the system-call table for the board's ABI (include/tinymm/syscalls.h), by
 * the numbers of include/tinymm/uapi/unistd.h.  A call belongs here once it is implemented;
 * every other number is -ENOSYS.
 */
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/syscalls.h"

#define SC(nr, fn)	[nr] = (syscall_fn_t)(void (*)(void))(fn)

const syscall_fn_t sys_call_table[] = {
	SC(__NR_execve, sys_execve),
	SC(__NR_exit, sys_exit),
	SC(__NR_exit_group, sys_exit_group),
	SC(__NR_getpid, sys_getpid),
	SC(__NR_sched_yield, sys_sched_yield),
	/* issue 38: CPU affinity, for tests spreading tasks over CPUs (kernel/sys_sched.c) */
	SC(__NR_sched_setaffinity, sys_sched_setaffinity),
	SC(__NR_sched_getaffinity, sys_sched_getaffinity),
	SC(__NR_getcpu, sys_getcpu),
	/* issue 34: fork (docs/fork.md) */
	SC(__NR_clone, sys_clone),
#ifdef __NR_fork
	SC(__NR_fork, sys_fork),
#endif
#ifdef __NR_riscv_flush_icache
	SC(__NR_riscv_flush_icache, sys_riscv_flush_icache),	/* arch/riscv/cacheflush.c */
#endif
	/* issue 33, the sys helper's calls (docs/syscalls.md): files */
	SC(__NR_read, sys_read),
	SC(__NR_write, sys_write),
	SC(__NR_openat, sys_openat),
	SC(__NR_close, sys_close),
	SC(__NR_getdents64, sys_getdents64),
	SC(__NR_mkdirat, sys_mkdirat),
	SC(__NR_unlinkat, sys_unlinkat),
	SC(__NR_fsync, sys_fsync),
	SC(__NR_statx, sys_statx),
#ifdef __NR_lseek
	SC(__NR_lseek, sys_lseek),
#endif
#ifdef __NR_llseek
	SC(__NR_llseek, sys_llseek),
#endif
#ifdef __NR__llseek
	SC(__NR__llseek, sys_llseek),
#endif
#ifdef __NR_fstat
	SC(__NR_fstat, sys_fstat),
#endif
#ifdef __NR_fstat64
	SC(__NR_fstat64, sys_fstat64),
#endif
#ifdef __NR_renameat
	SC(__NR_renameat, sys_renameat),
#endif
	SC(__NR_renameat2, sys_renameat2),
#ifdef __NR_ftruncate
	SC(__NR_ftruncate, sys_ftruncate),
#endif
#if defined(__NR_ftruncate64) && defined(__arm__)
	SC(__NR_ftruncate64, sys_arm_ftruncate64),	/* EABI: r1 pads, the length in r2:r3 */
#elif defined(__NR_ftruncate64)
	SC(__NR_ftruncate64, sys_ftruncate64),
#endif
	/* memory */
	SC(__NR_brk, sys_brk),
#ifdef __NR_mmap
	SC(__NR_mmap, sys_mmap),
#endif
#ifdef __NR_mmap2
	SC(__NR_mmap2, sys_mmap2),
#endif
	SC(__NR_munmap, sys_munmap),
	SC(__NR_mprotect, sys_mprotect),
	SC(__NR_madvise, sys_madvise),
	SC(__NR_msync, sys_msync),
	SC(__NR_mincore, sys_mincore),
	/* issue 35: mlock */
	SC(__NR_mlock, sys_mlock),
	SC(__NR_mlock2, sys_mlock2),
	SC(__NR_munlock, sys_munlock),
	SC(__NR_mlockall, sys_mlockall),
	SC(__NR_munlockall, sys_munlockall),
	/* the system, waiting, time */
	SC(__NR_uname, sys_newuname),
#ifdef __NR_wait4
	SC(__NR_wait4, sys_wait4),
#endif
#ifdef __NR_waitid
	SC(__NR_waitid, sys_waitid),
#endif
#ifdef __NR_clock_gettime
	SC(__NR_clock_gettime, sys_clock_gettime),
#endif
#ifdef __NR_clock_gettime64
	SC(__NR_clock_gettime64, sys_clock_gettime64),
#endif
#ifdef __NR_nanosleep
	SC(__NR_nanosleep, sys_nanosleep),
#endif
#ifdef __NR_clock_nanosleep_time64
	SC(__NR_clock_nanosleep_time64, sys_clock_nanosleep_time64),
#endif
};
const unsigned int nr_syscalls = ARRAY_SIZE(sys_call_table);

long invoke_syscall(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		    unsigned long a3, unsigned long a4, unsigned long a5)
{
	if (unlikely(nr >= nr_syscalls || !sys_call_table[nr]))
		return -ENOSYS;
	return sys_call_table[nr](a0, a1, a2, a3, a4, a5);
}
