/* panic_test.c - panic/BUG/WARN output shape and their recovery into a KTAP case, on the host. */
#include "test.h"
#include "tinymm/bug.h"
#include "tinymm/ktest.h"

static void case_panics(struct ktest *t) { panic("out of %s", "cheese"); }
static void case_bugs(struct ktest *t) { BUG_ON(t != NULL); }
static void case_expects_bug(struct ktest *t) { KTEST_EXPECT_BUG(t, BUG()); }
static void case_expects_but_none(struct ktest *t) { KTEST_EXPECT_BUG(t, (void)0); }
static const struct ktest_case cases[] = {
	KTEST_CASE(case_panics), KTEST_CASE(case_bugs), KTEST_CASE(case_expects_bug),
	KTEST_CASE(case_expects_but_none), { 0 },
};
static const struct ktest_suite suite[] = { { "dying", cases, false, false } };

static void bugs_in_cases_fail_them_and_the_run_goes_on(void **state)
{
	shim_console_reset();
	assert_int_equal(ktest_run(suite, suite + 1, "*"), 3);
	assert_console_has("Kernel panic - not syncing: out of cheese\n");
	assert_console_has("    # case_panics: unexpected BUG/panic/trap: out of cheese\n    not ok 1 case_panics\n");
	assert_console_has("------------[ cut here ]------------\n");
	assert_console_has("kernel BUG at tests/host/panic_test.c:7!\n");
	assert_console_has("    not ok 2 case_bugs\n");
	assert_console_has("    ok 3 case_expects_bug\n");
	assert_console_has("expected BUG/panic/trap from: (void)0\n");
	assert_console_has("    not ok 4 case_expects_but_none\n");
	assert_console_has("# totals: pass:1 fail:3 skip:0\n");
}

static void warn_shape_and_count(void **state)
{
	unsigned long before = nr_warnings();

	shim_console_reset();
	assert_true(WARN_ON(before + 1 > before));
	assert_int_equal(nr_warnings(), before + 1);
	assert_console_has("------------[ cut here ]------------\n");
	assert_console_has("WARNING: CPU: 0 PID: 0 at tests/host/panic_test.c:");
	assert_console_has("WARN_ON(before + 1 > before) in warn_shape_and_count\n");
	assert_console_has("Call trace:\n");
	assert_console_has("---[ end trace 0000000000000000 ]---\n");
}

static void panic_outside_a_test_powers_off_with_1(void **state)
{
	shim_console_reset();
	shim_poweroff_armed = 1;
	if (!setjmp(shim_poweroff_jmp))
		panic("no way out");
	assert_int_equal(shim_poweroff_status, 1);
	assert_console_has("---[ end Kernel panic - not syncing: no way out ]---\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bugs_in_cases_fail_them_and_the_run_goes_on),
		cmocka_unit_test(warn_shape_and_count),
		cmocka_unit_test(panic_outside_a_test_powers_off_with_1),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
