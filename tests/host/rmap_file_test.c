/*
 * rmap_file_test.c - the `rmap_file` KTAP suite (tests/ktest/rmap_file_ktest.c: shared file
 * mappings, i_mmap, folio_mkclean, truncation unmapping; docs/shared-mappings.md) on the host,
 * under ASan/UBSan, over the fake architecture, in a thread of the host scheduler
 * (tests/host/host_sched_test.h): faults take the mms' mmap_lock and the folio locks, and the
 * cases map a ramfs file shared from two mms.
 */
#include "host_sched_test.h"

#include "../ktest/rmap_file_ktest.c"

static int rmap_file_suite(void)
{
	char want[64];

	fake_pfn_base = memmap_bank(0)->start_pfn;
	vfs_init();			/* the ramfs root, as kernel_init mounts it */
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "rmap_file");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n",
		 ARRAY_SIZE(rmap_file_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void rmap_file_suite_passes(void **state)
{
	(void)state;
	run_scenario(rmap_file_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(rmap_file_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
