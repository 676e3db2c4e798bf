/*
 * vmalloc_fuzz.c - libFuzzer target for the vmalloc range allocator and the page-table walkers
 * (mm/vmalloc.c, mm/pagewalk.c) over the host's fake MMU with three levels
 * (tests/host/include/asm/pgtable.h): CTest fuzz.vmalloc; long runs: README.md.
 *
 * Each input boots a fresh page allocator, slab and vmalloc over an 8 MiB fake RAM.  Its first
 * byte picks the vmalloc range (64 pages, 600 pages, 4 MiB across a pmd boundary, the default
 * 256 MiB); the rest, read round and round for at least OPS_PER_INPUT operations, decodes to
 * operations (op byte % 6):
 *   0, 1  vmalloc / vzalloc of 1 byte to 24 pages (sometimes far more than RAM)
 *   2     vfree of a held area
 *   3     vmap of 1-8 fresh caller pages, PAGE_KERNEL or read-only
 *   4     vunmap of a held vmap area (its pages go back to the caller, then the allocator)
 *   5     a bad vfree or vunmap: inside an area or at its guard, unaligned, a vmalloc area
 *         vunmap'ed, or no area at all; exactly one WARNING, nothing changes
 * A model holds every area (address, pages, kind).  After every operation:
 *   - vmalloc_check() finds nothing (areas sorted, disjoint, in the range, guards unmapped,
 *     pages where they belong, nr_vmalloc_pages right);
 *   - every area of the model is find_vm_area()'s, at its address and size;
 *   - a walk of the whole range (walk_page_range_novma) finds a present pte exactly at each
 *     page of each area, pointing at that area's own page, and no other;
 *   - NR_PAGETABLE == the PG_table frames of the RAM == the tables reachable from the root.
 * At the end everything is freed and every frame is back but the tables the pgd points at.
 * A failure prints the check, vmalloc_check's complaints and the log, then aborts.
 *
 * VMALLOC_FUZZ_BREAK=1 maps an area's guard page, =2 leaks a page-table frame, at the end of
 * every input: CTests fuzz.vmalloc_guard_mapped_aborts and fuzz.vmalloc_leaked_table_aborts
 * require the abort.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tinymm/bug.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"
#include "fake_pgtable.h"
#include "fake_ram.h"
#include "fuzz_input.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

#define RAM_SIZE	(8 * SZ_1M)
#define RAM_FRAMES	(RAM_SIZE / PAGE_SIZE)
#define MAX_HELD	64
#define OPS_PER_INPUT	160	/* at least; an input longer than that gives one per byte */

struct held {
	char *addr;
	unsigned int nr;		/* pages */
	bool vmap;
	struct page *pages[8];		/* vmap's: the caller's (this fuzzer's) pages */
	struct page **vm_pages;		/* vmalloc's: its vm_struct's pages */
};

static char *ram;
static unsigned long pfn0, boot_frames, op_index;
static struct held held[MAX_HELD];
static int nr_held;
static unsigned long long total_ops, total_inputs;
static int break_mode;

static void __attribute__((noreturn)) fuzz_fail(int line, const char *what)
{
	fprintf(stderr, "vmalloc_fuzz: check failed at %s:%d, operation %lu of the input: %s\n",
		__FILE__, line, op_index, what);
	vmalloc_check(eprintf);
	fprintf(stderr, "--- kernel log ---\n");
	log_buf_dump(log_out);
	abort();
}
#define CHECK(cond)	do { if (!(cond)) fuzz_fail(__LINE__, #cond); } while (0)

static void report(void)
{
	fprintf(stderr, "vmalloc_fuzz: %llu operations in %llu inputs\n", total_ops, total_inputs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	break_mode = fuzz_break_mode("VMALLOC_FUZZ_BREAK");
	ram = fake_ram_alloc(RAM_SIZE);
	if (!ram)
		abort();
	pfn0 = (unsigned long)(__pa(ram) >> PAGE_SHIFT);
	time_init(1000000);
	console_loglevel = 0;		/* the log keeps everything for a failure report */
	atexit(report);
	return 0;
}

static unsigned long free_and_slab(void)
{
	return nr_free_pages_and_pcp() + slab_pages_reclaimable() + slab_pages_unreclaimable();
}

static void boot(unsigned int cfg)
{
	static const unsigned long range[4] = { 64 * PAGE_SIZE, 600 * PAGE_SIZE, 4 * SZ_1M, 0 };

	CHECK(fake_mmu_boot(ram, RAM_SIZE, range[cfg & 3], &pfn0) == 0);
	if ((cfg & 3) == 2) {		/* across two pmd boundaries: three pte tables */
		fake_vmalloc_start += SZ_1M;
		fake_vmalloc_end += SZ_1M;
	}
	vmalloc_init();
	nr_held = 0;
	boot_frames = free_and_slab();
}

/* ---- the checks ---- */
struct walk_state { unsigned long present, tables; };

/* The model's owner of @addr and which of its pages, or NULL (a guard or no area). */
static struct held *owner(unsigned long addr, unsigned int *index)
{
	for (int i = 0; i < nr_held; i++) {
		unsigned long start = (unsigned long)held[i].addr;
		if (addr >= start && addr < start + (unsigned long)held[i].nr * PAGE_SIZE) {
			*index = (unsigned int)((addr - start) >> PAGE_SHIFT);
			return &held[i];
		}
	}
	return NULL;
}

static int w_pmd(pmd_t *pmd, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct walk_state *w = walk->private;

	CHECK(!pmd_leaf(*pmd));			/* vmalloc never maps a leaf */
	CHECK(PageTable(virt_to_page((void *)pmd_page_vaddr(*pmd))));
	w->tables++;
	return 0;
}

static int w_pte(pte_t *ptep, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct walk_state *w = walk->private;
	pte_t pte = ptep_get(ptep);
	unsigned int i;
	struct held *h;

	if (pte_none(pte))
		return 0;
	CHECK(pte_present(pte));
	h = owner(addr, &i);
	CHECK(h != NULL);			/* a pte outside every area: a guard or a leftover */
	struct page *want = h->vmap ? h->pages[i] : h->vm_pages[i];
	CHECK(pte_pfn(pte) == page_to_pfn(want));	/* the area's own page */
	w->present++;
	return 0;
}

static const struct mm_walk_ops check_ops = { .pmd_entry = w_pmd, .pte_entry = w_pte };

static unsigned long table_frames(void)
{
	unsigned long n = 0;

	for (unsigned long pfn = pfn0; pfn < pfn0 + RAM_FRAMES; pfn++)
		n += PageTable(pfn_to_page(pfn));
	return n;
}

/* Tables reachable from the root: the pmd tables the pgd points at (the walk counts the rest). */
static unsigned long pmd_tables(void)
{
	unsigned long n = 0;

	for (unsigned int i = 0; i < PTRS_PER_PGD; i++)
		n += !pgd_none(swapper_pg_dir[i]);
	return n;
}

static void check_all(void)
{
	struct walk_state w = { 0 };
	unsigned long pages = 0;

	CHECK(vmalloc_check(NULL) == 0);
	for (int i = 0; i < nr_held; i++) {
		struct vm_struct *vm = find_vm_area(held[i].addr);
		CHECK(vm && vm->addr == held[i].addr);
		CHECK(vm->size == ((unsigned long)held[i].nr + 1) * PAGE_SIZE);
		CHECK(!!(vm->flags & VM_MAP) == held[i].vmap);
		pages += held[i].nr;
	}
	CHECK(walk_page_range_novma(&init_mm, VMALLOC_START, VMALLOC_END, &check_ops, NULL, &w) == 0);
	CHECK(w.present == pages);
	CHECK(global_node_page_state(NR_PAGETABLE) == table_frames());
	CHECK(table_frames() == w.tables + pmd_tables());
}

/* ---- the operations ---- */
static void got(char *addr, unsigned int nr, bool is_vmap, struct page **pages)
{
	struct held *h = &held[nr_held++];

	h->addr = addr;
	h->nr = nr;
	h->vmap = is_vmap;
	if (is_vmap)
		memcpy(h->pages, pages, nr * sizeof(*pages));
	else
		h->vm_pages = find_vm_area(addr)->pages;
}

static void drop(int i)
{
	struct held *h = &held[i];

	if (h->vmap) {
		vunmap(h->addr);
		for (unsigned int j = 0; j < h->nr; j++)
			__free_page(h->pages[j]);
	} else {
		vfree(h->addr);
	}
	held[i] = held[--nr_held];
}

static void vmalloc_op(struct input *in, bool zero)
{
	unsigned int b = byte(in), extra = byte(in);
	unsigned long size = b == 0xff ? RAM_SIZE * 2 : (b % 24) * PAGE_SIZE + extra % PAGE_SIZE + 1;
	unsigned long range = VMALLOC_END - VMALLOC_START;
	char *a = __vmalloc(size, GFP_KERNEL | __GFP_NOWARN | (zero ? __GFP_ZERO : 0));

	if (size > RAM_SIZE || PFN_UP(size) + 1 > range / PAGE_SIZE)
		CHECK(!a);
	if (!a)
		return;
	struct vm_struct *vm = find_vm_area(a);
	CHECK(vm->nr_pages == PFN_UP(size));
	for (unsigned int i = 0; zero && i < vm->nr_pages; i++) {
		const unsigned long *w = page_address(vm->pages[i]);
		CHECK(w[0] == 0 && w[PAGE_SIZE / sizeof(long) - 1] == 0);
	}
	got(a, vm->nr_pages, false, NULL);
}

static void vmap_op(struct input *in)
{
	unsigned int b = byte(in), n = b % 8 + 1;
	struct page *pages[8];

	for (unsigned int i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_NOWARN);
		if (!pages[i]) {
			while (i--)
				__free_page(pages[i]);
			return;
		}
	}
	char *v = vmap(pages, n, 0, (b & 8) ? PAGE_KERNEL_RO : PAGE_KERNEL);
	if (!v) {
		for (unsigned int i = 0; i < n; i++)
			__free_page(pages[i]);
		return;
	}
	got(v, n, true, pages);
}

/* Each of these is the caller's bug: one WARNING, and nothing may change. */
static void bad_op(struct input *in)
{
	unsigned int b = byte(in), kind = b % 4;
	unsigned long warnings = nr_warnings(), frames = free_and_slab();

	if (!nr_held)
		return;
	struct held *h = &held[(b >> 2) % (unsigned int)nr_held];
	unsigned long inside = (unsigned long)(byte(in) % h->nr + 1) * PAGE_SIZE;	/* to the guard */
	if (kind == 0)
		vfree(h->addr + inside);			/* not the start */
	else if (kind == 1)
		vfree(h->addr + byte(in) % (PAGE_SIZE - 1) + 1);	/* unaligned */
	else if (kind == 2)
		vunmap(h->vmap ? h->addr + inside : h->addr);	/* not the start / vmalloc's */
	else
		vfree((void *)VMALLOC_END);			/* no area there */
	CHECK(nr_warnings() == warnings + 1);
	CHECK(free_and_slab() == frames);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size, 0, 1 };	/* byte 0 is the configuration */
	size_t ops = size < 2 ? 0 : max(size, (size_t)OPS_PER_INPUT);

	boot(size ? byte(&in) : 0);
	total_inputs++;
	for (op_index = 0; op_index < ops; op_index++, total_ops++) {
		unsigned int op = byte(&in) % 6, b;
		switch (op) {
		case 0: case 1:
			if (nr_held < MAX_HELD)
				vmalloc_op(&in, op == 1);
			break;
		case 2: case 4:
			b = byte(&in);
			for (int i = 0; i < nr_held; i++) {
				int j = (int)((b + (unsigned int)i) % (unsigned int)nr_held);
				if (held[j].vmap == (op == 4)) {
					drop(j);
					break;
				}
			}
			break;
		case 3:
			if (nr_held < MAX_HELD)
				vmap_op(&in);
			break;
		case 5:
			bad_op(&in);
			break;
		}
		check_all();
	}
	if (break_mode == 1) {			/* on purpose: a guard page mapped */
		char *a = vmalloc(PAGE_SIZE);
		CHECK(a);
		set_pte_at(&init_mm, 0, virt_to_kpte((unsigned long)a + PAGE_SIZE),
			   pfn_pte(page_to_pfn(vmalloc_to_page(a)), PAGE_KERNEL));
		got(a, 1, false, NULL);
		check_all();
	}
	if (break_mode == 2) {			/* on purpose: a table frame nothing points at */
		CHECK(pagetable_alloc(GFP_KERNEL, 0));
		check_all();
	}
	while (nr_held)
		drop(nr_held - 1);
	check_all();
	CHECK(atomic_long_read(&nr_vmalloc_pages) == 0);
	/* every frame back, but the tables the pgd points at (pagewalk.c keeps those) */
	CHECK(table_frames() == pmd_tables());
	CHECK(free_and_slab() + table_frames() == boot_frames);
	CHECK(buddy_check(NULL) == 0);
	return 0;
}
