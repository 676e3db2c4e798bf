/*
 * irq.c - interrupt descriptors, domains and the handler entry (see include/tinymm/irq.h).
 *
 * Invariants:
 *   - virq 0 is never a line; domains own disjoint virq ranges handed out in registration order.
 *   - a descriptor with no handler is masked at its controller; the first time such a line fires
 *     it is masked again and reported, never twice (desc->reported), so a stuck level line costs
 *     one interrupt.
 *   - counts only grow; each CPU counts its own interrupts (desc->count[cpu], v6.10's
 *     kstat_irqs per CPU), so `irqs` has one column per online CPU as /proc/interrupts, then
 *     the IPI rows (kernel/smp.c counts those).
 * Locking: descriptors change under irq_desc_lock with interrupts masked; handlers run with
 *   interrupts masked.  A handler may run on another CPU while a descriptor changes:
 *   free_irq() and disable_irq() wait until it has returned (running_on, v6.10's
 *   synchronize_irq()), so its dev_id may be freed afterwards.  Device lines (SPIs, PLIC
 *   sources) are delivered to the boot CPU only; other CPUs take their own per-CPU lines
 *   (timer PPIs) and IPIs.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/irqflags.h"
#include "tinymm/preempt.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"
#include "tinymm/smp.h"
#include "tinymm/spinlock.h"

struct irq_desc {
	struct irq_domain *domain;
	unsigned int hwirq;
	irq_handler_t handler;
	void *dev_id;
	const char *name;
	unsigned int type;
	unsigned long count[NR_CPUS];
	bool masked;
	volatile int running_on;	/* the CPU in its handler now, -1: none (synchronize_irq) */
	bool reported;			/* "nobody cared" printed already */
	unsigned int none_streak;	/* IRQ_NONE returns in a row */
};

#define IRQ_NONE_LIMIT	10000

#define MAX_DOMAINS	8

static struct irq_desc irq_desc[NR_IRQS] = { [0 ... NR_IRQS - 1] = { .running_on = -1 } };
/* Every desc's handler, dev_id, name and mask state (v6.10 has a lock per desc). */
static DEFINE_SPINLOCK(irq_desc_lock);
static struct irq_domain domains[MAX_DOMAINS];
static int nr_domains;
static unsigned int next_virq = 1;
static unsigned long spurious, unhandled;
static void (*root_handler)(void);
static const struct irq_ipi_ops *ipi_ops;

struct irq_domain *irq_domain_add_linear(int of_node, unsigned int size, const struct irq_chip *chip,
					 void *chip_data, const char *name)
{
	if (nr_domains == MAX_DOMAINS || size > NR_IRQS - next_virq) {
		pr_err("irq: no room for domain %s (%u lines)\n", name, size);
		return NULL;
	}
	struct irq_domain *d = &domains[nr_domains++];
	*d = (struct irq_domain){ .name = name, .chip = chip, .chip_data = chip_data,
				  .of_node = of_node, .virq_base = next_virq, .size = size };
	for (unsigned int i = 0; i < size; i++) {
		irq_desc[next_virq + i].domain = d;
		irq_desc[next_virq + i].hwirq = i;
		irq_desc[next_virq + i].masked = true;
	}
	next_virq += size;
	return d;
}

struct irq_domain *irq_find_host(int of_node)
{
	for (int i = 0; i < nr_domains; i++)
		if (domains[i].of_node == of_node)
			return &domains[i];
	return NULL;
}

unsigned int irq_find_mapping(struct irq_domain *d, unsigned int hwirq)
{
	return d && hwirq < d->size ? d->virq_base + hwirq : 0;
}

static struct irq_desc *desc_of(unsigned int irq)
{
	return irq && irq < next_virq ? &irq_desc[irq] : NULL;
}

static void desc_mask(struct irq_desc *desc)
{
	desc->masked = true;
	if (desc->domain->chip->irq_mask)
		desc->domain->chip->irq_mask(desc->domain, desc->hwirq);
}

static void desc_unmask(struct irq_desc *desc)
{
	desc->masked = false;
	if (desc->domain->chip->irq_unmask)
		desc->domain->chip->irq_unmask(desc->domain, desc->hwirq);
}

/* The interrupt parent of @node: its own interrupt-parent, else the nearest ancestor's. */
static int interrupt_parent(const struct dt *dt, int node)
{
	for (int n = node; n >= 0; n = dt_parent(dt, n)) {
		uint32_t ph = dt_getprop_u32(dt, n, "interrupt-parent", 0);
		if (ph)
			return dt_node_by_phandle(dt, ph);
	}
	return -1;
}

unsigned int irq_of_parse_and_map(const struct dt *dt, int node, int index)
{
	const uint32_t *spec;
	uint32_t cells[4];
	int len, parent, ncells;
	struct irq_domain *d;

	const void *ext = dt_getprop(dt, node, "interrupts-extended", &len);
	if (ext) {		/* <phandle spec...> per interrupt, spec length from each parent */
		int off = 0;
		for (int i = 0; off + 4 <= len; i++) {
			parent = dt_node_by_phandle(dt, dt_be32((const char *)ext + off));
			ncells = parent >= 0 ? (int)dt_getprop_u32(dt, parent, "#interrupt-cells", 0) : 0;
			if (ncells <= 0 || ncells > 4 || off + 4 + ncells * 4 > len)
				return 0;
			if (i == index) {
				spec = (const uint32_t *)((const char *)ext + off + 4);
				goto found;
			}
			off += 4 + ncells * 4;
		}
		return 0;
	}
	parent = interrupt_parent(dt, node);
	spec = dt_getprop(dt, node, "interrupts", &len);
	ncells = parent >= 0 ? (int)dt_getprop_u32(dt, parent, "#interrupt-cells", 0) : 0;
	if (!spec || ncells <= 0 || ncells > 4 || (index + 1) * ncells * 4 > len)
		return 0;
	spec = (const uint32_t *)((const char *)spec + index * ncells * 4);
found:
	for (int i = 0; i < ncells; i++)
		cells[i] = dt_be32(&spec[i]);
	d = irq_find_host(parent);
	unsigned int hwirq, type = IRQ_TYPE_NONE;
	if (!d || !d->xlate || d->xlate(d, cells, ncells, &hwirq, &type))
		return 0;
	unsigned int virq = irq_find_mapping(d, hwirq);
	if (virq && type != IRQ_TYPE_NONE)
		irq_set_irq_type(virq, type);
	return virq;
}

int irq_set_irq_type(unsigned int irq, unsigned int type)
{
	struct irq_desc *desc = desc_of(irq);

	if (!desc)
		return -1;
	desc->type = type;
	if (desc->domain->chip->irq_set_type)
		return desc->domain->chip->irq_set_type(desc->domain, desc->hwirq, type);
	return 0;
}

int irq_set_irqchip_state(unsigned int irq, enum irqchip_irq_state which, bool state)
{
	struct irq_desc *desc = desc_of(irq);

	if (!desc || !desc->domain->chip->irq_set_irqchip_state)
		return -1;
	return desc->domain->chip->irq_set_irqchip_state(desc->domain, desc->hwirq, which, state);
}

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name,
		void *dev_id)
{
	struct irq_desc *desc = desc_of(irq);
	unsigned long f;

	(void)flags;
	if (!desc || !handler)
		return -1;
	spin_lock_irqsave(&irq_desc_lock, f);
	if (desc->handler) {
		spin_unlock_irqrestore(&irq_desc_lock, f);
		pr_err("irq %u: already requested by %s, refused for %s\n", irq, desc->name, name);
		return -1;
	}
	desc->handler = handler;
	desc->dev_id = dev_id;
	desc->name = name;
	desc->reported = false;
	desc_unmask(desc);
	spin_unlock_irqrestore(&irq_desc_lock, f);
	return 0;
}

/* Wait until no CPU is in @irq's handler (v6.10's synchronize_irq); not from that handler. */
static void synchronize_irq_desc(struct irq_desc *desc)
{
	smp_mb();	/* the handler cleared or the line masked before looking */
	while (READ_ONCE(desc->running_on) >= 0 &&
	       READ_ONCE(desc->running_on) != raw_smp_processor_id())
		cpu_relax();
}

void free_irq(unsigned int irq, void *dev_id)
{
	struct irq_desc *desc = desc_of(irq);
	unsigned long f;

	if (!desc)
		return;
	spin_lock_irqsave(&irq_desc_lock, f);
	if (desc->handler && desc->dev_id == dev_id) {
		desc_mask(desc);
		WRITE_ONCE(desc->handler, NULL);
		desc->name = NULL;
	}
	spin_unlock_irqrestore(&irq_desc_lock, f);
	synchronize_irq_desc(desc);	/* @dev_id may be freed when we return */
}

void enable_irq(unsigned int irq)
{
	struct irq_desc *desc = desc_of(irq);
	unsigned long f;

	if (!desc)
		return;
	spin_lock_irqsave(&irq_desc_lock, f);
	desc_unmask(desc);
	spin_unlock_irqrestore(&irq_desc_lock, f);
}

void disable_irq(unsigned int irq)
{
	struct irq_desc *desc = desc_of(irq);
	unsigned long f;

	if (!desc)
		return;
	spin_lock_irqsave(&irq_desc_lock, f);
	desc_mask(desc);
	spin_unlock_irqrestore(&irq_desc_lock, f);
	synchronize_irq_desc(desc);	/* as v6.10's disable_irq() */
}

void set_handle_irq(void (*handler)(void))
{
	root_handler = handler;
}

void handle_arch_irq(void)
{
	if (root_handler)
		root_handler();
	else
		spurious++;
}

int generic_handle_domain_irq(struct irq_domain *d, unsigned int hwirq)
{
	unsigned int virq = irq_find_mapping(d, hwirq);
	struct irq_desc *desc = desc_of(virq);

	if (!desc)
		return -1;
	int cpu = raw_smp_processor_id();
	desc->count[cpu]++;
	/* In the handler from here (free_irq() waits for that), then look at the handler. */
	WRITE_ONCE(desc->running_on, cpu);
	smp_mb();
	irq_handler_t handler = READ_ONCE(desc->handler);
	if (likely(handler)) {
		irqreturn_t ret = handler((int)virq, desc->dev_id);
		smp_store_release(&desc->running_on, -1);
		if (likely(ret == IRQ_HANDLED)) {
			desc->none_streak = 0;
			return 0;
		}
		/* The handler says its device did not interrupt.  Now and then is normal (a shared
		 * or racing line); every time for a long run is a stuck line: mask it, as Linux's
		 * note_interrupt() does after 99,900 of 100,000. */
		if (++desc->none_streak < IRQ_NONE_LIMIT)
			return 0;
		unhandled++;
		desc_mask(desc);
		if (!desc->reported) {
			desc->reported = true;
			pr_err("irq %u: nobody cared (%s returned IRQ_NONE %u times in a row), disabled\n",
			       virq, desc->name, IRQ_NONE_LIMIT);
		}
		return 0;
	}
	smp_store_release(&desc->running_on, -1);
	/* Nobody asked for this line: mask it so a level interrupt cannot storm, and say so once. */
	unhandled++;
	desc_mask(desc);
	if (!desc->reported) {
		desc->reported = true;
		pr_err("irq %u: nobody cared (%s hwirq %u has no handler), disabled\n", virq,
		       d->name, hwirq);
	}
	return 0;
}

void irq_spurious(void)
{
	spurious++;
}

void irq_enter(void)
{
	__preempt_count += HARDIRQ_OFFSET;
	barrier();
}

void irq_exit(void)
{
	barrier();
	__preempt_count -= HARDIRQ_OFFSET;
	if (!__preempt_count && __need_resched)
		preempt_schedule_irq();
}

unsigned long kstat_irqs_cpu(unsigned int irq, unsigned int cpu)
{
	struct irq_desc *desc = desc_of(irq);

	return desc && cpu < NR_CPUS ? READ_ONCE(desc->count[cpu]) : 0;
}

unsigned long kstat_irqs(unsigned int irq)
{
	unsigned long sum = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += kstat_irqs_cpu(irq, cpu);
	return sum;
}

void set_irq_ipi_ops(const struct irq_ipi_ops *ops)
{
	ipi_ops = ops;
}

void irq_secondary_init(void)
{
	if (ipi_ops && ipi_ops->cpu_init)
		ipi_ops->cpu_init();
}

int irq_send_ipi(const struct cpumask *mask, unsigned int ipi)
{
	if (!ipi_ops || !ipi_ops->send)
		return -1;
	ipi_ops->send(mask, ipi);
	return 0;
}

unsigned long irq_spurious_count(void)
{
	return spurious;
}

unsigned long irq_unhandled_count(void)
{
	return unhandled;
}

bool irq_is_masked(unsigned int irq)
{
	struct irq_desc *desc = desc_of(irq);

	return !desc || desc->masked;
}

/* Controllers in device-tree order, each after the controller it hangs off: one whose interrupt
 * parent is not registered yet waits for a later round.  A controller whose init failed is
 * remembered by node, so it is neither retried nor reported twice. */
void irq_init(const struct dt *dt)
{
	int failed[8], nr_failed = 0;
	bool progress = true;

	arch_irq_init(dt);
	while (progress) {
		progress = false;
		for (int node = 0; node >= 0; node = dt_next_node(dt, node, NULL)) {
			if (!dt_getprop(dt, node, "interrupt-controller", NULL) || irq_find_host(node))
				continue;
			bool gave_up = false;
			for (int i = 0; i < nr_failed; i++)
				gave_up |= failed[i] == node;
			if (gave_up)
				continue;
			for (const struct irqchip_entry *e = __irqchip_table_start;
			     e < __irqchip_table_end; e++) {
				if (!dt_is_compatible(dt, node, e->compatible))
					continue;
				/* A controller whose own interrupt (a GIC's maintenance interrupt, on
				 * QEMU's virt with virtualization=on) goes to itself is still the root,
				 * as Linux's of_irq_init() has it. */
				bool has_irq = dt_getprop(dt, node, "interrupts", NULL) != NULL;
				bool root = (!dt_getprop(dt, node, "interrupts-extended", NULL) &&
					     !has_irq) ||
					    (has_irq && interrupt_parent(dt, node) == node);
				if (!root && has_irq && !irq_find_host(interrupt_parent(dt, node)))
					break;		/* parent not up yet: a later round */
				if (e->init(dt, node)) {
					pr_err("irq: %s at node %s failed to initialise\n", e->compatible,
					       dt_node_name(dt, node));
					if (nr_failed < (int)ARRAY_SIZE(failed))
						failed[nr_failed++] = node;
				} else {
					progress = true;
				}
				break;
			}
		}
	}
	if (!root_handler)
		pr_warn("irq: no interrupt controller found in the device tree\n");
}

/* `irqs`: Linux's /proc/interrupts layout, one column per online CPU, then v6.10 arm's IPI
 * rows (show_ipi_list) on multiprocessor images. */
static int cmd_irqs(int argc, char **argv)
{
	unsigned int cpu;

	if (shell_no_args(argc, argv))
		return 2;
	kprintf("    ");	/* each CPU's column is 11 wide, its name ending one before the count */
	for_each_online_cpu(cpu)
		kprintf("%7sCPU%u", "", cpu);
	kprintf("\n");
	for (unsigned int irq = 1; irq < next_virq; irq++) {
		struct irq_desc *d = &irq_desc[irq];
		if (!d->handler && !kstat_irqs(irq))
			continue;
		kprintf("%4u: ", irq);
		for_each_online_cpu(cpu)
			kprintf("%10lu ", kstat_irqs_cpu(irq, cpu));
		kprintf("%11s %4u %-5s  %s%s\n", d->domain->name, d->hwirq,
			d->type == IRQ_TYPE_EDGE_RISING ? "Edge" : "Level",
			d->handler ? d->name : "(none)", d->masked ? " [masked]" : "");
	}
	for (unsigned int ipi = 0; NR_CPUS > 1 && ipi < NR_IPI; ipi++) {
		kprintf("IPI%u: ", ipi);
		for_each_online_cpu(cpu)
			kprintf("%10lu ", smp_ipi_count(cpu, ipi));
		kprintf(" %s\n", smp_ipi_name(ipi));
	}
	kprintf("Err: %10lu\n", spurious);
	kprintf("Unhandled: %lu\n", unhandled);
	return 0;
}
SHELL_COMMAND(irqs, "", "interrupt counts per line (as /proc/interrupts)", cmd_irqs);
