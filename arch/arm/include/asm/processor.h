/*
 * asm/processor.h - what a spinning CPU needs to know about itself (ARMv7-A).
 *   raw_smp_processor_id()  this CPU's logical number: the running task's (asm/current.h)
 *   this_cpu_fast()         this CPU's struct cpu_fast (tinymm/smp.h), from the running task
 *   this_cpu_pcp_fast()     its pcp_fast, the running task's copy
 *   this_cpu_slab_off()     the running task's cpu_slab_off
 *   cpu_relax()             the pause in a busy-wait loop; a compiler barrier so the loop
 *                           re-reads memory (Linux's ARMv7 choice; WFE would need SEV on unlock)
 */
#ifndef ASM_ARM_PROCESSOR_H
#define ASM_ARM_PROCESSOR_H

#include "current.h"

#define raw_smp_processor_id()	((int)current_thread_info()->cpu)
#define this_cpu_fast()		(current_thread_info()->cpu_fast)
#define this_cpu_pcp_fast()	(current_thread_info()->pcp_fast)
#define this_cpu_slab_off()	(current_thread_info()->cpu_slab_off)
#define cpu_relax()		__asm__ __volatile__("" ::: "memory")

#endif
