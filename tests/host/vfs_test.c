/*
 * vfs_test.c - the `vfs` KTAP suite (tests/ktest/vfs_ktest.c: the VFS over ramfs, fs/) on the
 * host, under ASan/UBSan, in a thread of the host scheduler (tests/host/host_sched_test.h):
 * the VFS sleeps on mutexes and the page cache's folio locks.  The block layer is the real one
 * (host_core) with no disk registered: a ramfs needs none.
 */
#include "host_sched_test.h"

#include "../ktest/vfs_ktest.c"

static int vfs_suite(void)
{
	char want[64];

	vfs_init();			/* the ramfs root, as kernel_init mounts it */
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "vfs");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(vfs_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void vfs_suite_passes(void **state)
{
	(void)state;
	run_scenario(vfs_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(vfs_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
