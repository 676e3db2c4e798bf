/*
 * syscalls_test.c - the system calls of issue 33 (fs/sys_fd.c, fs/sys_path.c, mm/mmap_sys.c,
 * kernel/sys.c, kernel/sys_time.c, fs/file.c) called as a user task would, on the host under
 * ASan/UBSan: a host thread gets a fake mm (mm_alloc) and an fd table, and every pointer it
 * passes is a user address in that mm, reached by the kernel only through
 * tests/host/host_uaccess.c (the fake tables walked, faults resolved by do_user_addr_fault).
 * Files live on the ramfs root.  Each case checks the results Linux v6.10 gives, and that the
 * mm, the fd table and the pages they used are all given back (free memory as before).
 */
#include "host_sched_test.h"
#include "tinymm/file.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/smp.h"
#include "tinymm/syscalls.h"
#include "tinymm/uaccess.h"
#include "tinymm/uapi/fcntl.h"
#include "tinymm/uapi/mman.h"
#include "tinymm/uapi/stat.h"
#include "tinymm/uapi/time.h"
#include "tinymm/uapi/utsname.h"
/* <stdlib.h> (through cmocka) has its own wait-status macros: the kernel's win here. */
#undef WIFEXITED
#undef WEXITSTATUS
#undef WTERMSIG
#include "tinymm/user_task.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "tinymm/vfs.h"

extern char shim_console[];
void shim_console_reset(void);
void shim_console_input(const char *s);

/* No RTC on the host: the wall clock starts at a fixed time. */
int rtc_read_ns(uint64_t *ns)
{
	*ns = 1700000000ULL * NSEC_PER_SEC;
	return 0;
}

const char tinymm_version[] = "0.1-test";

#define PROT_RW		(LINUX_PROT_READ | LINUX_PROT_WRITE)
#define MAP_ANON_PRIV	(LINUX_MAP_PRIVATE | LINUX_MAP_ANONYMOUS)
#define KERNEL_PTR	((unsigned long)-4096)	/* above TASK_SIZE: never a user address */

static struct mm_struct *mm;
static unsigned long free_before;
static bool vfs_ready;

static unsigned long free_now(void)
{
	lru_add_drain();
	return nr_free_pages_and_pcp() + slab_pages_reclaimable() + slab_pages_unreclaimable() +
	       global_node_page_state(NR_FILE_PAGES);
}

/* Become a user task: an mm with a heap at 256 MiB, fds 0-2 on the console. */
static void task_begin(void)
{
	if (!vfs_ready) {
		vfs_init();
		vfs_ready = true;
	}
	free_before = free_now();
	mm = mm_alloc();
	CHECK(mm != NULL);
	mm->start_brk = mm->brk = 256UL << 20;
	current->mm = mm;
	CHECK_EQ(alloc_files_for_task(current), 0);
}

static void task_end(void)
{
	exit_files(current);
	CHECK(current->files == NULL);
	current->mm = NULL;
	mmput(mm);
	CHECK_EQ(free_now(), free_before);
}

/* A fresh anonymous read-write mapping of @pages pages. */
static unsigned long umap(unsigned long pages)
{
	long a = sys_mmap(0, pages * PAGE_SIZE, PROT_RW, MAP_ANON_PRIV, (unsigned long)-1, 0);

	CHECK(a > 0 && !(a & (long)(PAGE_SIZE - 1)));
	return (unsigned long)a;
}

static void uput(unsigned long uaddr, const void *src, size_t n)
{
	CHECK_EQ(copy_to_user((void *)uaddr, src, n), 0);
}

static void ustr(unsigned long uaddr, const char *s)
{
	uput(uaddr, s, strlen(s) + 1);
}

/* ---- memory ---- */

static int memory_calls(void)
{
	static unsigned char buf[PAGE_SIZE];
	unsigned long base, a;

	task_begin();
	/* brk: the old value for 0 and for anything refused, the new one otherwise. */
	unsigned long start = sys_brk(0);
	CHECK_EQ(start, 256UL << 20);
	CHECK_EQ(sys_brk(start + 3 * PAGE_SIZE + 5), start + 3 * PAGE_SIZE + 5);
	memset(buf, 0xa5, sizeof(buf));
	uput(start + 2 * PAGE_SIZE, buf, PAGE_SIZE);
	CHECK_EQ(sys_brk(start - PAGE_SIZE), start + 3 * PAGE_SIZE + 5);	/* below the start */
	CHECK_EQ(sys_brk(mm->task_size + PAGE_SIZE), start + 3 * PAGE_SIZE + 5);
	CHECK_EQ(sys_brk(start + PAGE_SIZE), start + PAGE_SIZE);
	CHECK(copy_to_user((void *)(start + 2 * PAGE_SIZE), buf, 1) != 0);	/* gone */

	/* mmap: zeros, page-aligned; the errors v6.10 gives. */
	base = umap(8);
	CHECK_EQ(copy_from_user(buf, (void *)base, PAGE_SIZE), 0);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		if (buf[i])
			CHECK(!"anonymous memory not zero");
	CHECK_EQ(sys_mmap(0, 0, PROT_RW, MAP_ANON_PRIV, -1UL, 0), -EINVAL);
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, LINUX_MAP_SHARED | LINUX_MAP_ANONYMOUS, -1UL, 0), -ENODEV);
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, LINUX_MAP_ANONYMOUS, -1UL, 0), -EINVAL);
	CHECK_EQ(sys_mmap(base + 1, PAGE_SIZE, PROT_RW, MAP_ANON_PRIV | LINUX_MAP_FIXED, -1UL, 0), -EINVAL);
	CHECK_EQ(sys_mmap(0, (unsigned long)-1, PROT_RW, MAP_ANON_PRIV, -1UL, 0), -ENOMEM);
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, LINUX_MAP_PRIVATE, 77, 0), -EBADF);
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, LINUX_MAP_PRIVATE, 1, 0), -ENODEV);	/* the console */
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, MAP_ANON_PRIV, -1UL, 5), -EINVAL);	/* offset */
	CHECK_EQ(sys_mmap(base + PAGE_SIZE, PAGE_SIZE, PROT_RW,
			  MAP_ANON_PRIV | LINUX_MAP_FIXED_NOREPLACE, -1UL, 0), -EEXIST);
	/* MAP_FIXED replaces: the old page's bytes are gone. */
	memset(buf, 0x5a, 16);
	uput(base + PAGE_SIZE, buf, 16);
	CHECK_EQ(sys_mmap(base + PAGE_SIZE, PAGE_SIZE, PROT_RW, MAP_ANON_PRIV | LINUX_MAP_FIXED,
			  -1UL, 0), (long)(base + PAGE_SIZE));
	CHECK_EQ(copy_from_user(buf, (void *)(base + PAGE_SIZE), 16), 0);
	CHECK_EQ(buf[0], 0);

	/* madvise(DONTNEED): zeros at the next touch; bad advice and alignment refused. */
	memset(buf, 0x33, PAGE_SIZE);
	uput(base + 2 * PAGE_SIZE, buf, PAGE_SIZE);
	CHECK_EQ(sys_madvise(base + 2 * PAGE_SIZE, PAGE_SIZE, LINUX_MADV_DONTNEED), 0);
	CHECK_EQ(copy_from_user(buf, (void *)(base + 2 * PAGE_SIZE), PAGE_SIZE), 0);
	CHECK_EQ(buf[0] | buf[PAGE_SIZE - 1], 0);
	CHECK_EQ(sys_madvise(base + 1, PAGE_SIZE, LINUX_MADV_DONTNEED), -EINVAL);
	CHECK_EQ(sys_madvise(base, PAGE_SIZE, 999), -EINVAL);
	CHECK_EQ(sys_madvise(base, 0, LINUX_MADV_DONTNEED), 0);
	CHECK_EQ(sys_madvise(base + 7 * PAGE_SIZE, 4 * PAGE_SIZE, LINUX_MADV_DONTNEED), -ENOMEM);

	/* mprotect read-only: reads work, a write faults (EFAULT for the kernel's copy). */
	CHECK_EQ(sys_mprotect(base + 3 * PAGE_SIZE, PAGE_SIZE, LINUX_PROT_READ), 0);
	CHECK(copy_to_user((void *)(base + 3 * PAGE_SIZE), buf, 1) != 0);
	CHECK_EQ(copy_from_user(buf, (void *)(base + 3 * PAGE_SIZE), 1), 0);
	CHECK_EQ(sys_mprotect(base + 3 * PAGE_SIZE, PAGE_SIZE, PROT_RW), 0);
	CHECK_EQ(copy_to_user((void *)(base + 3 * PAGE_SIZE), buf, 1), 0);
	CHECK_EQ(sys_mprotect(base + 1, PAGE_SIZE, LINUX_PROT_READ), -EINVAL);
	CHECK_EQ(sys_mprotect(base, PAGE_SIZE, 0x40), -EINVAL);
	CHECK_EQ(sys_mprotect(base + 7 * PAGE_SIZE, 3 * PAGE_SIZE, LINUX_PROT_READ), -ENOMEM);

	/* munmap: the pages go; unaligned or empty refused; nothing mapped is fine. */
	CHECK_EQ(sys_munmap(base + 4 * PAGE_SIZE, 2 * PAGE_SIZE), 0);
	CHECK(copy_from_user(buf, (void *)(base + 4 * PAGE_SIZE), 1) != 0);
	CHECK_EQ(sys_munmap(base + 1, PAGE_SIZE), -EINVAL);
	CHECK_EQ(sys_munmap(base, 0), -EINVAL);
	CHECK_EQ(sys_munmap(base + 4 * PAGE_SIZE, PAGE_SIZE), 0);
	CHECK_EQ(sys_munmap(KERNEL_PTR & PAGE_MASK, PAGE_SIZE), -EINVAL);

	/* More than RAM in total, a 1 MiB chunk at a time: touched, freed, memory comes back. */
	for (int i = 0; i < 24; i++) {
		a = umap(256);
		for (unsigned long p = 0; p < 256; p += 16)
			uput(a + p * PAGE_SIZE, &i, sizeof(i));
		CHECK_EQ(sys_munmap(a, 256 * PAGE_SIZE), 0);
	}
	CHECK_EQ(vma_check(mm, printk), 0);
	task_end();
	return failures;
}

/* ---- files ---- */

static long open_u(unsigned long upath, const char *path, int flags)
{
	ustr(upath, path);
	return sys_openat(LINUX_AT_FDCWD, (const char *)upath, flags, 0644);
}

static int file_calls(void)
{
	static unsigned char kbuf[3 * PAGE_SIZE], back[3 * PAGE_SIZE];	/* not on a 16 KiB stack */
	unsigned long u, upath, ubuf, ustat;
	long fd, fd2, n;

	task_begin();
	u = umap(16);
	upath = u;
	ustat = u + PAGE_SIZE;
	ubuf = u + 2 * PAGE_SIZE;		/* 8 pages */
	ustr(upath, "/sys_t");
	CHECK_EQ(sys_mkdirat(LINUX_AT_FDCWD, (const char *)upath, 0755), 0);
	CHECK_EQ(sys_mkdirat(LINUX_AT_FDCWD, (const char *)upath, 0755), -EEXIST);

	/* Create, write across pages, read back after lseek. */
	fd = open_u(upath, "/sys_t/a", LINUX_O_CREAT | LINUX_O_RDWR | LINUX_O_EXCL);
	CHECK_EQ(fd, 3);
	CHECK_EQ(open_u(upath, "/sys_t/a", LINUX_O_CREAT | LINUX_O_RDWR | LINUX_O_EXCL), -EEXIST);
	for (size_t i = 0; i < sizeof(kbuf); i++)
		kbuf[i] = (unsigned char)(i * 7 + 3);
	uput(ubuf, kbuf, 10000);
	CHECK_EQ(sys_write((unsigned int)fd, (const char *)ubuf, 10000), 10000);
	CHECK_EQ(sys_lseek((unsigned int)fd, 0, SEEK_CUR), 10000);
	CHECK_EQ(sys_lseek((unsigned int)fd, 0, SEEK_SET), 0);
	uput(ubuf, back, 10000);		/* scribble */
	CHECK_EQ(sys_read((unsigned int)fd, (char *)ubuf, 3 * PAGE_SIZE), 10000);
	CHECK_EQ(copy_from_user(back, (void *)ubuf, 10000), 0);
	CHECK(!memcmp(back, kbuf, 10000));
	CHECK_EQ(sys_read((unsigned int)fd, (char *)ubuf, 100), 0);	/* end of file */
	CHECK_EQ(sys_lseek((unsigned int)fd, -10, SEEK_END), 9990);
	CHECK_EQ(sys_lseek((unsigned int)fd, -20000, SEEK_CUR), -EINVAL);
	CHECK_EQ(sys_lseek((unsigned int)fd, 0, 7), -EINVAL);
	/* llseek (RV32, ARM): the offset in two words, the result through a pointer. */
	CHECK_EQ(sys_llseek((unsigned int)fd, 0, 4096, (loff_t *)ustat, SEEK_SET), 0);
	loff_t res = 0;
	CHECK_EQ(copy_from_user(&res, (void *)ustat, sizeof(res)), 0);
	CHECK_EQ(res, 4096);
	CHECK_EQ(sys_llseek((unsigned int)fd, 0, 1, (loff_t *)KERNEL_PTR, SEEK_SET), -EFAULT);

	/* Bad pointers: EFAULT, never a crash; a partial copy is a short count. */
	CHECK_EQ(sys_read((unsigned int)fd, (char *)KERNEL_PTR, 16), -EFAULT);
	CHECK_EQ(sys_read((unsigned int)fd, NULL, 16), -EFAULT);
	CHECK_EQ(sys_write((unsigned int)fd, NULL, 16), -EFAULT);
	CHECK_EQ(sys_lseek((unsigned int)fd, 0, SEEK_SET), 0);
	/* A huge length over one mapped page, then a hole: one page moved (a huge length past
	 * TASK_SIZE would be -EFAULT at once: access_ok). */
	CHECK_EQ(sys_munmap(u + 12 * PAGE_SIZE, 4 * PAGE_SIZE), 0);
	CHECK_EQ(sys_lseek((unsigned int)fd, 2 * PAGE_SIZE, SEEK_SET), 2 * PAGE_SIZE);
	CHECK_EQ(sys_write((unsigned int)fd, (const char *)(ubuf + 9 * PAGE_SIZE), 1UL << 26), PAGE_SIZE);
	CHECK_EQ(sys_lseek((unsigned int)fd, 0, SEEK_CUR), 3 * PAGE_SIZE);
	CHECK_EQ(sys_lseek((unsigned int)fd, 2 * PAGE_SIZE, SEEK_SET), 2 * PAGE_SIZE);
	CHECK_EQ(sys_read((unsigned int)fd, (char *)(ubuf + 9 * PAGE_SIZE), 1UL << 26), PAGE_SIZE);
	CHECK_EQ(sys_lseek((unsigned int)fd, 0, SEEK_CUR), 3 * PAGE_SIZE);
	/* A read that fails part-way gives the bytes not delivered back: the position moves by
	 * what the task got. */
	CHECK_EQ(sys_lseek((unsigned int)fd, PAGE_SIZE, SEEK_SET), PAGE_SIZE);
	CHECK_EQ(sys_read((unsigned int)fd, (char *)(ubuf + 10 * PAGE_SIZE - 100), 1000), 100);
	CHECK_EQ(sys_lseek((unsigned int)fd, 0, SEEK_CUR), PAGE_SIZE + 100);
	CHECK_EQ(sys_openat(LINUX_AT_FDCWD, (const char *)KERNEL_PTR, LINUX_O_RDONLY, 0), -EFAULT);
	CHECK_EQ(sys_fstat((unsigned int)fd, (struct linux_stat *)KERNEL_PTR), -EFAULT);

	/* ftruncate down and up; fstat and statx agree on the size. */
	CHECK_EQ(sys_ftruncate((unsigned int)fd, 5000), 0);
	CHECK_EQ(sys_ftruncate((unsigned int)fd, -1), -EINVAL);
	struct linux_stat st;
	CHECK_EQ(sys_fstat((unsigned int)fd, (struct linux_stat *)ustat), 0);
	CHECK_EQ(copy_from_user(&st, (void *)ustat, sizeof(st)), 0);
	CHECK_EQ(st.st_size, 5000);
	CHECK_EQ(st.st_mode, S_IFREG | 0644);
	CHECK_EQ(sys_ftruncate64((unsigned int)fd, 6000, 0), 0);
	struct linux_statx stx;
	ustr(upath, "");
	CHECK_EQ(sys_statx((int)fd, (const char *)upath, LINUX_AT_EMPTY_PATH, LINUX_STATX_BASIC_STATS,
			   (struct linux_statx *)ustat), 0);
	CHECK_EQ(copy_from_user(&stx, (void *)ustat, sizeof(stx)), 0);
	CHECK_EQ(stx.stx_size, 6000);
	CHECK_EQ(stx.stx_mask, LINUX_STATX_BASIC_STATS);
	CHECK_EQ(sys_statx((int)fd, (const char *)upath, 0, 0, (struct linux_statx *)ustat), -ENOENT);
	ustr(upath, "/sys_t/a");
	CHECK_EQ(sys_statx(LINUX_AT_FDCWD, (const char *)upath, 0, 0, (struct linux_statx *)ustat), 0);
	CHECK_EQ(sys_statx(LINUX_AT_FDCWD, (const char *)upath, 0x8000000, 0, (struct linux_statx *)ustat), -EINVAL);
	struct linux_stat64 st64;
	CHECK_EQ(sys_fstat64((unsigned long)fd, (struct linux_stat64 *)ustat), 0);
	CHECK_EQ(copy_from_user(&st64, (void *)ustat, sizeof(st64)), 0);
	CHECK_EQ(st64.st_size, 6000);
	CHECK_EQ(st64.st_ino, stx.stx_ino);

	/* O_APPEND writes at the end whatever the position. */
	fd2 = open_u(upath, "/sys_t/a", LINUX_O_WRONLY | LINUX_O_APPEND);
	CHECK_EQ(fd2, 4);
	uput(ubuf, "tail", 4);
	CHECK_EQ(sys_write((unsigned int)fd2, (const char *)ubuf, 4), 4);
	CHECK_EQ(sys_lseek((unsigned int)fd, 0, SEEK_END), 6004);
	CHECK_EQ(sys_read((unsigned int)fd2, (char *)ubuf, 4), -EBADF);	/* write-only */
	CHECK_EQ(sys_fsync((unsigned int)fd2), 0);
	CHECK_EQ(sys_close((unsigned int)fd2), 0);
	CHECK_EQ(sys_close((unsigned int)fd2), -EBADF);

	/* A private file mapping keeps the file after close; a write to it copies. */
	long m = sys_mmap(0, 2 * PAGE_SIZE, PROT_RW, LINUX_MAP_PRIVATE, (unsigned long)fd, 0);
	CHECK(m > 0);
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, LINUX_MAP_PRIVATE, (unsigned long)fd, 100), -EINVAL);
	CHECK_EQ(sys_close((unsigned int)fd), 0);
	CHECK_EQ(copy_from_user(back, (void *)m, 100), 0);
	CHECK(!memcmp(back, kbuf, 100));
	uput((unsigned long)m, "XY", 2);
	fd = open_u(upath, "/sys_t/a", LINUX_O_RDONLY);
	CHECK_EQ(fd, 3);
	CHECK_EQ(sys_read((unsigned int)fd, (char *)ubuf, 2), 2);
	CHECK_EQ(copy_from_user(back, (void *)ubuf, 2), 0);
	CHECK(!memcmp(back, kbuf, 2));		/* the file unchanged */
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, LINUX_MAP_PRIVATE, (unsigned long)fd, 0) > 0, 1);
	CHECK_EQ(sys_write((unsigned int)fd, (const char *)ubuf, 2), -EBADF);	/* read-only */
	CHECK_EQ(sys_ftruncate((unsigned int)fd, 0), -EINVAL);

	/* rename, RENAME_NOREPLACE, getdents64 lists what is there. */
	fd2 = open_u(upath, "/sys_t/b", LINUX_O_CREAT | LINUX_O_WRONLY);
	CHECK_EQ(fd2, 4);
	CHECK_EQ(sys_close((unsigned int)fd2), 0);
	ustr(ubuf, "/sys_t/a");
	ustr(ubuf + 64, "/sys_t/b");
	CHECK_EQ(sys_renameat2(LINUX_AT_FDCWD, (const char *)ubuf, LINUX_AT_FDCWD,
			       (const char *)(ubuf + 64), LINUX_RENAME_NOREPLACE), -EEXIST);
	CHECK_EQ(sys_renameat2(LINUX_AT_FDCWD, (const char *)ubuf, LINUX_AT_FDCWD,
			       (const char *)(ubuf + 64), LINUX_RENAME_EXCHANGE), -EINVAL);
	ustr(ubuf + 64, "c");			/* relative to a directory fd */
	fd2 = open_u(upath, "/sys_t", LINUX_O_RDONLY | LINUX_O_DIRECTORY);
	CHECK_EQ(fd2, 4);
	CHECK_EQ(sys_renameat(LINUX_AT_FDCWD, (const char *)ubuf, (int)fd2, (const char *)(ubuf + 64)), 0);
	ustr(ubuf + 128, "d");
	CHECK_EQ(sys_mkdirat((int)fd2, (const char *)(ubuf + 128), 0755), 0);
	n = sys_getdents64((unsigned int)fd2, (void *)ubuf, 4096);
	CHECK(n > 0);
	CHECK_EQ(copy_from_user(back, (void *)ubuf, (unsigned long)n), 0);
	int seen = 0;
	for (long off = 0; off < n;) {
		struct linux_dirent64 *d = (struct linux_dirent64 *)(back + off);

		if (!strcmp(d->d_name, "b") && d->d_type == DT_REG)
			seen |= 1;
		if (!strcmp(d->d_name, "c") && d->d_type == DT_REG)
			seen |= 2;
		if (!strcmp(d->d_name, "d") && d->d_type == DT_DIR)
			seen |= 4;
		if (!strcmp(d->d_name, "a"))
			seen |= 8;
		off += d->d_reclen;
	}
	CHECK_EQ(seen, 7);
	CHECK_EQ(sys_getdents64((unsigned int)fd2, (void *)ubuf, 4096), 0);	/* the end */
	CHECK_EQ(sys_lseek((unsigned int)fd2, 0, SEEK_SET), 0);
	CHECK_EQ(sys_getdents64((unsigned int)fd2, (void *)ubuf, 8), -EINVAL);	/* too small */
	CHECK_EQ(sys_getdents64((unsigned int)fd2, (void *)KERNEL_PTR, 4096), -EFAULT);
	CHECK_EQ(sys_getdents64(1, (void *)ubuf, 4096), -ENOTDIR);
	CHECK_EQ(sys_read((unsigned int)fd2, (char *)ubuf, 10), -EISDIR);

	/* unlinkat, and AT_REMOVEDIR for directories. */
	CHECK_EQ(sys_unlinkat((int)fd2, (const char *)(ubuf + 64 + 0), 0x1), -EINVAL);
	ustr(ubuf, "/sys_t/d");
	CHECK_EQ(sys_unlinkat(LINUX_AT_FDCWD, (const char *)ubuf, 0), -EISDIR);
	CHECK_EQ(sys_unlinkat(LINUX_AT_FDCWD, (const char *)ubuf, LINUX_AT_REMOVEDIR), 0);
	ustr(ubuf, "/sys_t/b");
	CHECK_EQ(sys_unlinkat(LINUX_AT_FDCWD, (const char *)ubuf, 0), 0);
	ustr(ubuf, "/sys_t/c");
	CHECK_EQ(sys_unlinkat(LINUX_AT_FDCWD, (const char *)ubuf, 0), 0);
	CHECK_EQ(sys_unlinkat(LINUX_AT_FDCWD, (const char *)ubuf, 0), -ENOENT);
	ustr(ubuf, "/sys_t");
	CHECK_EQ(sys_unlinkat(LINUX_AT_FDCWD, (const char *)ubuf, LINUX_AT_REMOVEDIR), 0);

	/* Bad descriptors, and the table's limit. */
	CHECK_EQ(sys_read(64, (char *)ubuf, 1), -EBADF);
	CHECK_EQ(sys_write((unsigned int)-1, (const char *)ubuf, 1), -EBADF);
	CHECK_EQ(sys_close(1000), -EBADF);
	CHECK_EQ(sys_fsync(99), -EBADF);
	CHECK_EQ(sys_lseek(1, 0, SEEK_SET), -ESPIPE);
	ustr(upath, "/");
	int opened = 0;
	for (;;) {
		long f = sys_openat(LINUX_AT_FDCWD, (const char *)upath, LINUX_O_RDONLY, 0);

		if (f < 0) {
			CHECK_EQ(f, -EMFILE);
			break;
		}
		opened++;
	}
	CHECK_EQ(opened, NR_OPEN_DEFAULT - 5);	/* 0-2, fd (3) and fd2 (4) were open */
	ustr(upath, "/nonexistent/x");
	CHECK_EQ(sys_close(10), 0);
	CHECK_EQ(sys_openat(LINUX_AT_FDCWD, (const char *)upath, LINUX_O_RDONLY, 0), -ENOENT);
	CHECK_EQ(sys_openat(LINUX_AT_FDCWD, (const char *)upath, LINUX_O_CREAT | LINUX_O_DIRECTORY, 0), -EINVAL);
	ustr(upath, "rel");
	CHECK_EQ(sys_openat(12345, (const char *)upath, LINUX_O_RDONLY, 0), -EBADF);
	CHECK_EQ(sys_openat(1, (const char *)upath, LINUX_O_RDONLY, 0), -ENOTDIR);
	task_end();				/* every fd closed by exit_files, the ramfs file freed */
	return failures;
}

/* ---- the console, the system, time ---- */

static int misc_calls(void)
{
	struct linux_new_utsname un;
	struct linux_old_timespec t0, t1;
	unsigned long u;
	char c[8];

	task_begin();
	u = umap(2);
	shim_console_reset();
	uput(u, "hello\n", 6);
	CHECK_EQ(sys_write(1, (const char *)u, 6), 6);
	CHECK_EQ(sys_write(2, (const char *)u, 0), 0);
	CHECK(!strcmp(shim_console, "hello\n"));	/* bare: no printk prefix */
	shim_console_input("xyz");
	CHECK_EQ(sys_read(0, (char *)u, 8), 3);
	CHECK_EQ(copy_from_user(c, (void *)u, 3), 0);
	CHECK(!memcmp(c, "xyz", 3));
	CHECK_EQ(sys_read(0, (char *)u, 8), 0);	/* the shim's end of input */

	CHECK_EQ(sys_newuname((struct linux_new_utsname *)u), 0);
	CHECK_EQ(copy_from_user(&un, (void *)u, sizeof(un)), 0);
	CHECK(!strcmp(un.sysname, "tinymm"));
	CHECK(!strcmp(un.release, "0.1-test"));
	CHECK(!strcmp(un.machine, "riscv64"));	/* the host speaks RV64's ABI */
	CHECK_EQ(sys_newuname((struct linux_new_utsname *)KERNEL_PTR), -EFAULT);

	CHECK_EQ(sys_wait4(-1, (int *)u, 0, NULL), -ECHILD);
	CHECK_EQ(sys_wait4(-1, (int *)u, 0x100, NULL), -EINVAL);
	CHECK_EQ(sys_waitid(0, 0, NULL, 4 /* WEXITED */, NULL), -ECHILD);
	CHECK_EQ(sys_waitid(0, 0, NULL, 0, NULL), -EINVAL);
	/* issue 34 (docs/syscalls.md): no child yet, and the arguments v6.10 refuses first */
	CHECK_EQ(sys_wait4(0, NULL, 1 /* WNOHANG */, NULL), -ECHILD);
	CHECK_EQ(sys_wait4(-1, NULL, (int)0x80000000 /* __WCLONE */, NULL), -ECHILD);
	CHECK_EQ(sys_wait4(INT_MIN, NULL, 0, NULL), -ESRCH);
	CHECK_EQ(sys_waitid(1 /* P_PID */, 0, NULL, 4, NULL), -EINVAL);
	CHECK_EQ(sys_waitid(2 /* P_PGID */, -1, NULL, 4, NULL), -EINVAL);
	CHECK_EQ(sys_waitid(3 /* P_PIDFD */, 3, NULL, 4, NULL), -EINVAL);
	CHECK_EQ(sys_waitid(1, 99999, NULL, 4 | 1 /* WNOHANG */, NULL), -ECHILD);
	/* clone: fork's semantics only; CLONE_VM, another exit signal, none, or a stack refused */
	CHECK_EQ(sys_clone(17 | 0x100, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(sys_clone(9, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(sys_clone(0, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(sys_clone(17, u, NULL, 0, NULL), -EINVAL);

	CHECK_EQ(sys_clock_gettime(LINUX_CLOCK_MONOTONIC, (struct linux_old_timespec *)u), 0);
	CHECK_EQ(copy_from_user(&t0, (void *)u, sizeof(t0)), 0);
	struct linux_old_timespec req = { 0, 5000000 };	/* 5 ms */
	uput(u + 64, &req, sizeof(req));
	CHECK_EQ(sys_nanosleep((struct linux_old_timespec *)(u + 64), NULL), 0);
	CHECK_EQ(sys_clock_gettime(LINUX_CLOCK_MONOTONIC, (struct linux_old_timespec *)u), 0);
	CHECK_EQ(copy_from_user(&t1, (void *)u, sizeof(t1)), 0);
	long long slept = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
	CHECK(slept >= 5000000);
	req.tv_nsec = 1000000000;
	uput(u + 64, &req, sizeof(req));
	CHECK_EQ(sys_nanosleep((struct linux_old_timespec *)(u + 64), NULL), -EINVAL);
	CHECK_EQ(sys_nanosleep((struct linux_old_timespec *)KERNEL_PTR, NULL), -EFAULT);
	CHECK_EQ(sys_clock_gettime(99, (struct linux_old_timespec *)u), -EINVAL);
	CHECK_EQ(sys_clock_gettime(LINUX_CLOCK_REALTIME, (struct linux_old_timespec *)u), 0);
	CHECK_EQ(copy_from_user(&t1, (void *)u, sizeof(t1)), 0);
	CHECK(t1.tv_sec >= 1700000000L);
	struct linux_timespec64 t64 = { 0, 1000000 };
	uput(u + 128, &t64, sizeof(t64));
	CHECK_EQ(sys_clock_nanosleep_time64(LINUX_CLOCK_MONOTONIC, 0, (struct linux_timespec64 *)(u + 128), NULL), 0);
	CHECK_EQ(sys_clock_nanosleep_time64(LINUX_CLOCK_THREAD_CPUTIME_ID, 0, (struct linux_timespec64 *)(u + 128), NULL), -EINVAL);
	CHECK_EQ(sys_clock_gettime64(LINUX_CLOCK_BOOTTIME, (struct linux_timespec64 *)u), 0);

	/* CPU affinity and getcpu (kernel/sys_sched.c): bad input first, as v6.10 orders it. */
	unsigned long mask, online = cpu_online_mask->bits;
	unsigned int cpu_node[2] = { 7, 7 };
	CHECK_EQ(sys_getcpu((unsigned int *)u, (unsigned int *)(u + 4), NULL), 0);
	CHECK_EQ(copy_from_user(cpu_node, (void *)u, sizeof(cpu_node)), 0);
	CHECK_EQ(cpu_node[0], (unsigned int)raw_smp_processor_id());
	CHECK_EQ(cpu_node[1], 0);
	CHECK_EQ(sys_getcpu(NULL, NULL, NULL), 0);
	CHECK_EQ(sys_getcpu((unsigned int *)KERNEL_PTR, NULL, NULL), -EFAULT);
	CHECK_EQ(sys_sched_getaffinity(0, 1, (unsigned long *)u), -EINVAL);	/* not a word */
	CHECK_EQ(sys_sched_getaffinity(0, sizeof(long) + 4, (unsigned long *)u), -EINVAL);
	CHECK_EQ(sys_sched_getaffinity(99999, sizeof(long), (unsigned long *)u), -ESRCH);
	CHECK_EQ(sys_sched_getaffinity(0, sizeof(long), (unsigned long *)KERNEL_PTR), -EFAULT);
	CHECK_EQ(sys_sched_getaffinity(0, 4 * sizeof(long), (unsigned long *)u), (long)sizeof(long));
	CHECK_EQ(copy_from_user(&mask, (void *)u, sizeof(mask)), 0);
	CHECK_EQ(mask, current->cpus_mask & online);
	mask = 0;
	uput(u, &mask, sizeof(mask));
	CHECK_EQ(sys_sched_setaffinity(0, sizeof(mask), (unsigned long *)u), -EINVAL);	/* empty */
	mask = ~online;
	uput(u, &mask, sizeof(mask));
	CHECK_EQ(sys_sched_setaffinity(0, sizeof(mask), (unsigned long *)u), -EINVAL);	/* offline */
	CHECK_EQ(sys_sched_setaffinity(0, sizeof(mask), NULL), -EFAULT);
	CHECK_EQ(sys_sched_setaffinity(0, sizeof(mask), (unsigned long *)KERNEL_PTR), -EFAULT);
	mask = online;
	uput(u, &mask, sizeof(mask));
	CHECK_EQ(sys_sched_setaffinity(0, 0, (unsigned long *)u), -EINVAL);	/* zero length */
	CHECK_EQ(sys_sched_setaffinity(99999, sizeof(mask), (unsigned long *)u), -ESRCH);
	CHECK_EQ(sys_sched_setaffinity(-5, sizeof(mask), (unsigned long *)u), -ESRCH);
	CHECK_EQ(sys_sched_setaffinity(0, sizeof(mask), (unsigned long *)u), 0);
	CHECK_EQ(current->cpus_mask, online);
	CHECK_EQ(invoke_syscall(__NR_getcpu, 0, 0, 0, 0, 0, 0), 0);

	/* The table: the ABI's numbers reach the calls, unknown ones are -ENOSYS. */
	CHECK_EQ(invoke_syscall(__NR_getpid, 0, 0, 0, 0, 0, 0), current->pid);
	CHECK_EQ(invoke_syscall(__NR_write, 1, u, 0, 0, 0, 0), 0);
	CHECK_EQ(invoke_syscall(__NR_close, 99, 0, 0, 0, 0, 0), -EBADF);
	CHECK_EQ(invoke_syscall(__NR_brk, 0, 0, 0, 0, 0, 0), (long)(256UL << 20));
	CHECK_EQ(invoke_syscall(4000, 0, 0, 0, 0, 0, 0), -ENOSYS);
	CHECK_EQ(invoke_syscall((unsigned long)-1, 0, 0, 0, 0, 0, 0), -ENOSYS);
	task_end();
	return failures;
}

/* ---- shared file mappings and msync (mm/mmap_sys.c, mm/msync.c; docs/shared-mappings.md) ---- */

/* mincore() of @len bytes at @addr, the vector at user address @uvec, must say @want ('0'/'1'
 * per page). */
static void mincore_want(unsigned long addr, size_t len, unsigned long uvec, const char *want)
{
	unsigned char got[16];
	size_t n = strlen(want);

	CHECK(n <= sizeof(got));
	CHECK_EQ(sys_mincore(addr, len, (unsigned char *)uvec), 0);
	CHECK_EQ(copy_from_user(got, (void *)uvec, n), 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(got[i], (unsigned char)(want[i] - '0'));
}

static int shared_calls(void)
{
	static const char hello[] = "hello";
	char got[sizeof(hello)];
	unsigned long u, upath, ubuf;
	long fd, ro, a, s;

	task_begin();
	u = umap(4);
	upath = u;
	ubuf = u + PAGE_SIZE;
	ustr(upath, "/sys_s");
	CHECK_EQ(sys_mkdirat(LINUX_AT_FDCWD, (const char *)upath, 0755), 0);
	fd = open_u(upath, "/sys_s/f", LINUX_O_CREAT | LINUX_O_RDWR);
	CHECK(fd >= 0);
	CHECK_EQ(sys_ftruncate((unsigned int)fd, 3 * PAGE_SIZE), 0);
	ro = open_u(upath, "/sys_s/f", LINUX_O_RDONLY);
	CHECK(ro >= 0);

	/* A read-only fd: no writable shared mapping, now or later (v6.10's VM_MAYWRITE). */
	CHECK_EQ(sys_mmap(0, 2 * PAGE_SIZE, PROT_RW, LINUX_MAP_SHARED, (unsigned long)ro, 0), -EACCES);
	a = sys_mmap(0, 2 * PAGE_SIZE, LINUX_PROT_READ, LINUX_MAP_SHARED, (unsigned long)ro, 0);
	CHECK(a > 0);
	CHECK_EQ(sys_mprotect((unsigned long)a, PAGE_SIZE, PROT_RW), -EACCES);
	CHECK_EQ(sys_munmap((unsigned long)a, 2 * PAGE_SIZE), 0);
	/* MAP_SHARED_VALIDATE: only the legacy flags; shared anonymous memory: not here. */
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, LINUX_MAP_SHARED_VALIDATE | LINUX_MAP_FIXED_NOREPLACE,
			  (unsigned long)fd, 0), -EOPNOTSUPP);
	CHECK_EQ(sys_mmap(0, PAGE_SIZE, PROT_RW, LINUX_MAP_SHARED | LINUX_MAP_ANONYMOUS, -1UL, 0), -ENODEV);

	/* A store through the mapping is the file's: read() sees it. */
	s = sys_mmap(0, 3 * PAGE_SIZE, PROT_RW, LINUX_MAP_SHARED_VALIDATE, (unsigned long)fd, 0);
	CHECK(s > 0);
	uput((unsigned long)s + PAGE_SIZE + 10, hello, sizeof(hello));
	CHECK_EQ(sys_msync((unsigned long)s, 3 * PAGE_SIZE, LINUX_MS_SYNC), 0);
	CHECK_EQ(sys_lseek((unsigned int)fd, PAGE_SIZE + 10, SEEK_SET), (long)PAGE_SIZE + 10);
	CHECK_EQ(sys_read((unsigned int)fd, (char *)ubuf, sizeof(hello)), (long)sizeof(hello));
	CHECK_EQ(copy_from_user(got, (void *)ubuf, sizeof(got)), 0);
	CHECK_EQ(memcmp(got, hello, sizeof(hello)), 0);

	/* msync's bad input, as v6.10. */
	CHECK_EQ(sys_msync((unsigned long)s + 1, PAGE_SIZE, LINUX_MS_SYNC), -EINVAL);
	CHECK_EQ(sys_msync((unsigned long)s, PAGE_SIZE, 8), -EINVAL);
	CHECK_EQ(sys_msync((unsigned long)s, PAGE_SIZE, LINUX_MS_SYNC | LINUX_MS_ASYNC), -EINVAL);
	CHECK_EQ(sys_msync((unsigned long)s, 0, LINUX_MS_SYNC), 0);
	CHECK_EQ(sys_msync((unsigned long)s, (size_t)-PAGE_SIZE, LINUX_MS_SYNC), -ENOMEM);
	/* Below the area (the lowest mapping, placed top-down) nothing is mapped: a hole. */
	CHECK_EQ(sys_msync((unsigned long)s - 4 * PAGE_SIZE, 2 * PAGE_SIZE, LINUX_MS_SYNC), -ENOMEM);
	CHECK_EQ(sys_msync((unsigned long)s - 2 * PAGE_SIZE, 3 * PAGE_SIZE, LINUX_MS_SYNC), -ENOMEM);
	CHECK_EQ(sys_msync((unsigned long)s - 2 * PAGE_SIZE, 3 * PAGE_SIZE, LINUX_MS_ASYNC), -ENOMEM);
	CHECK_EQ(sys_msync((unsigned long)s, 3 * PAGE_SIZE, LINUX_MS_ASYNC), 0);
	CHECK_EQ(sys_msync((unsigned long)s, 3 * PAGE_SIZE, LINUX_MS_INVALIDATE), 0);
	CHECK_EQ(sys_mprotect((unsigned long)s + 1, PAGE_SIZE, LINUX_PROT_READ), -EINVAL);
	CHECK_EQ(sys_munmap((unsigned long)s + 1, PAGE_SIZE), -EINVAL);

	/* mincore (mm/mincore.c): a present pte is 1; a none pte of a file area is the page
	 * cache's answer (page 1 stays cached after MADV_DONTNEED; pages 0 and 2 are holes of the
	 * file, never read); an anonymous area's untouched page is 0. */
	mincore_want((unsigned long)s, 3 * PAGE_SIZE - 1, ubuf, "010");
	CHECK_EQ(sys_madvise((unsigned long)s + PAGE_SIZE, PAGE_SIZE, LINUX_MADV_DONTNEED), 0);
	mincore_want((unsigned long)s, 3 * PAGE_SIZE, ubuf, "010");
	/* Its bad input, as v6.10: an unaligned start, a range past user space or not mapped
	 * (below s nothing is), a vector outside user space (-EFAULT even for a length of 0,
	 * as v6.10's access_ok); a length of 0 is 0. */
	CHECK_EQ(sys_mincore((unsigned long)s + 1, PAGE_SIZE, (unsigned char *)ubuf), -EINVAL);
	CHECK_EQ(sys_mincore((unsigned long)s, (size_t)-PAGE_SIZE, (unsigned char *)ubuf), -ENOMEM);
	CHECK_EQ(sys_mincore((unsigned long)s - 4 * PAGE_SIZE, PAGE_SIZE, (unsigned char *)ubuf),
		 -ENOMEM);
	CHECK_EQ(sys_mincore((unsigned long)s, PAGE_SIZE, (unsigned char *)KERNEL_PTR), -EFAULT);
	CHECK_EQ(sys_mincore((unsigned long)s, 0, (unsigned char *)KERNEL_PTR), -EFAULT);
	CHECK_EQ(sys_mincore((unsigned long)s, 0, (unsigned char *)ubuf), 0);
	/* Steps of PAGE_SIZE pages: a 4097-page area whose last page alone is touched.  Then a
	 * hole punched at its page 1: -ENOMEM with page 0's byte already copied out; a vector in
	 * the hole: -EFAULT from the copy. */
	a = (long)umap(PAGE_SIZE + 1);
	uput((unsigned long)a + PAGE_SIZE * PAGE_SIZE, hello, 1);
	unsigned long uvec = umap(2);
	CHECK_EQ(sys_mincore((unsigned long)a, (PAGE_SIZE + 1) * PAGE_SIZE, (unsigned char *)uvec), 0);
	CHECK_EQ(copy_from_user(got, (void *)(uvec + PAGE_SIZE - 1), 2), 0);
	CHECK(got[0] == 0 && got[1] == 1);
	CHECK_EQ(sys_munmap((unsigned long)a + PAGE_SIZE, PAGE_SIZE), 0);
	uput(uvec, "\7", 1);
	CHECK_EQ(sys_mincore((unsigned long)a, 3 * PAGE_SIZE, (unsigned char *)uvec), -ENOMEM);
	CHECK_EQ(copy_from_user(got, (void *)uvec, 1), 0);
	CHECK_EQ(got[0], 0);
	CHECK_EQ(sys_mincore((unsigned long)s, PAGE_SIZE, (unsigned char *)(a + PAGE_SIZE)), -EFAULT);
	CHECK_EQ(sys_munmap((unsigned long)a, (PAGE_SIZE + 1) * PAGE_SIZE), 0);
	CHECK_EQ(sys_munmap(uvec, 2 * PAGE_SIZE), 0);

	/* Truncated under the mapping: the pages past the end are gone (SIGBUS: EFAULT for the
	 * kernel's copy); the first page stays. */
	CHECK_EQ(sys_ftruncate((unsigned int)fd, PAGE_SIZE), 0);
	CHECK(copy_to_user((void *)((unsigned long)s + PAGE_SIZE), hello, 1) != 0);
	CHECK_EQ(copy_to_user((void *)(unsigned long)s, hello, 1), 0);
	CHECK_EQ(sys_munmap((unsigned long)s, 3 * PAGE_SIZE), 0);
	CHECK_EQ(vma_check(mm, printk), 0);

	CHECK_EQ(sys_close((unsigned int)ro), 0);
	CHECK_EQ(sys_close((unsigned int)fd), 0);
	ustr(upath, "/sys_s/f");
	CHECK_EQ(sys_unlinkat(LINUX_AT_FDCWD, (const char *)upath, 0), 0);
	ustr(upath, "/sys_s");
	CHECK_EQ(sys_unlinkat(LINUX_AT_FDCWD, (const char *)upath, LINUX_AT_REMOVEDIR), 0);
	task_end();
	return failures;
}

static void shared(void **state)
{
	(void)state;
	run_scenario(shared_calls);
}

static void memory(void **state)
{
	(void)state;
	run_scenario(memory_calls);
}

static void files(void **state)
{
	(void)state;
	run_scenario(file_calls);
}

static void misc(void **state)
{
	(void)state;
	run_scenario(misc_calls);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(memory),
		cmocka_unit_test(files),
		cmocka_unit_test(misc),
		cmocka_unit_test(shared),
	};

	(void)jiffy_deadline;
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
