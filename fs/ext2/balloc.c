/*
 * balloc.c - ext2 block allocation: one bit per block in each group's block bitmap, the free
 * counts in the group descriptor and the superblock.  Linux v6.10 fs/ext2/balloc.c, reduced.
 *
 * ext2_new_block(inode, goal) takes the first free block at or after @goal in goal's group,
 * then the first free block of each following group (wrapping), as Linux's goal logic does
 * without reservation windows: a file's blocks stay together and near its inode.  Before a bit
 * is taken the block is checked not to be one of the group's own metadata blocks (bitmaps,
 * inode table): a bitmap that says otherwise is corrupt ("ext2 (vda): block bitmap of group G
 * marks its inode table free"), the group is skipped and -EUCLEAN returned if nothing else is
 * free.  Freeing a block that is already free is reported the same way and changes nothing.
 * Disk full is -ENOSPC, with nothing changed.
 * Where tinymm differs from v6.10, and why: one block per call (Linux allocates runs for
 * indirect chains); no reservation windows or preallocation; the reserved blocks (s_r_blocks)
 * are not held back (there is one user).
 * Locking: s_lock (ext2.h) around every bitmap and count change; the group descriptor and
 * bitmap buffers are read (and referenced) before it is taken, so nothing sleeps on I/O or on
 * a folio lock under it: the write path calls in here holding a folio lock.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "ext2.h"

bool ext2_test_bit(unsigned int nr, const void *map)
{
	return (((const uint8_t *)map)[nr >> 3] >> (nr & 7)) & 1;
}

void ext2_set_bit(unsigned int nr, void *map)
{
	((uint8_t *)map)[nr >> 3] |= (uint8_t)(1u << (nr & 7));
}

void ext2_clear_bit(unsigned int nr, void *map)
{
	((uint8_t *)map)[nr >> 3] &= (uint8_t)~(1u << (nr & 7));
}

/* The first clear bit in [from, size), or size. */
unsigned int ext2_find_next_zero_bit(const void *map, unsigned int size, unsigned int from)
{
	const uint8_t *b = map;

	while (from < size) {
		if ((from & 7) == 0 && b[from >> 3] == 0xff) {
			from += 8;
			continue;
		}
		if (!ext2_test_bit(from, map))
			return from;
		from++;
	}
	return size;
}

/* Blocks in @group (the last group may be shorter). */
static uint32_t ext2_group_blocks(const struct ext2_geometry *geo, uint32_t group)
{
	return ext2_group_last_block(geo, group) - ext2_group_first_block(geo, group) + 1;
}

/* Is @block one of @gd's own metadata blocks (bitmaps, inode table)? */
static bool ext2_is_group_metadata(const struct ext2_geometry *geo,
				   const struct ext2_group_desc *gd, uint32_t block)
{
	uint32_t itable = le32_to_cpu(gd->bg_inode_table);

	return block == le32_to_cpu(gd->bg_block_bitmap) ||
	       block == le32_to_cpu(gd->bg_inode_bitmap) ||
	       (block >= itable && block < itable + geo->itb_per_group);
}

/* Superblock free-block count += @delta (s_lock held). */
static void ext2_sb_free_blocks_add(struct super_block *sb, int delta)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	uint32_t v = le32_to_cpu(sbi->s_es->s_free_blocks_count);

	sbi->s_es->s_free_blocks_count = cpu_to_le32(v + (uint32_t)delta);
	mark_buffer_dirty(sbi->s_sbh);
}

/* Try to take a free block in @group at or after in-group index @from: its number, or 0. */
static uint32_t ext2_try_group(struct super_block *sb, uint32_t group, uint32_t from, int *err)
{
	const struct ext2_geometry *geo = &EXT2_SB(sb)->geo;
	struct buffer_head *gbh, *bbh;
	struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, &gbh);
	uint32_t nblocks = ext2_group_blocks(geo, group), first = ext2_group_first_block(geo, group);
	uint32_t found = 0;

	if (!gd) {
		*err = -EIO;
		return 0;
	}
	if (!le16_to_cpu(gd->bg_free_blocks_count))
		goto out_gd;
	bbh = sb_bread(sb, le32_to_cpu(gd->bg_block_bitmap));
	if (!bbh) {
		ext2_msg(sb, KERN_ERR, "unable to read the block bitmap of group %u", (unsigned int)group);
		*err = -EIO;
		goto out_gd;
	}
	/* The buffers are read and referenced before s_lock: no I/O (and no folio lock, which
	 * the write path holds when it allocates) ever waits under it. */
	mutex_lock(&EXT2_SB(sb)->s_lock);
	for (uint32_t i = from < nblocks ? from : 0; le16_to_cpu(gd->bg_free_blocks_count);) {
		i = ext2_find_next_zero_bit(bbh->b_data, nblocks, i);
		if (i >= nblocks) {
			if (from == 0)
				break;
			i = from = 0;	/* wrap once within the group */
			continue;
		}
		if (ext2_is_group_metadata(geo, gd, first + i)) {
			ext2_msg(sb, KERN_ERR, "block bitmap of group %u marks its own metadata block %u free",
				 (unsigned int)group, (unsigned int)(first + i));
			*err = -EUCLEAN;
			break;
		}
		ext2_set_bit(i, bbh->b_data);
		mark_buffer_dirty(bbh);
		gd->bg_free_blocks_count = cpu_to_le16((uint16_t)(le16_to_cpu(gd->bg_free_blocks_count) - 1));
		mark_buffer_dirty(gbh);
		ext2_sb_free_blocks_add(sb, -1);
		found = first + i;
		break;
	}
	mutex_unlock(&EXT2_SB(sb)->s_lock);
	brelse(bbh);
out_gd:
	brelse(gbh);
	return found;
}

uint32_t ext2_new_block(struct inode *inode, uint32_t goal, int *errp)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	const struct ext2_geometry *geo = &sbi->geo;
	uint32_t block = 0, group, from;
	int err = 0;

	if (goal < geo->first_data_block || goal >= geo->blocks_count)
		goal = ext2_group_first_block(geo, EXT2_I(inode)->i_block_group);
	group = (goal - geo->first_data_block) / geo->blocks_per_group;
	from = (goal - geo->first_data_block) % geo->blocks_per_group;
	for (uint32_t n = 0; n < geo->groups_count && !block; n++) {
		uint32_t g = (group + n) % geo->groups_count;
		int e = 0;
		block = ext2_try_group(sb, g, n ? 0 : from, &e);
		if (e && !err)
			err = e;
	}
	if (!block) {
		*errp = err ? err : -ENOSPC;
		return 0;
	}
	/* A block freed as metadata may still be cached in the device's mapping. */
	clean_bdev_aliases(sb->s_bdev, block, 1);
	*errp = 0;
	return block;
}

void ext2_free_blocks(struct inode *inode, uint32_t block, uint32_t count)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	const struct ext2_geometry *geo = &sbi->geo;

	if (block < geo->first_data_block || block + count > geo->blocks_count ||
	    block + count < block) {
		ext2_msg(sb, KERN_ERR, "freeing blocks not in the filesystem: %u+%u (inode %lu)",
			 (unsigned int)block, (unsigned int)count, inode->i_ino);
		return;
	}
	while (count) {
		uint32_t group = (block - geo->first_data_block) / geo->blocks_per_group;
		uint32_t first = ext2_group_first_block(geo, group), i = block - first;
		uint32_t n = min(count, ext2_group_blocks(geo, group) - i), freed = 0;
		struct buffer_head *gbh, *bbh;
		struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, &gbh);
		if (!gd)
			break;
		bbh = sb_bread(sb, le32_to_cpu(gd->bg_block_bitmap));
		if (!bbh) {
			ext2_msg(sb, KERN_ERR, "unable to read the block bitmap of group %u",
				 (unsigned int)group);
			brelse(gbh);
			break;
		}
		mutex_lock(&sbi->s_lock);
		for (uint32_t k = 0; k < n; k++) {
			if (ext2_is_group_metadata(geo, gd, block + k) || !ext2_test_bit(i + k, bbh->b_data)) {
				ext2_msg(sb, KERN_ERR, "freeing %s block %u (inode %lu): left as it is",
					 ext2_is_group_metadata(geo, gd, block + k) ? "a metadata" : "an already free",
					 (unsigned int)(block + k), inode->i_ino);
				continue;
			}
			ext2_clear_bit(i + k, bbh->b_data);
			freed++;
		}
		mark_buffer_dirty(bbh);
		gd->bg_free_blocks_count = cpu_to_le16((uint16_t)(le16_to_cpu(gd->bg_free_blocks_count) + freed));
		mark_buffer_dirty(gbh);
		ext2_sb_free_blocks_add(sb, (int)freed);
		mutex_unlock(&sbi->s_lock);
		brelse(bbh);
		brelse(gbh);
		block += n;
		count -= n;
	}
}
