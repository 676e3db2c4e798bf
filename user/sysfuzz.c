/*
 * sysfuzz - a small system-call fuzzer (trinity's idea; docs/syscalls.md).
 *
 *   sysfuzz <seed> <count>
 *
 * Each of <count> iterations draws a call from the implemented list and its arguments from a
 * seeded xorshift64* stream: random words, boundary values (0, -1, 0x7fffffff, 0x80000000,
 * huge lengths), kernel addresses, NULL, unaligned pointers, pointers into its own buffers and
 * near the end of a mapping, negative and huge fds, overlapping mmap (private and shared,
 * anonymous and of its files)/munmap/mprotect/madvise (every advice tinymm knows)/msync and
 * mlock/mlock2/munlock over its scratch window, mlockall/munlockall, and now and then a number
 * nothing implements (-ENOSYS).  Every
 * result must be >= 0 or in [-4095, -1]; the program then prints one line
 *   sysfuzz: <count> calls, <n> errors, <m> errnos: <NAME> <k>, ...
 * (the errnos by how often, Linux's names) and exits 0; a result out of range is named on its
 * own line and the exit status is 1.  The same seed makes the same calls.
 *
 * It cannot kill itself by design: the kernel writes only into the scratch window (a region
 * it maps at start; MAP_FIXED, munmap, mprotect and madvise with a valid address stay inside
 * it) or to addresses that are not user memory; its text, data, heap and stack are never an
 * argument the kernel writes to or unmaps.  Files are made only under /mnt/sysfuzz (removed at
 * the end, with everything the calls created there); paths elsewhere are opened read-only.
 * fds 0-2 (the console) are never read or written.  exit, exit_group and ARM's set_tls are
 * never called (any call of them would end the program or break its TLS); execve only with
 * a NULL, kernel or missing path.  clone (and ARM's fork) mostly with SIGCHLD and no stack:
 * the child exits at once, the parent reaps it right away and checks it exited 0.  Sleeps
 * are at most 2 ms: a sleep's request is its own (valid or invalid) timespec or a wild
 * pointer, never memory a fuzzed call may have filled.
 *
 * Two files, by idea: this one is the driver (the state, the loop, the results and the
 * summary, the clean-up); user/sysfuzz_calls.c draws each call and its arguments.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tinymm_user.h"
#include "sysfuzz.h"
#include "../include/tinymm/uapi/fcntl.h"
#include "../include/tinymm/uapi/time.h"
#include "../include/tinymm/uapi/unistd.h"

uint64_t rng_state;
uintptr_t win;			/* the scratch window: [win, win + WIN_SIZE) */
long fds[MAX_FDS];
int nfds;
static uintptr_t maps[MAX_MAPS];	/* non-fixed mappings it made: length in maplen */
static unsigned long maplen[MAX_MAPS];
static int nmaps;
long start_brk;
static unsigned long errcount[4096];
static unsigned long errors;
unsigned long calls, out_of_range;
char long_path[5000];

/* A result: a value, or -errno in [-4095, -1].  mmap and brk return addresses, which on a
 * 32-bit ABI may have the top bit set (Linux's ARM TASK_SIZE is 3 GiB): only their error
 * range is -errno, so @addr results are never out of range. */
void record_as(long r, const char *what, bool addr)
{
	calls++;
	if (r >= 0 || (addr && r < -4095))
		return;
	if (r < -4095) {
		out_of_range++;
		printf("sysfuzz: %s returned %ld: not a value or -errno\n", what, r);
		return;
	}
	errors++;
	errcount[-r]++;
}

void record(long r, const char *what)
{
	record_as(r, what, false);
}

void add_fd(long fd)
{
	if (fd < 3)
		return;
	if (nfds < MAX_FDS)
		fds[nfds++] = fd;
	else
		tinymm_syscall6(__NR_close, fd, 0, 0, 0, 0, 0);
}

void drop_fd(long fd)
{
	for (int i = 0; i < nfds; i++) {
		if (fds[i] == fd) {
			fds[i] = fds[--nfds];
			return;
		}
	}
}

void add_map(long addr, unsigned long len)
{
	if ((addr < 0 && addr >= -4095) || ((uintptr_t)addr >= win && (uintptr_t)addr < win + WIN_SIZE))
		return;
	if (nmaps < MAX_MAPS) {
		maps[nmaps] = (uintptr_t)addr;
		maplen[nmaps++] = len;
	} else {
		tinymm_syscall6(__NR_munmap, addr, (long)len, 0, 0, 0, 0);
	}
}

static unsigned long trace_from = ~0UL;	/* the optional third argument: trace calls from here */

/* The pages of the mappings it made outside the window (an upper bound: some may be gone). */
unsigned long mapped_pages(void)
{
	unsigned long pages = 0;

	for (int i = 0; i < nmaps; i++)
		pages += maplen[i] / PAGE + 1;
	return pages;
}

long traced(long n, long a, long b, long c, long d, long e, long f)
{
	if (calls >= trace_from)
		printf("sysfuzz: call %lu: nr %ld (%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n", calls, n,
		       (unsigned long)a, (unsigned long)b, (unsigned long)c, (unsigned long)d,
		       (unsigned long)e, (unsigned long)f);
	return tinymm_syscall6(n, a, b, c, d, e, f);
}

#define SYS(...)	traced(__VA_ARGS__)

#define MAX_TREE_DEPTH	64

/* Everything under @path removed (depth first), @path itself last.  True when @path is gone.
 * A directory is read again after a pass that removed something (its entries moved), and
 * left when a pass removed nothing: an entry that cannot go is named, never retried forever. */
static bool remove_tree(const char *path, int depth)
{
	static unsigned char dbuf[MAX_TREE_DEPTH][1024];	/* renames nest the fuzzer's dirs deep */
	char child[512];
	long fd = SYS(__NR_openat, LINUX_AT_FDCWD, (long)path, LINUX_O_RDONLY | LINUX_O_DIRECTORY, 0, 0, 0);

	if (fd >= 0 && depth < MAX_TREE_DEPTH) {
		for (;;) {
			long n = SYS(__NR_getdents64, fd, (long)dbuf[depth], sizeof(dbuf[depth]), 0, 0, 0);
			int removed = 0;

			if (n <= 0)
				break;
			for (long off = 0; off < n;) {
				struct linux_dirent64 *d = (struct linux_dirent64 *)(dbuf[depth] + off);
				bool gone;

				off += d->d_reclen;
				if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
					continue;
				if ((size_t)snprintf(child, sizeof(child), "%s/%s", path, d->d_name) >= sizeof(child)) {
					printf("sysfuzz: cannot remove %s/%.40s...: path too long\n", path, d->d_name);
					continue;
				}
				if (d->d_type == DT_DIR)
					gone = remove_tree(child, depth + 1);
				else
					gone = SYS(__NR_unlinkat, LINUX_AT_FDCWD, (long)child, 0, 0, 0, 0) == 0;
				if (!gone)
					printf("sysfuzz: cannot remove %s\n", child);
				removed |= gone;
			}
			if (!removed)
				break;
			lseek((int)fd, 0, SEEK_SET);	/* entries moved: again */
		}
		SYS(__NR_close, fd, 0, 0, 0, 0, 0);
	} else if (fd >= 0) {
		SYS(__NR_close, fd, 0, 0, 0, 0, 0);
	}
	return SYS(__NR_unlinkat, LINUX_AT_FDCWD, (long)path, LINUX_AT_REMOVEDIR, 0, 0, 0) == 0 ||
	       SYS(__NR_unlinkat, LINUX_AT_FDCWD, (long)path, 0, 0, 0, 0) == 0;
}

static const char *errno_name(int e)
{
	static const char *const names[] = {
		[1] = "EPERM", [2] = "ENOENT", [5] = "EIO", [7] = "E2BIG", [8] = "ENOEXEC",
		[9] = "EBADF", [10] = "ECHILD", [11] = "EAGAIN", [12] = "ENOMEM", [13] = "EACCES",
		[14] = "EFAULT", [16] = "EBUSY", [17] = "EEXIST", [18] = "EXDEV", [19] = "ENODEV",
		[20] = "ENOTDIR", [21] = "EISDIR", [22] = "EINVAL", [24] = "EMFILE", [25] = "ENOTTY",
		[27] = "EFBIG", [28] = "ENOSPC", [29] = "ESPIPE", [30] = "EROFS", [31] = "EMLINK",
		[34] = "ERANGE", [36] = "ENAMETOOLONG", [38] = "ENOSYS", [39] = "ENOTEMPTY",
		[40] = "ELOOP", [75] = "EOVERFLOW", [95] = "EOPNOTSUPP", [117] = "EUCLEAN",
	};

	return e < (int)(sizeof(names) / sizeof(names[0])) && names[e] ? names[e] : NULL;
}

int main(int argc, char **argv)
{
	unsigned long seed, count;
	char *end;

	if (argc == 4)
		trace_from = strtoul(argv[3], NULL, 0);
	if (argc < 3 || argc > 4 || (seed = strtoul(argv[1], &end, 0), *end) ||
	    (count = strtoul(argv[2], &end, 0), *end)) {
		printf("usage: sysfuzz <seed> <count> [trace-from]\n");
		return 2;
	}
	rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 1;
	memset(long_path, 'a', sizeof(long_path) - 1);
	long_path[0] = '/';
	win = (uintptr_t)mmap(NULL, WIN_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((void *)win == MAP_FAILED) {
		printf("sysfuzz: no scratch window: mmap failed (errno %d)\n", errno);
		return 1;
	}
	start_brk = SYS(__NR_brk, 0, 0, 0, 0, 0, 0);
	remove_tree(TOP, 0);			/* a previous run's */
	if (mkdir(TOP, 0755)) {
		printf("sysfuzz: mkdir " TOP " failed (errno %d)\n", errno);
		return 1;
	}
	printf("sysfuzz: seed %lu, %lu calls, scratch window %#lx-%#lx\n", seed, count,
	       (unsigned long)win, (unsigned long)(win + WIN_SIZE));
	for (unsigned long i = 0; i < count; i++) {
		one_call();
		if ((i + 1) % 5000 == 0 && i + 1 < count)
			printf("sysfuzz: %lu calls\n", i + 1);	/* progress: where a hang was */
	}

	/* Give everything back: fds, mappings, the heap, the files. */
	for (int i = 0; i < nfds; i++)
		SYS(__NR_close, fds[i], 0, 0, 0, 0, 0);
	for (int i = 0; i < nmaps; i++)
		SYS(__NR_munmap, (long)maps[i], (long)maplen[i], 0, 0, 0, 0);
	SYS(__NR_munmap, (long)win, WIN_SIZE, 0, 0, 0, 0);
	SYS(__NR_brk, start_brk, 0, 0, 0, 0, 0);
	if (!remove_tree(TOP, 0))
		out_of_range++;		/* something the kernel would not let go: named above */

	/* The summary: errnos by how often. */
	char line[1024];
	int at = snprintf(line, sizeof(line), "sysfuzz: %lu calls, %lu errors, ", calls, errors);
	int kinds = 0;
	for (int e = 1; e < 4096; e++)
		kinds += errcount[e] != 0;
	at += snprintf(line + at, sizeof(line) - (size_t)at, "%d errnos:", kinds);
	for (int k = 0; k < kinds && at < (int)sizeof(line) - 32; k++) {
		int best = 0;

		for (int e = 1; e < 4096; e++)
			if (errcount[e] > errcount[best])
				best = e;
		const char *name = errno_name(best);
		if (name)
			at += snprintf(line + at, sizeof(line) - (size_t)at, "%s %s %lu", k ? "," : "",
				       name, errcount[best]);
		else
			at += snprintf(line + at, sizeof(line) - (size_t)at, "%s %d %lu", k ? "," : "",
				       best, errcount[best]);
		errcount[best] = 0;
	}
	printf("%s\n", line);
	if (out_of_range) {
		printf("sysfuzz: %lu results out of range\n", out_of_range);
		return 1;
	}
	return 0;
}
