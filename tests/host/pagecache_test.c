/*
 * pagecache_test.c - the `pagecache` KTAP suite (tests/ktest/pagecache_ktest.c: the read path
 * and v6.10's readahead windows over a fake disk) on the host, under ASan/UBSan, over a fake
 * RAM.  The scheduler is not started: nothing in the suite sleeps.
 */
#include "ktest_on_host.h"

#include "../ktest/pagecache_ktest.c"

int main(void)
{
	return ktest_on_host_main("pagecache", ARRAY_SIZE(pagecache_cases) - 1);
}
