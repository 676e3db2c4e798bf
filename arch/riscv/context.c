/*
 * context.c - RISC-V address-space switching (switch_mm, include/tinymm/arch.h) and user TLB
 * flushes, with ASIDs where the hart has them (docs/arch-user-riscv.md, "ASIDs").
 *
 * ASIDLEN is probed once at boot (riscv_asid_init, from paging_init): write all-ones to
 * satp.ASID and read back what sticks (v6.10's asids_init).  With more than two ASIDs, each
 * user mm gets one from a generation-based allocator (v6.10's arch/riscv/mm/context.c, one
 * hart): mm->context_id = generation | asid; an mm whose generation is not the current one gets
 * a fresh ASID at its next switch_mm; when they run out, the generation advances, the bitmap is
 * cleared and the whole TLB flushed once (rollover), so an ASID is never reused while stale
 * entries tagged with it may exist.  ASID 0 is the kernel's (init_mm, whose user half is
 * empty).  The switch is then one satp write and no flush: kernel mappings are global (G) and
 * every other mm's entries are tagged.  Without ASIDs (ASIDLEN 0) every switch is satp plus a
 * full sfence.vma, as before.
 *
 * Flushes: flush_tlb_page()/flush_tlb_range() with an area flush its mm's ASID only (nothing at
 * all if the mm holds no ASID of this generation: it has no entries); without an area (mm/
 * passes NULL for table frees and zaps) they flush the addresses for every ASID, which is
 * always enough.  A range of more than 64 pages is one flush of the ASID (or of everything).
 *
 * SMP (docs/smp.md, "TLB shootdown"): a hart's sfence.vma reaches its own TLB only, so every
 * flush also runs, through smp_call_function_many() and waiting for it, on the other harts
 * that may hold the entries: mm_cpumask(mm) for a user area (the harts whose satp holds the
 * mm: switch_mm sets the bit before the satp write and clears it after the flush that ends its
 * use), every online hart for a kernel range or a flush without an area; v6.10's
 * __flush_tlb_range with IPIs (it may use the SBI's remote fence instead).  The mask is read
 * after a full fence, so either the flusher sees a hart's bit or that hart's walk sees the new
 * pte.  With one CPU online the flush is local only (a hart coming online flushes its whole
 * TLB in arch_secondary_init).  With interrupts masked (mm/set_memory.c splits a direct-map leaf so) no IPI can be
 * waited for: the firmware-level remote fence does the whole TLB of those harts instead
 * (riscv_remote_fence: SBI RFENCE on RV64, mstart.S's M-mode on RV32).  ASIDs only while one CPU is possible: the first secondary start turns the allocator off
 * (riscv_asid_smp_off), so on SMP every switch is satp plus a full local flush and a hart keeps
 * no entries of an mm it switched away from (v6.10 keeps ASIDs on SMP, with per-CPU active and
 * reserved contexts across rollovers; not done here).  tinymm.tlb_shootdown=0 turns the remote
 * part off, a debug switch for the test that shows a stale entry used without it.
 *
 * Locking: switch_mm with interrupts masked (the scheduler's switch, do_exit); the ASID state
 * on one hart (the allocator is off on SMP); flushes with preemption off around the remote
 * call, interrupts enabled (smp_call_function_many's rule) or with one CPU online.
 */
#include <string.h>
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/bitops.h"
#include "tinymm/cache.h"
#include "tinymm/cacheflush.h"
#include "tinymm/cmdline.h"
#include "tinymm/irqflags.h"
#include "tinymm/mmap.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"
#include "tinymm/smp.h"

#if __riscv_xlen == 64
#define SATP_ASID_SHIFT	44
#define SATP_ASID_MASK	0xffffUL
#else
#define SATP_ASID_SHIFT	22
#define SATP_ASID_MASK	0x1ffUL
#endif
#define MAX_ASIDS	(SATP_ASID_MASK + 1)
#define FLUSH_CEILING	(64 * PAGE_SIZE)	/* v6.10's tlb_flush_all_threshold */

unsigned long riscv_asid_bits __ro_after_init;
static unsigned long num_asids, asid_mask;
static bool use_asid_allocator;
static unsigned long asid_generation;	/* a multiple of num_asids, never 0 */
static DECLARE_BITMAP(asid_map, MAX_ASIDS);
unsigned long riscv_asid_rollovers;	/* for the tests */
bool riscv_tlb_shootdown = true;

static int set_tlb_shootdown(const char *val)
{
	if (!strcmp(val, "0") || !strcmp(val, "off"))
		riscv_tlb_shootdown = false;
	else if (!strcmp(val, "1") || !strcmp(val, "on"))
		riscv_tlb_shootdown = true;
	else
		return -1;
	return 0;
}
KPARAM(tlb_shootdown, set_tlb_shootdown,
       "RISC-V SMP: 0 turns the remote TLB flushes off (a debug switch for the stale-TLB test)");

void riscv_asid_init(void);
void riscv_asid_init(void)
{
	unsigned long old, probe;

	__asm__ __volatile__("csrr %0, satp" : "=r"(old));
	__asm__ __volatile__("csrw satp, %0" : : "r"(old | (SATP_ASID_MASK << SATP_ASID_SHIFT))
			     : "memory");
	__asm__ __volatile__("csrr %0, satp" : "=r"(probe));
	__asm__ __volatile__("csrw satp, %0\n\tsfence.vma" : : "r"(old) : "memory");
	probe = (probe >> SATP_ASID_SHIFT) & SATP_ASID_MASK;
	while (probe >> riscv_asid_bits)
		riscv_asid_bits++;
	num_asids = 1UL << riscv_asid_bits;
	asid_mask = num_asids - 1;
	/* v6.10: only with more ASIDs than twice the CPUs, else rollovers would be constant. */
	use_asid_allocator = num_asids > 2;
	asid_generation = num_asids;
	__set_bit(0, asid_map);
	if (use_asid_allocator)
		pr_info("mmu: %lu-bit ASIDs: one per address space, no flush on a switch\n",
			riscv_asid_bits);
	else
		pr_info("mmu: no ASIDs (satp.ASID is %lu bits): a full TLB flush per address-space switch\n",
			riscv_asid_bits);
}

static unsigned long new_context(void)
{
	unsigned long asid;

	for (asid = 1; asid < num_asids; asid++)
		if (!test_bit(asid, asid_map))
			break;
	if (asid == num_asids) {
		asid_generation += num_asids;
		memset(asid_map, 0, sizeof(asid_map));
		__set_bit(0, asid_map);
		local_flush_tlb_all();		/* every ASID of the old generation */
		riscv_asid_rollovers++;
		asid = 1;
	}
	__set_bit(asid, asid_map);
	return asid_generation | asid;
}

/* @mm's ASID if it holds one of this generation, else 0 (then it has no TLB entries). */
static unsigned long mm_asid(const struct mm_struct *mm)
{
	if (!use_asid_allocator || !mm || mm == &init_mm ||
	    (mm->context_id & ~asid_mask) != asid_generation)
		return 0;
	return mm->context_id & asid_mask;
}

unsigned long riscv_mm_asid(const struct mm_struct *mm);
unsigned long riscv_mm_asid(const struct mm_struct *mm)
{
	return mm_asid(mm);
}

/* smp.c, before the first secondary hart starts (no user mm exists yet: smp_init runs first
 * in kernel_init): from now on every switch flushes, as without ASIDs. */
void riscv_asid_smp_off(void);
void riscv_asid_smp_off(void)
{
	if (use_asid_allocator)
		pr_info("mmu: ASIDs off with more than one hart: a full TLB flush per address-space switch\n");
	use_asid_allocator = false;
}

bool riscv_asids_in_use(void);
bool riscv_asids_in_use(void)
{
	return use_asid_allocator;
}

void switch_mm(struct mm_struct *prev, struct mm_struct *next)
{
	unsigned long satp = riscv_satp_for(next->pgd);

	if (!use_asid_allocator) {
		unsigned int cpu = smp_processor_id();

		cpumask_set_cpu(cpu, mm_cpumask(next));	/* before a walk can use next's tables */
		__asm__ __volatile__("csrw satp, %0\n\tsfence.vma" : : "r"(satp) : "memory");
		if (prev != next)
			cpumask_clear_cpu(cpu, mm_cpumask(prev));	/* nothing of prev is left here */
		flush_icache_deferred(next, cpu);
		return;
	}
	if (next != &init_mm) {
		if ((next->context_id & ~asid_mask) != asid_generation)
			next->context_id = new_context();
		satp |= (next->context_id & asid_mask) << SATP_ASID_SHIFT;
	}
	__asm__ __volatile__("csrw satp, %0" : : "r"(satp) : "memory");
}

static inline void flush_asid_page(unsigned long addr, unsigned long asid)
{
	__asm__ __volatile__("sfence.vma %0, %1" : : "r"(addr), "r"(asid) : "memory");
}

static inline void flush_asid_all(unsigned long asid)
{
	__asm__ __volatile__("sfence.vma zero, %0" : : "r"(asid) : "memory");
}

/* What one hart flushes: [start, end) (all if all) for @asid (0: every ASID, the noasid path
 * and kernel ranges; global entries are flushed only this way). */
struct tlb_flush_data {
	unsigned long start, end, asid;
	bool all;
};

static inline __attribute__((always_inline)) void local_flush(const struct tlb_flush_data *d)
{
	/* Locals: the fences' memory clobber would reload *d every page. */
	unsigned long a = d->start & PAGE_MASK, end = d->end, asid = d->asid;

	if (d->all || end - d->start > FLUSH_CEILING) {
		if (asid)
			flush_asid_all(asid);
		else
			local_flush_tlb_all();
	} else if (asid) {
		for (; a < end; a += PAGE_SIZE)
			flush_asid_page(a, asid);
	} else {
		for (; a < end; a += PAGE_SIZE)
			local_flush_tlb_page(a);
	}
}

static __attribute__((noinline)) void ipi_flush(void *info)
{
	local_flush(info);
}

static __attribute__((noinline)) void flush_others(const struct cpumask *mask,
						 const struct tlb_flush_data *d);

/* @d here and on every other online hart in @mask (v6.10's __flush_tlb_range); inline so that
 * with one CPU online the single-CPU paths cost what they did before SMP. */
static inline __attribute__((always_inline)) void flush_on(const struct cpumask *mask,
							  const struct tlb_flush_data *d)
{
	unsigned long online = READ_ONCE(cpu_online_mask->bits);

	if (!(online & (online - 1))) {		/* one CPU online: nobody else to reach */
		local_flush(d);
		return;
	}
	flush_others(mask, d);
}

static void flush_others(const struct cpumask *mask, const struct tlb_flush_data *d)
{
	struct cpumask others;
	unsigned int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	smp_mb();		/* the pte stores before the mask is read (the header says why) */
	others.bits = READ_ONCE(mask->bits) & READ_ONCE(cpu_online_mask->bits) & ~(1UL << cpu);
	if (others.bits && READ_ONCE(riscv_tlb_shootdown)) {
		if (irqs_disabled())	/* no IPI can be waited for: below S-mode (riscv.h) */
			riscv_remote_fence(&others, RISCV_RFENCE_SFENCE_VMA);
		else
			smp_call_function_many(&others, ipi_flush, (void *)d, true);
	}
	local_flush(d);
	preempt_enable();
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct tlb_flush_data d = { .start = start, .end = end };

	flush_on(cpu_online_mask, &d);
}

/* The harts an area's flush must reach: its mm's, or all without an area (or an mm). */
static const struct cpumask *flush_mask(const struct vm_area_struct *vma)
{
	return vma && vma->vm_mm ? mm_cpumask(vma->vm_mm) : cpu_online_mask;
}

void flush_tlb_mm(struct mm_struct *mm)
{
	struct tlb_flush_data d = { .all = true, .asid = mm_asid(mm) };

	if (use_asid_allocator && !d.asid)
		return;		/* no ASID of this generation: nothing of it is cached */
	flush_on(mm ? mm_cpumask(mm) : cpu_online_mask, &d);
}

void flush_tlb_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct tlb_flush_data d = { .start = start, .end = end };

	if (vma && use_asid_allocator) {
		d.asid = mm_asid(vma->vm_mm);
		if (!d.asid)
			return;
	}
	flush_on(flush_mask(vma), &d);
}

void flush_tlb_page(struct vm_area_struct *vma, unsigned long addr)
{
	unsigned long online = READ_ONCE(cpu_online_mask->bits), asid;

	if (online & (online - 1)) {
		flush_tlb_range(vma, addr & PAGE_MASK, (addr & PAGE_MASK) + PAGE_SIZE);
		return;
	}
	/* One CPU online: the fault path's flush, as before SMP. */
	if (!vma || !use_asid_allocator) {
		local_flush_tlb_page(addr);
		return;
	}
	asid = mm_asid(vma->vm_mm);
	if (asid)
		flush_asid_page(addr & PAGE_MASK, asid);
}
