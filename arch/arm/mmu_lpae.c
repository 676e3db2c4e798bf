/*
 * mmu_lpae.c - the kernel's LPAE page tables (asm/pgtable.h has the format), built once the page
 * allocator is up and switched to from mmu.c's boot table of 1 MiB sections.  VA == PA still.
 *
 * The map in swapper_pg_dir (docs/mmu.md, "ARM"):
 *   - RAM (every memblock region): 2 MiB blocks PAGE_KERNEL (RW, XN, PXN) wherever a whole
 *     block is RAM outside the image; 4 KiB pages elsewhere;
 *   - the image, in pages at its section boundaries: text PAGE_KERNEL_EXEC (RO+X), rodata
 *     PAGE_KERNEL_RO, data/bss/boot stack/kallsyms PAGE_KERNEL.  No entry is both W and X;
 *   - QEMU virt's MMIO window [0x08000000, 0x10000000) (GIC, UART, RTC, fw_cfg, virtio-mmio,
 *     platform bus): 2 MiB blocks of Device, XN;
 *   - nothing else: the first 128 MiB (page 0, flash) and everything above RAM fault.
 * Tables come from pagetable_alloc() (PG_table, NR_PAGETABLE) through the portable walker; the
 * root is the 32-byte swapper_pg_dir in .bss.
 *
 * The switch (paging_switch): the boot table is short-descriptor and TTBCR.EAE can only change
 * while the MMU is off, so: clean+invalidate the data cache by set/way (the new tables reach
 * memory even if a walker did not snoop the cache), then in one asm block, with no load or store:
 * MMU and data cache off (both maps are the identity, so the next instruction is the same one),
 * TTBCR/MAIR0/MAIR1/TTBR0, TLBIALL, ICIALLU, BPIALL, MMU and caches on.  Why no access in the
 * window: with the MMU off data accesses are Strongly-ordered and bypass the cache, so one would
 * miss a dirty line (the stack's, dirtied again after the clean).  With none, the physically
 * tagged lines are still right when the MMU comes back on with the same identity map, Normal
 * write-back as before, and nothing has to be cleaned in the window (Linux's soft_restart
 * cleans with the cache off because it goes on running with the MMU off; this does not).
 *
 * If RAM does not fit the layout (some below the MMIO window's end or reaching 0xf0000000, where
 * vmalloc's 8 MiB gap starts), the boot table stays, one line says why, and vmalloc stays off.
 * Locking: runs once on the boot CPU before the scheduler; init_mm.page_table_lock is taken by
 * the walker as everywhere.
 */
#include "tinymm/arch.h"
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sections.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

pgd_t swapper_pg_dir[PTRS_PER_PGD] __attribute__((aligned(32)));	/* TTBR0 with T0SZ 0: 32 B */

#define MMIO_START	0x08000000UL
#define MMIO_END	0x10000000UL
#define LOWMEM_LIMIT	(VMALLOC_START - (8UL << 20))

#define SCTLR_M		(1u << 0)
#define SCTLR_C		(1u << 2)
#define SCTLR_I		(1u << 12)
#define SCTLR_AFE	(1u << 29)

/* TTBCR: EAE; EPD1 (no TTBR1 walks); SH0 inner shareable, ORGN0/IRGN0 write-back write-allocate. */
#define TTBCR_LPAE	((1u << 31) | (1u << 23) | (3u << 12) | (1u << 10) | (1u << 8))

uint32_t arm_read_sctlr(void);
void arm_dcache_all(bool clean);

bool arm_lpae_on;	/* the switch happened: the KTAP suite checks the live tables */

/* The protection of one page of RAM: the image's sections, or the rest of RAM. */
static pgprot_t ram_prot(unsigned long addr)
{
	if (addr >= (unsigned long)_start_kernel && addr < (unsigned long)_etext)
		return PAGE_KERNEL_EXEC;
	if (addr >= (unsigned long)_etext && addr < (unsigned long)_sdata)
		return PAGE_KERNEL_RO;
	return PAGE_KERNEL;
}

static int map_ram_pte(pte_t *pte, unsigned long addr, void *data)
{
	(void)data;
	set_pte(pte, pfn_pte(addr >> PAGE_SHIFT, ram_prot(addr)));
	return 0;
}

/* The pmd for @addr, allocating the pmd table under the pgd entry if there is none. */
static pmd_t *pmd_alloc_kernel(unsigned long addr)
{
	pgd_t *pgd = pgd_offset_k(addr);

	if (pgd_none(*pgd)) {
		struct page *page = pagetable_alloc(GFP_KERNEL, 0);

		if (!page)
			return NULL;
		spin_lock(&init_mm.page_table_lock);
		pgd_populate(&init_mm, pgd, page_address(page));
		spin_unlock(&init_mm.page_table_lock);
	}
	return pmd_offset(pgd, addr);
}

static int map_block(unsigned long addr, pgprot_t prot)
{
	pmd_t *pmd = pmd_alloc_kernel(addr);

	if (!pmd)
		return -ENOMEM;
	set_pmd(pmd, pfn_pmd(addr >> PAGE_SHIFT, prot));
	return 0;
}

/* RAM [@start, @end) (page-aligned): blocks where a whole 2 MiB is RAM outside the image. */
static int map_ram(unsigned long start, unsigned long end)
{
	unsigned long kstart = (unsigned long)_start_kernel, kend = (unsigned long)_end;

	for (unsigned long addr = start, next; addr < end; addr = next) {
		int err;

		next = pmd_addr_end(addr, end);
		bool whole = !(addr & ~PMD_MASK) && next - addr == PMD_SIZE;
		if (whole && (next <= kstart || addr >= kend))
			err = map_block(addr, PAGE_KERNEL);
		else
			err = apply_to_page_range(&init_mm, addr, next - addr, map_ram_pte, NULL);
		if (err)
			return err;
	}
	return 0;
}

static int build_tables(void)
{
	int err = 0;

	for (unsigned long a = MMIO_START; a < MMIO_END && !err; a += PMD_SIZE)
		err = map_block(a, PAGE_KERNEL_DEVICE);
	/* Adjacent regions (the DTB's, the image's, the usable rest) are mapped as one range. */
	for (int r = 0; r < memblock_count() && !err; ) {
		const struct memblock_region *reg = memblock_region(r);
		phys_addr_t base = reg->base, end = reg->base + reg->size;

		for (r++; r < memblock_count() && memblock_region(r)->base == end; r++)
			end += memblock_region(r)->size;
		err = map_ram((unsigned long)(base & PAGE_MASK),
			      (unsigned long)((end + PAGE_SIZE - 1) & PAGE_MASK));
	}
	return err;
}

static void paging_switch(void)
{
	uint32_t sctlr = arm_read_sctlr();
	uint64_t ttbr0 = __pa(swapper_pg_dir);	/* ASID 0 */
	uint32_t off = sctlr & ~(SCTLR_M | SCTLR_C);
	uint32_t on = sctlr | SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_AFE;

	arm_dcache_all(true);	/* the new tables in memory, whatever the walker's coherency */
	__asm__ __volatile__(
		"mcr	p15, 0, %[off], c1, c0, 0\n\t"		/* SCTLR: MMU off */
		"isb\n\t"
		"mcr	p15, 0, %[ttbcr], c2, c0, 2\n\t"	/* TTBCR: EAE */
		"mcr	p15, 0, %[mair0], c10, c2, 0\n\t"	/* MAIR0 */
		"mcr	p15, 0, %[zero], c10, c2, 1\n\t"	/* MAIR1 */
		"mcrr	p15, 0, %[lo], %[hi], c2\n\t"		/* TTBR0, 64-bit */
		"isb\n\t"
		"mcr	p15, 0, %[zero], c8, c7, 0\n\t"		/* TLBIALL */
		"mcr	p15, 0, %[zero], c7, c5, 0\n\t"		/* ICIALLU */
		"mcr	p15, 0, %[zero], c7, c5, 6\n\t"		/* BPIALL */
		"dsb	sy\n\t"
		"isb\n\t"
		"mcr	p15, 0, %[on], c1, c0, 0\n\t"		/* SCTLR: MMU, caches on */
		"isb"
		:: [off] "r"(off), [on] "r"(on), [ttbcr] "r"(TTBCR_LPAE), [mair0] "r"(MAIR0_VALUE),
		   [zero] "r"(MAIR1_VALUE), [lo] "r"((uint32_t)ttbr0), [hi] "r"((uint32_t)(ttbr0 >> 32))
		: "memory");
}

/* vmalloc runs exactly when the LPAE tables are live (paging_init() below). */
bool arch_vmap_stack_usable(void)
{
	return arm_lpae_on;
}

void paging_init(const struct dt *dt)
{
	phys_addr_t lo = ~(phys_addr_t)0, hi = 0;
	uint32_t mmfr2;

	for (int r = 0; r < memblock_count(); r++) {
		const struct memblock_region *reg = memblock_region(r);

		lo = min(lo, reg->base);
		hi = max(hi, reg->base + reg->size);
	}
	if (lo < MMIO_END || hi > LOWMEM_LIMIT) {
		pr_warn("mmu: RAM [mem %#010llx-%#010llx] is outside [%#lx, %#lx): staying on 1 MiB sections, no vmalloc\n",
			(unsigned long long)lo, (unsigned long long)hi - 1, MMIO_END, LOWMEM_LIMIT);
		return;
	}
	if (build_tables()) {
		pr_warn("mmu: no memory for the page tables: staying on 1 MiB sections, no vmalloc\n");
		return;
	}
	paging_switch();
	arm_lpae_on = true;
	vmalloc_init();
	/* ID_MMFR2.HWAccFlg: hardware Access flag updates exist, if at all, only for short
	 * descriptors; with LPAE an access through an entry with AF 0 always faults. */
	__asm__ __volatile__("mrc p15, 0, %0, c0, c1, 6" : "=r"(mmfr2));
	pr_info("mmu: LPAE on, %lu KiB of page tables; text RO+X, rodata RO, data and RAM RW+XN, MMIO device; vmalloc [%#lx-%#lx)\n",
		global_node_page_state(NR_PAGETABLE) << (PAGE_SHIFT - 10), VMALLOC_START, VMALLOC_END);
	pr_info("mmu: ID_MMFR2.HWAccFlg %u; LPAE has no hardware Access flag: an access with AF 0 faults\n",
		(unsigned int)(mmfr2 >> 28));
}
