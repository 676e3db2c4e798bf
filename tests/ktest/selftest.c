/*
 * selftest.c - suites that test the test machinery itself.
 * "ktest_must_fail" is explicit-only and exists to fail: CTest boots every board with
 * tinymm.test=ktest_must_fail and requires a non-zero exit, which proves a failing check
 * really reaches QEMU's exit status.
 */
#include "tinymm/ktest.h"

static void fails_on_purpose(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, 1 + 1, 3);
}

static void skips_on_purpose(struct ktest *t)
{
	ktest_skip(t, "a skip is not a failure");
}

static const struct ktest_case must_fail_cases[] = {
	KTEST_CASE(fails_on_purpose),
	KTEST_CASE(skips_on_purpose),
	{ 0 },
};
KTEST_SUITE_EXPLICIT(ktest_must_fail, must_fail_cases);

static void glob_matches(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, glob_match("*", "memblock"));
	KTEST_EXPECT_TRUE(t, glob_match("mem*", "memblock"));
	KTEST_EXPECT_TRUE(t, glob_match("*block", "memblock"));
	KTEST_EXPECT_TRUE(t, glob_match("m?mbl*k", "memblock"));
	KTEST_EXPECT_FALSE(t, glob_match("mem", "memblock"));
	KTEST_EXPECT_FALSE(t, glob_match("*x*", "memblock"));
	KTEST_EXPECT_TRUE(t, glob_match("a*b*c", "aXbYbZc"));
}

static const struct ktest_case ktest_cases[] = {
	KTEST_CASE(glob_matches),
	{ 0 },
};
KTEST_SUITE(ktest, ktest_cases);
