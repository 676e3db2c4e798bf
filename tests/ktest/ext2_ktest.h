/*
 * ext2_ktest.h - what the `ext2` KTAP suite's files share (tests/ktest/ext2_ktest.c holds the
 * cases, tests/ktest/ext2_fixture.c the fixture and the image check).  Every case runs on RAM
 * disk ram0 (drivers/brd.c), put back to the built-in sample filesystem (tools/mkramdisk) before
 * the case and mounted on E2KT; after the case it is unmounted, its cache dropped, and the image
 * checked (e2kt_image_check()).
 */
#ifndef TINYMM_KTEST_EXT2_KTEST_H
#define TINYMM_KTEST_EXT2_KTEST_H

#include "tinymm/blkdev.h"
#include "tinymm/ktest.h"
#include "tinymm/vfs.h"

#define E2KT		"/ext2_kt"
#define E2KT_DEV	"ram0"

/* ram0, once a case's setup found it. */
extern struct block_device *e2kt_bdev;

/*
 * A host test's look at the image after each case (tests/host/ext2_test.c runs e2fsck -fn on
 * it): called from the teardown with the filesystem unmounted and the disk's cache dropped.
 * NULL on the boards.
 */
extern void (*e2kt_image_hook)(struct ktest *t, struct block_device *bdev);

/* Put ram0 back to the sample, note the inode and page-cache counts, mount it on E2KT (@flags
 * SB_RDONLY or 0).  false (and the case failed) if any of that did not work. */
bool e2kt_setup(struct ktest *t, unsigned long flags);
/* Unmount, drop ram0's cache, check the counts came back and the image is consistent. */
void e2kt_teardown(struct ktest *t);
/* Unmount E2KT / mount ram0 there again (@flags SB_RDONLY or 0), keeping the teardown's
 * knowledge of it.  0 or -errno. */
int e2kt_umount(void);
int e2kt_mount(unsigned long flags);
/* Unmount, drop the disk's cache (the next reads come from the disk), mount again with
 * @flags: what a case wrote must now come from the disk.  0 or the first -errno. */
int e2kt_remount(unsigned long flags);
/* Write back and drop every page of @bdev's cache: later reads go to the disk.  0 or -errno. */
int e2kt_drop_bdev_cache(struct block_device *bdev);

/* Bytes [@pos, @pos + @len) of @bdev, through its page cache.  0 or -errno. */
int e2kt_bdev_read(struct block_device *bdev, uint64_t pos, void *buf, size_t len);

/*
 * The image's own consistency, read from the disk (not from ext2's objects): the superblock
 * says "clean"; for every group the free block and free inode counts of its descriptor equal
 * the zero bits of its bitmaps, and its directory count the in-use directory inodes of its
 * table; every in-use inode past the reserved ones has links and no deletion time; the
 * superblock's free counts are the groups' sums.  The number of disagreements (0: consistent),
 * each printed as a KTAP diagnostic line when @verbose; -errno if the disk cannot be read.
 */
int e2kt_image_check(struct block_device *bdev, bool verbose);

/*
 * Files as the shell's `fwrite` writes them: byte i of a write of @len bytes at @pos is byte i
 * of the xorshift64* stream of @seed (block/blk_cmd.c's wgen).
 *   e2kt_write_stream: the bytes written (short at a full disk: *@err then says why), or -errno
 *   e2kt_stream_matches: the file holds exactly those bytes there
 *   e2kt_zeros_match: the file reads as @len zero bytes at @pos
 */
long e2kt_write_stream(struct file *f, loff_t pos, size_t len, uint64_t seed, int *err);
long e2kt_write_stream_path(const char *path, loff_t pos, size_t len, uint64_t seed);
bool e2kt_stream_matches(const char *path, loff_t pos, size_t len, uint64_t seed);
bool e2kt_zeros_match(const char *path, loff_t pos, size_t len);
/* Up to @len bytes of the file into @buf: the count, or -errno. */
long e2kt_get_file(const char *path, void *buf, size_t len);
/* sha256sum of the whole file into @hex (65 bytes); 0 or -errno. */
int e2kt_sha256_file(const char *path, char hex[65]);
/* stat()'s fields, following symlinks when @follow; 0 if there is none. */
unsigned long e2kt_ino(const char *path, bool follow);
/* An open that should fail: its error (a file opened by mistake is closed again). */
int e2kt_try_open(const char *path, unsigned int flags);

/* ext2_dir_ktest.c: a directory entry changed after reclaim dropped the folio it was found in. */
void e2kt_dir_change_after_reclaim(struct ktest *t);

#endif
