/*
 * smp.c - the generic half of SMP (include/tinymm/smp.h, docs/smp.md): which CPUs exist
 * (the device tree's cpus node), starting them (arch_cpu_boot), cross-CPU function calls,
 * the IPI dispatch with per-CPU counts, stopping the others on panic, and `cpus`.
 *
 * Bring-up (smp_init, from the first thread): logical CPU 0 is the boot CPU; the other cpu
 * nodes get 1, 2, ... in tree order (v6.10's arm_dt_init_cpu_maps order), at most NR_CPUS.
 * Each one gets an idle task (fork_idle) and is started by the architecture; it runs
 * secondary_start_kernel(), which sets up its interrupt controller interface and timer
 * (arch_secondary_init) and marks itself online.  A CPU that is not online within
 * SMP_BOOT_TIMEOUT_MS is reported ("CPU%u: failed to come online") and given up: its state
 * moves BOOTING -> DEAD with a cmpxchg, and a CPU that arrives after that finds DEAD and parks
 * with interrupts masked instead of going online, so a late CPU never joins half-counted.
 *
 * Cross-CPU calls are v6.10's call_single_data queues: each CPU has a lock-free list of
 * requests (call_single_queue); a caller fills its own per-CPU csd for each target (its LOCK
 * flag held until the target is done with it), pushes it and raises IPI_CALL_FUNC only when
 * the list was empty (the target drains the whole list per interrupt).  With @wait the target
 * unlocks after the function ran and the caller spins on the flag; without it the target
 * copies func/info and unlocks first.  The function runs in the target's IPI handler, hard
 * irq context, interrupts masked.
 *
 * Panic: smp_send_stop() raises IPI_CPU_STOP; each CPU records what it ran (task, frame
 * chain of the interrupted code) and leaves the online mask, then spins with interrupts
 * masked.  The panicking CPU prints every stopped CPU's record itself, one after the other:
 * v6.10's arm prints from each stopping CPU under the console lock; printing from one CPU keeps
 * the report in one piece whatever the console's locking.
 *
 * Differences from v6.10: no CPU hotplug (a CPU that is online stays online until a panic
 * stops it); one node; logical numbers of CPUs that failed stay unused (possible, never
 * online).  IPI counts are kept here per CPU, not as interrupt descriptors.
 * Locking: cpu_state[] changes by cmpxchg only; the online mask by atomic bit ops; the call
 * queues are lock-free (xchg/cmpxchg); a csd belongs to the CPU holding its LOCK flag.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/cmdline.h"
#include "tinymm/delay.h"
#include "tinymm/devicetree.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/irqflags.h"
#include "tinymm/kallsyms.h"
#include "tinymm/preempt.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"
#include "tinymm/smp.h"
#include "tinymm/vmstat.h"
#include "tinymm/stacktrace.h"
#include "tinymm/time.h"
#include "tinymm/timer.h"

#define SMP_BOOT_TIMEOUT_MS	2000	/* v6.10 waits 1 s; MTTCG on a loaded 2-core host is slower */
#define SMP_STOP_TIMEOUT_MS	1000	/* v6.10's smp_send_stop(): one second */
#define STOP_FRAMES		16

/* The masks, nr_cpu_ids and __cpu_logical_map are in kernel/cpu.c. */

enum cpu_boot_state { CPU_ABSENT, CPU_BOOTING, CPU_ONLINE, CPU_DEAD };
static int cpu_state[NR_CPUS] = { CPU_ONLINE };

/* ---- cross-CPU calls ---- */

struct llist_node {
	struct llist_node *next;
};

#define CSD_FLAG_LOCK		0x01u
#define CSD_TYPE_SYNC		0x10u	/* the caller waits: unlock after the function ran */

struct call_single_data {
	struct llist_node node;		/* first: a queue entry is its csd */
	unsigned int flags;
	smp_call_func_t func;
	void *info;
};

/* A caller's csds, one per target (v6.10's struct call_function_data). */
struct call_function_data {
	struct call_single_data csd[NR_CPUS];
};

static DEFINE_PER_CPU(struct llist_node *, call_single_queue);
static DEFINE_PER_CPU(struct call_function_data, cfd_data);
static DEFINE_PER_CPU(struct call_single_data, csd_data);
static DEFINE_PER_CPU(unsigned long[NR_IPI], ipi_counts);

/* Push @n; true if the list was empty (the target needs an interrupt). */
static bool llist_add(struct llist_node *n, struct llist_node **head)
{
	struct llist_node *first = READ_ONCE(*head);

	for (;;) {
		n->next = first;
		struct llist_node *seen = cmpxchg(head, first, n);	/* fully ordered */
		if (seen == first)
			return !first;
		first = seen;
	}
}

static void csd_lock_wait(struct call_single_data *csd)
{
	while (smp_load_acquire(&csd->flags) & CSD_FLAG_LOCK)
		cpu_relax();
}

static void csd_lock(struct call_single_data *csd)
{
	csd_lock_wait(csd);
	csd->flags = CSD_FLAG_LOCK;
	smp_wmb();	/* the flag before the new func/info (v6.10's csd_lock) */
}

static void csd_unlock(struct call_single_data *csd)
{
	smp_store_release(&csd->flags, 0);	/* everything the function did, then the flag */
}

/* Queue @csd (locked, filled) on @cpu; raise IPI_CALL_FUNC if its queue was empty. */
static void csd_queue(struct call_single_data *csd, unsigned int cpu, struct cpumask *ipi)
{
	if (llist_add(&csd->node, &per_cpu(call_single_queue, cpu)))
		cpumask_set_cpu(cpu, ipi);
}

/* The IPI_CALL_FUNC handler: run this CPU's whole queue, oldest first. */
static void flush_smp_call_function_queue(void)
{
	struct llist_node *n = xchg(this_cpu_ptr(&call_single_queue), NULL), *rev = NULL;

	while (n) {		/* the list is newest first */
		struct llist_node *next = n->next;
		n->next = rev;
		rev = n;
		n = next;
	}
	for (n = rev; n; ) {
		struct call_single_data *csd = (struct call_single_data *)n;
		struct llist_node *next = n->next;	/* before the unlock: csd may be reused */
		smp_call_func_t func = csd->func;
		void *info = csd->info;

		if (csd->flags & CSD_TYPE_SYNC) {
			func(info);
			csd_unlock(csd);
		} else {
			csd_unlock(csd);
			func(info);
		}
		n = next;
	}
}

/*
 * v6.10's smp_call_function_many_cond(): @run_local adds the caller (on_each_cpu), run with
 * interrupts masked after the others were asked and before waiting for them.
 */
static void call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			       bool wait, bool run_local)
{
	unsigned int this = smp_processor_id(), cpu;
	struct call_function_data *cfd = this_cpu_ptr(&cfd_data);
	struct cpumask targets = { READ_ONCE(mask->bits) & READ_ONCE(cpu_online_mask->bits) &
				   ~(1UL << this) };
	struct cpumask ipi = { 0 };

	/* Two CPUs each waiting for the other with interrupts masked would deadlock (v6.10). */
	WARN_ON_ONCE(irqs_disabled() && cpu_online(this));
	for_each_cpu(cpu, &targets) {
		struct call_single_data *csd = &cfd->csd[cpu];

		csd_lock(csd);
		if (wait)
			csd->flags |= CSD_TYPE_SYNC;
		csd->func = func;
		csd->info = info;
		csd_queue(csd, cpu, &ipi);
	}
	if (ipi.bits)
		arch_send_ipi_mask(&ipi, IPI_CALL_FUNC);
	if (run_local && cpumask_test_cpu(this, mask)) {
		unsigned long flags;

		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
	}
	if (wait)
		for_each_cpu(cpu, &targets)
			csd_lock_wait(&cfd->csd[cpu]);
}

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			    bool wait)
{
	call_function_many(mask, func, info, wait, false);
}

void on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	preempt_disable();
	call_function_many(cpu_online_mask, func, info, wait, true);
	preempt_enable();
}

int smp_call_function_single(unsigned int cpu, smp_call_func_t func, void *info, bool wait)
{
	struct call_single_data stack_csd, *csd;
	struct cpumask ipi = { 0 };
	unsigned int this;

	preempt_disable();
	this = smp_processor_id();
	WARN_ON_ONCE(irqs_disabled() && cpu_online(this));
	if (cpu == this) {
		unsigned long flags;

		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
		preempt_enable();
		return 0;
	}
	if (cpu >= NR_CPUS || !cpu_online(cpu)) {
		preempt_enable();
		return -ENXIO;
	}
	/* Waiting: the csd lives on our stack until the target unlocks it.  Not waiting: the
	 * CPU's own one, whose previous use must have finished (v6.10's csd_data). */
	csd = wait ? &stack_csd : this_cpu_ptr(&csd_data);
	if (wait)
		csd->flags = CSD_FLAG_LOCK | CSD_TYPE_SYNC;
	else
		csd_lock(csd);
	csd->func = func;
	csd->info = info;
	csd_queue(csd, cpu, &ipi);
	if (ipi.bits)
		arch_send_ipi_mask(&ipi, IPI_CALL_FUNC);
	if (wait)
		csd_lock_wait(csd);
	preempt_enable();
	return 0;
}

void smp_send_reschedule(unsigned int cpu)
{
	struct cpumask m = { 1UL << cpu };

	if (cpu < NR_CPUS)
		arch_send_ipi_mask(&m, IPI_RESCHEDULE);
}

/* ---- stopping CPUs (panic) ---- */

/* What a stopped CPU was running, for the panicking CPU to print. */
struct cpu_stop_record {
	bool valid;
	int pid;
	char comm[TASK_COMM_LEN];
	unsigned int nr;
	unsigned long pc[STOP_FRAMES];
};

static DEFINE_PER_CPU(struct cpu_stop_record, stop_record);
static struct cpumask cpus_stopped;

/* Record this CPU's task and frame chain (through the interrupted code: the arch's IRQ entry
 * links its frame to it), leave the online mask, and spin with interrupts masked. */
static __noreturn void local_cpu_stop(unsigned int cpu)
{
	struct cpu_stop_record *r = per_cpu_ptr(&stop_record, cpu);
	struct stackframe f = { .fp = (unsigned long)__builtin_frame_address(0),
				.pc = (unsigned long)local_cpu_stop };
	unsigned long lo, hi;

	local_irq_disable();
	r->pid = current ? current->pid : -1;
	strncpy(r->comm, current ? current->comm : "?", sizeof(r->comm) - 1);
	r->nr = 0;
	if (stack_bounds(f.fp, &lo, &hi))
		while (r->nr < STOP_FRAMES && !arch_unwind_frame(&f, lo, hi))
			r->pc[r->nr++] = f.pc;
	r->valid = true;
	cpumask_set_cpu(cpu, &cpus_stopped);	/* fully ordered: the record first */
	cpumask_clear_cpu(cpu, &__cpu_online_mask);
	for (;;)
		arch_cpu_idle();	/* wakes on a pending interrupt, which stays untaken */
}

/* A second CPU panicking while another already does (v6.10's panic_smp_self_stop). */
__noreturn void panic_smp_self_stop(void)
{
	local_cpu_stop(raw_smp_processor_id());
}

static void print_stop_record(unsigned int cpu)
{
	const struct cpu_stop_record *r = per_cpu_ptr(&stop_record, cpu);

	printk(KERN_EMERG "CPU%u: stopping\n", cpu);
	if (!r->valid)
		return;
	printk(KERN_EMERG "CPU: %u PID: %d Comm: %s\n", cpu, r->pid, r->comm);
	printk(KERN_EMERG "Call trace:\n");
	for (unsigned int i = 0; i < r->nr; i++) {
		unsigned long off, size;
		const char *name = kallsyms_lookup(r->pc[i] - 1, &off, &size);

		if (name)
			printk(KERN_EMERG " [<%0*lx>] %s+0x%lx/0x%lx\n", (int)sizeof(long) * 2,
			       r->pc[i], name, off + 1, size);
		else
			printk(KERN_EMERG " [<%0*lx>] ?\n", (int)sizeof(long) * 2, r->pc[i]);
	}
}

/*
 * Every other online CPU stops, its state then printed here.  Called by panic() with
 * interrupts in any state: waits by the clock, never by sleeping.
 */
void smp_send_stop(void)
{
	unsigned int this = raw_smp_processor_id(), cpu;
	struct cpumask others = { READ_ONCE(cpu_online_mask->bits) & ~(1UL << this) };

	if (others.bits) {
		uint64_t end = ktime_get_ns() + SMP_STOP_TIMEOUT_MS * 1000000ULL;

		arch_send_ipi_mask(&others, IPI_CPU_STOP);
		while ((READ_ONCE(cpu_online_mask->bits) & others.bits) && ktime_get_ns() < end)
			cpu_relax();
		struct cpumask left = { READ_ONCE(cpu_online_mask->bits) & others.bits };
		if (left.bits) {
			/* v6.10's words and list format ("0,2"); such a CPU spins with interrupts
			 * masked (on a lock the panicking CPU holds, say): it has no record. */
			char list[3 * NR_CPUS + 1];
			size_t n = 0;

			list[0] = '\0';
			for_each_cpu(cpu, &left)
				n += (size_t)ksnprintf(list + n, sizeof(list) - n, n ? ",%u" : "%u", cpu);
			printk(KERN_EMERG "SMP: failed to stop secondary CPUs %s\n", list);
		}
	}
	smp_rmb();	/* the records after the stopped mask (set after them) */
	for_each_cpu(cpu, &cpus_stopped)
		if (cpu != this)
			print_stop_record(cpu);
}

/* ---- IPI dispatch ---- */

static const char *const ipi_types[NR_IPI] = {
	[IPI_RESCHEDULE]	= "Rescheduling interrupts",
	[IPI_CALL_FUNC]		= "Function call interrupts",
	[IPI_CPU_STOP]		= "CPU stop interrupts",
	[IPI_TIMER]		= "Timer broadcast interrupts",
};

const char *smp_ipi_name(unsigned int ipi)
{
	return ipi < NR_IPI ? ipi_types[ipi] : NULL;
}

unsigned long smp_ipi_count(unsigned int cpu, unsigned int ipi)
{
	return cpu < NR_CPUS && ipi < NR_IPI ? READ_ONCE(per_cpu(ipi_counts, cpu)[ipi]) : 0;
}

/* From the arch's interrupt entry (irq_enter() done), interrupts masked. */
void handle_IPI(unsigned int ipi)
{
	unsigned int cpu = smp_processor_id();

	if (ipi >= NR_IPI) {
		pr_err("CPU%u: Unknown IPI message 0x%x\n", cpu, ipi);
		return;
	}
	per_cpu(ipi_counts, cpu)[ipi]++;	/* only this CPU writes its counts */
	switch (ipi) {
	case IPI_RESCHEDULE:
		scheduler_ipi();
		break;
	case IPI_CALL_FUNC:
		flush_smp_call_function_queue();
		break;
	case IPI_CPU_STOP:
		local_cpu_stop(cpu);
	default:
		break;
	}
}

/* ---- bring-up ---- */

/* An architecture (or a board) with no way to start CPUs yet: the boot CPU alone. */
__attribute__((weak)) int arch_cpu_boot(unsigned int cpu, unsigned long hwid,
					struct task_struct *idle)
{
	(void)cpu;
	(void)hwid;
	(void)idle;
	return -ENODEV;
}

__attribute__((weak)) void arch_secondary_init(unsigned int cpu)
{
	(void)cpu;
}

__attribute__((weak)) void arch_send_ipi_mask(const struct cpumask *mask, unsigned int ipi)
{
	(void)mask;
	(void)ipi;
}

/* On the new CPU, from the arch's entry: current is its idle task, interrupts masked. */
void secondary_start_kernel(void)
{
	unsigned int cpu = smp_processor_id();

	arch_secondary_init(cpu);
	if (cmpxchg(&cpu_state[cpu], CPU_BOOTING, CPU_ONLINE) != CPU_BOOTING) {
		/* Given up on (too late): stay out, interrupts masked, never online. */
		for (;;)
			arch_cpu_idle();
	}
	cpumask_set_cpu(cpu, &__cpu_online_mask);
	clockevent_update();	/* this CPU's own clock event (kernel/timer.c) */
	cpu_idle_loop();	/* the scheduler gives it tasks from here */
}

static void bringup_cpu(unsigned int cpu)
{
	unsigned long hwid = cpu_logical_map(cpu);
	struct task_struct *idle = fork_idle(cpu);
	int ret;

	if (!idle) {
		pr_err("CPU%u: no memory for its idle task: not started\n", cpu);
		return;
	}
	WRITE_ONCE(cpu_state[cpu], CPU_BOOTING);
	ret = arch_cpu_boot(cpu, hwid, idle);
	if (ret) {
		WRITE_ONCE(cpu_state[cpu], CPU_DEAD);
		pr_err("CPU%u: failed to boot: %d\n", cpu, ret);
		return;
	}
	uint64_t end = ktime_get_ns() + SMP_BOOT_TIMEOUT_MS * 1000000ULL;
	while (!cpu_online(cpu) && ktime_get_ns() < end)
		msleep(1);
	if (!cpu_online(cpu) && cmpxchg(&cpu_state[cpu], CPU_BOOTING, CPU_DEAD) == CPU_BOOTING) {
		pr_err("CPU%u: failed to come online (hwid 0x%lx, %u ms): skipped\n", cpu, hwid,
		       SMP_BOOT_TIMEOUT_MS);
		return;
	}
	while (!cpu_online(cpu))	/* it won the race: online in a moment */
		cpu_relax();
	pr_info("CPU%u: Booted secondary processor 0x%lx\n", cpu, hwid);
}

/* The cpu nodes' hardware ids, boot CPU first: fills the logical map and the possible mask. */
static void smp_setup_cpu_maps(const struct dt *dt)
{
	int cpus = dt_path(dt, "/cpus", 5);
	unsigned int extra = 0;

	__cpu_logical_map[0] = boot_cpu_hwid;
	for (int n = cpus >= 0 ? dt_first_child(dt, cpus) : -1; n >= 0; n = dt_next_sibling(dt, n)) {
		const char *type = dt_getprop_str(dt, n, "device_type");
		uint64_t reg, size;
		bool dup = false;

		if (!type || strcmp(type, "cpu"))
			continue;
		if (!dt_node_is_available(dt, n))
			continue;		/* disabled (the HiFive's monitor hart) */
		if (dt_reg(dt, n, 0, &reg, &size)) {
			pr_err("smp: %s has no reg: ignored\n", dt_node_name(dt, n));
			continue;
		}
		if (reg == boot_cpu_hwid)
			continue;
		for (unsigned int c = 1; c < nr_cpu_ids; c++)
			dup |= __cpu_logical_map[c] == reg;
		if (dup) {
			pr_err("smp: %s: hwid 0x%llx listed twice: ignored\n", dt_node_name(dt, n),
			       (unsigned long long)reg);
			continue;
		}
		if (nr_cpu_ids == NR_CPUS) {
			extra++;
			continue;
		}
		__cpu_logical_map[nr_cpu_ids] = (unsigned long)reg;
		cpumask_set_cpu(nr_cpu_ids, &__cpu_possible_mask);
		nr_cpu_ids++;
	}
	if (extra)
		pr_warn("smp: %u more CPU%s in the device tree than NR_CPUS=%d: not started\n", extra,
			extra > 1 ? "s" : "", NR_CPUS);
}

void smp_init(void)
{
	unsigned int n;

	smp_setup_cpu_maps(boot_dt());
	for (unsigned int cpu = 1; cpu < nr_cpu_ids; cpu++)
		bringup_cpu(cpu);
	/* The per-CPU page lists' high, split over the CPUs now known (v6.10 redoes it as each
	 * CPU comes online: page_alloc_cpu_online -> zone_pcp_update). */
	if (nr_cpu_ids > 1) {
		zone_pcp_update_all();
		refresh_zone_stat_thresholds();	/* v6.10: vmstat_cpu_online */
	}
	n = num_online_cpus();
	pr_info("smp: Brought up 1 node, %u CPU%s\n", n, n > 1 ? "s" : "");
}

/* ---- `cpus` ---- */

struct cpu_running {
	int pid;
	char comm[TASK_COMM_LEN];
	bool seen;
};

/* Runs on each online CPU in its IPI handler (or here): whatever it interrupted is current. */
static void note_running(void *arg)
{
	struct cpu_running *r = &((struct cpu_running *)arg)[smp_processor_id()];

	r->pid = current ? current->pid : -1;
	strncpy(r->comm, current ? current->comm : "?", sizeof(r->comm) - 1);
	r->comm[sizeof(r->comm) - 1] = '\0';
	r->seen = true;
}

static int cmd_cpus(int argc, char **argv)
{
	static struct cpu_running running[NR_CPUS];	/* the shell thread is the only caller */
	unsigned int cpu;

	if (shell_no_args(argc, argv))
		return 2;
	memset(running, 0, sizeof(running));
	on_each_cpu(note_running, running, true);
	kprintf("CPU  %-10s  %-8s  %5s  %s\n", "hwid", "state", "PID", "running");
	for_each_possible_cpu(cpu) {
		const struct cpu_running *r = &running[cpu];
		int st = READ_ONCE(cpu_state[cpu]);
		const char *state = cpu_online(cpu) ? "online" :
				    cpumask_test_cpu(cpu, &cpus_stopped) ? "stopped" :
				    st == CPU_DEAD ? "failed" : "offline";

		if (r->seen)
			kprintf("%3u  0x%-8lx  %-8s  %5d  %s\n", cpu, cpu_logical_map(cpu), state,
				r->pid, r->comm);
		else
			kprintf("%3u  0x%-8lx  %-8s  %5s  -\n", cpu, cpu_logical_map(cpu), state, "-");
	}
	kprintf("%u of %u CPUs online (NR_CPUS %d)\n", num_online_cpus(), nr_cpu_ids, NR_CPUS);
	return 0;
}
SHELL_COMMAND(cpus, "", "the CPUs: hardware id (MPIDR affinity, hart id), state, what each runs",
	      cmd_cpus);
