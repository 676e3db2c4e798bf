/*
 * rmap_file.h - the file side of reverse mapping (H2 of issue 34; mm/rmap_file.c,
 * docs/shared-mappings.md): the areas that map a file, found from its address_space.
 *
 *   i_mmap_lock_write(m) / i_mmap_unlock_write(m)   v6.10's names, over mapping->i_mmap_rwsem
 *   i_mmap_lock_read(m) / i_mmap_trylock_read(m) / i_mmap_unlock_read(m)
 *                                                   (mapping->i_mmap_rwsem: readers share it)
 *   vma_link_file(vma) / vma_unlink_file(vma)   put an area with a vm_file on (take it off)
 *                         its mapping's i_mmap, taking (dropping) the area's file reference;
 *                         no-ops for an anonymous area (vma_get_file: the reference alone)
 *   rmap_walk_file(folio, rwc)                 (include/tinymm/rmap.h) every area of
 *                         folio->mapping's i_mmap whose range covers folio->index
 *   folio_mkclean(folio)  every pte mapping the locked file folio write-protected and cleaned,
 *                         TLB flushed: the number of ptes that were dirty or writable
 *   unmap_mapping_folio(folio)   every pte mapping the locked folio zapped (truncation)
 *   unmap_mapping_range(mapping, start, len, even_cows)   the ptes of file bytes
 *                         [start, start + len) (len 0: to the end) zapped in every area;
 *                         private copies (anonymous folios) too when @even_cows
 * (truncate_pagecache(), mm/truncate.c, calls unmap_mapping_range before and after truncating.)
 * Locking: vma_link/unlink under the area's mm->mmap_lock (checked) and they take
 * i_mmap_lock; an area's vm_start, vm_end and vm_pgoff change only under both
 * (mm/mmap.c's split and merge), so a walk under i_mmap_lock sees them stable.
 * Order: mmap_lock -> folio lock -> i_mmap_lock -> page_table_lock.
 */
#ifndef TINYMM_RMAP_FILE_H
#define TINYMM_RMAP_FILE_H

#include "fs.h"
#include "mm_fault.h"
#include "rmap.h"

static inline void i_mmap_lock_write(struct address_space *mapping)
{
	down_write(&mapping->i_mmap_rwsem);
}

static inline void i_mmap_unlock_write(struct address_space *mapping)
{
	up_write(&mapping->i_mmap_rwsem);
}

/* Walkers share it, as v6.10's: reclaim's folio_referenced() in kswapd must not find it taken
 * by direct reclaim's try_to_unmap() of another folio of the same file (docs/reclaim.md). */
static inline void i_mmap_lock_read(struct address_space *mapping)
{
	down_read(&mapping->i_mmap_rwsem);
}

static inline int i_mmap_trylock_read(struct address_space *mapping)
{
	return down_read_trylock(&mapping->i_mmap_rwsem);
}

static inline void i_mmap_unlock_read(struct address_space *mapping)
{
	up_read(&mapping->i_mmap_rwsem);
}

/* The mapping of an area's file, or NULL for an anonymous area. */
struct address_space *vma_file_mapping(const struct vm_area_struct *vma);
void vma_get_file(struct vm_area_struct *vma);
void vma_link_file(struct vm_area_struct *vma);
void vma_unlink_file(struct vm_area_struct *vma);
int folio_mkclean(struct folio *folio);
void unmap_mapping_folio(struct folio *folio);
void unmap_mapping_range(struct address_space *mapping, loff_t start, loff_t len, bool even_cows);

#endif
