/*
 * exit.c - do_exit(): a task's end (include/tinymm/user_task.h).  The address space goes first:
 * the task switches to the kernel's tables (init_mm, whose user half is empty) so that no CPU
 * state refers to what mmput() frees; then its files (the fd table's owner releases them:
 * exit_files, fs/file.c, once it exists); then kthread_exit() hands @status to the waiter.
 */
#include "tinymm/arch.h"
#include "tinymm/irqflags.h"
#include "tinymm/pgtable.h"
#include "tinymm/sched.h"
#include "tinymm/syscalls.h"
#include "tinymm/user_task.h"

void exit_files(struct task_struct *tsk) __attribute__((weak));

__noreturn void do_exit(long status)
{
	struct task_struct *tsk = current;
	struct mm_struct *mm = tsk->mm;

	if (mm) {
		unsigned long flags;

		local_irq_save(flags);
		tsk->mm = NULL;
		if (active_mm == mm) {
			switch_mm(mm, &init_mm);
			active_mm = &init_mm;
		}
		local_irq_restore(flags);
		mmput(mm);
	}
	if (tsk->files && exit_files)
		exit_files(tsk);
	kthread_exit((int)status);
}

__noreturn long sys_exit(int error_code)
{
	do_exit(W_EXITCODE(error_code, 0));
}

/* One thread per process: the group is the task. */
__noreturn long sys_exit_group(int error_code)
{
	do_exit(W_EXITCODE(error_code, 0));
}
