/*
 * bench_migrate.c - migration's row of `make bench` (kernel/bench.c says how instructions are
 * counted; docs/benchmarks.md has the figures, docs/migration.md the code they measure):
 *   migrate-4k  one mapped, exclusive, written anonymous page moved to another frame: its LRU
 *               isolation (folio_isolate_lru) and migrate_pages(MIGRATE_SYNC) with
 *               alloc_migration_target: the lock, the anon_vma reference, the pte to a
 *               migration entry and back (rmap walk, flush), the new folio's allocation, the
 *               flags, the LRU add, the old folio freed.  The page copy itself (a memcpy of
 *               4 KiB, measured alone) is subtracted, as fault-cow does.
 * The pages belong to a user mm of the bench's own (current->mm, never made active).
 */
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/migrate.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/swap.h"
#include "tinymm/user_task.h"
#include "../mm/internal.h"

#define NR_MIGRATE	256
#define AREA		0x100000UL

static uint32_t samples[NR_MIGRATE];

static int fail(const char *what, long err)
{
	kprintf("bench: %s: %s\n", what, errname((int)err));
	return 1;
}

/* What is measured: @folio off the LRU and moved; 0 if it moved. */
static int migrate_once(struct folio *folio)
{
	struct page_list list;
	unsigned int moved = 0;

	if (!folio_isolate_lru(folio))
		return -EBUSY;
	page_list_init(&list);
	page_list_add_tail(&list, &folio->page);
	if (migrate_pages(&list, alloc_migration_target, NULL, 0, MIGRATE_SYNC, MR_SYSCALL, &moved)) {
		putback_movable_pages(&list);
		return -EBUSY;
	}
	return moved == 1 ? 0 : -EBUSY;
}

int bench_migrate(void)
{
	struct mm_struct *mm = mm_alloc();
	uint32_t overhead = ~0u;
	int sig = 0, code, err = 0;
	long addr;

	if (!mm)
		return fail("mm_alloc", -ENOMEM);
	for (int i = 0; i < NR_MIGRATE; i++) {
		BENCH_MEASURE(samples[i], (void)0);
		overhead = min(overhead, samples[i]);
	}
	current->mm = mm;
	mutex_lock(&mm->mmap_lock);
	addr = mmap_region(mm, AREA, NR_MIGRATE * PAGE_SIZE,
			   VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE, NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	for (int i = 0; addr >= 0 && i < NR_MIGRATE && !sig; i++)
		sig = do_user_addr_fault(AREA + i * PAGE_SIZE, FAULT_FLAG_WRITE | FAULT_FLAG_USER, &code);
	lru_add_drain();	/* on the LRU lists, where isolation finds them */
	for (int i = 0; addr >= 0 && !sig && i < NR_MIGRATE && !err; i++) {
		struct folio *folio;
		pte_t *pte;

		spin_lock(&mm->page_table_lock);
		pte = user_pte_lookup(mm, AREA + i * PAGE_SIZE);
		folio = pte && pte_present(ptep_get(pte)) ? page_folio(pfn_to_page(pte_pfn(ptep_get(pte)))) : NULL;
		spin_unlock(&mm->page_table_lock);
		if (!folio) {
			err = -EFAULT;
			break;
		}
		BENCH_MEASURE(samples[i], err = migrate_once(folio));
	}
	current->mm = NULL;
	mmput(mm);
	if (addr < 0)
		return fail("mmap anon", addr);
	if (sig)
		return fail("anon fault", -EFAULT);
	if (err)
		return fail("migrate", err);
	bench_summary("migrate-4k", samples, NR_MIGRATE, overhead + bench_copy_cost(overhead));
	return 0;
}
