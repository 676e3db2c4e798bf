/* vsprintf_test.c - kvsnprintf() against the C library's vsnprintf on the same formats. */
#include "test.h"
#include "tinymm/printk.h"

#define SAME(...)									\
	do {										\
		char a[128], b[128];							\
		int na = ksnprintf(a, sizeof(a), __VA_ARGS__);				\
		int nb = snprintf(b, sizeof(b), __VA_ARGS__);				\
		assert_string_equal(a, b);						\
		assert_int_equal(na, nb);						\
	} while (0)

static void integers(void **state)
{
	SAME("%d %i %u", 0, -1, 4000000000u);
	SAME("%d %d", INT32_MIN, INT32_MAX);
	SAME("%ld %lu %lld %llu", -5L, 5UL, (long long)INT64_MIN, (unsigned long long)UINT64_MAX);
	SAME("%x %X %lx %llx %o", 0xdeadbeefu, 0xabcu, 0x1234UL, 0x123456789abcdef0ULL, 8);
	SAME("%zu %zx %hhd %hd %hhu", (size_t)77, (size_t)0xff, (signed char)-3, (short)-300,
	     (unsigned char)250);
	SAME("%jd %td", (intmax_t)-9, (ptrdiff_t)-12);
}

static void widths_and_flags(void **state)
{
	SAME("[%5d] [%-5d] [%05d] [%+d] [% d] [%-+6d]", 42, 42, -42, 42, 42, 7);
	SAME("[%08lx] [%#x] [%#o] [%#X] [%#x]", 0xabcUL, 255, 8, 255, 0);
	SAME("[%*d] [%-*d] [%*d]", 6, 1, 6, 2, -6, 3);
	SAME("[%.3d] [%8.3d] [%.0d] [%-8.3x]", 5, -5, 0, 0xa);
	SAME("[%16llu] [%-16s] [%8s] [%.2s] [%.*s]", 123ULL, "left", "right", "abcdef", 3, "xyzw");
	SAME("[%c] [%3c] [%-3c] [%%]", 'a', 'b', 'c');
	SAME("[%s]", "");
}

static void pointers_are_zero_padded_hex(void **state)
{
	char buf[64], want[64];

	ksnprintf(buf, sizeof(buf), "%p", (void *)0x1234);
	snprintf(want, sizeof(want), "0x%0*lx", (int)sizeof(void *) * 2, 0x1234UL);
	assert_string_equal(buf, want);
}

static void truncation_and_return_value(void **state)
{
	char buf[8];

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(ksnprintf(buf, 5, "%s", "abcdefgh"), 8);
	assert_string_equal(buf, "abcd");
	assert_int_equal(buf[5], 'X');		/* nothing written past size */
	assert_int_equal(ksnprintf(buf, 0, "%d", 12345), 5);
	assert_int_equal(buf[0], 'a');		/* size 0 writes nothing */
	assert_int_equal(ksnprintf(buf, 1, "%d", 1), 1);
	assert_string_equal(buf, "");
}

static void null_string_and_unknown_conversion(void **state)
{
	char buf[32];
	const char *volatile null = NULL;

	ksnprintf(buf, sizeof(buf), "%s", null);
	assert_string_equal(buf, "(null)");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	ksnprintf(buf, sizeof(buf), "a%qb");	/* printed as is, so the mistake is visible */
#pragma GCC diagnostic pop
	assert_string_equal(buf, "a%qb");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integers),
		cmocka_unit_test(widths_and_flags),
		cmocka_unit_test(pointers_are_zero_padded_hex),
		cmocka_unit_test(truncation_and_return_value),
		cmocka_unit_test(null_string_and_unknown_conversion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
