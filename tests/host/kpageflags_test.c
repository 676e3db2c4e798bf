/*
 * kpageflags_test.c - stable_page_flags() and the `kpageflags` command on the host: the in-kernel
 * suite "kpageflags" under ASan/UBSan, then the command's exact text over a real memmap built by
 * memmap_init() on two "RAM banks" carved from host memory (tinymm's __va is the identity, so
 * host addresses serve as physical ones): reserved frames, a hole, live flags, a buddy block,
 * the end at max_pfn.
 */
#include "test.h"
#include "tinymm/kernel-page-flags.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/shell.h"

#include "../ktest/kpageflags_ktest.c"

#define MIB		(1UL << 20)
#define BANK_PAGES	(MIB / PAGE_SIZE)		/* 256 frames per bank */

static char *ram;		/* 4 MiB: bank 0 = [0, 1M), hole, bank 1 = [2M, 3M) */
static unsigned long pfn0;	/* frame of ram[0] */

static int group_setup(void **state)
{
	ram = aligned_alloc(MIB, 4 * MIB);
	pfn0 = (unsigned long)((uintptr_t)ram >> PAGE_SHIFT);
	return ram ? 0 : -1;
}

static int group_teardown(void **state)
{
	free(ram);
	return 0;
}

/* Each test: two banks, the first 16K of bank 0 the "kernel", then the memmap. */
static int setup(void **state)
{
	phys_addr_t pa = (uintptr_t)ram;

	memblock_reset();
	assert_int_equal(memblock_add(pa, MIB, NULL), 0);
	assert_int_equal(memblock_add(pa + 2 * MIB, MIB, NULL), 0);
	memblock_reserve(pa, 0x4000, MEMBLOCK_KERNEL);
	assert_int_equal(memmap_init(), 0);
	assert_int_equal(memmap_nr_banks(), 2);
	shim_console_reset();
	return 0;
}

/* Append "0x<pfn> 0x<flags>\n" to @buf. */
static void add_line(char *buf, size_t len, unsigned long pfn, unsigned long long flags)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "0x%lx 0x%016llx\n", pfn, flags);
}

static void ktest_suite_passes(void **state)
{
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "kpageflags");

	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	assert_console_has("# totals: pass:13 fail:0 skip:0\n");
}

static void kernel_frames_are_reserved(void **state)
{
	char cmd[64], want[1024];

	snprintf(cmd, sizeof(cmd), "kpageflags %#lx 6", pfn0);
	assert_int_equal(shim_run(cmd), 0);
	snprintf(want, sizeof(want), "--- kpageflags begin pfn=%#lx count=6 ---\n", pfn0);
	for (unsigned long i = 0; i < 6; i++)		/* 4 kernel frames, then usable ones */
		add_line(want, sizeof(want), pfn0 + i, i < 4 ? 0x100000000ULL : 0);
	strcat(want, "--- kpageflags end count=6 ---\n");
	assert_string_equal(shim_console, want);
}

static void hole_between_banks_is_nopage(void **state)
{
	char cmd[64], want[1024];

	snprintf(cmd, sizeof(cmd), "kpageflags %lu 3", pfn0 + BANK_PAGES - 1);	/* decimal too */
	assert_int_equal(shim_run(cmd), 0);
	snprintf(want, sizeof(want), "--- kpageflags begin pfn=%#lx count=3 ---\n",
		 pfn0 + BANK_PAGES - 1);
	add_line(want, sizeof(want), pfn0 + BANK_PAGES - 1, 0);
	add_line(want, sizeof(want), pfn0 + BANK_PAGES, 0x100000);
	add_line(want, sizeof(want), pfn0 + BANK_PAGES + 1, 0x100000);
	strcat(want, "--- kpageflags end count=3 ---\n");
	assert_string_equal(shim_console, want);
}

static void memmap_frames_at_the_top_are_reserved(void **state)
{
	/* memblock_alloc is top-down: both banks' maps sit at the end of bank 1. */
	unsigned long map_pages = 2 * ((BANK_PAGES * sizeof(struct page) + PAGE_SIZE - 1) / PAGE_SIZE);
	unsigned long end = pfn0 + 3 * BANK_PAGES, first = end - map_pages - 1;
	char cmd[64], want[2048];

	snprintf(cmd, sizeof(cmd), "kpageflags %#lx %lu", first, map_pages + 1);
	assert_int_equal(shim_run(cmd), 0);
	snprintf(want, sizeof(want), "--- kpageflags begin pfn=%#lx count=%lu ---\n", first,
		 map_pages + 1);
	for (unsigned long p = first; p < end; p++)
		add_line(want, sizeof(want), p, p == first ? 0 : 0x100000000ULL);
	snprintf(want + strlen(want), sizeof(want) - strlen(want),
		 "--- kpageflags end count=%lu ---\n", map_pages + 1);
	assert_string_equal(shim_console, want);
}

/*
 * As /proc/kpageflags ends at max_pfn, the dump ends at the last frame with a struct page (the
 * end of bank 1 here): the frame counts what was printed, one line after it says where it
 * stopped, and a range starting there prints that line alone.  A count of 0xffffffff prints
 * RAM's frames, not four billion lines.
 */
static void dump_stops_at_max_pfn(void **state)
{
	unsigned long max_pfn = pfn0 + 3 * BANK_PAGES;
	char cmd[64], want[1024], stop[64];

	snprintf(stop, sizeof(stop), "kpageflags: stopped at pfn %#lx (max_pfn)\n", max_pfn);
	snprintf(cmd, sizeof(cmd), "kpageflags %#lx 5", max_pfn - 2);
	assert_int_equal(shim_run(cmd), 0);
	snprintf(want, sizeof(want), "--- kpageflags begin pfn=%#lx count=2 ---\n", max_pfn - 2);
	add_line(want, sizeof(want), max_pfn - 2, 0x100000000ULL);	/* the memmap, at the top */
	add_line(want, sizeof(want), max_pfn - 1, 0x100000000ULL);
	strcat(want, "--- kpageflags end count=2 ---\n");
	strcat(want, stop);
	assert_string_equal(shim_console, want);

	/* Exactly up to max_pfn: a whole frame, no stop line. */
	snprintf(cmd, sizeof(cmd), "kpageflags %#lx 2", max_pfn - 2);
	assert_int_equal(shim_run(cmd), 0);
	assert_null(strstr(shim_console, "stopped"));
	assert_non_null(strstr(shim_console, "--- kpageflags end count=2 ---\n"));

	static const char *const beyond[] = { "kpageflags %#lx 1", "kpageflags %#lx 0xffffffff" };
	for (unsigned int i = 0; i < ARRAY_SIZE(beyond); i++) {
		snprintf(cmd, sizeof(cmd), beyond[i], max_pfn);
		assert_int_equal(shim_run(cmd), 0);
		assert_string_equal(shim_console, stop);
	}
	assert_int_equal(shim_run("kpageflags 0xffffffffffffffff 1"), 0);
	assert_string_equal(shim_console, stop);

	/* From RAM's first frame with a huge count: every pfn up to max_pfn once (the hole
	 * between the banks too), then the stop line. */
	snprintf(cmd, sizeof(cmd), "kpageflags %#lx 0xffffffff", pfn0);
	assert_int_equal(shim_run(cmd), 0);
	char head[96], tail[160];
	snprintf(head, sizeof(head), "--- kpageflags begin pfn=%#lx count=%lu ---\n", pfn0,
		 max_pfn - pfn0);
	snprintf(tail, sizeof(tail), "\n%#lx 0x0000000100000000\n--- kpageflags end count=%lu ---\n%s",
		 max_pfn - 1, max_pfn - pfn0, stop);
	assert_memory_equal(shim_console, head, strlen(head));
	size_t len = strlen(shim_console);
	assert_true(len > strlen(tail));
	assert_string_equal(shim_console + len - strlen(tail), tail);
}

static void live_flags_and_a_free_block_show(void **state)
{
	unsigned long b = pfn0 + 2 * BANK_PAGES + 16;	/* in bank 1, order-2 aligned */
	struct page *pg = pfn_to_page(pfn0 + 8);
	char cmd[64], want[1024];

	__SetPageLocked(pg);
	__SetPageDirty(pg);
	for (unsigned long p = b; p < b + 4; p++)
		atomic_set(&pfn_to_page(p)->_refcount, 0);
	pfn_to_page(b)->private = 2;
	__SetPageBuddy(pfn_to_page(b));
	/* The memmap path (stable_page_flags finds the bank itself) sees the tails too. */
	assert_int_equal(stable_page_flags(pfn_to_page(b + 3)), 0x400);
	assert_int_equal(stable_page_flags(pfn_to_page(b + 4)), 0);
	assert_int_equal(stable_page_flags(pg), 0x11);

	snprintf(cmd, sizeof(cmd), "kpageflags %#lx 1", pfn0 + 8);
	assert_int_equal(shim_run(cmd), 0);
	snprintf(want, sizeof(want), "--- kpageflags begin pfn=%#lx count=1 ---\n"
		 "%#lx 0x0000000000000011\n--- kpageflags end count=1 ---\n", pfn0 + 8, pfn0 + 8);
	assert_string_equal(shim_console, want);

	snprintf(cmd, sizeof(cmd), "kpageflags %#lx 6", b - 1);
	assert_int_equal(shim_run(cmd), 0);
	snprintf(want, sizeof(want), "--- kpageflags begin pfn=%#lx count=6 ---\n", b - 1);
	for (unsigned long p = b - 1; p < b + 5; p++)
		add_line(want, sizeof(want), p, p >= b && p < b + 4 ? 0x400 : 0);
	strcat(want, "--- kpageflags end count=6 ---\n");
	assert_string_equal(shim_console, want);
}

static void bad_arguments_are_one_line_usage_errors(void **state)
{
	assert_int_equal(shim_run("kpageflags"), 2);
	assert_string_equal(shim_console, "kpageflags: usage: kpageflags <pfn> <count>\n");
	assert_int_equal(shim_run("kpageflags 0x80000"), 2);
	assert_string_equal(shim_console, "kpageflags: usage: kpageflags <pfn> <count>\n");
	assert_int_equal(shim_run("kpageflags 1 2 3"), 2);
	assert_string_equal(shim_console, "kpageflags: usage: kpageflags <pfn> <count>\n");
	assert_int_equal(shim_run("kpageflags 0x8000g 1"), 2);
	assert_string_equal(shim_console,
			    "kpageflags: bad pfn '0x8000g' (usage: kpageflags <pfn> <count>)\n");
	assert_int_equal(shim_run("kpageflags 0x80000 0"), 2);
	assert_string_equal(shim_console,
			    "kpageflags: bad count '0' (1 or more, pfn + count - 1 at most 0xffffffffffffffff)\n");
	assert_int_equal(shim_run("kpageflags 0xffffffffffffffff 2"), 2);
	assert_string_equal(shim_console,
			    "kpageflags: bad count '2' (1 or more, pfn + count - 1 at most 0xffffffffffffffff)\n");
}

static void help_describes_it(void **state)
{
	assert_int_equal(shim_run("help kpageflags"), 0);
	assert_string_equal(shim_console, "kpageflags <pfn> <count>\n"
			    "    dump /proc/kpageflags words (Linux v6.10's KPF_* bits) for a pfn range\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ktest_suite_passes),
		cmocka_unit_test_setup(kernel_frames_are_reserved, setup),
		cmocka_unit_test_setup(hole_between_banks_is_nopage, setup),
		cmocka_unit_test_setup(memmap_frames_at_the_top_are_reserved, setup),
		cmocka_unit_test_setup(live_flags_and_a_free_block_show, setup),
		cmocka_unit_test_setup(dump_stops_at_max_pfn, setup),
		cmocka_unit_test_setup(bad_arguments_are_one_line_usage_errors, setup),
		cmocka_unit_test(help_describes_it),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
