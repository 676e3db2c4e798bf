/*
 * super.c - mounting ext2: read and check the superblock and every group descriptor
 * (super_check.c), find the root directory, and the superblock operations.  Linux v6.10
 * fs/ext2/super.c, reduced.
 *
 * The superblock is read first straight from the block device's page cache (bytes 1024-2047,
 * whatever the block size: nothing is known yet), so no buffer heads of a guessed size are
 * left on the device's folios; once the block size is known every metadata block is a buffer
 * of that size (sb_bread).  Every refusal is one line naming the problem and the device, and
 * nothing is written to a device that was refused.
 * A read-write mount counts itself in s_mnt_count, stamps s_mtime and clears EXT2_VALID_FS
 * until the unmount puts back the state it found, as Linux's ext2_setup_super / ext2_sync_fs /
 * ext2_put_super do: a crash leaves the filesystem marked for e2fsck.
 * Where tinymm differs from v6.10, and why: mount options are only "ro"; errors= behaviour is
 * always "continue" after the one-line report (the operation fails with -EUCLEAN or -EIO).
 * Locking: fill_super runs before the filesystem is visible; afterwards s_lock (ext2.h).
 */
#include <stdarg.h>
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "ext2.h"

#define EXT2_SUPER_OFFSET	1024	/* bytes from the start of the device */

static struct kmem_cache *ext2_inode_cachep;

void ext2_msg(struct super_block *sb, const char *prefix, const char *fmt, ...)
{
	char line[160], lfmt[32];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* printk takes the level from its format's first bytes, not from an argument. */
	ksnprintf(lfmt, sizeof(lfmt), "%sext2 (%%s): %%s\n", prefix);
	printk(lfmt, sb->s_bdev ? sb->s_bdev->bd_name : "?", line);
}

struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb, unsigned int group,
					    struct buffer_head **bhp)
{
	const struct ext2_geometry *geo = &EXT2_SB(sb)->geo;

	if (group >= geo->groups_count) {
		ext2_msg(sb, KERN_ERR, "group %u beyond the %u groups", group,
			 (unsigned int)geo->groups_count);
		return NULL;
	}
	unsigned long block = geo->first_data_block + 1 + group / geo->desc_per_block;
	*bhp = sb_bread(sb, block);
	if (!*bhp) {
		ext2_msg(sb, KERN_ERR, "unable to read the group descriptors (block %lu)", block);
		return NULL;
	}
	return (struct ext2_group_desc *)(*bhp)->b_data + group % geo->desc_per_block;
}

static struct inode *ext2_alloc_inode(struct super_block *sb)
{
	struct ext2_inode_info *ei = kmem_cache_alloc(ext2_inode_cachep, GFP_KERNEL);

	(void)sb;
	if (!ei)
		return NULL;
	memset(ei, 0, sizeof(*ei));
	inode_init_once(&ei->vfs_inode);
	return &ei->vfs_inode;
}

static void ext2_free_in_core_inode(struct inode *inode)
{
	kmem_cache_free(ext2_inode_cachep, EXT2_I(inode));
}

/* Linux's ext2_sync_fs: while mounted read-write the superblock says "not clean" (VALID_FS
 * clear), so a crash leaves it marked for e2fsck; the last write time; the buffer written. */
static int ext2_sync_fs(struct super_block *sb, bool wait)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;

	if (sb->s_flags & SB_RDONLY)
		return 0;
	mutex_lock(&sbi->s_lock);
	es->s_state &= cpu_to_le16((uint16_t)~EXT2_VALID_FS);
	es->s_wtime = cpu_to_le32((uint32_t)current_time(sb->s_root ? sb->s_root->d_inode : NULL).tv_sec);
	mark_buffer_dirty(sbi->s_sbh);
	mutex_unlock(&sbi->s_lock);
	return wait ? sync_dirty_buffer(sbi->s_sbh) : 0;
}

static void ext2_put_super(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!(sb->s_flags & SB_RDONLY)) {
		/* Clean again: the state it was found in (Linux's ext2_put_super). */
		sbi->s_es->s_state = cpu_to_le16((uint16_t)sbi->s_mount_state);
		mark_buffer_dirty(sbi->s_sbh);
		if (sync_dirty_buffer(sbi->s_sbh))
			ext2_msg(sb, KERN_ERR, "unable to write the superblock at unmount");
	}
	brelse(sbi->s_sbh);
	kfree(sbi);
	sb->s_fs_info = NULL;
}

static int ext2_statfs(struct super_block *sb, struct kstatfs *buf)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	const struct ext2_super_block *es = sbi->s_es;
	uint64_t free = le32_to_cpu(es->s_free_blocks_count);
	uint64_t resv = le32_to_cpu(es->s_r_blocks_count);

	buf->f_type = EXT2_SUPER_MAGIC;
	buf->f_bsize = sb->s_blocksize;
	buf->f_blocks = sbi->geo.blocks_count - sbi->geo.first_data_block;
	buf->f_bfree = free;
	buf->f_bavail = free > resv ? free - resv : 0;
	buf->f_files = sbi->geo.inodes_count;
	buf->f_ffree = le32_to_cpu(es->s_free_inodes_count);
	buf->f_namelen = EXT2_NAME_LEN;
	return 0;
}

static const struct super_operations ext2_sops = {
	.alloc_inode = ext2_alloc_inode,
	.free_inode = ext2_free_in_core_inode,
	.write_inode = ext2_write_inode,
	.evict_inode = ext2_evict_inode,
	.put_super = ext2_put_super,
	.sync_fs = ext2_sync_fs,
	.statfs = ext2_statfs,
};

/* Bytes 1024-2047 of the device, through its page cache, without buffer heads. */
static int ext2_read_raw_super(struct block_device *bdev, struct ext2_super_block *es)
{
	struct folio *folio;

	if (bdev_nr_bytes(bdev) < EXT2_SUPER_OFFSET + sizeof(*es))
		return -EINVAL;
	folio = read_cache_folio(bdev->bd_mapping, EXT2_SUPER_OFFSET >> PAGE_SHIFT);
	if (IS_ERR(folio))
		return (int)PTR_ERR(folio);
	memcpy(es, (char *)page_address(&folio->page) + (EXT2_SUPER_OFFSET & (PAGE_SIZE - 1)),
	       sizeof(*es));
	folio_put(folio);
	return 0;
}

/* Every group descriptor, checked as a whole (super_check.c). */
static int ext2_check_all_descriptors(struct super_block *sb, char *err, size_t errlen)
{
	const struct ext2_geometry *geo = &EXT2_SB(sb)->geo;
	size_t bytes = (size_t)geo->groups_count * sizeof(struct ext2_group_desc);
	struct ext2_group_desc *all = kmalloc(bytes, GFP_KERNEL);
	int ret = 0;

	if (!all)
		return -ENOMEM;
	for (unsigned int b = 0; b < geo->gdb_count; b++) {
		struct buffer_head *bh = sb_bread(sb, geo->first_data_block + 1 + b);
		size_t off = (size_t)b * geo->block_size;
		if (!bh) {
			ksnprintf(err, errlen, "unable to read group descriptor block %u", (unsigned int)b);
			ret = -EIO;
			goto out;
		}
		memcpy((char *)all + off, bh->b_data, min((size_t)geo->block_size, bytes - off));
		brelse(bh);
	}
	ret = ext2_check_descriptors(geo, all, geo->groups_count, err, errlen);
out:
	kfree(all);
	return ret;
}

static int ext2_fill_super(struct super_block *sb, unsigned long flags, char *err, size_t errlen)
{
	struct ext2_super_block raw;
	struct ext2_sb_info *sbi;
	struct inode *root;
	int ret = ext2_read_raw_super(sb->s_bdev, &raw);

	if (ret) {
		ksnprintf(err, errlen, "ext2: unable to read the superblock (%d)", ret);
		return ret == -EINVAL ? -EINVAL : -EIO;
	}
	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	ret = ext2_check_super(&raw, bdev_nr_bytes(sb->s_bdev), &sbi->geo, err, errlen);
	if (ret < 0)
		goto fail;
	if (ret > 0) {		/* a read-only compatible feature tinymm lacks */
		ext2_msg(sb, KERN_WARNING, "%s: mounting read-only", err);
		flags |= SB_RDONLY;
	}
	__mutex_init(&sbi->s_lock, "ext2_sb_info.s_lock", NULL);
	sb->s_fs_info = sbi;
	sb->s_blocksize = sbi->geo.block_size;
	sb->s_blocksize_bits = (unsigned char)(10 + sbi->geo.log_block_size);
	sb->s_maxbytes = sbi->geo.max_bytes;
	sb->s_magic = EXT2_SUPER_MAGIC;
	sb->s_flags = flags;
	sb->s_op = &ext2_sops;

	sbi->s_sb_block = EXT2_SUPER_OFFSET / sbi->geo.block_size;
	sbi->s_sb_offset = EXT2_SUPER_OFFSET % sbi->geo.block_size;
	sbi->s_sbh = sb_bread(sb, sbi->s_sb_block);
	if (!sbi->s_sbh) {
		ksnprintf(err, errlen, "ext2: unable to read the superblock's block");
		ret = -EIO;
		goto fail;
	}
	sbi->s_es = (struct ext2_super_block *)(sbi->s_sbh->b_data + sbi->s_sb_offset);
	sbi->s_mount_state = le16_to_cpu(raw.s_state);
	if (sbi->geo.feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL)
		ext2_msg(sb, KERN_WARNING, "warning: mounting ext3 filesystem as ext2");
	if (ext2_mount_warning(&sbi->geo))
		ext2_msg(sb, KERN_WARNING, "%s", ext2_mount_warning(&sbi->geo));
	ret = ext2_check_all_descriptors(sb, err, errlen);
	if (ret)
		goto fail_sbh;

	root = ext2_iget(sb, EXT2_ROOT_INO);
	if (IS_ERR(root)) {
		ret = (int)PTR_ERR(root);
		ksnprintf(err, errlen, "ext2: unable to read the root inode (%d)", ret);
		goto fail_sbh;
	}
	if (!S_ISDIR(root->i_mode) || !root->i_size || !EXT2_I(root)->i_data[0]) {
		ksnprintf(err, errlen, "ext2: corrupt root inode (mode 0%o, size %lld)", root->i_mode,
			  (long long)root->i_size);
		iput(root);
		ret = -EUCLEAN;
		goto fail_sbh;
	}
	sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		ret = -ENOMEM;
		goto fail_sbh;
	}
	if (!(flags & SB_RDONLY)) {
		/* Linux's ext2_setup_super: count the mount, stamp it, mark the fs in use. */
		struct ext2_super_block *es = sbi->s_es;
		if (!le16_to_cpu(es->s_max_mnt_count))
			es->s_max_mnt_count = cpu_to_le16(EXT2_DFL_MAX_MNT_COUNT);
		es->s_mnt_count = cpu_to_le16((uint16_t)(le16_to_cpu(es->s_mnt_count) + 1));
		es->s_mtime = cpu_to_le32((uint32_t)current_time(root).tv_sec);
		ret = ext2_sync_fs(sb, true);
		if (ret) {
			ksnprintf(err, errlen, "ext2: unable to write the superblock (%d)", ret);
			dput(sb->s_root);
			sb->s_root = NULL;
			goto fail_sbh;
		}
	}
	ext2_msg(sb, KERN_INFO, "mounted filesystem, %lu-byte blocks, %u groups, %s",
		 sb->s_blocksize, (unsigned int)sbi->geo.groups_count, flags & SB_RDONLY ? "read-only" : "read-write");
	return 0;
fail_sbh:
	brelse(sbi->s_sbh);
fail:
	sb->s_fs_info = NULL;
	kfree(sbi);
	return ret;
}

/* v6.10's kill_block_super(): the device's cache written back and flushed after put_super.
 * The umount's sync ran before the inodes were evicted, and an inode evicted then (a removed
 * file or directory some dentry still held) frees its blocks into bitmaps and descriptors
 * that would otherwise stay dirty in the cache (found by tests/fuzz/ext2_fuzz.c). */
static void ext2_kill_sb(struct super_block *sb)
{
	if (!(sb->s_flags & SB_RDONLY) && blkdev_fsync(sb->s_bdev))
		ext2_msg(sb, KERN_ERR, "unable to write the metadata at unmount");
}

static struct file_system_type ext2_fs_type = {
	.name = "ext2",
	.fill_super = ext2_fill_super,
	.kill_sb = ext2_kill_sb,
	.fs_flags = FS_REQUIRES_DEV,
};

int init_ext2_fs(void)
{
	ext2_inode_cachep = kmem_cache_create("ext2_inode_cache", sizeof(struct ext2_inode_info),
					      0, 0, NULL);
	if (!ext2_inode_cachep)
		return -ENOMEM;
	return register_filesystem(&ext2_fs_type);
}
