/*
 * syscalls_mm.c - the memory calls (docs/syscalls.md): mmap (RV64: offset in bytes; ARM and
 * RV32: mmap2, offset in 4096-byte units), munmap, mprotect, madvise, msync, mincore, and the
 * mlock family (mlock, mlock2, munlock, mlockall, munlockall).  picolibc has no
 * <sys/mman.h>: tinymm_user.h declares them with Linux's PROT_*, MAP_*, MADV_* values, so no
 * flag needs translating.  mmap's failure is MAP_FAILED with errno, as POSIX says.
 */
#define _DEFAULT_SOURCE 1	/* picolibc: the POSIX 2008 and BSD names (O_CLOEXEC, AT_FDCWD, ...) */
#include <errno.h>
#include <stdint.h>
#include "runtime.h"
#include "tinymm_user.h"
#include "unistd_nr.h"

void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
	long r;

#if defined(__riscv) && __riscv_xlen == 64
	r = __syscall6(__NR_mmap, (long)addr, (long)length, prot, flags, fd, offset);
#else
	if (offset & 4095) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	r = __syscall6(__NR_mmap2, (long)addr, (long)length, prot, flags, fd,
		       (long)((uint32_t)offset >> 12));
#endif
	if (__syscall_ret(r) == -1 && (unsigned long)r >= -4095UL)
		return MAP_FAILED;
	return (void *)r;
}

int munmap(void *addr, size_t length)
{
	return (int)__syscall_ret(__syscall2(__NR_munmap, addr, length));
}

int mprotect(void *addr, size_t length, int prot)
{
	return (int)__syscall_ret(__syscall3(__NR_mprotect, addr, length, prot));
}

int madvise(void *addr, size_t length, int advice)
{
	return (int)__syscall_ret(__syscall3(__NR_madvise, addr, length, advice));
}

int msync(void *addr, size_t length, int flags)
{
	return (int)__syscall_ret(__syscall3(__NR_msync, addr, length, flags));
}

int mincore(void *addr, size_t length, unsigned char *vec)
{
	return (int)__syscall_ret(__syscall3(__NR_mincore, addr, length, vec));
}

int mlock(const void *addr, size_t length)
{
	return (int)__syscall_ret(__syscall2(__NR_mlock, addr, length));
}

int mlock2(const void *addr, size_t length, unsigned int flags)
{
	return (int)__syscall_ret(__syscall3(__NR_mlock2, addr, length, flags));
}

int munlock(const void *addr, size_t length)
{
	return (int)__syscall_ret(__syscall2(__NR_munlock, addr, length));
}

int mlockall(int flags)
{
	return (int)__syscall_ret(__syscall1(__NR_mlockall, flags));
}

int munlockall(void)
{
	return (int)__syscall_ret(__syscall0(__NR_munlockall));
}
