/*
 * ext2_super_test.c - fs/ext2/super_check.c against filesystems Debian's mke2fs makes at test
 * time, judged by what dumpe2fs and debugfs (tools no one here wrote) read from the same
 * image: block and group geometry, feature names, each group's bitmaps, table and superblock
 * copy, inode locations.  Then one corruption per check, each refused with its one-line
 * reason, and the boundary just inside each count accepted (so every check can fail both ways).
 * The tools are run through tests/host/e2fsprogs.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ext2_fs.h"
#include "tinymm/errno.h"
#include "tinymm/stat.h"
#include "e2fsprogs.h"

struct image {
	struct ext2_super_block sb;
	uint64_t bytes;
	struct ext2_group_desc gd[MAX_GROUPS];
};

static void read_at(const char *path, void *buf, size_t len, uint64_t off)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, len, (off_t)off), (ssize_t)len);
	close(fd);
}

static void load(const char *path, struct image *im)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	im->bytes = (uint64_t)st.st_size;
	read_at(path, &im->sb, sizeof(im->sb), EXT2_SB_OFFSET);
}

/* The descriptors, from the blocks ext2_descriptor_block() names. */
static void load_descriptors(const char *path, const struct ext2_geometry *geo, struct image *im)
{
	assert_true(geo->groups_count <= MAX_GROUPS);
	read_at(path, im->gd, geo->groups_count * sizeof(struct ext2_group_desc),
		(uint64_t)ext2_descriptor_block(geo, 0) * geo->block_size);
}

static void write_sb(const char *path, const struct ext2_super_block *sb)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, sb, sizeof(*sb), EXT2_SB_OFFSET), (ssize_t)sizeof(*sb));
	close(fd);
}

/* Each feature bit the geometry holds, by our name, is in dumpe2fs's list, and as many. */
static void assert_features_match(const struct ext2_geometry *geo, const char *features)
{
	const uint32_t words[3] = { geo->feature_compat, geo->feature_ro_compat, geo->feature_incompat };
	unsigned int ours = 0, theirs = 0;
	char want[64];

	for (int k = 0; k < 3; k++)
		for (int bit = 0; bit < 32; bit++) {
			const char *name;

			if (!(words[k] & (1U << bit)))
				continue;
			name = ext2_feature_name((enum ext2_feature_kind)k, 1U << bit);
			assert_non_null(name);
			snprintf(want, sizeof(want), " %s ", name);
			if (!strstr(features, want)) {
				fprintf(stderr, "'%s' not in dumpe2fs's '%s'\n", name, features);
				fail();
			}
			ours++;
		}
	if (strcmp(features, " (none) ") != 0)
		for (const char *p = features; *p; p++)
			theirs += p[0] == ' ' && p[1] && p[1] != ' ';
	assert_int_equal(ours, theirs);
}

/*
 * The root directory, read where ext2_inode_location() says through struct ext2_inode: a
 * directory (mke2fs's 0755), three links (., .., lost+found's ..), its first block where
 * debugfs finds it.
 */
static void check_root_inode(const char *path, const struct ext2_geometry *geo,
			     const struct image *im)
{
	struct ext2_inode root;
	unsigned int block, offset;

	assert_int_equal(ext2_inode_location(geo, le32_to_cpu(im->gd[0].bg_inode_table),
					     EXT2_ROOT_INO, &block, &offset), 0);
	read_at(path, &root, sizeof(root), (uint64_t)block * geo->block_size + offset);
	assert_true(S_ISDIR(le16_to_cpu(root.i_mode)));
	assert_int_equal(le16_to_cpu(root.i_mode) & ~S_IFMT, 0755);
	assert_int_equal(le16_to_cpu(root.i_links_count), 3);
	assert_int_equal(le32_to_cpu(root.i_size), geo->block_size);
	assert_int_equal(le32_to_cpu(root.i_block[0]), bmap0(path, EXT2_ROOT_INO));
}

/* ---- geometry against dumpe2fs ---- */

struct layout { const char *name, *opts, *size; };

static const struct layout layouts[] = {
	{ "1k_one_group", "-b 1024", "8M" },
	{ "4k_one_group", "-b 4096", "64M" },
	{ "2k", "-b 2048", "16M" },
	{ "1k_ten_groups", "-b 1024 -g 2048 -N 512", "20M" },		/* last group 2047 blocks */
	{ "1k_no_sparse", "-b 1024 -g 1024 -N 256 -O ^sparse_super,^resize_inode", "12M" },
	{ "4k_four_groups", "-b 4096 -g 8192 -N 1024", "100M" },	/* last group 1024 blocks */
	{ "rev0", "-r 0 -b 1024 -g 2048", "10M" },
	{ "1k_inode128", "-b 1024 -I 128", "8M" },
	{ "1k_inode512", "-b 1024 -I 512", "8M" },
	{ "sparse_super2", "-b 1024 -O sparse_super2 -g 1024 -N 256", "12M" },
};

static void check_layout(const struct layout *l)
{
	const char *path = mkfs(l->name, "ext2", l->opts, l->size);
	struct ext2_geometry geo;
	struct image im;
	struct dump d;
	char err[160];
	uint32_t inos[4];

	load(path, &im);
	dumpe2fs(path, true, &d);
	assert_int_equal(ext2_check_super(&im.sb, im.bytes, &geo, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(geo.block_size, d.block_size);
	assert_int_equal(geo.inodes_count, d.inodes);
	assert_int_equal(geo.blocks_count, d.blocks);
	assert_int_equal(geo.blocks_per_group, d.bpg);
	assert_int_equal(geo.inodes_per_group, d.ipg);
	assert_int_equal(geo.inode_size, d.inode_size);
	assert_int_equal(geo.first_ino, d.first_ino);
	assert_int_equal(geo.first_data_block, d.first_block);
	assert_int_equal(geo.reserved_gdt_blocks, d.reserved_gdt);
	assert_int_equal(geo.itb_per_group, d.itb);
	assert_int_equal(geo.groups_count, d.ngroups);
	assert_int_equal(geo.inodes_per_block, geo.block_size / geo.inode_size);
	assert_int_equal(geo.addr_per_block, geo.block_size / 4);
	assert_int_equal(1U << geo.addr_per_block_bits, geo.addr_per_block);
	assert_int_equal(geo.flags, 0);
	assert_null(ext2_mount_warning(&geo));
	assert_features_match(&geo, d.features);

	load_descriptors(path, &geo, &im);
	assert_int_equal(ext2_check_descriptors(&geo, im.gd, geo.groups_count, err, sizeof(err)), 0);
	for (uint32_t g = 0; g < geo.groups_count; g++) {
		const struct dump_group *dg = &d.g[g];

		assert_int_equal(ext2_group_first_block(&geo, g), dg->first);
		assert_int_equal(ext2_group_last_block(&geo, g), dg->last);
		assert_int_equal(ext2_group_has_super(&geo, g), dg->has_super);
		if (dg->has_super) {	/* the copy's descriptors follow its superblock, as group 0's */
			assert_int_equal(dg->gd_first, dg->first + 1);
			assert_int_equal(dg->gd_last - dg->gd_first + 1, geo.gdb_count);
		}
		assert_int_equal(le32_to_cpu(im.gd[g].bg_block_bitmap), dg->bb);
		assert_int_equal(le32_to_cpu(im.gd[g].bg_inode_bitmap), dg->ib);
		assert_int_equal(le32_to_cpu(im.gd[g].bg_inode_table), dg->it_first);
		assert_int_equal(dg->it_last - dg->it_first + 1, geo.itb_per_group);
		assert_int_equal(le16_to_cpu(im.gd[g].bg_free_blocks_count), dg->free_blocks);
		assert_int_equal(le16_to_cpu(im.gd[g].bg_free_inodes_count), dg->free_inodes);
		assert_int_equal(le16_to_cpu(im.gd[g].bg_used_dirs_count), dg->dirs);
	}
	assert_int_equal(ext2_descriptor_block(&geo, 0), d.g[0].gd_first);
	assert_int_equal(ext2_descriptor_block(&geo, geo.gdb_count - 1), d.g[0].gd_last);

	/* Inode locations: the root, the first ordinary one, the last, the second group's first. */
	inos[0] = EXT2_ROOT_INO;
	inos[1] = geo.first_ino;
	inos[2] = geo.inodes_count;
	inos[3] = geo.groups_count > 1 ? geo.inodes_per_group + 1 : 1;
	for (int i = 0; i < 4; i++) {
		unsigned int g = ext2_inode_group(&geo, inos[i]), block;
		unsigned int offset;
		unsigned long want_block, want_offset;

		imap(path, inos[i], &want_block, &want_offset);
		assert_int_equal(ext2_inode_location(&geo, le32_to_cpu(im.gd[g].bg_inode_table),
						     inos[i], &block, &offset), 0);
		assert_int_equal(block, want_block);
		assert_int_equal(offset, want_offset);
	}
	check_root_inode(path, &geo, &im);
	{
		unsigned int block, offset;

		assert_int_equal(ext2_inode_location(&geo, 100, 0, &block, &offset), -EINVAL);
		assert_int_equal(ext2_inode_location(&geo, 100, geo.inodes_count + 1, &block, &offset),
				 -EINVAL);
	}
}

static void geometry_matches_dumpe2fs(void **state)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		fprintf(stderr, "# layout %s (%s, %s)\n", layouts[i].name, layouts[i].opts, layouts[i].size);
		check_layout(&layouts[i]);
	}
}

/* ---- superblock corruptions, each on a fresh copy of a good one ---- */

static struct image good1k;	/* 1k_ten_groups: 20480 1 KiB blocks, 10 groups of 48 inodes */
static struct ext2_geometry good1k_geo;
static const char *good1k_path;

static int setup_good1k(void **state)
{
	char err[160];

	good1k_path = strdup(mkfs("good1k", "ext2", "-b 1024 -g 2048 -N 512", "20M"));
	load(good1k_path, &good1k);
	assert_int_equal(ext2_check_super(&good1k.sb, good1k.bytes, &good1k_geo, err, sizeof(err)), 0);
	load_descriptors(good1k_path, &good1k_geo, &good1k);
	return 0;
}

/* Check @sb (on a device of @bytes) and expect @ret and exactly @msg. */
static void expect_sb(const struct ext2_super_block *sb, uint64_t bytes, int ret, const char *msg)
{
	struct ext2_geometry geo;
	char err[160];

	assert_int_equal(ext2_check_super(sb, bytes, &geo, err, sizeof(err)), ret);
	assert_string_equal(err, msg);
	assert_null(strchr(err, '\n'));
}

#define CORRUPT(field_assignment, ret, msg) do {				\
		struct ext2_super_block sb = good1k.sb;				\
		field_assignment;						\
		expect_sb(&sb, good1k.bytes, ret, msg);				\
	} while (0)

static void corrupt_superblocks_refused(void **state)
{
	CORRUPT(sb.s_magic = cpu_to_le16(0x1234), -EINVAL,
		"ext2: bad magic 0x1234 (expected 0xef53): not an ext2 filesystem");
	CORRUPT(sb.s_log_block_size = cpu_to_le32(10), -EINVAL, "ext2: invalid log block size 10");
	CORRUPT(sb.s_log_block_size = cpu_to_le32(3), -EOPNOTSUPP,
		"ext2: block size 8192 larger than the page size 4096: mount refused");
	CORRUPT(sb.s_log_frag_size = cpu_to_le32(2), -EINVAL,
		"ext2: fragment size log 2 != block size log 0");
	CORRUPT(sb.s_blocks_count = cpu_to_le32(20481), -EINVAL,
		"ext2: block count 20481 exceeds size of device (20480 blocks)");
	CORRUPT(sb.s_inodes_count = cpu_to_le32(481), -EINVAL,
		"ext2: inode count 481 disagrees with 10 groups of 48 inodes");
	CORRUPT(sb.s_inodes_per_group = 0, -EINVAL,
		"ext2: inodes per group 0 not in 1..8192 (one bitmap block)");
	CORRUPT(sb.s_inodes_per_group = cpu_to_le32(8193), -EINVAL,
		"ext2: inodes per group 8193 not in 1..8192 (one bitmap block)");
	CORRUPT(sb.s_inodes_per_group = cpu_to_le32(46), -EINVAL,
		"ext2: inodes per group 46 not a multiple of 4 inodes per block");
	CORRUPT(sb.s_blocks_per_group = 0, -EINVAL,
		"ext2: blocks per group 0 not in 1..8192 (one bitmap block)");
	CORRUPT(sb.s_blocks_per_group = cpu_to_le32(8), -EINVAL,
		"ext2: blocks per group 8 too small for 12 inode table blocks");
	CORRUPT(sb.s_inode_size = cpu_to_le16(100), -EINVAL,
		"ext2: unsupported inode size 100 (a power of two from 128 to the 1024-byte block)");
	CORRUPT(sb.s_inode_size = cpu_to_le16(384), -EINVAL,
		"ext2: unsupported inode size 384 (a power of two from 128 to the 1024-byte block)");
	CORRUPT(sb.s_inode_size = cpu_to_le16(2048), -EINVAL,
		"ext2: unsupported inode size 2048 (a power of two from 128 to the 1024-byte block)");
	CORRUPT(sb.s_first_ino = cpu_to_le32(5), -EINVAL, "ext2: first inode 5 below 11");
	CORRUPT(sb.s_first_ino = cpu_to_le32(481), -EINVAL,
		"ext2: first inode 481 beyond the 480 inodes");
	CORRUPT(sb.s_first_data_block = 0, -EINVAL,
		"ext2: first data block 0, expected 1 with 1024-byte blocks");
	CORRUPT(sb.s_blocks_count = cpu_to_le32(1), -EINVAL,
		"ext2: block count 1 leaves no block groups");
	CORRUPT(sb.s_reserved_gdt_blocks = cpu_to_le16(2040), -EINVAL,
		"ext2: 1 descriptor and 2040 reserved blocks do not fit in group 0 (2048 blocks)");
	/* A device shorter than the filesystem. */
	expect_sb(&good1k.sb, good1k.bytes - 1024, -EINVAL,
		  "ext2: block count 20480 exceeds size of device (20479 blocks)");
	/* 4 KiB blocks: the filesystem starts at block 0. */
	{
		struct image im;
		const char *path = mkfs("fdb4k", "ext2", "-b 4096", "16M");

		load(path, &im);
		im.sb.s_first_data_block = cpu_to_le32(1);
		expect_sb(&im.sb, im.bytes, -EINVAL,
			  "ext2: first data block 1, expected 0 with 4096-byte blocks");
	}
}

/* What Linux mounts but warns about, or mounts read-only only. */
static void states_and_read_only(void **state)
{
	struct ext2_super_block sb = good1k.sb;
	struct ext2_geometry geo;
	char err[160];

	sb.s_state = cpu_to_le16(0);
	assert_int_equal(ext2_check_super(&sb, good1k.bytes, &geo, err, sizeof(err)), 0);
	assert_int_equal(geo.flags, EXT2_GEO_NOT_CLEAN);
	assert_string_equal(ext2_mount_warning(&geo),
			    "warning: mounting unchecked fs, running e2fsck is recommended");
	sb.s_state = cpu_to_le16(EXT2_VALID_FS | EXT2_ERROR_FS);
	assert_int_equal(ext2_check_super(&sb, good1k.bytes, &geo, err, sizeof(err)), 0);
	assert_int_equal(geo.flags, EXT2_GEO_HAS_ERRORS);
	assert_string_equal(ext2_mount_warning(&geo),
			    "warning: mounting fs with errors, running e2fsck is recommended");

	sb = good1k.sb;
	sb.s_rev_level = cpu_to_le32(2);
	assert_int_equal(ext2_check_super(&sb, good1k.bytes, &geo, err, sizeof(err)), EXT2_MOUNT_READONLY);
	assert_string_equal(err, "ext2: revision level 2 too high: read-only");
	assert_int_equal(geo.flags, EXT2_GEO_RDONLY);
	assert_int_equal(geo.groups_count, 10);		/* the geometry is still there */
}

static void max_bytes_as_linux(void **state)
{
	struct image im;
	struct ext2_geometry geo;
	char err[160];

	/* 1 KiB: the block tree, (12 + 256 + 256^2 + 256^3) blocks, is the limit. */
	assert_int_equal(good1k_geo.max_bytes, 17247252480ULL);
	/* 4 KiB: i_blocks is: 536870911 blocks less 524801 indirect ones (v6.10's ext2_max_size). */
	load(mkfs("max4k", "ext2", "-b 4096", "16M"), &im);
	assert_int_equal(ext2_check_super(&im.sb, im.bytes, &geo, err, sizeof(err)), 0);
	assert_int_equal(geo.max_bytes, 2196873666560ULL);
}

/* ---- features ---- */

static void features_refused_or_read_only(void **state)
{
	struct image im;
	struct ext2_geometry geo;
	struct dump d;
	char err[160];
	const char *path;

	/* An incompat feature set by e2fsprogs on an ext2 image. */
	path = mkfs("extent", "ext2", "-b 1024", "8M");
	run("%s -w -R 'feature extent' %s >/dev/null 2>&1", tool("DEBUGFS", "debugfs"), path);
	load(path, &im);
	expect_sb(&im.sb, im.bytes, -EOPNOTSUPP,
		"ext2: unsupported feature incompat 0x40 (extent): mount refused");

	/* ext4: the first unsupported incompat feature named, as dumpe2fs lists it. */
	path = mkfs("ext4", "ext4", "", "16M");
	load(path, &im);
	dumpe2fs(path, false, &d);
	assert_non_null(strstr(d.features, " extent "));
	expect_sb(&im.sb, im.bytes, -EOPNOTSUPP,
		"ext2: unsupported feature incompat 0x40 (extent): mount refused");

	path = mkfs("meta_bg", "ext2", "-O meta_bg,^resize_inode", "8M");
	load(path, &im);
	expect_sb(&im.sb, im.bytes, -EOPNOTSUPP,
		"ext2: unsupported feature incompat 0x10 (meta_bg): mount refused");

	/* Only a ro_compat feature tinymm lacks: read-only, named, geometry filled. */
	path = mkfs("huge_file", "ext2", "-O huge_file", "8M");
	load(path, &im);
	assert_int_equal(ext2_check_super(&im.sb, im.bytes, &geo, err, sizeof(err)), EXT2_MOUNT_READONLY);
	assert_string_equal(err, "ext2: unsupported feature ro_compat 0x8 (huge_file): read-only");
	assert_int_equal(geo.flags, EXT2_GEO_RDONLY);
	assert_int_equal(geo.blocks_count, 8192);
	path = mkfs("dir_nlink", "ext2", "-O dir_nlink", "8M");
	load(path, &im);
	expect_sb(&im.sb, im.bytes, EXT2_MOUNT_READONLY,
		"ext2: unsupported feature ro_compat 0x20 (dir_nlink): read-only");

	/* Bits e2fsprogs has no name for, named as it prints them; a journal to replay. */
	im = good1k;
	im.sb.s_feature_incompat |= cpu_to_le32(0x20);
	expect_sb(&im.sb, im.bytes, -EOPNOTSUPP,
		"ext2: unsupported feature incompat 0x20 (FEATURE_I5): mount refused");
	im = good1k;
	im.sb.s_feature_ro_compat |= cpu_to_le32(0x80);
	expect_sb(&im.sb, im.bytes, EXT2_MOUNT_READONLY,
		"ext2: unsupported feature ro_compat 0x80 (FEATURE_R7): read-only");
	im = good1k;
	im.sb.s_feature_incompat |= cpu_to_le32(EXT3_FEATURE_INCOMPAT_RECOVER);
	expect_sb(&im.sb, im.bytes, -EOPNOTSUPP,
		"ext2: unsupported feature incompat 0x4 (needs_recovery): mount refused");
	/* Compat features never block a mount; on revision 0 Linux warns about any. */
	im = good1k;
	im.sb.s_feature_compat |= cpu_to_le32(EXT3_FEATURE_COMPAT_HAS_JOURNAL | 0x80000000);
	expect_sb(&im.sb, im.bytes, 0, "");
	path = mkfs("rev0_features", "ext2", "-r 0", "8M");
	load(path, &im);
	im.sb.s_feature_compat = cpu_to_le32(EXT2_FEATURE_COMPAT_DIR_PREALLOC);
	assert_int_equal(ext2_check_super(&im.sb, im.bytes, &geo, err, sizeof(err)), 0);
	assert_int_equal(geo.flags, EXT2_GEO_REV0_FEATURES);
}

/* Every bit dumpe2fs can show, by the name it shows. */
static void feature_names_as_dumpe2fs(void **state)
{
	static const size_t word_off[3] = {
		offsetof(struct ext2_super_block, s_feature_compat),
		offsetof(struct ext2_super_block, s_feature_ro_compat),
		offsetof(struct ext2_super_block, s_feature_incompat),
	};
	const char *path = mkfs("names", "ext2", "-O none", "1M");
	struct image base;
	unsigned int compared = 0;

	load(path, &base);
	for (int k = 0; k < 3; k++)
		for (int bit = 0; bit < 32; bit++) {
			struct ext2_super_block sb = base.sb;
			uint32_t *word = (uint32_t *)((char *)&sb + word_off[k]);
			const char *name = ext2_feature_name((enum ext2_feature_kind)k, 1U << bit);
			char *shown;
			struct dump d;

			*word = cpu_to_le32(le32_to_cpu(*word) | 1U << bit);
			write_sb(path, &sb);
			dumpe2fs_try(path, false, &d);	/* fails on incompat bits it lacks */
			shown = d.features + strspn(d.features, " ");
			shown[strcspn(shown, " ")] = '\0';
			if (!*shown)
				continue;	/* e2fsprogs will not open it (an incompat bit it lacks) */
			if (strncmp(shown, "FEATURE_", 8) == 0)
				assert_null(name);
			else
				assert_string_equal(name ? name : "(none)", shown);
			compared++;
		}
	write_sb(path, &base.sb);
	assert_true(compared >= 76);	/* all compat and ro_compat bits, 12 incompat ones */
}

/* ---- descriptor corruptions ---- */

static void expect_gd(const struct ext2_group_desc *gd, int ret, const char *msg)
{
	char err[200];

	assert_int_equal(ext2_check_descriptors(&good1k_geo, gd, good1k_geo.groups_count,
							 err, sizeof(err)), ret);
	assert_string_equal(err, msg);
}

#define GD_CORRUPT(g, field, value, ret, msg) do {				\
		struct ext2_group_desc gd[MAX_GROUPS];				\
		memcpy(gd, good1k.gd, sizeof(gd));				\
		gd[g].field = (sizeof(gd[g].field) == 2) ? cpu_to_le16(value) : cpu_to_le32(value); \
		expect_gd(gd, ret, msg);					\
	} while (0)

static void corrupt_descriptors_refused(void **state)
{
	const struct ext2_geometry *geo = &good1k_geo;
	/*
	 * Group 2 (no superblock copy) runs 4097-6144; groups 0, 1 and 9 start with one (1 + 1
	 * descriptor + 256 reserved blocks); 9, the last, is one block short: 18433-20479.
	 * Each group's inode table is 12 blocks (48 inodes of 256 bytes).
	 */
	uint32_t last9 = ext2_group_last_block(geo, 9);
	uint32_t it9 = le32_to_cpu(good1k.gd[9].bg_inode_table);

	assert_int_equal(last9, 20479);
	expect_gd(good1k.gd, 0, "");
	GD_CORRUPT(2, bg_block_bitmap, 6145, -EINVAL,
		"ext2: block bitmap for group 2 not in group (block 6145)");
	GD_CORRUPT(2, bg_block_bitmap, 4096, -EINVAL,
		"ext2: block bitmap for group 2 not in group (block 4096)");
	GD_CORRUPT(0, bg_block_bitmap, 0, -EINVAL,
		"ext2: block bitmap for group 0 not in group (block 0)");
	GD_CORRUPT(3, bg_inode_bitmap, 99999, -EINVAL,
		"ext2: inode bitmap for group 3 not in group (block 99999)");
	GD_CORRUPT(2, bg_inode_table, 6144 - 10, -EINVAL,
		   "ext2: inode table for group 2 not in group (blocks 6134-6145, group 4097-6144)");
	GD_CORRUPT(9, bg_inode_table, last9 - 10, -EINVAL,
		   "ext2: inode table for group 9 not in group (blocks 20469-20480, group 18433-20479)");
	GD_CORRUPT(1, bg_block_bitmap, 2050, -EINVAL,
		   "ext2: group 1's bitmaps or inode table overlap its 258 superblock and descriptor blocks");
	GD_CORRUPT(2, bg_inode_bitmap, le32_to_cpu(good1k.gd[2].bg_block_bitmap), -EINVAL,
		   "ext2: group 2's block bitmap 4097, inode bitmap 4097 and inode table 4099 overlap");
	GD_CORRUPT(9, bg_block_bitmap, it9 + 3, -EINVAL,
		   "ext2: group 9's block bitmap 18696, inode bitmap 18692 and inode table 18693 overlap");
	/* Counts: the most each may be passes, one more is refused. */
	GD_CORRUPT(2, bg_free_blocks_count, 2048 - 2 - 12, 0, "");
	GD_CORRUPT(2, bg_free_blocks_count, 2048 - 2 - 12 + 1, -EINVAL,
		   "ext2: free blocks count 2035 of group 2 above its 2034 non-metadata blocks");
	GD_CORRUPT(9, bg_free_blocks_count, 2047, -EINVAL,
		   "ext2: free blocks count 2047 of group 9 above its 1775 non-metadata blocks");
	GD_CORRUPT(9, bg_free_blocks_count, 2047 - 258 - 2 - 12, 0, "");
	GD_CORRUPT(0, bg_free_blocks_count, 2048 - 258 - 2 - 12 + 1, -EINVAL,
		   "ext2: free blocks count 1777 of group 0 above its 1776 non-metadata blocks");
	GD_CORRUPT(0, bg_free_inodes_count, 48 - 10 - 1, 0, "");	/* 37: the root dir's lost+found */
	GD_CORRUPT(0, bg_free_inodes_count, 48 - 10 + 1, -EINVAL,
		   "ext2: free inodes count 39 of group 0 above its 38 unreserved inodes");
	GD_CORRUPT(3, bg_free_inodes_count, 49, -EINVAL,
		   "ext2: free inodes count 49 of group 3 above its 48 unreserved inodes");
	GD_CORRUPT(0, bg_used_dirs_count, 12, -EINVAL,
		   "ext2: directory count 12 of group 0 above its 11 used inodes");
	{
		char err[160];

		assert_int_equal(ext2_check_descriptors(geo, good1k.gd, 9, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "ext2: 9 group descriptors for 10 groups");
	}
}

/* An inode size doubled on disk doubles the inode table: the free counts give it away. */
static void doubled_inode_size_caught(void **state)
{
	const char *path = mkfs("isize", "ext2", "-b 1024 -I 256", "8M");
	struct ext2_geometry geo;
	struct image im;
	char err[200];

	load(path, &im);
	im.sb.s_inode_size = cpu_to_le16(512);
	assert_int_equal(ext2_check_super(&im.sb, im.bytes, &geo, err, sizeof(err)), 0);
	load_descriptors(path, &geo, &im);
	assert_int_equal(ext2_check_descriptors(&geo, im.gd, geo.groups_count, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ext2: free blocks count "));
	assert_non_null(strstr(err, " of group 0 above its "));
}

static void sparse_super_groups(void **state)
{
	struct ext2_geometry geo = { .feature_ro_compat = EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER };
	static const uint32_t with_super[] = { 0, 1, 3, 5, 7, 9, 25, 27, 49, 81, 125, 243, 343, 625,
					       729, 2187, 2401, 3125 };
	size_t next = 0;

	for (uint32_t g = 0; g < 4000; g++) {
		bool want = next < sizeof(with_super) / sizeof(with_super[0]) && with_super[next] == g;

		assert_int_equal(ext2_group_has_super(&geo, g), want);
		next += want;
	}
	assert_int_equal(next, sizeof(with_super) / sizeof(with_super[0]));
	geo.feature_ro_compat = 0;
	for (uint32_t g = 0; g < 100; g++)
		assert_true(ext2_group_has_super(&geo, g));
	assert_true(ext2_group_has_super(&geo, 0xffffffffU));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(geometry_matches_dumpe2fs),
		cmocka_unit_test_setup(corrupt_superblocks_refused, setup_good1k),
		cmocka_unit_test(states_and_read_only),
		cmocka_unit_test(max_bytes_as_linux),
		cmocka_unit_test(features_refused_or_read_only),
		cmocka_unit_test(feature_names_as_dumpe2fs),
		cmocka_unit_test(corrupt_descriptors_refused),
		cmocka_unit_test(doubled_inode_size_caught),
		cmocka_unit_test(sparse_super_groups),
	};
	return cmocka_run_group_tests(tests, e2fs_make_dir, e2fs_remove_dir);
}
