/* cmdline_test.c - splitting /chosen/bootargs into tinymm's options. */
#include "test.h"
#include "tinymm/cmdline.h"

static char last_val[64];
static int set_level(const char *v)
{
	unsigned long long n;
	if (kstrtoull(v, &n) || n > 8)
		return -1;
	snprintf(last_val, sizeof(last_val), "%s", v);
	return 0;
}
static char mem_val[32];
static int set_mem(const char *v)
{
	unsigned long long n;
	if (memparse(v, &n) || !n)
		return -1;
	snprintf(mem_val, sizeof(mem_val), "%llu", n);
	return 0;
}
static unsigned short ushort_param = 7;
static uint64_t u64_param = 7;
static bool bool_param;
static const struct kparam params[] = {
	{ .name = "loglevel", .set = set_level, .help = "" },
	{ .name = "small", .help = "", .var = &ushort_param, .min = 2, .max = 300,
	  .type = KPARAM_T_UINT, .size = sizeof(ushort_param) },
	{ .name = "wide", .help = "", .var = &u64_param, .min = 0, .max = ~0ul,
	  .type = KPARAM_T_UINT, .size = sizeof(u64_param) },
	{ .name = "flag", .help = "", .var = &bool_param, .max = 1, .type = KPARAM_T_BOOL,
	  .size = sizeof(bool_param) },
	{ .name = "mem", .set = set_mem, .help = "", .bare = true },
};
static char warned[512];
static void warn(const char *line)
{
	strncat(warned, line, sizeof(warned) - strlen(warned) - 1);
	strncat(warned, ";", sizeof(warned) - strlen(warned) - 1);
}

static void parse(const char *line, struct boot_args *a, char *buf)
{
	strcpy(buf, line);
	warned[0] = last_val[0] = mem_val[0] = '\0';
	cmdline_parse(buf, a, params, params + ARRAY_SIZE(params), warn);
}

static void run_takes_the_rest_of_the_line(void **state)
{
	struct boot_args a;
	char buf[256];

	parse("console=ttyS0 tinymm.run=memmap; meminfo  tinymm.test=x  ", &a, buf);
	assert_string_equal(a.run, "memmap; meminfo  tinymm.test=x");
	assert_null(a.test);
	assert_int_equal(a.nr_warnings, 0);
}

static void test_glob_and_params(void **state)
{
	struct boot_args a;
	char buf[256];

	parse("  tinymm.loglevel=5\ttinymm.test=mem*  root=/dev/vda", &a, buf);
	assert_string_equal(a.test, "mem*");
	assert_string_equal(last_val, "5");
	assert_null(a.run);
	assert_int_equal(a.nr_warnings, 0);
}

static void unknown_and_bad_options_warn(void **state)
{
	struct boot_args a;
	char buf[256];

	parse("tinymm.bogus=1 tinymm.loglevel=9 tinymm.loglevel tinymmx=1", &a, buf);
	assert_int_equal(a.nr_warnings, 3);
	assert_string_equal(warned, "unknown option 'tinymm.bogus';bad value for option 'tinymm.loglevel';"
				    "bad value for option 'tinymm.loglevel';");
}

/* KPARAM_UINT / KPARAM_BOOL: stored at the variable's width; out of range, a non-number or
 * anything but 0/1 is one line each and leaves the variable alone. */
static void typed_params_check_their_range(void **state)
{
	struct boot_args a;
	char buf[256];

	parse("tinymm.small=300 tinymm.wide=0x100000000 tinymm.flag=1", &a, buf);
	assert_int_equal(a.nr_warnings, 0);
	assert_int_equal(ushort_param, 300);
	assert_true(u64_param == 0x100000000ull);
	assert_true(bool_param);
	parse("tinymm.small=1 tinymm.small=0x12c1 tinymm.small=3x tinymm.flag=2 tinymm.flag", &a, buf);
	assert_int_equal(a.nr_warnings, 5);
	assert_string_equal(warned, "tinymm.small=1 out of range (2-300), default kept;"
				    "tinymm.small=0x12c1 out of range (2-300), default kept;"
				    "bad value for option 'tinymm.small';"
				    "bad value for option 'tinymm.flag';bad value for option 'tinymm.flag';");
	assert_int_equal(ushort_param, 300);
	assert_true(bool_param);
	parse("tinymm.small=2 tinymm.flag=0", &a, buf);
	assert_int_equal(ushort_param, 2);
	assert_false(bool_param);
}

static void empty_line(void **state)
{
	struct boot_args a;
	char buf[8];

	parse("", &a, buf);
	assert_null(a.run);
	assert_null(a.test);
}

static void kstrtoull_is_strict(void **state)
{
	unsigned long long v;

	assert_int_equal(kstrtoull("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kstrtoull("0x1F", &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(kstrtoull("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(kstrtoull("18446744073709551616", &v), -1);
	assert_int_equal(kstrtoull("12a", &v), -1);
	assert_int_equal(kstrtoull("", &v), -1);
	assert_int_equal(kstrtoull("0x", &v), -1);
	assert_int_equal(kstrtoull("-1", &v), -1);
}

/* EARLY_PARAM: Linux's bare name (mem=), not tinymm.mem; a bad value is one line; a bare word
 * that is not one of them, or has no value, is somebody else's and ignored. */
static void bare_linux_params(void **state)
{
	struct boot_args a;
	char buf[256];

	parse("console=ttyS0 mem=64M tinymm.loglevel=5 root=/dev/vda", &a, buf);
	assert_int_equal(a.nr_warnings, 0);
	assert_string_equal(mem_val, "67108864");
	assert_string_equal(last_val, "5");
	parse("mem=0 mem=garbage mem tinymm.mem=64M memx=1", &a, buf);
	assert_int_equal(a.nr_warnings, 3);
	assert_string_equal(warned, "bad value for option 'mem';bad value for option 'mem';"
				    "unknown option 'tinymm.mem';");
	assert_string_equal(mem_val, "");
}

/* v6.10's memparse(), strict: one suffix, either case, nothing after it, no overflow. */
static void memparse_suffixes(void **state)
{
	unsigned long long v;

	assert_int_equal(memparse("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(memparse("64k", &v), 0);
	assert_int_equal(v, 64 << 10);
	assert_int_equal(memparse("64M", &v), 0);
	assert_int_equal(v, 64 << 20);
	assert_int_equal(memparse("1g", &v), 0);
	assert_int_equal(v, 1ULL << 30);
	assert_int_equal(memparse("2T", &v), 0);
	assert_int_equal(v, 2ULL << 40);
	assert_int_equal(memparse("0x10M", &v), 0);
	assert_int_equal(v, 16 << 20);
	assert_int_equal(memparse("0x1e", &v), 0);		/* a hex digit, not exa */
	assert_int_equal(v, 30);
	assert_int_equal(memparse("15E", &v), 0);
	assert_int_equal(v, 15ULL << 60);
	assert_int_equal(memparse("16E", &v), -1);		/* overflow */
	assert_int_equal(memparse("64MB", &v), -1);
	assert_int_equal(memparse("M", &v), -1);
	assert_int_equal(memparse("", &v), -1);
	assert_int_equal(memparse("-1M", &v), -1);
	assert_int_equal(memparse("64X", &v), -1);
	assert_int_equal(memparse("123456789012345678901234567", &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(run_takes_the_rest_of_the_line),
		cmocka_unit_test(test_glob_and_params),
		cmocka_unit_test(unknown_and_bad_options_warn),
		cmocka_unit_test(typed_params_check_their_range),
		cmocka_unit_test(empty_line),
		cmocka_unit_test(kstrtoull_is_strict),
		cmocka_unit_test(bare_linux_params),
		cmocka_unit_test(memparse_suffixes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
