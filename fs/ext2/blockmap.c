/*
 * blockmap.c - an ext2 file's block map: mapping a file block to a disk block (ext2_get_block,
 * allocating the data block and any missing indirect blocks when asked to), and freeing the
 * blocks past a new end of file (ext2_truncate_blocks).  Linux v6.10 fs/ext2/inode.c's
 * ext2_block_to_path / ext2_get_branch / ext2_alloc_branch / ext2_truncate_blocks, reduced.
 *
 * The map: i_data[0..11] name the first 12 blocks; i_data[12] an indirect block of
 * addr-per-block (block size / 4) numbers, i_data[13] a double-indirect block, i_data[14] a
 * triple-indirect one.  A 0 anywhere on the path is a hole.  Every block number read from the
 * disk is checked against the filesystem before it is used (the kernel never trusts a device):
 * one outside [s_first_data_block, s_blocks_count) is "inode N: block B out of range" and
 * -EUCLEAN, never a read or a free of it.
 * Allocation goal (Linux's ext2_find_goal, reduced): the block after the previous file block's,
 * else the first block of the inode's group; new indirect blocks are zeroed in the block
 * device's cache before they are linked in, so a crash never leaves garbage pointers.
 * i_blocks counts data and indirect blocks in 512-byte units, as on disk.
 * A freed indirect block may still have a dirty copy in the block device's cache: the block
 * allocator drops such copies (clean_bdev_aliases) before the block is used again, so a late
 * writeback never lands on another file's data.
 * Where tinymm differs from v6.10, and why: one block per get_block call and no reservation
 * windows: the buffer-head code merges consecutive blocks into one bio anyway.
 * Locking: the caller holds i_rwsem to change the map (the write path, truncation); reading it
 * needs only the folio lock of the caller.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "ext2.h"

/* The path to file block @i: offsets[] into i_data and then each indirect block; its depth
 * (1-4), or 0 if @i is beyond the triple-indirect limit. */
static int ext2_block_to_path(struct inode *inode, sector_t i, unsigned int offsets[4])
{
	const struct ext2_geometry *geo = &EXT2_SB(inode->i_sb)->geo;
	uint64_t ptrs = geo->addr_per_block, ptrs2 = ptrs * ptrs;
	unsigned int bits = geo->addr_per_block_bits;

	if (i < EXT2_NDIR_BLOCKS) {
		offsets[0] = (unsigned int)i;
		return 1;
	}
	i -= EXT2_NDIR_BLOCKS;
	if (i < ptrs) {
		offsets[0] = EXT2_IND_BLOCK;
		offsets[1] = (unsigned int)i;
		return 2;
	}
	i -= ptrs;
	if (i < ptrs2) {
		offsets[0] = EXT2_DIND_BLOCK;
		offsets[1] = (unsigned int)(i >> bits);
		offsets[2] = (unsigned int)(i & (ptrs - 1));
		return 3;
	}
	i -= ptrs2;
	if ((i >> (2 * bits)) < ptrs) {
		offsets[0] = EXT2_TIND_BLOCK;
		offsets[1] = (unsigned int)(i >> (2 * bits));
		offsets[2] = (unsigned int)((i >> bits) & (ptrs - 1));
		offsets[3] = (unsigned int)(i & (ptrs - 1));
		return 4;
	}
	return 0;
}

bool ext2_block_valid(struct super_block *sb, uint32_t block)
{
	const struct ext2_geometry *geo = &EXT2_SB(sb)->geo;

	return block >= geo->first_data_block && block < geo->blocks_count;
}

static int ext2_bad_block(struct inode *inode, uint32_t block, sector_t iblock)
{
	ext2_msg(inode->i_sb, KERN_ERR, "inode %lu: block %u out of range (file block %llu)",
		 inode->i_ino, (unsigned int)block, (unsigned long long)iblock);
	return -EUCLEAN;
}

static void slot_write(struct buffer_head *ind, unsigned int off, uint32_t block)
{
	((uint32_t *)ind->b_data)[off] = cpu_to_le32(block);
	mark_buffer_dirty(ind);
}

/* A new indirect block for @inode, zeroed and dirty in the device's cache: its number or 0. */
static uint32_t ext2_new_indirect(struct inode *inode, uint32_t goal, int *err)
{
	struct super_block *sb = inode->i_sb;
	uint32_t block = ext2_new_block(inode, goal, err);
	struct buffer_head *bh;

	if (!block)
		return 0;
	bh = sb_getblk(sb, block);
	if (!bh) {
		ext2_free_blocks(inode, block, 1);
		*err = -EIO;
		return 0;
	}
	memset(bh->b_data, 0, sb->s_blocksize);
	set_buffer_uptodate(bh);
	mark_buffer_dirty(bh);
	brelse(bh);
	inode->i_blocks += sb->s_blocksize >> 9;
	return block;
}

int ext2_get_block(struct inode *inode, sector_t iblock, struct buffer_head *bh, int create)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_inode_info *ei = EXT2_I(inode);
	unsigned int offsets[4] = { 0 };
	int depth = ext2_block_to_path(inode, iblock, offsets), err = 0;
	struct buffer_head *ind = NULL;
	uint32_t *slot, block, goal;

	if (!depth) {
		ext2_msg(sb, KERN_WARNING, "inode %lu: block %llu is beyond the triple-indirect limit",
			 inode->i_ino, (unsigned long long)iblock);
		return -EFBIG;
	}
	slot = &ei->i_data[offsets[0]];
	block = *slot;
	/* Goal: right after the previous file block, else the start of the inode's group. */
	goal = ext2_group_first_block(&EXT2_SB(sb)->geo, ei->i_block_group);
	for (int d = 0; d < depth; d++) {
		bool last = d == depth - 1;
		if (!block) {
			if (!create)
				goto out;	/* a hole */
			block = last ? ext2_new_block(inode, goal, &err) : ext2_new_indirect(inode, goal, &err);
			if (!block)
				goto out;
			if (last)
				inode->i_blocks += sb->s_blocksize >> 9;
			if (ind) {
				slot_write(ind, offsets[d], block);
			} else {
				*slot = block;
			}
			mark_inode_dirty(inode);
			if (last)
				set_buffer_new(bh);
		} else if (!ext2_block_valid(sb, block)) {
			err = ext2_bad_block(inode, block, iblock);
			goto out;
		}
		goal = block + 1;
		if (last)
			break;
		brelse(ind);
		ind = sb_bread(sb, block);
		if (!ind) {
			err = -EIO;
			goto out;
		}
		block = le32_to_cpu(((const uint32_t *)ind->b_data)[offsets[d + 1]]);
	}
	map_bh(bh, sb, block);
out:
	brelse(ind);
	return err;
}

/*
 * Free the subtree at @block: @depth 0 is a data block, @depth d >= 1 an indirect block whose
 * entries are subtrees of depth d - 1.  Only the file blocks at index @from and after (within
 * the subtree's span) go; true if the whole subtree went, so the caller clears its pointer.
 */
static bool ext2_free_tree(struct inode *inode, uint32_t block, int depth, uint64_t from)
{
	struct super_block *sb = inode->i_sb;
	uint64_t ptrs = EXT2_SB(sb)->geo.addr_per_block, per = 1;
	struct buffer_head *ind;

	if (!ext2_block_valid(sb, block)) {
		ext2_bad_block(inode, block, 0);
		return false;		/* never free what is not ours; the pointer stays */
	}
	if (depth == 0) {
		ext2_free_blocks(inode, block, 1);
		inode->i_blocks -= min(inode->i_blocks, (uint64_t)(sb->s_blocksize >> 9));
		return true;
	}
	for (int d = 1; d < depth; d++)
		per *= ptrs;
	ind = sb_bread(sb, block);
	if (!ind) {
		ext2_msg(sb, KERN_ERR, "inode %lu: unable to read indirect block %u: its blocks stay allocated",
			 inode->i_ino, (unsigned int)block);
		return false;
	}
	bool all = true;
	for (uint64_t k = from / per; k < ptrs; k++) {
		uint32_t e = le32_to_cpu(((const uint32_t *)ind->b_data)[k]);
		uint64_t sub = k == from / per ? from % per : 0;
		if (!e)
			continue;
		if (ext2_free_tree(inode, e, depth - 1, sub))
			slot_write(ind, (unsigned int)k, 0);	/* even in a block about to go:
								 * a failure below may keep it */
		else
			all = false;
	}
	brelse(ind);
	if (from || !all)
		return false;
	ext2_free_blocks(inode, block, 1);
	inode->i_blocks -= min(inode->i_blocks, (uint64_t)(sb->s_blocksize >> 9));
	return true;
}

void ext2_truncate_blocks(struct inode *inode, loff_t size)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	const struct ext2_geometry *geo = &EXT2_SB(inode->i_sb)->geo;
	uint64_t ptrs = geo->addr_per_block, bs = geo->block_size;
	uint64_t first = ((uint64_t)size + bs - 1) / bs, start = EXT2_NDIR_BLOCKS, span = ptrs;

	for (uint64_t i = first; i < EXT2_NDIR_BLOCKS; i++) {
		if (ei->i_data[i] && ext2_free_tree(inode, ei->i_data[i], 0, 0))
			ei->i_data[i] = 0;
	}
	/* The three trees: file blocks [start, start + span) each. */
	for (int t = 0; t < 3; t++, start += span, span *= ptrs) {
		uint32_t *root = &ei->i_data[EXT2_IND_BLOCK + t];
		if (*root && first < start + span &&
		    ext2_free_tree(inode, *root, t + 1, first > start ? first - start : 0))
			*root = 0;
	}
	mark_inode_dirty(inode);
}
