/*
 * irq-bcm2836.c - the BCM2836's per-core ARM-local interrupt controller ("brcm,bcm2836-l1-intc"),
 * the root controller of the Raspberry Pi 2: the four generic-timer interrupts, four mailboxes
 * per core, the GPU's interrupt (where the BCM2835 ARM-control controller, irq-bcm2835.c, is
 * chained) and the PMU, each a bit in the core's pending register.
 *
 * hwirqs (Linux's numbering, the device tree's first cell): 0 CNTPS, 1 CNTPNS, 2 CNTHP, 3 CNTV
 * (timers), 4-7 mailboxes 0-3, 8 GPU, 9 PMU.  Registers (BCM2836 "ARM local peripherals"), for
 * core c:
 *   0x0c GPU interrupt routing (bits 1:0, the core the GPU's IRQ goes to)
 *   0x10 / 0x14 PMU interrupt routing set / clear (bit c)
 *   0x40 + 4c timer interrupt control (bits 0-3: timer n raises an IRQ)
 *   0x50 + 4c mailbox interrupt control (bits 0-3: mailbox n raises an IRQ)
 *   0x60 + 4c IRQ pending (bits 0-9 as the hwirqs; 10, 11: AXI and local timer, unused)
 *   0x80 + 16c + 4n mailbox n write-set; 0xc0 + 16c + 4n mailbox n read / write-clear
 * A mailbox interrupts while any of its 32 bits is set, so it is the one line software can
 * raise: irq_set_irqchip_state(PENDING) writes bit 0, and clearing writes all ones to the
 * clear register (tests use it as they use a GIC's pending bits).  The GPU line has no mask
 * here (the ARM-control controller masks its own lines).
 * Where tinymm differs from v6.10, and why: one core, the boot one (Aff0 of boot_cpu_hwid), and
 * mailbox 0 is not taken for IPIs: there is no SMP yet.
 * Locking: enable registers change with interrupts masked (the core's rule), one core.
 */
#include "tinymm/io.h"
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/printk.h"

#define LOCAL_GPU_ROUTING	0x0c
#define LOCAL_PM_ROUTING_SET	0x10
#define LOCAL_PM_ROUTING_CLR	0x14
#define LOCAL_TIMER_INT_CTL(c)	(0x40 + 4 * (c))
#define LOCAL_MBOX_INT_CTL(c)	(0x50 + 4 * (c))
#define LOCAL_IRQ_PENDING(c)	(0x60 + 4 * (c))
#define LOCAL_MBOX_SET(c, n)	(0x80 + 16 * (c) + 4 * (n))
#define LOCAL_MBOX_CLR(c, n)	(0xc0 + 16 * (c) + 4 * (n))
#define LOCAL_REGS_SIZE		0x100

#define HWIRQ_CNTV		3
#define HWIRQ_MAILBOX0		4
#define HWIRQ_GPU		8
#define HWIRQ_PMU		9
#define NR_HWIRQS		10

static struct bcm2836_intc {
	uintptr_t base;
	unsigned int core;
	struct irq_domain *domain;
} intc;

static void bcm2836_update(struct irq_domain *d, unsigned int hwirq, bool on)
{
	struct bcm2836_intc *l = d->chip_data;
	uintptr_t reg;
	unsigned int bit;

	if (hwirq <= HWIRQ_CNTV) {
		reg = l->base + LOCAL_TIMER_INT_CTL(l->core);
		bit = hwirq;
	} else if (hwirq < HWIRQ_GPU) {
		reg = l->base + LOCAL_MBOX_INT_CTL(l->core);
		bit = hwirq - HWIRQ_MAILBOX0;
	} else if (hwirq == HWIRQ_PMU) {
		writel(1u << l->core, l->base + (on ? LOCAL_PM_ROUTING_SET : LOCAL_PM_ROUTING_CLR));
		return;
	} else {
		return;		/* the GPU line: masked line by line at the ARM-control controller */
	}
	uint32_t v = readl(reg);
	writel(on ? v | (1u << bit) : v & ~(1u << bit), reg);
}

static void bcm2836_mask(struct irq_domain *d, unsigned int hwirq)
{
	bcm2836_update(d, hwirq, false);
}

static void bcm2836_unmask(struct irq_domain *d, unsigned int hwirq)
{
	bcm2836_update(d, hwirq, true);
}

static int bcm2836_set_state(struct irq_domain *d, unsigned int hwirq, enum irqchip_irq_state which,
			     bool state)
{
	struct bcm2836_intc *l = d->chip_data;
	unsigned int n = hwirq - HWIRQ_MAILBOX0;

	if (which != IRQCHIP_STATE_PENDING || hwirq < HWIRQ_MAILBOX0 || hwirq >= HWIRQ_GPU)
		return -1;	/* only a mailbox can be raised or dropped by software */
	if (state)
		writel(1, l->base + LOCAL_MBOX_SET(l->core, n));
	else
		writel(0xffffffffu, l->base + LOCAL_MBOX_CLR(l->core, n));
	return 0;
}

static const struct irq_chip bcm2836_chip = {
	.name = "bcm2836-l1",
	.irq_mask = bcm2836_mask,
	.irq_unmask = bcm2836_unmask,
	.irq_set_irqchip_state = bcm2836_set_state,
};

/* <hwirq flags>: flags are the trigger, which is fixed in the hardware (all level). */
static int bcm2836_xlate(struct irq_domain *d, const uint32_t *spec, int cells, unsigned int *hwirq,
			 unsigned int *type)
{
	if (cells != 2 || spec[0] >= d->size)
		return -1;
	*hwirq = spec[0];
	*type = IRQ_TYPE_LEVEL_HIGH;
	return 0;
}

/* The root handler: every pending source of our core, lowest first. */
static void bcm2836_handle_irq(void)
{
	struct bcm2836_intc *l = &intc;
	uint32_t stat = readl(l->base + LOCAL_IRQ_PENDING(l->core)) & ((1u << NR_HWIRQS) - 1);

	if (!stat) {
		irq_spurious();
		return;
	}
	while (stat) {
		unsigned int hwirq = (unsigned int)__builtin_ctz(stat);

		stat &= stat - 1;
		generic_handle_domain_irq(l->domain, hwirq);
	}
}

static int bcm2836_intc_init(const struct dt *dt, int node)
{
	struct bcm2836_intc *l = &intc;
	uint64_t base, size;
	const char *name = dt_node_name(dt, node);

	if (l->domain) {
		pr_err("bcm2836-l1: %s: a second controller is not supported: ignored\n", name);
		return -1;
	}
	if (dt_address(dt, node, 0, &base, &size) || size < LOCAL_REGS_SIZE) {
		pr_err("bcm2836-l1: %s: reg must cover the 0x%x bytes of local registers\n", name,
		       LOCAL_REGS_SIZE);
		return -1;
	}
	l->core = (unsigned int)(boot_cpu_hwid & 3);
	l->base = (uintptr_t)ioremap(base, LOCAL_REGS_SIZE);
	if (!l->base) {
		pr_err("bcm2836-l1: %s: cannot map the registers\n", name);
		return -1;
	}
	/* Everything off, mailboxes empty, the GPU's interrupt to this core. */
	writel(0, l->base + LOCAL_TIMER_INT_CTL(l->core));
	writel(0, l->base + LOCAL_MBOX_INT_CTL(l->core));
	writel(1u << l->core, l->base + LOCAL_PM_ROUTING_CLR);
	for (unsigned int n = 0; n < 4; n++)
		writel(0xffffffffu, l->base + LOCAL_MBOX_CLR(l->core, n));
	writel(l->core, l->base + LOCAL_GPU_ROUTING);

	l->domain = irq_domain_add_linear(node, NR_HWIRQS, &bcm2836_chip, l, "bcm2836-l1");
	if (!l->domain) {
		iounmap((void *)l->base);
		l->base = 0;
		return -1;
	}
	l->domain->xlate = bcm2836_xlate;
	set_handle_irq(bcm2836_handle_irq);
	pr_info("bcm2836-l1: %s at 0x%llx, core %u, %u lines\n", name, (unsigned long long)base,
		l->core, NR_HWIRQS);
	return 0;
}

IRQCHIP_DECLARE(bcm2836_l1_intc, "brcm,bcm2836-l1-intc", bcm2836_intc_init);
