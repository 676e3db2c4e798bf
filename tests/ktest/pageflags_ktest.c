/*
 * pageflags_ktest.c - suite `pageflags`: the page flags and the page frame database.
 *
 * Hand-made pages (a static array, never the live memmap, which the allocator owns): every
 * accessor of every flag name, generated from __PAGEFLAG_ACCESSORS so none is missed, must move
 * exactly its bit in exactly the right page's flags word; aliases share their bits; the five
 * policies redirect or BUG as documented; node and zone survive the flags and the flags survive
 * them; folio_order/folio_nr_pages for every order; format_page_flags() text.  The live
 * memmap has its own suite, pageflags_memmap (pageflags_memmap_ktest.c).
 * The expected bits and policies are written out below, independently of the header.
 */
#include <string.h>
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"

void format_page_flags(char *buf, size_t len, unsigned long flags);	/* mm/debug.c */

/* Every accessor of one flag name, as function pointers. */
struct acc {
	const char *name;
	int bit;
	enum pf_policy pol;
	bool (*ftest)(const struct folio *);
	void (*fset)(struct folio *), (*fclear)(struct folio *);
	void (*__fset)(struct folio *), (*__fclear)(struct folio *);
	bool (*ftest_set)(struct folio *), (*ftest_clear)(struct folio *);
	bool (*ptest)(const struct page *);
	void (*pset)(struct page *), (*pclear)(struct page *);
	void (*__pset)(struct page *), (*__pclear)(struct page *);
	bool (*ptest_set)(struct page *), (*ptest_clear)(struct page *);
};
#define ACC_ROW(U, l, b, p) { #l, b, p, folio_test_##l, folio_set_##l, folio_clear_##l,		\
	__folio_set_##l, __folio_clear_##l, folio_test_set_##l, folio_test_clear_##l, Page##U,	\
	SetPage##U, ClearPage##U, __SetPage##U, __ClearPage##U, TestSetPage##U, TestClearPage##U },
/* SwapCache's generated tests are the raw bit's, under their own names (page-flags.h). */
#define folio_test_swapcache	folio_test_swapcache_bit
#define PageSwapCache		PageSwapCacheBit
static const struct acc accs[] = { __PAGEFLAG_ACCESSORS(ACC_ROW) };
#undef folio_test_swapcache
#undef PageSwapCache
#define NR_ACCS ARRAY_SIZE(accs)

/*
 * The bit and policy each name must have: Linux v6.10's enum pageflags without PG_error, and
 * its policies (folio-only flags by their folio slot), except readahead: PF_NO_TAIL as
 * page-flags.h has it (v6.10: PF_NO_COMPOUND; later Linux made it a head-page folio flag).
 */
#define A PF_ANY
#define H PF_HEAD
#define NT PF_NO_TAIL
#define NC PF_NO_COMPOUND
static const struct { const char *name; int bit; enum pf_policy pol; } want_bits[] = {
	{ "locked", 0, NT }, { "writeback", 1, NT }, { "referenced", 2, H }, { "uptodate", 3, NT },
	{ "dirty", 4, H }, { "lru", 5, H }, { "head", 6, A }, { "waiters", 7, H }, { "active", 8, H },
	{ "workingset", 9, H }, { "owner_priv_1", 10, A }, { "checked", 10, NC },
	{ "swapcache", 10, NT }, { "arch_1", 11, A }, { "dcache_clean", 11, H },
	{ "reserved", 12, NC }, { "private", 13, A }, { "private_2", 14, A },
	{ "mappedtodisk", 15, NT }, { "anon_exclusive", 15, A }, { "reclaim", 16, NT },
	{ "readahead", 16, NT }, { "isolated", 16, A }, { "swapbacked", 17, NT },
	{ "unevictable", 18, H }, { "mlocked", 19, NT }, { "uncached", 20, NC }, { "hwpoison", 21, A },
	{ "young", 22, H }, { "idle", 23, H }, { "arch_2", 24, A }, { "arch_3", 25, A },
	{ "reported", 3, NC }, { "has_hwpoisoned", 8, PF_SECOND }, { "large_rmappable", 9, PF_SECOND },
};
#undef A
#undef H
#undef NT
#undef NC

static int want_bit(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(want_bits); i++)
		if (!strcmp(want_bits[i].name, name))
			return want_bits[i].bit;
	return -1;
}

static bool policy_is(const char *name, enum pf_policy pol)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(want_bits); i++)
		if (!strcmp(want_bits[i].name, name))
			return want_bits[i].pol == pol;
	return false;
}

/* Scratch pages: a small folio at [1], an order-2 folio at [4..7], the rest guards. */
#define NPAGES	9
static struct page pg[NPAGES] __attribute__((aligned(64)));
#define SMALL	(&pg[1])
#define HEAD	(&pg[4])
#define TAIL	(&pg[6])	/* a tail that is not page 1 (page 1's low byte is the order) */
static unsigned long snap[NPAGES];

static void scratch_init(void)
{
	memset(pg, 0, sizeof(pg));
	for (int i = 0; i < NPAGES; i++) {
		set_page_links(&pg[i], ZONE_MOVABLE, MAX_NUMNODES - 1);
		atomic_set(&pg[i]._mapcount, -1);
	}
	prep_compound_page(HEAD, 2);
}

static void snapshot(void)
{
	for (int i = 0; i < NPAGES; i++)
		snap[i] = pg[i].flags;
}

/* Every flags word is its snapshot, except @target's, which is @want. */
static bool words_are(struct ktest *t, int line, const char *what, const struct page *target,
		      unsigned long want)
{
	for (int i = 0; i < NPAGES; i++) {
		unsigned long exp = &pg[i] == target ? want : snap[i];
		if (pg[i].flags != exp) {
			char msg[160];
			ksnprintf(msg, sizeof(msg), "%s: page %d flags 0x%lx, expected 0x%lx", what, i,
				  pg[i].flags, exp);
			ktest_fail_msg(t, __FILE__, line, msg);
			return false;
		}
	}
	return true;
}

enum op { TEST, SET, CLEAR, __SET, __CLEAR, TEST_SET, TEST_CLEAR, NR_OPS };
static const char *const op_names[2][NR_OPS] = {
	{ "Page", "SetPage", "ClearPage", "__SetPage", "__ClearPage", "TestSetPage", "TestClearPage" },
	{ "folio_test_", "folio_set_", "folio_clear_", "__folio_set_", "__folio_clear_",
	  "folio_test_set_", "folio_test_clear_" },
};

/* Run one accessor: page form on @via, or folio form on (struct folio *)@via.  -1 if void. */
static int do_op(const struct acc *a, bool folio, enum op op, void *via)
{
	struct page *p = via;
	struct folio *f = via;

	switch (op) {
	case TEST:	return folio ? a->ftest(f) : a->ptest(p);
	case SET:	folio ? a->fset(f) : a->pset(p); return -1;
	case CLEAR:	folio ? a->fclear(f) : a->pclear(p); return -1;
	case __SET:	folio ? a->__fset(f) : a->__pset(p); return -1;
	case __CLEAR:	folio ? a->__fclear(f) : a->__pclear(p); return -1;
	case TEST_SET:	return folio ? a->ftest_set(f) : a->ptest_set(p);
	default:	return folio ? a->ftest_clear(f) : a->ptest_clear(p);
	}
}

/*
 * All seven forms of @a (page or folio) through @via must read and write bit want_bit(a) of
 * @target's flags word and nothing else; @target's word is restored afterwards.
 */
static void check_forms(struct ktest *t, const struct acc *a, bool folio, void *via,
			struct page *target)
{
	static const struct { enum op op; int ret; bool set_after; } steps[] = {
		{ TEST, 0, false }, { SET, -1, true }, { TEST, 1, true }, { CLEAR, -1, false },
		{ TEST, 0, false }, { __SET, -1, true }, { TEST, 1, true }, { __CLEAR, -1, false },
		{ TEST_SET, 0, true }, { TEST_SET, 1, true }, { TEST_CLEAR, 1, false },
		{ TEST_CLEAR, 0, false }, { TEST, 0, false },
	};
	int bit = want_bit(a->name);
	unsigned long saved = target->flags;
	char what[80];

	KTEST_ASSERT_TRUE(t, bit >= 0);
	target->flags &= ~(1UL << bit);
	snapshot();
	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		int ret = do_op(a, folio, steps[i].op, via);
		unsigned long want = snap[target - pg] | (steps[i].set_after ? 1UL << bit : 0);
		ksnprintf(what, sizeof(what), "%s%s on page %d, step %u", op_names[folio][steps[i].op],
			  a->name, (int)((struct page *)via - pg), i);
		if (ret != steps[i].ret) {
			char msg[120];
			ksnprintf(msg, sizeof(msg), "%s returned %d, expected %d", what, ret,
				  steps[i].ret);
			ktest_fail_msg(t, __FILE__, __LINE__, msg);
			break;
		}
		if (!words_are(t, __LINE__, what, target, want))
			break;
	}
	target->flags = saved;
}

/* Linux's bits; the table `page-flags` prints is the accessors' own (rows, bits, policies). */
static void bits_and_table(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, NR_PAGEFLAGS, 26);
	KTEST_EXPECT_EQ(t, PG_head, 6);			/* Linux: must be bit 6 */
	KTEST_EXPECT_EQ(t, PG_waiters, 7);		/* Linux: bit 7, PG_locked's byte */
	KTEST_EXPECT_EQ(t, NR_ACCS, ARRAY_SIZE(want_bits));
	KTEST_ASSERT_EQ(t, pageflag_table_len, NR_ACCS);
	for (unsigned int i = 0; i < NR_ACCS; i++) {
		const struct pageflag_info *f = &pageflag_table[i];
		if (want_bit(accs[i].name) != accs[i].bit || !policy_is(accs[i].name, accs[i].pol))
			ktest_fail_msg(t, __FILE__, __LINE__, accs[i].name);	/* wrong bit/policy */
		for (unsigned int j = 0; j < i; j++)
			KTEST_EXPECT_NE(t, strcmp(accs[i].name, accs[j].name), 0);
		KTEST_EXPECT_STREQ(t, f->name, accs[i].name);
		KTEST_EXPECT_EQ(t, f->bit, accs[i].bit);
		KTEST_EXPECT_EQ(t, f->policy, accs[i].pol);
		KTEST_EXPECT_TRUE(t, f->meaning && strlen(f->meaning) > 10 && !strchr(f->meaning, '\n'));
	}
	KTEST_EXPECT_STREQ(t, pf_policy_name(PF_NO_COMPOUND), "PF_NO_COMPOUND");
	KTEST_EXPECT_STREQ(t, pf_policy_name(PF_SECOND), "PF_SECOND");
}

/* Each accessor where no policy objects: small page/folio, or page 1 of a large folio. */
static void every_accessor_moves_its_bit(struct ktest *t)
{
	scratch_init();
	for (unsigned int i = 0; i < NR_ACCS; i++) {
		const struct acc *a = &accs[i];
		if (a->pol == PF_SECOND) {
			check_forms(t, a, false, HEAD, HEAD + 1);
			check_forms(t, a, true, HEAD, HEAD + 1);
		} else {
			check_forms(t, a, false, SMALL, SMALL);
			check_forms(t, a, true, SMALL, SMALL);
		}
	}
	KTEST_EXPECT_EQ(t, folio_order((struct folio *)HEAD), 2);	/* page 1's order byte kept */
}

/* alias, primary: setting one is seeing the other, on the same page. */
static void aliases_share_their_bit(struct ktest *t)
{
	static const struct { void (*set)(struct page *); bool (*test)(const struct page *); int bit; }
	pairs[] = {
		{ SetPageChecked, PageOwnerPriv1, 10 }, { SetPageSwapCache, PageOwnerPriv1, 10 },
		{ SetPageOwnerPriv1, PageChecked, 10 }, { SetPageOwnerPriv1, PageSwapCacheBit, 10 },
		{ SetPageDcacheClean, PageArch1, 11 }, { SetPageArch1, PageDcacheClean, 11 },
		{ SetPageAnonExclusive, PageMappedToDisk, 15 },
		{ SetPageMappedToDisk, PageAnonExclusive, 15 },
		{ SetPageReadahead, PageReclaim, 16 }, { SetPageIsolated, PageReclaim, 16 },
		{ SetPageReclaim, PageReadahead, 16 }, { SetPageReclaim, PageIsolated, 16 },
		{ SetPageReported, PageUptodate, 3 }, { SetPageUptodate, PageReported, 3 },
	};
	struct folio *large = (struct folio *)HEAD;

	scratch_init();
	for (unsigned int i = 0; i < ARRAY_SIZE(pairs); i++) {
		snapshot();
		pairs[i].set(SMALL);
		KTEST_EXPECT_TRUE(t, pairs[i].test(SMALL));
		KTEST_EXPECT_TRUE(t, words_are(t, __LINE__, "alias", SMALL,
					       snap[1] | 1UL << pairs[i].bit));
		SMALL->flags = snap[1];
	}
	/* swapcache counts only with swapbacked (Linux's folio_test_swapcache, PageSwapCache);
	 * the bit alone is a filesystem's Checked */
	folio_set_checked((struct folio *)SMALL);
	KTEST_EXPECT_TRUE(t, folio_test_swapcache_bit((struct folio *)SMALL));
	KTEST_EXPECT_FALSE(t, folio_test_swapcache((struct folio *)SMALL));
	KTEST_EXPECT_FALSE(t, PageSwapCache(SMALL));
	folio_set_swapbacked((struct folio *)SMALL);
	KTEST_EXPECT_TRUE(t, folio_test_swapcache((struct folio *)SMALL));
	KTEST_EXPECT_TRUE(t, PageSwapCache(SMALL));
	folio_clear_swapcache((struct folio *)SMALL);
	KTEST_EXPECT_FALSE(t, folio_test_swapcache((struct folio *)SMALL));
	/* through a tail: the folio's (Linux: PageSwapCache is folio_test_swapcache(page_folio)) */
	folio_set_swapbacked(large);
	KTEST_EXPECT_FALSE(t, PageSwapCache(TAIL));
	folio_set_swapcache(large);
	KTEST_EXPECT_TRUE(t, PageSwapCache(TAIL) && PageSwapCacheBit(TAIL));
	folio_clear_swapbacked(large);
	KTEST_EXPECT_FALSE(t, PageSwapCache(TAIL) || folio_test_swapcache(large));
	folio_clear_swapcache(large);
	/* The second-page flags: active's and workingset's bits, but of page 1, not the head. */
	snapshot();
	folio_set_has_hwpoisoned(large);
	KTEST_EXPECT_TRUE(t, words_are(t, __LINE__, "has_hwpoisoned", HEAD + 1, snap[5] | 1UL << 8));
	KTEST_EXPECT_FALSE(t, folio_test_active(large));
	KTEST_EXPECT_TRUE(t, test_bit(PG_active, &HEAD[1].flags));
	folio_set_large_rmappable(large);
	KTEST_EXPECT_TRUE(t, words_are(t, __LINE__, "large_rmappable", HEAD + 1, snap[5] | 3UL << 8));
	KTEST_EXPECT_FALSE(t, folio_test_workingset(large));
	folio_set_active(large);
	folio_clear_has_hwpoisoned(large);
	KTEST_EXPECT_TRUE(t, folio_test_active(large));
	KTEST_EXPECT_TRUE(t, folio_test_large_rmappable(large));
	KTEST_EXPECT_EQ(t, folio_order(large), 2);
}

/* Policies that are not bugs: PF_HEAD, PF_NO_TAIL, PF_NO_COMPOUND (test), PF_SECOND, PF_ANY. */
static void policies_redirect(struct ktest *t)
{
	struct folio *large = (struct folio *)HEAD;

	scratch_init();
	for (unsigned int i = 0; i < NR_ACCS; i++) {
		const struct acc *a = &accs[i];
		int bit = want_bit(a->name);
		switch (a->pol) {
		case PF_HEAD:		/* through every tail, including page 1, to the head */
			for (int j = 1; j < 4; j++)
				check_forms(t, a, false, HEAD + j, HEAD);
			check_forms(t, a, false, HEAD, HEAD);
			check_forms(t, a, true, large, HEAD);
			break;
		case PF_NO_TAIL:	/* modify through the head; a tail tests the head's bit */
			check_forms(t, a, false, HEAD, HEAD);
			check_forms(t, a, true, large, HEAD);
			__set_bit(bit, &HEAD->flags);
			KTEST_EXPECT_TRUE(t, a->ptest(TAIL) && a->ptest(HEAD + 1));
			__clear_bit(bit, &HEAD->flags);
			KTEST_EXPECT_FALSE(t, a->ptest(TAIL) || a->ptest(HEAD + 1));
			break;
		case PF_NO_COMPOUND:	/* testing a compound page is fine: the page's own bit */
			__set_bit(bit, &TAIL->flags);
			KTEST_EXPECT_TRUE(t, a->ptest(TAIL));
			KTEST_EXPECT_FALSE(t, a->ptest(HEAD));
			__clear_bit(bit, &TAIL->flags);
			KTEST_EXPECT_FALSE(t, a->ptest(TAIL));
			break;
		case PF_SECOND:		/* the head's page forms reach page 1 */
			check_forms(t, a, false, HEAD, HEAD + 1);
			break;
		case PF_ANY:		/* the page itself, tail or head */
			check_forms(t, a, false, TAIL, TAIL);
			check_forms(t, a, false, HEAD + 3, HEAD + 3);
			check_forms(t, a, false, HEAD, HEAD);
			check_forms(t, a, true, large, HEAD);
			break;
		}
	}
	KTEST_EXPECT_EQ(t, folio_order(large), 2);
	KTEST_EXPECT_TRUE(t, PageHead(HEAD) && PageTail(TAIL));
}

/*
 * @a's form @op through @via must BUG in mm/page_flags.c before touching any flags word.
 * Only the first report reaches the console: the rest go to the log (console_loglevel 0), or
 * hundreds of dump_page + BUG reports would drown the KTAP.  Failures still print (kprintf).
 */
static bool report_shown;

static void expect_policy_bug(struct ktest *t, const struct acc *a, bool folio, enum op op,
			      void *via)
{
	int loglevel = console_loglevel;

	snapshot();
	if (report_shown)
		console_loglevel = 0;
	KTEST_EXPECT_BUG(t, (void)do_op(a, folio, op, via));
	console_loglevel = loglevel;
	report_shown = true;
	if (!strstr(ktest_last_bug(), "mm/page_flags.c:")) {
		char msg[160];
		ksnprintf(msg, sizeof(msg), "%s%s: wrong report '%s'", op_names[folio][op], a->name,
			  ktest_last_bug());
		ktest_fail_msg(t, __FILE__, __LINE__, msg);
	}
	words_are(t, __LINE__, a->name, NULL, 0);
}

static void policy_violations_bug(struct ktest *t)
{
	struct folio *large = (struct folio *)HEAD;

	if (!CONFIG_DEBUG_VM) {
		ktest_skip(t, "CONFIG_DEBUG_VM is off");
		return;
	}
	scratch_init();
	for (unsigned int i = 0; i < NR_ACCS; i++) {
		const struct acc *a = &accs[i];
		for (enum op op = TEST; op < NR_OPS; op++) {
			bool modify = op != TEST;
			if (a->pol == PF_NO_TAIL && modify) {
				expect_policy_bug(t, a, false, op, TAIL);
				expect_policy_bug(t, a, false, op, HEAD + 1);
			}
			if (a->pol == PF_NO_COMPOUND && modify) {
				expect_policy_bug(t, a, false, op, HEAD);
				expect_policy_bug(t, a, false, op, TAIL);
				expect_policy_bug(t, a, true, op, large);
			}
			if (a->pol == PF_SECOND) {
				expect_policy_bug(t, a, false, op, SMALL);
				expect_policy_bug(t, a, false, op, TAIL);
				expect_policy_bug(t, a, true, op, SMALL);
			}
			expect_policy_bug(t, a, true, op, TAIL);	/* a folio is never a tail */
		}
	}
}

/* node and zone in the top bits: every value, with every flag set and clear around them. */
static void node_and_zone_round_trip(struct ktest *t)
{
	const unsigned long fields = (ZONES_MASK << ZONES_PGSHIFT) | (NODES_MASK << NODES_PGSHIFT);
	struct page *p = SMALL;

	scratch_init();
	for (int fill = 0; fill < 2; fill++) {
		unsigned long others = fill ? ~fields : 0;	/* flags and the unused middle bits */
		for (int zone = 0; zone < MAX_NR_ZONES; zone++) {
			for (int nid = 0; nid < MAX_NUMNODES; nid++) {
				unsigned long bad = 0;
				p->flags = fill ? ~0UL : 0;		/* old fields must go */
				set_page_links(p, (enum zone_type)zone, nid);
				KTEST_EXPECT_EQ(t, page_zonenum(p), zone);
				KTEST_EXPECT_EQ(t, page_to_nid(p), nid);
				KTEST_EXPECT_EQ(t, p->flags & ~fields, others);
				for (int bit = 0; bit < NR_PAGEFLAGS; bit++) {	/* flip each, and back */
					fill ? clear_bit(bit, &p->flags) : set_bit(bit, &p->flags);
					bad += (int)page_zonenum(p) != zone || page_to_nid(p) != nid ||
					       (p->flags & ~fields) != (others ^ 1UL << bit);
					fill ? __set_bit(bit, &p->flags) : __clear_bit(bit, &p->flags);
				}
				fill ? ClearPageHWPoison(p) : SetPageHWPoison(p);	/* PF_ANY */
				bad += (int)page_zonenum(p) != zone || page_to_nid(p) != nid;
				KTEST_EXPECT_EQ(t, bad, 0);
				KTEST_EXPECT_EQ(t, PageHWPoison(p), !fill);
			}
		}
	}
	KTEST_EXPECT_EQ(t, PAGEFLAGS_MASK & fields, 0);
	KTEST_EXPECT_GE(t, NODES_PGSHIFT, NR_PAGEFLAGS);
}

/* A compound page of every order, on a static array big enough for MAX_PAGE_ORDER. */
static struct page big[1UL << MAX_PAGE_ORDER] __attribute__((aligned(64)));

static void folio_order_of_every_order(struct ktest *t)
{
	struct folio *folio = (struct folio *)big;

	memset(big, 0, sizeof(big));
	KTEST_EXPECT_EQ(t, folio_order(folio), 0);
	KTEST_EXPECT_EQ(t, folio_nr_pages(folio), 1);
	KTEST_EXPECT_FALSE(t, folio_test_large(folio));
	for (unsigned int order = 1; order <= MAX_PAGE_ORDER; order++) {
		unsigned long nr = 1UL << order, bad = 0;
		memset(big, 0, sizeof(big));
		prep_compound_page(big, order);
		KTEST_EXPECT_EQ(t, folio_order(folio), order);
		KTEST_EXPECT_EQ(t, folio_nr_pages(folio), nr);
		KTEST_EXPECT_TRUE(t, folio_test_large(folio) && PageHead(big) && !PageTail(big));
		for (unsigned long i = 1; i < nr; i++)
			bad += !PageTail(&big[i]) || page_folio(&big[i]) != folio ||
			       compound_head(&big[i]) != big || PageHead(&big[i]);
		KTEST_EXPECT_EQ(t, bad, 0);
		if (nr < ARRAY_SIZE(big))
			KTEST_EXPECT_FALSE(t, PageTail(&big[nr]) || PageCompound(&big[nr]));
	}
	memset(big, 0, sizeof(big));
}

static void format_page_flags_text(struct ktest *t)
{
	static const struct { unsigned long flags; const char *names; } cases[] = {
		{ 0, "" },
		{ 1UL << PG_locked | 1UL << PG_dirty, "locked|dirty|" },
		/* Linux's %pGp order, not bit order */
		{ 1UL << PG_head | 1UL << PG_writeback | 1UL << PG_waiters | 1UL << PG_locked,
		  "locked|waiters|writeback|head|" },
		{ 1UL << PG_young | 1UL << PG_idle | 1UL << PG_arch_3, "idle|young|arch_3|" },
		{ PAGEFLAGS_MASK, "locked|waiters|referenced|uptodate|dirty|lru|active|workingset|"
		  "owner_priv_1|arch_1|reserved|private|private_2|writeback|head|mappedtodisk|reclaim|"
		  "swapbacked|unevictable|mlocked|uncached|hwpoison|idle|young|arch_2|arch_3|" },
		/* aliases print as their primary; bits between the flags and node are not flags */
		{ 1UL << PG_swapcache | 1UL << PG_reported | 1UL << NR_PAGEFLAGS,
		  "uptodate|owner_priv_1|" },
	};
	char got[320], want[320];

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		for (int zone = 0; zone < MAX_NR_ZONES; zone += 2) {
			int nid = zone ? MAX_NUMNODES - 1 : 0;
			unsigned long flags = cases[i].flags | (unsigned long)zone << ZONES_PGSHIFT |
					      (unsigned long)nid << NODES_PGSHIFT;
			format_page_flags(got, sizeof(got), flags);
			ksnprintf(want, sizeof(want), "0x%lx(%snode=%d|zone=%d)", flags, cases[i].names,
				  nid, zone);
			KTEST_EXPECT_STREQ(t, got, want);
		}
	}
	format_page_flags(got, sizeof(got), 0);
	KTEST_EXPECT_STREQ(t, got, "0x0(node=0|zone=0)");	/* Linux's %#lx: 0x0, not 0 */
	format_page_flags(got, 12, PAGEFLAGS_MASK);		/* truncates, never overflows */
	KTEST_EXPECT_EQ(t, strlen(got), 11);
}

static const struct ktest_case pageflags_cases[] = {
	KTEST_CASE(bits_and_table),
	KTEST_CASE(every_accessor_moves_its_bit),
	KTEST_CASE(aliases_share_their_bit),
	KTEST_CASE(policies_redirect),
	KTEST_CASE(policy_violations_bug),
	KTEST_CASE(node_and_zone_round_trip),
	KTEST_CASE(folio_order_of_every_order),
	KTEST_CASE(format_page_flags_text),
	{}
};
KTEST_SUITE(pageflags, pageflags_cases);
