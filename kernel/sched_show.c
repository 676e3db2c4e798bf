/*
 * sched_show.c - the scheduler's shell commands: `ps`, `uptime`, `sleep <ms>`.
 * Output is bare (shell contract).  Locking: ps snapshots each task with interrupts masked.
 * ps's VSZ and RSS are Linux's `ps -o vsz,rss`: a user task's areas (total_vm) and its present
 * ptes, in kB; 0 for a kernel thread.
 */
#include "tinymm/cmdline.h"
#include "tinymm/delay.h"
#include "tinymm/exec.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"
#include "tinymm/timer.h"

struct ps_row {
	int pid, prio;
	unsigned int cpu;
	char state[16];
	uint64_t cpu_ns;
	size_t used, size;
	unsigned long nvcsw, nivcsw;
	unsigned long vsz, rss;
	char comm[TASK_COMM_LEN];
};

struct ps_snap {
	struct ps_row rows[64];
	int n, more;
};

static int count_present(pte_t *pte, unsigned long addr, void *data)
{
	(void)addr;
	if (pte_present(ptep_get(pte)))
		(*(unsigned long *)data)++;
	return 0;
}

void task_mm_usage(struct mm_struct *mm, unsigned long *vsz_kb, unsigned long *rss_kb)
{
	unsigned long rss = 0;

	*vsz_kb = *rss_kb = 0;
	if (!mm)
		return;
	*vsz_kb = mm->total_vm << (PAGE_SHIFT - 10);
	if (mm->pgd)
		apply_to_existing_page_range(mm, 0, mm->task_size, count_present, &rss);
	*rss_kb = rss << (PAGE_SHIFT - 10);
}

static void snap_one(struct task_struct *p, void *arg)
{
	struct ps_snap *s = arg;

	if (s->n == (int)ARRAY_SIZE(s->rows)) {
		s->more++;
		return;
	}
	struct ps_row *r = &s->rows[s->n++];
	uint64_t cpu = p->sum_exec_ns;
	if (task_curr(p))
		cpu += ktime_get_ns() - p->exec_start_ns;
	*r = (struct ps_row){ .pid = p->pid, .prio = p->prio, .cpu = task_cpu(p), .cpu_ns = cpu,
			      .used = task_stack_high_water(p), .size = p->stack_size,
			      .nvcsw = p->nvcsw, .nivcsw = p->nivcsw };
	task_mm_usage(p->mm, &r->vsz, &r->rss);
	ksnprintf(r->state, sizeof(r->state), "%s", task_state_name(p));
	ksnprintf(r->comm, sizeof(r->comm), "%s", p->comm);
}

static struct ps_snap ps_snap;	/* 3 KiB: not on the shell thread's stack */

static int cmd_ps(int argc, char **argv)
{
	struct ps_snap *s = &ps_snap;

	if (shell_no_args(argc, argv))
		return 2;
	s->n = s->more = 0;
	for_each_task(snap_one, s);
	kprintf("  PID PRIO CPU STATE                 TIME  STACK-USED  SWITCHES     VSZ    RSS  NAME\n");
	for (int i = 0; i < s->n; i++) {
		struct ps_row *r = &s->rows[i];
		char stack[24];
		ksnprintf(stack, sizeof(stack), "%zu/%zu", r->used, r->size);
		kprintf("%5d %4d %3u %-14s %6llu.%06llu %11s %9lu %7lu %6lu  %s\n", r->pid, r->prio,
			r->cpu, r->state, (unsigned long long)(r->cpu_ns / NSEC_PER_SEC),
			(unsigned long long)(r->cpu_ns % NSEC_PER_SEC / 1000), stack,
			r->nvcsw + r->nivcsw, r->vsz, r->rss, r->comm);
	}
	if (s->more)
		kprintf("(%d more not shown)\n", s->more);
	return 0;
}
SHELL_COMMAND(ps, "", "threads: id, priority, CPU (running on or last), state, CPU time, stack high-water mark, VSZ/RSS kB", cmd_ps);

static int cmd_uptime(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	uint64_t ns = ktime_get_ns();
	kprintf("up %llu.%06llu\n", (unsigned long long)(ns / NSEC_PER_SEC),
		(unsigned long long)(ns % NSEC_PER_SEC / 1000));
	return 0;
}
SHELL_COMMAND(uptime, "", "time since reset: up <seconds>.<microseconds>", cmd_uptime);

static int cmd_sleep(int argc, char **argv)
{
	unsigned long long ms;

	if (argc != 2)
		return shell_usage_error(argv[0], "usage: sleep <milliseconds>");
	if (kstrtoull(argv[1], &ms) || ms > 86400000ULL) {
		kprintf("sleep: invalid number '%s'\n", argv[1]);
		return 2;
	}
	msleep((unsigned int)ms);
	return 0;
}
SHELL_COMMAND(sleep, "<ms>", "sleep this thread for <ms> milliseconds", cmd_sleep);
