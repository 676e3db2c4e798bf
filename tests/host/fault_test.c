/*
 * fault_test.c - the `fault` KTAP suite (tests/ktest/fault_ktest.c: the page-fault core,
 * mm/memory.c) on the host, under ASan/UBSan, over the fake architecture (three levels, and
 * two as fault_2level_test: FAKE_PGTABLE_LEVELS=2), in a
 * thread of the host scheduler (tests/host/host_sched_test.h): faults take mm->mmap_lock and
 * the page cache's folio locks, and the file cases map a ramfs file.
 */
#include "host_sched_test.h"

#include "../ktest/fault_ktest.c"

static int fault_suite(void)
{
	char want[64];

	/* Two levels: an entry holds pfn - fake_pfn_base (tests/host/include/asm/pgtable.h). */
	fake_pfn_base = memmap_bank(0)->start_pfn;
	vfs_init();			/* the ramfs root, as kernel_init mounts it */
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "fault");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(fault_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void fault_suite_passes(void **state)
{
	(void)state;
	run_scenario(fault_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(fault_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
