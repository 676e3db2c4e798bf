/*
 * kpageflags.c - /proc/kpageflags for tinymm: stable_page_flags(), Linux v6.10's fs/proc/page.c
 * function reproduced on tinymm's struct page, and the `kpageflags` command that dumps it.
 *
 * `kpageflags <pfn> <count>` prints, bare (kprintf), one frame that tools can find in a noisy
 * console log (tools/kpageflags-extract turns it into the binary file page-types -F reads):
 *
 *   --- kpageflags begin pfn=0x80000 count=3 ---
 *   0x80000 0x0000000100000000
 *   0x80001 0x0000000100000000
 *   0x80002 0x0000000000000000
 *   --- kpageflags end count=3 ---
 *
 * One line per pfn, in order: the pfn in hex, a space, the KPF_* word as 16 hex digits.  A pfn
 * with no struct page (a hole between RAM banks, or below RAM) reads KPF_NOPAGE alone
 * (0x0000000000100000), as /proc/kpageflags gives for such a pfn.  Like /proc/kpageflags, the
 * dump ends at max_pfn (one past the last frame with a struct page): a range reaching beyond it
 * is cut there, the begin and end lines count the pfns printed, and one line after the frame
 * says where it stopped,
 *
 *   kpageflags: stopped at pfn 0x90000 (max_pfn)
 *
 * (alone, with no frame, when the range starts at or beyond max_pfn).  So no request prints
 * more lines than RAM has frames.  The end line's count is the number of lines printed, so a
 * reader can tell a cut-off frame from a whole one.  Numbers are decimal or 0x hex; count is 1
 * or more and the range must not wrap.  Usage errors are one line, status 2.  No buffer: the
 * lines stream out one by one, so a dump of all of RAM needs no memory.
 *
 * Locking: none.  Like /proc/kpageflags this is a racy snapshot of each page; nothing else
 * runs while a shell command does (one CPU, interrupts off).
 *
 * Where tinymm differs from v6.10, and why: no _large_mapcount yet, so until rmap exists a large
 * folio's head _mapcount stands for the folio; no hugetlb folios and no zero page (KPF_HUGE and
 * KPF_ZERO_PAGE never set); no PG_error (Linux 6.12 dropped it), so KPF_ERROR is never set.
 * PG_idle is in the flags word on every build (v6.10: 64-bit only, else page_ext), and
 * PG_uncached, PG_arch_2 and PG_arch_3 exist on every build (v6.10: only with
 * CONFIG_ARCH_USES_PG_UNCACHED / CONFIG_ARCH_USES_PG_ARCH_X), so they are always copied.
 * Kept as v6.10 has them: KPF_KSM on every anon page (fixed in 2025) and KPF_THP for any large
 * LRU or anon folio (later Linux asks folio_test_large_rmappable()).
 */
#include <limits.h>
#include "tinymm/cmdline.h"
#include "tinymm/kernel-page-flags.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

static inline u64 kpf_copy_bit(u64 kflags, int ubit, int kbit)
{
	return ((kflags >> kbit) & 1) << ubit;
}

#define KPF(bit)	((u64)1 << (bit))

/*
 * folio_mapped(): folio_mapcount() >= 1.  A small folio's mapcount is _mapcount + 1, and a
 * typed page (buddy) counts as unmapped.  A large folio's head _mapcount stands for the folio
 * (no _large_mapcount yet: see the header).
 */
static bool kpf_folio_mapped(const struct folio *folio)
{
	int mapcount = atomic_read(&folio->_mapcount) + 1;

	if (page_type_has_type((unsigned int)(mapcount - 1)))
		mapcount = 0;
	return mapcount >= 1;
}

/*
 * is_free_buddy_page() (mm/page_alloc.c): does a free block whose head is PageBuddy and
 * whose order covers this frame contain it?  The block heads are found from @pfn's alignment,
 * as Linux does; @first_pfn is the frame of @map[0], below which there is no struct page to
 * look at.  Lives here until the buddy allocator brings the real one.
 */
static bool kpf_is_free_buddy_page(const struct page *page, unsigned long pfn, unsigned long first_pfn)
{
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		unsigned long head_pfn = pfn & ~((1UL << order) - 1);

		if (head_pfn < first_pfn)
			break;
		const struct page *head = page - (pfn - head_pfn);
		if (PageBuddy(head) && buddy_order_unsafe(head) >= order)
			return true;
	}
	return false;
}

u64 stable_page_flags_in(const struct page *page, const struct page *map, unsigned long map_pfn)
{
	const struct folio *folio;
	unsigned long k, mapping;
	bool is_anon;
	u64 u = 0;

	/* pseudo flag KPF_NOPAGE: a memory hole, not a page with no flags */
	if (!page)
		return KPF(KPF_NOPAGE);
	folio = page_folio(page);

	k = folio->flags;
	mapping = (unsigned long)folio->mapping;
	is_anon = mapping & PAGE_MAPPING_ANON;

	/* pseudo flags for the well known (anonymous) memory mapped pages */
	if (kpf_folio_mapped(folio))
		u |= KPF(KPF_MMAP);
	if (is_anon) {
		u |= KPF(KPF_ANON);
		/* v6.10 as written: true for every anon page (KSM is 0x3, anon 0x1).  Linux fixed
		 * it in 2025 ("fs/proc: fix KPF_KSM reported for all anonymous pages"). */
		if (mapping & PAGE_MAPPING_KSM)
			u |= KPF(KPF_KSM);
	}

	/* compound pages: head and tail bits together give a compound page's extent and order */
	if (page == &folio->page)
		u |= kpf_copy_bit(k, KPF_COMPOUND_HEAD, PG_head);
	else
		u |= KPF(KPF_COMPOUND_TAIL);
	/*
	 * KPF_HUGE: tinymm has no hugetlb folios.  A large folio on the LRU or anonymous is a THP
	 * (the header says why not folio_test_large_rmappable()).  No zero page exists yet, so
	 * neither the huge zero folio (KPF_ZERO_PAGE|KPF_THP) nor is_zero_pfn (KPF_ZERO_PAGE).
	 */
	if (folio_test_large(folio) && ((k & (1UL << PG_lru)) || is_anon))
		u |= KPF(KPF_THP);

	/* PG_buddy is set on a free block's head only: the other pages are found from the head. */
	if (PageBuddy(page))
		u |= KPF(KPF_BUDDY);
	else if (page_ref_count(&folio->page) == 0 &&
		 kpf_is_free_buddy_page(page, map_pfn + (unsigned long)(page - map), map_pfn))
		u |= KPF(KPF_BUDDY);

	/* KPF_SLAB on every page of a slab (folio_test_slab); the type sits on the head.
	 * KPF_PGTABLE on a page-table frame (mm/pagewalk.c), KPF_OFFLINE on a frame an inflated
	 * balloon gave away (mm/balloon_compaction.c). */
	if (folio_test_slab(folio))
		u |= KPF(KPF_SLAB);
	if (PageOffline(page))
		u |= KPF(KPF_OFFLINE);
	if (PageTable(page))
		u |= KPF(KPF_PGTABLE);

	/* PG_idle is in the flags word on every build (see the header). */
	u |= kpf_copy_bit(k, KPF_IDLE,		PG_idle);

	u |= kpf_copy_bit(k, KPF_LOCKED,	PG_locked);
	/* KPF_ERROR: no PG_error (see the header). */
	u |= kpf_copy_bit(k, KPF_DIRTY,		PG_dirty);
	u |= kpf_copy_bit(k, KPF_UPTODATE,	PG_uptodate);
	u |= kpf_copy_bit(k, KPF_WRITEBACK,	PG_writeback);

	u |= kpf_copy_bit(k, KPF_LRU,		PG_lru);
	u |= kpf_copy_bit(k, KPF_REFERENCED,	PG_referenced);
	u |= kpf_copy_bit(k, KPF_ACTIVE,	PG_active);
	u |= kpf_copy_bit(k, KPF_RECLAIM,	PG_reclaim);

	/* PG_swapcache means swap cache only with PG_swapbacked; the bit is PG_owner_priv_1. */
	const unsigned long swapcache = (1UL << PG_swapbacked) | (1UL << PG_swapcache);
	if ((k & swapcache) == swapcache)
		u |= KPF(KPF_SWAPCACHE);
	u |= kpf_copy_bit(k, KPF_SWAPBACKED,	PG_swapbacked);

	u |= kpf_copy_bit(k, KPF_UNEVICTABLE,	PG_unevictable);
	u |= kpf_copy_bit(k, KPF_MLOCKED,	PG_mlocked);

	/* HWPoison is per page, not per folio (a hugetlb folio's would be the folio's). */
	if (u & KPF(KPF_HUGE))
		u |= kpf_copy_bit(k, KPF_HWPOISON,		PG_hwpoison);
	else
		u |= kpf_copy_bit(page->flags, KPF_HWPOISON,	PG_hwpoison);

	/* PG_uncached, PG_arch_2 and PG_arch_3 exist on every build: copied always (the header). */
	u |= kpf_copy_bit(k, KPF_UNCACHED,	PG_uncached);

	u |= kpf_copy_bit(k, KPF_RESERVED,	PG_reserved);
	u |= kpf_copy_bit(k, KPF_MAPPEDTODISK,	PG_mappedtodisk);
	u |= kpf_copy_bit(k, KPF_PRIVATE,	PG_private);
	u |= kpf_copy_bit(k, KPF_PRIVATE_2,	PG_private_2);
	u |= kpf_copy_bit(k, KPF_OWNER_PRIVATE,	PG_owner_priv_1);
	u |= kpf_copy_bit(k, KPF_ARCH,		PG_arch_1);
	u |= kpf_copy_bit(k, KPF_ARCH_2,	PG_arch_2);
	u |= kpf_copy_bit(k, KPF_ARCH_3,	PG_arch_3);

	return u;
}

u64 stable_page_flags(const struct page *page)
{
	const struct memmap_bank *b = page ? memmap_bank_of_page(page) : NULL;

	if (!b)		/* NULL, or not a memmap page: only a block head is known to be free */
		return stable_page_flags_in(page, page, 0);
	return stable_page_flags_in(page, b->map, b->start_pfn);
}

static int kpageflags_usage(void)
{
	return shell_usage_error("kpageflags", "usage: kpageflags <pfn> <count>");
}

static int cmd_kpageflags(int argc, char **argv)
{
	unsigned long long pfn, count;
	char msg[96];

	if (argc != 3)
		return kpageflags_usage();
	if (kstrtoull(argv[1], &pfn) || pfn > ULONG_MAX) {
		ksnprintf(msg, sizeof(msg), "bad pfn '%s' (usage: kpageflags <pfn> <count>)", argv[1]);
		return shell_usage_error(argv[0], msg);
	}
	if (kstrtoull(argv[2], &count) || count == 0 || count - 1 > ULONG_MAX - pfn) {
		ksnprintf(msg, sizeof(msg), "bad count '%s' (1 or more, pfn + count - 1 at most %#lx)",
			  argv[2], ULONG_MAX);
		return shell_usage_error(argv[0], msg);
	}

	/* kpageflags_read() ends at max_pfn too (get_max_dump_pfn()). */
	unsigned long max_pfn = memmap_nr_banks() ? memmap_bank(memmap_nr_banks() - 1)->end_pfn : 0;
	bool cut = count > max_pfn || pfn > max_pfn - count;
	if (cut) {
		if (pfn >= max_pfn) {
			kprintf("kpageflags: stopped at pfn 0x%lx (max_pfn)\n", max_pfn);
			return 0;
		}
		count = max_pfn - pfn;
	}
	kprintf("--- kpageflags begin pfn=0x%llx count=%llu ---\n", pfn, count);
	const struct memmap_bank *b = NULL;
	unsigned long long done = 0;
	for (unsigned long p = (unsigned long)pfn; done < count; p++, done++) {
		if (!b || p < b->start_pfn || p >= b->end_pfn) {
			b = NULL;
			for (int i = 0; i < memmap_nr_banks(); i++)
				if (p >= memmap_bank(i)->start_pfn && p < memmap_bank(i)->end_pfn)
					b = memmap_bank(i);
		}
		u64 flags = b ? stable_page_flags_in(b->map + (p - b->start_pfn), b->map, b->start_pfn)
			      : stable_page_flags(NULL);
		kprintf("0x%lx 0x%016llx\n", p, (unsigned long long)flags);
	}
	kprintf("--- kpageflags end count=%llu ---\n", done);
	if (cut)
		kprintf("kpageflags: stopped at pfn 0x%lx (max_pfn)\n", max_pfn);
	return 0;
}
SHELL_COMMAND(kpageflags, "<pfn> <count>",
	      "dump /proc/kpageflags words (Linux v6.10's KPF_* bits) for a pfn range", cmd_kpageflags);
