/*
 * asm/irqflags.h - simulated interrupt masking for host unit tests: host_irq_flags stands in
 * for the CPU's mask bit (1 = masked), so tests can watch save/restore nest.  It is per thread,
 * as the real bit is per CPU, and starts unmasked.  Weak, so every file including this header
 * shares one definition without a .c file.
 */
#ifndef ASM_HOST_IRQFLAGS_H
#define ASM_HOST_IRQFLAGS_H

#include <stdbool.h>

#define HOST_IRQS_MASKED	1UL

__attribute__((weak)) _Thread_local unsigned long host_irq_flags;

static inline unsigned long arch_local_save_flags(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* a compiler barrier, as on a CPU */
	return host_irq_flags;
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	host_irq_flags = HOST_IRQS_MASKED;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	host_irq_flags = flags & HOST_IRQS_MASKED;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void arch_local_irq_restore_unchanged(unsigned long flags)
{
	arch_local_irq_restore(flags);
}

static inline void arch_local_irq_disable(void)
{
	(void)arch_local_irq_save();
}

static inline void arch_local_irq_enable(void)
{
	arch_local_irq_restore(0);
}

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return flags & HOST_IRQS_MASKED;
}

#endif
