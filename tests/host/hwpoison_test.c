/*
 * hwpoison_test.c - the `hwpoison` KTAP suite (tests/ktest/hwpoison_ktest.c: mm/memory-failure.c,
 * one case per page state of v6.10's table, over a fake disk) on the host, under ASan/UBSan.
 * memory_failure() sleeps (the folio lock, writeback, mf_mutex), so the suite runs in a thread
 * of the host scheduler (tests/host/host_sched_test.h), whose idle loop drives the simulated
 * clock: the timer that ends writeback fires in interrupt context, the thread holding a folio
 * lock sleeps in msleep.  The fake RAM is 16 MiB; the suite's 100 000 allocations per case
 * cycle through it.
 */
#include "host_sched_test.h"

#include "../ktest/hwpoison_fixture.c"
#include "../ktest/hwpoison_ktest.c"
#include "../ktest/hwpoison_kernel_ktest.c"
#include "../ktest/hwpoison_race_ktest.c"

/*
 * The console has v6.10's lines alone: every "unhandlable page." is followed at once by its
 * "recovery action for unknown page: Ignored"; tinymm's "left to its owner" is debug-level
 * (in the log, which the cases read, not on the console).  How many frames it saw: -1 if not so.
 */
static int console_has_v6_10_lines(const char *con)
{
	static const char unh[] = ": unhandlable page.\n";
	int n = 0;

	if (strstr(con, "left to its owner"))
		return -1;
	for (const char *p = con; (p = strstr(p, unh)); p++, n++) {
		const char *pfn = p, *next = p + strlen(unh), *ts_end = strstr(next, "] ");
		while (pfn > con && pfn[-1] != ' ')
			pfn--;				/* "0x<pfn>" */
		char want[96];
		snprintf(want, sizeof(want), "Memory failure: %.*s: recovery action for unknown page: "
			 "Ignored\n", (int)(p - pfn), pfn);
		if (!ts_end || strncmp(ts_end + 2, want, strlen(want)) || memchr(next, '\n', ts_end - next))
			return -1;
	}
	return n;
}

static int hwpoison_suite(void)
{
	char want[64];

	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "hwpoison");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(hwpoison_cases) - 1);
	if (getenv("HW_VERBOSE"))	/* HW_VERBOSE=1 ./hwpoison_test: the KTAP and the log */
		fputs(shim_console, stderr);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	if (console_has_v6_10_lines(shim_console) < 3) {	/* kernel, slab, reserved frames */
		fprintf(stderr, "%s--- wanted v6.10's lines alone for frames left to their owner\n",
			shim_console);
		return 1;
	}
	return 0;
}

static void hwpoison_suite_passes(void **state)
{
	(void)state;
	run_scenario(hwpoison_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(hwpoison_suite_passes),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
