/*
 * bad_page_test.c - the `bad_page` KTAP suite (tests/ktest/bad_page_ktest.c: the reasons, the
 * free-tail words and the rate limit of mm/page_check.c's reports) on the host, under
 * ASan/UBSan, over a fake RAM.  Nothing in the suite sleeps.
 */
#include "ktest_on_host.h"

#include "../ktest/bad_page_ktest.c"

int main(void)
{
	return ktest_on_host_main("bad_page", ARRAY_SIZE(bad_page_cases) - 1);
}
