/*
 * asm/current.h - the running task (RISC-V): tp holds it whenever the hart runs in S-mode, as
 * in v6.10.  The trap entry takes it back from sscratch on a trap from U-mode (entry.S); the
 * scheduler sets it for the task it switches to (set_current(), just before the switch).
 * A task's tp never changes while it runs, so reading it may be cached by the compiler.
 */
#ifndef ASM_RISCV_CURRENT_H
#define ASM_RISCV_CURRENT_H

#include "tinymm/thread_info.h"

struct task_struct;
register struct task_struct *riscv_current_is_tp __asm__("tp");

static inline __attribute__((always_inline)) struct task_struct *get_current(void)
{
	return riscv_current_is_tp;
}

static inline __attribute__((always_inline)) struct thread_info *current_thread_info(void)
{
	return (struct thread_info *)riscv_current_is_tp;
}

static inline __attribute__((always_inline)) void set_current(struct task_struct *p)
{
	__asm__ __volatile__("mv tp, %0" : : "r"(p) : "memory");
}

#endif
