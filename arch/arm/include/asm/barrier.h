/*
 * asm/barrier.h - ARMv7-A barriers, as Linux's arch/arm/include/asm/barrier.h (SMP build).
 * Include <tinymm/barrier.h> instead.  DMB orders memory accesses; DSB also waits for them to
 * complete, which device accesses and cache/TLB maintenance need, so the mandatory barriers use
 * DSB and the smp_ ones DMB over the inner-shareable domain (all CPUs of the cluster).
 */
#ifndef ASM_ARM_BARRIER_H
#define ASM_ARM_BARRIER_H

#define __arm_dmb(opt)	__asm__ __volatile__("dmb " #opt ::: "memory")
#define __arm_dsb(opt)	__asm__ __volatile__("dsb " #opt ::: "memory")

#define mb()		__arm_dsb(sy)
#define rmb()		__arm_dsb(sy)
#define wmb()		__arm_dsb(st)
#define smp_mb()	__arm_dmb(ish)
#define smp_rmb()	__arm_dmb(ish)	/* ARMv7 has no load-only DMB */
#define smp_wmb()	__arm_dmb(ishst)

#endif
