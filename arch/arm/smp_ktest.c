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
#include "tinymm/gfp.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/preempt.h"
#include "tinymm/smp.h"
#include "tinymm/vmalloc.h"

#define OLD_WORD	0x01d01d01UL
#define NEW_WORD	0x0e00e00eUL

struct remote_read {
	const volatile unsigned long *addr;
	unsigned long value;
};

static void read_there(void *info)
{
	struct remote_read *r = info;

	r->value = *r->addr;
}

/* Another online CPU than this one, or this one if it is alone.  Preemption is off. */
static int other_cpu(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != (unsigned int)smp_processor_id())
			return (int)cpu;
	return smp_processor_id();
}

/* Two frames holding OLD_WORD and NEW_WORD, the first mapped by vmap(). */
struct remap_fixture {
	struct page *old, *new;
	unsigned long va;
	pte_t *ptep;
};

static bool remap_setup(struct ktest *t, struct remap_fixture *f)
{
	f->old = alloc_page(GFP_KERNEL);
	f->new = alloc_page(GFP_KERNEL);
	f->va = 0;
	f->ptep = NULL;
	if (!f->old || !f->new) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no memory for two frames");
		return false;
	}
	*(unsigned long *)page_address(f->old) = OLD_WORD;
	*(unsigned long *)page_address(f->new) = NEW_WORD;
	f->va = (unsigned long)vmap(&f->old, 1, 0, PAGE_KERNEL);
	f->ptep = f->va ? virt_to_kpte(f->va) : NULL;
	if (!f->ptep) {
		ktest_fail_msg(t, __FILE__, __LINE__, "vmap or its pte failed");
		return false;
	}
	return true;
}

/* The old frame back under the address, flushed on every CPU, then unmapped and freed. */
static void remap_teardown(struct remap_fixture *f)
{
	if (f->ptep) {
		bool was = arm_tlb_shootdown;

		arm_tlb_shootdown = true;
		set_pte(f->ptep, pfn_pte(page_to_pfn(f->old), PAGE_KERNEL));
		flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
		arm_tlb_shootdown = was;
	}
	if (f->va)
		vunmap((void *)f->va);
	if (f->old)
		__free_page(f->old);
	if (f->new)
		__free_page(f->new);
}

static void flush_one(struct remap_fixture *f)
{
	flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
}

static void flush_one_irqs_off(struct remap_fixture *f)
{
	unsigned long flags;

	local_irq_save(flags);
	flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
	local_irq_restore(flags);
}

/* 65 pages from the address: past the 64-page limit, the whole-TLB form. */
static void flush_all(struct remap_fixture *f)
{
	flush_tlb_kernel_range(f->va, f->va + 65 * PAGE_SIZE);
}

/*
 * Read through @f->va on another CPU (caching the translation there), point the pte at the new
 * frame, flush with @flush, read again there: OLD_WORD the first time, NEW_WORD the second
 * (OLD_WORD again: a stale TLB entry was used).
 */
static void remote_read_case(struct ktest *t, void (*flush)(struct remap_fixture *f))
{
	struct remap_fixture f;
	struct remote_read r = { 0 };
	unsigned long first = 0, second = 0;
	unsigned int cpu;

	if (remap_setup(t, &f)) {
		r.addr = (const volatile unsigned long *)f.va;
		preempt_disable();
		cpu = (unsigned int)other_cpu();
		smp_call_function_single(cpu, read_there, &r, true);
		first = r.value;
		set_pte(f.ptep, pfn_pte(page_to_pfn(f.new), PAGE_KERNEL));
		flush(&f);
		r.value = 0;
		smp_call_function_single(cpu, read_there, &r, true);
		second = r.value;
		preempt_enable();
		KTEST_EXPECT_EQ(t, first, OLD_WORD);
		KTEST_EXPECT_EQ(t, second, NEW_WORD);
	}
	remap_teardown(&f);
}

static void kernel_remap_reaches_other_cpus(struct ktest *t)
{
	remote_read_case(t, flush_one);
}

static void masked_flush_reaches_other_cpus(struct ktest *t)
{
	remote_read_case(t, flush_one_irqs_off);
}

static void whole_tlb_flush_reaches_other_cpus(struct ktest *t)
{
	remote_read_case(t, flush_all);
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
	remote_read_case(t, flush_one);
	arm_tlb_shootdown = was;
}

static const struct ktest_case tlb_shootdown_off_cases[] = {
	KTEST_CASE(stale_without_shootdown),
	{}
};
KTEST_SUITE_EXPLICIT(tlb_shootdown_off, tlb_shootdown_off_cases);
