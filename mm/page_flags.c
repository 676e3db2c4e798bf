/*
 * page_flags.c - the flag table as data (for `page-flags`, dump_page and the docs tests), the
 * policy-violation report, and compound page set-up.
 */
#include "tinymm/mm.h"
#include "tinymm/printk.h"

/*
 * What each accessor name means in Linux v6.10, one line each (the `page-flags` command's last
 * column).  Keyed by lname: __PF_ROW below pastes PF_MEANING_<lname>, so a new row in
 * __PAGEFLAG_ACCESSORS without a meaning here fails to compile.
 */
#define PF_MEANING_locked	"locked for I/O or truncation; others sleep until it is unlocked"
#define PF_MEANING_writeback	"being written back to storage"
#define PF_MEANING_referenced	"accessed recently: reclaim's second chance on the LRU"
#define PF_MEANING_uptodate	"contents are valid (read in full, or completely written)"
#define PF_MEANING_dirty	"contents newer than the backing store: must be written back"
#define PF_MEANING_lru		"on an LRU list (the candidates for reclaim)"
#define PF_MEANING_head		"first page of a compound page (a large folio)"
#define PF_MEANING_waiters	"tasks wait on this folio's locked or writeback bit: wake them"
#define PF_MEANING_active	"on the active LRU list"
#define PF_MEANING_workingset	"part of the working set: refaulted soon after eviction"
#define PF_MEANING_owner_priv_1	"the owner's: checked (filesystems) or swapcache (the swap cache)"
#define PF_MEANING_checked	"filesystem-private state (some filesystems; owner_priv_1)"
#define PF_MEANING_swapcache	"in the swap cache, swap entry in ->private (only with swapbacked)"
#define PF_MEANING_arch_1	"the architecture's: dcache_clean on ARM and RISC-V"
#define PF_MEANING_dcache_clean	"ARM, RISC-V: D-cache clean, I-cache coherent for this folio"
#define PF_MEANING_reserved	"never freed or swapped: kernel image, memmap, firmware, holes"
#define PF_MEANING_private	"->private holds the owner's data (a filesystem's buffer heads)"
#define PF_MEANING_private_2	"the owner's second flag (fscache: copy to the cache in progress)"
#define PF_MEANING_mappedtodisk	"page cache page with blocks allocated on disk"
#define PF_MEANING_anon_exclusive "anon page exclusive to one process: no COW needed (mappedtodisk)"
#define PF_MEANING_reclaim	"written back for reclaim: rotate to the LRU tail when done"
#define PF_MEANING_readahead	"readahead marker: reading it starts the next async readahead"
#define PF_MEANING_isolated	"movable non-LRU page isolated for migration (reclaim's bit)"
#define PF_MEANING_swapbacked	"backed by RAM or swap (anon, shmem), not by a file"
#define PF_MEANING_unevictable	"on the unevictable LRU list (mlocked, ramfs, SHM_LOCK)"
#define PF_MEANING_mlocked	"mapped by an mlock()ed VMA"
#define PF_MEANING_uncached	"RAM mapped non-cacheable by a vmap()/vmalloc (v6.10: x86 PAT's type)"
#define PF_MEANING_hwpoison	"hardware memory error: never touch the contents"
#define PF_MEANING_young	"idle page tracking: accessed, though its PTE young bit was cleared"
#define PF_MEANING_idle		"idle page tracking: not accessed since marked idle"
#define PF_MEANING_arch_2	"the architecture's: arm64 MTE tags initialised (mte_tagged)"
#define PF_MEANING_arch_3	"the architecture's: arm64 MTE tag initialisation lock (mte_lock)"
#define PF_MEANING_reported	"free (buddy) page reported to the hypervisor (uptodate's bit)"
#define PF_MEANING_has_hwpoisoned "large folio with a hwpoisoned page in it (on its second page)"
#define PF_MEANING_large_rmappable "large anon or file folio: rmap, deferred split (second page)"

/*
 * The tinymm code that sets each name, outside tests (the `page-flags` command's `used by`
 * column): "-" for none yet, or a comma-separated list of files, "path:function" where the
 * setter is one inline function of a header.  Copying a flag from one folio to another (soft
 * offline's move: `if (folio_test_x(src)) folio_set_x(dst)`) is not a use.  Clearing is not
 * setting.  host.pageflags_users (tests/host/pageflags_users_test.c) scans the tree for the
 * setters and fails when this list and the code disagree, so a commit that starts setting a
 * flag names its file here.  PG_arch_2, PG_arch_3 (arm64 MTE) and PG_private_2 (fscache) have
 * no user on tinymm's architectures and stay "-".
 */
#define PF_USED_BY_locked	"include/tinymm/pagemap.h:folio_trylock,mm/filemap.c,mm/migrate.c,mm/slab.h:slab_lock,mm/swap_state.c"
#define PF_USED_BY_writeback	"mm/page-writeback.c"
#define PF_USED_BY_referenced	"mm/swap.c,mm/vmscan.c"
#define PF_USED_BY_uptodate	"include/tinymm/page-flags.h:folio_mark_uptodate"
#define PF_USED_BY_dirty	"mm/page-writeback.c,mm/page_io.c,mm/rmap.c,mm/rmap_migrate.c,mm/swap_state.c"
#define PF_USED_BY_lru		"mm/mlock.c,mm/swap.c,mm/vmscan.c"
#define PF_USED_BY_head		"mm/page_flags.c"
#define PF_USED_BY_waiters	"mm/filemap.c"
#define PF_USED_BY_active	"mm/swap.c,mm/vmscan.c,mm/workingset.c"
#define PF_USED_BY_workingset	"mm/vmscan_node.c,mm/workingset.c"
#define PF_USED_BY_owner_priv_1	"-"
#define PF_USED_BY_checked	"fs/ext2/dir.c"
#define PF_USED_BY_swapcache	"mm/migrate.c,mm/swap_state.c"
#define PF_USED_BY_arch_1	"-"
#define PF_USED_BY_dcache_clean	"arch/arm/cacheflush.c,arch/riscv/cacheflush.c"
#define PF_USED_BY_reserved	"mm/memmap.c,mm/mm_init.c"
#define PF_USED_BY_private	"include/tinymm/pagemap.h:folio_attach_private"
#define PF_USED_BY_private_2	"-"
#define PF_USED_BY_mappedtodisk	"fs/buffer_aops.c"
#define PF_USED_BY_anon_exclusive "mm/rmap.c,mm/memory.c"
#define PF_USED_BY_reclaim	"mm/vmscan.c"
#define PF_USED_BY_readahead	"mm/readahead.c"
#define PF_USED_BY_isolated	"mm/migrate.c"
#define PF_USED_BY_swapbacked	"mm/migrate.c,mm/rmap.c,mm/swap_state.c"
#define PF_USED_BY_unevictable	"mm/mlock.c,mm/swap.c,mm/vmscan.c"
#define PF_USED_BY_mlocked	"mm/mlock.c"
#define PF_USED_BY_uncached	"mm/vmalloc.c"
#define PF_USED_BY_hwpoison	"mm/memory-failure.c"
#define PF_USED_BY_young	"mm/page_idle.c"
#define PF_USED_BY_idle		"mm/page_idle.c"
#define PF_USED_BY_arch_2	"-"
#define PF_USED_BY_arch_3	"-"
#define PF_USED_BY_reported	"mm/page_isolation.c"
#define PF_USED_BY_has_hwpoisoned "mm/memory-failure.c"
#define PF_USED_BY_large_rmappable "mm/page_alloc.c"

const struct pageflag_info pageflag_table[] = {
#define __PF_ROW(U, l, bit, pol) { #l, bit, pol, PF_MEANING_##l, PF_USED_BY_##l },
	__PAGEFLAG_ACCESSORS(__PF_ROW)
#undef __PF_ROW
};
const unsigned int pageflag_table_len = ARRAY_SIZE(pageflag_table);

const char *pf_policy_name(enum pf_policy p)
{
	static const char *const names[] = {
		[PF_ANY] = "PF_ANY", [PF_HEAD] = "PF_HEAD", [PF_NO_TAIL] = "PF_NO_TAIL",
		[PF_NO_COMPOUND] = "PF_NO_COMPOUND", [PF_SECOND] = "PF_SECOND",
	};
	return (unsigned)p < ARRAY_SIZE(names) ? names[p] : "?";
}

void pageflag_policy_bug(const struct page *page, const char *flag, const char *why)
{
	char reason[128];

	ksnprintf(reason, sizeof(reason), "page flag policy: %s: %s", flag, why);
	dump_page(page, reason);
	BUG();
}

void prep_compound_page(struct page *page, unsigned int order)
{
	unsigned long nr = 1UL << order;

	VM_BUG_ON(order == 0 || order > 31);
	__SetPageHead(page);
	for (unsigned long i = 1; i < nr; i++)
		set_compound_head(page + i, page);
	struct folio *folio = (struct folio *)page;
	folio->_flags_1 = (folio->_flags_1 & ~0xffUL) | order;
}
