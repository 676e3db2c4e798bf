/*
 * user_fault.c - do_user_addr_fault() (include/tinymm/user_task.h): the generic half of a page
 * fault at a user address, v6.10's lock_mm_and_find_vma() + handle_mm_fault() + the signal
 * choice of the architectures' do_page_fault().  The architecture decodes the trap into an
 * address and FAULT_FLAG_* and kills the task with the signal returned, in its own words.
 * Where tinymm differs: no stack growth (the stack area is made at its full size by exec), and
 * VM_FAULT_OOM kills the faulting task at once (v6.10 runs the OOM killer, a later issue).
 * VM_FAULT_HWPOISON (a hwpoison entry, docs/hwpoison.md) is SIGBUS with BUS_MCEERR_AR and x86's
 * "MCE: Killing" line on every architecture (v6.10's arm64 sends the same signal silently).
 * Locking: takes current->mm->mmap_lock; may sleep (reading a file page).
 */
#include "tinymm/mm_fault.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/user_task.h"

int do_user_addr_fault(unsigned long addr, unsigned int flags, int *si_code)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	vm_fault_t fault;

	*si_code = SEGV_MAPERR;
	if (!mm || addr >= mm->task_size)
		return SIGSEGV;
	mutex_lock(&mm->mmap_lock);
	vma = vma_lookup(mm, addr);
	if (!vma) {
		mutex_unlock(&mm->mmap_lock);
		return SIGSEGV;
	}
	fault = handle_mm_fault(vma, addr, flags);
	mutex_unlock(&mm->mmap_lock);
	if (!(fault & VM_FAULT_ERROR))
		return 0;
	if (fault & VM_FAULT_OOM) {
		printk(KERN_ERR "Out of memory: %s[%d] killed: no memory for a page at 0x%lx\n",
		       current->comm, current->pid, addr);
		*si_code = 0;
		return SIGKILL;
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
