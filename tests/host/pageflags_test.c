/*
 * pageflags_test.c - the page flags and the page frame database on the host, under ASan/UBSan:
 * the in-kernel suites `pageflags` and `pageflags_memmap` (one set of checks for host and
 * boards), dump_page()'s exact text, and the `page` and `page-flags` commands.
 *
 * The live memmap needs RAM: a malloc'ed, 1 MiB-aligned buffer given to memblock as two banks
 * with a 1 MiB hole between them (__va is the identity, so host addresses are "physical"), a
 * kernel image and a DTB reserved in it, then memmap_init().
 */
#include "test.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/time.h"

/* The suites themselves, compiled into this test (the kernel build globs tests/ktest/). */
#include "../ktest/pageflags_ktest.c"
#include "../ktest/pageflags_memmap_ktest.c"

#define MiB		(1UL << 20)
#define RAM_SIZE	(8 * MiB)
static char *ram;
static phys_addr_t ram_pa;
#define KERNEL_PA	(ram_pa + 1 * MiB)	/* 64 KiB "kernel image" in bank 0 */
#define HOLE_PA		(ram_pa + 3 * MiB)	/* bank 0 is [0, 3M), bank 1 [4M, 8M) */
#define USABLE_PA	(ram_pa + 2 * MiB)	/* memblock_alloc takes the memmap from the top */

static int ram_setup(void **state)
{
	ram = aligned_alloc(MiB, RAM_SIZE);
	if (!ram)
		return -1;
	ram_pa = __pa(ram);
	memblock_reset();
	if (memblock_add(ram_pa, 3 * MiB, NULL) || memblock_add(ram_pa + 4 * MiB, 4 * MiB, NULL))
		return -1;
	memblock_reserve(KERNEL_PA, 0x10000, MEMBLOCK_KERNEL);
	memblock_reserve(ram_pa + 5 * MiB, 0x2000, MEMBLOCK_DTB);
	time_init(1000000);
	shim_counter = 0;
	console_loglevel = 7;
	return memmap_init();
}

static int ram_teardown(void **state)
{
	free(ram);
	return 0;
}

static void memmap_is_two_banks(void **state)
{
	assert_int_equal(memmap_nr_banks(), 2);
	assert_int_equal(memmap_bank(0)->start_pfn, PHYS_PFN(ram_pa));
	assert_int_equal(memmap_bank(0)->end_pfn, PHYS_PFN(HOLE_PA));
	assert_int_equal(memmap_bank(1)->start_pfn, PHYS_PFN(ram_pa + 4 * MiB));
	assert_int_equal(memmap_bank(1)->end_pfn, PHYS_PFN(ram_pa + RAM_SIZE));
	assert_false(pfn_valid(PHYS_PFN(HOLE_PA)));
	assert_true(PageReserved(pfn_to_page(PHYS_PFN(KERNEL_PA))));
	assert_false(PageReserved(pfn_to_page(PHYS_PFN(USABLE_PA))));
}

static void ktest_suites_pass(void **state)
{
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "pageflags*");

	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	assert_console_has("1..2\n");
	assert_console_has(" pageflags\n");		/* host link order decides the numbers */
	assert_console_has(" pageflags_memmap\n");
	assert_null(strstr(shim_console, "not ok"));
	assert_console_has("# totals: pass:11 fail:0 skip:0\n");
	/* One policy report shown in full (the first: a tail page used as a folio), the rest muted. */
	assert_console_has("page dumped because: page flag policy: locked: "
			   "folio pointer is a tail page\n");
	assert_console_has("kernel BUG at ");
	const char *first = strstr(shim_console, "page dumped because: page flag policy:");
	assert_null(strstr(first + 1, "page dumped because:"));
	assert_int_equal(console_loglevel, 7);
}

/* dump_page() through printk: timestamped lines; a page outside the memmap has no pfn. */
static void dump_page_of_a_hand_made_page(void **state)
{
	static struct page p;

	memset(&p, 0, sizeof(p));
	p.flags = 1UL << PG_locked | 1UL << PG_dirty;
	set_page_links(&p, ZONE_NORMAL, 2);
	p.mapping = (struct address_space *)0x12340;
	p.index = 7;
	p.private = 0xabc;
	atomic_set(&p._mapcount, 0);
	atomic_set(&p._refcount, 3);
	shim_console_reset();
	dump_page(&p, "testing");
	assert_string_equal(shim_console,
		"[    0.000000] page: refcount:3 mapcount:1 mapping:0000000000012340 index:0x7 pfn:?\n"
		"[    0.000000] flags: 0x6000000000000011(locked|dirty|node=2|zone=1)\n"
		"[    0.000000] raw: 6000000000000011 0000000000000000 0000000000012340 0000000000000007\n"
		"[    0.000000] raw: 0000000000000abc 0000000300000000\n"
		"[    0.000000] page dumped because: testing\n");
	/* No reason, no last line; a zero index and flags word are 0x0, as Linux's %#lx. */
	memset(&p, 0, sizeof(p));
	shim_console_reset();
	dump_page(&p, NULL);
	assert_string_equal(shim_console,
		"[    0.000000] page: refcount:0 mapcount:1 mapping:0000000000000000 index:0x0 pfn:?\n"
		"[    0.000000] flags: 0x0(node=0|zone=0)\n"
		"[    0.000000] raw: 0000000000000000 0000000000000000 0000000000000000 0000000000000000\n"
		"[    0.000000] raw: 0000000000000000 0000000000000000\n");
	/* A typed page (v6.10's encoding: the type is a cleared bit): mapcount 0, a page_type line. */
	static const struct { unsigned int type; const char *text; } types[] = {
		{ 0xffffff7f, "0xffffff7f(buddy)" }, { 0xfffffe7f, "0xfffffe7f(buddy|offline)" },
		{ 0xfffffeff, "0xfffffeff(offline)" },
		/* v6.10's PG_guard (0x400): a type tinymm does not have, printed as a number */
		{ 0xfffffb7f, "0xfffffb7f(buddy|0x400)" }, { 0xfffffbff, "0xfffffbff(0x400)" },
	};
	for (unsigned int i = 0; i < ARRAY_SIZE(types); i++) {
		char want[512];
		memset(&p, 0, sizeof(p));
		set_page_links(&p, ZONE_NORMAL, 0);
		p.page_type = types[i].type;
		p.private = 3;
		shim_console_reset();
		dump_page(&p, "typed");
		snprintf(want, sizeof(want),
			 "[    0.000000] page: refcount:0 mapcount:0 mapping:0000000000000000 "
			 "index:0x0 pfn:?\n"
			 "[    0.000000] flags: 0x4000000000000000(node=0|zone=1)\n"
			 "[    0.000000] page_type: %s\n"
			 "[    0.000000] raw: 4000000000000000 0000000000000000 0000000000000000 "
			 "0000000000000000\n"
			 "[    0.000000] raw: 0000000000000003 00000000%08x\n"
			 "[    0.000000] page dumped because: typed\n", types[i].text, types[i].type);
		assert_string_equal(shim_console, want);
	}
}

/* A hand-made order-1 folio on two memmap pages, dumped bare by `page` through its tail. */
static void page_command_on_a_tail_page(void **state)
{
	unsigned long pfn = PHYS_PFN(USABLE_PA);
	struct page *head = pfn_to_page(pfn), saved[2];
	char cmd[64], want[1024];

	memcpy(saved, head, sizeof(saved));
	prep_compound_page(head, 1);
	head->index = 0x10;
	atomic_set(&head->_refcount, 1);
	snprintf(cmd, sizeof(cmd), "page %#lx", pfn + 1);
	assert_int_equal(shim_run(cmd), 0);
	unsigned long ch = (unsigned long)head + 1;
	snprintf(want, sizeof(want),
		 "page: refcount:1 mapcount:0 mapping:0000000000000000 index:0x11 pfn:%#lx\n"
		 "head: order:1 mapcount:0 entire_mapcount:0 nr_pages_mapped:0 pincount:0\n"
		 "flags: 0x4000000000000040(head|node=0|zone=1)\n"
		 "raw: 4000000000000001 %016lx 0000000000000000 0000000000000000\n"
		 "raw: 0000000000000000 00000000ffffffff\n"
		 "head: 4000000000000040 0000000000000000 0000000000000000 0000000000000010\n"
		 "head: 0000000000000000 00000001ffffffff 4000000000000001 %016lx\n"
		 "head: 0000000000000000 0000000000000000 0000000000000000 00000000ffffffff\n"
		 "page dumped because: page command\n", pfn + 1, ch, ch);
	assert_string_equal(shim_console, want);
	memcpy(head, saved, sizeof(saved));
}

static void page_command_on_the_kernel_and_bad_pfns(void **state)
{
	unsigned long kpfn = PHYS_PFN(KERNEL_PA);
	char cmd[64], want[512];

	snprintf(cmd, sizeof(cmd), "page %#lx", kpfn);
	assert_int_equal(shim_run(cmd), 0);
	snprintf(want, sizeof(want),
		 "page: refcount:1 mapcount:0 mapping:0000000000000000 index:0x0 pfn:%#lx\n"
		 "flags: 0x4000000000001000(reserved|node=0|zone=1)\n"
		 "raw: 4000000000001000 0000000000000000 0000000000000000 0000000000000000\n"
		 "raw: 0000000000000000 00000001ffffffff\n"
		 "page dumped because: page command\n", kpfn);
	assert_string_equal(shim_console, want);
	snprintf(cmd, sizeof(cmd), "page %lu", kpfn);		/* decimal too */
	assert_int_equal(shim_run(cmd), 0);
	assert_string_equal(shim_console, want);

	assert_int_equal(shim_run("page 0xdeadbeef"), 1);
	assert_string_equal(shim_console, "page: pfn 0xdeadbeef is not valid (hole or beyond memory)\n");
	snprintf(cmd, sizeof(cmd), "page %#lx", PHYS_PFN(HOLE_PA));
	assert_int_equal(shim_run(cmd), 1);
	snprintf(want, sizeof(want), "page: pfn %#lx is not valid (hole or beyond memory)\n",
		 PHYS_PFN(HOLE_PA));
	assert_string_equal(shim_console, want);
	snprintf(cmd, sizeof(cmd), "page %#lx", PHYS_PFN(ram_pa + RAM_SIZE));
	assert_int_equal(shim_run(cmd), 1);

	static const char *const usage[] = { "page", "page x", "page 0x", "page -1", "page 12abc",
		"page 1 2", "page 99999999999999999999" };
	for (unsigned int i = 0; i < ARRAY_SIZE(usage); i++) {
		assert_int_equal(shim_run(usage[i]), 2);
		assert_string_equal(shim_console, "page: usage: page <pfn>\n");
	}
}

/* The row of @name in the last `page-flags` output ends in two blanks and @used_by. */
static void assert_used_by(const char *name, const char *used_by)
{
	char key[40], tail[128];

	snprintf(key, sizeof(key), "\n%s ", name);
	const char *line = strstr(shim_console, key);
	assert_non_null(line);
	line++;
	const char *end = strchr(line, '\n');
	assert_non_null(end);
	int n = snprintf(tail, sizeof(tail), "  %s", used_by);
	if (end - line < n || memcmp(end - n, tail, (size_t)n)) {
		fprintf(stderr, "the row of %s: %.*s\ndoes not end in \"%s\"\n", name, (int)(end - line),
			line, tail);
		fail();
	}
}

/* Every row of pageflag_table, with Linux's aliases named independently here. */
static void page_flags_command_lists_every_name(void **state)
{
	static const struct { const char *name, *alias_of; } aliases[] = {
		{ "checked", "owner_priv_1" }, { "swapcache", "owner_priv_1" },
		{ "dcache_clean", "arch_1" }, { "anon_exclusive", "mappedtodisk" },
		{ "readahead", "reclaim" }, { "isolated", "reclaim" }, { "reported", "uptodate" },
		{ "has_hwpoisoned", "active" }, { "large_rmappable", "workingset" },
	};
	unsigned int rows = 0, nr_alias = 0;

	assert_int_equal(shim_run("page-flags"), 0);
	char *out = strdup(shim_console), *save = NULL;
	char *line = strtok_r(out, "\n", &save);
	/* meaning is padded to the longest; used by, one blank-free word, comes last */
	size_t width = 0;
	for (unsigned int i = 0; i < pageflag_table_len; i++)
		width = strlen(pageflag_table[i].meaning) > width ? strlen(pageflag_table[i].meaning) : width;
	const size_t used_col = 16 + 1 + 3 + 2 + 13 + 1 + 15 + 1 + width + 2;
	char header[256];
	snprintf(header, sizeof(header), "name             bit  alias of      policy          %-*s  used by",
		 (int)width, "meaning");
	assert_string_equal(line, header);
	while ((line = strtok_r(NULL, "\n", &save))) {
		char name[32], alias[32], policy[32];
		int bit, used = 0;
		int n = sscanf(line, "%31s %d %31s %31s %n", name, &bit, alias, policy, &used);
		assert_int_equal(n, 4);
		const struct pageflag_info *f = &pageflag_table[rows++];
		assert_string_equal(name, f->name);
		assert_int_equal(bit, want_bit(name));
		assert_string_equal(policy, pf_policy_name(f->policy));
		assert_true(strlen(line) > used_col);
		assert_string_equal(line + used_col, f->used_by);
		assert_memory_equal(line + used_col - 2, "  ", 2);
		size_t mlen = used_col - 2 - (size_t)used;
		while (mlen && line[used + mlen - 1] == ' ')
			mlen--;
		assert_int_equal(mlen, strlen(f->meaning));
		assert_memory_equal(line + used, f->meaning, mlen);
		const char *want_alias = "-";
		for (unsigned int i = 0; i < ARRAY_SIZE(aliases); i++)
			if (!strcmp(aliases[i].name, name))
				want_alias = aliases[i].alias_of, nr_alias++;
		assert_string_equal(alias, want_alias);
	}
	assert_int_equal(rows, pageflag_table_len);
	assert_int_equal(nr_alias, ARRAY_SIZE(aliases));
	free(out);
	assert_console_has("\nreported           3  uptodate      PF_NO_COMPOUND  free (buddy) page");
	assert_console_has("\nowner_priv_1      10  -             PF_ANY          the owner's: checked");
	/* used by, written out here: the flags the issue lists as set by nothing outside tests
	 * (arch_2, arch_3 and private_2 have no user on these architectures at all), and some that
	 * are set, buffer heads' two, anonymous memory's two, ext2's PG_checked and idle tracking's
	 * young and idle (host.pageflags_users holds the whole
	 * column to the code) */
	static const char *const unused[] = { "arch_1",
		"arch_2", "arch_3", "private_2" };
	for (unsigned int i = 0; i < ARRAY_SIZE(unused); i++)
		assert_used_by(unused[i], "-");
	assert_used_by("isolated", "mm/migrate.c");	/* movable pages (docs/migration.md) */
	assert_used_by("reserved", "mm/memmap.c,mm/mm_init.c");
	assert_used_by("mlocked", "mm/mlock.c");
	assert_used_by("dcache_clean", "arch/arm/cacheflush.c,arch/riscv/cacheflush.c");
	assert_used_by("uncached", "mm/vmalloc.c");
	assert_used_by("private", "include/tinymm/pagemap.h:folio_attach_private");
	assert_used_by("mappedtodisk", "fs/buffer_aops.c");
	assert_used_by("anon_exclusive", "mm/rmap.c,mm/memory.c");
	assert_used_by("swapbacked", "mm/migrate.c,mm/rmap.c,mm/swap_state.c");
	assert_used_by("swapcache", "mm/migrate.c,mm/swap_state.c");	/* the swap cache (docs/swap.md) */
	assert_used_by("checked", "fs/ext2/dir.c");
	assert_used_by("young", "mm/page_idle.c");	/* idle page tracking (docs/page_idle.md) */
	assert_used_by("idle", "mm/page_idle.c");
	assert_used_by("locked", "include/tinymm/pagemap.h:folio_trylock,mm/filemap.c,mm/migrate.c,mm/slab.h:slab_lock,mm/swap_state.c");
	assert_int_equal(shim_run("page-flags now"), 2);
	assert_string_equal(shim_console, "page-flags: unexpected argument 'now'\n");
	assert_int_equal(shim_run("help page-flags"), 0);
	assert_console_has("page-flags\n    the page flags: bit, alias, policy, meaning and the code that "
			   "sets each name\n");
}

/*
 * memmap_init fills run by run; the rule it must keep is per frame: a frame is usable exactly
 * when the region holding its first byte is usable (frames between regions are reserved).
 * Unaligned banks and reservations put that rule on every edge; the last test, it rebuilds the
 * memmap of the group's layout when done.
 */
static void memmap_types_follow_first_byte(void **state)
{
	memblock_reset();
	assert_int_equal(memblock_add(ram_pa + 0x800, 3 * MiB - 0x1000, NULL), 0);	/* both ends mid-frame */
	assert_int_equal(memblock_add(ram_pa + 3 * MiB + 0x1100, 0x2f00, NULL), 0);	/* a short bank */
	assert_int_equal(memblock_add(ram_pa + 4 * MiB, 4 * MiB, NULL), 0);
	memblock_reserve(ram_pa + 0x10800, 0x1000, MEMBLOCK_KERNEL);	/* straddles two frames */
	memblock_reserve(ram_pa + 0x20fff, 1, MEMBLOCK_DTB);		/* one byte at a frame's end */
	memblock_reserve(ram_pa + 5 * MiB, 0x3000, MEMBLOCK_DTB);
	assert_int_equal(memmap_init(), 0);
	assert_int_equal(memmap_nr_banks(), 3);
	unsigned long frames = 0, wrong = 0;
	for (int b = 0; b < memmap_nr_banks(); b++) {
		for (unsigned long pfn = memmap_bank(b)->start_pfn; pfn < memmap_bank(b)->end_pfn; pfn++) {
			bool usable = false;
			for (int i = 0; i < memblock_count(); i++) {
				const struct memblock_region *r = memblock_region(i);
				if (PFN_PHYS(pfn) >= r->base && PFN_PHYS(pfn) < r->base + r->size)
					usable = r->type == MEMBLOCK_USABLE;
			}
			struct page *page = pfn_to_page(pfn);
			assert_non_null(page);
			if (PageReserved(page) == usable || page_ref_count(page) != !usable ||
			    page_mapcount(page) != 0 || page->mapping || page_zonenum(page) != ZONE_NORMAL) {
				fprintf(stderr, "pfn %#lx: reserved %d, usable by the rule %d\n", pfn,
					PageReserved(page), usable);
				wrong++;
			}
			frames++;
		}
	}
	assert_int_equal(wrong, 0);
	assert_true(frames > 1500);
	/* Some of each, and the edges as the rule says: bank 0's first frame holds no RAM byte at
	 * its start (reserved), the kernel's two frames and the DTB byte's frame are reserved. */
	assert_true(PageReserved(pfn_to_page(PHYS_PFN(ram_pa))));
	assert_false(PageReserved(pfn_to_page(PHYS_PFN(ram_pa) + 1)));
	assert_true(PageReserved(pfn_to_page(PHYS_PFN(ram_pa) + 0x11)));
	assert_false(PageReserved(pfn_to_page(PHYS_PFN(ram_pa) + 0x12)));
	assert_false(PageReserved(pfn_to_page(PHYS_PFN(ram_pa) + 0x20)));	/* its first byte is usable */
	assert_int_equal(ram_teardown(state), 0);
	assert_int_equal(ram_setup(state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memmap_is_two_banks),
		cmocka_unit_test(ktest_suites_pass),
		cmocka_unit_test(dump_page_of_a_hand_made_page),
		cmocka_unit_test(page_command_on_a_tail_page),
		cmocka_unit_test(page_command_on_the_kernel_and_bad_pfns),
		cmocka_unit_test(page_flags_command_lists_every_name),
		cmocka_unit_test(memmap_types_follow_first_byte),
	};
	return cmocka_run_group_tests(tests, ram_setup, ram_teardown);
}
