/* errname_test.c - lib/errname.c: Linux's names, the sign kept as given, NULL beyond the table. */
#include "test.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"

static void names_as_linux(void **state)
{
	assert_string_equal(errname(-EIO), "-EIO");
	assert_string_equal(errname(EIO), "EIO");
	assert_string_equal(errname(-ENOMEM), "-ENOMEM");
	assert_string_equal(errname(-EOPNOTSUPP), "-EOPNOTSUPP");
	assert_string_equal(errname(-EHWPOISON), "-EHWPOISON");
	assert_string_equal(errname(ETIMEDOUT), "ETIMEDOUT");
	assert_string_equal(errname(-EUCLEAN), "-EUCLEAN");
	assert_string_equal(errname(ENAMETOOLONG), "ENAMETOOLONG");
	assert_string_equal(errname(-ENOTEMPTY), "-ENOTEMPTY");	/* the VFS's (docs/vfs.md) */
	assert_string_equal(errname(ELOOP), "ELOOP");
	assert_string_equal(errname(-EPERM), "-EPERM");
}

/* Every number errno.h defines has its name, under the number Linux gives it. */
static void every_errno_h_entry_named(void **state)
{
	static const struct { int err; int linux_nr; const char *name; } all[] = {
#define N(e, nr) { e, nr, "-" #e }
		N(EPERM, 1), N(ENOENT, 2), N(EIO, 5), N(ENXIO, 6), N(E2BIG, 7), N(ENOEXEC, 8), N(EBADF, 9),
		N(ENOMEM, 12), N(EACCES, 13), N(EFAULT, 14), N(ENOTBLK, 15), N(EBUSY, 16),
		N(EEXIST, 17), N(EXDEV, 18), N(ENODEV, 19), N(ENOTDIR, 20), N(EISDIR, 21),
		N(EINVAL, 22), N(ENFILE, 23), N(EMFILE, 24), N(EFBIG, 27), N(ENOSPC, 28),
		N(ESPIPE, 29), N(EROFS, 30), N(EMLINK, 31), N(ERANGE, 34), N(ENAMETOOLONG, 36),
		N(ENOSYS, 38), N(ENOTEMPTY, 39), N(ELOOP, 40), N(EOPNOTSUPP, 95), N(ETIMEDOUT, 110),
		N(EUCLEAN, 117), N(EHWPOISON, 133),
#undef N
	};

	for (unsigned int i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		assert_int_equal(all[i].err, all[i].linux_nr);
		assert_non_null(errname(-all[i].err));
		assert_string_equal(errname(-all[i].err), all[i].name);
		assert_string_equal(errname(all[i].err), all[i].name + 1);
	}
}

static void unknown_is_null(void **state)
{
	assert_null(errname(0));
	assert_null(errname(-4));		/* EINTR: tinymm never returns it */
	assert_null(errname(-26));		/* ETXTBSY: nor this one */
	assert_null(errname(-EHWPOISON - 1));
	assert_null(errname(-100000));
	assert_null(errname(-2147483647 - 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_as_linux),
		cmocka_unit_test(every_errno_h_entry_named),
		cmocka_unit_test(unknown_is_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
