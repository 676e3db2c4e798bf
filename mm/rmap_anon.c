/*
 * rmap_anon.c - the anonymous side of reverse mapping (include/tinymm/anon_vma.h,
 * include/tinymm/rmap.h, docs/fork.md): anon_vma's life and rmap_walk_anon().  Linux v6.10
 * mm/rmap.c's anon_vma_prepare, anon_vma_fork/anon_vma_clone, unlink_anon_vmas and
 * rmap_walk_anon, with one anon_vma per family of areas instead of v6.10's anon_vma_chain
 * (anon_vma.h says what that costs).
 *
 * Invariants: an area is on its anon_vma's list exactly while vma->anon_vma is set, and
 * nr_vmas counts the list; an anonymous folio mapped by a pte of area V has V->anon_vma as its
 * mapping (faults prepare the anon_vma before the folio is mapped, fork gives the copy of V
 * the same anon_vma, a split's tail joins it, and a merge never joins two different ones), and
 * folio->index is its linear page index in every area of the family (fork copies vm_pgoff; a
 * split or merge keeps an anonymous page's index, as v6.10's).  So every pte mapping the folio
 * is in an area on its anon_vma's list, at vma_address() of folio->index.
 * Lifetime: the anon_vma is freed when its last area leaves (unlink_anon_vmas) and nobody
 * holds a reference (folio_get_anon_vma: migration, whose folio is unmapped while it moves).
 * A folio that is no longer mapped may still point at it (v6.10 keeps the anon_vma alive for
 * such folios with SLAB_TYPESAFE_BY_RCU and folio_lock_anon_vma_read); tinymm walks only
 * mapped folios, or ones whose walker holds a reference (@anon_held), and an area leaves only
 * after its ptes are zapped under its mm's mmap_lock, so a walker holding the folio mapped
 * (its caller holds that folio's mm mmap_lock, or the folio's ptes cannot go away meanwhile)
 * never sees a freed anon_vma.  folio_get_anon_vma() and the last put meet under
 * anon_vma_ref_lock: a folio seen mapped under it has an area on the list (its ptes are zapped
 * before its area leaves), so the anon_vma was not freed, and the put that frees it comes
 * after the zap, so a taker after it sees the folio unmapped.
 * Locking: anon_vma->lock (a spinlock: the callbacks do not sleep) guards the list; it nests
 * inside mmap_lock and outside page_table_lock (rmap.h's order).
 */
#include "tinymm/anon_vma.h"
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/mmdebug.h"
#include "tinymm/pgtable.h"
#include "tinymm/rmap.h"
#include "tinymm/slab.h"

static struct anon_vma *anon_vma_alloc(void)
{
	struct anon_vma *av = kmalloc(sizeof(*av), GFP_KERNEL);

	if (!av)
		return NULL;
	spin_lock_init(&av->lock);
	INIT_LIST_HEAD(&av->head);
	av->nr_vmas = 0;
	atomic_set(&av->refcount, 1);
	return av;
}

/* folio_get_anon_vma() against the put that frees: see the header.  A leaf lock. */
static DEFINE_SPINLOCK(anon_vma_ref_lock);

struct anon_vma *folio_get_anon_vma(const struct folio *folio)
{
	struct anon_vma *av = NULL;
	unsigned long flags;

	spin_lock_irqsave(&anon_vma_ref_lock, flags);
	if (folio_mapped(folio)) {
		av = folio_anon_vma(folio);
		if (av)
			atomic_inc(&av->refcount);
	}
	spin_unlock_irqrestore(&anon_vma_ref_lock, flags);
	return av;
}

void put_anon_vma(struct anon_vma *av)
{
	unsigned long flags;
	bool last;

	spin_lock_irqsave(&anon_vma_ref_lock, flags);
	last = atomic_dec_and_test(&av->refcount);
	spin_unlock_irqrestore(&anon_vma_ref_lock, flags);
	if (last) {
		WARN_ON(!list_empty(&av->head));
		kfree(av);
	}
}

void anon_vma_link(struct vm_area_struct *vma, struct anon_vma *av)
{
	spin_lock(&av->lock);
	vma->anon_vma = av;
	list_add_tail(&vma->anon_vma_node, &av->head);
	av->nr_vmas++;
	spin_unlock(&av->lock);
}

/* anon_vma_prepare()'s rare half: the lock assert's report, the first anonymous page. */
static __attribute__((noinline)) int __anon_vma_prepare(struct vm_area_struct *vma)
{
	struct anon_vma *av;

	if (!lockdep_is_held(&vma->vm_mm->mmap_lock))
		lockdep_warn_not_held(&vma->vm_mm->mmap_lock, "anon_vma_prepare");
	if (vma->anon_vma)
		return 0;
	av = anon_vma_alloc();
	if (!av)
		return -ENOMEM;
	anon_vma_link(vma, av);
	return 0;
}

/* lockdep_assert_held(mmap_lock) and the area's anon_vma, both tested here; anything else is
 * __anon_vma_prepare()'s (a tail call: no frame on every anonymous fault). */
__fastpath int anon_vma_prepare(struct vm_area_struct *vma)
{
	if (likely(lockdep_is_held(&vma->vm_mm->mmap_lock)) && likely(vma->anon_vma))
		return 0;
	return __anon_vma_prepare(vma);
}

void unlink_anon_vmas(struct vm_area_struct *vma)
{
	struct anon_vma *av = vma->anon_vma;
	bool last;

	if (!av)
		return;
	spin_lock(&av->lock);
	list_del(&vma->anon_vma_node);
	last = --av->nr_vmas == 0;
	spin_unlock(&av->lock);
	vma->anon_vma = NULL;
	if (last)
		put_anon_vma(av);	/* the areas' reference */
}

void anon_vma_merge(struct vm_area_struct *keep, struct vm_area_struct *gone)
{
	VM_WARN_ON(!anon_vma_compatible(keep, gone));
	if (!keep->anon_vma && gone->anon_vma)
		anon_vma_link(keep, gone->anon_vma);
	unlink_anon_vmas(gone);
}

/* Where the folio's page would be in @vma, or -EFAULT if outside it (v6.10's vma_address). */
static unsigned long vma_address(const struct vm_area_struct *vma, unsigned long pgoff)
{
	unsigned long address;

	if (pgoff < vma->vm_pgoff)
		return -EFAULT;
	address = vma->vm_start + ((pgoff - vma->vm_pgoff) << PAGE_SHIFT);
	if (address < vma->vm_start || address >= vma->vm_end)
		return -EFAULT;
	return address;
}

/*
 * v6.10's rmap_walk_anon(): @rwc->rmap_one for every area of the folio's family that covers
 * its index, until it returns false.  The callback checks the pte itself (v6.10's
 * page_vma_mapped_walk): an area of the family need not map this folio.  A folio no longer
 * mapped has nothing to visit (and its anon_vma may be gone: see the header), unless the
 * walker holds the anon_vma (@anon_held: migration's entries are in its ptes).
 */
void rmap_walk_anon(struct folio *folio, struct rmap_walk_control *rwc)
{
	struct anon_vma *av = folio_anon_vma(folio);
	struct vm_area_struct *vma;

	VM_WARN_ON(!folio_test_locked(folio));
	if (!av || (!folio_mapped(folio) && !rwc->anon_held))
		return;
	spin_lock(&av->lock);
	list_for_each_entry(vma, &av->head, anon_vma_node) {
		unsigned long address = vma_address(vma, folio->index);

		if (address == (unsigned long)-EFAULT)
			continue;
		if (!rwc->rmap_one(folio, vma, address, rwc->arg))
			break;
	}
	spin_unlock(&av->lock);
}
