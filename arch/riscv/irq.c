/*
 * irq.c - the RISC-V per-hart local interrupt controller ("riscv,cpu-intc") as an irq_domain.
 *
 * Its hwirqs are scause interrupt codes, XLEN of them: 1 supervisor software, 5 supervisor timer
 * (arch/riscv/timer.c), 9 supervisor external (the PLIC chains onto it, drivers/irq-plic.c).
 * Masking a line clears its bit in `sie`; unmasking sets it.  Whether interrupts are taken at all
 * is sstatus.SIE, which only local_irq_*() change.  On RV32 without firmware, mstart.S delegates
 * the S-level interrupts (mideleg), so these `sie` bits are the whole enable.
 * The trap entry (traps.c) calls riscv_handle_irq() between irq_enter() and irq_exit().
 * SMP: these lines are per hart (each hart has its own `sie`); a line requested on the boot hart
 * is the same line on every hart (one descriptor, one handler), so intc_enabled remembers what
 * was unmasked and a starting hart copies it (riscv_intc_starting_cpu).  A mask or unmask acts
 * on the calling hart's `sie` and on intc_enabled: harts started later follow it, running ones
 * keep theirs (v6.10 enables per-CPU interrupts on each CPU in its starting callback too).
 * Locking: `sie` changes with interrupts masked (the core's descriptor rules), on its own hart;
 * intc_enabled with atomic bit operations.
 */
#include <string.h>
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/printk.h"

struct irq_domain *riscv_intc_domain;
static unsigned long intc_enabled;	/* the lines unmasked, for harts that start later */

static void intc_mask(struct irq_domain *d, unsigned int hwirq)
{
	(void)d;
	if (hwirq < __riscv_xlen) {
		__atomic_fetch_and(&intc_enabled, ~(1UL << hwirq), __ATOMIC_RELAXED);
		__asm__ __volatile__("csrc sie, %0" : : "r"(1UL << hwirq) : "memory");
	}
}

static void intc_unmask(struct irq_domain *d, unsigned int hwirq)
{
	(void)d;
	if (hwirq < __riscv_xlen) {
		__atomic_fetch_or(&intc_enabled, 1UL << hwirq, __ATOMIC_RELAXED);
		__asm__ __volatile__("csrs sie, %0" : : "r"(1UL << hwirq) : "memory");
	}
}

static const struct irq_chip intc_chip = {
	.name = "RISC-V INTC",
	.irq_mask = intc_mask,
	.irq_unmask = intc_unmask,
};

static int intc_xlate(struct irq_domain *d, const uint32_t *spec, int cells, unsigned int *hwirq,
		      unsigned int *type)
{
	if (cells != 1 || spec[0] >= d->size)
		return -1;
	*hwirq = spec[0];
	*type = IRQ_TYPE_NONE;
	return 0;
}

void riscv_intc_starting_cpu(void)
{
	__asm__ __volatile__("csrc sip, %0" : : "r"(1UL << IRQ_S_SOFT));
	__asm__ __volatile__("csrw sie, %0" : : "r"(__atomic_load_n(&intc_enabled, __ATOMIC_RELAXED))
			     : "memory");
}

int riscv_boot_cpu_node(const struct dt *dt)
{
	return dt_boot_cpu_node(dt, boot_cpu_hwid);
}

void riscv_handle_irq(unsigned long code)
{
	if (riscv_intc_domain && generic_handle_domain_irq(riscv_intc_domain, (unsigned int)code) == 0)
		return;
	/* No domain, or a cause beyond it: never let it storm. */
	intc_mask(NULL, (unsigned int)code);
	irq_spurious();
}

/* handle_arch_irq() on RISC-V: the cause is still in scause (nothing trapped since). */
static void intc_handle_arch_irq(void)
{
	unsigned long cause;

	__asm__ __volatile__("csrr %0, scause" : "=r"(cause));
	riscv_handle_irq(cause << 1 >> 1);
}

void arch_irq_init(const struct dt *dt)
{
	int cpu = riscv_boot_cpu_node(dt), intc = -1;

	for (int n = cpu >= 0 ? dt_first_child(dt, cpu) : -1; n >= 0; n = dt_next_sibling(dt, n))
		if (dt_is_compatible(dt, n, "riscv,cpu-intc")) {
			intc = n;
			break;
		}
	if (intc < 0)
		pr_warn("riscv-intc: no riscv,cpu-intc node under the boot cpu; external controllers "
			"cannot find it\n");
	/* Nothing is enabled until a handler is requested; nothing stale is pending. */
	__asm__ __volatile__("csrw sie, zero");
	__asm__ __volatile__("csrc sip, %0" : : "r"(1UL << IRQ_S_SOFT));
	riscv_intc_domain = irq_domain_add_linear(intc, __riscv_xlen, &intc_chip, NULL, "RISC-V INTC");
	if (!riscv_intc_domain)
		return;
	riscv_intc_domain->xlate = intc_xlate;
	set_handle_irq(intc_handle_arch_irq);
	pr_info("riscv-intc: %d local interrupts\n", __riscv_xlen);
}
