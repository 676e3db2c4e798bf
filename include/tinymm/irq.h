/*
 * irq.h - interrupt lines, controllers and handlers (kernel/irq.c), Linux's vocabulary.
 *
 * An interrupt controller driver (drivers/irq-gic.c, drivers/irq-plic.c, the RISC-V per-CPU
 * controller in arch/riscv/irq.c) registers an irq_domain: its hardware numbers (hwirq) map
 * linearly onto tinymm's irq numbers (virq), which is what request_irq() and `irqs` use.  The
 * domain's chip masks, unmasks and acknowledges lines.  The root controller sets the arch's
 * interrupt entry with set_handle_irq(); a chained controller (the PLIC under the RISC-V
 * per-CPU controller) is a handler on its parent's line that calls generic_handle_domain_irq().
 *
 * A line that fires with no handler is masked and reported once ("irq N: nobody cared"), so a
 * stuck device costs one interrupt, not a storm; spurious interrupts (the controller had
 * nothing to deliver) are counted.  Handlers run in hard irq context with interrupts masked.
 * Device-tree interrupt specifiers are translated by the controller named by the node's
 * interrupt-parent: irq_of_parse_and_map().
 * Locking: descriptors change with interrupts masked (one CPU).
 */
#ifndef TINYMM_IRQ_H
#define TINYMM_IRQ_H

#include "kernel.h"

struct dt;

#define NR_IRQS			512

typedef enum irqreturn { IRQ_NONE = 0, IRQ_HANDLED = 1 } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

#define IRQ_TYPE_NONE		0
#define IRQ_TYPE_EDGE_RISING	1
#define IRQ_TYPE_LEVEL_HIGH	4

struct irq_domain;

/* A line's state a controller can set by software (Linux's enum irqchip_irq_state). */
enum irqchip_irq_state {
	IRQCHIP_STATE_PENDING,		/* raised, as if its device had asserted it */
};

struct irq_chip {
	const char *name;
	void (*irq_mask)(struct irq_domain *d, unsigned int hwirq);
	void (*irq_unmask)(struct irq_domain *d, unsigned int hwirq);
	int (*irq_set_type)(struct irq_domain *d, unsigned int hwirq, unsigned int type);
	/* 0, or -1 if this line's @which cannot be set by software. */
	int (*irq_set_irqchip_state)(struct irq_domain *d, unsigned int hwirq,
				     enum irqchip_irq_state which, bool state);
};

struct irq_domain {
	const char *name;
	const struct irq_chip *chip;
	void *chip_data;
	int of_node;			/* device-tree node offset of the controller, -1 if none */
	unsigned int virq_base;
	unsigned int size;		/* hwirq 0 .. size-1 */
	/* Device-tree specifier -> hwirq and type; 0, or -1 if it makes no sense. */
	int (*xlate)(struct irq_domain *d, const uint32_t *spec, int cells, unsigned int *hwirq,
		     unsigned int *type);
};

struct irq_domain *irq_domain_add_linear(int of_node, unsigned int size, const struct irq_chip *chip,
					 void *chip_data, const char *name);
struct irq_domain *irq_find_host(int of_node);
/* hwirq -> virq (0 if out of range: virq 0 is never used). */
unsigned int irq_find_mapping(struct irq_domain *d, unsigned int hwirq);
#define irq_create_mapping(d, hwirq)	irq_find_mapping(d, hwirq)
/* The @index-th interrupt of device-tree node @node as a virq (type set), 0 if none. */
unsigned int irq_of_parse_and_map(const struct dt *dt, int node, int index);

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name,
		void *dev_id);
void free_irq(unsigned int irq, void *dev_id);
void enable_irq(unsigned int irq);
void disable_irq(unsigned int irq);
int irq_set_irq_type(unsigned int irq, unsigned int type);
/* Raise (@state true) or drop a line by software where its controller can (a GIC's pending
 * bits, a BCM2836 mailbox): for tests.  0, or -1 if it cannot. */
int irq_set_irqchip_state(unsigned int irq, enum irqchip_irq_state which, bool state);

/* The root controller's entry: the arch calls handle_arch_irq() for an external interrupt. */
void set_handle_irq(void (*handler)(void));
void handle_arch_irq(void);
/* Run the handler for @hwirq of @d (controller drivers call it); -1 if out of range. */
int generic_handle_domain_irq(struct irq_domain *d, unsigned int hwirq);
/* The controller had nothing pending when asked (GIC 1023, PLIC claim 0). */
void irq_spurious(void);

/* Around every interrupt handler (the arch's entry code): preempt count and preemption. */
void irq_enter(void);
void irq_exit(void);

/* Bring-up: the arch's own controller, then every controller driver the device tree names. */
void irq_init(const struct dt *dt);

/*
 * SMP: the root controller's per-CPU side (a GIC's CPU interface and SGIs), registered by its
 * driver.  irq_secondary_init() sets up the calling CPU's interface (arch_secondary_init());
 * irq_send_ipi() raises software interrupt @ipi on every CPU in @mask (arch_send_ipi_mask()),
 * whose entry calls handle_IPI(): -1 if the controller has no IPIs.
 */
struct cpumask;
struct irq_ipi_ops {
	void (*send)(const struct cpumask *mask, unsigned int ipi);
	void (*cpu_init)(void);
};
void set_irq_ipi_ops(const struct irq_ipi_ops *ops);
void irq_secondary_init(void);
int irq_send_ipi(const struct cpumask *mask, unsigned int ipi);

/* For `irqs` and tests: a line's count on all CPUs, and on one. */
unsigned long kstat_irqs(unsigned int irq);
unsigned long kstat_irqs_cpu(unsigned int irq, unsigned int cpu);
unsigned long irq_spurious_count(void);
unsigned long irq_unhandled_count(void);
bool irq_is_masked(unsigned int irq);

/* Controller drivers declare themselves with IRQCHIP_DECLARE; irq_init() calls the init of each
 * one whose compatible a device-tree node has, parents before children. */
struct irqchip_entry {
	const char *compatible;
	int (*init)(const struct dt *dt, int node);
};
#define IRQCHIP_DECLARE(name, compat, fn)						\
	static const struct irqchip_entry __irqchip_##name __used			\
	__section(".irqchip_table." #name) __attribute__((aligned(sizeof(void *)))) = { compat, fn }
extern const struct irqchip_entry __irqchip_table_start[], __irqchip_table_end[];

#endif
