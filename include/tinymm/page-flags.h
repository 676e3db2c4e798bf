/*
 * page-flags.h - the page flags: one table, every accessor generated from it (so names, bits and
 * policies cannot drift), and the flags word's layout with node and zone at the top.
 *
 * Bits follow Linux v6.10's enum pageflags (include/linux/page-flags.h).
 *
 * Where tinymm differs from v6.10, and why (each deliberate):
 *   - No PG_error (Linux was removing it; the seed draft leaves it out), so PG_waiters stays
 *     bit 7, in PG_locked's byte, as Linux requires.
 *   - PG_has_hwpoisoned lives on PG_active (v6.10: PG_error, gone here), as Linux 6.12 does.
 *   - PG_young, PG_idle, PG_arch_2, PG_arch_3 exist on every build (Linux: young/idle only on
 *     64-bit, arch_2/arch_3 only where CONFIG_ARCH_USES_PG_ARCH_X, i.e. arm64).
 *   - PG_uncached exists although no tinymm architecture needs it (Linux removed it in late 2024).
 *   - Flags v6.10 gives only folio accessors (waiters, referenced, young, idle,
 *     large_rmappable) also get page forms, with the policy that matches their folio slot
 *     (PF_HEAD / PF_SECOND).
 *   - Readahead is PF_NO_TAIL (v6.10: PF_NO_COMPOUND) because readahead marks large folios,
 *     which v6.10 does through folio accessors that skip the page policy; 6.12 made it head-only.
 *   - Folio accessors refuse to modify a PF_NO_COMPOUND flag on a large folio (v6.10 does not
 *     check): such a flag describes one page, and a folio names several.
 *   - Every name gets every accessor form, Locked and Writeback included (v6.10 leaves out their
 *     plain set/clear on purpose: the folio lock and writeback start/end will be the only users).
 *   - SwapCache's generated tests are named folio_test_swapcache_bit()/PageSwapCacheBit(): the
 *     bit alone, which v6.10 never tests by itself (on a filesystem's folio it is Checked), so
 *     the name says so.  folio_test_swapcache()/PageSwapCache() are v6.10's: bit and swapbacked.
 *     The generated uptodate accessors carry no barriers; folio_mark_uptodate() and
 *     folio_test_uptodate_acquire() do.
 *   - The zone sits in the top bits with the node below it; Linux puts the node above the zone.
 *     v6.10's other fields (section, last_cpupid, KASAN tag, and the multi-gen LRU's LRU_GEN and
 *     LRU_REFS) do not exist: tinymm has none of their users.
 *   - The pcp mt field is tinymm's: v6.10 reads the pageblock bitmap on every order-0 free,
 *     which is cheap with its virtually contiguous memmap and costs tinymm a memmap bank search.
 * docs/page-flags.rst ("Where tinymm differs from v6.10") lists the same.
 *
 * Policies belong to accessor names, not bits (Linux's PF_*): through a page pointer,
 *   PF_ANY         the page itself (small, head or tail)
 *   PF_HEAD        redirected to the head page
 *   PF_NO_TAIL     redirected to the head to test; modifying through a tail page is a bug
 *   PF_NO_COMPOUND the page itself; modifying a compound page's is a bug
 *   PF_SECOND      the first tail page; a page that is not a head is a bug
 * Folio accessors use page 0 (page 1 for PF_SECOND, where a small folio is a bug; modifying a
 * PF_NO_COMPOUND flag on a large folio is a bug).  Violations are VM_BUG_ON_PAGE reports when
 * CONFIG_DEBUG_VM is set (the default).
 *
 * Atomicity: folio_set_X/SetPageX, folio_clear_X/ClearPageX and the test_and_ forms are atomic
 * read-modify-writes (include/tinymm/bitops.h): use them on any page others can see.  The
 * __ forms are plain stores, allowed only while no one else can reach the page (it was just
 * allocated, is being freed, or its lock excludes every other writer of that word).
 */
#ifndef TINYMM_PAGE_FLAGS_H
#define TINYMM_PAGE_FLAGS_H

#include "bitops.h"
#include "config.h"
#include "mm_types.h"
#include "mmzone.h"
#include "mmdebug.h"

/* Primary name of bit @bit ("locked"), "?" if none (mm/debug.c). */
const char *pageflag_name(int bit);

/* The primary flags, in bit order: X(name) */
#define __PAGEFLAG_BITS(X)							\
	X(locked) X(writeback) X(referenced) X(uptodate) X(dirty) X(lru) X(head)	\
	X(waiters) X(active) X(workingset) X(owner_priv_1) X(arch_1) X(reserved)	\
	X(private) X(private_2) X(mappedtodisk) X(reclaim) X(swapbacked)		\
	X(unevictable) X(mlocked) X(uncached) X(hwpoison) X(young) X(idle)		\
	X(arch_2) X(arch_3)

enum pageflags {
#define __PG_ENUM(n) PG_##n,
	__PAGEFLAG_BITS(__PG_ENUM)
#undef __PG_ENUM
	__NR_PAGEFLAGS,

	/* Aliases: another meaning for the same bit, in another context. */
	PG_checked = PG_owner_priv_1,		/* filesystems */
	PG_swapcache = PG_owner_priv_1,		/* swap cache; only with PG_swapbacked */
	PG_dcache_clean = PG_arch_1,		/* ARM, RISC-V: D-cache clean for this folio */
	PG_anon_exclusive = PG_mappedtodisk,	/* anon pages; Linux 6.12 calls the bit PG_owner_2 */
	PG_readahead = PG_reclaim,		/* page cache, reads only */
	PG_isolated = PG_reclaim,		/* movable non-LRU pages being migrated */
	PG_reported = PG_uptodate,		/* free (buddy) pages only */
	PG_has_hwpoisoned = PG_active,		/* second page of a large folio */
	PG_large_rmappable = PG_workingset,	/* second page of a large folio */
};
#define NR_PAGEFLAGS	__NR_PAGEFLAGS

enum pf_policy { PF_ANY, PF_HEAD, PF_NO_TAIL, PF_NO_COMPOUND, PF_SECOND };

/*
 * Every accessor name: X(Uname, lname, bit, policy).  Uname makes PageUname/SetPageUname...,
 * lname makes folio_test_lname...  Aliases are entries of their own, with their own policy.
 */
#define __PAGEFLAG_ACCESSORS(X)							\
	X(Locked,	locked,		PG_locked,		PF_NO_TAIL)	\
	X(Writeback,	writeback,	PG_writeback,		PF_NO_TAIL)	\
	X(Referenced,	referenced,	PG_referenced,		PF_HEAD)	\
	X(Uptodate,	uptodate,	PG_uptodate,		PF_NO_TAIL)	\
	X(Dirty,	dirty,		PG_dirty,		PF_HEAD)	\
	X(LRU,		lru,		PG_lru,			PF_HEAD)	\
	X(Head,		head,		PG_head,		PF_ANY)		\
	X(Waiters,	waiters,	PG_waiters,		PF_HEAD)	\
	X(Active,	active,		PG_active,		PF_HEAD)	\
	X(Workingset,	workingset,	PG_workingset,		PF_HEAD)	\
	X(OwnerPriv1,	owner_priv_1,	PG_owner_priv_1,	PF_ANY)		\
	X(Checked,	checked,	PG_checked,		PF_NO_COMPOUND)	\
	X(SwapCache,	swapcache,	PG_swapcache,		PF_NO_TAIL)	\
	X(Arch1,	arch_1,		PG_arch_1,		PF_ANY)		\
	X(DcacheClean,	dcache_clean,	PG_dcache_clean,	PF_HEAD)	\
	X(Reserved,	reserved,	PG_reserved,		PF_NO_COMPOUND)	\
	X(Private,	private,	PG_private,		PF_ANY)		\
	X(Private2,	private_2,	PG_private_2,		PF_ANY)		\
	X(MappedToDisk,	mappedtodisk,	PG_mappedtodisk,	PF_NO_TAIL)	\
	X(AnonExclusive, anon_exclusive, PG_anon_exclusive,	PF_ANY)		\
	X(Reclaim,	reclaim,	PG_reclaim,		PF_NO_TAIL)	\
	X(Readahead,	readahead,	PG_readahead,		PF_NO_TAIL)	\
	X(Isolated,	isolated,	PG_isolated,		PF_ANY)		\
	X(SwapBacked,	swapbacked,	PG_swapbacked,		PF_NO_TAIL)	\
	X(Unevictable,	unevictable,	PG_unevictable,		PF_HEAD)	\
	X(Mlocked,	mlocked,	PG_mlocked,		PF_NO_TAIL)	\
	X(Uncached,	uncached,	PG_uncached,		PF_NO_COMPOUND)	\
	X(HWPoison,	hwpoison,	PG_hwpoison,		PF_ANY)		\
	X(Young,	young,		PG_young,		PF_HEAD)	\
	X(Idle,		idle,		PG_idle,		PF_HEAD)	\
	X(Arch2,	arch_2,		PG_arch_2,		PF_ANY)		\
	X(Arch3,	arch_3,		PG_arch_3,		PF_ANY)		\
	X(Reported,	reported,	PG_reported,		PF_NO_COMPOUND)	\
	X(HasHWPoisoned, has_hwpoisoned, PG_has_hwpoisoned,	PF_SECOND)	\
	X(LargeRmappable, large_rmappable, PG_large_rmappable,	PF_SECOND)

/*
 * One row per accessor name, for the `page-flags` command and the docs tests.  The one-line
 * meanings (Linux's) and the tinymm code that sets each name sit next to the table in
 * mm/page_flags.c, one per lname: a row without them does not compile.
 */
struct pageflag_info {
	const char *name;	/* lname */
	int bit;
	enum pf_policy policy;
	const char *meaning;
	const char *used_by;	/* "-", or the files (path[:function],...) that set it */
};
extern const struct pageflag_info pageflag_table[];
extern const unsigned int pageflag_table_len;
const char *pf_policy_name(enum pf_policy p);

/* ---- the flags word's fields: | zone | node | pcp mt | ... | flags | (high bits to low) ---- */
#define ZONES_WIDTH	2
#define NODES_WIDTH	CONFIG_NODES_SHIFT
#define ZONES_PGSHIFT	(__SIZEOF_LONG__ * 8 - ZONES_WIDTH)
#define NODES_PGSHIFT	(ZONES_PGSHIFT - NODES_WIDTH)
#define ZONES_MASK	((1UL << ZONES_WIDTH) - 1)
#define NODES_MASK	((1UL << NODES_WIDTH) - 1)
/*
 * pcp mt: the migratetype of the frame's pageblock when the frame last left the buddy lists
 * (set by __rmqueue).  The order-0 free fast path files the frame on that per-CPU list without
 * looking its pageblock up (the header says why).  Only a hint: if the pageblock was stolen
 * meanwhile the frame waits on the old type's per-CPU list, and the drain back to the buddy
 * lists always uses the pageblock's real type.
 */
#define PCPMT_WIDTH	2
#define PCPMT_PGSHIFT	(NODES_PGSHIFT - PCPMT_WIDTH)
#define PCPMT_MASK	((1UL << PCPMT_WIDTH) - 1)
_Static_assert(MAX_NR_ZONES <= (1 << ZONES_WIDTH), "ZONES_WIDTH too small for the zones");
/* Checked against 32 bits on every build: the same layout must work on 32-bit boards. */
_Static_assert(NR_PAGEFLAGS + ZONES_WIDTH + NODES_WIDTH + PCPMT_WIDTH <= 32,
	       "page flags, zone, node and pcp mt do not fit in a 32-bit flags word");
#define PAGEFLAGS_MASK	((1UL << NR_PAGEFLAGS) - 1)
_Static_assert((PAGEFLAGS_MASK & ((ZONES_MASK << ZONES_PGSHIFT) | (NODES_MASK << NODES_PGSHIFT) |
				  (PCPMT_MASK << PCPMT_PGSHIFT))) == 0,
	       "page flag bits overlap the zone/node/pcp mt fields");

static inline enum zone_type page_zonenum(const struct page *page)
{
	return (enum zone_type)((page->flags >> ZONES_PGSHIFT) & ZONES_MASK);
}

static inline int page_to_nid(const struct page *page)
{
	return (int)((page->flags >> NODES_PGSHIFT) & NODES_MASK);
}

static inline void set_page_links(struct page *page, enum zone_type zone, int nid)
{
	page->flags &= ~((ZONES_MASK << ZONES_PGSHIFT) | (NODES_MASK << NODES_PGSHIFT));
	page->flags |= ((unsigned long)zone & ZONES_MASK) << ZONES_PGSHIFT;
	page->flags |= ((unsigned long)nid & NODES_MASK) << NODES_PGSHIFT;
}

/* ---- compound pages ---- */
static inline bool PageTail(const struct page *page)
{
	return READ_ONCE(page->compound_head) & 1;
}

/* PageHead() itself is generated below (PF_ANY); the policy code needs it first. */
static inline bool __page_is_head(const struct page *page)
{
	return test_bit(PG_head, &page->flags);
}

static inline bool PageCompound(const struct page *page)
{
	return __page_is_head(page) || PageTail(page);
}

static inline struct page *compound_head(const struct page *page)
{
	unsigned long head = READ_ONCE(page->compound_head);

	if (head & 1)
		return (struct page *)(head - 1);
	return (struct page *)page;
}

static inline void set_compound_head(struct page *page, struct page *head)
{
	WRITE_ONCE(page->compound_head, (unsigned long)head + 1);
}

static inline void clear_compound_head(struct page *page)
{
	WRITE_ONCE(page->compound_head, 0);
}

#define page_folio(p)		((struct folio *)compound_head(p))
#define folio_page(f, n)	(&(f)->page + (n))

static inline bool folio_test_large(const struct folio *folio)
{
	return __page_is_head(&folio->page);
}

static inline unsigned int folio_order(const struct folio *folio)
{
	return folio_test_large(folio) ? (unsigned int)(folio->_flags_1 & 0xff) : 0;
}

static inline unsigned long folio_nr_pages(const struct folio *folio)
{
	return 1UL << folio_order(folio);
}

/* ---- policy resolution ---- */
/* Reports a policy violation (dump_page + BUG) when CONFIG_DEBUG_VM is set; else a no-op. */
void pageflag_policy_bug(const struct page *page, const char *flag, const char *why);

static inline struct page *__pf_page(const struct page *page, enum pf_policy policy, bool modify,
				     const char *flag)
{
	switch (policy) {
	case PF_HEAD:
		return compound_head(page);
	case PF_NO_TAIL:
		if (CONFIG_DEBUG_VM && modify && PageTail(page))
			pageflag_policy_bug(page, flag, "PF_NO_TAIL flag modified through a tail page");
		return compound_head(page);
	case PF_NO_COMPOUND:
		if (CONFIG_DEBUG_VM && modify && PageCompound(page))
			pageflag_policy_bug(page, flag, "PF_NO_COMPOUND flag modified on a compound page");
		return (struct page *)page;
	case PF_SECOND:
		if (CONFIG_DEBUG_VM && !__page_is_head(page))
			pageflag_policy_bug(page, flag, "PF_SECOND flag used on a page that is not a head");
		return (struct page *)page + 1;
	default:
		return (struct page *)page;
	}
}

static inline unsigned long *__pf_folio(const struct folio *folio, enum pf_policy policy,
					bool modify, const char *flag)
{
	if (CONFIG_DEBUG_VM && PageTail(&folio->page))
		pageflag_policy_bug(&folio->page, flag, "folio pointer is a tail page");
	if (policy == PF_SECOND) {
		if (CONFIG_DEBUG_VM && !folio_test_large(folio))
			pageflag_policy_bug(&folio->page, flag, "PF_SECOND flag used on a small folio");
		return (unsigned long *)&folio->_flags_1;
	}
	if (CONFIG_DEBUG_VM && policy == PF_NO_COMPOUND && modify && folio_test_large(folio))
		pageflag_policy_bug(&folio->page, flag, "PF_NO_COMPOUND flag modified on a large folio");
	return (unsigned long *)&folio->flags;
}

#define __PF(page, pol, mod, n)	(&__pf_page(page, pol, mod, #n)->flags)
#define __FF(folio, pol, mod, n)	__pf_folio(folio, pol, mod, #n)

#define __PAGEFLAG_FUNCS(U, l, bit, pol)						\
static inline bool folio_test_##l(const struct folio *f)				\
{ return test_bit(bit, __FF(f, pol, false, l)); }					\
static inline void folio_set_##l(struct folio *f) { set_bit(bit, __FF(f, pol, true, l)); }	\
static inline void folio_clear_##l(struct folio *f) { clear_bit(bit, __FF(f, pol, true, l)); }	\
static inline void __folio_set_##l(struct folio *f) { __set_bit(bit, __FF(f, pol, true, l)); }	\
static inline void __folio_clear_##l(struct folio *f) { __clear_bit(bit, __FF(f, pol, true, l)); } \
static inline bool folio_test_set_##l(struct folio *f)					\
{ return test_and_set_bit(bit, __FF(f, pol, true, l)); }				\
static inline bool folio_test_clear_##l(struct folio *f)				\
{ return test_and_clear_bit(bit, __FF(f, pol, true, l)); }				\
static inline bool Page##U(const struct page *p) { return test_bit(bit, __PF(p, pol, false, l)); } \
static inline void SetPage##U(struct page *p) { set_bit(bit, __PF(p, pol, true, l)); }	\
static inline void ClearPage##U(struct page *p) { clear_bit(bit, __PF(p, pol, true, l)); }	\
static inline void __SetPage##U(struct page *p) { __set_bit(bit, __PF(p, pol, true, l)); }	\
static inline void __ClearPage##U(struct page *p) { __clear_bit(bit, __PF(p, pol, true, l)); }	\
static inline bool TestSetPage##U(struct page *p)					\
{ return test_and_set_bit(bit, __PF(p, pol, true, l)); }				\
static inline bool TestClearPage##U(struct page *p)					\
{ return test_and_clear_bit(bit, __PF(p, pol, true, l)); }

/* SwapCache's raw tests get their own names (Linux's names are the combined test, below): the
 * pasted folio_test_swapcache / PageSwapCache tokens are rescanned, so these rename them. */
#define folio_test_swapcache	folio_test_swapcache_bit
#define PageSwapCache		PageSwapCacheBit
__PAGEFLAG_ACCESSORS(__PAGEFLAG_FUNCS)
#undef folio_test_swapcache
#undef PageSwapCache
#undef __PAGEFLAG_FUNCS

/*
 * Uptodate carries an ordering promise, as in Linux: the stores that filled the folio are visible
 * before the flag (smp_wmb), and a reader that sees the flag sees the data (smp_rmb).
 */
static inline void folio_mark_uptodate(struct folio *folio)
{
	smp_wmb();
	folio_set_uptodate(folio);
}

static inline bool folio_test_uptodate_acquire(const struct folio *folio)
{
	bool ret = folio_test_uptodate(folio);

	if (ret)
		smp_rmb();
	return ret;
}

/* As in Linux: PG_swapcache means swap cache only together with PG_swapbacked (without it the bit
 * is a filesystem's PG_checked). */
static inline bool folio_test_swapcache(const struct folio *folio)
{
	return folio_test_swapbacked(folio) && folio_test_swapcache_bit(folio);
}

static inline bool PageSwapCache(const struct page *page)
{
	return folio_test_swapcache(page_folio(page));
}

/* Make @page the head of an order-@order compound page (a large folio). */
void prep_compound_page(struct page *page, unsigned int order);

/*
 * ---- page types: buddy and slab ----
 * A page never mapped to user space can carry a type in _mapcount's place (page_type).  An
 * unmapped page's _mapcount is -1, so a type is a *cleared* bit: __SetPageBuddy clears PG_buddy,
 * __ClearPageBuddy sets it again.  0x0000007f stays reserved so an underflowing _mapcount is never
 * taken for a type; a typed page has all of PAGE_TYPE_BASE set.  A free buddy block's head is
 * PageBuddy with its order in page->private (buddy_order); its other pages are untyped, with
 * _refcount 0.  This is v6.10's encoding: Linux 6.11 moved the type bits to the top of the word
 * and 6.12 made the type a byte value (PGTY_buddy).  PG_table marks a frame that holds a page
 * table (pagetable_alloc(), mm/pagewalk.c), as v6.10's PAGE_TYPE_OPS(Table, table, pgtable).
 * PG_offline marks a frame the guest gave away: an inflated balloon's (mm/balloon_compaction.c),
 * as v6.10's PAGE_TYPE_OPS(Offline, offline, offline); /proc/kpageflags reports it as KPF_OFFLINE.
 */
#define PAGE_TYPE_BASE		0xf0000000U
#define PAGE_MAPCOUNT_RESERVE	(-128)
#define PG_buddy		0x00000080U
#define PG_offline		0x00000100U	/* Linux's value: given to the hypervisor (balloon) */
#define PG_table		0x00000200U	/* Linux's value: a page-table frame (mm/pagewalk.c) */
#define PG_slab			0x00001000U	/* Linux's value: a slab's head page (mm/slub.c) */

#define PageType(page, flag)	(((page)->page_type & (PAGE_TYPE_BASE | (flag))) == PAGE_TYPE_BASE)

static inline bool page_type_has_type(unsigned int page_type)
{
	return (int)page_type < PAGE_MAPCOUNT_RESERVE;
}

static inline bool PageBuddy(const struct page *page)
{
	return PageType(page, PG_buddy);
}

static inline void __SetPageBuddy(struct page *page)
{
	VM_BUG_ON_PAGE(!PageType(page, 0), page);	/* mapped: _mapcount is not free for a type */
	page->page_type &= ~PG_buddy;
}

static inline void __ClearPageBuddy(struct page *page)
{
	VM_BUG_ON_PAGE(!PageBuddy(page), page);
	page->page_type |= PG_buddy;
}

/* An offline frame (an inflated balloon's): order 0, never mapped, so the type word is free. */
static inline bool PageOffline(const struct page *page)
{
	return PageType(page, PG_offline);
}

static inline bool folio_test_offline(const struct folio *folio)
{
	return PageOffline(&folio->page);
}

static inline void __SetPageOffline(struct page *page)
{
	VM_BUG_ON_PAGE(!PageType(page, 0), page);
	page->page_type &= ~PG_offline;
}

static inline void __ClearPageOffline(struct page *page)
{
	VM_BUG_ON_PAGE(!PageOffline(page), page);
	page->page_type |= PG_offline;
}

/* A page-table frame: order 0, never mapped to user space, so the type word is free. */
static inline bool PageTable(const struct page *page)
{
	return PageType(page, PG_table);
}

static inline bool folio_test_pgtable(const struct folio *folio)
{
	return PageTable(&folio->page);
}

static inline void __SetPageTable(struct page *page)
{
	VM_BUG_ON_PAGE(!PageType(page, 0), page);
	page->page_type &= ~PG_table;
}

static inline void __ClearPageTable(struct page *page)
{
	VM_BUG_ON_PAGE(!PageTable(page), page);
	page->page_type |= PG_table;
}

/* A slab page: the type sits on the head page only (Linux's FOLIO_TYPE_OPS(slab, slab)). */
static inline bool folio_test_slab(const struct folio *folio)
{
	return PageType(&folio->page, PG_slab);
}

static inline bool PageSlab(const struct page *page)
{
	return folio_test_slab(page_folio(page));
}

static inline void __SetPageSlab(struct page *page)
{
	VM_BUG_ON_PAGE(!PageType(page, 0) || PageTail(page), page);
	page->page_type &= ~PG_slab;
}

static inline void __ClearPageSlab(struct page *page)
{
	VM_BUG_ON_PAGE(!PageType(page, PG_slab), page);
	page->page_type |= PG_slab;
}

/*
 * folio->mapping's low bits (v6.10's): an anonymous folio's mapping is not an address_space
 * but its anon_vma with PAGE_MAPPING_ANON set (v6.10's; mm/rmap.c's __folio_set_anon,
 * mm/rmap_anon.c, docs/fork.md).  KSM would be both bits.
 */
#define PAGE_MAPPING_ANON	0x1UL
#define PAGE_MAPPING_MOVABLE	0x2UL
#define PAGE_MAPPING_KSM	(PAGE_MAPPING_ANON | PAGE_MAPPING_MOVABLE)
#define PAGE_MAPPING_FLAGS	(PAGE_MAPPING_ANON | PAGE_MAPPING_MOVABLE)

static inline bool folio_test_anon(const struct folio *folio)
{
	return ((unsigned long)folio->mapping & PAGE_MAPPING_ANON) != 0;
}

static inline bool PageAnon(const struct page *page)
{
	return folio_test_anon(page_folio(page));
}

/* The folio's address_space, or NULL for an anonymous one (v6.10's folio_mapping, without
 * the swap cache). */
static inline struct address_space *folio_mapping(const struct folio *folio)
{
	return folio_test_anon(folio) ? NULL : folio->mapping;
}

/* The folio's mapcount (v6.10's folio_mapcount for a small folio): page-table mappings.  A
 * typed page (buddy, offline, table, slab) has the type in _mapcount's place and is unmapped
 * (v6.10's page_mapcount_is_type()). */
static inline int folio_mapcount(const struct folio *folio)
{
	int mapcount = atomic_read(&folio->_mapcount) + 1;

	return page_type_has_type((unsigned int)(mapcount - 1)) ? 0 : mapcount;
}

static inline bool folio_mapped(const struct folio *folio)
{
	return folio_mapcount(folio) >= 1;
}

/* The order of a free block (Linux: mm/internal.h); the caller checks PageBuddy(page). */
static inline unsigned int buddy_order(const struct page *page)
{
	return (unsigned int)page->private;
}

/* The same without the zone lock: a racy read, to be sanity-checked by the caller. */
#define buddy_order_unsafe(page)	((unsigned int)READ_ONCE((page)->private))

#endif
