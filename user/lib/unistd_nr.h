/*
 * unistd_nr.h - Linux v6.10's system-call numbers for the ABIs tinymm's programs use, and the
 * one instruction that enters the kernel.  Only the calls user/lib wraps today; add a number
 * here, from the same table, when a wrapper needs it.
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

#if defined(__arm__)
#define __NR_exit		1
#define __NR_read		3
#define __NR_write		4
#define __NR_close		6
#define __NR_getpid		20
#define __NR_brk		45
#define __NR__llseek		140
#define __NR_exit_group		248
#define __ARM_NR_set_tls	(0x0f0000 + 5)
#elif defined(__riscv)
#define __NR_close		57
#if __riscv_xlen == 64
#define __NR_lseek		62
#else
#define __NR_llseek		62
#endif
#define __NR_read		63
#define __NR_write		64
#define __NR_exit		93
#define __NR_exit_group		94
#define __NR_getpid		172
#define __NR_brk		214
#else
#error "user/: only ARM EABI and RISC-V are supported"
#endif

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
