/*
 * mlock_ktest.c - mlock (mm/mlock.c, mm/mlock_sys.c, docs/mlock.md): suite `mlock`, every
 * board and the host.  A private mm with its own root table (never loaded: the cases call the
 * area operations and handle_mm_fault() and read the ptes under the page-table lock):
 *   - lock_unlock_range: mlock of 4 pages in the middle of an 8-page anonymous area splits it in
 *     three, faults exactly those 4 in, each folio PG_mlocked on the unevictable list; Mlocked,
 *     Unevictable, unevictable_pgs_mlocked and locked_vm move by exactly 4; munlock undoes it
 *     (_munlocked by 4, the folios back on the anon list) and the areas merge again;
 *   - onfault: mlock2(MLOCK_ONFAULT) faults nothing in; one page touched afterwards is mlocked
 *     at its fault, exactly one;
 *   - munmap_and_exit_release: munmap of a locked range munlocks its pages; exit (the
 *     teardown) releases the rest: Mlocked back where it was;
 *   - reclaim_restores_mlock: a locked page whose PG_mlocked went (as when another area
 *     munlocked it) is mlocked again by folio_referenced(), which reports VM_LOCKED, and
 *     try_to_unmap() leaves it mapped;
 *   - mlockall_future: MCL_CURRENT locks every area, MCL_FUTURE every new one (mmap_region),
 *     munlockall (flags 0) undoes both;
 *   - bad_ranges: a range with a hole is -ENOMEM and changes nothing; a wrapping one -EINVAL;
 * Each case checks that page tables, AnonPages, Mlocked, Unevictable, free memory and the LRU
 * lists are back after the mm goes, and that unevictable_pgs_mlocked - _munlocked - _stranded -
 * _cleared is nr_mlock.
 */
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/mlock.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/uapi/mman.h"
#include "tinymm/vmstat.h"

#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define ML_BASE		(256UL << 20)	/* far from 0, inside every board's TASK_SIZE */

static struct mm_struct ml_mm;

static struct {
	unsigned long free_and_slab, pagetables, anon, mlock, unevictable;
} ml_before;

static unsigned long free_and_slab(void)
{
	lru_add_drain();
	return nr_free_pages_and_pcp() + slab_pages_reclaimable() + slab_pages_unreclaimable() +
	       global_node_page_state(NR_FILE_PAGES);
}

static bool ml_setup(struct ktest *t)
{
	ml_before.free_and_slab = free_and_slab();
	ml_before.pagetables = global_node_page_state(NR_PAGETABLE);
	ml_before.anon = global_node_page_state(NR_ANON_MAPPED);
	ml_before.mlock = global_node_page_state(NR_MLOCK);
	ml_before.unevictable = global_node_page_state(NR_UNEVICTABLE);
	mm_init_vmas(&ml_mm, TASK_SIZE, TASK_SIZE / 2);
	KTEST_EXPECT_EQ(t, mm_alloc_pgd(&ml_mm), 0);
	if (!ml_mm.pgd)
		return false;
	mutex_lock(&ml_mm.mmap_lock);
	return true;
}

static void ml_teardown(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, vma_check(&ml_mm, kprintf), 0);
	mutex_unlock(&ml_mm.mmap_lock);
	exit_mmap(&ml_mm);		/* zaps a locked area's pages: munlocked */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), ml_before.pagetables);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), ml_before.anon);
	KTEST_EXPECT_EQ(t, free_and_slab(), ml_before.free_and_slab);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), ml_before.unevictable);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	/* Every page that got PG_mlocked lost it one of three ways, or still has it. */
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGMLOCKED) - global_vm_event(UNEVICTABLE_PGMUNLOCKED) -
			   global_vm_event(UNEVICTABLE_PGSTRANDED) - global_vm_event(UNEVICTABLE_PGCLEARED),
			global_node_page_state(NR_MLOCK));
}

static struct vm_area_struct *ml_map(unsigned long addr, unsigned long pages, unsigned long flags)
{
	if (mmap_region(&ml_mm, addr, P(pages), flags, NULL, 0) != (long)addr)
		return NULL;
	return vma_lookup(&ml_mm, addr);
}

/* The folio mapped at @addr, or NULL. */
static struct folio *ml_folio(unsigned long addr)
{
	struct folio *folio = NULL;
	pte_t *pte;

	spin_lock(&ml_mm.page_table_lock);
	pte = user_pte_lookup(&ml_mm, addr);
	if (pte && pte_present(ptep_get(pte)))
		folio = page_folio(pfn_to_page(pte_pfn(ptep_get(pte))));
	spin_unlock(&ml_mm.page_table_lock);
	return folio;
}

/* mlock's core as sys_mlock runs it, on the test mm. */
static int ml_lock(unsigned long start, unsigned long len, unsigned long flags)
{
	int err = apply_vma_lock_flags(&ml_mm, start, len, flags);

	return err ? err : mm_populate(&ml_mm, start, len);
}

/* A folio that is mlocked and listed on the unevictable list (batches drained). */
static bool on_unevictable(struct folio *folio)
{
	return folio && folio_test_mlocked(folio) && folio_test_unevictable(folio) &&
	       folio_test_lru(folio) && !folio_test_active(folio);
}

static void lock_unlock_range(struct ktest *t)
{
	if (!ml_setup(t))
		return;
	KTEST_ASSERT_TRUE(t, ml_map(ML_BASE, 8, RW) != NULL);
	unsigned long mlocked = global_vm_event(UNEVICTABLE_PGMLOCKED);
	unsigned long munlocked = global_vm_event(UNEVICTABLE_PGMUNLOCKED);

	KTEST_EXPECT_EQ(t, ml_lock(ML_BASE + P(2), P(4), VM_LOCKED), 0);
	KTEST_EXPECT_EQ(t, ml_mm.map_count, 3);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 4UL);
	KTEST_EXPECT_TRUE(t, vma_lookup(&ml_mm, ML_BASE + P(2))->vm_flags & VM_LOCKED);
	KTEST_EXPECT_FALSE(t, vma_lookup(&ml_mm, ML_BASE + P(6))->vm_flags & VM_LOCKED);
	for (int i = 0; i < 8; i++) {
		struct folio *folio = ml_folio(ML_BASE + P(i));

		if (i >= 2 && i < 6)
			KTEST_EXPECT_TRUE(t, on_unevictable(folio));
		else
			KTEST_EXPECT_TRUE(t, folio == NULL);	/* not faulted in */
	}
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock + 4);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), ml_before.unevictable + 4);
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGMLOCKED), mlocked + 4);
	KTEST_EXPECT_EQ(t, mlock_batched_folios(), 0U);

	/* Locking again changes nothing (no page counted twice). */
	KTEST_EXPECT_EQ(t, ml_lock(ML_BASE + P(2), P(4), VM_LOCKED), 0);
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGMLOCKED), mlocked + 4);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 4UL);

	KTEST_EXPECT_EQ(t, apply_vma_lock_flags(&ml_mm, ML_BASE + P(2), P(4), 0), 0);
	KTEST_EXPECT_EQ(t, ml_mm.map_count, 1);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 0UL);
	for (int i = 2; i < 6; i++) {
		struct folio *folio = ml_folio(ML_BASE + P(i));

		KTEST_ASSERT_TRUE(t, folio != NULL);
		KTEST_EXPECT_FALSE(t, folio_test_mlocked(folio));
		KTEST_EXPECT_FALSE(t, folio_test_unevictable(folio));
		KTEST_EXPECT_TRUE(t, folio_test_lru(folio));
		KTEST_EXPECT_EQ(t, folio_lru_list(folio), LRU_INACTIVE_ANON);
	}
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), ml_before.unevictable);
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGMUNLOCKED), munlocked + 4);
	ml_teardown(t);
}

static void onfault(struct ktest *t)
{
	if (!ml_setup(t))
		return;
	struct vm_area_struct *vma = ml_map(ML_BASE, 4, RW);
	KTEST_ASSERT_TRUE(t, vma != NULL);
	KTEST_EXPECT_EQ(t, ml_lock(ML_BASE, P(4), VM_LOCKED | VM_LOCKONFAULT), 0);
	vma = vma_lookup(&ml_mm, ML_BASE);
	KTEST_EXPECT_EQ(t, vma->vm_flags & VM_LOCKED_MASK, VM_LOCKED | VM_LOCKONFAULT);
	for (int i = 0; i < 4; i++)
		KTEST_EXPECT_TRUE(t, ml_folio(ML_BASE + P(i)) == NULL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock);

	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, ML_BASE + P(1), FAULT_FLAG_WRITE), 0U);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, on_unevictable(ml_folio(ML_BASE + P(1))));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock + 1);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), ml_before.unevictable + 1);
	ml_teardown(t);
}

static void munmap_and_exit_release(struct ktest *t)
{
	if (!ml_setup(t))
		return;
	KTEST_ASSERT_TRUE(t, ml_map(ML_BASE, 6, RW | VM_LOCKED) != NULL);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 6UL);
	KTEST_EXPECT_EQ(t, mm_populate(&ml_mm, ML_BASE, P(6)), 0);
	lru_add_drain();
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock + 6);
	unsigned long munlocked = global_vm_event(UNEVICTABLE_PGMUNLOCKED);

	KTEST_EXPECT_EQ(t, do_munmap(&ml_mm, ML_BASE, P(2)), 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock + 4);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_UNEVICTABLE), ml_before.unevictable + 4);
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGMUNLOCKED), munlocked + 2);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 4UL);
	ml_teardown(t);			/* exit: the other 4 */
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGMUNLOCKED), munlocked + 6);
}

static void reclaim_restores_mlock(struct ktest *t)
{
	unsigned long vm_flags = 0;

	if (!ml_setup(t))
		return;
	KTEST_ASSERT_TRUE(t, ml_map(ML_BASE, 1, RW) != NULL);
	KTEST_EXPECT_EQ(t, ml_lock(ML_BASE, P(1), VM_LOCKED), 0);
	struct folio *folio = ml_folio(ML_BASE);
	KTEST_ASSERT_TRUE(t, on_unevictable(folio));

	/* What a munlock through another area leaves behind: no PG_mlocked, evictable list. */
	munlock_folio(folio);
	mlock_drain_local();
	KTEST_EXPECT_FALSE(t, folio_test_mlocked(folio));
	KTEST_EXPECT_EQ(t, folio_lru_list(folio), LRU_INACTIVE_ANON);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock);

	/* Reclaim's walk finds the VM_LOCKED pte and puts the mlock back. */
	KTEST_EXPECT_EQ(t, folio_referenced(folio, 0, &vm_flags), 0);
	KTEST_EXPECT_EQ(t, vm_flags, VM_LOCKED);
	mlock_drain_local();
	KTEST_EXPECT_TRUE(t, on_unevictable(folio));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock + 1);

	/* try_to_unmap() leaves a VM_LOCKED pte (and mlocks the folio again if need be). */
	folio_lock(folio);
	try_to_unmap(folio, 0);
	KTEST_EXPECT_TRUE(t, folio_mapped(folio));
	folio_unlock(folio);
	KTEST_EXPECT_TRUE(t, ml_folio(ML_BASE) == folio);
	ml_teardown(t);
}

static void mlockall_future(struct ktest *t)
{
	if (!ml_setup(t))
		return;
	KTEST_ASSERT_TRUE(t, ml_map(ML_BASE, 2, RW) != NULL);
	KTEST_ASSERT_TRUE(t, ml_map(ML_BASE + P(4), 2, RW) != NULL);
	KTEST_EXPECT_EQ(t, apply_mlockall_flags(&ml_mm, LINUX_MCL_CURRENT | LINUX_MCL_FUTURE), 0);
	KTEST_EXPECT_EQ(t, mm_populate(&ml_mm, 0, ml_mm.task_size), 0);
	KTEST_EXPECT_EQ(t, ml_mm.def_flags, VM_LOCKED);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 4UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock + 4);

	/* A new area is locked from the start; a neighbour that is locked too merges with it. */
	struct vm_area_struct *vma = ml_map(ML_BASE + P(2), 1, RW);
	KTEST_ASSERT_TRUE(t, vma != NULL);
	KTEST_EXPECT_TRUE(t, vma->vm_flags & VM_LOCKED);
	KTEST_EXPECT_EQ(t, ml_mm.map_count, 2);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 5UL);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, ML_BASE + P(2), FAULT_FLAG_WRITE), 0U);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, on_unevictable(ml_folio(ML_BASE + P(2))));

	/* MCL_FUTURE alone leaves the present areas as they are. */
	KTEST_EXPECT_EQ(t, apply_mlockall_flags(&ml_mm, 0), 0);
	KTEST_EXPECT_EQ(t, ml_mm.def_flags, 0UL);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 0UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock);
	KTEST_EXPECT_EQ(t, apply_mlockall_flags(&ml_mm, LINUX_MCL_FUTURE | LINUX_MCL_ONFAULT), 0);
	KTEST_EXPECT_EQ(t, ml_mm.def_flags, VM_LOCKED | VM_LOCKONFAULT);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 0UL);
	KTEST_EXPECT_EQ(t, apply_mlockall_flags(&ml_mm, 0), 0);
	ml_teardown(t);
}

static void bad_ranges(struct ktest *t)
{
	if (!ml_setup(t))
		return;
	KTEST_ASSERT_TRUE(t, ml_map(ML_BASE, 2, RW) != NULL);
	KTEST_ASSERT_TRUE(t, ml_map(ML_BASE + P(3), 2, RW) != NULL);
	/* Page 2 is a hole: refused whole. */
	KTEST_EXPECT_EQ(t, apply_vma_lock_flags(&ml_mm, ML_BASE + P(1), P(3), VM_LOCKED), -ENOMEM);
	KTEST_EXPECT_EQ(t, ml_mm.map_count, 2);
	KTEST_EXPECT_EQ(t, ml_mm.locked_vm, 0UL);
	KTEST_EXPECT_FALSE(t, vma_lookup(&ml_mm, ML_BASE)->vm_flags & VM_LOCKED);
	KTEST_EXPECT_EQ(t, apply_vma_lock_flags(&ml_mm, ML_BASE + P(2), P(1), VM_LOCKED), -ENOMEM);
	KTEST_EXPECT_EQ(t, apply_vma_lock_flags(&ml_mm, ML_BASE, -P(1), VM_LOCKED), -EINVAL);
	KTEST_EXPECT_EQ(t, apply_vma_lock_flags(&ml_mm, ML_BASE, 0, VM_LOCKED), 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), ml_before.mlock);
	ml_teardown(t);
}

static const struct ktest_case mlock_cases[] = {
	KTEST_CASE(lock_unlock_range),
	KTEST_CASE(onfault),
	KTEST_CASE(munmap_and_exit_release),
	KTEST_CASE(reclaim_restores_mlock),
	KTEST_CASE(mlockall_future),
	KTEST_CASE(bad_ranges),
	{}
};
KTEST_SUITE(mlock, mlock_cases);
