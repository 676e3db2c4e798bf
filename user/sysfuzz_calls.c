/*
 * sysfuzz_calls.c - sysfuzz's calls (user/sysfuzz.c has the whole contract): the seeded
 * argument generators (boundary words, wild and window pointers, fds, paths, window ranges)
 * and one_call(), which draws one implemented call, or a number nothing implements, and its
 * arguments.  The rules that keep the program alive are the driver's header's: the kernel
 * writes only into the scratch window, a range the calls unmap, protect, advise or lock lies in
 * it, and mlockall's MCL_FUTURE comes only with MCL_ONFAULT (a future brk or mmap is never
 * faulted in whole), MCL_CURRENT without it only while its mappings hold at most 1 MiB, with
 * munlockall as likely as mlockall.
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

static const char *const paths[] = {
	TOP "/f0", TOP "/f1", TOP "/f2", TOP "/d0", TOP "/d1", TOP "/d0/f3", TOP "/d1/f4",
	TOP "/d0/d2", TOP, TOP "/missing/x", TOP "/f0/x",
};
static const char *const ro_paths[] = { "/", "/bin", "/bin/hello", "/mnt", "", "/no/such" };
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

void one_call(void)
{
	static const long advice[] = { LINUX_MADV_NORMAL, LINUX_MADV_RANDOM, LINUX_MADV_SEQUENTIAL,
				       LINUX_MADV_WILLNEED, LINUX_MADV_DONTNEED, LINUX_MADV_FREE };
	unsigned long len;
	long r, a, l, p;

	switch (below(35)) {
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
	case 17:	/* madvise inside the window: every advice tinymm knows, or anything */
		win_range(&a, &l);
		record(SYS(__NR_madvise, a, l, chance(80) ? advice[below(sizeof(advice) / sizeof(advice[0]))] :
			   chance(50) ? (long)below(12) : any_word(), 0, 0, 0), "madvise");
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
	case 27:	/* mlock inside the window (faults it in: 64 pages at most) */
		win_range(&a, &l);
		record(SYS(__NR_mlock, a, l, 0, 0, 0, 0), "mlock");
		break;
	case 28:	/* mlock2: MLOCK_ONFAULT, or any flags now and then */
		win_range(&a, &l);
		record(SYS(__NR_mlock2, a, l, chance(80) ? (long)below(2) : any_word(), 0, 0, 0), "mlock2");
		break;
	case 29:	/* munlock inside the window */
		win_range(&a, &l);
		record(SYS(__NR_munlock, a, l, 0, 0, 0, 0), "munlock");
		break;
	case 30: {	/* mlockall: MCL_FUTURE only with MCL_ONFAULT (see the header) */
		static const long fl[] = { LINUX_MCL_CURRENT, LINUX_MCL_CURRENT | LINUX_MCL_ONFAULT,
					   LINUX_MCL_FUTURE | LINUX_MCL_ONFAULT,
					   LINUX_MCL_CURRENT | LINUX_MCL_FUTURE | LINUX_MCL_ONFAULT,
					   0, LINUX_MCL_ONFAULT, 8 };	/* the last three: EINVAL */
		long f = chance(90) ? fl[below(sizeof(fl) / sizeof(fl[0]))] : any_word();

		if ((f & LINUX_MCL_FUTURE) && !(f & LINUX_MCL_ONFAULT))
			f |= LINUX_MCL_ONFAULT;
		/* MCL_CURRENT alone faults every area in: only while they are small (a mapping
		 * of any_word() bytes may have succeeded). */
		if ((f & LINUX_MCL_CURRENT) && !(f & LINUX_MCL_ONFAULT) && mapped_pages() > 256)
			f |= LINUX_MCL_ONFAULT;
		record(SYS(__NR_mlockall, f, 0, 0, 0, 0, 0), "mlockall");
		break;
	}
	case 31:	/* munlockall */
		record(SYS(__NR_munlockall, 0, 0, 0, 0, 0, 0), "munlockall");
		break;
	case 32: {	/* mincore inside the window (an odd start now and then), or a bad vector */
		static unsigned char vec[WIN_SIZE / PAGE];

		win_range(&a, &l);
		record(SYS(__NR_mincore, chance(90) ? a : a + 1, l, chance(80) ? (long)vec : bad_ptr(),
			   0, 0, 0), "mincore");
		break;
	}
	default: {	/* a number nothing implements */
		static const long known[] = {
			__NR_exit, __NR_exit_group, __NR_execve, __NR_kill, __NR_read, __NR_write,
			__NR_openat, __NR_close, __NR_getdents64, __NR_mkdirat, __NR_unlinkat,
			__NR_fsync, __NR_brk, __NR_munmap, __NR_mprotect, __NR_madvise, __NR_msync,
			__NR_mlock, __NR_mlock2, __NR_munlock, __NR_mlockall, __NR_munlockall,
			__NR_mincore, __NR_getpid,
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
