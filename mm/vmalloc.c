/*
 * vmalloc.c - the vmalloc range allocator: virtually contiguous kernel memory in
 * [VMALLOC_START, VMALLOC_END) (the architecture's), built from order-0 pages (vmalloc) or the
 * caller's (vmap), mapped through mm/pagewalk.c.  v6.10's names (include/tinymm/vmalloc.h).
 *
 * Invariants (vmalloc_check() tests every one of them):
 *   - vmap_area_list holds the busy areas sorted by address, disjoint, inside the range; each
 *     is [va_start, va_end), page-aligned, with its vm_struct: addr == va_start, size ==
 *     va_end - va_start, the last page of it an unmapped guard page.
 *   - a VM_ALLOC area's pages[i] is mapped at addr + i * PAGE_SIZE and belongs to the area
 *     alone; a VM_MAP area's ptes point at the caller's pages and the area has no pages array.
 *   - nr_vmalloc_pages is the sum of the VM_ALLOC areas' nr_pages.
 *   - a VM_UNCACHED area (mapped with a non-cacheable protection: pgprot_writecombine() or
 *     pgprot_noncached()) holds pages that carry PG_uncached, and only while it maps them: the
 *     flag is set after arch_dma_prep_coherent() cleaned the page out of the caches and before
 *     the ptes exist, and cleared after they are gone.  A page is in at most one such area
 *     (a second non-cacheable mapping of it is refused), and a CPU that has no non-cacheable
 *     type (RISC-V without Svpbmt, Sv32) gets no such mapping at all: mapping RAM cacheable
 *     where the caller asked otherwise would look fine and be wrong.  tinymm's use of the bit:
 *     v6.10 has PG_uncached only with x86 PAT (docs/page-flags.rst).
 * First fit: a new area takes the lowest gap that holds it (guard included), so a freed range is
 * reused by the next allocation that fits.  The scan is linear and ends: an impossible request
 * fails, with the allocation-failure warning, and never waits.
 *
 * Locking: vmap_area_lock (a spinlock) guards vmap_area_list and every area's place on it;
 * functions named _locked need it held (lockdep_assert_held).  Mapping and unmapping happen
 * with it dropped, under init_mm.page_table_lock for the tables (pagewalk.c): a new area is
 * busy on the list before its pages are mapped, and an area leaves the list only after its
 * pages are unmapped and the TLB flushed, so no two owners ever share a pte.  vmap_area_lock is
 * never held with the page-table lock.  vfree() may sleep (it frees tables and pages): not from
 * interrupts (v6.10 defers such a vfree to a work item; tinymm has no caller that needs it).
 *
 * Differences from v6.10, each for size: one list and one lock instead of the free-space
 * augmented rbtree and the per-node busy trees of 6.9's vmap_node (tinymm has tens of areas,
 * not thousands); no lazy purging (areas are unmapped and flushed at vfree(), not in batches);
 * only page alignment and no huge vmalloc mappings; vfree()/vunmap() want an area's exact start
 * (v6.10 frees the area containing any page-aligned address: the issue asks for a WARNING and
 * no loss instead); vunmap() of a vmalloc() area is a WARNING (v6.10 would leak its pages).
 */
#include "tinymm/bug.h"
#include "tinymm/cacheflush.h"
#include "tinymm/errno.h"
#include "tinymm/kallsyms.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"
#include "internal.h"

static DEFINE_SPINLOCK(vmap_area_lock);
static struct list_head vmap_area_list = LIST_HEAD_INIT(vmap_area_list);

void vmalloc_init(void)
{
	INIT_LIST_HEAD(&vmap_area_list);
	vmalloc_total = VMALLOC_END - VMALLOC_START;
	atomic_long_set(&nr_vmalloc_pages, 0);
}

/* Linux's warn_alloc() call: "vmalloc error: size N, <why>"; @size is what was asked for. */
#define vmalloc_warn(gfp, size, why, ...)						\
	warn_alloc(gfp, "vmalloc error: size %lu, " why, (unsigned long)(size), ##__VA_ARGS__)

/* ---- the range allocator ---- */

/* The lowest gap of @size bytes in [vstart, vend), and the area it goes after (NULL: first). */
static unsigned long find_gap_locked(unsigned long size, unsigned long vstart, unsigned long vend,
				     struct vmap_area **prev)
{
	unsigned long addr = vstart;
	struct vmap_area *va;

	lockdep_assert_held(&vmap_area_lock);
	*prev = NULL;
	list_for_each_entry(va, &vmap_area_list, list) {
		if (va->va_start - addr >= size && va->va_start >= addr)
			break;
		addr = va->va_end;
		*prev = va;
	}
	if (addr < vstart || vend - addr < size || addr > vend)
		return 0;
	return addr;
}

/* Busy [addr, addr + size) on the list after @prev. */
static void insert_area_locked(struct vmap_area *va, struct vmap_area *prev)
{
	lockdep_assert_held(&vmap_area_lock);
	list_add(&va->list, prev ? &prev->list : &vmap_area_list);
}

/* The area starting exactly at @addr (@exact) or containing it. */
static struct vmap_area *find_area_locked(unsigned long addr, bool exact)
{
	struct vmap_area *va;

	lockdep_assert_held(&vmap_area_lock);
	list_for_each_entry(va, &vmap_area_list, list) {
		if (addr < va->va_start)
			break;
		if (exact ? addr == va->va_start : addr < va->va_end)
			return va;
	}
	return NULL;
}

struct vm_struct *get_vm_area_caller(unsigned long size, unsigned long flags, const void *caller)
{
	unsigned long total = ALIGN(size, PAGE_SIZE) + PAGE_SIZE;	/* the guard page */
	struct vm_struct *vm;
	struct vmap_area *va, *prev;
	unsigned long addr;

	if (!size || total < size)
		return NULL;
	vm = kzalloc(sizeof(*vm), GFP_KERNEL);
	va = kmalloc(sizeof(*va), GFP_KERNEL);
	if (!vm || !va)
		goto fail;
	spin_lock(&vmap_area_lock);
	addr = find_gap_locked(total, VMALLOC_START, VMALLOC_END, &prev);
	if (addr) {
		va->va_start = addr;
		va->va_end = addr + total;
		va->vm = vm;
		insert_area_locked(va, prev);
	}
	spin_unlock(&vmap_area_lock);
	if (!addr)
		goto fail;
	vm->addr = (void *)addr;
	vm->size = total;
	vm->flags = flags;
	vm->caller = caller;
	return vm;
fail:
	kfree(vm);
	kfree(va);
	return NULL;
}

struct vm_struct *find_vm_area(const void *addr)
{
	struct vmap_area *va;

	spin_lock(&vmap_area_lock);
	va = find_area_locked((unsigned long)addr, false);
	spin_unlock(&vmap_area_lock);
	return va ? va->vm : NULL;
}

/*
 * Unmap the area starting at @addr and take it off the list; its vm_struct (pages and all) is
 * the caller's to free.  NULL if no area starts there.  The area stays busy on the list until
 * its ptes are gone, so nobody gets the range while it is still mapped.
 */
struct vm_struct *remove_vm_area(const void *addr)
{
	struct vmap_area *va;
	struct vm_struct *vm;

	if (!IS_ALIGNED((unsigned long)addr, PAGE_SIZE))
		return NULL;
	spin_lock(&vmap_area_lock);
	va = find_area_locked((unsigned long)addr, true);
	spin_unlock(&vmap_area_lock);
	if (!va)
		return NULL;
	vm = va->vm;
	vunmap_range(va->va_start, va->va_end - PAGE_SIZE);	/* the guard was never mapped */
	spin_lock(&vmap_area_lock);
	list_del(&va->list);
	spin_unlock(&vmap_area_lock);
	kfree(va);
	return vm;
}

/* ---- vmalloc / vfree / vmap / vunmap ---- */

/*
 * Before @nr pages are mapped with @prot: nothing for a cacheable protection; for a
 * non-cacheable one, refuse where the CPU has no such type or a page already is mapped so,
 * else clean each page out of the caches and mark it PG_uncached.  0 or -EOPNOTSUPP/-EBUSY.
 */
static int uncached_prepare(struct page **pages, unsigned int nr, pgprot_t prot,
			    unsigned long *flags)
{
	if (!pgprot_noncacheable(prot))
		return 0;
	if (!arch_noncached_supported()) {
		pr_err("vmap: this CPU has no non-cacheable memory type: mapping refused\n");
		return -EOPNOTSUPP;
	}
	for (unsigned int i = 0; i < nr; i++)
		if (PageUncached(pages[i])) {
			pr_err("vmap: pfn %#lx is already mapped non-cacheable: refused\n",
			       page_to_pfn(pages[i]));
			return -EBUSY;
		}
	for (unsigned int i = 0; i < nr; i++) {
		arch_dma_prep_coherent(pages[i], PAGE_SIZE);
		SetPageUncached(pages[i]);
	}
	*flags |= VM_UNCACHED;
	return 0;
}

static void uncached_release(struct page **pages, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		ClearPageUncached(pages[i]);
}

/* A VM_UNCACHED vmap() area keeps no pages array: its ptes name the pages (before the unmap). */
static void uncached_release_mapped(const struct vm_struct *vm)
{
	for (unsigned int i = 0; i < vm->nr_pages; i++) {
		struct page *page = vmalloc_to_page((char *)vm->addr + (unsigned long)i * PAGE_SIZE);

		if (page)
			ClearPageUncached(page);
	}
}

static void free_area_pages(struct vm_struct *vm)
{
	for (unsigned int i = 0; i < vm->nr_pages; i++)
		__free_page(vm->pages[i]);
	kfree(vm->pages);
}

static void *__vmalloc_caller(unsigned long size, gfp_t gfp, pgprot_t prot,
			      const void *caller)
{
	unsigned long nr = PFN_UP(size);
	struct vm_struct *vm;
	int err;

	/* Linux's __vmalloc_node_range(): a zero size is the caller's bug. */
	if (WARN_ON_ONCE(!size))
		return NULL;
	if (nr > totalram_pages()) {
		vmalloc_warn(gfp, size, "exceeds total pages");
		return NULL;
	}
	vm = get_vm_area_caller(size, VM_ALLOC, caller);
	if (!vm) {
		vmalloc_warn(gfp, size, "vm_struct allocation failed");
		return NULL;
	}
	vm->pages = kcalloc(nr, sizeof(struct page *), gfp & ~__GFP_ZERO);
	if (!vm->pages) {
		vmalloc_warn(gfp, size, "failed to allocated page array size %lu",	/* sic, Linux */
			     nr * sizeof(struct page *));
		goto fail;
	}
	/* Warned once below, not once per page (Linux adds __GFP_NOWARN too). */
	for (; vm->nr_pages < nr; vm->nr_pages++) {
		vm->pages[vm->nr_pages] = alloc_page(gfp | __GFP_NOWARN);
		if (!vm->pages[vm->nr_pages]) {
			vmalloc_warn(gfp, size, "page order 0 allocation failed");
			goto fail;
		}
	}
	if (uncached_prepare(vm->pages, (unsigned int)nr, prot, &vm->flags))
		goto fail;
	err = vmap_pages_range((unsigned long)vm->addr, (unsigned long)vm->addr + nr * PAGE_SIZE,
			       prot, vm->pages);
	if (err) {
		vmalloc_warn(gfp, size, "failed to map pages");
		goto fail;
	}
	atomic_long_add((long)nr, &nr_vmalloc_pages);
	return vm->addr;
fail:
	remove_vm_area(vm->addr);	/* unmaps what was mapped, frees emptied tables */
	if (vm->flags & VM_UNCACHED)
		uncached_release(vm->pages, vm->nr_pages);
	if (vm->pages)
		free_area_pages(vm);
	kfree(vm);
	return NULL;
}

/* v6.10's __vmalloc_node() for one node: @align up to PAGE_SIZE (every area is page-aligned and
 * nothing larger is supported: a WARNING and NULL), @node ignored, @caller for vmallocinfo. */
void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp, int node,
		     const void *caller)
{
	(void)node;
	if (WARN_ON_ONCE(align > PAGE_SIZE))
		return NULL;
	return __vmalloc_caller(size, gfp, PAGE_KERNEL, caller);
}

void *__vmalloc(unsigned long size, gfp_t gfp)
{
	return __vmalloc_caller(size, gfp, PAGE_KERNEL, __builtin_return_address(0));
}

void *__vmalloc_prot(unsigned long size, gfp_t gfp, pgprot_t prot)
{
	return __vmalloc_caller(size, gfp, prot, __builtin_return_address(0));
}

void *vmalloc(unsigned long size)
{
	return __vmalloc_caller(size, GFP_KERNEL, PAGE_KERNEL, __builtin_return_address(0));
}

void *vzalloc(unsigned long size)
{
	return __vmalloc_caller(size, GFP_KERNEL | __GFP_ZERO, PAGE_KERNEL,
				__builtin_return_address(0));
}

void vfree(const void *addr)
{
	struct vm_struct *vm;

	if (!addr)
		return;
	vm = remove_vm_area(addr);
	if (!vm) {
		/* Linux's two messages, then its WARN(); nothing is freed. */
		if (!IS_ALIGNED((unsigned long)addr, PAGE_SIZE))
			pr_err("Trying to vfree() bad address (%p)\n", addr);
		else
			pr_err("Trying to vfree() nonexistent vm area (%p)\n", addr);
		WARN_ON(1);
		return;
	}
	if (vm->flags & VM_ALLOC)
		atomic_long_sub((long)vm->nr_pages, &nr_vmalloc_pages);
	if (vm->flags & VM_UNCACHED)
		uncached_release(vm->pages, vm->nr_pages);	/* the ptes are gone */
	if (vm->pages)
		free_area_pages(vm);
	kfree(vm);
}

void *vmap(struct page **pages, unsigned int count, unsigned long flags, pgprot_t prot)
{
	struct vm_struct *vm;
	unsigned long addr;

	if (!count || count > totalram_pages())
		return NULL;
	vm = get_vm_area_caller((unsigned long)count << PAGE_SHIFT, flags | VM_MAP,
				__builtin_return_address(0));
	if (!vm)
		return NULL;
	addr = (unsigned long)vm->addr;
	if (uncached_prepare(pages, count, prot, &vm->flags)) {
		kfree(remove_vm_area(vm->addr));
		return NULL;
	}
	if (vmap_pages_range(addr, addr + ((unsigned long)count << PAGE_SHIFT), prot, pages)) {
		remove_vm_area(vm->addr);
		if (vm->flags & VM_UNCACHED)
			uncached_release(pages, count);
		kfree(vm);
		return NULL;
	}
	vm->nr_pages = count;		/* shown as pages=; not owned: vm->pages stays NULL */
	return vm->addr;
}

void vunmap(const void *addr)
{
	struct vm_struct *vm;

	if (!addr)
		return;
	vm = find_vm_area(addr);
	if (vm && vm->addr == addr && (vm->flags & VM_ALLOC)) {
		pr_err("Trying to vunmap() a vmalloc area (%p): vfree() it\n", addr);
		WARN_ON(1);
		return;
	}
	if (vm && vm->addr == addr && (vm->flags & VM_UNCACHED))
		uncached_release_mapped(vm);	/* its pages, while the ptes still name them */
	vm = remove_vm_area(addr);
	if (!vm) {
		pr_err("Trying to vunmap() nonexistent vm area (%p)\n", addr);
		WARN_ON(1);
		return;
	}
	kfree(vm);
}

bool is_vmalloc_addr(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return a >= VMALLOC_START && a < VMALLOC_END;
}

struct page *vmalloc_to_page(const void *addr)
{
	pte_t *ptep = virt_to_kpte((unsigned long)addr);
	pte_t pte;

	if (!ptep)
		return NULL;
	pte = ptep_get(ptep);
	return pte_present(pte) ? pfn_to_page(pte_pfn(pte)) : NULL;
}

/* ---- looking at it ---- */

void show_vmalloc_info(int (*pr)(const char *fmt, ...))
{
	struct vmap_area *va;
	char sym[96];

	spin_lock(&vmap_area_lock);
	list_for_each_entry(va, &vmap_area_list, list) {
		struct vm_struct *vm = va->vm;

		/* Linux's s_show(): range, size with the guard, caller, pages=, the kinds. */
		pr("%p-%p %7lu", vm->addr, (char *)vm->addr + vm->size, vm->size);
		if (vm->caller) {
			sprint_symbol(sym, sizeof(sym), (unsigned long)vm->caller);
			pr(" %s", sym);
		}
		if (vm->nr_pages)
			pr(" pages=%u", vm->nr_pages);
		if (vm->flags & VM_IOREMAP)	/* Linux's %pa: the full width of phys_addr_t */
			pr(" phys=0x%0*llx", (int)(2 * sizeof(phys_addr_t)),
			   (unsigned long long)vm->phys_addr);
		if (vm->flags & VM_IOREMAP)
			pr(" ioremap");
		if (vm->flags & VM_ALLOC)
			pr(" vmalloc");
		if (vm->flags & VM_MAP)
			pr(" vmap");
		if (vm->flags & VM_DMA_COHERENT)
			pr(" dma-coherent");
		pr("\n");
	}
	spin_unlock(&vmap_area_lock);
}

static int check_area_locked(const struct vmap_area *va, unsigned long prev_end,
			     int (*pr)(const char *fmt, ...))
{
	const struct vm_struct *vm = va->vm;
	unsigned long end = va->va_end - PAGE_SIZE;
	int bad = 0;

#define VBAD(...)	do { bad++; if (pr) pr(__VA_ARGS__); } while (0)
	lockdep_assert_held(&vmap_area_lock);
	if (va->va_start < prev_end || va->va_start >= va->va_end || va->va_start < VMALLOC_START ||
	    va->va_end > VMALLOC_END || !IS_ALIGNED(va->va_start | va->va_end, PAGE_SIZE))
		VBAD("vmalloc: area %#lx-%#lx out of order, overlapping or outside the range\n",
		     va->va_start, va->va_end);
	if (!vm || (unsigned long)vm->addr != va->va_start || vm->size != va->va_end - va->va_start) {
		VBAD("vmalloc: area %#lx-%#lx and its vm_struct disagree\n", va->va_start, va->va_end);
		return bad;
	}
	if (vmalloc_to_page((void *)end))
		VBAD("vmalloc: area %#lx-%#lx: guard page %#lx is mapped\n", va->va_start, va->va_end, end);
	if ((vm->flags & VM_ALLOC) && vm->nr_pages != (end - va->va_start) >> PAGE_SHIFT)
		VBAD("vmalloc: area %#lx-%#lx: %u pages for its size\n", va->va_start, va->va_end,
		     vm->nr_pages);
	for (unsigned long a = va->va_start; (vm->flags & VM_IOREMAP) && a < end; a += PAGE_SIZE) {
		pte_t *ptep = virt_to_kpte(a);
		unsigned long want = (unsigned long)(vm->phys_addr >> PAGE_SHIFT) +
				     ((a - va->va_start) >> PAGE_SHIFT);

		if (!ptep || !pte_present(ptep_get(ptep)) || pte_pfn(ptep_get(ptep)) != want)
			VBAD("vmalloc: ioremap area %#lx-%#lx: %#lx does not map pfn %#lx\n",
			     va->va_start, va->va_end, a, want);
	}
	for (unsigned int i = 0; (vm->flags & VM_UNCACHED) && i < vm->nr_pages; i++) {
		struct page *page = vmalloc_to_page((char *)vm->addr + (unsigned long)i * PAGE_SIZE);

		if (page && !PageUncached(page))
			VBAD("vmalloc: uncached area %#lx-%#lx: page %u lacks PG_uncached\n",
			     va->va_start, va->va_end, i);
	}
	for (unsigned int i = 0; vm->pages && i < vm->nr_pages; i++) {
		struct page *page = vmalloc_to_page((char *)vm->addr + (unsigned long)i * PAGE_SIZE);

		if (page != vm->pages[i])
			VBAD("vmalloc: area %#lx-%#lx: page %u mapped to %p, not %p\n", va->va_start,
			     va->va_end, i, (void *)page, (void *)vm->pages[i]);
	}
#undef VBAD
	return bad;
}

int vmalloc_check(int (*pr)(const char *fmt, ...))
{
	const struct vmap_area *va;
	unsigned long prev_end = 0, pages = 0;
	int bad = 0;

	spin_lock(&vmap_area_lock);
	list_for_each_entry(va, &vmap_area_list, list) {
		bad += check_area_locked(va, prev_end, pr);
		prev_end = va->va_end;
		if (va->vm && (va->vm->flags & VM_ALLOC))
			pages += va->vm->nr_pages;
	}
	spin_unlock(&vmap_area_lock);
	if (pages != (unsigned long)atomic_long_read(&nr_vmalloc_pages)) {
		bad++;
		if (pr)
			pr("vmalloc: nr_vmalloc_pages is %ld, the areas hold %lu\n",
			   atomic_long_read(&nr_vmalloc_pages), pages);
	}
	return bad;
}
