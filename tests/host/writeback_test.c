/*
 * writeback_test.c - the `writeback` KTAP suite (tests/ktest/writeback_ktest.c: dirty and
 * writeback tags and counters, write_cache_pages, errseq over a fake disk) on the host, under
 * ASan/UBSan, over a fake RAM.  The scheduler is not started: nothing in the suite sleeps.
 */
#include "ktest_on_host.h"

#include "../ktest/writeback_ktest.c"

int main(void)
{
	return ktest_on_host_main("writeback", ARRAY_SIZE(writeback_cases) - 1);
}
