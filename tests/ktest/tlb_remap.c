/*
 * tlb_remap.c - the architectures' tlb_shootdown fixture (tlb_remap.h).
 */
#include "tinymm/gfp.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/preempt.h"
#include "tinymm/smp.h"
#include "tinymm/vmalloc.h"
#include "tlb_remap.h"

struct remote_read {
	const volatile unsigned long *addr;
	unsigned long value;
};

static void read_there(void *info)
{
	struct remote_read *rr = info;

	rr->value = *rr->addr;
}

int tlb_remap_other_cpu(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != (unsigned int)smp_processor_id())
			return (int)cpu;
	return smp_processor_id();
}

static bool remap_setup(struct ktest *t, struct tlb_remap *r)
{
	r->old = alloc_page(GFP_KERNEL);
	r->new = alloc_page(GFP_KERNEL);
	r->va = 0;
	r->ptep = NULL;
	if (!r->old || !r->new) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no memory for two frames");
		return false;
	}
	*(unsigned long *)page_address(r->old) = TLB_REMAP_OLD;
	*(unsigned long *)page_address(r->new) = TLB_REMAP_NEW;
	r->va = (unsigned long)vmap(&r->old, 1, 0, PAGE_KERNEL);
	r->ptep = r->va ? virt_to_kpte(r->va) : NULL;
	if (!r->ptep) {
		ktest_fail_msg(t, __FILE__, __LINE__, "vmap or its pte failed");
		return false;
	}
	return true;
}

/* The old frame back under the address, flushed everywhere, then unmapped and freed. */
static void remap_teardown(struct tlb_remap *r, bool *shootdown)
{
	if (r->ptep) {
		bool was = *shootdown;

		*shootdown = true;
		set_pte(r->ptep, pfn_pte(page_to_pfn(r->old), PAGE_KERNEL));
		flush_tlb_kernel_range(r->va, r->va + PAGE_SIZE);
		*shootdown = was;
	}
	if (r->va)
		vunmap((void *)r->va);
	if (r->old)
		__free_page(r->old);
	if (r->new)
		__free_page(r->new);
}

void tlb_remap_case(struct ktest *t, void (*flush)(struct tlb_remap *r), bool *shootdown)
{
	struct tlb_remap r;
	struct remote_read rr = { 0 };
	unsigned long first = 0, second = 0;

	if (remap_setup(t, &r)) {
		rr.addr = (const volatile unsigned long *)r.va;
		preempt_disable();
		r.cpu = tlb_remap_other_cpu();
		smp_call_function_single((unsigned int)r.cpu, read_there, &rr, true);
		first = rr.value;
		set_pte(r.ptep, pfn_pte(page_to_pfn(r.new), PAGE_KERNEL));
		flush(&r);
		rr.value = 0;
		smp_call_function_single((unsigned int)r.cpu, read_there, &rr, true);
		second = rr.value;
		preempt_enable();
		KTEST_EXPECT_EQ(t, first, TLB_REMAP_OLD);
		KTEST_EXPECT_EQ(t, second, TLB_REMAP_NEW);
	}
	remap_teardown(&r, shootdown);
}
