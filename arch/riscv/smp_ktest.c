/*
 * smp_ktest.c - KTAP suites for RISC-V's cross-hart maintenance (arch/riscv/context.c,
 * cacheflush.c; docs/smp-riscv.md, "TLB shootdown").  With one CPU online the "other" hart is
 * this one (the cross-CPU call runs on the caller, as v6.10's): the cases then check the local
 * flushes, and nothing is skipped, so ktest.all keeps skip:0 at -smp 1.
 *
 *   tlb_shootdown      a kernel page is read on another hart (its TLB now holds the mapping),
 *                      remapped here to another frame and flushed with flush_tlb_kernel_range:
 *                      the other hart reads the new frame; the same with interrupts masked
 *                      (the firmware-level fence, not an IPI); the same through flush_tlb_page()
 *                      with an area whose mm_cpumask names that hart; flush_icache_pte() marks
 *                      every other hart of the mm as owing a FENCE.I and fences the running ones.
 *   tlb_shootdown_off  (explicit only: exists to fail) the first case with the shootdown turned
 *                      off (riscv_tlb_shootdown, tinymm.tlb_shootdown=0): the other hart reads
 *                      the old frame through its stale TLB entry, so the case fails.  QEMU keeps
 *                      a stale entry exactly as hardware may: its per-hart TLB is not told of
 *                      page-table stores, only of that hart's own sfence.vma.
 */
#include "tinymm/cacheflush.h"
#include "tinymm/gfp.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mmap.h"
#include "tinymm/page_alloc.h"
#include "tinymm/page-flags.h"
#include "tinymm/pgtable.h"
#include "tinymm/preempt.h"
#include "tinymm/smp.h"
#include "tinymm/vmalloc.h"
#include "../../tests/ktest/tlb_remap.h"

static void flush_kernel(struct tlb_remap *f)
{
	flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
}

/* The same with interrupts masked: no IPI can be waited for, the firmware-level fence does it
 * (riscv_remote_fence: SBI RFENCE on RV64, mstart.S's M-mode on RV32). */
static void flush_kernel_irqs_off(struct tlb_remap *f)
{
	unsigned long flags;

	local_irq_save(flags);
	flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
	local_irq_restore(flags);
}

/* flush_tlb_page() with an area whose mm's cpumask names only the hart that read. */
static void flush_by_area(struct tlb_remap *f)
{
	static struct mm_struct mm;
	struct vm_area_struct vma = { .vm_mm = &mm };

	mm.cpu_bitmap.bits = 1UL << f->cpu;
	flush_tlb_page(&vma, f->va);
}

static void kernel_remap_reaches_other_harts(struct ktest *t)
{
	tlb_remap_case(t, flush_kernel, &riscv_tlb_shootdown);
}

static void masked_flush_reaches_other_harts(struct ktest *t)
{
	tlb_remap_case(t, flush_kernel_irqs_off, &riscv_tlb_shootdown);
}

static void user_flush_reaches_mm_cpumask(struct ktest *t)
{
	tlb_remap_case(t, flush_by_area, &riscv_tlb_shootdown);
}

/* flush_icache_pte() on a folio the kernel wrote: every hart but this one owes the mm a fence. */
static void icache_marks_other_harts_stale(struct ktest *t)
{
	static struct mm_struct mm;
	struct page *page;
	unsigned long others;

	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, page);
	clear_bit(PG_dcache_clean, &page_folio(page)->flags);
	preempt_disable();
	mm.cpu_bitmap.bits = cpu_online_mask->bits;	/* "running" everywhere: fenced at once */
	mm.icache_stale_mask.bits = 0;
	flush_icache_pte(&mm, pfn_pte(page_to_pfn(page), PAGE_KERNEL));
	if (num_online_cpus() > 1) {
		others = ~0UL & ~(1UL << smp_processor_id());
		KTEST_EXPECT_EQ(t, mm.icache_stale_mask.bits, others);
		/* A hart switching to the mm pays its fence once, then owes nothing. */
		flush_icache_deferred(&mm, (unsigned int)tlb_remap_other_cpu());
		KTEST_EXPECT_EQ(t, mm.icache_stale_mask.bits, others & ~(1UL << tlb_remap_other_cpu()));
	} else {
		/* Alone: the local fence, nobody marked (a hart coming online fences itself). */
		KTEST_EXPECT_EQ(t, mm.icache_stale_mask.bits, 0UL);
	}
	preempt_enable();
	KTEST_EXPECT_TRUE(t, test_bit(PG_dcache_clean, &page_folio(page)->flags));
	__free_page(page);
}

static const struct ktest_case tlb_shootdown_cases[] = {
	KTEST_CASE(kernel_remap_reaches_other_harts),
	KTEST_CASE(masked_flush_reaches_other_harts),
	KTEST_CASE(user_flush_reaches_mm_cpumask),
	KTEST_CASE(icache_marks_other_harts_stale),
	{}
};
KTEST_SUITE(tlb_shootdown, tlb_shootdown_cases);

/* The debug switch off: the other hart keeps its translation, reads the old frame, the case
 * fails.  Only when named (tinymm.test=tlb_shootdown_off). */
static void stale_without_shootdown(struct ktest *t)
{
	bool was = riscv_tlb_shootdown;

	riscv_tlb_shootdown = false;
	tlb_remap_case(t, flush_kernel, &riscv_tlb_shootdown);
	riscv_tlb_shootdown = was;
}

static const struct ktest_case tlb_shootdown_off_cases[] = {
	KTEST_CASE(stale_without_shootdown),
	{}
};
KTEST_SUITE_EXPLICIT(tlb_shootdown_off, tlb_shootdown_off_cases);
