/*
 * asm/processor.h - the host's stand-in CPU identity for unit tests.  A test thread plays one
 * CPU: it sets host_cpu_id (per thread, 0 by default) so spinlock debugging sees different
 * threads as different CPUs.  cpu_relax() yields, so a waiter does not burn the time slice of
 * a lock holder sharing its core.
 */
#ifndef ASM_HOST_PROCESSOR_H
#define ASM_HOST_PROCESSOR_H

#include <sched.h>

__attribute__((weak)) _Thread_local int host_cpu_id;

#define raw_smp_processor_id()	(host_cpu_id)
#define cpu_relax()		((void)sched_yield())

#endif
