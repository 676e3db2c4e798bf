/*
 * mmu_fault_ktest.c - suite `mmu_fault`: an access through an old kernel pte (accessed flag
 * clear) works on every board, made young either by the hardware (RISC-V under QEMU: A/D
 * updated in the pte) or by the trap handler (ARM LPAE: an Access flag fault that
 * kernel_access_fault(), mm/kernel_fault.c, resolves before the access is retried); each case
 * prints which as a diagnostic line that the board's CTest checks.  kernel_access_fault()
 * itself, called directly: it makes an old or clean pte young and dirty, and refuses everything
 * that is a real fault (no pte, a permission the pte does not give, bits already set, the user
 * half).
 */
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sections.h"
#include "tinymm/vmalloc.h"

/* Through a volatile pointer, so the access is neither removed nor merged. */
static unsigned long load(const void *p)
{
	return *(const volatile unsigned long *)p;
}

static void old_pte_made_young_on_access(struct ktest *t)
{
	unsigned long *p = vmalloc(PAGE_SIZE);
	pte_t *ptep = p ? virt_to_kpte((unsigned long)p) : NULL;

	KTEST_ASSERT_TRUE(t, ptep != NULL);
	p[3] = 0x5a5a;
	set_pte(ptep, pte_mkold(ptep_get(ptep)));
	flush_tlb_page(NULL, (unsigned long)p);
	KTEST_ASSERT_FALSE(t, pte_young(ptep_get(ptep)));
	unsigned long before = READ_ONCE(nr_kernel_access_faults);
	KTEST_EXPECT_EQ(t, load(&p[3]), 0x5a5a);
	KTEST_EXPECT_TRUE(t, pte_young(ptep_get(ptep)));
	unsigned long resolved = READ_ONCE(nr_kernel_access_faults) - before;
	KTEST_EXPECT_LE(t, resolved, 1);
	kprintf("    # mmu_fault: an old pte made young by the %s\n",
		resolved ? "trap handler" : "hardware");
	vfree(p);
}

static void handler_fixes_only_what_it_should(struct ktest *t)
{
	unsigned long *p = vmalloc(PAGE_SIZE);
	unsigned long a = (unsigned long)p;
	pte_t *ptep = p ? virt_to_kpte(a) : NULL;

	KTEST_ASSERT_TRUE(t, ptep != NULL);
	set_pte(ptep, pte_mkclean(pte_mkold(ptep_get(ptep))));
	flush_tlb_page(NULL, a);
	/* an execute of a never-executable page is a real fault */
	KTEST_EXPECT_FALSE(t, kernel_access_fault(a, false, true));
	KTEST_EXPECT_FALSE(t, pte_young(ptep_get(ptep)));
	/* a read: young, still clean; a write: dirty too; then nothing left to fix */
	KTEST_EXPECT_TRUE(t, kernel_access_fault(a, false, false));
	KTEST_EXPECT_TRUE(t, pte_young(ptep_get(ptep)) && !pte_dirty(ptep_get(ptep)));
	KTEST_EXPECT_TRUE(t, kernel_access_fault(a + 8, true, false));
	KTEST_EXPECT_TRUE(t, pte_dirty(ptep_get(ptep)));
	KTEST_EXPECT_FALSE(t, kernel_access_fault(a, true, false));
	/* the guard page (no pte), the user half, a write to read-only text */
	KTEST_EXPECT_FALSE(t, kernel_access_fault(a + PAGE_SIZE, false, false));
	KTEST_EXPECT_FALSE(t, kernel_access_fault(16, false, false));
	KTEST_EXPECT_FALSE(t, kernel_access_fault((unsigned long)_start_kernel, true, false));
	vfree(p);
}

static const struct ktest_case mmu_fault_cases[] = {
	KTEST_CASE(old_pte_made_young_on_access),
	KTEST_CASE(handler_fixes_only_what_it_should),
	{ 0 },
};
KTEST_SUITE(mmu_fault, mmu_fault_cases);
