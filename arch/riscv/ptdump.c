/*
 * ptdump.c - RISC-V's half of `ptdump` (include/tinymm/ptdump.h; mm/ptdump.c walks and merges):
 * the regions and the line format of Linux v6.10's arch/riscv/mm/ptdump.c, as
 * /sys/kernel/debug/kernel_page_tables prints them.  A line is
 *     0x<start>-0x<end>    0x<phys> <size><unit> <level> <columns>
 * the addresses 16 hex digits on RV64 and 8 on RV32, the size 9 wide in K, M, G..., the level
 * "PTE" for a page and, for a megapage, "PMD" on RV64 (v6.10 builds it for five levels and
 * folds them at run time) or "PGD" on RV32 (two levels: every level above the pte is the pgd).
 * Then the columns, each after one space: on RV64 only, `N` (Svnapot) or `.`, and the Svpbmt
 * type `MT(NC)`, `MT(IO)`, `MT(??)` (the reserved value 3) or `  ..  ` (PMA, the value 0, is
 * printed as clear); on both, `RSW(1)`..`RSW(3)` (the two software bits) or `  ..  `; then
 * `D A G U X W R V`, each its letter or `.`.  A kernel page reads, on RV64,
 *     0xffffffc000601000-0xffffffc000605000    0x000000008f40b000        16K PTE .   ..     ..   D A G . . W R V
 *
 * Where tinymm differs from v6.10, and why: the regions are the ones tinymm has (no PCI I/O,
 * vmemmap, modules or second kernel mapping: docs/mmu.md), and the walk starts at the lowest of
 * them instead of KERN_VIRT_START; an RV32 physical address wider than 32 bits (Sv32 names 34) is
 * printed whole, where v6.10's unsigned long would cut it; mm/ptdump.c also ends a run where
 * the frames stop being contiguous, so one line is one physically contiguous piece (v6.10
 * merges on attributes and level alone).
 */
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/ptdump.h"

/*
 * The regions, by v6.10's names.  Any order (mm/ptdump.c sorts them): the linear mapping is
 * below vmalloc on Sv32 and above it on Sv39.  Only symbols of <asm/pgtable.h> and
 * <asm/memory.h>: the addresses are the layout's to choose.
 */
const struct ptdump_marker ptdump_markers[] = {
	{ VMALLOC_START, "vmalloc() area" },
	{ VMALLOC_END, "vmalloc() end" },
	{ PAGE_OFFSET, "Linear mapping" },
	{ FIXADDR_START, "Fixmap start" },
	{ FIXADDR_TOP + PAGE_SIZE, "Fixmap end" },
	{ 0, NULL },			/* the walk ends at the top of the address space */
};

/* Linux's names for pte bits tinymm sets nowhere yet; they move to <asm/pgtable.h> with their
 * first user. */
#define _PAGE_SOFT	(3UL << 8)	/* RSW, the two bits the privileged spec leaves to software */
#if PGTABLE_LEVELS == 3
#define _PAGE_NAPOT	(1ULL << 63)	/* N, Svnapot */
#else
#define _PAGE_NAPOT	0ULL		/* Sv32 has neither N nor PBMT */
#endif

#define PTDUMP_ATTRS	(_PAGE_NAPOT | _PAGE_MTMASK_SVPBMT | _PAGE_SOFT | _PAGE_DIRTY |	\
			 _PAGE_ACCESSED | _PAGE_GLOBAL | _PAGE_USER | _PAGE_EXEC |		\
			 _PAGE_WRITE | _PAGE_READ | _PAGE_PRESENT)

/* The bits v6.10 prints (its pg_level[].mask): not the frame, not Sv39's reserved 54-60. */
uint64_t ptdump_attrs(uint64_t val, int level)
{
	(void)level;
	return val & (uint64_t)PTDUMP_ATTRS;
}

#if PGTABLE_LEVELS == 3
#define ADDR_FMT	"0x%016lx"
#define PHYS_FMT	"0x%016llx"
#define MEGAPAGE	"PMD"
#else
#define ADDR_FMT	"0x%08lx"
#define PHYS_FMT	"0x%08llx"
#define MEGAPAGE	"PGD"
#endif

/* The columns after the level, each with its leading space, into @buf (at least 64 bytes). */
static void format_columns(char *buf, size_t size, uint64_t a)
{
	static const char letters[] = "DAGUXWRV";	/* bit 7 down to bit 0 */
	int n = 0;

#if PGTABLE_LEVELS == 3
	/* "?" "?" apart: C11 reads a question mark pair followed by ')' as a trigraph. */
	static const char *const mt[] = { "  ..  ", "MT(NC)", "MT(IO)", "MT(?" "?)" };

	n += ksnprintf(buf + n, size - n, " %s %s", a & _PAGE_NAPOT ? "N" : ".",
		       mt[(a & _PAGE_MTMASK_SVPBMT) >> 61]);
#endif
	if (a & _PAGE_SOFT)
		n += ksnprintf(buf + n, size - n, " RSW(%u)", (unsigned int)((a & _PAGE_SOFT) >> 8));
	else
		n += ksnprintf(buf + n, size - n, " %s", "  ..  ");
	for (int bit = 7; bit >= 0 && (size_t)n + 2 < size; bit--) {
		buf[n++] = ' ';
		buf[n++] = a & (1U << bit) ? letters[7 - bit] : '.';
	}
	buf[n] = '\0';
}

void ptdump_print(const struct ptdump_run *r, int (*pr)(const char *fmt, ...))
{
	static const char units[] = "KMGTPE";
	unsigned long size = (r->end - r->start) >> 10;	/* end 0: the top, unsigned wrap */
	unsigned int u = 0;
	char cols[64];

	while (!(size & 1023) && units[u + 1]) {
		size >>= 10;
		u++;
	}
	format_columns(cols, sizeof(cols), r->attrs);
	pr(ADDR_FMT "-" ADDR_FMT "    " PHYS_FMT " %9lu%c %s%s\n", r->start, r->end,
	   (unsigned long long)r->phys, size, units[u], r->level == 4 ? "PTE" : MEGAPAGE, cols);
}
