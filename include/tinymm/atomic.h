/*
 * atomic.h - atomic_t, atomic_long_t, xchg() and cmpxchg() with Linux's names and ordering
 * (Documentation/atomic_t.txt), one interface over each architecture's <asm/atomic.h>.
 *
 * Ordering, as in Linux:
 *   - atomic_read/set, and the RMW ops that return nothing (atomic_add, atomic_or, ...) are
 *     relaxed: atomic, but unordered against other accesses (use smp_mb__before/after_atomic).
 *   - every RMW op that returns a value (atomic_*_return, atomic_fetch_*, *_and_test, xchg,
 *     cmpxchg) is fully ordered: as if smp_mb() ran before and after it.  A cmpxchg that fails
 *     promises no ordering.
 *   - atomic_read_acquire / atomic_set_release order one side only.
 * Arithmetic wraps (two's complement), as with Linux's -fno-strict-overflow: never UB.
 *
 * What <asm/atomic.h> supplies (and nothing else), for P = atomic (int), atomic_long (long):
 *   void arch_P_{add,sub,and,or,xor}(T i, P_t *v)         relaxed
 *   T    arch_P_fetch_{add,sub,and,or,xor}(T i, P_t *v)   fully ordered, returns the old value
 *   __arch_xchg32 / __arch_cmpxchg32, __arch_xchg_long / __arch_cmpxchg_long on plain pointers
 *   optionally __arch_atomic_fetch_add_unless(int *p, a, u) (else a cmpxchg loop)
 * Everything else is derived here.
 */
#ifndef TINYMM_ATOMIC_H
#define TINYMM_ATOMIC_H

#include "barrier.h"
#include "kernel.h"

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }

#include <asm/atomic.h>

/*
 * store_release_long(p, v): smp_store_release() of an unsigned long.  An architecture whose
 * release AMO is one instruction where a fence and a store are two (RISC-V) supplies
 * __arch_store_release_long; the others get smp_store_release() (on ARMv7 an exchange would be
 * an LDREX/STREX loop).
 */
#ifdef __arch_store_release_long
#define store_release_long(p, v)	__arch_store_release_long((p), (v))
#else
#define store_release_long(p, v)	smp_store_release((p), (v))
#endif

/*
 * xchg(ptr, v) / cmpxchg(ptr, old, new) on any 32-bit or long-sized object (integers and
 * pointers): store v (if *ptr == old), return the previous *ptr.  Fully ordered.
 */
#define __xchg_size_ok(p)								\
	_Static_assert(sizeof(*(p)) == 4 || sizeof(*(p)) == sizeof(long),		\
		       "xchg/cmpxchg: the object must be 32 bits or a long")

#define xchg(ptr, v) __extension__ ({							\
	__typeof__(*(ptr)) *__xp = (ptr);						\
	__xchg_size_ok(__xp);								\
	(__typeof__(*__xp))(sizeof(*__xp) == 4 ?					\
		(unsigned long)__arch_xchg32((volatile unsigned int *)__xp,		\
					     (unsigned int)(unsigned long)(v)) :	\
		__arch_xchg_long((volatile unsigned long *)__xp, (unsigned long)(v)));	\
})

#define cmpxchg(ptr, old, new) __extension__ ({						\
	__typeof__(*(ptr)) *__xp = (ptr);						\
	__xchg_size_ok(__xp);								\
	(__typeof__(*__xp))(sizeof(*__xp) == 4 ?					\
		(unsigned long)__arch_cmpxchg32((volatile unsigned int *)__xp,		\
						(unsigned int)(unsigned long)(old),	\
						(unsigned int)(unsigned long)(new)) :	\
		__arch_cmpxchg_long((volatile unsigned long *)__xp,			\
				    (unsigned long)(old), (unsigned long)(new)));	\
})

/*
 * The generic layer, once per type.  P: prefix, T: counter type, U: its unsigned twin (the
 * arithmetic is done in U so that it wraps), X: the __arch_xchg/cmpxchg suffix for T's size.
 */
#define __ATOMIC_GENERIC(P, T, U, X)							\
static inline T P##_read(const P##_t *v) { return READ_ONCE(v->counter); }		\
static inline void P##_set(P##_t *v, T i) { WRITE_ONCE(v->counter, i); }		\
static inline T P##_read_acquire(const P##_t *v) { return smp_load_acquire(&v->counter); } \
static inline void P##_set_release(P##_t *v, T i) { smp_store_release(&v->counter, i); } \
											\
static inline void P##_add(T i, P##_t *v) { arch_##P##_add(i, v); }			\
static inline void P##_sub(T i, P##_t *v) { arch_##P##_sub(i, v); }			\
static inline void P##_and(T i, P##_t *v) { arch_##P##_and(i, v); }			\
static inline void P##_or(T i, P##_t *v) { arch_##P##_or(i, v); }			\
static inline void P##_xor(T i, P##_t *v) { arch_##P##_xor(i, v); }			\
static inline void P##_andnot(T i, P##_t *v) { arch_##P##_and(~i, v); }		\
static inline void P##_inc(P##_t *v) { arch_##P##_add(1, v); }				\
static inline void P##_dec(P##_t *v) { arch_##P##_sub(1, v); }				\
											\
static inline T P##_fetch_add(T i, P##_t *v) { return arch_##P##_fetch_add(i, v); }	\
static inline T P##_fetch_sub(T i, P##_t *v) { return arch_##P##_fetch_sub(i, v); }	\
static inline T P##_fetch_and(T i, P##_t *v) { return arch_##P##_fetch_and(i, v); }	\
static inline T P##_fetch_or(T i, P##_t *v) { return arch_##P##_fetch_or(i, v); }	\
static inline T P##_fetch_xor(T i, P##_t *v) { return arch_##P##_fetch_xor(i, v); }	\
static inline T P##_fetch_andnot(T i, P##_t *v) { return arch_##P##_fetch_and(~i, v); } \
static inline T P##_fetch_inc(P##_t *v) { return arch_##P##_fetch_add(1, v); }		\
static inline T P##_fetch_dec(P##_t *v) { return arch_##P##_fetch_sub(1, v); }		\
											\
static inline T P##_add_return(T i, P##_t *v)						\
{ return (T)((U)arch_##P##_fetch_add(i, v) + (U)i); }					\
static inline T P##_sub_return(T i, P##_t *v)						\
{ return (T)((U)arch_##P##_fetch_sub(i, v) - (U)i); }					\
static inline T P##_inc_return(P##_t *v) { return P##_add_return(1, v); }		\
static inline T P##_dec_return(P##_t *v) { return P##_sub_return(1, v); }		\
static inline bool P##_inc_and_test(P##_t *v) { return P##_inc_return(v) == 0; }	\
static inline bool P##_dec_and_test(P##_t *v) { return P##_dec_return(v) == 0; }	\
static inline bool P##_sub_and_test(T i, P##_t *v) { return P##_sub_return(i, v) == 0; } \
static inline bool P##_add_negative(T i, P##_t *v) { return P##_add_return(i, v) < 0; } \
											\
static inline T P##_xchg(P##_t *v, T new)						\
{ return (T)__arch_xchg##X((volatile U *)&v->counter, (U)new); }			\
static inline T P##_cmpxchg(P##_t *v, T old, T new)					\
{ return (T)__arch_cmpxchg##X((volatile U *)&v->counter, (U)old, (U)new); }		\
/* On failure *old is updated to the value found, ready for the next try. */		\
static inline bool P##_try_cmpxchg(P##_t *v, T *old, T new)				\
{											\
	T seen = P##_cmpxchg(v, *old, new);						\
	bool ok = seen == *old;								\
	*old = seen;									\
	return ok;									\
}

__ATOMIC_GENERIC(atomic, int, unsigned int, 32)
__ATOMIC_GENERIC(atomic_long, long, unsigned long, _long)

#undef __ATOMIC_GENERIC

/*
 * atomic_fetch_add_unless(v, a, u): add @a unless the value is @u; the value before.  Fully
 * ordered when it adds, unordered when it does not (as a failed cmpxchg).  An architecture
 * may supply one loop (__arch_atomic_fetch_add_unless on the int); else a cmpxchg loop.
 * atomic_add_unless() says whether it added; atomic_inc_not_zero() is the reference count's.
 */
static inline int atomic_fetch_add_unless(atomic_t *v, int a, int u)
{
#ifdef __arch_atomic_fetch_add_unless
	return __arch_atomic_fetch_add_unless(&v->counter, a, u);
#else
	int c = atomic_read(v);

	do {
		if (c == u)
			break;
	} while (!atomic_try_cmpxchg(v, &c, c + a));
	return c;
#endif
}

static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	return atomic_fetch_add_unless(v, a, u) != u;
}

static inline bool atomic_inc_not_zero(atomic_t *v)
{
	return atomic_add_unless(v, 1, 0);
}

#endif
