/*
 * ext2_hwpoison_ktest.c - memory_failure() on an ext2 file's folios (suite `ext2_hwpoison`,
 * every board): the page cache's HWPoison handling works on an ext2 mapping unchanged.
 *
 * On RAM disk ram0's sample filesystem (drivers/brd.c), mounted on /ext2_hw, a 3-page file is
 * written and synced, then one page is written again (a dirty folio with dirty buffer heads)
 * or only read (a clean one), and memory_failure() (MF_SW_SIMULATED, so it can be undone) hits that folio's frame:
 *   - dirty: v6.10's me_pagecache_dirty: the folio leaves the cache ("dirty LRU page:
 *     Recovered", and which bytes: "dirty data lost: ram0 inode N offset 4096 length 4096"),
 *     the error reaches the file (mapping_set_error): the next fsync() says EIO,
 *     once, the one after 0; the page reads back as the disk has it (the synced bytes: the
 *     unwritten ones are lost, which is the point of the report); the other pages are intact.
 *   - clean: me_pagecache_clean: the folio leaves the cache, no error reaches the file, and the
 *     page reads back from the disk exactly.
 * After each case the file is removed, the filesystem unmounted (which must succeed), ram0
 * reset (its cached metadata dropped) and the frame unpoisoned, so no other suite finds a
 * poisoned frame or this suite's folios on the LRU.
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/brd.h"
#include "tinymm/errno.h"
#include "tinymm/err.h"
#include "tinymm/ktest.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mm.h"
#include "tinymm/page-flags.h"
#include "tinymm/pagemap.h"
#include "tinymm/vfs.h"
#include "hwpoison_ktest.h"

#define DIR	"/ext2_hw"
#define FILE	DIR "/hw.bin"
#define PAGES	3

static char page_buf[PAGE_SIZE];

/* ram0 back to the sample, mounted on DIR, FILE made of pages 'A', 'B', 'C' and synced;
 * NULL (the case failed) if any of it went wrong. */
static struct file *hw_file_setup(struct ktest *t)
{
	struct block_device *bdev = blkdev_get_by_name("ram0");
	struct file *f = NULL;
	int err = vfs_mkdir(DIR, 0755);

	KTEST_EXPECT_TRUE(t, err == 0 || err == -EEXIST);
	if (!bdev || brd_reset(bdev) || do_mount("ram0", DIR, "ext2", 0)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "cannot mount ram0's sample filesystem");
		return NULL;
	}
	KTEST_EXPECT_EQ(t, vfs_open(FILE, O_RDWR | O_CREAT | O_TRUNC, 0644, &f), 0);
	if (!f) {
		KTEST_EXPECT_EQ(t, do_umount(DIR), 0);
		return NULL;
	}
	for (int i = 0; i < PAGES; i++) {
		memset(page_buf, 'A' + i, sizeof(page_buf));
		KTEST_EXPECT_EQ(t, vfs_pwrite(f, page_buf, sizeof(page_buf), (loff_t)i * PAGE_SIZE),
				(long)sizeof(page_buf));
	}
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);
	return f;
}

static void hw_file_teardown(struct ktest *t, struct file *f, unsigned long pfn)
{
	KTEST_EXPECT_EQ(t, vfs_close(f), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(FILE), 0);
	KTEST_EXPECT_EQ(t, do_umount(DIR), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(DIR), 0);
	/* The disk's cached metadata goes too: later suites (lru) expect no folio on the LRU. */
	KTEST_EXPECT_EQ(t, brd_reset(blkdev_get_by_name("ram0")), 0);
	KTEST_EXPECT_EQ(t, blkdev_get_by_name("ram0")->bd_mapping->nrpages, 0UL);
	if (pfn)
		hw_unpoison(t, pfn);
}

/* The frame caching page @index of @f (cached: the caller just wrote or read it). */
static unsigned long hw_file_pfn(struct ktest *t, struct file *f, pgoff_t index)
{
	struct folio *folio = filemap_get_folio(f->f_inode->i_mapping, index);
	unsigned long pfn;

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "page not cached");
		return 0;
	}
	pfn = page_to_pfn(&folio->page) + (index - folio->index);
	folio_put(folio);
	return pfn;
}

/* Page @index of @f reads as all @c. */
static bool page_is(struct file *f, pgoff_t index, char c)
{
	if (vfs_pread(f, page_buf, sizeof(page_buf), (loff_t)index * PAGE_SIZE) != (long)sizeof(page_buf))
		return false;
	for (size_t i = 0; i < sizeof(page_buf); i++)
		if (page_buf[i] != c)
			return false;
	return true;
}

static void dirty_folio_error_reaches_the_file(struct ktest *t)
{
	struct file *f = hw_file_setup(t);
	unsigned long pfn;

	if (!f)
		return;
	memset(page_buf, 'x', sizeof(page_buf));
	KTEST_EXPECT_EQ(t, vfs_pwrite(f, page_buf, sizeof(page_buf), PAGE_SIZE), (long)sizeof(page_buf));
	pfn = hw_file_pfn(t, f, 1);
	if (!pfn)
		goto out;
	KTEST_EXPECT_TRUE(t, PageDirty(pfn_to_page(pfn)));
	KTEST_EXPECT_TRUE(t, PagePrivate(pfn_to_page(pfn)));	/* its buffer heads */
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	EXPECT_LOGGED(t, "Memory failure: %#lx: dirty data lost: ram0 inode %lu offset 4096 length 4096",
		      pfn, f->f_inode->i_ino);
	EXPECT_LOGGED(t, "Memory failure: %#lx: recovery action for dirty LRU page: Recovered", pfn);
	KTEST_EXPECT_TRUE(t, PageHWPoison(pfn_to_page(pfn)));
	KTEST_EXPECT_TRUE(t, IS_ERR(filemap_get_folio(f->f_inode->i_mapping, 1)));
	KTEST_EXPECT_EQ(t, vfs_fsync(f), -EIO);		/* reported once ... */
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);		/* ... and only once */
	KTEST_EXPECT_TRUE(t, page_is(f, 0, 'A'));
	KTEST_EXPECT_TRUE(t, page_is(f, 1, 'B'));	/* the disk's: the 'x' never got there */
	KTEST_EXPECT_TRUE(t, page_is(f, 2, 'C'));
	KTEST_EXPECT_TRUE(t, hw_file_pfn(t, f, 1) != pfn);	/* a new frame, never the poisoned one */
out:
	hw_file_teardown(t, f, pfn);
}

static void clean_folio_is_read_again(struct ktest *t)
{
	struct file *f = hw_file_setup(t);
	unsigned long pfn;

	if (!f)
		return;
	KTEST_EXPECT_TRUE(t, page_is(f, 2, 'C'));
	pfn = hw_file_pfn(t, f, 2);
	if (!pfn)
		goto out;
	KTEST_EXPECT_FALSE(t, PageDirty(pfn_to_page(pfn)));
	hw_mark();
	KTEST_EXPECT_EQ(t, memory_failure(pfn, MF_SW_SIMULATED), 0);
	EXPECT_LOGGED(t, "Memory failure: %#lx: recovery action for clean LRU page: Recovered", pfn);
	KTEST_EXPECT_TRUE(t, IS_ERR(filemap_get_folio(f->f_inode->i_mapping, 2)));
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);		/* nothing was lost: nothing to report */
	KTEST_EXPECT_TRUE(t, page_is(f, 2, 'C'));
	KTEST_EXPECT_TRUE(t, page_is(f, 0, 'A'));
out:
	hw_file_teardown(t, f, pfn);
}

static const struct ktest_case ext2_hwpoison_cases[] = {
	KTEST_CASE(dirty_folio_error_reaches_the_file),
	KTEST_CASE(clean_folio_is_read_again),
	{}
};
KTEST_SUITE(ext2_hwpoison, ext2_hwpoison_cases);
