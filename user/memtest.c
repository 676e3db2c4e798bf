/*
 * memtest - the memory exerciser (docs/syscalls.md): anonymous memory from brk and mmap,
 * touched, checked and given back, more of it in total than fits at once.
 *
 *   memtest [total-MiB [chunk-MiB]]   (default 64 and 4)
 *
 * Steps, each one line when it passes: the heap grown with brk, filled, checked, shrunk back;
 * chunks of chunk-MiB mmapped, checked zero, filled with an address-dependent pattern, checked,
 * unmapped, until total-MiB have passed through (two chunks alive at a time); MADV_DONTNEED
 * gives zeros where it zapped and leaves the rest; MAP_FIXED replaces the middle of a mapping
 * with zeros and MAP_FIXED_NOREPLACE refuses it (EEXIST); mprotect read-only keeps the bytes
 * readable and makes the kernel's copy into it fail (EFAULT from uname), read-write again
 * works; munmap'd memory is gone for the kernel too (EFAULT).  No signals: every check is on a
 * call's result or on the bytes.  Exit 0 when everything was exact, 1 at the first mismatch.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tinymm_user.h"
#include "../include/tinymm/uapi/unistd.h"

#define PAGE	4096UL
#define MIB	(1UL << 20)

static int fail(const char *what)
{
	printf("memtest: FAIL: %s (errno %d)\n", what, errno);
	exit(1);
}

static uint32_t pattern(uintptr_t addr, uint32_t seed)
{
	uint32_t x = (uint32_t)addr ^ seed;

	x ^= x >> 13;
	x *= 0x5bd1e995U;
	return x ^ (x >> 15);
}

static void fill(void *p, size_t len, uint32_t seed)
{
	uint32_t *w = p;

	for (size_t i = 0; i < len / 4; i++)
		w[i] = pattern((uintptr_t)&w[i], seed);
}

static int check(const void *p, size_t len, uint32_t seed)
{
	const uint32_t *w = p;

	for (size_t i = 0; i < len / 4; i++)
		if (w[i] != pattern((uintptr_t)&w[i], seed))
			return 0;
	return 1;
}

static int is_zero(const void *p, size_t len)
{
	const uint32_t *w = p;

	for (size_t i = 0; i < len / 4; i++)
		if (w[i])
			return 0;
	return 1;
}

static void test_brk(void)
{
	void *start = sbrk(0);
	size_t len = 2 * MIB;

	if (sbrk((ptrdiff_t)len) != start)
		fail("brk: grow by 2 MiB");
	if (!is_zero(start, len))
		fail("brk: new heap not zero");
	fill(start, len, 1);
	if (!check(start, len, 1))
		fail("brk: heap pattern");
	if (brk(start) != 0 || sbrk(0) != start)
		fail("brk: shrink back");
	/* Linux's brk: a refused move (below the heap's start, past user space) returns the
	 * old break, never an error. */
	if (tinymm_syscall6(__NR_brk, 8, 0, 0, 0, 0, 0) != (long)start ||
	    tinymm_syscall6(__NR_brk, -4096L, 0, 0, 0, 0, 0) != (long)start)
		fail("brk: a refused move must return the old break");
	if (sbrk((ptrdiff_t)PAGE) != start || !is_zero(start, PAGE))
		fail("brk: regrown page not zero");
	if (brk(start) != 0)
		fail("brk: shrink");
	printf("memtest: brk 2 MiB filled, checked, shrunk: ok\n");
}

static void test_chunks(unsigned long total_mib, unsigned long chunk_mib)
{
	size_t chunk = chunk_mib * MIB;
	void *prev = NULL;
	unsigned long done = 0, n = 0;

	while (done < total_mib) {
		void *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			fail("mmap chunk");
		if ((uintptr_t)p & (PAGE - 1))
			fail("mmap: unaligned address");
		if (!is_zero(p, chunk))
			fail("mmap: chunk not zero");
		fill(p, chunk, (uint32_t)n);
		if (!check(p, chunk, (uint32_t)n))
			fail("mmap: chunk pattern");
		if (prev) {
			if (!check(prev, chunk, (uint32_t)(n - 1)))
				fail("mmap: the previous chunk changed");
			if (munmap(prev, chunk))
				fail("munmap chunk");
		}
		prev = p;
		done += chunk_mib;
		n++;
	}
	if (prev && munmap(prev, chunk))
		fail("munmap last chunk");
	printf("memtest: mmap %lu MiB in %lu chunks of %lu MiB, two alive at a time: ok\n",
	       done, n, chunk_mib);
}

static void test_dontneed(void)
{
	size_t len = 16 * PAGE;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap for madvise");
	fill(p, len, 77);
	if (madvise(p + 4 * PAGE, 8 * PAGE, MADV_DONTNEED))
		fail("madvise(MADV_DONTNEED)");
	if (!is_zero(p + 4 * PAGE, 8 * PAGE))
		fail("MADV_DONTNEED: not zero at the next touch");
	if (!check(p, 4 * PAGE, 77) || !check(p + 12 * PAGE, 4 * PAGE, 77))
		fail("MADV_DONTNEED: pages outside the range changed");
	if (madvise(p + 1, PAGE, MADV_DONTNEED) == 0 || errno != EINVAL)
		fail("madvise unaligned: want EINVAL");
	if (munmap(p, len))
		fail("munmap");
	printf("memtest: MADV_DONTNEED gives zeros, leaves the rest: ok\n");
}

static void test_fixed(void)
{
	size_t len = 8 * PAGE;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap for MAP_FIXED");
	fill(p, len, 5);
	if (mmap(p + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_FIXED_NOREPLACE, -1, 0) != MAP_FAILED || errno != EEXIST)
		fail("MAP_FIXED_NOREPLACE over a mapping: want EEXIST");
	if (mmap(p + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_FIXED, -1, 0) != p + 2 * PAGE)
		fail("MAP_FIXED at the address");
	if (!is_zero(p + 2 * PAGE, 2 * PAGE) || !check(p, 2 * PAGE, 5) ||
	    !check(p + 4 * PAGE, 4 * PAGE, 5))
		fail("MAP_FIXED: replaced zero, the rest kept");
	if (mmap(p + 1, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED ||
	    errno != EINVAL)
		fail("MAP_FIXED unaligned: want EINVAL");
	if (munmap(p, len))
		fail("munmap");
	printf("memtest: MAP_FIXED replaces, MAP_FIXED_NOREPLACE refuses: ok\n");
}

static void test_mprotect(void)
{
	size_t len = 4 * PAGE;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap for mprotect");
	fill(p, len, 9);
	if (mprotect(p, 2 * PAGE, PROT_READ))
		fail("mprotect(PROT_READ)");
	if (!check(p, len, 9))
		fail("mprotect: bytes changed");
	/* The kernel's copy into a read-only page fails like a bad pointer. */
	if (uname((struct utsname *)p) == 0 || errno != EFAULT)
		fail("uname into a read-only page: want EFAULT");
	if (uname((struct utsname *)(p + 2 * PAGE)) != 0)
		fail("uname into a writable page");
	if (mprotect(p, 2 * PAGE, PROT_READ | PROT_WRITE))
		fail("mprotect back to read-write");
	p[0] = 1;
	if (mprotect(p + 1, PAGE, PROT_READ) == 0 || errno != EINVAL)
		fail("mprotect unaligned: want EINVAL");
	if (munmap(p, len))
		fail("munmap");
	if (uname((struct utsname *)p) == 0 || errno != EFAULT)
		fail("uname into unmapped memory: want EFAULT");
	if (munmap(p, 0) == 0 || errno != EINVAL)
		fail("munmap length 0: want EINVAL");
	printf("memtest: mprotect read-only and back, munmap'd memory gone: ok\n");
}

int main(int argc, char **argv)
{
	unsigned long total = 64, chunk = 4;

	if (argc > 3 || (argc > 1 && (total = strtoul(argv[1], NULL, 0)) == 0) ||
	    (argc > 2 && (chunk = strtoul(argv[2], NULL, 0)) == 0)) {
		printf("usage: memtest [total-MiB [chunk-MiB]]\n");
		return 2;
	}
	test_brk();
	test_chunks(total, chunk);
	test_dontneed();
	test_fixed();
	test_mprotect();
	printf("memtest: all ok\n");
	return 0;
}
