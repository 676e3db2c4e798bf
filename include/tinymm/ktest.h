/*
 * ktest.h - in-kernel tests in the spirit of KUnit, printed as KTAP version 1.
 *
 * A suite is a table of cases declared next to the code it tests:
 *
 *	static void memblock_merges(struct ktest *t) { KTEST_EXPECT_EQ(t, memblock_count(), 1); }
 *	static const struct ktest_case memblock_cases[] = { KTEST_CASE(memblock_merges), {} };
 *	KTEST_SUITE(memblock, memblock_cases);
 *
 * EXPECT records a failure and goes on; ASSERT records it and returns from the case.  Both print
 * file:line and both values.  KTEST_SUITE_EXPLICIT declares a suite that `*` does not select
 * (the one that exists to fail, slow ones): it runs only when named.
 */
#ifndef TINYMM_KTEST_H
#define TINYMM_KTEST_H

#include <setjmp.h>
#include <string.h>
#include "kernel.h"

enum ktest_status { KTEST_PASS, KTEST_FAIL, KTEST_SKIP };

struct ktest {
	const char *name;
	enum ktest_status status;
	const char *skip_reason;
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;
	bool explicit_only;
	bool smp;	/* runs on any CPU; else its thread (and threads it creates) on CPU 0 */
};

#define KTEST_CASE(fn) { #fn, fn }

#define __KTEST_SUITE(_name, _cases, _explicit, _smp)					\
	static const struct ktest_suite __ktest_suite_##_name __used			\
	__section(TABLE_SECTION_ktest_suites(_name)) __attribute__((aligned(sizeof(void *)))) =	\
		{ #_name, _cases, _explicit, _smp }
#define KTEST_SUITE(_name, _cases)		__KTEST_SUITE(_name, _cases, false, false)
#define KTEST_SUITE_EXPLICIT(_name, _cases)	__KTEST_SUITE(_name, _cases, true, false)
/* A suite written for several CPUs: its thread is not kept on CPU 0 (kernel/ktest.c). */
#define KTEST_SUITE_SMP(_name, _cases)		__KTEST_SUITE(_name, _cases, false, true)

#ifdef TINYMM_HOST
/* Host builds have no linker script: the linker's own __start_/__stop_ symbols bound the section
 * (which is why the section name there is a plain identifier). */
#define __ktest_suites_start __start_ktest_suites
#define __ktest_suites_end __stop_ktest_suites
extern const struct ktest_suite __ktest_suites_start[] __attribute__((weak)), __ktest_suites_end[] __attribute__((weak));
#define TABLE_SECTION_ktest_suites(name) "ktest_suites"
#else
extern const struct ktest_suite __ktest_suites_start[], __ktest_suites_end[];
#define TABLE_SECTION_ktest_suites(name) ".ktest_suites." #name
#endif

/* Report a failed check; used by the macros. */
void ktest_fail_int(struct ktest *t, const char *file, int line, const char *expr_a,
		    const char *op, const char *expr_b, long long a, long long b);
void ktest_fail_str(struct ktest *t, const char *file, int line, const char *expr_a,
		    const char *expr_b, const char *a, const char *b);
void ktest_fail_msg(struct ktest *t, const char *file, int line, const char *msg);
void ktest_skip(struct ktest *t, const char *reason);

#define __KTEST_CMP(t, a, op, b, onfail)						\
	do {										\
		long long __a = (long long)(a), __b = (long long)(b);			\
		if (!(__a op __b)) {							\
			ktest_fail_int(t, __FILE__, __LINE__, #a, #op, #b, __a, __b);	\
			onfail;								\
		}									\
	} while (0)
#define KTEST_EXPECT_EQ(t, a, b)	__KTEST_CMP(t, a, ==, b, (void)0)
#define KTEST_EXPECT_NE(t, a, b)	__KTEST_CMP(t, a, !=, b, (void)0)
#define KTEST_EXPECT_LT(t, a, b)	__KTEST_CMP(t, a, <, b, (void)0)
#define KTEST_EXPECT_LE(t, a, b)	__KTEST_CMP(t, a, <=, b, (void)0)
#define KTEST_EXPECT_GT(t, a, b)	__KTEST_CMP(t, a, >, b, (void)0)
#define KTEST_EXPECT_GE(t, a, b)	__KTEST_CMP(t, a, >=, b, (void)0)
#define KTEST_EXPECT_TRUE(t, x)		__KTEST_CMP(t, !!(x), ==, 1, (void)0)
#define KTEST_EXPECT_FALSE(t, x)	__KTEST_CMP(t, !!(x), ==, 0, (void)0)
#define KTEST_ASSERT_EQ(t, a, b)	__KTEST_CMP(t, a, ==, b, return)
#define KTEST_ASSERT_NE(t, a, b)	__KTEST_CMP(t, a, !=, b, return)
#define KTEST_ASSERT_TRUE(t, x)		__KTEST_CMP(t, !!(x), ==, 1, return)
#define KTEST_ASSERT_FALSE(t, x)	__KTEST_CMP(t, !!(x), ==, 0, return)
#define KTEST_ASSERT_LE(t, a, b)	__KTEST_CMP(t, a, <=, b, return)
#define KTEST_ASSERT_GT(t, a, b)	__KTEST_CMP(t, a, >, b, return)
#define KTEST_EXPECT_STREQ(t, a, b)							\
	do {										\
		const char *__a = (a), *__b = (b);					\
		if (!__a || !__b || strcmp(__a, __b))					\
			ktest_fail_str(t, __FILE__, __LINE__, #a, #b, __a, __b);	\
	} while (0)

/*
 * KTEST_EXPECT_BUG(t, stmt): run @stmt expecting it to end in BUG(), panic() or a CPU trap (a
 * bad access, an undefined instruction); the case fails if @stmt returns normally.  The first
 * line of what was reported ("kernel BUG at ...", "Unhandled exception: data abort ...") is
 * kept in ktest_last_bug() for checks.  Outside an expectation, such an event inside a case
 * marks the case "not ok" and the run goes on with the next case.
 * Built on setjmp/longjmp: @stmt must not hold locks or leave interrupts masked when it dies.
 */
struct ktest_recovery {
	jmp_buf jb;
	struct ktest_recovery *prev;
	bool hit;
	/* Restored when a bug lands here: the bug may have struck with a spinlock held or
	 * interrupts masked.  Only the thread that armed it (owner) may land here. */
	unsigned int preempt_count;
	unsigned long irqflags;
	const void *owner;
};
void ktest_recovery_push(struct ktest_recovery *r);
bool ktest_recovery_pop(struct ktest_recovery *r);	/* true if a bug ended the guarded code */
const char *ktest_last_bug(void);
/*
 * For panic(), BUG() and trap handlers: if a recovery point is armed, record @reason, unlink it
 * and return it (the caller longjmps to it, after leaving any exception mode); else NULL.
 */
struct ktest_recovery *ktest_recovery_take(const char *reason);

#define KTEST_EXPECT_BUG(t, stmt)							\
	do {										\
		struct ktest_recovery __rec;						\
		ktest_recovery_push(&__rec);						\
		if (!setjmp(__rec.jb)) {						\
			stmt;								\
		}									\
		if (!ktest_recovery_pop(&__rec))					\
			ktest_fail_msg(t, __FILE__, __LINE__,				\
				       "expected BUG/panic/trap from: " #stmt);		\
	} while (0)

/* Run every suite whose name matches @glob ('*' and '?'; '*' never selects explicit-only suites
 * unless the glob names them exactly).  Prints KTAP and the totals line; returns the number of
 * failed cases (0 = all passed or skipped), or -1 if no suite matched. */
int ktest_run(const struct ktest_suite *start, const struct ktest_suite *end, const char *glob);

/* '*' matches any run of characters, '?' one character. */
bool glob_match(const char *pattern, const char *s);

struct mm_struct;
/* ptep_clear_flush_young() on @addr's pte in @mm, with mmap_lock and the pte lock held as an
 * rmap walk would hold them: -1 with no area or no pte table, 0 or 1 as it returns, 2 when
 * the pte is young again right after (read under the same lock, which keeps a user task of @mm
 * off the CPU); with @test_only, just whether the pte is young.  tests/ktest/young_ktest.c,
 * for the suites that age user pages (young, both architectures' usermode). */
int ktest_clear_flush_young(struct mm_struct *mm, unsigned long addr, bool test_only);

#endif
