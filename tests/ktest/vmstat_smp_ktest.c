/*
 * vmstat_smp_ktest.c - suite "vmstat_smp": the counters' per-CPU differentials
 * (include/tinymm/vmstat.h) with a worker pinned to every online CPU.  Node item: the workers
 * move NR_VMSCAN_IMMEDIATE up on even CPUs and down on odd ones by single pages, so each
 * CPU's differential crosses the threshold again and again and folds into the global; the
 * total is unchanged and exact, no differential is past the threshold, and vmstat_fold_all()
 * leaves them all zero with the global as before.  Event: each worker counts PGROTATED on its
 * own CPU; the sum rises by exactly what they counted, each CPU's share by its worker's.
 * With one CPU the same holds with one worker (+ only: the item's total moves and comes back).
 */
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include "tinymm/vmstat.h"

#define VS_ROUNDS	20000
#define VS_ITEM		NR_VMSCAN_IMMEDIATE	/* no folio is marked during the suite */
#define VS_EVENT	PGROTATED

struct vs_worker {
	unsigned int cpu;
	long delta;		/* +1 or -1 per round */
	int ran_on;
};

static int vs_worker_fn(void *arg)
{
	struct vs_worker *w = arg;

	w->ran_on = (int)raw_smp_processor_id();
	for (int i = 0; i < VS_ROUNDS; i++) {
		mod_node_page_state(VS_ITEM, w->delta);
		count_vm_events(VS_EVENT, 1);
	}
	return 0;
}

static void vmstat_smp_differentials_fold_exact(struct ktest *t)
{
	struct vs_worker w[NR_CPUS];
	struct task_struct *k[NR_CPUS];
	long event_before[NR_CPUS] = { 0 };
	unsigned int n = 0, cpu;
	long sum = 0;

	vmstat_fold_all();
	unsigned long item_before = global_node_page_state(VS_ITEM);
	unsigned long events_before = global_vm_event(VS_EVENT);
	long raw_before = atomic_long_read(&vm_node_stat[VS_ITEM]);

	for_each_possible_cpu(cpu)
		event_before[cpu] = atomic_long_read(&per_cpu_ptr(&vmstat_cpu, cpu)->events[VS_EVENT]);
	for_each_online_cpu(cpu) {
		struct cpumask m = { 1UL << cpu };

		/* One CPU: up only (a count of pages never goes below 0). */
		w[n] = (struct vs_worker){ .cpu = cpu, .delta = (n & 1) ? -1 : 1, .ran_on = -1 };
		k[n] = kthread_create(vs_worker_fn, &w[n], "vmstat/%u", cpu);
		KTEST_ASSERT_TRUE(t, k[n] != NULL);
		KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(k[n], &m), 0);
		sum += w[n].delta * VS_ROUNDS;
		n++;
	}
	for (unsigned int i = 0; i < n; i++)
		wake_up_process(k[i]);
	for (unsigned int i = 0; i < n; i++) {
		KTEST_EXPECT_EQ(t, kthread_join(k[i]), 0);
		KTEST_EXPECT_EQ(t, w[i].ran_on, (int)w[i].cpu);
	}

	/* Exact at once, folded or not; each differential within the threshold. */
	KTEST_EXPECT_EQ(t, (long)global_node_page_state(VS_ITEM), (long)item_before + sum);
	KTEST_EXPECT_EQ(t, global_vm_event(VS_EVENT), events_before + (unsigned long)n * VS_ROUNDS);
	for_each_possible_cpu(cpu) {
		long d = atomic_long_read(&per_cpu_ptr(&vmstat_cpu, cpu)->node_diff[VS_ITEM]);

		KTEST_EXPECT_LE(t, d, vmstat_threshold);
		KTEST_EXPECT_GE(t, d, -vmstat_threshold);
	}
	for (unsigned int i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, atomic_long_read(&per_cpu_ptr(&vmstat_cpu, w[i].cpu)->events[VS_EVENT]) -
				   event_before[w[i].cpu], (long)VS_ROUNDS);
	/* 20000 single pages past a threshold of at most 125: the global moved by folds. */
	if (n == 1)
		KTEST_EXPECT_NE(t, atomic_long_read(&vm_node_stat[VS_ITEM]), raw_before);

	/* Folded: no differential left, the global alone is the figure. */
	vmstat_fold_all();
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_EQ(t, atomic_long_read(&per_cpu_ptr(&vmstat_cpu, cpu)->node_diff[VS_ITEM]), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&vm_node_stat[VS_ITEM]), (long)item_before + sum);

	/* Back to where it was. */
	mod_node_page_state(VS_ITEM, -sum);
	vmstat_fold_all();
	KTEST_EXPECT_EQ(t, global_node_page_state(VS_ITEM), item_before);
}

static int vs_fls(unsigned long x)
{
	int n = 0;

	for (; x; x >>= 1)
		n++;
	return n;
}

/* v6.10's calculate_normal_threshold(): 2 * fls(CPUs online) * (1 + fls(managed / 128 MiB)),
 * at most 125: 4 / 8 / 12 on the virt boards at -smp 1 / 2 / 4 (a little under 256 MiB managed). */
static void vmstat_smp_threshold_from_cpus(struct ktest *t)
{
	/* The virt boards have one populated zone (ZONE_NORMAL): all of RAM the allocator has. */
	unsigned long managed = totalram_pages();
	long want;

	want = 2L * vs_fls(num_online_cpus()) * (1 + vs_fls(managed >> (27 - PAGE_SHIFT)));
	if (want > 125)
		want = 125;
	kprintf("    # vmstat threshold %ld: %u CPU(s) online, %lu pages managed\n",
		vmstat_threshold, num_online_cpus(), managed);
	KTEST_EXPECT_EQ(t, vmstat_threshold, want);
}

static const struct ktest_case vmstat_smp_cases[] = {
	KTEST_CASE(vmstat_smp_differentials_fold_exact),
	KTEST_CASE(vmstat_smp_threshold_from_cpus),
	{}
};
KTEST_SUITE_SMP(vmstat_smp, vmstat_smp_cases);
