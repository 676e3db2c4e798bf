/*
 * sysfuzz - a small system-call fuzzer (trinity's idea; docs/syscalls.md).
 *
 *   sysfuzz <seed> <count>
 *
 * Each of <count> iterations draws a call from the implemented list and its arguments from a
 * seeded xorshift64* stream: random words, boundary values (0, -1, 0x7fffffff, 0x80000000,
 * huge lengths), kernel addresses, NULL, unaligned pointers, pointers into its own buffers and
 * near the end of a mapping, negative and huge fds, overlapping mmap (private and shared,
 * anonymous and of its files)/munmap/mprotect/madvise/msync over its scratch window, and now and then a number nothing implements (-ENOSYS).  Every
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
#include "../include/tinymm/uapi/fcntl.h"
#include "../include/tinymm/uapi/time.h"
#include "../include/tinymm/uapi/unistd.h"

#define PAGE		4096UL
#define WIN_PAGES	64UL
#define WIN_SIZE	(WIN_PAGES * PAGE)
#define TOP		"/mnt/sysfuzz"
#define MAX_FDS		24
#define MAX_MAPS	64

static uint64_t rng_state;
static uintptr_t win;			/* the scratch window: [win, win + WIN_SIZE) */
static long fds[MAX_FDS];
static int nfds;
static uintptr_t maps[MAX_MAPS];	/* non-fixed mappings it made: length in maplen */
static unsigned long maplen[MAX_MAPS];
static int nmaps;
static long start_brk;
static unsigned long errcount[4096];
static unsigned long calls, errors, out_of_range;

static const char *const paths[] = {
	TOP "/f0", TOP "/f1", TOP "/f2", TOP "/d0", TOP "/d1", TOP "/d0/f3", TOP "/d1/f4",
	TOP "/d0/d2", TOP, TOP "/missing/x", TOP "/f0/x",
};
static const char *const ro_paths[] = { "/", "/bin", "/bin/hello", "/mnt", "", "/no/such" };
static char long_path[5000];
static const char nul_path[] = "";
/* Read-only data the kernel may read: requests and buffers for write(). */
#if defined(__NR_clock_nanosleep_time64)
static struct linux_timespec64 ts64_ok = { 0, 500000 }, ts64_bad = { -1, 0 };
#else
static struct linux_old_timespec ts_ok = { 0, 1000000 }, ts_bad = { 0, 1000000000 };
#endif
static const char text[] = "sysfuzz writes these bytes into its files, over and over again.\n";

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static unsigned long below(unsigned long n)
{
	return n ? (unsigned long)(rnd() % n) : 0;
}

static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

/* A value from the boundaries or a random word. */
static long any_word(void)
{
	static const long edges[] = { 0, 1, -1, 2, 4095, 4096, 4097, 0x7fffffff, (long)0x80000000UL,
				      (long)0xffffffffUL, -4096, (long)(~0UL >> 1), 0x10000, 255 };

	if (chance(60))
		return edges[below(sizeof(edges) / sizeof(edges[0]))];
	return (long)rnd();
}

/* An address that is never user memory: NULL, page 0, kernel addresses. */
static long wild_ptr(void)
{
	/* Above every ABI's TASK_SIZE (2 GiB on ARM and RV32, 256 GiB on RV64), or in page 0:
	 * a fuzzed MAP_FIXED_NOREPLACE can put memory at any user address, even 0x80000000 on
	 * RV64, but never there. */
#if __SIZEOF_LONG__ == 8
	static const unsigned long bad[] = { 0, 1, 0xfff, 0x4000000000UL, 0x8000000000000000UL,
					     0xffffffff80000000UL, 0xfffffffffffff000UL, ~0UL };
#else
	static const unsigned long bad[] = { 0, 1, 0xfff, 0x80000000UL, 0xc0000000UL, 0xfffff000UL,
					     ~0UL };
#endif

	return (long)bad[below(sizeof(bad) / sizeof(bad[0]))];
}

/* An address the kernel must refuse to write to: a wild one, or just past the window (where
 * a fuzzed mmap may have put something: never a place the program keeps anything). */
static long bad_ptr(void)
{
	if (chance(10))
		return (long)(win + WIN_SIZE + below(2 * PAGE));
	return wild_ptr();
}

/* A pointer the kernel may write @max bytes at: inside the window (maybe unmapped or
 * read-only by now: that is -EFAULT), near its end, or a bad one. */
static long out_ptr(unsigned long *len)
{
	unsigned long off;

	if (chance(15)) {
		*len = chance(50) ? below(64) : (unsigned long)any_word();
		return bad_ptr();
	}
	off = chance(30) ? WIN_SIZE - below(64) : below(WIN_SIZE);
	if (chance(70))
		off &= ~7UL;
	*len = chance(10) ? (unsigned long)any_word() : below(WIN_SIZE - off + 128);
	if (*len > WIN_SIZE - off)
		*len = chance(50) ? WIN_SIZE - off : *len;	/* huge ones stay huge */
	return (long)(win + off);
}

/* A pointer the kernel only reads: anywhere it owns, or bad. */
static long in_ptr(void)
{
	if (chance(20))
		return bad_ptr();
	if (chance(50))
		return (long)text;
	return (long)(win + below(WIN_SIZE));
}

static long any_fd(void)
{
	static const long bad[] = { -1, -100, 64, 63, 1000000, 0x7fffffff, -2147483647 - 1, 3 };

	if (nfds && chance(75))
		return fds[below((unsigned long)nfds)];
	return bad[below(sizeof(bad) / sizeof(bad[0]))];
}

static long any_path(void)
{
	if (chance(8))
		return bad_ptr();
	if (chance(4))
		return (long)long_path;
	if (chance(3))
		return (long)nul_path;
	return (long)paths[below(sizeof(paths) / sizeof(paths[0]))];
}

/* A page-aligned range inside the window (overlapping whatever is there), or a bad one. */
static void win_range(long *addr, long *len)
{
	unsigned long first = below(WIN_PAGES), n = 1 + below(WIN_PAGES - first);

	*addr = (long)(win + first * PAGE);
	*len = (long)(n * PAGE - (chance(20) ? below(PAGE) : 0));
	if (chance(10)) {
		*addr += (long)(1 + below(PAGE - 1));		/* unaligned: EINVAL */
	} else if (chance(8)) {
		*addr = chance(50) ? (long)0x80000000UL : (long)(~0UL & ~(PAGE - 1));
	} else if (chance(6)) {
		*len = chance(50) ? 0 : any_word();
		/* Never past the window, unless addr + len wraps (refused by every call): a
		 * "negative" length that does not wrap (0x80000000 on a 32-bit ABI) would let
		 * madvise(DONTNEED), which has no end limit in v6.10 either, zap the stack. */
		if ((unsigned long)*len > WIN_SIZE - first * PAGE &&
		    (unsigned long)*addr + (unsigned long)*len >= (unsigned long)*addr)
			*len = 0;
	}
}

static long prot(void)
{
	return chance(85) ? (long)below(8) : any_word();
}

/* A result: a value, or -errno in [-4095, -1].  mmap and brk return addresses, which on a
 * 32-bit ABI may have the top bit set (Linux's ARM TASK_SIZE is 3 GiB): only their error
 * range is -errno, so @addr results are never out of range. */
static void record_as(long r, const char *what, bool addr)
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

static void record(long r, const char *what)
{
	record_as(r, what, false);
}

static void add_fd(long fd)
{
	if (fd < 3)
		return;
	if (nfds < MAX_FDS)
		fds[nfds++] = fd;
	else
		tinymm_syscall6(__NR_close, fd, 0, 0, 0, 0, 0);
}

static void drop_fd(long fd)
{
	for (int i = 0; i < nfds; i++) {
		if (fds[i] == fd) {
			fds[i] = fds[--nfds];
			return;
		}
	}
}

static void add_map(long addr, unsigned long len)
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

static long traced(long n, long a, long b, long c, long d, long e, long f)
{
	if (calls >= trace_from)
		printf("sysfuzz: call %lu: nr %ld (%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n", calls, n,
		       (unsigned long)a, (unsigned long)b, (unsigned long)c, (unsigned long)d,
		       (unsigned long)e, (unsigned long)f);
	return tinymm_syscall6(n, a, b, c, d, e, f);
}

#define SYS(...)	traced(__VA_ARGS__)

/*
 * clone with mostly the one combination tinymm accepts (flags SIGCHLD, no new stack: a child)
 * and now and then random flags, a random stack or, on ARM, fork; recorded as one call.  A
 * child (the call returned 0) exits at once with status 0 through the raw exit call, before it
 * touches anything; the parent's result is returned for reap_child().
 */
static long clone_call(void)
{
	long r;

#ifdef __NR_fork
	if (chance(20)) {
		r = SYS(__NR_fork, 0, 0, 0, 0, 0, 0);
		if (r == 0)
			tinymm_syscall6(__NR_exit, 0, 0, 0, 0, 0, 0);
		record(r, "fork");
		return r;
	}
#endif
	r = SYS(__NR_clone, chance(70) ? 17 : chance(50) ? any_word() : 17 | (1L << below(31)),
		chance(80) ? 0 : any_word(), chance(50) ? 0 : bad_ptr(), any_word(), bad_ptr(), 0);
	if (r == 0)
		tinymm_syscall6(__NR_exit, 0, 0, 0, 0, 0, 0);
	record(r, "clone");
	return r;
}

/* The parent reaps the child @pid (> 0) with the ABI's wait call: it must come back as that
 * pid, exited with status 0; anything else is counted as out of range and named. */
static long reap_child(long pid)
{
	int status = -1;
	long r;

	if (pid <= 0)
		return pid;
#if defined(__NR_wait4)
	r = SYS(__NR_wait4, pid, (long)&status, 0, 0, 0, 0);
	if (r == pid && status == 0)
		return pid;
#else
	int info[32] = { 0 };

	r = SYS(__NR_waitid, 1 /* P_PID */, pid, (long)info, 4 /* WEXITED */, 0, 0);
	status = info[5];
	if (r == 0 && info[3] == pid && info[2] == 1 /* CLD_EXITED */ && status == 0)
		return pid;
#endif
	out_of_range++;
	printf("sysfuzz: the child %ld of clone was not reaped as exited 0 (%ld, status %d)\n", pid,
	       r, status);
	return pid;
}

static void one_call(void)
{
	unsigned long len;
	long r, a, l, p;

	switch (below(29)) {
	case 0:		/* read: into the window only */
		p = out_ptr(&len);
		r = SYS(__NR_read, any_fd(), p, (long)len, 0, 0, 0);
		record(r, "read");
		break;
	case 1:		/* write */
		/* A huge length only from a bad pointer: the 16 MiB rootfs must not fill up. */
		p = in_ptr();
		r = SYS(__NR_write, any_fd(), p, chance(80) || (p >= (long)text && p < (long)text + 64) ||
			((uintptr_t)p >= win && (uintptr_t)p < win + WIN_SIZE) ? (long)below(9000) : any_word(),
			0, 0, 0);
		record(r, "write");
		break;
	case 2: {	/* openat under /mnt/sysfuzz, any flags */
		static const long fl[] = { LINUX_O_RDONLY, LINUX_O_WRONLY, LINUX_O_RDWR,
					   LINUX_O_CREAT, LINUX_O_EXCL, LINUX_O_TRUNC, LINUX_O_APPEND,
					   LINUX_O_DIRECTORY, LINUX_O_NOFOLLOW, LINUX_O_CLOEXEC };
		long flags = chance(20) ? any_word() & ~(long)(LINUX_O_TMPFILE) : 0;

		for (int i = 0; i < 3; i++)
			flags |= fl[below(sizeof(fl) / sizeof(fl[0]))];
		if (flags & (LINUX_O_WRONLY | LINUX_O_RDWR | LINUX_O_CREAT | LINUX_O_TRUNC)) {
			p = any_path();		/* only ever under /mnt/sysfuzz */
		} else {
			p = chance(30) ? (long)ro_paths[below(sizeof(ro_paths) / sizeof(ro_paths[0]))]
				       : any_path();
		}
		r = SYS(__NR_openat, chance(85) ? LINUX_AT_FDCWD : any_fd(), p, flags,
			(long)below(01000), 0, 0);
		record(r, "openat");
		if (r >= 0)
			add_fd(r);
		break;
	}
	case 3:		/* close */
		a = any_fd();
		r = SYS(__NR_close, a, 0, 0, 0, 0, 0);
		record(r, "close");
		if (r == 0)
			drop_fd(a);
		break;
	case 4:		/* getdents64 */
		p = out_ptr(&len);
		record(SYS(__NR_getdents64, any_fd(), p, (long)len, 0, 0, 0), "getdents64");
		break;
	case 5:		/* mkdirat */
		record(SYS(__NR_mkdirat, chance(90) ? LINUX_AT_FDCWD : any_fd(), any_path(),
			   (long)below(01000), 0, 0, 0), "mkdirat");
		break;
	case 6:		/* unlinkat */
		record(SYS(__NR_unlinkat, chance(90) ? LINUX_AT_FDCWD : any_fd(), any_path(),
			   chance(50) ? LINUX_AT_REMOVEDIR : chance(50) ? 0 : any_word(), 0, 0, 0),
		       "unlinkat");
		break;
	case 7:		/* fsync */
		record(SYS(__NR_fsync, any_fd(), 0, 0, 0, 0, 0), "fsync");
		break;
	case 8: {	/* seek: the ABI's own */
		long off = chance(70) ? (long)below(200000) : any_word();
		long whence = chance(90) ? (long)below(3) : any_word();
#if defined(__riscv) && __riscv_xlen == 64
		r = SYS(__NR_lseek, any_fd(), off, whence, 0, 0, 0);
#else
#if defined(__arm__)
		long nr = chance(50) ? __NR__llseek : __NR_lseek;
#else
		long nr = __NR_llseek;
#endif
		p = out_ptr(&len);
#if defined(__NR_lseek)
		if (nr == __NR_lseek)
			r = SYS(nr, any_fd(), off, whence, 0, 0, 0);
		else
#endif
			r = SYS(nr, any_fd(), chance(90) ? 0 : any_word(), off, p, whence, 0);
#endif
		record(r, "seek");
		break;
	}
	case 9:		/* fstat / fstat64 / statx */
		p = out_ptr(&len);
#if defined(__riscv) && __riscv_xlen == 64
		if (chance(50)) {
			record(SYS(__NR_fstat, any_fd(), p, 0, 0, 0, 0), "fstat");
			break;
		}
#elif defined(__arm__)
		if (chance(50)) {
			record(SYS(__NR_fstat64, any_fd(), p, 0, 0, 0, 0), "fstat64");
			break;
		}
#endif
		record(SYS(__NR_statx, chance(50) ? LINUX_AT_FDCWD : any_fd(),
			   chance(40) ? (long)nul_path : any_path(),
			   chance(70) ? LINUX_AT_EMPTY_PATH : any_word(), 0x7ff, p, 0), "statx");
		break;
	case 10:	/* rename */
#if defined(__arm__)
		record(SYS(__NR_renameat, LINUX_AT_FDCWD, any_path(), LINUX_AT_FDCWD, any_path(), 0, 0),
		       "renameat");
#else
		record(SYS(__NR_renameat2, LINUX_AT_FDCWD, any_path(), chance(90) ? LINUX_AT_FDCWD : any_fd(),
			   any_path(), chance(70) ? 0 : (long)below(8), 0), "renameat2");
#endif
		break;
	case 11: {	/* truncate: the ABI's own */
		long long length = chance(70) ? (long long)below(300000) :
				   chance(50) ? -1LL : (long long)(rnd() >> below(64));
#if defined(__riscv) && __riscv_xlen == 64
		r = SYS(__NR_ftruncate, any_fd(), (long)length, 0, 0, 0, 0);
#elif defined(__riscv)
		r = SYS(__NR_ftruncate64, any_fd(), (long)(uint32_t)length,
			(long)(uint32_t)((uint64_t)length >> 32), 0, 0, 0);
#else
		r = SYS(__NR_ftruncate64, any_fd(), 0, (long)(uint32_t)length,
			(long)(uint32_t)((uint64_t)length >> 32), 0, 0);
#endif
		record(r, "ftruncate");
		break;
	}
	case 12:	/* brk: above where it started, or refused values */
		a = chance(60) ? start_brk + (long)below(1 << 20) : chance(50) ? 0 : any_word();
		r = SYS(__NR_brk, a, 0, 0, 0, 0, 0);
		record_as(r, "brk", true);
		break;
	case 13: case 14: {	/* mmap: fixed into the window, or anywhere free */
		long flags = LINUX_MAP_PRIVATE | (chance(70) ? LINUX_MAP_ANONYMOUS : 0);
		long fd = flags & LINUX_MAP_ANONYMOUS ? -1 : any_fd();

		win_range(&a, &l);
		if (fd >= 0 && chance(30))
			flags = LINUX_MAP_SHARED;		/* a shared file mapping (issue 34) */
		if (chance(10))
			flags = (flags & ~LINUX_MAP_PRIVATE) | (chance(50) ? LINUX_MAP_SHARED : any_word() & 0xf);
		if (chance(50)) {
			flags |= LINUX_MAP_FIXED;		/* only at window addresses */
			if ((unsigned long)a < win || (unsigned long)a >= win + WIN_SIZE)
				flags &= ~LINUX_MAP_FIXED;
		} else if (chance(40)) {
			flags |= LINUX_MAP_FIXED_NOREPLACE;	/* never replaces: any address */
			a = chance(50) ? a : any_word() & ~(long)(PAGE - 1);
		} else {
			a = chance(50) ? 0 : any_word();	/* a hint */
			l = chance(80) ? (long)((1 + below(256)) * PAGE) : any_word();
		}
		if (chance(3))
			flags &= ~(LINUX_MAP_FIXED | LINUX_MAP_FIXED_NOREPLACE);	/* nothing fixed */
#if defined(__riscv) && __riscv_xlen == 64
		r = SYS(__NR_mmap, a, l, prot(), flags, fd, chance(80) ? (long)(below(4) * PAGE) : any_word());
#else
		r = SYS(__NR_mmap2, a, l, prot(), flags, fd, chance(80) ? (long)below(4) : any_word());
#endif
		record_as(r, "mmap", true);
		if ((r >= 0 || r < -4095) && !(flags & LINUX_MAP_FIXED))
			add_map(r, (unsigned long)l);
		break;
	}
	case 15:	/* munmap inside the window */
		win_range(&a, &l);
		record(SYS(__NR_munmap, a, l, 0, 0, 0, 0), "munmap");
		break;
	case 16:	/* mprotect inside the window */
		win_range(&a, &l);
		record(SYS(__NR_mprotect, a, l, prot(), 0, 0, 0), "mprotect");
		break;
	case 17:	/* madvise inside the window */
		win_range(&a, &l);
		record(SYS(__NR_madvise, a, l, chance(80) ? (long)below(10) : any_word(), 0, 0, 0),
		       "madvise");
		break;
	case 18:
		record(SYS(__NR_getpid, 0, 0, 0, 0, 0, 0), "getpid");
		break;
	case 19:
		p = out_ptr(&len);
		record(SYS(__NR_uname, p, 0, 0, 0, 0, 0), "uname");
		break;
	case 20:
		record(SYS(__NR_sched_yield, 0, 0, 0, 0, 0, 0), "sched_yield");
		break;
	case 21:	/* wait */
		p = out_ptr(&len);
#if defined(__NR_wait4)
		record(SYS(__NR_wait4, any_word(), p, chance(50) ? 0 : any_word(), chance(80) ? 0 : p, 0, 0),
		       "wait4");
#else
		record(SYS(__NR_waitid, (long)below(5), any_word(), p, chance(50) ? 4 : any_word(), 0, 0),
		       "waitid");
#endif
		break;
	case 22:	/* clock_gettime: any clock id */
		p = out_ptr(&len);
#if defined(__NR_clock_gettime64)
		record(SYS(__NR_clock_gettime64, (long)below(16) - 3, p, 0, 0, 0, 0), "clock_gettime64");
#else
		record(SYS(__NR_clock_gettime, (long)below(16) - 3, p, 0, 0, 0, 0), "clock_gettime");
#endif
		break;
	case 23:	/* sleep: at most 2 ms, or refused */
		p = out_ptr(&len);
#if defined(__NR_clock_nanosleep_time64)
		ts64_ok.tv_nsec = (long long)below(2000000);
		record(SYS(__NR_clock_nanosleep_time64, (long)below(8), chance(90) ? 0 : 1,
			   chance(60) ? (long)&ts64_ok : chance(50) ? (long)&ts64_bad : wild_ptr(),
			   chance(50) ? 0 : p, 0, 0), "clock_nanosleep_time64");
#else
		ts_ok.tv_nsec = (long)below(2000000);
		record(SYS(__NR_nanosleep, chance(60) ? (long)&ts_ok : chance(50) ? (long)&ts_bad : wild_ptr(),
			   chance(50) ? 0 : p, 0, 0, 0, 0), "nanosleep");
#endif
		break;
	case 24: {	/* execve with what can only fail */
		static const long bad_exec[] = { 0, (long)0x80000000UL, (long)(TOP "/missing/x"),
						 (long)"/mnt", (long)nul_path };
		record(SYS(__NR_execve, bad_exec[below(5)], chance(50) ? 0 : bad_ptr(), 0, 0, 0, 0),
		       "execve");
		break;
	}
	case 25:	/* clone (ARM: or fork): SIGCHLD semantics only; the child exits at once */
		r = reap_child(clone_call());
		break;
	case 26:	/* msync inside the window, any flags now and then */
		win_range(&a, &l);
		record(SYS(__NR_msync, chance(90) ? a : a + 1, l,
			   chance(80) ? (long)(below(3) ? (below(2) ? LINUX_MS_SYNC : LINUX_MS_ASYNC) :
					       LINUX_MS_INVALIDATE) : any_word(), 0, 0, 0), "msync");
		break;
	default: {	/* a number nothing implements */
		static const long known[] = {
			__NR_exit, __NR_exit_group, __NR_execve, __NR_kill, __NR_read, __NR_write,
			__NR_openat, __NR_close, __NR_getdents64, __NR_mkdirat, __NR_unlinkat,
			__NR_fsync, __NR_brk, __NR_munmap, __NR_mprotect, __NR_madvise, __NR_msync,
			__NR_getpid, __NR_mincore,	/* implemented, not fuzzed (the file is full) */
			__NR_getppid, __NR_uname, __NR_sched_yield, __NR_set_tid_address, __NR_statx,
			__NR_renameat2, __NR_clone,
#ifdef __NR_fork
			__NR_fork,
#endif
#ifdef __NR_lseek
			__NR_lseek,
#endif
#ifdef __NR_llseek
			__NR_llseek,
#endif
#ifdef __NR__llseek
			__NR__llseek,
#endif
#ifdef __NR_fstat
			__NR_fstat,
#endif
#ifdef __NR_fstat64
			__NR_fstat64,
#endif
#ifdef __NR_renameat
			__NR_renameat,
#endif
#ifdef __NR_ftruncate
			__NR_ftruncate,
#endif
#ifdef __NR_ftruncate64
			__NR_ftruncate64,
#endif
#ifdef __NR_mmap
			__NR_mmap,
#endif
#ifdef __NR_mmap2
			__NR_mmap2,
#endif
#ifdef __NR_wait4
			__NR_wait4,
#endif
#ifdef __NR_waitid
			__NR_waitid,
#endif
#ifdef __NR_clock_gettime
			__NR_clock_gettime,
#endif
#ifdef __NR_clock_gettime64
			__NR_clock_gettime64,
#endif
#ifdef __NR_nanosleep
			__NR_nanosleep,
#endif
#ifdef __NR_clock_nanosleep_time64
			__NR_clock_nanosleep_time64,
#endif
		};
		/* Linux calls that would end or derail the program if some kernel implemented
		 * them (v6.10's numbers): vfork, clone3, signals, sigreturn, reboot, mremap. */
#if defined(__arm__)
		static const long danger[] = { 88, 119, 163, 173, 190, 238, 268 };
#else
		static const long danger[] = { 130, 131, 139, 142, 216, 435 };
#endif
		long nr = chance(90) ? (long)below(600) : (long)0x0f0010 + (long)below(100);

		for (unsigned int i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (known[i] == nr)
				nr = 4000 + (long)below(100);	/* past every table */
		for (unsigned int i = 0; i < sizeof(danger) / sizeof(danger[0]); i++)
			if (danger[i] == nr)
				nr = 4000 + (long)below(100);
		record(SYS(nr, any_word(), any_word(), any_word(), any_word(), any_word(), any_word()),
		       "unknown");
		break;
	}
	}
}

/* Everything under @path removed (depth first), @path itself last; errors ignored. */
static void remove_tree(const char *path, int depth)
{
	static unsigned char dbuf[8][1024];
	char child[512];
	long fd = SYS(__NR_openat, LINUX_AT_FDCWD, (long)path, LINUX_O_RDONLY | LINUX_O_DIRECTORY, 0, 0, 0);

	if (fd >= 0 && depth < 8) {
		for (;;) {
			long n = SYS(__NR_getdents64, fd, (long)dbuf[depth], sizeof(dbuf[depth]), 0, 0, 0);
			int removed = 0;

			if (n <= 0)
				break;
			for (long off = 0; off < n;) {
				struct linux_dirent64 *d = (struct linux_dirent64 *)(dbuf[depth] + off);

				off += d->d_reclen;
				if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
					continue;
				snprintf(child, sizeof(child), "%s/%s", path, d->d_name);
				if (d->d_type == DT_DIR)
					remove_tree(child, depth + 1);
				else
					SYS(__NR_unlinkat, LINUX_AT_FDCWD, (long)child, 0, 0, 0, 0);
				removed = 1;
			}
			if (removed)
				lseek((int)fd, 0, SEEK_SET);	/* entries moved: again */
		}
		SYS(__NR_close, fd, 0, 0, 0, 0, 0);
	} else if (fd >= 0) {
		SYS(__NR_close, fd, 0, 0, 0, 0, 0);
	}
	SYS(__NR_unlinkat, LINUX_AT_FDCWD, (long)path, LINUX_AT_REMOVEDIR, 0, 0, 0);
	SYS(__NR_unlinkat, LINUX_AT_FDCWD, (long)path, 0, 0, 0, 0);
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
	remove_tree(TOP, 0);

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
