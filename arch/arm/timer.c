/*
 * timer.c - the ARMv7-A generic timer's virtual timer as tinymm's one-shot clock event.
 *
 * The virtual timer compares CNTVCT (arch_counter_read()) with CNTV_CVAL and, while CNTV_CTL
 * has ENABLE set and IMASK clear, holds its PPI asserted (level-sensitive) as long as
 * CNTVCT >= CNTV_CVAL.  The interrupt handler therefore turns the timer off (ENABLE = 0
 * deasserts the line) before kernel/timer.c's timer_interrupt() runs the expired timers and
 * programs the next deadline through arch_timer_set_next(), which turns it on again.
 * Which PPI: the "arm,armv7-timer" node lists secure physical, non-secure physical, virtual
 * and hypervisor timer interrupts, in that order; the virtual one is index 2 (GIC intid 27 on
 * QEMU virt).  The virtual timer is the one an OS uses whatever mode it was started in, and
 * CNTVOFF is 0 here, so its counter is the one arch_counter_read() returns.
 * Locking: CNTV_* are per-CPU registers touched with interrupts masked.
 */
#include "tinymm/arch.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/printk.h"
#include "tinymm/time.h"
#include "tinymm/timer.h"

#define CNTV_CTL_ENABLE		(1u << 0)
#define CNTV_CTL_IMASK		(1u << 1)
#define CNTV_CTL_ISTATUS	(1u << 2)

#define ARCH_TIMER_VIRT_IDX	2	/* index of the virtual timer in the node's interrupts */

static inline void cntv_ctl_write(uint32_t v)
{
	__asm__ __volatile__("mcr p15, 0, %0, c14, c3, 1\n\tisb" : : "r"(v) : "memory");
}

static inline void cntv_cval_write(uint64_t v)
{
	__asm__ __volatile__("mcrr p15, 3, %0, %1, c14" : : "r"((uint32_t)v), "r"((uint32_t)(v >> 32))
			     : "memory");
}

static irqreturn_t arch_timer_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	cntv_ctl_write(CNTV_CTL_IMASK);		/* off: the line drops until the next setting */
	timer_interrupt();
	return IRQ_HANDLED;
}

void arch_timer_set_next(uint64_t cval)
{
	cntv_cval_write(cval);
	cntv_ctl_write(CNTV_CTL_ENABLE);	/* isb included: takes effect before we go on */
}

/* A secondary CPU's own virtual timer: off until the clock event programs it there (its PPI
 * is unmasked by the GIC's secondary set-up, as the boot CPU's request_irq() did). */
void arm_timer_secondary_init(void);
void arm_timer_secondary_init(void)
{
	cntv_ctl_write(CNTV_CTL_IMASK);
}

const char *arch_timer_name(void)
{
	return "arch_timer";
}

int arch_timer_init(const struct dt *dt)
{
	int node = dt_find_compatible(dt, -1, "arm,armv7-timer");

	if (node < 0)
		node = dt_find_compatible(dt, -1, "arm,armv8-timer");
	cntv_ctl_write(CNTV_CTL_IMASK);		/* nothing left over from a boot loader */
	if (!arch_counter_freq()) {
		pr_err("arch_timer: CNTFRQ is 0 (firmware did not set it): no timer interrupts\n");
		return -1;
	}
	if (node < 0) {
		pr_err("arch_timer: no \"arm,armv7-timer\" node in the device tree: no timer interrupts\n");
		return -1;
	}
	unsigned int irq = irq_of_parse_and_map(dt, node, ARCH_TIMER_VIRT_IDX);
	if (!irq) {
		pr_err("arch_timer: the timer node has no usable virtual timer interrupt (interrupts index %d)\n",
		       ARCH_TIMER_VIRT_IDX);
		return -1;
	}
	int ret = request_irq(irq, arch_timer_handler, 0, "arch_timer", NULL);
	if (ret) {
		pr_err("arch_timer: request_irq(%u) failed (%d)\n", irq, ret);
		return -1;
	}
	pr_info("arch_timer: virtual timer, irq %u, %llu Hz\n", irq,
		(unsigned long long)time_counter_freq());	/* the DT's clock-frequency may win */
	return 0;
}
