/*
 * usermode_run.c - turn the current kernel thread into a user task running one of
 * usermode_progs.S's programs, by hand (what exec will do from a file): for the `usermode`
 * suite and the syscall-getpid bench.  The layout (usermode_progs.h): anonymous areas at
 * 0x10000 (code), 0x11000 (data), 0x12000 (read-only), 0x13000 (data, left untouched) and a
 * stack page below 0x21000.  The code is copied with copy_to_user() (its first store
 * demand-pages the area through an STRT fault), the area made R+X with mprotect, then the
 * D-cache is cleaned to the PoU and the I-cache invalidated for it by the user address (QEMU
 * has no caches to disagree, real cores do; maintenance by address never faults on
 * permissions).
 */
#include <asm/ptrace.h>
#include "tinymm/arch.h"
#include "tinymm/cacheflush.h"
#include "tinymm/irqflags.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/sched.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"
#include "usermode_progs.h"

#define MAY	(VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)

static bool map(struct mm_struct *mm, unsigned long addr, unsigned long flags)
{
	return mmap_region(mm, addr, PAGE_SIZE, flags | MAY, NULL, 0) == (long)addr;
}

int arm_usermode_setup(const unsigned char *code, const unsigned char *code_end, uint32_t data0,
		       volatile uint32_t **data_alias)
{
	struct mm_struct *mm = mm_alloc();
	unsigned long len = (unsigned long)(code_end - code);
	pte_t pte = __pte(0), *ptep;
	bool ok;

	if (!mm)
		return -1;
	kthread_use_mm(mm);

	mutex_lock(&mm->mmap_lock);
	ok = map(mm, USERMODE_CODE, VM_READ | VM_WRITE) && map(mm, USERMODE_DATA, VM_READ | VM_WRITE) &&
	     map(mm, USERMODE_RO, VM_READ) && map(mm, USERMODE_DATA2, VM_READ | VM_WRITE) &&
	     map(mm, USERMODE_STACK_TOP - PAGE_SIZE, VM_READ | VM_WRITE);
	mutex_unlock(&mm->mmap_lock);
	if (!ok)
		return -2;
	/* Nothing is mapped yet: each copy faults its page in through do_user_addr_fault. */
	if (copy_to_user((void __user *)USERMODE_CODE, code, len) ||
	    copy_to_user((void __user *)USERMODE_DATA, &data0, sizeof(data0)))
		return -3;
	mutex_lock(&mm->mmap_lock);
	ok = mprotect_fixup_range(mm, USERMODE_CODE, USERMODE_CODE + PAGE_SIZE, VM_READ | VM_EXEC) == 0;
	mutex_unlock(&mm->mmap_lock);
	if (!ok)
		return -4;
	flush_icache_range(USERMODE_CODE, USERMODE_CODE + len);

	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, USERMODE_DATA);
	if (ptep)
		pte = *ptep;
	spin_unlock(&mm->page_table_lock);
	if (!pte_present(pte))
		return -5;
	*data_alias = page_address(pfn_to_page(pte_pfn(pte)));
	return 0;
}

__noreturn void arm_usermode_enter(void)
{
	start_thread(current_pt_regs(), USERMODE_CODE, USERMODE_STACK_TOP);
	arch_ret_to_user();
}
