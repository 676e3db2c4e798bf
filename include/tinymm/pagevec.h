/*
 * pagevec.h - a small batch of folios (v6.10's include/linux/pagevec.h): the LRU's per-CPU
 * batches (mm/swap.c), writeback's lookups (mm/page-writeback.c) and truncation use it.
 * 31 pointers and a header make a power of two.
 */
#ifndef TINYMM_PAGEVEC_H
#define TINYMM_PAGEVEC_H

#include "kernel.h"

#define PAGEVEC_SIZE	31

struct folio;
struct folio_batch {
	unsigned char nr;
	unsigned char i;		/* folio_batch_next()'s cursor */
	bool percpu_pvec_drained;
	struct folio *folios[PAGEVEC_SIZE];
};

static inline void folio_batch_init(struct folio_batch *fbatch)
{
	fbatch->nr = 0;
	fbatch->i = 0;
	fbatch->percpu_pvec_drained = false;
}

static inline unsigned int folio_batch_count(const struct folio_batch *fbatch)
{
	return fbatch->nr;
}

/* Add, and return the room left (0: full, drain it). */
static inline unsigned int folio_batch_add(struct folio_batch *fbatch, struct folio *folio)
{
	fbatch->folios[fbatch->nr++] = folio;
	return PAGEVEC_SIZE - fbatch->nr;
}

#endif
