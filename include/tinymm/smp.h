/*
 * smp.h - more than one CPU: CPU numbers and masks, per-CPU data, cross-CPU function calls
 * (kernel/smp.c), with Linux's names.
 *
 *   NR_CPUS (CONFIG_NR_CPUS, the board's TINYMM_NR_CPUS)  the most CPUs the image supports
 *   smp_processor_id()          this CPU's logical number, 0 the boot CPU; stable only while
 *                               preemption or interrupts are off (the task may move otherwise)
 *   raw_smp_processor_id()      the same without that promise (reports, statistics)
 *   cpu_logical_map(cpu)        its hardware id: ARM MPIDR affinity, RISC-V hart id
 *   cpu_online(cpu), num_online_cpus(), for_each_online_cpu(cpu), for_each_possible_cpu(cpu)
 *   DEFINE_PER_CPU(type, name) / DECLARE_PER_CPU(type, name): one copy per CPU;
 *   per_cpu(name, cpu) that CPU's copy (an lvalue), this_cpu_ptr(&name) / per_cpu_ptr(&name, cpu)
 *   pointers to them.  A copy belongs to its CPU: another CPU touches it only under a lock
 *   the copy's owner also takes, or when the owner is known to be idle or stopped.
 *
 *   this_cpu_fast()             this CPU's struct cpu_fast (below): on the boards one load from
 *                               the running task (thread_info.cpu_fast), no CPU-number arithmetic;
 *                               stable under the same rule as smp_processor_id()
 *   this_cpu_pcp_fast()         this_cpu_fast()->pcp_fast, on the boards the task's own copy
 *                               (thread_info.pcp_fast): one load
 *   this_cpu_slab_off()         smp_processor_id() * CPU_SLAB_STRIDE, on the boards the task's
 *                               thread_info.cpu_slab_off: one load (mm/slab.h: this CPU's cpu_slab)
 *   thread_set_cpu(ti, cpu)     the scheduler: the task runs on @cpu now (cpu, cpu_fast, pcp_fast)
 *
 *   smp_call_function_many(mask, func, info, wait)  run func(info) on every online CPU in
 *     @mask except the caller, from the IPI handler (interrupts masked there); @wait: return
 *     only once all have finished.  Called with interrupts enabled and preemption disabled
 *     (v6.10's rule: two CPUs each waiting on the other with interrupts off deadlock).
 *   smp_call_function_single(cpu, func, info, wait), on_each_cpu(func, info, wait) (also on
 *     the caller, with interrupts masked, as v6.10).
 *   smp_send_stop()  panic: every other CPU saves its state for the report and stops.
 *
 * Differences from v6.10: per-CPU data is an array indexed by CPU number (no per-CPU sections
 * and offsets: tinymm has at most a few CPUs and this keeps every copy visible to a debugger);
 * a cpumask is one word (NR_CPUS <= BITS_PER_LONG).
 */
#ifndef TINYMM_SMP_H
#define TINYMM_SMP_H

#include "atomic.h"
#include "bitops.h"
#include "kernel.h"
#include "thread_info.h"
#include <asm/processor.h>	/* raw_smp_processor_id() */

#ifndef CONFIG_NR_CPUS
#define CONFIG_NR_CPUS		1
#endif
#define NR_CPUS			CONFIG_NR_CPUS

_Static_assert(NR_CPUS >= 1 && NR_CPUS <= 8 * (int)sizeof(unsigned long), "one-word cpumask");

struct cpumask {
	unsigned long bits;
};

extern struct cpumask __cpu_possible_mask, __cpu_online_mask;
#define cpu_possible_mask	((const struct cpumask *)&__cpu_possible_mask)
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)
/* The number of possible CPUs (those in the device tree, at most NR_CPUS). */
extern unsigned int nr_cpu_ids;

static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return cpu < NR_CPUS && (READ_ONCE(m->bits) >> cpu) & 1;
}
static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	return (unsigned int)__builtin_popcountl(READ_ONCE(m->bits));
}
static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_or(&m->bits, 1UL << cpu, __ATOMIC_SEQ_CST);
}
static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_and(&m->bits, ~(1UL << cpu), __ATOMIC_SEQ_CST);
}
#define cpu_online(cpu)		cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_possible(cpu)	cpumask_test_cpu((cpu), cpu_possible_mask)
#define num_online_cpus()	cpumask_weight(cpu_online_mask)
#define for_each_cpu(cpu, mask)							\
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)					\
		if (cpumask_test_cpu((cpu), (mask)))
#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)

#define smp_processor_id()	raw_smp_processor_id()

/* Hardware ids, index = logical CPU number (boot/ fills it from the device tree). */
extern unsigned long __cpu_logical_map[NR_CPUS];
#define cpu_logical_map(cpu)	(__cpu_logical_map[(cpu)])

#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name[NR_CPUS]
#define DEFINE_PER_CPU(type, name)	__typeof__(type) name[NR_CPUS]
#define per_cpu(name, cpu)		((name)[(cpu)])
#define per_cpu_ptr(ptr, cpu)		(&(*(ptr))[(cpu)])
#define this_cpu_ptr(ptr)		per_cpu_ptr((ptr), smp_processor_id())
#define raw_cpu_ptr(ptr)		per_cpu_ptr((ptr), raw_smp_processor_id())

/*
 * The per-CPU pointers the page allocator's fast paths need (mm/page_alloc_fast.c, mm/pcp.c),
 * reached through the running task in one load: with a per-CPU array indexed by CPU number the
 * number's load, a shift and an add would come first on every call (docs/benchmarks.md, "SMP
 * (issue 38)").  Written by mm at boot (page_alloc_init, page poisoning), read by its CPU only.
 */
struct per_cpu_pages;
#define CPU_FAST_ZONES		4	/* >= MAX_NR_ZONES (mm/pcp.c asserts it) */
struct cpu_fast {
	struct per_cpu_pages *pcp_fast;	/* the preferred zone's lists, or pcp_off (empty lists) */
	struct per_cpu_pages *zone_pcp[CPU_FAST_ZONES];	/* by zone index; NULL: no free fast path */
};
DECLARE_PER_CPU(struct cpu_fast, cpu_fast);
/* The size of mm/slab.h's struct kmem_cache_cpu (asserted there): a per-CPU array's stride. */
#define CPU_SLAB_STRIDE		(2 * sizeof(void *))
#ifndef this_cpu_fast
#define this_cpu_fast()		(&per_cpu(cpu_fast, smp_processor_id()))
#define this_cpu_pcp_fast()	(this_cpu_fast()->pcp_fast)
#define this_cpu_slab_off()	((unsigned long)smp_processor_id() * CPU_SLAB_STRIDE)
#endif
/* The copy of pcp_fast is only ever an older value of the same CPU's entry: mm fills the table
 * once at boot (pcp_off before, so a stale copy only sends the task to the slow path). */
static inline void thread_set_cpu(struct thread_info *ti, unsigned int cpu)
{
	ti->cpu = cpu;
	ti->cpu_fast = &per_cpu(cpu_fast, cpu);
	ti->pcp_fast = per_cpu(cpu_fast, cpu).pcp_fast;
	ti->cpu_slab_off = cpu * CPU_SLAB_STRIDE;
}

/* The software interrupts (v6.10 arm's and riscv's names; `irqs` prints one row each). */
enum ipi_msg_type {
	IPI_RESCHEDULE,		/* "Rescheduling interrupts": the woken task should run here */
	IPI_CALL_FUNC,		/* "Function call interrupts": smp_call_function_*() */
	IPI_CPU_STOP,		/* "CPU stop interrupts": smp_send_stop() */
	IPI_TIMER,		/* "Timer broadcast interrupts" (unused while every CPU has a timer) */
	NR_IPI
};

typedef void (*smp_call_func_t)(void *info);
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			    bool wait);
int smp_call_function_single(unsigned int cpu, smp_call_func_t func, void *info, bool wait);
void on_each_cpu(smp_call_func_t func, void *info, bool wait);
void smp_send_stop(void);
/* Ask @cpu to reschedule (IPI_RESCHEDULE); the scheduler's wake-up path. */
void smp_send_reschedule(unsigned int cpu);

/* Start the other CPUs the device tree lists (the first thread, before anything else). */
void smp_init(void);
/* A CPU that panics while another already does: stop here, state recorded for the report. */
__noreturn void panic_smp_self_stop(void);
/* `irqs` and tests: IPIs of type @ipi taken by @cpu, and the type's name as /proc/interrupts
 * prints it (NULL past NR_IPI). */
unsigned long smp_ipi_count(unsigned int cpu, unsigned int ipi);
const char *smp_ipi_name(unsigned int ipi);

#endif
