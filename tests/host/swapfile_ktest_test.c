/*
 * swapfile_ktest_test.c - host.swapfile_ktest: the `swapfile` KTAP suite (tests/ktest/
 * swapfile_ktest.c: swapon, swapoff and /proc/swaps on RAM disk ram3) on the host, under
 * ASan/UBSan, in a thread of the host scheduler, over the real block layer, drivers/brd.c and
 * the fault path on the fake architecture; then the shell's `swapon`/`swapoff`/`swaps` lines
 * (usage, refusals, the status).  docs/swap.md.
 */
#include "host_sched_test.h"
/* <stdlib.h>'s wait macros: the kernel's (the same encoding) replace them. */
#undef WIFEXITED
#undef WEXITSTATUS
#undef WTERMSIG

#include "../ktest/swapfile_ktest.c"
#include "tinymm/vfs.h"

static int swapfile_suite(void)
{
	char want[64];

	fake_pfn_base = memmap_bank(0)->start_pfn;
	brd_init();
	vfs_init();
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "swapfile");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n",
		 ARRAY_SIZE(swapfile_cases) - 1);
	if (failed || !strstr(shim_console, want)) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void swapfile_suite_passes(void **state)
{
	(void)state;
	run_scenario(swapfile_suite);
}

/* `@cmd` must print exactly @want and return @status. */
static void expect_run(const char *cmd, int status, const char *want)
{
	int got = shim_run(cmd);

	if (got != status || strcmp(shim_console, want)) {
		fprintf(stderr, "'%s': status %d, printed:\n%s--- wanted status %d:\n%s", cmd, got,
			shim_console, status, want);
		failures++;
	}
}

static int swapfile_lines(void)
{
	expect_run("swapon", 2, "swapon: usage: swapon <dev>\n");
	expect_run("swapoff a b", 2, "swapoff: usage: swapoff <dev>\n");
	expect_run("swaps x", 2, "swaps: unexpected argument 'x'\n");
	expect_run("swapon nosuch", 1, "swapon: nosuch: No such device\n");
	expect_run("swapoff /dev/nosuch", 1, "swapoff: nosuch: No such device\n");
	expect_run("swapon ram2", 1, "swapon: ram2: Unable to find swap-space signature\n");
	expect_run("swapoff ram2", 1, "swapoff: ram2: Invalid argument (not a swap area)\n");
	expect_run("swaps", 0, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	return failures ? 1 : 0;
}

static void swapfile_command_lines(void **state)
{
	(void)state;
	run_scenario(swapfile_lines);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(swapfile_suite_passes),
		cmocka_unit_test(swapfile_command_lines),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
