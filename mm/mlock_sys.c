/*
 * mlock_sys.c - VM_LOCKED areas: mlock, mlock2(MLOCK_ONFAULT), munlock, mlockall
 * (MCL_CURRENT|MCL_FUTURE|MCL_ONFAULT), munlockall, and mm_populate() which faults their pages
 * in; Linux v6.10's mm/mlock.c area half and mm/gup.c's __mm_populate.  The folio half
 * (PG_mlocked, the unevictable list) is mm/mlock.c; docs/mlock.md has the whole picture.
 *
 * An area's VM_LOCKED changes here only: its present pages are mlocked or munlocked by a walk
 * of its ptes (v6.10's mlock_vma_pages_range), and pages faulted in later are mlocked by the
 * fault (folio_add_lru_vma, folio_add_file_rmap_pte), pages unmapped munlocked by the zap
 * (folio_remove_rmap_pte).  Then mlock populates: every page of a VM_LOCKED area without
 * VM_LOCKONFAULT is faulted in, a private writable one with a write fault so no copy-on-write
 * is left to break later (v6.10's FOLL_WRITE); VM_LOCKONFAULT areas lock only what faults in.
 * Errors as v6.10: a length that wraps -EINVAL, bad flags -EINVAL, a range with unmapped pages
 * -ENOMEM, no memory to fault everything in -EAGAIN (what was faulted in stays locked, munlock
 * releases it), a page that cannot be faulted in (PROT_NONE, past the end of the file) -ENOMEM.
 *
 * Invariants: mm->locked_vm is the number of pages in VM_LOCKED areas (vma_check); VM_LOCKONFAULT
 * only with VM_LOCKED; mm->def_flags holds at most VM_LOCKED|VM_LOCKONFAULT, neither inherited
 * by fork (dup_mmap clears them in the child's areas) nor exec (a new mm).
 * Locking: mmap_lock held across the flag change, the walk and the populate (v6.10 drops it to
 * populate and takes it again for reading; tinymm's is one mutex, and a fault wants it held);
 * page_table_lock around each pte read.
 *
 * Where tinymm differs from v6.10, and why: a range with a hole is refused whole (-ENOMEM
 * before anything changes), as tinymm's mprotect does, where v6.10 locks the areas up to the
 * hole first; there is no RLIMIT_MEMLOCK (every task is root, which v6.10 lets past it with
 * CAP_IPC_LOCK); no VM_SPECIAL areas exist, so none are skipped.
 */
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/mlock.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/sched.h"
#include "tinymm/swap.h"
#include "tinymm/syscalls.h"
#include "tinymm/uapi/mman.h"
#include "internal.h"

/* Every present page of [start, end) in @vma mlocked or munlocked as its new flags say
 * (v6.10's mlock_pte_range). */
static void mlock_pte_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	bool lock = vma->vm_flags & VM_LOCKED;
	unsigned long addr = start;

	if (!mm->pgd)
		return;
	while (addr < end) {
		unsigned long next = pmd_addr_end(addr, end);
		pte_t *pte;

		spin_lock(&mm->page_table_lock);
		pte = user_pte_lookup(mm, addr);
		for (; pte && addr < next; addr += PAGE_SIZE, pte++) {
			pte_t v = ptep_get(pte);
			struct page *page;

			if (!pte_present(v))
				continue;
			page = pfn_to_page(pte_pfn(v));
			if (!page)
				continue;
			if (lock)
				mlock_folio(page_folio(page));
			else
				munlock_folio(page_folio(page));
		}
		spin_unlock(&mm->page_table_lock);
		addr = next;
	}
}

/* One whole area takes @newflags (v6.10's mlock_fixup after the split). */
static void mlock_fixup(struct vm_area_struct *vma, unsigned long newflags)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long oldflags = vma->vm_flags;

	if (newflags == oldflags)
		return;
	if ((newflags & VM_LOCKED) && !(oldflags & VM_LOCKED))
		mm->locked_vm += vma_pages(vma);
	else if (!(newflags & VM_LOCKED) && (oldflags & VM_LOCKED))
		mm->locked_vm -= vma_pages(vma);
	WRITE_ONCE(vma->vm_flags, newflags);
	/* Locked before and after (only VM_LOCKONFAULT changed): the pages already are. */
	if ((newflags & VM_LOCKED) && (oldflags & VM_LOCKED))
		return;
	lru_add_drain();	/* folios in the lru_add batch get a list to move from */
	mlock_pte_range(vma, vma->vm_start, vma->vm_end);
	lru_add_drain();	/* and the mlock batch: Mlocked and Unevictable exact on return */
}

int apply_vma_lock_flags(struct mm_struct *mm, unsigned long start, unsigned long len,
			 unsigned long flags)
{
	unsigned long end = start + len, at = start;
	int first, last, err;

	lockdep_assert_held(&mm->mmap_lock);
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	/* Every page mapped, or nothing changes (see the header). */
	for (struct vm_area_struct *vma = find_vma(mm, at); at < end; vma = find_vma(mm, at)) {
		if (!vma || vma->vm_start > at)
			return -ENOMEM;
		at = vma->vm_end;
	}
	err = vma_isolate_range(mm, start, end, &first, &last);
	if (err)
		return err;
	for (int i = first; i <= last; i++)
		mlock_fixup(mm->vmas[i], (mm->vmas[i]->vm_flags & ~VM_LOCKED_MASK) | flags);
	vma_merge_range(mm, first, last);
	return 0;
}

int apply_mlockall_flags(struct mm_struct *mm, int flags)
{
	unsigned long to_add = 0;

	lockdep_assert_held(&mm->mmap_lock);
	mm->def_flags &= ~VM_LOCKED_MASK;
	if (flags & LINUX_MCL_FUTURE) {
		mm->def_flags |= VM_LOCKED;
		if (flags & LINUX_MCL_ONFAULT)
			mm->def_flags |= VM_LOCKONFAULT;
		if (!(flags & LINUX_MCL_CURRENT))
			return 0;
	}
	if (flags & LINUX_MCL_CURRENT) {
		to_add |= VM_LOCKED;
		if (flags & LINUX_MCL_ONFAULT)
			to_add |= VM_LOCKONFAULT;
	}
	for (int i = 0; i < mm->map_count; i++)
		mlock_fixup(mm->vmas[i], (mm->vmas[i]->vm_flags & ~VM_LOCKED_MASK) | to_add);
	if (mm->map_count)
		vma_merge_range(mm, 0, mm->map_count - 1);
	return 0;
}

/*
 * Fault in [start, end) of @vma (v6.10's populate_vma_page_range): 0, -ENOMEM or -EFAULT.  A
 * present page is left alone unless a write fault is wanted and it is read-only (copy-on-write
 * still to break).
 */
static int populate_vma_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long vf = vma->vm_flags;
	bool write = (vf & (VM_WRITE | VM_SHARED)) == VM_WRITE;
	unsigned int fault_flags;

	if (vf & VM_LOCKONFAULT)
		return 0;		/* locked as it faults in, never populated */
	if (!(vf & (VM_READ | VM_WRITE | VM_EXEC)))
		return -EFAULT;		/* PROT_NONE: v6.10's check_vma_flags without FOLL_FORCE */
	/* The access the area allows (v6.10 forces a read; tinymm's fault checks the area). */
	if (write || !(vf & (VM_READ | VM_EXEC)))
		fault_flags = FAULT_FLAG_WRITE;
	else
		fault_flags = vf & VM_READ ? 0 : FAULT_FLAG_INSTRUCTION;
	if (!mm->pgd)
		return 0;
	for (unsigned long addr = start; addr < end; addr += PAGE_SIZE) {
		bool present, writable;
		vm_fault_t ret;
		pte_t *pte;

		spin_lock(&mm->page_table_lock);
		pte = user_pte_lookup(mm, addr);
		present = pte && pte_present(ptep_get(pte));
		writable = present && pte_write(ptep_get(pte));
		spin_unlock(&mm->page_table_lock);
		if (present && (!write || writable))
			continue;
		ret = handle_mm_fault(vma, addr, fault_flags);
		if (ret & VM_FAULT_OOM)
			return -ENOMEM;
		if (ret & VM_FAULT_ERROR)
			return -EFAULT;
	}
	return 0;
}

/* v6.10's __mm_populate: each area of [start, start+len); with @ignore_errors (mlockall, mmap)
 * an area that fails is passed over. */
static int __mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len,
			 bool ignore_errors)
{
	unsigned long end = start + len, nend;
	int ret = 0;

	lockdep_assert_held(&mm->mmap_lock);
	for (unsigned long nstart = start; nstart < end; nstart = nend) {
		struct vm_area_struct *vma = find_vma_intersection(mm, nstart, end);

		if (!vma)
			break;
		nend = vma->vm_end < end ? vma->vm_end : end;
		if (nstart < vma->vm_start)
			nstart = vma->vm_start;
		ret = populate_vma_range(vma, nstart, nend);
		if (ret < 0) {
			if (!ignore_errors)
				break;
			ret = 0;
		}
	}
	lru_add_drain();	/* the faults' folios on their lists: Unevictable exact */
	return ret;
}

int mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	return __mm_populate(mm, start, len, true);
}

/* v6.10's __mlock_posix_error_return: what POSIX wants from mlock's populate (only). */
static int mlock_posix_error(int err)
{
	if (err == -EFAULT)
		return -ENOMEM;
	if (err == -ENOMEM)
		return -EAGAIN;
	return err;
}

static long do_mlock(unsigned long start, size_t len, unsigned long flags)
{
	struct mm_struct *mm = current->mm;
	int err;

	if (!mm)
		return -ENOMEM;
	len = PAGE_ALIGN(len + (start & ~PAGE_MASK));
	start &= PAGE_MASK;
	mutex_lock(&mm->mmap_lock);
	err = apply_vma_lock_flags(mm, start, len, flags);
	if (!err && flags)	/* munlock (flags 0) only clears: nothing to fault in */
		err = mlock_posix_error(__mm_populate(mm, start, len, false));
	mutex_unlock(&mm->mmap_lock);
	return err;
}

long sys_mlock(unsigned long start, size_t len)
{
	return do_mlock(start, len, VM_LOCKED);
}

long sys_mlock2(unsigned long start, size_t len, int flags)
{
	if (flags & ~LINUX_MLOCK_ONFAULT)
		return -EINVAL;
	return do_mlock(start, len, VM_LOCKED | (flags & LINUX_MLOCK_ONFAULT ? VM_LOCKONFAULT : 0));
}

long sys_munlock(unsigned long start, size_t len)
{
	return do_mlock(start, len, 0);
}

long sys_mlockall(int flags)
{
	struct mm_struct *mm = current->mm;

	if (!flags || (flags & ~(LINUX_MCL_CURRENT | LINUX_MCL_FUTURE | LINUX_MCL_ONFAULT)) ||
	    flags == LINUX_MCL_ONFAULT)
		return -EINVAL;
	if (!mm)
		return -ENOMEM;
	mutex_lock(&mm->mmap_lock);
	apply_mlockall_flags(mm, flags);
	if (flags & LINUX_MCL_CURRENT)
		__mm_populate(mm, 0, mm->task_size, true);
	mutex_unlock(&mm->mmap_lock);
	return 0;
}

long sys_munlockall(void)
{
	struct mm_struct *mm = current->mm;

	if (!mm)
		return -ENOMEM;
	mutex_lock(&mm->mmap_lock);
	apply_mlockall_flags(mm, 0);
	mutex_unlock(&mm->mmap_lock);
	return 0;
}
