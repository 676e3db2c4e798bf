/*
 * fork.c - a user address space's life: mm_alloc(), mmget(), mmput() (include/tinymm/user_task.h).
 * tinymm has no fork() yet (a later issue): the name is Linux's home for these.
 * Layout of a new mm: user space [0, TASK_SIZE), mmap areas searched down from mmap_base, which
 * leaves MMAP_GAP below the top for the stack (exec puts it at the top), as Linux's top-down
 * layout keeps its stack gap.
 */
#include <string.h>
#include "tinymm/mm_fault.h"
#include "tinymm/slab.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"

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

void mmput(struct mm_struct *mm)
{
	if (!atomic_dec_and_test(&mm->mm_users))
		return;
	WARN_ON(mm == active_mm);	/* its tables are live: switch_mm away first */
	exit_mmap(mm);
	/* After the areas: the program's file backs them (exec, mm->exe_file). */
	if (mm->exe_file)
		vfs_close(mm->exe_file);
	kfree(mm);
}
