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
}

static void unknown_is_null(void **state)
{
	assert_null(errname(0));
	assert_null(errname(-1));		/* EPERM: tinymm never returns it */
	assert_null(errname(-EHWPOISON - 1));
	assert_null(errname(-100000));
	assert_null(errname(-2147483647 - 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_as_linux),
		cmocka_unit_test(unknown_is_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
