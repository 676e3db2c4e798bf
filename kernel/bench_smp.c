/*
 * bench_smp.c - `bench smp`: the rows smp-order0-1cpu and smp-order0-2cpu (docs/benchmarks.md),
 * order-0 alloc+free pairs per second, unit ops/s: wall time, not instructions, because the
 * point is how the page allocator's per-CPU lists scale when two CPUs run at once (QEMU with
 * MTTCG, each guest CPU a host thread, without -icount, which would serialise them).
 *
 * One boot measures both: SMP_BENCH_SAMPLES rounds, each first one worker pinned to CPU 1
 * alone, then one worker on each of CPUs 0 and 1 at once, every worker allocating and freeing
 * one order-0 page in a loop for SMP_BENCH_MS.  A sample is the pairs done by the round's
 * workers together, per second.  The rows give min / lower median / max of the samples; one
 * more line states the ratio of the medians (the figure the issue sets a target for).  Needs two
 * CPUs online; the shell thread that runs it sleeps in kthread_join() meanwhile.
 */
#include "tinymm/bench.h"
#include "tinymm/delay.h"
#include "tinymm/board_config.h"
#include "tinymm/gfp.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include "tinymm/time.h"

#define SMP_BENCH_SAMPLES	5
#define SMP_BENCH_MS		200

struct smp_bench_worker {
	volatile int *go;
	unsigned long pairs, failed;
	uint64_t ns;
};

static int smp_bench_fn(void *arg)
{
	struct smp_bench_worker *w = arg;

	while (!READ_ONCE(*w->go))
		cpu_relax();
	uint64_t start = ktime_get_ns(), end = start + SMP_BENCH_MS * 1000000ULL, now;
	do {
		for (int i = 0; i < 64; i++) {
			struct page *p = alloc_pages(GFP_KERNEL, 0);

			if (!p) {
				w->failed++;
				continue;
			}
			__free_pages(p, 0);
			w->pairs++;
		}
		now = ktime_get_ns();
	} while (now < end);
	w->ns = now - start;
	return 0;
}

/* One round on the CPUs in @cpus (1 or 2 of them): pairs per second, 0 on failure. */
static unsigned long smp_bench_round(const unsigned int *cpus, unsigned int n)
{
	struct smp_bench_worker w[2] = { { 0 } };
	struct task_struct *t[2] = { NULL };
	volatile int go = 0;
	unsigned long per_s = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct cpumask pin = { 1UL << cpus[i] };

		w[i].go = &go;
		t[i] = kthread_create(smp_bench_fn, &w[i], "bench/%u", cpus[i]);
		if (!t[i] || set_cpus_allowed_ptr(t[i], &pin))
			return 0;
		wake_up_process(t[i]);
	}
	msleep(5);			/* both on their CPUs, spinning on go */
	WRITE_ONCE(go, 1);
	for (unsigned int i = 0; i < n; i++) {
		kthread_join(t[i]);
		if (w[i].failed || !w[i].ns)
			return 0;
		per_s += (unsigned long)(w[i].pairs * 1000000000ULL / w[i].ns);
	}
	return per_s;
}

static void sort_ul(unsigned long *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			unsigned long x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

int bench_smp(void)
{
	unsigned long one[SMP_BENCH_SAMPLES], two[SMP_BENCH_SAMPLES];
	static const unsigned int cpu1[1] = { 1 }, both[2] = { 0, 1 };

	if (!cpu_online(0) || !cpu_online(1)) {
		kprintf("bench: smp: needs CPUs 0 and 1 online (QEMU -smp 2 or more)\n");
		return 1;
	}
	for (int s = 0; s < SMP_BENCH_SAMPLES; s++) {
		one[s] = smp_bench_round(cpu1, 1);
		two[s] = smp_bench_round(both, 2);
		if (!one[s] || !two[s]) {
			kprintf("bench: smp: a round failed (no thread or no page)\n");
			return 1;
		}
	}
	sort_ul(one, SMP_BENCH_SAMPLES);
	sort_ul(two, SMP_BENCH_SAMPLES);
	unsigned long m1 = one[(SMP_BENCH_SAMPLES - 1) / 2], m2 = two[(SMP_BENCH_SAMPLES - 1) / 2];
	kprintf("bench\t%s\tsmp-order0-1cpu\t%lu\t%lu\t%lu\tops/s\n", BOARD_NAME, one[0], m1,
		one[SMP_BENCH_SAMPLES - 1]);
	kprintf("bench\t%s\tsmp-order0-2cpu\t%lu\t%lu\t%lu\tops/s\n", BOARD_NAME, two[0], m2,
		two[SMP_BENCH_SAMPLES - 1]);
	kprintf("bench: smp: 2 CPUs / 1 CPU = %lu.%02lu (medians, %d samples of %d ms)\n",
		m2 / m1, m2 % m1 * 100 / m1, SMP_BENCH_SAMPLES, SMP_BENCH_MS);
	return 0;
}
