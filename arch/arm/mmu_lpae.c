/*
 * mmu_lpae.c - the kernel's final LPAE page tables (asm/pgtable.h has the format), built once
 * the page allocator is up and switched to from entry.S's boot tables.
 *
 * The map in swapper_pg_dir (docs/mmu.md, "ARM"), all at virtual = __va(physical):
 *   - RAM (every memblock region, lowmem only): 2 MiB blocks PAGE_KERNEL (RW, XN, PXN)
 *     wherever a whole block is RAM outside the image; 4 KiB pages elsewhere;
 *   - the image, in pages at its section boundaries: text PAGE_KERNEL_EXEC (RO+X), rodata
 *     PAGE_KERNEL_RO, data/bss/boot stack/kallsyms PAGE_KERNEL.  No entry is both W and X;
 *   - the fixmap: entry.S's pte table (fixmap_pte) under FIXADDR_START, shared;
 *   - nothing else: the user half [0, 0x80000000) is empty, and devices are mapped by
 *     ioremap() into the vmalloc range as drivers probe (mm/ioremap.c).
 * Tables come from pagetable_alloc() (PG_table, NR_PAGETABLE) through the portable walker; the
 * root is the 32-byte swapper_pg_dir in .bss: entries 0-1 are TTBR0's (the user half), 2-3
 * TTBR1's (TTBCR.T0SZ = T1SZ = 1: each TTBR translates 2 GiB), as Linux's LPAE kernel does.
 *
 * The switch (paging_switch), with the MMU on: TTBR1 first (unused while T0SZ is 0), then
 * TTBR0 = swapper_pg_dir, whose entries 2-3 map the kernel half exactly as the boot table did,
 * then TTBCR's split; at every step the running code's addresses translate to the same physical
 * ones.  TLBIALL then drops the boot table's blocks.  Linux's arm64 avoids even the brief
 * coexistence of old and new TLB entries for the same address (a TLB conflict abort is allowed
 * on some cores when block sizes differ) by switching from an idmap; Cortex-A7/A15 raise none.
 * Locking: runs once on the boot CPU before the scheduler; init_mm.page_table_lock is taken by
 * the walker as everywhere.
 */
#include "tinymm/arch.h"
#include "tinymm/cache.h"
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sections.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

/* TTBR0 (the user half) is the whole 32 bytes, TTBR1 (the kernel half) the last 16. */
pgd_t swapper_pg_dir[PTRS_PER_PGD] __attribute__((aligned(32)));

/*
 * TTBCR: EAE; T0SZ = T1SZ = 1 (2 GiB each); for both TTBRs' walks inner shareable, inner and
 * outer write-back write-allocate (SHn 0b11, ORGNn 0b01, IRGNn 0b01).
 */
#define TTBCR_SPLIT	((1u << 31) | (3u << 28) | (1u << 26) | (1u << 24) | (1u << 16) | \
			 (3u << 12) | (1u << 10) | (1u << 8) | (1u << 0))


bool arm_lpae_on __ro_after_init;	/* the switch happened: the KTAP suite checks the live tables */

/* Also each secondary CPU's, once its MMU is on with the boot tables (smp.c). */
void paging_switch(void);
void paging_switch(void)
{
	uint64_t ttbr0 = __pa(swapper_pg_dir), ttbr1 = __pa(&swapper_pg_dir[2]);	/* ASID 0 */

	__asm__ __volatile__(
		"mcrr	p15, 1, %[lo1], %[hi1], c2\n\t"	/* TTBR1 */
		"mcrr	p15, 0, %[lo0], %[hi0], c2\n\t"	/* TTBR0 */
		"isb\n\t"
		"mcr	p15, 0, %[ttbcr], c2, c0, 2\n\t"	/* TTBCR: the split */
		"isb\n\t"
		"mcr	p15, 0, %[zero], c8, c7, 0\n\t"	/* TLBIALL */
		"mcr	p15, 0, %[zero], c7, c5, 6\n\t"	/* BPIALL */
		"dsb	sy\n\t"
		"isb"
		:: [ttbcr] "r"(TTBCR_SPLIT), [zero] "r"(0),
		   [lo0] "r"((uint32_t)ttbr0), [hi0] "r"((uint32_t)(ttbr0 >> 32)),
		   [lo1] "r"((uint32_t)ttbr1), [hi1] "r"((uint32_t)(ttbr1 >> 32))
		: "memory");
}

/* vmalloc runs exactly when the LPAE tables are live (paging_init() below). */
bool arch_vmap_stack_usable(void)
{
	return arm_lpae_on;
}

void paging_init(const struct dt *dt)
{
	uint32_t mmfr2;

	if (map_kernel_fixmap(fixmap_pte) || map_kernel_direct()) {
		pr_warn("mmu: no memory for the page tables: staying on the boot tables (RWX), no vmalloc\n");
		return;
	}
	paging_switch();
	arm_lpae_on = true;
	vmalloc_init();
	/* ID_MMFR2.HWAccFlg: hardware Access flag updates exist, if at all, only for short
	 * descriptors; with LPAE an access through an entry with AF 0 always faults. */
	__asm__ __volatile__("mrc p15, 0, %0, c0, c1, 6" : "=r"(mmfr2));
	pr_info("mmu: LPAE on, %lu KiB of page tables; lowmem at %#lx, text RO+X, rodata RO, data and RAM RW+XN; vmalloc [%#lx-%#lx)\n",
		global_node_page_state(NR_PAGETABLE) << (PAGE_SHIFT - 10), PAGE_OFFSET, VMALLOC_START, VMALLOC_END);
	pr_info("mmu: ID_MMFR2.HWAccFlg %u; LPAE has no hardware Access flag: an access with AF 0 faults\n",
		(unsigned int)(mmfr2 >> 28));
}
