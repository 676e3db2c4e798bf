/*
 * ktest_on_host.h - run one in-kernel KTAP suite on the host, under ASan/UBSan, over a fake RAM
 * (16 MiB) with the page and slab allocators and the folio wait table up, and no scheduler (the
 * suites that use this never sleep).  A test file includes this, then the suite's source, and its
 * main() is ktest_on_host_main("<suite>", number of cases).
 */
#ifndef TINYMM_TEST_KTEST_ON_HOST_H
#define TINYMM_TEST_KTEST_ON_HOST_H
#include "tinymm/workingset.h"
#include "test.h"
#include "fake_ram.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/slab.h"

static const char *ktest_on_host_suite;
static size_t ktest_on_host_cases;

static void ktest_on_host_suite_passes(void **state)
{
	char want[64];

	(void)state;
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, ktest_on_host_suite);
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ktest_on_host_cases);
	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	assert_console_has(want);
}

static int ktest_on_host_main(const char *suite, size_t cases)
{
	const size_t ram_size = 16 * SZ_1M;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ktest_on_host_suite_passes),
	};
	char *ram = fake_ram_alloc(ram_size);

	if (!ram)
		return 1;
	ktest_on_host_suite = suite;
	ktest_on_host_cases = cases;
	if (fake_ram_one_bank(__pa(ram), ram_size))
		return 1;
	fake_ram_reserve_kernel(__pa(ram));
	if (memmap_init() || page_alloc_init())
		return 1;
	kmem_cache_init();
	pagecache_init();
	workingset_init();
	int ret = cmocka_run_group_tests(tests, NULL, NULL);
	free(ram);
	return ret;
}
#endif
