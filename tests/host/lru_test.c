/*
 * lru_test.c - the `lru` KTAP suite (tests/ktest/lru_ktest.c: mm/swap.c's LRU lists, batches,
 * two-touch activation, unevictable, rotation, release) on the host, under ASan/UBSan, over a
 * fake RAM.  The scheduler is not started: nothing in the suite sleeps.
 */
#include "test.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/slab.h"

#include "../ktest/lru_ktest.c"

#define MIB		(1UL << 20)
#define RAM_SIZE	(16 * MIB)

static void suite_passes(void **state)
{
	char want[64];

	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "lru");
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n",
		 ARRAY_SIZE(lru_cases) - 1);
	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	assert_console_has(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(suite_passes),
	};
	char *ram = aligned_alloc(4 * MIB, RAM_SIZE);

	if (!ram)
		return 1;
	memblock_reset();
	if (memblock_add(__pa(ram), RAM_SIZE, NULL))
		return 1;
	memblock_reserve(__pa(ram), 0x10000, MEMBLOCK_KERNEL);
	if (memmap_init() || page_alloc_init())
		return 1;
	kmem_cache_init();
	pagecache_init();
	int ret = cmocka_run_group_tests(tests, NULL, NULL);
	free(ram);
	return ret;
}
