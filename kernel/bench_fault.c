/*
 * bench_fault.c - the page-fault rows of `make bench` (see kernel/bench.c for how instructions
 * are counted), measured on do_user_addr_fault(), the generic half of a user page fault: the
 * mm's lock, the area lookup, handle_mm_fault() and what it calls.  The architecture's trap
 * entry and return are the syscall-getpid row's business.
 *   fault-anon        a write to a page never touched in an anonymous private area: a zeroed
 *                     folio allocated, charged (PG_swapbacked, PG_anon_exclusive, the anon LRU,
 *                     AnonPages), mapped writable.  The zeroing itself (clear_page(),
 *                     measured alone) is subtracted, as the issue asks.
 *   fault-file-minor  a read of a page of a private file mapping whose folio is cached: the
 *                     page-cache lookup and reference, the file rmap (Mapped, the mapcount),
 *                     the pte.  The area's ptes are zapped between rounds (not measured).
 * The bench runs in the shell's thread with a user mm of its own as current->mm (never made
 * active: nothing here touches the pages through the MMU).
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"

#define NR		256
#define AREA		0x100000UL
#define FILE_DIR	"/bench_fault"
#define FILE_PATH	FILE_DIR "/data/16k.bin"
#define FILE_PAGES	4

static uint32_t samples[NR];


static int fail(const char *what, long err)
{
	kprintf("bench: %s: %s\n", what, errname((int)err));
	return 1;
}

static uint32_t clear_cost(uint32_t overhead)
{
	struct page *page = alloc_page(GFP_KERNEL);
	uint32_t least = ~0u, n;

	if (!page)
		return 0;
	for (int i = 0; i < 64; i++) {
		BENCH_MEASURE(n, clear_page(page_address(page)));
		least = min(least, n > overhead ? n - overhead : 0);
	}
	__free_page(page);
	return least;
}

static int bench_anon(struct mm_struct *mm, uint32_t overhead)
{
	int sig = 0, code;
	long addr;

	mutex_lock(&mm->mmap_lock);
	addr = mmap_region(mm, AREA, NR * PAGE_SIZE, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE,
			   NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	if (addr < 0)
		return fail("mmap anon", addr);
	for (int i = 0; i < NR && !sig; i++)
		BENCH_MEASURE(samples[i], sig = do_user_addr_fault(AREA + i * PAGE_SIZE,
							    FAULT_FLAG_WRITE | FAULT_FLAG_USER, &code));
	if (sig)
		return fail("anon fault", -EFAULT);
	bench_summary("fault-anon", samples, NR, overhead + clear_cost(overhead));
	mutex_lock(&mm->mmap_lock);
	do_munmap(mm, AREA, NR * PAGE_SIZE);
	mutex_unlock(&mm->mmap_lock);
	return 0;
}

static int bench_file(struct mm_struct *mm, uint32_t overhead)
{
	struct file *file;
	int sig = 0, code;
	long ret = vfs_open(FILE_PATH, O_RDONLY, 0, &file);

	if (ret)
		return fail(FILE_PATH, ret);
	mutex_lock(&mm->mmap_lock);
	ret = mmap_region(mm, AREA, FILE_PAGES * PAGE_SIZE, VM_READ | VM_MAYREAD, file, 0);
	mutex_unlock(&mm->mmap_lock);
	for (int i = 0; ret >= 0 && i < FILE_PAGES && !sig; i++)	/* cache every folio */
		sig = do_user_addr_fault(AREA + i * PAGE_SIZE, FAULT_FLAG_USER, &code);
	for (int i = 0; ret >= 0 && i < NR && !sig; i++) {
		if (i % FILE_PAGES == 0) {
			mutex_lock(&mm->mmap_lock);
			unmap_page_range(mm, AREA, AREA + FILE_PAGES * PAGE_SIZE);
			mutex_unlock(&mm->mmap_lock);
		}
		BENCH_MEASURE(samples[i], sig = do_user_addr_fault(AREA + (i % FILE_PAGES) * PAGE_SIZE,
							    FAULT_FLAG_USER, &code));
	}
	if (ret >= 0) {
		mutex_lock(&mm->mmap_lock);
		do_munmap(mm, AREA, FILE_PAGES * PAGE_SIZE);
		mutex_unlock(&mm->mmap_lock);
	}
	vfs_close(file);
	if (ret < 0 || sig)
		return fail("file fault", ret < 0 ? ret : -EFAULT);
	bench_summary("fault-file-minor", samples, NR, overhead);
	return 0;
}

int bench_fault(void)
{
	struct mm_struct *mm = mm_alloc();
	uint32_t overhead = ~0u;
	int ret, err;

	if (!mm)
		return fail("mm_alloc", -ENOMEM);
	for (int i = 0; i < NR; i++) {
		BENCH_MEASURE(samples[i], (void)0);
		overhead = min(overhead, samples[i]);
	}
	current->mm = mm;
	ret = bench_anon(mm, overhead);
	err = vfs_mkdir(FILE_DIR, 0755);
	if (!ret && err && err != -EEXIST)
		ret = fail("mkdir " FILE_DIR, err);
	if (!ret && (err = do_mount("ram0", FILE_DIR, "ext2", 0)))
		ret = fail("mount ram0 " FILE_DIR, err);
	if (!ret) {
		ret = bench_file(mm, overhead);
		err = do_umount(FILE_DIR);
		if (err && !ret)
			ret = fail("umount " FILE_DIR, err);
	}
	current->mm = NULL;
	mmput(mm);
	return ret;
}
