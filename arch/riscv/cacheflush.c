/*
 * cacheflush.c - RISC-V's PG_dcache_clean policy (docs/cacheflush.md): v6.10's
 * arch/riscv/mm/cacheflush.c.
 *
 * flush_icache_pte(), called by set_pte_at() for a present executable pte (asm/pgtable.h's
 * arch_sync_icache_dcache, v6.10's __set_pte_at test), executes FENCE.I while the folio's
 * PG_dcache_clean is clear and then sets it: on RISC-V the flag means "the instruction side is
 * coherent with this folio's contents".  flush_dcache_folio() (the kernel's writes:
 * include/tinymm/cacheflush.h) clears it.  v6.10 tests the flag and sets it after the fence
 * (test_bit, flush_icache_mm, set_bit); so does tinymm.
 * sys_riscv_flush_icache() is the user's call for code it rewrote in place (below).
 * Where tinymm differs from v6.10: one hart, so flush_icache_mm() is the local FENCE.I (v6.10
 * also marks the mm's other harts for a deferred fence and asks the SBI for a remote one).
 */
#include "tinymm/cacheflush.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/sched.h"
#include "tinymm/syscalls.h"
#include "tinymm/page-flags.h"
#include "tinymm/pgtable.h"


/* v6.10's flush_icache_mm(mm, local): every hart that may run @mm; one here. */
static void flush_icache_mm(struct mm_struct *mm)
{
	(void)mm;
	local_flush_icache_all();
}

void flush_icache_pte(struct mm_struct *mm, pte_t pte)
{
	unsigned long pfn = pte_pfn(pte);
	struct folio *folio;

	if (!pfn_valid(pfn))
		return;
	folio = page_folio(pfn_to_page(pfn));
	if (!test_bit(PG_dcache_clean, &folio->flags)) {
		flush_icache_mm(mm);
		set_bit(PG_dcache_clean, &folio->flags);
	} else {
		count_cacheop(CACHEOP_DCACHE_CLEAN_SKIPPED);
	}
}

/*
 * riscv_flush_icache(start, end, flags), v6.10's: a task that wrote instructions through its
 * data side makes them fetchable.  The range is not looked at (FENCE.I has none; v6.10 ignores
 * it too); a flag other than SYS_RISCV_FLUSH_ICACHE_LOCAL is -EINVAL.  LOCAL or not is the
 * same on one hart.
 */
long sys_riscv_flush_icache(unsigned long start, unsigned long end, unsigned long flags)
{
	(void)start;
	(void)end;
	if (flags & ~SYS_RISCV_FLUSH_ICACHE_ALL)
		return -EINVAL;
	flush_icache_mm(current->mm);
	return 0;
}
