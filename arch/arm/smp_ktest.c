/*
 * smp_ktest.c - KTAP suites for ARM's cross-CPU TLB maintenance (asm/pgtable.h,
 * arch/arm/tlbflush.c; docs/smp.md, "ARM virt"), the counterpart of RISC-V's
 * arch/riscv/smp_ktest.c.  ARMv7 broadcasts the inner-shareable TLB operations in hardware, so
 * these check that tinymm uses them where it must.  With one CPU online the "other" CPU is this
 * one (the cross-CPU call runs on the caller, as v6.10's), so nothing is skipped at -smp 1.
 *
 *   tlb_shootdown      a kernel page is read on another CPU (its TLB now holds the
 *                      translation), remapped here to another frame and flushed with
 *                      flush_tlb_kernel_range(): the other CPU reads the new frame.  By address
 *                      (TLBIMVAAIS), the same with interrupts masked here (a broadcast needs
 *                      no IPI), and over more than 64 pages (TLBIALLIS).
 *   tlb_shootdown_off  (explicit only: exists to fail) the first case with the local forms
 *                      (arm_tlb_shootdown false, tinymm.tlb_shootdown=0): the other CPU reads
 *                      the old frame through its stale TLB entry, so the case fails.  QEMU
 *                      keeps a softmmu TLB per vCPU that page-table stores do not touch; a
 *                      local TLBIMVAA flushes the calling vCPU's only, an IS form every vCPU's.
 */
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/pgtable.h"
#include "../../tests/ktest/tlb_remap.h"

static void flush_one(struct tlb_remap *f)
{
	flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
}

static void flush_one_irqs_off(struct tlb_remap *f)
{
	unsigned long flags;

	local_irq_save(flags);
	flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
	local_irq_restore(flags);
}

/* 65 pages from the address: past the 64-page limit, the whole-TLB form. */
static void flush_all(struct tlb_remap *f)
{
	flush_tlb_kernel_range(f->va, f->va + 65 * PAGE_SIZE);
}

static void kernel_remap_reaches_other_cpus(struct ktest *t)
{
	tlb_remap_case(t, flush_one, &arm_tlb_shootdown);
}

static void masked_flush_reaches_other_cpus(struct ktest *t)
{
	tlb_remap_case(t, flush_one_irqs_off, &arm_tlb_shootdown);
}

static void whole_tlb_flush_reaches_other_cpus(struct ktest *t)
{
	tlb_remap_case(t, flush_all, &arm_tlb_shootdown);
}

static const struct ktest_case tlb_shootdown_cases[] = {
	KTEST_CASE(kernel_remap_reaches_other_cpus),
	KTEST_CASE(masked_flush_reaches_other_cpus),
	KTEST_CASE(whole_tlb_flush_reaches_other_cpus),
	{}
};
KTEST_SUITE(tlb_shootdown, tlb_shootdown_cases);

/* The local forms: the other CPU keeps its translation, reads the old frame, the case fails.
 * Only when named (tinymm.test=tlb_shootdown_off). */
static void stale_without_shootdown(struct ktest *t)
{
	bool was = arm_tlb_shootdown;

	arm_tlb_shootdown = false;
	tlb_remap_case(t, flush_one, &arm_tlb_shootdown);
	arm_tlb_shootdown = was;
}

static const struct ktest_case tlb_shootdown_off_cases[] = {
	KTEST_CASE(stale_without_shootdown),
	{}
};
KTEST_SUITE_EXPLICIT(tlb_shootdown_off, tlb_shootdown_off_cases);
