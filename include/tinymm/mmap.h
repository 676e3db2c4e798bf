/*
 * mmap.h - a task's address space as areas (VMAs): mm/mmap.c, docs/mmap.md.
 *
 * An area is [vm_start, vm_end), page-aligned, with its protection and kind in vm_flags and,
 * for a file mapping, the file and the page offset of vm_start in it.  The areas of an mm are
 * kept sorted by address without overlaps; find_vma() is a binary search (O(log n)).
 *
 *   mm_init_vmas(mm, task_size, mmap_base)   empty address space
 *   exit_mmap_vmas(mm)                         every area freed
 *   find_vma(mm, addr)                        the first area with vm_end > addr, or NULL (v6.10)
 *   vma_lookup(mm, addr)                      the area containing addr, or NULL
 *   find_vma_intersection(mm, start, end)     the first area overlapping [start, end), or NULL
 *   get_unmapped_area(mm, addr, len, fixed)   where len bytes fit: the hint if free, else the
 *                                             highest gap below mmap_base; -ENOMEM
 *   mmap_region(mm, addr, len, vm_flags, file, pgoff)   a new area at addr (anything there is
 *                                             unmapped first, as MAP_FIXED), merged with equal
 *                                             neighbours; addr or -errno
 *   do_munmap(mm, start, len)                 areas split at the ends and removed; 0 or -errno
 *   mprotect_fixup_range(mm, start, end, prot_flags)   VM_READ|VM_WRITE|VM_EXEC of every page
 *                                             in [start, end) set; -ENOMEM if some page is not
 *                                             mapped (nothing changed then)
 *   do_brk(mm, newbrk)                        the heap moved; the new brk (the old one if refused)
 * Every call but mm_init_vmas() needs mm->mmap_lock held (checked).  The page tables under the
 * areas are the fault path's (mm/memory.c, include/tinymm/mm_fault.h): do_munmap (MAP_FIXED,
 * brk shrinking) zaps and frees what was mapped in the range, mprotect_fixup_range re-protects
 * the ptes (change_protection), exit_mmap() (mm_fault.h) frees pages, tables and areas.  An
 * mm with no root table (mm->pgd NULL) has areas only.
 */
#ifndef TINYMM_MMAP_H
#define TINYMM_MMAP_H
#include "kernel.h"
#include "list.h"
#include "pgtable.h"

#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_EXEC		0x00000004UL
#define VM_SHARED	0x00000008UL
#define VM_MAYREAD	0x00000010UL
#define VM_MAYWRITE	0x00000020UL
#define VM_MAYEXEC	0x00000040UL
#define VM_GROWSDOWN	0x00000100UL
#define VM_LOCKED	0x00002000UL
#define VM_PROT_MASK	(VM_READ | VM_WRITE | VM_EXEC)

/* Up to the next page boundary (a length near ULONG_MAX wraps to 0, which callers refuse). */
#define PAGE_ALIGN(x)	(((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

/* v6.10's DEFAULT_MAX_MAP_COUNT (sysctl vm.max_map_count). */
#define MAX_MAP_COUNT	65530

struct file;
struct anon_vma;

struct vm_area_struct {
	unsigned long vm_start, vm_end;
	struct mm_struct *vm_mm;
	unsigned long vm_flags;
	unsigned long vm_pgoff;		/* the file's page at vm_start; anon: vm_start >> PAGE_SHIFT */
	struct file *vm_file;		/* NULL: anonymous */
	struct anon_vma *anon_vma;	/* fork's shared anon pages: mm/rmap_anon.c (NULL: none yet) */
	struct list_head anon_vma_node;	/* on anon_vma->head while anon_vma is set */
	struct list_head shared;	/* on vm_file's mapping->i_mmap while vm_file is set */
};

static inline unsigned long vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
}

void mm_init_vmas(struct mm_struct *mm, unsigned long task_size, unsigned long mmap_base);
void exit_mmap_vmas(struct mm_struct *mm);
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *vma_lookup(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end);
long get_unmapped_area(struct mm_struct *mm, unsigned long addr, unsigned long len, bool fixed);
long mmap_region(struct mm_struct *mm, unsigned long addr, unsigned long len,
		 unsigned long vm_flags, struct file *file, unsigned long pgoff);
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
int mprotect_fixup_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			 unsigned long prot_flags);
unsigned long do_brk(struct mm_struct *mm, unsigned long newbrk);
/* The areas' invariants (sorted, no overlap, aligned, non-empty, map_count and total_vm right,
 * no two neighbours that should have merged): 0, or the number of problems, each printed
 * with @pr (kprintf, or a test's). */
int vma_check(struct mm_struct *mm, int (*pr)(const char *fmt, ...));
#endif
