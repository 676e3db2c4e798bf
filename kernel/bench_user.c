/*
 * bench_user.c - the system-call row of `make bench` (docs/benchmarks.md; see kernel/bench.c for
 * how instructions are counted):
 *   syscall-getpid   one getpid() from user mode and back: the trap entry, the table, the
 *                    call, the return to U-mode.  The architecture's user program
 *                    (arch_bench_getpid_prog, include/tinymm/bench.h) runs N of them in a loop.
 * A sample is two runs of the program in a fresh user task: with N calls and with none, each
 * from the instant before arch_ret_to_user() to the instant its waiter wakes from the join;
 * everything but the calls (exec-like setup, exit, the switches) is the same in both and
 * cancels: (T(N) - T(0)) / N, less the loop's own instructions.  Built only where the
 * architecture has its program (arch/<arch>/bench_user.c, cmake/kernel.cmake); elsewhere
 * kernel/bench.c finds bench_user() missing (weak) and leaves the row out.
 * Locking: none; the user task is set up by hand, as the `usermode` KTAP suite does.
 */

#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/irqflags.h"
#include "tinymm/mmap.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"

#define NR_CALLS	200
#define NR_RUNS		15
#define SETUP_FAILED	0x7e00

static struct {
	const struct bench_user_prog *prog;
	unsigned long count;
	uint64_t start;
} run;

static int bench_user_thread(void *unused)
{
	struct mm_struct *mm = mm_alloc();
	unsigned long flags;
	long r;

	(void)unused;
	if (!mm)
		return SETUP_FAILED;
	local_irq_save(flags);
	current->mm = mm;
	switch_mm(active_mm, mm);
	active_mm = mm;
	local_irq_restore(flags);
	mutex_lock(&mm->mmap_lock);
	r = mmap_region(mm, BENCH_USER_BASE, 2 * PAGE_SIZE, VM_READ | VM_WRITE | VM_EXEC, NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	if (r != (long)BENCH_USER_BASE ||
	    copy_to_user((void __user *)BENCH_USER_BASE, run.prog->code,
			 run.prog->ninsns * sizeof(uint32_t)) ||
	    put_user(run.count, (unsigned long __user *)BENCH_USER_COUNT))
		do_exit(SETUP_FAILED);
	start_thread(current_pt_regs(), BENCH_USER_BASE, BENCH_USER_BASE + 2 * PAGE_SIZE);
	run.start = arch_instret();
	arch_ret_to_user();
}

/* One run with @count calls: its instructions, or 0 if it did not end with exit_group(0). */
static uint64_t run_once(unsigned long count)
{
	struct task_struct *p;
	int status;

	run.count = count;
	p = kthread_run(bench_user_thread, NULL, "bench-getpid");
	if (!p)
		return 0;
	status = kthread_join(p);
	if (status != 0) {
		kprintf("bench: the syscall-getpid program ended with status %#x\n", status);
		return 0;
	}
	return arch_instret() - run.start;
}

int bench_user(void)
{
	static uint32_t samples[NR_RUNS];

	run.prog = arch_bench_getpid_prog();
	if (!run.prog)
		return 0;
	for (int i = 0; i < NR_RUNS; i++) {
		uint64_t with = run_once(NR_CALLS), without = run_once(0);

		if (!with || !without || with < without)
			return 1;
		samples[i] = (uint32_t)((with - without + NR_CALLS / 2) / NR_CALLS);
	}
	bench_summary("syscall-getpid", samples, NR_RUNS, run.prog->loop_insns);
	return 0;
}
