/*
 * bench_exec.c - the exec row of `make bench` (docs/benchmarks.md; kernel/bench.c says how
 * instructions are counted):
 *   exec-hello   /bin/hello run as the shell's `exec` runs it: user_task_spawn() (a thread, its
 *                fd table, kernel_execve: the file opened and checked, the mm built, the stack
 *                written), the program's own run (its page faults, its one write(2) of
 *                "hello from /bin/hello", exit_group), do_exit (the mm and files freed), and
 *                the waiter's wake-up from kthread_join().  Whole-system instructions
 *                (arch_instret), so the switches and anything else that ran are in it too.
 * Needs /bin/hello: tools/bench boots the virt boards with the root filesystem
 * (tools/run --rootfs); without the file, or when the disk fails with EIO mid-run (a loaded host
 * under -icount, below), the row is left out, said in one line.
 * Locking: none (may sleep).
 */
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"

#define NR_RUNS		15
#define HELLO		"/bin/hello"

int bench_exec(void)
{
	static const char *const argv[] = { HELLO, NULL }, *const envp[] = { NULL };
	static uint32_t samples[NR_RUNS];
	struct kstat st;

	if (vfs_stat(HELLO, &st, true)) {
		kprintf("bench: exec-hello left out: no " HELLO " (boot with the root filesystem)\n");
		return 0;
	}
	for (int i = 0; i < NR_RUNS; i++) {
		uint64_t t0 = arch_instret();
		struct task_struct *p;
		int err, status;

		p = user_task_spawn(HELLO, argv, envp, &err);
		if (!p && err == -EIO) {
			/* The disk failed under us: tools/bench's -icount with sleep=off can run the
			 * virtual clock past virtio-blk's 30 s timeout while a loaded host keeps QEMU's
			 * I/O thread waiting (the driver has said so).  Not exec's fault: left out. */
			kprintf("bench: exec-hello left out: %s: %s (the disk failed)\n", HELLO,
				exec_strerror(err));
			return 0;
		}
		if (!p) {
			kprintf("bench: exec-hello: %s: %s\n", HELLO, exec_strerror(err));
			return 1;
		}
		status = kthread_join(p);
		samples[i] = (uint32_t)(arch_instret() - t0);
		if (status) {
			kprintf("bench: exec-hello: " HELLO " ended with status %#x\n", status);
			return 1;
		}
	}
	bench_summary("exec-hello", samples, NR_RUNS, 0);
	return 0;
}
