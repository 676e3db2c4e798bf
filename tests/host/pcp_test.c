/*
 * pcp_test.c - the `pcp` KTAP suite (tests/ktest/pcp_ktest.c: the per-CPU lists' sizing, tuning
 * and draining as v6.10's) on the host, under ASan/UBSan, over a fake RAM.
 */
#include "ktest_on_host.h"

#include "../ktest/pcp_ktest.c"

int main(void)
{
	return ktest_on_host_main("pcp", ARRAY_SIZE(pcp_cases) - 1);
}
