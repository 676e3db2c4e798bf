/*
 * user_errno_test.c - user/lib/errno.c's table, built against the host's glibc, whose E*
 * numbers are Linux's own (asm-generic/errno.h): so every Linux number the table names must come
 * back unchanged, which catches a name written at the wrong index.  Then the rules around it:
 * results outside [-4095, -1] pass through untouched with errno left alone, and a Linux error
 * the table does not name (EUCLEAN 117, EHWPOISON 133, 4095) becomes EIO.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "runtime.h"

static void mapped_numbers_are_linux_numbers(void **state)
{
	/* The names user/lib/errno.c maps, by their glibc (= Linux) values. */
	static const int named[] = {
		EPERM, ENOENT, ESRCH, EINTR, EIO, ENXIO, E2BIG, ENOEXEC, EBADF, ECHILD, EAGAIN,
		ENOMEM, EACCES, EFAULT, ENOTBLK, EBUSY, EEXIST, EXDEV, ENODEV, ENOTDIR, EISDIR,
		EINVAL, ENFILE, EMFILE, ENOTTY, ETXTBSY, EFBIG, ENOSPC, ESPIPE, EROFS, EMLINK, EPIPE,
		EDOM, ERANGE, EDEADLK, ENAMETOOLONG, ENOLCK, ENOSYS, ENOTEMPTY, ELOOP, ENOMSG, EIDRM,
		ENODATA, ETIME, ENOLINK, EPROTO, EBADMSG, EOVERFLOW, EILSEQ, EOPNOTSUPP, ETIMEDOUT,
		ECANCELED,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		errno = 0;
		assert_int_equal(__syscall_ret(-named[i]), -1);
		if (errno != named[i])
			fail_msg("Linux errno %d came back as %d", named[i], errno);
	}
}

static void unnamed_errors_become_eio(void **state)
{
	static const long unnamed[] = { 117 /* EUCLEAN */, 133 /* EHWPOISON */, 41, 4095 };

	(void)state;
	for (size_t i = 0; i < sizeof(unnamed) / sizeof(unnamed[0]); i++) {
		errno = 0;
		assert_int_equal(__syscall_ret(-unnamed[i]), -1);
		assert_int_equal(errno, EIO);
	}
}

static void results_pass_through(void **state)
{
	static const long ok[] = { 0, 1, 4096, -4096, -4097, (long)0x80000000UL, -(1L << 20) };

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		errno = 12345;
		assert_int_equal(__syscall_ret(ok[i]), ok[i]);
		assert_int_equal(errno, 12345);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mapped_numbers_are_linux_numbers),
		cmocka_unit_test(unnamed_errors_become_eio),
		cmocka_unit_test(results_pass_through),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
