/*
 * irq_ktest.c - the ARM interrupt path end to end (suite `arm_irq`, ARM only): lines of the root
 * controller (GICv2, or the BCM2836's per-core one) raised by software (irq_set_irqchip_state)
 * through vec_irq and the irq core; the virtual timer as the clock event; preemption from the IRQ entry keeps every register of the interrupted thread.
 */
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/irq.h"
#include "tinymm/irq-gic.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/sched.h"
#include "tinymm/timer.h"

/*
 * Lines software can raise (irq_set_irqchip_state) that no device uses, on the root controller
 * the tree names.  GICv2: SPIs below every board's GIC size (QEMU virt's devices sit on SPIs
 * 1-47 of 256, the Allwinner H3's on SPIs up to 123 of 128: 125-127 are free on both; the
 * sched suite's stray interrupt uses 124), one of them switched to edge, and SGI 7 (SGIs 0-3
 * are the kernel's IPIs, drivers/irq-gic.c).  BCM2836 (Raspberry Pi 2): mailboxes 1-3 of the boot
 * core (hwirqs 5-7), level only: a mailbox interrupts until it is cleared, so the handlers
 * below drop the line they ran for, which on a GIC (pending cleared by the acknowledge) has
 * nothing left to do.
 */
struct test_lines {
	struct irq_domain *d;
	unsigned int nobody;
	unsigned int raise[3];		/* requested and raised in turn */
	unsigned int edge;		/* one of raise[] made edge-triggered, or ~0u */
	unsigned int not_raisable;	/* a line software cannot raise (CNTV), or ~0u: none */
};

static bool test_lines(struct test_lines *l)
{
	const struct dt *dt = boot_dt();
	int node;

	if ((node = dt_find_compatible(dt, -1, "arm,cortex-a15-gic")) >= 0 ||
	    (node = dt_find_compatible(dt, -1, "arm,gic-400")) >= 0)
		*l = (struct test_lines){ .nobody = 32 + 125, .raise = { 32 + 126, 32 + 127, 7 },
					  .edge = 32 + 127, .not_raisable = ~0u };
	else if ((node = dt_find_compatible(dt, -1, "brcm,bcm2836-l1-intc")) >= 0)
		*l = (struct test_lines){ .nobody = 7, .raise = { 5, 6, 4 }, .edge = ~0u,
					  .not_raisable = 3 };
	else
		return false;
	l->d = irq_find_host(node);
	return l->d != NULL;
}

static int raise_hw(struct test_lines *l, unsigned int hwirq, bool state)
{
	unsigned int virq = irq_find_mapping(l->d, hwirq);

	return virq ? irq_set_irqchip_state(virq, IRQCHIP_STATE_PENDING, state) : -1;
}

/* Spin with interrupts enabled until @counter moves or 10 ms pass (QEMU delivers a pending
 * line within a few instructions; the time is only a limit). */
static void wait_for_change(volatile unsigned long *counter, unsigned long old)
{
	uint64_t end = ktime_get_ns() + 10 * NSEC_PER_MSEC;

	while (*counter == old && ktime_get_ns() < end)
		;
}

static void spin_10ms(void)
{
	unsigned long never = 0;

	wait_for_change(&never, 0);
}

static volatile unsigned long handled;
static volatile unsigned int last_irq;

static irqreturn_t count_handler(int irq, void *dev_id)
{
	KTEST_EXPECT_TRUE((struct ktest *)dev_id, in_interrupt());
	KTEST_EXPECT_TRUE((struct ktest *)dev_id, irqs_disabled());
	last_irq = (unsigned int)irq;
	handled++;
	irq_set_irqchip_state((unsigned int)irq, IRQCHIP_STATE_PENDING, false);	/* as a device ack */
	return IRQ_HANDLED;
}

static void line_nobody_requested_is_masked_once(struct ktest *t)
{
	struct test_lines l;
	KTEST_ASSERT_TRUE(t, test_lines(&l));
	unsigned int virq = irq_find_mapping(l.d, l.nobody);
	KTEST_ASSERT_NE(t, virq, 0);
	KTEST_EXPECT_TRUE(t, irq_is_masked(virq));	/* no handler: disabled at the controller */
	enable_irq(virq);				/* as a buggy driver might */
	unsigned long before = irq_unhandled_count(), count = kstat_irqs(virq);

	KTEST_EXPECT_EQ(t, raise_hw(&l, l.nobody, true), 0);
	spin_10ms();
	KTEST_EXPECT_EQ(t, irq_unhandled_count(), before + 1);
	KTEST_EXPECT_EQ(t, kstat_irqs(virq), count + 1);
	KTEST_EXPECT_TRUE(t, irq_is_masked(virq));
	/* Masked now: raising it again delivers nothing. */
	KTEST_EXPECT_EQ(t, raise_hw(&l, l.nobody, true), 0);
	spin_10ms();
	KTEST_EXPECT_EQ(t, irq_unhandled_count(), before + 1);
	KTEST_EXPECT_EQ(t, kstat_irqs(virq), count + 1);
	raise_hw(&l, l.nobody, false);
}

/* SMP: the case runs on CPU 0 alone, where SPIs are delivered; an SGI's enable is per CPU and
 * it goes to the CPU that raised it, so the thread must not move in between.  The previous
 * affinity is returned for unpin(). */
static unsigned long pin_to_cpu0(void)
{
	unsigned long old = current->cpus_mask;
	struct cpumask cpu0 = { 1UL };

	set_cpus_allowed_ptr(current, &cpu0);
	return old;
}

static void unpin(unsigned long old)
{
	struct cpumask m = { old };

	set_cpus_allowed_ptr(current, &m);
}

static void requested_lines_run_their_handler_once(struct ktest *t)
{
	struct test_lines l;
	KTEST_ASSERT_TRUE(t, test_lines(&l));
	unsigned long affinity = pin_to_cpu0();

	for (unsigned int i = 0; i < ARRAY_SIZE(l.raise); i++) {
		unsigned int hw = l.raise[i], virq = irq_find_mapping(l.d, hw);
		KTEST_ASSERT_NE(t, virq, 0);
		if (hw == l.edge)
			KTEST_EXPECT_EQ(t, irq_set_irq_type(virq, IRQ_TYPE_EDGE_RISING), 0);
		KTEST_ASSERT_EQ(t, request_irq(virq, count_handler, 0, "arm_irq-test", t), 0);
		unsigned long before = handled;
		KTEST_EXPECT_EQ(t, raise_hw(&l, hw, true), 0);
		wait_for_change(&handled, before);
		wait_for_change(&handled, before + 1);	/* a second one would be a bug */
		KTEST_EXPECT_EQ(t, handled, before + 1);
		KTEST_EXPECT_EQ(t, last_irq, virq);
		KTEST_EXPECT_FALSE(t, irq_is_masked(virq));
		free_irq(virq, t);
		KTEST_EXPECT_TRUE(t, irq_is_masked(virq));
		if (hw == l.edge)
			irq_set_irq_type(virq, IRQ_TYPE_LEVEL_HIGH);
	}
	unpin(affinity);
}

static void bad_lines_are_refused(struct ktest *t)
{
	struct test_lines l;
	KTEST_ASSERT_TRUE(t, test_lines(&l));

	if (l.not_raisable != ~0u)
		KTEST_EXPECT_EQ(t, raise_hw(&l, l.not_raisable, true), -1);
	KTEST_EXPECT_EQ(t, raise_hw(&l, l.d->size, true), -1);		/* beyond the domain */
	KTEST_EXPECT_EQ(t, irq_set_irqchip_state(0, IRQCHIP_STATE_PENDING, true), -1);
	KTEST_EXPECT_EQ(t, irq_set_irqchip_state(NR_IRQS, IRQCHIP_STATE_PENDING, true), -1);
	if (dt_find_compatible(boot_dt(), -1, "arm,cortex-a15-gic") >= 0 ||
	    dt_find_compatible(boot_dt(), -1, "arm,gic-400") >= 0) {
		KTEST_EXPECT_EQ(t, gic_set_pending(1020), -1);
		KTEST_EXPECT_EQ(t, gic_set_pending(~0u), -1);
	}
}

static volatile int hr_fired;
static volatile ktime_t hr_fired_at;

static enum hrtimer_restart hr_callback(struct hrtimer *timer)
{
	hr_fired_at = ktime_get();
	hr_fired++;
	return HRTIMER_NORESTART;
}

static void timer_fires_at_its_deadline_not_before(struct ktest *t)
{
	static struct hrtimer hr;
	unsigned long irqs = timer_interrupts();

	hrtimer_init(&hr, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hr.function = hr_callback;
	hr_fired = 0;
	ktime_t start = ktime_get();
	hrtimer_start(&hr, 2 * NSEC_PER_MSEC, HRTIMER_MODE_REL);
	while (!hr_fired && ktime_get() - start < 100 * (ktime_t)NSEC_PER_MSEC)
		;
	KTEST_EXPECT_EQ(t, hr_fired, 1);
	KTEST_EXPECT_GE(t, hr_fired_at - start, 2 * (ktime_t)NSEC_PER_MSEC);
	KTEST_EXPECT_LT(t, hr_fired_at - start, 50 * (ktime_t)NSEC_PER_MSEC);
	KTEST_EXPECT_GT(t, timer_interrupts(), irqs);

	/* A deadline already past interrupts at once. */
	hr_fired = 0;
	start = ktime_get();
	hrtimer_start(&hr, start - (ktime_t)NSEC_PER_MSEC, HRTIMER_MODE_ABS);
	while (!hr_fired && ktime_get() - start < 100 * (ktime_t)NSEC_PER_MSEC)
		;
	KTEST_EXPECT_EQ(t, hr_fired, 1);
	KTEST_EXPECT_LT(t, hr_fired_at - start, 5 * (ktime_t)NSEC_PER_MSEC);
}

/*
 * arm_reg_torture(loops, out): loads a pattern into r1-r12 and lr, sets the Q and GE flags,
 * counts r0 down to 0, then stores r1-r12, lr and the APSR into out[0..13].  Preempted (by the
 * timer, through vec_irq and a thread switch) any number of times, it must find them unchanged.
 */
void arm_reg_torture(unsigned long loops, unsigned long out[14]);
__asm__(
	"	.pushsection .text.arm_reg_torture, \"ax\"\n"
	"	.arm\n"
	"	.global arm_reg_torture\n"
	"	.type arm_reg_torture, %function\n"
	"arm_reg_torture:\n"
	"	push	{r1, r4-r11, lr}\n"
	"	ldr	r1, =0x080f0000\n"		/* Q and GE[3:0] */
	"	msr	APSR_nzcvqg, r1\n"
	"	ldr	r1, =0x11111111\n"
	"	ldr	r2, =0x22222222\n"
	"	ldr	r3, =0x33333333\n"
	"	ldr	r4, =0x44444444\n"
	"	ldr	r5, =0x55555555\n"
	"	ldr	r6, =0x66666666\n"
	"	ldr	r7, =0x77777777\n"
	"	ldr	r8, =0x88888888\n"
	"	ldr	r9, =0x99999999\n"
	"	ldr	r10, =0xaaaaaaaa\n"
	"	ldr	r11, =0xbbbbbbbb\n"
	"	ldr	r12, =0xcccccccc\n"
	"	ldr	lr, =0xdddddddd\n"
	"1:	subs	r0, r0, #1\n"
	"	bne	1b\n"
	"	mrs	r0, APSR\n"
	"	str	r0, [sp, #-8]!\n"
	"	ldr	r0, [sp, #8]\n"
	"	stmia	r0!, {r1-r12, lr}\n"
	"	ldr	r1, [sp], #8\n"
	"	str	r1, [r0]\n"
	"	pop	{r1, r4-r11, pc}\n"
	"	.ltorg\n"
	"	.size arm_reg_torture, . - arm_reg_torture\n"
	"	.popsection\n");

/* About 0.1 s of QEMU time per thread: several 10 ms turns each. */
#define TORTURE_LOOPS 40000000

static int torture_thread(void *data)
{
	unsigned long *out = data;

	arm_reg_torture(TORTURE_LOOPS, out);
	out[14] = current->nivcsw;
	return 0;
}

static void preemption_keeps_every_register(struct ktest *t)
{
	static unsigned long out[2][15];
	static const unsigned long want[13] = {
		0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x55555555, 0x66666666, 0x77777777,
		0x88888888, 0x99999999, 0xaaaaaaaa, 0xbbbbbbbb, 0xcccccccc, 0xdddddddd,
	};
	struct task_struct *p[2];
	struct cpumask cpu0 = { 1UL };	/* SMP: both on one CPU, so each preempts the other */

	for (int i = 0; i < 2; i++) {
		p[i] = kthread_create_opts(torture_thread, out[i], "torture", DEFAULT_PRIO, 1);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
		set_cpus_allowed_ptr(p[i], &cpu0);
	}
	for (int i = 0; i < 2; i++)
		wake_up_process(p[i]);
	for (int i = 0; i < 2; i++)
		KTEST_EXPECT_EQ(t, kthread_join(p[i]), 0);
	for (int i = 0; i < 2; i++) {
		KTEST_EXPECT_GT(t, out[i][14], 0);	/* it was preempted, from an interrupt */
		for (int r = 0; r < 13; r++)
			KTEST_EXPECT_EQ(t, out[i][r], want[r]);
		KTEST_EXPECT_EQ(t, out[i][13] & 0xf80f0000, 0x680f0000);	/* Z C Q GE */
	}
}

static const struct ktest_case arm_irq_cases[] = {
	KTEST_CASE(line_nobody_requested_is_masked_once),
	KTEST_CASE(requested_lines_run_their_handler_once),
	KTEST_CASE(bad_lines_are_refused),
	KTEST_CASE(timer_fires_at_its_deadline_not_before),
	KTEST_CASE(preemption_keeps_every_register),
	{ 0 },
};
KTEST_SUITE(arm_irq, arm_irq_cases);
