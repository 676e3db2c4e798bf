/*
 * irq-gic.c - the ARM Generic Interrupt Controller v2 (GIC-400, Cortex-A15/A7 GIC), the root
 * interrupt controller of ARM boards: distributor (reg[0]) and CPU interface (reg[1]).
 *
 * Interrupt IDs (intids): 0-15 SGIs (software), 16-31 PPIs (per CPU: the timers), 32 up to
 * 32 * (GICD_TYPER.ITLinesNumber + 1) - 1 SPIs (devices); 1020-1023 are special (1023: nothing
 * pending).  The irq_domain's hwirq is the intid itself.  Device-tree specifiers have 3 cells:
 * <0 n flags> is SPI n (intid 32 + n), <1 n flags> PPI n (intid 16 + n); flags bits 0-3 the
 * trigger (1 edge rising, 4 level high; the GIC has no falling edge or level low), bits 8-15 a
 * PPI's CPU mask.
 *
 * Bring-up leaves every line disabled (request_irq() unmasks through the chip), every SPI at
 * priority 0xa0, routed to CPU 0 and level-sensitive; GICC_PMR 0xf0 lets priority 0xa0 through.
 * An interrupt is acknowledged by reading GICC_IAR, handled, then ended by writing the same
 * value to GICC_EOIR (priority drop and deactivation together: GICC_CTLR.EOImode 0).
 * The controller is trusted no more than a device: an intid outside its own lines is ended and
 * reported once, never used as an index.
 * Portable C (readl/writel only): the driver is linked into every board and picked by the
 * device tree.
 *
 * SMP (docs/smp.md): SGIs 0 .. NR_IPI-1 are the kernel's IPIs (enum ipi_msg_type, as v6.10's
 * arm uses SGIs 0-7) and go to handle_IPI() instead of the domain; the other SGIs stay lines.
 * SGI and PPI enables and priorities are banked per CPU: each CPU's interface is set up by
 * gic_cpu_init() on that CPU (the boot CPU's at probe, the others' from irq_secondary_init()),
 * and a PPI unmasked on the boot CPU (the timer's) is remembered in ppi_enabled and unmasked on
 * every CPU that comes up later, as v6.10's enable_percpu_irq() would be by each CPU.  A CPU's
 * bit in GICD_SGIR's target list is read from its banked GICD_ITARGETSR0, not assumed from its
 * MPIDR (v6.10's gic_get_cpumask).  SPIs stay routed to CPU 0.
 * Locking: read-modify-write of a distributor register is done with interrupts masked under
 * gic_lock (the SPI configuration registers are shared by all CPUs).
 */
#include "tinymm/io.h"
#include "tinymm/arch.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/irq-gic.h"
#include "tinymm/irqflags.h"
#include "tinymm/printk.h"
#include "tinymm/smp.h"
#include "tinymm/spinlock.h"

/* Distributor (GICv2 architecture specification, 4.3). */
#define GICD_CTLR		0x000
#define GICD_TYPER		0x004
#define GICD_ISENABLER(n)	(0x100 + 4 * (n))
#define GICD_ICENABLER(n)	(0x180 + 4 * (n))
#define GICD_ISPENDR(n)		(0x200 + 4 * (n))
#define GICD_ICPENDR(n)		(0x280 + 4 * (n))
#define GICD_ICACTIVER(n)	(0x380 + 4 * (n))
#define GICD_IPRIORITYR(n)	(0x400 + 4 * (n))	/* 4 intids per word */
#define GICD_ITARGETSR(n)	(0x800 + 4 * (n))	/* 4 intids per word */
#define GICD_ICFGR(n)		(0xc00 + 4 * (n))	/* 16 intids per word, 2 bits each */
#define GICD_SGIR		0xf00

#define GICD_CTLR_ENABLE	1u
#define GICD_TYPER_ITLINES	0x1fu
#define GICD_SGIR_TO_SELF	(2u << 24)	/* TargetListFilter: only the requesting CPU */

/* CPU interface (4.4). */
#define GICC_CTLR		0x00
#define GICC_PMR		0x04
#define GICC_BPR		0x08
#define GICC_IAR		0x0c
#define GICC_EOIR		0x10

#define GICC_CTLR_ENABLE	1u
#define GICC_IAR_INTID		0x3ffu

#define GIC_NR_SGI		16
#define GIC_FIRST_SPI		32
#define GIC_MAX_LINES		1020	/* intids 1020-1023 are special */
#define GIC_SPURIOUS_FIRST	1020
#define GIC_DEFAULT_PRIO	0xa0a0a0a0u
#define GIC_PMR			0xf0
#define GIC_TARGET_CPU0		0x01010101u

struct gic {
	uintptr_t dist, cpu;
	unsigned int nr_lines;
	struct irq_domain *domain;
	bool bad_intid_reported;
	unsigned long bad_intids;
	uint32_t ppi_enabled;		/* PPIs unmasked (on the boot CPU): every CPU unmasks them */
	uint8_t cpu_map[NR_CPUS];	/* logical CPU -> its bit in GICD_SGIR's target list */
};

static DEFINE_SPINLOCK(gic_lock);

static struct gic gic_data;
static struct gic *gic_root;

static void gic_mask(struct irq_domain *d, unsigned int hwirq)
{
	struct gic *g = d->chip_data;

	if (hwirq >= g->nr_lines)
		return;
	if (hwirq >= GIC_NR_SGI && hwirq < GIC_FIRST_SPI)
		__atomic_fetch_and(&g->ppi_enabled, ~(1u << hwirq), __ATOMIC_RELAXED);
	writel(1u << (hwirq % 32), g->dist + GICD_ICENABLER(hwirq / 32));
}

static void gic_unmask(struct irq_domain *d, unsigned int hwirq)
{
	struct gic *g = d->chip_data;

	if (hwirq >= g->nr_lines)
		return;
	if (hwirq >= GIC_NR_SGI && hwirq < GIC_FIRST_SPI)
		__atomic_fetch_or(&g->ppi_enabled, 1u << hwirq, __ATOMIC_RELAXED);
	writel(1u << (hwirq % 32), g->dist + GICD_ISENABLER(hwirq / 32));
}

/*
 * Only SPIs are configurable: SGIs are always edge, PPIs' configuration is fixed by the
 * implementation (the timers' are level), so both accept whatever the device tree says.
 * GICv2 leaves a configuration change of an enabled line UNPREDICTABLE: disable it around.
 */
static int gic_set_type(struct irq_domain *d, unsigned int hwirq, unsigned int type)
{
	struct gic *g = d->chip_data;
	unsigned long flags;
	uint32_t edge, cfg;
	uintptr_t reg;

	if (hwirq >= g->nr_lines)
		return -1;
	if (type == IRQ_TYPE_NONE || hwirq < GIC_FIRST_SPI)
		return 0;
	if (type != IRQ_TYPE_EDGE_RISING && type != IRQ_TYPE_LEVEL_HIGH)
		return -1;

	edge = 2u << (2 * (hwirq % 16));	/* Int_config[1]: 1 edge, 0 level */
	reg = g->dist + GICD_ICFGR(hwirq / 16);
	spin_lock_irqsave(&gic_lock, flags);
	bool enabled = readl(g->dist + GICD_ISENABLER(hwirq / 32)) & (1u << (hwirq % 32));
	if (enabled)
		writel(1u << (hwirq % 32), g->dist + GICD_ICENABLER(hwirq / 32));
	cfg = readl(reg);
	cfg = type == IRQ_TYPE_EDGE_RISING ? cfg | edge : cfg & ~edge;
	writel(cfg, reg);
	if (enabled)
		writel(1u << (hwirq % 32), g->dist + GICD_ISENABLER(hwirq / 32));
	spin_unlock_irqrestore(&gic_lock, flags);
	return 0;
}

/* Pending by software (irq_set_irqchip_state): GICD_ISPENDR / GICD_ICPENDR; an SGI is sent to
 * this CPU instead (its ISPENDR bits are read-only), and has nothing to drop once taken. */
static int gic_set_state(struct irq_domain *d, unsigned int hwirq, enum irqchip_irq_state which,
			 bool state)
{
	struct gic *g = d->chip_data;

	if (which != IRQCHIP_STATE_PENDING || hwirq >= g->nr_lines)
		return -1;
	if (hwirq < GIC_NR_SGI) {
		if (state)
			writel(GICD_SGIR_TO_SELF | hwirq, g->dist + GICD_SGIR);
		return 0;
	}
	writel(1u << (hwirq % 32), g->dist + (state ? GICD_ISPENDR(hwirq / 32) : GICD_ICPENDR(hwirq / 32)));
	return 0;
}

static const struct irq_chip gic_chip = {
	.name = "GICv2",
	.irq_mask = gic_mask,
	.irq_unmask = gic_unmask,
	.irq_set_type = gic_set_type,
	.irq_set_irqchip_state = gic_set_state,
};

static int gic_xlate(struct irq_domain *d, const uint32_t *spec, int cells, unsigned int *hwirq,
		     unsigned int *type)
{
	struct gic *g = d->chip_data;
	uint32_t kind, nr, flags, hw;

	if (cells < 3)
		return -1;
	kind = spec[0];
	nr = spec[1];
	flags = spec[2] & 0xf;
	if (kind == 0) {			/* SPI */
		if (nr >= g->nr_lines - GIC_FIRST_SPI)
			return -1;
		hw = GIC_FIRST_SPI + nr;
		if (flags != IRQ_TYPE_EDGE_RISING && flags != IRQ_TYPE_LEVEL_HIGH &&
		    flags != IRQ_TYPE_NONE)
			return -1;		/* falling edge / level low: not on a GIC */
	} else if (kind == 1) {			/* PPI */
		if (nr >= GIC_FIRST_SPI - GIC_NR_SGI)
			return -1;
		hw = GIC_NR_SGI + nr;
		/* Fixed in the hardware whatever the tree says (old trees say level low). */
		if (flags & 3)
			flags = IRQ_TYPE_EDGE_RISING;
		else if (flags & 0xc)
			flags = IRQ_TYPE_LEVEL_HIGH;
	} else {
		return -1;
	}
	*hwirq = hw;
	*type = flags;
	return 0;
}

/* The root handler (set_handle_irq): every interrupt the CPU interface has for us. */
static void gic_handle_irq(void)
{
	struct gic *g = gic_root;
	bool handled = false;

	for (;;) {
		uint32_t iar = readl(g->cpu + GICC_IAR);
		unsigned int intid = iar & GICC_IAR_INTID;

		if (intid >= GIC_SPURIOUS_FIRST) {
			if (!handled)
				irq_spurious();
			return;
		}
		if (intid < NR_IPI) {
			/* v6.10 ends an SGI before handling it (a CPU_STOP never returns), and reads
			 * what the sender wrote only after the acknowledge. */
			writel(iar, g->cpu + GICC_EOIR);
			smp_rmb();
			handle_IPI(intid);
			handled = true;
			continue;
		}
		if (unlikely(intid >= g->nr_lines)) {
			g->bad_intids++;
			writel(iar, g->cpu + GICC_EOIR);
			if (!g->bad_intid_reported) {
				g->bad_intid_reported = true;
				pr_err("GICv2: acknowledged intid %u, beyond its %u lines: ended and ignored\n",
				       intid, g->nr_lines);
			}
			handled = true;
			continue;
		}
		generic_handle_domain_irq(g->domain, intid);
		writel(iar, g->cpu + GICC_EOIR);
		handled = true;
	}
}

static void gic_cpu_init(struct gic *g);

/* arch_send_ipi_mask() on a GIC: one GICD_SGIR write names every target. */
static void gic_ipi_send_mask(const struct cpumask *mask, unsigned int ipi)
{
	struct gic *g = gic_root;
	unsigned int cpu, targets = 0;

	for_each_cpu(cpu, mask)
		targets |= g->cpu_map[cpu];
	/* The csd (or whatever the IPI announces) before the SGI: v6.10's dmb(ishst). */
	smp_wmb();
	writel((targets << 16) | ipi, g->dist + GICD_SGIR);
}

static void gic_secondary_init(void)
{
	gic_cpu_init(gic_root);
}

static const struct irq_ipi_ops gic_ipi_ops = {
	.send = gic_ipi_send_mask,
	.cpu_init = gic_secondary_init,
};

int gic_set_pending(unsigned int hwirq)
{
	struct gic *g = gic_root;

	return g ? gic_set_state(g->domain, hwirq, IRQCHIP_STATE_PENDING, true) : -1;
}

static void gic_dist_init(struct gic *g)
{
	unsigned int n = g->nr_lines;

	writel(0, g->dist + GICD_CTLR);
	for (unsigned int i = 0; i < (n + 31) / 32; i++) {
		writel(0xffffffffu, g->dist + GICD_ICENABLER(i));
		writel(0xffffffffu, g->dist + GICD_ICPENDR(i));
		writel(0xffffffffu, g->dist + GICD_ICACTIVER(i));
	}
	for (unsigned int i = 0; i < (n + 3) / 4; i++)
		writel(GIC_DEFAULT_PRIO, g->dist + GICD_IPRIORITYR(i));
	/* SPIs: to CPU 0 (ITARGETSR 0-7, the SGIs' and PPIs', are read-only), level-sensitive. */
	for (unsigned int i = GIC_FIRST_SPI / 4; i < (n + 3) / 4; i++)
		writel(GIC_TARGET_CPU0, g->dist + GICD_ITARGETSR(i));
	for (unsigned int i = GIC_FIRST_SPI / 16; i < (n + 15) / 16; i++)
		writel(0, g->dist + GICD_ICFGR(i));
	writel(GICD_CTLR_ENABLE, g->dist + GICD_CTLR);
}

/* This CPU's interface and its banked SGI/PPI registers. */
static void gic_cpu_init(struct gic *g)
{
	unsigned int cpu = smp_processor_id();
	uint32_t mask = readl(g->dist + GICD_ITARGETSR(0)) & 0xff;	/* our own bit, banked */

	/* A uniprocessor GIC may read 0 here (the specification allows it): CPU interface 0. */
	g->cpu_map[cpu] = mask ? (uint8_t)mask : 1;
	for (unsigned int i = 0; i < GIC_FIRST_SPI / 4; i++)
		writel(GIC_DEFAULT_PRIO, g->dist + GICD_IPRIORITYR(i));
	writel(((1u << NR_IPI) - 1) | READ_ONCE(g->ppi_enabled), g->dist + GICD_ISENABLER(0));
	writel(GIC_PMR, g->cpu + GICC_PMR);
	writel(0, g->cpu + GICC_BPR);
	writel(GICC_CTLR_ENABLE, g->cpu + GICC_CTLR);
}

static int gic_of_init(const struct dt *dt, int node)
{
	struct gic *g = &gic_data;
	uint64_t dist, cpu, dsize, csize;

	if (gic_root) {
		pr_err("GICv2: a second GIC (node %s) is not supported: ignored\n",
		       dt_node_name(dt, node));
		return -1;
	}
	if (dt_address(dt, node, 0, &dist, &dsize) || dt_address(dt, node, 1, &cpu, &csize)) {
		pr_err("GICv2: %s: reg must name the distributor and the CPU interface\n",
		       dt_node_name(dt, node));
		return -1;
	}
	g->dist = (uintptr_t)ioremap(dist, (size_t)dsize);
	g->cpu = (uintptr_t)ioremap(cpu, (size_t)csize);
	if (!g->dist || !g->cpu) {
		pr_err("GICv2: %s: cannot map the registers\n", dt_node_name(dt, node));
		if (g->dist)
			iounmap((void *)g->dist);
		if (g->cpu)
			iounmap((void *)g->cpu);
		g->dist = g->cpu = 0;
		return -1;
	}
	g->nr_lines = 32 * ((readl(g->dist + GICD_TYPER) & GICD_TYPER_ITLINES) + 1);
	if (g->nr_lines > GIC_MAX_LINES)
		g->nr_lines = GIC_MAX_LINES;

	gic_dist_init(g);
	gic_cpu_init(g);
	g->domain = irq_domain_add_linear(node, g->nr_lines, &gic_chip, g, "GICv2");
	if (!g->domain) {
		writel(0, g->cpu + GICC_CTLR);
		writel(0, g->dist + GICD_CTLR);
		pr_err("GICv2: no room for an irq domain of %u lines\n", g->nr_lines);
		return -1;
	}
	g->domain->xlate = gic_xlate;
	gic_root = g;
	set_handle_irq(gic_handle_irq);
	set_irq_ipi_ops(&gic_ipi_ops);
	pr_info("GICv2: %u lines, distributor %#lx, CPU interface %#lx\n", g->nr_lines,
		(unsigned long)g->dist, (unsigned long)g->cpu);
	return 0;
}

IRQCHIP_DECLARE(gic400, "arm,gic-400", gic_of_init);
IRQCHIP_DECLARE(cortex_a15_gic, "arm,cortex-a15-gic", gic_of_init);
