/*
 * rmap.h - from a folio to the ptes that map it (v6.10 include/linux/rmap.h, reduced).
 * rmap_walk_anon() (mm/rmap_anon.c) walks a folio's anon_vma, rmap_walk_file()
 * (mm/rmap_file.c) its mapping's i_mmap; each calls @rmap_one for every vma that may map
 * the folio, with the address it would be at, until @rmap_one returns false.
 * Locking: the folio is locked by the caller; the walkers take anon_vma->lock or
 * i_mmap_lock; @rmap_one takes the mm's page_table_lock itself.
 * Lock order (v6.10's): mmap_lock -> folio lock -> i_mmap_lock -> anon_vma->lock ->
 * page_table_lock.
 */
#ifndef TINYMM_RMAP_H
#define TINYMM_RMAP_H

#include "mm_fault.h"
#include "page-flags.h"

struct rmap_walk_control {
	void *arg;
	bool (*rmap_one)(struct folio *folio, struct vm_area_struct *vma, unsigned long address,
			 void *arg);
};

void rmap_walk_anon(struct folio *folio, struct rmap_walk_control *rwc);
void rmap_walk_file(struct folio *folio, struct rmap_walk_control *rwc);

static inline void rmap_walk(struct folio *folio, struct rmap_walk_control *rwc)
{
	if (folio_test_anon(folio))
		rmap_walk_anon(folio, rwc);
	else
		rmap_walk_file(folio, rwc);
}

#endif
