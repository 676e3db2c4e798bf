/*
 * unistd_nr.h - the system-call numbers (include/tinymm/uapi/unistd.h, shared with the
 * kernel's table) and the one instruction that enters the kernel.
 *
 * Sources (Linux v6.10):
 *   ARM EABI: arch/arm/tools/syscall.tbl, the "common"/"eabi" rows (EABI numbers start at 0,
 *             no 0x900000 OABI base); set_tls is ARM-private, arch/arm/include/uapi/asm/unistd.h:
 *             __ARM_NR_BASE (0x0f0000) + 5.
 *   RISC-V:   include/uapi/asm-generic/unistd.h (RV64 and RV32 share it; RV32 has no 32-bit-time
 *             calls, and __NR3264_lseek is llseek there, lseek on RV64).
 * Calling convention: ARM: number in r7, arguments r0-r5, `svc 0`, result in r0.  RISC-V:
 * number in a7, arguments a0-a5, `ecall`, result in a0.  A result in [-4095, -1] is -errno.
 */
#ifndef TINYMM_USER_UNISTD_NR_H
#define TINYMM_USER_UNISTD_NR_H

#if !defined(__arm__) && !defined(__riscv)
#error "user/: only ARM EABI and RISC-V are supported"
#endif
/* The numbers: one table for the kernel and the programs. */
#include "../../include/tinymm/uapi/unistd.h"

/* A system call with up to six word-sized arguments: the raw result (-errno on failure). */
static inline long __syscall6(long n, long a, long b, long c, long d, long e, long f)
{
#if defined(__arm__)
	register long r7 __asm__("r7") = n;
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r3 __asm__("r3") = d;
	register long r4 __asm__("r4") = e;
	register long r5 __asm__("r5") = f;

	__asm__ volatile("svc 0" : "+r"(r0) : "r"(r7), "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5)
			 : "memory");
	return r0;
#else
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a3 __asm__("a3") = d;
	register long a4 __asm__("a4") = e;
	register long a5 __asm__("a5") = f;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5)
			 : "memory");
	return a0;
#endif
}

#define __syscall0(n)			__syscall6(n, 0, 0, 0, 0, 0, 0)
#define __syscall1(n, a)		__syscall6(n, (long)(a), 0, 0, 0, 0, 0)
#define __syscall2(n, a, b)		__syscall6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define __syscall3(n, a, b, c)		__syscall6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define __syscall5(n, a, b, c, d, e)	\
	__syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)
#endif
