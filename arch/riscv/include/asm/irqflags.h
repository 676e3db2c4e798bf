/*
 * asm/irqflags.h - RISC-V interrupt masking for <tinymm/irqflags.h> (include that instead):
 * sstatus.SIE, the S-mode global enable (tinymm runs in S-mode on both boards).  Save is one
 * CSRRC (read and clear together); restore only sets SIE back if it was set, which suffices
 * because every restore undoes a save that left SIE clear.
 */
#ifndef ASM_RISCV_IRQFLAGS_H
#define ASM_RISCV_IRQFLAGS_H

#include <stdbool.h>

#define SR_SIE	0x2UL

static inline unsigned long arch_local_save_flags(void)
{
	unsigned long flags;

	__asm__ __volatile__("csrr	%0, sstatus" : "=r"(flags) : : "memory");
	return flags;
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("csrrc	%0, sstatus, %1" : "=r"(flags) : "rK"(SR_SIE) : "memory");
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	__asm__ __volatile__("csrs	sstatus, %0" : : "r"(flags & SR_SIE) : "memory");
}

/*
 * The saved sstatus set back whole, without isolating SIE first: shorter on the order-0 fast
 * paths (docs/page_alloc.md).  Sound only where every other bit set in @flags is still set,
 * i.e. nothing since the save could clear one (a trap's sret rewrites SPP/SPIE, a user copy
 * toggles SUM): <tinymm/irqflags.h> allows it only across a few loads and stores.
 */
static inline void arch_local_irq_restore_unchanged(unsigned long flags)
{
	__asm__ __volatile__("csrs	sstatus, %0" : : "r"(flags) : "memory");
}

static inline void arch_local_irq_disable(void)
{
	__asm__ __volatile__("csrc	sstatus, %0" : : "rK"(SR_SIE) : "memory");
}

static inline void arch_local_irq_enable(void)
{
	__asm__ __volatile__("csrs	sstatus, %0" : : "rK"(SR_SIE) : "memory");
}

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & SR_SIE);
}

#endif
