/*
 * exit.c - do_exit(): a task's end (include/tinymm/user_task.h).  The address space goes first:
 * the task switches to the kernel's tables (init_mm, whose user half is empty) so that no CPU
 * state refers to what mmput() frees; then its files (the fd table's owner releases them:
 * exit_files, fs/file.c, once it exists); then its children lose their parent (exit_notify);
 * then kthread_exit() hands @status to the waiter: the parent that forked it (wait4/waitid
 * below) or the shell's kthread_join.
 *
 * Waiting (v6.10's do_wait, reduced, docs/fork.md): a task's children are on its ->children
 * list from fork until reaped; an ended child stays there as a zombie (its task_struct, with
 * its exit code, held by the parent's reference) until wait4/waitid reaps it: the reference
 * dropped, the status and pid returned.  A parent that ends first leaves its children to the
 * kernel: each is detached and freed when it ends (tinymm has no init to reparent them to).
 * The waiter sleeps until a child's kthread_exit() wakes it (the child's ->joiner is its
 * parent).
 * Locking: the family links, and ->mm going NULL, change under tasklist_lock; ->exited is set by the child with a
 * full barrier before it wakes its waiter (kthread_exit()), and read under that lock.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/errno.h"
#include "tinymm/fork.h"
#include "tinymm/irqflags.h"
#include "tinymm/pgtable.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/syscalls.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"

void exit_files(struct task_struct *tsk) __attribute__((weak));

__noreturn void do_exit(long status)
{
	struct task_struct *tsk = current;
	struct mm_struct *mm = tsk->mm;

	if (mm) {
		unsigned long flags;

		/* Under tasklist_lock: a for_each_task() walker (swapoff's, the OOM killer's) that
		 * sees ->mm may take a reference, the task's own still holding it. */
		spin_lock_irqsave(&tasklist_lock, flags);
		tsk->mm = NULL;
		if (active_mm == mm) {
			switch_mm(mm, &init_mm);
			active_mm = &init_mm;
		}
		spin_unlock_irqrestore(&tasklist_lock, flags);
		mmput(mm);
	}
	if (tsk->files && exit_files)
		exit_files(tsk);
	exit_notify();
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

/* v6.10's forget_original_parent() without a reaper to hand them to: each child is detached
 * (the parent's reference dropped), so it frees itself when it ends, or now if it already has. */
void exit_notify(void)
{
	struct task_struct *tsk = current, *c, *n;
	struct list_head orphans = LIST_HEAD_INIT(orphans);
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry_safe(c, n, &tsk->children, sibling) {
		list_move_tail(&c->sibling, &orphans);
		c->parent = NULL;
		WRITE_ONCE(c->joiner, NULL);	/* nobody to wake */
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	list_for_each_entry_safe(c, n, &orphans, sibling) {
		list_del_init(&c->sibling);
		put_task_struct(c);
	}
}

/* v6.10's wait options (include/uapi/linux/wait.h). */
#define WNOHANG		0x00000001
#define WUNTRACED	0x00000002
#define WSTOPPED	WUNTRACED
#define WEXITED		0x00000004
#define WCONTINUED	0x00000008
#define WNOWAIT		0x01000000
#define __WNOTHREAD	0x20000000
#define __WALL		0x40000000
#define __WCLONE	0x80000000U
#define P_ALL		0
#define P_PID		1
#define P_PGID		2
#define P_PIDFD		3

#define WAIT_ANY	(-1)	/* any child */
#define WAIT_NONE	(-2)	/* no child can match (a process group: tinymm has none) */

struct wait_result {
	int pid, status;
};

/*
 * v6.10's do_wait(): a child matching @pid (WAIT_ANY, or a pid) that has ended is reaped
 * (WNOWAIT: only looked at) and its pid returned, with its status in @res; 0 with WNOHANG when
 * matching children exist but none has ended; -ECHILD when none matches.  Every child of ours
 * was forked with SIGCHLD, so a wait for "clone" children only (__WCLONE without __WALL) finds
 * none, as v6.10's eligible_child() says.  Only exits are reported (no stop or continue in
 * tinymm): without WEXITED, matching children are waited for forever, as v6.10 would.
 */
static long do_wait(int pid, unsigned int options, struct wait_result *res)
{
	struct task_struct *tsk = current;

	if ((options & __WCLONE) && !(options & __WALL))
		pid = WAIT_NONE;
	for (;;) {
		struct task_struct *c, *zombie = NULL;
		bool any = false;
		unsigned long flags;

		set_current_state(TASK_UNINTERRUPTIBLE);
		spin_lock_irqsave(&tasklist_lock, flags);
		list_for_each_entry(c, &tsk->children, sibling) {
			if (pid == WAIT_NONE || (pid != WAIT_ANY && c->pid != pid))
				continue;
			any = true;
			if ((options & WEXITED) && READ_ONCE(c->exited)) {
				zombie = c;
				break;
			}
		}
		if (zombie && !(options & WNOWAIT)) {
			list_del_init(&zombie->sibling);
			zombie->parent = NULL;
		}
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (!any || zombie || (options & WNOHANG)) {
			__set_current_state(TASK_RUNNING);
			if (!any)
				return -ECHILD;
			if (!zombie)
				return 0;
			res->pid = zombie->pid;
			res->status = zombie->exit_code;
			if (!(options & WNOWAIT))
				put_task_struct(zombie);	/* reaped: the parent's reference */
			return res->pid;
		}
		schedule();		/* a child's kthread_exit() wakes us */
	}
}

/* Linux's struct rusage is 18 longs on these ABIs (two old timevals of two longs, 14 longs):
 * tinymm accounts nothing per child, so a reaped child's usage is all zero. */
#define RUSAGE_BYTES	(18 * sizeof(long))

static int put_rusage_zero(void __user *ru)
{
	static const long zero[18];

	return copy_to_user(ru, zero, RUSAGE_BYTES) ? -EFAULT : 0;
}

/* wait4(pid, status, options, rusage), v6.10's kernel_wait4: pid -1 any child, > 0 that child,
 * 0 any child of the caller's process group (every task is in one group here), < -1 a group
 * tinymm does not have (-ECHILD). */
long sys_wait4(int pid, int __user *stat_addr, int options, void __user *ru)
{
	struct wait_result res;
	long ret;

	if ((unsigned int)options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (pid == INT_MIN)
		return -ESRCH;		/* v6.10: -INT_MIN overflows */
	ret = do_wait(pid == -1 || pid == 0 ? WAIT_ANY : pid < 0 ? WAIT_NONE : pid,
		      (unsigned int)options | WEXITED, &res);
	if (ret > 0 && stat_addr && copy_to_user(stat_addr, &res.status, sizeof(res.status)))
		return -EFAULT;
	if (ret > 0 && ru && put_rusage_zero(ru))
		return -EFAULT;
	return ret;
}

/* The siginfo_t fields waitid fills (v6.10's): the union starts after three ints, aligned to
 * a pointer (offset 12 on 32-bit, 16 on 64-bit); _sigchld is pid, uid, status there. */
struct waitid_info {
	int si_signo, si_errno, si_code;
	union {
		struct {
			int si_pid, si_uid, si_status;
		} sigchld;
		void *align;
	};
};

/* waitid(which, id, infop, options, rusage), v6.10's: P_ALL any child, P_PID that one (id >
 * 0), P_PGID the caller's group (id 0; every task is in one) or another (-ECHILD); P_PIDFD
 * and anything else -EINVAL (tinymm has no pidfds).  0 on success, infop filled (all zero
 * when WNOHANG found nothing ended). */
long sys_waitid(int which, int upid, void __user *infop, int options, void __user *ru)
{
	struct waitid_info info;
	struct wait_result res;
	int pid;
	long ret;

	if ((unsigned int)options & ~(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED |
				      __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;
	switch (which) {
	case P_ALL:
		pid = WAIT_ANY;
		break;
	case P_PID:
		if (upid <= 0)
			return -EINVAL;
		pid = upid;
		break;
	case P_PGID:
		if (upid < 0)
			return -EINVAL;
		pid = upid == 0 ? WAIT_ANY : WAIT_NONE;
		break;
	default:
		return -EINVAL;
	}
	ret = do_wait(pid, (unsigned int)options, &res);
	if (ret < 0)
		return ret;
	memset(&info, 0, sizeof(info));
	if (ret > 0) {
		info.si_signo = SIGCHLD;
		info.si_code = WIFEXITED(res.status) ? CLD_EXITED : CLD_KILLED;
		info.sigchld.si_pid = res.pid;
		info.sigchld.si_status = WIFEXITED(res.status) ? WEXITSTATUS(res.status) :
								WTERMSIG(res.status);
		if (ru && put_rusage_zero(ru))
			return -EFAULT;
	}
	if (infop && copy_to_user(infop, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}
