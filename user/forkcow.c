/*
 * forkcow - fork and copy-on-write checked from user mode (docs/fork.md): exits 0 when every
 * check held, 1 at the first that did not (with a `forkcow: FAIL:` line).
 *
 *   forkcow [-s] [children]   (default 4, at most 32)
 *   forkcow hold              the exclusive bit as the shell's `pagemap` sees it (below)
 *
 * Steps, each one line when it passes:
 *   1. one child: parent and child write the same anonymous pages (an mmap'd area, the bss, a
 *      .data variable, the stack) after fork; each sees the bytes from before the fork until it
 *      writes, then only its own; fork returned the child's pid (its exit code is its pid's low
 *      7 bits, checked through waitpid's status) and 0 in the child; WNOHANG on a child that
 *      is still running is 0; the reaped child is gone (ECHILD).
 *   2. several children at once, each writing its own pattern over the same pages and yielding
 *      between pages so the writes interleave; every child checks its bytes, the parent its
 *      own; waitpid(-1) reaps each pid exactly once, each with status 0; then ECHILD.
 *   3. a child exits with code 7 and its status says so; a child that forks a grandchild and
 *      exits at once leaves it to the kernel (no init: it is reaped when it ends).
 *   4. the parent writes every page again after its children are gone (each is its own once
 *      more: the kernel reuses it without a copy) and the bytes are right.
 * No signals: every check is on a call's result or on the bytes.
 *
 * -s spreads the tasks over the CPUs (docs/smp.md, "User tasks on all CPUs"): the parent pins
 * itself to the first CPU it may use and every child to one of the others (child i of step 2 to
 * the (i mod n)-th other), each checking with getcpu() that it runs there, before and after its
 * writes (a child that finds itself elsewhere exits 200: above any pid's low 7 bits).  Step 5 then has parent and child
 * write the same copy-on-write pages at once: both wait for one instant of CLOCK_MONOTONIC
 * fixed before the fork, then fill and check every page, round after round, until a second
 * instant 400 ms later (and 2 rounds at least: a loaded host may starve one side), each on its
 * own CPU; a side that reached the start (1 s after the fork) after it had passed or left its
 * CPU fails.  Fewer than 2 CPUs: -s fails at once.
 *
 * `hold` is for the shell, which can look at this task's ptes while it runs: one anonymous
 * page at HOLD_ADDR (0x30000000) written, then fork; the child sleeps 2 s and exits, and
 * meanwhile the page is shared (pagemap: anon-exclusive 0).  The parent waits for it, writes the
 * page again (no copy: the same pfn, anon-exclusive 1 again) and sleeps 4 s so the shell can
 * look, then exits 0.  Lines: `forkcow: hold: shared`, `forkcow: hold: own again`.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tinymm_user.h"

#define PAGE		4096UL
#define AREA_PAGES	64
#define BSS_PAGES	4
#define MAX_CHILDREN	32
#define HOLD_ADDR	0x30000000UL

static uint32_t bss_buf[BSS_PAGES * PAGE / 4];
static volatile uint32_t data_word = 0x5eed1234;	/* .data: a private file page, copied */

static __attribute__((noreturn)) void fail(const char *what)
{
	printf("forkcow: FAIL: %s (pid %d, errno %d)\n", what, (int)getpid(), errno);
	exit(1);
}

static uint32_t pattern(uintptr_t addr, uint32_t seed)
{
	uint32_t x = (uint32_t)addr * 0x9e3779b1U ^ seed;

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	return x ^ (x >> 12);
}

/* One word per 64 bytes is enough to tell the owners apart and keeps the steps quick. */
static void fill(uint32_t *p, size_t len, uint32_t seed, int yield_every_page)
{
	for (size_t i = 0; i < len / 4; i += 16) {
		p[i] = pattern((uintptr_t)&p[i], seed);
		if (yield_every_page && !(i % (PAGE / 4)))
			sched_yield();
	}
}

static int check(const uint32_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len / 4; i += 16)
		if (p[i] != pattern((uintptr_t)&p[i], seed))
			return 0;
	return 1;
}

static uint32_t *area;
static int spread;		/* -s */
static int parent_cpu;		/* -s: where the parent runs */
static int other_cpus[32], nr_other;	/* -s: the CPUs for the children */

/* -s: run only on @cpu from now on, and be there: 0, or -1 when getcpu says otherwise. */
static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	return sched_getcpu() == cpu ? 0 : -1;
}

/* In a child: pinned to @cpu when spreading, else nothing; exits 200 if it did not hold. */
static void child_pin(int cpu)
{
	if (spread && pin_to(cpu))
		exit(200);
}

static void child_on_cpu(int cpu)
{
	if (spread && sched_getcpu() != cpu)
		exit(200);
}

static void fill_all(uint32_t seed, int yield)
{
	fill(area, AREA_PAGES * PAGE, seed, yield);
	fill(bss_buf, sizeof(bss_buf), seed, yield);
	data_word = seed;
}

static int check_all(uint32_t seed)
{
	return check(area, AREA_PAGES * PAGE, seed) && check(bss_buf, sizeof(bss_buf), seed) &&
	       data_word == seed;
}

static void nap_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

/* Step 1: one child, the same pages written on both sides. */
static void one_child(void)
{
	volatile uint32_t stack_word = 0xabcd0001;
	int status = -1;
	pid_t pid, got;

	fill_all(1, 0);
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		child_pin(other_cpus[0]);
		if (!check_all(1) || stack_word != 0xabcd0001)
			exit(101);		/* did not see the bytes from before the fork */
		nap_ms(30);			/* the parent writes meanwhile */
		if (!check_all(1))
			exit(102);		/* saw the parent's writes */
		fill_all(2, 0);
		stack_word = 0xabcd0002;
		nap_ms(30);
		if (!check_all(2) || stack_word != 0xabcd0002)
			exit(103);
		child_on_cpu(other_cpus[0]);
		exit(getpid() & 0x7f);
	}
	got = waitpid(pid, &status, WNOHANG);
	if (got != 0)
		fail("waitpid WNOHANG on a running child is not 0");
	fill_all(3, 0);
	stack_word = 0xabcd0003;
	got = waitpid(pid, &status, 0);
	if (got != pid)
		fail("waitpid did not return the child's pid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != (pid & 0x7f)) {
		printf("forkcow: child status 0x%x, wanted exit %d\n", status, pid & 0x7f);
		fail("the child's status (its exit code is its pid: fork's value in the parent)");
	}
	if (!check_all(3) || stack_word != 0xabcd0003)
		fail("the parent saw the child's writes");
	if (spread && sched_getcpu() != parent_cpu)
		fail("the parent left its CPU");
	if (waitpid(pid, &status, 0) != -1 || errno != ECHILD)
		fail("a reaped child can be waited for again");
	printf("forkcow: one child ok\n");
}

/* Step 2: @n children writing the same pages at once. */
static void many_children(int n)
{
	pid_t pids[MAX_CHILDREN];
	int seen[MAX_CHILDREN] = { 0 };

	fill_all(10, 0);
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			fail("fork of several children");
		if (pids[i] == 0) {
			uint32_t seed = 100 + (uint32_t)i;

			child_pin(other_cpus[i % (nr_other ? nr_other : 1)]);
			if (!check_all(10))
				exit(110);
			fill_all(seed, 1);
			for (int k = 0; k < 3; k++)
				sched_yield();
			child_on_cpu(other_cpus[i % (nr_other ? nr_other : 1)]);
			exit(check_all(seed) ? 0 : 111);
		}
	}
	fill_all(99, 1);
	for (int done = 0; done < n; done++) {
		int status = -1, j;
		pid_t got = waitpid(-1, &status, 0);

		for (j = 0; j < n && pids[j] != got; j++)
			;
		if (j == n || seen[j]++)
			fail("waitpid(-1) returned a pid that is not a child, or one twice");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			printf("forkcow: child %d status 0x%x\n", j, status);
			fail("a child saw bytes that were not its own");
		}
	}
	if (!check_all(99))
		fail("the parent saw its children's writes");
	if (waitpid(-1, NULL, 0) != -1 || errno != ECHILD)
		fail("no children left, yet waitpid did not say ECHILD");
	printf("forkcow: %d children ok\n", n);
}

/* Step 3: an exit code, and an orphan the kernel reaps. */
static void statuses(void)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0)
		exit(7);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 7)
		fail("exit(7) in the child is not status 7");
	pid = fork();
	if (pid == 0) {
		pid_t grandchild = fork();

		if (grandchild == 0) {
			nap_ms(20);		/* outlives its parent */
			fill_all(77, 0);
			exit(check_all(77) ? 0 : 1);
		}
		exit(grandchild > 0 ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
		fail("a child that leaves its own child behind");
	printf("forkcow: statuses ok\n");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Step 5 (-s): from @start to @end, fill and check every page with seeds of its own, on @cpu.
 * 0, or why not: 1 late (the start had passed), 2 too few rounds, 3 bytes not its own, 4 it
 * left its CPU.
 */
static int write_window(uint64_t start, uint64_t end, uint32_t seed, int cpu, unsigned long *rounds)
{
	*rounds = 0;
	if (now_ns() >= start)
		return 1;
	while (now_ns() < start)
		;
	/* At least 2 rounds even when the host starves this CPU's thread past @end. */
	while (now_ns() < end || *rounds < 2) {
		fill_all(seed + (uint32_t)*rounds, 0);
		if (!check_all(seed + (uint32_t)*rounds))
			return 3;
		if (sched_getcpu() != cpu)
			return 4;
		++*rounds;
	}
	return 0;
}

static void at_once(void)
{
	static const char *const why[] = { "", "late: the window had begun", "fewer than 2 rounds",
					   "saw bytes not its own", "left its CPU" };
	uint64_t start, end;
	unsigned long rounds;
	int status = -1, r;
	pid_t pid;

	fill_all(500, 0);
	start = now_ns() + 1000000000ULL;	/* time for the fork and the child's move */
	end = start + 400000000ULL;
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		child_pin(other_cpus[0]);
		if (!check_all(500))
			exit(110);
		r = write_window(start, end, 0x10000, other_cpus[0], &rounds);
		exit(r ? 200 + r : 0);
	}
	r = write_window(start, end, 0x20000, parent_cpu, &rounds);
	if (r) {
		printf("forkcow: parent on CPU %d: %s\n", parent_cpu, why[r]);
		fail("writing at once");
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		r = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
		printf("forkcow: child on CPU %d: status 0x%x%s%s\n", other_cpus[0], status,
		       r > 200 && r <= 204 ? ": " : "", r > 200 && r <= 204 ? why[r - 200] : "");
		fail("writing at once");
	}
	printf("forkcow: at once: CPU %d and CPU %d wrote the same pages for 400 ms, "
	       "%lu rounds here: ok\n", parent_cpu, other_cpus[0], rounds);
}

/* -s: the CPUs this task may use; the parent on the first, the children on the others. */
static void spread_setup(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		fail("sched_getaffinity");
	parent_cpu = -1;
	for (int c = 0; c < CPU_SETSIZE && nr_other < 32; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (parent_cpu < 0)
			parent_cpu = c;
		else
			other_cpus[nr_other++] = c;
	}
	if (!nr_other)
		fail("-s needs at least two CPUs");
	if (pin_to(parent_cpu))
		fail("pinning the parent");
	printf("forkcow: spread: the parent on CPU %d, the children on %d other CPU%s\n",
	       parent_cpu, nr_other, nr_other > 1 ? "s" : "");
}

static int hold(void)
{
	volatile uint32_t *p = mmap((void *)HOLD_ADDR, PAGE, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	int status = -1;
	pid_t pid;

	if (p == MAP_FAILED)
		fail("mmap at HOLD_ADDR");
	*p = 1;
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		nap_ms(2000);
		exit(*p == 1 ? 0 : 1);
	}
	printf("forkcow: hold: shared\n");
	if (waitpid(pid, &status, 0) != pid || status != 0)
		fail("the holding child");
	*p = 2;
	printf("forkcow: hold: own again\n");
	nap_ms(4000);
	return *p == 2 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "hold"))
		return hold();
	if (argc > 1 && !strcmp(argv[1], "-s")) {
		spread = 1;
		argv++;
		argc--;
	}
	int n = argc > 1 ? atoi(argv[1]) : 4;

	if (n < 1 || n > MAX_CHILDREN) {
		printf("forkcow: children must be 1..%d\n", MAX_CHILDREN);
		return 2;
	}
	area = mmap(NULL, AREA_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		fail("mmap");
	if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD)
		fail("a new task has children");
	if (spread)
		spread_setup();
	one_child();
	many_children(n);
	statuses();
	fill_all(1000, 0);
	if (!check_all(1000))
		fail("the parent's pages after its children are gone");
	printf("forkcow: own pages again ok\n");
	if (spread)
		at_once();
	printf("forkcow: all ok\n");
	return 0;
}
