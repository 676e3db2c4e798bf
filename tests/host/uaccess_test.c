/*
 * uaccess_test.c - host.uaccess: the user-memory calls (include/tinymm/uaccess.h,
 * lib/usercopy.c) over the host's raw copies (tests/host/host_uaccess.c, which walk
 * current->mm's fake page tables and fault through do_user_addr_fault), on a fake user mm of
 * a host thread: a copy into an anonymous area demand-pages it (AnonPages counts it), a
 * read-only area refuses a write, an address outside every area or in the kernel half is
 * EFAULT, strncpy_from_user's length / unterminated / EFAULT results, get_user and put_user,
 * an old pte made young by the fault its next access takes (a read; a write to a clean one
 * makes it dirty too), clear_user; the mm freed afterwards gives every page back.
 */
#include "host_sched_test.h"
#include "tinymm/arch.h"
#include "tinymm/irqflags.h"
#include "tinymm/mm_fault.h"
#include "tinymm/swap.h"
#include "tinymm/uaccess.h"
/* <stdlib.h>'s wait macros: the kernel's (the same encoding) replace them. */
#undef WIFEXITED
#undef WEXITSTATUS
#undef WTERMSIG
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"

#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE)
#define RO		(VM_READ | VM_MAYREAD | VM_MAYWRITE)
#define BASE		(64UL << 20)		/* the RW area: 4 pages */
#define RO_BASE		(BASE + P(8))		/* the read-only area: 1 page */
#define HOLE		(BASE + P(4))		/* between them: no area */

/* Free memory as a leak check sees it (tests/ktest/fault_ktest.c's): slab pages counted as
 * free (the areas and the mm come from kmalloc, whose slabs may stay). */
static unsigned long free_and_slab(void)
{
	lru_add_drain();
	return nr_free_pages_and_pcp() + slab_pages_reclaimable() + slab_pages_unreclaimable();
}

/* The current thread becomes a user task of @mm (as exec's exec_mmap), or stops being one. */
static void use_mm(struct mm_struct *mm)
{
	unsigned long flags;

	local_irq_save(flags);
	current->mm = mm;
	switch_mm(active_mm, mm ? mm : &init_mm);
	active_mm = mm ? mm : &init_mm;
	local_irq_restore(flags);
}

/* ptep_clear_flush_young() on @addr's pte with the locks reclaim would hold; -1: no pte. */
static int young_clear(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;
	pte_t *ptep;
	int ret = -1;

	mutex_lock(&mm->mmap_lock);
	vma = vma_lookup(mm, addr);
	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, addr);
	if (vma && ptep && pte_present(ptep_get(ptep)))
		ret = ptep_clear_flush_young(vma, addr, ptep);
	spin_unlock(&mm->page_table_lock);
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

static int uaccess_scenario(void)
{
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);
	unsigned long free0;
	struct mm_struct *mm;
	static char big[3 * 4096];	/* static: the thread has 16 KiB of stack (ASan) */
	char buf[64];
	unsigned int u32v = 0;
	unsigned long ulv = 0;

	free0 = free_and_slab();
	mm = mm_alloc();
	CHECK(mm != NULL);
	if (!mm)
		return 1;
	mutex_lock(&mm->mmap_lock);
	CHECK_EQ(mmap_region(mm, BASE, P(4), RW, NULL, 0), (long)BASE);
	CHECK_EQ(mmap_region(mm, RO_BASE, P(1), RO, NULL, 0), (long)RO_BASE);
	mutex_unlock(&mm->mmap_lock);
	use_mm(mm);

	/* A copy to a never-touched anonymous area faults its pages in (three, across two
	 * boundaries), and reads back. */
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7 + 1);
	CHECK_EQ(copy_to_user((void __user *)(BASE + 100), big, sizeof(big)), 0);
	CHECK_EQ(global_node_page_state(NR_ANON_MAPPED), anon0 + 4);	/* 100 + 12288 spans 4 pages */
	memset(big, 0, sizeof(big));
	CHECK_EQ(copy_from_user(big, (const void __user *)(BASE + 100), sizeof(big)), 0);
	CHECK(big[0] == 1 && big[5000] == (char)(5000 * 7 + 1) && big[12287] == (char)(12287 * 7 + 1));

	/* A read-only area: read faults map the zero-filled page, a write is refused whole. */
	CHECK_EQ(copy_from_user(buf, (const void __user *)RO_BASE, 16), 0);
	CHECK_EQ(buf[0], 0);
	CHECK_EQ(copy_to_user((void __user *)RO_BASE, "x", 1), 1);
	CHECK_EQ(put_user(1u, (unsigned int __user *)RO_BASE), -EFAULT);

	/* Outside every area, page 0, and the kernel half: EFAULT; a short copy into a hole
	 * reports the bytes left and zero-fills the kernel buffer's rest. */
	CHECK_EQ(copy_from_user(buf, (const void __user *)HOLE, 8), 8);
	CHECK_EQ(copy_to_user((void __user *)0, buf, 8), 8);
	CHECK_EQ(copy_to_user((void __user *)TASK_SIZE, buf, 8), 8);
	CHECK_EQ(copy_from_user(buf, (const void __user *)(TASK_SIZE - 4), 8), 8);
	CHECK_EQ(copy_from_user(buf, (const void __user *)(unsigned long)buf, 8), 8);	/* a kernel pointer */
	memset(buf, 'k', sizeof(buf));
	CHECK_EQ(copy_from_user(buf, (const void __user *)(HOLE - 8), 16), 8);
	for (int i = 0; i < 16; i++)		/* 8 copied (zeros: never written), 8 zero-filled */
		CHECK_EQ(buf[i], 0);
	CHECK_EQ(buf[16], 'k');

	/* get_user / put_user */
	CHECK_EQ(put_user(0xdeadbeefu, (unsigned int __user *)(BASE + 8)), 0);
	CHECK_EQ(get_user(u32v, (const unsigned int __user *)(BASE + 8)), 0);
	CHECK_EQ(u32v, 0xdeadbeefu);
	ulv = 5;
	CHECK_EQ(get_user(ulv, (const unsigned long __user *)HOLE), -EFAULT);
	CHECK_EQ(ulv, 0);			/* set to 0 on failure, as Linux's */
	CHECK_EQ(put_user(7ul, (unsigned long __user *)(TASK_SIZE + 64)), -EFAULT);

	/* An old pte faults (the walk is a Svade hart's: tests/host/host_uaccess.c) and the fault
	 * makes it young: ptep_clear_flush_young() says 1, then 0; a read brings the bytes and one
	 * pgfault; an old clean pte written is made young and dirty (docs/young.md). */
	CHECK_EQ(young_clear(mm, BASE + 8), 1);
	CHECK_EQ(young_clear(mm, BASE + 8), 0);
	unsigned long faults = global_vm_event(PGFAULT);
	u32v = 0;
	CHECK_EQ(get_user(u32v, (const unsigned int __user *)(BASE + 8)), 0);
	CHECK_EQ(u32v, 0xdeadbeefu);
	CHECK_EQ(global_vm_event(PGFAULT), faults + 1);
	CHECK_EQ(young_clear(mm, BASE + 8), 1);		/* young again, and made old */
	spin_lock(&mm->page_table_lock);
	pte_t *ptep = user_pte_lookup(mm, BASE + 8);
	set_pte_at(mm, BASE + 8, ptep, pte_mkclean(ptep_get(ptep)));
	spin_unlock(&mm->page_table_lock);
	CHECK_EQ(put_user(0x600dbeefu, (unsigned int __user *)(BASE + 12)), 0);
	CHECK_EQ(global_vm_event(PGFAULT), faults + 2);
	CHECK(pte_young(ptep_get(ptep)) && pte_dirty(ptep_get(ptep)) && pte_write(ptep_get(ptep)));
	CHECK_EQ(get_user(u32v, (const unsigned int __user *)(BASE + 12)), 0);
	CHECK_EQ(u32v, 0x600dbeefu);
	CHECK_EQ(global_vm_event(PGFAULT), faults + 2);	/* young and dirty: no more faults */

	/* strncpy_from_user: the length without the NUL; @count when unterminated (dst then
	 * holds @count bytes, no NUL); a string ending just below a hole is fine, one running
	 * into it is EFAULT. */
	CHECK_EQ(copy_to_user((void __user *)(BASE + 200), "hello", 6), 0);
	memset(buf, 'z', sizeof(buf));
	CHECK_EQ(strncpy_from_user(buf, (const char __user *)(BASE + 200), sizeof(buf)), 5);
	CHECK(!strcmp(buf, "hello"));
	memset(buf, 'z', sizeof(buf));
	CHECK_EQ(strncpy_from_user(buf, (const char __user *)(BASE + 200), 3), 3);
	CHECK(!memcmp(buf, "helz", 4));
	CHECK_EQ(strncpy_from_user(buf, (const char __user *)(BASE + 200), 0), 0);
	CHECK_EQ(copy_to_user((void __user *)(HOLE - 3), "ab", 3), 0);
	CHECK_EQ(strncpy_from_user(buf, (const char __user *)(HOLE - 3), sizeof(buf)), 2);
	CHECK_EQ(copy_to_user((void __user *)(HOLE - 3), "abc", 3), 0);	/* no NUL before the hole */
	CHECK_EQ(strncpy_from_user(buf, (const char __user *)(HOLE - 3), sizeof(buf)), -EFAULT);
	CHECK_EQ(strncpy_from_user(buf, (const char __user *)HOLE, sizeof(buf)), -EFAULT);
	CHECK_EQ(strncpy_from_user(buf, (const char __user *)TASK_SIZE, sizeof(buf)), -EFAULT);

	/* clear_user: zeroes across a page boundary; the bytes not cleared at a hole. */
	CHECK_EQ(clear_user((void __user *)(BASE + P(1) - 10), 20), 0);
	CHECK_EQ(copy_from_user(big, (const void __user *)(BASE + P(1) - 11), 22), 0);
	CHECK(big[0] != 0 && big[21] != 0);
	for (int i = 1; i <= 20; i++)
		CHECK_EQ(big[i], 0);
	CHECK_EQ(clear_user((void __user *)(HOLE - 100), 300), 200);
	CHECK_EQ(clear_user((void __user *)TASK_SIZE, 1), 1);

	/* No page was mapped by the failures (the read-only page's read fault mapped one: tinymm
	 * has no shared zero page); the mm's end gives everything back. */
	CHECK_EQ(global_node_page_state(NR_ANON_MAPPED), anon0 + 5);
	use_mm(NULL);
	mmput(mm);
	CHECK_EQ(global_node_page_state(NR_ANON_MAPPED), anon0);
	CHECK_EQ(free_and_slab(), free0);
	return 0;
}

static void uaccess_on_a_fake_mm(void **state)
{
	(void)state;
	run_scenario(uaccess_scenario);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(uaccess_on_a_fake_mm),
	};

	(void)jiffy_deadline;
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
