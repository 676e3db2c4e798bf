/*
 * lru_test.c - the `lru` KTAP suite (tests/ktest/lru_ktest.c: mm/swap.c's LRU lists, batches,
 * two-touch activation, unevictable, rotation, release) on the host, under ASan/UBSan, over a
 * fake RAM.  The scheduler is not started: nothing in the suite sleeps.
 */
#include "ktest_on_host.h"

#include "../ktest/lru_ktest.c"

int main(void)
{
	return ktest_on_host_main("lru", ARRAY_SIZE(lru_cases) - 1);
}
