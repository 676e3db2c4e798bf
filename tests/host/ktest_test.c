/* ktest_test.c - the KTAP runner's output, totals, selection and exit value. */
#include "test.h"
#include "tinymm/ktest.h"

static void pass_case(struct ktest *t) { KTEST_EXPECT_EQ(t, 2 + 2, 4); }
static void fail_case(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, 1, 2);
	KTEST_EXPECT_EQ(t, 0, 1);	/* not reached: ASSERT returned */
}
static void skip_case(struct ktest *t) { ktest_skip(t, "no device"); }
static void str_case(struct ktest *t) { KTEST_EXPECT_STREQ(t, "a", "b"); }

static const struct ktest_case good_cases[] = { KTEST_CASE(pass_case), KTEST_CASE(skip_case), { 0 } };
static const struct ktest_case bad_cases[] = { KTEST_CASE(pass_case), KTEST_CASE(fail_case), { 0 } };
static const struct ktest_case str_cases[] = { KTEST_CASE(str_case), { 0 } };
static const struct ktest_case skip_cases[] = { KTEST_CASE(skip_case), { 0 } };
static const struct ktest_suite suites[] = {
	{ "alpha", good_cases, false, false },
	{ "beta", bad_cases, true, false },		/* explicit-only */
	{ "gamma", str_cases, false, false },
	{ "delta", skip_cases, false, false },
};
#define END (suites + 4)

static void star_skips_explicit_suites(void **state)
{
	shim_console_reset();
	assert_int_equal(ktest_run(suites, END, "*"), 1);	/* gamma fails */
	assert_string_equal(shim_console,
		"KTAP version 1\n"
		"1..3\n"
		"    KTAP version 1\n"
		"    # Subtest: alpha\n"
		"    1..2\n"
		"    ok 1 pass_case\n"
		"    ok 2 skip_case # SKIP no device\n"
		"ok 1 alpha\n"
		"    KTAP version 1\n"
		"    # Subtest: gamma\n"
		"    1..1\n"
		"    # str_case: EXPECTATION FAILED at " __FILE__ ":12\n"
		"    # Expected \"a\" == \"b\", but\n"
		"    #     \"a\" == \"a\"\n"
		"    #     \"b\" == \"b\"\n"
		"    not ok 1 str_case\n"
		"not ok 2 gamma\n"
		"    KTAP version 1\n"
		"    # Subtest: delta\n"
		"    1..1\n"
		"    ok 1 skip_case # SKIP no device\n"
		"ok 3 delta # SKIP all cases skipped\n"
		"# totals: pass:1 fail:1 skip:2\n");
}

static void explicit_suite_runs_when_named(void **state)
{
	shim_console_reset();
	assert_int_equal(ktest_run(suites, END, "beta"), 1);
	assert_console_has("    # fail_case: EXPECTATION FAILED at " __FILE__ ":8\n"
			   "    # Expected 1 == 2, but\n"
			   "    #     1 == 1 (0x1)\n"
			   "    #     2 == 2 (0x2)\n"
			   "    not ok 2 fail_case\n"
			   "not ok 1 beta\n"
			   "# totals: pass:1 fail:1 skip:0\n");
	/* ASSERT stopped the case: only one failure report. */
	assert_null(strstr(strstr(shim_console, "EXPECTATION") + 1, "EXPECTATION"));
	assert_int_equal(ktest_run(suites, END, "be*"), -1);	/* a glob never selects it */
}

static void no_match_is_an_error(void **state)
{
	shim_console_reset();
	assert_int_equal(ktest_run(suites, END, "zeta"), -1);
	assert_string_equal(shim_console, "KTAP version 1\n1..0\n# no suite matches 'zeta'\n"
					  "# totals: pass:0 fail:0 skip:0\n");
}

static void glob(void **state)
{
	assert_true(glob_match("*", ""));
	assert_true(glob_match("a*", "a"));
	assert_true(glob_match("*a*b", "xxaxxb"));
	assert_false(glob_match("*a*b", "xxaxxbx"));
	assert_true(glob_match("??", "ab"));
	assert_false(glob_match("??", "abc"));
	assert_false(glob_match("", "a"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(star_skips_explicit_suites),
		cmocka_unit_test(explicit_suite_runs_when_named),
		cmocka_unit_test(no_match_is_an_error),
		cmocka_unit_test(glob),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
