/*
 * asm/processor.h - what a spinning CPU needs to know about itself (ARMv7-A).
 *   raw_smp_processor_id()  this CPU's number: always 0, tinymm runs on one CPU so far
 *   cpu_relax()             the pause in a busy-wait loop; a compiler barrier so the loop
 *                           re-reads memory (Linux's ARMv7 choice; WFE would need SEV on unlock)
 */
#ifndef ASM_ARM_PROCESSOR_H
#define ASM_ARM_PROCESSOR_H

#define raw_smp_processor_id()	0
#define cpu_relax()		__asm__ __volatile__("" ::: "memory")

#endif
