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
 */
#ifndef TINYMM_IRQFLAGS_H
#define TINYMM_IRQFLAGS_H

#include "kernel.h"
#include <asm/irqflags.h>

#define __irqflags_check(flags)								\
	_Static_assert(__builtin_types_compatible_p(__typeof__(flags), unsigned long),	\
		       "irq flags must be unsigned long")

#define local_irq_save(flags)								\
	do { __irqflags_check(flags); (flags) = arch_local_irq_save(); } while (0)
#define local_irq_restore(flags)							\
	do { __irqflags_check(flags); arch_local_irq_restore(flags); } while (0)
#define local_irq_restore_unchanged(flags)						\
	do { __irqflags_check(flags); arch_local_irq_restore_unchanged(flags); } while (0)
#define local_save_flags(flags)								\
	do { __irqflags_check(flags); (flags) = arch_local_save_flags(); } while (0)
#define local_irq_disable()		arch_local_irq_disable()
#define local_irq_enable()		arch_local_irq_enable()
#define irqs_disabled_flags(flags)	arch_irqs_disabled_flags(flags)
#define irqs_disabled()			arch_irqs_disabled_flags(arch_local_save_flags())

#endif
