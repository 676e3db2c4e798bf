/*
 * fake_pgtable.c - the state behind the host's fake page-table architecture
 * (tests/host/include/asm/pgtable.h): the kernel's root table, the vmalloc range, the 2-level
 * configuration's frame-number base, and a count of TLB flushes.  Built into each test and
 * fuzzer that uses page tables, once per configuration (FAKE_PGTABLE_LEVELS).
 */
#include <string.h>
#include "tinymm/pgtable.h"
#include "tinymm/vmstat.h"
#include "fake_pgtable.h"

pgd_t swapper_pg_dir[PTRS_PER_PGD] __attribute__((aligned(4096)));
unsigned long fake_pfn_base;
unsigned long fake_vmalloc_start = FAKE_VMALLOC_DEFAULT_START;
unsigned long fake_vmalloc_end = FAKE_VMALLOC_DEFAULT_START + FAKE_VMALLOC_DEFAULT_SIZE;
unsigned long fake_tlb_flushes;

void fake_pgtable_reset(unsigned long pfn_base, unsigned long vmalloc_size)
{
	memset(swapper_pg_dir, 0, sizeof(swapper_pg_dir));
	fake_pfn_base = pfn_base;
	fake_vmalloc_start = FAKE_VMALLOC_DEFAULT_START;
	fake_vmalloc_end = fake_vmalloc_start + (vmalloc_size ? vmalloc_size : FAKE_VMALLOC_DEFAULT_SIZE);
	fake_tlb_flushes = 0;
	atomic_long_set(&vm_node_stat[NR_PAGETABLE], 0);
}
