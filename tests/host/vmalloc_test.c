/*
 * vmalloc_test.c - the vmalloc range allocator (mm/vmalloc.c) over the fake page-table
 * architecture, on the host under ASan/UBSan, over an 8 MiB fake RAM booted afresh for every
 * case; built with three levels (host.vmalloc) and two (host.vmalloc_2level).
 *
 * What it checks: vmalloc maps distinct order-0 pages PAGE_KERNEL with an unmapped guard page
 * after every area, counted in its size; vzalloc's pages are zero; first fit reuses a freed
 * range; vmap maps the caller's pages in order and vunmap leaves them the caller's; vmallocinfo
 * and meminfo's Vmalloc lines; a request that cannot be met (range full, more than RAM, RAM
 * exhausted) is NULL with "vmalloc error" and loses nothing; vfree of anything but an area's
 * start, twice, or vunmap of a vmalloc area, is a WARNING that frees nothing; vmalloc_check()
 * finds an unmapped page and a mapped guard when they are made on purpose; after everything is
 * freed, every frame is back but the tables the pgd points to; ioremap() maps device frames
 * and refuses RAM; non-cacheable mappings mark their pages PG_uncached or are refused; the shell commands (vmalloc,
 * vfree, vmallocinfo, vmalloccheck) do the same from the console, bad input one line each.
 */
#include "test.h"
#include "tinymm/bug.h"
#include "tinymm/io.h"
#include "tinymm/memblock.h"
#include "tinymm/meminfo.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"
#include "fake_pgtable.h"
#include "fake_ram.h"

#define RAM_SIZE	(8 * SZ_1M)
#define P		PAGE_SIZE
static char *ram;
static unsigned long free0;		/* free frames + slab frames after the boot */

static unsigned long free_and_slab(void)
{
	return nr_free_pages_and_pcp() + slab_pages_reclaimable() + slab_pages_unreclaimable();
}

static int group_setup(void **state)
{
	ram = fake_ram_alloc(RAM_SIZE);
	return ram ? 0 : -1;
}

static int group_teardown(void **state)
{
	free(ram);
	return 0;
}

static void boot(unsigned long vmalloc_size)
{
	unsigned long pfn0;

	assert_int_equal(fake_mmu_boot(ram, RAM_SIZE, vmalloc_size, &pfn0), 0);
	vmalloc_init();
	time_init(1000000);
	shim_counter += 10 * shim_counter_freq;	/* past the failure warning's 5 s window */
	console_loglevel = 7;
	shim_console_reset();
	free0 = free_and_slab();
}

static int setup(void **state)
{
	boot(0);
	return 0;
}

static int check(void)
{
	int bad = vmalloc_check(printk);

	if (bad)
		fprintf(stderr, "%s", shim_console);
	return bad;
}

/* Every frame back but the tables still in use (the slab may keep its empty slabs), no vmalloc
 * page counted. */
static void assert_nothing_lost(void)
{
	assert_int_equal(check(), 0);
	assert_int_equal(atomic_long_read(&nr_vmalloc_pages), 0);
	assert_int_equal(free_and_slab() + global_node_page_state(NR_PAGETABLE), free0);
	assert_int_equal(buddy_check(NULL), 0);
}

/* A walk over an area: which of its pages have a present pte (bit i for page i). */
static int present_pte(pte_t *pte, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	unsigned long *bits = walk->private;

	if (pte_present(ptep_get(pte)))
		*bits |= 1UL << ((addr - VMALLOC_START) >> PAGE_SHIFT);
	return 0;
}

static void vmalloc_maps_pages_and_a_guard(void **state)
{
	char *a = vmalloc(3 * P + 1);
	struct vm_struct *vm;

	assert_non_null(a);
	assert_true(is_vmalloc_addr(a));
	assert_int_equal((unsigned long)a % P, 0);
	assert_int_equal((unsigned long)a, VMALLOC_START);	/* first fit in an empty range */
	vm = find_vm_area(a + 2 * P + 5);
	assert_non_null(vm);
	assert_ptr_equal(vm->addr, a);
	assert_int_equal(vm->size, 5 * P);			/* four pages and the guard */
	assert_int_equal(get_vm_area_size(vm), 4 * P);
	assert_int_equal(vm->nr_pages, 4);
	assert_int_equal(vm->flags, VM_ALLOC);
	for (unsigned int i = 0; i < 4; i++) {
		pte_t pte = ptep_get(virt_to_kpte((unsigned long)a + i * P));
		assert_true(pte_present(pte) && pte_write(pte) && !pte_exec(pte));
		assert_ptr_equal(vmalloc_to_page(a + i * P), vm->pages[i]);
		assert_int_equal(page_ref_count(vm->pages[i]), 1);
		for (unsigned int j = 0; j < i; j++)
			assert_ptr_not_equal(vm->pages[i], vm->pages[j]);
	}
	/* the guard: the walk finds no pte for it, and no pte past it */
	static const struct mm_walk_ops ops = { .pte_entry = present_pte };
	unsigned long bits = 0;
	assert_int_equal(walk_page_range_novma(&init_mm, VMALLOC_START, VMALLOC_START + 64 * P,
					       &ops, NULL, &bits), 0);
	assert_int_equal(bits, 0xfUL);
	pte_t *guard = virt_to_kpte((unsigned long)a + 4 * P);
	assert_true(!guard || pte_none(ptep_get(guard)));
	assert_null(vmalloc_to_page(a + 4 * P));
	assert_int_equal(atomic_long_read(&nr_vmalloc_pages), 4);
	assert_int_equal(check(), 0);
	vfree(a);
	assert_null(find_vm_area(a));
	assert_null(vmalloc_to_page(a));
	assert_nothing_lost();
}

static void vzalloc_is_zeroed(void **state)
{
	/* dirty every free frame first, so a zero is vzalloc's doing */
	struct page *held[64];
	for (int i = 0; i < 64; i++) {
		held[i] = alloc_page(GFP_KERNEL);
		memset(page_address(held[i]), 0xa5, P);
	}
	for (int i = 0; i < 64; i++)
		__free_page(held[i]);
	char *z = vzalloc(16 * P);
	struct vm_struct *vm = find_vm_area(z);
	for (unsigned int i = 0; i < 16; i++) {
		const char *kaddr = page_address(vm->pages[i]);
		for (unsigned long b = 0; b < P; b++)
			assert_int_equal(kaddr[b], 0);
	}
	vfree(z);
	assert_nothing_lost();
}

static void freed_range_is_reused_first_fit(void **state)
{
	char *a = vmalloc(4 * P), *b = vmalloc(4 * P), *c, *d;

	assert_ptr_equal(b, a + 5 * P);		/* after a's guard page */
	vfree(a);
	c = vmalloc(2 * P);
	assert_ptr_equal(c, a);			/* the lowest gap that holds it */
	d = vmalloc(P);				/* 2 pages left before b: 1 + guard fit */
	assert_ptr_equal(d, a + 3 * P);
	char *e = vmalloc(P);			/* no room left before b */
	assert_ptr_equal(e, b + 5 * P);
	assert_int_equal(check(), 0);
	vfree(b);
	vfree(c);
	vfree(d);
	vfree(e);
	assert_nothing_lost();
}

static void vmap_maps_callers_pages(void **state)
{
	struct page *pages[3];

	for (int i = 0; i < 3; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	char *v = vmap(pages, 3, 0, PAGE_KERNEL_RO);
	assert_non_null(v);
	struct vm_struct *vm = find_vm_area(v);
	assert_int_equal(vm->flags, VM_MAP);
	assert_null(vm->pages);
	assert_int_equal(vm->size, 4 * P);
	for (int i = 0; i < 3; i++) {
		assert_ptr_equal(vmalloc_to_page(v + i * P), pages[i]);
		assert_false(pte_write(ptep_get(virt_to_kpte((unsigned long)v + i * P))));
	}
	assert_null(vmalloc_to_page(v + 3 * P));
	assert_int_equal(atomic_long_read(&nr_vmalloc_pages), 0);	/* not vmalloc's */
	assert_int_equal(check(), 0);
	vunmap(v);
	assert_null(vmalloc_to_page(v));
	for (int i = 0; i < 3; i++) {
		assert_int_equal(page_ref_count(pages[i]), 1);		/* still the caller's */
		__free_page(pages[i]);
	}
	assert_nothing_lost();
}

static void vmallocinfo_and_meminfo(void **state)
{
	char *a = vmalloc(4 * P);
	struct page *page = alloc_page(GFP_KERNEL);
	char *v = vmap(&page, 1, 0, PAGE_KERNEL);
	char want[160];

	shim_console_reset();
	show_vmalloc_info(kprintf);
	/* Linux's s_show(): range, size with the guard, caller, pages=, kind */
	/* tinymm's %p: 0x and every digit of a pointer */
	snprintf(want, sizeof(want), "0x%016lx-0x%016lx   20480 0x", (unsigned long)a,
		 (unsigned long)(a + 5 * P));
	assert_console_has(want);
	assert_console_has(" pages=4 vmalloc\n");
	snprintf(want, sizeof(want), "0x%016lx-0x%016lx    8192 0x", (unsigned long)v,
		 (unsigned long)(v + 2 * P));
	assert_console_has(want);
	assert_console_has(" pages=1 vmap\n");
	assert_ptr_equal(strstr(shim_console, "vmalloc\n") < strstr(shim_console, "vmap\n") ?
			 a : v, a);				/* address order */

	assert_int_equal(shim_run("meminfo"), 0);
	snprintf(want, sizeof(want), "VmallocTotal:   %8lu kB\nVmallocUsed:          16 kB\n"
		 "VmallocChunk:          0 kB\n", (VMALLOC_END - VMALLOC_START) >> 10);
	assert_console_has(want);
	vfree(a);
	vunmap(v);
	__free_page(page);
	assert_nothing_lost();
}

static void exhaustion_is_null_and_a_warning(void **state)
{
	boot(16 * P);				/* a range of 16 pages */
	char *a = vmalloc(15 * P);		/* 15 + guard: all of it */
	assert_non_null(a);
	shim_console_reset();
	assert_null(vmalloc(1));
	assert_console_has("swapper: vmalloc error: size 1, vm_struct allocation failed, mode:0xcc0(GFP_KERNEL)");
	assert_console_has("Call trace:");
	assert_null(vmap(&(struct page *){ virt_to_page(ram) }, 1, 0, PAGE_KERNEL));
	assert_null(__vmalloc(1, GFP_KERNEL | __GFP_NOWARN));
	vfree(a);
	a = vmalloc(15 * P);			/* all of it again, after the free */
	assert_non_null(a);
	vfree(a);
	assert_nothing_lost();

	boot(0);
	shim_console_reset();
	assert_null(vmalloc(RAM_SIZE + P));
	assert_console_has("vmalloc error: size 8392704, exceeds total pages");
	/* RAM runs out half-way: everything taken so far goes back */
	char want[96];
	unsigned long size = totalram_pages() * P;	/* not more than RAM, more than is free */
	shim_console_reset();
	assert_null(vmalloc(size));
	snprintf(want, sizeof(want), "vmalloc error: size %lu, page order 0 allocation failed", size);
	assert_console_has(want);
	assert_nothing_lost();
	/* a warning per failure, never a hang, and still usable after */
	a = vmalloc(P);
	assert_non_null(a);
	vfree(a);
	assert_nothing_lost();
}

static void bad_vfree_warns_and_frees_nothing(void **state)
{
	char *a = vmalloc(4 * P);
	struct page *first = vmalloc_to_page(a);
	unsigned long warnings = nr_warnings(), free_now = nr_free_pages_and_pcp();

	shim_console_reset();
	vfree(a + P);				/* inside, page-aligned: Linux would free it all */
	assert_console_has("Trying to vfree() nonexistent vm area");
	vfree(a + 1);
	assert_console_has("Trying to vfree() bad address");
	vfree(a + 4 * P);			/* the guard page */
	vfree((void *)(VMALLOC_END - P));	/* nothing there */
	vunmap(a);				/* a vmalloc area is vfree()'s */
	assert_console_has("Trying to vunmap() a vmalloc area");
	vunmap(a + 2 * P);
	assert_console_has("Trying to vunmap() nonexistent vm area");
	assert_int_equal(nr_warnings(), warnings + 6);
	assert_console_has("WARNING: CPU: 0");
	/* nothing lost: the area, its mapping, its pages */
	assert_ptr_equal(find_vm_area(a)->addr, a);
	assert_ptr_equal(vmalloc_to_page(a), first);
	assert_int_equal(nr_free_pages_and_pcp(), free_now);
	assert_int_equal(check(), 0);
	vfree(a);
	vfree(a);				/* twice: a warning, nothing else */
	assert_int_equal(nr_warnings(), warnings + 7);
	vfree(NULL);				/* a no-op, as kfree(NULL) */
	assert_int_equal(nr_warnings(), warnings + 7);
	assert_nothing_lost();
}

static void check_catches_damage(void **state)
{
	char *a = vmalloc(2 * P);
	pte_t *pte0 = virt_to_kpte((unsigned long)a), *guard = virt_to_kpte((unsigned long)a + 2 * P);
	pte_t saved = ptep_get(pte0);

	shim_console_reset();
	pte_clear(&init_mm, 0, pte0);				/* a page unmapped */
	assert_int_equal(vmalloc_check(printk), 1);
	assert_console_has("page 0 mapped to 0x0000000000000000, not 0x");
	set_pte_at(&init_mm, 0, pte0, saved);
	set_pte_at(&init_mm, 0, guard, saved);			/* the guard mapped */
	assert_int_equal(vmalloc_check(printk), 1);
	assert_console_has(": guard page 0x");
	pte_clear(&init_mm, 0, guard);
	atomic_long_inc(&nr_vmalloc_pages);			/* the counter off */
	assert_int_equal(vmalloc_check(NULL), 1);
	atomic_long_dec(&nr_vmalloc_pages);
	assert_int_equal(check(), 0);
	vfree(a);
	assert_nothing_lost();
}

/*
 * Non-cacheable mappings of RAM: with a CPU that has the type (three levels here), a
 * write-combining vmap() and __vmalloc_prot() clean each page (arch_dma_prep_coherent) and mark
 * it PG_uncached while mapped, the ptes carry the type, vmalloc_check() sees a flag lost on
 * purpose, a second non-cacheable mapping of a page is refused, and the flags go at vunmap() and
 * vfree().  Without the type (two levels, as Sv32, or the CPU saying no) every such request is
 * refused in one line and nothing is mapped or marked.
 */
static void noncacheable_mappings_mark_pg_uncached(void **state)
{
	pgprot_t wc = pgprot_writecombine(PAGE_KERNEL);
	struct page *pages[2] = { alloc_page(GFP_KERNEL), alloc_page(GFP_KERNEL) };

	assert_true(pgprot_noncacheable(wc) && !pgprot_noncacheable(PAGE_KERNEL));
	if (FAKE_PGTABLE_LEVELS == 2) {
		shim_console_reset();
		assert_null(vmap(pages, 2, VM_MAP, wc));
		assert_null(__vmalloc_prot(P, GFP_KERNEL, wc));
		assert_console_has("vmap: this CPU has no non-cacheable memory type: mapping refused");
		assert_false(PageUncached(pages[0]) || PageUncached(pages[1]));
		assert_int_equal(fake_prep_coherent_pages, 0);
		goto out;
	}
	char *v = vmap(pages, 2, VM_MAP, wc);
	const struct vm_struct *vm = find_vm_area(v);

	assert_non_null(v);
	assert_true(vm->flags & VM_UNCACHED);
	assert_true(PageUncached(pages[0]) && PageUncached(pages[1]));
	assert_int_equal(fake_prep_coherent_pages, 2);
	assert_int_equal(pte_val(ptep_get(virt_to_kpte((unsigned long)v + P))),
			 pte_val(pfn_pte(page_to_pfn(pages[1]), wc)));
	assert_int_equal(check(), 0);
	/* A second non-cacheable mapping of the same page: refused; a cacheable one is fine. */
	shim_console_reset();
	assert_null(vmap(&pages[1], 1, VM_MAP, pgprot_noncached(PAGE_KERNEL)));
	assert_console_has("is already mapped non-cacheable: refused");
	void *c = vmap(&pages[1], 1, VM_MAP, PAGE_KERNEL);
	assert_non_null(c);
	vunmap(c);
	assert_true(PageUncached(pages[1]));		/* still the uncached area's */
	/* vmalloc_check() notices the flag gone. */
	ClearPageUncached(pages[0]);
	shim_console_reset();
	assert_int_equal(vmalloc_check(printk), 1);
	assert_console_has("page 0 lacks PG_uncached");
	SetPageUncached(pages[0]);
	vunmap(v);
	assert_false(PageUncached(pages[0]) || PageUncached(pages[1]));

	/* __vmalloc_prot(): its own pages, marked while they are the area's, clean at vfree(). */
	char *w = __vmalloc_prot(3 * P, GFP_KERNEL, wc);
	struct page *p0 = vmalloc_to_page(w);
	assert_non_null(w);
	assert_true(PageUncached(p0) && PageUncached(vmalloc_to_page(w + 2 * P)));
	assert_int_equal(pte_val(ptep_get(virt_to_kpte((unsigned long)w + 2 * P))),
			 pte_val(pfn_pte(page_to_pfn(vmalloc_to_page(w + 2 * P)), wc)));
	assert_int_equal(fake_prep_coherent_pages, 5);
	vfree(w);
	assert_false(PageUncached(p0));

	/* A CPU without the type: refused, nothing marked. */
	fake_noncached_ok = false;
	shim_console_reset();
	assert_null(vmap(pages, 2, VM_MAP, wc));
	assert_console_has("vmap: this CPU has no non-cacheable memory type: mapping refused");
	assert_false(PageUncached(pages[0]));
	fake_noncached_ok = true;
out:
	__free_page(pages[0]);
	__free_page(pages[1]);
	assert_nothing_lost();
}

/*
 * ioremap() (mm/ioremap.c): a device range just past RAM maps its frames PAGE_KERNEL_IO with the
 * offset kept, shows in vmallocinfo with phys= and ioremap, is checked by vmalloc_check() (which
 * catches a pte moved to another frame on purpose); RAM, an empty range and a wrapping one are
 * refused in one line; iounmap() of anything but an ioremap() area is a WARNING that changes
 * nothing; after iounmap() nothing is lost.
 */
static void ioremap_maps_device_frames(void **state)
{
	phys_addr_t dev = __pa(ram) + RAM_SIZE + 16 * P;	/* not RAM */
	char *regs = ioremap(dev + 0x234, 2 * P);		/* mid-page: three pages */
	unsigned long base = (unsigned long)regs & ~(P - 1);
	const struct vm_struct *vm = find_vm_area((void *)base);

	assert_non_null(regs);
	assert_int_equal((unsigned long)regs & (P - 1), 0x234);
	assert_non_null(vm);
	assert_int_equal(vm->flags, VM_IOREMAP);
	assert_int_equal(vm->phys_addr, dev);
	assert_int_equal(get_vm_area_size(vm), 3 * P);
	for (int i = 0; i < 3; i++) {
		pte_t pte = ptep_get(virt_to_kpte(base + i * P));

		assert_int_equal(pte_val(pte), pte_val(pfn_pte((unsigned long)(dev >> PAGE_SHIFT) + i,
							      PAGE_KERNEL_IO)));
		assert_false(pte_exec(pte));
	}
	assert_null(virt_to_kpte(base + 3 * P) && pte_present(ptep_get(virt_to_kpte(base + 3 * P))) ?
		    (void *)1 : NULL);				/* the guard */
	assert_int_equal(check(), 0);
	shim_console_reset();
	show_vmalloc_info(printk);
	assert_console_has(" phys=0x");
	assert_console_has(" ioremap\n");
	assert_int_equal(atomic_long_read(&nr_vmalloc_pages), 0);	/* not VmallocUsed */

	/* vmalloc_check() sees a pte pointing at the wrong frame. */
	pte_t *p1 = virt_to_kpte(base + P), saved = ptep_get(p1);
	set_pte_at(&init_mm, 0, p1, pfn_pte(pte_pfn(saved) + 1, PAGE_KERNEL_IO));
	shim_console_reset();
	assert_int_equal(vmalloc_check(printk), 1);
	assert_console_has("does not map pfn 0x");
	set_pte_at(&init_mm, 0, p1, saved);

	/* Refused: RAM, nothing, a wrap.  Each is one line and NULL. */
	shim_console_reset();
	assert_null(ioremap(__pa(ram) + RAM_SIZE - P, 2 * P));	/* its first page is RAM */
	assert_console_has("is RAM: refused");
	assert_null(ioremap(dev, 0));
	assert_null(ioremap((phys_addr_t)-P, 2 * P));
	assert_console_has("empty or wraps around");
	unsigned long total = vmalloc_total;		/* as before vmalloc_init() */
	vmalloc_total = 0;
	assert_null(ioremap(dev, P));
	assert_console_has("before vmalloc_init(): use the fixmap");
	vmalloc_total = total;

	/* iounmap() of a vmalloc area, or of the middle of the ioremap one: WARNING, no change. */
	void *v = vmalloc(P);
	unsigned long warns = nr_warnings();
	iounmap(v);
	iounmap(regs + P);
	assert_int_equal(nr_warnings(), warns + 2);
	assert_non_null(find_vm_area(v));
	assert_non_null(find_vm_area((void *)base));
	vfree(v);
	iounmap(regs);
	assert_null(find_vm_area((void *)base));
	assert_nothing_lost();
}

/* The shell commands (mm/vmalloc_cmd.c): an area kept by `vmalloc`, listed, checked, a bad
 * `vfree` refused with nothing lost, the good one; bad arguments and a request that cannot be
 * met are one line each; `vmalloccheck` fails on damage made on purpose. */
static void shell_commands(void **state)
{
	unsigned long start, end;
	unsigned int pages;
	char cmd[64];

	shim_console_reset();
	assert_int_equal(shim_run("vmalloc 12"), 0);
	assert_int_equal(sscanf(shim_console, "vmalloc: %lx-%lx pages=%u\n", &start, &end, &pages), 3);
	assert_int_equal(end - start, 3 * P);
	assert_int_equal(pages, 3);
	assert_true(is_vmalloc_addr((void *)start));
	shim_console_reset();
	assert_int_equal(shim_run("vmallocinfo"), 0);
	assert_console_has(" pages=3 vmalloc\n");
	assert_int_equal(shim_run("vmalloccheck"), 0);
	assert_console_has("vmalloccheck: ok (0 problems)\n");

	snprintf(cmd, sizeof(cmd), "vfree %#lx", start + P);	/* inside, not the start */
	shim_console_reset();
	assert_int_equal(shim_run(cmd), 1);
	assert_console_has("WARNING:");
	assert_console_has("is not the start of a vmalloc area: nothing freed\n");
	assert_ptr_not_equal(find_vm_area((void *)start), NULL);

	pte_t *pte = virt_to_kpte(start), saved = ptep_get(pte);
	pte_clear(&init_mm, 0, pte);
	shim_console_reset();
	assert_int_equal(shim_run("vmalloccheck"), 1);
	assert_console_has("vmalloccheck: FAILED (1 problems)\n");
	set_pte_at(&init_mm, 0, pte, saved);

	snprintf(cmd, sizeof(cmd), "vfree %#lx", start);
	assert_int_equal(shim_run(cmd), 0);
	assert_ptr_equal(find_vm_area((void *)start), NULL);

	assert_int_equal(shim_run("vmalloc 0"), 2);	/* shim_run() keeps the last output */
	assert_console_has("vmalloc: usage: vmalloc <KiB> (1-4194304) [nc]\n");
	assert_int_equal(shim_run("vmalloc 4 wc"), 2);
	assert_int_equal(shim_run("vmalloc 4 nc 1"), 2);
	assert_int_equal(shim_run("vmalloc 4194305"), 2);
	assert_int_equal(shim_run("vmalloc x"), 2);
	assert_int_equal(shim_run("vfree"), 2);
	assert_console_has("vfree: usage: vfree <addr>\n");
	assert_int_equal(shim_run("vmallocinfo extra"), 2);
	assert_console_has("vmallocinfo: unexpected argument 'extra'\n");
	shim_console_reset();
	assert_int_equal(shim_run("vmalloc 65536"), 1);		/* 64 MiB: more than the fake RAM */
	assert_console_has("vmalloc error: size ");
	assert_console_has("vmalloc: 65536 KiB failed (see above)\n");
	assert_nothing_lost();
}

static void many_areas_then_none(void **state)
{
	char *p[40];

	/* sizes 1..40 pages over several pte tables, then freed in a scattered order */
	for (int i = 0; i < 40; i++) {
		p[i] = vmalloc((unsigned long)(i + 1) * P);
		assert_non_null(p[i]);
		if (i)
			assert_true(p[i] > p[i - 1]);
	}
	assert_int_equal(check(), 0);
	assert_int_equal(atomic_long_read(&nr_vmalloc_pages), 40 * 41 / 2);
	for (int i = 0; i < 40; i++)
		vfree(p[(i * 7) % 40]);
	assert_nothing_lost();
	/* three levels: only the pmd table stays; two: the pte tables the pgd points at */
	assert_int_equal(global_node_page_state(NR_PAGETABLE),
			 PGTABLE_LEVELS == 3 ? 1 : (820 * P + 40 * P + PMD_SIZE - 1) / PMD_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(vmalloc_maps_pages_and_a_guard, setup),
		cmocka_unit_test_setup(vzalloc_is_zeroed, setup),
		cmocka_unit_test_setup(freed_range_is_reused_first_fit, setup),
		cmocka_unit_test_setup(vmap_maps_callers_pages, setup),
		cmocka_unit_test_setup(vmallocinfo_and_meminfo, setup),
		cmocka_unit_test_setup(exhaustion_is_null_and_a_warning, setup),
		cmocka_unit_test_setup(bad_vfree_warns_and_frees_nothing, setup),
		cmocka_unit_test_setup(check_catches_damage, setup),
		cmocka_unit_test_setup(ioremap_maps_device_frames, setup),
		cmocka_unit_test_setup(noncacheable_mappings_mark_pg_uncached, setup),
		cmocka_unit_test_setup(many_areas_then_none, setup),
		cmocka_unit_test_setup(shell_commands, setup),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
