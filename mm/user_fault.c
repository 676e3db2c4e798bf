/*
 * user_fault.c - do_user_addr_fault() (include/tinymm/user_task.h): the generic half of a page
 * fault at a user address, v6.10's lock_mm_and_find_vma() + handle_mm_fault() + the signal
 * choice of the architectures' do_page_fault().  The architecture decodes the trap into an
 * address and FAULT_FLAG_* and kills the task with the signal returned, in its own words.
 * VM_FAULT_OOM runs pagefault_out_of_memory() (mm/oom_kill.c) and the fault is retried; a task
 * the OOM killer chose (fatal_signal_pending) is not faulted for any more: a fault from user
 * mode returns 0 and the architecture's exit to user mode ends the task by its SIGKILL, a
 * uaccess fault gets its fixup (-EFAULT), as v6.10's do_page_fault does on a fatal signal.
 * VM_FAULT_HWPOISON (a hwpoison entry, docs/hwpoison.md) is SIGBUS with BUS_MCEERR_AR and x86's
 * "MCE: Killing" line on every architecture (v6.10's arm64 sends the same signal silently).
 * Where tinymm differs: no stack growth (the stack area is made at its full size by exec).
 * Locking: takes current->mm->mmap_lock; may sleep (reading a file page, the OOM killer).
 */
#include "tinymm/mm_fault.h"
#include "tinymm/oom.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/user_task.h"

/* A task the OOM killer chose: a user-mode fault returns to the exit path, which takes the
 * SIGKILL (no fault report: v6.10 prints none for a fatal signal); a uaccess fault its fixup. */
static int oom_killed(unsigned int flags, int *si_code)
{
	*si_code = 0;
	return (flags & FAULT_FLAG_USER) ? 0 : SIGKILL;
}

/* A fault handle_mm_fault() refused: the signal (or the OOM killer and a retry).  Out of
 * line and cold, so the common fault's frame saves only what its own few lines need. */
static __attribute__((noinline, cold)) int fault_error(vm_fault_t fault, unsigned long addr,
							unsigned int flags, int *si_code)
{
	if (fault & VM_FAULT_OOM) {
		if (fatal_signal_pending(current))
			return oom_killed(flags, si_code);
		/* v6.10: a kernel-mode fault has no context to retry in: the fixup (EFAULT). */
		if (!(flags & FAULT_FLAG_USER)) {
			*si_code = 0;
			return SIGKILL;
		}
		pagefault_out_of_memory();
		/* Retried (0), or taken on the way out if the killer chose this task. */
		return fatal_signal_pending(current) ? oom_killed(flags, si_code) : 0;
	}
	if (fault & VM_FAULT_HWPOISON) {
		/* A page memory_failure() took from under this task (late kill, v6.10's default):
		 * x86's do_sigbus() line and signal; the address is the faulting one.  A user copy
		 * in the kernel only fails (its fixup: -EFAULT), as x86's kernel-mode fixup. */
		if (flags & FAULT_FLAG_USER)
			printk(KERN_ERR "MCE: Killing %s:%d due to hardware memory corruption fault "
			       "at %lx\n", current->comm, current->pid, addr);
		*si_code = BUS_MCEERR_AR;
		return SIGBUS;
	}
	if (fault & VM_FAULT_SIGBUS) {
		*si_code = BUS_ADRERR;
		return SIGBUS;
	}
	*si_code = SEGV_ACCERR;
	return SIGSEGV;
}

int do_user_addr_fault(unsigned long addr, unsigned int flags, int *si_code)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	vm_fault_t fault;

	*si_code = SEGV_MAPERR;
	if (!mm || addr >= mm->task_size)
		return SIGSEGV;
	if (fatal_signal_pending(current))
		return oom_killed(flags, si_code);
	mutex_lock(&mm->mmap_lock);
	vma = vma_lookup(mm, addr);
	if (!vma) {
		mutex_unlock(&mm->mmap_lock);
		return SIGSEGV;
	}
	fault = handle_mm_fault(vma, addr, flags);
	mutex_unlock(&mm->mmap_lock);
	if (likely(!(fault & VM_FAULT_ERROR)))
		return 0;
	return fault_error(fault, addr, flags, si_code);
}
