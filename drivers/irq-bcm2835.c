/*
 * irq-bcm2835.c - the BCM2835 "ARM control" interrupt controller ("brcm,bcm2836-armctrl-ic" on
 * the Raspberry Pi 2), the one that carries the VideoCore's peripheral interrupts (UART, SD
 * host, DMA...) to the ARM.  On the BCM2836 it is not the root: its output is the GPU line,
 * hwirq 8, of the per-core controller (irq-bcm2836.c), and its handler is chained there.
 *
 * Three banks; hwirq = 32 x bank + bit, the device tree's <bank bit>: bank 0 the 8 "basic" ARM
 * interrupts (ARM timer, mailbox, doorbells...), banks 1 and 2 the 64 GPU interrupts (the
 * PL011 is <2 25>).  Registers (BCM2835 ARM Peripherals, 7.5):
 *   0x00 basic pending (bits 0-7 bank 0; 8, 9 "something in bank 1 / 2"; 10-20 shortcuts for
 *        some GPU lines), 0x04 / 0x08 pending 1 / 2,
 *   0x10 / 0x14 / 0x18 enable 1 / 2 / basic, 0x1c / 0x20 / 0x24 disable 1 / 2 / basic
 *   (write-one-to-set and write-one-to-clear: no read-modify-write).
 * The handler reads all three pending registers and runs every enabled line that is set,
 * rather than following basic pending's summary and shortcut bits (Linux's way, to save a
 * read): the summary bits leave out the lines that have shortcuts, and the PL011 is one.
 * The enable registers read back nothing useful, so the enabled set is kept here, and a line
 * that shows pending while disabled is left alone.
 * Locking: enable state changes with interrupts masked (the core's rule), one CPU.
 */
#include "tinymm/io.h"
#include "tinymm/arch.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/printk.h"

#define ARMCTRL_REGS_SIZE	0x28
#define NR_BANKS		3
#define BANK0_LINES		8

static const unsigned int reg_pending[NR_BANKS] = { 0x00, 0x04, 0x08 };
static const unsigned int reg_enable[NR_BANKS] = { 0x18, 0x10, 0x14 };
static const unsigned int reg_disable[NR_BANKS] = { 0x24, 0x1c, 0x20 };

static struct armctrl {
	uintptr_t base;
	uint32_t enabled[NR_BANKS];
	struct irq_domain *domain;
} armctrl;

static void armctrl_mask(struct irq_domain *d, unsigned int hwirq)
{
	struct armctrl *a = d->chip_data;

	writel(1u << (hwirq % 32), a->base + reg_disable[hwirq / 32]);
	a->enabled[hwirq / 32] &= ~(1u << (hwirq % 32));
}

static void armctrl_unmask(struct irq_domain *d, unsigned int hwirq)
{
	struct armctrl *a = d->chip_data;

	a->enabled[hwirq / 32] |= 1u << (hwirq % 32);
	writel(1u << (hwirq % 32), a->base + reg_enable[hwirq / 32]);
}

static const struct irq_chip armctrl_chip = {
	.name = "bcm2835-armctrl",
	.irq_mask = armctrl_mask,
	.irq_unmask = armctrl_unmask,
};

/* <bank bit>: bank 0 has 8 lines, banks 1 and 2 have 32; all level-sensitive. */
static int armctrl_xlate(struct irq_domain *d, const uint32_t *spec, int cells, unsigned int *hwirq,
			 unsigned int *type)
{
	(void)d;
	if (cells != 2 || spec[0] >= NR_BANKS || spec[1] >= (spec[0] ? 32u : BANK0_LINES))
		return -1;
	*hwirq = 32 * spec[0] + spec[1];
	*type = IRQ_TYPE_LEVEL_HIGH;
	return 0;
}

/* Chained on the per-core controller's GPU line. */
static irqreturn_t armctrl_handle(int irq, void *dev_id)
{
	struct armctrl *a = dev_id;
	bool any = false;

	(void)irq;
	for (unsigned int bank = 0; bank < NR_BANKS; bank++) {
		uint32_t stat = readl(a->base + reg_pending[bank]) & a->enabled[bank];

		if (bank == 0)
			stat &= (1u << BANK0_LINES) - 1;
		while (stat) {
			unsigned int bit = (unsigned int)__builtin_ctz(stat);

			stat &= stat - 1;
			generic_handle_domain_irq(a->domain, 32 * bank + bit);
			any = true;
		}
	}
	if (!any)
		irq_spurious();
	return IRQ_HANDLED;	/* the GPU line is ours alone: never "nobody cared" on it */
}

static int armctrl_init(const struct dt *dt, int node)
{
	struct armctrl *a = &armctrl;
	uint64_t base, size;
	const char *name = dt_node_name(dt, node);

	if (a->domain) {
		pr_err("bcm2835-armctrl: %s: a second controller is not supported: ignored\n", name);
		return -1;
	}
	if (dt_address(dt, node, 0, &base, &size) || size < ARMCTRL_REGS_SIZE) {
		pr_err("bcm2835-armctrl: %s: reg must cover the 0x%x bytes of registers\n", name,
		       ARMCTRL_REGS_SIZE);
		return -1;
	}
	unsigned int parent_virq = irq_of_parse_and_map(dt, node, 0);
	if (!parent_virq) {
		pr_err("bcm2835-armctrl: %s: no usable interrupt on its parent\n", name);
		return -1;
	}
	a->base = (uintptr_t)ioremap(base, ARMCTRL_REGS_SIZE);
	if (!a->base) {
		pr_err("bcm2835-armctrl: %s: cannot map the registers\n", name);
		return -1;
	}
	for (unsigned int bank = 0; bank < NR_BANKS; bank++)
		writel(0xffffffffu, a->base + reg_disable[bank]);
	a->domain = irq_domain_add_linear(node, 32 * NR_BANKS, &armctrl_chip, a, "bcm2835-armctrl");
	if (!a->domain)
		goto unmap;
	a->domain->xlate = armctrl_xlate;
	if (request_irq(parent_virq, armctrl_handle, 0, "bcm2835-armctrl", a)) {
		pr_err("bcm2835-armctrl: %s: cannot chain onto irq %u\n", name, parent_virq);
		goto unmap;	/* the domain stays registered, every line masked: harmless */
	}
	pr_info("bcm2835-armctrl: %s at 0x%llx, 72 lines, chained to irq %u\n", name,
		(unsigned long long)base, parent_virq);
	return 0;
unmap:
	iounmap((void *)a->base);
	a->base = 0;
	return -1;
}

IRQCHIP_DECLARE(bcm2836_armctrl, "brcm,bcm2836-armctrl-ic", armctrl_init);
IRQCHIP_DECLARE(bcm2835_armctrl, "brcm,bcm2835-armctrl-ic", armctrl_init);
