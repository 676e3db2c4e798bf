/*
 * syscalls.c - the POSIX calls picolibc leaves to the system, each one Linux system call
 * (user/lib/unistd_nr.h has the numbers and their source).  A failure is -1 with errno
 * (lib/errno.c translates Linux's numbering).  Only what a program here needs is wrapped; a
 * missing wrapper is a link error, never a stub that pretends.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#include "runtime.h"
#include "tinymm_user.h"
#include "unistd_nr.h"

ssize_t read(int fd, void *buf, size_t count)
{
	return __syscall_ret(__syscall3(__NR_read, fd, buf, count));
}

ssize_t write(int fd, const void *buf, size_t count)
{
	return __syscall_ret(__syscall3(__NR_write, fd, buf, count));
}

int close(int fd)
{
	return (int)__syscall_ret(__syscall1(__NR_close, fd));
}

/* RV64 has lseek; RV32 and ARM seek with a 64-bit result through llseek / _llseek. */
off_t lseek(int fd, off_t offset, int whence)
{
#if defined(__riscv) && __riscv_xlen == 64
	return __syscall_ret(__syscall3(__NR_lseek, fd, offset, whence));
#else
#if defined(__arm__)
	long nr = __NR__llseek;
#else
	long nr = __NR_llseek;
#endif
	int64_t off = offset, result;
	long r = __syscall5(nr, fd, (long)((uint64_t)off >> 32), (long)(uint32_t)off, &result,
			    whence);

	if (__syscall_ret(r) < 0)
		return -1;
	if ((off_t)result != result) {
		errno = EOVERFLOW;
		return -1;
	}
	return (off_t)result;
#endif
}

pid_t getpid(void)
{
	return (pid_t)__syscall0(__NR_getpid);		/* cannot fail */
}

/*
 * The program break.  Linux's brk(addr) returns the new break, or the old one when it cannot
 * move it; brk(0) asks where it is.  sbrk() is what picolibc's malloc grows its heap with.
 */
static uintptr_t cur_brk;

int brk(void *addr)
{
	uintptr_t got = (uintptr_t)__syscall1(__NR_brk, addr);

	cur_brk = got;
	if (got < (uintptr_t)addr) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void *sbrk(ptrdiff_t increment)
{
	uintptr_t old;

	if (!cur_brk)
		cur_brk = (uintptr_t)__syscall1(__NR_brk, 0);
	old = cur_brk;
	if (increment == 0)
		return (void *)old;
	if ((increment > 0 && old + (uintptr_t)increment < old) ||
	    (increment < 0 && (uintptr_t)-increment > old)) {
		errno = ENOMEM;
		return (void *)-1;
	}
	if (brk((void *)(old + (uintptr_t)increment)) < 0)
		return (void *)-1;
	return (void *)old;
}

/* The whole process ends (all its threads): Linux's exit_group, what C's _exit means. */
void _exit(int status)
{
	for (;;)
		__syscall1(__NR_exit_group, status);
}

/* Any system call by number, the raw result (-errno on failure, errno untouched): for
 * programs that test the kernel's own answers (sysfuzz). */
long tinymm_syscall6(long n, long a, long b, long c, long d, long e, long f)
{
	return __syscall6(n, a, b, c, d, e, f);
}
