/*
 * syscalls_sched.c - CPU affinity and the CPU the caller runs on (docs/syscalls.md):
 * sched_setaffinity, sched_getaffinity, getcpu, sched_getcpu and CPU_COUNT, as glibc has them.
 * glibc's sched_getaffinity returns 0 and zeroes the part of the set past what the kernel wrote
 * (the kernel returns the bytes it wrote); the others are the system call as it is.
 */
#include <errno.h>
#include <string.h>
#include "runtime.h"
#include "tinymm_user.h"
#include "unistd_nr.h"

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	return (int)__syscall_ret(__syscall3(__NR_sched_setaffinity, pid, size, set));
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	long r = __syscall_ret(__syscall3(__NR_sched_getaffinity, pid, size, set));

	if (r < 0)
		return -1;
	if ((size_t)r < size)
		memset((char *)set + r, 0, size - (size_t)r);
	return 0;
}

int getcpu(unsigned int *cpu, unsigned int *node)
{
	return (int)__syscall_ret(__syscall3(__NR_getcpu, cpu, node, 0));
}

int sched_getcpu(void)
{
	unsigned int cpu;

	return getcpu(&cpu, NULL) ? -1 : (int)cpu;
}

int CPU_COUNT(const cpu_set_t *set)
{
	int n = 0;

	for (size_t i = 0; i < sizeof(set->__bits) / sizeof(set->__bits[0]); i++)
		n += __builtin_popcountl(set->__bits[i]);
	return n;
}
