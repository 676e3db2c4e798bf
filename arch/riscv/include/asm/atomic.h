/*
 * asm/atomic.h - RISC-V atomics (the A extension, RV32 and RV64) for <tinymm/atomic.h>
 * (include that instead).
 *
 * Add/and/or/xor/swap are single AMOs, as in Linux's arch/riscv/include/asm/atomic.h: plain for
 * the relaxed ops, .aqrl (acquire + release: sequentially consistent) for the fully ordered
 * ones.  Sub is amoadd of the negation.  cmpxchg has no AMO: an LR/SC loop whose SC carries
 * .rl, followed by `fence rw,rw` on success (Linux's full-ordering recipe; a failed cmpxchg
 * skips the fence and is unordered).  long is .w on RV32 and .d on RV64.
 */
#ifndef ASM_RISCV_ATOMIC_H
#define ASM_RISCV_ATOMIC_H

#ifndef TINYMM_ATOMIC_H
#error "include <tinymm/atomic.h>, not <asm/atomic.h>"
#endif

#if __riscv_xlen == 64
#define __RV_L	"d"
#else
#define __RV_L	"w"
#endif

/* "A": the operand is memory addressed by a register, the only form AMOs take. */
#define __RV_ATOMIC_OP(P, T, op, amo, sfx, I)						\
static inline void arch_##P##_##op(T i, P##_t *v)					\
{											\
	__asm__ __volatile__("amo" #amo "." sfx " zero, %1, %0"			\
			     : "+A"(v->counter) : "r"(I) : "memory");			\
}											\
static inline T arch_##P##_fetch_##op(T i, P##_t *v)					\
{											\
	T old;										\
											\
	__asm__ __volatile__("amo" #amo "." sfx ".aqrl %1, %2, %0"			\
			     : "+A"(v->counter), "=r"(old) : "r"(I) : "memory");	\
	return old;									\
}

#define __RV_ATOMIC_OPS(P, T, U, sfx)							\
	__RV_ATOMIC_OP(P, T, add, add, sfx, i)						\
	__RV_ATOMIC_OP(P, T, sub, add, sfx, (T)(0 - (U)i))				\
	__RV_ATOMIC_OP(P, T, and, and, sfx, i)						\
	__RV_ATOMIC_OP(P, T, or, or, sfx, i)						\
	__RV_ATOMIC_OP(P, T, xor, xor, sfx, i)

__RV_ATOMIC_OPS(atomic, int, unsigned int, "w")
__RV_ATOMIC_OPS(atomic_long, long, unsigned long, __RV_L)

#undef __RV_ATOMIC_OPS
#undef __RV_ATOMIC_OP

#define __RV_XCHG(name, T, sfx)								\
static inline T name(volatile T *p, T new)						\
{											\
	T old;										\
											\
	__asm__ __volatile__("amoswap." sfx ".aqrl %0, %2, %1"				\
			     : "=r"(old), "+A"(*p) : "r"(new) : "memory");		\
	return old;									\
}

/* A release store as one AMO: .rl orders every earlier access before it (RVWMO), as
 * fence rw,w and a store do in two instructions (<tinymm/atomic.h>: store_release_long). */
static inline void __rv_store_release_long(volatile unsigned long *p, unsigned long v)
{
	__asm__ __volatile__("amoswap." __RV_L ".rl zero, %1, %0" : "+A"(*p) : "r"(v) : "memory");
}
#define __arch_store_release_long(p, v)	__rv_store_release_long((p), (v))

/*
 * lr.w sign-extends on RV64, so the expected value is compared sign-extended too (CAST), or a
 * 32-bit value with bit 31 set would never match.
 */
#define __RV_CMPXCHG(name, T, sfx, CAST)						\
static inline T name(volatile T *p, T old, T new)					\
{											\
	T seen;										\
	unsigned int fail;								\
											\
	__asm__ __volatile__(								\
		"0:	lr." sfx "	%0, %2\n"					\
		"	bne	%0, %z3, 1f\n"						\
		"	sc." sfx ".rl	%1, %z4, %2\n"					\
		"	bnez	%1, 0b\n"						\
		"	fence	rw, rw\n"						\
		"1:\n"									\
		: "=&r"(seen), "=&r"(fail), "+A"(*p)					\
		: "rJ"(CAST old), "rJ"(new)						\
		: "memory");								\
	return seen;									\
}

__RV_XCHG(__arch_xchg32, unsigned int, "w")
__RV_XCHG(__arch_xchg_long, unsigned long, __RV_L)
__RV_CMPXCHG(__arch_cmpxchg32, unsigned int, "w", (long)(int))
__RV_CMPXCHG(__arch_cmpxchg_long, unsigned long, __RV_L, )

#undef __RV_XCHG
#undef __RV_CMPXCHG

/* add @a unless the value is @u: one LR/SC loop (the cmpxchg recipe's ordering), where a
 * cmpxchg loop would load, compare and retry around a second loop. */
static inline int __rv_atomic_fetch_add_unless(volatile int *p, int a, int u)
{
	int old, rc;

	__asm__ __volatile__(
		"0:	lr.w	%0, %2\n"
		"	beq	%0, %z4, 1f\n"
		"	add	%1, %0, %3\n"
		"	sc.w.rl	%1, %1, %2\n"
		"	bnez	%1, 0b\n"
		"	fence	rw, rw\n"
		"1:\n"
		: "=&r"(old), "=&r"(rc), "+A"(*p)
		: "r"(a), "rJ"(u)
		: "memory");
	return old;
}
#define __arch_atomic_fetch_add_unless(p, a, u)	__rv_atomic_fetch_add_unless((p), (a), (u))

#endif
