/*
 * pgtable.c - what arch/riscv/include/asm/pgtable.h declares: the kernel's root table, the
 * Svpbmt check, and the page-table part of boot (vmalloc's bookkeeping).  Paging itself stays
 * off (satp Bare) until the kernel address space exists (docs/mmu.md, Status).
 */
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

/* The root: one page, page-aligned as satp wants.  Not typed PG_table nor counted (v6.10). */
pgd_t swapper_pg_dir[PTRS_PER_PGD] __attribute__((aligned(4096)));

bool riscv_has_svpbmt;

/* vmalloc memory is reachable once satp is not Bare (today only inside riscv_pgtable's windows,
 * with interrupts masked) and vmalloc_init() ran: then kernel thread stacks come from vmalloc. */
bool arch_vmap_stack_usable(void)
{
	unsigned long satp;

	__asm__ __volatile__("csrr %0, satp" : "=r"(satp));
	return vmalloc_total && (PGTABLE_LEVELS == 3 ? satp >> 60 : satp >> 31);
}

void paging_init(const struct dt *dt)
{
	int cpu = riscv_boot_cpu_node(dt);

	riscv_has_svpbmt = cpu >= 0 && riscv_isa_extension(dt, cpu, "svpbmt");
	/* Identity-mapped RAM must not reach into the vmalloc range (Sv32 with >= 1 GiB). */
	for (int r = 0; r < memblock_count(); r++) {
		const struct memblock_region *reg = memblock_region(r);

		if (reg->base + reg->size > VMALLOC_START && reg->base < VMALLOC_END) {
			pr_err("vmalloc: RAM at %#llx-%#llx overlaps the vmalloc range %#lx-%#lx: "
			       "no vmalloc\n", (unsigned long long)reg->base,
			       (unsigned long long)(reg->base + reg->size - 1), VMALLOC_START,
			       VMALLOC_END - 1);
			return;
		}
	}
	vmalloc_init();
	pr_info("vmalloc: %#lx-%#lx, %s%s\n", VMALLOC_START, VMALLOC_END - 1,
		PGTABLE_LEVELS == 3 ? "Sv39" : "Sv32",
		riscv_pbmt_supported() ? ", Svpbmt" : "");
}

/*
 * Map @count pages write-combining (Svpbmt NC), or refuse: without Svpbmt (any Sv32 CPU) there
 * is no way to make them uncacheable, and a cacheable mapping would look fine and be wrong.
 * The ioremap step builds on this.
 */
void *riscv_vmap_wc(struct page **pages, unsigned int count)
{
	if (!riscv_pbmt_supported()) {
		pr_err("vmap: no Svpbmt on this CPU: write-combining mapping refused\n");
		return NULL;
	}
	return vmap(pages, count, VM_MAP, pgprot_writecombine(PAGE_KERNEL));
}
