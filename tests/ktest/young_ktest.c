/*
 * young_ktest.c - suite `young`, every board: the accessed ("young") bit of user ptes on the
 * live MMU (docs/young.md).  Each case runs in a kernel thread that owns a fresh user mm, loaded
 * into the MMU (current->mm, switch_mm) with one anonymous area, and touches the area through
 * the kernel's uaccess path (get_user/put_user: LDRT/STRT on ARM, SUM on RISC-V), so every
 * access goes through the hardware's walk of the task's own tables:
 *   - a pte made by a fault, read or write, is young (the faulting access is its first use);
 *   - ptep_clear_flush_young() on a young pte returns true and leaves it old; on an old one,
 *     false; an access through the old pte makes it young again, by the hardware (RISC-V under
 *     QEMU 7.2) or through a fault (ARM LPAE: an Access flag fault; a RISC-V core that traps on
 *     A = 0 the same way), which the case says in a diagnostic line the board's CTest checks;
 *   - a write through an old pte makes it young and dirty and the bytes land;
 *   - an old pte nobody touches stays old beside a neighbour that is touched;
 *   - mprotect down and up keeps an old pte old (v6.10's pte_modify keeps the bit);
 *   - the kernel's own mapping of the page (the direct map) is not made old with it.
 *   - the lock rule: ptep_clear_flush_young() without the pte lock warns once.
 * Every case checks that AnonPages and PageTables are back once the thread and its mm are gone
 * and that no WARNING was printed but the one the lock-rule case causes on purpose.
 */
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/ktest.h"
#include "tinymm/irqflags.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/swap.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"
#include "tinymm/vmstat.h"

#define YT_BASE		(256UL << 20)	/* inside every board's TASK_SIZE */
#define YT_PAGES	3
#define YT_MAY		(VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define YT_A		YT_BASE
#define YT_B		(YT_BASE + PAGE_SIZE)
#define YT_C		(YT_BASE + 2 * PAGE_SIZE)

struct yt {
	struct ktest *t;
	void (*fn)(struct yt *y);
	struct mm_struct *mm;
	unsigned long warnings;		/* the WARNINGs the case causes on purpose */
};

/* The pte at @addr as it is now (none if there is no table). */
static pte_t yt_pte(struct yt *y, unsigned long addr)
{
	pte_t pte = __pte(0), *ptep;

	spin_lock(&y->mm->page_table_lock);
	ptep = user_pte_lookup(y->mm, addr);
	if (ptep)
		pte = ptep_get(ptep);
	spin_unlock(&y->mm->page_table_lock);
	return pte;
}

int ktest_clear_flush_young(struct mm_struct *mm, unsigned long addr, bool test_only)
{
	struct vm_area_struct *vma;
	int ret = -1;
	pte_t *ptep;

	mutex_lock(&mm->mmap_lock);
	vma = vma_lookup(mm, addr);
	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, addr);
	if (vma && ptep)
		ret = test_only ? pte_young(ptep_get(ptep)) : ptep_clear_flush_young(vma, addr, ptep);
	if (!test_only && ret == 1 && pte_young(ptep_get(ptep)))
		ret = 2;
	spin_unlock(&mm->page_table_lock);
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

static int yt_clear_flush_young(struct yt *y, unsigned long addr)
{
	return ktest_clear_flush_young(y->mm, addr, false);
}

/* A word read through uaccess; *@faults: the page faults it took (pgfault's increase). */
static unsigned long yt_read(struct yt *y, unsigned long addr, unsigned long *faults)
{
	unsigned long before = global_vm_event(PGFAULT), v = 0;

	KTEST_EXPECT_EQ(y->t, get_user(v, (unsigned long __user *)addr), 0);
	if (faults)
		*faults = global_vm_event(PGFAULT) - before;
	return v;
}

static void yt_write(struct yt *y, unsigned long addr, unsigned long v, unsigned long *faults)
{
	unsigned long before = global_vm_event(PGFAULT);

	KTEST_EXPECT_EQ(y->t, put_user(v, (unsigned long __user *)addr), 0);
	if (faults)
		*faults = global_vm_event(PGFAULT) - before;
}

/* Who made an old pte young again: the hardware, or the fault core after the access faulted. */
static void yt_say_who(const char *what, unsigned long faults)
{
	kprintf("    # young: %s through an old pte: made young by %s\n", what,
		faults ? "a fault (handle_mm_fault)" : "the hardware");
}

static int yt_thread(void *arg)
{
	struct yt *y = arg;
	struct mm_struct *mm = mm_alloc();
	unsigned long flags;
	long addr;

	KTEST_EXPECT_TRUE(y->t, mm != NULL);
	if (!mm)
		do_exit(1);
	local_irq_save(flags);
	current->mm = mm;
	switch_mm(active_mm, mm);
	active_mm = mm;
	local_irq_restore(flags);
	y->mm = mm;
	mutex_lock(&mm->mmap_lock);
	addr = mmap_region(mm, YT_BASE, YT_PAGES * PAGE_SIZE, VM_READ | VM_WRITE | YT_MAY, NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(y->t, addr, (long)YT_BASE);
	if (addr == (long)YT_BASE)
		y->fn(y);
	do_exit(0);		/* releases the mm: every page and table */
}

static void yt_run(struct ktest *t, void (*fn)(struct yt *y))
{
	struct yt y = { .t = t, .fn = fn };
	unsigned long anon, tables, warnings;
	struct task_struct *p;

	lru_add_drain();
	flush_thread_stack_frees();
	anon = global_node_page_state(NR_ANON_MAPPED);
	tables = global_node_page_state(NR_PAGETABLE);
	warnings = nr_warnings();
	p = kthread_create(yt_thread, &y, "young-kt");
	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	KTEST_EXPECT_EQ(t, kthread_join(p), 0);
	lru_add_drain();
	flush_thread_stack_frees();
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), tables);
	KTEST_EXPECT_EQ(t, nr_warnings(), warnings + y.warnings);	/* no lock rule broken */
}

static void new_ptes_are_young_body(struct yt *y)
{
	struct ktest *t = y->t;
	unsigned long faults;

	KTEST_EXPECT_FALSE(t, pte_present(yt_pte(y, YT_A)));
	KTEST_EXPECT_EQ(t, yt_read(y, YT_A, &faults), 0);	/* a zeroed page */
	KTEST_EXPECT_EQ(t, faults, 1);
	KTEST_EXPECT_TRUE(t, pte_present(yt_pte(y, YT_A)) && pte_young(yt_pte(y, YT_A)));
	yt_write(y, YT_B, 0x5a5a, &faults);
	KTEST_EXPECT_EQ(t, faults, 1);
	KTEST_EXPECT_TRUE(t, pte_young(yt_pte(y, YT_B)) && pte_dirty(yt_pte(y, YT_B)));
	KTEST_EXPECT_FALSE(t, pte_present(yt_pte(y, YT_C)));	/* never touched: no pte at all */
}

static void new_ptes_are_young(struct ktest *t)
{
	yt_run(t, new_ptes_are_young_body);
}

static void clear_flush_young_then_access_body(struct yt *y)
{
	struct ktest *t = y->t;
	unsigned long faults;

	yt_write(y, YT_A, 0x1234, NULL);
	KTEST_ASSERT_TRUE(t, pte_young(yt_pte(y, YT_A)));
	KTEST_EXPECT_EQ(t, yt_clear_flush_young(y, YT_A), 1);	/* it was young */
	KTEST_EXPECT_FALSE(t, pte_young(yt_pte(y, YT_A)));
	KTEST_EXPECT_TRUE(t, pte_present(yt_pte(y, YT_A)) && pte_dirty(yt_pte(y, YT_A)));
	KTEST_EXPECT_EQ(t, yt_clear_flush_young(y, YT_A), 0);	/* nothing touched it since */
	KTEST_EXPECT_EQ(t, yt_read(y, YT_A, &faults), 0x1234);	/* the page is still there */
	KTEST_EXPECT_LE(t, faults, 1);
	KTEST_EXPECT_TRUE(t, pte_young(yt_pte(y, YT_A)));
	yt_say_who("a read", faults);
	/* and again: each clear is seen by the next access (the TLB entry went with the bit) */
	KTEST_EXPECT_EQ(t, yt_clear_flush_young(y, YT_A), 1);
	KTEST_EXPECT_EQ(t, yt_read(y, YT_A, NULL), 0x1234);
	KTEST_EXPECT_EQ(t, yt_clear_flush_young(y, YT_A), 1);
}

static void clear_flush_young_then_access(struct ktest *t)
{
	yt_run(t, clear_flush_young_then_access_body);
}

static void write_through_old_pte_body(struct yt *y)
{
	struct ktest *t = y->t;
	unsigned long faults;

	yt_write(y, YT_B, 1, NULL);
	KTEST_ASSERT_EQ(t, yt_clear_flush_young(y, YT_B), 1);
	/* Clean too, as writeback would leave a file pte: the write must set both bits. */
	spin_lock(&y->mm->page_table_lock);
	pte_t *ptep = user_pte_lookup(y->mm, YT_B);
	set_pte_at(y->mm, YT_B, ptep, pte_mkclean(ptep_get(ptep)));
	spin_unlock(&y->mm->page_table_lock);
	flush_tlb_page(NULL, YT_B);
	KTEST_ASSERT_FALSE(t, pte_young(yt_pte(y, YT_B)) || pte_dirty(yt_pte(y, YT_B)));
	yt_write(y, YT_B + sizeof(long), 0xbeef, &faults);
	KTEST_EXPECT_LE(t, faults, 1);
	KTEST_EXPECT_TRUE(t, pte_young(yt_pte(y, YT_B)) && pte_dirty(yt_pte(y, YT_B)));
	KTEST_EXPECT_EQ(t, yt_read(y, YT_B, NULL), 1);
	KTEST_EXPECT_EQ(t, yt_read(y, YT_B + sizeof(long), NULL), 0xbeef);
	yt_say_who("a write", faults);
}

static void write_through_old_pte(struct ktest *t)
{
	yt_run(t, write_through_old_pte_body);
}

static void untouched_old_pte_stays_old_body(struct yt *y)
{
	struct ktest *t = y->t;

	yt_write(y, YT_A, 0xa, NULL);
	yt_write(y, YT_C, 0xc, NULL);
	KTEST_EXPECT_EQ(t, yt_clear_flush_young(y, YT_A), 1);
	KTEST_EXPECT_EQ(t, yt_clear_flush_young(y, YT_C), 1);
	KTEST_EXPECT_EQ(t, yt_read(y, YT_A, NULL), 0xa);	/* A only */
	KTEST_EXPECT_TRUE(t, pte_young(yt_pte(y, YT_A)));
	KTEST_EXPECT_FALSE(t, pte_young(yt_pte(y, YT_C)));
	KTEST_EXPECT_EQ(t, yt_clear_flush_young(y, YT_C), 0);
	KTEST_EXPECT_EQ(t, yt_clear_flush_young(y, YT_B), 0);	/* no pte there: none is old */
	KTEST_EXPECT_FALSE(t, pte_present(yt_pte(y, YT_B)));
	KTEST_EXPECT_EQ(t, yt_read(y, YT_C, NULL), 0xc);
	KTEST_EXPECT_TRUE(t, pte_young(yt_pte(y, YT_C)));
}

static void untouched_old_pte_stays_old(struct ktest *t)
{
	yt_run(t, untouched_old_pte_stays_old_body);
}

static void mprotect_keeps_old_body(struct yt *y)
{
	struct ktest *t = y->t;
	struct mm_struct *mm = y->mm;
	unsigned long end = YT_BASE + YT_PAGES * PAGE_SIZE;

	yt_write(y, YT_A, 7, NULL);
	KTEST_ASSERT_EQ(t, yt_clear_flush_young(y, YT_A), 1);
	mutex_lock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(mm, YT_BASE, end, VM_READ), 0);
	mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT_FALSE(t, pte_write(yt_pte(y, YT_A)));
	KTEST_EXPECT_FALSE(t, pte_young(yt_pte(y, YT_A)));
	mutex_lock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(mm, YT_BASE, end, VM_READ | VM_WRITE), 0);
	mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT_FALSE(t, pte_young(yt_pte(y, YT_A)));
	KTEST_EXPECT_TRUE(t, pte_dirty(yt_pte(y, YT_A)));
	KTEST_EXPECT_EQ(t, yt_read(y, YT_A, NULL), 7);
	KTEST_EXPECT_TRUE(t, pte_young(yt_pte(y, YT_A)));
}

static void mprotect_keeps_old(struct ktest *t)
{
	yt_run(t, mprotect_keeps_old_body);
}

/* The direct map's entry for the page (a pte, or a block with no pte) is not touched. */
static void kernel_alias_not_made_old_body(struct yt *y)
{
	struct ktest *t = y->t;
	unsigned long *alias;
	pte_t *kptep;

	yt_write(y, YT_A, 0x77, NULL);
	alias = page_address(pfn_to_page(pte_pfn(yt_pte(y, YT_A))));
	kptep = virt_to_kpte((unsigned long)alias);
	KTEST_ASSERT_EQ(t, yt_clear_flush_young(y, YT_A), 1);
	KTEST_EXPECT_FALSE(t, pte_young(yt_pte(y, YT_A)));
	KTEST_EXPECT_TRUE(t, !kptep || pte_young(ptep_get(kptep)));
	KTEST_EXPECT_EQ(t, READ_ONCE(*alias), 0x77);	/* the kernel reads it without a fault */
	KTEST_EXPECT_FALSE(t, pte_young(yt_pte(y, YT_A)));	/* and the user pte stays old */
}

static void kernel_alias_not_made_old(struct ktest *t)
{
	yt_run(t, kernel_alias_not_made_old_body);
}

/* The lock rule is checked: without the pte lock, ptep_clear_flush_young() still does its job
 * but warns once (vma_assert_pte_locked, v6.10's lockdep_assert_held). */
static void lock_rule_is_checked_body(struct yt *y)
{
	struct ktest *t = y->t;
	struct mm_struct *mm = y->mm;
	struct vm_area_struct *vma;
	unsigned long before;
	pte_t *ptep;
	int young;

	yt_write(y, YT_A, 1, NULL);
	mutex_lock(&mm->mmap_lock);		/* keeps the table where it is */
	vma = vma_lookup(mm, YT_A);
	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, YT_A);
	spin_unlock(&mm->page_table_lock);
	before = nr_warnings();
	young = ptep_clear_flush_young(vma, YT_A, ptep);	/* the lock not held: a WARNING */
	y->warnings = nr_warnings() - before;
	mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, y->warnings, 1);
	KTEST_EXPECT_EQ(t, young, 1);
	KTEST_EXPECT_FALSE(t, pte_young(yt_pte(y, YT_A)));
}

static void lock_rule_is_checked(struct ktest *t)
{
	yt_run(t, lock_rule_is_checked_body);
}

static const struct ktest_case young_cases[] = {
	KTEST_CASE(new_ptes_are_young),
	KTEST_CASE(clear_flush_young_then_access),
	KTEST_CASE(write_through_old_pte),
	KTEST_CASE(untouched_old_pte_stays_old),
	KTEST_CASE(mprotect_keeps_old),
	KTEST_CASE(kernel_alias_not_made_old),
	KTEST_CASE(lock_rule_is_checked),
	{ 0 },
};
KTEST_SUITE(young, young_cases);
