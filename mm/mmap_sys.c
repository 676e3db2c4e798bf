/*
 * mmap_sys.c - the memory system calls (Linux v6.10's mm/mmap.c, mm/mprotect.c, mm/madvise.c
 * and mm/nommu-free entry points): brk, mmap (RV64: offset in bytes), mmap2 (ARM, RV32: in
 * 4096-byte units), munmap, mprotect, madvise.  Thin: they check the arguments as v6.10 does
 * and call mm/mmap.c's area operations on current->mm under its mmap_lock.
 *
 * Mappings: anonymous and file MAP_PRIVATE, with MAP_FIXED (whatever was there goes) and
 * MAP_FIXED_NOREPLACE (-EEXIST when anything is there), and file MAP_SHARED (and
 * SHARED_VALIDATE, which refuses flags outside v6.10's LEGACY_MAP_MASK with -EOPNOTSUPP):
 * writes reach the file (docs/shared-mappings.md).  A shared mapping of a file not open for
 * writing is -EACCES with PROT_WRITE and never writable later (no VM_MAYWRITE: mprotect is
 * -EACCES), as v6.10; MAP_SHARED|MAP_ANONYMOUS (shmem) is -ENODEV.  A file mapping needs a
 * regular file open for reading (-EACCES otherwise, -ENODEV for the console or a directory);
 * the file is kept open for the task's life (files_pin, include/tinymm/file.h says why).
 * madvise: MADV_HWPOISON and MADV_SOFT_OFFLINE (100, 101) inject an error into each page of
 * the range (mm/hwpoison_user.c, docs/hwpoison.md; the caller of a poisoned dirty or anonymous
 * page is killed with SIGBUS as the call ends).  MADV_DONTNEED zaps the range's ptes
 * (unmap_page_range), so the next touch of anonymous memory reads zeros and of a private file
 * mapping the file again; NORMAL, RANDOM, SEQUENTIAL, WILLNEED, FREE (as DONTNEED: nothing is
 * lazily freed here) are accepted; other advice is -EINVAL, as v6.10 says for advice it does
 * not know.  An unmapped part of the range is -ENOMEM after the mapped parts were done, as
 * v6.10.  MAP_LOCKED makes a VM_LOCKED area and
 * it, MAP_POPULATE and an area or heap growth under mlockall(MCL_FUTURE) are faulted in at once
 * (mm_populate, mm/mlock_sys.c); DONTNEED and FREE refuse a VM_LOCKED area (-EINVAL).
 * Locking: current->mm->mmap_lock around each call's area work; no user copy under it.
 */
#include "tinymm/errno.h"
#include "tinymm/file.h"
#include "tinymm/lockdep.h"
#include "tinymm/mlock.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/memory-failure.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/syscalls.h"
#include "tinymm/uapi/mman.h"
#include "tinymm/vfs.h"

/* v6.10's LEGACY_MAP_MASK (include/linux/mman.h): what MAP_SHARED_VALIDATE accepts. */
#define LEGACY_MAP_MASK	(LINUX_MAP_SHARED | LINUX_MAP_PRIVATE | LINUX_MAP_FIXED | \
			 LINUX_MAP_ANONYMOUS | 0x0800 /* DENYWRITE */ | 0x1000 /* EXECUTABLE */ | \
			 0x4000000 /* UNINITIALIZED */ | 0x0100 /* GROWSDOWN */ | \
			 0x2000 /* LOCKED */ | LINUX_MAP_NORESERVE | LINUX_MAP_POPULATE | \
			 0x10000 /* NONBLOCK */ | 0x20000 /* STACK */ | 0x40000 /* HUGETLB */)

unsigned long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current->mm;
	unsigned long ret;

	if (!mm)
		return 0;
	mutex_lock(&mm->mmap_lock);
	unsigned long oldbrk = mm->brk;
	ret = brk ? do_brk(mm, brk) : mm->brk;
	/* v6.10's brk: a heap grown under mlockall(MCL_FUTURE) is faulted in. */
	if (ret > oldbrk && (mm->def_flags & VM_LOCKED))
		mm_populate(mm, PAGE_ALIGN(oldbrk), PAGE_ALIGN(ret) - PAGE_ALIGN(oldbrk));
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

static unsigned long prot_to_vm_flags(unsigned long prot)
{
	return (prot & LINUX_PROT_READ ? VM_READ : 0) | (prot & LINUX_PROT_WRITE ? VM_WRITE : 0) |
	       (prot & LINUX_PROT_EXEC ? VM_EXEC : 0);
}

/* The common half of mmap and mmap2 (v6.10's ksys_mmap_pgoff + do_mmap): the address or -errno. */
long ksys_mmap_pgoff(unsigned long addr, unsigned long len, unsigned long prot,
		     unsigned long flags, unsigned long fd, unsigned long pgoff)
{
	struct mm_struct *mm = current->mm;
	unsigned long vm_flags = VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	struct file *file = NULL;
	bool shared = false;
	long ret;

	if (!mm)
		return -ENOMEM;
	if (!len)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len || len > mm->task_size)
		return -ENOMEM;
	/* v6.10: the offset in pages may not wrap with the length. */
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -EOVERFLOW;
	switch (flags & LINUX_MAP_TYPE) {
	case LINUX_MAP_PRIVATE:
		break;
	case LINUX_MAP_SHARED_VALIDATE:
		/* v6.10: the legacy flags only (MAP_FIXED_NOREPLACE is not one of them). */
		if (flags & ~LEGACY_MAP_MASK)
			return -EOPNOTSUPP;
		__attribute__((fallthrough));
	case LINUX_MAP_SHARED:
		if (flags & LINUX_MAP_ANONYMOUS)
			return -ENODEV;		/* shared anonymous memory is shmem: not here */
		shared = true;
		break;
	default:
		return -EINVAL;
	}
	if ((flags & (LINUX_MAP_FIXED | LINUX_MAP_FIXED_NOREPLACE)) && (addr & ~PAGE_MASK))
		return -EINVAL;
	if (!(flags & LINUX_MAP_ANONYMOUS)) {
		file = fdget((int)fd);
		if (!file)
			return -EBADF;
		if (!S_ISREG(file->f_inode->i_mode) || !file->f_path.mnt) {
			ret = -ENODEV;
			goto out_file;
		}
		if ((file->f_flags & O_ACCMODE) == O_WRONLY) {
			ret = -EACCES;
			goto out_file;
		}
		/* v6.10's do_mmap: a shared mapping writes the file, so it needs the file open for
		 * writing to be writable now (-EACCES) or later (no VM_MAYWRITE: mprotect refuses). */
		if (shared && (file->f_flags & O_ACCMODE) != O_RDWR) {
			if (prot & LINUX_PROT_WRITE) {
				ret = -EACCES;
				goto out_file;
			}
			vm_flags &= ~VM_MAYWRITE;
		}
		if (shared)
			vm_flags |= VM_SHARED;
		ret = files_pin(file);
		if (ret)
			goto out_file;
	}
	vm_flags |= prot_to_vm_flags(prot);
	if (flags & LINUX_MAP_LOCKED)
		vm_flags |= VM_LOCKED;

	mutex_lock(&mm->mmap_lock);
	ret = get_unmapped_area(mm, addr, len,
				flags & (LINUX_MAP_FIXED | LINUX_MAP_FIXED_NOREPLACE));
	if (ret >= 0 && (flags & LINUX_MAP_FIXED_NOREPLACE) && !(flags & LINUX_MAP_FIXED) &&
	    find_vma_intersection(mm, (unsigned long)ret, (unsigned long)ret + len))
		ret = -EEXIST;
	if (ret >= 0)
		ret = mmap_region(mm, (unsigned long)ret, len, vm_flags, file, pgoff);
	/* v6.10's do_mmap *populate: a locked area (MAP_LOCKED, mlockall(MCL_FUTURE)) unless on
	 * fault, or MAP_POPULATE without MAP_NONBLOCK; failures are not the mmap's (mm_populate). */
	vm_flags |= mm->def_flags;
	if (ret >= 0 && ((vm_flags & VM_LOCKED_MASK) == VM_LOCKED ||
			 (flags & (LINUX_MAP_POPULATE | 0x10000 /* NONBLOCK */)) == LINUX_MAP_POPULATE))
		mm_populate(mm, (unsigned long)ret, len);
	mutex_unlock(&mm->mmap_lock);
out_file:
	if (file)
		fput(file);
	return ret;
}

long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off)
{
	if (off & ~PAGE_MASK)
		return -EINVAL;
	return ksys_mmap_pgoff(addr, len, prot, flags, fd, off >> PAGE_SHIFT);
}

/* ARM, RV32: the offset in 4096-byte units (PAGE_SIZE here), so files past 4 GiB map too. */
long sys_mmap2(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	       unsigned long fd, unsigned long pgoff)
{
	return ksys_mmap_pgoff(addr, len, prot, flags, fd, pgoff >> (PAGE_SHIFT - LINUX_MMAP2_SHIFT));
}

long sys_munmap(unsigned long addr, size_t len)
{
	struct mm_struct *mm = current->mm;
	int ret;

	if (!mm)
		return -EINVAL;
	if ((addr & ~PAGE_MASK) || !len || !PAGE_ALIGN(len))
		return -EINVAL;
	mutex_lock(&mm->mmap_lock);
	ret = do_munmap(mm, addr, len);
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

long sys_mprotect(unsigned long start, size_t len, unsigned long prot)
{
	struct mm_struct *mm = current->mm;
	unsigned long end;
	int ret;

	if (!mm)
		return -ENOMEM;
	/* v6.10: GROWSDOWN/GROWSUP refused here (no VM_GROWSDOWN areas a task can name). */
	if (prot & ~(unsigned long)(LINUX_PROT_READ | LINUX_PROT_WRITE | LINUX_PROT_EXEC |
				    LINUX_PROT_SEM))
		return -EINVAL;
	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (!len)
		return 0;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (!len || end <= start)
		return -ENOMEM;
	if (end > mm->task_size)
		return -ENOMEM;
	mutex_lock(&mm->mmap_lock);
	ret = mprotect_fixup_range(mm, start, end, prot_to_vm_flags(prot));
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

long sys_madvise(unsigned long start, size_t len_in, int behavior)
{
	struct mm_struct *mm = current->mm;
	unsigned long end, at;
	size_t len;
	long ret = 0;

	switch (behavior) {
	case LINUX_MADV_NORMAL:
	case LINUX_MADV_RANDOM:
	case LINUX_MADV_SEQUENTIAL:
	case LINUX_MADV_WILLNEED:
	case LINUX_MADV_DONTNEED:
	case LINUX_MADV_FREE:
	case LINUX_MADV_HWPOISON:
	case LINUX_MADV_SOFT_OFFLINE:
		break;
	default:
		return -EINVAL;
	}
	if (!mm)
		return -ENOMEM;
	if (start & ~PAGE_MASK)
		return -EINVAL;
	len = PAGE_ALIGN(len_in);
	if (len_in && !len)
		return -EINVAL;			/* v6.10: a length that wraps */
	end = start + len;
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	if (behavior == LINUX_MADV_HWPOISON || behavior == LINUX_MADV_SOFT_OFFLINE) {
		/* v6.10: the unaligned end, before any lock (it takes mmap_lock per page). */
		ret = madvise_inject_error(behavior, start, start + len_in);
		force_sig_deliver_pending();	/* memory_failure()'s SIGBUS for this caller */
		return ret;
	}
	mutex_lock(&mm->mmap_lock);
	at = start;
	while (at < end) {
		struct vm_area_struct *vma = find_vma(mm, at);

		if (!vma || vma->vm_start >= end) {
			ret = -ENOMEM;			/* a hole up to the end */
			break;
		}
		if (vma->vm_start > at)
			ret = -ENOMEM;			/* a hole before this area */
		at = vma->vm_start > at ? vma->vm_start : at;
		unsigned long stop = vma->vm_end < end ? vma->vm_end : end;
		if (behavior == LINUX_MADV_DONTNEED || behavior == LINUX_MADV_FREE) {
			if (vma->vm_flags & VM_LOCKED) {
				ret = -EINVAL;
				break;
			}
			unmap_page_range(mm, at, stop);
		}
		at = stop;
	}
	mutex_unlock(&mm->mmap_lock);
	return ret;
}
