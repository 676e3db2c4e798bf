/*
 * vmstat.c - the allocator's state as Linux shows it: the node and event counters, and
 * `buddyinfo` (/proc/buddyinfo exactly).  pagetypeinfo, zoneinfo and fragmap are in
 * vmstat_show.c, the `alloc` / `free` commands in page_alloc_cmd.c; docs/vmstat.md describes
 * every command's text.
 * The counters' per-CPU scheme is in include/tinymm/vmstat.h.
 * Locking: counters are read without the zone lock: snapshots, as /proc's are.  Differentials
 * are atomic: updated by whichever CPU counts, folded by xchg (never lost or counted twice).
 */
#include "tinymm/cache.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/vmstat.h"
#include "internal.h"

atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];
DEFINE_PER_CPU(struct vmstat_cpu, vmstat_cpu);
long vmstat_threshold __small_data;	/* 0 until refresh_zone_stat_thresholds(): every update folds */
unsigned long vmstat_threshold2 __small_data;
_Static_assert(sizeof(struct vmstat_cpu) == 512, "one shift of the CPU number");
void (*vmstat_fold_schedule)(void);
unsigned long vmalloc_total;
atomic_long_t nr_vmalloc_pages;

/* Past the threshold: this differential (whatever CPU it is now) into the global, and the fold
 * work armed for the others' remainders. */
void vmstat_fold_item(atomic_long_t *diff, enum node_stat_item item)
{
	long v = atomic_long_xchg(diff, 0);

	if (v)
		atomic_long_add(v, &vm_node_stat[item]);
	if (vmstat_fold_schedule)
		vmstat_fold_schedule();
}

bool vmstat_fold_all(void)
{
	bool any = false;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct vmstat_cpu *vc = per_cpu_ptr(&vmstat_cpu, cpu);

		for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++) {
			long v = atomic_long_read(&vc->node_diff[i]) ? atomic_long_xchg(&vc->node_diff[i], 0) : 0;

			if (v) {
				atomic_long_add(v, &vm_node_stat[i]);
				any = true;
			}
		}
	}
	return any;
}

unsigned long global_node_page_state(enum node_stat_item item)
{
	long v = atomic_long_read(&vm_node_stat[item]);
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		v += atomic_long_read(&per_cpu_ptr(&vmstat_cpu, cpu)->node_diff[item]);
	return v < 0 ? 0 : (unsigned long)v;
}

unsigned long global_vm_event(enum vm_event_item item)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		n += (unsigned long)atomic_long_read(&per_cpu_ptr(&vmstat_cpu, cpu)->events[item]);
	return n;
}

void node_page_state_set(enum node_stat_item item, long value)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		atomic_long_set(&per_cpu_ptr(&vmstat_cpu, cpu)->node_diff[item], 0);
	atomic_long_set(&vm_node_stat[item], value);
}

/*
 * v6.10's calculate_normal_threshold() for each populated zone, the node's the largest: more
 * CPUs and more memory allow a CPU to drift further before it folds (at most 125): on a virt
 * board (a little under 256 MiB managed) 2 * fls(cpus) * (1 + fls(1)) = 4, 8, 12 pages at
 * -smp 1, 2, 4.
 */
static int fls_uint(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

void refresh_zone_stat_thresholds(void)
{
	long best = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		unsigned long mem = zones[i].managed_pages >> (27 - PAGE_SHIFT);
		long t;

		if (!zones[i].managed_pages)
			continue;
		t = 2L * fls_uint((unsigned int)num_online_cpus()) * (1 + fls_uint((unsigned int)mem));
		if (t > 125)
			t = 125;
		if (t > best)
			best = t;
	}
	/* The pair changes only while one CPU runs (boot, then before the others count). */
	WRITE_ONCE(vmstat_threshold, best);
	WRITE_ONCE(vmstat_threshold2, 2 * (unsigned long)best);
}

void show_buddyinfo(int (*pr)(const char *fmt, ...))
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		const struct zone *z = &zones[i];
		if (!z->present_pages)
			continue;		/* unpopulated zones are skipped, as in Linux */
		pr("Node 0, zone %8s ", z->name);
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			pr("%6lu ", READ_ONCE(z->free_area[o].nr_free));
		pr("\n");
	}
}

static int cmd_buddyinfo(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	show_buddyinfo(kprintf);
	return 0;
}
SHELL_COMMAND(buddyinfo, "", "free blocks per zone and order, as /proc/buddyinfo", cmd_buddyinfo);
