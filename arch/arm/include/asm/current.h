/*
 * asm/current.h - the running task (ARMv7-A): TPIDRPRW, the PL1-only thread register, holds it
 * (user mode can neither read nor write it; v6.10 keeps the per-CPU offset there and current in
 * TPIDRURO, tinymm has no per-CPU offset to keep).  The scheduler sets it for the task it
 * switches to (set_current(), just before the switch).  A task's value never changes while it
 * runs, so the read is not volatile: the compiler may reuse it.
 */
#ifndef ASM_ARM_CURRENT_H
#define ASM_ARM_CURRENT_H

#include "tinymm/thread_info.h"

struct task_struct;

static inline __attribute__((always_inline)) struct task_struct *get_current(void)
{
	struct task_struct *p;

	__asm__("mrc p15, 0, %0, c13, c0, 4" : "=r"(p));
	return p;
}

static inline __attribute__((always_inline)) struct thread_info *current_thread_info(void)
{
	return (struct thread_info *)get_current();
}

static inline __attribute__((always_inline)) void set_current(struct task_struct *p)
{
	__asm__ __volatile__("mcr p15, 0, %0, c13, c0, 4" : : "r"(p) : "memory");
}

#endif
