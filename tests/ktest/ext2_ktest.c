/*
 * ext2_ktest.c - ext2 through the VFS on every board (suite `ext2`; on the host under ASan/UBSan
 * through tests/host/ext2_test.c, which also runs e2fsck -fn on the image after every case).
 * The disk is RAM disk ram0 holding the built-in sample filesystem (tools/mkramdisk: 2 MiB,
 * 1 KiB blocks), so no board needs a disk of its own.  The fixture (ext2_fixture.c) puts ram0
 * back to the sample before each case and mounts it on E2KT; after the case it unmounts, drops
 * the disk's cache, wants every inode and page-cache page back, and checks the image's free
 * counts against its bitmaps (e2kt_image_check()).  Cases that write remount (umount, cache
 * dropped, mount) so what they read back came from the disk, not from the cache.
 * The cases: the sample's files against its SHA256SUMS, its symlinks, hard link, big directory
 * and stat fields as mke2fs made them; PG_private / PG_mappedtodisk / PG_checked where the
 * buffer-head code and ext2_check_folio() set them (and not on a folio with a hole); writes,
 * appends, truncation, files reaching the indirect and double-indirect blocks, free counts
 * restored by unlink; mkdir/rmdir/rename/link/unlink, an unlinked open file, fast and slow
 * symlinks, a directory growing past a block, a directory changed after reclaim dropped its
 * folio (ext2_dir_ktest.c); ENOSPC keeping what was written, ENAMETOOLONG,
 * EROFS with the image unchanged, EBUSY; and the image check shown failing on a bad count.
 */
#include <string.h>
#include "tinymm/brd.h"
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sha256.h"
#include "tinymm/slab.h"
#include "../../fs/ext2/ext2_fs.h"
#include "../../fs/internal.h"
#include "ext2_ktest.h"

#define SAMPLE_MTIME	1764979200	/* tools/mkramdisk's FAKE_TIME: every time it sets */

static void expect_stat(struct ktest *t, const char *path, unsigned int mode, loff_t size,
			unsigned int nlink, uint64_t blocks)
{
	struct kstat st;

	KTEST_ASSERT_EQ(t, vfs_stat(path, &st, false), 0);
	KTEST_EXPECT_EQ(t, st.mode, mode);
	KTEST_EXPECT_EQ(t, st.size, size);
	KTEST_EXPECT_EQ(t, st.nlink, nlink);
	KTEST_EXPECT_EQ(t, st.blocks, blocks);
}

static int statfs_counts(uint64_t *bfree, uint64_t *ffree)
{
	struct kstatfs s;
	int err = vfs_statfs(E2KT, &s);

	*bfree = s.f_bfree;
	*ffree = s.f_ffree;
	return err;
}

/* ---- reading what mke2fs made ---- */

static void sample_files_match_sha256sums(struct ktest *t)
{
	char *sums = kmalloc(1024, GFP_KERNEL), path[96], hex[65];
	int lines = 0;

	KTEST_ASSERT_TRUE(t, sums != NULL);
	long n = e2kt_get_file(E2KT "/SHA256SUMS", sums, 1023);
	KTEST_EXPECT_EQ(t, n, 470L);			/* debugfs: 470 bytes */
	sums[n > 0 ? n : 0] = '\0';
	for (char *line = sums; *line; lines++) {
		char *nl = strchr(line, '\n');
		KTEST_ASSERT_TRUE(t, nl && nl - line > 67 && line[64] == ' ' && line[66] == '/');
		*nl = '\0';
		ksnprintf(path, sizeof(path), E2KT "%s", line + 66);
		KTEST_EXPECT_EQ(t, e2kt_sha256_file(path, hex), 0);
		line[64] = '\0';
		KTEST_EXPECT_STREQ(t, hex, line);
		line = nl + 1;
	}
	/* README, data/16k.bin, data/big.bin, hardlink, hello.txt, usr/share/words */
	KTEST_EXPECT_EQ(t, lines, 6);
	/* The streams themselves: /data/16k.bin is seed 1, /data/big.bin seed 2. */
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/data/16k.bin", 0, 16384, 1));
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/data/big.bin", 0, 20000, 2));
	KTEST_EXPECT_FALSE(t, e2kt_stream_matches(E2KT "/data/big.bin", 0, 20000, 1));
	kfree(sums);
}

static void sample_links_resolve(struct ktest *t)
{
	char buf[96] = "", a[65], b[65];
	struct kstat st, st2;

	KTEST_EXPECT_EQ(t, vfs_readlink(E2KT "/link", buf, sizeof(buf)), 9);	/* fast: in i_block */
	KTEST_EXPECT_STREQ(t, buf, "hello.txt");
	KTEST_EXPECT_EQ(t, e2kt_get_file(E2KT "/link", buf, sizeof(buf)), 12L);
	KTEST_EXPECT_EQ(t, memcmp(buf, "hello, ext2\n", 12), 0);
	KTEST_EXPECT_EQ(t, vfs_readlink(E2KT "/slowlink", buf, sizeof(buf)), 72);	/* in a block */
	KTEST_EXPECT_STREQ(t, buf, "./usr/../usr/share/../share/../../data/../usr/share/../../data/./16k.bin");
	KTEST_EXPECT_EQ(t, e2kt_sha256_file(E2KT "/slowlink", a), 0);
	KTEST_EXPECT_EQ(t, e2kt_sha256_file(E2KT "/data/16k.bin", b), 0);
	KTEST_EXPECT_STREQ(t, a, b);
	KTEST_EXPECT_EQ(t, e2kt_ino(E2KT "/slowlink", true), e2kt_ino(E2KT "/data/16k.bin", false));
	KTEST_EXPECT_EQ(t, e2kt_try_open(E2KT "/loop1", O_RDONLY), -ELOOP);
	KTEST_EXPECT_EQ(t, vfs_stat(E2KT "/loop2", &st, true), -ELOOP);
	KTEST_EXPECT_EQ(t, vfs_stat(E2KT "/loop2", &st, false), 0);		/* lstat is fine */
	KTEST_EXPECT_TRUE(t, S_ISLNK(st.mode));
	/* The hard link: one inode, two names. */
	KTEST_ASSERT_EQ(t, vfs_stat(E2KT "/hardlink", &st, false), 0);
	KTEST_ASSERT_EQ(t, vfs_stat(E2KT "/hello.txt", &st2, false), 0);
	KTEST_EXPECT_EQ(t, st.ino, st2.ino);
	KTEST_EXPECT_EQ(t, st.ino, 17UL);				/* debugfs ls */
	KTEST_EXPECT_EQ(t, st.nlink, 2U);
}

static void sample_manydir_lists_exactly(struct ktest *t)
{
	char *buf = kmalloc(512, GFP_KERNEL);	/* small: several getdents calls */
	bool seen[100] = { false };
	int names = 0, dots = 0, dup = 0, other = 0;
	struct file *f;
	long n;

	KTEST_ASSERT_TRUE(t, buf != NULL);
	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/manydir", O_RDONLY | O_DIRECTORY, 0, &f), 0);
	while ((n = vfs_getdents64(f, buf, 512)) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			const char *s = d->d_name;

			names++;
			if (!strcmp(s, ".") || !strcmp(s, ".."))
				dots += d->d_type == DT_DIR;
			else if (!strncmp(s, "entry-", 6) && strlen(s) == 9 && d->d_type == DT_REG) {
				int i = (s[6] - '0') * 100 + (s[7] - '0') * 10 + (s[8] - '0');
				dup += seen[i];
				seen[i] = true;
			} else
				other++;
			off += d->d_reclen;
		}
	}
	KTEST_EXPECT_EQ(t, n, 0L);
	vfs_close(f);
	kfree(buf);
	KTEST_EXPECT_EQ(t, names, 102);
	KTEST_EXPECT_EQ(t, dots, 2);
	KTEST_EXPECT_EQ(t, dup, 0);
	KTEST_EXPECT_EQ(t, other, 0);
}

static void sample_stat_fields(struct ktest *t)
{
	struct kstat st;

	/* What debugfs says of the image mke2fs made (blocks: 512-byte units, indirect included). */
	expect_stat(t, E2KT, S_IFDIR | 0755, 1024, 6, 2);
	expect_stat(t, E2KT "/hello.txt", S_IFREG | 0644, 12, 2, 2);
	expect_stat(t, E2KT "/data/16k.bin", S_IFREG | 0644, 16384, 1, 34);
	expect_stat(t, E2KT "/data/big.bin", S_IFREG | 0644, 20000, 1, 42);
	expect_stat(t, E2KT "/manydir", S_IFDIR | 0755, 2048, 2, 4);
	expect_stat(t, E2KT "/link", S_IFLNK | 0777, 9, 1, 0);
	expect_stat(t, E2KT "/slowlink", S_IFLNK | 0777, 72, 1, 2);
	expect_stat(t, E2KT "/lost+found", S_IFDIR | 0700, 12288, 2, 24);
	KTEST_ASSERT_EQ(t, vfs_stat(E2KT "/data/big.bin", &st, false), 0);
	KTEST_EXPECT_EQ(t, st.ino, 16UL);
	KTEST_EXPECT_EQ(t, st.mtime.tv_sec, (int64_t)SAMPLE_MTIME);
	KTEST_EXPECT_EQ(t, st.ctime.tv_sec, (int64_t)SAMPLE_MTIME);	/* the same on every build */
	KTEST_EXPECT_EQ(t, st.atime.tv_sec, (int64_t)SAMPLE_MTIME);
	KTEST_EXPECT_EQ(t, st.blksize, 1024U);
	KTEST_EXPECT_STREQ(t, st.dev, E2KT_DEV);
}

/* ---- page flags ---- */

/* The flags of folio @index of @path's page cache: PG_private, PG_mappedtodisk, PG_checked as
 * bits 0..2, or -1 if it is not cached. */
static int cached_flags(const char *path, pgoff_t index)
{
	struct file *f;
	int flags = -1;

	if (vfs_open(path, O_RDONLY, 0, &f))
		return -2;
	struct folio *folio = filemap_get_folio(f->f_inode->i_mapping, index);
	if (!IS_ERR_OR_NULL(folio)) {
		flags = folio_test_private(folio) | folio_test_mappedtodisk(folio) << 1 |
			folio_test_checked(folio) << 2;
		folio_put(folio);
	}
	vfs_close(f);
	return flags;
}

static void page_flags_file_and_directory(struct ktest *t)
{
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	struct file *f;

	KTEST_ASSERT_TRUE(t, buf != NULL);
	KTEST_EXPECT_EQ(t, cached_flags(E2KT "/data/16k.bin", 0), -1);	/* nothing read yet */
	KTEST_EXPECT_EQ(t, cached_flags(E2KT "/manydir", 0), -1);
	KTEST_EXPECT_EQ(t, e2kt_get_file(E2KT "/data/16k.bin", buf, PAGE_SIZE), (long)PAGE_SIZE);
	/* Buffer heads attached, every block mapped; not a directory's check mark. */
	KTEST_EXPECT_EQ(t, cached_flags(E2KT "/data/16k.bin", 0), 3);
	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/manydir", O_RDONLY | O_DIRECTORY, 0, &f), 0);
	while (vfs_getdents64(f, buf, PAGE_SIZE) > 0)
		;
	vfs_close(f);
	/* The directory's folio verified by ext2_check_folio(); its 2 blocks are mapped, the
	 * folio's other 2 lie past the end (unmapped, as in Linux): not mappedtodisk. */
	KTEST_EXPECT_EQ(t, cached_flags(E2KT "/manydir", 0), 5);
	/* The metadata: the device's folio with the superblock and descriptors has buffers. */
	struct folio *folio = filemap_get_folio(e2kt_bdev->bd_mapping, 0);
	KTEST_ASSERT_FALSE(t, IS_ERR_OR_NULL(folio));
	KTEST_EXPECT_TRUE(t, folio_test_private(folio));
	folio_put(folio);
	kfree(buf);
}

static void page_flags_hole_not_mappedtodisk(struct ktest *t)
{
	struct file *f;
	char buf[16];

	/* Block 0 of folio 0 written, blocks 1-3 a hole; folio 1 written whole. */
	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/sparse", O_WRONLY | O_CREAT, 0644, &f), 0);
	KTEST_EXPECT_EQ(t, e2kt_write_stream(f, 0, 1024, 3, NULL), 1024L);
	KTEST_EXPECT_EQ(t, e2kt_write_stream(f, PAGE_SIZE, PAGE_SIZE, 4, NULL), (long)PAGE_SIZE);
	vfs_close(f);
	expect_stat(t, E2KT "/sparse", S_IFREG | 0644, 2 * PAGE_SIZE, 1, 2 * (1 + PAGE_SIZE / 1024));
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_EXPECT_EQ(t, cached_flags(E2KT "/sparse", 0), -1);
	KTEST_EXPECT_EQ(t, e2kt_get_file(E2KT "/sparse", buf, sizeof(buf)), (long)sizeof(buf));
	KTEST_EXPECT_TRUE(t, e2kt_zeros_match(E2KT "/sparse", 1024, PAGE_SIZE - 1024));
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/sparse", PAGE_SIZE, PAGE_SIZE, 4));
	KTEST_EXPECT_EQ(t, cached_flags(E2KT "/sparse", 0), 1);	/* buffers, a hole: not mapped */
	KTEST_EXPECT_EQ(t, cached_flags(E2KT "/sparse", 1), 3);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/sparse"), 0);
}

/* ---- writing ---- */

static void write_append_truncate(struct ktest *t)
{
	struct file *f;
	struct kstat st;

	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/w", O_WRONLY | O_CREAT | O_EXCL, 0640, &f), 0);
	KTEST_EXPECT_EQ(t, e2kt_write_stream(f, 0, 5000, 11, NULL), 5000L);
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/w", O_WRONLY | O_APPEND, 0, &f), 0);
	char *buf = kmalloc(3000, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, buf != NULL);
	struct wgen g;
	wgen_init(&g, 12);
	for (int i = 0; i < 3000; i++)
		buf[i] = (char)wgen_byte(&g);
	KTEST_EXPECT_EQ(t, vfs_write(f, buf, 3000), 3000L);		/* at the end: 5000 */
	kfree(buf);
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);
	vfs_close(f);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	expect_stat(t, E2KT "/w", S_IFREG | 0640, 8000, 1, 16);
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/w", 0, 5000, 11));
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/w", 5000, 3000, 12));
	/* Down to 1000 and up to 9000: the old bytes past 1000 do not come back. */
	KTEST_EXPECT_EQ(t, vfs_truncate(E2KT "/w", 1000), 0);
	KTEST_EXPECT_EQ(t, vfs_truncate(E2KT "/w", 9000), 0);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_ASSERT_EQ(t, vfs_stat(E2KT "/w", &st, false), 0);
	KTEST_EXPECT_EQ(t, st.size, 9000LL);
	KTEST_EXPECT_EQ(t, st.blocks, 2ULL);			/* block 0 only: the rest a hole */
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/w", 0, 1000, 11));
	KTEST_EXPECT_TRUE(t, e2kt_zeros_match(E2KT "/w", 1000, 8000));
	/* A write past the end leaves a hole; O_TRUNC empties and frees. */
	KTEST_EXPECT_EQ(t, e2kt_write_stream_path(E2KT "/w", 20000, 100, 13), 100L);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_EXPECT_TRUE(t, e2kt_zeros_match(E2KT "/w", 1000, 19000));
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/w", 20000, 100, 13));
	expect_stat(t, E2KT "/w", S_IFREG | 0640, 20100, 1, 4 + 2);	/* blocks 0, 19; the indirect */
	KTEST_EXPECT_EQ(t, e2kt_try_open(E2KT "/w", O_WRONLY | O_TRUNC), 0);
	expect_stat(t, E2KT "/w", S_IFREG | 0640, 0, 1, 0);
}

static void indirect_and_double_indirect(struct ktest *t)
{
	/* 12 direct + 256 indirect blocks = 268 KiB; 20 blocks and 100 bytes more reach into the
	 * double-indirect tree: 289 data blocks, the indirect, the double-indirect and one
	 * indirect below it. */
	const size_t len = (12 + 256 + 20) * 1024 + 100;
	uint64_t bfree, ffree, bfree2, ffree2;

	KTEST_ASSERT_EQ(t, statfs_counts(&bfree, &ffree), 0);
	KTEST_EXPECT_EQ(t, e2kt_write_stream_path(E2KT "/big", 0, len, 21), (long)len);
	KTEST_ASSERT_EQ(t, statfs_counts(&bfree2, &ffree2), 0);
	KTEST_EXPECT_EQ(t, bfree - bfree2, 289ULL + 3);
	KTEST_EXPECT_EQ(t, ffree - ffree2, 1ULL);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	expect_stat(t, E2KT "/big", S_IFREG | 0644, (loff_t)len, 1, 2 * (289 + 3));
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/big", 0, len, 21));
	/* Down into the indirect range: the double-indirect tree goes. */
	KTEST_EXPECT_EQ(t, vfs_truncate(E2KT "/big", 100 * 1024), 0);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	expect_stat(t, E2KT "/big", S_IFREG | 0644, 100 * 1024, 1, 2 * (100 + 1));
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/big", 0, 100 * 1024, 21));
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/big"), 0);
	KTEST_ASSERT_EQ(t, statfs_counts(&bfree2, &ffree2), 0);
	KTEST_EXPECT_EQ(t, bfree2, bfree);
	KTEST_EXPECT_EQ(t, ffree2, ffree);
}

static void free_counts_come_back(struct ktest *t)
{
	uint64_t bfree, ffree, b, i;
	char name[48];

	KTEST_ASSERT_EQ(t, statfs_counts(&bfree, &ffree), 0);
	KTEST_EXPECT_EQ(t, bfree, 1907ULL);		/* dumpe2fs of the sample */
	KTEST_EXPECT_EQ(t, ffree, 131ULL);
	KTEST_ASSERT_EQ(t, vfs_mkdir(E2KT "/tree", 0755), 0);
	KTEST_ASSERT_EQ(t, vfs_mkdir(E2KT "/tree/sub", 0755), 0);
	for (int n = 0; n < 10; n++) {
		ksnprintf(name, sizeof(name), E2KT "/tree/%s%d", n & 1 ? "sub/" : "", n);
		KTEST_EXPECT_EQ(t, e2kt_write_stream_path(name, 0, (size_t)n * 3000, (uint64_t)n), (long)n * 3000);
	}
	KTEST_EXPECT_EQ(t, vfs_symlink("a-target-long-enough-to-need-its-own-block-on-disk-xxxxxxxxxxxxxx",
				       E2KT "/tree/slow"), 0);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_ASSERT_EQ(t, statfs_counts(&b, &i), 0);
	KTEST_EXPECT_LT(t, b, bfree);
	KTEST_EXPECT_EQ(t, i, ffree - 13);		/* 2 directories, 10 files, a symlink */
	for (int n = 0; n < 10; n++) {
		ksnprintf(name, sizeof(name), E2KT "/tree/%s%d", n & 1 ? "sub/" : "", n);
		KTEST_EXPECT_TRUE(t, e2kt_stream_matches(name, 0, (size_t)n * 3000, (uint64_t)n));
		KTEST_EXPECT_EQ(t, vfs_unlink(name), 0);
	}
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/tree/slow"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/tree/sub"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/tree"), 0);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_ASSERT_EQ(t, statfs_counts(&b, &i), 0);
	KTEST_EXPECT_EQ(t, b, bfree);
	KTEST_EXPECT_EQ(t, i, ffree);
}

/* ---- the namespace ---- */

static void mkdir_rmdir_rename(struct ktest *t)
{
	struct kstat st;
	uint64_t bfree, ffree, b, i;

	KTEST_ASSERT_EQ(t, statfs_counts(&bfree, &ffree), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir(E2KT "/d", 0750), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir(E2KT "/d", 0750), -EEXIST);
	KTEST_EXPECT_EQ(t, e2kt_write_stream_path(E2KT "/d/f", 0, 10, 1), 10L);
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/d"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/manydir"), -ENOTEMPTY);
	expect_stat(t, E2KT, S_IFDIR | 0755, 1024, 7, 2);		/* /d's ".." */
	/* A directory to another parent: the link counts and its ".." follow, on disk too. */
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/d", E2KT "/usr/d2"), 0);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	expect_stat(t, E2KT, S_IFDIR | 0755, 1024, 6, 2);
	expect_stat(t, E2KT "/usr", S_IFDIR | 0755, 1024, 4, 2);
	expect_stat(t, E2KT "/usr/d2", S_IFDIR | 0750, 1024, 2, 2);
	KTEST_EXPECT_EQ(t, e2kt_ino(E2KT "/usr/d2/..", false), e2kt_ino(E2KT "/usr", false));
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/usr/d2/f", 0, 10, 1));
	/* A file over an existing one: the target's inode is freed, the name keeps the source's. */
	unsigned long ino = e2kt_ino(E2KT "/data/16k.bin", false);
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/data/16k.bin", E2KT "/README"), 0);
	KTEST_EXPECT_EQ(t, e2kt_ino(E2KT "/data/16k.bin", false), 0UL);
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/usr/d2", E2KT "/manydir"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/README", E2KT "/data"), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/usr", E2KT "/usr/d2/x"), -EINVAL);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_EXPECT_EQ(t, e2kt_ino(E2KT "/README", false), ino);
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/README", 0, 16384, 1));
	/* A directory over an empty one, then everything back out. */
	KTEST_EXPECT_EQ(t, vfs_mkdir(E2KT "/empty", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/usr/d2", E2KT "/empty"), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(E2KT "/empty/f", &st, false), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/empty/f"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/empty"), 0);
	KTEST_ASSERT_EQ(t, statfs_counts(&b, &i), 0);
	KTEST_EXPECT_EQ(t, i, ffree + 1);		/* the old README's inode */
	KTEST_EXPECT_EQ(t, b, bfree + 1);		/* and its block */
	expect_stat(t, E2KT, S_IFDIR | 0755, 1024, 6, 2);
}

static void link_unlink_open_file(struct ktest *t)
{
	uint64_t bfree, ffree, b, i;
	struct file *f;
	struct kstat st;

	KTEST_EXPECT_EQ(t, vfs_link(E2KT "/hello.txt", E2KT "/usr/third"), 0);
	KTEST_EXPECT_EQ(t, vfs_link(E2KT "/hello.txt", E2KT "/link"), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_link(E2KT "/data", E2KT "/data2"), -EPERM);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	expect_stat(t, E2KT "/usr/third", S_IFREG | 0644, 12, 3, 2);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/hello.txt"), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/hardlink"), 0);
	KTEST_EXPECT_EQ(t, e2kt_try_open(E2KT "/link", O_RDONLY), -ENOENT);	/* dangling now */
	expect_stat(t, E2KT "/usr/third", S_IFREG | 0644, 12, 1, 2);
	/* An open file outlives its name: its blocks are freed at the last close. */
	KTEST_ASSERT_EQ(t, statfs_counts(&bfree, &ffree), 0);
	KTEST_EXPECT_EQ(t, e2kt_write_stream_path(E2KT "/open", 0, 40000, 31), 40000L);
	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/open", O_RDWR, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/open"), 0);
	KTEST_EXPECT_EQ(t, e2kt_ino(E2KT "/open", false), 0UL);
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 0U);
	KTEST_EXPECT_EQ(t, do_umount(E2KT), -EBUSY);
	KTEST_ASSERT_EQ(t, statfs_counts(&b, &i), 0);
	KTEST_EXPECT_EQ(t, b, bfree - 40 - 1);		/* still held: 40 blocks and an indirect */
	KTEST_EXPECT_EQ(t, i, ffree - 1);
	uint8_t *buf = kmalloc(40000, GFP_KERNEL);
	if (buf) {
		struct wgen g;
		bool same = vfs_pread(f, buf, 40000, 0) == 40000L;
		wgen_init(&g, 31);
		for (int k = 0; same && k < 40000; k++)
			same = buf[k] == wgen_byte(&g);
		KTEST_EXPECT_TRUE(t, same);
		kfree(buf);
	}
	KTEST_EXPECT_EQ(t, e2kt_write_stream(f, 40000, 10, 32, NULL), 10L);	/* still writable */
	vfs_close(f);
	KTEST_ASSERT_EQ(t, statfs_counts(&b, &i), 0);
	KTEST_EXPECT_EQ(t, b, bfree);
	KTEST_EXPECT_EQ(t, i, ffree);
}

static void symlinks_fast_and_slow(struct ktest *t)
{
	static const char slow[] = "data/../usr/share/../../data/./../usr/./share/../../data/."
				   "/../data/big.bin";
	char buf[128] = "";

	KTEST_EXPECT_EQ(t, vfs_symlink("usr/share/words", E2KT "/fast"), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink(slow, E2KT "/slow"), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink(E2KT "/data", E2KT "/usr/abs"), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", E2KT "/fast"), -EEXIST);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	/* 15 bytes fit in i_block (a fast symlink, no block); 78 need a block. */
	expect_stat(t, E2KT "/fast", S_IFLNK | 0777, 15, 1, 0);
	expect_stat(t, E2KT "/slow", S_IFLNK | 0777, (loff_t)strlen(slow), 1, 2);
	KTEST_EXPECT_EQ(t, vfs_readlink(E2KT "/fast", buf, sizeof(buf)), 15);
	KTEST_EXPECT_STREQ(t, buf, "usr/share/words");
	KTEST_EXPECT_EQ(t, vfs_readlink(E2KT "/slow", buf, sizeof(buf)), (int)strlen(slow));
	KTEST_EXPECT_STREQ(t, buf, slow);
	KTEST_EXPECT_EQ(t, e2kt_get_file(E2KT "/fast", buf, 10), 10L);
	KTEST_EXPECT_EQ(t, memcmp(buf, "word-0000\n", 10), 0);
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/slow", 0, 20000, 2));
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/usr/abs/big.bin", 0, 20000, 2));
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/slow"), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/fast"), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/usr/abs"), 0);
}

static void directory_grows_past_a_block(struct ktest *t)
{
	char name[96];
	struct kstat st;

	/* 80 entries of 8 + 40 bytes: about 4 KiB of entries, 1 KiB blocks. */
	KTEST_ASSERT_EQ(t, vfs_mkdir(E2KT "/grow", 0755), 0);
	for (int n = 0; n < 80; n++) {
		ksnprintf(name, sizeof(name), E2KT "/grow/a-name-forty-bytes-long-for-entry-%03d", n);
		KTEST_EXPECT_EQ(t, e2kt_try_open(name, O_WRONLY | O_CREAT | O_EXCL), 0);
	}
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_ASSERT_EQ(t, vfs_stat(E2KT "/grow", &st, false), 0);
	KTEST_EXPECT_GE(t, st.size, 4 * 1024LL);
	KTEST_EXPECT_EQ(t, st.blocks, (uint64_t)st.size / 512);
	for (int n = 0; n < 80; n++) {
		ksnprintf(name, sizeof(name), E2KT "/grow/a-name-forty-bytes-long-for-entry-%03d", n);
		KTEST_EXPECT_NE(t, e2kt_ino(name, false), 0UL);
		if (n % 2)
			KTEST_EXPECT_EQ(t, vfs_unlink(name), 0);
	}
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/grow"), -ENOTEMPTY);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	for (int n = 0; n < 80; n++) {
		ksnprintf(name, sizeof(name), E2KT "/grow/a-name-forty-bytes-long-for-entry-%03d", n);
		KTEST_EXPECT_EQ(t, e2kt_ino(name, false) != 0, n % 2 == 0);
		if (n % 2 == 0)
			KTEST_EXPECT_EQ(t, vfs_unlink(name), 0);
	}
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/grow"), 0);
}

/* ---- errors ---- */

static void enospc_keeps_what_was_written(struct ktest *t)
{
	uint64_t bfree, ffree, b, i;
	int err = 0;
	struct file *f;
	long fill = 0;
	char name[32];
	int small = 0;

	KTEST_ASSERT_EQ(t, statfs_counts(&bfree, &ffree), 0);
	KTEST_EXPECT_EQ(t, e2kt_write_stream_path(E2KT "/keep", 0, 20000, 5), 20000L);
	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/fill", O_WRONLY | O_CREAT, 0644, &f), 0);
	fill = e2kt_write_stream(f, 0, 4 << 20, 6, &err);	/* twice the disk */
	vfs_close(f);
	KTEST_EXPECT_EQ(t, err, -ENOSPC);
	KTEST_EXPECT_GT(t, fill, 1700L * 1024);
	/* The few blocks a big file could not use (an indirect block short): small files. */
	for (err = 0; !err && small < 8; small++) {
		ksnprintf(name, sizeof(name), E2KT "/small%d", small);
		long w = e2kt_write_stream_path(name, 0, 1024, 7);
		err = w < 0 ? (int)w : 0;
	}
	KTEST_EXPECT_EQ(t, err, -ENOSPC);
	KTEST_ASSERT_EQ(t, statfs_counts(&b, &i), 0);
	KTEST_EXPECT_EQ(t, b, 0ULL);
	KTEST_EXPECT_EQ(t, vfs_mkdir(E2KT "/nospace", 0755), -ENOSPC);
	KTEST_EXPECT_EQ(t, e2kt_try_open(E2KT "/empty", O_WRONLY | O_CREAT), 0);	/* no block needed */
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	/* Everything that was written is there, exactly. */
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/keep", 0, 20000, 5));
	struct kstat st;
	KTEST_ASSERT_EQ(t, vfs_stat(E2KT "/fill", &st, false), 0);
	KTEST_EXPECT_EQ(t, st.size, (loff_t)fill);
	KTEST_EXPECT_GE(t, st.blocks, (uint64_t)fill / 512);
	KTEST_EXPECT_TRUE(t, e2kt_stream_matches(E2KT "/fill", 0, (size_t)fill, 6));
	/* And the space comes back. */
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/fill"), 0);
	for (int n = 0; n < small; n++) {
		ksnprintf(name, sizeof(name), E2KT "/small%d", n);
		vfs_unlink(name);		/* the last one may not exist */
	}
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/empty"), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/keep"), 0);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_ASSERT_EQ(t, statfs_counts(&b, &i), 0);
	KTEST_EXPECT_EQ(t, b, bfree);
	KTEST_EXPECT_EQ(t, i, ffree);
	KTEST_EXPECT_EQ(t, vfs_mkdir(E2KT "/nospace", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/nospace"), 0);
}

static void name_too_long(struct ktest *t)
{
	char *p = kmalloc(sizeof(E2KT) + 260, GFP_KERNEL);
	size_t base = sizeof(E2KT);		/* E2KT and the '/' */

	KTEST_ASSERT_TRUE(t, p != NULL);
	memcpy(p, E2KT "/", base);
	memset(p + base, 'n', 256);
	p[base + 256] = '\0';
	KTEST_EXPECT_EQ(t, e2kt_try_open(p, O_WRONLY | O_CREAT), -ENAMETOOLONG);
	KTEST_EXPECT_EQ(t, vfs_mkdir(p, 0755), -ENAMETOOLONG);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", p), -ENAMETOOLONG);
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/README", p), -ENAMETOOLONG);
	KTEST_EXPECT_EQ(t, vfs_link(E2KT "/README", p), -ENAMETOOLONG);
	/* 255 bytes is ext2's limit, and fits (a 263-byte entry). */
	p[base + 255] = '\0';
	KTEST_EXPECT_EQ(t, e2kt_try_open(p, O_RDONLY), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/README", p), 0);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	KTEST_EXPECT_EQ(t, e2kt_ino(p, false), 12UL);
	KTEST_EXPECT_EQ(t, e2kt_ino(E2KT "/README", false), 0UL);
	KTEST_EXPECT_EQ(t, vfs_rename(p, E2KT "/README"), 0);
	kfree(p);
}

/* SHA-256 of the whole disk, read through its cache. */
static int disk_sha256(struct block_device *bdev, char hex[65])
{
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL), digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx c;
	int err = buf ? 0 : -ENOMEM;

	sha256_init(&c);
	for (uint64_t pos = 0; !err && pos < bdev_nr_bytes(bdev); pos += PAGE_SIZE) {
		err = e2kt_bdev_read(bdev, pos, buf, PAGE_SIZE);
		sha256_update(&c, buf, PAGE_SIZE);
	}
	kfree(buf);
	sha256_final(&c, digest);
	sha256_hex(digest, hex);
	return err;
}

static void read_only_mount_changes_nothing(struct ktest *t)
{
	char before[65], after[65], hex[65];
	struct file *f;

	KTEST_ASSERT_EQ(t, e2kt_remount(SB_RDONLY), 0);
	KTEST_ASSERT_EQ(t, disk_sha256(e2kt_bdev, before), 0);
	KTEST_EXPECT_EQ(t, e2kt_try_open(E2KT "/new", O_WRONLY | O_CREAT), -EROFS);
	KTEST_EXPECT_EQ(t, e2kt_try_open(E2KT "/README", O_WRONLY), -EROFS);
	KTEST_EXPECT_EQ(t, e2kt_try_open(E2KT "/README", O_RDONLY | O_TRUNC), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_mkdir(E2KT "/d", 0755), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT "/usr"), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_unlink(E2KT "/README"), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_rename(E2KT "/README", E2KT "/R"), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_link(E2KT "/README", E2KT "/R"), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", E2KT "/s"), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_truncate(E2KT "/README", 0), -EROFS);
	/* Reading works, and an fsync of a file open for reading has nothing to write. */
	KTEST_EXPECT_EQ(t, e2kt_sha256_file(E2KT "/data/big.bin", hex), 0);
	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/README", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);
	vfs_close(f);
	KTEST_ASSERT_EQ(t, e2kt_umount(), 0);
	KTEST_ASSERT_EQ(t, e2kt_drop_bdev_cache(e2kt_bdev), 0);
	KTEST_ASSERT_EQ(t, disk_sha256(e2kt_bdev, after), 0);
	KTEST_EXPECT_STREQ(t, after, before);		/* not a byte written, not even the superblock */
	KTEST_EXPECT_EQ(t, e2kt_mount(0), 0);
}

static void umount_busy_while_open(struct ktest *t)
{
	struct file *f;

	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/data", O_RDONLY | O_DIRECTORY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, e2kt_umount(), -EBUSY);
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(E2KT "/hello.txt", O_WRONLY | O_APPEND, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_write(f, "more\n", 5), 5L);
	KTEST_EXPECT_EQ(t, e2kt_umount(), -EBUSY);
	KTEST_EXPECT_EQ(t, e2kt_try_open(E2KT "/hello.txt", O_RDONLY), 0);	/* still mounted */
	vfs_close(f);
	KTEST_ASSERT_EQ(t, e2kt_remount(0), 0);
	char buf[32];
	KTEST_EXPECT_EQ(t, e2kt_get_file(E2KT "/hardlink", buf, sizeof(buf)), 17L);
	KTEST_EXPECT_EQ(t, memcmp(buf, "hello, ext2\nmore\n", 17), 0);
}

/* The image check is worth something only if it can fail: a free count made wrong in the
 * disk's cache after the unmount (the next case's reset puts the disk back). */
static void image_check_catches_bad_counts(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, e2kt_umount(), 0);
	KTEST_ASSERT_EQ(t, e2kt_image_check(e2kt_bdev, false), 0);
	struct folio *folio = read_cache_folio(e2kt_bdev->bd_mapping, 0);
	KTEST_ASSERT_FALSE(t, IS_ERR(folio));
	struct ext2_super_block *es = (void *)((char *)page_address(&folio->page) + 1024);
	struct ext2_group_desc *gd = (void *)((char *)page_address(&folio->page) + 2048);
	es->s_free_blocks_count = cpu_to_le32(le32_to_cpu(es->s_free_blocks_count) + 1);
	KTEST_EXPECT_EQ(t, e2kt_image_check(e2kt_bdev, false), 1);
	gd->bg_free_inodes_count = cpu_to_le16((uint16_t)(le16_to_cpu(gd->bg_free_inodes_count) - 1));
	gd->bg_used_dirs_count = cpu_to_le16((uint16_t)(le16_to_cpu(gd->bg_used_dirs_count) + 1));
	/* the superblock's blocks, the group's inodes, its directories (the inode sum is the
	 * bitmaps', which still agrees with the superblock) */
	KTEST_EXPECT_EQ(t, e2kt_image_check(e2kt_bdev, false), 3);
	folio_put(folio);
	/* Back as it was: the teardown checks it again. */
	KTEST_ASSERT_EQ(t, brd_reset(e2kt_bdev), 0);
	KTEST_EXPECT_EQ(t, e2kt_image_check(e2kt_bdev, true), 0);
	KTEST_EXPECT_EQ(t, e2kt_mount(0), 0);
}

#define EXT2_CASE(fn, flags)							\
	static void fn##_case(struct ktest *t)					\
	{									\
		if (e2kt_setup(t, flags))					\
			fn(t);							\
		e2kt_teardown(t);						\
	}
EXT2_CASE(sample_files_match_sha256sums, SB_RDONLY)
EXT2_CASE(sample_links_resolve, SB_RDONLY)
EXT2_CASE(sample_manydir_lists_exactly, SB_RDONLY)
EXT2_CASE(sample_stat_fields, SB_RDONLY)
EXT2_CASE(page_flags_file_and_directory, 0)
EXT2_CASE(page_flags_hole_not_mappedtodisk, 0)
EXT2_CASE(write_append_truncate, 0)
EXT2_CASE(indirect_and_double_indirect, 0)
EXT2_CASE(free_counts_come_back, 0)
EXT2_CASE(mkdir_rmdir_rename, 0)
EXT2_CASE(link_unlink_open_file, 0)
EXT2_CASE(symlinks_fast_and_slow, 0)
EXT2_CASE(directory_grows_past_a_block, 0)
EXT2_CASE(e2kt_dir_change_after_reclaim, 0)
EXT2_CASE(enospc_keeps_what_was_written, 0)
EXT2_CASE(name_too_long, 0)
EXT2_CASE(read_only_mount_changes_nothing, 0)
EXT2_CASE(umount_busy_while_open, 0)
EXT2_CASE(image_check_catches_bad_counts, 0)

static const struct ktest_case ext2_cases[] = {
	{ "sample_files_match_sha256sums", sample_files_match_sha256sums_case },
	{ "sample_links_resolve", sample_links_resolve_case },
	{ "sample_manydir_lists_exactly", sample_manydir_lists_exactly_case },
	{ "sample_stat_fields", sample_stat_fields_case },
	{ "page_flags_file_and_directory", page_flags_file_and_directory_case },
	{ "page_flags_hole_not_mappedtodisk", page_flags_hole_not_mappedtodisk_case },
	{ "write_append_truncate", write_append_truncate_case },
	{ "indirect_and_double_indirect", indirect_and_double_indirect_case },
	{ "free_counts_come_back", free_counts_come_back_case },
	{ "mkdir_rmdir_rename", mkdir_rmdir_rename_case },
	{ "link_unlink_open_file", link_unlink_open_file_case },
	{ "symlinks_fast_and_slow", symlinks_fast_and_slow_case },
	{ "directory_grows_past_a_block", directory_grows_past_a_block_case },
	{ "dir_change_after_reclaim", e2kt_dir_change_after_reclaim_case },
	{ "enospc_keeps_what_was_written", enospc_keeps_what_was_written_case },
	{ "name_too_long", name_too_long_case },
	{ "read_only_mount_changes_nothing", read_only_mount_changes_nothing_case },
	{ "umount_busy_while_open", umount_busy_while_open_case },
	{ "image_check_catches_bad_counts", image_check_catches_bad_counts_case },
	{}
};
KTEST_SUITE(ext2, ext2_cases);
