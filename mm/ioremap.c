/*
 * ioremap.c - device registers mapped into the vmalloc range: ioremap(), ioremap_prot(),
 * iounmap() (Linux's mm/ioremap.c and its generic_ioremap_prot, reduced).
 *
 * An area is a vm_struct with VM_IOREMAP and phys_addr set, a guard page after it as every
 * vmalloc area; its ptes map consecutive frames of the device with the architecture's
 * PAGE_KERNEL_IO (ARM Device, XN; RISC-V PBMT IO where the CPU has Svpbmt, else the platform's
 * PMA, which QEMU and real SoCs make uncached for device ranges).  `vmallocinfo` shows it with
 * `phys=` and `ioremap`.
 * Refused, with one line and NULL: a size of 0, a range that wraps, any byte of RAM (a second,
 * uncached mapping of RAM next to the direct map's cacheable one is exactly what Linux refuses
 * too), and a call before vmalloc_init() (there is no range yet; the boot's early devices use
 * the fixmap, tinymm/fixmap.h).
 * Locking: vmalloc's (the area list under vmap_area_lock, the tables under
 * init_mm.page_table_lock, both taken by the calls made here).
 */
#include "tinymm/io.h"
#include "tinymm/memblock.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

static int ioremap_pte(pte_t *ptep, unsigned long addr, void *data)
{
	const struct vm_struct *vm = data;
	unsigned long pfn = (unsigned long)(vm->phys_addr >> PAGE_SHIFT) +
			    ((addr - (unsigned long)vm->addr) >> PAGE_SHIFT);

	set_pte_at(&init_mm, addr, ptep, pfn_pte(pfn, PAGE_KERNEL_IO));
	return 0;
}

void __iomem *ioremap(phys_addr_t phys, size_t size)
{
	phys_addr_t first = phys & ~(phys_addr_t)(PAGE_SIZE - 1);
	phys_addr_t last = phys + size - 1;
	struct vm_struct *vm;

	if (!size || last < phys) {
		pr_err("ioremap: [mem %#llx size %#zx]: empty or wraps around\n",
		       (unsigned long long)phys, size);
		return NULL;
	}
	if (!vmalloc_total) {
		pr_err("ioremap: [mem %#llx size %#zx]: before vmalloc_init(): use the fixmap\n",
		       (unsigned long long)phys, size);
		return NULL;
	}
	if (memblock_overlaps_memory(phys, (phys_addr_t)size)) {
		pr_err("ioremap: [mem %#llx-%#llx] is RAM: refused\n", (unsigned long long)phys,
		       (unsigned long long)last);
		return NULL;
	}
	unsigned long len = (unsigned long)(((last | (PAGE_SIZE - 1)) + 1) - first);
	vm = get_vm_area_caller(len, VM_IOREMAP, __builtin_return_address(0));
	if (!vm) {
		pr_err("ioremap: [mem %#llx-%#llx]: no room in the vmalloc range\n",
		       (unsigned long long)phys, (unsigned long long)last);
		return NULL;
	}
	vm->phys_addr = first;
	if (apply_to_page_range(&init_mm, (unsigned long)vm->addr, len, ioremap_pte, vm)) {
		pr_err("ioremap: [mem %#llx-%#llx]: no memory for page tables\n",
		       (unsigned long long)phys, (unsigned long long)last);
		kfree(remove_vm_area(vm->addr));	/* unmaps what was mapped */
		return NULL;
	}
	return (char *)vm->addr + (phys - first);
}

void iounmap(volatile void __iomem *addr)
{
	const void *start = (const void *)((uintptr_t)addr & ~(uintptr_t)(PAGE_SIZE - 1));
	struct vm_struct *vm = find_vm_area(start);

	if (!vm || vm->addr != start || !(vm->flags & VM_IOREMAP)) {
		pr_err("iounmap: %p is not an ioremap() area\n", (const void *)addr);
		WARN_ON(1);
		return;
	}
	vunmap(start);
}
