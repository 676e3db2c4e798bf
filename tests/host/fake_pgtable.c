/*
 * fake_pgtable.c - the state behind the host's fake page-table architecture
 * (tests/host/include/asm/pgtable.h): the kernel's root table, the vmalloc range, the 2-level
 * configuration's frame-number base, a count and log of TLB flushes, whether the tables are
 * "live", the fake image's __ro_after_init range, and ptdump's architecture half
 * (its regions, attributes and line format, in the style of RISC-V's).  Built into each test and
 * fuzzer that uses page tables, once per configuration (FAKE_PGTABLE_LEVELS).
 */
#include <string.h>
#include <asm/cacheflush.h>
#include "tinymm/pgtable.h"
#include "tinymm/ptdump.h"
#include "tinymm/vmstat.h"
#include "fake_pgtable.h"

pgd_t swapper_pg_dir[PTRS_PER_PGD] __attribute__((aligned(4096)));
unsigned long fake_pfn_base;
unsigned long fake_vmalloc_start = FAKE_VMALLOC_DEFAULT_START;
unsigned long fake_vmalloc_end = FAKE_VMALLOC_DEFAULT_START + FAKE_VMALLOC_DEFAULT_SIZE;
unsigned long fake_tlb_flushes;
void (*fake_sync_icache_dcache)(struct mm_struct *mm, pte_t pte);
const struct fake_cache_ops *fake_cache;
unsigned long fake_tlb_log[FAKE_TLB_LOG][2];
bool fake_kernel_tables_live = true;
bool fake_noncached_ok = true;
bool fake_dma_default_coherent;	/* asm/dma-mapping.h: ARM's false unless a test says */
bool fake_dma_noncoherent_ok = true;
unsigned long fake_prep_coherent_pages;	/* arch_dma_prep_coherent()'s pages, for the tests */

/*
 * The fake image's __ro_after_init range, two pages where linker/kernel.ld.in puts the real one
 * (mm/set_memory.c's mark_rodata_ro() protects it; a test maps it first).
 */
__asm__(".pushsection .data.fake_ro_after_init, \"aw\"\n"
	".balign 4096\n"
	".globl __start_ro_after_init\n__start_ro_after_init:\n"
	".zero 8192\n"
	".globl __end_ro_after_init\n__end_ro_after_init:\n"
	".popsection");

void fake_pgtable_reset(unsigned long pfn_base, unsigned long vmalloc_size)
{
	memset(swapper_pg_dir, 0, sizeof(swapper_pg_dir));
	fake_pfn_base = pfn_base;
	fake_vmalloc_start = FAKE_VMALLOC_DEFAULT_START;
	fake_vmalloc_end = fake_vmalloc_start + (vmalloc_size ? vmalloc_size : FAKE_VMALLOC_DEFAULT_SIZE);
	fake_tlb_flushes = 0;
	memset(fake_tlb_log, 0, sizeof(fake_tlb_log));
	fake_kernel_tables_live = true;
	fake_noncached_ok = true;
	fake_prep_coherent_pages = 0;
	node_page_state_set(NR_PAGETABLE, 0);
}

/* ---- ptdump's architecture half (include/tinymm/ptdump.h), in RISC-V's style ---- */
/* Listed out of address order on purpose: the walk sorts them (mm/ptdump.c), and
 * host.pgtable's ptdump_merges_runs sees "vmalloc() area" come out first. */
const struct ptdump_marker ptdump_markers[] = {
	{ FAKE_VMALLOC_DEFAULT_START + FAKE_VMALLOC_DEFAULT_SIZE, "vmalloc() end" },
	{ FAKE_VMALLOC_DEFAULT_START, "vmalloc() area" },
#if PGTABLE_LEVELS == 3
	{ 0, NULL },			/* to the top of the 64-bit space */
#else
	{ 1UL << 32, NULL },		/* to the top of the 32-bit space Sv32 has */
#endif
};

uint64_t ptdump_attrs(uint64_t val, int level)
{
	return val & ~(uint64_t)_PAGE_PFN_MASK;
}

void ptdump_print(const struct ptdump_run *r, int (*pr)(const char *fmt, ...))
{
	static const char letters[] = "VRWXUGAD";
	char bits[17];

	for (int i = 7, j = 0; i >= 0; i--, j += 2) {
		bits[j] = r->attrs & (1ULL << i) ? letters[i] : '.';
		bits[j + 1] = i ? ' ' : '\0';
	}
	pr("0x%016lx-0x%016lx   0x%016llx %8luK %s   %s\n", r->start, r->end,
	   (unsigned long long)r->phys, (r->end - r->start) >> 10, r->level == 3 ? "PMD" : "PTE",
	   bits);
}

/* The host has no cache to clean: count the pages, so the tests see each one prepared. */
void arch_dma_prep_coherent(struct page *page, size_t size)
{
	(void)page;
	fake_prep_coherent_pages += size >> PAGE_SHIFT;
}
