/*
 * sched_smp_ktest.c - suite "sched_smp": the scheduler across CPUs (kernel/sched.c).  A thread
 * pinned to a CPU runs there; the caller moves itself and comes back; two spinning threads of
 * equal priority run at once on two CPUs (on one CPU: in turns, by round-robin preemption);
 * a sleeper pinned to another CPU is woken there by a wake-up from this one, through
 * IPI_RESCHEDULE.  With one CPU online every case checks the one-CPU behaviour instead, so
 * nothing is skipped; tests/qemu/smp.cmake boots it at -smp 2 and 4.
 */
#include "tinymm/completion.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include "tinymm/time.h"
#include "tinymm/timer.h"

static struct cpumask one_cpu(unsigned int cpu)
{
	return (struct cpumask){ 1UL << cpu };
}

static const struct cpumask all_cpus = { ~0UL };

/* The last online CPU: another than the boot CPU when there is one. */
static unsigned int last_online_cpu(void)
{
	unsigned int cpu, last = 0;

	for_each_online_cpu(cpu)
		last = cpu;
	return last;
}

struct pinned {
	unsigned int cpu;	/* asked for */
	int ran_on;		/* seen, -1: never ran */
};

static int pinned_fn(void *arg)
{
	struct pinned *p = arg;

	WRITE_ONCE(p->ran_on, (int)raw_smp_processor_id());
	return 0;
}

/* A new thread pinned (before its first run) to each online CPU runs there. */
static void sched_smp_pinned_thread_runs_there(struct ktest *t)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct pinned p = { .cpu = cpu, .ran_on = -1 };
		struct task_struct *k = kthread_create(pinned_fn, &p, "pinned/%u", cpu);
		KTEST_ASSERT_TRUE(t, k != NULL);
		struct cpumask m = one_cpu(cpu);
		KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(k, &m), 0);
		wake_up_process(k);
		KTEST_EXPECT_EQ(t, kthread_join(k), 0);
		KTEST_EXPECT_EQ(t, p.ran_on, (int)cpu);
	}
}

/* The caller moves itself to the last online CPU at once, then back anywhere; an empty mask
 * (no possible CPU in it) is refused. */
static void sched_smp_caller_moves_itself(struct ktest *t)
{
	unsigned int target = last_online_cpu();
	struct cpumask m = one_cpu(target), none = { 0 };

	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(current, &none), -EINVAL);
	KTEST_ASSERT_EQ(t, set_cpus_allowed_ptr(current, &m), 0);
	KTEST_EXPECT_EQ(t, raw_smp_processor_id(), (int)target);
	KTEST_EXPECT_EQ(t, task_cpu(current), target);
	msleep(2);		/* woken later: still only there */
	KTEST_EXPECT_EQ(t, raw_smp_processor_id(), (int)target);
	m = one_cpu(0);
	KTEST_ASSERT_EQ(t, set_cpus_allowed_ptr(current, &m), 0);
	KTEST_EXPECT_EQ(t, raw_smp_processor_id(), 0);
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(current, &all_cpus), 0);
}

struct spinner {
	volatile bool running, saw_other, done;
	volatile int cpu_when_saw;
	struct spinner *other;
};

/* Spin until the other one is seen running too (1 s at most, wall clock). */
static int spinner_fn(void *arg)
{
	struct spinner *s = arg;
	uint64_t end = ktime_get_ns() + NSEC_PER_SEC;

	WRITE_ONCE(s->running, true);
	smp_mb();
	while (ktime_get_ns() < end) {
		if (READ_ONCE(s->other->running)) {
			s->cpu_when_saw = raw_smp_processor_id();
			s->saw_other = true;
			break;
		}
	}
	smp_mb();
	/* Stay running a little so the other one sees us even on one CPU's round-robin. */
	mdelay(1);
	WRITE_ONCE(s->done, true);
	return 0;
}

/* Two busy threads: on two CPUs they run at the same time, each on its own CPU; on one CPU
 * the second gets its turn when the first's slice ends (round-robin), so each still sees the
 * other running. */
static void sched_smp_two_spinners_run_in_parallel(struct ktest *t)
{
	struct spinner a = { 0 }, b = { 0 };

	a.other = &b;
	b.other = &a;
	struct task_struct *ka = kthread_create(spinner_fn, &a, "spin-a");
	struct task_struct *kb = kthread_create(spinner_fn, &b, "spin-b");
	KTEST_ASSERT_TRUE(t, ka && kb);
	wake_up_process(ka);
	wake_up_process(kb);
	KTEST_EXPECT_EQ(t, kthread_join(ka), 0);
	KTEST_EXPECT_EQ(t, kthread_join(kb), 0);
	KTEST_EXPECT_TRUE(t, a.saw_other);
	KTEST_EXPECT_TRUE(t, b.saw_other);
	if (num_online_cpus() >= 3)	/* this thread sleeps in join: two CPUs are free */
		KTEST_EXPECT_NE(t, a.cpu_when_saw, b.cpu_when_saw);
}

struct sleeper {
	struct completion go;
	volatile int woke_on;
};

static int sleeper_fn(void *arg)
{
	struct sleeper *s = arg;

	wait_for_completion(&s->go);
	s->woke_on = raw_smp_processor_id();
	return 0;
}

/* A sleeper pinned to another CPU is woken by this one: it runs there, and that CPU took a
 * reschedule IPI (on one CPU: the sleeper runs on this one, no IPI).  The IPI goes only when
 * what runs there has a lower or equal priority (idle, mostly): a worker of a higher one may
 * be running there now, so up to five tries for one with the IPI. */
static bool remote_wakeup_once(struct ktest *t, unsigned int target)
{
	struct sleeper s = { .woke_on = -1 };
	struct cpumask m = one_cpu(target);
	bool ipi;

	init_completion(&s.go);
	struct task_struct *k = kthread_create(sleeper_fn, &s, "sleeper");
	KTEST_EXPECT_TRUE(t, k != NULL);
	if (!k)
		return false;
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(k, &m), 0);
	wake_up_process(k);
	msleep(5);		/* it is asleep on its completion by now */
	m = one_cpu(0);
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(current, &m), 0);
	unsigned long before = smp_ipi_count(target, IPI_RESCHEDULE);
	complete(&s.go);
	KTEST_EXPECT_EQ(t, kthread_join(k), 0);
	KTEST_EXPECT_EQ(t, s.woke_on, (int)target);
	ipi = smp_ipi_count(target, IPI_RESCHEDULE) > before;
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(current, &all_cpus), 0);
	return ipi;
}

static void sched_smp_remote_wakeup_sends_ipi(struct ktest *t)
{
	unsigned int target = last_online_cpu();
	bool ipi = false;

	for (int i = 0; i < 5 && !ipi; i++)
		ipi = remote_wakeup_once(t, target);
	KTEST_EXPECT_EQ(t, ipi, target != 0);
}

static const struct ktest_case sched_smp_cases[] = {
	KTEST_CASE(sched_smp_pinned_thread_runs_there),
	KTEST_CASE(sched_smp_caller_moves_itself),
	KTEST_CASE(sched_smp_two_spinners_run_in_parallel),
	KTEST_CASE(sched_smp_remote_wakeup_sends_ipi),
	{}
};
KTEST_SUITE_SMP(sched_smp, sched_smp_cases);
