/*
 * affinity - CPU affinity and getcpu checked from user mode (docs/syscalls.md, docs/smp.md):
 * exits 0 when every check held, 1 at the first that did not (a line `affinity: FAIL: ...`).
 *
 *   affinity <cpus>    <cpus>: how many CPUs the machine has online (QEMU's -smp)
 *
 * 1. sched_getaffinity(0) and (getpid()) give the same set, exactly CPUs 0 .. <cpus>-1;
 * 2. pinned to each CPU in turn, getcpu() says that CPU (the move happens in the call) and the
 *    set reads back as that CPU alone; then the whole set again;
 * 3. bad input, each one errno as Linux gives it: an empty mask, a mask of only CPUs that are
 *    not online and a zero length are EINVAL; a NULL or kernel-half pointer is EFAULT (set and
 *    get); a pid nobody has is ESRCH (set and get); a get length below one word, or not a
 *    multiple of one, is EINVAL; getcpu with a bad pointer is EFAULT, with NULLs 0.
 * Prints `affinity: <cpus> CPUs, each pinned and seen by getcpu: ok`, `affinity: bad input: ok`.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tinymm_user.h"

#define NO_PID		999999
#define KERNEL_PTR	((void *)(~0UL - 4095))	/* the top page: kernel half on every ABI here */

static void fail(const char *what)
{
	printf("affinity: FAIL: %s (errno %d)\n", what, errno);
	exit(1);
}

static void want_errno(int r, int err, const char *what)
{
	if (r != -1 || errno != err) {
		printf("affinity: FAIL: %s: returned %d errno %d, want -1 errno %d\n", what, r, errno, err);
		exit(1);
	}
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("sched_setaffinity to one CPU");
}

int main(int argc, char **argv)
{
	cpu_set_t all, set, got;
	unsigned int cpu = ~0U, node = ~0U;
	int ncpus;

	if (argc != 2 || (ncpus = atoi(argv[1])) < 1 || ncpus > 32) {
		printf("usage: affinity <online cpus 1-32>\n");
		return 2;
	}
	/* 1 */
	if (sched_getaffinity(0, sizeof(all), &all))
		fail("sched_getaffinity(0)");
	if (sched_getaffinity(getpid(), sizeof(set), &set))
		fail("sched_getaffinity(getpid())");
	if (memcmp(&all, &set, sizeof(set)))
		fail("pid 0 and getpid() give different sets");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all) != (c < ncpus)) {
			printf("affinity: FAIL: CPU %d %s the set (%d CPUs online, %d in the set)\n", c,
			       CPU_ISSET(c, &all) ? "in" : "not in", ncpus, CPU_COUNT(&all));
			exit(1);
		}
	/* 2 */
	for (int c = 0; c < ncpus; c++) {
		pin(c);
		if (getcpu(&cpu, &node) || cpu != (unsigned int)c || node != 0) {
			printf("affinity: FAIL: pinned to CPU %d, getcpu says CPU %u node %u\n", c, cpu, node);
			exit(1);
		}
		for (int k = 0; k < 1000; k++)		/* still there after some work */
			__asm__ __volatile__("" ::: "memory");
		sched_yield();
		if (sched_getcpu() != c)
			fail("a pinned task left its CPU");
		if (sched_getaffinity(0, sizeof(got), &got) || CPU_COUNT(&got) != 1 || !CPU_ISSET(c, &got))
			fail("the set after pinning is not that CPU alone");
	}
	if (sched_setaffinity(0, sizeof(all), &all))
		fail("sched_setaffinity back to every CPU");
	printf("affinity: %d CPUs, each pinned and seen by getcpu: ok\n", ncpus);

	/* 3 */
	CPU_ZERO(&set);
	want_errno(sched_setaffinity(0, sizeof(set), &set), EINVAL, "an empty mask");
	CPU_ZERO(&set);
	CPU_SET(ncpus, &set);				/* the first CPU that is not online */
	CPU_SET(8 * sizeof(unsigned long) - 1, &set);
	want_errno(sched_setaffinity(0, sizeof(set), &set), EINVAL, "a mask of CPUs not online");
	want_errno(sched_setaffinity(0, 0, &all), EINVAL, "a zero-length mask");
	want_errno(sched_setaffinity(0, sizeof(all), NULL), EFAULT, "set from a NULL mask");
	want_errno(sched_setaffinity(0, sizeof(all), KERNEL_PTR), EFAULT, "set from a kernel address");
	want_errno(sched_setaffinity(NO_PID, sizeof(all), &all), ESRCH, "set for a pid nobody has");
	want_errno(sched_setaffinity(-1, sizeof(all), &all), ESRCH, "set for pid -1");
	want_errno(sched_getaffinity(NO_PID, sizeof(got), &got), ESRCH, "get for a pid nobody has");
	want_errno(sched_getaffinity(0, sizeof(got), NULL), EFAULT, "get into a NULL mask");
	want_errno(sched_getaffinity(0, sizeof(got), KERNEL_PTR), EFAULT, "get into a kernel address");
	want_errno(sched_getaffinity(0, 1, &got), EINVAL, "get with a one-byte length");
	want_errno(sched_getaffinity(0, sizeof(unsigned long) + 1, &got), EINVAL,
		   "get with a length not a multiple of a word");
	want_errno(getcpu(KERNEL_PTR, NULL), EFAULT, "getcpu into a kernel address");
	want_errno(getcpu(NULL, KERNEL_PTR), EFAULT, "getcpu's node into a kernel address");
	if (getcpu(NULL, NULL))
		fail("getcpu(NULL, NULL)");
	if (sched_getaffinity(0, sizeof(got), &got) || memcmp(&got, &all, sizeof(got)))
		fail("the failed calls changed the set");
	printf("affinity: bad input: ok\n");
	return 0;
}
