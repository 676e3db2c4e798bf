/*
 * ext2_dir_ktest.c - a case of the `ext2` suite (tests/ktest/ext2_ktest.c lists it): an ext2
 * directory changed after reclaim dropped its folio.  A directory operation looks a name up
 * (reading the folio) and changes the entry afterwards; between the two, with memory short,
 * reclaim may free the clean folio, and the change must then read the block again rather than
 * edit whatever the new frame holds (swap_test.sh sysfuzz found this: directory blocks written
 * back as garbage, "rec_len ... runs past the block", entries naming deleted inodes).
 * Here the two steps are taken apart by hand: the entry's position found, the directory written
 * back and dropped from the cache, a frame of 0x5a bytes put in its place (not uptodate, as a
 * recycled frame would be), and then ext2_set_link() rewrites the entry as it was.  The
 * directory must read back from the disk with every name, and the image stay consistent (the
 * teardown's check; e2fsck -fn on the host).
 */
#include <string.h>
#include "tinymm/err.h"
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/writeback.h"
#include "../../fs/ext2/ext2.h"
#include "ext2_ktest.h"

#define RC	E2KT "/rc"

static const char *const rc_names[] = { RC "/a", RC "/b", RC "/c" };

void e2kt_dir_change_after_reclaim(struct ktest *t)
{
	const struct qstr b = { .name = "b", .len = 1 };
	unsigned long ino[3];
	struct file *dirf = NULL, *bf = NULL;
	struct folio *folio;
	uint32_t found;
	loff_t pos;

	KTEST_ASSERT_EQ(t, vfs_mkdir(RC, 0755), 0);
	for (int i = 0; i < 3; i++) {
		KTEST_ASSERT_EQ(t, e2kt_try_open(rc_names[i], O_WRONLY | O_CREAT | O_EXCL), 0);
		ino[i] = e2kt_ino(rc_names[i], false);
	}
	KTEST_ASSERT_EQ(t, vfs_open(RC, O_RDONLY | O_DIRECTORY, 0, &dirf), 0);
	KTEST_ASSERT_EQ(t, vfs_open(RC "/b", O_RDONLY, 0, &bf), 0);
	struct inode *dir = dirf->f_inode;
	struct address_space *mapping = dir->i_mapping;

	mutex_lock(&dir->i_rwsem);
	KTEST_EXPECT_EQ(t, ext2_find_entry(dir, &b, &pos, &found), 0);
	KTEST_EXPECT_EQ(t, (unsigned long)found, ino[1]);
	/* Reclaim's part: written back, then the clean folio dropped. */
	KTEST_EXPECT_EQ(t, filemap_write_and_wait_range(mapping, 0, LLONG_MAX), 0);
	KTEST_EXPECT_EQ(t, invalidate_mapping_pages(mapping, 0, ~(pgoff_t)0), 1UL);
	KTEST_EXPECT_EQ(t, mapping->nrpages, 0UL);
	/* The frame the next lookup gets: anything but the block's bytes, not uptodate. */
	folio = __filemap_get_folio(mapping, 0, FGP_LOCK | FGP_CREAT, GFP_KERNEL);
	if (!IS_ERR(folio)) {
		memset(page_address(&folio->page), 0x5a, PAGE_SIZE);
		folio_unlock(folio);
		folio_put(folio);
	}
	KTEST_EXPECT_FALSE(t, IS_ERR(folio));
	KTEST_EXPECT_EQ(t, ext2_set_link(dir, pos, bf->f_inode), 0);	/* "b" as it was */
	mutex_unlock(&dir->i_rwsem);
	KTEST_EXPECT_EQ(t, vfs_close(bf), 0);
	KTEST_EXPECT_EQ(t, vfs_close(dirf), 0);

	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);		/* what reached the disk */
	for (int i = 0; i < 3; i++) {
		KTEST_EXPECT_EQ(t, e2kt_ino(rc_names[i], false), ino[i]);
		KTEST_EXPECT_EQ(t, vfs_unlink(rc_names[i]), 0);
	}
	KTEST_EXPECT_EQ(t, vfs_rmdir(RC), 0);
}
