/*
 * hwpoison_test.c - the `hwpoison` KTAP suite (tests/ktest/hwpoison_ktest.c: mm/memory-failure.c,
 * one case per page state of v6.10's table, over a fake disk) on the host, under ASan/UBSan.
 * memory_failure() sleeps (the folio lock, writeback, mf_mutex), so the suite runs in a thread
 * of the host scheduler (tests/host/host_sched_test.h), whose idle loop drives the simulated
 * clock: the timer that ends writeback fires in interrupt context, the thread holding a folio
 * lock sleeps in msleep.  The fake RAM is 16 MiB; the suite's 100 000 allocations per case
 * cycle through it.
 */
#include "host_sched_test.h"

#include "../ktest/hwpoison_ktest.c"
#include "../ktest/hwpoison_kernel_ktest.c"

static int hwpoison_suite(void)
{
	char want[64];

	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "hwpoison");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(hwpoison_cases) - 1);
	if (getenv("HW_VERBOSE"))	/* HW_VERBOSE=1 ./hwpoison_test: the KTAP and the log */
		fputs(shim_console, stderr);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void hwpoison_suite_passes(void **state)
{
	(void)state;
	run_scenario(hwpoison_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(hwpoison_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
