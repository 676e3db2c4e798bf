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

/* The old frame back under the address, flushed everywhere, then unmapped and freed. */
static void remap_teardown(struct remap_fixture *f)
{
	if (f->ptep) {
		bool was = riscv_tlb_shootdown;

		riscv_tlb_shootdown = true;
		set_pte(f->ptep, pfn_pte(page_to_pfn(f->old), PAGE_KERNEL));
		flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
		riscv_tlb_shootdown = was;
	}
	if (f->va)
		vunmap((void *)f->va);
	if (f->old)
		__free_page(f->old);
	if (f->new)
		__free_page(f->new);
}

/*
 * Read through @f->va on @cpu (caching the translation there), point the pte at the new frame,
 * flush with @flush, read again on @cpu: the value it saw the second time.
 */
static unsigned long remap_and_read(struct remap_fixture *f, int cpu,
				    void (*flush)(struct remap_fixture *f), unsigned long *first)
{
	struct remote_read r = { .addr = (const volatile unsigned long *)f->va };

	smp_call_function_single((unsigned int)cpu, read_there, &r, true);
	*first = r.value;
	set_pte(f->ptep, pfn_pte(page_to_pfn(f->new), PAGE_KERNEL));
	flush(f);
	r.value = 0;
	smp_call_function_single((unsigned int)cpu, read_there, &r, true);
	return r.value;
}

static void flush_kernel(struct remap_fixture *f)
{
	flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
}

/* The same with interrupts masked: no IPI can be waited for, the firmware-level fence does it
 * (riscv_remote_fence: SBI RFENCE on RV64, mstart.S's M-mode on RV32). */
static void flush_kernel_irqs_off(struct remap_fixture *f)
{
	unsigned long flags;

	local_irq_save(flags);
	flush_tlb_kernel_range(f->va, f->va + PAGE_SIZE);
	local_irq_restore(flags);
}

static int flush_page_cpu;	/* the hart flush_by_area's mm runs on */

/* flush_tlb_page() with an area whose mm's cpumask names only the other hart. */
static void flush_by_area(struct remap_fixture *f)
{
	static struct mm_struct mm;
	struct vm_area_struct vma = { .vm_mm = &mm };

	mm.cpu_bitmap.bits = 1UL << flush_page_cpu;
	flush_tlb_page(&vma, f->va);
}

static void remote_read_case(struct ktest *t, void (*flush)(struct remap_fixture *f))
{
	struct remap_fixture f;
	unsigned long first, second;
	int cpu;

	if (remap_setup(t, &f)) {
		preempt_disable();
		cpu = other_cpu();
		flush_page_cpu = cpu;
		second = remap_and_read(&f, cpu, flush, &first);
		preempt_enable();
		KTEST_EXPECT_EQ(t, first, OLD_WORD);
		KTEST_EXPECT_EQ(t, second, NEW_WORD);	/* OLD_WORD: a stale TLB entry was used */
	}
	remap_teardown(&f);
}

static void kernel_remap_reaches_other_harts(struct ktest *t)
{
	remote_read_case(t, flush_kernel);
}

static void masked_flush_reaches_other_harts(struct ktest *t)
{
	remote_read_case(t, flush_kernel_irqs_off);
}

static void user_flush_reaches_mm_cpumask(struct ktest *t)
{
	remote_read_case(t, flush_by_area);
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
		flush_icache_deferred(&mm, (unsigned int)other_cpu());
		KTEST_EXPECT_EQ(t, mm.icache_stale_mask.bits, others & ~(1UL << other_cpu()));
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
	remote_read_case(t, flush_kernel);
	riscv_tlb_shootdown = was;
}

static const struct ktest_case tlb_shootdown_off_cases[] = {
	KTEST_CASE(stale_without_shootdown),
	{}
};
KTEST_SUITE_EXPLICIT(tlb_shootdown_off, tlb_shootdown_off_cases);
