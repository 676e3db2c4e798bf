/*
 * sys_time.c - the clock and sleep system calls (Linux v6.10's kernel/time/posix-timers.c and
 * hrtimer.c entry points): clock_gettime (RV64: 64-bit time_t; ARM EABI: old_timespec32, both
 * struct linux_old_timespec), clock_gettime64 (RV32), nanosleep (RV64, ARM),
 * clock_nanosleep_time64 (RV32).  docs/syscalls.md lists the numbers.
 *
 * Clocks: MONOTONIC, MONOTONIC_RAW, MONOTONIC_COARSE and BOOTTIME are the architected counter
 * since boot (ktime_get_ns: nothing suspends here); REALTIME (and _COARSE) add the RTC's
 * reading taken at the first call (0 when the board has no RTC tinymm drives: the epoch at
 * boot); PROCESS_CPUTIME_ID and THREAD_CPUTIME_ID are the task's CPU time (one thread per
 * process).  Other ids are -EINVAL, as v6.10's for clocks it does not have.
 * A sleep is uninterruptible (no signals yet), so @rem is never written; it sleeps in
 * jiffies (1 ms, HZ 1000) until the deadline has passed, never less than asked.
 * Locking: none; the RTC offset is set once, a race only reads the RTC twice.
 */
#include "tinymm/errno.h"
#include "tinymm/rtc.h"
#include "tinymm/sched.h"
#include "tinymm/syscalls.h"
#include "tinymm/time.h"
#include "tinymm/timer.h"
#include "tinymm/uaccess.h"
#include "tinymm/uapi/time.h"

static int64_t realtime_offset_ns;
static bool realtime_offset_set;

/* @which's time in nanoseconds, or -EINVAL. */
static int clock_read_ns(int which, int64_t *ns)
{
	uint64_t now = ktime_get_ns();

	switch (which) {
	case LINUX_CLOCK_MONOTONIC:
	case LINUX_CLOCK_MONOTONIC_RAW:
	case LINUX_CLOCK_MONOTONIC_COARSE:
	case LINUX_CLOCK_BOOTTIME:
		*ns = (int64_t)now;
		return 0;
	case LINUX_CLOCK_REALTIME:
	case LINUX_CLOCK_REALTIME_COARSE:
		if (!READ_ONCE(realtime_offset_set)) {
			uint64_t rtc;

			if (!rtc_read_ns(&rtc))
				realtime_offset_ns = (int64_t)(rtc - ktime_get_ns());
			WRITE_ONCE(realtime_offset_set, true);
		}
		*ns = (int64_t)now + realtime_offset_ns;
		return 0;
	case LINUX_CLOCK_PROCESS_CPUTIME_ID:
	case LINUX_CLOCK_THREAD_CPUTIME_ID:
		*ns = (int64_t)(current->sum_exec_ns + (now - current->exec_start_ns));
		return 0;
	default:
		return -EINVAL;
	}
}

long sys_clock_gettime(int which, struct linux_old_timespec __user *tp)
{
	struct linux_old_timespec ts;
	int64_t ns;
	int err = clock_read_ns(which, &ns);

	if (err)
		return err;
	ts.tv_sec = (long)(ns / (int64_t)NSEC_PER_SEC);	/* ARM's 32-bit time_t: until 2038 */
	ts.tv_nsec = (long)(ns % (int64_t)NSEC_PER_SEC);
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long sys_clock_gettime64(int which, struct linux_timespec64 __user *tp)
{
	struct linux_timespec64 ts;
	int64_t ns;
	int err = clock_read_ns(which, &ns);

	if (err)
		return err;
	ts.tv_sec = ns / (int64_t)NSEC_PER_SEC;
	ts.tv_nsec = ns % (int64_t)NSEC_PER_SEC;
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/* Sleep until @which reads @deadline_ns or later. */
static void sleep_until(int which, int64_t deadline_ns)
{
	for (;;) {
		int64_t now;

		clock_read_ns(which, &now);
		/* Chosen by the OOM killer: the sleep ends (v6.10: a fatal signal ends it) and
		 * the return to user mode takes the kill; a second at most after the choice. */
		if (now >= deadline_ns || fatal_signal_pending(current))
			return;
		int64_t left = deadline_ns - now;
		/* At most a second per sleep: no jiffies overflow, the clock re-read. */
		long j = left >= (int64_t)NSEC_PER_SEC ? HZ :
			 (long)((left + (int64_t)NSEC_PER_JIFFY - 1) / (int64_t)NSEC_PER_JIFFY);
		schedule_timeout_uninterruptible(j ? j : 1);
	}
}

/* A valid timespec as nanoseconds (saturating), or -EINVAL (v6.10's timespec64_valid). */
static int timespec_ns(int64_t sec, long long nsec, int64_t *ns)
{
	if (sec < 0 || nsec < 0 || nsec >= (long long)NSEC_PER_SEC)
		return -EINVAL;
	if (sec > INT64_MAX / (int64_t)NSEC_PER_SEC - 1)
		*ns = INT64_MAX;
	else
		*ns = sec * (int64_t)NSEC_PER_SEC + nsec;
	return 0;
}

static long do_nanosleep(int which, int flags, int64_t req_ns)
{
	int64_t now, deadline;

	clock_read_ns(which, &now);
	if (flags & LINUX_TIMER_ABSTIME)
		deadline = req_ns;
	else
		deadline = req_ns > INT64_MAX - now ? INT64_MAX : now + req_ns;
	sleep_until(which, deadline);
	return 0;
}

long sys_nanosleep(struct linux_old_timespec __user *rqtp, struct linux_old_timespec __user *rmtp)
{
	struct linux_old_timespec ts;
	int64_t ns;

	(void)rmtp;				/* never interrupted: nothing remains */
	if (copy_from_user(&ts, rqtp, sizeof(ts)))
		return -EFAULT;
	if (timespec_ns(ts.tv_sec, ts.tv_nsec, &ns))
		return -EINVAL;
	return do_nanosleep(LINUX_CLOCK_MONOTONIC, 0, ns);
}

long sys_clock_nanosleep_time64(int which, int flags, struct linux_timespec64 __user *rqtp,
				struct linux_timespec64 __user *rmtp)
{
	struct linux_timespec64 ts;
	int64_t ns;

	(void)rmtp;
	switch (which) {
	case LINUX_CLOCK_REALTIME:
	case LINUX_CLOCK_MONOTONIC:
	case LINUX_CLOCK_BOOTTIME:
		break;
	case LINUX_CLOCK_THREAD_CPUTIME_ID:
		return -EINVAL;
	default:
		/* v6.10: clocks without nsleep (RAW, COARSE, PROCESS_CPUTIME here) */
		return which == LINUX_CLOCK_PROCESS_CPUTIME_ID || (unsigned int)which <= 11 ?
		       -EOPNOTSUPP : -EINVAL;
	}
	if (copy_from_user(&ts, rqtp, sizeof(ts)))
		return -EFAULT;
	if (timespec_ns(ts.tv_sec, ts.tv_nsec, &ns))
		return -EINVAL;
	return do_nanosleep(which, flags, ns);
}
