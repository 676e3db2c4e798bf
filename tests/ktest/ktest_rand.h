/*
 * ktest_rand.h - the suites' pseudo-random numbers: Marsaglia's xorshift with the 13/17/5 triple,
 * which is a full-period generator on 32 bits and good enough for picking indices and orders
 * on 64 (tests need variety and repeatability, not statistics).  The state must not be 0.
 */
#ifndef TESTS_KTEST_RAND_H
#define TESTS_KTEST_RAND_H

static inline unsigned long ktest_xorshift(unsigned long *s)
{
	unsigned long x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

#endif
