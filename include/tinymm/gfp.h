/*
 * gfp.h - what an allocation may do and where its memory may come from (Linux's gfp_t).
 * Only the bits tinymm acts on exist; their meaning is v6.10's.
 */
#ifndef TINYMM_GFP_H
#define TINYMM_GFP_H

typedef unsigned int gfp_t;

#define __GFP_DMA		0x01u	/* from ZONE_DMA */
#define __GFP_MOVABLE		0x08u	/* migratetype MOVABLE (else UNMOVABLE) */
#define __GFP_RECLAIMABLE	0x10u	/* migratetype RECLAIMABLE */
#define __GFP_HIGH		0x20u	/* may dip below the min watermark (GFP_ATOMIC) */
#define __GFP_IO		0x40u
#define __GFP_FS		0x80u
#define __GFP_ZERO		0x100u	/* zero the memory */
#define __GFP_DIRECT_RECLAIM	0x400u	/* may sleep in direct reclaim (mm/vmscan.c) */
#define __GFP_KSWAPD_RECLAIM	0x800u
#define __GFP_WRITE		0x1000u	/* the caller will dirty the page (page cache writes) */
#define __GFP_NOWARN		0x2000u	/* no allocation-failure report */
#define __GFP_RETRY_MAYFAIL	0x4000u	/* a costly order may retry reclaim like a small one */
#define __GFP_NORETRY		0x10000u	/* one round of direct reclaim, then fail */
#define __GFP_NOMEMALLOC	0x80000u	/* never the reserves, even inside reclaim */
#define __GFP_COMP		0x40000u	/* a compound page: a large folio */

/* The migratetype bits, as Linux: (gfp & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT is MIGRATE_MOVABLE
 * (1) or MIGRATE_RECLAIMABLE (2), 0 for neither (UNMOVABLE); both at once is a caller's bug. */
#define GFP_MOVABLE_MASK	(__GFP_RECLAIMABLE | __GFP_MOVABLE)
#define GFP_MOVABLE_SHIFT	3

#define __GFP_RECLAIM		(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_ATOMIC		(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO		(__GFP_RECLAIM)		/* Linux's: no I/O started to get memory */
#define GFP_NOFS		(__GFP_RECLAIM | __GFP_IO)
#define GFP_DMA			__GFP_DMA
#define GFP_USER		GFP_KERNEL
#define GFP_HIGHUSER_MOVABLE	(GFP_USER | __GFP_MOVABLE)

#endif
