/*
 * mlock_test.c - the `mlock` KTAP suite (tests/ktest/mlock_ktest.c: VM_LOCKED areas, PG_mlocked,
 * the unevictable list; docs/mlock.md) on the host, under ASan/UBSan, over the fake
 * architecture, in a thread of the host scheduler (tests/host/host_sched_test.h): the faults and
 * the rmap walks take the mm's mmap_lock and the folio locks.
 */
#include "host_sched_test.h"

#include "../ktest/mlock_ktest.c"

static int mlock_suite(void)
{
	char want[64];

	fake_pfn_base = memmap_bank(0)->start_pfn;
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "mlock");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n",
		 ARRAY_SIZE(mlock_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void mlock_suite_passes(void **state)
{
	(void)state;
	run_scenario(mlock_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(mlock_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
