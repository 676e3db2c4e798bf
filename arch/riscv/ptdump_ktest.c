/*
 * ptdump_ktest.c - suite `riscv_ptdump` (RISC-V only): arch/riscv/ptdump.c's lines, character
 * for character, against v6.10's arch/riscv/mm/ptdump.c format written out here by hand (not
 * computed by the code under test), and mm/ptdump.c's walk of swapper_pg_dir over real vmalloc
 * and vmap areas: every page of an area in the dump with its frame, its guard page absent, the
 * region markers in order, no line both writable and executable.  With Svpbmt (QEMU's
 * `-cpu rv64,svpbmt=on`) a write-combining and an uncached vmap print MT(NC) and MT(IO); the
 * lines of the real areas are echoed as KTAP diagnostics (`    # ptdump: ...`) so a CTest can
 * check them too (tests/qemu/mmu.cmake).  The walk reads the live tables.
 */
#include <stdarg.h>
#include "riscv.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/ptdump.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

#define RV64		(PGTABLE_LEVELS == 3)
#define NPAGES		4

/* What ptdump printed, caught through its pr callback. */
static char dump[16384];
static size_t dump_len;
static bool dump_overflow;

static int capture(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(dump + dump_len, sizeof(dump) - dump_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(dump) - dump_len) {
		dump_overflow = true;
		n = (int)(sizeof(dump) - 1 - dump_len);
	}
	dump_len += (size_t)n;
	return n;
}

static void capture_reset(void)
{
	dump_len = 0;
	dump[0] = '\0';
	dump_overflow = false;
}

/* One run through ptdump_print, compared with @want (the whole line). */
static void expect_line(struct ktest *t, unsigned long start, unsigned long end, int level,
			uint64_t val, phys_addr_t phys, const char *want)
{
	struct ptdump_run r = { .start = start, .end = end, .level = level,
				.attrs = ptdump_attrs(val, level), .val = val, .phys = phys };

	capture_reset();
	ptdump_print(&r, capture);
	KTEST_EXPECT_STREQ(t, dump, want);
}

#define PK	((uint64_t)pgprot_val(PAGE_KERNEL))
#define PKX	((uint64_t)pgprot_val(PAGE_KERNEL_EXEC))
#define U_X_R_V	((uint64_t)(_PAGE_USER | _PAGE_EXEC | _PAGE_READ | _PAGE_PRESENT))

static void line_format(struct ktest *t)
{
#if RV64
	expect_line(t, 0xffffffc600000000UL, 0xffffffc600004000UL, 4, PK, 0x87f3c000ULL,
		    "0xffffffc600000000-0xffffffc600004000    0x0000000087f3c000        16K PTE"
		    " .   ..     ..   D A G . . W R V\n");
	expect_line(t, 0xffffffd000200000UL, 0xffffffd000400000UL, 3, PKX, 0x80200000ULL,
		    "0xffffffd000200000-0xffffffd000400000    0x0000000080200000         2M PMD"
		    " .   ..     ..   D A G . X . R V\n");
	/* The columns that are clear in every kernel mapping, set: N, a PBMT type, RSW. */
	expect_line(t, 0x1000, 0x2000, 4, (1ULL << 63) | (2ULL << 61) | (2 << 8) | U_X_R_V,
		    0x1000, "0x0000000000001000-0x0000000000002000    0x0000000000001000"
		    "         4K PTE N MT(IO) RSW(2) . . . U X . R V\n");
	expect_line(t, 0x1000, 0x3000, 4, (1ULL << 61) | (1 << 8) | _PAGE_GLOBAL | _PAGE_PRESENT,
		    0x2000, "0x0000000000001000-0x0000000000003000    0x0000000000002000"
		    "         8K PTE . MT(NC) RSW(1) . . G . . . . V\n");
	expect_line(t, 0x1000, 0x2000, 4, (3ULL << 61) | (3 << 8) | _PAGE_DIRTY | _PAGE_PRESENT,
		    0x3000, "0x0000000000001000-0x0000000000002000    0x0000000000003000"
		    "         4K PTE . MT(?" "?) RSW(3) D . . . . . . V\n");
	/* Units, and the last region's end: 0 is the top of the address space. */
	expect_line(t, 0xffffffc000000000UL, 0xffffffc040000000UL, 3, PK, 0x80000000ULL,
		    "0xffffffc000000000-0xffffffc040000000    0x0000000080000000         1G PMD"
		    " .   ..     ..   D A G . . W R V\n");
	expect_line(t, 0xffffffffffa00000UL, 0, 3, PK, 0x80000000ULL,
		    "0xffffffffffa00000-0x0000000000000000    0x0000000080000000         6M PMD"
		    " .   ..     ..   D A G . . W R V\n");
#else
	expect_line(t, 0xc0000000UL, 0xc0004000UL, 4, PK, 0x87f3c000ULL,
		    "0xc0000000-0xc0004000    0x87f3c000        16K PTE   ..   D A G . . W R V\n");
	/* An Sv32 megapage: the folded pmd is the pgd, and v6.10 names it so. */
	expect_line(t, 0x80400000UL, 0x80800000UL, 3, PKX, 0x80400000ULL,
		    "0x80400000-0x80800000    0x80400000         4M PGD   ..   D A G . X . R V\n");
	expect_line(t, 0x1000, 0x2000, 4, (2 << 8) | U_X_R_V, 0x1000,
		    "0x00001000-0x00002000    0x00001000         4K PTE RSW(2) . . . U X . R V\n");
	/* Sv32's 34-bit physical addresses are printed whole. */
	expect_line(t, 0xffc00000UL, 0, 3, PK, 0x300000000ULL,
		    "0xffc00000-0x00000000    0x300000000         4M PGD   ..   D A G . . W R V\n");
#endif
}

/* Attributes are what v6.10 compares: never the frame, never Sv39's reserved bits 54-60. */
static void attrs_leave_out_the_frame(struct ktest *t)
{
	uint64_t a = pte_val(pfn_pte(0x80123, PAGE_KERNEL)), b = pte_val(pfn_pte(0x9abcd, PAGE_KERNEL));

	KTEST_EXPECT_EQ(t, ptdump_attrs(a, 4), ptdump_attrs(b, 4));
	KTEST_EXPECT_EQ(t, ptdump_attrs(a, 4), PK);
	KTEST_EXPECT_NE(t, ptdump_attrs(a, 4), ptdump_attrs(pte_val(pfn_pte(0x80123, PAGE_KERNEL_RO)), 4));
	KTEST_EXPECT_EQ(t, ptdump_attrs(a | (3 << 8), 4), PK | (3 << 8));
#if RV64
	KTEST_EXPECT_EQ(t, ptdump_attrs(a | (0x7fULL << 54), 4), PK);
	KTEST_EXPECT_EQ(t, ptdump_attrs(a | (7ULL << 61), 3), PK | (7ULL << 61));
#endif
}

/* The walk's lines for [@va, @va + @n pages): one per physically contiguous piece, each with
 * @cols after the level, and none starting at the guard page after them.  Each is echoed as a
 * KTAP diagnostic.  Fails the case if a line is missing. */
static void expect_area(struct ktest *t, unsigned long va, unsigned int n, const char *cols)
{
	char line[160];

	for (unsigned int i = 0, j; i < n; i = j) {
		unsigned long pfn = page_to_pfn(vmalloc_to_page((void *)(va + i * PAGE_SIZE)));

		for (j = i + 1; j < n; j++)
			if (page_to_pfn(vmalloc_to_page((void *)(va + j * PAGE_SIZE))) != pfn + (j - i))
				break;
		ksnprintf(line, sizeof(line), RV64 ? "\n0x%016lx-0x%016lx    0x%016llx %9luK PTE%s\n" :
			  "\n0x%08lx-0x%08lx    0x%08llx %9luK PTE%s\n", va + i * PAGE_SIZE,
			  va + j * PAGE_SIZE, (unsigned long long)pfn << PAGE_SHIFT,
			  (unsigned long)(j - i) * (PAGE_SIZE >> 10), cols);
		KTEST_EXPECT_TRUE(t, strstr(dump, line) != NULL);
		line[strlen(line) - 1] = '\0';
		kprintf("    # ptdump: %s\n", line + 1);
	}
	ksnprintf(line, sizeof(line), RV64 ? "\n0x%016lx-" : "\n0x%08lx-", va + n * PAGE_SIZE);
	KTEST_EXPECT_TRUE(t, strstr(dump, line) == NULL);	/* the guard page */
}

static const char *const kernel_cols = RV64 ? " .   ..     ..   D A G . . W R V" :
					      "   ..   D A G . . W R V";

/* The whole dump: a marker first (the lowest region: vmalloc on Sv39, the linear mapping on
 * Sv32), the regions in address order, nothing cut off, no W+X line. */
static void expect_dump_shape(struct ktest *t)
{
	const char *area = strstr(dump, "---[ vmalloc() area ]---\n");
	const char *end = strstr(dump, "---[ vmalloc() end ]---\n");

	KTEST_EXPECT_FALSE(t, dump_overflow);
	const char *linear = strstr(dump, "---[ Linear mapping ]---\n");
	const char *fix = strstr(dump, "---[ Fixmap start ]---\n");

	KTEST_EXPECT_TRUE(t, !strncmp(dump, "---[ ", 5));
	KTEST_EXPECT_TRUE(t, area && linear && fix);
	KTEST_EXPECT_TRUE(t, end && end > area);
	KTEST_EXPECT_TRUE(t, fix > end && fix > linear);
	KTEST_EXPECT_TRUE(t, RV64 ? area == dump : linear == dump);
	KTEST_EXPECT_TRUE(t, strstr(dump, " X W ") == NULL);
}

static void vmalloc_area_in_the_dump(struct ktest *t)
{
	void *a;

	if (!vmalloc_total) {
		ktest_skip(t, "no vmalloc range: RAM overlaps it");
		return;
	}
	a = vmalloc(NPAGES * PAGE_SIZE);
	KTEST_ASSERT_TRUE(t, a != NULL);
	capture_reset();
	KTEST_EXPECT_GE(t, ptdump_walk_kernel(capture), 1);
	expect_dump_shape(t);
	expect_area(t, (unsigned long)a, NPAGES, kernel_cols);
	/* The area's lines lie between the two markers. */
	KTEST_EXPECT_TRUE(t, strstr(dump, "\n0x") < strstr(dump, "---[ vmalloc() end ]---"));
	vfree(a);

	/* Freed, it is gone from the dump. */
	char start[24];
	ksnprintf(start, sizeof(start), RV64 ? "\n0x%016lx-" : "\n0x%08lx-", (unsigned long)a);
	capture_reset();
	ptdump_walk_kernel(capture);
	KTEST_EXPECT_TRUE(t, strstr(dump, start) == NULL);
}

/* With Svpbmt: a write-combining vmap prints MT(NC) and an uncached one MT(IO), each of its own
 * pages (a page is in one non-cacheable mapping at most).  Without (plain RV64, every Sv32 CPU):
 * the request is refused and nothing new appears in the dump. */
static void uncached_columns(struct ktest *t)
{
	struct page *pages[4] = { alloc_page(GFP_KERNEL), alloc_page(GFP_KERNEL),
				  alloc_page(GFP_KERNEL), alloc_page(GFP_KERNEL) };
	size_t before;

	KTEST_ASSERT_TRUE(t, pages[0] && pages[1] && pages[2] && pages[3]);
	if (!vmalloc_total) {
		ktest_skip(t, "no vmalloc range: RAM overlaps it");
	} else if (riscv_pbmt_supported()) {
		void *wc = vmap(pages, 2, VM_MAP, pgprot_writecombine(PAGE_KERNEL));
		void *io = vmap(pages + 2, 2, VM_MAP, pgprot_noncached(PAGE_KERNEL));

		KTEST_EXPECT_TRUE(t, wc && io);
		capture_reset();
		ptdump_walk_kernel(capture);
		expect_dump_shape(t);
		if (wc)
			expect_area(t, (unsigned long)wc, 2, " . MT(NC)   ..   D A G . . W R V");
		if (io)
			expect_area(t, (unsigned long)io, 2, " . MT(IO)   ..   D A G . . W R V");
		vunmap(io);
		vunmap(wc);
	} else {
		capture_reset();
		ptdump_walk_kernel(capture);
		before = dump_len;
		KTEST_EXPECT_TRUE(t, vmap(pages, 2, VM_MAP, pgprot_writecombine(PAGE_KERNEL)) == NULL);
		capture_reset();
		ptdump_walk_kernel(capture);
		KTEST_EXPECT_EQ(t, dump_len, before);
		KTEST_EXPECT_TRUE(t, strstr(dump, "MT(") == NULL);
	}
	__free_page(pages[3]);
	__free_page(pages[2]);
	__free_page(pages[1]);
	__free_page(pages[0]);
}

static const struct ktest_case riscv_ptdump_cases[] = {
	KTEST_CASE(line_format),
	KTEST_CASE(attrs_leave_out_the_frame),
	KTEST_CASE(vmalloc_area_in_the_dump),
	KTEST_CASE(uncached_columns),
	{ 0 },
};
KTEST_SUITE(riscv_ptdump, riscv_ptdump_cases);
