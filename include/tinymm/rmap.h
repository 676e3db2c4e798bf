/*
 * rmap.h - from a folio to the ptes that map it (v6.10 include/linux/rmap.h, reduced).
 * rmap_walk_anon() (mm/rmap_anon.c) walks a folio's anon_vma, rmap_walk_file()
 * (mm/rmap_file.c) its mapping's i_mmap; each calls @rmap_one for every vma that may map
 * the folio, with the address it would be at, until @rmap_one returns false.
 * Locking: the folio is locked by the caller; the walkers take anon_vma->lock or
 * i_mmap_lock (with @try_lock only if free: @contended says it was not); @rmap_one takes the
 * mm's page_table_lock itself (page_vma_mapped_pte).
 *
 * Reclaim's walks (mm/rmap.c, docs/shared-mappings.md "Reclaim of mapped pages"):
 *   folio_referenced(folio, is_locked, &vm_flags)  every pte mapping the folio made old
 *        (ptep_clear_flush_young); the number of areas that had it young (PG_young counts as
 *        one more), -1 if an rmap lock was busy, and in vm_flags those areas' flags; an area
 *        with VM_LOCKED stops the walk and vm_flags is VM_LOCKED alone.  Not @is_locked: a
 *        file folio is trylocked here (busy: 1, as v6.10).
 *   try_to_unmap(folio, flags)  every pte mapping the locked file folio cleared and flushed,
 *        its dirty bit moved to the folio, its mapcount and reference dropped; stops at a
 *        VM_LOCKED area unless TTU_IGNORE_MLOCK.  With TTU_HWPOISON and a PG_hwpoison page
 *        (memory_failure) each pte gets a hwpoison entry instead of none (swapops.h), and an
 *        anonymous folio is unmapped too; without it an anonymous folio stays mapped: with no
 *        swap there is no entry to leave in its ptes (v6.10 reaches this only after
 *        add_to_swap succeeded).  The caller checks folio_mapped() afterwards.
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
	bool try_lock;		/* give up (contended = true) rather than wait for an rmap lock */
	bool contended;
	bool anon_held;		/* the caller holds the anon_vma (folio_get_anon_vma): walk even
				 * an unmapped folio (migration) */
};

enum ttu_flags {
	TTU_IGNORE_MLOCK	= 0x8,	/* unmap from VM_LOCKED areas too (v6.10's value) */
	TTU_HWPOISON		= 0x20,	/* leave a hwpoison entry in each pte (v6.10's value) */
};

/* The pte at @address in @vma's mm if it maps @folio (present: a hwpoison entry holding the
 * folio's pfn maps nothing), returned with the mm's page_table_lock
 * held (the caller unlocks it); NULL (lock not held) if it maps something else or nothing. */
pte_t *page_vma_mapped_pte(struct folio *folio, struct vm_area_struct *vma, unsigned long address);
int folio_referenced(struct folio *folio, int is_locked, unsigned long *vm_flags);
void try_to_unmap(struct folio *folio, enum ttu_flags flags);
/* Migration's walks (mm/rmap_migrate.c): the locked folio's ptes to migration entries, and
 * the entries naming @src back to ptes of @dst (== @src after a failed move). */
void try_to_migrate(struct folio *folio);
void remove_migration_ptes(struct folio *src, struct folio *dst);

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
