/*
 * irq-plic.c - the RISC-V Platform-Level Interrupt Controller ("sifive,plic-1.0.0",
 * "riscv,plic0"), chained under the boot hart's local interrupt controller.
 *
 * Sources 1..riscv,ndev (0 means "none").  The PLIC has one "context" per hart and privilege
 * level; ours is the entry of interrupts-extended (<phandle cause> pairs, one per context) whose
 * phandle is the boot hart's riscv,cpu-intc node and whose cause is 9, supervisor external.
 * Registers (PLIC spec 1.0.0), each 32 bits:
 *   priority of source s     base + 4*s                  (0 = never; we use 1 for all)
 *   enable bits of context c base + 0x2000 + 0x80*c      (bit s%32 of word s/32)
 *   threshold of context c   base + 0x200000 + 0x1000*c  (0: every priority > 0 gets through)
 *   claim/complete           threshold + 4               (read: claim the best pending source,
 *                                                         write: complete it)
 * Mask/unmask is the source's enable bit.  Everything starts disabled; request_irq() enables.
 * The handler (on the parent's hwirq 9) claims until the PLIC says 0, running each source's
 * handler and completing it.  A completion of a source that is disabled for our context is
 * ignored by the PLIC (spec: "silently ignored"), which would leave it claimed forever; so a
 * source masked by its handler or by "nobody cared" is enabled around its completion, as
 * Linux's plic_irq_eoi does.  A claimed id beyond ndev is the device's fault: completed,
 * reported once, never used as an index.
 * SMP (docs/smp.md): every device source is routed to the boot hart's context only (its enable
 * bits; v6.10 routes each source to one CPU of its affinity, the boot CPU unless told); each
 * other hart's supervisor context, found at init for every hart of /cpus, is set up when that
 * hart starts (plic_starting_cpu: nothing enabled, threshold 0) so a source can later be routed
 * there; its SEIE comes with the local controller's lines (arch/riscv/irq.c).
 * Portable C: readl/writel only; built for every board, the device tree decides.
 * Locking: enable bits change with interrupts masked (the core's rule), on the boot hart, and
 * only the boot hart claims; a starting hart writes its own context only.
 */
#include <string.h>
#include "tinymm/io.h"
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/printk.h"
#include "tinymm/smp.h"

#define PLIC_PRIORITY(s)	(4u * (s))
#define PLIC_ENABLE(c)		(0x2000u + 0x80u * (c))
#define PLIC_THRESHOLD(c)	(0x200000u + 0x1000u * (c))
#define PLIC_CLAIM(c)		(PLIC_THRESHOLD(c) + 4u)
#define PLIC_MAX_SOURCES	1023u
#define PLIC_MAX_CONTEXTS	15872u
#define S_EXTERNAL_CAUSE	9u

struct plic {
	uintptr_t base;
	uintptr_t enable;		/* our context's enable words */
	uintptr_t claim;		/* our context's claim/complete register */
	unsigned int ndev;
	unsigned int context;
	struct irq_domain *domain;
	bool bad_id_reported;
	/* Every hart's supervisor context: hart id, context (-1: none), for plic_starting_cpu. */
	unsigned int nr_harts;
	struct { unsigned long hartid; int context; } harts[NR_CPUS];
};

static struct plic plic;		/* one PLIC: the boot hart has one external interrupt line */

static bool plic_enabled(struct plic *p, unsigned int src)
{
	return readl(p->enable + 4 * (src / 32)) & (1u << (src % 32));
}

static void plic_toggle(struct plic *p, unsigned int src, bool on)
{
	uintptr_t reg = p->enable + 4 * (src / 32);
	uint32_t v = readl(reg);

	writel(on ? v | (1u << (src % 32)) : v & ~(1u << (src % 32)), reg);
}

static void plic_mask(struct irq_domain *d, unsigned int hwirq)
{
	struct plic *p = d->chip_data;

	if (hwirq >= 1 && hwirq <= p->ndev)
		plic_toggle(p, hwirq, false);
}

static void plic_unmask(struct irq_domain *d, unsigned int hwirq)
{
	struct plic *p = d->chip_data;

	if (hwirq >= 1 && hwirq <= p->ndev)
		plic_toggle(p, hwirq, true);
}

static const struct irq_chip plic_chip = {
	.name = "PLIC",
	.irq_mask = plic_mask,
	.irq_unmask = plic_unmask,
};

static int plic_xlate(struct irq_domain *d, const uint32_t *spec, int cells, unsigned int *hwirq,
		      unsigned int *type)
{
	struct plic *p = d->chip_data;

	if (cells != 1 || spec[0] == 0 || spec[0] > p->ndev)
		return -1;
	*hwirq = spec[0];
	*type = IRQ_TYPE_LEVEL_HIGH;
	return 0;
}

static void plic_complete(struct plic *p, unsigned int src)
{
	if (src <= p->ndev && !plic_enabled(p, src)) {
		plic_toggle(p, src, true);
		writel(src, p->claim);
		plic_toggle(p, src, false);
	} else {
		writel(src, p->claim);
	}
}

static irqreturn_t plic_handle(int irq, void *dev_id)
{
	struct plic *p = dev_id;
	unsigned int claimed = 0;

	(void)irq;
	/* Bounded: a device that never stops asserting costs one round, then the parent refires. */
	while (claimed <= p->ndev) {
		unsigned int src = readl(p->claim);
		if (!src)
			break;
		claimed++;
		if (src > p->ndev) {
			if (!p->bad_id_reported) {
				p->bad_id_reported = true;
				pr_err("plic: claimed source %u beyond riscv,ndev %u, completed and ignored\n",
				       src, p->ndev);
			}
			writel(src, p->claim);
			continue;
		}
		generic_handle_domain_irq(p->domain, src);
		plic_complete(p, src);
	}
	if (!claimed)
		irq_spurious();
	return IRQ_HANDLED;	/* the parent line is ours alone: never "nobody cared" */
}

/* The boot hart's riscv,cpu-intc node: under the /cpus child whose reg is the boot hart id
 * (the HiFive boots on any of harts 1-4; hart 0 is the E51, with no S-mode context). */
static int boot_hart_intc(const struct dt *dt)
{
	int cpu = dt_boot_cpu_node(dt, boot_cpu_hwid);

	for (int n = cpu >= 0 ? dt_first_child(dt, cpu) : -1; n >= 0; n = dt_next_sibling(dt, n))
		if (dt_is_compatible(dt, n, "riscv,cpu-intc"))
			return n;
	return -1;
}

/* The riscv,cpu-intc node under /cpus node @cpu, or -1. */
static int cpu_intc(const struct dt *dt, int cpu)
{
	for (int n = cpu >= 0 ? dt_first_child(dt, cpu) : -1; n >= 0; n = dt_next_sibling(dt, n))
		if (dt_is_compatible(dt, n, "riscv,cpu-intc"))
			return n;
	return -1;
}

/* Our context: the index of the <boot hart intc, 9> entry of interrupts-extended; -1 if none. */
static int find_context(const struct dt *dt, int node, int intc)
{
	int len, ctx = 0;
	const uint8_t *ie = dt_getprop(dt, node, "interrupts-extended", &len);

	for (int off = 0; ie && off + 8 <= len; ctx++) {
		int parent = dt_node_by_phandle(dt, dt_be32(ie + off));
		uint32_t cells = parent >= 0 ? dt_getprop_u32(dt, parent, "#interrupt-cells", 1) : 1;
		if (cells < 1 || cells > 4 || off + 4 + 4 * (int)cells > len)
			return -1;
		if (parent == intc && intc >= 0 && cells == 1 && dt_be32(ie + off + 4) == S_EXTERNAL_CAUSE)
			return ctx;
		off += 4 + 4 * (int)cells;
	}
	return -1;
}

/* Each /cpus hart's context (up to NR_CPUS of them), for the harts that start later. */
static void find_hart_contexts(const struct dt *dt, int node, struct plic *p, uint64_t size)
{
	int cpus = dt_path(dt, "/cpus", 5);

	for (int c = cpus >= 0 ? dt_first_child(dt, cpus) : -1; c >= 0 && p->nr_harts < NR_CPUS;
	     c = dt_next_sibling(dt, c)) {
		uint64_t hartid, unused;
		const char *type = dt_getprop_str(dt, c, "device_type");
		if (!type || strcmp(type, "cpu") || dt_reg(dt, c, 0, &hartid, &unused))
			continue;
		int ctx = find_context(dt, node, cpu_intc(dt, c));
		if (ctx >= 0 && ((unsigned int)ctx >= PLIC_MAX_CONTEXTS || (uint64_t)PLIC_CLAIM(ctx) + 4 > size))
			ctx = -1;
		p->harts[p->nr_harts].hartid = (unsigned long)hartid;
		p->harts[p->nr_harts++].context = ctx;
	}
}

bool plic_starting_cpu(unsigned long hartid);
bool plic_starting_cpu(unsigned long hartid)
{
	struct plic *p = &plic;

	for (unsigned int i = 0; p->domain && i < p->nr_harts; i++) {
		int ctx = p->harts[i].context;
		if (p->harts[i].hartid != hartid || ctx < 0)
			continue;
		for (unsigned int w = 0; w <= p->ndev / 32; w++)
			writel(0, p->base + PLIC_ENABLE(ctx) + 4 * w);
		writel(0, p->base + PLIC_THRESHOLD(ctx));
		return true;
	}
	return false;
}

static int plic_init(const struct dt *dt, int node)
{
	struct plic *p = &plic;
	uint64_t base, size;
	const char *name = dt_node_name(dt, node);

	if (p->domain) {
		pr_warn("plic: %s: only one PLIC is supported, ignored\n", name);
		return -1;
	}
	if (dt_address(dt, node, 0, &base, &size) || !size) {
		pr_err("plic: %s: no usable reg\n", name);
		return -1;
	}
	unsigned int ndev = dt_getprop_u32(dt, node, "riscv,ndev", 0);
	if (!ndev || ndev > PLIC_MAX_SOURCES) {
		pr_err("plic: %s: riscv,ndev %u out of range 1..%u\n", name, ndev, PLIC_MAX_SOURCES);
		return -1;
	}
	int intc = boot_hart_intc(dt);
	struct irq_domain *parent = intc >= 0 ? irq_find_host(intc) : NULL;
	if (!parent) {
		pr_err("plic: %s: the boot hart's riscv,cpu-intc is not registered\n", name);
		return -1;
	}
	int ctx = find_context(dt, node, intc);
	if (ctx < 0 || (unsigned int)ctx >= PLIC_MAX_CONTEXTS) {
		pr_err("plic: %s: no supervisor external context for the boot hart in "
		       "interrupts-extended\n", name);
		return -1;
	}
	if ((uint64_t)PLIC_CLAIM(ctx) + 4 > size || (uint64_t)PLIC_PRIORITY(ndev) + 4 > size) {
		pr_err("plic: %s: context %d lies beyond reg size 0x%llx\n", name, ctx,
		       (unsigned long long)size);
		return -1;
	}
	unsigned int parent_virq = irq_find_mapping(parent, S_EXTERNAL_CAUSE);
	if (!parent_virq) {
		pr_err("plic: %s: the parent has no hwirq %u\n", name, S_EXTERNAL_CAUSE);
		return -1;
	}

	p->base = (uintptr_t)ioremap(base, (size_t)size);
	if (!p->base) {
		pr_err("plic: %s: cannot map the registers\n", name);
		return -1;
	}
	p->enable = p->base + PLIC_ENABLE(ctx);
	p->claim = p->base + PLIC_CLAIM(ctx);
	p->ndev = ndev;
	p->context = (unsigned int)ctx;
	for (unsigned int w = 0; w <= ndev / 32; w++)
		writel(0, p->enable + 4 * w);
	for (unsigned int s = 1; s <= ndev; s++)
		writel(1, p->base + PLIC_PRIORITY(s));
	writel(0, p->base + PLIC_THRESHOLD(ctx));

	find_hart_contexts(dt, node, p, size);
	p->domain = irq_domain_add_linear(node, ndev + 1, &plic_chip, p, "PLIC");
	if (!p->domain)
		return -1;
	p->domain->xlate = plic_xlate;
	if (request_irq(parent_virq, plic_handle, 0, "PLIC", p)) {
		pr_err("plic: %s: cannot chain onto irq %u\n", name, parent_virq);
		return -1;
	}
	pr_info("plic: %s at 0x%llx, %u sources, context %d, chained to irq %u\n", name,
		(unsigned long long)base, ndev, ctx, parent_virq);
	return 0;
}

IRQCHIP_DECLARE(sifive_plic, "sifive,plic-1.0.0", plic_init);
IRQCHIP_DECLARE(riscv_plic0, "riscv,plic0", plic_init);
