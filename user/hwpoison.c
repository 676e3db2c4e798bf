/*
 * hwpoison - HWPoison in mapped pages, from user mode (docs/hwpoison.md "Mapped frames").
 * Exits 0 when every check held, 1 at the first that did not (a `hwpoison: FAIL:` line), 2 for
 * bad arguments.  The kernel's lines (the pfn, "Sending SIGBUS", "MCE: Killing ...") are the
 * test's to check (tests/qemu/hwpoison_user_test.sh); each step here prints what it did.
 *
 *   hwpoison anon
 *       A child V maps 4 anonymous pages and writes a pattern into each; its child I (sharing
 *       the pages since the fork) poisons page 1 with madvise(MADV_HWPOISON): I, the
 *       action-required caller, must die of SIGBUS at once.  V then finds pages 0, 2, 3
 *       intact; madvise on page 1 again is -EFAULT (its pte holds a hwpoison entry, no
 *       page); a child of V touching page 1 dies of SIGBUS (fork copied the entry); a child
 *       unmapping the area exits 0 (munmap zaps the entry); then V prints "touching <addr>"
 *       and reads page 1 + 5: it must die of SIGBUS (late kill).  MADV_SOFT_OFFLINE on an
 *       anonymous page (page 2, mapped by V and its forked children) is 0: migration moves
 *       it (mm/migrate.c), its bytes the same after.
 *   hwpoison file-clean <path>
 *       Writes 3 pages of a pattern to <path> (created), fsyncs, maps it MAP_PRIVATE read-only,
 *       reads page 1, poisons it: the call returns 0 (a clean page is only dropped, nobody is
 *       killed) and page 1 reads the pattern again (refault from the disk), as do pages 0, 2;
 *       then soft-offlines page 1 (0, the bytes kept): the kernel's line names the frame now
 *       mapped there, which the test checks is not the poisoned one.
 *   hwpoison file-dirty <path>
 *       Maps <path> (created, 3 pages) MAP_SHARED, writes the pattern, fsyncs (0), writes page 1
 *       again (dirty); a child poisons page 1 and must die of SIGBUS; then fsync is -1 EIO
 *       once, then 0; pages 0 and 2 keep their bytes; V touches page 1 and must die of SIGBUS.
 *   hwpoison unevictable <path>     (<path> on ramfs: AS_UNEVICTABLE, nothing writes it back)
 *       Writes a page to <path>, maps it MAP_SHARED read-only, poisons it: the call returns 0
 *       (the folio was clean: nobody is killed at once), but the data had no other copy, so
 *       the pte holds a hwpoison entry and the victim dies of SIGBUS touching it.
 *   hwpoison soft <path>
 *       Maps <path> (created, 3 pages) MAP_SHARED, writes page 2 through it, fsyncs, and
 *       soft-offlines pages 1 and 2 (one call: 0): every byte the same after; page 2 written
 *       through the mapping again (the new frame) reaches the file at fsync (read back).
 *       MADV_SOFT_OFFLINE of a dirty ext2 page is not tried: its dirty buffer heads cannot be
 *       released, so the move is refused (mm/soft-offline.c; v6.10 writes it out first).
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tinymm_user.h"
#include "../lib/unistd_nr.h"

#define PAGE		4096UL
#define NPAGES		3
#define MADV_HWPOISON		LINUX_MADV_HWPOISON
#define MADV_SOFT_OFFLINE	LINUX_MADV_SOFT_OFFLINE
#define LINUX_EBUSY		16
#define LINUX_EFAULT		14
#define LINUX_SIGBUS		7	/* picolibc's SIGBUS is BSD's 10 */

static int fail(const char *what)
{
	printf("hwpoison: FAIL: %s (errno %d)\n", what, errno);
	return 1;
}

static unsigned char pat(unsigned long i, unsigned int seed)
{
	return (unsigned char)(i * 7 + (i >> 12) * 13 + seed);
}

static void fill(volatile unsigned char *p, unsigned long from, unsigned long len,
		 unsigned int seed)
{
	for (unsigned long i = from; i < from + len; i++)
		p[i] = pat(i, seed);
}

static int check(const volatile unsigned char *p, unsigned long from, unsigned long len,
		 unsigned int seed)
{
	for (unsigned long i = from; i < from + len; i++)
		if (p[i] != pat(i, seed)) {
			printf("hwpoison: byte %lu is 0x%02x, expected 0x%02x\n", i, p[i], pat(i, seed));
			return -1;
		}
	return 0;
}

/* The raw madvise result: -errno in Linux's numbering (EHWPOISON has no picolibc name). */
static long raw_madvise(volatile void *addr, unsigned long len, int advice)
{
	return tinymm_syscall6(__NR_madvise, (long)addr, (long)len, advice, 0, 0, 0);
}

/* Run @fn in a child; its wait status. */
static int in_child(int (*fn)(volatile unsigned char *), volatile unsigned char *arg)
{
	int status = -1;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(fn(arg));
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/* Linux's wait status: the signal in the low 7 bits (picolibc's macros read another layout). */
static int killed_by_sigbus(int status)
{
	return status >= 0 && (status & 0x7f) == LINUX_SIGBUS;
}

static int poison_page(volatile unsigned char *p)
{
	long r = raw_madvise(p, PAGE, MADV_HWPOISON);

	printf("hwpoison: FAIL: madvise(MADV_HWPOISON) returned %ld and the caller lives\n", r);
	return 3;
}

static int touch_page(volatile unsigned char *p)
{
	printf("hwpoison: touching 0x%lx\n", (unsigned long)(p + 5));
	(void)p[5];
	printf("hwpoison: FAIL: no SIGBUS at a poisoned page\n");
	return 3;
}

static volatile unsigned char *anon_area;
static int unmap_area(volatile unsigned char *p)
{
	(void)p;
	return munmap((void *)anon_area, 4 * PAGE) ? 4 : 0;
}

/* The victim V of `anon`: returns only on failure (it must die touching page 1). */
static int anon_victim(void)
{
	volatile unsigned char *map = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile unsigned char *p1;
	int status;
	long r;

	if (map == MAP_FAILED)
		return fail("mmap anon");
	anon_area = map;
	p1 = map + PAGE;
	fill(map, 0, 4 * PAGE, 1);
	printf("hwpoison: anon page at 0x%lx\n", (unsigned long)p1);
	status = in_child(poison_page, p1);
	if (!killed_by_sigbus(status)) {
		printf("hwpoison: FAIL: the injecting child's status is 0x%x, not SIGBUS\n", status);
		return 1;
	}
	printf("hwpoison: injector killed by SIGBUS\n");
	if (check(map, 0, PAGE, 1) || check(map, 2 * PAGE, 2 * PAGE, 1))
		return fail("the other pages changed");
	/* v6.10: get_user_pages_fast() meets the hwpoison entry: -EFAULT, and no SIGBUS. */
	r = raw_madvise(p1, PAGE, MADV_HWPOISON);
	if (r != -LINUX_EFAULT) {
		printf("hwpoison: FAIL: madvise on the poisoned page again: %ld, not -EFAULT\n", r);
		return 1;
	}
	r = raw_madvise(map + 2 * PAGE, PAGE, MADV_SOFT_OFFLINE);
	if (r != 0) {
		printf("hwpoison: FAIL: MADV_SOFT_OFFLINE on an anonymous page: %ld, not 0\n", r);
		return 1;
	}
	printf("hwpoison: anonymous page soft-offlined\n");
	if (check(map, 2 * PAGE, PAGE, 1))
		return fail("page 2 changed by its soft offline");
	status = in_child(touch_page, p1);
	if (!killed_by_sigbus(status)) {
		printf("hwpoison: FAIL: a forked child touching the page: status 0x%x\n", status);
		return 1;
	}
	printf("hwpoison: forked child killed by SIGBUS\n");
	status = in_child(unmap_area, p1);
	if (status != 0) {
		printf("hwpoison: FAIL: a forked child's munmap: status 0x%x\n", status);
		return 1;
	}
	printf("hwpoison: forked child unmapped the entry\n");
	/* The kernel's copy from the page fails (-EFAULT) and kills nobody. */
	r = tinymm_syscall6(__NR_write, 1, (long)p1, 16, 0, 0, 0);
	if (r != -LINUX_EFAULT) {
		printf("hwpoison: FAIL: write(2) from the poisoned page: %ld, not -EFAULT\n", r);
		return 1;
	}
	printf("hwpoison: write(2) from the poisoned page: EFAULT\n");
	touch_page(p1);
	return 1;
}

static int run_anon(void)
{
	int status = -1;
	pid_t pid = fork();

	if (pid < 0)
		return fail("fork");
	if (pid == 0)
		_exit(anon_victim());
	if (waitpid(pid, &status, 0) != pid)
		return fail("waitpid");
	if (!killed_by_sigbus(status)) {
		printf("hwpoison: FAIL: the victim's status is 0x%x, not SIGBUS\n", status);
		return 1;
	}
	printf("hwpoison: anon: ok\n");
	return 0;
}

/* <path> made NPAGES pages of pattern @seed, on the disk (fsync); the open fd, or -1. */
static int make_file(const char *path, unsigned int seed)
{
	static unsigned char buf[NPAGES * PAGE];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	fill(buf, 0, sizeof(buf), seed);
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) || fsync(fd))
		return -1;
	return fd;
}

static int run_file_clean(const char *path)
{
	volatile unsigned char *map;
	int fd = make_file(path, 3);
	long r;

	if (fd < 0)
		return fail("create the file");
	map = mmap(NULL, NPAGES * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return fail("mmap MAP_PRIVATE");
	if (check(map, 0, NPAGES * PAGE, 3))
		return fail("the mapping before");
	r = raw_madvise(map + PAGE, PAGE, MADV_HWPOISON);
	if (r != 0) {
		printf("hwpoison: FAIL: madvise(MADV_HWPOISON) on a clean file page: %ld\n", r);
		return 1;
	}
	printf("hwpoison: clean file page poisoned, reading it again\n");
	if (check(map, 0, NPAGES * PAGE, 3))
		return fail("the bytes after the refault");
	/* The kernel names the frame now mapped there (the test compares it with the poisoned
	 * one): soft offline of the refaulted page, which must work and keep the bytes. */
	r = raw_madvise(map + PAGE, PAGE, MADV_SOFT_OFFLINE);
	if (r != 0) {
		printf("hwpoison: FAIL: soft offline of the refaulted page: %ld\n", r);
		return 1;
	}
	if (check(map, 0, NPAGES * PAGE, 3))
		return fail("the bytes after soft offline of the refaulted page");
	printf("hwpoison: file-clean: ok\n");
	return 0;
}

static int run_file_dirty(const char *path)
{
	volatile unsigned char *map;
	int fd = make_file(path, 5), status;

	if (fd < 0)
		return fail("create the file");
	map = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return fail("mmap MAP_SHARED");
	fill(map, PAGE, PAGE, 9);			/* page 1 dirty again */
	status = in_child(poison_page, map + PAGE);
	if (!killed_by_sigbus(status)) {
		printf("hwpoison: FAIL: the injecting child's status is 0x%x, not SIGBUS\n", status);
		return 1;
	}
	printf("hwpoison: injector killed by SIGBUS\n");
	errno = 0;
	if (fsync(fd) != -1 || errno != EIO)
		return fail("fsync after losing a dirty page did not say EIO");
	printf("hwpoison: fsync: EIO\n");
	if (fsync(fd))
		return fail("the second fsync (the error is reported once)");
	if (check(map, 0, PAGE, 5) || check(map, 2 * PAGE, PAGE, 5))
		return fail("pages 0 and 2 changed");
	touch_page(map + PAGE);
	return 1;
}

/* A ramfs page (AS_UNEVICTABLE, never written back): poisoned, its data is gone, so its pte
 * keeps a hwpoison entry; the caller is not killed (the folio was clean) but dies touching it. */
static int run_unevictable(const char *path)
{
	static unsigned char buf[PAGE];
	volatile unsigned char *map;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	long r;

	if (fd < 0)
		return fail("create the file");
	fill(buf, 0, PAGE, 19);
	if (write(fd, buf, PAGE) != (ssize_t)PAGE)
		return fail("write");
	map = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return fail("mmap MAP_SHARED");
	if (check(map, 0, PAGE, 19))
		return fail("the mapping before");
	r = raw_madvise(map, PAGE, MADV_HWPOISON);
	if (r != 0) {
		printf("hwpoison: FAIL: madvise(MADV_HWPOISON) on a ramfs page: %ld\n", r);
		return 1;
	}
	printf("hwpoison: ramfs page poisoned, the caller lives\n");
	touch_page(map);
	return 1;
}

static int run_soft(const char *path)
{
	static unsigned char back[PAGE];
	volatile unsigned char *map;
	int fd = make_file(path, 11);
	long r;

	if (fd < 0)
		return fail("create the file");
	map = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return fail("mmap MAP_SHARED");
	if (check(map, 0, NPAGES * PAGE, 11))
		return fail("the mapping before");
	fill(map, 2 * PAGE, PAGE, 13);			/* page 2 written through the mapping */
	if (fsync(fd))
		return fail("fsync before soft offline");
	r = raw_madvise(map + PAGE, 2 * PAGE, MADV_SOFT_OFFLINE);
	if (r != 0) {
		printf("hwpoison: FAIL: madvise(MADV_SOFT_OFFLINE): %ld\n", r);
		return 1;
	}
	if (check(map, 0, 2 * PAGE, 11) || check(map, 2 * PAGE, PAGE, 13))
		return fail("the bytes after soft offline");
	fill(map, 2 * PAGE, PAGE, 17);			/* the new frame, written and synced */
	if (fsync(fd))
		return fail("fsync after soft offline");
	if (lseek(fd, 2 * PAGE, SEEK_SET) != (off_t)(2 * PAGE) || read(fd, back, PAGE) != (ssize_t)PAGE)
		return fail("read page 2 back");
	for (unsigned long i = 0; i < PAGE; i++)
		if (back[i] != pat(2 * PAGE + i, 17))
			return fail("page 2 read back after fsync");
	printf("hwpoison: soft: ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "anon"))
		return run_anon();
	if (argc == 3 && !strcmp(argv[1], "file-clean"))
		return run_file_clean(argv[2]);
	if (argc == 3 && (!strcmp(argv[1], "file-dirty") || !strcmp(argv[1], "unevictable"))) {
		int status = -1;
		pid_t pid = fork();

		/* The victim dies touching the page: its parent checks how. */
		if (pid == 0)
			_exit(argv[1][0] == 'f' ? run_file_dirty(argv[2]) : run_unevictable(argv[2]));
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return fail("fork/waitpid");
		if (!killed_by_sigbus(status)) {
			printf("hwpoison: FAIL: the victim's status is 0x%x, not SIGBUS\n", status);
			return 1;
		}
		printf("hwpoison: %s: ok\n", argv[1]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "soft"))
		return run_soft(argv[2]);
	printf("usage: hwpoison anon | file-clean <path> | file-dirty <path> | unevictable <path> | "
	       "soft <path>\n");
	return 2;
}
