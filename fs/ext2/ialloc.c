/*
 * ialloc.c - ext2 inode allocation: one bit per inode in each group's inode bitmap, the free
 * inode and directory counts in the group descriptor and the superblock.  Linux v6.10
 * fs/ext2/ialloc.c, reduced.
 *
 * Where a new inode goes (Linux's find_group_other / find_group_dir, without Orlov): a file
 * goes into its directory's group if that has a free inode and a free block, else the
 * quadratic-hash probe of Linux, else the first group with a free inode; a directory goes into
 * the group with the most free blocks among those with at least the average number of free
 * inodes, so directories spread out and their files follow them.  The bitmap is checked
 * against the reserved inodes (below s_first_ino): a bitmap that says one is free is corrupt,
 * reported once per call, and the group skipped.  No free inode: -ENOSPC, nothing changed.
 * Freeing an inode already free is reported and changes nothing.
 * Where tinymm differs from v6.10, and why: no Orlov allocator for top-level directories (the
 * spread rule above is Linux's find_group_dir, which Orlov replaced); no ACL inheritance.
 * Locking: s_lock around every bitmap and count change, taken only once the buffers are read
 * (balloc.c says why).
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/printk.h"
#include "ext2.h"

static void ext2_sb_counts_add(struct super_block *sb, int inodes)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	uint32_t v = le32_to_cpu(sbi->s_es->s_free_inodes_count);

	sbi->s_es->s_free_inodes_count = cpu_to_le32(v + (uint32_t)inodes);
	mark_buffer_dirty(sbi->s_sbh);
}

/* A group with a free inode (and, for a file, a free block), by Linux's rules; -1 if none. */
static int ext2_find_group(struct super_block *sb, struct inode *dir, bool is_dir)
{
	const struct ext2_geometry *geo = &EXT2_SB(sb)->geo;
	uint32_t ngroups = geo->groups_count, parent = EXT2_I(dir)->i_block_group;
	struct buffer_head *bh;
	struct ext2_group_desc *gd;
	int best = -1;

	if (is_dir) {
		uint32_t avg = le32_to_cpu(EXT2_SB(sb)->s_es->s_free_inodes_count) / ngroups;
		unsigned int best_blocks = 0;
		for (uint32_t g = 0; g < ngroups; g++) {
			if (!(gd = ext2_get_group_desc(sb, g, &bh)))
				continue;
			unsigned int fi = le16_to_cpu(gd->bg_free_inodes_count);
			unsigned int fb = le16_to_cpu(gd->bg_free_blocks_count);
			brelse(bh);
			if (fi && fi >= avg && (best < 0 || fb > best_blocks)) {
				best = (int)g;
				best_blocks = fb;
			}
		}
		if (best >= 0)
			return best;
	} else {
		/* The parent's group, then the quadratic hash from it, then a linear scan. */
		uint32_t g = parent;
		for (uint32_t step = 1; step <= ngroups; step <<= 1) {
			if ((gd = ext2_get_group_desc(sb, g, &bh))) {
				bool ok = le16_to_cpu(gd->bg_free_inodes_count) &&
					  le16_to_cpu(gd->bg_free_blocks_count);
				brelse(bh);
				if (ok)
					return (int)g;
			}
			g = (g + step) % ngroups;
		}
	}
	for (uint32_t n = 0; n < ngroups; n++) {
		uint32_t g = (parent + n) % ngroups;
		if (!(gd = ext2_get_group_desc(sb, g, &bh)))
			continue;
		bool ok = le16_to_cpu(gd->bg_free_inodes_count) != 0;
		brelse(bh);
		if (ok)
			return (int)g;
	}
	return -1;
}

/* Take a free inode bit in @group: its inode number, or 0. */
static uint32_t ext2_take_inode(struct super_block *sb, uint32_t group, bool is_dir, int *err)
{
	const struct ext2_geometry *geo = &EXT2_SB(sb)->geo;
	struct buffer_head *gbh, *ibh;
	struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, &gbh);
	uint32_t ino = 0;

	if (!gd) {
		*err = -EIO;
		return 0;
	}
	ibh = sb_bread(sb, le32_to_cpu(gd->bg_inode_bitmap));
	if (!ibh) {
		ext2_msg(sb, KERN_ERR, "unable to read the inode bitmap of group %u", (unsigned int)group);
		*err = -EIO;
		brelse(gbh);
		return 0;
	}
	mutex_lock(&EXT2_SB(sb)->s_lock);
	for (uint32_t i = 0; le16_to_cpu(gd->bg_free_inodes_count); i++) {
		i = ext2_find_next_zero_bit(ibh->b_data, geo->inodes_per_group, i);
		if (i >= geo->inodes_per_group)
			break;
		uint32_t n = group * geo->inodes_per_group + i + 1;
		if (n < geo->first_ino || n > geo->inodes_count) {
			ext2_msg(sb, KERN_ERR, "inode bitmap of group %u marks reserved or absent inode %u free",
				 (unsigned int)group, (unsigned int)n);
			*err = -EUCLEAN;
			break;
		}
		ext2_set_bit(i, ibh->b_data);
		mark_buffer_dirty(ibh);
		gd->bg_free_inodes_count = cpu_to_le16((uint16_t)(le16_to_cpu(gd->bg_free_inodes_count) - 1));
		if (is_dir)
			gd->bg_used_dirs_count = cpu_to_le16((uint16_t)(le16_to_cpu(gd->bg_used_dirs_count) + 1));
		mark_buffer_dirty(gbh);
		ext2_sb_counts_add(sb, -1);
		ino = n;
		break;
	}
	mutex_unlock(&EXT2_SB(sb)->s_lock);
	brelse(ibh);
	brelse(gbh);
	return ino;
}

struct inode *ext2_new_inode(struct inode *dir, unsigned int mode)
{
	struct super_block *sb = dir->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	bool is_dir = S_ISDIR(mode);
	struct inode *inode = new_inode(sb);
	struct ext2_inode_info *ei;
	uint32_t ino = 0;
	int err = 0;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	int group = ext2_find_group(sb, dir, is_dir);
	if (group >= 0)
		ino = ext2_take_inode(sb, (uint32_t)group, is_dir, &err);
	/* A corrupt group: try the others in order before giving up. */
	for (uint32_t g = 0; !ino && group >= 0 && g < sbi->geo.groups_count; g++)
		if ((int)g != group)
			ino = ext2_take_inode(sb, g, is_dir, &err);
	if (!ino) {
		iput(inode);
		return ERR_PTR(err ? err : -ENOSPC);
	}
	ei = EXT2_I(inode);
	inode->i_ino = ino;
	inode->i_mode = mode;
	inode->i_uid = inode->i_gid = 0;
	inode->i_nlink = 1;
	i_size_write(inode, 0);
	inode->i_blocks = 0;
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
	inode->i_generation = ++sbi->s_next_generation;
	memset(ei->i_data, 0, sizeof(ei->i_data));
	ei->i_flags = EXT2_I(dir)->i_flags & (is_dir ? ~0u : ~(uint32_t)EXT2_DIRSYNC_FL) &
		      (EXT2_NODUMP_FL | EXT2_NOATIME_FL | EXT2_SYNC_FL | EXT2_DIRSYNC_FL);
	ei->i_dtime = 0;
	ei->i_file_acl = 0;
	ei->i_new = true;
	ei->i_block_group = (ino - 1) / sbi->geo.inodes_per_group;
	ext2_set_inode_ops(inode);
	insert_inode_hash(inode);
	mark_inode_dirty(inode);
	return inode;
}

void ext2_free_inode(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	const struct ext2_geometry *geo = &sbi->geo;
	uint32_t ino = (uint32_t)inode->i_ino;
	uint32_t group = (ino - 1) / geo->inodes_per_group, bit = (ino - 1) % geo->inodes_per_group;
	struct buffer_head *gbh, *ibh;
	struct ext2_group_desc *gd;

	if (ino < geo->first_ino || ino > geo->inodes_count) {
		ext2_msg(sb, KERN_ERR, "freeing reserved or nonexistent inode %u", (unsigned int)ino);
		return;
	}
	gd = ext2_get_group_desc(sb, group, &gbh);
	if (!gd)
		return;
	ibh = sb_bread(sb, le32_to_cpu(gd->bg_inode_bitmap));
	if (!ibh) {
		ext2_msg(sb, KERN_ERR, "unable to read the inode bitmap of group %u", (unsigned int)group);
		brelse(gbh);
		return;
	}
	mutex_lock(&sbi->s_lock);
	if (!ext2_test_bit(bit, ibh->b_data)) {
		ext2_msg(sb, KERN_ERR, "freeing inode %u, already free: left as it is", (unsigned int)ino);
	} else {
		ext2_clear_bit(bit, ibh->b_data);
		mark_buffer_dirty(ibh);
		gd->bg_free_inodes_count = cpu_to_le16((uint16_t)(le16_to_cpu(gd->bg_free_inodes_count) + 1));
		if (S_ISDIR(inode->i_mode))
			gd->bg_used_dirs_count = cpu_to_le16((uint16_t)(le16_to_cpu(gd->bg_used_dirs_count) - 1));
		mark_buffer_dirty(gbh);
		ext2_sb_counts_add(sb, 1);
	}
	mutex_unlock(&sbi->s_lock);
	brelse(ibh);
	brelse(gbh);
}
