/*
 * preempt.h - the preemption counter, as Linux's: a thread may be switched away from only when
 * preempt_count() is 0 and interrupts are enabled.
 *
 *   bits  0..7   preemption disabled (spin_lock, preempt_disable): PREEMPT_OFFSET each
 *   bits 16..19  hard interrupt nesting (irq_enter/irq_exit): HARDIRQ_OFFSET each
 * in_interrupt() is true inside an interrupt handler, in_atomic() whenever the count is not 0.
 * The counter is the running task's (thread_info, as v6.10 on ARM and RISC-V): a task keeps
 * its own when it is switched out or moves to another CPU.
 * preempt_enable() that drops the count to 0 reschedules at once if a wake-up asked for it.
 * Locking: only the CPU's own code touches it; an interrupt leaves it as it found it.
 */
#ifndef TINYMM_PREEMPT_H
#define TINYMM_PREEMPT_H

#include "kernel.h"
#include <asm/current.h>

#define PREEMPT_OFFSET		1U
#define PREEMPT_MASK		0x000000ffU
#define HARDIRQ_OFFSET		0x00010000U
#define HARDIRQ_MASK		0x000f0000U

/* The running task's (include/tinymm/thread_info.h): it moves with the task. */
#define __preempt_count		(current_thread_info()->preempt_count)
#define __exit_work		(current_thread_info()->exit_work)
#define __need_resched		(__exit_work.need_resched)

static inline unsigned int preempt_count(void)
{
	return __preempt_count;
}

void preempt_schedule(void);

#define preempt_disable()	do { __preempt_count += PREEMPT_OFFSET; barrier(); } while (0)
#define preempt_enable_no_resched() do { barrier(); __preempt_count -= PREEMPT_OFFSET; } while (0)
#define preempt_enable()								\
	do {										\
		barrier();								\
		if (!(__preempt_count -= PREEMPT_OFFSET) && unlikely(__need_resched))	\
			preempt_schedule();						\
	} while (0)

#define in_interrupt()		(preempt_count() & HARDIRQ_MASK)
#define in_hardirq()		in_interrupt()
#define in_atomic()		(preempt_count() != 0)
#define in_task()		(!in_interrupt())

static inline bool need_resched(void)
{
	return __need_resched;
}

#endif
