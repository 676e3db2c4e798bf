/*
 * page_idle_test.c - host.page_idle: idle page tracking (mm/page_idle.c, docs/page_idle.md) on
 * the host, under ASan/UBSan, over the fake architecture, in threads of the host scheduler
 * (tests/host/host_sched_test.h):
 *   - the `page_idle` KTAP suite (tests/ktest/page_idle_ktest.c), every case; its live-MMU case
 *     goes through tests/host/host_uaccess.c's walk, which sets no young bit, so the two accesses
 *     after marking fault as on ARM and the case must say "faults (handle_mm_fault)";
 *   - the command's lines: usage, a bad pfn, a zero or wrapping count, a pfn below RAM, a range
 *     running past max_pfn (each one line, status 2 or 1), and a read and a mark of frames no
 *     user maps (the kernel's: 0 marked, all accessed; -v names each).
 */
#include "host_sched_test.h"
/* <stdlib.h>'s wait macros: the kernel's (the same encoding) replace them. */
#undef WIFEXITED
#undef WEXITSTATUS
#undef WTERMSIG

#include "../ktest/page_idle_ktest.c"

static int page_idle_suite(void)
{
	char want[64];

	fake_pfn_base = memmap_bank(0)->start_pfn;
	vfs_init();			/* the ramfs root, as kernel_init mounts it */
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "page_idle");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n",
		 ARRAY_SIZE(page_idle_cases) - 1);
	if (failed || !strstr(shim_console, want) ||
	    !strstr(shim_console, "the ptes made young by faults (handle_mm_fault)\n")) {
		fprintf(stderr, "%s--- wanted: %s", shim_console, want);
		return 1;
	}
	return 0;
}

static void page_idle_suite_passes(void **state)
{
	(void)state;
	run_scenario(page_idle_suite);
}

/* `page_idle <args>` must print exactly @want and return @status. */
static void expect_run(const char *cmd, int status, const char *want)
{
	int got = shim_run(cmd);

	if (got != status || strcmp(shim_console, want)) {
		fprintf(stderr, "'%s': status %d, printed:\n%s--- wanted status %d:\n%s", cmd, got,
			shim_console, status, want);
		failures++;
	}
}

#define USAGE "page_idle mark <pfn> <count> | page_idle read [-v] <pfn> <count>"

static int page_idle_lines(void)
{
	const struct memmap_bank *first = memmap_bank(0), *last = memmap_bank(memmap_nr_banks() - 1);
	unsigned long lo = first->start_pfn, max = last->end_pfn;
	struct page *page = alloc_page(GFP_KERNEL);	/* a kernel frame: never tracked */
	unsigned long k = page_to_pfn(page);
	char cmd[96], want[256];

	fake_pfn_base = lo;

	expect_run("page_idle", 2, "page_idle: usage: " USAGE "\n");
	expect_run("page_idle peek 1 1", 2, "page_idle: usage: " USAGE "\n");
	expect_run("page_idle mark -v 1 1", 2, "page_idle: usage: " USAGE "\n");
	expect_run("page_idle read -v 1", 2, "page_idle: usage: " USAGE "\n");
	expect_run("page_idle mark 1 2 3", 2, "page_idle: usage: " USAGE "\n");
	expect_run("page_idle mark x 1", 2, "page_idle: bad pfn 'x' (usage: " USAGE ")\n");
	expect_run("page_idle read -- 1", 2, "page_idle: bad pfn '--' (usage: " USAGE ")\n");
	snprintf(want, sizeof(want), "page_idle: bad count '0' (1 or more, pfn + count - 1 at most 0x%lx)\n",
		 ULONG_MAX);
	snprintf(cmd, sizeof(cmd), "page_idle read 0x%lx 0", k);
	expect_run(cmd, 2, want);
	snprintf(want, sizeof(want), "page_idle: bad count '0x%lx' (1 or more, pfn + count - 1 at most 0x%lx)\n",
		 ULONG_MAX, ULONG_MAX);
	snprintf(cmd, sizeof(cmd), "page_idle read 2 0x%lx", ULONG_MAX);	/* wraps */
	expect_run(cmd, 2, want);
	if (lo > 0) {
		snprintf(cmd, sizeof(cmd), "page_idle mark 0x%lx 1", lo - 1);
		snprintf(want, sizeof(want), "page_idle: pfn 0x%lx is outside RAM (pfns 0x%lx-0x%lx)\n",
			 lo - 1, lo, max - 1);
		expect_run(cmd, 1, want);
	}
	snprintf(cmd, sizeof(cmd), "page_idle read -v 0x%lx 2", max - 1);
	snprintf(want, sizeof(want), "page_idle: pfn 0x%lx is outside RAM (pfns 0x%lx-0x%lx)\n",
		 max, lo, max - 1);
	expect_run(cmd, 1, want);
	snprintf(cmd, sizeof(cmd), "page_idle mark %lu 1", max);	/* decimal too */
	snprintf(want, sizeof(want), "page_idle: pfn 0x%lx is outside RAM (pfns 0x%lx-0x%lx)\n",
		 max, lo, max - 1);
	expect_run(cmd, 1, want);

	/* The kernel's frame: not marked, and read as accessed (the bitmap's 0). */
	snprintf(cmd, sizeof(cmd), "page_idle mark 0x%lx 1", k);
	expect_run(cmd, 0, "page_idle: 0 marked idle of 1\n");
	CHECK(!folio_test_idle(page_folio(page)));
	snprintf(cmd, sizeof(cmd), "page_idle read 0x%lx 1", k);
	expect_run(cmd, 0, "page_idle: 0 idle, 1 accessed of 1\n");
	snprintf(cmd, sizeof(cmd), "page_idle read -v %lu 1", k);
	snprintf(want, sizeof(want), "page_idle: pfn 0x%lx accessed\npage_idle: 0 idle, 1 accessed of 1\n", k);
	expect_run(cmd, 0, want);
	__free_page(page);
	return failures ? 1 : 0;
}

static void page_idle_command_lines(void **state)
{
	(void)state;
	run_scenario(page_idle_lines);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(page_idle_suite_passes),
		cmocka_unit_test(page_idle_command_lines),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
