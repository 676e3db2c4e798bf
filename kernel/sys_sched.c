/*
 * sys_sched.c - CPU affinity and the CPU a task runs on: the system calls sched_setaffinity,
 * sched_getaffinity and getcpu (v6.10's kernel/sched/core.c, kernel/sys.c), and the shell's
 * `taskset -p` (util-linux's, for a task the shell names by pid: its own or a kernel thread's).
 * docs/syscalls.md lists the numbers; docs/smp.md the tests that pin tasks with them.
 *
 * Differences from v6.10: one-word cpumasks (NR_CPUS <= BITS_PER_LONG), so cpumask_size() is
 * sizeof(unsigned long); no cpusets, no permission checks (every task is root's); a CPU is
 * "active" when it is online (nothing takes one offline).  Only the idle threads refuse a new
 * affinity (v6.10's PF_NO_SETAFFINITY): tinymm has no other per-CPU kernel threads.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"
#include "tinymm/smp.h"
#include "tinymm/syscalls.h"
#include "tinymm/uaccess.h"

#define CPUMASK_SIZE	sizeof(unsigned long)	/* v6.10's cpumask_size() */

struct find_task {
	int pid;
	struct task_struct *task;
};

static void match_pid(struct task_struct *p, void *arg)
{
	struct find_task *f = arg;

	if (f->task || p->pid != f->pid || (p->flags & PF_IDLE))
		return;
	get_task_struct(p);		/* interrupts masked, tasklist_lock held: it cannot go */
	f->task = p;
}

/* v6.10's find_process_by_pid(), referenced: 0 is the caller; NULL when nobody has @pid. */
static struct task_struct *find_get_task(int pid)
{
	struct find_task f = { .pid = pid };

	if (pid == 0) {
		get_task_struct(current);
		return current;
	}
	if (pid < 0)
		return NULL;
	for_each_task(match_pid, &f);
	return f.task;
}

/* v6.10's sched_setaffinity(): the task may run on the CPUs of @mask that exist; -ESRCH, or
 * -EINVAL for an idle thread or a mask naming no online CPU. */
long sched_setaffinity(int pid, const struct cpumask *mask)
{
	struct task_struct *p = find_get_task(pid);
	long ret;

	if (!p)
		return -ESRCH;
	if (p->flags & PF_IDLE)
		ret = -EINVAL;
	else if (!(mask->bits & cpu_online_mask->bits))
		ret = -EINVAL;			/* v6.10: no active CPU in it */
	else
		ret = set_cpus_allowed_ptr(p, mask);
	put_task_struct(p);
	return ret;
}

/* v6.10's sched_getaffinity(): the online CPUs @pid may run on. */
long sched_getaffinity(int pid, struct cpumask *mask)
{
	struct task_struct *p = find_get_task(pid);

	if (!p)
		return -ESRCH;
	mask->bits = READ_ONCE(p->cpus_mask) & cpu_online_mask->bits;
	put_task_struct(p);
	return 0;
}

/* A shorter mask than the kernel's is zero-extended, a longer one cut (v6.10's
 * get_user_cpu_mask); the user memory is read before the pid is looked up, as v6.10 does. */
long sys_sched_setaffinity(int pid, unsigned int len, const unsigned long __user *user_mask)
{
	struct cpumask mask = { 0 };

	if (len > CPUMASK_SIZE)
		len = CPUMASK_SIZE;
	if (copy_from_user(&mask.bits, user_mask, len))
		return -EFAULT;
	return sched_setaffinity(pid, &mask);
}

/* The bytes written (v6.10: min(len, cpumask_size())); @len must hold nr_cpu_ids bits and be a
 * multiple of a long. */
long sys_sched_getaffinity(int pid, unsigned int len, unsigned long __user *user_mask)
{
	struct cpumask mask;
	unsigned int n = len < CPUMASK_SIZE ? len : CPUMASK_SIZE;
	long ret;

	if ((unsigned long)len * 8 < nr_cpu_ids || (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	ret = sched_getaffinity(pid, &mask);
	if (ret)
		return ret;
	return copy_to_user(user_mask, &mask.bits, n) ? -EFAULT : (long)n;
}

/* The CPU (and NUMA node: always 0) the caller runs on; NULL pointers are skipped. */
long sys_getcpu(unsigned int __user *cpup, unsigned int __user *nodep, void __user *unused)
{
	unsigned int cpu = (unsigned int)raw_smp_processor_id(), node = 0;
	int err = 0;

	(void)unused;
	if (cpup)
		err |= put_user(cpu, cpup);
	if (nodep)
		err |= put_user(node, nodep);
	return err ? -EFAULT : 0;
}

/* util-linux's hex mask, with or without 0x. */
static int parse_hex_mask(const char *s, unsigned long *out)
{
	unsigned long v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return -1;
	for (; *s; s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 :
			*s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;

		if (d < 0 || v >> (8 * sizeof(v) - 4))
			return -1;
		v = v << 4 | (unsigned long)d;
	}
	*out = v;
	return 0;
}

static int cmd_taskset(int argc, char **argv)
{
	struct cpumask mask;
	unsigned long pid, bits = 0;
	long ret;

	if ((argc != 3 && argc != 4) || strcmp(argv[1], "-p")) {
		kprintf("usage: taskset -p [mask] <pid>\n");
		return 1;
	}
	if (kstrtoul(argv[argc - 1], &pid) || pid > 0x7fffffff || pid == 0) {
		kprintf("taskset: invalid pid '%s'\n", argv[argc - 1]);
		return 1;
	}
	if (argc == 4 && parse_hex_mask(argv[2], &bits)) {
		kprintf("taskset: invalid mask '%s'\n", argv[2]);
		return 1;
	}
	ret = sched_getaffinity((int)pid, &mask);
	if (ret) {
		kprintf("taskset: failed to get pid %lu's affinity: %s\n", pid, errname((int)ret));
		return 1;
	}
	kprintf("pid %lu's current affinity mask: %lx\n", pid, mask.bits);
	if (argc == 3)
		return 0;
	mask.bits = bits;
	ret = sched_setaffinity((int)pid, &mask);
	if (ret) {
		kprintf("taskset: failed to set pid %lu's affinity: %s\n", pid, errname((int)ret));
		return 1;
	}
	sched_getaffinity((int)pid, &mask);
	kprintf("pid %lu's new affinity mask: %lx\n", pid, mask.bits);
	return 0;
}
SHELL_COMMAND(taskset, "-p [mask] <pid>",
	      "show or set a task's CPU affinity (hex mask, bit n: CPU n), as util-linux's taskset -p",
	      cmd_taskset);
