/*
 * hwpoison_user.c - HWPoison in mapped pages: what memory_failure() (mm/memory-failure.c) does
 * about the tasks mapping a bad frame, and madvise(MADV_HWPOISON / MADV_SOFT_OFFLINE), the
 * user's way to inject.  Linux v6.10's hwpoison_user_mappings(), collect_procs(), kill_procs(),
 * kill_proc() (mm/memory-failure.c) and madvise_inject_error() (mm/madvise.c), reduced to what
 * tinymm has.  docs/hwpoison.md "Mapped frames".
 *
 * hwpoison_user_mappings(folio, p, pfn, flags), with the folio locked and not under writeback:
 *   - a folio nobody maps, or one off the LRU (kernel, slab, reserved): nothing to do;
 *   - a clean page-cache folio of a mapping that writes back (not ramfs) whose ptes are all
 *     clean (folio_mkclean found nothing to clean) is only unmapped ("corrupted page was
 *     clean: dropped without side effects"): its bytes are on the disk and the next touch
 *     reads them again;
 *   - anything else (an anonymous folio, a dirty page-cache folio) is unmapped with
 *     TTU_HWPOISON: every pte gets a hwpoison entry (include/tinymm/swapops.h), and a task
 *     touching one later gets SIGBUS, BUS_MCEERR_AR, at the address (mm/memory.c's
 *     do_swap_page, mm/user_fault.c): v6.10's default "late kill";
 *   - the tasks to kill at once are collected before the unmap: with late kill only the
 *     current task, and only for MF_ACTION_REQUIRED (it consumed the error: the madvise
 *     caller); it gets SIGBUS (BUS_MCEERR_AR, the page's address in it) when the folio was dirty
 *     (the data is gone) or when the unmap failed, with v6.10's line "Memory failure: <pfn>:
 *     Sending SIGBUS to <comm>:<pid> due to hardware memory corruption".
 *   false: a pte still maps the folio ("failed to unmap page"); memory_failure() then reports
 *   "unmapping failed page: Ignored" and leaves the folio in its mapping.
 * kill_accessing_process(current, pfn, flags): memory_failure() of a frame already poisoned,
 *   for an action-required caller (v6.10's): if current maps the frame (a pte that still
 *   points at it: its unmap failed, or it was off the LRU when it was poisoned) or holds a
 *   hwpoison entry naming it, it gets the same line and SIGBUS (BUS_MCEERR_AR at that address)
 *   as a first poisoning gives, and memory_failure() returns -EHWPOISON; -EFAULT if it maps
 *   nothing of the frame.
 *
 * Locking: under mf_mutex and the folio lock; the rmap walks take i_mmap_lock or the
 * anon_vma's lock and the page_table_lock (include/tinymm/rmap.h's order); the signal is only
 * recorded here (the task is current) and delivered at the end of its system call.
 * kill_accessing_process() runs under mf_mutex alone and takes current's mmap_lock, then the
 * page_table_lock (mf_mutex is never taken under mmap_lock: madvise drops it first).
 *
 * Where tinymm differs from v6.10, and why: no early kill (PF_MCE_EARLY,
 * vm.memory_failure_early_kill): every other task learns at its next touch; the caller's kill
 * is delivered when its system call returns (v6.10: on the way back to user mode, the same
 * moment seen from user space); no hugetlb or DAX; a mapping can write back when
 * its a_ops can write (v6.10 asks the backing device).  madvise
 * needs no CAP_SYS_ADMIN (tinymm has no credentials); it passes MF_ACTION_REQUIRED as Linux
 * does since its 2024 change to madvise_inject_error; soft offline of an anonymous page is
 * -EBUSY (moving one needs migration entries; mm/soft-offline.c moves page-cache folios only,
 * unmapping a mapped one first so its tasks refault on the new frame).
 */
#define pr_fmt(fmt) "Memory failure: " fmt

#include "tinymm/errno.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mm_fault.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/rmap_file.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/swapops.h"
#include "tinymm/swap.h"
#include "tinymm/uapi/mman.h"
#include "tinymm/writeback.h"
#include "internal.h"

/* v6.10 asks the backing device (BDI_CAP_WRITEBACK); tinymm's mappings say it by having a way
 * to write (ramfs has none: its folios are the only copy, so a clean one is not "on the disk"). */
static bool mapping_can_writeback(struct address_space *mapping)
{
	return mapping->a_ops && (mapping->a_ops->writepages || mapping->a_ops->writepage);
}

/* The one task late kill collects (v6.10's struct to_kill, a list of at most one here). */
struct to_kill {
	struct task_struct *tsk;
	unsigned long addr;		/* where the page is mapped in it */
};

static bool collect_current_one(struct folio *folio, struct vm_area_struct *vma,
				unsigned long address, void *arg)
{
	struct to_kill *tk = arg;
	pte_t *pte;

	if (vma->vm_mm != current->mm)
		return true;
	pte = page_vma_mapped_pte(folio, vma, address);
	if (!pte)
		return true;
	spin_unlock(&vma->vm_mm->page_table_lock);
	tk->tsk = current;
	tk->addr = address;
	return false;
}

/*
 * v6.10's collect_procs() with late kill (task_early_kill() finds a task only when it is the
 * current one and the error must be acted on now, force_early): current, if it maps @folio.
 */
static void collect_procs(struct folio *folio, struct to_kill *tk, bool force_early)
{
	struct rmap_walk_control rwc = { .rmap_one = collect_current_one, .arg = tk };

	tk->tsk = NULL;
	if (!force_early || !current->mm)
		return;
	rmap_walk(folio, &rwc);
}

/* v6.10's kill_proc(): the line, then the signal (current only: action required). */
static void kill_proc(struct to_kill *tk, unsigned long pfn, int flags)
{
	pr_err("%#lx: Sending SIGBUS to %s:%d due to hardware memory corruption\n", pfn,
	       tk->tsk->comm, tk->tsk->pid);
	if ((flags & MF_ACTION_REQUIRED) && tk->tsk == current)
		force_sig_mceerr(BUS_MCEERR_AR, tk->addr);
}

bool hwpoison_user_mappings(struct folio *folio, struct page *p, unsigned long pfn, int flags)
{
	enum ttu_flags ttu = TTU_IGNORE_MLOCK | TTU_HWPOISON;
	struct to_kill tk;
	bool unmap_success, forcekill;

	(void)p;
	lockdep_assert_folio_locked(folio);
	/* Here we are interested only in user-mapped pages. */
	if (folio_test_reserved(folio) || folio_test_slab(folio))
		return true;
	if (!folio_test_lru(folio))
		return true;
	if (!folio_mapped(folio))
		return true;
	/* A swap-cache folio's ptes become its swap entries, not hwpoison ones: a clean one's slot
	 * has the data (me_swapcache_clean drops the folio, the next touch reads it back); a dirty
	 * one stays in the cache poisoned and its next touch is SIGBUS (me_swapcache_dirty). */
	if (folio_test_swapcache(folio)) {
		pr_err("%#lx: keeping poisoned page in swap cache\n", pfn);
		ttu &= ~TTU_HWPOISON;
	}

	/*
	 * The dirty bits of the ptes go to the folio first: they decide between killing and only
	 * dropping the page.  A clean page-cache folio no pte dirtied is dropped: the disk has it.
	 */
	if (!(flags & MF_MUST_KILL) && !folio_test_dirty(folio) && !folio_test_anon(folio) &&
	    folio->mapping && mapping_can_writeback(folio->mapping)) {
		if (folio_mkclean(folio)) {
			/* v6.10 sets the bit alone; tinymm's removal undoes the dirty accounting, so
			 * the folio is dirtied with it (folio_mark_dirty: the folio is locked). */
			folio_mark_dirty(folio);
		} else {
			ttu &= ~TTU_HWPOISON;
			pr_info("%#lx: corrupted page was clean: dropped without side effects\n", pfn);
		}
	}

	/* Before the unmap: the walk needs the ptes. */
	collect_procs(folio, &tk, flags & MF_ACTION_REQUIRED);
	try_to_unmap(folio, ttu);
	unmap_success = !folio_mapped(folio);
	if (!unmap_success)
		pr_err("%#lx: failed to unmap page (folio mapcount=%d)\n", pfn, folio_mapcount(folio));

	/* Only a dirty folio's users lost data: a clean one's refault.  A failed unmap leaves
	 * the page reachable: kill too (v6.10 sends SIGKILL to a task it could not find the
	 * address of; tinymm's collected task always has one). */
	forcekill = folio_test_dirty(folio) || (flags & MF_MUST_KILL) || !unmap_success;
	if (forcekill && tk.tsk)
		kill_proc(&tk, pfn, flags);
	return unmap_success;
}

/* One pte of current's that maps @pfn or is a hwpoison entry naming it (v6.10's
 * check_hwpoisoned_entry); page_table_lock held. */
static bool pte_maps_pfn(pte_t pte, unsigned long pfn)
{
	if (pte_present(pte))
		return pte_pfn(pte) == pfn;
	return is_swap_pte(pte) && is_hwpoison_entry(pte_to_swp_entry(pte)) &&
	       swp_offset(pte_to_swp_entry(pte)) == pfn;
}

/* v6.10's kill_accessing_process(): the walk of @p's (current's) areas, the first pte found
 * (address order, as v6.10's walk_page_range), then kill_proc() (see the header). */
int kill_accessing_process(struct task_struct *p, unsigned long pfn, int flags)
{
	struct mm_struct *mm = p->mm;
	struct to_kill tk = { .tsk = NULL };

	if (!mm)
		return -EFAULT;
	mutex_lock(&mm->mmap_lock);
	for (int i = 0; !tk.tsk && mm->pgd && i < mm->map_count; i++) {
		unsigned long addr = mm->vmas[i]->vm_start, end = mm->vmas[i]->vm_end;

		while (!tk.tsk && addr < end) {
			unsigned long next = pmd_addr_end(addr, end);
			pte_t *pte;

			spin_lock(&mm->page_table_lock);
			pte = user_pte_lookup(mm, addr);
			for (; pte && addr < next; addr += PAGE_SIZE, pte++) {
				if (pte_maps_pfn(ptep_get(pte), pfn)) {
					tk.tsk = p;
					tk.addr = addr;
					break;
				}
			}
			spin_unlock(&mm->page_table_lock);
			if (!tk.tsk)
				addr = next;
		}
	}
	mutex_unlock(&mm->mmap_lock);
	if (!tk.tsk)
		return -EFAULT;
	kill_proc(&tk, pfn, flags);
	return -EHWPOISON;
}

/*
 * get_user_pages_fast(start, 1, 0, &page) for madvise: the page mapped at @addr in the current
 * mm, faulted in for reading if nothing is there yet, with a reference.  -EFAULT outside every
 * area (or without memory), and at a hwpoison entry too: v6.10's get_user_pages_fast() faults
 * there, VM_FAULT_HWPOISON, which vm_fault_to_errno() makes -EFAULT without FOLL_HWPOISON
 * (madvise_inject_error passes no flags), so a second MADV_HWPOISON of an unmapped poisoned
 * page is -EFAULT and kills nobody.
 */
static int madvise_get_page(unsigned long addr, struct page **pagep)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int ret = -EFAULT;

	mutex_lock(&mm->mmap_lock);
	vma = vma_lookup(mm, addr);
	for (int pass = 0; vma && pass < 2; pass++) {
		pte_t *ptep, pte;

		spin_lock(&mm->page_table_lock);
		ptep = user_pte_lookup(mm, addr);
		pte = ptep ? ptep_get(ptep) : __pte(0);
		if (pte_present(pte)) {
			struct page *page = pfn_to_page(pte_pfn(pte));

			if (page) {
				folio_get(page_folio(page));
				*pagep = page;
				ret = 0;
			}
			spin_unlock(&mm->page_table_lock);
			break;
		}
		spin_unlock(&mm->page_table_lock);
		if (is_swap_pte(pte) && is_hwpoison_entry(pte_to_swp_entry(pte)))
			break;			/* -EFAULT, a hwpoison entry too (above) */
		if (pass || (handle_mm_fault(vma, addr, 0) & VM_FAULT_ERROR))
			break;
	}
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

/* v6.10's madvise_inject_error(): [start, end) page by page, each poisoned or soft-offlined
 * with the reference the lookup took (MF_COUNT_INCREASED). */
int madvise_inject_error(int behavior, unsigned long start, unsigned long end)
{
	for (; start < end; start += PAGE_SIZE) {
		struct page *page;
		unsigned long pfn;
		int ret = madvise_get_page(start, &page);

		if (ret)
			return ret;
		pfn = page_to_pfn(page);
		if (behavior == LINUX_MADV_SOFT_OFFLINE) {
			printk(KERN_INFO "Soft offlining pfn %#lx at process virtual address %#lx\n",
			       pfn, start);
			ret = soft_offline_page(pfn, MF_COUNT_INCREASED);
		} else {
			printk(KERN_INFO "Injecting memory failure for pfn %#lx at process virtual "
			       "address %#lx\n", pfn, start);
			ret = memory_failure(pfn, MF_ACTION_REQUIRED | MF_COUNT_INCREASED | MF_SW_SIMULATED);
			if (ret == -EOPNOTSUPP)
				ret = 0;
		}
		if (ret)
			return ret;
	}
	return 0;
}
