/*
 * inode.c - ext2 inodes: reading one from its group's inode table (ext2_iget), writing it
 * back (ext2_write_inode), evicting it (freeing its blocks and itself once unlinked), and the
 * address_space operations that move file data between the page cache and the disk through
 * buffer heads (fs/buffer.c) and the block map (blockmap.c).  Linux v6.10 fs/ext2/inode.c,
 * reduced.
 * Where tinymm differs from v6.10, and why: no DAX or direct I/O; timestamps are whole seconds
 * (revision-1 ext2 with 128-byte inodes has no room for more).
 * Locking: the raw inode is changed under its buffer's folio being referenced and the inode's
 * i_rwsem or the VFS's eviction (no other user).
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "ext2.h"

static int ext2_read_folio(struct address_space *mapping, struct folio *folio)
{
	(void)mapping;
	return block_read_full_folio(folio, ext2_get_block);
}

static void ext2_readahead(struct readahead_control *rac)
{
	mpage_readahead(rac, ext2_get_block);
}

static bool ext2_release_folio(struct folio *folio, gfp_t gfp)
{
	(void)gfp;
	return try_to_free_buffers(folio);
}

/* Linux's ext2_write_failed: blocks a failed write allocated past the end of the file (a
 * folio's first blocks before ENOSPC on its next) go again, so i_size and the block map agree. */
static void ext2_write_failed(struct inode *inode, loff_t to)
{
	if (to > inode->i_size) {
		truncate_inode_pages(inode->i_mapping, inode->i_size);
		ext2_truncate_blocks(inode, inode->i_size);
	}
}

static int ext2_write_begin(struct address_space *mapping, loff_t pos, unsigned int len,
			    struct folio **foliop)
{
	int err = block_write_begin(mapping, pos, len, foliop, ext2_get_block);

	if (err)
		ext2_write_failed(container_of(mapping, struct inode, i_data), pos + len);
	return err;
}

static int ext2_write_end(struct address_space *mapping, loff_t pos, unsigned int len,
			  unsigned int copied, struct folio *folio)
{
	return generic_write_end(mapping, pos, len, copied, folio);
}

static int ext2_writepage(struct folio *folio, struct writeback_control *wbc)
{
	return block_write_full_folio(folio, wbc, ext2_get_block);
}

static int ext2_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	return mpage_writepages(mapping, wbc, ext2_get_block);
}

/*
 * The file a folio belongs to, for memory_failure()'s "dirty data lost" line: "ram0 inode 13".
 * One buffer: the only caller runs under memory_failure()'s mf_mutex, one call at a time.
 */
static const char *ext2_mapping_name(struct address_space *mapping)
{
	static char name[40];
	struct inode *inode = container_of(mapping, struct inode, i_data);

	ksnprintf(name, sizeof(name), "%s inode %lu", inode->i_sb->s_bdev->bd_name, inode->i_ino);
	return name;
}

const struct address_space_operations ext2_aops = {
	.read_folio = ext2_read_folio,
	.readahead = ext2_readahead,
	.write_begin = ext2_write_begin,
	.write_end = ext2_write_end,
	.writepage = ext2_writepage,
	.writepages = ext2_writepages,
	.dirty_folio = block_dirty_folio,
	.release_folio = ext2_release_folio,
	.invalidate_folio = block_invalidate_folio,
	.error_remove_folio = generic_error_remove_folio,
	.name = ext2_mapping_name,
	.migrate_folio = buffer_migrate_folio,
};

/* Where inode @ino lives: its buffer (referenced) and the raw inode in it. */
static struct ext2_inode *ext2_get_raw_inode(struct super_block *sb, unsigned long ino,
					     struct buffer_head **bhp)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned int group = (unsigned int)((ino - 1) / sbi->geo.inodes_per_group);
	struct buffer_head *gbh;
	struct ext2_group_desc *gd;
	unsigned int block, offset;

	if (ino < EXT2_ROOT_INO || (ino < sbi->geo.first_ino && ino != EXT2_ROOT_INO) ||
	    ino > sbi->geo.inodes_count) {
		ext2_msg(sb, KERN_ERR, "bad inode number %lu", ino);
		return ERR_PTR(-EUCLEAN);
	}
	gd = ext2_get_group_desc(sb, group, &gbh);
	if (!gd)
		return ERR_PTR(-EIO);
	int err = ext2_inode_location(&sbi->geo, le32_to_cpu(gd->bg_inode_table), (unsigned int)ino,
				      &block, &offset);
	brelse(gbh);
	if (err)
		return ERR_PTR(err);
	*bhp = sb_bread(sb, block);
	if (!*bhp) {
		ext2_msg(sb, KERN_ERR, "unable to read inode block %u for inode %lu", block, ino);
		return ERR_PTR(-EIO);
	}
	return (struct ext2_inode *)((*bhp)->b_data + offset);
}

void ext2_set_inode_ops(struct inode *inode)
{
	if (S_ISREG(inode->i_mode)) {
		inode->i_op = &ext2_file_inode_operations;
		inode->i_fop = &ext2_file_operations;
	} else if (S_ISDIR(inode->i_mode)) {
		inode->i_op = &ext2_dir_inode_operations;
		inode->i_fop = &ext2_dir_operations;
	} else if (S_ISLNK(inode->i_mode)) {
		/* A fast symlink keeps its target in i_data (no data block): Linux's test. */
		bool fast = inode->i_blocks == 0 || (EXT2_I(inode)->i_file_acl &&
			    inode->i_blocks == (EXT2_SB(inode->i_sb)->geo.block_size >> 9));
		inode->i_op = fast ? &ext2_fast_symlink_inode_operations :
				     &ext2_symlink_inode_operations;
	}
	inode->i_mapping->a_ops = &ext2_aops;
}

struct inode *ext2_iget(struct super_block *sb, unsigned long ino)
{
	struct inode *inode = iget_locked(sb, ino);
	struct ext2_inode_info *ei;
	struct ext2_inode *raw;
	struct buffer_head *bh;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;
	ei = EXT2_I(inode);
	raw = ext2_get_raw_inode(sb, ino, &bh);
	if (IS_ERR(raw)) {
		iget_failed(inode);
		return ERR_PTR(PTR_ERR(raw));
	}
	inode->i_mode = le16_to_cpu(raw->i_mode);
	inode->i_uid = le16_to_cpu(raw->i_uid) | ((unsigned int)le16_to_cpu(raw->i_uid_high) << 16);
	inode->i_gid = le16_to_cpu(raw->i_gid) | ((unsigned int)le16_to_cpu(raw->i_gid_high) << 16);
	inode->i_nlink = le16_to_cpu(raw->i_links_count);
	inode->i_size = le32_to_cpu(raw->i_size);
	if (S_ISREG(inode->i_mode))
		inode->i_size |= (loff_t)le32_to_cpu(raw->i_size_high) << 32;
	inode->i_atime = (struct timespec64){ .tv_sec = (int32_t)le32_to_cpu(raw->i_atime) };
	inode->i_ctime = (struct timespec64){ .tv_sec = (int32_t)le32_to_cpu(raw->i_ctime) };
	inode->i_mtime = (struct timespec64){ .tv_sec = (int32_t)le32_to_cpu(raw->i_mtime) };
	inode->i_blocks = le32_to_cpu(raw->i_blocks);
	inode->i_generation = le32_to_cpu(raw->i_generation);
	ei->i_dtime = le32_to_cpu(raw->i_dtime);
	ei->i_flags = le32_to_cpu(raw->i_flags);
	ei->i_file_acl = le32_to_cpu(raw->i_file_acl);
	ei->i_block_group = (uint32_t)((ino - 1) / EXT2_SB(sb)->geo.inodes_per_group);
	ei->i_dir_start_lookup = 0;
	for (int i = 0; i < EXT2_N_BLOCKS; i++)
		ei->i_data[i] = le32_to_cpu(raw->i_block[i]);
	brelse(bh);

	/* A deleted inode (no links and a deletion time, or no mode at all) is stale: a
	 * directory entry pointing at one is a corrupt directory. */
	if (inode->i_nlink == 0 && (inode->i_mode == 0 || ei->i_dtime)) {
		ext2_msg(sb, KERN_ERR, "inode %lu is deleted (a directory entry still names it)", ino);
		iget_failed(inode);
		return ERR_PTR(-EUCLEAN);
	}
	if (!S_ISREG(inode->i_mode) && !S_ISDIR(inode->i_mode) && !S_ISLNK(inode->i_mode) &&
	    (inode->i_mode & S_IFMT) != S_IFCHR && (inode->i_mode & S_IFMT) != S_IFBLK &&
	    (inode->i_mode & S_IFMT) != S_IFIFO && (inode->i_mode & S_IFMT) != S_IFSOCK) {
		ext2_msg(sb, KERN_ERR, "inode %lu has a bad mode 0%o", ino, inode->i_mode);
		iget_failed(inode);
		return ERR_PTR(-EUCLEAN);
	}
	if (inode->i_size < 0 || (uint64_t)inode->i_size > sb->s_maxbytes) {
		ext2_msg(sb, KERN_ERR, "inode %lu: size %lld beyond the largest file", ino,
			 (long long)inode->i_size);
		iget_failed(inode);
		return ERR_PTR(-EUCLEAN);
	}
	ext2_set_inode_ops(inode);
	i_size_write(inode, inode->i_size);	/* the page cache's copy (i_data.size) too */
	unlock_new_inode(inode);
	return inode;
}

int ext2_write_inode(struct inode *inode, bool wait)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct buffer_head *bh;
	struct ext2_inode *raw = ext2_get_raw_inode(sb, inode->i_ino, &bh);
	int err = 0;

	if (IS_ERR(raw))
		return (int)PTR_ERR(raw);
	if (ei->i_new) {
		/* A freshly allocated inode: whatever a deleted one left there goes. */
		memset(raw, 0, sbi->geo.inode_size);
		ei->i_new = false;
	}
	raw->i_mode = cpu_to_le16((uint16_t)inode->i_mode);
	raw->i_uid = cpu_to_le16((uint16_t)inode->i_uid);
	raw->i_gid = cpu_to_le16((uint16_t)inode->i_gid);
	raw->i_uid_high = cpu_to_le16((uint16_t)(inode->i_uid >> 16));
	raw->i_gid_high = cpu_to_le16((uint16_t)(inode->i_gid >> 16));
	raw->i_links_count = cpu_to_le16((uint16_t)inode->i_nlink);
	raw->i_size = cpu_to_le32((uint32_t)inode->i_size);
	raw->i_size_high = S_ISREG(inode->i_mode) ? cpu_to_le32((uint32_t)((uint64_t)inode->i_size >> 32)) : 0;
	if (S_ISREG(inode->i_mode) && inode->i_size > 0x7fffffff &&
	    !(le32_to_cpu(sbi->s_es->s_feature_ro_compat) & EXT2_FEATURE_RO_COMPAT_LARGE_FILE)) {
		/* A file of 2 GiB or more needs the large_file feature, as Linux sets it. */
		mutex_lock(&sbi->s_lock);
		sbi->s_es->s_feature_ro_compat |= cpu_to_le32(EXT2_FEATURE_RO_COMPAT_LARGE_FILE);
		sbi->geo.feature_ro_compat |= EXT2_FEATURE_RO_COMPAT_LARGE_FILE;
		mark_buffer_dirty(sbi->s_sbh);
		mutex_unlock(&sbi->s_lock);
	}
	raw->i_atime = cpu_to_le32((uint32_t)inode->i_atime.tv_sec);
	raw->i_ctime = cpu_to_le32((uint32_t)inode->i_ctime.tv_sec);
	raw->i_mtime = cpu_to_le32((uint32_t)inode->i_mtime.tv_sec);
	raw->i_dtime = cpu_to_le32(ei->i_dtime);
	raw->i_blocks = cpu_to_le32((uint32_t)inode->i_blocks);
	raw->i_flags = cpu_to_le32(ei->i_flags);
	raw->i_generation = cpu_to_le32(inode->i_generation);
	raw->i_file_acl = cpu_to_le32(ei->i_file_acl);
	for (int i = 0; i < EXT2_N_BLOCKS; i++)
		raw->i_block[i] = cpu_to_le32(ei->i_data[i]);
	mark_buffer_dirty(bh);
	if (wait) {
		err = sync_dirty_buffer(bh);
		if (err)
			ext2_msg(sb, KERN_ERR, "inode %lu: writing it failed (%d)", inode->i_ino, err);
	}
	brelse(bh);
	return err;
}

/* Symlinks with their target in i_data have no blocks to free. */
static bool ext2_has_blocks(struct inode *inode)
{
	return S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) ||
	       (S_ISLNK(inode->i_mode) && inode->i_op == &ext2_symlink_inode_operations);
}

int ext2_setsize(struct inode *inode, loff_t size)
{
	int err;

	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if (size < 0 || (uint64_t)size > inode->i_sb->s_maxbytes)
		return -EFBIG;
	if (size < inode->i_size) {
		/* The partial last block's tail must read as zeros if the file grows again. */
		err = block_truncate_page(inode->i_mapping, size, ext2_get_block);
		if (err)
			return err;
		i_size_write(inode, size);
		truncate_pagecache(inode, size);	/* mapped pages past it unmapped too */
		ext2_truncate_blocks(inode, size);
	} else {
		i_size_write(inode, size);	/* the rest is a hole */
	}
	inode->i_mtime = inode->i_ctime = current_time(inode);
	mark_inode_dirty(inode);
	return 0;
}

void ext2_evict_inode(struct inode *inode)
{
	bool gone = !inode->i_nlink && !(inode->i_sb->s_flags & SB_RDONLY);

	truncate_inode_pages(inode->i_mapping, 0);
	if (!gone)
		return;
	/* The last link and the last user went: its blocks, then the inode itself. */
	/* A deleted inode is one with a dtime (e2fsck's rule), and a dtime below the inode count
	 * is e2fsck's sign of a link in ext3's orphan list ("Inodes that were part of a
	 * corrupted orphan linked list found", exit status 4).  On a board with no wall clock
	 * current_time() counts seconds from boot, which stays below the inode count for
	 * minutes: such a dtime is raised to the inode count (found by tests/fuzz/ext2_fuzz.c). */
	EXT2_I(inode)->i_dtime = (uint32_t)max(current_time(inode).tv_sec,
					       (int64_t)EXT2_SB(inode->i_sb)->geo.inodes_count);
	i_size_write(inode, 0);
	if (ext2_has_blocks(inode))
		ext2_truncate_blocks(inode, 0);
	ext2_write_inode(inode, false);
	ext2_free_inode(inode);
}
