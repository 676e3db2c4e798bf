/*
 * kernel_map.c - the kernel's own mappings in init_mm, the same on every architecture: the
 * direct map of RAM with the image's W^X protections, and the fixmap's pte table (Linux does
 * this per architecture: map_lowmem() on ARM, setup_vm_final() on RISC-V).
 *
 * map_kernel_direct(): every memblock region (adjacent ones merged) but the no-map ones at __va(), in PMD_SIZE
 * leaves (LPAE and Sv39 2 MiB blocks, Sv32 4 MiB megapages) wherever a whole leaf is RAM outside
 * the image, 4 KiB pages elsewhere; the image at its linker boundaries: text PAGE_KERNEL_EXEC
 * (read-only, executable), rodata PAGE_KERNEL_RO, everything from _sdata to _end PAGE_KERNEL.
 * No mapping is both writable and executable.  Regions the device tree marks no-map
 * (MEMBLOCK_NOMAP, and OpenSBI's own, MEMBLOCK_FIRMWARE, which it marks so) are left out, as
 * Linux leaves them out of its linear map: the firmware protects them, and a cacheable mapping
 * would invite speculative accesses to memory the kernel must not touch.
 * map_kernel_fixmap(): the pmd entry over FIXADDR_START points at the architecture's static
 * fixmap pte table, the one its boot tables use, so fixmap slots survive the switch.
 * Tables come from pagetable_alloc() (PG_table, NR_PAGETABLE).  On failure the caller keeps its
 * boot tables; what was allocated stays in the unused tables (boot only, and it says so).
 * Locking: init_mm.page_table_lock around each table installed, as the walkers take it.
 */
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/sections.h"

/* The protection of one page of RAM at virtual @addr: the image's sections, or the rest. */
static pgprot_t ram_prot(unsigned long addr)
{
	if (addr >= (unsigned long)_start_kernel && addr < (unsigned long)_etext)
		return PAGE_KERNEL_EXEC;
	if (addr >= (unsigned long)_etext && addr < (unsigned long)_sdata)
		return PAGE_KERNEL_RO;
	return PAGE_KERNEL;
}

static unsigned long va_pfn(unsigned long addr)
{
	return (unsigned long)(__pa((void *)addr) >> PAGE_SHIFT);
}

static int map_ram_pte(pte_t *pte, unsigned long addr, void *data)
{
	(void)data;
	set_pte(pte, pfn_pte(va_pfn(addr), ram_prot(addr)));
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

/* RAM [@start, @end) (virtual, page-aligned): leaves where a whole PMD_SIZE is RAM outside the image. */
static int map_ram(unsigned long start, unsigned long end)
{
	unsigned long kstart = (unsigned long)_start_kernel, kend = (unsigned long)_end;

	for (unsigned long addr = start, next; addr < end; addr = next) {
		int err = 0;

		next = pmd_addr_end(addr, end);
		bool whole = !(addr & ~PMD_MASK) && next - addr == PMD_SIZE;
		if (whole && (next <= kstart || addr >= kend)) {
			pmd_t *pmd = pmd_alloc_kernel(addr);

			if (pmd)
				set_pmd(pmd, pfn_pmd(va_pfn(addr), PAGE_KERNEL));
			else
				err = -ENOMEM;
		} else {
			err = apply_to_page_range(&init_mm, addr, next - addr, map_ram_pte, NULL);
		}
		if (err)
			return err;
	}
	return 0;
}

static bool mapped_type(int r)
{
	enum memblock_type t = memblock_region(r)->type;

	return t != MEMBLOCK_NOMAP && t != MEMBLOCK_FIRMWARE;
}

int map_kernel_direct(void)
{
	int err = 0;

	for (int r = 0; r < memblock_count() && !err; ) {
		if (!mapped_type(r)) {
			r++;
			continue;
		}
		phys_addr_t base = memblock_region(r)->base;
		phys_addr_t end = base + memblock_region(r)->size;

		for (r++; r < memblock_count() && memblock_region(r)->base == end && mapped_type(r); r++)
			end += memblock_region(r)->size;
		err = map_ram((unsigned long)(uintptr_t)__va(base & PAGE_MASK),
			      (unsigned long)(uintptr_t)__va((end + PAGE_SIZE - 1) & PAGE_MASK));
	}
	return err;
}

int map_kernel_fixmap(pte_t *fixmap_pte)
{
	pmd_t *pmd = pmd_alloc_kernel(FIXADDR_START);

	if (!pmd)
		return -ENOMEM;
	spin_lock(&init_mm.page_table_lock);
	pmd_populate_kernel(&init_mm, pmd, fixmap_pte);
	spin_unlock(&init_mm.page_table_lock);
	return 0;
}
