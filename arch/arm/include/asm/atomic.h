/*
 * asm/atomic.h - ARMv7-A atomics for <tinymm/atomic.h> (include that instead).
 *
 * Every read-modify-write is an LDREX/STREX loop: STREX fails (writes 1) if anything touched
 * the exclusive monitor since the LDREX, and the loop retries.  As in Linux's
 * arch/arm/include/asm/atomic.h, the relaxed ops have no barrier and the value-returning ones
 * are wrapped in `dmb ish` on both sides, which makes them fully ordered.  long is 32 bits
 * here, so the long variants are the same instructions.
 * Note: with the MMU off, memory is Strongly-ordered and exclusives on it are IMPLEMENTATION
 * DEFINED on real hardware; QEMU honours them.
 */
#ifndef ASM_ARM_ATOMIC_H
#define ASM_ARM_ATOMIC_H

#ifndef TINYMM_ATOMIC_H
#error "include <tinymm/atomic.h>, not <asm/atomic.h>"
#endif

#include <asm/barrier.h>

_Static_assert(sizeof(long) == 4, "ARMv7-A: long is 32 bits");

/* "Ir": an operand that is a valid ARM immediate is encoded as one, else a register. */
#define __ARM_ATOMIC_OP(P, T, op, insn)							\
static inline void arch_##P##_##op(T i, P##_t *v)					\
{											\
	T val;										\
	unsigned long fail;								\
											\
	__asm__ __volatile__(								\
		"1:	ldrex	%0, [%3]\n"						\
		"	" #insn "	%0, %0, %4\n"					\
		"	strex	%1, %0, [%3]\n"						\
		"	teq	%1, #0\n"						\
		"	bne	1b"							\
		: "=&r"(val), "=&r"(fail), "+Qo"(v->counter)				\
		: "r"(&v->counter), "Ir"(i)						\
		: "cc", "memory");							\
}											\
static inline T arch_##P##_fetch_##op(T i, P##_t *v)					\
{											\
	T old, val;									\
	unsigned long fail;								\
											\
	smp_mb();									\
	__asm__ __volatile__(								\
		"1:	ldrex	%0, [%4]\n"						\
		"	" #insn "	%1, %0, %5\n"					\
		"	strex	%2, %1, [%4]\n"						\
		"	teq	%2, #0\n"						\
		"	bne	1b"							\
		: "=&r"(old), "=&r"(val), "=&r"(fail), "+Qo"(v->counter)		\
		: "r"(&v->counter), "Ir"(i)						\
		: "cc", "memory");							\
	smp_mb();									\
	return old;									\
}

#define __ARM_ATOMIC_OPS(P, T)								\
	__ARM_ATOMIC_OP(P, T, add, add)							\
	__ARM_ATOMIC_OP(P, T, sub, sub)							\
	__ARM_ATOMIC_OP(P, T, and, and)							\
	__ARM_ATOMIC_OP(P, T, or, orr)							\
	__ARM_ATOMIC_OP(P, T, xor, eor)

__ARM_ATOMIC_OPS(atomic, int)
__ARM_ATOMIC_OPS(atomic_long, long)

#undef __ARM_ATOMIC_OPS
#undef __ARM_ATOMIC_OP

static inline unsigned int __arch_xchg32(volatile unsigned int *p, unsigned int new)
{
	unsigned int old;
	unsigned long fail;

	smp_mb();
	__asm__ __volatile__(
		"1:	ldrex	%0, [%3]\n"
		"	strex	%1, %2, [%3]\n"
		"	teq	%1, #0\n"
		"	bne	1b"
		: "=&r"(old), "=&r"(fail)
		: "r"(new), "r"(p)
		: "cc", "memory");
	smp_mb();
	return old;
}

/* Stores only if *p == old (STREXEQ); a mismatch leaves the loop with fail = 0. */
static inline unsigned int __arch_cmpxchg32(volatile unsigned int *p, unsigned int old,
					    unsigned int new)
{
	unsigned int seen;
	unsigned long fail;

	smp_mb();
	do {
		__asm__ __volatile__(
			"	ldrex	%1, [%2]\n"
			"	mov	%0, #0\n"
			"	teq	%1, %3\n"
			"	strexeq	%0, %4, [%2]\n"
			: "=&r"(fail), "=&r"(seen)
			: "r"(p), "Ir"(old), "r"(new)
			: "cc", "memory");
	} while (fail);
	smp_mb();
	return seen;
}

/* add @a unless the value is @u: one LDREX/STREX loop, fully ordered when it adds. */
static inline int __arm_atomic_fetch_add_unless(volatile int *p, int a, int u)
{
	int old, val;
	unsigned long fail;

	smp_mb();
	__asm__ __volatile__(
		"1:	ldrex	%0, [%3]\n"
		"	teq	%0, %4\n"
		"	beq	2f\n"
		"	add	%1, %0, %5\n"
		"	strex	%2, %1, [%3]\n"
		"	teq	%2, #0\n"
		"	bne	1b\n"
		"2:"
		: "=&r"(old), "=&r"(val), "=&r"(fail)
		: "r"(p), "Ir"(u), "Ir"(a)
		: "cc", "memory");
	if (old != u)
		smp_mb();
	return old;
}
#define __arch_atomic_fetch_add_unless(p, a, u)	__arm_atomic_fetch_add_unless((p), (a), (u))

static inline unsigned long __arch_xchg_long(volatile unsigned long *p, unsigned long new)
{
	return __arch_xchg32((volatile unsigned int *)p, new);
}

static inline unsigned long __arch_cmpxchg_long(volatile unsigned long *p, unsigned long old,
						unsigned long new)
{
	return __arch_cmpxchg32((volatile unsigned int *)p, old, new);
}

#endif
