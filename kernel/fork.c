/*
 * fork.c - a user address space's life: mm_alloc(), mmget(), mmput() (include/tinymm/user_task.h),
 * and fork itself: clone with SIGCHLD semantics (kernel_clone, include/tinymm/fork.h,
 * docs/fork.md).  The child is a new thread with a copy of the parent's mm (dup_mm,
 * mm/fork_mm.c: anonymous pages shared copy-on-write), of its fd table (dup_fd) and of its user
 * registers (arch_dup_task_regs: the system call returns 0 in the child); its first run goes
 * straight back to user mode.  The parent gets the child's pid and reaps it with wait4/waitid
 * (kernel/exit.c).  Only SIGCHLD semantics: no CLONE_* sharing flags, no new stack or thread
 * pointer, anything else -EINVAL (docs/syscalls.md).
 * Layout of a new mm: user space [0, TASK_SIZE), mmap areas searched down from mmap_base, which
 * leaves MMAP_GAP below the top for the stack (exec puts it at the top), as Linux's top-down
 * layout keeps its stack gap.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/errno.h"
#include "tinymm/file.h"
#include "tinymm/fork.h"
#include "tinymm/irqflags.h"
#include "tinymm/mm_fault.h"
#include "tinymm/printk.h"
#include "tinymm/signal.h"
#include "tinymm/slab.h"
#include "tinymm/syscalls.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"

/* The task's kernel stack: a user task's (kernel/user_task.c; the host's tests build with more). */
#ifndef USER_TASK_STACK_ORDER
#define USER_TASK_STACK_ORDER	THREAD_SIZE_ORDER
#endif

#define MMAP_GAP	(128UL << 20)	/* v6.10's MIN_GAP: 128 MiB */

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	spin_lock_init(&mm->page_table_lock);
	mm_init_vmas(mm, TASK_SIZE, TASK_SIZE - MMAP_GAP);
	atomic_set(&mm->mm_users, 1);
	if (mm_alloc_pgd(mm)) {
		kfree(mm);
		return NULL;
	}
	return mm;
}

void mmget(struct mm_struct *mm)
{
	atomic_inc(&mm->mm_users);
}

/* v6.10's check_mm(): every mapping counted in was counted out (mm/oom_kill.c weighs them). */
static void check_mm(struct mm_struct *mm)
{
	static const char *const resident_page_types[NR_MM_COUNTERS] = {
		"MM_FILEPAGES", "MM_ANONPAGES", "MM_SWAPENTS", "MM_SHMEMPAGES",
	};

	for (int i = 0; i < NR_MM_COUNTERS; i++) {
		long x = get_mm_counter(mm, i);

		if (unlikely(x))
			printk(KERN_ALERT "BUG: Bad rss-counter state mm:%p type:%s val:%ld\n", (void *)mm,
				 resident_page_types[i], x);
	}
	if (mm_pgtables_bytes(mm))
		printk(KERN_ALERT "BUG: non-zero pgtables_bytes on freeing mm: %ld\n",
			 (long)mm_pgtables_bytes(mm));
}

/* On a CPU (here, or another through an IPI), interrupts masked: stop using @info's tables if
 * they are the live ones there. */
static void leave_mm(void *info)
{
	struct mm_struct *mm = info;

	if (active_mm == mm) {
		switch_mm(mm, &init_mm);
		active_mm = &init_mm;
	}
}

void mmput(struct mm_struct *mm)
{
	if (!atomic_dec_and_test(&mm->mm_users))
		return;
	WARN_ON(current && current->mm == mm);	/* a task dropping the mm it runs on */
	/* No task uses @mm now, but a CPU may still have its tables live: a kernel thread ran
	 * there after its last task (v6.10's lazy TLB mm), this CPU or another.  Each leaves
	 * them before they are freed. */
	unsigned long flags;
	local_irq_save(flags);
	leave_mm(mm);
	local_irq_restore(flags);
	if (NR_CPUS > 1 && num_online_cpus() > 1) {
		preempt_disable();
		smp_call_function_many(cpu_online_mask, leave_mm, mm, true);
		preempt_enable();
	}
	exit_mmap(mm);
	check_mm(mm);
	/* After the areas: the program's file backs them (exec, mm->exe_file). */
	if (mm->exe_file)
		vfs_close(mm->exe_file);
	kfree(mm);
}

/* The child's first run (kthread_entry calls it, interrupts on): its registers were copied
 * by the parent (arch_dup_task_regs), its mm and files set; back to user mode, where the clone
 * call returns 0 (v6.10's ret_from_fork). */
static int fork_child_main(void *unused)
{
	(void)unused;
	arch_ret_to_user();
}

/* v6.10's kernel_clone() for SIGCHLD semantics (copy_process without the sharing flags). */
long kernel_clone(void)
{
	struct task_struct *tsk = current, *p;
	struct files_struct *files;
	struct mm_struct *mm;
	unsigned long flags;
	int err;

	if (!tsk->mm || !current_pt_regs())
		return -EINVAL;			/* a kernel thread, or no user mode here */
	mm = dup_mm(tsk->mm, &err);
	if (!mm)
		return err;
	files = dup_fd(tsk, &err);
	if (!files) {
		mmput(mm);
		return err;
	}
	p = kthread_create_opts(fork_child_main, NULL, tsk->comm, tsk->prio, USER_TASK_STACK_ORDER);
	if (!p) {
		free_files_struct(files);
		mmput(mm);
		return -ENOMEM;
	}
	arch_dup_task_regs(p);
	p->flags &= ~PF_KTHREAD;	/* a user task from its first instruction */
	p->mm = mm;
	p->files = files;
	spin_lock_irqsave(&tasklist_lock, flags);
	p->parent = tsk;
	p->joiner = tsk;		/* kthread_exit() wakes the parent: its wait looks again */
	list_add_tail(&p->sibling, &tsk->children);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	wake_up_process(p);
	return p->pid;			/* @p is ours until reaped: the creator's reference */
}

/* v6.10's clone flags this call understands: the exit signal in the low byte. */
#define CSIGNAL		0x000000ff

/*
 * clone(flags, newsp, parent_tid, tls, child_tid) (the argument order of ARM and RISC-V,
 * CONFIG_CLONE_BACKWARDS; only the first two are looked at): flags must be exactly SIGCHLD and
 * newsp 0 (the child runs on a copy of the parent's stack); with no CLONE_SETTLS, tls is
 * ignored and the child keeps the parent's thread pointer, as v6.10 does; no CLONE_*TID flag,
 * so the tid pointers are ignored too.  Anything else -EINVAL.
 */
long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       unsigned long tls, int __user *child_tidptr)
{
	(void)parent_tidptr, (void)tls, (void)child_tidptr;
	if (clone_flags != SIGCHLD || newsp)
		return -EINVAL;
	return kernel_clone();
}

/* ARM EABI's fork (v6.10's sys_fork): clone(SIGCHLD, 0). */
long sys_fork(void)
{
	return kernel_clone();
}
