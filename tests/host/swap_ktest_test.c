/*
 * swap_ktest_test.c - host.swap_ktest: the `swap` KTAP suite (tests/ktest/swap_ktest.c:
 * anonymous pages out to RAM disk ram3 and back, fork, zap, a full area, a read error) on the
 * host, under ASan/UBSan, in a thread of the host scheduler, over the real block layer,
 * drivers/brd.c, reclaim and the fault path on the fake architecture.  docs/swap.md.
 */
#include "host_sched_test.h"
/* <stdlib.h>'s wait macros: the kernel's (the same encoding) replace them. */
#undef WIFEXITED
#undef WEXITSTATUS
#undef WTERMSIG

#include "../ktest/swap_ktest.c"
#include "tinymm/brd.h"
#include "tinymm/vfs.h"

static int swap_suite(void)
{
	char want[64];

	fake_pfn_base = memmap_bank(0)->start_pfn;
	brd_init();
	vfs_init();
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "swap");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(swap_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void swap_suite_passes(void **state)
{
	(void)state;
	run_scenario(swap_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(swap_suite_passes),
	};
	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
