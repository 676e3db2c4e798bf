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
 * Locking: interrupts masked (the scheduler's switch, do_exit); one hart.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bitops.h"
#include "tinymm/cache.h"
#include "tinymm/irqflags.h"
#include "tinymm/mmap.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"

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

void switch_mm(struct mm_struct *prev, struct mm_struct *next)
{
	unsigned long satp = riscv_satp_for(next->pgd);

	(void)prev;
	if (!use_asid_allocator) {
		__asm__ __volatile__("csrw satp, %0\n\tsfence.vma" : : "r"(satp) : "memory");
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

void flush_tlb_mm(struct mm_struct *mm)
{
	unsigned long asid = mm_asid(mm);

	if (asid)
		flush_asid_all(asid);
	else if (!use_asid_allocator)
		local_flush_tlb_all();
}

void flush_tlb_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	unsigned long asid;

	if (!vma || !use_asid_allocator) {
		flush_tlb_kernel_range(start, end);
		return;
	}
	asid = mm_asid(vma->vm_mm);
	if (!asid)
		return;		/* no ASID of this generation: nothing of it is cached */
	if (end - start > FLUSH_CEILING) {
		flush_asid_all(asid);
		return;
	}
	for (unsigned long a = start & PAGE_MASK; a < end; a += PAGE_SIZE)
		flush_asid_page(a, asid);
}

void flush_tlb_page(struct vm_area_struct *vma, unsigned long addr)
{
	unsigned long asid;

	if (!vma || !use_asid_allocator) {
		local_flush_tlb_page(addr);
		return;
	}
	asid = mm_asid(vma->vm_mm);
	if (asid)
		flush_asid_page(addr & PAGE_MASK, asid);
}
