/*
 * syscalls_time.c - the system, time and waiting (docs/syscalls.md): uname, clock_gettime,
 * nanosleep, sched_yield, fork, waitpid.  picolibc numbers its clocks differently from Linux
 * (CLOCK_REALTIME 1, CLOCK_MONOTONIC 4 there; 0 and 1 in Linux): each call translates.  The
 * time calls use each ABI's own: RV64's 64-bit timespec, ARM EABI's 32-bit old_timespec32
 * (clock_gettime, nanosleep), RV32's *_time64 calls.
 */
#define _DEFAULT_SOURCE 1	/* picolibc: the POSIX 2008 and BSD names (O_CLOEXEC, AT_FDCWD, ...) */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "runtime.h"
#include "tinymm_user.h"
#include "unistd_nr.h"
#include "../../include/tinymm/uapi/time.h"

/* picolibc's clock ids (time.h) -> Linux's (uapi/time.h); -1 for none. */
static long linux_clock(clockid_t id)
{
	static const signed char map[] = {
		[0] = LINUX_CLOCK_REALTIME_COARSE, [1] = LINUX_CLOCK_REALTIME,
		[2] = LINUX_CLOCK_PROCESS_CPUTIME_ID, [3] = LINUX_CLOCK_THREAD_CPUTIME_ID,
		[4] = LINUX_CLOCK_MONOTONIC, [5] = LINUX_CLOCK_MONOTONIC_RAW,
		[6] = LINUX_CLOCK_MONOTONIC_COARSE, [7] = LINUX_CLOCK_BOOTTIME,
	};

	return (unsigned long)id < sizeof(map) ? map[id] : -1;
}

int clock_gettime(clockid_t id, struct timespec *tp)
{
	long lid = linux_clock(id);

	if (lid < 0) {
		errno = EINVAL;
		return -1;
	}
#if defined(__riscv) && __riscv_xlen == 32
	struct linux_timespec64 k;
	if (__syscall_ret(__syscall2(__NR_clock_gettime64, lid, &k)) < 0)
		return -1;
#else
	struct linux_old_timespec k;
	if (__syscall_ret(__syscall2(__NR_clock_gettime, lid, &k)) < 0)
		return -1;
#endif
	tp->tv_sec = (time_t)k.tv_sec;
	tp->tv_nsec = (long)k.tv_nsec;
	return 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (!req) {
		errno = EFAULT;
		return -1;
	}
#if defined(__riscv) && __riscv_xlen == 32
	struct linux_timespec64 k = { req->tv_sec, req->tv_nsec };
	long r = __syscall_ret(__syscall6(__NR_clock_nanosleep_time64, LINUX_CLOCK_MONOTONIC, 0,
					  (long)&k, 0, 0, 0));
#else
	struct linux_old_timespec k = { (long)req->tv_sec, req->tv_nsec };
	if ((time_t)k.tv_sec != req->tv_sec) {
		errno = EINVAL;		/* past ARM's 32-bit time_t */
		return -1;
	}
	long r = __syscall_ret(__syscall2(__NR_nanosleep, &k, 0));
#endif
	if (r == 0 && rem)
		memset(rem, 0, sizeof(*rem));
	return (int)r;
}

int sched_yield(void)
{
	return (int)__syscall_ret(__syscall0(__NR_sched_yield));
}

int uname(struct utsname *buf)
{
	return (int)__syscall_ret(__syscall1(__NR_uname, buf));
}

/*
 * fork(): clone with SIGCHLD semantics (the child returns 0, the parent the child's pid), the
 * call every ABI here has (ARM's fork would do too).  waitpid(): wait4 on RV64 and ARM; RV32
 * has only waitid, whose siginfo gives the status back in Linux's encoding (exit code << 8,
 * or the signal).
 */
pid_t fork(void)
{
	return (pid_t)__syscall_ret(__syscall5(__NR_clone, 17 /* SIGCHLD */, 0, 0, 0, 0));
}

pid_t waitpid(pid_t pid, int *status, int options)
{
#if defined(__riscv) && __riscv_xlen == 32
	/* siginfo_t: si_signo, si_errno, si_code, then (pid, uid, status) at 12 on 32-bit */
	int info[32] = { 0 };
	long r;

	if (pid < -1 || pid == 0)
		pid = -1;	/* process groups: tinymm has one, everyone's */
	r = __syscall_ret(__syscall5(__NR_waitid, pid == -1 ? 0 /* P_ALL */ : 1 /* P_PID */,
				     pid > 0 ? pid : 0, info, options | 4 /* WEXITED */, 0));
	if (r < 0)
		return -1;
	if (status && info[3])
		*status = info[2] == 1 /* CLD_EXITED */ ? (info[5] & 0xff) << 8 : info[5] & 0x7f;
	return (pid_t)info[3];
#else
	return (pid_t)__syscall_ret(__syscall5(__NR_wait4, pid, status, options, 0, 0));
#endif
}
