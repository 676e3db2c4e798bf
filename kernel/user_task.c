/*
 * user_task.c - user_task_spawn() (include/tinymm/exec.h): a user task is a kernel thread that
 * execs.  The thread calls kernel_execve() and, if that worked, enters user mode through
 * arch_ret_to_user() with the registers start_thread() set; a failed exec ends the thread and
 * the error goes back to the caller, who waits for the verdict (a completion), as v6.10's
 * kernel_init() turns itself into /sbin/init with kernel_execve().
 * The child's files: a new fd table with fds 0, 1, 2 on the console (fs/file.c,
 * alloc_files_for_task), released by do_exit (exit_files).
 * Locking: may sleep.
 */
#include "tinymm/arch.h"
#include "tinymm/completion.h"
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/file.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"

/* The task's kernel stack: a kernel thread's (the host's tests build with more, for ASan). */
#ifndef USER_TASK_STACK_ORDER
#define USER_TASK_STACK_ORDER	THREAD_SIZE_ORDER
#endif

struct spawn_req {
	const char *path;
	const char *const *argv, *const *envp;
	int err;
	struct completion done;
};

static int user_task_main(void *data)
{
	struct spawn_req *req = data;
	int err = alloc_files_for_task(current);	/* fds 0, 1, 2 on the console */

	if (!err)
		err = kernel_execve(req->path, req->argv, req->envp);
	req->err = err;
	complete(&req->done);		/* @req is the caller's: not touched after this */
	if (err) {
		exit_files(current);
		return err;
	}
	arch_ret_to_user();
}

struct task_struct *user_task_spawn(const char *path, const char *const argv[],
				    const char *const envp[], int *err)
{
	struct spawn_req req = { .path = path, .argv = argv, .envp = envp };
	struct task_struct *p;

	init_completion(&req.done);
	p = kthread_create_opts(user_task_main, &req, "exec", DEFAULT_PRIO, USER_TASK_STACK_ORDER);
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	wake_up_process(p);
	wait_for_completion(&req.done);
	if (req.err) {
		kthread_join(p);
		*err = req.err;
		return NULL;
	}
	*err = 0;
	return p;
}

/*
 * Stand-ins where nothing implements user mode (include/tinymm/arch.h, "User mode"): an
 * architecture without it, and the host tests that link the system-call table but no user
 * mode.  current_pt_regs() NULL makes kernel_execve() load and check the program, free it and
 * fail with -ENOSYS, so the others are never called.  The architecture's (or a test's) strong
 * definitions replace them.
 */
__attribute__((weak)) struct pt_regs *current_pt_regs(void)
{
	return NULL;
}

__attribute__((weak)) void start_thread(struct pt_regs *regs, unsigned long pc, unsigned long sp)
{
	(void)regs, (void)pc, (void)sp;
}

__attribute__((weak)) void arch_dup_task_regs(struct task_struct *p)
{
	(void)p;
}

__attribute__((weak)) __noreturn void arch_ret_to_user(void)
{
	do_exit(SIGKILL);
}

/* Without the architecture's uaccess (arch/<arch>/uaccess.S) no user memory exists to copy:
 * every byte is "not copied" (EFAULT). */
__attribute__((weak)) unsigned long raw_copy_from_user(void *to, const void __user *from,
							unsigned long n)
{
	(void)to, (void)from;
	return n;
}

__attribute__((weak)) unsigned long raw_copy_to_user(void __user *to, const void *from,
						      unsigned long n)
{
	(void)to, (void)from;
	return n;
}
