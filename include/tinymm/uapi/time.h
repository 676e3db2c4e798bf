/*
 * uapi/time.h - the time structures of Linux v6.10's system calls, shared by the kernel
 * (kernel/sys_time.c) and the user runtime.
 *   struct linux_old_timespec  __kernel_old_timespec: {long, long}; the 64-bit ABIs' timespec
 *                              (RV64) and old_timespec32 on ARM EABI (32-bit long), which
 *                              clock_gettime and nanosleep take there
 *   struct linux_timespec64    __kernel_timespec: two 64-bit words; RV32's *_time64 calls
 */
#ifndef TINYMM_UAPI_TIME_H
#define TINYMM_UAPI_TIME_H

#include <stdint.h>

struct linux_old_timespec {
	long tv_sec;
	long tv_nsec;
};

struct linux_timespec64 {
	int64_t tv_sec;
	long long tv_nsec;
};

#define LINUX_CLOCK_REALTIME		0
#define LINUX_CLOCK_MONOTONIC		1
#define LINUX_CLOCK_PROCESS_CPUTIME_ID	2
#define LINUX_CLOCK_THREAD_CPUTIME_ID	3
#define LINUX_CLOCK_MONOTONIC_RAW	4
#define LINUX_CLOCK_REALTIME_COARSE	5
#define LINUX_CLOCK_MONOTONIC_COARSE	6
#define LINUX_CLOCK_BOOTTIME		7
#define LINUX_TIMER_ABSTIME		0x01

#endif
