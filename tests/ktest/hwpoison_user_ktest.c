/*
 * hwpoison_user_ktest.c - HWPoison in mapped anonymous pages (mm/hwpoison_user.c, the
 * hwpoison entry of include/tinymm/swapops.h, docs/hwpoison.md "Mapped frames"): suite
 * `hwpoison_user`, every board.  The user-mode side (the signals, file pages, madvise) is
 * tests/qemu/hwpoison_user_test.sh; here the kernel's state is read directly:
 *   - entry_encoding: a hwpoison entry for the first and the last frame of RAM is a pte that is
 *     neither none nor present, of type SWP_HWPOISON, naming the frame; an entry of another
 *     type is no hwpoison entry;
 *   - anon_page_shared_by_fork: a page a parent shares with its child (fork), poisoned by
 *     memory_failure() with no task to kill (MF_SW_SIMULATED, a kernel thread): 0, "dirty LRU
 *     page: Recovered", both ptes hwpoison entries naming the frame, the folio mapped by
 *     nobody with memory_failure's reference alone, AnonPages one less, every other page still
 *     mapped with its bytes; pagemap says swapped with the entry's type and pfn (v6.10's
 *     format), not file; a read and a write fault there are VM_FAULT_HWPOISON in both mms;
 *     a fork of the child copies the entry; mprotect leaves it; unpoison gives the frame back
 *     (v6.10: an anonymous folio has no mapping); every mm gone, AnonPages, page tables and free
 *     memory are as before, no WARNING;
 *   - already_poisoned_action_required: memory_failure() of a frame already poisoned
 *     (v6.10's kill_accessing_process): while a pte of the caller's mm still maps it (the state
 *     a failed unmap leaves), -EHWPOISON and nothing else without MF_ACTION_REQUIRED, and with
 *     it -EHWPOISON plus SIGBUS BUS_MCEERR_AR at the page's address recorded for the caller;
 *     -EFAULT and no signal for a caller whose mm does not map it, or that has none; once the
 *     pte is a hwpoison entry (a real poisoning), the same SIGBUS at the same address; the
 *     frame unpoisons and everything is given back as before.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/fork.h"
#include "tinymm/ktest.h"
#include "ktest_mm.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/swapops.h"
#include "tinymm/user_task.h"
#include "tinymm/vmstat.h"

#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define KT_BASE		(256UL << 20)
#define KT_PAGES	4

static void entry_encoding(struct ktest *t)
{
	const struct memmap_bank *first = memmap_bank(0), *last = memmap_bank(memmap_nr_banks() - 1);
	unsigned long pfns[] = { first->start_pfn, last->end_pfn - 1 };

	for (unsigned int i = 0; i < ARRAY_SIZE(pfns); i++) {
		struct page *page = pfn_to_page(pfns[i]);
		pte_t pte;

		KTEST_ASSERT_TRUE(t, page != NULL);
		pte = swp_entry_to_pte(make_hwpoison_entry(page));
		KTEST_EXPECT_FALSE(t, pte_none(pte));
		KTEST_EXPECT_FALSE(t, pte_present(pte));
		KTEST_EXPECT_TRUE(t, is_swap_pte(pte));
		KTEST_EXPECT_TRUE(t, is_hwpoison_entry(pte_to_swp_entry(pte)));
		KTEST_EXPECT_EQ(t, swp_type(pte_to_swp_entry(pte)), (unsigned long)SWP_HWPOISON);
		KTEST_EXPECT_EQ(t, swp_offset(pte_to_swp_entry(pte)), pfns[i]);
		KTEST_EXPECT_TRUE(t, pfn_swap_entry_to_page(pte_to_swp_entry(pte)) == page);
		pte = swp_entry_to_pte(swp_entry(SWP_HWPOISON - 1, pfns[i]));
		KTEST_EXPECT_FALSE(t, pte_present(pte));
		KTEST_EXPECT_FALSE(t, is_hwpoison_entry(pte_to_swp_entry(pte)));
	}
}

static unsigned long free_and_slab(void)
{
	return kt_free_and_cached();
}

/* The pte at @addr is a hwpoison entry for @pfn. */
static bool is_poison_pte(struct mm_struct *mm, unsigned long addr, unsigned long pfn)
{
	pte_t pte = kt_pte_at(mm, addr);

	return is_swap_pte(pte) && is_hwpoison_entry(pte_to_swp_entry(pte)) &&
	       swp_offset(pte_to_swp_entry(pte)) == pfn;
}

static void anon_page_shared_by_fork(struct ktest *t)
{
	unsigned long before_free = free_and_slab();
	unsigned long before_pt = global_node_page_state(NR_PAGETABLE);
	unsigned long before_anon = global_node_page_state(NR_ANON_MAPPED);
	unsigned long before_warn = nr_warnings();
	long before_poisoned = atomic_long_read(&num_poisoned_pages);
	struct mm_struct *parent = mm_alloc(), *child, *grandchild;
	unsigned long a = KT_BASE + P(1), pfn;
	struct vm_area_struct *vma;
	struct folio *folio;
	int err = 0;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	mutex_lock(&parent->mmap_lock);
	KTEST_EXPECT_EQ(t, mmap_region(parent, KT_BASE, P(KT_PAGES), RW, NULL, 0), (long)KT_BASE);
	vma = vma_lookup(parent, KT_BASE);
	for (int i = 0; vma && i < KT_PAGES; i++)
		KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(i), FAULT_FLAG_WRITE), 0U);
	mutex_unlock(&parent->mmap_lock);
	for (int i = 0; i < KT_PAGES; i++)
		memset(page_address(pfn_to_page(pte_pfn(kt_pte_at(parent, KT_BASE + P(i))))), 'a' + i,
		       PAGE_SIZE);
	child = dup_mm(parent, &err);
	KTEST_ASSERT_TRUE(t, child != NULL);
	pfn = pte_pfn(kt_pte_at(parent, a));
	folio = page_folio(pfn_to_page(pfn));
	KTEST_EXPECT_EQ(t, folio_mapcount(folio), 2);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);

	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	KTEST_EXPECT_TRUE(t, PageHWPoison(&folio->page));
	KTEST_EXPECT_TRUE(t, is_poison_pte(parent, a, pfn));
	KTEST_EXPECT_TRUE(t, is_poison_pte(child, a, pfn));
	KTEST_EXPECT_FALSE(t, folio_mapped(folio));
	KTEST_EXPECT_EQ(t, page_ref_count(&folio->page), 1);
	KTEST_EXPECT_FALSE(t, folio_test_lru(folio));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 - 1);
	KTEST_EXPECT_EQ(t, atomic_long_read(&num_poisoned_pages), before_poisoned + 1);
	for (int i = 0; i < KT_PAGES; i++) {
		if (i == 1)
			continue;
		pte_t pp = kt_pte_at(parent, KT_BASE + P(i)), cp = kt_pte_at(child, KT_BASE + P(i));

		KTEST_EXPECT_TRUE(t, pte_present(pp) && pte_present(cp));
		KTEST_EXPECT_EQ(t, ((unsigned char *)page_address(pfn_to_page(pte_pfn(pp))))[9],
				'a' + i);
	}
	/* pagemap shows it as v6.10 shows a pfn swap entry: swapped, type | pfn << 5, anonymous. */
	bool ax = true;
	mutex_lock(&parent->mmap_lock);
	uint64_t e = pagemap_entry(parent, a, &ax);
	mutex_unlock(&parent->mmap_lock);
	uint64_t frame = (uint64_t)SWP_HWPOISON | ((uint64_t)pfn << MAX_SWAPFILES_SHIFT);
	KTEST_EXPECT_EQ(t, e, PM_SWAP | (frame & PM_PFRAME_MASK));
	KTEST_EXPECT_FALSE(t, ax);
	/* A touch is VM_FAULT_HWPOISON, read or write, and leaves the entry. */
	KTEST_EXPECT_EQ(t, kt_fault(parent, a + 8, 0), (vm_fault_t)VM_FAULT_HWPOISON);
	KTEST_EXPECT_EQ(t, kt_fault(child, a, FAULT_FLAG_WRITE), (vm_fault_t)VM_FAULT_HWPOISON);
	KTEST_EXPECT_TRUE(t, is_poison_pte(child, a, pfn));
	/* fork copies it; mprotect leaves it. */
	grandchild = dup_mm(child, &err);
	KTEST_ASSERT_TRUE(t, grandchild != NULL);
	KTEST_EXPECT_TRUE(t, is_poison_pte(grandchild, a, pfn));
	KTEST_EXPECT_EQ(t, kt_fault(grandchild, a, 0), (vm_fault_t)VM_FAULT_HWPOISON);
	mutex_lock(&parent->mmap_lock);
	change_protection(vma_lookup(parent, KT_BASE), KT_BASE, KT_BASE + P(KT_PAGES));
	mutex_unlock(&parent->mmap_lock);
	KTEST_EXPECT_TRUE(t, is_poison_pte(parent, a, pfn));
	/* The ends (exit_mmap) clear the entries without touching the frame. */
	mmput(grandchild);
	mmput(child);
	mmput(parent);
	KTEST_EXPECT_EQ(t, page_ref_count(&folio->page), 1);
	KTEST_EXPECT_EQ(t, unpoison_memory(pfn), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&num_poisoned_pages), before_poisoned);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), before_pt);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), before_anon);
	KTEST_EXPECT_EQ(t, free_and_slab(), before_free);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, nr_warnings(), before_warn);
}

/* memory_failure(@pfn) as an action-required caller whose mm is @mm; the SIGBUS it recorded
 * for the caller (code, address) is taken back so this thread does not die of it. */
static int mf_as(struct mm_struct *mm, unsigned long pfn, int flags, int *code, unsigned long *addr)
{
	struct mm_struct *saved = current->mm;
	int ret;

	current->mm = mm;	/* the walk reads its tables only: no switch_mm needed */
	current->mce_code = 0;
	ret = memory_failure(pfn, flags | MF_SW_SIMULATED);
	*code = current->mce_code;
	*addr = current->mce_addr;
	current->mce_code = 0;
	current->mm = saved;
	return ret;
}

static void already_poisoned_action_required(struct ktest *t)
{
	unsigned long before_free = free_and_slab();
	unsigned long before_warn = nr_warnings();
	long before_poisoned = atomic_long_read(&num_poisoned_pages);
	struct mm_struct *mm = mm_alloc(), *other = mm_alloc();
	unsigned long a = KT_BASE + P(1), pfn, addr;
	struct vm_area_struct *vma;
	struct page *page;
	int code;

	KTEST_ASSERT_TRUE(t, mm != NULL && other != NULL);
	mutex_lock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, mmap_region(mm, KT_BASE, P(2), RW, NULL, 0), (long)KT_BASE);
	vma = vma_lookup(mm, KT_BASE);
	for (int i = 0; vma && i < 2; i++)
		KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(i), FAULT_FLAG_WRITE), 0U);
	mutex_unlock(&mm->mmap_lock);
	pfn = pte_pfn(kt_pte_at(mm, a));
	page = pfn_to_page(pfn);
	KTEST_ASSERT_TRUE(t, page != NULL);
	/* Marked but still mapped: what a poisoning whose unmap failed leaves. */
	KTEST_ASSERT_FALSE(t, TestSetPageHWPoison(page));
	KTEST_EXPECT_EQ(t, mf_as(mm, pfn, 0, &code, &addr), -EHWPOISON);
	KTEST_EXPECT_EQ(t, code, 0);
	KTEST_EXPECT_EQ(t, mf_as(mm, pfn, MF_ACTION_REQUIRED, &code, &addr), -EHWPOISON);
	KTEST_EXPECT_EQ(t, code, BUS_MCEERR_AR);
	KTEST_EXPECT_EQ(t, addr, a);
	KTEST_EXPECT_TRUE(t, pte_present(kt_pte_at(mm, a)));	/* nothing else was done */
	KTEST_EXPECT_EQ(t, mf_as(other, pfn, MF_ACTION_REQUIRED, &code, &addr), -EFAULT);
	KTEST_EXPECT_EQ(t, code, 0);
	KTEST_EXPECT_EQ(t, mf_as(NULL, pfn, MF_ACTION_REQUIRED, &code, &addr), -EFAULT);
	KTEST_EXPECT_EQ(t, code, 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&num_poisoned_pages), before_poisoned);
	/* Poisoned for real (no task to kill): the pte becomes a hwpoison entry, which counts too. */
	ClearPageHWPoison(page);
	KTEST_EXPECT_EQ(t, mf_as(NULL, pfn, 0, &code, &addr), 0);
	KTEST_EXPECT_TRUE(t, is_poison_pte(mm, a, pfn));
	KTEST_EXPECT_EQ(t, mf_as(mm, pfn, MF_ACTION_REQUIRED, &code, &addr), -EHWPOISON);
	KTEST_EXPECT_EQ(t, code, BUS_MCEERR_AR);
	KTEST_EXPECT_EQ(t, addr, a);
	KTEST_EXPECT_TRUE(t, pte_present(kt_pte_at(mm, KT_BASE)));
	mmput(other);
	mmput(mm);
	KTEST_EXPECT_EQ(t, unpoison_memory(pfn), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&num_poisoned_pages), before_poisoned);
	KTEST_EXPECT_EQ(t, free_and_slab(), before_free);
	KTEST_EXPECT_EQ(t, nr_warnings(), before_warn);
}

static const struct ktest_case hwpoison_user_cases[] = {
	KTEST_CASE(entry_encoding),
	KTEST_CASE(anon_page_shared_by_fork),
	KTEST_CASE(already_poisoned_action_required),
	{}
};
KTEST_SUITE(hwpoison_user, hwpoison_user_cases);
