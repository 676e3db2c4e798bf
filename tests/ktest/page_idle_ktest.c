/*
 * page_idle_ktest.c - suite `page_idle`, every board: idle page tracking (mm/page_idle.c,
 * docs/page_idle.md).  Most cases build a user mm with mm_alloc() that is never loaded into the
 * MMU: an access is what ARM's Access flag fault does, handle_mm_fault() on the present pte
 * (which makes it young); the last case loads its mm in a kernel thread and touches the pages
 * through uaccess, so the hardware's walk (RISC-V's A bit, ARM's fault) makes the ptes young.
 *   - marking a mapped anonymous page clears its young pte (kept in PG_young), sets PG_idle and
 *     KPF_IDLE, and leaves the kernel's direct map of the frame young; reading it with nothing
 *     touched says idle and changes nothing;
 *   - after marking four pages and touching two (a read, a write), reading says exactly those
 *     two were accessed; they stay accessed until marked again, and KPF_IDLE follows;
 *   - folio_mark_accessed() (an access through no pte) makes a marked folio not idle;
 *   - reclaim's folio_referenced() counts the young bit marking moved into PG_young, once, and
 *     clears PG_idle when it finds a young pte;
 *   - a page shared by fork: the young pte of either mm counts;
 *   - a page-cache page mapped MAP_SHARED (rmap_walk_file) is tracked the same way;
 *   - frames idle tracking does not follow are never marked: a kernel page, a hole beyond RAM,
 *     a folio still in the lru_add batch (until drained); a folio someone else has locked is
 *     marked but its ptes are left (v6.10's busy file folio), so the next read finds them young;
 *   - a freed frame forgets PG_idle and PG_young;
 *   - through the live MMU: a task's read and write after marking make exactly those pages read
 *     as accessed.
 * Every case checks that AnonPages, the page tables and the LRU lists are back and that no
 * WARNING was printed.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/errno.h"
#include "tinymm/fork.h"
#include "tinymm/irqflags.h"
#include "tinymm/kernel-page-flags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/page_alloc.h"
#include "tinymm/page_idle.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/sched.h"
#include "tinymm/swap.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"

#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define PI_BASE		(256UL << 20)	/* inside every board's TASK_SIZE */
#define PI_PAGES	4
#define PI_MAY		(VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define PI_RW		(VM_READ | VM_WRITE | PI_MAY)
#define PI_DIR		"/page_idle_kt"
#define KPF_IDLE_BIT	((u64)1 << KPF_IDLE)

static struct {
	unsigned long anon, tables, mapped, warnings;
} pi_before;

static void pi_snapshot(void)
{
	lru_add_drain();
	flush_thread_stack_frees();
	pi_before.anon = global_node_page_state(NR_ANON_MAPPED);
	pi_before.tables = global_node_page_state(NR_PAGETABLE);
	pi_before.mapped = global_node_page_state(NR_FILE_MAPPED);
	pi_before.warnings = nr_warnings();
}

static void pi_all_back(struct ktest *t)
{
	lru_add_drain();
	flush_thread_stack_frees();
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), pi_before.anon);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), pi_before.tables);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), pi_before.mapped);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, nr_warnings(), pi_before.warnings);
}

/* An access as ARM's Access flag fault (or a Svade hart's fault) takes it: the pte young. */
static vm_fault_t pi_touch(struct mm_struct *mm, unsigned long addr, bool write)
{
	vm_fault_t ret;

	mutex_lock(&mm->mmap_lock);
	ret = handle_mm_fault(vma_lookup(mm, addr), addr,
			      FAULT_FLAG_USER | (write ? FAULT_FLAG_WRITE : 0));
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

/* A fresh mm with PI_PAGES anonymous pages written at PI_BASE, the LRU batch drained. */
static struct mm_struct *pi_mm(struct ktest *t, bool drain)
{
	struct mm_struct *mm = mm_alloc();

	KTEST_EXPECT_TRUE(t, mm != NULL);
	if (!mm)
		return NULL;
	mutex_lock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, mmap_region(mm, PI_BASE, P(PI_PAGES), PI_RW, NULL, 0), (long)PI_BASE);
	mutex_unlock(&mm->mmap_lock);
	for (int i = 0; i < (drain ? PI_PAGES : 1); i++)
		KTEST_EXPECT_EQ(t, pi_touch(mm, PI_BASE + P(i), true), 0U);
	if (drain)
		lru_add_drain();
	return mm;
}

static pte_t pi_pte(struct mm_struct *mm, unsigned long addr)
{
	pte_t *ptep, pte = __pte(0);

	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, addr);
	if (ptep)
		pte = ptep_get(ptep);
	spin_unlock(&mm->page_table_lock);
	return pte;
}

static unsigned long pi_pfn(struct mm_struct *mm, unsigned long addr)
{
	pte_t pte = pi_pte(mm, addr);

	return pte_present(pte) ? pte_pfn(pte) : 0;
}

static struct folio *pi_folio(struct mm_struct *mm, unsigned long addr)
{
	unsigned long pfn = pi_pfn(mm, addr);

	return pfn ? page_folio(pfn_to_page(pfn)) : NULL;
}

static bool pi_young(struct mm_struct *mm, unsigned long addr)
{
	return pte_young(pi_pte(mm, addr));
}

static bool pi_kpf_idle(struct folio *folio)
{
	return stable_page_flags(&folio->page) & KPF_IDLE_BIT;
}

static void mark_then_read_untouched(struct ktest *t)
{
	pi_snapshot();
	struct mm_struct *mm = pi_mm(t, true);

	KTEST_ASSERT_TRUE(t, mm != NULL);
	for (int i = 0; i < PI_PAGES; i++) {
		unsigned long a = PI_BASE + P(i), pfn = pi_pfn(mm, a);
		struct folio *folio = pi_folio(mm, a);

		KTEST_ASSERT_TRUE(t, folio != NULL);
		KTEST_EXPECT_TRUE(t, pi_young(mm, a));		/* a new pte is young */
		KTEST_EXPECT_TRUE(t, folio_test_lru(folio));
		KTEST_EXPECT_FALSE(t, pi_kpf_idle(folio));
		KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn));
		KTEST_EXPECT_FALSE(t, pi_young(mm, a));
		KTEST_EXPECT_TRUE(t, pte_present(pi_pte(mm, a)));
		KTEST_EXPECT_TRUE(t, folio_test_idle(folio));
		KTEST_EXPECT_TRUE(t, folio_test_young(folio));	/* the cleared bit, for reclaim */
		KTEST_EXPECT_TRUE(t, pi_kpf_idle(folio));
		/* Only user ptes: the kernel's direct map of the frame keeps its young bit. */
		pte_t *kptep = virt_to_kpte((unsigned long)page_address(&folio->page));
		KTEST_EXPECT_TRUE(t, !kptep || pte_young(ptep_get(kptep)));
		KTEST_EXPECT_TRUE(t, page_idle_read_pfn(pfn));	/* nothing touched it */
		KTEST_EXPECT_TRUE(t, page_idle_read_pfn(pfn));	/* reading changed nothing */
		KTEST_EXPECT_FALSE(t, pi_young(mm, a));
		KTEST_EXPECT_TRUE(t, folio_test_idle(folio));
	}
	mmput(mm);
	pi_all_back(t);
}

static void touched_half_reads_accessed(struct ktest *t)
{
	pi_snapshot();
	struct mm_struct *mm = pi_mm(t, true);
	unsigned long pfn[PI_PAGES];

	KTEST_ASSERT_TRUE(t, mm != NULL);
	for (int i = 0; i < PI_PAGES; i++) {
		pfn[i] = pi_pfn(mm, PI_BASE + P(i));
		KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn[i]));
	}
	KTEST_EXPECT_EQ(t, pi_touch(mm, PI_BASE, false), 0U);		/* page 0: a read */
	KTEST_EXPECT_EQ(t, pi_touch(mm, PI_BASE + P(2), true), 0U);	/* page 2: a write */
	for (int i = 0; i < PI_PAGES; i++)
		KTEST_EXPECT_EQ(t, pi_young(mm, PI_BASE + P(i)), i % 2 == 0);
	for (int i = 0; i < PI_PAGES; i++) {
		struct folio *folio = pi_folio(mm, PI_BASE + P(i));

		KTEST_EXPECT_EQ(t, page_idle_read_pfn(pfn[i]), i % 2 == 1);
		KTEST_EXPECT_FALSE(t, pi_young(mm, PI_BASE + P(i)));	/* the read made it old */
		KTEST_EXPECT_EQ(t, folio_test_idle(folio), i % 2 == 1);
		KTEST_EXPECT_EQ(t, pi_kpf_idle(folio), i % 2 == 1);
		KTEST_EXPECT_EQ(t, page_idle_read_pfn(pfn[i]), i % 2 == 1);	/* and stays so */
	}
	KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn[0]));	/* marked again: idle again */
	KTEST_EXPECT_TRUE(t, page_idle_read_pfn(pfn[0]));
	mmput(mm);
	pi_all_back(t);
}

static void mark_accessed_clears_idle(struct ktest *t)
{
	pi_snapshot();
	struct mm_struct *mm = pi_mm(t, true);

	KTEST_ASSERT_TRUE(t, mm != NULL);
	struct folio *folio = pi_folio(mm, PI_BASE);
	unsigned long pfn = pi_pfn(mm, PI_BASE);

	KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn));
	folio_mark_accessed(folio);			/* read(2) of a cache page, say */
	KTEST_EXPECT_FALSE(t, folio_test_idle(folio));
	KTEST_EXPECT_FALSE(t, pi_young(mm, PI_BASE));	/* no pte was involved */
	KTEST_EXPECT_FALSE(t, page_idle_read_pfn(pfn));
	mmput(mm);
	pi_all_back(t);
}

static void reclaim_sees_the_kept_young_bit(struct ktest *t)
{
	pi_snapshot();
	struct mm_struct *mm = pi_mm(t, true);
	unsigned long vm_flags;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	struct folio *f0 = pi_folio(mm, PI_BASE), *f1 = pi_folio(mm, PI_BASE + P(1));

	/* The pte was young when marking cleared it: reclaim still counts that use, once. */
	KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pi_pfn(mm, PI_BASE)));
	KTEST_EXPECT_FALSE(t, pi_young(mm, PI_BASE));
	KTEST_EXPECT_EQ(t, folio_referenced(f0, 0, &vm_flags), 1);
	KTEST_EXPECT_FALSE(t, folio_test_young(f0));
	KTEST_EXPECT_EQ(t, folio_referenced(f0, 0, &vm_flags), 0);
	KTEST_EXPECT_TRUE(t, page_idle_read_pfn(pi_pfn(mm, PI_BASE)));	/* reclaim kept it idle */
	/* A young pte reclaim finds makes the folio not idle (v6.10's folio_referenced_one). */
	KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pi_pfn(mm, PI_BASE + P(1))));
	KTEST_EXPECT_EQ(t, folio_referenced(f1, 0, &vm_flags), 1);	/* PG_young */
	KTEST_EXPECT_EQ(t, pi_touch(mm, PI_BASE + P(1), false), 0U);
	KTEST_EXPECT_EQ(t, folio_referenced(f1, 0, &vm_flags), 1);	/* the pte */
	KTEST_EXPECT_FALSE(t, pi_young(mm, PI_BASE + P(1)));
	KTEST_EXPECT_FALSE(t, folio_test_idle(f1));
	KTEST_EXPECT_FALSE(t, page_idle_read_pfn(pi_pfn(mm, PI_BASE + P(1))));
	mmput(mm);
	pi_all_back(t);
}

static void shared_page_either_mm(struct ktest *t)
{
	pi_snapshot();
	struct mm_struct *parent = pi_mm(t, true), *child;
	int err = 0;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	child = dup_mm(parent, &err);
	KTEST_EXPECT_EQ(t, err, 0);
	KTEST_ASSERT_TRUE(t, child != NULL);
	unsigned long pfn = pi_pfn(parent, PI_BASE);

	KTEST_EXPECT_EQ(t, pi_pfn(child, PI_BASE), pfn);
	KTEST_EXPECT_EQ(t, folio_mapcount(page_folio(pfn_to_page(pfn))), 2);
	KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn));
	KTEST_EXPECT_FALSE(t, pi_young(parent, PI_BASE));
	KTEST_EXPECT_FALSE(t, pi_young(child, PI_BASE));
	KTEST_EXPECT_TRUE(t, page_idle_read_pfn(pfn));
	KTEST_EXPECT_EQ(t, pi_touch(child, PI_BASE, false), 0U);	/* the child reads it */
	KTEST_EXPECT_FALSE(t, pi_young(parent, PI_BASE));
	KTEST_EXPECT_FALSE(t, page_idle_read_pfn(pfn));
	KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn));
	KTEST_EXPECT_EQ(t, pi_touch(parent, PI_BASE, false), 0U);	/* now the parent */
	KTEST_EXPECT_FALSE(t, page_idle_read_pfn(pfn));
	mmput(child);
	mmput(parent);
	pi_all_back(t);
}

static void file_page_tracked(struct ktest *t)
{
	static char buf[2 * 4096];
	struct file *file = NULL;
	int err = vfs_mkdir(PI_DIR, 0755);

	pi_snapshot();
	KTEST_EXPECT_TRUE(t, err == 0 || err == -EEXIST);
	KTEST_ASSERT_EQ(t, do_mount("none", PI_DIR, "ramfs", 0), 0);
	KTEST_EXPECT_EQ(t, vfs_open(PI_DIR "/f", O_RDWR | O_CREAT, 0644, &file), 0);
	if (file) {
		memset(buf, 'f', sizeof(buf));
		KTEST_EXPECT_EQ(t, vfs_write(file, buf, sizeof(buf)), (long)sizeof(buf));
	}
	struct mm_struct *mm = file ? mm_alloc() : NULL;

	if (mm) {
		mutex_lock(&mm->mmap_lock);
		KTEST_EXPECT_EQ(t, mmap_region(mm, PI_BASE, P(2), VM_READ | VM_SHARED | PI_MAY,
					       file, 0), (long)PI_BASE);
		mutex_unlock(&mm->mmap_lock);
		KTEST_EXPECT_EQ(t, pi_touch(mm, PI_BASE, false), 0U);
		KTEST_EXPECT_EQ(t, pi_touch(mm, PI_BASE + P(1), false), 0U);
		lru_add_drain();
		struct folio *folio = pi_folio(mm, PI_BASE);
		unsigned long pfn = pi_pfn(mm, PI_BASE), pfn1 = pi_pfn(mm, PI_BASE + P(1));

		KTEST_EXPECT_TRUE(t, folio && !folio_test_anon(folio) && folio_test_lru(folio));
		KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn));
		KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn1));
		KTEST_EXPECT_FALSE(t, pi_young(mm, PI_BASE));
		KTEST_EXPECT_EQ(t, pi_touch(mm, PI_BASE + P(1), false), 0U);
		KTEST_EXPECT_TRUE(t, page_idle_read_pfn(pfn));
		KTEST_EXPECT_FALSE(t, page_idle_read_pfn(pfn1));
		mmput(mm);
	}
	if (file)
		KTEST_EXPECT_EQ(t, vfs_close(file), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(PI_DIR "/f"), 0);
	KTEST_EXPECT_EQ(t, do_umount(PI_DIR), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(PI_DIR), 0);
	pi_all_back(t);
}

static void untracked_frames(struct ktest *t)
{
	pi_snapshot();
	struct page *page = alloc_page(GFP_KERNEL);
	const struct memmap_bank *last = memmap_bank(memmap_nr_banks() - 1);

	KTEST_ASSERT_TRUE(t, page != NULL);
	KTEST_EXPECT_FALSE(t, page_idle_mark_pfn(page_to_pfn(page)));	/* not on an LRU */
	KTEST_EXPECT_FALSE(t, folio_test_idle(page_folio(page)));
	KTEST_EXPECT_FALSE(t, page_idle_read_pfn(page_to_pfn(page)));
	__free_page(page);
	KTEST_EXPECT_FALSE(t, page_idle_mark_pfn(last->end_pfn));	/* no struct page */
	KTEST_EXPECT_FALSE(t, page_idle_read_pfn(last->end_pfn));

	/* The newest folio waits in the lru_add batch without PG_lru: not followed until then. */
	struct mm_struct *mm = pi_mm(t, false);

	KTEST_ASSERT_TRUE(t, mm != NULL);
	unsigned long pfn = pi_pfn(mm, PI_BASE);
	struct folio *folio = pi_folio(mm, PI_BASE);

	KTEST_EXPECT_FALSE(t, folio_test_lru(folio));
	KTEST_EXPECT_FALSE(t, page_idle_mark_pfn(pfn));
	KTEST_EXPECT_FALSE(t, folio_test_idle(folio));
	lru_add_drain();
	/* Locked by someone else: marked, but its pte is left young (v6.10's busy file folio). */
	KTEST_ASSERT_TRUE(t, folio_trylock(folio));
	KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn));
	KTEST_EXPECT_TRUE(t, folio_test_idle(folio));
	KTEST_EXPECT_TRUE(t, pi_young(mm, PI_BASE));
	folio_unlock(folio);
	KTEST_EXPECT_FALSE(t, page_idle_read_pfn(pfn));		/* the young pte is found now */
	KTEST_EXPECT_FALSE(t, pi_young(mm, PI_BASE));
	/* Freed, the frame keeps neither flag. */
	KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn));
	KTEST_EXPECT_TRUE(t, folio_test_idle(folio) && folio_test_young(folio));
	mmput(mm);
	lru_add_drain();
	KTEST_EXPECT_EQ(t, pfn_to_page(pfn)->flags & (1UL << PG_idle | 1UL << PG_young), 0UL);
	KTEST_EXPECT_FALSE(t, page_idle_read_pfn(pfn));
	pi_all_back(t);
}

/* ---- through the live MMU ---- */

struct pi_live {
	struct ktest *t;
	struct mm_struct *mm;
	unsigned long faults;
};

static int pi_live_thread(void *arg)
{
	struct pi_live *l = arg;
	struct ktest *t = l->t;
	struct mm_struct *mm = mm_alloc();
	unsigned long v = 0, pfn[PI_PAGES];

	KTEST_EXPECT_TRUE(t, mm != NULL);
	if (!mm)
		do_exit(1);
	kthread_use_mm(mm);
	l->mm = mm;
	mutex_lock(&mm->mmap_lock);
	long addr = mmap_region(mm, PI_BASE, P(PI_PAGES), PI_RW, NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, addr, (long)PI_BASE);
	if (addr != (long)PI_BASE)
		do_exit(1);
	for (int i = 0; i < PI_PAGES; i++)
		KTEST_EXPECT_EQ(t, put_user(0x100UL + i, (unsigned long __user *)(PI_BASE + P(i))), 0);
	lru_add_drain();
	for (int i = 0; i < PI_PAGES; i++) {
		pfn[i] = pi_pfn(mm, PI_BASE + P(i));
		KTEST_EXPECT_TRUE(t, page_idle_mark_pfn(pfn[i]));
	}
	unsigned long before = global_vm_event(PGFAULT);

	KTEST_EXPECT_EQ(t, get_user(v, (unsigned long __user *)PI_BASE), 0);	/* page 0 */
	KTEST_EXPECT_EQ(t, v, 0x100UL);
	KTEST_EXPECT_EQ(t, put_user(0x2222UL, (unsigned long __user *)(PI_BASE + P(2))), 0);
	l->faults = global_vm_event(PGFAULT) - before;
	for (int i = 0; i < PI_PAGES; i++)
		KTEST_EXPECT_EQ(t, page_idle_read_pfn(pfn[i]), i % 2 == 1);
	do_exit(0);		/* releases the mm: every page and table */
}

static void access_through_the_mmu(struct ktest *t)
{
	struct pi_live l = { .t = t };
	struct task_struct *p;

	pi_snapshot();
	p = kthread_create(pi_live_thread, &l, "page-idle-kt");
	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	KTEST_EXPECT_EQ(t, kthread_join(p), 0);
	KTEST_EXPECT_LE(t, l.faults, 2);
	kprintf("    # page_idle: two accesses after marking: the ptes made young by %s\n",
		l.faults ? "faults (handle_mm_fault)" : "the hardware");
	pi_all_back(t);
}

static const struct ktest_case page_idle_cases[] = {
	KTEST_CASE(mark_then_read_untouched),
	KTEST_CASE(touched_half_reads_accessed),
	KTEST_CASE(mark_accessed_clears_idle),
	KTEST_CASE(reclaim_sees_the_kept_young_bit),
	KTEST_CASE(shared_page_either_mm),
	KTEST_CASE(file_page_tracked),
	KTEST_CASE(untracked_frames),
	KTEST_CASE(access_through_the_mmu),
	{ 0 },
};
KTEST_SUITE(page_idle, page_idle_cases);
