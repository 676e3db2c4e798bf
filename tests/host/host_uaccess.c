/*
 * host_uaccess.c - the host's raw_copy_from_user / raw_copy_to_user (include/tinymm/uaccess.h):
 * no MMU and no user mode, so the copy walks current->mm's fake page tables in software, page
 * by page, as a hardware walk with the user bit checked would: a pte that is missing, not
 * user-accessible, or read-only for a write is a fault, resolved by do_user_addr_fault() exactly
 * as the boards' exception fixups do (demand paging), and a fault that cannot be resolved ends
 * the copy with the bytes left.  Host tests of exec and the system calls run through it.
 * The walk sets no accessed or dirty bit itself: an old pte, or a clean one for a write, is a
 * fault too, as on a RISC-V hart without hardware A/D updating (Svade) or ARM LPAE's Access flag
 * fault, so the fault core's young path (docs/young.md) runs here under the sanitizers.
 */
#include <string.h>
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/sched.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"

/* The kernel address of user byte @addr for an access (@write), faulting it in; NULL: EFAULT. */
static void *user_byte(unsigned long addr, bool write)
{
	struct mm_struct *mm = current ? current->mm : NULL;

	if (!mm)
		return NULL;
	for (int tries = 0; tries < 3; tries++) {
		pte_t pte = __pte(0);
		int si_code;

		spin_lock(&mm->page_table_lock);
		pte_t *ptep = user_pte_lookup(mm, addr);
		if (ptep)
			pte = ptep_get(ptep);
		spin_unlock(&mm->page_table_lock);
		if (pte_present(pte) && (pte_val(pte) & _PAGE_USER) && pte_young(pte) &&
		    (!write || (pte_write(pte) && pte_dirty(pte))))
			return (char *)__va(PFN_PHYS(pte_pfn(pte))) + (addr & (PAGE_SIZE - 1));
		/* A kernel access: FAULT_FLAG_USER is not set (v6.10 sets it for user mode only). */
		if (do_user_addr_fault(addr, write ? FAULT_FLAG_WRITE : 0, &si_code))
			return NULL;
	}
	return NULL;
}

static unsigned long copy_user(void *kbuf, unsigned long uaddr, unsigned long n, bool write)
{
	while (n) {
		unsigned long chunk = PAGE_SIZE - (uaddr & (PAGE_SIZE - 1));
		char *p = user_byte(uaddr, write);

		if (chunk > n)
			chunk = n;
		if (!p)
			return n;
		if (write)
			memcpy(p, kbuf, chunk);
		else
			memcpy(kbuf, p, chunk);
		kbuf = (char *)kbuf + chunk;
		uaddr += chunk;
		n -= chunk;
	}
	return 0;
}

unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	return copy_user(to, (unsigned long)from, n, false);
}

unsigned long raw_copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return copy_user((void *)from, (unsigned long)to, n, true);
}
