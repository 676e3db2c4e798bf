/*
 * mlock.c - mlocked folios: PG_mlocked, NR_MLOCK (meminfo Mlocked) and the unevictable list,
 * Linux v6.10's mm/mlock.c folio half (mlock_folio, mlock_new_folio, munlock_folio and their
 * per-CPU batch).  The areas and the system calls are mm/mlock_sys.c; the whole is
 * docs/mlock.md.  Contracts: include/tinymm/mlock.h.
 *
 * Why a batch: a fault or a zap meets folios one at a time under a page-table lock; taking
 * lru_lock for each would serialise them on it.  The flag and the counters change at once (so
 * Mlocked is exact when the call returns), the list move happens when the batch drains: when
 * full, or at lru_add_drain() (the calls in mm/mlock_sys.c drain before they return, as
 * v6.10's mlock_vma_pages_range does).
 *
 * Invariants: PG_mlocked set <=> the folio's pages are in NR_MLOCK; unevictable_pgs_mlocked
 * minus _munlocked, _stranded and _cleared is NR_MLOCK.  The batch's move only happens to a
 * folio it can claim (PG_lru cleared under lru_lock); one off its list (isolated by reclaim,
 * in the lru_add batch) keeps its flags and is put where they say when it comes back
 * (lru_add_fn, move_folios_to_lru).
 * Locking: each CPU has its own batch, touched only by that CPU with interrupts masked (another
 * CPU's is drained by a cross-CPU call: lru_add_drain_all()); lru_lock (irqsave) around the
 * moves; the batch's references are dropped after lru_lock (a last put takes it).  The flag
 * (atomic) and the counters (atomic) need no lock.
 *
 * Where tinymm differs from v6.10, and why: no mlock_count.  v6.10 keeps, in the lru.prev word
 * of a folio on its (unlinked) unevictable list, how many VM_LOCKED areas map it, so munlock
 * through one of two areas leaves it mlocked.  tinymm's unevictable list is a real list (`lru`
 * shows it), so that word is taken and struct page has no spare one (32 bytes on 32-bit); every
 * munlock is treated as the last, which is v6.10's own fallback when its count undercounts:
 * the folio goes back to an evictable list, and reclaim, whose rmap walk finds the remaining
 * VM_LOCKED area, mlocks it again instead of evicting it (folio_referenced_one,
 * try_to_unmap_one).  Only small folios are mapped, so no large-folio cases.
 */
#include "tinymm/irqflags.h"
#include "tinymm/mlock.h"
#include "tinymm/mmdebug.h"
#include "tinymm/mmap.h"
#include "tinymm/page-flags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"

enum mlock_op { MLOCK_LRU, MLOCK_NEW, MUNLOCK };

/* v6.10's struct mlock_fbatch, one per CPU; it tags the pointers, tinymm keeps the op beside. */
struct mlock_fbatch {
	struct folio_batch fbatch;
	unsigned char op[PAGEVEC_SIZE];
};
static DEFINE_PER_CPU(struct mlock_fbatch, mlock_fbatch);

/* A listed folio that is now mlocked moves to the unevictable list (v6.10's __mlock_folio). */
static void __mlock_folio(struct lruvec *lruvec, struct folio *folio)
{
	long nr = (long)folio_nr_pages(folio);

	if (!folio_test_clear_lru(folio))
		return;			/* off its list: put back by its flags later */
	if (unlikely(folio_evictable(folio))) {
		/* munlocked while it waited here: if it was culled, it comes back */
		if (folio_test_unevictable(folio)) {
			lruvec_del_folio(lruvec, folio);
			folio_clear_unevictable(folio);
			lruvec_add_folio(lruvec, folio);
			count_vm_events(UNEVICTABLE_PGRESCUED, nr);
		}
	} else if (!folio_test_unevictable(folio)) {
		lruvec_del_folio(lruvec, folio);
		folio_clear_active(folio);
		folio_set_unevictable(folio);
		lruvec_add_folio(lruvec, folio);
		count_vm_events(UNEVICTABLE_PGCULLED, nr);
	}
	folio_set_lru(folio);
}

/* A new folio's first list (v6.10's __mlock_new_folio): the unevictable one if still mlocked. */
static void __mlock_new_folio(struct lruvec *lruvec, struct folio *folio)
{
	VM_BUG_ON_PAGE(folio_test_lru(folio), &folio->page);
	if (likely(!folio_evictable(folio))) {
		folio_clear_active(folio);
		folio_set_unevictable(folio);
		count_vm_events(UNEVICTABLE_PGCULLED, (long)folio_nr_pages(folio));
	}
	lruvec_add_folio(lruvec, folio);
	folio_set_lru(folio);
}

/*
 * PG_mlocked goes, and a listed folio leaves the unevictable list (v6.10's __munlock_folio with
 * mlock_count always 1: the header).  One that reclaim or a batch had off its list while on
 * the unevictable list is "stranded": it is put back by its flags later.
 */
static void __munlock_folio(struct lruvec *lruvec, struct folio *folio)
{
	long nr = (long)folio_nr_pages(folio);
	bool isolated = folio_test_clear_lru(folio);

	if (folio_test_clear_mlocked(folio)) {
		mod_node_page_state(NR_MLOCK, -nr);
		if (isolated || !folio_test_unevictable(folio))
			count_vm_events(UNEVICTABLE_PGMUNLOCKED, nr);
		else
			count_vm_events(UNEVICTABLE_PGSTRANDED, nr);
	}
	/* folio_evictable() only after PG_mlocked is clear */
	if (isolated && folio_test_unevictable(folio) && folio_evictable(folio)) {
		lruvec_del_folio(lruvec, folio);
		folio_clear_unevictable(folio);
		lruvec_add_folio(lruvec, folio);
		count_vm_events(UNEVICTABLE_PGRESCUED, nr);
	}
	if (isolated)
		folio_set_lru(folio);
}

/* The batch's moves under one lru_lock hold, then its references.  Interrupts masked. */
static void mlock_folio_batch(struct mlock_fbatch *mb)
{
	struct folio_batch *fbatch = &mb->fbatch;
	struct lruvec *lruvec = &node_lruvec;
	unsigned long flags;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	for (unsigned int i = 0; i < fbatch->nr; i++) {
		struct folio *folio = fbatch->folios[i];

		switch (mb->op[i]) {
		case MLOCK_LRU:
			__mlock_folio(lruvec, folio);
			break;
		case MLOCK_NEW:
			__mlock_new_folio(lruvec, folio);
			break;
		default:
			__munlock_folio(lruvec, folio);
			break;
		}
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	for (unsigned int i = 0; i < fbatch->nr; i++)
		folio_put(fbatch->folios[i]);
	folio_batch_init(fbatch);
}

/* Queue @folio (the caller took the batch's reference); interrupts masked. */
static void mlock_batch_add(struct folio *folio, enum mlock_op op)
{
	struct mlock_fbatch *mb = this_cpu_ptr(&mlock_fbatch);

	mb->op[mb->fbatch.nr] = (unsigned char)op;
	if (!folio_batch_add(&mb->fbatch, folio) || folio_test_large(folio))
		mlock_folio_batch(mb);
}

void mlock_folio(struct folio *folio)
{
	long nr = (long)folio_nr_pages(folio);
	unsigned long flags;

	local_irq_save(flags);
	if (!folio_test_set_mlocked(folio)) {
		mod_node_page_state(NR_MLOCK, nr);
		count_vm_events(UNEVICTABLE_PGMLOCKED, nr);
	} else if (folio_test_unevictable(folio) && folio_test_lru(folio)) {
		local_irq_restore(flags);
		return;			/* already where it belongs: nothing to move */
	}
	folio_get(folio);
	mlock_batch_add(folio, MLOCK_LRU);
	local_irq_restore(flags);
}

void mlock_new_folio(struct folio *folio)
{
	long nr = (long)folio_nr_pages(folio);
	unsigned long flags;

	local_irq_save(flags);
	folio_set_mlocked(folio);
	mod_node_page_state(NR_MLOCK, nr);
	count_vm_events(UNEVICTABLE_PGMLOCKED, nr);
	folio_get(folio);
	mlock_batch_add(folio, MLOCK_NEW);
	local_irq_restore(flags);
}

void munlock_folio(struct folio *folio)
{
	unsigned long flags;

	/* v6.10 always queues, to count mlock_count down; without it there is nothing to do
	 * for a folio that is not mlocked. */
	if (!folio_test_mlocked(folio))
		return;
	local_irq_save(flags);
	folio_get(folio);
	mlock_batch_add(folio, MUNLOCK);
	local_irq_restore(flags);
}

__fastpath void mlock_vma_folio(struct folio *folio, struct vm_area_struct *vma)
{
	if (unlikely(vma && (vma->vm_flags & VM_LOCKED)))
		mlock_folio(folio);
}

__fastpath void folio_add_lru_vma(struct folio *folio, struct vm_area_struct *vma)
{
	if (unlikely(vma->vm_flags & VM_LOCKED))
		mlock_new_folio(folio);
	else
		folio_add_lru(folio);
}

void mlock_drain_local(void)
{
	unsigned long flags;

	local_irq_save(flags);
	struct mlock_fbatch *mb = this_cpu_ptr(&mlock_fbatch);
	if (folio_batch_count(&mb->fbatch))
		mlock_folio_batch(mb);
	local_irq_restore(flags);
}

/* Does @cpu hold folios in its mlock batch?  Racy, as lru_add_drain_all() wants. */
bool mlock_cpu_needs_drain(unsigned int cpu)
{
	return READ_ONCE(per_cpu(mlock_fbatch, cpu).fbatch.nr) != 0;
}

/* Every CPU's, read racily (a count for reports; only the owner changes a batch). */
unsigned int mlock_batched_folios(void)
{
	unsigned int n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += READ_ONCE(per_cpu(mlock_fbatch, cpu).fbatch.nr);
	return n;
}
