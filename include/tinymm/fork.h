/*
 * fork.h - fork (clone with SIGCHLD semantics) and waiting for children: docs/fork.md.
 *
 *   dup_mm(oldmm, &err)        a copy of @oldmm for a child: every area, and the ptes of the
 *                              areas with anonymous pages, shared copy-on-write (mm/fork_mm.c);
 *                              NULL with err -ENOMEM, nothing left behind
 *   copy_page_range(dst, src)  the ptes of area @src copied into @dst (both mmap_locks held)
 *   kernel_clone(&err)         the current user task forked: the child runs, returning 0 to
 *                              user mode; the child's pid, or -errno (kernel/fork.c)
 *   exit_notify()              the exiting task's children lose their parent: each is reaped
 *                              by the kernel when it ends (kernel/exit.c; tinymm has no init)
 * Locking: may sleep; the family links (task_struct parent/children/sibling) change with
 * interrupts masked (one CPU), like the task list.
 */
#ifndef TINYMM_FORK_H
#define TINYMM_FORK_H

#include "mm_fault.h"
#include "sched.h"

struct mm_struct *dup_mm(struct mm_struct *oldmm, int *err);
int copy_page_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma);
long kernel_clone(void);
void exit_notify(void);

#endif
