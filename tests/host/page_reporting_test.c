/*
 * page_reporting_test.c - free page reporting on the host: the in-kernel suite "page_reporting"
 * under ASan/UBSan over a real memmap and buddy allocator on 64 MiB of malloc'd "RAM" (aligned to
 * a max-order block, so max-order blocks exist; tinymm's __va is the identity), then the `report`
 * command's exact text: no device, a run, nothing left to do, a failing device, bad arguments.
 */
#include "test.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/shell.h"

#include "../ktest/page_reporting_ktest.c"

#define RAM_ALIGN	(PAGE_SIZE << MAX_PAGE_ORDER)
#define RAM_SIZE	(64UL << 20)

static char *ram;

static int group_setup(void **state)
{
	ram = aligned_alloc(RAM_ALIGN, RAM_SIZE);
	if (!ram)
		return -1;
	memblock_reset();
	if (memblock_add((uintptr_t)ram, RAM_SIZE, NULL) || memmap_init() || page_alloc_init())
		return -1;
	return buddy_check(NULL) ? -1 : 0;
}

static int group_teardown(void **state)
{
	free(ram);
	return 0;
}

static void ktest_suite_passes(void **state)
{
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "page_reporting");

	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	char want[64];
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(page_reporting_cases) - 1);
	assert_console_has(want);
	assert_int_equal(buddy_check(NULL), 0);
}

static unsigned long big_blocks, big_pages;

static void count_big(struct zone *z, unsigned int o, struct page_list *l, struct page *p)
{
	if (o >= PR_ORDER) {
		big_blocks++;
		big_pages += 1UL << o;
	}
}

static void report_command(void **state)
{
	char want[128];

	reset();
	assert_int_equal(shim_run("report"), 1);
	assert_string_equal(shim_console, "report: no free page reporting device registered\n");
	assert_int_equal(shim_run("report now"), 2);
	assert_console_has("report: unexpected argument 'now'");

	big_blocks = big_pages = 0;
	for_each_free_block(count_big);
	assert_true(big_blocks > 3 * PR_CAP);		/* enough for several batches and passes */
	assert_int_equal(page_reporting_register(&fake_dev), 0);
	assert_int_equal(shim_run("report"), 0);
	int passes = 0;
	assert_int_equal(sscanf(shim_console, "report: %*u blocks, %*u pages reported in %d", &passes), 1);
	assert_true(passes > 1);
	snprintf(want, sizeof(want), "report: %lu blocks, %lu pages reported in %d passes\n",
		 big_blocks, big_pages, passes);
	assert_string_equal(shim_console, want);
	assert_int_equal(shim_run("report"), 0);		/* nothing new freed: nothing to do */
	assert_string_equal(shim_console, "report: 0 blocks, 0 pages reported in 0 passes\n");

	/* A failing device: one batch handed over, none reported, non-zero status. */
	fail_with = -EIO;
	struct page *p = alloc_pages(PR_GFP, MAX_PAGE_ORDER);
	assert_non_null(p);
	__free_pages(p, MAX_PAGE_ORDER);
	assert_int_equal(shim_run("report"), 1);
	assert_string_equal(shim_console, "report: device failed (error -5) after 0 blocks, 0 pages\n");
	assert_false(PageReported(p));
	fail_with = 0;
	assert_int_equal(buddy_check(NULL), 0);
	reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ktest_suite_passes),
		cmocka_unit_test(report_command),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
