/*
 * anon_vma.h - the anonymous side of reverse mapping (mm/rmap_anon.c, docs/fork.md): which
 * areas may map an anonymous folio.  An anonymous folio's mapping is its anon_vma |
 * PAGE_MAPPING_ANON (v6.10's), folio->index its linear page index in those areas.
 *
 * tinymm's anon_vma is v6.10's anon_vma without the anon_vma_chain: one anon_vma is shared by
 * an area and every copy fork makes of it (and of the copies' copies: a family), and keeps the
 * list of those areas itself (anon_vma->head, through vma->anon_vma_node).  A walk visits every
 * area of the family, including ones that never mapped the folio (a child's area only shares
 * the pages that existed at fork); each visit checks the pte, so that costs time, never
 * correctness.  v6.10's chains avoid the extra visits at the price of one anon_vma per fork
 * level and a chain entry per (area, anon_vma) pair.
 *
 *   anon_vma_prepare(vma)      @vma gets an anon_vma of its own if it has none (the first
 *                              anonymous page of the area, v6.10's): 0 or -ENOMEM
 *   anon_vma_link(vma, av)     @vma joins @av's family (fork's copy of an area, a split's tail)
 *   unlink_anon_vmas(vma)      @vma leaves its family; the last area out frees the anon_vma
 *   anon_vma_compatible(a, b)  may areas @a and @b become one (v6.10's is_mergeable_anon_vma)
 *   anon_vma_merge(keep, gone) @gone is merged into @keep: @keep takes its anon_vma if it has none
 *   folio_get_anon_vma(folio)  a reference on a mapped anonymous folio's anon_vma, so it
 *                              outlives the folio's ptes (migration: mm/migrate.c); NULL if
 *                              the folio is not mapped; put_anon_vma() gives it back
 * Locking: mmap_lock of the area's mm held (checked); anon_vma->lock, taken inside, guards the
 * list (a walker holds it while it visits; lock order in rmap.h).  The areas of a family live in
 * different mms, so the list needs its own lock, not any one mmap_lock.
 */
#ifndef TINYMM_ANON_VMA_H
#define TINYMM_ANON_VMA_H

#include "list.h"
#include "mmap.h"
#include "page-flags.h"
#include "spinlock.h"

struct anon_vma {
	spinlock_t lock;		/* the list below */
	struct list_head head;		/* every area of the family (vma->anon_vma_node) */
	int nr_vmas;			/* areas on it */
	atomic_t refcount;		/* the areas' one, and each folio_get_anon_vma(): 0 frees */
};

int anon_vma_prepare(struct vm_area_struct *vma);
void anon_vma_link(struct vm_area_struct *vma, struct anon_vma *av);
void unlink_anon_vmas(struct vm_area_struct *vma);
void anon_vma_merge(struct vm_area_struct *keep, struct vm_area_struct *gone);
struct anon_vma *folio_get_anon_vma(const struct folio *folio);
void put_anon_vma(struct anon_vma *av);

static inline bool anon_vma_compatible(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
	return !a->anon_vma || !b->anon_vma || a->anon_vma == b->anon_vma;
}

/* The anon_vma an anonymous folio belongs to (v6.10's folio_anon_vma); NULL for a file folio. */
static inline struct anon_vma *folio_anon_vma(const struct folio *folio)
{
	unsigned long mapping = (unsigned long)folio->mapping;

	if (!(mapping & PAGE_MAPPING_ANON))
		return NULL;
	return (struct anon_vma *)(mapping & ~PAGE_MAPPING_FLAGS);
}

#endif
