/*
 * irq_ktest.c - the ARM interrupt path end to end (suite `arm_irq`, ARM only): GICv2 lines
 * raised by software (gic_set_pending) through vec_irq and the irq core; the virtual timer as
 * the clock event; preemption from the IRQ entry keeps every register of the interrupted thread.
 */
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/irq.h"
#include "tinymm/irq-gic.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/sched.h"
#include "tinymm/timer.h"

/* Lines no device uses, below every board's GIC size: QEMU virt's devices sit on SPIs 1-47 of
 * 256, the Allwinner H3's (Orange Pi PC) on SPIs up to 123 of 128.  (The sched suite's stray
 * interrupt uses SPI 124.) */
#define TEST_SPI_NOBODY		(32 + 125)
#define TEST_SPI_LEVEL		(32 + 126)
#define TEST_SPI_EDGE		(32 + 127)
#define TEST_SGI		3

static struct irq_domain *gic_domain(void)
{
	const struct dt *dt = boot_dt();
	int node = dt_find_compatible(dt, -1, "arm,cortex-a15-gic");

	if (node < 0)
		node = dt_find_compatible(dt, -1, "arm,gic-400");
	return node >= 0 ? irq_find_host(node) : NULL;
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
	return IRQ_HANDLED;
}

static void line_nobody_requested_is_masked_once(struct ktest *t)
{
	struct irq_domain *d = gic_domain();
	KTEST_ASSERT_TRUE(t, d != NULL);
	unsigned int virq = irq_find_mapping(d, TEST_SPI_NOBODY);
	KTEST_ASSERT_NE(t, virq, 0);
	KTEST_EXPECT_TRUE(t, irq_is_masked(virq));	/* no handler: disabled at the GIC */
	enable_irq(virq);				/* as a buggy driver might */
	unsigned long before = irq_unhandled_count(), count = kstat_irqs(virq);

	KTEST_EXPECT_EQ(t, gic_set_pending(TEST_SPI_NOBODY), 0);
	spin_10ms();
	KTEST_EXPECT_EQ(t, irq_unhandled_count(), before + 1);
	KTEST_EXPECT_EQ(t, kstat_irqs(virq), count + 1);
	KTEST_EXPECT_TRUE(t, irq_is_masked(virq));
	/* Masked now: raising it again delivers nothing. */
	KTEST_EXPECT_EQ(t, gic_set_pending(TEST_SPI_NOBODY), 0);
	spin_10ms();
	KTEST_EXPECT_EQ(t, irq_unhandled_count(), before + 1);
	KTEST_EXPECT_EQ(t, kstat_irqs(virq), count + 1);
}

static void requested_lines_run_their_handler_once(struct ktest *t)
{
	static const unsigned int hw[] = { TEST_SPI_LEVEL, TEST_SPI_EDGE, TEST_SGI };
	struct irq_domain *d = gic_domain();
	KTEST_ASSERT_TRUE(t, d != NULL);

	for (unsigned int i = 0; i < ARRAY_SIZE(hw); i++) {
		unsigned int virq = irq_find_mapping(d, hw[i]);
		if (hw[i] == TEST_SPI_EDGE)
			KTEST_EXPECT_EQ(t, irq_set_irq_type(virq, IRQ_TYPE_EDGE_RISING), 0);
		KTEST_ASSERT_EQ(t, request_irq(virq, count_handler, 0, "arm_irq-test", t), 0);
		unsigned long before = handled;
		KTEST_EXPECT_EQ(t, gic_set_pending(hw[i]), 0);
		wait_for_change(&handled, before);
		wait_for_change(&handled, before + 1);	/* a second one would be a bug */
		KTEST_EXPECT_EQ(t, handled, before + 1);
		KTEST_EXPECT_EQ(t, last_irq, virq);
		KTEST_EXPECT_FALSE(t, irq_is_masked(virq));
		free_irq(virq, t);
		KTEST_EXPECT_TRUE(t, irq_is_masked(virq));
		if (hw[i] == TEST_SPI_EDGE)
			irq_set_irq_type(virq, IRQ_TYPE_LEVEL_HIGH);
	}
}

static void bad_lines_are_refused(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, gic_set_pending(1020), -1);
	KTEST_EXPECT_EQ(t, gic_set_pending(~0u), -1);
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

	for (int i = 0; i < 2; i++) {
		p[i] = kthread_create_opts(torture_thread, out[i], "torture", DEFAULT_PRIO, 1);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
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
