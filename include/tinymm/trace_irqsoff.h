/*
 * trace_irqsoff.h - the irqsoff tracer's bookkeeping (kernel/trace_irqsoff.c; docs/irqsoff.md):
 * the longest interrupts-off section and, per distinct start site, the longest section that
 * began there.  The hooks themselves are declared in <tinymm/irqflags.h>; the two below are the
 * architecture's trap entry and exit (CONFIG_IRQSOFF_TRACER builds only).
 *
 * Lengths are in the tracer's clock: instructions retired (RISC-V instret, ARM PMU
 * INST_RETIRED), exact under QEMU -icount; counter ticks where the instruction counter does not
 * run.  Addresses are return addresses: the instruction after the hook's call.
 */
#ifndef TINYMM_TRACE_IRQSOFF_H
#define TINYMM_TRACE_IRQSOFF_H

#include "kernel.h"

#define IRQSOFF_SITES	256	/* start sites `irqsoff top` can tell apart (a power of two) */

struct irqsoff_site {
	unsigned long from;	/* where sections began; 0: a free slot */
	unsigned long to;	/* where the longest of them ended */
	unsigned long max;	/* its length */
	unsigned long count;	/* sections that began here */
};

struct irqsoff_stats {
	unsigned long max, max_from, max_to;	/* the longest section since the reset */
	unsigned long last, last_from, last_to;	/* the latest one (the selftest reads it) */
	unsigned long sections;			/* recorded since the reset */
	unsigned long sites_dropped;		/* sections whose site found the table full */
	unsigned int nr_sites;
	struct irqsoff_site site[IRQSOFF_SITES];	/* open addressing on from */
};

/* Forget everything recorded. */
void irqsoff_stats_reset(struct irqsoff_stats *s);
/* One section of @len from @from to @to.  O(1) on average: a probe of the site table. */
void irqsoff_stats_record(struct irqsoff_stats *s, unsigned long len, unsigned long from,
			  unsigned long to);
/* The @n sites with the longest sections, longest first, into @out; returns how many. */
unsigned int irqsoff_stats_top(const struct irqsoff_stats *s, struct irqsoff_site *out,
			       unsigned int n);

/*
 * Called from the architecture's interrupt entry with the hardware's mask already in place:
 * @stamp is the instruction counter read first thing at entry (its low word), so the register
 * saves count.  trace_irqsoff_trap_exit() just before the return from the interrupt unmasks.
 */
void trace_irqsoff_trap_entry(unsigned long stamp);
void trace_irqsoff_trap_exit(void);

#endif
