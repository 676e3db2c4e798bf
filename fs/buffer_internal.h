/*
 * fs/buffer_internal.h - what fs/buffer.c shares with fs/buffer_aops.c (Linux keeps both in
 * fs/buffer.c; split here to keep each file one idea).
 */
#ifndef TINYMM_FS_BUFFER_INTERNAL_H
#define TINYMM_FS_BUFFER_INTERNAL_H

#include <string.h>
#include "tinymm/buffer_head.h"
#include "tinymm/mm.h"

#define MAX_BUF_PER_PAGE	(PAGE_SIZE / SECTOR_SIZE)

/* The inode whose page cache @mapping is (vfs.h: i_mapping is &i_data). */
static inline struct inode *mapping_inode(struct address_space *mapping)
{
	return container_of(mapping, struct inode, i_data);
}

static inline unsigned int bh_offset(const struct buffer_head *bh)
{
	return (unsigned int)((uintptr_t)bh->b_data & (PAGE_SIZE - 1));
}

static inline void folio_zero_range(struct folio *folio, size_t start, size_t len)
{
	memset((char *)page_address(&folio->page) + start, 0, len);
}

/* Submit @nr locked buffers of one folio, marked BH_Async_Read or BH_Async_Write for @op,
 * one bio per contiguous run; the last completion ends the folio's read or writeback. */
void submit_bh_runs(struct buffer_head **arr, int nr, unsigned int op);
/* Read one mapped buffer now, under its lock: 0 or -EIO. */
int bh_read(struct buffer_head *bh);

#endif
