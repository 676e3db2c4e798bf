/*
 * pcp_batch_test.c - the per-CPU lists' bounded worst case on the host, under ASan/UBSan: the
 * `pcp_batch` KTAP suite (tests/ktest/pcp_batch_ktest.c) over a 64 MiB fake RAM booted with
 * several tinymm.pcp_batch / tinymm.pcp_batch_scale_max settings and after pcp_set_batch() at
 * run time, and the two parameters' parsing (a bad value warns and keeps the default).
 */
#include "test.h"
#include "tinymm/cmdline.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/time.h"
#include "../../mm/internal.h"
#include "fake_ram.h"

#include "../ktest/pcp_batch_ktest.c"

#define MIB		(1UL << 20)
#define RAM_SIZE	(64 * MIB)	/* 16384 frames: zone_batchsize() gives 3 */

static char *ram;
static char param_warning[128];

static void keep_warning(const char *line)
{
	snprintf(param_warning, sizeof(param_warning), "%s", line);
}

/* A fresh allocator with tinymm.<options> @opts, from the parameters' defaults as a boot has
 * them; no warning expected. */
static void boot(const char *opts)
{
	char line[256];
	struct boot_args args;

	pcp_batch_param = 0;
	pcp_batch_scale_max = PCP_SCALE_DEFAULT;
	assert_int_equal(fake_ram_one_bank(__pa(ram), RAM_SIZE), 0);
	fake_ram_reserve_kernel(__pa(ram));
	snprintf(line, sizeof(line), "tinymm.page_poison=0 %s", opts);
	param_warning[0] = 0;
	cmdline_parse(line, &args, __kparams_start, __kparams_end, keep_warning);
	assert_string_equal(param_warning, "");
	assert_int_equal(memmap_init(), 0);
	assert_int_equal(page_alloc_init(), 0);
	assert_int_equal(buddy_check(NULL), 0);
	time_init(1000000);
	shim_console_reset();
}

static void suite_passes(void)
{
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "pcp_batch");

	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	assert_console_has("# totals: pass:6 fail:0 skip:0\n");
}

/* The defaults: Linux's zone_batchsize() (3 frames for 64 MiB) and scale 5. */
static void defaults_bounded(void **state)
{
	boot("");
	assert_int_equal(preferred_zone->pcp[0].batch, 3);
	assert_int_equal(pcp_batch_scale_max, 5);
	suite_passes();
}

/* Each setting the docs' table has (batch 1, 4, 15 at scale 0 and 5), and the extremes. */
static void settings_bounded(void **state)
{
	static const char *const settings[] = {
		"tinymm.pcp_batch=1 tinymm.pcp_batch_scale_max=0",
		"tinymm.pcp_batch=4 tinymm.pcp_batch_scale_max=0",
		"tinymm.pcp_batch=15 tinymm.pcp_batch_scale_max=0",
		"tinymm.pcp_batch=1",
		"tinymm.pcp_batch=4",
		"tinymm.pcp_batch=15",
		"tinymm.pcp_batch_scale_max=6",
		"tinymm.pcp_batch=2 tinymm.pcp_batch_scale_max=3",
	};

	for (size_t i = 0; i < ARRAY_SIZE(settings); i++) {
		fprintf(stderr, "pcp_batch_test: %s\n", settings[i]);
		boot(settings[i]);
		suite_passes();
	}
}

/* pcp_set_batch() at run time sizes the lists as a boot with those parameters would. */
static void set_at_run_time(void **state)
{
	struct per_cpu_pages *pcp = &preferred_zone->pcp[0];

	boot("tinymm.pcp_batch=4 tinymm.pcp_batch_scale_max=0");
	int high_min = pcp->high_min, high_max = pcp->high_max;
	boot("");
	unsigned long free0 = nr_free_pages_and_pcp();
	struct page *p = alloc_page(GFP_KERNEL);	/* the lists hold a refill's rest */
	assert_non_null(p);
	pcp_set_batch(4, 0);
	assert_int_equal(pcp_count(pcp), 0);		/* drained first */
	assert_int_equal(pcp->batch, 4);
	assert_int_equal(pcp->high_min, high_min);
	assert_int_equal(pcp->high_max, high_max);
	assert_int_equal(pcp->high, high_min);
	assert_int_equal(pcp_batch_scale_max, 0);
	suite_passes();
	__free_page(p);
	pcp_set_batch(0, PCP_SCALE_DEFAULT);
	assert_int_equal(pcp->batch, 3);
	assert_int_equal(nr_free_pages_and_pcp(), free0);
	assert_int_equal(buddy_check(NULL), 0);
}

/* Out of range or not a number: one warning, the value in force kept; the limits accepted. */
static void bad_values_keep_the_default(void **state)
{
	/* Each value and its one warning line: a number out of range names the range. */
	static const char *const bad[][2] = {
		{ "tinymm.pcp_batch=0", "tinymm.pcp_batch=0 out of range (1-1024), default kept" },
		{ "tinymm.pcp_batch=1025", "tinymm.pcp_batch=1025 out of range (1-1024), default kept" },
		{ "tinymm.pcp_batch=x", "bad value for option 'tinymm.pcp_batch'" },
		{ "tinymm.pcp_batch=", "bad value for option 'tinymm.pcp_batch'" },
		{ "tinymm.pcp_batch=-1", "bad value for option 'tinymm.pcp_batch'" },
		{ "tinymm.pcp_batch_scale_max=7",
		  "tinymm.pcp_batch_scale_max=7 out of range (0-6), default kept" },
		{ "tinymm.pcp_batch_scale_max=-1", "bad value for option 'tinymm.pcp_batch_scale_max'" },
		{ "tinymm.pcp_batch_scale_max=5x", "bad value for option 'tinymm.pcp_batch_scale_max'" },
	};
	struct boot_args args;
	char line[64];

	boot("");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(line, sizeof(line), "%s", bad[i][0]);
		param_warning[0] = 0;
		cmdline_parse(line, &args, __kparams_start, __kparams_end, keep_warning);
		assert_int_equal(args.nr_warnings, 1);
		assert_string_equal(param_warning, bad[i][1]);
		assert_int_equal(pcp_batch_param, 0);
		assert_int_equal(pcp_batch_scale_max, PCP_SCALE_DEFAULT);
	}
	boot("tinymm.pcp_batch=1024 tinymm.pcp_batch_scale_max=6");
	assert_int_equal(preferred_zone->pcp[0].batch, 1024);
	assert_int_equal(pcp_batch_scale_max, 6);
	boot("tinymm.pcp_batch_scale_max=0x0");
	assert_int_equal(pcp_batch_scale_max, 0);
	assert_int_equal(preferred_zone->pcp[0].batch, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_bounded),
		cmocka_unit_test(settings_bounded),
		cmocka_unit_test(set_at_run_time),
		cmocka_unit_test(bad_values_keep_the_default),
	};

	ram = fake_ram_alloc(RAM_SIZE);
	if (!ram)
		return 1;
	int ret = cmocka_run_group_tests(tests, NULL, NULL);
	free(ram);
	return ret;
}
