/*
 * traps_ktest.c - suite `riscv_bad_stack` (RISC-V only, explicit: it ends the machine): the
 * trap entry's stack check (entry.S) exercised directly.  A thread named "bad-sp" moves
 * sp to 16 bytes above its stack's bottom, less than a trap frame, and executes ebreak: the
 * entry must not push the frame there but move to the overflow stack and report `Kernel stack
 * overflow` naming the thread (traps.c, handle_bad_stack), then power off with status 1.  The
 * same path is reached by the store into the guard page that an overflowing thread makes on its
 * vmalloc stack: `fault stack` (<board>.fault.stack_overflow) checks that one.
 */
#include "tinymm/ktest.h"
#include "tinymm/sched.h"

static int bad_sp_fn(void *arg)
{
	unsigned long low = (unsigned long)current->stack + 16;

	(void)arg;
	__asm__ __volatile__("mv sp, %0\n\tebreak" : : "r"(low) : "memory");
	return 0;	/* not reached: the trap report powers off */
}

static void trap_with_sp_below_a_frame(struct ktest *t)
{
	struct task_struct *p = kthread_run(bad_sp_fn, NULL, "bad-sp");

	KTEST_ASSERT_TRUE(t, p != NULL);
	kthread_join(p);	/* never returns */
	KTEST_EXPECT_TRUE(t, false);
}

static const struct ktest_case bad_stack_cases[] = {
	KTEST_CASE(trap_with_sp_below_a_frame),
	{}
};
KTEST_SUITE_EXPLICIT(riscv_bad_stack, bad_stack_cases);
