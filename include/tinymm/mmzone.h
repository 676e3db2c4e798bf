/* mmzone.h - zones and nodes (the zones themselves arrive with the page allocator). */
#ifndef TINYMM_MMZONE_H
#define TINYMM_MMZONE_H

#include "config.h"

enum zone_type {
	ZONE_DMA,	/* below a board's DMA limit (dma-ranges or a configured limit) */
	ZONE_NORMAL,
	ZONE_MOVABLE,
	__MAX_NR_ZONES
};
#define MAX_NR_ZONES	__MAX_NR_ZONES
#define MAX_NUMNODES	(1 << CONFIG_NODES_SHIFT)

#endif
