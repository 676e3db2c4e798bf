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
 * SMP, as v6.10's flush_icache_mm(): FENCE.I orders only the hart that runs it, so every hart
 * is marked in mm->icache_stale_mask as owing one for this mm, this hart fences now, and the
 * harts that may run the mm now (mm_cpumask but this one; with ASIDs also those that ran it
 * before and kept their bit, which fence for nothing) fence at once through
 * smp_call_function_many (v6.10 may ask the SBI's remote FENCE.I instead); every other hart
 * fences in switch_mm before it next runs the mm (flush_icache_deferred).  A kernel
 * text change (flush_icache_all: lkdtm, the bench's user program) fences every online hart.
 * Built for the host too (the cache model, one CPU): the remote part is SMP builds only.
 */
#include "riscv.h"
#include "tinymm/cacheflush.h"
#include "tinymm/irqflags.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/sched.h"
#include "tinymm/syscalls.h"
#include "tinymm/page-flags.h"
#include "tinymm/pgtable.h"


#if CONFIG_NR_CPUS > 1
static void ipi_remote_fence_i(void *info)
{
	(void)info;
	local_flush_icache_all();
}

/* v6.10's flush_icache_mm(mm, local): every hart that may run @mm, now or before it next does. */
static void flush_icache_mm(struct mm_struct *mm, bool local)
{
	unsigned long online = READ_ONCE(cpu_online_mask->bits);
	struct cpumask others;
	unsigned int cpu;

	if (!(online & (online - 1))) {	/* one CPU: a hart coming online fences itself */
		local_flush_icache_all();
		return;
	}
	preempt_disable();
	cpu = smp_processor_id();
	if (mm) {
		WRITE_ONCE(mm->icache_stale_mask.bits, ~0UL & ~(1UL << cpu));
		smp_mb();	/* the stale marks before the mask is read (pairs with switch_mm) */
		others.bits = READ_ONCE(mm_cpumask(mm)->bits) & ~(1UL << cpu);
	} else {
		others.bits = READ_ONCE(cpu_online_mask->bits) & ~(1UL << cpu);
	}
	local_flush_icache_all();
	others.bits &= READ_ONCE(cpu_online_mask->bits);
	if (!local && others.bits) {
		if (irqs_disabled())	/* no IPI can be waited for (context.c's flush_on too) */
			riscv_remote_fence(&others, RISCV_RFENCE_FENCE_I);
		else
			smp_call_function_many(&others, ipi_remote_fence_i, NULL, true);
	}
	preempt_enable();
}

void flush_icache_deferred(struct mm_struct *mm, unsigned int cpu)
{
	if (cpumask_test_cpu(cpu, &mm->icache_stale_mask)) {
		cpumask_clear_cpu(cpu, &mm->icache_stale_mask);
		smp_mb();	/* the other hart's writes before this hart's fence (v6.10) */
		local_flush_icache_all();
	}
}

void flush_icache_all(void)
{
	flush_icache_mm(NULL, false);
}
#else
static void flush_icache_mm(struct mm_struct *mm, bool local)
{
	(void)mm;
	(void)local;
	local_flush_icache_all();
}

void flush_icache_deferred(struct mm_struct *mm, unsigned int cpu)
{
	(void)mm;
	(void)cpu;
}

void flush_icache_all(void)
{
	local_flush_icache_all();
}
#endif

void flush_icache_pte(struct mm_struct *mm, pte_t pte)
{
	unsigned long pfn = pte_pfn(pte);
	struct folio *folio;

	if (!pfn_valid(pfn))
		return;
	folio = page_folio(pfn_to_page(pfn));
	if (!test_bit(PG_dcache_clean, &folio->flags)) {
		flush_icache_mm(mm, false);
		set_bit(PG_dcache_clean, &folio->flags);
	} else {
		count_cacheop(CACHEOP_DCACHE_CLEAN_SKIPPED);
	}
}

/*
 * riscv_flush_icache(start, end, flags), v6.10's: a task that wrote instructions through its
 * data side makes them fetchable.  The range is not looked at (FENCE.I has none; v6.10 ignores
 * it too); a flag other than SYS_RISCV_FLUSH_ICACHE_LOCAL is -EINVAL.  LOCAL: only this hart
 * now (the others still owe the fence before they next run the mm), as v6.10.
 */
long sys_riscv_flush_icache(unsigned long start, unsigned long end, unsigned long flags)
{
	(void)start;
	(void)end;
	if (flags & ~SYS_RISCV_FLUSH_ICACHE_ALL)
		return -EINVAL;
	flush_icache_mm(current->mm, flags & SYS_RISCV_FLUSH_ICACHE_LOCAL);
	return 0;
}
