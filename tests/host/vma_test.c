/*
 * vma_test.c - the `vma` KTAP suite (tests/ktest/vma_ktest.c: the address space's areas,
 * mm/mmap.c) on the host, under ASan/UBSan, in a thread of the host scheduler
 * (tests/host/host_sched_test.h): the cases hold mm->mmap_lock, a mutex.
 */
#include "host_sched_test.h"

#include "../ktest/vma_ktest.c"

static int vma_suite(void)
{
	char want[64];

	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "vma");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(vma_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void vma_suite_passes(void **state)
{
	(void)state;
	run_scenario(vma_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(vma_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
