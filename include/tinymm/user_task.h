/*
 * user_task.h - the life of a user task: its mm (kernel/fork.c), its end (kernel/exit.c), and
 * the generic half of a page fault from user mode (mm/user_fault.c).
 *
 *   mm_alloc()          a new, empty user address space with its own root table; NULL without
 *                       memory.  One reference (mm_users).
 *   mmget(mm) / mmput(mm)  references; the last mmput() frees every page, table and area
 *                       (exit_mmap) and the mm.  Never mmput() the active mm (switch away first).
 *   do_exit(status)     the current task ends with Linux's wait status @status ((code & 0xff)
 *                       << 8 for exit(code), the signal number for a kill): its mm and files
 *                       are released and its waiter (kthread_join) gets @status.
 *   do_user_addr_fault(addr, flags, &si_code)  a fault at user address @addr (FAULT_FLAG_*):
 *                       0 when resolved or to be retried (memory ran out: the OOM killer ran,
 *                       mm/oom_kill.c; a task it chose dies on its way back to user mode),
 *                       else the signal that kills the task (SIGSEGV with SEGV_MAPERR or
 *                       SEGV_ACCERR, SIGBUS; SIGKILL for a uaccess fault that found no memory,
 *                       which only takes the fixup) and its si_code.  The architectures' trap
 *                       handlers call it for faults from user mode and for uaccess faults in
 *                       the kernel.
 */
#ifndef TINYMM_USER_TASK_H
#define TINYMM_USER_TASK_H

#include "kernel.h"

struct mm_struct;

struct mm_struct *mm_alloc(void);
void mmget(struct mm_struct *mm);
void mmput(struct mm_struct *mm);

__noreturn void do_exit(long status);

int do_user_addr_fault(unsigned long addr, unsigned int flags, int *si_code);

/* Linux's wait-status encoding. */
#define W_EXITCODE(ret, sig)	(((ret) & 0xff) << 8 | (sig))
#define WIFEXITED(s)		(((s) & 0x7f) == 0)
#define WEXITSTATUS(s)		(((s) >> 8) & 0xff)
#define WTERMSIG(s)		((s) & 0x7f)

#endif
