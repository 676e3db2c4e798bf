/*
 * idletouch - a task that touches exactly a known half of its pages when told to, for idle page
 * tracking (`page_idle`, docs/page_idle.md; tests/qemu/page_idle_test.sh).
 *
 *   idletouch [-c <cpu>] <pages> <dir>
 *
 * 1. maps <pages> anonymous pages (MAP_PRIVATE) and writes a word to each, so each has its own
 *    frame, and prints "idletouch: pid <pid>: <pages> pages at 0x<addr>: ready";
 * 2. waits (stat every 10 ms, at most 10 min) until <dir>/go exists: meanwhile the shell finds the
 *    frames (`pagemap`) and marks them idle;
 * 3. touches exactly the even pages, 0, 2, 4, ...: a read of the word on pages 0, 4, 8, ..., a
 *    write on pages 2, 6, 10, ...; the odd pages are not touched at all (nothing else in the
 *    program lives in the mapping), and prints "idletouch: touched the <n> even pages of
 *    <pages>" once every word read back right;
 * 4. waits the same way for <dir>/done, unmaps and exits 0.
 * Exit 1 at the first failure (one line saying which), 2 for wrong arguments.
 *
 * With -c the task first pins itself to CPU <cpu> (sched_setaffinity) and checks with getcpu()
 * that it runs there, prints "idletouch: on CPU <cpu>", and checks it again after its touches
 * (step 3 then prints "idletouch: touched on CPU <cpu>"), not before them: getcpu() is a system
 * call with a uaccess (below).  The shell marks and reads from
 * another CPU (tests/qemu/page_idle_test.sh --smp), so the marking must reach this CPU's TLB while
 * this task runs there; nothing else may flush it meanwhile.  So step 2 is different: the task
 * creates <dir>/go.map (one page of zeros), maps it MAP_SHARED and spins on its first word, plain
 * loads and no system call, until it is not 0 (the shell writes it with /bin/mapwrite), after
 * reading the even pages once more: no switch to another address space and no uaccess on this
 * CPU between the marking and the touches, and the even pages' translations in its TLB (QEMU 7.2
 * flushes a RISC-V hart's whole TLB whenever sstatus.SUM changes, which every copy to or from
 * user memory does).
 */
#define _DEFAULT_SOURCE 1	/* picolibc: nanosleep */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tinymm_user.h"

#define PAGE		4096UL
#define MAX_PAGES	4096UL

static void fail(const char *what)
{
	printf("idletouch: FAIL: %s (errno %d)\n", what, errno);
	exit(1);
}

/* The word page @i holds (never 0: a zero would not prove the write landed). */
static uint32_t word(unsigned long i)
{
	return 0x5a000000u | (uint32_t)i;
}

/* Until @dir/@name exists: the shell's signal, made with its `mkdir`. */
static void wait_for(const char *dir, const char *name)
{
	struct timespec ten_ms = { 0, 10 * 1000 * 1000L };
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (int i = 0; i < 60000; i++) {
		if (stat(path, &st) == 0)
			return;
		nanosleep(&ten_ms, NULL);
	}
	printf("idletouch: FAIL: no %s within 10 min\n", path);
	exit(1);
}

/* -c: <dir>/go.map, one page of zeros, mapped MAP_SHARED and read once (its translation cached). */
static volatile uint32_t *map_go(const char *dir)
{
	char path[256];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/go.map", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)PAGE))
		fail("creating go.map");
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		fail("mapping go.map");
	close(fd);
	if (*(volatile uint32_t *)p)
		fail("go.map is not zero");
	return p;
}

/* -c: until go.map's first word is not 0: loads only, bounded by a count (no clock: reading
 * one is a system call), about 10 min or more at QEMU's speeds. */
static void spin_for_go(volatile uint32_t *go)
{
	for (uint64_t i = 0; i < (1ULL << 37); i++)
		if (__atomic_load_n(go, __ATOMIC_ACQUIRE))
			return;
	printf("idletouch: FAIL: go.map stayed 0\n");
	exit(1);
}

/* -c: run on @cpu only, and be there. */
static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("sched_setaffinity");
	if (sched_getcpu() != cpu)
		fail("not on the CPU it pinned itself to");
}

int main(int argc, char **argv)
{
	unsigned long pages, n = 0;
	volatile uint32_t *w;
	volatile uint32_t *go = NULL;
	char *end, *buf;
	int cpu = -1;

	if (argc == 5 && !strcmp(argv[1], "-c")) {
		cpu = (int)strtol(argv[2], &end, 0);
		if (*end || end == argv[2] || cpu < 0 || cpu >= CPU_SETSIZE) {
			printf("idletouch: bad cpu '%s'\n", argv[2]);
			return 2;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc != 3 || (pages = strtoul(argv[1], &end, 0), *end || end == argv[1]) ||
	    pages < 2 || pages > MAX_PAGES) {
		printf("usage: idletouch [-c <cpu>] <pages 2-%lu> <dir>\n", MAX_PAGES);
		return 2;
	}
	if (cpu >= 0) {
		pin_to(cpu);
		printf("idletouch: on CPU %d\n", cpu);
	}
	buf = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		fail("mmap");
	for (unsigned long i = 0; i < pages; i++) {
		w = (volatile uint32_t *)(buf + i * PAGE);
		*w = word(i);
	}
	if (cpu >= 0)
		go = map_go(argv[2]);
	printf("idletouch: pid %d: %lu pages at %p: ready\n", (int)getpid(), pages, (void *)buf);
	fflush(stdout);

	if (go) {
		/* The translations of the even pages into this CPU's TLB again, after the last
		 * system call (printf's write flushed it on RISC-V: SUM): a marking that does
		 * not reach this CPU leaves them stale.  A read here after a page's marking
		 * only makes it read accessed, which it will be anyway. */
		for (unsigned long i = 0; i < pages; i += 2)
			if (*(volatile uint32_t *)(buf + i * PAGE) != word(i))
				fail("a word read back wrong before the touches");
		spin_for_go(go);
	} else
		wait_for(argv[2], "go");
	/* No getcpu() between the spin and the touches: it is a system call whose put_user sets
	 * and clears sstatus.SUM, and QEMU 7.2 flushes the RISC-V hart's whole TLB on each SUM
	 * change, so the touches would walk the page tables again and hide a marking that did not
	 * reach this CPU.  Pinned to @cpu alone, the task runs nowhere else; getcpu() after the
	 * touches checks that it is still there. */
	for (unsigned long i = 0; i < pages; i += 2, n++) {
		w = (volatile uint32_t *)(buf + i * PAGE);
		if (i % 4 == 0) {
			if (*w != word(i))
				fail("a word read back wrong");
		} else {
			*w = word(i);
		}
	}
	if (cpu >= 0) {
		if (sched_getcpu() != cpu)
			fail("not on its CPU after the touches");
		printf("idletouch: touched on CPU %d\n", cpu);
	}
	printf("idletouch: touched the %lu even pages of %lu\n", n, pages);
	fflush(stdout);

	wait_for(argv[2], "done");
	if (munmap(buf, pages * PAGE))
		fail("munmap");
	printf("idletouch: done\n");
	return 0;
}
