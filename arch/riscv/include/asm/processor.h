/*
 * asm/processor.h - what a spinning CPU needs to know about itself (RISC-V).
 *   raw_smp_processor_id()  this CPU's number: always 0, tinymm runs on one hart so far
 *   cpu_relax()             the pause in a busy-wait loop: Zihintpause's PAUSE, spelled as its
 *                           encoding (FENCE w,0) because rv32imac/rv64imac assemblers lack the
 *                           name; a CPU without Zihintpause runs it as a no-op fence.
 */
#ifndef ASM_RISCV_PROCESSOR_H
#define ASM_RISCV_PROCESSOR_H

#define raw_smp_processor_id()	0
#define cpu_relax()		__asm__ __volatile__(".4byte 0x0100000f" ::: "memory")

#endif
