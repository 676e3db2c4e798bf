/*
 * lockdep_ktest.c - suite "lockdep" (explicit: its inversions print reports on purpose): the
 * lock-order checker (kernel/lockdep.c) reports a lock taken in both orders once, with both
 * acquisition points; nesting in one order, or two locks of one class, reports nothing; the
 * mutex and the folio lock take part; lockdep_assert_held() warns a caller without the lock,
 * lockdep_assert_folio_locked() one without the folio lock.
 * tests/qemu/lockdep.cmake boots it and expects the report lines.
 */
#include "tinymm/gfp.h"
#include "tinymm/ktest.h"
#include "tinymm/lockdep.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/spinlock.h"
#include "tinymm/writeback.h"

/* Each init call site is a class of its own. */
static void init_ab(spinlock_t *a, spinlock_t *b)
{
	spin_lock_init(a);
	spin_lock_init(b);
}

static void __attribute__((noinline)) take_a_then_b(spinlock_t *a, spinlock_t *b)
{
	spin_lock(a);
	spin_lock(b);
	spin_unlock(b);
	spin_unlock(a);
}

static void __attribute__((noinline)) take_b_then_a(spinlock_t *a, spinlock_t *b)
{
	spin_lock(b);
	spin_lock(a);
	spin_unlock(a);
	spin_unlock(b);
}

static void inversion_reported_once(struct ktest *t)
{
	spinlock_t a, b;
	unsigned long before = lockdep_nr_reports();
	unsigned int deps = lockdep_nr_dependencies();

	init_ab(&a, &b);
	take_a_then_b(&a, &b);
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), before);
	KTEST_EXPECT_EQ(t, lockdep_nr_dependencies(), deps + 1);
	take_b_then_a(&a, &b);		/* prints the report */
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), before + 1);
	take_b_then_a(&a, &b);		/* the same pair: once */
	take_a_then_b(&a, &b);
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), before + 1);
	KTEST_EXPECT_FALSE(t, lock_is_held(&a) || lock_is_held(&b));
}

static void same_order_nesting_is_quiet(struct ktest *t)
{
	spinlock_t a, b, same[3];
	unsigned long before = lockdep_nr_reports();

	init_ab(&a, &b);
	for (int i = 0; i < 3; i++)
		take_a_then_b(&a, &b);
	for (int i = 0; i < 3; i++)
		spin_lock_init(&same[i]);		/* one site: one class */
	spin_lock(&a);
	for (int i = 0; i < 3; i++)
		spin_lock(&same[i]);
	KTEST_EXPECT_TRUE(t, lock_is_held(&same[2]));
	for (int i = 2; i >= 0; i--)
		spin_unlock(&same[i]);
	spin_unlock(&a);
	spin_lock(&same[1]);			/* the class in another order among itself */
	spin_lock(&same[0]);
	spin_unlock(&same[0]);
	spin_unlock(&same[1]);
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), before);
}

static void mutex_and_folio_lock_take_part(struct ktest *t)
{
	struct mutex m;
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	unsigned long before = lockdep_nr_reports();

	KTEST_ASSERT_TRUE(t, folio != NULL);
	mutex_init(&m);
	mutex_lock(&m);
	folio_lock(folio);
	KTEST_EXPECT_TRUE(t, lock_is_held(folio) && lock_is_held(&m));
	folio_unlock(folio);
	mutex_unlock(&m);
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), before);
	folio_lock(folio);
	mutex_lock(&m);			/* the other order: reported */
	mutex_unlock(&m);
	folio_unlock(folio);
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), before + 1);
	KTEST_EXPECT_FALSE(t, lock_is_held(folio) || lock_is_held(&m));
	folio_put(folio);
}

static DEFINE_SPINLOCK(assert_lock);

static volatile int assert_calls;

static void __attribute__((noinline)) needs_assert_lock(void)
{
	lockdep_assert_held(&assert_lock);
	assert_calls++;		/* after the report: no tail call, the report names this function */
}

static void assert_held_warns_without_the_lock(struct ktest *t)
{
	unsigned long before = nr_warnings();

	spin_lock(&assert_lock);
	needs_assert_lock();
	spin_unlock(&assert_lock);
	KTEST_EXPECT_EQ(t, nr_warnings(), before);
	needs_assert_lock();		/* "WARNING: ... needs_assert_lock() called without ..." */
	KTEST_EXPECT_EQ(t, nr_warnings(), before + 1);
}

/* folio_clear_dirty_for_io() wants the folio locked: a clean folio in no mapping, so the call
 * changes nothing either way. */
static void assert_folio_locked_warns_unlocked(struct ktest *t)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	unsigned long before = nr_warnings();

	KTEST_ASSERT_TRUE(t, folio != NULL);
	folio_lock(folio);
	KTEST_EXPECT_FALSE(t, folio_clear_dirty_for_io(folio));
	folio_unlock(folio);
	KTEST_EXPECT_EQ(t, nr_warnings(), before);
	/* "WARNING: ... folio_clear_dirty_for_io() called without folio_lock(folio) held" */
	KTEST_EXPECT_FALSE(t, folio_clear_dirty_for_io(folio));
	KTEST_EXPECT_EQ(t, nr_warnings(), before + 1);
	KTEST_EXPECT_FALSE(t, folio_test_locked(folio) || folio_test_dirty(folio));
	/* An unlock of an unlocked folio: one warning, and the folio is not locked by it (the
	 * unlock's XOR of PG_locked would set the bit). */
	folio_unlock(folio);
	KTEST_EXPECT_EQ(t, nr_warnings(), before + 2);
	KTEST_EXPECT_FALSE(t, folio_test_locked(folio));
	folio_put(folio);
}

static const struct ktest_case lockdep_cases[] = {
	KTEST_CASE(inversion_reported_once),
	KTEST_CASE(same_order_nesting_is_quiet),
	KTEST_CASE(mutex_and_folio_lock_take_part),
	KTEST_CASE(assert_held_warns_without_the_lock),
	KTEST_CASE(assert_folio_locked_warns_unlocked),
	{}
};
KTEST_SUITE_EXPLICIT(lockdep, lockdep_cases);
