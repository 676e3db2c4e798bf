/*
 * mapshare - one file mapped MAP_SHARED by two tasks on two CPUs: what the writer stores, the
 * reader sees (docs/shared-mappings.md; docs/smp.md, "User tasks on all CPUs").
 *
 *   mapshare <path> [pages]   (default 16, 2-256)
 *
 * The file is created <pages> + 1 pages long.  After fork, the parent (the writer) pins itself
 * to the first CPU it may use and the child (the reader) to another, each checking with getcpu()
 * that it runs there; each maps the file MAP_SHARED itself (two areas, one page cache).  Then:
 *   1. the writer fills page i with the bytes of seed i (an xorshift stream) and only then
 *      stores i + 1 into page i's last word with release order; the reader waits for that word
 *      (acquire) and checks every byte of the page through its own mapping and through read();
 *   2. the reader answers: it writes page <pages> (the last) with seed 1000 and then its flag,
 *      and the writer checks it through its mapping;
 *   3. the writer msync()s, both check their CPU again; the reader's status says how it went.
 * Exit 0 with `mapshare: writer on CPU <a>, reader on CPU <b>: <pages> pages seen: ok`; 1 at the
 * first failure (one line, a reader's failure by its exit code), 2 for wrong arguments.  Fewer
 * than two CPUs is a failure: the point is two of them.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tinymm_user.h"

#define PAGE		4096UL
#define FLAG_OFF	(PAGE - sizeof(uint32_t))	/* the last word of a page */
#define WAIT_NS		20000000000ULL			/* 20 s for any one page */

static const char *const reader_why[] = {
	[1] = "could not pin itself or left its CPU",
	[2] = "open or mmap failed",
	[3] = "a page's flag never came (20 s)",
	[4] = "a page differed through its mapping",
	[5] = "a page differed through read()",
};

static void fail(const char *what)
{
	printf("mapshare: FAIL: %s (errno %d)\n", what, errno);
	exit(1);
}

static uint8_t stream_byte(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (uint8_t)(*x >> 24);
}

static void fill(uint8_t *p, uint32_t seed)
{
	uint64_t x = 0x9E3779B97F4A7C15ULL ^ seed;

	for (size_t i = 0; i < FLAG_OFF; i++)
		p[i] = stream_byte(&x);
}

static int same(const uint8_t *p, uint32_t seed)
{
	uint64_t x = 0x9E3779B97F4A7C15ULL ^ seed;

	for (size_t i = 0; i < FLAG_OFF; i++)
		if (p[i] != stream_byte(&x))
			return 0;
	return 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) || sched_getcpu() != cpu ? -1 : 0;
}

/* Until page @i's flag says @want (acquire); 0, or -1 after WAIT_NS. */
static int wait_flag(uint8_t *map, unsigned long i, uint32_t want)
{
	uint32_t *flag = (uint32_t *)(map + i * PAGE + FLAG_OFF);
	uint64_t deadline = now_ns() + WAIT_NS;

	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != want)
		if (now_ns() > deadline)
			return -1;
	return 0;
}

static uint8_t *map_file(const char *path, size_t len, int *fdp)
{
	int fd = open(path, O_RDWR);
	uint8_t *map;

	if (fd < 0)
		return NULL;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	*fdp = fd;
	return map;
}

static int reader(const char *path, unsigned long pages, int cpu)
{
	static uint8_t buf[PAGE];
	size_t len = (pages + 1) * PAGE;
	uint8_t *map;
	int fd;

	if (pin_to(cpu))
		return 1;
	map = map_file(path, len, &fd);
	if (!map)
		return 2;
	for (unsigned long i = 0; i < pages; i++) {
		if (wait_flag(map, i, (uint32_t)i + 1))
			return 3;
		if (!same(map + i * PAGE, (uint32_t)i))
			return 4;
		if (lseek(fd, (off_t)(i * PAGE), SEEK_SET) != (off_t)(i * PAGE) ||
		    read(fd, buf, PAGE) != (ssize_t)PAGE || !same(buf, (uint32_t)i))
			return 5;
	}
	fill(map + pages * PAGE, 1000);
	__atomic_store_n((uint32_t *)(map + pages * PAGE + FLAG_OFF), 1000U, __ATOMIC_RELEASE);
	if (sched_getcpu() != cpu)
		return 1;
	munmap(map, len);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long pages = 16;
	int wcpu = -1, rcpu = -1, status = -1, fd;
	cpu_set_t set;
	uint8_t *map;
	size_t len;
	pid_t pid;

	if (argc < 2 || argc > 3 || (argc == 3 && ((pages = strtoul(argv[2], NULL, 0)) < 2 ||
						   pages > 256))) {
		printf("usage: mapshare <path> [pages 2-256]\n");
		return 2;
	}
	len = (pages + 1) * PAGE;
	if (sched_getaffinity(0, sizeof(set), &set))
		fail("sched_getaffinity");
	for (int c = 0; c < CPU_SETSIZE && rcpu < 0; c++)
		if (CPU_ISSET(c, &set)) {
			if (wcpu < 0)
				wcpu = c;
			else
				rcpu = c;
		}
	if (rcpu < 0)
		fail("fewer than two CPUs: no reader on another CPU");
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fail("open");
	if (ftruncate(fd, (off_t)len))		/* zeroes: no flag is set yet */
		fail("ftruncate");
	close(fd);

	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0)
		exit(reader(argv[1], pages, rcpu));
	if (pin_to(wcpu))
		fail("pinning the writer");
	map = map_file(argv[1], len, &fd);
	if (!map)
		fail("open or mmap MAP_SHARED");
	for (unsigned long i = 0; i < pages; i++) {
		fill(map + i * PAGE, (uint32_t)i);
		__atomic_store_n((uint32_t *)(map + i * PAGE + FLAG_OFF), (uint32_t)i + 1,
				 __ATOMIC_RELEASE);
	}
	if (wait_flag(map, pages, 1000) == 0 && !same(map + pages * PAGE, 1000))
		fail("the reader's page differs through the writer's mapping");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		int r = WIFEXITED(status) ? WEXITSTATUS(status) : 0;

		printf("mapshare: reader on CPU %d: status 0x%x: %s\n", rcpu, status,
		       r >= 1 && r <= 5 ? reader_why[r] : "killed or unknown");
		fail("the reader");
	}
	if (*(volatile uint32_t *)(map + pages * PAGE + FLAG_OFF) != 1000)
		fail("the reader's answer never reached the writer's mapping");
	if (msync(map, len, MS_SYNC))
		fail("msync");
	if (sched_getcpu() != wcpu)
		fail("the writer left its CPU");
	munmap(map, len);
	close(fd);
	printf("mapshare: writer on CPU %d, reader on CPU %d: %lu pages seen: ok\n", wcpu, rcpu, pages);
	return 0;
}
