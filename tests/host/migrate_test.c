/*
 * migrate_test.c - the `migrate` KTAP suite (tests/ktest/migrate_ktest.c: page migration of
 * anonymous, fork-shared, mlocked and shared-file folios and of a driver's movable page, and
 * what does not move; docs/migration.md) on the host, under ASan/UBSan, over the fake
 * architecture, in a thread of the host scheduler (tests/host/host_sched_test.h): migration
 * sleeps between its passes and takes folio locks.
 */
#include "host_sched_test.h"
/* <stdlib.h>'s wait macros: the kernel's (the same encoding) replace them. */
#undef WIFEXITED
#undef WEXITSTATUS
#undef WTERMSIG

#include "../ktest/migrate_ktest.c"

static int migrate_suite(void)
{
	char want[64];

	fake_pfn_base = memmap_bank(0)->start_pfn;
	vfs_init();			/* the ramfs root, as kernel_init mounts it */
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "migrate");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n",
		 ARRAY_SIZE(migrate_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void migrate_suite_passes(void **state)
{
	(void)state;
	run_scenario(migrate_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(migrate_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
