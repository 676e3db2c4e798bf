/*
 * kernel-page-flags.h - the KPF_* bits of /proc/kpageflags and stable_page_flags()
 * (mm/kpageflags.c), numbered exactly as Linux v6.10 numbers them: 0-26 in
 * include/uapi/linux/kernel-page-flags.h (stable ABI), 32-42 in include/linux/kernel-page-flags.h
 * ("kernel hacking assistances", which Linux says may change).  docs/kpageflags.md has the table.
 */
#ifndef TINYMM_KERNEL_PAGE_FLAGS_H
#define TINYMM_KERNEL_PAGE_FLAGS_H

#include <stdint.h>

typedef uint64_t u64;

#define KPF_LOCKED		0
#define KPF_ERROR		1	/* PG_error: tinymm has none, so never set */
#define KPF_REFERENCED		2
#define KPF_UPTODATE		3
#define KPF_DIRTY		4
#define KPF_LRU			5
#define KPF_ACTIVE		6
#define KPF_SLAB		7
#define KPF_WRITEBACK		8
#define KPF_RECLAIM		9
#define KPF_BUDDY		10
#define KPF_MMAP		11
#define KPF_ANON		12
#define KPF_SWAPCACHE		13
#define KPF_SWAPBACKED		14
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_HUGE		17
#define KPF_UNEVICTABLE		18
#define KPF_HWPOISON		19
#define KPF_NOPAGE		20
#define KPF_KSM			21
#define KPF_THP			22
#define KPF_OFFLINE		23
#define KPF_ZERO_PAGE		24
#define KPF_IDLE		25
#define KPF_PGTABLE		26

#define KPF_RESERVED		32
#define KPF_MLOCKED		33
#define KPF_MAPPEDTODISK	34	/* Linux 6.12 renamed it KPF_OWNER_2 */
#define KPF_PRIVATE		35
#define KPF_PRIVATE_2		36
#define KPF_OWNER_PRIVATE	37
#define KPF_ARCH		38
#define KPF_UNCACHED		39	/* Linux removed PG_uncached, and this bit's use, in late 2024 */
#define KPF_SOFTDIRTY		40	/* from /proc/pid/pagemap, never from stable_page_flags() */
#define KPF_ARCH_2		41
#define KPF_ARCH_3		42	/* since Linux 6.2, with PG_arch_3 (arm64 MTE's PG_mte_lock) */

struct page;

/*
 * The KPF_* word of one frame, as Linux's fs/proc/page.c computes it; NULL (a hole, an invalid
 * pfn) gives KPF_NOPAGE alone.  @page must be a memmap page: telling whether a page lies inside
 * a free buddy block needs its pfn, which comes from the memmap bank holding it (a page outside
 * every bank is only ever BUDDY if it is a block's head).
 */
u64 stable_page_flags(const struct page *page);

/*
 * The same for a page of any struct page array @map whose entry 0 describes frame @map_pfn (a
 * memmap bank, or a test's hand-built array): buddy heads are looked for inside @map only.
 */
u64 stable_page_flags_in(const struct page *page, const struct page *map, unsigned long map_pfn);

#endif
