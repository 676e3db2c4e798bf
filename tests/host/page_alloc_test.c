/*
 * page_alloc_test.c - the `page_alloc` KTAP suite (tests/ktest/page_alloc_ktest.c: v6.10's
 * reserve, isolation, putback, rmappable and MemFree rules) on the host, under ASan/UBSan, over
 * a fake RAM.
 */
#include "ktest_on_host.h"

#include "../ktest/page_alloc_ktest.c"

int main(void)
{
	return ktest_on_host_main("page_alloc", ARRAY_SIZE(page_alloc_cases) - 1);
}
