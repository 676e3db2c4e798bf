/*
 * buddy_test.c - the buddy allocator on the host, under ASan/UBSan, over a fake RAM carved from
 * host memory (tinymm's __va is the identity there): 16 MiB, 4 MiB-aligned so max-order blocks
 * exist, as two banks with a hole, a 64 KiB "kernel" at the start, and ZONE_DMA below an
 * unaligned limit (so the blocks either side of it are buddies by address).  Options go through
 * the command-line parser, as on a board.
 *
 * First the in-kernel suite `buddy` (one set of checks for host and boards), then what only the
 * host can check: the exact Bad page state text and allocation-failure warning, buddy_check()
 * catching deliberate corruption, pageblock stealing, and tinymm.page_poison=1 catching a write
 * after free.  Every test boots the allocator afresh.
 */
#include "test.h"
#include "tinymm/cmdline.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/time.h"
#include "../../mm/internal.h"
#include "fake_ram.h"

/* The suite itself, compiled into this test (the kernel build globs tests/ktest/). */
#include "../ktest/buddy_ktest.c"
#include "../ktest/buddy_bad_ktest.c"

extern bool kernel_tainted_bad_page;	/* mm/page_alloc.c: the first report adds a line */

#define MIB		(1UL << 20)
#define RAM_SIZE	FAKE_RAM_TWO_BANKS	/* bank 0 [0, 6M), hole [6M, 8M), bank 1 [8M, 16M) */
#define DMA_LIMIT	(MIB + 0x8000)	/* pfn offset 0x108: order-3 blocks meet there */
#define TS		"[    0.000000] "

static char *ram;
static phys_addr_t ram_pa;
static char want[1 << 14];

static int group_setup(void **state)
{
	ram = fake_ram_alloc(RAM_SIZE);
	ram_pa = __pa(ram);
	return ram ? 0 : -1;
}

static int group_teardown(void **state)
{
	free(ram);
	return 0;
}

/* A fresh allocator over the fake RAM, with tinymm.<options> @opts on top of the DMA limit. */
static void boot(const char *opts)
{
	char line[256];
	struct boot_args args;

	assert_int_equal(fake_ram_two_banks(ram_pa), 0);
	fake_ram_reserve_kernel(ram_pa);
	snprintf(line, sizeof(line), "tinymm.zone_dma_limit=%#llx tinymm.page_poison=0 %s",
		 (unsigned long long)(ram_pa + DMA_LIMIT), opts);
	cmdline_parse(line, &args, __kparams_start, __kparams_end, no_warning);
	assert_int_equal(memmap_init(), 0);
	assert_int_equal(page_alloc_init(), 0);
	assert_int_equal(memmap_nr_banks(), 2);
	assert_int_equal(zones[ZONE_NORMAL].zone_start_pfn, PHYS_PFN(ram_pa + DMA_LIMIT));
	assert_int_equal(buddy_check(NULL), 0);
	time_init(1000000);
	shim_counter = 0;
	console_loglevel = 7;
	shim_console_reset();
}

static int setup(void **state)
{
	boot("");
	return 0;
}

/* Allocate order-0 @gfp pages until none is left, chained through their memory; the count. */
static unsigned long exhaust(gfp_t gfp, struct page **chain)
{
	unsigned long n = 0;

	for (struct page *p; (p = alloc_page(gfp)); n++) {
		*(struct page **)page_address(p) = *chain;
		*chain = p;
	}
	return n;
}

static void free_chain(struct page *chain)
{
	while (chain) {
		struct page *next = *(struct page **)page_address(chain);
		__free_page(chain);
		chain = next;
	}
}

/*
 * Out-of-range orders (run first: the warning is once per boot, as Linux's WARN_ON_ONCE_GFP, and
 * the KTAP suite meets it too): NULL without a word under __GFP_NOWARN; otherwise the one
 * WARNING, whether the order came to alloc_pages() directly or through alloc_pages_exact(); never
 * again after that.  Nothing is taken.
 */
static void out_of_range_order_warns_once(void **state)
{
	unsigned long free0 = nr_free_pages_and_pcp(), warnings = nr_warnings();
	size_t too_big = (PAGE_SIZE << MAX_PAGE_ORDER) + 1;

	shim_console_reset();
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_PAGE_ORDER + 1));
	assert_null(alloc_pages_exact(too_big, GFP_KERNEL | __GFP_NOWARN));
	assert_string_equal(shim_console, "");
	assert_int_equal(nr_warnings(), warnings);
	assert_null(alloc_pages_exact(too_big, GFP_KERNEL));
	assert_int_equal(nr_warnings(), warnings + 1);
	assert_console_has("WARNING: CPU: 0 PID: 0 at mm/page_alloc.c:");
	assert_console_has("WARN_ON(!(gfp & __GFP_NOWARN)) in alloc_pages_slowpath\n");
	shim_console_reset();
	assert_null(alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER + 1));
	assert_null(alloc_pages(GFP_KERNEL, 31));
	assert_int_equal(nr_warnings(), warnings + 1);
	assert_string_equal(shim_console, "");
	assert_int_equal(nr_free_pages_and_pcp(), free0);
	assert_int_equal(buddy_check(NULL), 0);
}

static char param_warning[128];
static void keep_warning(const char *line)
{
	snprintf(param_warning, sizeof(param_warning), "%s", line);
}

/* A bad free (PG_locked set) and an allocation of a spoiled free frame (PG_referenced set). */
static unsigned long bad_free_and_spoiled_alloc(void)
{
	unsigned long bad = nr_bad_pages;
	struct page *p = alloc_page(GFP_KERNEL);

	assert_non_null(p);
	__SetPageLocked(p);
	__free_page(p);
	struct page *q = alloc_page(GFP_KERNEL);
	assert_non_null(q);
	__free_page(q);					/* on top of its per-CPU list */
	__SetPageReferenced(q);				/* written after the free */
	struct page *r = alloc_page(GFP_KERNEL);
	assert_non_null(r);
	if (r == q)
		__ClearPageReferenced(r);		/* checks off: handed out as it was */
	__free_page(r);
	return nr_bad_pages - bad;
}

/*
 * tinymm.check_pages: 1 (the default) reports a bad free and a spoiled allocation and keeps both
 * frames out; 0 reports neither (the frames go and come back as they are); any other value is
 * refused with the command line's one-line warning and changes nothing.
 */
static void check_pages_param_switches_the_checks(void **state)
{
	assert_true(page_checks);
	unsigned long free0 = nr_free_pages_and_pcp();
	assert_int_equal(bad_free_and_spoiled_alloc(), 2);
	drain_all_pages(NULL);
	assert_int_equal(nr_free_pages_and_pcp(), free0 - 2);	/* both kept out */
	assert_console_has("BUG: Bad page state in process swapper");

	boot("tinymm.check_pages=0");
	assert_false(page_checks);
	free0 = nr_free_pages_and_pcp();
	assert_int_equal(bad_free_and_spoiled_alloc(), 0);
	drain_all_pages(NULL);
	assert_int_equal(nr_free_pages_and_pcp(), free0);	/* nothing kept out */
	assert_string_equal(shim_console, "");

	char line[] = "tinymm.check_pages=2";
	struct boot_args args;
	param_warning[0] = 0;
	cmdline_parse(line, &args, __kparams_start, __kparams_end, keep_warning);
	assert_string_equal(param_warning, "bad value for option 'tinymm.check_pages'");
	assert_false(page_checks);
	boot("tinymm.check_pages=1");
	assert_true(page_checks);
	assert_int_equal(buddy_check(NULL), 0);
}

static void ktest_suite_passes(void **state)
{
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "buddy");

	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	/* Every case ran and passed: none skipped (the host has two zones). */
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(buddy_cases) - 1);
	assert_console_has(want);
}

static size_t add(size_t pos, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t add(size_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pos += (size_t)vsnprintf(want + pos, sizeof(want) - pos, fmt, ap);
	va_end(ap);
	assert_true(pos < sizeof(want));
	return pos;
}

/* The whole report, byte for byte: Linux's bad_page() and __dump_folio() lines, then the stack
 * (its frames are this build's). */
static void bad_page_report_text(void **state)
{
	struct page *p = alloc_page(GFP_KERNEL);
	unsigned long pfn = page_to_pfn(p), bad = nr_bad_pages, free0 = nr_free_pages_and_pcp();
	const int w = (int)sizeof(long) * 2;

	__SetPageLocked(p);
	struct page seen = *p;			/* what the dump shows: refcount already 0 */
	atomic_set(&seen._refcount, 0);
	kernel_tainted_bad_page = false;
	shim_console_reset();
	__free_pages(p, 0);
	size_t pos = add(0, TS "BUG: Bad page state in process swapper  pfn:%05lx\n", pfn);
	pos = add(pos, TS "page: refcount:0 mapcount:0 mapping:%0*lx index:0x0 pfn:0x%lx\n", w, 0UL, pfn);
	pos = add(pos, TS "flags: 0x%lx(locked|node=0|zone=1)\n", seen.flags);
	const unsigned long *word = (const unsigned long *)&seen;
	for (size_t i = 0; i < sizeof(seen) / sizeof(long); i++)
		pos = add(pos, "%s%0*lx%s", i % (32 / sizeof(long)) ? " " : TS "raw: ", w, word[i],
			  (i + 1) % (32 / sizeof(long)) && i + 1 < sizeof(seen) / sizeof(long) ? "" : "\n");
	pos = add(pos, TS "page dumped because: PAGE_FLAGS_CHECK_AT_FREE flag(s) set\n");
	add(pos, TS "Call trace:\n");
	assert_memory_equal(shim_console, want, strlen(want));
	static const char taint[] = TS "Disabling lock debugging due to kernel taint\n";
	assert_true(strlen(shim_console) > strlen(want) + strlen(taint));
	assert_string_equal(shim_console + strlen(shim_console) - strlen(taint), taint);
	assert_int_equal(nr_bad_pages, bad + 1);
	drain_all_pages(NULL);
	assert_int_equal(nr_free_pages_and_pcp(), free0);	/* leaked */
	assert_int_equal(buddy_check(NULL), 0);
}

/* One bad free (PG_locked left set): reported or only counted, and leaked either way. */
static void one_bad_free(void)
{
	struct page *p = alloc_page(GFP_KERNEL);

	assert_non_null(p);
	__SetPageLocked(p);
	__free_page(p);
}

static unsigned int reports_in_console(void)
{
	unsigned int n = 0;

	for (const char *c = shim_console; (c = strstr(c, "BUG: Bad page state in process ")); c++)
		n++;
	return n;
}

/*
 * Linux's rate limit: 60 reports, then quiet until a minute after the first of them (the rest
 * only counted, and leaked all the same), then the count of the suppressed and the next report.
 */
static void bad_page_reports_are_rate_limited(void **state)
{
	unsigned long bad = nr_bad_pages;
	const uint64_t sec = 1000000;		/* shim_counter ticks: time_init(1 MHz) */

	bad_page_rs = (struct bad_page_ratelimit){ 0 };
	for (int i = 0; i < 60; i++) {
		shim_console_reset();		/* the console buffer holds a few dozen reports */
		shim_counter = (uint64_t)i * sec / 2;	/* 30 s for the burst */
		one_bad_free();
		assert_int_equal(reports_in_console(), 1);
		assert_console_has("] Call trace:\n");
	}
	shim_console_reset();
	one_bad_free();
	shim_counter = 60 * sec - 1000;		/* one jiffy before the minute is up */
	one_bad_free();
	assert_string_equal(shim_console, "");
	assert_int_equal(nr_bad_pages, bad + 62);
	shim_counter = 60 * sec;
	one_bad_free();
	static const char count[] = "[   60.000000] BUG: Bad page state: 2 messages suppressed\n"
				    "[   60.000000] BUG: Bad page state in process swapper  pfn:";
	assert_memory_equal(shim_console, count, strlen(count));
	assert_int_equal(reports_in_console(), 1);
	/* A new burst began with that report: 59 more are shown, without a count. */
	shim_console_reset();
	one_bad_free();
	assert_int_equal(reports_in_console(), 1);
	assert_null(strstr(shim_console, "suppressed"));
	assert_int_equal(nr_bad_pages, bad + 64);
	bad_page_rs = (struct bad_page_ratelimit){ 0 };
	drain_all_pages(NULL);
	assert_int_equal(buddy_check(NULL), 0);
}

static size_t add_buddyinfo(size_t pos)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		if (!zones[z].present_pages)
			continue;
		pos = add(pos, TS "Node 0, zone %8s ", zones[z].name);
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			pos = add(pos, "%6lu ", zones[z].free_area[o].nr_free);
		pos = add(pos, "\n");
	}
	return pos;
}

static void allocation_failure_warns_with_buddyinfo(void **state)
{
	struct page *chain = NULL;
	unsigned long n = exhaust(GFP_KERNEL | __GFP_NOWARN, &chain), failures = nr_alloc_failures;

	assert_true(n > 3000);
	assert_null(alloc_page(GFP_KERNEL | __GFP_NOWARN));
	assert_string_equal(shim_console, "");			/* counted, not printed */
	assert_null(alloc_pages(GFP_KERNEL, 2));
	/* Linux's shape: the line, the stack (its frames are this build's), the memory summary. */
	add(0, TS "swapper: page allocation failure: order:2, mode:0xcc0(GFP_KERNEL), nodemask=(null)\n"
	    TS "Call trace:\n");
	assert_memory_equal(shim_console, want, strlen(want));
	size_t tail = add_buddyinfo(0);
	assert_true(strlen(shim_console) > tail);
	assert_string_equal(shim_console + strlen(shim_console) - tail, want);
	assert_int_equal(nr_alloc_failures, failures + 2);
	free_chain(chain);
	assert_int_equal(buddy_check(NULL), 0);
}

/* gfp flags as Linux's %pGg: composite names first, the rest one by one, unknown bits in hex. */
static void gfp_flags_print_as_linux(void **state)
{
	static const struct { gfp_t gfp; const char *want; } cases[] = {
		{ GFP_KERNEL, "GFP_KERNEL" },
		{ GFP_KERNEL | __GFP_NOWARN | __GFP_MOVABLE, "GFP_KERNEL|__GFP_NOWARN|__GFP_MOVABLE" },
		{ GFP_ATOMIC | __GFP_ZERO | __GFP_COMP, "GFP_ATOMIC|__GFP_COMP|__GFP_ZERO" },
		{ __GFP_RECLAIM | __GFP_IO, "GFP_NOFS" },
		{ GFP_NOWAIT | GFP_DMA, "GFP_NOWAIT|GFP_DMA" },
		{ __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
		{ GFP_NOWAIT | 0x200, "GFP_NOWAIT|0x200" },
		{ 0x200, "0x200" },
		{ 0, "" },
	};
	char buf[160];

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		format_gfp_flags(buf, sizeof(buf), cases[i].gfp);
		assert_string_equal(buf, cases[i].want);
	}
}

/* buddy_check() finds at least one problem and names it with @msg. */
static void expect_caught(const char *msg)
{
	shim_console_reset();
	assert_true(buddy_check(kprintf) > 0);
	assert_console_has(msg);
}

/* The first block of a NORMAL free list holding two or more blocks of order >= 1. */
static struct page *block_with_a_neighbour(unsigned int *order)
{
	struct zone *z = &zones[ZONE_NORMAL];

	drain_all_pages(NULL);
	for (unsigned int o = 1; o < MAX_PAGE_ORDER; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			if (z->free_area[o].free_list[mt].first != z->free_area[o].free_list[mt].last) {
				*order = o;
				return page_list_first(&z->free_area[o].free_list[mt]);
			}
	return NULL;
}

/* Break one invariant at a time, see buddy_check() name it, put it back. */
static void buddy_check_catches_corruption(void **state)
{
	struct zone *z = &zones[ZONE_NORMAL];
	unsigned int o = 0;
	struct page *h = block_with_a_neighbour(&o);
	char msg[160];

	assert_non_null(h);
	unsigned long pfn = page_to_pfn(h);
	struct page *second = link_to_page(h->lru.next);

	h->private = o - 1;				/* a free block's order */
	snprintf(msg, sizeof(msg), "pfn %#lx on the list but not a free block of that order", pfn);
	expect_caught(msg);
	h->private = o;
	second->lru.prev = h->lru.next;			/* a back link */
	snprintf(msg, sizeof(msg), "broken back link at pfn %#lx\n", page_to_pfn(second));
	expect_caught(msg);
	second->lru.prev = page_to_link(h);
	z->free_area[o].nr_free++;			/* a count */
	snprintf(msg, sizeof(msg), "order %u: nr_free %lu but %lu blocks on the lists\n", o,
		 z->free_area[o].nr_free, z->free_area[o].nr_free - 1);
	expect_caught(msg);
	assert_int_equal(buddy_check(NULL), 1);
	z->free_area[o].nr_free--;
	__SetPageDirty(h + 1);				/* a flag inside a free block */
	snprintf(msg, sizeof(msg), "free block pfn %#lx order %u: frame %#lx not clean\n", pfn, o, pfn + 1);
	expect_caught(msg);
	__ClearPageDirty(h + 1);
	z->free_pages--;				/* the zone's total */
	expect_caught(": free_pages ");
	z->free_pages++;
	shim_console_reset();
	char line[] = "buddycheck";
	assert_int_equal(shell_exec(__shell_cmds_start, __shell_cmds_end, line), 0);
	assert_string_equal(shim_console, "buddycheck: ok (0 problems)\n");
}

static int count_blocks(int mt)
{
	int n = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		for (unsigned long pfn = zones[i].zone_start_pfn; pfn < zone_end_pfn(&zones[i]);
		     pfn = ALIGN(pfn + 1, pageblock_nr_pages))
			n += get_pageblock_migratetype(&zones[i], pfn) == mt;
	return n;
}

static void unmovable_steals_a_movable_pageblock(void **state)
{
	int blocks = count_blocks(MIGRATE_MOVABLE);

	assert_true(blocks >= 4);			/* Linux starts them all MOVABLE */
	assert_int_equal(count_blocks(MIGRATE_UNMOVABLE) + count_blocks(MIGRATE_RECLAIMABLE), 0);
	struct page *p = alloc_page(GFP_KERNEL);	/* UNMOVABLE, none free: steals a block */
	assert_non_null(p);
	assert_int_equal(get_pageblock_migratetype(page_zone(p), page_to_pfn(p)), MIGRATE_UNMOVABLE);
	assert_int_equal(count_blocks(MIGRATE_UNMOVABLE), 1);
	drain_all_pages(NULL);
	unsigned long moved = 0;			/* its free blocks moved to the UNMOVABLE lists */
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		for (struct page *b = page_list_first(&page_zone(p)->free_area[o].free_list[MIGRATE_UNMOVABLE]);
		     b; b = page_list_next(b), moved++)
			assert_int_equal(page_to_pfn(b) >> pageblock_order, page_to_pfn(p) >> pageblock_order);
	assert_true(moved > 0);
	assert_int_equal(buddy_check(NULL), 0);	/* every block on its pageblock's list */
	struct page *q = alloc_page(GFP_HIGHUSER_MOVABLE);	/* MOVABLE ones are free: no steal */
	assert_non_null(q);
	assert_int_equal(get_pageblock_migratetype(page_zone(q), page_to_pfn(q)), MIGRATE_MOVABLE);
	assert_int_equal(count_blocks(MIGRATE_MOVABLE), blocks - 1);
	__free_page(p);
	__free_page(q);
	assert_int_equal(count_blocks(MIGRATE_UNMOVABLE), 1);	/* stolen blocks stay stolen */
	assert_int_equal(buddy_check(NULL), 0);
}

/* ---- v6.10's fallback rules (mm/migratetype.c), on one pageblock with everything else held ---- */
static struct { struct page *page; unsigned int order; } held[512];
static int nr_held_blocks;

/* Take every free block of @z off the lists but those in the pageblock at @keep. */
static void hold_all_but(struct zone *z, unsigned long keep)
{
	unsigned long flags;

	drain_all_pages(NULL);
	spin_lock_irqsave(&z->lock, flags);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			struct page *b = page_list_first(&z->free_area[o].free_list[mt]), *next;
			for (; b; b = next) {
				next = page_list_next(b);
				if ((page_to_pfn(b) >> pageblock_order) == (keep >> pageblock_order))
					continue;
				assert_true(nr_held_blocks < (int)ARRAY_SIZE(held));
				__isolate_free_page(b, o);
				held[nr_held_blocks].page = b;
				held[nr_held_blocks++].order = o;
			}
		}
	spin_unlock_irqrestore(&z->lock, flags);
}

static void release_held(struct zone *z)
{
	unsigned long flags;

	spin_lock_irqsave(&z->lock, flags);
	while (nr_held_blocks) {
		nr_held_blocks--;
		__putback_isolated_page(held[nr_held_blocks].page, held[nr_held_blocks].order, false);
	}
	spin_unlock_irqrestore(&z->lock, flags);
}

static struct page *rmqueue(struct zone *z, unsigned int order, int mt)
{
	unsigned long flags;

	spin_lock_irqsave(&z->lock, flags);
	struct page *page = __rmqueue(z, order, mt);
	spin_unlock_irqrestore(&z->lock, flags);
	return page;
}

static void give_back(struct zone *z, struct page *page, unsigned int order)
{
	unsigned long flags;

	ClearPageLRU(page);
	spin_lock_irqsave(&z->lock, flags);
	__free_one_page(page, page_to_pfn(page), z, order, get_pageblock_migratetype(z, page_to_pfn(page)), FPI_NONE);
	spin_unlock_irqrestore(&z->lock, flags);
}

/*
 * The pageblock B at 8 MiB, made UNMOVABLE and allocated whole, then given back so that
 * @nr_free frames of it are free (the top ones, in aligned blocks) and @nr_lru of the
 * allocated ones are PageLRU (movable); the rest of the zone held.  Then a MOVABLE request of
 * @order falls back to it: does B become MOVABLE?
 */
static bool movable_claims(unsigned long nr_free, unsigned long nr_lru, unsigned int order,
			   struct page **got)
{
	struct zone *z = &zones[ZONE_NORMAL];
	unsigned long b = PHYS_PFN(ram_pa + 8 * MIB);

	boot("");
	hold_all_but(z, b);
	struct page *whole = rmqueue(z, MAX_PAGE_ORDER, MIGRATE_UNMOVABLE);	/* claims B outright */
	assert_ptr_equal(whole, pfn_to_page(b));
	assert_int_equal(get_pageblock_migratetype(z, b), MIGRATE_UNMOVABLE);
	for (unsigned long i = 0; i < nr_lru; i++)
		SetPageLRU(whole + i);
	/* Free the top nr_free frames, largest aligned blocks first. */
	for (unsigned long top = pageblock_nr_pages, left = nr_free; left;) {
		unsigned int o = 0;
		while ((2UL << o) <= left && !((top - (2UL << o)) & ((2UL << o) - 1)))
			o++;
		top -= 1UL << o;
		left -= 1UL << o;
		give_back(z, whole + top, o);
	}
	assert_int_equal(z->free_pages, nr_free);
	assert_int_equal(buddy_check(NULL), 0);
	unsigned long claimed = nr_pageblocks_claimed, borrowed = nr_fallback_borrows;
	*got = rmqueue(z, order, MIGRATE_MOVABLE);
	assert_non_null(*got);
	assert_int_equal(page_to_pfn(*got) >> pageblock_order, b >> pageblock_order);
	bool claim = get_pageblock_migratetype(z, b) == MIGRATE_MOVABLE;
	assert_int_equal(nr_pageblocks_claimed - claimed, claim);
	assert_int_equal(nr_fallback_borrows - borrowed, !claim);
	assert_int_equal(buddy_check(NULL), 0);		/* every free block on B's type's lists */
	return claim;
}

static void fallback_claims_a_pageblock_as_v6_10(void **state)
{
	struct zone *z = &zones[ZONE_NORMAL];
	struct page *got;

	const unsigned long half = pageblock_nr_pages / 2;
	const unsigned int h = pageblock_order / 2;	/* 5 at MAX_PAGE_ORDER 10 */

	_Static_assert(pageblock_order >= 6, "the last case needs three orders below half of it");
	/* Half the block free: a MOVABLE order-h (half of pageblock_order) request claims it. */
	assert_true(movable_claims(half, 0, h, &got));
	release_held(z);
	/* One frame less: it borrows one block, B stays UNMOVABLE. */
	assert_false(movable_claims(half - 1, 0, h, &got));
	assert_int_equal(get_pageblock_migratetype(z, page_to_pfn(got)), MIGRATE_UNMOVABLE);
	release_held(z);
	/* ... unless an allocated frame is movable (PageLRU): free + alike reaches half again. */
	assert_true(movable_claims(half - 1, 1, h, &got));
	release_held(z);
	/* MOVABLE may steal only when the largest fallback block is half a pageblock's order or
	 * more (v6.10 asks can_steal_fallback() about the block's order, not the request's).  With
	 * only orders h-1, h-2 and h-3 free (4, 3, 2 at MAX_PAGE_ORDER 10) it may not, and takes the
	 * smallest block that fits (the order h-3 one, lowest), not a piece of the largest. */
	unsigned long nr = 7UL << (h - 3);
	assert_false(movable_claims(nr, 0, h - 3, &got));
	assert_int_equal(page_to_pfn(got) - PHYS_PFN(ram_pa + 8 * MIB), pageblock_nr_pages - nr);
	release_held(z);
	assert_int_equal(buddy_check(NULL), 0);
}

/* UNMOVABLE falling back to a MOVABLE block counts every frame neither free nor movable as
 * alike: a block full of kernel data is claimed, one full of movable (LRU) pages is not. */
static void unmovable_fallback_counts_non_movable_frames(void **state)
{
	struct zone *z = &zones[ZONE_NORMAL];
	unsigned long b = PHYS_PFN(ram_pa + 8 * MIB);

	for (int lru = 0; lru < 2; lru++) {
		boot("");
		hold_all_but(z, b);
		struct page *whole = rmqueue(z, MAX_PAGE_ORDER, MIGRATE_MOVABLE);	/* B stays MOVABLE */
		assert_ptr_equal(whole, pfn_to_page(b));
		/* 7/8 of B movable: free + alike stays below half (900 of 1024 until MAX_PAGE_ORDER
		 * became configurable). */
		for (unsigned long i = 0; lru && i < pageblock_nr_pages - pageblock_nr_pages / 8; i++)
			SetPageLRU(whole + i);
		give_back(z, whole + pageblock_nr_pages - 1, 0);
		give_back(z, whole + pageblock_nr_pages - 2, 0);	/* merges: one order-1 block */
		unsigned long claimed = nr_pageblocks_claimed;
		struct page *p = rmqueue(z, 0, MIGRATE_UNMOVABLE);
		assert_non_null(p);
		assert_int_equal(nr_pageblocks_claimed - claimed, !lru);
		assert_int_equal(get_pageblock_migratetype(z, b), lru ? MIGRATE_MOVABLE : MIGRATE_UNMOVABLE);
		assert_int_equal(buddy_check(NULL), 0);
		release_held(z);
	}
}

static void page_poison_catches_a_write_after_free(void **state)
{
	boot("tinymm.page_poison=1");
	assert_true(page_poisoning_enabled);
	unsigned long free0 = nr_free_pages_and_pcp(), mismatches = nr_poison_mismatches;
	struct page *p = alloc_page(GFP_KERNEL), *chain = NULL;
	unsigned long pfn = page_to_pfn(p);

	assert_int_equal(nr_poison_mismatches, mismatches);	/* a clean frame passes */
	__free_page(p);
	((unsigned char *)page_address(p))[0x123] = 0x42;	/* the bug */
	unsigned long n = exhaust(GFP_KERNEL | __GFP_NOWARN, &chain);
	n += exhaust(GFP_ATOMIC | __GFP_NOWARN, &chain);
	for (struct page *c = chain; c; c = *(struct page **)page_address(c))
		assert_int_not_equal(page_to_pfn(c), pfn);	/* never handed out again */
	assert_int_equal(nr_poison_mismatches, mismatches + 1);
	snprintf(want, sizeof(want), "pagealloc: memory corruption at pfn %#lx offset 0x123: 0x42 "
		 "where the free pattern 0xaa was\n", pfn);
	assert_console_has(want);
	snprintf(want, sizeof(want), "page: refcount:0 mapcount:0 mapping:%0*lx index:0x0 pfn:%#lx\n",
		 (int)sizeof(long) * 2, 0UL, pfn);
	assert_console_has(want);
	assert_console_has("page dumped because: written after free (page_poison)\n");
	free_chain(chain);
	drain_all_pages(NULL);
	assert_int_equal(nr_free_pages_and_pcp(), free0 - 1);		/* leaked */
	assert_null(buddy_free_block_of(pfn, NULL));
	assert_int_equal(buddy_check(NULL), 0);
	assert_true(n > 3000);
	boot("");
	assert_false(page_poisoning_enabled);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(out_of_range_order_warns_once, setup),
		cmocka_unit_test_setup(ktest_suite_passes, setup),
		cmocka_unit_test_setup(check_pages_param_switches_the_checks, setup),
		cmocka_unit_test_setup(bad_page_report_text, setup),
		cmocka_unit_test_setup(bad_page_reports_are_rate_limited, setup),
		cmocka_unit_test_setup(allocation_failure_warns_with_buddyinfo, setup),
		cmocka_unit_test(gfp_flags_print_as_linux),
		cmocka_unit_test_setup(buddy_check_catches_corruption, setup),
		cmocka_unit_test_setup(unmovable_steals_a_movable_pageblock, setup),
		cmocka_unit_test_setup(fallback_claims_a_pageblock_as_v6_10, setup),
		cmocka_unit_test_setup(unmovable_fallback_counts_non_movable_frames, setup),
		cmocka_unit_test_setup(page_poison_catches_a_write_after_free, setup),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
