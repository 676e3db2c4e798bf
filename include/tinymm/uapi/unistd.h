/*
 * uapi/unistd.h - Linux v6.10's system-call numbers for the three ABIs tinymm implements, shared
 * by the kernel's table (kernel/syscall_table.c) and the user runtime (user/lib/unistd_nr.h), so
 * the two cannot disagree.  Only the calls tinymm implements; a number not here is -ENOSYS.
 *
 * Sources (Linux v6.10):
 *   ARM EABI: arch/arm/tools/syscall.tbl, the "common"/"eabi" rows (EABI numbers start at 0,
 *             no 0x900000 OABI base); the ARM-private calls from __ARM_NR_BASE (0x0f0000),
 *             arch/arm/include/uapi/asm/unistd.h.
 *   RISC-V:   include/uapi/asm-generic/unistd.h, shared by RV64 and RV32.  RV32 is a 32-bit
 *             ABI without the 32-bit-time calls (no wait4, nanosleep, clock_gettime, fstat:
 *             waitid, clock_nanosleep_time64, clock_gettime64, statx instead), and its
 *             __NR3264_* rows take their 32-bit names (llseek, ftruncate64, mmap2).
 *   The host build (tests) uses the RV64 numbers: it is a 64-bit asm-generic ABI.
 */
#ifndef TINYMM_UAPI_UNISTD_H
#define TINYMM_UAPI_UNISTD_H

#if defined(__arm__)
#define __NR_exit			1
#define __NR_fork			2
#define __NR_read			3
#define __NR_write			4
#define __NR_close			6
#define __NR_execve			11
#define __NR_lseek			19
#define __NR_getpid			20
#define __NR_kill			37
#define __NR_brk			45
#define __NR_getppid			64
#define __NR_munmap			91
#define __NR_wait4			114
#define __NR_fsync			118
#define __NR_clone			120
#define __NR_uname			122
#define __NR_mprotect			125
#define __NR__llseek			140
#define __NR_msync			144
#define __NR_mlock			150
#define __NR_munlock			151
#define __NR_mlockall			152
#define __NR_munlockall			153
#define __NR_sched_yield		158
#define __NR_nanosleep			162
#define __NR_mmap2			192
#define __NR_ftruncate64		194
#define __NR_fstat64			197
#define __NR_getdents64			217
#define __NR_mincore			219
#define __NR_madvise			220
#define __NR_sched_setaffinity		241
#define __NR_sched_getaffinity		242
#define __NR_exit_group			248
#define __NR_set_tid_address		256
#define __NR_clock_gettime		263
#define __NR_openat			322
#define __NR_mkdirat			323
#define __NR_unlinkat			328
#define __NR_renameat			329
#define __NR_renameat2			382
#define __NR_mlock2			390
#define __NR_getcpu			345
#define __NR_statx			397
#define __ARM_NR_BASE			0x0f0000
#define __ARM_NR_cacheflush		(__ARM_NR_BASE + 2)
#define __ARM_NR_set_tls		(__ARM_NR_BASE + 5)
#else	/* asm-generic: RISC-V (RV64, RV32) and the host */
#define __NR_mkdirat			34
#define __NR_unlinkat			35
#define __NR_openat			56
#define __NR_close			57
#define __NR_getdents64			61
#define __NR_read			63
#define __NR_write			64
#define __NR_fsync			82
#define __NR_exit			93
#define __NR_exit_group			94
#define __NR_waitid			95
#define __NR_set_tid_address		96
#define __NR_sched_setaffinity		122
#define __NR_sched_getaffinity		123
#define __NR_sched_yield		124
#define __NR_kill			129
#define __NR_uname			160
#define __NR_getcpu			168
#define __NR_getpid			172
#define __NR_getppid			173
#define __NR_brk			214
#define __NR_munmap			215
#define __NR_clone			220
#define __NR_execve			221
#define __NR_mprotect			226
#define __NR_msync			227
#define __NR_mlock			228
#define __NR_munlock			229
#define __NR_mlockall			230
#define __NR_munlockall			231
#define __NR_mincore			232
#define __NR_madvise			233
#define __NR_renameat2			276
#define __NR_mlock2			284
#if defined(__riscv)	/* arch/riscv/include/uapi/asm/unistd.h: not the host's */
#define __NR_riscv_flush_icache		259	/* __NR_arch_specific_syscall + 15 */
#endif
#define SYS_RISCV_FLUSH_ICACHE_LOCAL	1UL
#define SYS_RISCV_FLUSH_ICACHE_ALL	SYS_RISCV_FLUSH_ICACHE_LOCAL
#define __NR_statx			291
#if defined(__riscv) && __riscv_xlen == 32
#define __NR_ftruncate64		46
#define __NR_llseek			62
#define __NR_mmap2			222
#define __NR_clock_gettime64		403
#define __NR_clock_nanosleep_time64	407
#else
#define __NR_ftruncate			46
#define __NR_lseek			62
#define __NR_fstat			80
#define __NR_nanosleep			101
#define __NR_clock_gettime		113
#define __NR_mmap			222
#define __NR_wait4			260
#endif
#endif

#endif
