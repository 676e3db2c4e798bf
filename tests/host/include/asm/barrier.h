/*
 * asm/barrier.h - the host's barriers for unit tests: C11 fences through the compiler's
 * builtins.  A sequentially consistent fence is at least as strong as every Linux barrier;
 * rmb/wmb use the acquire/release fences that order loads/stores the way those need.
 */
#ifndef ASM_HOST_BARRIER_H
#define ASM_HOST_BARRIER_H

#define mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb()	mb()
#define smp_rmb()	rmb()
#define smp_wmb()	wmb()

#endif
