/*
 * mlock.h - mlocked folios and VM_LOCKED areas (mm/mlock.c, mm/mlock_sys.c; docs/mlock.md),
 * Linux v6.10's mm/mlock.c and the mlock helpers of its mm/internal.h.
 *
 *   mlock_folio(folio)        PG_mlocked set (NR_MLOCK, unevictable_pgs_mlocked) and the folio
 *                             queued to move to the unevictable list; a listed or batched folio
 *   mlock_new_folio(folio)    the same for a new folio not yet on any list (a fault's anon
 *                             folio): the batch puts it straight on the unevictable list
 *   munlock_folio(folio)      queued: PG_mlocked cleared and the folio back on an evictable
 *                             list (unevictable_pgs_munlocked, or _stranded if reclaim or a
 *                             batch had it off its list)
 *   mlock_vma_folio(f, vma)   mlock_folio if @vma is VM_LOCKED (a pte of it now maps @f)
 *   munlock_vma_folio(f, vma) munlock_folio if @vma is VM_LOCKED (a pte of it stopped mapping @f)
 *   folio_add_lru_vma(f, vma) a new folio mapped by @vma: mlock_new_folio or folio_add_lru
 *   mlock_drain_local()       empty this CPU's mlock batch now (lru_add_drain calls it)
 *   mm_populate(mm, s, len)   fault in the VM_LOCKED, non-VM_LOCKONFAULT pages of [s, s+len)
 *                             (mmap_lock held): 0, -ENOMEM (no memory: mlock's EAGAIN) or -EFAULT
 *
 * Invariants: PG_mlocked <=> counted in NR_MLOCK (meminfo Mlocked).  A listed folio with
 * PG_mlocked is on the unevictable list once its batch drained.  The batch holds a reference
 * on each folio in it.  A folio mapped by a VM_LOCKED area has PG_mlocked, except in the
 * window v6.10 also has (see docs/mlock.md: reclaim restores it before it could evict).
 * Locking: the batch is per-CPU, masked interrupts guard it (v6.10: local_lock); the drain takes
 * lru_lock (irqsave) and may run under a page-table lock (the fault and zap paths queue folios
 * there), never under lru_lock or xa_lock.
 */
#ifndef TINYMM_MLOCK_H
#define TINYMM_MLOCK_H

#include "mm_types.h"
#include "mmap.h"

/* v6.10's VM_LOCKONFAULT: lock pages as they are faulted in, do not populate. */
#define VM_LOCKONFAULT	0x00080000UL
#define VM_LOCKED_MASK	(VM_LOCKED | VM_LOCKONFAULT)

struct vm_area_struct;

void mlock_folio(struct folio *folio);
void mlock_new_folio(struct folio *folio);
void munlock_folio(struct folio *folio);
void mlock_vma_folio(struct folio *folio, struct vm_area_struct *vma);
void folio_add_lru_vma(struct folio *folio, struct vm_area_struct *vma);

/* Inline, as v6.10's mm/internal.h has it: every zapped pte asks, and the answer is almost
 * always no (a call per pte was 11 instructions of fork-exit's zap on RV32). */
static inline void munlock_vma_folio(struct folio *folio, struct vm_area_struct *vma)
{
	if (unlikely(vma && (vma->vm_flags & VM_LOCKED)))
		munlock_folio(folio);
}
void mlock_drain_local(void);
/* Does @cpu hold folios in its mlock batch (racy; lru_add_drain_all())? */
bool mlock_cpu_needs_drain(unsigned int cpu);
/* Folios waiting in this CPU's mlock batch (for tests). */
unsigned int mlock_batched_folios(void);

int mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len);
/* mlock_sys.c's core for the KTAP suite and the calls: [start, start+len) of @mm gets
 * VM_LOCKED/VM_LOCKONFAULT as @flags says (0: munlock); mmap_lock held. */
int apply_vma_lock_flags(struct mm_struct *mm, unsigned long start, unsigned long len,
			 unsigned long flags);
int apply_mlockall_flags(struct mm_struct *mm, int flags);

#endif
