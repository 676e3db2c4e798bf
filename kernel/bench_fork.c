/*
 * bench_fork.c - fork's rows of `make bench` (kernel/bench.c says how instructions are counted;
 * docs/benchmarks.md has the figures and docs/fork.md the code they measure):
 *   fault-cow   a write to an anonymous page fork has shared (mapcount 2, read-only in both
 *               mms): do_user_addr_fault() through do_wp_page()'s copy: a new folio, the
 *               anon rmap and LRU, the old mapping's count and reference dropped, the pte
 *               replaced and flushed.  The page copy itself (a memcpy of 4 KiB, measured
 *               alone) is subtracted, as fault-anon subtracts the clearing.
 *   fork-exit   the address-space half of fork + exit for a task with 1 MiB of touched
 *               anonymous memory (256 pages): dup_mm() (the mm, its root table, the area,
 *               the pte table, 256 ptes write-protected and shared, the parent's TLB flush)
 *               and the child's mmput() (every pte zapped, the table, the area, the root and
 *               the mm freed).  The thread's creation and switches are not in it
 *               (yield-roundtrip is a switch; exec-hello a whole task's life).
 *   folio-referenced  reclaim's rmap walk (mm/rmap.c) of an anonymous folio mapped by 4 mms
 *               (the bench's and three dup_mm() copies), every pte young: the anon_vma's 4
 *               areas visited, each pte found under its mm's page_table_lock, made old and
 *               its TLB entry flushed.  The folio lock is taken outside (reclaim holds it).
 * Between rounds (not measured) the parent writes every page again, so each fork finds it as
 * a task that has just run: every page exclusive and writable.
 * The bench runs in the shell's thread with a user mm of its own as current->mm (never made
 * active: nothing here touches the pages through the MMU).
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/fork.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/rmap.h"
#include "tinymm/swap.h"
#include "tinymm/user_task.h"

#define NR_COW		256
#define NR_FORK		32
#define AREA		0x100000UL
#define TASK_PAGES	256		/* 1 MiB */
#define NR_MAPPERS	4		/* folio-referenced: mms mapping each folio */

static uint32_t samples[NR_COW];

static int fail(const char *what, long err)
{
	kprintf("bench: %s: %s\n", what, errname((int)err));
	return 1;
}

uint32_t bench_copy_cost(uint32_t overhead)
{
	struct page *a = alloc_page(GFP_KERNEL), *b = alloc_page(GFP_KERNEL);
	uint32_t least = ~0u, n;

	if (a && b)
		for (int i = 0; i < 64; i++) {
			BENCH_MEASURE(n, memcpy(page_address(a), page_address(b), PAGE_SIZE));
			least = min(least, n > overhead ? n - overhead : 0);
		}
	if (a)
		__free_page(a);
	if (b)
		__free_page(b);
	return a && b ? least : 0;
}

/* Write every page of [AREA, AREA + pages): faulted in, or made exclusive again. */
static int touch(unsigned long pages)
{
	int sig = 0, code;

	for (unsigned long i = 0; i < pages && !sig; i++)
		sig = do_user_addr_fault(AREA + i * PAGE_SIZE, FAULT_FLAG_WRITE | FAULT_FLAG_USER, &code);
	lru_add_drain();	/* the LRU batch's references are not the ptes' */
	return sig;
}

static int bench_cow(struct mm_struct *mm, uint32_t overhead)
{
	struct mm_struct *child;
	int sig = 0, code, err;

	if (touch(NR_COW))
		return fail("anon fault", -EFAULT);
	child = dup_mm(mm, &err);
	if (!child)
		return fail("dup_mm", err);
	for (int i = 0; i < NR_COW && !sig; i++)
		BENCH_MEASURE(samples[i], sig = do_user_addr_fault(AREA + i * PAGE_SIZE,
							    FAULT_FLAG_WRITE | FAULT_FLAG_USER, &code));
	mmput(child);
	if (sig)
		return fail("cow fault", -EFAULT);
	bench_summary("fault-cow", samples, NR_COW, overhead + bench_copy_cost(overhead));
	return 0;
}

/* What is measured: the child's mm made and released; 0 or -ENOMEM. */
static int fork_exit_once(struct mm_struct *mm)
{
	int err;
	struct mm_struct *child = dup_mm(mm, &err);

	if (child)
		mmput(child);
	return err;
}

static int bench_fork_exit(struct mm_struct *mm, uint32_t overhead)
{
	int err = 0;

	for (int i = 0; i < NR_FORK; i++) {
		if (touch(TASK_PAGES))
			return fail("anon fault", -EFAULT);
		BENCH_MEASURE(samples[i], err = fork_exit_once(mm));
		if (err)
			return fail("dup_mm", err);
	}
	bench_summary("fork-exit", samples, NR_FORK, overhead);
	return 0;
}

/* The pte at @addr in @mm made young, as the MMU would on an access (not measured). */
static void make_young(struct mm_struct *mm, unsigned long addr)
{
	pte_t *pte;

	spin_lock(&mm->page_table_lock);
	pte = user_pte_lookup(mm, addr);
	if (pte && pte_present(ptep_get(pte)))
		set_pte_at(mm, addr, pte, pte_mkyoung(ptep_get(pte)));
	spin_unlock(&mm->page_table_lock);
}

static int bench_referenced(struct mm_struct *mm, uint32_t overhead)
{
	struct mm_struct *mms[NR_MAPPERS] = { mm };
	int err = 0, bad = 0;

	if (touch(NR_COW))
		return fail("anon fault", -EFAULT);
	for (int m = 1; m < NR_MAPPERS && !err; m++)
		mms[m] = dup_mm(mm, &err);
	for (int i = 0; i < NR_COW && !err; i++) {
		unsigned long addr = AREA + i * PAGE_SIZE, vm_flags;
		struct folio *folio;
		pte_t *pte;
		int n;

		spin_lock(&mm->page_table_lock);
		pte = user_pte_lookup(mm, addr);
		folio = pte ? page_folio(pfn_to_page(pte_pfn(ptep_get(pte)))) : NULL;
		spin_unlock(&mm->page_table_lock);
		if (!folio)
			return fail("pte lookup", -EFAULT);
		for (int m = 0; m < NR_MAPPERS; m++)
			make_young(mms[m], addr);
		folio_lock(folio);
		BENCH_MEASURE(samples[i], n = folio_referenced(folio, 1, &vm_flags));
		folio_unlock(folio);
		bad += n != NR_MAPPERS;
	}
	for (int m = 1; m < NR_MAPPERS; m++)
		if (mms[m])
			mmput(mms[m]);
	if (err)
		return fail("dup_mm", err);
	if (bad)
		return fail("folio_referenced: not every mapping counted", -EINVAL);
	bench_summary("folio-referenced", samples, NR_COW, overhead);
	return 0;
}

int bench_fork(void)
{
	struct mm_struct *mm = mm_alloc();
	uint32_t overhead = ~0u;
	long addr;
	int ret;

	if (!mm)
		return fail("mm_alloc", -ENOMEM);
	for (int i = 0; i < NR_COW; i++) {
		BENCH_MEASURE(samples[i], (void)0);
		overhead = min(overhead, samples[i]);
	}
	current->mm = mm;
	mutex_lock(&mm->mmap_lock);
	addr = mmap_region(mm, AREA, TASK_PAGES * PAGE_SIZE,
			   VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE, NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	ret = addr < 0 ? fail("mmap anon", addr) : bench_cow(mm, overhead);
	if (!ret)
		ret = bench_fork_exit(mm, overhead);
	if (!ret)
		ret = bench_referenced(mm, overhead);
	current->mm = NULL;
	mmput(mm);
	return ret;
}
