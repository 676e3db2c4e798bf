/*
 * asm/context.h - the host "architecture" has no thread switching: host tests build the
 * portable mm/ code, which names struct task_struct only through pointers.  The struct exists
 * so that <tinymm/sched.h> compiles (and lists its inline functions) on the host.
 */
#ifndef ASM_HOST_CONTEXT_H
#define ASM_HOST_CONTEXT_H

struct arch_context {
	void *sp;
};

#endif
