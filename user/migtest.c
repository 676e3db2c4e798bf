/*
 * migtest - pages of every kind read and written while the shell migrates them (docs/
 * migration.md, tests/qemu/migrate_test.sh).
 *
 *   migtest [-s <pages>] <path> <seconds> [<stop-file>]
 *
 * Writes <path> (8 pages: pages 4-7 the word pattern FILE_BASE + word index), fsyncs, and maps
 * four areas of 4 pages:
 *   anon     MAP_PRIVATE | MAP_ANONYMOUS, read-write: exclusive anonymous pages;
 *   shared   pages 0-3 of <path>, MAP_SHARED, read-write: dirty page-cache pages;
 *   private  pages 4-7 of <path>, MAP_PRIVATE, read-only: clean page-cache pages;
 *   cow      anonymous, written once, then shared with a forked child (mapcount 2).
 * With -s, a fifth area fragments memory the way a task does: 2 x <pages> anonymous pages
 * written (SPARSE_BASE + word index), then every other one given back (madvise MADV_DONTNEED),
 * so <pages> pages stay, each between two freed frames; they are checked every generation
 * ("sparse 0x<addr> <pages>" is added to the line below).
 * It prints "migtest: pid <pid> anon 0x<a> shared 0x<s> private 0x<p> cow 0x<c>" and
 * "migtest: ready", then for <seconds>, or until <stop-file> exists (looked for every 64
 * generations by the parent, every 16 rounds by the child): the parent writes generation g into every word of anon
 * and shared (word i of page p: g * 0x10000 + p * 0x1000 + i, 32-bit words) and checks them,
 * and checks private and cow; the child checks cow.  Every 64 generations it yields the CPU
 * (sched_yield), so the shell gets to run on one CPU.  Then shared is msync'd and read back
 * with read(2), the child reaped, and
 *   migtest: <g> generations, <bad> bad words: ok
 * (or FAIL, with a line naming the first bad word).  Exit 0 when ok, 1 on a failure, 2 for
 * wrong arguments.
 */
#define _DEFAULT_SOURCE 1
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tinymm_user.h"

#define PAGE		4096UL
#define NPAGES		4
#define WORDS		(PAGE / 4)
#define FILE_BASE	0xf11e0000u
#define COW_BASE	0xc0d00000u
#define SPARSE_BASE	0x5a000000u

static unsigned long bad;

static uint32_t gen_word(uint32_t g, unsigned int p, unsigned int i)
{
	return g * 0x10000u + p * 0x1000u + i;
}

static void check(const char *area, const volatile uint32_t *m, unsigned int p, unsigned int i,
		  uint32_t want)
{
	uint32_t got = m[p * WORDS + i];

	if (got != want && bad++ == 0)
		printf("migtest: FAIL: %s page %u word %u: 0x%08x, not 0x%08x\n", area, p, i,
		       (unsigned)got, (unsigned)want);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Has the stop file appeared? */
static bool stopped(int argc, char **argv)
{
	int fd = argc == 4 ? open(argv[3], O_RDONLY) : -1;

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int fail(const char *what)
{
	printf("migtest: FAIL: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	static uint32_t buf[2 * NPAGES * WORDS];
	volatile uint32_t *anon, *shared, *priv, *cow, *sparse = NULL;
	unsigned long nsparse = 0;
	double end;
	uint32_t g = 0;
	int fd, status;
	pid_t child;

	if (argc > 2 && !strcmp(argv[1], "-s")) {
		nsparse = strtoul(argv[2], NULL, 0);
		argv += 2;
		argc -= 2;
	}
	if ((argc != 3 && argc != 4) || atoi(argv[2]) <= 0 || nsparse > 65536) {
		printf("usage: migtest [-s <pages>] <path> <seconds> [<stop-file>]\n");
		return 2;
	}
	for (unsigned int i = 0; i < 2 * NPAGES * WORDS; i++)
		buf[i] = FILE_BASE + i;
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, sizeof(buf)) != (long)sizeof(buf) || fsync(fd))
		return fail("writing the file");
	anon = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	shared = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	priv = mmap(NULL, NPAGES * PAGE, PROT_READ, MAP_PRIVATE, fd, NPAGES * PAGE);
	cow = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED || shared == MAP_FAILED || priv == MAP_FAILED || cow == MAP_FAILED)
		return fail("mmap");
	for (unsigned int i = 0; i < NPAGES * WORDS; i++)
		cow[i] = COW_BASE + i;
	if (nsparse) {
		sparse = mmap(NULL, 2 * nsparse * PAGE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (sparse == MAP_FAILED)
			return fail("mmap sparse");
		for (unsigned long i = 0; i < 2 * nsparse * WORDS; i++)
			sparse[i] = SPARSE_BASE + (uint32_t)i;
		for (unsigned long p = 1; p < 2 * nsparse; p += 2)
			if (madvise((void *)(sparse + p * WORDS), PAGE, MADV_DONTNEED))
				return fail("madvise MADV_DONTNEED");
	}
	for (unsigned int p = 0; p < NPAGES; p++)
		for (unsigned int i = 0; i < WORDS; i++)
			anon[p * WORDS + i] = shared[p * WORDS + i] = gen_word(0, p, i);
	printf("migtest: pid %d anon 0x%lx shared 0x%lx private 0x%lx cow 0x%lx", (int)getpid(),
	       (unsigned long)anon, (unsigned long)shared, (unsigned long)priv, (unsigned long)cow);
	if (nsparse)
		printf(" sparse 0x%lx %lu", (unsigned long)sparse, nsparse);
	printf("\n");
	end = now() + atoi(argv[2]);
	child = fork();
	if (child < 0)
		return fail("fork");
	if (child == 0) {
		for (unsigned long n = 0; now() < end && !bad; n++) {
			for (unsigned int i = 0; i < NPAGES * WORDS; i++)
				check("cow (child)", cow, 0, i, COW_BASE + i);
			if (n % 16 == 15) {
				if (stopped(argc, argv))
					break;
				sched_yield();
			}
		}
		_exit(bad ? 1 : 0);
	}
	printf("migtest: ready\n");
	fflush(stdout);
	while (now() < end && !bad) {
		g++;
		for (unsigned int p = 0; p < NPAGES; p++)
			for (unsigned int i = 0; i < WORDS; i++)
				anon[p * WORDS + i] = shared[p * WORDS + i] = gen_word(g, p, i);
		for (unsigned int p = 0; p < NPAGES; p++)
			for (unsigned int i = 0; i < WORDS; i++) {
				check("anon", anon, p, i, gen_word(g, p, i));
				check("shared", shared, p, i, gen_word(g, p, i));
				check("private", priv, p, i, FILE_BASE + (NPAGES + p) * WORDS + i);
				check("cow", cow, p, i, COW_BASE + p * WORDS + i);
			}
		for (unsigned long p = 0; p < 2 * nsparse; p += 2)
			for (unsigned int i = 0; i < WORDS; i++)
				check("sparse", sparse, (unsigned int)p, i,
				      SPARSE_BASE + (uint32_t)(p * WORDS + i));
		if (g % 64 == 0) {
			if (stopped(argc, argv))
				break;
			sched_yield();
		}
	}
	if (msync((void *)shared, NPAGES * PAGE, MS_SYNC))
		return fail("msync");
	if (lseek(fd, 0, SEEK_SET) != 0 || read(fd, buf, NPAGES * PAGE) != (long)(NPAGES * PAGE))
		return fail("reading the file back");
	for (unsigned int p = 0; p < NPAGES; p++)
		for (unsigned int i = 0; i < WORDS; i++)
			check("file (read)", buf, p, i, gen_word(g, p, i));
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		return fail("the child's check of the cow pages");
	close(fd);
	printf("migtest: %u generations, %lu bad words: %s\n", (unsigned)g, bad, bad ? "FAIL" : "ok");
	return bad ? 1 : 0;
}
