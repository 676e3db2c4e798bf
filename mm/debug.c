/*
 * debug.c - dump_page(): a struct page in Linux v6.10's words (mm/debug.c's __dump_folio):
 *
 *   page: refcount:1 mapcount:0 mapping:00000000 index:0x0 pfn:0x40123
 *   head: order:2 mapcount:0 entire_mapcount:0 nr_pages_mapped:0 pincount:0   (large folios)
 *   flags: 0x40000011(locked|dirty|node=0|zone=1)
 *   page_type: 0xffffff7f(buddy)                                              (typed pages)
 *   raw: <the struct page as words>
 *   head: <the folio's first two struct pages as words>                      (large folios)
 *   page dumped because: <reason>
 *
 * As print_hex_dump(), raw: and head: carry 32 bytes a line (so a 64-bit struct page
 * takes two raw: lines), each word zero-padded to the width of a long.  Numbers printed with
 * Linux's %#lx show 0 as "0x0" (tinymm's ksnprintf follows C, so they are written 0x%lx here).
 * The flags word is %pGp: its value, then the set flags' primary names in
 * __def_pageflag_names order (which is not bit order: waiters comes second, writeback and head
 * after private_2, idle before young), then node and zone.  A struct page outside the memmap
 * (a test's hand-made page) has no frame number: "pfn:?".  A typed page (PageBuddy...) shows
 * mapcount:0 and a page_type: line, %pGt: the word, then the names of the type bits
 * that are clear in it (a type is a cleared bit, see page-flags.h).
 *
 * dump_page() prints through printk (timestamped, KERN_WARNING); the `page` shell command
 * prints the same lines bare.  Also here: `page <pfn>` and `page-flags` (the flag table).
 * Locking: none; a racy snapshot is what a debug dump can offer, as in Linux.
 *
 * Where tinymm differs from v6.10, and why: a slab page's dump names its cache (v6.10's does
 * not; tinymm's slab bugs are easier to place with it); the flag names leave out PG_error,
 * which tinymm does not have; the gfp and page-type names are those of the bits tinymm has.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/gfp.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/shell.h"

static const char *const pageflag_names[NR_PAGEFLAGS] = {
#define __PG_NAME(n) [PG_##n] = #n,
	__PAGEFLAG_BITS(__PG_NAME)
#undef __PG_NAME
};

/* %pGp's order: __def_pageflag_names (include/trace/events/mmflags.h) without error. */
static const unsigned char pgp_order[] = {
	PG_locked, PG_waiters, PG_referenced, PG_uptodate, PG_dirty, PG_lru, PG_active,
	PG_workingset, PG_owner_priv_1, PG_arch_1, PG_reserved, PG_private, PG_private_2,
	PG_writeback, PG_head, PG_mappedtodisk, PG_reclaim, PG_swapbacked, PG_unevictable,
	PG_mlocked, PG_uncached, PG_hwpoison, PG_idle, PG_young, PG_arch_2, PG_arch_3,
};
_Static_assert(ARRAY_SIZE(pgp_order) == NR_PAGEFLAGS, "every primary flag once in %pGp's order");

const char *pageflag_name(int bit)
{
	return bit >= 0 && bit < NR_PAGEFLAGS ? pageflag_names[bit] : "?";
}

/* "0x40000011(locked|dirty|node=0|zone=1)" into @buf. */
void format_page_flags(char *buf, size_t len, unsigned long flags);
void format_page_flags(char *buf, size_t len, unsigned long flags)
{
	size_t pos = (size_t)ksnprintf(buf, len, "0x%lx(", flags);

	for (unsigned int i = 0; i < NR_PAGEFLAGS && pos < len; i++) {
		int bit = pgp_order[i];
		if (flags & (1UL << bit))
			pos += (size_t)ksnprintf(buf + pos, len - pos, "%s|", pageflag_names[bit]);
	}
	if (pos < len)
		ksnprintf(buf + pos, len - pos, "node=%lu|zone=%lu)",
			  (flags >> NODES_PGSHIFT) & NODES_MASK,
			  (flags >> ZONES_PGSHIFT) & ZONES_MASK);
}

/*
 * __def_gfpflag_names (include/trace/events/mmflags.h), in its order, for the bits tinymm
 * has: composite masks first, so GFP_KERNEL prints as one name.  Left out: the composites that
 * need bits tinymm lacks (GFP_TRANSHUGE*, GFP_HIGHUSER*, GFP_USER: __GFP_HARDWALL and
 * __GFP_HIGHMEM; GFP_KERNEL_ACCOUNT): tinymm's GFP_USER equals GFP_KERNEL and would shadow it.
 */
static const struct { gfp_t mask; const char *name; } gfpflag_names[] = {
	{ GFP_KERNEL, "GFP_KERNEL" },
	{ __GFP_RECLAIM | __GFP_IO, "GFP_NOFS" },
	{ GFP_ATOMIC, "GFP_ATOMIC" },
	{ __GFP_RECLAIM, "GFP_NOIO" },
	{ GFP_NOWAIT, "GFP_NOWAIT" },
	{ GFP_DMA, "GFP_DMA" },
	{ __GFP_HIGH, "__GFP_HIGH" },
	{ __GFP_IO, "__GFP_IO" },
	{ __GFP_FS, "__GFP_FS" },
	{ __GFP_NOWARN, "__GFP_NOWARN" },
	{ __GFP_RETRY_MAYFAIL, "__GFP_RETRY_MAYFAIL" },
	{ __GFP_NORETRY, "__GFP_NORETRY" },
	{ __GFP_COMP, "__GFP_COMP" },
	{ __GFP_ZERO, "__GFP_ZERO" },
	{ __GFP_NOMEMALLOC, "__GFP_NOMEMALLOC" },
	{ __GFP_RECLAIMABLE, "__GFP_RECLAIMABLE" },
	{ __GFP_MOVABLE, "__GFP_MOVABLE" },
	{ __GFP_WRITE, "__GFP_WRITE" },
	{ __GFP_RECLAIM, "__GFP_RECLAIM" },
	{ __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
	{ __GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM" },
};

/* @gfp as %pGg: names joined by '|', what no name covers as 0x..; "" for 0. */
void format_gfp_flags(char *buf, size_t len, gfp_t gfp)
{
	size_t pos = 0;

	buf[0] = 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(gfpflag_names) && gfp && pos < len; i++) {
		gfp_t m = gfpflag_names[i].mask;
		if ((gfp & m) != m)
			continue;
		gfp &= ~m;
		pos += (size_t)ksnprintf(buf + pos, len - pos, "%s%s", gfpflag_names[i].name,
					 gfp ? "|" : "");
	}
	if (gfp && pos < len)
		ksnprintf(buf + pos, len - pos, "%#x", gfp);
}

/* __def_pagetype_names, for the types tinymm has. */
static const struct { unsigned int mask; const char *name; } pagetype_names[] = {
	{ PG_buddy, "buddy" },
	{ PG_offline, "offline" },
	{ PG_table, "table" },
	{ PG_slab, "slab" },
};

static void format_page_type(char *buf, size_t len, unsigned int page_type)
{
	size_t pos = (size_t)ksnprintf(buf, len, "0x%x(", page_type);
	unsigned int bits = ~page_type & ~PAGE_TYPE_BASE;
	const char *sep = "";

	for (unsigned int i = 0; i < ARRAY_SIZE(pagetype_names) && pos < len; i++)
		if ((bits & pagetype_names[i].mask) == pagetype_names[i].mask) {
			pos += (size_t)ksnprintf(buf + pos, len - pos, "%s%s", sep,
						 pagetype_names[i].name);
			bits &= ~pagetype_names[i].mask;
			sep = "|";
		}
	if (bits && pos < len)		/* type bits without a name, as Linux prints them */
		pos += (size_t)ksnprintf(buf + pos, len - pos, "%s0x%x", sep, bits);
	if (pos < len)
		ksnprintf(buf + pos, len - pos, ")");
}

/* Where the lines go: the log (dump_page) or bare to the console (the `page` command). */
typedef void (*dump_emit_t)(const char *line);

static void emit_printk(const char *line)
{
	printk(KERN_WARNING "%s\n", line);
}

static void emit_bare(const char *line)
{
	kprintf("%s\n", line);
}

/* page_to_pfn() without its BUG: false for a struct page outside the memmap. */
static bool memmap_pfn(const struct page *page, unsigned long *pfn)
{
	const struct memmap_bank *b = memmap_bank_of_page(page);

	if (b)
		*pfn = b->start_pfn + (unsigned long)(page - b->map);
	return b != NULL;
}

/* @bytes of memory as words, 32 bytes a line, each line starting with @prefix. */
static void dump_words(dump_emit_t emit, const char *prefix, const void *mem, size_t bytes)
{
	const unsigned long *w = mem;
	const size_t n = bytes / sizeof(long), per_line = 32 / sizeof(long);
	char line[160];

	for (size_t i = 0; i < n; i += per_line) {
		size_t pos = (size_t)ksnprintf(line, sizeof(line), "%s", prefix);
		for (size_t j = i; j < n && j < i + per_line; j++)
			pos += (size_t)ksnprintf(line + pos, sizeof(line) - pos, "%s%0*lx",
						 j > i ? " " : "", (int)sizeof(long) * 2, w[j]);
		emit(line);
	}
}

static void __dump_page(dump_emit_t emit, const struct page *page, const char *reason)
{
	const struct page *head = compound_head(page);
	const struct folio *folio = (const struct folio *)head;
	unsigned long pfn;
	char pfn_text[24] = "?", line[320];
	int mapcount = page_type_has_type(page->page_type) ? 0 : page_mapcount(page);

	if (memmap_pfn(page, &pfn))
		ksnprintf(pfn_text, sizeof(pfn_text), "0x%lx", pfn);
	ksnprintf(line, sizeof(line),
		  "page: refcount:%d mapcount:%d mapping:%0*lx index:0x%lx pfn:%s",
		  page_ref_count(head), mapcount, (int)sizeof(long) * 2,
		  (unsigned long)head->mapping, head->index + (unsigned long)(page - head), pfn_text);
	emit(line);
	if (folio_test_large(folio)) {
		ksnprintf(line, sizeof(line), "head: order:%u mapcount:%d entire_mapcount:0 "
			  "nr_pages_mapped:0 pincount:0", folio_order(folio), page_mapcount(head));
		emit(line);
	}
	memcpy(line, "flags: ", 7);
	format_page_flags(line + 7, sizeof(line) - 7, head->flags);
	emit(line);
	if (page_type_has_type(head->page_type)) {
		memcpy(line, "page_type: ", 11);
		format_page_type(line + 11, sizeof(line) - 11, head->page_type);
		emit(line);
	}
	/* tinymm's own: a slab page names its cache (see the header). */
	const char *cache = slab_cache_name_of(head);
	if (cache) {
		ksnprintf(line, sizeof(line), "slab: cache %s", cache);
		emit(line);
	}
	dump_words(emit, "raw: ", page, sizeof(struct page));
	if (folio_test_large(folio))
		dump_words(emit, "head: ", folio, 2 * sizeof(struct page));
	if (reason) {
		ksnprintf(line, sizeof(line), "page dumped because: %s", reason);
		emit(line);
	}
}

void dump_page(const struct page *page, const char *reason)
{
	__dump_page(emit_printk, page, reason);
}

static int cmd_page(int argc, char **argv)
{
	unsigned long long pfn;

	if (argc != 2 || kstrtoull(argv[1], &pfn))
		return shell_usage_error(argv[0], "usage: page <pfn>");
	if ((unsigned long)pfn != pfn || !pfn_valid((unsigned long)pfn)) {
		kprintf("page: pfn 0x%llx is not valid (hole or beyond memory)\n", pfn);
		return 1;
	}
	__dump_page(emit_bare, pfn_to_page((unsigned long)pfn), "page command");
	return 0;
}
SHELL_COMMAND(page, "<pfn>", "dump the struct page of a frame (dump_page)", cmd_page);

/*
 * One row per accessor name of pageflag_table: name, bit, the primary flag of an alias, policy,
 * meaning (padded to the longest), and last `used by`: the tinymm code that sets the name
 * ("-": none yet), one blank-free word, so the meaning's blanks never make it ambiguous.
 */
static int cmd_page_flags(int argc, char **argv)
{
	int width = (int)strlen("meaning");

	if (shell_no_args(argc, argv))
		return 2;
	for (unsigned int i = 0; i < pageflag_table_len; i++)
		width = max(width, (int)strlen(pageflag_table[i].meaning));
	kprintf("%-16s %3s  %-13s %-15s %-*s  %s\n", "name", "bit", "alias of", "policy", width,
		"meaning", "used by");
	for (unsigned int i = 0; i < pageflag_table_len; i++) {
		const struct pageflag_info *f = &pageflag_table[i];
		const char *primary = pageflag_name(f->bit);
		kprintf("%-16s %3d  %-13s %-15s %-*s  %s\n", f->name, f->bit,
			strcmp(primary, f->name) ? primary : "-", pf_policy_name(f->policy), width,
			f->meaning, f->used_by);
	}
	return 0;
}
/* SHELL_COMMAND's name must be an identifier; this one has a '-', so the entry is spelt out. */
static const struct shell_cmd __shell_cmd_page_flags __used
	__section(TABLE_SECTION_shell_cmds(page-flags)) __attribute__((aligned(sizeof(void *)))) =
	{ "page-flags", "", "the page flags: bit, alias, policy, meaning and the code that sets each name",
	  cmd_page_flags };
