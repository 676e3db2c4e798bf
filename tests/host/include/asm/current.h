/*
 * asm/current.h - the host's stand-in for the running task: a per-thread pointer a test may
 * set (NULL: no task, as before the scheduler starts).  preempt_count and the exit-work flags
 * of code running with no task live in a per-thread thread_info of their own.
 */
#ifndef ASM_HOST_CURRENT_H
#define ASM_HOST_CURRENT_H

#include "tinymm/thread_info.h"

struct task_struct;
__attribute__((weak)) _Thread_local struct task_struct *host_current;
__attribute__((weak)) _Thread_local struct thread_info host_thread_info;

static inline struct task_struct *get_current(void)
{
	return host_current;
}

static inline struct thread_info *current_thread_info(void)
{
	return host_current ? (struct thread_info *)host_current : &host_thread_info;
}

static inline void set_current(struct task_struct *p)
{
	host_current = p;
}

#endif
