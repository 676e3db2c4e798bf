/*
 * mmu_ktest.c - suite `mmu`, every board: the live kernel tables hold the address space
 * docs/mmu.md promises, checked through the portable contract only (include/tinymm/pgtable.h:
 * expected entries are built with pfn_pte()/pfn_pmd() and PAGE_KERNEL*, permissions read with
 * pte_write()/pte_exec()).  A walk of every kernel entry against the design, W^X, PMD_SIZE
 * leaves for the direct map, PG_table and NR_PAGETABLE, the empty user half, the image's section
 * boundaries, vmalloc through the MMU (guard page, vfree, reuse), ioremap() of the console UART
 * and its fixmap slot, __ro_after_init read-only, and set_memory_ro/rw splitting a direct-map
 * leaf (last: the leaf stays split, which the leaf count would not expect).
 * What is one architecture's own (ARM's registers and fault wording, RISC-V's A/D bits and PBMT
 * encodings) stays in arch/arm/mmu_ktest.c (`mmu_lpae`) and arch/riscv/pgtable_ktest.c.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/cache.h"
#include "tinymm/devicetree.h"
#include "tinymm/errno.h"
#include "tinymm/fixmap.h"
#include "tinymm/io.h"
#include "tinymm/kernel-page-flags.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/memory.h"
#include "tinymm/mm.h"
#include "tinymm/page-flags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"
#include "tinymm/set_memory.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

/* The lowest kernel address: the direct map (Sv39) or vmalloc (32-bit) may come first. */
static unsigned long kernel_start(void)
{
	return min(PAGE_OFFSET, VMALLOC_START);
}

/*
 * The top of the user half: the lower half of the root table, on all three (LPAE: TTBR0's two
 * 1 GiB entries, 0x80000000; Sv32: 512 entries of 4 MiB, 0x80000000; Sv39: 256 of 1 GiB,
 * 0x4000000000, the canonical lower half).  tinymm has no TASK_SIZE yet: user address spaces
 * are a later issue.  Walking past it on Sv39 would wrap pgd_index() into the kernel's entries.
 */
static unsigned long user_top(void)
{
	return (unsigned long)(PTRS_PER_PGD / 2) * PGDIR_SIZE;
}

/* Does the last trap report name @addr, as both architectures print it ("at 0x" and the
 * address in the width of a pointer)?  The rest of the wording is per architecture. */
static bool bug_names(unsigned long addr)
{
	char want[32];

	ksnprintf(want, sizeof(want), "at 0x%0*lx", (int)(2 * sizeof(unsigned long)), addr);
	return strstr(ktest_last_bug(), want) != NULL;
}

/* Through volatile pointers, so the compiler neither warns about nor removes the access. */
static unsigned long read_at(uintptr_t a)
{
	volatile unsigned long *volatile p = (volatile unsigned long *)a;

	return *p;
}

static void write_at(uintptr_t a, int v)
{
	volatile int *volatile p = (volatile int *)a;

	*p = v;
}

static unsigned long va_pfn(unsigned long addr)
{
	return (unsigned long)(__pa((void *)addr) >> PAGE_SHIFT);
}

/* The kernel's RAM ranges, adjacent memblock regions merged as mm/kernel_map.c merges them. */
/* Regions the direct map holds: all but the no-map ones (mm/kernel_map.c). */
static bool direct_mapped(int i)
{
	enum memblock_type type = memblock_region(i)->type;

	return type != MEMBLOCK_NOMAP && type != MEMBLOCK_FIRMWARE;
}

static int ram_ranges(unsigned long (*r)[2], int max)
{
	int n = 0;

	for (int i = 0; i < memblock_count() && n < max; ) {
		if (!direct_mapped(i)) {
			i++;
			continue;
		}
		phys_addr_t base = memblock_region(i)->base, end = base + memblock_region(i)->size;

		for (i++; i < memblock_count() && memblock_region(i)->base == end && direct_mapped(i); i++)
			end += memblock_region(i)->size;
		r[n][0] = (unsigned long)(uintptr_t)__va(base & PAGE_MASK);
		r[n][1] = (unsigned long)(uintptr_t)__va((end + PAGE_SIZE - 1) & PAGE_MASK);
		n++;
	}
	return n;
}

struct map_check {
	unsigned long ram[MEMBLOCK_MAX_REGIONS][2];
	int nr_ram;
	unsigned long leaves, pte_tables, pmd_tables, untyped, pages, fixmap, wx, wrong;
	unsigned long first_wrong;
	bool any_wrong;
	uintptr_t last_pmd_table;	/* the walk is in address order: a table's entries in a row */
	unsigned long found;		/* the user-half walk: anything at all */
};

static bool in_ram(const struct map_check *c, unsigned long start, unsigned long end)
{
	for (int i = 0; i < c->nr_ram; i++)
		if (start >= c->ram[i][0] && end - 1 <= c->ram[i][1] - 1)
			return true;
	return false;
}

static void wrong(struct map_check *c, unsigned long addr)
{
	if (!c->any_wrong)
		c->first_wrong = addr;
	c->any_wrong = true;
	c->wrong++;
}

static bool w_and_x(pte_t pte)
{
	return pte_write(pte) && pte_exec(pte);
}

/* The pte the design puts at kernel address @addr (mm/kernel_map.c, mm/vmalloc.c,
 * mm/ioremap.c); false if nothing may be mapped there. */
static bool expected_pte(const struct map_check *c, unsigned long addr, pte_t *want)
{
	unsigned long a = addr;

	if (addr >= VMALLOC_START && addr < VMALLOC_END) {
		const struct vm_struct *vm = find_vm_area((void *)addr);
		unsigned long i;

		if (!vm)
			return false;				/* a pte outside every area */
		i = (addr - (unsigned long)vm->addr) >> PAGE_SHIFT;
		if (i >= get_vm_area_size(vm) >> PAGE_SHIFT)
			return false;				/* the guard page */
		if (vm->flags & VM_IOREMAP)
			*want = pfn_pte((unsigned long)(vm->phys_addr >> PAGE_SHIFT) + i, PAGE_KERNEL_IO);
		else if (vm->pages && i < vm->nr_pages)
			*want = pfn_pte(page_to_pfn(vm->pages[i]), PAGE_KERNEL);
		else if ((vm->flags & VM_DMA_COHERENT) && i < vm->nr_pages)	/* kernel/dma/direct.c */
			*want = pfn_pte((unsigned long)(vm->phys_addr >> PAGE_SHIFT) + i,
					pgprot_dmacoherent(PAGE_KERNEL));
		else
			return false;	/* another vmap(): no kernel area keeps one across the walk */
		return true;
	}
	if (a >= (unsigned long)_start_kernel && a < (unsigned long)_etext)
		*want = pfn_pte(va_pfn(a), PAGE_KERNEL_EXEC);
	else if (a >= (unsigned long)_etext && a < (unsigned long)_sdata)
		*want = pfn_pte(va_pfn(a), PAGE_KERNEL_RO);
	else if (a >= (unsigned long)__start_ro_after_init && a < (unsigned long)__end_ro_after_init)
		*want = pfn_pte(va_pfn(a), PAGE_KERNEL_RO);	/* since mark_rodata_ro() */
	else if (a >= PAGE_OFFSET && in_ram(c, a, a + PAGE_SIZE))
		*want = pfn_pte(va_pfn(a), PAGE_KERNEL);
	else
		return false;
	return true;
}

/*
 * A pmd table is counted once: the frame @pmd lies in, unless @pmd is a slot of the root itself
 * (two levels: the pmd is folded into swapper_pg_dir, in the image, neither typed nor counted).
 */
static void note_pmd_table(struct map_check *c, pmd_t *pmd)
{
	uintptr_t p = (uintptr_t)pmd, frame = p & PAGE_MASK;

	if (p >= (uintptr_t)swapper_pg_dir && p < (uintptr_t)(swapper_pg_dir + PTRS_PER_PGD))
		return;
	if (frame == c->last_pmd_table)
		return;
	c->last_pmd_table = frame;
	c->pmd_tables++;
	c->untyped += !PageTable(virt_to_page((void *)frame));
}

static int check_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct map_check *c = walk->private;
	pmd_t pmd = pmdp_get(pmdp);
	unsigned long kstart = (unsigned long)_start_kernel, kend = (unsigned long)_end;
	pte_t as_pte;

	note_pmd_table(c, pmdp);
	if (!pmd_leaf(pmd)) {
		if (pmd_bad(pmd)) {
			wrong(c, addr);
			return 0;
		}
		if (pmd_page_vaddr(pmd) == (unsigned long)fixmap_pte)
			return 0;	/* in the image, shared with the boot tables: no PG_table */
		c->pte_tables++;
		c->untyped += !PageTable(virt_to_page((void *)pmd_page_vaddr(pmd)));
		return 0;
	}
	c->leaves++;
	as_pte = pfn_pte(pmd_pfn(pmd), pmd_pgprot(pmd));
	if (w_and_x(as_pte))
		c->wx++;
	/* A leaf is a whole PMD_SIZE of RAM outside the image, PAGE_KERNEL at __pa(addr).  @next
	 * is 0 for the last leaf of a 32-bit address space: compare end - 1. */
	if ((addr & ~PMD_MASK) || next - addr != PMD_SIZE || addr < PAGE_OFFSET ||
	    !in_ram(c, addr, next) || (addr <= kend - 1 && next - 1 >= kstart) ||
	    pmd_val(pmd) != pmd_val(pfn_pmd(va_pfn(addr), PAGE_KERNEL)))
		wrong(c, addr);
	return 0;
}

static int check_pte(pte_t *ptep, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct map_check *c = walk->private;
	pte_t pte = ptep_get(ptep), want;

	(void)next;
	if (pte_none(pte))
		return 0;
	c->pages++;
	if (w_and_x(pte))
		c->wx++;
	if (addr >= FIXADDR_START) {
		/*
		 * A fixmap slot: device memory, writable, never executable.  Not an exact value: on
		 * RISC-V the console's slot is set in kmain before paging_init() has read Svpbmt from
		 * the device tree, so with -cpu rv64,svpbmt=on it carries no PBMT (the PMA makes
		 * the UART uncached anyway) while PAGE_KERNEL_IO, read now, has PBMT IO.
		 */
		c->fixmap++;
		if (!pte_present(pte) || !pte_write(pte) || pte_exec(pte))
			wrong(c, addr);
		return 0;
	}
	if (!pte_present(pte) || !expected_pte(c, addr, &want) || pte_val(pte) != pte_val(want))
		wrong(c, addr);
	return 0;
}

/* A range with no table: a missing pmd table (depth 0) or pte table (depth 3). */
static int check_hole(unsigned long addr, unsigned long next, int depth, struct mm_walk *walk)
{
	(void)next;
	if (depth == 3)		/* the pmd table is there (or folded): count it */
		note_pmd_table(walk->private, pmd_offset(pgd_offset_k(addr), addr));
	return 0;
}

static const struct mm_walk_ops check_ops = {
	.pmd_entry = check_pmd, .pte_entry = check_pte, .pte_hole = check_hole,
};

/* Whole PMD_SIZE blocks of RAM outside the image: what must be leaves. */
static unsigned long expected_leaves(const struct map_check *c)
{
	unsigned long n = 0, kstart = (unsigned long)_start_kernel, kend = (unsigned long)_end;

	for (int i = 0; i < c->nr_ram; i++)
		for (unsigned long a = ALIGN(c->ram[i][0], PMD_SIZE);
		     a + PMD_SIZE > a && a + PMD_SIZE - 1 <= c->ram[i][1] - 1; a += PMD_SIZE)
			if (a + PMD_SIZE <= kstart || a >= kend)
				n++;
	return n;
}

static struct map_check check;	/* too big for a thread stack */

/*
 * Every entry from the lowest kernel address to the top of the address space (an end of 0:
 * the walker's "top", which on 32 bits is where the last chunk's end wraps) is what the design
 * says, exactly; none is writable and executable; the direct map uses a leaf for every whole
 * PMD_SIZE of RAM outside the image; every table frame but fixmap_pte is PG_table, and
 * NR_PAGETABLE counts exactly them.
 */
static void every_entry_as_designed_and_no_w_and_x(struct ktest *t)
{
	struct map_check *c = &check;

	memset(c, 0, sizeof(*c));
	c->nr_ram = ram_ranges(c->ram, MEMBLOCK_MAX_REGIONS);
	KTEST_ASSERT_TRUE(t, arch_has_live_kernel_tables());
	/* Earlier suites' dead threads: their stacks (and the tables under them) go first, so the
	 * tables walked and NR_PAGETABLE are read with nothing queued to change them. */
	flush_thread_stack_frees();
	KTEST_EXPECT_EQ(t, walk_page_range_novma(&init_mm, kernel_start(), 0, &check_ops, NULL, c), 0);
	KTEST_EXPECT_EQ(t, c->wx, 0);
	KTEST_EXPECT_EQ(t, c->wrong, 0);
	KTEST_EXPECT_EQ(t, c->first_wrong, 0);		/* the first wrong entry's address */
	KTEST_EXPECT_EQ(t, c->leaves, expected_leaves(c));
	KTEST_EXPECT_GT(t, c->leaves, 0);			/* RAM has whole leaves */
	KTEST_EXPECT_GE(t, c->fixmap, 1);			/* the console's slot at least */
	/* The image is all in pages. */
	KTEST_EXPECT_GE(t, c->pages, ((unsigned long)_end - (unsigned long)_start_kernel) >> PAGE_SHIFT);
	KTEST_EXPECT_EQ(t, c->untyped, 0);
	KTEST_EXPECT_GT(t, c->pte_tables, 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), c->pmd_tables + c->pte_tables);
	printk(KERN_INFO "mmu: %lu leaves, %lu pages, %lu fixmap slots, %lu pmd + %lu pte tables\n",
	       c->leaves, c->pages, c->fixmap, c->pmd_tables, c->pte_tables);
}

static int found_pmd(pmd_t *pmd, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	(void)pmd, (void)addr, (void)next;
	((struct map_check *)walk->private)->found++;
	return 0;
}

static int found_hole(unsigned long addr, unsigned long next, int depth, struct mm_walk *walk)
{
	struct map_check *c = walk->private;
	pmd_t *pmd = pmd_offset(pgd_offset_k(addr), addr);

	(void)next;
	/* A pmd table under the user half (three levels) is something, even if empty. */
	if (depth == 3 && !((uintptr_t)pmd >= (uintptr_t)swapper_pg_dir &&
			    (uintptr_t)pmd < (uintptr_t)(swapper_pg_dir + PTRS_PER_PGD)))
		c->found++;
	return 0;
}

/* Nothing below the kernel: no identity map left from boot, nothing at 0. */
static void user_half_empty(struct ktest *t)
{
	static const struct mm_walk_ops ops = { .pmd_entry = found_pmd, .pte_hole = found_hole };
	struct map_check *c = &check;
	unsigned long image_pa = (unsigned long)__pa(_start_kernel);

	KTEST_EXPECT_TRUE(t, user_top() <= kernel_start());	/* unsigned: KTEST compares signed */
	c->found = 0;
	KTEST_EXPECT_EQ(t, walk_page_range_novma(&init_mm, 0, user_top(), &ops, NULL, c), 0);
	KTEST_EXPECT_EQ(t, c->found, 0);
	KTEST_EXPECT_TRUE(t, virt_to_kpte(0) == NULL);
	KTEST_EXPECT_BUG(t, read_at(16));
	KTEST_EXPECT_TRUE(t, bug_names(16));
	/* The image's physical address is a user address on ARM and RV64 (on RV32 virtual equals
	 * physical): the boot's identity mapping of it is gone. */
	if (image_pa < user_top()) {
		KTEST_EXPECT_BUG(t, read_at(image_pa));
		KTEST_EXPECT_TRUE(t, bug_names(image_pa));
	}
}

/* The pte of @addr, which must exist: 0 (never a kernel pte) if it does not. */
static pteval_t kpte_val(unsigned long addr)
{
	pte_t *pte = virt_to_kpte(addr);

	return pte ? pte_val(ptep_get(pte)) : 0;
}

static pteval_t kpte_want(unsigned long addr, pgprot_t prot)
{
	return pte_val(pfn_pte(va_pfn(addr), prot));
}

/* The image's sections meet at page boundaries, each side with its own protection. */
static void image_sections_at_their_boundaries(struct ktest *t)
{
	unsigned long text = (unsigned long)_start_kernel, etext = (unsigned long)_etext;
	unsigned long sdata = (unsigned long)_sdata, end = (unsigned long)_end;
	unsigned long data = (unsigned long)__end_ro_after_init;	/* .data after it */

	KTEST_EXPECT_EQ(t, text & ~PAGE_MASK, 0);
	KTEST_EXPECT_EQ(t, etext & ~PAGE_MASK, 0);
	KTEST_EXPECT_EQ(t, sdata & ~PAGE_MASK, 0);
	KTEST_EXPECT_GE(t, text, PAGE_OFFSET);		/* the image is in the direct map */
	KTEST_EXPECT_EQ(t, (unsigned long)__va(__pa(_start_kernel)), text);
	KTEST_EXPECT_EQ(t, kpte_val(text), kpte_want(text, PAGE_KERNEL_EXEC));
	KTEST_EXPECT_EQ(t, kpte_val(etext - PAGE_SIZE), kpte_want(etext - PAGE_SIZE, PAGE_KERNEL_EXEC));
	KTEST_EXPECT_EQ(t, kpte_val(etext), kpte_want(etext, PAGE_KERNEL_RO));
	KTEST_EXPECT_EQ(t, kpte_val(sdata - PAGE_SIZE), kpte_want(sdata - PAGE_SIZE, PAGE_KERNEL_RO));
	KTEST_EXPECT_EQ(t, kpte_val(data), kpte_want(data, PAGE_KERNEL));
	KTEST_EXPECT_EQ(t, kpte_val((end - 1) & PAGE_MASK), kpte_want((end - 1) & PAGE_MASK, PAGE_KERNEL));
	KTEST_EXPECT_TRUE(t, pte_exec(__pte(kpte_val(text))) && !pte_write(__pte(kpte_val(text))));
	KTEST_EXPECT_TRUE(t, !pte_exec(__pte(kpte_val(etext))) && !pte_write(__pte(kpte_val(etext))));
	KTEST_EXPECT_TRUE(t, !pte_exec(__pte(kpte_val(data))) && pte_write(__pte(kpte_val(data))));
}

/* A vmalloc area is reached through its ptes: the bytes written at its address are in the
 * pages vmalloc_to_page() names; its guard page and, once freed, the area itself fault; the
 * next vmalloc of the same size reuses the freed range (first fit). */
static void vmalloc_through_the_mmu(struct ktest *t)
{
	const unsigned int n = 3;
	unsigned char *p, *q;
	unsigned long guard;

	flush_thread_stack_frees();	/* no dead stack freed between the vfree and the reuse */
	p = vmalloc(n * PAGE_SIZE);
	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(p));
	for (unsigned int i = 0; i < n * PAGE_SIZE; i++)
		p[i] = (unsigned char)(i * 7 + 1);
	for (unsigned int i = 0; i < n; i++) {
		struct page *page = vmalloc_to_page(p + i * PAGE_SIZE);
		pte_t *pte = virt_to_kpte((unsigned long)p + i * PAGE_SIZE);

		KTEST_ASSERT_TRUE(t, page != NULL && pte != NULL);
		KTEST_EXPECT_EQ(t, pte_val(ptep_get(pte)), pte_val(pfn_pte(page_to_pfn(page), PAGE_KERNEL)));
		/* The same bytes through the direct map: the vmalloc pte points at this page. */
		KTEST_EXPECT_EQ(t, memcmp(page_address(page), p + i * PAGE_SIZE, PAGE_SIZE), 0);
	}
	guard = (unsigned long)p + n * PAGE_SIZE;
	KTEST_EXPECT_TRUE(t, !virt_to_kpte(guard) || pte_none(ptep_get(virt_to_kpte(guard))));
	KTEST_EXPECT_BUG(t, read_at(guard));
	KTEST_EXPECT_TRUE(t, bug_names(guard));
	KTEST_EXPECT_EQ(t, vmalloc_check(NULL), 0);
	vfree(p);
	KTEST_EXPECT_TRUE(t, find_vm_area(p) == NULL);
	KTEST_EXPECT_BUG(t, read_at((unsigned long)p));		/* unmapped and flushed */
	KTEST_EXPECT_TRUE(t, bug_names((unsigned long)p));
	q = vmalloc(n * PAGE_SIZE);
	KTEST_ASSERT_TRUE(t, q != NULL);
	KTEST_EXPECT_TRUE(t, q == p);				/* the lowest gap that fits */
	q[PAGE_SIZE + 5] = 0x6b;
	KTEST_EXPECT_EQ(t, ((unsigned char *)page_address(vmalloc_to_page(q + PAGE_SIZE)))[5], 0x6b);
	vfree(q);
	KTEST_EXPECT_EQ(t, vmalloc_check(NULL), 0);
}

/* The console UART from the device tree, as boot/main.c's console_from_dt() finds it. */
static int console_uart(uint64_t *base, const char **compat)
{
	const struct dt *dt = boot_dt();
	int chosen = dt ? dt_path(dt, "/chosen", 7) : -1, node;
	const char *path = chosen >= 0 ? dt_getprop_str(dt, chosen, "stdout-path") : NULL;
	uint64_t size;

	if (!path)
		return -1;
	node = dt_path(dt, path, strcspn(path, ":"));
	if (node < 0 || dt_address(dt, node, 0, base, &size))
		return -1;
	*compat = dt_getprop_str(dt, node, "compatible");
	return *compat ? 0 : -1;
}

/* A status bit that an idle UART reads as 1: PL011 FR.TXFE, 16550 LSR.THRE (reg-shift 0, as
 * on QEMU's RISC-V virt; 2 on the DesignWare UART).  0 for a UART this suite does not know. */
static unsigned int idle_bit(const char *compat, unsigned long *off)
{
	if (!strcmp(compat, "arm,pl011")) {
		*off = 0x18;
		return 0x80;
	}
	if (!strcmp(compat, "ns16550a") || !strcmp(compat, "ns16550")) {
		*off = 5;
		return 0x20;
	}
	if (!strcmp(compat, "snps,dw-apb-uart")) {	/* LSR.THRE, reg-shift 2 */
		*off = 5 << 2;
		return 0x20;
	}
	return 0;
}

/* ioremap() of the console UART: PAGE_KERNEL_IO on its frame in the vmalloc range, never
 * executable, the offset kept, the device answering; iounmap() takes it away; RAM is refused;
 * the console's fixmap slot maps the same UART. */
static void ioremap_console_uart(struct ktest *t)
{
	uint64_t base;
	const char *compat;
	unsigned long off = 0, pfn;
	unsigned int bit;
	char __iomem *uart;
	pte_t *ptep, pte;
	const struct vm_struct *vm;

	KTEST_ASSERT_EQ(t, console_uart(&base, &compat), 0);
	pfn = (unsigned long)(base >> PAGE_SHIFT);
	bit = idle_bit(compat, &off);
	uart = ioremap((phys_addr_t)base + 4, 4);		/* mid-page */
	ptep = uart ? virt_to_kpte((unsigned long)uart) : NULL;
	vm = uart ? find_vm_area((void *)((uintptr_t)uart & PAGE_MASK)) : NULL;
	KTEST_ASSERT_TRUE(t, ptep != NULL && vm != NULL);
	pte = ptep_get(ptep);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(uart));
	KTEST_EXPECT_EQ(t, (uintptr_t)uart & ~PAGE_MASK, (unsigned long)(base + 4) & ~PAGE_MASK);
	KTEST_EXPECT_EQ(t, vm->flags & VM_IOREMAP, VM_IOREMAP);
	KTEST_EXPECT_EQ(t, vm->phys_addr, (phys_addr_t)base & ~(phys_addr_t)(PAGE_SIZE - 1));
	KTEST_EXPECT_EQ(t, pte_val(pte), pte_val(pfn_pte(pfn, PAGE_KERNEL_IO)));
	KTEST_EXPECT_FALSE(t, pte_exec(pte));
	KTEST_EXPECT_TRUE(t, pte_write(pte));
	if (bit) {
		uintptr_t reg = ((uintptr_t)uart & PAGE_MASK) + ((uintptr_t)base & ~PAGE_MASK) + off;

		KTEST_EXPECT_EQ(t, (off == 5 ? readb(reg) : readl(reg)) & bit, bit);
	}
	KTEST_EXPECT_EQ(t, vmalloc_check(NULL), 0);
	iounmap(uart);
	KTEST_EXPECT_TRUE(t, find_vm_area((void *)((uintptr_t)uart & PAGE_MASK)) == NULL);
	ptep = virt_to_kpte((unsigned long)uart);
	KTEST_EXPECT_TRUE(t, !ptep || pte_none(ptep_get(ptep)));
	/* RAM is never ioremap()ed: the direct map already maps it, cacheable. */
	KTEST_EXPECT_TRUE(t, ioremap(__pa(_sdata), PAGE_SIZE) == NULL);
	/* The console's fixmap slot: the UART's frame, writable, never executable (not an exact
	 * value: check_pte() says why). */
	ptep = virt_to_kpte(__fix_to_virt(FIX_EARLYCON_MEM_BASE));
	KTEST_ASSERT_TRUE(t, ptep != NULL);
	pte = ptep_get(ptep);
	KTEST_EXPECT_TRUE(t, pte_present(pte) && pte_write(pte) && !pte_exec(pte));
	KTEST_EXPECT_EQ(t, pte_pfn(pte), pfn);
}

static int ro_after_init_probe __ro_after_init = 0x5a;

/* mark_rodata_ro() ran before the first thread: the range's ptes are PAGE_KERNEL_RO, .data
 * after it PAGE_KERNEL, and a write to it traps (recovered here; lkdtm's WRITE_RO_AFTER_INIT
 * panics) and changes nothing. */
static void ro_after_init_read_only_after_boot(struct ktest *t)
{
	unsigned long start = (unsigned long)__start_ro_after_init;
	unsigned long end = (unsigned long)__end_ro_after_init;

	KTEST_ASSERT_TRUE(t, arch_has_live_kernel_tables());
	KTEST_EXPECT_EQ(t, start, (unsigned long)_sdata);	/* its own pages, first in data */
	KTEST_EXPECT_EQ(t, end & ~PAGE_MASK, 0);
	KTEST_ASSERT_TRUE(t, (unsigned long)&ro_after_init_probe >= start &&
			  (unsigned long)&ro_after_init_probe < end);
	for (unsigned long a = start; a < end; a += PAGE_SIZE)
		KTEST_EXPECT_EQ(t, kpte_val(a), kpte_want(a, PAGE_KERNEL_RO));
	KTEST_EXPECT_EQ(t, kpte_val(end), kpte_want(end, PAGE_KERNEL));
	KTEST_EXPECT_EQ(t, ro_after_init_probe, 0x5a);
	KTEST_EXPECT_BUG(t, write_at((uintptr_t)&ro_after_init_probe, 0xbad));
	KTEST_EXPECT_TRUE(t, bug_names((unsigned long)&ro_after_init_probe));
	KTEST_EXPECT_EQ(t, ro_after_init_probe, 0x5a);
}

/* Every pte of the table @pmd points at maps its own frame of the leaf at @base, PAGE_KERNEL
 * but for @ro (PAGE_KERNEL_RO; none if 0): how many do not. */
static unsigned int split_leaf_wrong(pmd_t *pmd, unsigned long base, unsigned long ro)
{
	pte_t *pte = (pte_t *)pmd_page_vaddr(pmdp_get(pmd));
	unsigned int n = 0;

	for (unsigned int i = 0; i < PTRS_PER_PTE; i++) {
		unsigned long a = base + i * PAGE_SIZE;

		n += pte_val(ptep_get(pte + i)) != kpte_want(a, a == ro ? PAGE_KERNEL_RO : PAGE_KERNEL);
	}
	return n;
}

/*
 * set_memory_ro() on a page of the direct map splits its leaf into a pte table, live: a whole
 * leaf of our own (an allocation of PMD_SIZE: naturally aligned, so exactly one leaf, with
 * nothing running, no stack and no table, in it), a page in its middle made read-only, the
 * others still PAGE_KERNEL, reads through all of it fine; then set_memory_rw() back.  The
 * read-only page is only read while it is read-only.
 */
static void set_memory_splits_a_direct_map_leaf(struct ktest *t)
{
	const unsigned int order = PMD_SHIFT - PAGE_SHIFT;
	struct page *blk = alloc_pages(GFP_KERNEL, order);
	unsigned long base, addr, tables = global_node_page_state(NR_PAGETABLE);
	pmd_t *pmd;

	KTEST_ASSERT_TRUE(t, blk != NULL);
	base = (unsigned long)page_address(blk);
	addr = base + 37 * PAGE_SIZE;
	pmd = pmd_offset(pgd_offset_k(addr), addr);
	KTEST_EXPECT_EQ(t, base & ~PMD_MASK, 0);
	if (!pmd_leaf(pmdp_get(pmd)) || (base & ~PMD_MASK)) {
		__free_pages(blk, order);
		KTEST_ASSERT_TRUE(t, false);	/* the direct map has a leaf here */
	}
	KTEST_EXPECT_EQ(t, pmd_val(pmdp_get(pmd)), pmd_val(pfn_pmd(va_pfn(base), PAGE_KERNEL)));
	for (unsigned long a = addr - PAGE_SIZE; a <= addr + PAGE_SIZE; a += PAGE_SIZE)
		write_at(a, (int)(a >> PAGE_SHIFT));

	KTEST_EXPECT_EQ(t, set_memory_ro(addr, 1), 0);
	KTEST_EXPECT_FALSE(t, pmd_leaf(pmdp_get(pmd)));		/* a pte table now */
	if (!pmd_leaf(pmdp_get(pmd))) {
		KTEST_EXPECT_TRUE(t, PageTable(virt_to_page((void *)pmd_page_vaddr(pmdp_get(pmd)))));
		KTEST_EXPECT_EQ(t, split_leaf_wrong(pmd, base, addr), 0);
		KTEST_EXPECT_FALSE(t, pte_write(__pte(kpte_val(addr))));
		KTEST_EXPECT_TRUE(t, pte_write(__pte(kpte_val(addr - PAGE_SIZE))) &&
				  pte_write(__pte(kpte_val(addr + PAGE_SIZE))));
	}
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), tables + 1);
	/* Reads through the new table; the neighbours still take writes. */
	for (unsigned long a = addr - PAGE_SIZE; a <= addr + PAGE_SIZE; a += PAGE_SIZE)
		KTEST_EXPECT_EQ(t, *(volatile int *)a, (int)(a >> PAGE_SHIFT));
	write_at(addr + PAGE_SIZE, 0x1234);
	KTEST_EXPECT_EQ(t, *(volatile int *)(addr + PAGE_SIZE), 0x1234);
	/* W^X holds on the live tables too: RW stays not executable. */
	KTEST_EXPECT_EQ(t, set_memory_x(addr - PAGE_SIZE, 1), -EINVAL);

	KTEST_EXPECT_EQ(t, set_memory_rw(addr, 1), 0);
	if (!pmd_leaf(pmdp_get(pmd)))
		KTEST_EXPECT_EQ(t, split_leaf_wrong(pmd, base, 0), 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), tables + 1);	/* stays split */
	write_at(addr, 0x5678);
	KTEST_EXPECT_EQ(t, *(volatile int *)addr, 0x5678);
	__free_pages(blk, order);
}

/*
 * Non-cacheable mappings of RAM (mm/vmalloc.c, docs/mmu.md): where the CPU has the type (ARM;
 * RV64 with Svpbmt), a write-combining vmap() maps each page with it, the page carries
 * PG_uncached (and KPF_UNCACHED) while mapped, reads and writes through it reach the page, and
 * vunmap() clears the flags; where it has none (RISC-V without Svpbmt, Sv32) the request is
 * refused and no page is marked, never mapped cacheable instead.
 */
static void noncacheable_vmap_marks_pg_uncached(struct ktest *t)
{
	struct page *pages[2] = { alloc_page(GFP_KERNEL | __GFP_ZERO),
				  alloc_page(GFP_KERNEL | __GFP_ZERO) };
	pgprot_t wc = pgprot_writecombine(PAGE_KERNEL);

	KTEST_ASSERT_TRUE(t, pages[0] && pages[1]);
	KTEST_EXPECT_TRUE(t, pgprot_noncacheable(wc));
	unsigned char *v = vmap(pages, 2, VM_MAP, wc);
	if (!arch_noncached_supported()) {
		KTEST_EXPECT_TRUE(t, v == NULL);
		KTEST_EXPECT_FALSE(t, PageUncached(pages[0]) || PageUncached(pages[1]));
	} else if (v) {
		for (int i = 0; i < 2; i++) {
			pte_t *ptep = virt_to_kpte((unsigned long)v + i * PAGE_SIZE);

			KTEST_ASSERT_TRUE(t, ptep != NULL);
			KTEST_EXPECT_EQ(t, pte_val(ptep_get(ptep)),
					pte_val(pfn_pte(page_to_pfn(pages[i]), wc)));
			KTEST_EXPECT_TRUE(t, PageUncached(pages[i]));
			KTEST_EXPECT_NE(t, stable_page_flags(pages[i]) & (1ULL << KPF_UNCACHED), 0);
		}
		((unsigned char *)page_address(pages[0]))[7] = 0x3c;
		KTEST_EXPECT_EQ(t, READ_ONCE(v[7]), 0x3c);
		WRITE_ONCE(v[PAGE_SIZE + 9], 0xc3);
		KTEST_EXPECT_EQ(t, ((unsigned char *)page_address(pages[1]))[9], 0xc3);
		KTEST_EXPECT_EQ(t, vmalloc_check(NULL), 0);
		/* a second non-cacheable mapping of a page is refused */
		KTEST_EXPECT_TRUE(t, vmap(&pages[1], 1, VM_MAP, pgprot_noncached(PAGE_KERNEL)) == NULL);
		vunmap(v);
		KTEST_EXPECT_FALSE(t, PageUncached(pages[0]) || PageUncached(pages[1]));
		KTEST_EXPECT_EQ(t, stable_page_flags(pages[0]) & (1ULL << KPF_UNCACHED), 0);
	}
	KTEST_EXPECT_TRUE(t, v != NULL || !arch_noncached_supported());
	kprintf("    # mmu: non-cacheable vmap %s\n",
		arch_noncached_supported() ? "mapped, PG_uncached set and cleared" : "refused");
	__free_page(pages[1]);
	__free_page(pages[0]);
}

static const struct ktest_case mmu_cases[] = {
	KTEST_CASE(every_entry_as_designed_and_no_w_and_x),
	KTEST_CASE(user_half_empty),
	KTEST_CASE(image_sections_at_their_boundaries),
	KTEST_CASE(vmalloc_through_the_mmu),
	KTEST_CASE(ioremap_console_uart),
	KTEST_CASE(ro_after_init_read_only_after_boot),
	KTEST_CASE(noncacheable_vmap_marks_pg_uncached),
	KTEST_CASE(set_memory_splits_a_direct_map_leaf),	/* last: it leaves a leaf split */
	{ 0 },
};
KTEST_SUITE(mmu, mmu_cases);
