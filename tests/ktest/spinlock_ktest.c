/*
 * spinlock_ktest.c - suite "spinlock": interrupt masking through nested save/restore, the
 * lock/unlock/trylock states, the owner the debug checks record, and that re-locking a held
 * lock is a BUG rather than a silent hang.  The host runs the same suite
 * (tests/host/spinlock_test.c).
 * Interrupts are masked at boot; the nesting cases unmask them briefly.  Nothing is programmed
 * to interrupt yet (no timer, no GIC/PLIC set up, RISC-V sie = 0), so no interrupt can arrive.
 */
#include "tinymm/ktest.h"
#include "tinymm/irqflags.h"
#include "tinymm/spinlock.h"

static DEFINE_SPINLOCK(test_lock);

static void irqsave_nests(struct ktest *t)
{
	unsigned long boot, outer, inner;

	local_irq_save(boot);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	local_irq_enable();
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	local_irq_save(outer);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	KTEST_EXPECT_FALSE(t, irqs_disabled_flags(outer));
	local_irq_save(inner);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	KTEST_EXPECT_TRUE(t, irqs_disabled_flags(inner));
	local_irq_restore(inner);
	KTEST_EXPECT_TRUE(t, irqs_disabled());	/* still inside the outer section */
	local_irq_restore(outer);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	local_irq_disable();
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	local_irq_restore(boot);
}

static void spin_lock_irqsave_nests(struct ktest *t)
{
	DEFINE_SPINLOCK(a);
	DEFINE_SPINLOCK(b);
	unsigned long boot, fa, fb;

	local_irq_save(boot);
	local_irq_enable();
	spin_lock_irqsave(&a, fa);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	spin_lock_irqsave(&b, fb);
	KTEST_EXPECT_TRUE(t, spin_is_locked(&a) && spin_is_locked(&b));
	spin_unlock_irqrestore(&b, fb);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	KTEST_EXPECT_FALSE(t, spin_is_locked(&b));
	spin_unlock_irqrestore(&a, fa);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	KTEST_EXPECT_FALSE(t, spin_is_locked(&a));
	spin_lock_irq(&a);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	spin_unlock_irq(&a);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	local_irq_restore(boot);
}

static void lock_unlock_trylock(struct ktest *t)
{
	spinlock_t l;

	spin_lock_init(&l);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&l));
	spin_lock(&l);
	KTEST_EXPECT_TRUE(t, spin_is_locked(&l));
	assert_spin_locked(&l);
	KTEST_EXPECT_EQ(t, spin_trylock(&l), 0);	/* held: fails, and is no recursion */
	spin_unlock(&l);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&l));
	KTEST_EXPECT_EQ(t, spin_trylock(&l), 1);
	KTEST_EXPECT_TRUE(t, spin_is_locked(&l));
	spin_unlock(&l);
	/* A static lock, many times: the tickets keep matching. */
	int first = atomic_read(&test_lock.raw_lock.next);

	for (int i = 0; i < 1000; i++) {
		spin_lock(&test_lock);
		spin_unlock(&test_lock);
	}
	KTEST_EXPECT_FALSE(t, spin_is_locked(&test_lock));
	KTEST_EXPECT_EQ(t, atomic_read(&test_lock.raw_lock.next) - first, 1000);
}

static void assert_spin_locked_bugs_when_free(struct ktest *t)
{
	DEFINE_SPINLOCK(l);

	KTEST_EXPECT_BUG(t, assert_spin_locked(&l));
}

#if TINYMM_DEBUG_SPINLOCK
/* Not inlined: its own address bounds the return address spin_lock() records. */
static __attribute__((noinline, noclone)) void lock_here(spinlock_t *l)
{
	spin_lock(l);
	barrier();	/* keeps the call from becoming a tail call */
}

static void owner_is_recorded(struct ktest *t)
{
	DEFINE_SPINLOCK(l);
	unsigned long pc, fn = (unsigned long)lock_here;

	KTEST_EXPECT_EQ(t, l.owner_cpu, -1);
	KTEST_EXPECT_TRUE(t, l.owner == NULL);
	KTEST_EXPECT_STREQ(t, l.name, "l");
	lock_here(&l);
	pc = (unsigned long)l.owner;
	KTEST_EXPECT_GT(t, pc, fn);
	KTEST_EXPECT_LT(t, pc, fn + 256);
	KTEST_EXPECT_EQ(t, l.owner_cpu, 0);
	spin_unlock(&l);
	KTEST_EXPECT_EQ(t, l.owner_cpu, -1);
	KTEST_EXPECT_TRUE(t, l.owner == NULL);
}

static void recursion_is_a_bug(struct ktest *t)
{
	DEFINE_SPINLOCK(l);

	spin_lock(&l);
	KTEST_EXPECT_BUG(t, spin_lock(&l));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "kernel BUG at") != NULL);
	/* The report came before any waiting: the lock is held once, as before. */
	KTEST_EXPECT_EQ(t, atomic_read(&l.raw_lock.next), 1);
	spin_unlock(&l);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&l));
}

/* Reported (with a call trace) and skipped, so the lock still works afterwards. */
static void unlocking_a_free_lock_is_ignored(struct ktest *t)
{
	DEFINE_SPINLOCK(l);

	spin_unlock(&l);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&l));
	KTEST_EXPECT_EQ(t, atomic_read(&l.raw_lock.owner), 0);
	spin_lock(&l);
	KTEST_EXPECT_TRUE(t, spin_is_locked(&l));
	spin_unlock(&l);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&l));
}

static void bad_magic_is_ignored(struct ktest *t)
{
	spinlock_t l = { .raw_lock = { ATOMIC_INIT(3), ATOMIC_INIT(0) } };	/* never initialised */

	spin_lock(&l);		/* would wait for ticket 3 forever */
	KTEST_EXPECT_EQ(t, atomic_read(&l.raw_lock.next), 3);
	KTEST_EXPECT_EQ(t, spin_trylock(&l), 0);
	spin_unlock(&l);
	KTEST_EXPECT_EQ(t, atomic_read(&l.raw_lock.owner), 0);
}
#endif

static const struct ktest_case spinlock_cases[] = {
	KTEST_CASE(irqsave_nests),
	KTEST_CASE(spin_lock_irqsave_nests),
	KTEST_CASE(lock_unlock_trylock),
	KTEST_CASE(assert_spin_locked_bugs_when_free),
#if TINYMM_DEBUG_SPINLOCK
	KTEST_CASE(owner_is_recorded),
	KTEST_CASE(recursion_is_a_bug),
	KTEST_CASE(unlocking_a_free_lock_is_ignored),
	KTEST_CASE(bad_magic_is_ignored),
#endif
	{ 0 },
};
KTEST_SUITE(spinlock, spinlock_cases);
