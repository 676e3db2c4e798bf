/*
 * irqflags.h - masking interrupts on the current CPU, Linux's names and rules.
 *
 *   local_irq_save(flags)     mask; flags remember whether they were masked before
 *   local_irq_restore(flags)  go back to that state: save/restore pairs nest
 *   local_irq_restore_unchanged(flags)  the same, only where nothing between the save and it
 *                             can change the status register: no call, no trap, no thread
 *                             switch (a few loads and stores; the per-CPU page lists' fast path)
 *   local_irq_disable/enable  unconditional; only where irqs are known to be enabled
 *   irqs_disabled()           true while masked;  irqs_disabled_flags(flags): as saved
 *   local_save_flags(flags)   read the state without changing it
 * flags is an unsigned long holding the architecture's status register (ARM CPSR, RISC-V
 * sstatus); only irqs_disabled_flags() may look inside.  Restore flags on the CPU that saved
 * them, innermost first.  Each is a compiler barrier: no memory access moves across it.
 * Interrupts are masked from the first instruction until the scheduler starts; threads then run
 * with them unmasked.
 *
 * The irqsoff tracer (CONFIG_IRQSOFF_TRACER, the `<board>-irqsoff` builds; docs/irqsoff.md)
 * hooks here: a save or disable that masks calls trace_hardirqs_off() just after masking, a
 * restore or enable that unmasks calls trace_hardirqs_on() just before.  Saves and restores
 * that leave the state as it was (nested ones) call nothing.  The *_ip forms are for
 * out-of-line wrappers (the spinlock functions): the tracer records @ip, their caller, as the
 * section's site.  Without the tracer every hook is empty and the code is what it was.
 */
#ifndef TINYMM_IRQFLAGS_H
#define TINYMM_IRQFLAGS_H

#include "kernel.h"
#include <asm/irqflags.h>

#define __irqflags_check(flags)								\
	_Static_assert(__builtin_types_compatible_p(__typeof__(flags), unsigned long),	\
		       "irq flags must be unsigned long")

#ifdef CONFIG_IRQSOFF_TRACER
/* kernel/trace_irqsoff.c; called with interrupts masked.  The plain ones record their caller. */
void trace_hardirqs_off(void);
void trace_hardirqs_on(void);
void trace_hardirqs_off_caller(unsigned long ip);
void trace_hardirqs_on_caller(unsigned long ip);
/* The idle loop's wait with interrupts masked is not a section (Linux's names). */
void stop_critical_timings(void);
void start_critical_timings(void);

#define local_irq_save(flags)								\
	do {										\
		__irqflags_check(flags);						\
		(flags) = arch_local_irq_save();					\
		if (!arch_irqs_disabled_flags(flags))					\
			trace_hardirqs_off();						\
	} while (0)
#define local_irq_restore(flags)							\
	do {										\
		__irqflags_check(flags);						\
		if (!arch_irqs_disabled_flags(flags))					\
			trace_hardirqs_on();						\
		arch_local_irq_restore(flags);						\
	} while (0)
/* The tracer's call changes no status bit: the "unchanged" condition still holds after it. */
#define local_irq_restore_unchanged(flags)						\
	do {										\
		__irqflags_check(flags);						\
		if (!arch_irqs_disabled_flags(flags))					\
			trace_hardirqs_on();						\
		arch_local_irq_restore_unchanged(flags);				\
	} while (0)
/* Only a disable that masks starts a section: one at boot (masked already) starts nothing. */
#define local_irq_disable()								\
	do {										\
		if (!arch_irqs_disabled_flags(arch_local_irq_save()))			\
			trace_hardirqs_off();						\
	} while (0)
#define local_irq_enable()	do { trace_hardirqs_on(); arch_local_irq_enable(); } while (0)
#define local_irq_save_ip(flags, ip)							\
	do {										\
		__irqflags_check(flags);						\
		(flags) = arch_local_irq_save();					\
		if (!arch_irqs_disabled_flags(flags))					\
			trace_hardirqs_off_caller(ip);					\
	} while (0)
#define local_irq_restore_ip(flags, ip)							\
	do {										\
		__irqflags_check(flags);						\
		if (!arch_irqs_disabled_flags(flags))					\
			trace_hardirqs_on_caller(ip);					\
		arch_local_irq_restore(flags);						\
	} while (0)
#define local_irq_disable_ip(ip)							\
	do {										\
		if (!arch_irqs_disabled_flags(arch_local_irq_save()))			\
			trace_hardirqs_off_caller(ip);					\
	} while (0)
#define local_irq_enable_ip(ip)								\
	do { trace_hardirqs_on_caller(ip); arch_local_irq_enable(); } while (0)
#else
static inline void stop_critical_timings(void) {}
static inline void start_critical_timings(void) {}

#define local_irq_save(flags)								\
	do { __irqflags_check(flags); (flags) = arch_local_irq_save(); } while (0)
#define local_irq_restore(flags)							\
	do { __irqflags_check(flags); arch_local_irq_restore(flags); } while (0)
#define local_irq_restore_unchanged(flags)						\
	do { __irqflags_check(flags); arch_local_irq_restore_unchanged(flags); } while (0)
#define local_irq_disable()		arch_local_irq_disable()
#define local_irq_enable()		arch_local_irq_enable()
#define local_irq_save_ip(flags, ip)	do { (void)(ip); local_irq_save(flags); } while (0)
#define local_irq_restore_ip(flags, ip)	do { (void)(ip); local_irq_restore(flags); } while (0)
#define local_irq_disable_ip(ip)	do { (void)(ip); local_irq_disable(); } while (0)
#define local_irq_enable_ip(ip)		do { (void)(ip); local_irq_enable(); } while (0)
#endif
#define local_save_flags(flags)								\
	do { __irqflags_check(flags); (flags) = arch_local_save_flags(); } while (0)
#define irqs_disabled_flags(flags)	arch_irqs_disabled_flags(flags)
#define irqs_disabled()			arch_irqs_disabled_flags(arch_local_save_flags())

#endif
