/*
 * anonhog - anonymous memory that must come back exact, for swap (issue 39, docs/user.md):
 * fills <MiB> of private anonymous memory with a pattern no other page or word shares, then
 * reads it all back, in other orders too, so pages swapped out come back in by faults that
 * are not sequential.
 *
 *   anonhog [-s seed] [-p passes] [-w path] [-f file] [-l] [-x page] <MiB>
 *
 * Pass 1 fills every page (one mmap of <MiB>), pass 2 checks them in order, pass 3 backwards,
 * passes 4 and on with a stride through the pages (each page once, a large step coprime to the
 * page count).  -p: how many passes (1-16, default 3).  -s: the seed (default 1), so that
 * tasks running at once hold different bytes.  -w path: after pass 2, say
 * "anonhog: holding <MiB> MiB until <path> exists" and look for <path> (stat) every 100 ms,
 * asleep in nanosleep, then run the passes left (at least one more): a task whose memory can be
 * pushed out, and swapoff'd back in, while it sleeps; the shell's `mkdir <path>` wakes it.
 * -f file: pass 2 goes through the kernel: each page is written to <file> (write(2): the
 * kernel reads the page, faulting it in from swap itself), read back into a buffer that is
 * checked, then read from the file into the page itself (read(2): the kernel writes it, again
 * perhaps after a swap-in) and the page checked: the kernel's own faults on swapped-out user
 * memory (copy_from_user, copy_to_user).  The file is created (truncated) and removed at the end.
 * -l: mlockall(MCL_CURRENT | MCL_FUTURE) first, so none of its pages is ever swapped (a
 * bystander that must survive another task's swap-in errors).  -x page: after the fill, flip
 * bit 0 of word 3 of that page, so the checks must report it (the checker's own test).
 *
 * The pattern: each page's own 32-bit xorshift stream, started from a mix of (seed, page
 * index), one stream word per 32-bit word: a page that came back as another page, as zeros,
 * or a word out of place differs.  Three shifts and xors a word, no multiply: cheap under
 * QEMU's TCG on 32-bit CPUs too.
 *
 * Lines: "anonhog: pid <pid> seed <seed>: <MiB> MiB, <n> pages, <p> passes" at the start;
 * "anonhog: <k> MiB touched|checked|checked through the kernel|checked backwards|checked strided"
 * every 16 MiB of a pass
 * and at its end; "anonhog: all ok (<MiB> MiB, seed <seed>, <p> passes)" and exit 0 when every
 * word came back exact.  The first wrong word: "anonhog: mismatch at page <N> word <W>: got
 * 0x<..> want 0x<..>" and exit 1.  A failed mmap: one line, exit 1.  A wrong argument: the
 * usage line, exit 2.
 */
#define _DEFAULT_SOURCE 1
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
#define MIB		(1UL << 20)
#define WORDS		(PAGE / sizeof(uint32_t))
#define MAX_PASSES	16

static uint32_t seed = 1;

/* A page's stream start: seed and page index mixed (murmur3's finaliser), never 0 (a 0 state
 * would make xorshift emit zeros, which a zero-filled page would match). */
static uint32_t page_start(unsigned long page)
{
	uint32_t x = seed * 0x9e3779b9U ^ (uint32_t)page;

	x ^= x >> 16;
	x *= 0x85ebca6bU;
	x ^= x >> 13;
	x *= 0xc2b2ae35U;
	x ^= x >> 16;
	return x ? x : 0x6a09e667U;
}

static inline uint32_t next(uint32_t x)
{
	x ^= x << 13;
	x ^= x >> 17;
	return x ^ (x << 5);
}

static void fill_page(uint32_t *w, unsigned long page)
{
	uint32_t x = page_start(page);

	for (unsigned long i = 0; i < WORDS; i++) {
		x = next(x);
		w[i] = x;
	}
}

static void check_page(const volatile uint32_t *w, unsigned long page)
{
	uint32_t x = page_start(page);

	for (unsigned long i = 0; i < WORDS; i++) {
		x = next(x);
		uint32_t got = w[i];

		if (got != x) {
			printf("anonhog: mismatch at page %lu word %lu: got 0x%08lx want 0x%08lx\n",
			       page, i, (unsigned long)got, (unsigned long)x);
			exit(1);
		}
	}
}

static int kfd = -1;		/* -f's file */
static uint32_t kbuf[WORDS];

static void fail_io(const char *what, unsigned long page)
{
	printf("anonhog: %s of page %lu through the file failed (errno %d)\n", what, page, errno);
	exit(1);
}

/* -f: page @page out through write(2), back into kbuf and checked, then into itself with
 * read(2) and checked where it is. */
static void check_page_kernel(uint32_t *w, unsigned long page)
{
	if (lseek(kfd, 0, SEEK_SET) || write(kfd, w, PAGE) != (ssize_t)PAGE)
		fail_io("write", page);
	if (lseek(kfd, 0, SEEK_SET) || read(kfd, kbuf, PAGE) != (ssize_t)PAGE)
		fail_io("read", page);
	check_page(kbuf, page);
	if (lseek(kfd, 0, SEEK_SET) || read(kfd, w, PAGE) != (ssize_t)PAGE)
		fail_io("read into the page", page);
	check_page(w, page);
}

static unsigned long gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Pass @pass (1-based) over @n pages: the page it visits @k-th. */
static unsigned long order(int pass, unsigned long k, unsigned long n, unsigned long stride)
{
	if (pass <= 2)
		return k;
	if (pass == 3)
		return n - 1 - k;
	return (unsigned long)(((unsigned long long)k * stride + (unsigned long long)pass) % n);
}

static void run_pass(uint32_t *mem, unsigned long n, int pass, unsigned long stride)
{
	static const char *const what[] = { "touched", "checked", "checked backwards", "checked strided" };
	const char *name = pass == 2 && kfd >= 0 ? "checked through the kernel" : what[pass < 4 ? pass - 1 : 3];
	unsigned long per_report = 16 * MIB / PAGE;

	for (unsigned long k = 0; k < n; k++) {
		unsigned long page = order(pass, k, n, stride);
		uint32_t *w = mem + page * WORDS;

		if (pass == 1)
			fill_page(w, page);
		else if (pass == 2 && kfd >= 0)
			check_page_kernel(w, page);
		else
			check_page(w, page);
		if ((k + 1) % per_report == 0 || k + 1 == n)
			printf("anonhog: %lu MiB %s\n", (k + 1) * PAGE / MIB, name);
	}
}

static void wait_for(const char *path, unsigned long mib)
{
	struct timespec ts = { 0, 100 * 1000 * 1000L };
	struct stat st;

	printf("anonhog: holding %lu MiB until %s exists\n", mib, path);
	while (stat(path, &st))
		nanosleep(&ts, NULL);
	printf("anonhog: %s exists, checking again\n", path);
}

static int usage(void)
{
	printf("usage: anonhog [-s seed] [-p passes] [-w path] [-f file] [-l] [-x page] <MiB>\n");
	return 2;
}

static int number(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return !*s || *end || errno || *s == '-';
}

int main(int argc, char **argv)
{
	unsigned long mib = 0, v, n, stride;
	const char *path = NULL, *kfile = NULL;
	unsigned long corrupt = ~0UL;
	int passes = 3, lock = 0, i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i += 2) {
		if (argv[i][1] == 'l' && !argv[i][2]) {
			lock = 1;
			i--;
			continue;
		}
		if (i + 1 >= argc || argv[i][2])
			return usage();
		if (argv[i][1] == 'w') {
			path = argv[i + 1];
			continue;
		}
		if (argv[i][1] == 'f') {
			kfile = argv[i + 1];
			continue;
		}
		if (number(argv[i + 1], &v))
			return usage();
		if (argv[i][1] == 's' && v <= UINT32_MAX)
			seed = (uint32_t)v;
		else if (argv[i][1] == 'p' && v >= 1 && v <= MAX_PASSES)
			passes = (int)v;
		else if (argv[i][1] == 'x')
			corrupt = v;
		else
			return usage();
	}
	if (i != argc - 1 || number(argv[i], &mib) || !mib || mib > 4095)
		return usage();
	if (path && passes < 3)
		passes = 3;	/* fill, check, and at least one check after the wait */
	n = mib * MIB / PAGE;
	if (corrupt != ~0UL && corrupt >= n)
		return usage();
	if (kfile && passes < 2)
		passes = 2;
	if (kfile && (kfd = open(kfile, O_CREAT | O_TRUNC | O_RDWR, 0644)) < 0) {
		printf("anonhog: cannot open %s (errno %d)\n", kfile, errno);
		return 1;
	}
	if (lock && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		printf("anonhog: mlockall failed (errno %d)\n", errno);
		return 1;
	}
	/* The strided passes' step: about n/3 (far from the last page visited), coprime to n so
	 * every page is visited once. */
	for (stride = n / 3 | 1; gcd(stride, n) != 1; stride += 2)
		;

	uint32_t *mem = mmap(NULL, mib * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED) {
		printf("anonhog: mmap of %lu MiB failed (errno %d)\n", mib, errno);
		return 1;
	}
	printf("anonhog: pid %d seed %lu: %lu MiB, %lu pages, %d passes%s\n", (int)getpid(),
	       (unsigned long)seed, mib, n, passes, lock ? ", locked" : "");
	for (int pass = 1; pass <= passes; pass++) {
		run_pass(mem, n, pass, stride);
		if (pass == 1 && corrupt != ~0UL)
			mem[corrupt * WORDS + 3] ^= 1;
		if (pass == 2 && path)
			wait_for(path, mib);
	}
	if (kfile && (close(kfd) || unlink(kfile))) {
		printf("anonhog: cannot close or remove %s (errno %d)\n", kfile, errno);
		return 1;
	}
	printf("anonhog: all ok (%lu MiB, seed %lu, %d passes)\n", mib, (unsigned long)seed, passes);
	return 0;
}
