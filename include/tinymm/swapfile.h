/*
 * swapfile.h - swap areas and their slots (mm/swapfile.c, mm/swapon.c), the swap cache
 * (mm/swap_state.c) and swap I/O (mm/page_io.c): Linux v6.10's names and rules
 * (include/linux/swap.h, swapfile.h), docs/swap.md.
 *
 * A swap area is a block device (or partition) holding Linux's on-disk format, what mkswap
 * writes: page 0 is the header (SWAPSPACE2 in its last 10 bytes, version 1, last_page, the bad
 * pages), pages 1..last_page are slots.  A slot is named by a swp_entry_t (type = the area's
 * index in swap_info[], offset = the page number in the area; include/tinymm/swapops.h), which
 * is what a pte holds for an anonymous page that was swapped out.
 *
 * swap_map[offset] is the slot's use: the number of ptes (and other holders) naming it, plus
 * SWAP_HAS_CACHE while a folio for it is in the swap cache (or being read into it: the bit is
 * the "I am bringing it in" lock, v6.10's swapcache_prepare).  0 is a free slot; SWAP_MAP_BAD
 * marks the header and the bad pages, never allocated.
 *
 * Where tinymm differs from v6.10, and why: swap_map is 16 bits per slot, not 8 with count
 * continuation pages (COUNT_CONTINUED): a count up to SWAP_MAP_MAX (32766) without the extra
 * pages, at 2 bytes a slot (a 1 GiB area: 512 KiB of map, vmalloc'd); no per-CPU slot cache
 * (swap_slots.c) and no cluster list: one lock per area and a next-fit scan from the last slot
 * given (v6.10's scan_swap_map_slots without clusters), which keeps consecutive swap-outs on
 * consecutive slots; one swap cache address_space per area (v6.10 splits it every 64 MiB to
 * spread the lock); no swap files (a regular file's blocks through bmap), only block devices.
 *
 * Locking: si->lock (a spinlock, never taken in interrupt context) guards swap_map, the
 * counters and the free-slot bounds; swap_lock guards swap_info[] and the list of areas,
 * and is taken before si->lock.  nr_swap_pages is atomic.  The swap cache's address_space is
 * guarded by its xa_lock, as a file's (taken irqsave: writeback completions look at it).
 * Order: folio lock, then si->lock or the cache's xa_lock (never both held by one path).
 */
#ifndef TINYMM_SWAPFILE_H
#define TINYMM_SWAPFILE_H

#include <stdbool.h>
#include <stdint.h>
#include "atomic.h"
#include "blkdev.h"
#include "fs.h"
#include "spinlock.h"
#include "swapops.h"
#include "vmstat.h"
#include "writeback.h"

/* swap_map values (see the header). */
#define SWAP_HAS_CACHE	0x8000U
#define SWAP_MAP_BAD	0x7fffU
#define SWAP_MAP_MAX	0x7ffeU
#define SWAP_COUNT(v)	((v) & ~SWAP_HAS_CACHE)

/* si->flags (v6.10's). */
#define SWP_USED	(1U << 0)	/* the entry of swap_info[] is taken */
#define SWP_WRITEOK	(1U << 1)	/* slots may be allocated (cleared first by swapoff) */

/* Linux's union swap_header, info part, at the start of page 0 after 1024 boot bytes. */
#define SWAP_MAGIC		"SWAPSPACE2"
#define SWAP_MAGIC_LEN		10
#define SWAP_HEADER_BOOTBITS	1024
struct swap_header_info {
	uint32_t version;
	uint32_t last_page;
	uint32_t nr_badpages;
	unsigned char sws_uuid[16];
	unsigned char sws_volume[16];
	uint32_t padding[117];
	uint32_t badpages[];
};
/* How many bad-page numbers fit in the header page (v6.10's MAX_SWAP_BADPAGES). */
#define MAX_SWAP_BADPAGES(psize) \
	(((psize) - SWAP_MAGIC_LEN - SWAP_HEADER_BOOTBITS - sizeof(struct swap_header_info)) / 4)

struct swap_info_struct {
	unsigned int flags;		/* SWP_* */
	short prio;			/* /proc/swaps' Priority: -2, -3, ... in swapon order */
	unsigned int type;		/* index in swap_info[] */
	struct block_device *bdev;
	uint16_t *swap_map;		/* max entries (see the header) */
	unsigned long max;		/* slots including the header: last_page + 1 */
	unsigned long pages;		/* usable slots: max - 1 - bad pages */
	unsigned long inuse_pages;	/* slots with a non-zero, non-bad map */
	unsigned long lowest_bit, highest_bit;	/* every free slot lies in [lowest, highest] */
	unsigned long cluster_next;	/* where the next-fit scan starts */
	spinlock_t lock;
};

extern struct swap_info_struct *swap_info[MAX_SWAPFILES];
extern spinlock_t swap_lock;
extern atomic_long_t nr_swap_pages;	/* free slots in areas that take writes */
extern long total_swap_pages;		/* usable slots of every area */

/* ---- header (mm/swap_header.c; pure, host-tested) ---- */
/* Check page 0 of a would-be swap area of @dev_pages pages: 0 and the usable range in
 * *@maxpages (last_page + 1), or -EINVAL with a one-line reason in *@why (no signature, an
 * old or unknown version, last_page beyond the device, a bad page out of range...). */
int swap_header_check(const void *page0, unsigned long page_size, unsigned long dev_pages,
		      unsigned long *maxpages, const char **why);
/* A header swap_header_check() accepted, its fields (version, last_page, nr_badpages, the
 * bad pages) in the CPU's byte order: swapped in place if mkswap ran on a machine of the other
 * endianness (v6.10's swab32s in read_swap_header), untouched otherwise. */
void swap_header_to_cpu(void *page0);

/* ---- slots (mm/swapfile.c) ---- */
/* An area's map set up: the header slot and @bad[] (nr_bad of them) SWAP_MAP_BAD, the rest free.
 * Used by swapon and by the host tests, which drive the allocator on a map of their own.
 * si->lock is the caller's to initialise (once: a dead area's lock may still be taken by a
 * lookup that raced with its swapoff); @si not yet SWP_USED. */
void swap_info_init_map(struct swap_info_struct *si, uint16_t *map, unsigned long max,
			const uint32_t *bad, unsigned int nr_bad);
/* One free slot of @si with the map SWAP_HAS_CACHE (v6.10's scan_swap_map_slots for one
 * slot): its offset, or 0 when the area is full.  si->lock taken inside. */
unsigned long scan_swap_map_slot(struct swap_info_struct *si);
/* A slot for @folio from the highest-priority area that has one (v6.10's folio_alloc_swap):
 * the entry, with SWAP_HAS_CACHE set; .val 0 when every area is full (or none is on). */
swp_entry_t folio_alloc_swap(struct folio *folio);
/* The area an entry names, or NULL (with a one-line log) if it names none or a slot outside
 * it: v6.10's get_swap_device() without the percpu_ref.  The struct is never freed; its map
 * and bdev stay while the caller holds a count or SWAP_HAS_CACHE on a slot of it (swapoff
 * finishes only when no slot is held). */
struct swap_info_struct *swp_swap_info(swp_entry_t entry);
/* Another holder of @entry (fork copying a swap pte): 0, -ENOMEM past SWAP_MAP_MAX, or
 * -ENOENT for a free or bad slot. */
int swap_duplicate(swp_entry_t entry);
/* Take SWAP_HAS_CACHE before reading @entry into the cache: 0, -EEXIST if a folio for it is
 * already in the cache or being read, -ENOENT if the slot is free (the pte went meanwhile). */
int swapcache_prepare(swp_entry_t entry);
/* Drop SWAP_HAS_CACHE (the cache folio went, or the read was abandoned): the slot is freed
 * when no count is left (v6.10's put_swap_folio / swapcache_clear). */
void put_swap_folio(swp_entry_t entry);
/* One holder less (a pte zapped or swapped in): freed with no count and no cache left. */
void swap_free(swp_entry_t entry);
/* The count without the cache bit (v6.10's __swap_count); 0 for a free or invalid slot. */
unsigned int __swap_count(swp_entry_t entry);
/* The raw map value (tests, `swaps` checks). */
uint16_t swap_map_value(swp_entry_t entry);
/* v6.10's vm_swap_full(): more than half the swap space in use. */
bool vm_swap_full(void);
static inline long get_nr_swap_pages(void)
{
	return atomic_long_read(&nr_swap_pages);
}
/* Sector on si->bdev where slot @offset starts. */
static inline sector_t swap_slot_sector(unsigned long offset)
{
	return (sector_t)offset << (PAGE_SHIFT - SECTOR_SHIFT);
}

/* ---- areas (mm/swapon.c) ---- */
/* Linux's header (version 1, the whole device, no bad pages) written to @bdev, as the host's
 * mkswap would (mm/mkswap.c: the KTAP suite and the bench swap to a RAM disk): 0 or -errno. */
int mkswap_bdev(struct block_device *bdev);
/* swapon(2)/swapoff(2) on a block device by name ("vdb", "/dev/vdb"): 0 or -errno, with the
 * one-line reason printed as "swapon: vdb: ...". */
int sys_swapon(const char *name);
int sys_swapoff(const char *name);
/* The last refusal's line of sys_swapon/sys_swapoff without its '\n' ("" after a success):
 * what the KTAP suite checks (the lines go to the console only, not to the log). */
const char *swap_last_error(void);
/* Bring every page of area @type back into memory and every pte back to it (v6.10's
 * try_to_unuse): 0, or -ENOMEM / -EIO with what was brought back staying in. */
int try_to_unuse(unsigned int type);
/* /proc/swaps (the `swaps` command). */
void swap_show(int (*pr)(const char *fmt, ...));

/* ---- the swap cache (mm/swap_state.c) ---- */
/* swapon / swapoff: area @type's cache made empty, and destroyed once try_to_unuse emptied it. */
void init_swap_address_space(unsigned int type);
void exit_swap_address_space(unsigned int type);
/* The address_space of area @type's cache: folio->mapping stays the anon_vma, as v6.10. */
struct address_space *swap_address_space(swp_entry_t entry);
static inline swp_entry_t folio_swap_entry(const struct folio *folio)
{
	return (swp_entry_t){ folio->private };	/* v6.10's folio->swap (shares private) */
}
/* reclaim: a slot for an anonymous folio, the folio in the cache, dirty (v6.10's add_to_swap). */
bool add_to_swap(struct folio *folio);
/* Under the cache's xa_lock, the folio frozen: out of the cache (v6.10's
 * __delete_from_swap_cache); the slot keeps its count (the ptes) and loses SWAP_HAS_CACHE
 * when the caller calls put_swap_folio(). */
void __delete_from_swap_cache(struct folio *folio, swp_entry_t entry);
void delete_from_swap_cache(struct folio *folio);
/* The cache's folio for @entry with a reference, or NULL. */
struct folio *swap_cache_get_folio(swp_entry_t entry);
/* v6.10's folio_free_swap(): a locked swap-cache folio nobody maps by a swap pte any more
 * leaves the cache and its slot is freed (the folio is dirtied: it is the only copy). */
bool folio_free_swap(struct folio *folio);
/* A pte naming @entry went (zap): v6.10's free_swap_and_cache(). */
void free_swap_and_cache(swp_entry_t entry);
/* The folio for @entry, from the cache or read into it (v6.10's swapin_readahead with
 * read_swap_cache_async), with a reference, locked only while its read runs: callers
 * folio_lock() it and test uptodate (false: the read failed).  NULL without memory or when
 * the entry is no longer in use.  @readahead: also start reads of the neighbours. */
struct folio *swapin_folio(swp_entry_t entry, bool readahead);
/* v6.10's vm.page-cluster (tinymm.page_cluster=): swap-in reads 2^page_cluster slots. */
extern unsigned int page_cluster;
/* Pages in every area's cache (meminfo SwapCached). */
static inline unsigned long total_swapcache_pages(void)
{
	return global_node_page_state(NR_SWAPCACHE);
}

/* ---- I/O (mm/page_io.c) ---- */
/* The swap cache's writepage: the folio (locked, dirty cleared for I/O) written to its slot,
 * unlocked; writeback ends in interrupt context. */
int swap_writepage(struct folio *folio, struct writeback_control *wbc);
/* Start reading @folio (locked, in the cache) from its slot: 0, and the folio is unlocked when
 * done, uptodate if the read worked; -ENOMEM if no bio could be had: nothing started, the folio
 * still locked (the caller takes it out of the cache, so no one takes it for a failed read). */
int swap_read_folio(struct folio *folio);

#endif
