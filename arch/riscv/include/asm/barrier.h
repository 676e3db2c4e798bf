/*
 * asm/barrier.h - RISC-V barriers (RV32 and RV64), as Linux's arch/riscv/include/asm/barrier.h.
 * Include <tinymm/barrier.h> instead.  FENCE pred,succ orders the accesses named in pred before
 * those named in succ; i/o are device accesses, r/w normal memory.  RVWMO keeps nothing else in
 * order, so acquire/release get their own one-sided fences instead of a full one.
 */
#ifndef ASM_RISCV_BARRIER_H
#define ASM_RISCV_BARRIER_H

#define __rv_fence(p, s)	__asm__ __volatile__("fence " #p "," #s ::: "memory")

#define mb()		__rv_fence(iorw, iorw)
#define rmb()		__rv_fence(ir, ir)
#define wmb()		__rv_fence(ow, ow)
#define smp_mb()	__rv_fence(rw, rw)
#define smp_rmb()	__rv_fence(r, r)
#define smp_wmb()	__rv_fence(w, w)

/* Release: earlier loads and stores before the store.  Acquire: the load before later ones. */
#define smp_store_release(p, v)	do { __rv_fence(rw, w); WRITE_ONCE(*(p), (v)); } while (0)
#define smp_load_acquire(p) __extension__ ({						\
	__typeof__(*(p)) __acq = READ_ONCE(*(p));					\
	__rv_fence(r, rw);								\
	__acq;										\
})

#endif
