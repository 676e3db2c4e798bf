/*
 * config.h - build-time configuration of the memory manager (Linux's CONFIG_* names where
 * Linux has them).  A board may override any of these from its board.cmake with -D.
 */
#ifndef TINYMM_CONFIG_H
#define TINYMM_CONFIG_H

/* Nodes the page flags can name: 1 << CONFIG_NODES_SHIFT (Linux: CONFIG_NODES_SHIFT). */
#ifndef CONFIG_NODES_SHIFT
#define CONFIG_NODES_SHIFT	2
#endif

/* Largest buddy order (Linux's MAX_PAGE_ORDER, default 10). */
#ifndef MAX_PAGE_ORDER
#define MAX_PAGE_ORDER		10
#endif

/* Page-flag policy checks and VM_BUG_ON (Linux: CONFIG_DEBUG_VM, CONFIG_DEBUG_VM_PGFLAGS). */
#ifndef CONFIG_DEBUG_VM
#define CONFIG_DEBUG_VM		1
#endif

/* RAM banks with a memmap of their own (holes between banks cost nothing). */
#ifndef CONFIG_MAX_MEMMAP_BANKS
#define CONFIG_MAX_MEMMAP_BANKS	16
#endif

#endif
