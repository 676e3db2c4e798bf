/*
 * asm/atomic.h - the host's atomics for unit tests: the compiler's __atomic builtins, relaxed
 * for the ops Linux leaves unordered and sequentially consistent for the fully ordered ones.
 * Include <tinymm/atomic.h> instead.  Signed overflow in these builtins wraps (GCC documents
 * two's complement), matching the kernel.
 */
#ifndef ASM_HOST_ATOMIC_H
#define ASM_HOST_ATOMIC_H

#ifndef TINYMM_ATOMIC_H
#error "include <tinymm/atomic.h>, not <asm/atomic.h>"
#endif

#define __HOST_ATOMIC_OP(P, T, op)							\
static inline void arch_##P##_##op(T i, P##_t *v)					\
{											\
	(void)__atomic_fetch_##op(&v->counter, i, __ATOMIC_RELAXED);			\
}											\
static inline T arch_##P##_fetch_##op(T i, P##_t *v)					\
{											\
	return __atomic_fetch_##op(&v->counter, i, __ATOMIC_SEQ_CST);			\
}

#define __HOST_ATOMIC_OPS(P, T)								\
	__HOST_ATOMIC_OP(P, T, add)							\
	__HOST_ATOMIC_OP(P, T, sub)							\
	__HOST_ATOMIC_OP(P, T, and)							\
	__HOST_ATOMIC_OP(P, T, or)							\
	__HOST_ATOMIC_OP(P, T, xor)

__HOST_ATOMIC_OPS(atomic, int)
__HOST_ATOMIC_OPS(atomic_long, long)

#undef __HOST_ATOMIC_OPS
#undef __HOST_ATOMIC_OP

#define __HOST_XCHG(X, T)								\
static inline T __arch_xchg##X(volatile T *p, T new)					\
{											\
	return __atomic_exchange_n(p, new, __ATOMIC_SEQ_CST);				\
}											\
static inline T __arch_cmpxchg##X(volatile T *p, T old, T new)				\
{											\
	__atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	return old;	/* on failure the builtin stored the value it found here */	\
}

__HOST_XCHG(32, unsigned int)
__HOST_XCHG(_long, unsigned long)

#undef __HOST_XCHG

#endif
