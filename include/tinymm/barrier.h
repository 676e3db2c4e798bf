/*
 * barrier.h - memory barriers with Linux's names and meaning (Documentation/memory-barriers.txt).
 *
 *   mb() rmb() wmb()              order all accesses / loads / stores, device (MMIO) ones too
 *   smp_mb() smp_rmb() smp_wmb()  the same between CPUs only (normal memory): cheaper
 *   smp_mb__before_atomic()       make a following non-returning atomic (atomic_inc, set_bit)
 *   smp_mb__after_atomic()        ... or a preceding one, fully ordered
 *   smp_store_release(p, v)       store *p = v after every earlier access
 *   smp_load_acquire(p)           load *p before every later access
 *   barrier()                     compiler only (kernel.h)
 * Each architecture's <asm/barrier.h> defines the first six; the rest default here to smp_mb(),
 * unless the architecture has something cheaper.  Every barrier is also a compiler barrier.
 */
#ifndef TINYMM_BARRIER_H
#define TINYMM_BARRIER_H

#include "kernel.h"
#include <asm/barrier.h>

#ifndef smp_mb__before_atomic
#define smp_mb__before_atomic()	smp_mb()
#endif
#ifndef smp_mb__after_atomic
#define smp_mb__after_atomic()	smp_mb()
#endif

#ifndef smp_store_release
#define smp_store_release(p, v)	do { smp_mb(); WRITE_ONCE(*(p), (v)); } while (0)
#endif
#ifndef smp_load_acquire
#define smp_load_acquire(p) __extension__ ({						\
	__typeof__(*(p)) __acq = READ_ONCE(*(p));					\
	smp_mb();									\
	__acq;										\
})
#endif

#endif
