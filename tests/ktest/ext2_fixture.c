/*
 * ext2_fixture.c - the `ext2` KTAP suite's fixture (tests/ktest/ext2_ktest.h): ram0 reset to
 * the sample filesystem and mounted before each case; after it, unmounted, its cache dropped,
 * the inode and page-cache counts as before, and the image checked from the disk's bytes by
 * e2kt_image_check() — a reading of the format that shares nothing with fs/ext2/ but the
 * on-disk structures, so ext2's own bookkeeping cannot vouch for itself.
 */
#include <string.h>
#include "tinymm/brd.h"
#include "tinymm/byteorder.h"
#include "tinymm/err.h"
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sha256.h"
#include "tinymm/slab.h"
#include "tinymm/vmstat.h"
#include "../../fs/ext2/ext2_fs.h"
#include "../../fs/internal.h"
#include "ext2_ktest.h"

#define SUPER_OFFSET	1024

struct block_device *e2kt_bdev;
void (*e2kt_image_hook)(struct ktest *t, struct block_device *bdev);

static unsigned long kt_inodes, kt_file_pages;
static bool kt_mounted;

int e2kt_bdev_read(struct block_device *bdev, uint64_t pos, void *buf, size_t len)
{
	char *out = buf;

	if (pos > bdev_nr_bytes(bdev) || len > bdev_nr_bytes(bdev) - pos)
		return -EINVAL;
	while (len) {
		struct folio *folio = read_cache_folio(bdev->bd_mapping, (pgoff_t)(pos >> PAGE_SHIFT));
		size_t off = (size_t)(pos & (PAGE_SIZE - 1)), n = min(len, (size_t)PAGE_SIZE - off);

		if (IS_ERR(folio))
			return (int)PTR_ERR(folio);
		memcpy(out, (char *)page_address(&folio->page) + off, n);
		folio_put(folio);
		out += n;
		pos += n;
		len -= n;
	}
	return 0;
}

int e2kt_drop_bdev_cache(struct block_device *bdev)
{
	int err = blkdev_fsync(bdev);

	truncate_inode_pages(bdev->bd_mapping, 0);
	return err ? err : bdev->bd_mapping->nrpages ? -EBUSY : 0;
}

bool e2kt_setup(struct ktest *t, unsigned long flags)
{
	int err;

	kt_mounted = false;
	e2kt_bdev = blkdev_get_by_name(E2KT_DEV);
	KTEST_EXPECT_TRUE(t, e2kt_bdev != NULL);
	if (!e2kt_bdev)
		return false;
	err = vfs_mkdir(E2KT, 0755);
	KTEST_EXPECT_TRUE(t, err == 0 || err == -EEXIST);
	KTEST_EXPECT_EQ(t, brd_reset(e2kt_bdev), 0);
	kt_inodes = nr_inodes;
	kt_file_pages = global_node_page_state(NR_FILE_PAGES);
	err = do_mount(E2KT_DEV, E2KT, "ext2", flags);
	KTEST_EXPECT_EQ(t, err, 0);
	kt_mounted = !err;
	return kt_mounted;
}

void e2kt_teardown(struct ktest *t)
{
	if (kt_mounted) {
		KTEST_EXPECT_EQ(t, do_umount(E2KT), 0);
		kt_mounted = false;
	}
	if (!e2kt_bdev)
		return;
	/* Everything was written at umount: nothing dirty is lost here, and the checks below
	 * read what reached the disk. */
	KTEST_EXPECT_EQ(t, e2kt_drop_bdev_cache(e2kt_bdev), 0);
	KTEST_EXPECT_EQ(t, nr_inodes, kt_inodes);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), kt_file_pages);
	KTEST_EXPECT_EQ(t, e2kt_image_check(e2kt_bdev, true), 0);
	if (e2kt_image_hook)
		e2kt_image_hook(t, e2kt_bdev);
	KTEST_EXPECT_EQ(t, e2kt_drop_bdev_cache(e2kt_bdev), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(E2KT), 0);
}

int e2kt_umount(void)
{
	int err = do_umount(E2KT);

	if (!err)
		kt_mounted = false;
	return err;
}

int e2kt_mount(unsigned long flags)
{
	int err = do_mount(E2KT_DEV, E2KT, "ext2", flags);

	kt_mounted = !err;
	return err;
}

int e2kt_remount(unsigned long flags)
{
	int err = e2kt_umount();

	if (!err)
		err = e2kt_drop_bdev_cache(e2kt_bdev);
	return err ? err : e2kt_mount(flags);
}

/* ---- the image check ---- */

static unsigned int zero_bits(const uint8_t *map, unsigned int nbits)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nbits; i++)
		n += !(map[i / 8] & (1U << (i % 8)));
	return n;
}

#define MISMATCH(fmt, ...)							\
	do {									\
		bad++;								\
		if (verbose)							\
			kprintf("    # ext2 image: " fmt "\n", __VA_ARGS__);	\
	} while (0)

/* One group: its bitmaps' zero bits and its inode table against descriptor @gd. */
static int check_group(struct block_device *bdev, const struct ext2_super_block *es,
		       unsigned int g, const struct ext2_group_desc *gd, uint8_t *map,
		       unsigned long *free_blocks, unsigned long *free_inodes, bool verbose)
{
	unsigned int bs = 1024U << le32_to_cpu(es->s_log_block_size);
	unsigned int bpg = le32_to_cpu(es->s_blocks_per_group), ipg = le32_to_cpu(es->s_inodes_per_group);
	unsigned int first = le32_to_cpu(es->s_first_data_block) + g * bpg;
	unsigned int nblocks = min(bpg, le32_to_cpu(es->s_blocks_count) - first);
	unsigned int isz = le16_to_cpu(es->s_inode_size), first_ino = le32_to_cpu(es->s_first_ino);
	unsigned int zb, zi, dirs = 0, bad = 0;
	struct ext2_inode ino;
	int err;

	if (le32_to_cpu(es->s_rev_level) == 0) {
		isz = 128;
		first_ino = 11;
	}
	err = e2kt_bdev_read(bdev, (uint64_t)le32_to_cpu(gd->bg_block_bitmap) * bs, map, bs);
	if (err)
		return err;
	zb = zero_bits(map, nblocks);
	if (zb != le16_to_cpu(gd->bg_free_blocks_count))
		MISMATCH("group %u: %u free blocks in its bitmap, %u in its descriptor", g, zb,
			 le16_to_cpu(gd->bg_free_blocks_count));
	err = e2kt_bdev_read(bdev, (uint64_t)le32_to_cpu(gd->bg_inode_bitmap) * bs, map, bs);
	if (err)
		return err;
	zi = zero_bits(map, ipg);
	if (zi != le16_to_cpu(gd->bg_free_inodes_count))
		MISMATCH("group %u: %u free inodes in its bitmap, %u in its descriptor", g, zi,
			 le16_to_cpu(gd->bg_free_inodes_count));
	for (unsigned int i = 0; i < ipg; i++) {
		unsigned int nr = g * ipg + i + 1;

		if (!(map[i / 8] & (1U << (i % 8))))
			continue;
		err = e2kt_bdev_read(bdev, (uint64_t)le32_to_cpu(gd->bg_inode_table) * bs +
				     (uint64_t)i * isz, &ino, sizeof(ino));
		if (err)
			return err;
		dirs += S_ISDIR(le16_to_cpu(ino.i_mode));
		if (nr >= first_ino && (!le16_to_cpu(ino.i_links_count) || le32_to_cpu(ino.i_dtime)))
			MISMATCH("inode %u in use with %u links, deletion time %u", nr,
				 (unsigned int)le16_to_cpu(ino.i_links_count),
				 (unsigned int)le32_to_cpu(ino.i_dtime));
	}
	if (dirs != le16_to_cpu(gd->bg_used_dirs_count))
		MISMATCH("group %u: %u directories in its table, %u in its descriptor", g, dirs,
			 le16_to_cpu(gd->bg_used_dirs_count));
	*free_blocks += zb;
	*free_inodes += zi;
	return (int)bad;
}

int e2kt_image_check(struct block_device *bdev, bool verbose)
{
	struct ext2_super_block *es = kmalloc(sizeof(*es), GFP_KERNEL);
	struct ext2_group_desc *gd = NULL;
	uint8_t *map = NULL;
	unsigned long free_blocks = 0, free_inodes = 0;
	int bad = 0, err;

	if (!es)
		return -ENOMEM;
	err = e2kt_bdev_read(bdev, SUPER_OFFSET, es, sizeof(*es));
	if (err)
		goto out;
	unsigned int bs = 1024U << le32_to_cpu(es->s_log_block_size);
	unsigned int bpg = le32_to_cpu(es->s_blocks_per_group);
	if (le16_to_cpu(es->s_magic) != EXT2_SUPER_MAGIC || bs > PAGE_SIZE || !bpg) {
		MISMATCH("no ext2 superblock (magic 0x%x)", le16_to_cpu(es->s_magic));
		goto out;
	}
	if (!(le16_to_cpu(es->s_state) & EXT2_VALID_FS))
		MISMATCH("state 0x%x after umount, not clean", le16_to_cpu(es->s_state));
	unsigned int first = le32_to_cpu(es->s_first_data_block);
	unsigned int groups = (le32_to_cpu(es->s_blocks_count) - first + bpg - 1) / bpg;
	gd = kmalloc((size_t)groups * sizeof(*gd), GFP_KERNEL);
	map = kmalloc(bs, GFP_KERNEL);
	err = -ENOMEM;
	if (!gd || !map)
		goto out;
	err = e2kt_bdev_read(bdev, (uint64_t)(first + 1) * bs, gd, (size_t)groups * sizeof(*gd));
	for (unsigned int g = 0; !err && g < groups; g++) {
		int r = check_group(bdev, es, g, &gd[g], map, &free_blocks, &free_inodes, verbose);
		if (r < 0)
			err = r;
		else
			bad += r;
	}
	if (err)
		goto out;
	if (free_blocks != le32_to_cpu(es->s_free_blocks_count))
		MISMATCH("%lu free blocks in the groups, %u in the superblock", free_blocks,
			 (unsigned int)le32_to_cpu(es->s_free_blocks_count));
	if (free_inodes != le32_to_cpu(es->s_free_inodes_count))
		MISMATCH("%lu free inodes in the groups, %u in the superblock", free_inodes,
			 (unsigned int)le32_to_cpu(es->s_free_inodes_count));
out:
	kfree(map);
	kfree(gd);
	kfree(es);
	return err ? err : bad;
}

/* ---- files ---- */

long e2kt_write_stream(struct file *f, loff_t pos, size_t len, uint64_t seed, int *errp)
{
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	struct wgen g;
	long done = 0;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	wgen_init(&g, seed);
	while ((size_t)done < len) {
		size_t n = min(len - (size_t)done, (size_t)PAGE_SIZE);
		for (size_t i = 0; i < n; i++)
			buf[i] = wgen_byte(&g);
		long w = vfs_pwrite(f, buf, n, pos + done);
		if (w < 0) {
			err = (int)w;
			break;
		}
		done += w;
		if ((size_t)w < n) {
			err = -ENOSPC;		/* a short write: the disk is full */
			break;
		}
	}
	kfree(buf);
	if (errp)
		*errp = err;
	return done || !err ? done : err;
}

long e2kt_write_stream_path(const char *path, loff_t pos, size_t len, uint64_t seed)
{
	struct file *f;
	int err = vfs_open(path, O_WRONLY | O_CREAT, 0644, &f);
	long n;

	if (err)
		return err;
	n = e2kt_write_stream(f, pos, len, seed, &err);
	vfs_close(f);
	return err ? err : n;
}

/* The file's bytes at [@pos, @pos + @len) equal the stream of @seed, or zeros for @zeros. */
static bool file_matches(const char *path, loff_t pos, size_t len, uint64_t seed, bool zeros)
{
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	struct wgen g;
	struct file *f;
	bool ok = buf && !vfs_open(path, O_RDONLY, 0, &f);

	if (!ok) {
		kfree(buf);
		return false;
	}
	wgen_init(&g, seed);
	for (size_t done = 0; ok && done < len;) {
		size_t n = min(len - done, (size_t)PAGE_SIZE);
		ok = vfs_pread(f, buf, n, pos + (loff_t)done) == (long)n;
		for (size_t i = 0; ok && i < n; i++)
			ok = buf[i] == (zeros ? 0 : wgen_byte(&g));
		done += n;
	}
	vfs_close(f);
	kfree(buf);
	return ok;
}

bool e2kt_stream_matches(const char *path, loff_t pos, size_t len, uint64_t seed)
{
	return file_matches(path, pos, len, seed, false);
}

bool e2kt_zeros_match(const char *path, loff_t pos, size_t len)
{
	return file_matches(path, pos, len, 0, true);
}

long e2kt_get_file(const char *path, void *buf, size_t len)
{
	struct file *f;
	long n = vfs_open(path, O_RDONLY, 0, &f);

	if (n)
		return n;
	n = vfs_read(f, buf, len);
	vfs_close(f);
	return n;
}

int e2kt_sha256_file(const char *path, char hex[65])
{
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL), digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx c;
	struct file *f;
	long n;
	int err = buf ? vfs_open(path, O_RDONLY, 0, &f) : -ENOMEM;

	if (err) {
		kfree(buf);
		return err;
	}
	sha256_init(&c);
	while ((n = vfs_read(f, buf, PAGE_SIZE)) > 0)
		sha256_update(&c, buf, (size_t)n);
	vfs_close(f);
	kfree(buf);
	if (n < 0)
		return (int)n;
	sha256_final(&c, digest);
	sha256_hex(digest, hex);
	return 0;
}

unsigned long e2kt_ino(const char *path, bool follow)
{
	struct kstat st;

	return vfs_stat(path, &st, follow) ? 0 : st.ino;
}

int e2kt_try_open(const char *path, unsigned int flags)
{
	struct file *f;
	int err = vfs_open(path, flags, 0644, &f);

	if (!err)
		vfs_close(f);
	return err;
}
