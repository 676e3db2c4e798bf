/*
 * atomic_ktest.c - suite "atomic": every atomic, bit and exchange operation's return value and
 * its effect on memory, on the board's own instructions (LDREX/STREX, AMOs, LR/SC), plus each
 * barrier once so an encoding the CPU rejects traps here.  Neighbouring words are checked too:
 * a 32-bit op on a 64-bit CPU, or a bit op on the wrong word, would show there.
 * The host runs the same suite against the compiler's builtins (tests/host/atomic_test.c).
 */
#include <limits.h>
#include "tinymm/atomic.h"
#include "tinymm/barrier.h"
#include "tinymm/bitops.h"
#include "tinymm/ktest.h"

static void atomic_relaxed_ops(struct ktest *t)
{
	atomic_t v = ATOMIC_INIT(5);

	KTEST_EXPECT_EQ(t, atomic_read(&v), 5);
	atomic_set(&v, 10);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 10);
	atomic_add(7, &v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 17);
	atomic_sub(20, &v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), -3);
	atomic_inc(&v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), -2);
	atomic_dec(&v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), -3);
	atomic_set(&v, 0x0ff0);
	atomic_and(0x00ff, &v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0x00f0);
	atomic_or(0x1001, &v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0x10f1);
	atomic_xor(0x0011, &v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0x10e0);
	atomic_andnot(0x00e0, &v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0x1000);
	atomic_set_release(&v, 3);
	KTEST_EXPECT_EQ(t, atomic_read_acquire(&v), 3);
}

static void atomic_returning_ops(struct ktest *t)
{
	atomic_t v = ATOMIC_INIT(10);

	KTEST_EXPECT_EQ(t, atomic_add_return(5, &v), 15);
	KTEST_EXPECT_EQ(t, atomic_sub_return(20, &v), -5);
	KTEST_EXPECT_EQ(t, atomic_inc_return(&v), -4);
	KTEST_EXPECT_EQ(t, atomic_dec_return(&v), -5);
	KTEST_EXPECT_EQ(t, atomic_read(&v), -5);
	KTEST_EXPECT_EQ(t, atomic_fetch_add(6, &v), -5);
	KTEST_EXPECT_EQ(t, atomic_fetch_sub(2, &v), 1);
	KTEST_EXPECT_EQ(t, atomic_fetch_inc(&v), -1);
	KTEST_EXPECT_EQ(t, atomic_fetch_dec(&v), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&v), -1);
	atomic_set(&v, 0x0ff0);
	KTEST_EXPECT_EQ(t, atomic_fetch_and(0x00ff, &v), 0x0ff0);
	KTEST_EXPECT_EQ(t, atomic_fetch_or(0x1001, &v), 0x00f0);
	KTEST_EXPECT_EQ(t, atomic_fetch_xor(0x0011, &v), 0x10f1);
	KTEST_EXPECT_EQ(t, atomic_fetch_andnot(0x00e0, &v), 0x10e0);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0x1000);
}

static void atomic_and_test_ops(struct ktest *t)
{
	atomic_t v = ATOMIC_INIT(2);

	KTEST_EXPECT_FALSE(t, atomic_dec_and_test(&v));
	KTEST_EXPECT_TRUE(t, atomic_dec_and_test(&v));
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0);
	KTEST_EXPECT_FALSE(t, atomic_inc_and_test(&v));
	atomic_set(&v, -1);
	KTEST_EXPECT_TRUE(t, atomic_inc_and_test(&v));
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0);
	atomic_set(&v, 7);
	KTEST_EXPECT_FALSE(t, atomic_sub_and_test(3, &v));
	KTEST_EXPECT_TRUE(t, atomic_sub_and_test(4, &v));
	KTEST_EXPECT_TRUE(t, atomic_add_negative(-1, &v));
	KTEST_EXPECT_FALSE(t, atomic_add_negative(1, &v));
}

/* Counters wrap like the hardware, at their own width. */
static void atomic_wraps_at_its_width(struct ktest *t)
{
	atomic_t v = ATOMIC_INIT(INT_MAX);
	atomic_long_t l = ATOMIC_LONG_INIT(LONG_MAX);

	KTEST_EXPECT_EQ(t, atomic_inc_return(&v), INT_MIN);
	KTEST_EXPECT_EQ(t, atomic_dec_return(&v), INT_MAX);
	atomic_add(1, &v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), INT_MIN);
	KTEST_EXPECT_EQ(t, atomic_long_inc_return(&l), LONG_MIN);
	KTEST_EXPECT_EQ(t, atomic_long_fetch_sub(1, &l), LONG_MIN);
	KTEST_EXPECT_EQ(t, atomic_long_read(&l), LONG_MAX);
	atomic_long_set(&l, -1);
	atomic_long_inc(&l);
	KTEST_EXPECT_EQ(t, atomic_long_read(&l), 0);
}

/* The long variants use every bit of a long (the .d instructions on RV64). */
static void atomic_long_ops(struct ktest *t)
{
	const long high = (long)(1UL << (BITS_PER_LONG - 2));
	atomic_long_t l = ATOMIC_LONG_INIT(high);

	atomic_long_add(high, &l);
	KTEST_EXPECT_EQ(t, atomic_long_read(&l), LONG_MIN);
	KTEST_EXPECT_EQ(t, atomic_long_sub_return(1, &l), LONG_MAX);
	KTEST_EXPECT_EQ(t, atomic_long_fetch_and(high, &l), LONG_MAX);
	KTEST_EXPECT_EQ(t, atomic_long_fetch_or(1, &l), high);
	KTEST_EXPECT_EQ(t, atomic_long_fetch_xor(high | 1, &l), high | 1);
	KTEST_EXPECT_EQ(t, atomic_long_read(&l), 0);
	KTEST_EXPECT_TRUE(t, atomic_long_add_negative(LONG_MIN, &l));
	KTEST_EXPECT_EQ(t, atomic_long_xchg(&l, high), LONG_MIN);
	KTEST_EXPECT_EQ(t, atomic_long_cmpxchg(&l, 1, 2), high);		/* fails */
	KTEST_EXPECT_EQ(t, atomic_long_read(&l), high);
	KTEST_EXPECT_EQ(t, atomic_long_cmpxchg(&l, high, LONG_MIN), high);	/* succeeds */
	KTEST_EXPECT_EQ(t, atomic_long_read(&l), LONG_MIN);
	atomic_long_set(&l, 1);
	KTEST_EXPECT_TRUE(t, atomic_long_dec_and_test(&l));
}

static void atomic_xchg_cmpxchg(struct ktest *t)
{
	atomic_t v = ATOMIC_INIT(1);
	int old = 5;

	KTEST_EXPECT_EQ(t, atomic_xchg(&v, 2), 1);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 2);
	KTEST_EXPECT_EQ(t, atomic_cmpxchg(&v, 3, 4), 2);		/* fails: no store */
	KTEST_EXPECT_EQ(t, atomic_read(&v), 2);
	KTEST_EXPECT_EQ(t, atomic_cmpxchg(&v, 2, INT_MIN), 2);	/* succeeds */
	KTEST_EXPECT_EQ(t, atomic_read(&v), INT_MIN);
	/* Bit 31 set on both sides: LR.W sign-extends on RV64 and must still match. */
	KTEST_EXPECT_EQ(t, atomic_cmpxchg(&v, INT_MIN, -1), INT_MIN);
	KTEST_EXPECT_EQ(t, atomic_read(&v), -1);
	KTEST_EXPECT_FALSE(t, atomic_try_cmpxchg(&v, &old, 6));
	KTEST_EXPECT_EQ(t, old, -1);
	KTEST_EXPECT_TRUE(t, atomic_try_cmpxchg(&v, &old, 6));
	KTEST_EXPECT_EQ(t, atomic_read(&v), 6);
}

/* xchg()/cmpxchg() on plain objects: a 32-bit one leaves its neighbour alone, a long one and a
 * pointer use their full width. */
/* atomic_fetch_add_unless (the arch's one loop on ARM and RISC-V): adds unless the value is the
 * one named, says what it found; the values with bit 31 set (RV64's lr.w sign-extends). */
static void atomic_add_unless_ops(struct ktest *t)
{
	atomic_t v = ATOMIC_INIT(5);

	KTEST_EXPECT_EQ(t, atomic_fetch_add_unless(&v, 3, 0), 5);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 8);
	KTEST_EXPECT_EQ(t, atomic_fetch_add_unless(&v, 3, 8), 8);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 8);
	KTEST_EXPECT_TRUE(t, atomic_add_unless(&v, -8, 7));
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0);
	KTEST_EXPECT_FALSE(t, atomic_inc_not_zero(&v));
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0);
	atomic_set(&v, -1);
	KTEST_EXPECT_TRUE(t, atomic_inc_not_zero(&v));
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0);
	atomic_set(&v, (int)0x80000000u);
	KTEST_EXPECT_FALSE(t, atomic_add_unless(&v, 1, (int)0x80000000u));
	KTEST_EXPECT_EQ(t, atomic_fetch_add_unless(&v, 1, 0), (int)0x80000000u);
	KTEST_EXPECT_EQ(t, atomic_read(&v), (int)0x80000001u);
}

static void xchg_cmpxchg_on_plain_objects(struct ktest *t)
{
	struct { unsigned int lo, hi; } w = { 0x80000001u, 0x5a5a5a5au };
	unsigned long big[2] = { 1, ~0UL };
	const unsigned long top = 1UL << (BITS_PER_LONG - 1);
	int a, b, *p = &a;

	KTEST_EXPECT_EQ(t, xchg(&w.lo, 0xfffffffeu), 0x80000001u);
	KTEST_EXPECT_EQ(t, w.lo, 0xfffffffeu);
	KTEST_EXPECT_EQ(t, cmpxchg(&w.lo, 0u, 1u), 0xfffffffeu);		/* fails */
	KTEST_EXPECT_EQ(t, w.lo, 0xfffffffeu);
	KTEST_EXPECT_EQ(t, cmpxchg(&w.lo, 0xfffffffeu, 7u), 0xfffffffeu);	/* succeeds */
	KTEST_EXPECT_EQ(t, w.lo, 7u);
	KTEST_EXPECT_EQ(t, w.hi, 0x5a5a5a5au);

	KTEST_EXPECT_EQ(t, xchg(&big[0], top | 2), 1UL);
	KTEST_EXPECT_EQ(t, cmpxchg(&big[0], 2UL, 3UL), top | 2);		/* fails: top bit differs */
	KTEST_EXPECT_EQ(t, big[0], top | 2);
	KTEST_EXPECT_EQ(t, cmpxchg(&big[0], top | 2, top | 3), top | 2);
	KTEST_EXPECT_EQ(t, big[0], top | 3);
	KTEST_EXPECT_EQ(t, big[1], ~0UL);

	KTEST_EXPECT_TRUE(t, xchg(&p, &b) == &a);
	KTEST_EXPECT_TRUE(t, p == &b);
	KTEST_EXPECT_TRUE(t, cmpxchg(&p, &a, NULL) == &b);
	KTEST_EXPECT_TRUE(t, cmpxchg(&p, &b, &a) == &b);
	KTEST_EXPECT_TRUE(t, p == &a);
}

/* Bits beyond the first word, at both ends of a word; guard words on both sides. */
static void atomic_bitops(struct ktest *t)
{
	unsigned long m[5] = { 0 };
	unsigned long *map = &m[1];	/* m[0] and m[4] are guards */
	const unsigned long hi = BITS_PER_LONG + 3, top = 3 * BITS_PER_LONG - 1;

	set_bit(0, map);
	set_bit(hi, map);
	set_bit(top, map);
	KTEST_EXPECT_EQ(t, map[0], 1UL);
	KTEST_EXPECT_EQ(t, map[1], 1UL << 3);
	KTEST_EXPECT_EQ(t, map[2], 1UL << (BITS_PER_LONG - 1));
	KTEST_EXPECT_TRUE(t, test_bit(hi, map));
	KTEST_EXPECT_FALSE(t, test_bit(hi + 1, map));
	KTEST_EXPECT_TRUE(t, test_bit(top, map));
	clear_bit(hi, map);
	KTEST_EXPECT_EQ(t, map[1], 0UL);
	change_bit(hi, map);
	KTEST_EXPECT_EQ(t, map[1], 1UL << 3);
	change_bit(hi, map);
	KTEST_EXPECT_EQ(t, map[1], 0UL);

	KTEST_EXPECT_FALSE(t, test_and_set_bit(hi, map));
	KTEST_EXPECT_TRUE(t, test_and_set_bit(hi, map));
	KTEST_EXPECT_EQ(t, map[1], 1UL << 3);
	KTEST_EXPECT_TRUE(t, test_and_clear_bit(hi, map));
	KTEST_EXPECT_FALSE(t, test_and_clear_bit(hi, map));
	KTEST_EXPECT_EQ(t, map[1], 0UL);
	KTEST_EXPECT_TRUE(t, test_and_change_bit(top, map));
	KTEST_EXPECT_EQ(t, map[2], 0UL);
	KTEST_EXPECT_FALSE(t, test_and_change_bit(top, map));
	KTEST_EXPECT_EQ(t, map[2], 1UL << (BITS_PER_LONG - 1));
	KTEST_EXPECT_EQ(t, map[0], 1UL);
	KTEST_EXPECT_EQ(t, m[0], 0UL);
	KTEST_EXPECT_EQ(t, m[4], 0UL);
}

static void nonatomic_bitops(struct ktest *t)
{
	unsigned long m[4] = { 0 };
	unsigned long *map = &m[1];
	const unsigned long hi = 2 * BITS_PER_LONG - 1;

	__set_bit(hi, map);
	KTEST_EXPECT_EQ(t, map[1], 1UL << (BITS_PER_LONG - 1));
	KTEST_EXPECT_TRUE(t, __test_and_set_bit(hi, map));
	KTEST_EXPECT_FALSE(t, __test_and_set_bit(5, map));
	KTEST_EXPECT_EQ(t, map[0], 1UL << 5);
	__clear_bit(5, map);
	KTEST_EXPECT_EQ(t, map[0], 0UL);
	KTEST_EXPECT_TRUE(t, __test_and_clear_bit(hi, map));
	KTEST_EXPECT_FALSE(t, __test_and_clear_bit(hi, map));
	KTEST_EXPECT_EQ(t, map[1], 0UL);
	__change_bit(BITS_PER_LONG, map);
	KTEST_EXPECT_EQ(t, map[1], 1UL);
	KTEST_EXPECT_TRUE(t, __test_and_change_bit(BITS_PER_LONG, map));
	KTEST_EXPECT_FALSE(t, __test_and_change_bit(BITS_PER_LONG, map));
	KTEST_EXPECT_EQ(t, map[1], 1UL);
	KTEST_EXPECT_EQ(t, m[0], 0UL);
	KTEST_EXPECT_EQ(t, m[3], 0UL);
}

/* Each barrier executes (an encoding this CPU does not accept would trap) and the ordered
 * accessors move the value. */
static void barriers_execute(struct ktest *t)
{
	int x = 0;

	mb();
	rmb();
	wmb();
	smp_mb();
	smp_rmb();
	smp_wmb();
	smp_mb__before_atomic();
	smp_mb__after_atomic();
	smp_store_release(&x, 42);
	KTEST_EXPECT_EQ(t, smp_load_acquire(&x), 42);
}

static const struct ktest_case atomic_cases[] = {
	KTEST_CASE(atomic_relaxed_ops),
	KTEST_CASE(atomic_returning_ops),
	KTEST_CASE(atomic_and_test_ops),
	KTEST_CASE(atomic_wraps_at_its_width),
	KTEST_CASE(atomic_long_ops),
	KTEST_CASE(atomic_xchg_cmpxchg),
	KTEST_CASE(atomic_add_unless_ops),
	KTEST_CASE(xchg_cmpxchg_on_plain_objects),
	KTEST_CASE(atomic_bitops),
	KTEST_CASE(nonatomic_bitops),
	KTEST_CASE(barriers_execute),
	{ 0 },
};
KTEST_SUITE(atomic, atomic_cases);
