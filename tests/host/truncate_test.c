/*
 * truncate_test.c - the `truncate` KTAP suite (tests/ktest/truncate_ktest.c: mm/truncate.c's
 * truncation and invalidation over a fake disk) on the host, under ASan/UBSan.  Unlike the
 * other suites run on the host (tests/host/ktest_on_host.h) this one sleeps: truncation waits
 * for a folio's lock and writeback.  So it runs in a thread of the host scheduler
 * (tests/host/host_sched_test.h), whose idle loop drives the simulated clock: the timer that
 * ends writeback fires in interrupt context, the thread holding a folio lock sleeps in msleep.
 */
#include "host_sched_test.h"

#include "../ktest/truncate_ktest.c"

static int truncate_suite(void)
{
	char want[64];

	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "truncate");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(truncate_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void truncate_suite_passes(void **state)
{
	(void)state;
	run_scenario(truncate_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(truncate_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
