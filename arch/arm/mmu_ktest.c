/*
 * mmu_ktest.c - the ARM MMU runs on mmu_lpae.c's LPAE tables with the map it promises (suite
 * `mmu`, ARM only): the registers (the TTBR0/TTBR1 split), every live entry walked and checked
 * against the design, W^X, 2 MiB blocks, the empty user half, the table frames' accounting,
 * ioremap and the fixmap, vmalloc through the hardware, __ro_after_init read-only after boot, and
 * set_memory_ro/rw splitting a direct-map block on the live tables (last: the block stays split,
 * which the block count above would not expect).
 */
#include "tinymm/arch.h"
#include "tinymm/cache.h"
#include "tinymm/errno.h"
#include "tinymm/fixmap.h"
#include "tinymm/io.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/memory.h"
#include "tinymm/mm.h"
#include "tinymm/page-flags.h"
#include "tinymm/pgtable.h"
#include "tinymm/page_alloc.h"
#include "tinymm/sections.h"
#include "tinymm/set_memory.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

uint32_t arm_read_sctlr(void);
extern bool arm_lpae_on;

#define PL011_PHYS	0x09000000UL	/* QEMU virt's UART */

static void mmu_caches_and_branch_prediction_on(struct ktest *t)
{
	uint32_t sctlr = arm_read_sctlr();

	KTEST_EXPECT_EQ(t, sctlr & 1, 1);		/* M */
	KTEST_EXPECT_EQ(t, (sctlr >> 2) & 1, 1);	/* C */
	KTEST_EXPECT_EQ(t, (sctlr >> 12) & 1, 1);	/* I */
	KTEST_EXPECT_EQ(t, (sctlr >> 11) & 1, 1);	/* Z */
	KTEST_EXPECT_EQ(t, (sctlr >> 1) & 1, 0);	/* A: unaligned accesses allowed */
	KTEST_EXPECT_EQ(t, (sctlr >> 29) & 1, 1);	/* AFE */
}

static void lpae_registers(struct ktest *t)
{
	uint32_t ttbcr, mair0, mair1, lo, hi, lo1, hi1;

	__asm__ __volatile__("mrc p15, 0, %0, c2, c0, 2" : "=r"(ttbcr));
	__asm__ __volatile__("mrc p15, 0, %0, c10, c2, 0" : "=r"(mair0));
	__asm__ __volatile__("mrc p15, 0, %0, c10, c2, 1" : "=r"(mair1));
	__asm__ __volatile__("mrrc p15, 0, %0, %1, c2" : "=r"(lo), "=r"(hi));
	__asm__ __volatile__("mrrc p15, 1, %0, %1, c2" : "=r"(lo1), "=r"(hi1));
	KTEST_ASSERT_TRUE(t, arm_lpae_on);
	KTEST_EXPECT_EQ(t, ttbcr >> 31, 1);			/* EAE */
	KTEST_EXPECT_EQ(t, ttbcr & 7, 1);			/* T0SZ 1: TTBR0 maps 2 GiB */
	KTEST_EXPECT_EQ(t, (ttbcr >> 16) & 7, 1);		/* T1SZ 1: TTBR1 the other 2 */
	KTEST_EXPECT_EQ(t, (ttbcr >> 7) & 1, 0);		/* EPD0: user walks allowed */
	KTEST_EXPECT_EQ(t, (ttbcr >> 23) & 1, 0);		/* EPD1 */
	KTEST_EXPECT_EQ(t, (ttbcr >> 8) & 0x3f, 0x35);		/* SH0 11, ORGN0 01, IRGN0 01 */
	KTEST_EXPECT_EQ(t, (ttbcr >> 24) & 0x3f, 0x35);		/* SH1, ORGN1, IRGN1 the same */
	KTEST_EXPECT_EQ(t, mair0, 0x000444ff);
	KTEST_EXPECT_EQ(t, mair1, 0);
	KTEST_EXPECT_EQ(t, hi, 0);				/* ASID 0, table below 4 GiB */
	KTEST_EXPECT_EQ(t, lo, (uint32_t)__pa(swapper_pg_dir));
	KTEST_EXPECT_EQ(t, hi1, 0);
	KTEST_EXPECT_EQ(t, lo1, (uint32_t)__pa(&swapper_pg_dir[2]));
	/* The kernel runs in the upper half, RAM mapped at PAGE_OFFSET. */
	KTEST_EXPECT_EQ(t, PAGE_OFFSET, 0x80000000UL);
	KTEST_EXPECT_GE(t, (unsigned long)_start_kernel, PAGE_OFFSET);
	KTEST_EXPECT_EQ(t, (unsigned long)__va(PHYS_OFFSET), PAGE_OFFSET);
}

/* The kernel's RAM ranges, adjacent memblock regions merged as mmu_lpae.c merges them. */
static int ram_ranges(unsigned long (*r)[2], int max)
{
	int n = 0;

	for (int i = 0; i < memblock_count() && n < max; ) {
		phys_addr_t base = memblock_region(i)->base, end = base + memblock_region(i)->size;

		for (i++; i < memblock_count() && memblock_region(i)->base == end; i++)
			end += memblock_region(i)->size;
		r[n][0] = (unsigned long)(uintptr_t)__va(base & PAGE_MASK);
		r[n][1] = (unsigned long)(uintptr_t)__va((end + PAGE_SIZE - 1) & PAGE_MASK);
		n++;
	}
	return n;
}

struct map_check {
	struct ktest *t;
	unsigned long ram[MEMBLOCK_MAX_REGIONS][2];
	int nr_ram;
	unsigned long blocks, pte_tables, pages, wx, wrong;
	unsigned long first_wrong;
};

static bool in_ram(struct map_check *c, unsigned long addr)
{
	for (int i = 0; i < c->nr_ram; i++)
		if (addr >= c->ram[i][0] && addr < c->ram[i][1])
			return true;
	return false;
}

/* What mmu_lpae.c promises for the page at @addr (protection bits, type bits 0b11). */
static bool expected_page(struct map_check *c, unsigned long addr, pteval_t *prot)
{
	if (addr >= VMALLOC_START && addr < VMALLOC_END) {
		const struct vm_struct *vm = find_vm_area((void *)addr);

		*prot = pgprot_val(vm && (vm->flags & VM_IOREMAP) ? PAGE_KERNEL_IO : PAGE_KERNEL);
	} else if (addr >= FIXADDR_START)
		*prot = pgprot_val(PAGE_KERNEL_DEVICE);
	else if (addr >= (unsigned long)_start_kernel && addr < (unsigned long)_etext)
		*prot = pgprot_val(PAGE_KERNEL_EXEC);
	else if (addr >= (unsigned long)_etext && addr < (unsigned long)_sdata)
		*prot = pgprot_val(PAGE_KERNEL_RO);
	else if (addr >= (unsigned long)__start_ro_after_init &&
		 addr < (unsigned long)__end_ro_after_init)
		*prot = pgprot_val(PAGE_KERNEL_RO);		/* since mark_rodata_ro() */
	else if (in_ram(c, addr))
		*prot = pgprot_val(PAGE_KERNEL);
	else
		return false;
	return true;
}

static void wrong(struct map_check *c, unsigned long addr)
{
	if (!c->wrong++)
		c->first_wrong = addr;
}

/* Writable (AP[2] clear) and executable at PL1 or PL0 (PXN or XN clear). */
static bool w_and_x(pteval_t v)
{
	return !(v & L_PTE_RDONLY) && (v & (L_PTE_XN | L_PTE_PXN)) != (L_PTE_XN | L_PTE_PXN);
}

static int check_pmd(pmd_t *pmd, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct map_check *c = walk->private;
	pmdval_t v = pmd_val(*pmd);
	pteval_t prot;

	if (!pmd_leaf(*pmd)) {
		if (pmd_page_vaddr(*pmd) == (unsigned long)fixmap_pte)
			return 0;	/* in the image, shared with the boot tables: no PG_table */
		c->pte_tables++;
		if (!PageTable(virt_to_page((void *)pmd_page_vaddr(*pmd))))
			wrong(c, addr);
		return 0;
	}
	c->blocks++;
	if (w_and_x(v))
		c->wx++;
	/* A block is RAM outside the image: one protection all through, at __pa(addr). */
	if (!expected_page(c, addr, &prot) || (v & ~PHYS_MASK_LPAE) != (prot & ~(pteval_t)2) ||
	    pmd_pfn(*pmd) != __pa((void *)addr) >> PAGE_SHIFT ||
	    (addr < (unsigned long)_end && next > (unsigned long)_start_kernel))
		wrong(c, addr);
	return 0;
}

static int check_pte(pte_t *pte, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct map_check *c = walk->private;
	pteval_t v = pte_val(*pte), prot;

	(void)next;
	if (pte_none(*pte))
		return 0;
	c->pages++;
	if (w_and_x(v))
		c->wx++;
	if (!expected_page(c, addr, &prot) || (v & ~PHYS_MASK_LPAE) != prot)
		wrong(c, addr);
	else if (addr < VMALLOC_START && pte_pfn(*pte) != __pa((void *)addr) >> PAGE_SHIFT)
		wrong(c, addr);
	return 0;
}

static const struct mm_walk_ops check_ops = { .pmd_entry = check_pmd, .pte_entry = check_pte };

/* Whole 2 MiB blocks of RAM outside the image: what should be blocks. */
static unsigned long expected_blocks(struct map_check *c)
{
	unsigned long n = 0;

	for (int i = 0; i < c->nr_ram; i++)
		for (unsigned long a = ALIGN(c->ram[i][0], PMD_SIZE); a + PMD_SIZE <= c->ram[i][1] &&
		     a + PMD_SIZE > a; a += PMD_SIZE)
			if (a + PMD_SIZE <= (unsigned long)_start_kernel || a >= (unsigned long)_end)
				n++;
	return n;
}

static struct map_check check;	/* too big for a thread stack */

static void every_entry_as_designed_and_no_w_and_x(struct ktest *t)
{
	struct map_check *c = &check;
	unsigned long pmd_tables = 0;

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->nr_ram = ram_ranges(c->ram, MEMBLOCK_MAX_REGIONS);
	KTEST_ASSERT_TRUE(t, arm_lpae_on);
	KTEST_EXPECT_EQ(t, walk_page_range_novma(&init_mm, 0, 0xfffff000UL, &check_ops,
						 swapper_pg_dir, c), 0);
	KTEST_EXPECT_EQ(t, c->wx, 0);
	KTEST_EXPECT_EQ(t, c->wrong, 0);
	KTEST_EXPECT_EQ(t, c->first_wrong, 0);		/* the first wrong entry's address */
	KTEST_EXPECT_EQ(t, c->blocks, expected_blocks(c));
	KTEST_EXPECT_GT(t, c->blocks, 0);			/* RAM has blocks */
	/* The image's pages, all of them, as 4 KiB pages. */
	KTEST_EXPECT_GE(t, c->pages, ((unsigned long)_end - (unsigned long)_start_kernel) >> PAGE_SHIFT);
	/* Every table frame is PG_table and counted: the pmd tables under the pgd, the pte tables. */
	for (int i = 0; i < PTRS_PER_PGD; i++) {
		if (pgd_none(swapper_pg_dir[i]))
			continue;
		KTEST_EXPECT_FALSE(t, pgd_bad(swapper_pg_dir[i]));
		KTEST_EXPECT_TRUE(t, PageTable(virt_to_page((void *)pgd_page_vaddr(swapper_pg_dir[i]))));
		pmd_tables++;
	}
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), pmd_tables + c->pte_tables);
}

static void image_sections_split_into_pages(struct ktest *t)
{
	pte_t *text = virt_to_kpte((unsigned long)_start_kernel);
	pte_t *text_end = virt_to_kpte((unsigned long)_etext - PAGE_SIZE);
	pte_t *ro = virt_to_kpte((unsigned long)_etext);
	pte_t *data = virt_to_kpte((unsigned long)__end_ro_after_init);	/* after __ro_after_init */
	pte_t *last = virt_to_kpte((unsigned long)_end - PAGE_SIZE);

	KTEST_ASSERT_TRUE(t, text && text_end && ro && data && last);
	KTEST_EXPECT_EQ(t, pte_val(*text), pte_val(pfn_pte(__pa(_start_kernel) >> PAGE_SHIFT, PAGE_KERNEL_EXEC)));
	KTEST_EXPECT_TRUE(t, pte_exec(*text_end) && !pte_write(*text_end));
	KTEST_EXPECT_TRUE(t, !pte_exec(*ro) && !pte_write(*ro));
	KTEST_EXPECT_TRUE(t, !pte_exec(*data) && pte_write(*data) && pte_young(*data));
	KTEST_EXPECT_TRUE(t, !pte_exec(*last) && pte_write(*last));
	/* Normal write-back, inner shareable, global. */
	KTEST_EXPECT_EQ(t, pte_val(*data) & (L_PTE_ATTRINDX_MASK | L_PTE_SHARED | L_PTE_NG),
			L_PTE_ATTRINDX(MT_NORMAL) | L_PTE_SHARED);
}

/* ioremap(): Device, never executable, in the vmalloc range; RAM refused; the fixmap's slot. */
static void ioremap_is_device_execute_never(struct ktest *t)
{
	char __iomem *uart = ioremap(PL011_PHYS + 0x18, 4);	/* UARTFR, mid-page */
	pte_t *pte = uart ? virt_to_kpte((unsigned long)uart) : NULL;
	const struct vm_struct *vm = uart ? find_vm_area((void *)((uintptr_t)uart & PAGE_MASK)) : NULL;

	KTEST_ASSERT_TRUE(t, pte != NULL && vm != NULL);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(uart));
	KTEST_EXPECT_EQ(t, (uintptr_t)uart & ~PAGE_MASK, 0x18);
	KTEST_EXPECT_EQ(t, vm->flags & VM_IOREMAP, VM_IOREMAP);
	KTEST_EXPECT_EQ(t, vm->phys_addr, PL011_PHYS);
	KTEST_EXPECT_EQ(t, pte_val(*pte) & L_PTE_ATTRINDX_MASK, L_PTE_ATTRINDX(MT_DEVICE));
	KTEST_EXPECT_NE(t, pte_val(*pte) & L_PTE_XN, 0);
	KTEST_EXPECT_NE(t, pte_val(*pte) & L_PTE_PXN, 0);
	KTEST_EXPECT_EQ(t, pte_pfn(*pte), PL011_PHYS >> PAGE_SHIFT);
	KTEST_EXPECT_EQ(t, readl((uintptr_t)uart) & 0x80, 0x80);	/* FR.TXFE: the UART answers */
	KTEST_EXPECT_EQ(t, vmalloc_check(NULL), 0);
	iounmap(uart);
	KTEST_EXPECT_TRUE(t, find_vm_area((void *)((uintptr_t)uart & PAGE_MASK)) == NULL);
	/* RAM is never ioremap()ed: the direct map already maps it, cacheable. */
	KTEST_EXPECT_TRUE(t, ioremap(__pa(_sdata), PAGE_SIZE) == NULL);
	/* The console's fixmap slot: Device, XN, the PL011. */
	pte = &fixmap_pte[(__fix_to_virt(FIX_EARLYCON_MEM_BASE) >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)];
	KTEST_EXPECT_EQ(t, pte_val(*pte), pte_val(pfn_pte(PL011_PHYS >> PAGE_SHIFT, PAGE_KERNEL_DEVICE)));
	KTEST_EXPECT_EQ(t, pgprot_val(pgprot_noncached(PAGE_KERNEL)) & L_PTE_ATTRINDX_MASK,
			L_PTE_ATTRINDX(MT_SO));
	KTEST_EXPECT_EQ(t, pgprot_val(pgprot_writecombine(PAGE_KERNEL)) & L_PTE_ATTRINDX_MASK,
			L_PTE_ATTRINDX(MT_NORMAL_NC));
}

/* Through a volatile pointer, so the compiler neither warns about nor removes the access. */
static unsigned long read_at(uintptr_t a)
{
	volatile unsigned long *volatile p = (volatile unsigned long *)a;

	return *p;
}

static void page_zero_unmapped(struct ktest *t)
{
	/* The whole user half, TTBR0's two entries, is empty: nothing at 0, no identity map. */
	KTEST_EXPECT_TRUE(t, pgd_none(swapper_pg_dir[0]) && pgd_none(swapper_pg_dir[1]));
	KTEST_EXPECT_TRUE(t, virt_to_kpte(0) == NULL);
	KTEST_EXPECT_BUG(t, read_at(16));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: translation fault (level 1) on read at 0x00000010") != NULL);
	KTEST_EXPECT_BUG(t, read_at(PHYS_OFFSET + 0x100000));	/* the image's physical address */
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: translation fault (level 1)") != NULL);
}

static void vmalloc_through_the_mmu(struct ktest *t)
{
	const unsigned int n = 3;
	unsigned char *p = vmalloc(n * PAGE_SIZE);
	unsigned long guard;

	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(p));
	for (unsigned int i = 0; i < n * PAGE_SIZE; i++)
		p[i] = (unsigned char)(i * 7 + 1);
	for (unsigned int i = 0; i < n; i++) {
		struct page *page = vmalloc_to_page(p + i * PAGE_SIZE);
		const unsigned char *alias;
		pte_t *pte = virt_to_kpte((unsigned long)p + i * PAGE_SIZE);

		KTEST_ASSERT_TRUE(t, page != NULL);
		KTEST_ASSERT_TRUE(t, pte != NULL);
		KTEST_EXPECT_EQ(t, pte_val(*pte), pte_val(pfn_pte(page_to_pfn(page), PAGE_KERNEL)));
		/* The same bytes through the direct map: the vmalloc pte points to this page. */
		alias = page_address(page);
		KTEST_EXPECT_EQ(t, memcmp(alias, p + i * PAGE_SIZE, PAGE_SIZE), 0);
	}
	guard = (unsigned long)p + n * PAGE_SIZE;
	KTEST_EXPECT_TRUE(t, !virt_to_kpte(guard) || pte_none(*virt_to_kpte(guard)));
	KTEST_EXPECT_BUG(t, read_at(guard));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: translation fault (level") != NULL);
	vfree(p);
	KTEST_EXPECT_BUG(t, read_at((unsigned long)p));	/* unmapped and flushed */
}

static void write_at(uintptr_t a, int v)
{
	volatile int *volatile p = (volatile int *)a;

	*p = v;
}

static int ro_after_init_probe __ro_after_init = 0x5a;

/* mark_rodata_ro() ran before the first thread: the range's ptes are PAGE_KERNEL_RO and a
 * write to it is a permission fault (recovered here; lkdtm's WRITE_RO_AFTER_INIT will panic). */
static void ro_after_init_read_only_after_boot(struct ktest *t)
{
	unsigned long start = (unsigned long)__start_ro_after_init;
	unsigned long end = (unsigned long)__end_ro_after_init;
	unsigned long probe = (unsigned long)&ro_after_init_probe;
	pte_t *after = virt_to_kpte(end);

	KTEST_ASSERT_TRUE(t, arm_lpae_on);
	KTEST_EXPECT_EQ(t, start, (unsigned long)_sdata);	/* its own pages, first in data */
	KTEST_EXPECT_EQ(t, end & ~PAGE_MASK, 0);
	KTEST_ASSERT_TRUE(t, probe >= start && probe < end);
	KTEST_EXPECT_TRUE(t, (unsigned long)&arm_lpae_on >= start && (unsigned long)&arm_lpae_on < end);
	for (unsigned long a = start; a < end; a += PAGE_SIZE) {
		pte_t *pte = virt_to_kpte(a);

		KTEST_ASSERT_TRUE(t, pte != NULL);
		KTEST_EXPECT_EQ(t, pte_val(*pte), pte_val(pfn_pte(__pa((void *)a) >> PAGE_SHIFT, PAGE_KERNEL_RO)));
	}
	KTEST_ASSERT_TRUE(t, after != NULL);			/* .data goes on writable */
	KTEST_EXPECT_EQ(t, pte_val(*after), pte_val(pfn_pte(__pa((void *)end) >> PAGE_SHIFT, PAGE_KERNEL)));
	KTEST_EXPECT_EQ(t, ro_after_init_probe, 0x5a);
	KTEST_EXPECT_BUG(t, write_at(probe, 0xbad));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: permission fault (level 3) on write at") != NULL);
	KTEST_EXPECT_EQ(t, ro_after_init_probe, 0x5a);
}

/* Every pte of the table @pmd points to maps its own frame of the block at @base, PAGE_KERNEL
 * but for @ro (PAGE_KERNEL_RO, or none if 0): how many do not. */
static unsigned int split_block_wrong(pmd_t *pmd, unsigned long base, unsigned long ro)
{
	pte_t *pte = (pte_t *)pmd_page_vaddr(*pmd);
	unsigned int wrong = 0;

	for (unsigned int i = 0; i < PTRS_PER_PTE; i++) {
		unsigned long a = base + i * PAGE_SIZE;
		pgprot_t prot = a == ro ? PAGE_KERNEL_RO : PAGE_KERNEL;

		wrong += pte_val(pte[i]) != pte_val(pfn_pte(__pa((void *)a) >> PAGE_SHIFT, prot));
	}
	return wrong;
}

/*
 * set_memory_ro() on a page of the direct map splits its 2 MiB block into a pte table, live:
 * a whole block of our own (an order-9 allocation: naturally aligned, so exactly one block, and
 * nothing running, no stack and no table, is in it), a page in its middle made read-only, the
 * other 511 still PAGE_KERNEL, reads through all of it fine; then set_memory_rw() back.  The
 * read-only page is never written (only read) while it is read-only.
 */
static void set_memory_splits_a_direct_map_block(struct ktest *t)
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
	if (!pmd_leaf(*pmd) || (base & ~PMD_MASK)) {
		__free_pages(blk, order);
		KTEST_ASSERT_TRUE(t, false);	/* the direct map has a block here */
	}
	KTEST_EXPECT_EQ(t, pmd_val(*pmd), pmd_val(pfn_pmd(__pa((void *)base) >> PAGE_SHIFT, PAGE_KERNEL)));
	for (unsigned long a = addr - PAGE_SIZE; a <= addr + PAGE_SIZE; a += PAGE_SIZE)
		write_at(a, (int)(a >> PAGE_SHIFT));

	KTEST_EXPECT_EQ(t, set_memory_ro(addr, 1), 0);
	KTEST_EXPECT_FALSE(t, pmd_leaf(*pmd));			/* a pte table now */
	if (!pmd_leaf(*pmd)) {
		KTEST_EXPECT_TRUE(t, PageTable(virt_to_page((void *)pmd_page_vaddr(*pmd))));
		KTEST_EXPECT_EQ(t, split_block_wrong(pmd, base, addr), 0);
		KTEST_EXPECT_FALSE(t, pte_write(*virt_to_kpte(addr)));
		KTEST_EXPECT_TRUE(t, pte_write(*virt_to_kpte(addr - PAGE_SIZE)) &&
				  pte_write(*virt_to_kpte(addr + PAGE_SIZE)));
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
	if (!pmd_leaf(*pmd))
		KTEST_EXPECT_EQ(t, split_block_wrong(pmd, base, 0), 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), tables + 1);	/* stays split */
	write_at(addr, 0x5678);
	KTEST_EXPECT_EQ(t, *(volatile int *)addr, 0x5678);
	__free_pages(blk, order);
}

static const struct ktest_case mmu_cases[] = {
	KTEST_CASE(mmu_caches_and_branch_prediction_on),
	KTEST_CASE(lpae_registers),
	KTEST_CASE(every_entry_as_designed_and_no_w_and_x),
	KTEST_CASE(image_sections_split_into_pages),
	KTEST_CASE(ioremap_is_device_execute_never),
	KTEST_CASE(page_zero_unmapped),
	KTEST_CASE(vmalloc_through_the_mmu),
	KTEST_CASE(ro_after_init_read_only_after_boot),
	KTEST_CASE(set_memory_splits_a_direct_map_block),	/* last: it leaves a block split */
	{ 0 },
};
KTEST_SUITE(mmu, mmu_cases);
