/*
 * pcp_order_test.c - the `pcp_order` KTAP suite (tests/ktest/pcp_order_ktest.c: the order 1-3
 * fast paths keep v6.10's per-CPU counters) on the host, under ASan/UBSan, over a fake RAM.
 */
#include "ktest_on_host.h"

#include "../ktest/pcp_order_ktest.c"

int main(void)
{
	return ktest_on_host_main("pcp_order", ARRAY_SIZE(pcp_order_cases) - 1);
}
