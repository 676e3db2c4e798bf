/*
 * mlocktest - the mlock family from user space (docs/mlock.md), driven step by step by a test
 * script that reads `meminfo` and `pagemap` between the steps.
 *
 *   mlocktest track <pages>     the counters: an anonymous area of <pages> pages
 *   mlocktest resident <pages>  residency: two files of <pages> pages in /mnt, one mlocked
 *   mlocktest read <path>       the pressure: reads the file whole, 64 KiB at a time, and prints
 *                               "mlocktest: read <bytes> bytes crc32 <8 hex digits>" (zlib's CRC-32)
 *   mlocktest poison <pages>    HWPoison in an mlocked page (docs/hwpoison.md): an anonymous area
 *                               of <pages> (at least 2) pages written and mlocked
 *                                          -> step 11: poison <address of page 1>
 *                               (the script poisons that page's frame from the shell), then every
 *                               other page's bytes checked, "mlocktest: touching <page 1 + 5>" and
 *                               a read there, which must end the task with SIGBUS (late kill)
 *
 * Between steps the program waits for the file /mnt/mlock.<n> to exist (the script makes it
 * with `fwrite`), polling every 20 ms, and prints "mlocktest: step <n>: <what>" before waiting.
 *
 * track: 1. mlock of the whole area (faults it in)            -> step 1: mlocked <pages>
 *        2. munlock of it                                      -> step 2: munlocked
 *        3. mlock2(MLOCK_ONFAULT), then half the pages written -> step 3: onfault <pages/2>
 *        4. mlockall(MCL_CURRENT|MCL_FUTURE), a new 4-page area mapped (locked and populated
 *           at mmap), then munlockall                          -> step 4: mlockall
 *        5. <pages> locked again, then fork: the child (not locked: mlock is not inherited)
 *           writes every page, so it has copies of its own   -> step 5: forked <child pid>
 *           (the child waits for /mnt/mlock.5 too, then exits 0; the parent reaps it)
 *   and, before step 1, the errors v6.10 gives: mlock/munlock of an unmapped range ENOMEM,
 *   mlock2 with an unknown flag EINVAL, mlockall(0), (MCL_ONFAULT) and (8) EINVAL, mlock of a
 *   PROT_NONE area ENOMEM (v6.10: it cannot be faulted in), mlock of 0 bytes 0.
 * resident: /mnt/mlock.locked and /mnt/mlock.free written (byte i of page p is (p * 7 + i) &
 *   0xff), mapped read-only MAP_SHARED, /mnt/mlock.locked mlocked, both read once
 *                                                -> step 1: locked <addr> free <addr> pages <n>
 *   then every byte of both mappings checked      -> step 2: bytes ok
 * Exit 0 when every call did what it should, 1 at the first failure (one line saying which),
 * 2 for wrong arguments.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <unistd.h>
#include "tinymm_user.h"

#define PAGE	4096UL

static void fail(const char *what)
{
	printf("mlocktest: FAIL: %s (errno %d)\n", what, errno);
	exit(1);
}

static void expect_err(int ret, int err, const char *what)
{
	if (ret != -1 || errno != err) {
		printf("mlocktest: FAIL: %s: got %d errno %d, wanted -1 errno %d\n", what, ret,
		       ret == -1 ? errno : 0, err);
		exit(1);
	}
}

/* Print the step, then wait for the script's go-ahead file. */
static void step(int n, const char *what)
{
	char path[32];
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	printf("mlocktest: step %d: %s\n", n, what);
	snprintf(path, sizeof(path), "/mnt/mlock.%d", n);
	for (;;) {
		int fd = open(path, O_RDONLY);

		if (fd >= 0) {
			close(fd);
			return;
		}
		nanosleep(&ts, NULL);
	}
}

static char *map_anon(unsigned long pages, int prot)
{
	char *p = mmap(NULL, pages * PAGE, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap anonymous");
	return p;
}

static void track(unsigned long pages)
{
	char *area = map_anon(pages, PROT_READ | PROT_WRITE), buf[48];
	char *hole = map_anon(1, PROT_READ | PROT_WRITE), *none = map_anon(1, PROT_NONE);

	if (munmap(hole, PAGE))
		fail("munmap");
	expect_err(mlock(hole, PAGE), ENOMEM, "mlock of an unmapped page");
	expect_err(munlock(hole, PAGE), ENOMEM, "munlock of an unmapped page");
	expect_err(mlock2(area, PAGE, 2), EINVAL, "mlock2 with flag 2");
	expect_err(mlockall(0), EINVAL, "mlockall(0)");
	expect_err(mlockall(MCL_ONFAULT), EINVAL, "mlockall(MCL_ONFAULT)");
	expect_err(mlockall(8), EINVAL, "mlockall(8)");
	expect_err(mlock(none, PAGE), ENOMEM, "mlock of a PROT_NONE page");
	if (munlock(none, PAGE) || munmap(none, PAGE))
		fail("munlock/munmap of the PROT_NONE page");
	if (mlock(area, 0))
		fail("mlock of 0 bytes");

	if (mlock(area + 100, pages * PAGE - 100))	/* unaligned start: the whole first page */
		fail("mlock");
	snprintf(buf, sizeof(buf), "mlocked %lu", pages);
	step(1, buf);
	if (munlock(area, pages * PAGE))
		fail("munlock");
	step(2, "munlocked");
	if (munmap(area, pages * PAGE))
		fail("munmap");
	area = map_anon(pages, PROT_READ | PROT_WRITE);
	if (mlock2(area, pages * PAGE, MLOCK_ONFAULT))
		fail("mlock2(MLOCK_ONFAULT)");
	for (unsigned long i = 0; i < pages; i += 2)
		area[i * PAGE] = 1;
	snprintf(buf, sizeof(buf), "onfault %lu", (pages + 1) / 2);
	step(3, buf);
	if (munlock(area, pages * PAGE) || munmap(area, pages * PAGE))
		fail("munlock/munmap of the on-fault area");
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fail("mlockall");
	char *later = map_anon(4, PROT_READ | PROT_WRITE);	/* locked and faulted in at mmap */
	later[0] = 1;
	if (munlockall())
		fail("munlockall");
	step(4, "mlockall");

	area = map_anon(pages, PROT_READ | PROT_WRITE);
	if (mlock(area, pages * PAGE))
		fail("mlock before fork");
	pid_t child = fork();
	if (child < 0)
		fail("fork");
	if (child == 0) {
		for (unsigned long i = 0; i < pages; i++)
			area[i * PAGE] = 2;		/* copy-on-write: the child's own pages */
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		for (int fd; (fd = open("/mnt/mlock.5", O_RDONLY)) < 0;)
			nanosleep(&ts, NULL);
		_exit(0);
	}
	snprintf(buf, sizeof(buf), "forked %d", (int)child);
	step(5, buf);
	int status = -1;
	if (waitpid(child, &status, 0) != child || status != 0)
		fail("the child did not exit 0");
}

static void poison(unsigned long pages)
{
	volatile char *area = map_anon(pages, PROT_READ | PROT_WRITE);
	char buf[48];

	if (pages < 2)
		fail("poison wants at least 2 pages");
	for (unsigned long i = 0; i < pages * PAGE; i++)
		area[i] = (char)(i * 7 + 3);
	if (mlock((void *)area, pages * PAGE))
		fail("mlock");
	snprintf(buf, sizeof(buf), "poison %p", (void *)(area + PAGE));
	step(11, buf);
	for (unsigned long i = 0; i < pages * PAGE; i++)
		if ((i < PAGE || i >= 2 * PAGE) && area[i] != (char)(i * 7 + 3))
			fail("a page beside the poisoned one changed");
	printf("mlocktest: touching %p\n", (void *)(area + PAGE + 5));
	printf("mlocktest: FAIL: read 0x%x from the poisoned page\n", area[PAGE + 5] & 0xff);
	exit(1);
}

static char *make_file(const char *path, unsigned long pages)
{
	static unsigned char buf[PAGE];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char *p;

	if (fd < 0)
		fail("open");
	for (unsigned long pg = 0; pg < pages; pg++) {
		for (unsigned long i = 0; i < PAGE; i++)
			buf[i] = (unsigned char)(pg * 7 + i);
		if (write(fd, buf, PAGE) != (ssize_t)PAGE)
			fail("write");
	}
	if (fsync(fd))
		fail("fsync");
	p = mmap(NULL, pages * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		fail("mmap of the file");
	close(fd);
	return p;
}

static int check_bytes(const char *p, unsigned long pages)
{
	for (unsigned long pg = 0; pg < pages; pg++)
		for (unsigned long i = 0; i < PAGE; i++)
			if ((unsigned char)p[pg * PAGE + i] != (unsigned char)(pg * 7 + i))
				return 0;
	return 1;
}

static void resident(unsigned long pages)
{
	char *locked = make_file("/mnt/mlock.locked", pages), *unlocked = make_file("/mnt/mlock.free", pages);
	char buf[80];

	if (mlock(locked, pages * PAGE))
		fail("mlock of the file");
	if (!check_bytes(locked, pages) || !check_bytes(unlocked, pages))
		fail("the files' bytes before");
	snprintf(buf, sizeof(buf), "locked %p free %p pages %lu", (void *)locked, (void *)unlocked,
		 pages);
	step(1, buf);
	if (!check_bytes(locked, pages))
		fail("the locked file's bytes after");
	if (!check_bytes(unlocked, pages))
		fail("the unlocked file's bytes after");
	step(2, "bytes ok");
}

/* zlib's CRC-32 (reflected, 0xedb88320) over the whole file: the host's zlib.crc32 checks it. */
static void read_file(const char *path)
{
	static unsigned char buf[65536];
	static uint32_t table[256];
	uint32_t crc = 0xffffffffU;
	unsigned long long total = 0;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	if (fd < 0)
		fail("open of the file to read");
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
		total += (unsigned long long)n;
	}
	if (n < 0)
		fail("read");
	close(fd);
	printf("mlocktest: read %llu bytes crc32 %08lx\n", total, (unsigned long)(crc ^ 0xffffffffU));
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long pages;

	if (argc != 3)
		goto usage;
	if (!strcmp(argv[1], "read")) {
		read_file(argv[2]);
		return 0;
	}
	pages = strtoul(argv[2], &end, 0);
	if (!*argv[2] || *end || !pages || pages > 65536)
		goto usage;
	if (!strcmp(argv[1], "track"))
		track(pages);
	else if (!strcmp(argv[1], "resident"))
		resident(pages);
	else if (!strcmp(argv[1], "poison"))
		poison(pages);
	else
		goto usage;
	return 0;
usage:
	printf("usage: mlocktest track|resident|poison <pages> | mlocktest read <path>\n");
	return 2;
}
