/*
 * rmap_file.h - the file side of reverse mapping (H2 of issue 34; mm/rmap_file.c,
 * docs/shared-mappings.md): the areas that map a file, found from its address_space.
 *
 *   i_mmap_lock_write(m) / i_mmap_unlock_write(m)   v6.10's names for mapping->i_mmap_lock
 *   i_mmap_lock_read(m) / i_mmap_unlock_read(m)     (a mutex here: readers exclude each other)
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
	mutex_lock(&mapping->i_mmap_lock);
}

static inline void i_mmap_unlock_write(struct address_space *mapping)
{
	mutex_unlock(&mapping->i_mmap_lock);
}

/* v6.10's i_mmap_rwsem lets walkers share it; one CPU gains nothing from that here. */
static inline void i_mmap_lock_read(struct address_space *mapping)
{
	mutex_lock(&mapping->i_mmap_lock);
}

static inline void i_mmap_unlock_read(struct address_space *mapping)
{
	mutex_unlock(&mapping->i_mmap_lock);
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
