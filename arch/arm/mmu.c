/*
 * mmu.c - ARMv7-A boot page tables, the fixmap and whole-cache maintenance.
 *
 * entry.S turns the MMU on before any C runs, with LPAE boot tables (boot_pgd, boot_pmd) that
 * map the image's 2 MiB blocks at PAGE_OFFSET and the fixmap.  arch_mm_init() adds the rest of
 * RAM as 2 MiB blocks once memblock knows it, before the memmap is allocated from the top of
 * RAM; paging_init() (mmu_lpae.c) then builds the final W^X tables from the page allocator and
 * switches to them.  The fixmap's pte table is shared by both, so the early console's mapping
 * survives the switch.
 * Locking: arch_mm_init runs once on the boot CPU before anything else; __set_fixmap is called
 * at boot and by console and power-off setup, one slot each, on the boot CPU.
 */
#include "tinymm/arch.h"
#include "tinymm/cacheflush.h"
#include "tinymm/mm.h"
#include "tinymm/fixmap.h"
#include "tinymm/memblock.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"

#define BOOT_BLOCK	(PMD_TYPE_SECT | L_PTE_ATTRINDX(MT_NORMAL) | L_PTE_SHARED | L_PTE_YOUNG)

extern pmd_t boot_pmd[2 * PTRS_PER_PMD];	/* entry.S: the kernel half, [PAGE_OFFSET, 4 GiB) */
pte_t fixmap_pte[PTRS_PER_PTE] __attribute__((aligned(4096)));

void __set_fixmap(enum fixed_addresses idx, phys_addr_t phys)
{
	unsigned long va = __fix_to_virt(idx);
	pte_t *ptep = &fixmap_pte[(va >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)];

	set_pte(ptep, phys ? pfn_pte((unsigned long)(phys >> PAGE_SHIFT), PAGE_KERNEL_DEVICE) : __pte(0));
	flush_tlb_kernel_range(va, va + PAGE_SIZE);
}

uint32_t arm_read_sctlr(void);
uint32_t arm_read_sctlr(void)
{
	uint32_t v;

	__asm__ __volatile__("mrc p15, 0, %0, c1, c0, 0" : "=r"(v));
	return v;
}

/*
 * Invalidate (@clean false: DCISW) or clean and invalidate (DCCISW) every data/unified cache up
 * to the Level of Coherency, by set/way (ARM ARM B4.2.1).  Real cores may come out of reset with
 * garbage lines; mmu_lpae.c cleans before it turns the MMU off.  QEMU has no caches.
 */
void arm_dcache_all(bool clean);
void arm_dcache_all(bool clean)
{
	uint32_t clidr, loc;

	__asm__ __volatile__("mrc p15, 1, %0, c0, c0, 1" : "=r"(clidr));
	loc = (clidr >> 24) & 7;
	for (uint32_t level = 0; level < loc; level++) {
		uint32_t ctype = (clidr >> (level * 3)) & 7, ccsidr;
		if (ctype < 2)
			continue;	/* no data cache at this level */
		__asm__ __volatile__("mcr p15, 2, %0, c0, c0, 0\n\tisb" :: "r"(level << 1));
		__asm__ __volatile__("mrc p15, 1, %0, c0, c0, 0" : "=r"(ccsidr));
		uint32_t line_shift = (ccsidr & 7) + 4;
		uint32_t ways = ((ccsidr >> 3) & 0x3ff) + 1, sets = ((ccsidr >> 13) & 0x7fff) + 1;
		uint32_t way_shift = ways > 1 ? (uint32_t)__builtin_clz(ways - 1) : 0;
		for (uint32_t way = 0; way < ways; way++)
			for (uint32_t set = 0; set < sets; set++) {
				uint32_t sw = (way << way_shift) | (set << line_shift) | (level << 1);
				if (clean)
					__asm__ __volatile__("mcr p15, 0, %0, c7, c14, 2" :: "r"(sw));	/* DCCISW */
				else
					__asm__ __volatile__("mcr p15, 0, %0, c7, c6, 2" :: "r"(sw));	/* DCISW */
			}
	}
	__asm__ __volatile__("dsb sy\n\tisb" ::: "memory");
}

/* Every 2 MiB block of lowmem that holds RAM, RWX as entry.S's own: paging_init() replaces all. */
void arch_mm_init(void)
{
	for (int r = 0; r < memblock_count(); r++) {
		const struct memblock_region *reg = memblock_region(r);
		unsigned long va = (unsigned long)(uintptr_t)__va(reg->base) & PMD_MASK;
		unsigned long end = (unsigned long)(uintptr_t)__va(reg->base + reg->size - 1);

		for (; va >= PAGE_OFFSET && va <= end && va < LOWMEM_END; va += PMD_SIZE) {
			pmd_t *pmd = &boot_pmd[(va - PAGE_OFFSET) >> PMD_SHIFT];

			if (pmd_none(*pmd))
				set_pmd(pmd, __pmd((pmdval_t)__pa((void *)va) | BOOT_BLOCK));
		}
	}
	flush_tlb_kernel_range(PAGE_OFFSET, LOWMEM_END);
}

/*
 * Before RAM is mapped non-cacheable: clean and invalidate its lines to the Point of Coherency
 * by address through the direct map (DCCIMVAC, the line size from CTR.DminLine), then DSB, so
 * neither a dirty line written back later nor a stale one read through the cacheable alias
 * disagrees with the uncached mapping (v6.10: arch_dma_prep_coherent -> dmac_flush_range).
 */
void arch_dma_prep_coherent(struct page *page, size_t size)
{
	unsigned long start = (unsigned long)page_address(page);

	dcache_clean_inval_poc(start, start + size);
}
