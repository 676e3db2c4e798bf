/*
 * context.c - RISC-V address-space switching (switch_mm, include/tinymm/arch.h) and user TLB
 * flushes, with ASIDs where the hart has them (docs/arch-user-riscv.md, "ASIDs").
 *
 * ASIDLEN is probed once at boot (riscv_asid_init, from paging_init): write all-ones to
 * satp.ASID and read back what sticks (v6.10's asids_init); tinymm.asid_bits=N caps it (tests:
 * a few ASIDs make rollovers frequent).  With more ASIDs than twice the harts (v6.10's rule;
 * checked again once the device tree has told how many harts there are, riscv_asid_smp_init),
 * each user mm gets one from v6.10's arch/riscv/mm/context.c allocator: mm->context_id =
 * generation | asid.  Per hart, active_context is the context it runs and reserved_context the
 * one it kept through the last rollover.  An mm of the current generation switches lock-free:
 * one xchg of the hart's active_context (v6.10 uses a cmpxchg; arch/arm/asid.c's xchg is the
 * same argument in one AMO: a 0 back means a rollover cleared it, so go the locked way).  Any
 * other takes context_lock: its old number again if some hart still runs it (reserved) or it
 * is free, else the next free one; when none is left, a rollover: the generation advances, the
 * bitmap is rebuilt from every hart's active (or, if it has not switched since, reserved)
 * context, and every hart is marked in context_tlb_flush_pending, so each flushes its whole
 * TLB before it next takes a context, i.e. before it runs any ASID of the new generation.  So
 * an ASID is never reused while entries of an older owner may be reached, and an mm keeps one
 * number on every hart that may hold its entries.  ASID 0 is the kernel's (init_mm, whose user
 * half is empty); kernel mappings are global (G).  Without ASIDs every switch is satp plus a
 * full sfence.vma, as before.
 *
 * mm_cpumask(mm): with ASIDs a hart's bit stays set after it switches away (v6.10): its TLB
 * may still hold the mm's tagged entries, so every flush of the mm must reach it.  Without
 * ASIDs the switch's full flush leaves nothing behind, and the bit is cleared.
 *
 * Flushes: flush_tlb_page()/flush_tlb_range()/flush_tlb_mm() with an mm flush by its ASID
 * number whatever its generation (a hart that has not switched since a rollover still runs
 * the old context, reserved, with that number), on this hart and on the others of
 * mm_cpumask(mm).  Each hart reads the number from mm->context_id itself, after its own
 * switch_mm is over (interrupts are masked there): a context changed under the flush is seen
 * by the hart that changed it.  An mm that never had a context (0) flushes every ASID.  Without
 * an area (mm/ passes NULL for table frees and zaps) every ASID at those addresses, which is
 * always enough.  A range of more than 64 pages is one flush of the ASID (or of everything).
 *
 * SMP (docs/smp.md, "TLB shootdown"): a hart's sfence.vma reaches its own TLB only, so every
 * flush also runs, through smp_call_function_many() and waiting for it, on the other harts
 * that may hold the entries: mm_cpumask(mm) for a user area, every online hart for a kernel
 * range or a flush without an area; v6.10's __flush_tlb_range with IPIs (it may use the SBI's
 * remote fence instead).  switch_mm sets the bit with a fully ordered AMO before the satp
 * write; the flusher reads the mask after a full fence, so either it sees the bit or that
 * hart's walk sees the new pte.  With one CPU online the flush is local only (a hart coming
 * online flushes its whole TLB in arch_secondary_init).  With interrupts masked
 * (mm/set_memory.c splits a direct-map leaf so) no IPI can be waited for: the firmware-level
 * remote fence does the whole TLB of those harts instead (riscv_remote_fence: SBI RFENCE on
 * RV64, mstart.S's M-mode on RV32).  tinymm.tlb_shootdown=0 turns the remote part off, a debug
 * switch for the tests that show a stale entry used without it.
 *
 * Differences from v6.10: the xchg fast path (above); the generation wraps back to the first
 * one after 2^(XLEN - ASIDLEN) rollovers instead of to 0 (0 means "never had a context");
 * the remote harts read the ASID themselves instead of getting the flusher's.
 *
 * Locking: switch_mm with interrupts masked (the scheduler's switch, do_exit, mmput's
 * leave_mm IPI).  context_lock, a bare arch_spinlock_t (the scheduler may hold its run-queue
 * lock, under which no lock-order checked lock is taken; assert_context_locked() is the
 * check), guards context_asid_map, cur_idx, reserved_context, context_tlb_flush_pending and
 * every change of current_version; active_context[cpu] changes by xchg (lock-free on its own
 * hart, under the lock in a rollover); mm->context_id is written under the lock, read with
 * READ_ONCE.  Flushes with preemption off around the remote call, interrupts enabled
 * (smp_call_function_many's rule) or with one CPU online.
 */
#include <string.h>
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/bitops.h"
#include "tinymm/bug.h"
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
#include "tinymm/spinlock.h"

#if __riscv_xlen == 64
#define SATP_ASID_SHIFT	44
#define SATP_ASID_MASK	0xffffUL
#define SATP_ASID_BITS	16
#else
#define SATP_ASID_SHIFT	22
#define SATP_ASID_MASK	0x1ffUL
#define SATP_ASID_BITS	9
#endif
#define MAX_ASIDS	(SATP_ASID_MASK + 1)
#define FLUSH_CEILING	(64 * PAGE_SIZE)	/* v6.10's tlb_flush_all_threshold */

unsigned long riscv_asid_bits __ro_after_init;
static unsigned long num_asids, asid_mask;
static bool use_asid_allocator;
static unsigned int asid_bits_limit;	/* tinymm.asid_bits; 0: as the hart has them */

static arch_spinlock_t context_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static int context_lock_owner = -1;	/* the holder's CPU: assert_context_locked() */
static unsigned long current_version;	/* the generation: a multiple of num_asids, never 0 */
static DECLARE_BITMAP(context_asid_map, MAX_ASIDS);
static unsigned long cur_idx = 1;	/* where the search for a free ASID starts */
static DEFINE_PER_CPU(unsigned long, active_context);
static DEFINE_PER_CPU(unsigned long, reserved_context);
static struct cpumask context_tlb_flush_pending;
unsigned long riscv_asid_rollovers;	/* for the tests */
bool riscv_tlb_shootdown = true;

KPARAM_UINT(asid_bits, asid_bits_limit, 0, SATP_ASID_BITS,
	    "RISC-V: use at most this many ASID bits (tests: frequent rollovers); 0: all the hart has");

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
	if (asid_bits_limit && riscv_asid_bits > asid_bits_limit) {
		pr_info("mmu: %lu-bit ASIDs, %u used (tinymm.asid_bits)\n", riscv_asid_bits,
			asid_bits_limit);
		riscv_asid_bits = asid_bits_limit;
	}
	num_asids = 1UL << riscv_asid_bits;
	asid_mask = num_asids - 1;
	/* v6.10: only with more ASIDs than twice the CPUs, else rollovers would be constant
	 * (one CPU known here; riscv_asid_smp_init looks again). */
	use_asid_allocator = num_asids > 2;
	current_version = num_asids;
	__set_bit(0, context_asid_map);
	if (use_asid_allocator)
		pr_info("mmu: %lu-bit ASIDs: one per address space, no flush on a switch\n",
			riscv_asid_bits);
	else
		pr_info("mmu: no ASIDs (satp.ASID is %lu bits): a full TLB flush per address-space switch\n",
			riscv_asid_bits);
}

/* smp.c, before a secondary hart starts (no user mm exists yet: smp_init runs first in
 * kernel_init): v6.10's rule with the harts the device tree lists. */
void riscv_asid_smp_init(void);
void riscv_asid_smp_init(void)
{
	if (use_asid_allocator && num_asids <= 2 * nr_cpu_ids) {
		pr_info("mmu: ASIDs off: %lu for %u harts (more than twice as many wanted): a full TLB flush per address-space switch\n",
			num_asids, nr_cpu_ids);
		use_asid_allocator = false;
	}
}

bool riscv_asids_in_use(void);
bool riscv_asids_in_use(void)
{
	return use_asid_allocator;
}

static void context_lock_acquire(void)
{
	arch_spin_lock(&context_lock);
	context_lock_owner = smp_processor_id();
}

static void context_lock_release(void)
{
	context_lock_owner = -1;
	arch_spin_unlock(&context_lock);
}

static inline void assert_context_locked(void)
{
	BUG_ON(context_lock_owner != smp_processor_id());
}

static inline unsigned long cntx2asid(unsigned long cntx)
{
	return cntx & asid_mask;
}

static inline bool cntx_is_current(unsigned long cntx)
{
	return !((cntx ^ READ_ONCE(current_version)) & ~asid_mask);
}

/* A rollover: only the contexts harts run stay taken; every hart flushes before its next. */
static void __flush_context(void)
{
	unsigned int cpu;

	assert_context_locked();
	memset(context_asid_map, 0, sizeof(context_asid_map));
	__set_bit(0, context_asid_map);			/* init_mm's */
	for_each_possible_cpu(cpu) {
		unsigned long cntx = xchg(per_cpu_ptr(&active_context, cpu), 0UL);

		/* 0: no switch there since the last rollover, its reserved one still runs. */
		if (!cntx)
			cntx = per_cpu(reserved_context, cpu);
		__set_bit(cntx2asid(cntx), context_asid_map);
		per_cpu(reserved_context, cpu) = cntx;
	}
	WRITE_ONCE(context_tlb_flush_pending.bits, READ_ONCE(cpu_possible_mask->bits));
	riscv_asid_rollovers++;
}

/* @cntx is some hart's reserved context: it moves to the new generation as @newcntx there. */
static bool check_update_reserved_context(unsigned long cntx, unsigned long newcntx)
{
	unsigned int cpu;
	bool hit = false;

	for_each_possible_cpu(cpu) {
		if (per_cpu(reserved_context, cpu) == cntx) {
			hit = true;
			per_cpu(reserved_context, cpu) = newcntx;
		}
	}
	return hit;
}

static unsigned long find_free_asid(unsigned long from)
{
	for (unsigned long asid = from; asid < num_asids; asid++)
		if (!test_bit(asid, context_asid_map))
			return asid;
	return num_asids;
}

static unsigned long __new_context(struct mm_struct *mm)
{
	unsigned long cntx = mm->context_id, ver = current_version, asid;

	assert_context_locked();
	if (cntx) {
		unsigned long newcntx = ver | cntx2asid(cntx);

		/* Still running somewhere through a rollover: it keeps its number. */
		if (check_update_reserved_context(cntx, newcntx))
			return newcntx;
		/* Its old number is free in this generation: take it again. */
		if (!__test_and_set_bit(cntx2asid(cntx), context_asid_map))
			return newcntx;
	}
	asid = find_free_asid(cur_idx);
	if (asid == num_asids) {
		ver += num_asids;
		if (!ver)		/* wrapped: 0 means "never had a context" */
			ver = num_asids;
		WRITE_ONCE(current_version, ver);
		__flush_context();
		/* More ASIDs than twice the harts: some are free now. */
		asid = find_free_asid(1);
		BUG_ON(asid == num_asids);
	}
	__set_bit(asid, context_asid_map);
	cur_idx = asid;
	return ver | asid;
}

/* The locked way of switch_mm: @mm's context for this generation, this hart's pending flush. */
static __attribute__((noinline)) unsigned long set_mm_asid_slow(struct mm_struct *mm,
								unsigned int cpu, bool *flush)
{
	unsigned long cntx;

	context_lock_acquire();
	cntx = mm->context_id;
	if (!cntx_is_current(cntx)) {
		cntx = __new_context(mm);
		WRITE_ONCE(mm->context_id, cntx);
	}
	*flush = cpumask_test_cpu(cpu, &context_tlb_flush_pending);
	if (*flush)
		cpumask_clear_cpu(cpu, &context_tlb_flush_pending);
	WRITE_ONCE(per_cpu(active_context, cpu), cntx);
	context_lock_release();
	return cntx;
}

/* The ASID @mm holds in this generation, or 0 (tests). */
unsigned long riscv_mm_asid(const struct mm_struct *mm);
unsigned long riscv_mm_asid(const struct mm_struct *mm)
{
	unsigned long cntx = READ_ONCE(mm->context_id);

	if (!use_asid_allocator || mm == &init_mm || !cntx_is_current(cntx))
		return 0;
	return cntx2asid(cntx);
}

void switch_mm(struct mm_struct *prev, struct mm_struct *next)
{
	unsigned int cpu = smp_processor_id();
	unsigned long satp = riscv_satp_for(next->pgd), cntx;
	bool flush = false;

	if (!use_asid_allocator) {
		cpumask_set_cpu(cpu, mm_cpumask(next));	/* before a walk can use next's tables */
		__asm__ __volatile__("csrw satp, %0\n\tsfence.vma" : : "r"(satp) : "memory");
		if (prev != next)
			cpumask_clear_cpu(cpu, mm_cpumask(prev));	/* nothing of prev is left here */
		flush_icache_deferred(next, cpu);
		return;
	}
	if (next == &init_mm) {
		/* ASID 0: global kernel entries only.  active_context stays the last user one
		 * (kept through a rollover: harmless, it is this hart's). */
		__asm__ __volatile__("csrw satp, %0" : : "r"(satp) : "memory");
		return;
	}
	/* Kept set (the header says why); a fully ordered AMO the first time. */
	if (unlikely(!cpumask_test_cpu(cpu, mm_cpumask(next))))
		cpumask_set_cpu(cpu, mm_cpumask(next));
	cntx = READ_ONCE(next->context_id);
	if (unlikely(!cntx_is_current(cntx) || !xchg(per_cpu_ptr(&active_context, cpu), cntx)))
		cntx = set_mm_asid_slow(next, cpu, &flush);
	__asm__ __volatile__("csrw satp, %0" : : "r"(satp | cntx2asid(cntx) << SATP_ASID_SHIFT)
			     : "memory");
	if (unlikely(flush))
		local_flush_tlb_all();		/* whatever older generations left here */
	if (unlikely(cpumask_test_cpu(cpu, &next->icache_stale_mask)))
		flush_icache_deferred(next, cpu);
}

static inline void flush_asid_page(unsigned long addr, unsigned long asid)
{
	__asm__ __volatile__("sfence.vma %0, %1" : : "r"(addr), "r"(asid) : "memory");
}

static inline void flush_asid_all(unsigned long asid)
{
	__asm__ __volatile__("sfence.vma zero, %0" : : "r"(asid) : "memory");
}

/* The number a flush of @mm uses on this hart: 0 (every ASID) without an mm, without ASIDs,
 * or for an mm that never had a context; else its number, whatever the generation. */
static inline unsigned long flush_asid(const struct mm_struct *mm)
{
	return mm && use_asid_allocator ? cntx2asid(READ_ONCE(mm->context_id)) : 0;
}

/* What one hart flushes: [start, end) (all if all) for @mm's ASID (no mm: every ASID, the
 * kernel ranges and mm/'s flushes without an area; global entries are flushed only so). */
struct tlb_flush_data {
	unsigned long start, end;
	const struct mm_struct *mm;
	bool all;
};

static inline __attribute__((always_inline)) void local_flush(const struct tlb_flush_data *d)
{
	/* Locals: the fences' memory clobber would reload *d every page. */
	unsigned long a = d->start & PAGE_MASK, end = d->end, asid = flush_asid(d->mm);

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

void flush_tlb_mm(struct mm_struct *mm)
{
	struct tlb_flush_data d = { .all = true, .mm = mm };

	flush_on(mm ? mm_cpumask(mm) : cpu_online_mask, &d);
}

void flush_tlb_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct tlb_flush_data d = { .start = start, .end = end, .mm = vma ? vma->vm_mm : NULL };

	flush_on(d.mm ? mm_cpumask(d.mm) : cpu_online_mask, &d);
}

void flush_tlb_page(struct vm_area_struct *vma, unsigned long addr)
{
	unsigned long online = READ_ONCE(cpu_online_mask->bits), asid;

	if (online & (online - 1)) {
		flush_tlb_range(vma, addr & PAGE_MASK, (addr & PAGE_MASK) + PAGE_SIZE);
		return;
	}
	/* One CPU online: the fault path's flush, as before SMP. */
	asid = vma ? flush_asid(vma->vm_mm) : 0;
	if (asid)
		flush_asid_page(addr & PAGE_MASK, asid);
	else
		local_flush_tlb_page(addr);
}
