/*
 * reclaim_test.c - the `reclaim` and `workingset` KTAP suites (tests/ktest/reclaim_ktest.c:
 * mm/vmscan.c's rules, mm/workingset.c's arithmetic and shadow nodes, over a fake disk) on the
 * host, under ASan/UBSan.  Reclaim sets flags on `current`, so the suites run in a thread of
 * the host scheduler (tests/host/host_sched_test.h), as the truncate suite does.
 */
#include "host_sched_test.h"

#include "../ktest/reclaim_ktest.c"

static int run_suite(const char *name, size_t ncases)
{
	char want[64];

	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, name);
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ncases);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static int reclaim_suite(void)
{
	return run_suite("reclaim", ARRAY_SIZE(reclaim_cases) - 1);
}

static int workingset_suite(void)
{
	return run_suite("workingset", ARRAY_SIZE(workingset_cases) - 1);
}

static void reclaim_suite_passes(void **state)
{
	(void)state;
	run_scenario(reclaim_suite);
}

static void workingset_suite_passes(void **state)
{
	(void)state;
	run_scenario(workingset_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(reclaim_suite_passes),
		cmocka_unit_test(workingset_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
