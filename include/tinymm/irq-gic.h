/*
 * irq-gic.h - what drivers/irq-gic.c (the ARM GICv2) offers beyond the irq_domain it registers.
 */
#ifndef TINYMM_IRQ_GIC_H
#define TINYMM_IRQ_GIC_H

/*
 * Make GIC interrupt @hwirq (intid: 0-15 SGI, 16-31 PPI, 32+ SPI) pending by software, as if
 * its device had raised it: GICD_ISPENDR (an SGI is sent to this CPU through GICD_SGIR).  For
 * tests, e.g. an interrupt on a line nobody requested.  0, or -1 if there is no GIC or @hwirq
 * is not one of its lines.
 */
int gic_set_pending(unsigned int hwirq);

#endif
