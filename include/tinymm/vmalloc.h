/*
 * vmalloc.h - virtually contiguous kernel memory (mm/vmalloc.c), v6.10's names:
 *   vmalloc(size), vzalloc(size)   order-0 pages from the buddy allocator mapped PAGE_KERNEL at a
 *                                  free range of [VMALLOC_START, VMALLOC_END); NULL with the
 *                                  allocation-failure warning when it cannot be done
 *   vfree(addr)                    unmap and free a vmalloc()'s pages (a vmap()'s stay the
 *                                  caller's); NULL is a no-op; anything but an area's start is a
 *                                  WARNING and frees nothing
 *   vmap(pages, count, flags, prot), vunmap(addr)   the caller's pages, mapped / unmapped
 *   find_vm_area(addr)             the area containing addr, or NULL
 * Every area is followed by one unmapped guard page, counted in its size (as /proc/vmallocinfo
 * shows it), so running off its end faults instead of corrupting the next area.
 */
#ifndef TINYMM_VMALLOC_H
#define TINYMM_VMALLOC_H

#include "gfp.h"
#include "list.h"
#include "pgtable.h"

/* vm_struct.flags (Linux's values) */
#define VM_IOREMAP	0x00000001	/* ioremap() and friends (a later issue) */
#define VM_ALLOC	0x00000002	/* vmalloc(): the area owns its pages */
#define VM_MAP		0x00000004	/* vmap(): the caller's pages */
/* tinymm's: mapped with a non-cacheable protection; each RAM page carries PG_uncached while it is */
#define VM_UNCACHED	0x00000008
#define VM_DMA_COHERENT	0x00000010	/* Linux's: dma_alloc_coherent()'s (kernel/dma/direct.c) */

struct vm_struct {
	void *addr;
	unsigned long size;		/* with the guard page (get_vm_area_size() without) */
	unsigned long flags;
	struct page **pages;		/* VM_ALLOC: the pages, kmalloc'ed; NULL for vmap() */
	unsigned int nr_pages;
	phys_addr_t phys_addr;		/* VM_IOREMAP's, VM_DMA_COHERENT's first frame */
	const void *caller;
};

/* One busy range [va_start, va_end), guard included, on the address-sorted vmap_area_list. */
struct vmap_area {
	unsigned long va_start, va_end;
	struct list_head list;
	struct vm_struct *vm;
};

static inline unsigned long get_vm_area_size(const struct vm_struct *area)
{
	return area->size - PAGE_SIZE;
}

/* Fresh, empty bookkeeping over [VMALLOC_START, VMALLOC_END); after kmem_cache_init(). */
void vmalloc_init(void);

void *vmalloc(unsigned long size);
void *vzalloc(unsigned long size);
void *__vmalloc(unsigned long size, gfp_t gfp);
/* vmalloc() with protection @prot, e.g. pgprot_writecombine(PAGE_KERNEL) (v6.10 passes it
 * through __vmalloc_node_range()); a non-cacheable @prot sets PG_uncached or is refused. */
void *__vmalloc_prot(unsigned long size, gfp_t gfp, pgprot_t prot);
/* __vmalloc() naming its @caller for vmallocinfo (kernel thread stacks: kernel/kthread.c);
 * @align at most PAGE_SIZE, @node ignored (one node). */
void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp, int node,
		     const void *caller);
void vfree(const void *addr);
void *vmap(struct page **pages, unsigned int count, unsigned long flags, pgprot_t prot);
void vunmap(const void *addr);

/* A free range of @size bytes (+ the guard) with @flags, or NULL; remove_vm_area() undoes it
 * (exact start only) and returns the vm_struct for the caller to kfree. */
struct vm_struct *get_vm_area_caller(unsigned long size, unsigned long flags, const void *caller);
struct vm_struct *remove_vm_area(const void *addr);
struct vm_struct *find_vm_area(const void *addr);
struct page *vmalloc_to_page(const void *addr);
bool is_vmalloc_addr(const void *addr);

/* /proc/vmallocinfo's lines, one per area in address order, through @pr. */
void show_vmalloc_info(int (*pr)(const char *fmt, ...));
/*
 * Every area inside the range, sorted and disjoint, its guard page unmapped, its pages (VM_ALLOC)
 * mapped where they belong; each problem is one line through @pr (NULL: silent).  The number of
 * problems.  vmalloc's buddy_check(): for tests, the fuzzer and a shell command to come.
 */
int vmalloc_check(int (*pr)(const char *fmt, ...));

#endif
