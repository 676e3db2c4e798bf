/*
 * super_check.c - the mount-time checks of an ext2 filesystem: the superblock
 * (ext2_check_super) and the group descriptors (ext2_check_descriptors), each problem one
 * line in the caller's buffer, and the geometry helpers every other ext2 file computes with
 * (group boundaries, superblock backups, descriptor and inode locations).
 *
 * The kernel never trusts a device: after these checks every block number the descriptors
 * give is inside the filesystem and the device, and every count the rest of ext2 divides by or
 * loops over is nonzero and bounded.  They follow v6.10's ext2_fill_super() and
 * ext2_check_descriptors() and add, where a Linux mount would go on with a corrupt image:
 * 1 KiB-block filesystems must start at block 1 (others at 0); inodes per group a whole number
 * of inode-table blocks; the superblock's and descriptors' copy in group 0 inside it; bitmaps
 * and inode tables clear of the group's superblock copy and of each other; per-group free
 * counts no larger than what the group's metadata leaves.
 *
 * Results: -EINVAL for a corrupt image (as Linux's mount), -EOPNOTSUPP for a valid one tinymm
 * does not implement (Linux says -EINVAL there too; tinymm's caller can tell "broken" from
 * "not here"), EXT2_MOUNT_READONLY where Linux allows only a read-only mount.
 * Locking: none (pure functions of their arguments).
 */
#include <stdarg.h>
#include "ext2_fs.h"
#include "tinymm/errno.h"
#include "tinymm/kernel.h"
#include "tinymm/printk.h"

/* Put the one-line reason in @err (when there is room for one) and return @ret. */
static __printf(4, 5) int fail(int ret, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		kvsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static unsigned int div_round_up(unsigned int n, unsigned int d)
{
	return n / d + (n % d != 0);
}

/* ---- feature names, as e2fsprogs' lib/e2p/feature.c spells them ---- */

static const char *const compat_names[32] = {
	[0] = "dir_prealloc", [1] = "imagic_inodes", [2] = "has_journal", [3] = "ext_attr",
	[4] = "resize_inode", [5] = "dir_index", [6] = "lazy_bg", [8] = "snapshot_bitmap",
	[9] = "sparse_super2", [10] = "fast_commit", [11] = "stable_inodes", [12] = "orphan_file",
};

static const char *const ro_compat_names[32] = {
	[0] = "sparse_super", [1] = "large_file", [3] = "huge_file", [4] = "uninit_bg",
	[5] = "dir_nlink", [6] = "extra_isize", [8] = "quota", [9] = "bigalloc",
	[10] = "metadata_csum", [11] = "replica", [12] = "read-only", [13] = "project",
	[14] = "shared_blocks", [15] = "verity", [16] = "orphan_present",
};

static const char *const incompat_names[32] = {
	[0] = "compression", [1] = "filetype", [2] = "needs_recovery", [3] = "journal_dev",
	[4] = "meta_bg", [6] = "extent", [7] = "64bit", [8] = "mmp", [9] = "flex_bg",
	[10] = "ea_inode", [12] = "dirdata", [13] = "metadata_csum_seed", [14] = "large_dir",
	[15] = "inline_data", [16] = "encrypt", [17] = "casefold",
};

const char *ext2_feature_name(enum ext2_feature_kind kind, unsigned int mask)
{
	const char *const *names = kind == EXT2_COMPAT ? compat_names :
				   kind == EXT2_RO_COMPAT ? ro_compat_names : incompat_names;

	if (mask == 0 || (mask & (mask - 1)))
		return NULL;
	return names[__builtin_ctz(mask)];
}

/*
 * "ext2: unsupported feature incompat 0x40 (extent)" for the lowest bit of @unsupported; a
 * bit e2fsprogs has no name for is named as it prints it, FEATURE_I<bit> / FEATURE_R<bit>.
 */
static void describe_feature(char *buf, size_t len, enum ext2_feature_kind kind,
			     unsigned int unsupported, const char *outcome)
{
	unsigned int bit = unsupported & -unsupported;
	const char *name = ext2_feature_name(kind, bit);
	const char *word = kind == EXT2_INCOMPAT ? "incompat" : "ro_compat";

	if (name)
		ksnprintf(buf, len, "ext2: unsupported feature %s 0x%x (%s): %s", word,
			  (unsigned int)bit, name, outcome);
	else
		ksnprintf(buf, len, "ext2: unsupported feature %s 0x%x (FEATURE_%c%d): %s", word,
			  (unsigned int)bit, kind == EXT2_INCOMPAT ? 'I' : 'R',
			  __builtin_ctz(bit), outcome);
}

/*
 * Linux's ext2_max_size(): the largest file the block tree addresses, further limited by
 * i_blocks (2^32 - 1 sectors, indirect blocks included).  For 1..4 KiB blocks this stays
 * below MAX_LFS_FILESIZE on every tinymm target, so that clamp is left out.
 */
static uint64_t ext2_max_size(unsigned int bits)
{
	unsigned int ppb = 1U << (bits - 2);
	uint64_t res = EXT2_NDIR_BLOCKS;
	unsigned int upper_limit = 0xffffffffU >> (bits - 9);	/* blocks i_blocks can count */
	unsigned int meta_blocks;

	res += (uint64_t)ppb;
	res += (uint64_t)ppb * ppb;
	res += (uint64_t)ppb * ppb * ppb;
	meta_blocks = 1 + (1 + ppb) + (1 + ppb + ppb * ppb);
	if (res + meta_blocks <= upper_limit)
		return res << bits;

	/* i_blocks is the limit: take away the indirect blocks that many data blocks need. */
	res = upper_limit;
	upper_limit -= EXT2_NDIR_BLOCKS;
	meta_blocks = 1;
	upper_limit -= ppb;
	if (upper_limit < ppb * ppb) {
		meta_blocks += 1 + div_round_up(upper_limit, ppb);
		return (res - meta_blocks) << bits;
	}
	meta_blocks += 1 + ppb;
	upper_limit -= ppb * ppb;
	meta_blocks += 1 + div_round_up(upper_limit, ppb) +
		       div_round_up(upper_limit, ppb * ppb);
	return (res - meta_blocks) << bits;
}

static bool is_power_of_2_u32(unsigned int v)
{
	return v && !(v & (v - 1));
}

/* The inode size and first inode a revision 1 superblock gives (revision 0 fixes both). */
static int check_inode_format(const struct ext2_super_block *es, struct ext2_geometry *geo,
			      char *err, size_t errlen)
{
	if (geo->rev_level == EXT2_GOOD_OLD_REV) {
		geo->inode_size = EXT2_GOOD_OLD_INODE_SIZE;
		geo->first_ino = EXT2_GOOD_OLD_FIRST_INO;
		return 0;
	}
	geo->inode_size = le16_to_cpu(es->s_inode_size);
	geo->first_ino = le32_to_cpu(es->s_first_ino);
	if (geo->inode_size < EXT2_GOOD_OLD_INODE_SIZE || !is_power_of_2_u32(geo->inode_size) ||
	    geo->inode_size > geo->block_size)
		return fail(-EINVAL, err, errlen,
			    "ext2: unsupported inode size %u (a power of two from 128 to the %u-byte block)",
			    geo->inode_size, geo->block_size);
	if (geo->first_ino < EXT2_GOOD_OLD_FIRST_INO)
		return fail(-EINVAL, err, errlen, "ext2: first inode %u below %u",
			    geo->first_ino, EXT2_GOOD_OLD_FIRST_INO);
	return 0;
}

/* Blocks and inodes per group: nonzero, one bitmap block each, whole inode-table blocks. */
static int check_group_sizes(struct ext2_geometry *geo, char *err, size_t errlen)
{
	unsigned int bits = geo->block_size * 8;

	if (geo->blocks_per_group == 0 || geo->blocks_per_group > bits)
		return fail(-EINVAL, err, errlen,
			    "ext2: blocks per group %u not in 1..%u (one bitmap block)",
			    geo->blocks_per_group, bits);
	if (geo->inodes_per_group == 0 || geo->inodes_per_group > bits)
		return fail(-EINVAL, err, errlen,
			    "ext2: inodes per group %u not in 1..%u (one bitmap block)",
			    geo->inodes_per_group, bits);
	if (geo->inodes_per_group % geo->inodes_per_block)
		return fail(-EINVAL, err, errlen,
			    "ext2: inodes per group %u not a multiple of %u inodes per block",
			    geo->inodes_per_group, geo->inodes_per_block);
	geo->itb_per_group = geo->inodes_per_group / geo->inodes_per_block;
	/* At least the inode table, two bitmaps and a superblock fit in a group (v6.10). */
	if (geo->blocks_per_group <= geo->itb_per_group + 3)
		return fail(-EINVAL, err, errlen,
			    "ext2: blocks per group %u too small for %u inode table blocks",
			    geo->blocks_per_group, geo->itb_per_group);
	return 0;
}

/* Block count against the device, group count, inode count, descriptors in group 0. */
static int check_extent(const struct ext2_super_block *es, uint64_t dev_bytes,
			struct ext2_geometry *geo, char *err, size_t errlen)
{
	unsigned int expect_first = geo->block_size == 1024 ? 1 : 0;
	uint64_t dev_blocks = dev_bytes >> geo->log_block_size;
	unsigned int group0_len, group0_meta;

	if (geo->first_data_block != expect_first)
		return fail(-EINVAL, err, errlen,
			    "ext2: first data block %u, expected %u with %u-byte blocks",
			    geo->first_data_block, expect_first, geo->block_size);
	if (geo->blocks_count <= geo->first_data_block)
		return fail(-EINVAL, err, errlen, "ext2: block count %u leaves no block groups",
			    geo->blocks_count);
	if (dev_blocks < geo->blocks_count)
		return fail(-EINVAL, err, errlen,
			    "ext2: block count %u exceeds size of device (%llu blocks)",
			    geo->blocks_count, (unsigned long long)dev_blocks);

	geo->groups_count = (geo->blocks_count - geo->first_data_block - 1) /
			    geo->blocks_per_group + 1;
	if ((uint64_t)geo->groups_count * geo->inodes_per_group != geo->inodes_count)
		return fail(-EINVAL, err, errlen,
			    "ext2: inode count %u disagrees with %u groups of %u inodes",
			    geo->inodes_count, geo->groups_count, geo->inodes_per_group);
	if (geo->first_ino > geo->inodes_count)
		return fail(-EINVAL, err, errlen, "ext2: first inode %u beyond the %u inodes",
			    geo->first_ino, geo->inodes_count);

	geo->desc_per_block = geo->block_size / sizeof(struct ext2_group_desc);
	geo->gdb_count = div_round_up(geo->groups_count, geo->desc_per_block);
	if (geo->feature_compat & EXT2_FEATURE_COMPAT_RESIZE_INO)
		geo->reserved_gdt_blocks = le16_to_cpu(es->s_reserved_gdt_blocks);
	/* Group 0 holds the superblock, all descriptor blocks, two bitmaps and a table. */
	group0_len = min(geo->blocks_per_group, geo->blocks_count - geo->first_data_block);
	group0_meta = 1 + geo->gdb_count + geo->reserved_gdt_blocks + 2 + geo->itb_per_group;
	if (group0_meta > group0_len)
		return fail(-EINVAL, err, errlen,
			    "ext2: %u descriptor and %u reserved blocks do not fit in group 0 (%u blocks)",
			    geo->gdb_count, geo->reserved_gdt_blocks, group0_len);
	return 0;
}

int ext2_check_super(const struct ext2_super_block *es, uint64_t dev_bytes,
		     struct ext2_geometry *geo, char *err, size_t errlen)
{
	char ro_reason[128] = "";
	unsigned int unsupported, log, frag_log;
	uint16_t magic = le16_to_cpu(es->s_magic);
	int ret;

	if (errlen)
		err[0] = '\0';
	*geo = (struct ext2_geometry){ 0 };
	if (magic != EXT2_SUPER_MAGIC)
		return fail(-EINVAL, err, errlen,
			    "ext2: bad magic 0x%04x (expected 0x%04x): not an ext2 filesystem",
			    magic, EXT2_SUPER_MAGIC);

	geo->rev_level = le32_to_cpu(es->s_rev_level);
	geo->feature_compat = le32_to_cpu(es->s_feature_compat);
	geo->feature_incompat = le32_to_cpu(es->s_feature_incompat);
	geo->feature_ro_compat = le32_to_cpu(es->s_feature_ro_compat);
	/* Checked whatever the revision, as Linux: old tools set features without raising it. */
	unsupported = geo->feature_incompat & EXT2_FEATURE_INCOMPAT_UNSUPPORTED;
	if (unsupported) {
		if (errlen)
			describe_feature(err, errlen, EXT2_INCOMPAT, unsupported, "mount refused");
		return -EOPNOTSUPP;
	}
	unsupported = geo->feature_ro_compat & EXT2_FEATURE_RO_COMPAT_UNSUPPORTED;
	if (unsupported)
		describe_feature(ro_reason, sizeof(ro_reason), EXT2_RO_COMPAT, unsupported,
				 "read-only");
	else if (geo->rev_level > EXT2_MAX_SUPP_REV)	/* ext2_setup_super(): forced read-only */
		ksnprintf(ro_reason, sizeof(ro_reason), "ext2: revision level %u too high: read-only",
			  geo->rev_level);
	if (geo->rev_level == EXT2_GOOD_OLD_REV &&
	    (geo->feature_compat | geo->feature_incompat | geo->feature_ro_compat))
		geo->flags |= EXT2_GEO_REV0_FEATURES;

	log = le32_to_cpu(es->s_log_block_size);
	if (log > EXT2_MAX_BLOCK_LOG_SIZE - EXT2_MIN_BLOCK_LOG_SIZE)
		return fail(-EINVAL, err, errlen, "ext2: invalid log block size %u", log);
	geo->log_block_size = EXT2_MIN_BLOCK_LOG_SIZE + log;
	geo->block_size = 1U << geo->log_block_size;
	if (geo->block_size > PAGE_SIZE)
		return fail(-EOPNOTSUPP, err, errlen,
			    "ext2: block size %u larger than the page size %lu: mount refused",
			    geo->block_size, PAGE_SIZE);
	frag_log = le32_to_cpu(es->s_log_frag_size);
	if (frag_log != log)
		return fail(-EINVAL, err, errlen, "ext2: fragment size log %u != block size log %u",
			    frag_log, log);

	ret = check_inode_format(es, geo, err, errlen);
	if (ret)
		return ret;
	geo->inodes_per_block = geo->block_size / geo->inode_size;
	geo->blocks_per_group = le32_to_cpu(es->s_blocks_per_group);
	geo->inodes_per_group = le32_to_cpu(es->s_inodes_per_group);
	ret = check_group_sizes(geo, err, errlen);
	if (ret)
		return ret;

	geo->blocks_count = le32_to_cpu(es->s_blocks_count);
	geo->inodes_count = le32_to_cpu(es->s_inodes_count);
	geo->first_data_block = le32_to_cpu(es->s_first_data_block);
	ret = check_extent(es, dev_bytes, geo, err, errlen);
	if (ret)
		return ret;

	if (geo->feature_compat & EXT4_FEATURE_COMPAT_SPARSE_SUPER2) {
		geo->backup_bgs[0] = le32_to_cpu(es->s_reserved[EXT2_S_BACKUP_BGS_IDX]);
		geo->backup_bgs[1] = le32_to_cpu(es->s_reserved[EXT2_S_BACKUP_BGS_IDX + 1]);
	}
	geo->addr_per_block = geo->block_size / 4;
	geo->addr_per_block_bits = geo->log_block_size - 2;
	geo->max_bytes = ext2_max_size(geo->log_block_size);
	geo->state = le16_to_cpu(es->s_state);
	geo->errors = le16_to_cpu(es->s_errors);
	if (!(geo->state & EXT2_VALID_FS))
		geo->flags |= EXT2_GEO_NOT_CLEAN;
	if (geo->state & EXT2_ERROR_FS)
		geo->flags |= EXT2_GEO_HAS_ERRORS;

	if (ro_reason[0]) {
		geo->flags |= EXT2_GEO_RDONLY;
		if (errlen)
			ksnprintf(err, errlen, "%s", ro_reason);
		return EXT2_MOUNT_READONLY;
	}
	return 0;
}

const char *ext2_mount_warning(const struct ext2_geometry *geo)
{
	/* ext2_setup_super()'s order: an unclean state hides the error bit. */
	if (geo->flags & EXT2_GEO_NOT_CLEAN)
		return "warning: mounting unchecked fs, running e2fsck is recommended";
	if (geo->flags & EXT2_GEO_HAS_ERRORS)
		return "warning: mounting fs with errors, running e2fsck is recommended";
	return NULL;
}

/* ---- geometry helpers ---- */

unsigned int ext2_group_first_block(const struct ext2_geometry *geo, unsigned int group)
{
	return geo->first_data_block + group * geo->blocks_per_group;
}

unsigned int ext2_group_last_block(const struct ext2_geometry *geo, unsigned int group)
{
	if (group == geo->groups_count - 1)
		return geo->blocks_count - 1;
	return ext2_group_first_block(geo, group) + geo->blocks_per_group - 1;
}

/* Is @n a power of @base (base^1 and up)? */
static bool is_power_of(unsigned int n, unsigned int base)
{
	uint64_t p = base;

	while (p < n)
		p *= base;
	return p == n;
}

bool ext2_group_has_super(const struct ext2_geometry *geo, unsigned int group)
{
	if (group == 0)
		return true;
	if (geo->feature_compat & EXT4_FEATURE_COMPAT_SPARSE_SUPER2)
		return group == geo->backup_bgs[0] || group == geo->backup_bgs[1];
	if (group == 1 || !(geo->feature_ro_compat & EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER))
		return true;
	if (!(group & 1))
		return false;
	return is_power_of(group, 3) || is_power_of(group, 5) || is_power_of(group, 7);
}

unsigned int ext2_descriptor_block(const struct ext2_geometry *geo, unsigned int n)
{
	/* The superblock's block is first_data_block (byte 1024 is block 1 only in 1 KiB blocks). */
	return geo->first_data_block + 1 + n;
}

unsigned int ext2_inode_group(const struct ext2_geometry *geo, unsigned int ino)
{
	return (ino - 1) / geo->inodes_per_group;
}

int ext2_inode_location(const struct ext2_geometry *geo, unsigned int gd_inode_table,
			unsigned int ino, unsigned int *block, unsigned int *offset)
{
	unsigned int index;

	if (ino == 0 || ino > geo->inodes_count)
		return -EINVAL;
	index = (ino - 1) % geo->inodes_per_group;
	*block = gd_inode_table + index / geo->inodes_per_block;
	*offset = (index % geo->inodes_per_block) * geo->inode_size;
	return 0;
}

/* ---- group descriptors ---- */

/* Is @block inside [@start, @start + @len)? */
static bool in_range(unsigned int block, unsigned int start, unsigned int len)
{
	return block >= start && block - start < len;
}

/* Inodes 1..first_ino-1 are reserved and always marked in use: how many fall in @group? */
static unsigned int reserved_inodes_in(const struct ext2_geometry *geo, unsigned int group)
{
	uint64_t lo = (uint64_t)group * geo->inodes_per_group + 1;
	uint64_t hi = lo + geo->inodes_per_group - 1;
	uint64_t last_reserved = geo->first_ino - 1;

	if (last_reserved < lo)
		return 0;
	return (unsigned int)(min(hi, last_reserved) - lo + 1);
}

int ext2_check_group_desc(const struct ext2_geometry *geo, unsigned int group,
			  const struct ext2_group_desc *gd, char *err, size_t errlen)
{
	unsigned int first = ext2_group_first_block(geo, group);
	unsigned int last = ext2_group_last_block(geo, group);
	unsigned int len = last - first + 1;
	unsigned int bb = le32_to_cpu(gd->bg_block_bitmap);
	unsigned int ib = le32_to_cpu(gd->bg_inode_bitmap);
	unsigned int it = le32_to_cpu(gd->bg_inode_table);
	unsigned int itb = geo->itb_per_group;
	unsigned int sb_copy = ext2_group_has_super(geo, group) ?
			   1 + geo->gdb_count + geo->reserved_gdt_blocks : 0;
	unsigned int free_blocks = le16_to_cpu(gd->bg_free_blocks_count);
	unsigned int free_inodes = le16_to_cpu(gd->bg_free_inodes_count);
	unsigned int dirs = le16_to_cpu(gd->bg_used_dirs_count);
	unsigned int usable_inodes = geo->inodes_per_group - reserved_inodes_in(geo, group);

	/* v6.10's three checks, last group's shorter length included. */
	if (!in_range(bb, first, len))
		return fail(-EINVAL, err, errlen,
			    "ext2: block bitmap for group %u not in group (block %u)", group, bb);
	if (!in_range(ib, first, len))
		return fail(-EINVAL, err, errlen,
			    "ext2: inode bitmap for group %u not in group (block %u)", group, ib);
	if (!in_range(it, first, len) || (uint64_t)it + itb - 1 > last)
		return fail(-EINVAL, err, errlen,
			    "ext2: inode table for group %u not in group (blocks %u-%llu, group %u-%u)",
			    group, it, (unsigned long long)it + itb - 1, first, last);

	/* tinymm's: nothing on top of the superblock copy or of each other. */
	if (in_range(bb, first, sb_copy) || in_range(ib, first, sb_copy) ||
	    in_range(it, first, sb_copy))
		return fail(-EINVAL, err, errlen,
			    "ext2: group %u's bitmaps or inode table overlap its %u superblock and descriptor blocks",
			    group, sb_copy);
	if (bb == ib || in_range(bb, it, itb) || in_range(ib, it, itb))
		return fail(-EINVAL, err, errlen,
			    "ext2: group %u's block bitmap %u, inode bitmap %u and inode table %u overlap",
			    group, bb, ib, it);

	/* The counts: what the metadata leaves (the bitmaps mark it used, so no more is free). */
	if (free_blocks > len - sb_copy - 2 - itb)
		return fail(-EINVAL, err, errlen,
			    "ext2: free blocks count %u of group %u above its %u non-metadata blocks",
			    free_blocks, group, len - sb_copy - 2 - itb);
	if (free_inodes > usable_inodes)
		return fail(-EINVAL, err, errlen,
			    "ext2: free inodes count %u of group %u above its %u unreserved inodes",
			    free_inodes, group, usable_inodes);
	if (dirs > geo->inodes_per_group - free_inodes)
		return fail(-EINVAL, err, errlen,
			    "ext2: directory count %u of group %u above its %u used inodes",
			    dirs, group, geo->inodes_per_group - free_inodes);
	return 0;
}

int ext2_check_descriptors(const struct ext2_geometry *geo, const struct ext2_group_desc *gd,
			   unsigned int ngroups, char *err, size_t errlen)
{
	if (errlen)
		err[0] = '\0';
	if (ngroups != geo->groups_count)
		return fail(-EINVAL, err, errlen, "ext2: %u group descriptors for %u groups",
			    ngroups, geo->groups_count);
	for (unsigned int g = 0; g < ngroups; g++) {
		int ret = ext2_check_group_desc(geo, g, &gd[g], err, errlen);

		if (ret)
			return ret;
	}
	return 0;
}
