/*
 * mm_types.h - struct page and struct folio.
 *
 * struct page is kept small on purpose: 32 bytes on 32-bit, 48 on 64-bit (Linux: 64), so the
 * memmap costs 0.78% / 1.17% of RAM.  The saving comes from the list links, which are 32-bit
 * page-frame indices instead of two pointers (see struct page_link).  Field by field, with
 * offsets for 32-bit / 64-bit:
 *
 *   flags           0 /  0  unsigned long: PG_* bits from 0 up, node and zone at the top
 *   lru / compound_head
 *                   4 /  8  8 bytes: a list link (two pfn indices) while the page is on a list;
 *                           on a tail page, the head's address + 1 (bit 0 marks a tail), as in
 *                           Linux.  Both cannot be needed at once: tail pages are never on lists.
 *                           A free frame on a per-CPU list keeps its next frame's address here
 *                           (pcp_next, as Linux's pcp_list shares lru; the last block's points
 *                           at its list's head, so it is never NULL there): pointer-aligned, so
 *                           bit 0 stays clear, and a full pointer, so the fast path converts nothing.
 *   mapping        12 / 16  the page cache's address_space, or anon/movable bits
 *   index          16 / 24  offset in the mapping, in pages
 *   private        20 / 32  owner's data (buffer heads; the buddy order of a free block)
 *   _mapcount      24 / 40  page-table mappings - 1; page_type when >= PAGE_TYPE_BASE (buddy)
 *   _refcount      28 / 44  references; 0 = free
 *
 * struct folio overlays the first two pages of a (possibly large) folio: page 0's fields, then
 * page 1's flags word, whose low byte holds the folio order (as Linux keeps it in _flags_1).
 * Invariant: a tail page's compound_head points at its head; a head page has PG_head; the order
 * of a large folio is >= 1 and lives only in page 1.
 */
#ifndef TINYMM_MM_TYPES_H
#define TINYMM_MM_TYPES_H

#include <stddef.h>
#include "atomic.h"
#include "kernel.h"

struct address_space;

/*
 * A list link as two page-frame indices, each stored shifted left by one so bit 0 is always
 * clear (a set bit 0 in this word means "tail page").  Limits frames to 2^31 (8 TiB of 4 KiB
 * pages).  LINK_NONE marks an empty link.
 */
struct page_link {
	uint32_t next, prev;
};
#define PAGE_LINK_NONE	0xfffffffeU

struct page {
	unsigned long flags;
	union {
		struct page_link lru;
		unsigned long compound_head;	/* tail pages: head + 1 */
		struct page *pcp_next;		/* on a per-CPU list (mm/pcp.c); the last links to
						 * its per_cpu_pages (mmzone.h: pcp_list_end) */
	};
	struct address_space *mapping;
	unsigned long index;
	unsigned long private;
	union {
		atomic_t _mapcount;
		unsigned int page_type;
	};
	atomic_t _refcount;
};

#if __SIZEOF_LONG__ == 4
_Static_assert(sizeof(struct page) <= 32, "struct page must stay within 32 bytes on 32-bit");
#else
_Static_assert(sizeof(struct page) <= 48, "struct page must stay within 48 bytes on 64-bit");
#endif
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "compound_head's bit 0 must overlay lru.next's bit 0 (little-endian)");

struct folio {
	union {
		struct {
			unsigned long flags;
			union {
				struct page_link lru;
				unsigned long __compound_head;
			};
			struct address_space *mapping;
			unsigned long index;
			unsigned long private;
			atomic_t _mapcount;
			atomic_t _refcount;
		};
		struct page page;
	};
	union {
		struct {
			unsigned long _flags_1;		/* low byte: order */
			unsigned long _head_1;		/* page 1's compound_head */
		};
		struct page __page_1;
	};
};

#define FOLIO_MATCH(pg, fl) \
	_Static_assert(offsetof(struct page, pg) == offsetof(struct folio, fl), #pg " vs " #fl)
FOLIO_MATCH(flags, flags);
FOLIO_MATCH(lru, lru);
FOLIO_MATCH(compound_head, __compound_head);
FOLIO_MATCH(mapping, mapping);
FOLIO_MATCH(index, index);
FOLIO_MATCH(private, private);
FOLIO_MATCH(_mapcount, _mapcount);
FOLIO_MATCH(_refcount, _refcount);
_Static_assert(offsetof(struct folio, _flags_1) == sizeof(struct page), "page 1 starts here");
_Static_assert(offsetof(struct folio, _head_1) == sizeof(struct page) +
	       offsetof(struct page, compound_head), "page 1's compound_head");
_Static_assert(sizeof(struct folio) == 2 * sizeof(struct page), "a folio header is two pages");

#endif
