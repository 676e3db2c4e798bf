/*
 * mmap.c - a task's address space as areas (include/tinymm/mmap.h, docs/mmap.md): finding,
 * placing, splitting, merging and removing VMAs, and the heap's brk.  Linux v6.10 mm/mmap.c
 * and mm/mprotect.c.  The pages under the areas are the fault path's (mm/memory.c,
 * docs/memory.md); what removes or changes an area here releases or re-protects them too:
 * do_munmap (and so MAP_FIXED and a shrinking brk) zaps the range's ptes and frees the tables
 * left empty, mprotect_fixup_range runs change_protection() on each area it changed, and
 * exit_mmap() frees pages, tables and areas.
 *
 * The areas are an array of pointers sorted by address (mm->vmas).  find_vma() is a binary
 * search, O(log n), which is what a fault needs; adding or removing an area moves the pointers
 * after it, O(n).  v6.10 keeps them in a maple tree (O(log n) both ways, RCU-safe lookups); a
 * tinymm task has tens of areas, where the array's memmove costs less than a tree's
 * rebalancing and the whole structure fits in a cache line or two.  The array grows by
 * doubling, and the room an operation needs is reserved before anything changes, so a failed
 * allocation changes nothing (-ENOMEM).
 * Invariants (vma_check()): areas page-aligned, non-empty, inside [PAGE_SIZE, task_size),
 * ascending without overlap; no two neighbours that could be one area (same flags, same file,
 * contiguous pgoff) are left apart; map_count and total_vm add up; an area with a file is on
 * its mapping's i_mmap (mm/rmap_file.c), linked and unlinked here.
 * An area with anonymous pages has an anon_vma (mm/rmap_anon.c): a split's tail joins it, a
 * merge keeps it, areas of two different anon_vmas never merge (v6.10's is_mergeable_anon_vma),
 * and an area freed leaves it (unlink_anon_vmas).
 * Where tinymm differs from v6.10, and why: no mmap_min_addr sysctl (page 0 is never
 * mapped); VMAs come from kmalloc, not their own slab cache.
 * Locking: mm->mmap_lock held by the caller for every call but mm_init_vmas()
 * (lockdep_assert_held); v6.10's is an rwsem, taken for reading by faults.
 */
#include <string.h>
#include "tinymm/anon_vma.h"
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/mlock.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap_file.h"
#include "tinymm/slab.h"
#include "tinymm/vfs.h"
#include "internal.h"

#define MMAP_MIN_ADDR	PAGE_SIZE	/* page 0 stays unmapped: a NULL access always faults */

void mm_init_vmas(struct mm_struct *mm, unsigned long task_size, unsigned long mmap_base)
{
	mutex_init(&mm->mmap_lock);
	mm->vmas = NULL;
	mm->map_count = mm->vmas_capacity = 0;
	mm->task_size = task_size;
	mm->mmap_base = mmap_base;
	mm->start_brk = mm->brk = 0;
	mm->total_vm = 0;
	mm->locked_vm = 0;
	mm->def_flags = 0;
}

void exit_mmap_vmas(struct mm_struct *mm)
{
	lockdep_assert_held(&mm->mmap_lock);
	for (int i = 0; i < mm->map_count; i++) {
		unlink_anon_vmas(mm->vmas[i]);
		vma_unlink_file(mm->vmas[i]);
		kfree(mm->vmas[i]);
	}
	kfree(mm->vmas);
	mm->vmas = NULL;
	mm->map_count = mm->vmas_capacity = 0;
	mm->total_vm = 0;
	mm->locked_vm = 0;
}

/* The index of the first area with vm_end > @addr (map_count if none). */
static int vma_index(struct mm_struct *mm, unsigned long addr)
{
	int lo = 0, hi = mm->map_count;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (mm->vmas[mid]->vm_end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	int i;

	lockdep_assert_held(&mm->mmap_lock);
	i = vma_index(mm, addr);
	return i < mm->map_count ? mm->vmas[i] : NULL;
}

/* find_vma()'s search written out: every page fault calls this one. */
static inline __attribute__((always_inline)) struct vm_area_struct *
vma_search(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct **vmas = mm->vmas;
	int lo = 0, hi = mm->map_count;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		struct vm_area_struct *vma = vmas[mid];

		if (addr >= vma->vm_end)
			lo = mid + 1;
		else if (addr < vma->vm_start)
			hi = mid;
		else
			return vma;
	}
	return NULL;
}

/* vma_lookup() without mmap_lock: lockdep_assert_held()'s report, in vma_lookup()'s name,
 * and the lookup all the same.  Out of line, so vma_lookup() keeps no frame (__fastpath). */
static __attribute__((noinline, cold)) struct vm_area_struct *
vma_lookup_unheld(struct mm_struct *mm, unsigned long addr)
{
	lockdep_warn_not_held(&mm->mmap_lock, "vma_lookup");
	return vma_search(mm, addr);
}

__fastpath struct vm_area_struct *vma_lookup(struct mm_struct *mm, unsigned long addr)
{
	/* lockdep_assert_held(&mm->mmap_lock), its report a tail call away. */
	if (unlikely(!lockdep_is_held(&mm->mmap_lock)))
		return vma_lookup_unheld(mm, addr);
	return vma_search(mm, addr);
}

struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	return vma && vma->vm_start < end ? vma : NULL;
}

/* Room for @extra more areas, before anything changes; 0 or -ENOMEM. */
static int vmas_reserve(struct mm_struct *mm, int extra)
{
	int want = mm->map_count + extra;
	struct vm_area_struct **v;

	if (want <= mm->vmas_capacity)
		return 0;
	if (want > MAX_MAP_COUNT)
		return -ENOMEM;
	int cap = mm->vmas_capacity ? mm->vmas_capacity : 8;
	while (cap < want)
		cap *= 2;
	v = krealloc(mm->vmas, (size_t)cap * sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	mm->vmas = v;
	mm->vmas_capacity = cap;
	return 0;
}

static void vmas_insert_at(struct mm_struct *mm, int i, struct vm_area_struct *vma)
{
	memmove(&mm->vmas[i + 1], &mm->vmas[i], (size_t)(mm->map_count - i) * sizeof(*mm->vmas));
	mm->vmas[i] = vma;
	mm->map_count++;
}

static void vmas_remove_at(struct mm_struct *mm, int i)
{
	memmove(&mm->vmas[i], &mm->vmas[i + 1], (size_t)(mm->map_count - i - 1) * sizeof(*mm->vmas));
	mm->map_count--;
}

/* v6.10's is_mergeable_vma(), is_mergeable_anon_vma() and the pgoff rule of
 * can_vma_merge_after(). */
static bool vmas_mergeable(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
	return a->vm_end == b->vm_start && a->vm_flags == b->vm_flags &&
	       a->vm_file == b->vm_file && a->vm_pgoff + vma_pages(a) == b->vm_pgoff &&
	       anon_vma_compatible(a, b);
}

/* Merge area @i with the one after it, if they can be one; true if they were.  A file's
 * areas change under its i_mmap_lock too, so an rmap walk sees either both or the one. */
static bool merge_next(struct mm_struct *mm, int i)
{
	struct address_space *mapping;

	if (i < 0 || i + 1 >= mm->map_count || !vmas_mergeable(mm->vmas[i], mm->vmas[i + 1]))
		return false;
	mapping = vma_file_mapping(mm->vmas[i]);
	if (mapping)
		i_mmap_lock_write(mapping);
	mm->vmas[i]->vm_end = mm->vmas[i + 1]->vm_end;
	anon_vma_merge(mm->vmas[i], mm->vmas[i + 1]);
	if (mapping) {
		list_del_init(&mm->vmas[i + 1]->shared);
		i_mmap_unlock_write(mapping);
		vfs_close(mm->vmas[i + 1]->vm_file);	/* fput: the absorbed area's reference */
	}
	kfree(mm->vmas[i + 1]);
	vmas_remove_at(mm, i + 1);
	return true;
}

/* Areas @first..@last changed: merge them with each other and their outer neighbours. */
static void merge_range(struct mm_struct *mm, int first, int last)
{
	for (int i = last; i >= first - 1; i--)
		merge_next(mm, i);
}

/* Cut area @i at @addr (inside it) with @tail (allocated by the caller, room reserved):
 * [start, addr) stays @i, [addr, end) becomes @i + 1, on the file's i_mmap next to it (both
 * changed under i_mmap_lock: a walk sees the whole area or the two halves). */
static void split_vma(struct mm_struct *mm, int i, unsigned long addr, struct vm_area_struct *tail)
{
	struct vm_area_struct *vma = mm->vmas[i];
	struct address_space *mapping = vma_file_mapping(vma);

	if (mapping)
		i_mmap_lock_write(mapping);
	*tail = *vma;
	if (vma->anon_vma)
		anon_vma_link(tail, vma->anon_vma);	/* v6.10's anon_vma_clone */
	tail->vm_start = addr;
	tail->vm_pgoff = vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT);
	vma->vm_end = addr;
	if (mapping) {
		vma_get_file(tail);
		list_add(&tail->shared, &vma->shared);
		i_mmap_unlock_write(mapping);
	} else {
		INIT_LIST_HEAD(&tail->shared);
	}
	vmas_insert_at(mm, i + 1, tail);
}

/*
 * [start, end) as areas of their own: split where an area crosses @start or @end.  The indices
 * of the first and last area inside, or first > last if none.  Both possible splits' areas
 * are allocated first, so it either happens whole or not at all: 0 or -ENOMEM.
 */
static int isolate_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			 int *first, int *last)
{
	struct vm_area_struct *tails[2] = { kmalloc(sizeof(**tails), GFP_KERNEL),
					    kmalloc(sizeof(**tails), GFP_KERNEL) };
	int i = vma_index(mm, start), used = 0;

	if (!tails[0] || !tails[1] || vmas_reserve(mm, 2)) {
		kfree(tails[0]);
		kfree(tails[1]);
		return -ENOMEM;
	}
	if (i < mm->map_count && mm->vmas[i]->vm_start < start)
		split_vma(mm, i++, start, tails[used++]);
	*first = i;
	int j = vma_index(mm, end);			/* the first area ending after end */
	if (j < mm->map_count && mm->vmas[j]->vm_start < end)
		split_vma(mm, j++, end, tails[used++]);	/* [.., end) stays at j */
	*last = j - 1;
	while (used < 2)
		kfree(tails[used++]);
	return 0;
}

/* The two above for mm/mlock_sys.c and fork (mm/internal.h): an area operation outside this
 * file isolates its range, changes each area's flags, then merges what became alike. */
int vma_isolate_range(struct mm_struct *mm, unsigned long start, unsigned long end,
		      int *first, int *last)
{
	lockdep_assert_held(&mm->mmap_lock);
	return isolate_range(mm, start, end, first, last);
}

void vma_merge_range(struct mm_struct *mm, int first, int last)
{
	lockdep_assert_held(&mm->mmap_lock);
	merge_range(mm, first, last);
}

static bool range_ok(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	return !(start & ~PAGE_MASK) && len && len <= mm->task_size &&
	       start <= mm->task_size - len;
}

int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end;
	int first, last, err;

	lockdep_assert_held(&mm->mmap_lock);
	len = PAGE_ALIGN(len);
	if (!range_ok(mm, start, len))
		return -EINVAL;
	end = start + len;
	if (!find_vma_intersection(mm, start, end))
		return 0;
	/* At most two splits: one more area in all (v6.10 refuses past max_map_count too). */
	err = isolate_range(mm, start, end, &first, &last);
	if (err)
		return err;
	/* v6.10's unmap_region(): the pages first, then the areas, then the emptied tables. */
	unmap_page_range(mm, start, end);
	for (int i = last; i >= first; i--) {
		mm->total_vm -= vma_pages(mm->vmas[i]);
		if (mm->vmas[i]->vm_flags & VM_LOCKED)
			mm->locked_vm -= vma_pages(mm->vmas[i]);
		unlink_anon_vmas(mm->vmas[i]);
		vma_unlink_file(mm->vmas[i]);
		kfree(mm->vmas[i]);
		vmas_remove_at(mm, i);
	}
	free_pgd_range(mm, start, end);
	return 0;
}

long get_unmapped_area(struct mm_struct *mm, unsigned long addr, unsigned long len, bool fixed)
{
	lockdep_assert_held(&mm->mmap_lock);
	len = PAGE_ALIGN(len);
	if (!len || len > mm->task_size - MMAP_MIN_ADDR)
		return -ENOMEM;
	if (fixed)
		return range_ok(mm, addr, len) && addr >= MMAP_MIN_ADDR ? (long)addr : -EINVAL;
	addr = PAGE_ALIGN(addr);
	if (addr >= MMAP_MIN_ADDR && addr <= mm->task_size - len &&
	    !find_vma_intersection(mm, addr, addr + len))
		return (long)addr;
	/* Top-down from mmap_base (v6.10's arch_get_unmapped_area_topdown): the highest gap. */
	for (int i = vma_index(mm, mm->mmap_base); i >= 0; i--) {
		unsigned long gap_end = i < mm->map_count ? mm->vmas[i]->vm_start : mm->task_size;
		unsigned long gap_start = i > 0 ? mm->vmas[i - 1]->vm_end : MMAP_MIN_ADDR;

		if (gap_end > mm->mmap_base)
			gap_end = mm->mmap_base;
		if (gap_end > gap_start && gap_end - gap_start >= len)
			return (long)(gap_end - len);
	}
	/* Nothing below: bottom-up above it, as v6.10 falls back to arch_get_unmapped_area(). */
	for (int i = vma_index(mm, mm->mmap_base); i <= mm->map_count; i++) {
		unsigned long gap_start = i > 0 ? mm->vmas[i - 1]->vm_end : MMAP_MIN_ADDR;
		unsigned long gap_end = i < mm->map_count ? mm->vmas[i]->vm_start : mm->task_size;

		if (gap_start < mm->mmap_base)
			gap_start = mm->mmap_base;
		if (gap_end > gap_start && gap_end - gap_start >= len)
			return (long)gap_start;
	}
	return -ENOMEM;
}

long mmap_region(struct mm_struct *mm, unsigned long addr, unsigned long len,
		 unsigned long vm_flags, struct file *file, unsigned long pgoff)
{
	struct vm_area_struct *vma;
	int err;

	lockdep_assert_held(&mm->mmap_lock);
	len = PAGE_ALIGN(len);
	if (!range_ok(mm, addr, len) || addr < MMAP_MIN_ADDR)
		return -EINVAL;
	/* Room first: the unmap below may split one area, the new one is one more. */
	err = vmas_reserve(mm, 3);
	if (err)
		return err;
	vma = kmalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return -ENOMEM;
	err = do_munmap(mm, addr, len);		/* MAP_FIXED: whatever was there goes */
	if (err) {
		kfree(vma);
		return err;
	}
	vm_flags |= mm->def_flags;		/* mlockall(MCL_FUTURE): mm/mlock_sys.c */
	*vma = (struct vm_area_struct){
		.vm_start = addr, .vm_end = addr + len, .vm_mm = mm, .vm_flags = vm_flags,
		.vm_pgoff = file ? pgoff : addr >> PAGE_SHIFT, .vm_file = file,
	};
	vma_link_file(vma);
	int i = vma_index(mm, addr);
	vmas_insert_at(mm, i, vma);
	mm->total_vm += len >> PAGE_SHIFT;
	if (vm_flags & VM_LOCKED)
		mm->locked_vm += len >> PAGE_SHIFT;
	merge_range(mm, i, i);
	return (long)addr;
}

int mprotect_fixup_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			 unsigned long prot_flags)
{
	unsigned long at = start;
	int first, last, err;

	lockdep_assert_held(&mm->mmap_lock);
	if ((start & ~PAGE_MASK) || end < start || end > mm->task_size || (prot_flags & ~VM_PROT_MASK))
		return -EINVAL;
	end = PAGE_ALIGN(end);
	if (start == end)
		return 0;
	/* Every page mapped, and each area allowed the new protection (VM_MAY*), or no change. */
	for (int i = vma_index(mm, start); at < end; i++) {
		if (i >= mm->map_count || mm->vmas[i]->vm_start > at)
			return -ENOMEM;
		if (prot_flags & ~(mm->vmas[i]->vm_flags >> 4) & VM_PROT_MASK)
			return -EACCES;
		at = mm->vmas[i]->vm_end;
	}
	err = isolate_range(mm, start, end, &first, &last);
	if (err)
		return err;
	for (int i = first; i <= last; i++) {
		mm->vmas[i]->vm_flags = (mm->vmas[i]->vm_flags & ~VM_PROT_MASK) | prot_flags;
		change_protection(mm->vmas[i], mm->vmas[i]->vm_start, mm->vmas[i]->vm_end);
	}
	merge_range(mm, first, last);
	return 0;
}

/* v6.10's exit_mmap(): every page unmapped, every table and area freed, then the root. */
void exit_mmap(struct mm_struct *mm)
{
	mutex_lock(&mm->mmap_lock);
	for (int i = 0; i < mm->map_count; i++)
		unmap_page_range(mm, mm->vmas[i]->vm_start, mm->vmas[i]->vm_end);
	free_pgtables(mm);
	exit_mmap_vmas(mm);
	mutex_unlock(&mm->mmap_lock);
	mm_free_pgd(mm);
}

unsigned long do_brk(struct mm_struct *mm, unsigned long newbrk)
{
	unsigned long oldend = PAGE_ALIGN(mm->brk), newend = PAGE_ALIGN(newbrk);

	lockdep_assert_held(&mm->mmap_lock);
	/* v6.10's brk(): below the heap's start or past user space, nothing moves. */
	if (newbrk < mm->start_brk || newbrk > mm->task_size)
		return mm->brk;
	if (newend < oldend) {
		if (do_munmap(mm, newend, oldend - newend))
			return mm->brk;
	} else if (newend > oldend) {
		if (find_vma_intersection(mm, oldend, newend))
			return mm->brk;		/* would run into another mapping */
		if (mmap_region(mm, oldend, newend - oldend,
				VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC, NULL, 0) < 0)
			return mm->brk;
	}
	mm->brk = newbrk;
	return newbrk;
}

int vma_check(struct mm_struct *mm, int (*pr)(const char *fmt, ...))
{
	unsigned long pages = 0, locked = 0;
	int bad = 0;

	for (int i = 0; i < mm->map_count; i++) {
		const struct vm_area_struct *v = mm->vmas[i];

		if ((v->vm_start | v->vm_end) & ~PAGE_MASK || v->vm_start >= v->vm_end ||
		    v->vm_start < MMAP_MIN_ADDR || v->vm_end > mm->task_size) {
			pr("vma: [%#lx, %#lx): not aligned, empty or outside user space\n",
			   v->vm_start, v->vm_end);
			bad++;
		}
		if (v->vm_mm != mm) {
			pr("vma: [%#lx, %#lx): another mm's\n", v->vm_start, v->vm_end);
			bad++;
		}
		if (i && mm->vmas[i - 1]->vm_end > v->vm_start) {
			pr("vma: [%#lx, %#lx) overlaps or precedes the area before it\n",
			   v->vm_start, v->vm_end);
			bad++;
		}
		if (v->vm_file && list_empty(&v->shared)) {
			pr("vma: [%#lx, %#lx): a file's area not on its i_mmap\n", v->vm_start,
			   v->vm_end);
			bad++;
		}
		if (i && vmas_mergeable(mm->vmas[i - 1], v)) {
			pr("vma: [%#lx, %#lx) should have merged with the area before it\n",
			   v->vm_start, v->vm_end);
			bad++;
		}
		pages += vma_pages(v);
		if (v->vm_flags & VM_LOCKED)
			locked += vma_pages(v);
		if ((v->vm_flags & VM_LOCKONFAULT) && !(v->vm_flags & VM_LOCKED)) {
			pr("vma: [%#lx, %#lx): VM_LOCKONFAULT without VM_LOCKED\n", v->vm_start,
			   v->vm_end);
			bad++;
		}
	}
	if (locked != mm->locked_vm) {
		pr("vma: locked_vm %lu, VM_LOCKED areas hold %lu pages\n", mm->locked_vm, locked);
		bad++;
	}
	if (pages != mm->total_vm || mm->map_count > mm->vmas_capacity) {
		pr("vma: total_vm %lu, areas hold %lu pages; %d areas, room for %d\n", mm->total_vm,
		   pages, mm->map_count, mm->vmas_capacity);
		bad++;
	}
	return bad;
}
