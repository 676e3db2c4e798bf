/*
 * selfmod.c - /bin/selfmod <dir>: code written as data, then executed (docs/cacheflush.md).
 * Three runs of a one-function "program" that returns a number, each checked:
 *   1. written into <dir>/selfmod.code with write(), mapped PROT_READ|PROT_EXEC, called: 1;
 *   2. the file rewritten with write(), unmapped and mapped afresh, called: 2 (the kernel's
 *      write cleared PG_dcache_clean; the new executable pte does the maintenance again);
 *   3. a kept MAP_SHARED mapping with PROT_WRITE|PROT_EXEC: the code rewritten in place by
 *      this task's stores, the architecture's call made (ARM's private cacheflush, 0x0f0002;
 *      RISC-V's riscv_flush_icache), called: 3.
 * And the calls' bad input, as Linux: ARM's with end < start or a flag is EINVAL and over an
 * address no area maps EFAULT; RISC-V's with an unknown flag is EINVAL.  Prints
 * "selfmod: ok" and exits 0 when every check held; the first failure is one line and exit 1;
 * bad arguments exit 2.  QEMU models no caches, so a board shows the maintenance running (and
 * not trapping) and `cacheops` shows how much; the host cache model shows it is needed.
 * The code: ARM (A32) `mov r0, #n; bx lr`, reached by blx from Thumb or ARM; RISC-V
 * `addi a0, zero, n; jalr zero, 0(ra)`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tinymm_user.h"
#include "../lib/unistd_nr.h"

#define PAGE		4096

typedef int (*fn_t)(void);

static int fail(const char *what)
{
	printf("selfmod: FAIL: %s (errno %d)\n", what, errno);
	return 1;
}

/* The program returning @n, in words, at @p (two instructions). */
static void emit(uint32_t *p, unsigned int n)
{
#if defined(__arm__)
	p[0] = 0xe3a00000u | (n & 0xff);	/* mov r0, #n */
	p[1] = 0xe12fff1eu;			/* bx lr */
#else
	p[0] = ((uint32_t)(n & 0x7ff) << 20) | (10u << 7) | 0x13u;	/* addi a0, zero, n */
	p[1] = 0x00008067u;			/* jalr zero, 0(ra) */
#endif
}

/* The architecture's call for code rewritten in place: 0 or -errno. */
static long flush_code(void *start, void *end, unsigned long flags)
{
#if defined(__arm__)
	return __syscall3(__ARM_NR_cacheflush, start, end, flags);
#else
	return __syscall3(__NR_riscv_flush_icache, start, end, flags);
#endif
}

static int write_code(int fd, unsigned int n)
{
	static uint32_t page[PAGE / 4];

	memset(page, 0, sizeof(page));
	emit(page, n);
	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	return write(fd, page, sizeof(page)) == (ssize_t)sizeof(page) ? 0 : -1;
}

static int call(void *code)
{
	fn_t fn = (fn_t)(uintptr_t)code;	/* bit 0 clear: A32 on ARM */

	return fn();
}

int main(int argc, char **argv)
{
	char path[256];
	int fd, got;
	void *code;

	if (argc != 2 || snprintf(path, sizeof(path), "%s/selfmod.code", argv[1]) >= (int)sizeof(path)) {
		printf("usage: selfmod <dir>\n");
		return 2;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0755);
	if (fd < 0)
		return fail("open");

	/* 1. Written, mapped executable, run. */
	if (write_code(fd, 1))
		return fail("write 1");
	code = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (code == MAP_FAILED)
		return fail("mmap 1");
	if ((got = call(code)) != 1) {
		printf("selfmod: FAIL: the first code returned %d, wanted 1\n", got);
		return 1;
	}

	/* 2. Rewritten through the file, mapped afresh, run. */
	if (munmap(code, PAGE) || write_code(fd, 2))
		return fail("munmap or write 2");
	code = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (code == MAP_FAILED)
		return fail("mmap 2");
	if ((got = call(code)) != 2) {
		printf("selfmod: FAIL: the rewritten file's code returned %d, wanted 2\n", got);
		return 1;
	}
	munmap(code, PAGE);

	/* 3. A kept writable, executable mapping: rewritten in place, the flush call, run. */
	code = mmap(NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED, fd, 0);
	if (code == MAP_FAILED)
		return fail("mmap 3");
	if ((got = call(code)) != 2) {
		printf("selfmod: FAIL: the shared mapping's code returned %d, wanted 2\n", got);
		return 1;
	}
	emit(code, 3);
	if (flush_code(code, (char *)code + 8, 0))
		return fail("the flush call");
	if ((got = call(code)) != 3) {
		printf("selfmod: FAIL: the code rewritten in place returned %d, wanted 3\n", got);
		return 1;
	}

	/* The call's bad input. */
#if defined(__arm__)
	if (flush_code((char *)code + 8, code, 0) != -EINVAL)
		return fail("cacheflush with end < start did not give EINVAL");
	if (flush_code(code, (char *)code + 8, 1) != -EINVAL)
		return fail("cacheflush with a flag did not give EINVAL");
	if (flush_code((void *)0x1000, (void *)0x2000, 0) != -EFAULT)	/* below the program */
		return fail("cacheflush over no area did not give EFAULT");
#else
	if (flush_code(code, (char *)code + 8, 2) != -EINVAL)
		return fail("riscv_flush_icache with an unknown flag did not give EINVAL");
#endif
	munmap(code, PAGE);
	close(fd);
	unlink(path);
	printf("selfmod: ok\n");
	return 0;
}
