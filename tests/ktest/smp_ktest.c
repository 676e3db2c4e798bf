/*
 * smp_ktest.c - suite "smp": cross-CPU function calls (kernel/smp.c) on the CPUs that are
 * online.  Every online CPU runs a function through an IPI and reports its own
 * smp_processor_id(), in hard irq context with interrupts masked; @wait returns only after the
 * function ran, no-wait returns while it still runs; a CPU outside the mask runs nothing; the
 * IPI counts `irqs` prints rise on the CPUs that were called.  The functions only record what
 * they saw: the checks run in the test thread afterwards.  With one CPU online (QEMU's default
 * -smp 1, ktest.all) each case checks what v6.10 does then: the caller's own CPU runs a single
 * call at once, with or without @wait, and without an IPI; a mask of the caller alone runs
 * nothing.  tests/qemu/smp.cmake boots -smp 2 and 4, where the target is another CPU.
 * Suite "smp_panic" (explicit only): another CPU panics from the IPI handler while this one
 * waits for it; the panic stops this CPU and prints its state (tests/qemu/smp.cmake).
 */
#include "tinymm/bug.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/preempt.h"
#include "tinymm/smp.h"
#include "tinymm/time.h"

struct seen {
	int id;			/* smp_processor_id() + 1, 0: never ran */
	bool hardirq, masked;
	unsigned int runs;
};

static struct seen seen[NR_CPUS];

static void clear_seen(void)
{
	memset(seen, 0, sizeof(seen));
	smp_mb();
}

/* Runs on each called CPU (or the caller, on_each_cpu): only its own slot. */
static void report_id(void *arg)
{
	struct seen *s = &((struct seen *)arg)[smp_processor_id()];

	s->id = (int)smp_processor_id() + 1;
	s->hardirq = in_interrupt();
	s->masked = irqs_disabled();
	s->runs++;
}

/* Another online CPU, or this one when it is alone.  Preemption disabled by the caller: the
 * thread stays on this CPU, so "another" stays one. */
static unsigned int other_online_cpu(void)
{
	unsigned int cpu, me = raw_smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != me)
			return cpu;
	return me;
}

static void smp_masks_consistent(struct ktest *t)
{
	unsigned int cpu, n = 0;

	KTEST_EXPECT_TRUE(t, cpu_online(0));
	for_each_online_cpu(cpu) {
		KTEST_EXPECT_TRUE(t, cpu_possible(cpu));
		n++;
	}
	KTEST_EXPECT_EQ(t, n, num_online_cpus());
	KTEST_EXPECT_LE(t, num_online_cpus(), nr_cpu_ids);
	KTEST_EXPECT_LE(t, nr_cpu_ids, NR_CPUS);
	KTEST_EXPECT_FALSE(t, cpu_online(NR_CPUS));
	KTEST_EXPECT_LT(t, (unsigned int)raw_smp_processor_id(), NR_CPUS);
}

/* on_each_cpu: every online CPU, the caller included, exactly once, in its own slot. */
static void smp_each_cpu_reports_its_id(struct ktest *t)
{
	unsigned int cpu;

	clear_seen();
	on_each_cpu(report_id, seen, true);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu_online(cpu)) {
			KTEST_EXPECT_EQ(t, seen[cpu].id, (int)cpu + 1);
			KTEST_EXPECT_EQ(t, seen[cpu].runs, 1u);
			KTEST_EXPECT_TRUE(t, seen[cpu].masked);
		} else {
			KTEST_EXPECT_EQ(t, seen[cpu].runs, 0u);
		}
	}
}

/* smp_call_function_many: the others only, from their IPI handler (hard irq, masked). */
static void smp_many_skips_the_caller(struct ktest *t)
{
	unsigned int cpu, me;

	clear_seen();
	preempt_disable();
	me = smp_processor_id();
	smp_call_function_many(cpu_online_mask, report_id, seen, true);
	preempt_enable();
	KTEST_EXPECT_EQ(t, seen[me].runs, 0u);
	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		KTEST_EXPECT_EQ(t, seen[cpu].id, (int)cpu + 1);
		KTEST_EXPECT_EQ(t, seen[cpu].runs, 1u);
		KTEST_EXPECT_TRUE(t, seen[cpu].hardirq);
		KTEST_EXPECT_TRUE(t, seen[cpu].masked);
	}
}

/* A mask of one other CPU: nobody else runs the function (alone: a mask of the caller, which
 * smp_call_function_many() leaves out, so nobody at all). */
static void smp_many_honours_the_mask(struct ktest *t)
{
	unsigned int cpu, target, me;
	struct cpumask one = { 0 };

	clear_seen();
	preempt_disable();
	me = smp_processor_id();
	target = other_online_cpu();
	cpumask_set_cpu(target, &one);
	smp_call_function_many(&one, report_id, seen, true);
	preempt_enable();
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, seen[cpu].runs, cpu == target && cpu != me ? 1u : 0u);
}

static void smp_single_each_cpu(struct ktest *t)
{
	unsigned int cpu;

	clear_seen();
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, report_id, seen, true), 0);
	for_each_online_cpu(cpu) {
		KTEST_EXPECT_EQ(t, seen[cpu].id, (int)cpu + 1);
		KTEST_EXPECT_EQ(t, seen[cpu].runs, 1u);
	}
}

static void smp_single_offline_is_enxio(struct ktest *t)
{
	unsigned int cpu;

	clear_seen();
	KTEST_EXPECT_EQ(t, smp_call_function_single(NR_CPUS, report_id, seen, true), -ENXIO);
	KTEST_EXPECT_EQ(t, smp_call_function_single(~0u, report_id, seen, false), -ENXIO);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (!cpu_online(cpu))
			KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, report_id, seen, true),
					-ENXIO);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, seen[cpu].runs, 0u);
}

/* The function takes 5 ms: with @wait the call returns only after it, so done is set (alone:
 * the caller runs it itself before returning). */
static volatile int slow_done;

static void slow_fn(void *arg)
{
	(void)arg;
	mdelay(5);
	WRITE_ONCE(slow_done, 1);
}

static void smp_wait_returns_after_the_function(struct ktest *t)
{
	WRITE_ONCE(slow_done, 0);
	preempt_disable();
	int ret = smp_call_function_single(other_online_cpu(), slow_fn, NULL, true);
	int done = READ_ONCE(slow_done);
	preempt_enable();
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_EQ(t, done, 1);
}

/* Without @wait the call returns while the function still runs: it spins until the caller,
 * back from the call, lets it go.  Alone, v6.10 runs a call to the caller's own CPU at once
 * whatever @wait says: the function has run when the call returns. */
static volatile int gate_open, gate_entered, gate_left;

static void gated_fn(void *arg)
{
	uint64_t end = ktime_get_ns() + 2 * NSEC_PER_SEC;	/* never hang a CPU for good */

	(void)arg;
	WRITE_ONCE(gate_entered, 1);
	while (!READ_ONCE(gate_open) && ktime_get_ns() < end)
		cpu_relax();
	WRITE_ONCE(gate_left, 1);
}

static bool wait_for(volatile int *flag, unsigned int ms)
{
	uint64_t end = ktime_get_ns() + (uint64_t)ms * 1000000ULL;

	while (!READ_ONCE(*flag) && ktime_get_ns() < end)
		cpu_relax();
	return READ_ONCE(*flag);
}

static void smp_nowait_returns_before_the_function(struct ktest *t)
{
	if (num_online_cpus() == 1) {
		clear_seen();
		KTEST_EXPECT_EQ(t, smp_call_function_single(raw_smp_processor_id(), report_id, seen,
							    false), 0);
		KTEST_EXPECT_EQ(t, seen[raw_smp_processor_id()].runs, 1u);
		return;
	}
	WRITE_ONCE(gate_open, 0);
	WRITE_ONCE(gate_entered, 0);
	WRITE_ONCE(gate_left, 0);
	smp_mb();
	preempt_disable();
	int ret = smp_call_function_single(other_online_cpu(), gated_fn, NULL, false);
	int left = READ_ONCE(gate_left);		/* still inside: not waited for */
	bool entered = wait_for(&gate_entered, 1000);	/* ... and it did start */
	int left_later = READ_ONCE(gate_left);
	WRITE_ONCE(gate_open, 1);
	preempt_enable();
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_EQ(t, left, 0);
	KTEST_EXPECT_TRUE(t, entered);
	KTEST_EXPECT_EQ(t, left_later, 0);
	KTEST_EXPECT_TRUE(t, wait_for(&gate_left, 1000));
}

/* Many no-wait calls in a row reuse the caller's csd for each target (each waits for the
 * previous one's unlock): every one runs, none twice. */
static atomic_t nowait_runs;

static void count_fn(void *arg)
{
	(void)arg;
	atomic_inc(&nowait_runs);
}

static void smp_nowait_burst_all_run(struct ktest *t)
{
	unsigned int others = num_online_cpus() - 1, i;
	const unsigned int rounds = 500;

	atomic_set(&nowait_runs, 0);
	for (i = 0; i < rounds; i++) {
		preempt_disable();
		smp_call_function_many(cpu_online_mask, count_fn, NULL, false);
		preempt_enable();
	}
	uint64_t end = ktime_get_ns() + NSEC_PER_SEC;
	while ((unsigned int)atomic_read(&nowait_runs) < rounds * others && ktime_get_ns() < end)
		cpu_relax();
	KTEST_EXPECT_EQ(t, (unsigned int)atomic_read(&nowait_runs), rounds * others);
}

/* The per-CPU IPI_CALL_FUNC counts (`irqs`' "Function call interrupts" row): the called CPU's
 * rises, the caller's does not (it called nobody's queue of its own).  Alone, the caller runs
 * its own call without an IPI: no count moves. */
static void smp_ipi_counts_rise(struct ktest *t)
{
	unsigned int target, me;
	unsigned long before_t, before_me, after_t, after_me;
	int ret = 0;

	clear_seen();
	preempt_disable();
	me = smp_processor_id();
	target = other_online_cpu();
	before_t = smp_ipi_count(target, IPI_CALL_FUNC);
	before_me = smp_ipi_count(me, IPI_CALL_FUNC);
	for (int i = 0; i < 3; i++)
		ret |= smp_call_function_single(target, report_id, seen, true);
	after_t = smp_ipi_count(target, IPI_CALL_FUNC);
	after_me = smp_ipi_count(me, IPI_CALL_FUNC);
	preempt_enable();
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_EQ(t, seen[target].runs, 3u);
	if (target != me)
		KTEST_EXPECT_GE(t, after_t, before_t + 3);
	KTEST_EXPECT_EQ(t, after_me, before_me);
	KTEST_EXPECT_STREQ(t, smp_ipi_name(IPI_CALL_FUNC), "Function call interrupts");
	KTEST_EXPECT_STREQ(t, smp_ipi_name(IPI_RESCHEDULE), "Rescheduling interrupts");
	KTEST_EXPECT_TRUE(t, smp_ipi_name(NR_IPI) == NULL);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(smp_masks_consistent),
	KTEST_CASE(smp_each_cpu_reports_its_id),
	KTEST_CASE(smp_many_skips_the_caller),
	KTEST_CASE(smp_many_honours_the_mask),
	KTEST_CASE(smp_single_each_cpu),
	KTEST_CASE(smp_single_offline_is_enxio),
	KTEST_CASE(smp_wait_returns_after_the_function),
	KTEST_CASE(smp_nowait_returns_before_the_function),
	KTEST_CASE(smp_nowait_burst_all_run),
	KTEST_CASE(smp_ipi_counts_rise),
	{}
};
KTEST_SUITE(smp, smp_cases);

static void panic_here(void *arg)
{
	(void)arg;
	panic("smp_panic on CPU%u", smp_processor_id());
}

static void smp_panic_on_another_cpu(struct ktest *t)
{
	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU online");
		return;
	}
	preempt_disable();
	smp_call_function_single(other_online_cpu(), panic_here, NULL, true);
	preempt_enable();
	KTEST_EXPECT_TRUE(t, false);	/* never reached: the panic stopped this CPU */
}

static const struct ktest_case smp_panic_cases[] = {
	KTEST_CASE(smp_panic_on_another_cpu),
	{}
};
KTEST_SUITE_EXPLICIT(smp_panic, smp_panic_cases);
