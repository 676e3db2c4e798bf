/*
 * trap_ktest.c - trap reporting, BUG/panic/WARN, and recovery into the test runner (suite `trap`).
 * Each case provokes the event under KTEST_EXPECT_BUG and checks the first report line.
 */
#include "tinymm/bug.h"
#include "tinymm/kallsyms.h"
#include "tinymm/ktest.h"

/* Through a volatile pointer: the compiler may neither warn about nor drop the access. */
static unsigned long read_at(uintptr_t a)
{
	volatile unsigned long *volatile p = (volatile unsigned long *)a;

	return *p;
}

static void write_at(uintptr_t a)
{
	volatile unsigned long *volatile p = (volatile unsigned long *)a;

	*p = 1;
}

static bool reported(const char *a, const char *b)
{
	const char *s = ktest_last_bug();

	return strstr(s, a) || (b && strstr(s, b));
}

/* Address 0 faults on every board: the user half of the kernel's tables is empty (docs/mmu.md). */
static void null_read_traps(struct ktest *t)
{
	KTEST_EXPECT_BUG(t, read_at(0));
	KTEST_EXPECT_TRUE(t, reported("data abort: translation fault (level 1) on read at 0x00000000",
				      "load page fault at 0x0"));
}

static void null_write_traps(struct ktest *t)
{
	KTEST_EXPECT_BUG(t, write_at(0));
	KTEST_EXPECT_TRUE(t, reported("data abort: translation fault (level 1) on write at 0x00000000",
				      "store/AMO page fault at 0x0"));
}

static void trap_instruction_traps(struct ktest *t)
{
	/* gcc emits the architecture's permanently undefined (ARM udf) or breakpoint (RISC-V ebreak). */
	KTEST_EXPECT_BUG(t, __builtin_trap());
	KTEST_EXPECT_TRUE(t, reported("undefined instruction", "breakpoint"));
}

static void bug_on_is_reported_with_file_and_line(struct ktest *t)
{
	volatile int x = 1;

	KTEST_EXPECT_BUG(t, BUG_ON(x == 1));
	KTEST_EXPECT_TRUE(t, reported("kernel BUG at tests/ktest/trap_ktest.c:", NULL));
}

static void panic_is_reported(struct ktest *t)
{
	KTEST_EXPECT_BUG(t, panic("test panic %d", 42));
	KTEST_EXPECT_STREQ(t, ktest_last_bug(), "test panic 42");
}

static void warn_on_returns_condition_and_goes_on(struct ktest *t)
{
	unsigned long before = nr_warnings();
	volatile int x = 3;

	KTEST_EXPECT_FALSE(t, WARN_ON(x == 4));
	KTEST_EXPECT_EQ(t, nr_warnings(), before);
	KTEST_EXPECT_TRUE(t, WARN_ON(x == 3));
	KTEST_EXPECT_EQ(t, nr_warnings(), before + 1);
}

static void warn_on_once_reports_once(struct ktest *t)
{
	unsigned long before = nr_warnings();
	int fired = 0;

	for (int i = 0; i < 3; i++)
		fired += WARN_ON_ONCE(i >= 0);
	KTEST_EXPECT_EQ(t, fired, 3);			/* the condition, every time */
	KTEST_EXPECT_EQ(t, nr_warnings(), before + 1);	/* the report, once */
}

static void symbols_resolve(struct ktest *t)
{
	unsigned long off, size;
	const char *name = kallsyms_lookup((unsigned long)symbols_resolve + 4, &off, &size);

	KTEST_EXPECT_STREQ(t, name, "symbols_resolve");
	KTEST_EXPECT_EQ(t, off, 4);
	KTEST_EXPECT_GT(t, size, 4);
	KTEST_EXPECT_TRUE(t, kallsyms_lookup(0, NULL, NULL) == NULL);
}

static const struct ktest_case trap_cases[] = {
	KTEST_CASE(null_read_traps),
	KTEST_CASE(null_write_traps),
	KTEST_CASE(trap_instruction_traps),
	KTEST_CASE(bug_on_is_reported_with_file_and_line),
	KTEST_CASE(panic_is_reported),
	KTEST_CASE(warn_on_returns_condition_and_goes_on),
	KTEST_CASE(warn_on_once_reports_once),
	KTEST_CASE(symbols_resolve),
	{ 0 },
};
KTEST_SUITE(trap, trap_cases);

/* An unexpected trap inside a case fails that case, and the run goes on (explicit-only: it fails). */
static void traps_unexpectedly(struct ktest *t)
{
	read_at(0);
}

static void runs_after_the_trap(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, 1, 1);
}

static const struct ktest_case trap_in_test_cases[] = {
	KTEST_CASE(traps_unexpectedly),
	KTEST_CASE(runs_after_the_trap),
	{ 0 },
};
KTEST_SUITE_EXPLICIT(ktest_trap_in_test, trap_in_test_cases);
