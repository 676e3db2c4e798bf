/*
 * super_check.h - validating an ext2 superblock and its group descriptors before anything
 * trusts them (fs/ext2/super_check.c), and the geometry the rest of ext2 computes with.
 * Included by ext2_fs.h; portable (host-tested in tests/host/ext2_super_test.c).
 */
#ifndef TINYMM_FS_EXT2_SUPER_CHECK_H
#define TINYMM_FS_EXT2_SUPER_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ext2_super_block;
struct ext2_group_desc;

/* Block and inode numbers are 32 bits on disk; unsigned int is 32 bits on every target. */
_Static_assert(sizeof(unsigned int) == 4, "ext2 block numbers in unsigned int");

/*
 * What a checked superblock says, in CPU byte order: Linux keeps the same in ext2_sb_info
 * (names in parentheses).  Filled by ext2_check_super(); read-only afterwards.
 */
struct ext2_geometry {
	unsigned int block_size;	/* bytes: 1024, 2048 or 4096 (sb->s_blocksize) */
	unsigned int log_block_size;	/* log2(block_size): 10..12 (s_blocksize_bits) */
	unsigned int blocks_count;	/* s_blocks_count */
	unsigned int inodes_count;	/* s_inodes_count */
	unsigned int first_data_block;	/* 1 with 1 KiB blocks, else 0; also the superblock's block */
	unsigned int blocks_per_group;	/* s_blocks_per_group */
	unsigned int inodes_per_group;	/* s_inodes_per_group */
	unsigned int groups_count;	/* s_groups_count: the last group may be shorter */
	unsigned int inode_size;	/* s_inode_size: 128 in revision 0 */
	unsigned int first_ino;		/* s_first_ino: first non-reserved inode (11 in revision 0) */
	unsigned int inodes_per_block;	/* s_inodes_per_block */
	unsigned int itb_per_group;	/* s_itb_per_group: inode table blocks per group */
	unsigned int desc_per_block;	/* s_desc_per_block: block_size / 32 */
	unsigned int gdb_count;		/* s_gdb_count: descriptor blocks after the superblock */
	unsigned int reserved_gdt_blocks;	/* resize_inode's blocks after them (0 without it) */
	unsigned int addr_per_block;	/* block numbers per indirect block: block_size / 4 */
	unsigned int addr_per_block_bits;	/* s_addr_per_block_bits */
	unsigned int backup_bgs[2];	/* sparse_super2's backup groups (0: none) */
	unsigned int rev_level;		/* s_rev_level */
	unsigned int feature_compat;	/* the three feature words as on disk */
	unsigned int feature_incompat;
	unsigned int feature_ro_compat;
	uint16_t state;			/* s_state at mount (s_mount_state): EXT2_VALID_FS... */
	uint16_t errors;		/* s_errors: EXT2_ERRORS_* (other values: as RO, Linux) */
	unsigned int flags;		/* EXT2_GEO_* */
	uint64_t max_bytes;		/* the largest file (sb->s_maxbytes, ext2_max_size()) */
};

/* geo->flags: what the mount should do or say (Linux's words in ext2_mount_warning()). */
#define EXT2_GEO_RDONLY		0x1	/* mountable read-only only (the reason is in err) */
#define EXT2_GEO_NOT_CLEAN	0x2	/* s_state lacks EXT2_VALID_FS: unchecked after a crash */
#define EXT2_GEO_HAS_ERRORS	0x4	/* s_state has EXT2_ERROR_FS */
#define EXT2_GEO_REV0_FEATURES	0x8	/* feature bits set on a revision 0 filesystem */

/* ext2_check_super()'s positive result: valid, but mountable read-only only. */
#define EXT2_MOUNT_READONLY	1

/*
 * ext2_check_super - validate the superblock @es (the 1024 bytes at byte 1024 of a device of
 * @dev_bytes bytes) as v6.10's ext2_fill_super() does and more, and fill @geo.
 * Returns 0 (mount read-write), EXT2_MOUNT_READONLY (a read-only mount only: @err names the
 * feature or revision why), -EINVAL (corrupt, or not ext2) or -EOPNOTSUPP (a valid ext2 that
 * tinymm cannot mount: an incompat feature, blocks above PAGE_SIZE).  @err (if @errlen) gets
 * one line without a newline, "" on 0.  @geo is filled on 0 and EXT2_MOUNT_READONLY.
 */
int ext2_check_super(const struct ext2_super_block *es, uint64_t dev_bytes,
		     struct ext2_geometry *geo, char *err, size_t errlen);

/*
 * ext2_check_group_desc - validate group @group's descriptor @gd against @geo: bitmaps and
 * inode table inside the group, clear of its superblock and descriptor copy and of each
 * other; free block, free inode and directory counts possible.  0 or -EINVAL with @err.
 */
int ext2_check_group_desc(const struct ext2_geometry *geo, unsigned int group,
			  const struct ext2_group_desc *gd, char *err, size_t errlen);

/*
 * ext2_check_descriptors - ext2_check_group_desc() for each of @ngroups descriptors in
 * @gd[] (the descriptor blocks' contents in a row); @ngroups must be geo->groups_count.
 * 0, or -EINVAL with the first problem in @err.
 */
int ext2_check_descriptors(const struct ext2_geometry *geo, const struct ext2_group_desc *gd,
			   unsigned int ngroups, char *err, size_t errlen);

/* First and last block of @group (Linux's ext2_group_first_block_no/_last_block_no). */
unsigned int ext2_group_first_block(const struct ext2_geometry *geo, unsigned int group);
unsigned int ext2_group_last_block(const struct ext2_geometry *geo, unsigned int group);

/*
 * Does @group start with a superblock and descriptor copy (Linux's ext2_bg_has_super)?
 * Every group without sparse_super; groups 0, 1 and powers of 3, 5, 7 with it; group 0 and
 * the two backup groups with sparse_super2.
 */
bool ext2_group_has_super(const struct ext2_geometry *geo, unsigned int group);

/* The block holding descriptor block @n (0..gdb_count-1): right after the superblock's. */
unsigned int ext2_descriptor_block(const struct ext2_geometry *geo, unsigned int n);

/* The group holding inode @ino (1-based) and its index in the descriptor table. */
unsigned int ext2_inode_group(const struct ext2_geometry *geo, unsigned int ino);

/*
 * ext2_inode_location - where inode @ino is, given its group's bg_inode_table
 * @gd_inode_table (ext2_inode_group() says which group): *@block and the byte *@offset in it.
 * -EINVAL for inode 0 or beyond s_inodes_count.
 */
int ext2_inode_location(const struct ext2_geometry *geo, unsigned int gd_inode_table,
			unsigned int ino, unsigned int *block, unsigned int *offset);

enum ext2_feature_kind { EXT2_COMPAT, EXT2_RO_COMPAT, EXT2_INCOMPAT };

/* e2fsprogs' name of the feature bit @mask of @kind ("extent"), NULL if it has none. */
const char *ext2_feature_name(enum ext2_feature_kind kind, unsigned int mask);

/*
 * Linux's warning for geo->state at mount ("warning: mounting unchecked fs, running e2fsck is
 * recommended" / "... fs with errors ..."), NULL when the filesystem is clean.
 */
const char *ext2_mount_warning(const struct ext2_geometry *geo);

#endif
