/*
 * msync.c - msync(2), Linux v6.10's mm/msync.c (docs/shared-mappings.md, docs/syscalls.md).
 *
 * MS_SYNC writes back and waits for each shared file area's file in the range (v6.10:
 * vfs_fsync_range); MS_ASYNC is a no-op, as in v6.10 since 2.6.19 (dirty pages are already
 * tracked by the write-notify faults, and the flusher writes them); MS_INVALIDATE is accepted
 * and does nothing more (v6.10 only refuses it on an mlock()ed area, -EBUSY).  Arguments as
 * v6.10: unknown flags, MS_ASYNC with MS_SYNC, or an unaligned start -EINVAL; a range that
 * wraps or has a hole -ENOMEM (after the mapped parts were synced; with MS_ASYNC alone the hole
 * ends the walk); a length of 0 is 0.
 * Where tinymm differs from v6.10, and why: the whole file is synced (vfs_fsync), not only the
 * bytes of the range: tinymm's fsync has no range form, and writing more than asked is safe.
 * Locking: mmap_lock to walk the areas; dropped around the sync (writeback takes folio locks
 * and i_mmap_lock, and may wait on I/O), with a reference on the file; the walk then resumes
 * from the end of the area it synced, as v6.10's.
 */
#include "tinymm/errno.h"
#include "tinymm/file.h"
#include "tinymm/mmap.h"
#include "tinymm/sched.h"
#include "tinymm/syscalls.h"
#include "tinymm/uapi/mman.h"
#include "tinymm/vfs.h"

long sys_msync(unsigned long start, size_t len, int flags)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long end;
	long error = -EINVAL, unmapped_error = 0;

	if (flags & ~(LINUX_MS_ASYNC | LINUX_MS_INVALIDATE | LINUX_MS_SYNC))
		return error;
	if (start & ~PAGE_MASK)
		return error;
	if ((flags & LINUX_MS_ASYNC) && (flags & LINUX_MS_SYNC))
		return error;
	len = (len + ~PAGE_MASK) & PAGE_MASK;
	end = start + len;
	if (end < start)
		return -ENOMEM;
	if (end == start)
		return 0;
	if (!mm)
		return -ENOMEM;
	mutex_lock(&mm->mmap_lock);
	vma = find_vma(mm, start);
	for (;;) {
		struct file *file;

		error = -ENOMEM;
		if (!vma)
			break;
		/* Here start < vma->vm_end. */
		if (start < vma->vm_start) {
			if (flags == LINUX_MS_ASYNC)
				break;
			start = vma->vm_start;
			if (start >= end)
				break;
			unmapped_error = -ENOMEM;
		}
		/* Here vma->vm_start <= start < vma->vm_end. */
		if ((flags & LINUX_MS_INVALIDATE) && (vma->vm_flags & VM_LOCKED)) {
			error = -EBUSY;
			break;
		}
		file = vma->vm_file;
		start = vma->vm_end;
		if ((flags & LINUX_MS_SYNC) && file && (vma->vm_flags & VM_SHARED)) {
			get_file(file);
			mutex_unlock(&mm->mmap_lock);
			error = vfs_fsync(file);
			fput(file);
			if (error || start >= end)
				return error ? error : unmapped_error;
			mutex_lock(&mm->mmap_lock);
			vma = find_vma(mm, start);
		} else {
			if (start >= end) {
				error = 0;
				break;
			}
			vma = find_vma(mm, start);
		}
	}
	mutex_unlock(&mm->mmap_lock);
	return error ? error : unmapped_error;
}
