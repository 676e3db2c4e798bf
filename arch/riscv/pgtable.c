/*
 * pgtable.c - what arch/riscv/include/asm/pgtable.h declares: the kernel's root table, the
 * Svpbmt check, the fixmap, and the page-table part of boot.
 *
 * Boot (docs/mmu.md, "RISC-V"): entry.S turns paging on with early_pg_dir, leaves of 1 GiB
 * (Sv39) or 4 MiB (Sv32) over the image and the DTB plus the fixmap; arch_mm_init() adds leaves
 * for the rest of RAM once memblock knows it, before the memmap is allocated from the top of RAM;
 * paging_init() builds swapper_pg_dir from the page allocator (mm/kernel_map.c: the direct map
 * with 2 MiB / 4 MiB leaves, the image W^X, the fixmap) and switches satp to it.  Both tables map
 * the kernel at the same addresses, so the switch is one satp write and an sfence.vma.
 * Locking: arch_mm_init and paging_init run once on the boot CPU before anything else;
 * __set_fixmap is called at boot by console and power-off setup, one slot each.
 */
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/cache.h"
#include "tinymm/cacheflush.h"
#include "tinymm/fdt.h"
#include "tinymm/fixmap.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

/* The root: one page, page-aligned as satp wants.  Not typed PG_table nor counted (v6.10). */
pgd_t swapper_pg_dir[PTRS_PER_PGD] __attribute__((aligned(4096)));
extern pgd_t early_pg_dir[PTRS_PER_PGD];	/* entry.S */
/* The fixmap's ptes: in the image, linked by both early_pg_dir and swapper_pg_dir. */
pte_t fixmap_pte[PTRS_PER_PTE] __attribute__((aligned(4096)));

bool riscv_has_svpbmt __ro_after_init;
bool riscv_paging_final __ro_after_init;	/* satp points at swapper_pg_dir */

#if PGTABLE_LEVELS == 3
#define BOOT_LEAF_SHIFT	30	/* gigapages, in the root */
#else
#define BOOT_LEAF_SHIFT	22	/* megapages, in the root */
#endif
#define BOOT_LEAF	(_PAGE_PRESENT | _PAGE_READ | _PAGE_WRITE | _PAGE_EXEC | _PAGE_GLOBAL | \
			 _PAGE_ACCESSED | _PAGE_DIRTY)

void riscv_asid_init(void);	/* context.c */

void __set_fixmap(enum fixed_addresses idx, phys_addr_t phys)
{
	unsigned long va = __fix_to_virt(idx);
	pte_t *ptep = &fixmap_pte[(va >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)];

	/* The console and power-off registers: device memory, PBMT IO once Svpbmt is known. */
	set_pte(ptep, phys ? pfn_pte((unsigned long)(phys >> PAGE_SHIFT), PAGE_KERNEL_IO) : __pte(0));
	local_flush_tlb_page(va);
}

/* Every boot leaf that holds lowmem RAM, RWX as entry.S's own: paging_init() replaces them all. */
void arch_mm_init(void)
{
	const unsigned long leaf = 1UL << BOOT_LEAF_SHIFT;

	for (int r = 0; r < memblock_count(); r++) {
		const struct memblock_region *reg = memblock_region(r);
		unsigned long va = (unsigned long)(uintptr_t)__va(reg->base) & ~(leaf - 1);
		unsigned long end = (unsigned long)(uintptr_t)__va(reg->base + reg->size - 1);

		for (; va >= PAGE_OFFSET && va <= end && va < LOWMEM_END; va += leaf) {
			pgd_t *pgd = &early_pg_dir[(va >> BOOT_LEAF_SHIFT) & (PTRS_PER_PGD - 1)];

			if (!pgd_val(*pgd))
				*(volatile pteval_t *)&pgd->pgd = __riscv_pfn_bits(
					(unsigned long)(__pa((void *)va) >> PAGE_SHIFT)) | BOOT_LEAF;
		}
	}
	local_flush_tlb_all();
}

/* Kernel thread stacks come from vmalloc once the final tables are live and vmalloc is up. */
bool arch_vmap_stack_usable(void)
{
	return riscv_paging_final && vmalloc_total;
}

/*
 * Every root entry over the vmalloc range points to a table from boot on, so the kernel half of
 * the root never changes afterwards: each user mm's root copies it once (pgd_alloc, mm/memory.c)
 * and stays right for good.  Sv39: the 64 pmd tables (256 KiB), as v6.10's
 * preallocate_pgd_pages_range; Sv32: the 58 pte tables (232 KiB) where v6.10 instead copies a
 * missing root entry on a kernel fault (vmalloc_fault).  tinymm cannot do that: its kernel
 * stacks are vmalloc'd on RV32 too (v6.10's are not), and the trap entry's first store goes to
 * the stack, where a fault cannot be taken (docs/arch-user-riscv.md).  mm/pagewalk.c never
 * frees a table a root entry points to.  Tables from the page allocator, counted in PageTables.
 */
static void preallocate_vmalloc_tables(void)
{
	unsigned int n = 0;

	spin_lock(&init_mm.page_table_lock);
	for (unsigned long addr = VMALLOC_START; addr < VMALLOC_END; addr += PGDIR_SIZE) {
		pgd_t *pgd = pgd_offset_k(addr);
		struct page *page;

#if PGTABLE_LEVELS == 3
		if (!pgd_none(*pgd))
			continue;
#else
		if (!pmd_none(pmdp_get(pmd_offset(pgd, addr))))
			continue;
#endif
		spin_unlock(&init_mm.page_table_lock);
		page = pagetable_alloc(GFP_KERNEL | __GFP_ZERO, 0);
		spin_lock(&init_mm.page_table_lock);
		if (!page) {
			pr_warn("mmu: no memory for the vmalloc range's tables (%u made): user tasks may fault on vmalloc memory\n", n);
			break;
		}
#if PGTABLE_LEVELS == 3
		pgd_populate(&init_mm, pgd, (pmd_t *)page_address(page));
#else
		pmd_populate_kernel(&init_mm, pmd_offset(pgd, addr), (pte_t *)page_address(page));
#endif
		n++;
	}
	spin_unlock(&init_mm.page_table_lock);
}

/* Which cache operations the boot hart has (arch/riscv/cmo.c), said once if any. */
static void riscv_cmo_init(const struct dt *dt, int cpu)
{
	unsigned long vendor, arch, imp;
	bool zicbom = cpu >= 0 && riscv_isa_extension(dt, cpu, "zicbom");
	uint32_t bs = cpu >= 0 ? dt_getprop_u32(dt, cpu, "riscv,cbom-block-size", 0) : 0;

	riscv_sbi_machine_ids(&vendor, &arch, &imp);
	switch (riscv_cmo_select(zicbom, bs, vendor, arch, imp)) {
	case RISCV_CMO_ZICBOM:
		pr_info("riscv: cache operations: Zicbom, %u-byte blocks\n", riscv_cbom_block_size);
		break;
	case RISCV_CMO_THEAD:
		pr_info("riscv: cache operations: T-Head XTheadCmo, %u-byte blocks\n", riscv_cbom_block_size);
		break;
	case RISCV_CMO_NONE:
		break;
	}
}

void paging_init(const struct dt *dt)
{
	int cpu = riscv_boot_cpu_node(dt);

	riscv_has_svpbmt = cpu >= 0 && riscv_isa_extension(dt, cpu, "svpbmt");
	riscv_cmo_init(dt, cpu);
	if (map_kernel_fixmap(fixmap_pte) || map_kernel_direct()) {
		pr_warn("mmu: no memory for the page tables: staying on the boot tables (RWX), no vmalloc\n");
		return;
	}
	__asm__ __volatile__("sfence.vma\n\tcsrw satp, %0\n\tsfence.vma"
			     : : "r"(riscv_satp_for(swapper_pg_dir)) : "memory");
	riscv_paging_final = true;
	riscv_asid_init();
	preallocate_vmalloc_tables();
	vmalloc_init();
	pr_info("mmu: %s on, %lu KiB of page tables; lowmem at %#lx, text RO+X, rodata RO, data and RAM RW+NX; vmalloc [%#lx-%#lx)%s\n",
		PGTABLE_LEVELS == 3 ? "Sv39" : "Sv32",
		global_node_page_state(NR_PAGETABLE) << (PAGE_SHIFT - 10), PAGE_OFFSET,
		VMALLOC_START, VMALLOC_END, riscv_pbmt_supported() ? ", Svpbmt" : "");
}

/*
 * Before RAM is mapped non-cacheable: v6.10's arch_dma_prep_coherent flushes (clean +
 * invalidate) the range with the hart's cache operations (arch/riscv/cmo.c); on a hart without
 * Zicbom or XTheadCmo (QEMU's) that does nothing, as in v6.10.
 */
void arch_dma_prep_coherent(struct page *page, size_t size)
{
	unsigned long start = (unsigned long)page_address(page);

	dcache_clean_inval_poc(start, start + size);
}

