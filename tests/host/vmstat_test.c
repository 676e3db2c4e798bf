/*
 * vmstat_test.c - the allocator's text commands (mm/vmstat.c, mm/vmstat_show.c): buddyinfo,
 * pagetypeinfo, zoneinfo and fragmap, byte for byte, over a real memmap and buddy allocator built
 * on fake RAM carved from host memory (tinymm's __va is the identity on the host).
 *
 * The expected text is computed from a model kept by the test, not read back from the allocator:
 * every frame is a hole, reserved, free or used (from the layout and from what `alloc` printed),
 * each pageblock has the migratetype Linux's rules give it, free blocks are the unique maximal
 * buddy decomposition of the free frames, and the watermarks follow v6.10's formula.  Layout
 * headers and the fixed lines are written out literally.  Per-CPU lists are drained before every
 * comparison (their frames are off the buddy lists, as in Linux).
 */
#include "test.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/shell.h"
#include "../../mm/internal.h"

/* mm/vmstat_show.c's table (no header declares it yet): naming it also links that file's
 * commands into this test, which a static library would otherwise leave out. */
extern const char *const migratetype_names[MIGRATE_TYPES];

#define MIB		(1UL << 20)
#define BLOCK_FRAMES	1024UL			/* pageblock_nr_pages */
#define BLOCK_BYTES	(BLOCK_FRAMES * PAGE_SIZE)	/* 4 MiB */
#define RAM_BLOCKS	68UL			/* 272 MiB of address space, mostly never touched */
#define RAM_FRAMES	(RAM_BLOCKS * BLOCK_FRAMES)

static char *ram;
static unsigned long pfn0;		/* frame of ram[0]: pageblock aligned */

enum { F_HOLE, F_RESERVED, F_FREE, F_USED };
static unsigned char frame[RAM_FRAMES];	/* the model, indexed by pfn - pfn0 */
static int block_mt[RAM_BLOCKS];
static unsigned long dma_end;		/* model: first pfn of ZONE_NORMAL (pfn0 + offset) */
static unsigned long first_pfn, last_pfn;	/* model: [first RAM frame, last RAM frame + 1) */
static char want[1 << 16], cmd[SHELL_LINE_MAX];

static int group_setup(void **state)
{
	ram = aligned_alloc(BLOCK_BYTES, RAM_BLOCKS * BLOCK_BYTES);
	pfn0 = (unsigned long)((uintptr_t)ram >> PAGE_SHIFT);
	return ram ? 0 : -1;
}

static int group_teardown(void **state)
{
	free(ram);
	return 0;
}

struct range { unsigned long off, size; };	/* bytes from ram[0] */

/*
 * Boot the allocator over @banks (each a RAM bank) with @res reserved (MEMBLOCK_KERNEL for the
 * first, MEMBLOCK_RESERVED for the others), ZONE_DMA below @dma (0: no ZONE_DMA).  Then the model:
 * every memblock region of RAM is free (usable) or reserved; everything else a hole.
 */
static void boot(const struct range *banks, int nbanks, const struct range *res, int nres,
		 unsigned long dma)
{
	phys_addr_t pa = (uintptr_t)ram;

	memblock_reset();
	for (int i = 0; i < nbanks; i++)
		assert_int_equal(memblock_add(pa + banks[i].off, banks[i].size, NULL), 0);
	for (int i = 0; i < nres; i++)
		memblock_reserve(pa + res[i].off, res[i].size, i ? MEMBLOCK_RESERVED : MEMBLOCK_KERNEL);
	zone_dma_limit = dma ? pa + dma : 0;
	assert_int_equal(memmap_init(), 0);
	assert_int_equal(page_alloc_init(), 0);

	memset(frame, F_HOLE, sizeof(frame));
	for (int i = 0; i < memblock_count(); i++) {
		const struct memblock_region *r = memblock_region(i);
		for (phys_addr_t a = r->base; a < r->base + r->size; a += PAGE_SIZE)
			frame[(a - pa) >> PAGE_SHIFT] = r->type == MEMBLOCK_USABLE ? F_FREE : F_RESERVED;
	}
	for (unsigned long b = 0; b < RAM_BLOCKS; b++)
		block_mt[b] = MIGRATE_MOVABLE;
	first_pfn = pfn0 + (banks[0].off >> PAGE_SHIFT);
	last_pfn = pfn0 + ((banks[nbanks - 1].off + banks[nbanks - 1].size) >> PAGE_SHIFT);
	dma_end = dma ? pfn0 + (dma >> PAGE_SHIFT) : first_pfn;
	assert_int_equal(buddy_check(NULL), 0);
}

static int run(const char *line)
{
	snprintf(cmd, sizeof(cmd), "%s", line);
	shim_console_reset();
	return shell_exec(__shell_cmds_start, __shell_cmds_end, cmd);
}

static void add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void add(const char *fmt, ...)
{
	size_t n = strlen(want);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want + n, sizeof(want) - n, fmt, ap);
	va_end(ap);
}

#define assert_output(line, expected)								\
	do {											\
		assert_int_equal(run(line), 0);							\
		if (strcmp(shim_console, (expected))) {						\
			fprintf(stderr, "'%s' printed:\n%s--- expected:\n%s---\n", (line), shim_console, \
				(expected));							\
			fail();									\
		}										\
	} while (0)

/* ---- the model ---- */

struct zone_model { const char *name; unsigned long start, end; };

static int model_zones(struct zone_model *zm)
{
	int n = 0;

	if (dma_end > first_pfn)
		zm[n++] = (struct zone_model){ "DMA", first_pfn, dma_end };
	zm[n++] = (struct zone_model){ "Normal", dma_end, last_pfn };
	return n;
}

static unsigned char fstate(unsigned long pfn)
{
	return frame[pfn - pfn0];
}

static bool all_free(unsigned long pfn, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (fstate(pfn + i) != F_FREE)
			return false;
	return true;
}

/* The maximal buddy decomposition of the free frames of [start, end): count[mt][order]. */
static void split(const struct zone_model *z, unsigned long pfn, unsigned int o,
		  unsigned long count[MIGRATE_TYPES][NR_PAGE_ORDERS])
{
	if (pfn >= z->start && pfn + (1UL << o) <= z->end && all_free(pfn, 1UL << o)) {
		count[block_mt[(pfn - pfn0) / BLOCK_FRAMES]][o]++;
		return;
	}
	if (o && pfn + (1UL << o) > z->start && pfn < z->end) {
		split(z, pfn, o - 1, count);
		split(z, pfn + (1UL << (o - 1)), o - 1, count);
	}
}

static void decompose(const struct zone_model *z, unsigned long count[MIGRATE_TYPES][NR_PAGE_ORDERS])
{
	memset(count, 0, sizeof(unsigned long) * MIGRATE_TYPES * NR_PAGE_ORDERS);
	for (unsigned long b = z->start & ~(BLOCK_FRAMES - 1); b < z->end; b += BLOCK_FRAMES)
		split(z, b, MAX_PAGE_ORDER, count);
}

static unsigned long count_frames(const struct zone_model *z, int state)
{
	unsigned long n = 0;

	for (unsigned long pfn = z->start; pfn < z->end; pfn++)
		n += state < 0 ? fstate(pfn) != F_HOLE : fstate(pfn) == state;
	return n;
}

/* Frames free or used: what boot handed to the allocator (nothing here frees a reserved one). */
static unsigned long managed(const struct zone_model *z)
{
	return count_frames(z, F_FREE) + count_frames(z, F_USED);
}

static void want_buddyinfo(void)
{
	struct zone_model zm[2];
	int n = model_zones(zm);

	want[0] = '\0';
	for (int i = 0; i < n; i++) {
		unsigned long c[MIGRATE_TYPES][NR_PAGE_ORDERS];
		decompose(&zm[i], c);
		add("Node 0, zone %8s ", zm[i].name);
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			add("%6lu ", c[0][o] + c[1][o] + c[2][o]);
		add("\n");
	}
}

static void want_pagetypeinfo(void)
{
	static const char *const types[] = { "Unmovable", "Movable", "Reclaimable" };
	struct zone_model zm[2];
	int n = model_zones(zm);

	want[0] = '\0';
	add("Page block order: 10\nPages per block:  1024\n\n"
	    "Free pages count per migrate type at order       0      1      2      3      4      5      6"
	    "      7      8      9     10 \n");
	for (int i = 0; i < n; i++) {
		unsigned long c[MIGRATE_TYPES][NR_PAGE_ORDERS];
		decompose(&zm[i], c);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			add("Node    0, zone %8s, type %12s ", zm[i].name, types[mt]);
			for (int o = 0; o < NR_PAGE_ORDERS; o++)
				add("%6lu ", c[mt][o]);
			add("\n");
		}
	}
	add("\nNumber of blocks type     Unmovable      Movable  Reclaimable \n");
	for (int i = 0; i < n; i++) {
		unsigned long blocks[MIGRATE_TYPES] = { 0 };
		for (unsigned long b = zm[i].start & ~(BLOCK_FRAMES - 1); b < zm[i].end; b += BLOCK_FRAMES) {
			bool present = false;
			for (unsigned long pfn = max(b, zm[i].start); pfn < min(b + BLOCK_FRAMES, zm[i].end); pfn++)
				present |= fstate(pfn) != F_HOLE;
			if (present)
				blocks[block_mt[(b - pfn0) / BLOCK_FRAMES]]++;
		}
		add("Node 0, zone %8s %12lu %12lu %12lu \n", zm[i].name, blocks[0], blocks[1], blocks[2]);
	}
}

static unsigned long isqrt(unsigned long x)
{
	unsigned long r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/* Linux's init_per_zone_wmark_min() and __setup_per_zone_wmarks() for one zone. */
static void watermarks(const struct zone_model *zm, int n, int i, unsigned long wm[3])
{
	unsigned long total = 0;

	for (int k = 0; k < n; k++)
		total += managed(&zm[k]);
	unsigned long min_kbytes = isqrt(total * 4 * 16);
	min_kbytes = min_kbytes < 128 ? 128 : min_kbytes > 262144 ? 262144 : min_kbytes;
	unsigned long tmp = (min_kbytes / 4) * managed(&zm[i]) / total;
	unsigned long gap = max(tmp / 4, managed(&zm[i]) * 10 / 10000);
	wm[0] = tmp;
	wm[1] = tmp + gap;
	wm[2] = tmp + 2 * gap;
}

static void want_zoneinfo_zone(const char *name, unsigned long free, const unsigned long wm[3],
			       unsigned long spanned, unsigned long present, unsigned long managed_,
			       unsigned long reserve)
{
	add("Node 0, zone %8s\n"
	    "  pages free     %lu\n"
	    "        boost    0\n"
	    "        min      %lu\n"
	    "        low      %lu\n"
	    "        high     %lu\n"
	    "        spanned  %lu\n"
	    "        present  %lu\n"
	    "        managed  %lu\n"
	    "        cma      0\n"
	    "        protection: (0, %lu, %lu)\n", name, free, wm[0], wm[1], wm[2], spanned, present,
	    managed_, reserve, reserve);
}

static void want_zoneinfo(void)
{
	static const unsigned long none[3];
	struct zone_model zm[2];
	int n = model_zones(zm);

	want[0] = '\0';
	if (n == 1)
		want_zoneinfo_zone("DMA", 0, none, 0, 0, 0, 0);
	for (int i = 0; i < n; i++) {
		unsigned long wm[3], free = count_frames(&zm[i], F_FREE);
		watermarks(zm, n, i, wm);
		/* Linux's lowmem reserve: ZONE_DMA keeps 1/256 of Normal's managed frames back. */
		unsigned long reserve = (n == 2 && i == 0) ? managed(&zm[1]) / 256 : 0;
		want_zoneinfo_zone(zm[i].name, free, wm, zm[i].end - zm[i].start, count_frames(&zm[i], -1),
				   managed(&zm[i]), reserve);
		/* The per-CPU lists were drained: count 0; high and batch are pcp.c's choice. */
		const struct per_cpu_pages *pcp = &zones[i + (n == 1)].pcp[0];
		add("      nr_free_pages %lu\n"
		    "  pagesets\n"
		    "    cpu: 0\n"
		    "              count: 0\n"
		    "              high:  %d\n"
		    "              batch: %d\n"
		    "  start_pfn:           %lu\n", free, pcp->high, pcp->batch, zm[i].start);
	}
	want_zoneinfo_zone("Movable", 0, none, 0, 0, 0, 0);
}

static char block_char(const struct zone_model *z, unsigned long b)
{
	unsigned long present = 0, free = 0, used = 0;

	for (unsigned long pfn = max(b, z->start); pfn < min(b + BLOCK_FRAMES, z->end); pfn++) {
		present += fstate(pfn) != F_HOLE;
		free += fstate(pfn) == F_FREE;
		used += fstate(pfn) == F_USED;
	}
	if (!present)
		return '_';
	if (free == present)
		return '.';
	if (!free && !used)
		return '#';
	char c = "UMR"[block_mt[(b - pfn0) / BLOCK_FRAMES]];
	return free ? (char)(c - 'A' + 'a') : c;
}

static void want_fragmap(int only)
{
	struct zone_model zm[2];
	int n = model_zones(zm);

	want[0] = '\0';
	add("legend: . free  U M R in use (Unmovable Movable Reclaimable block)  u m r partly free"
	    "  # reserved  _ no memory\n");
	for (int i = 0; i < n; i++) {
		if (only >= 0 && only != i)
			continue;
		unsigned long first = zm[i].start & ~(BLOCK_FRAMES - 1);
		unsigned long nb = (zm[i].end - first + BLOCK_FRAMES - 1) / BLOCK_FRAMES;
		add("Node 0, zone %8s: pfn %#lx-%#lx, %lu pageblocks of 1024 frames\n", zm[i].name,
		    zm[i].start, zm[i].end - 1, nb);
		for (unsigned long b = 0; b < nb; b++) {
			if (b % 64 == 0)
				add("0x%08lx ", first + b * BLOCK_FRAMES);
			add("%c", block_char(&zm[i], first + b * BLOCK_FRAMES));
			if (b % 64 == 63 || b == nb - 1)
				add("\n");
		}
	}
}

static void check_all(void)
{
	drain_all_pages(NULL);
	assert_int_equal(buddy_check(printf), 0);
	want_buddyinfo();
	assert_output("buddyinfo", want);
	want_pagetypeinfo();
	assert_output("pagetypeinfo", want);
	want_zoneinfo();
	assert_output("zoneinfo", want);
	want_fragmap(-1);
	assert_output("fragmap", want);
}

/* `alloc <order>`: the pfn it printed, the model's frames marked used. */
static unsigned long alloc_cmd(unsigned int order)
{
	unsigned long pfn, o;
	char line[32];

	snprintf(line, sizeof(line), "alloc %u", order);
	assert_int_equal(run(line), 0);
	assert_int_equal(sscanf(shim_console, "alloc: order %lu pfn %lx\n", &o, &pfn), 2);
	assert_int_equal(o, order);
	assert_true(pfn >= pfn0 && pfn + (1UL << order) <= pfn0 + RAM_FRAMES);
	for (unsigned long i = 0; i < (1UL << order); i++) {
		assert_int_equal(fstate(pfn + i), F_FREE);
		frame[pfn + i - pfn0] = F_USED;
	}
	return pfn;
}

static void free_cmd(unsigned long pfn, unsigned int order)
{
	char line[64];

	snprintf(line, sizeof(line), "free %#lx %u", pfn, order);
	assert_int_equal(run(line), 0);
	assert_string_equal(shim_console, "");
	for (unsigned long i = 0; i < (1UL << order); i++)
		frame[pfn + i - pfn0] = F_FREE;
}

static int block_of(unsigned long pfn)
{
	return (int)((pfn - pfn0) / BLOCK_FRAMES);
}

/* ---- the tests ---- */

/*
 * One zone over five pageblocks: [0] the kernel's 64K then free, [1] reserved whole, [2] free,
 * [3] a hole, [4] free under the memmap and pageblock tables memblock put at the top.
 */
static const struct range five_banks[] = { { 0, 12 * MIB }, { 16 * MIB, 4 * MIB } };
static const struct range five_res[] = { { 0, 0x10000 }, { 4 * MIB, 4 * MIB } };

static void fixed_lines_are_linux_text(void **state)
{
	boot(five_banks, 2, five_res, 2, 0);
	char base[32];

	/* The picture written out by hand, as a person reads it. */
	snprintf(base, sizeof(base), "0x%08lx ", pfn0);
	assert_int_equal(run("fragmap"), 0);
	assert_non_null(strstr(shim_console, "\n"));
	char line[128];
	snprintf(line, sizeof(line), "\n%sm#._m\n", base);
	assert_console_has(line);
	snprintf(line, sizeof(line), "Node 0, zone   Normal: pfn %#lx-%#lx, 5 pageblocks of 1024 frames\n",
		 pfn0, pfn0 + 5 * BLOCK_FRAMES - 1);
	assert_console_has(line);
	/* Linux's header and column widths, literally. */
	assert_int_equal(run("pagetypeinfo"), 0);
	assert_console_has("Page block order: 10\nPages per block:  1024\n\n"
			   "Free pages count per migrate type at order       0      1      2      3      4"
			   "      5      6      7      8      9     10 \n"
			   "Node    0, zone   Normal, type    Unmovable      0      0      0      0      0"
			   "      0      0      0      0      0      0 \n");
	assert_console_has("\nNumber of blocks type     Unmovable      Movable  Reclaimable \n"
			   "Node 0, zone   Normal            0            4            0 \n");
	assert_int_equal(run("zoneinfo"), 0);
	const char *dma = "Node 0, zone      DMA\n  pages free     0\n        boost    0\n";
	assert_true(strncmp(shim_console, dma, strlen(dma)) == 0);
	assert_console_has("\nNode 0, zone   Normal\n  pages free     ");
	assert_console_has("\n        cma      0\n        protection: (0, 0, 0)\n      nr_free_pages ");
	assert_console_has("\n  pagesets\n    cpu: 0\n              count: 0\n              high:  ");
	snprintf(line, sizeof(line), "\n  start_pfn:           %lu\nNode 0, zone  Movable\n", pfn0);
	assert_console_has(line);
	/* The Movable zone is empty: its block ends at protection. */
	assert_true(strlen(shim_console) > 30 &&
		    !strcmp(shim_console + strlen(shim_console) - 30, "        protection: (0, 0, 0)\n"));
	check_all();
}

static void one_zone_through_allocations(void **state)
{
	boot(five_banks, 2, five_res, 2, 0);
	check_all();

	/* An unmovable order-10 block: only block 2 is wholly free; the fallback takes it over. */
	unsigned long big = alloc_cmd(10);
	assert_int_equal(block_of(big), 2);
	block_mt[2] = MIGRATE_UNMOVABLE;
	check_all();
	assert_int_equal(run("fragmap"), 0);
	char line[128];
	snprintf(line, sizeof(line), "\n0x%08lx m#U_m\n", pfn0);
	assert_console_has(line);

	/* One unmovable frame: nothing unmovable is free, so a big movable block is taken over. */
	unsigned long one = alloc_cmd(0);
	assert_true(block_of(one) == 0 || block_of(one) == 4);
	assert_int_equal(get_pageblock_migratetype(&zones[ZONE_NORMAL], one), MIGRATE_UNMOVABLE);
	block_mt[block_of(one)] = MIGRATE_UNMOVABLE;
	check_all();

	/* Order 4 unmovable now comes from that block, without a fallback. */
	unsigned long four = alloc_cmd(4);
	assert_int_equal(block_of(four), block_of(one));
	check_all();

	/* A reclaimable frame: the fallback takes the largest free block of another type (unmovable
	 * first, then movable) and, that block being big, its whole pageblock. */
	struct page *rp = alloc_pages(GFP_KERNEL | __GFP_RECLAIMABLE, 0);
	assert_non_null(rp);
	unsigned long rpfn = page_to_pfn(rp);
	assert_int_equal(fstate(rpfn), F_FREE);
	frame[rpfn - pfn0] = F_USED;
	block_mt[block_of(rpfn)] = get_pageblock_migratetype(&zones[ZONE_NORMAL], rpfn);
	assert_int_equal(block_mt[block_of(rpfn)], MIGRATE_RECLAIMABLE);
	check_all();

	/* Everything back: the free lists are as at boot; the pageblocks keep their new types. */
	__free_pages(rp, 0);
	frame[rpfn - pfn0] = F_FREE;
	free_cmd(four, 4);
	free_cmd(one, 0);
	free_cmd(big, 10);
	check_all();
	assert_int_equal(block_mt[2], MIGRATE_UNMOVABLE);
	assert_int_equal(run("fragmap"), 0);
	snprintf(line, sizeof(line), "\n0x%08lx %c#._%c\n", pfn0, "umr"[block_mt[0]], "umr"[block_mt[4]]);
	assert_console_has(line);
}

/* Two zones: ZONE_DMA is pageblock 0 (with the kernel), ZONE_NORMAL blocks 1-3 (a hole at 2). */
static void two_zones_through_allocations(void **state)
{
	static const struct range banks[] = { { 0, 8 * MIB }, { 12 * MIB, 4 * MIB } };
	static const struct range res[] = { { 0, 0x10000 } };

	boot(banks, 2, res, 1, 4 * MIB);
	check_all();
	char line[160];
	assert_int_equal(run("fragmap"), 0);
	snprintf(line, sizeof(line), "Node 0, zone      DMA: pfn %#lx-%#lx, 1 pageblocks of 1024 frames\n"
		 "0x%08lx m\nNode 0, zone   Normal: pfn %#lx-%#lx, 3 pageblocks of 1024 frames\n"
		 "0x%08lx ._m\n", pfn0, pfn0 + 1023, pfn0, pfn0 + 1024, pfn0 + 4095, pfn0 + 1024);
	assert_console_has(line);

	/* GFP_KERNEL takes from ZONE_NORMAL first. */
	unsigned long a = alloc_cmd(10);
	assert_int_equal(block_of(a), 1);
	block_mt[1] = MIGRATE_UNMOVABLE;
	unsigned long b = alloc_cmd(0);
	assert_int_equal(block_of(b), 3);
	block_mt[3] = MIGRATE_UNMOVABLE;
	check_all();
	/* ZONE_DMA only for __GFP_DMA. */
	struct page *d = alloc_pages(GFP_KERNEL | GFP_DMA | __GFP_MOVABLE, 5);
	assert_non_null(d);
	unsigned long dpfn = page_to_pfn(d);
	assert_int_equal(block_of(dpfn), 0);
	for (unsigned long i = 0; i < 32; i++)
		frame[dpfn + i - pfn0] = F_USED;
	check_all();

	/* One zone by name, any case. */
	want_fragmap(0);
	assert_output("fragmap dma", want);
	want_fragmap(1);
	assert_output("fragmap Normal", want);

	__free_pages(d, 5);
	for (unsigned long i = 0; i < 32; i++)
		frame[dpfn + i - pfn0] = F_FREE;
	free_cmd(a, 10);
	free_cmd(b, 0);
	check_all();
}

/* 64 pageblocks a line, each line starting with its pfn: 68 blocks, RAM only in 0 and 66-67. */
static void fragmap_wraps_at_64_blocks(void **state)
{
	static const struct range banks[] = { { 0, 4 * MIB }, { 264 * MIB, 8 * MIB } };
	static const struct range res[] = { { 0, 0x10000 } };

	boot(banks, 2, res, 1, 0);
	check_all();
	char line[256];
	assert_int_equal(run("fragmap"), 0);
	snprintf(line, sizeof(line), "Node 0, zone   Normal: pfn %#lx-%#lx, 68 pageblocks of 1024 frames\n"
		 "0x%08lx m%.63s\n0x%08lx __.m\n", pfn0, pfn0 + RAM_FRAMES - 1, pfn0,
		 "_______________________________________________________________________________",
		 pfn0 + 64 * BLOCK_FRAMES);
	assert_console_has(line);
	/* The hole has no struct page: present counts RAM only, spanned the whole range. */
	assert_int_equal(run("zoneinfo"), 0);
	snprintf(line, sizeof(line), "        spanned  %lu\n        present  %lu\n", RAM_FRAMES, 3 * BLOCK_FRAMES);
	assert_console_has(line);
	assert_int_equal(run("pagetypeinfo"), 0);
	assert_console_has("Node 0, zone   Normal            0            3            0 \n");
}

static void bad_arguments(void **state)
{
	assert_string_equal(migratetype_names[MIGRATE_UNMOVABLE], "Unmovable");
	assert_string_equal(migratetype_names[MIGRATE_MOVABLE], "Movable");
	assert_string_equal(migratetype_names[MIGRATE_RECLAIMABLE], "Reclaimable");
	boot(five_banks, 2, five_res, 2, 0);
	assert_int_equal(run("pagetypeinfo now"), 2);
	assert_string_equal(shim_console, "pagetypeinfo: unexpected argument 'now'\n");
	assert_int_equal(run("zoneinfo 1"), 2);
	assert_string_equal(shim_console, "zoneinfo: unexpected argument '1'\n");
	assert_int_equal(run("fragmap Normal DMA"), 2);
	assert_string_equal(shim_console, "fragmap: usage: fragmap [zone]\n");
	assert_int_equal(run("fragmap HighMem"), 2);
	assert_string_equal(shim_console, "fragmap: no zone 'HighMem' (zones: DMA Normal Movable)\n");
	assert_int_equal(run("fragmap Movable"), 1);
	assert_string_equal(shim_console, "fragmap: zone Movable has no memory\n");
	assert_int_equal(run("fragmap dma"), 1);
	assert_string_equal(shim_console, "fragmap: zone DMA has no memory\n");
	/* The alphabet is in the help. */
	assert_int_equal(run("help fragmap"), 0);
	assert_console_has(". free, U/M/R in use (migratetype), u/m/r partly free, # reserved, _ hole");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixed_lines_are_linux_text),
		cmocka_unit_test(one_zone_through_allocations),
		cmocka_unit_test(two_zones_through_allocations),
		cmocka_unit_test(fragmap_wraps_at_64_blocks),
		cmocka_unit_test(bad_arguments),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
