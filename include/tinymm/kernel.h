/* kernel.h - small helpers every tinymm file may use (Linux's names where Linux has them). */
#ifndef TINYMM_KERNEL_H
#define TINYMM_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t phys_addr_t;	/* always 64-bit: RISC-V and LPAE-capable ARM can name >4 GiB */

#define container_of(ptr, type, member)	((type *)((char *)(ptr) - offsetof(type, member)))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define max3(a, b, c)		max(max(a, b), c)
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define SZ_1K			0x400UL
#define SZ_1M			0x100000UL

#ifndef __used
#define __used			__attribute__((used))
#endif
#ifndef __noreturn
#define __noreturn		__attribute__((noreturn))
#endif
#ifndef __printf
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#endif
#ifndef __section
#define __section(s)		__attribute__((section(s)))
#endif
/*
 * A hot function that calls nothing except by tail calls: no frame pointer, so no stack frame
 * at all.  The frame-pointer chain stays whole (s0/fp is left untouched for the callee), and a
 * backtrace only misses a function that has already tail-called away.  GCC only (the host's
 * clang builds ignore it).
 */
#if defined(__GNUC__) && !defined(__clang__)
#define __fastpath		__attribute__((optimize("omit-frame-pointer")))
#else
#define __fastpath
#endif
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" ::: "memory")
/* Linux's: the compiler forgets what it knew of @var's value (it must keep it in a register as
 * computed, instead of folding parts of it into each use). */
#define OPTIMIZER_HIDE_VAR(var)	__asm__("" : "=r"(var) : "0"(var))

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

#endif
