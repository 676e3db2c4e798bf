/*
 * soft_offline_test.c - the `soft_offline` KTAP suite (tests/ktest/soft_offline_ktest.c:
 * mm/soft-offline.c over a fake disk) on the host, under ASan/UBSan.  The suite sleeps (a
 * folio's writeback is waited for, a reader thread runs beside it), so it runs in a thread of
 * the host scheduler (tests/host/host_sched_test.h), whose idle loop drives the simulated
 * clock: the timer that ends writeback fires in interrupt context there.
 */
#include "host_sched_test.h"

#include "../ktest/soft_offline_fixture.c"
#include "../ktest/soft_offline_ktest.c"

static int soft_offline_suite(void)
{
	char want[64];

	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "soft_offline");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n",
		 ARRAY_SIZE(soft_offline_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void soft_offline_suite_passes(void **state)
{
	(void)state;
	run_scenario(soft_offline_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(soft_offline_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
