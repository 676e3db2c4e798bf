/*
 * asm/irqflags.h - ARMv7-A interrupt masking for <tinymm/irqflags.h> (include that instead):
 * the CPSR I bit.  CPSID/CPSIE flip it alone; restore writes the CPSR control byte back (MSR
 * CPSR_c: I, F and the mode, which are what saving captured).  FIQs stay masked throughout.
 */
#ifndef ASM_ARM_IRQFLAGS_H
#define ASM_ARM_IRQFLAGS_H

#include <stdbool.h>

#define PSR_I_BIT	0x80UL

static inline unsigned long arch_local_save_flags(void)
{
	unsigned long flags;

	__asm__ __volatile__("mrs	%0, cpsr" : "=r"(flags) : : "memory", "cc");
	return flags;
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("mrs	%0, cpsr\n\tcpsid	i" : "=r"(flags) : : "memory", "cc");
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	__asm__ __volatile__("msr	cpsr_c, %0" : : "r"(flags) : "memory", "cc");
}

/* MSR CPSR_c writes the saved control bits as they are: nothing to isolate, nothing to gain. */
static inline void arch_local_irq_restore_unchanged(unsigned long flags)
{
	arch_local_irq_restore(flags);
}

static inline void arch_local_irq_disable(void)
{
	__asm__ __volatile__("cpsid	i" : : : "memory", "cc");
}

static inline void arch_local_irq_enable(void)
{
	__asm__ __volatile__("cpsie	i" : : : "memory", "cc");
}

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return flags & PSR_I_BIT;
}

#endif
