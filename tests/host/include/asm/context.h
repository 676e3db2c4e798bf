/*
 * asm/context.h - the host "architecture"'s thread context: a ucontext_t switched with
 * swapcontext() (tests/host/host_sched_arch.c), plus what AddressSanitizer needs to follow the
 * stack switch (the target stack's bounds, the fake stack saved while switched out).  Threads are
 * cooperative on the host: nothing interrupts them, the simulated timer fires only from the idle
 * loop (arch_cpu_idle()).
 */
#ifndef ASM_HOST_CONTEXT_H
#define ASM_HOST_CONTEXT_H

#include <stddef.h>
#include <ucontext.h>

struct arch_context {
	ucontext_t uc;
	void (*entry)(void);		/* arch_context_init()'s @entry, run by the trampoline */
	const void *stack_lo;		/* the stack's lowest address (NULL: the boot stack) */
	size_t stack_size;
	void *asan_fake_stack;		/* ASan's fake-stack handle while switched out */
};

#endif
