/*
 * ext2_fs.h - the ext2 on-disk format (revision 0 and 1), with Linux v6.10's names
 * (fs/ext2/ext2.h, include/linux/ext2_fs.h), and tinymm's supported feature masks.
 *
 * Every multi-byte field on disk is LITTLE-ENDIAN (Linux's __le16/__le32): read them with
 * le16_to_cpu()/le32_to_cpu() and write them with cpu_to_le16()/cpu_to_le32()
 * (tinymm/byteorder.h).  The structures are exactly the disk's bytes; the static asserts
 * below hold them to the sizes and offsets e2fsprogs uses.
 *
 * Where tinymm differs from v6.10, and why:
 * - EXT2_FEATURE_INCOMPAT_SUPP is FILETYPE only: META_BG (which Linux's ext2 reads) moves the
 *   group descriptors into each meta group; tinymm reads them only from the blocks after the
 *   superblock, so a meta_bg filesystem is refused, naming the feature (mke2fs -t ext2 never
 *   makes one unless asked with -O meta_bg).
 * - Blocks larger than PAGE_SIZE (8 KiB..64 KiB) are refused: a page-cache folio holds whole
 *   blocks here, as in v6.10 without large folios for block devices.
 * - Feature names are e2fsprogs' (what dumpe2fs and tune2fs -O print and take: "extent", not
 *   ext4.h's EXTENTS), so a refusal names the feature as the tools do.
 * - The superblock's 0xce word is named s_reserved_gdt_blocks, ext4's and e2fsprogs' name
 *   (Linux's ext2.h calls it s_padding1): with resize_inode the blocks after the descriptors
 *   are reserved for them, and the descriptor checks count them as metadata.
 * - Only the Linux variant of the inode's OS-dependent unions (osd1, osd2) is spelled out.
 */
#ifndef TINYMM_FS_EXT2_FS_H
#define TINYMM_FS_EXT2_FS_H

#include <stddef.h>
#include <stdint.h>
#include "tinymm/byteorder.h"

#define EXT2_SUPER_MAGIC	0xEF53

/* Where the superblock is: byte 1024 of the device, whatever the block size. */
#define EXT2_SB_OFFSET		1024
#define EXT2_SB_SIZE		1024

/* Special inode numbers. */
#define EXT2_BAD_INO		1	/* bad blocks inode */
#define EXT2_ROOT_INO		2	/* root directory */
#define EXT2_BOOT_LOADER_INO	5
#define EXT2_UNDEL_DIR_INO	6
#define EXT2_RESIZE_INO		7	/* reserved group descriptor blocks (resize_inode) */
#define EXT2_JOURNAL_INO	8	/* ext3's journal */
#define EXT2_GOOD_OLD_FIRST_INO	11	/* first non-reserved inode of a revision 0 filesystem */

#define EXT2_LINK_MAX		32000

/* Block sizes: 1024 << s_log_block_size.  Linux's ext2 takes up to 64 KiB; tinymm to PAGE_SIZE. */
#define EXT2_MIN_BLOCK_LOG_SIZE	10
#define EXT2_MAX_BLOCK_LOG_SIZE	16
#define EXT2_MIN_BLOCK_SIZE	(1 << EXT2_MIN_BLOCK_LOG_SIZE)
#define EXT2_MAX_BLOCK_SIZE	(1 << EXT2_MAX_BLOCK_LOG_SIZE)

/* Block pointers in an inode: 12 direct, then single, double and triple indirect. */
#define EXT2_NDIR_BLOCKS	12
#define EXT2_IND_BLOCK		EXT2_NDIR_BLOCKS
#define EXT2_DIND_BLOCK		(EXT2_IND_BLOCK + 1)
#define EXT2_TIND_BLOCK		(EXT2_DIND_BLOCK + 1)
#define EXT2_N_BLOCKS		(EXT2_TIND_BLOCK + 1)

/* ---- the superblock (1024 bytes at byte 1024; backups at the start of some groups) ---- */

struct ext2_super_block {
	uint32_t s_inodes_count;	/* inodes count */
	uint32_t s_blocks_count;	/* blocks count */
	uint32_t s_r_blocks_count;	/* reserved blocks count */
	uint32_t s_free_blocks_count;	/* free blocks count */
	uint32_t s_free_inodes_count;	/* free inodes count */
	uint32_t s_first_data_block;	/* first data block: 1 with 1 KiB blocks, else 0 */
	uint32_t s_log_block_size;	/* block size = 1024 << this */
	uint32_t s_log_frag_size;	/* fragments: must equal s_log_block_size */
	uint32_t s_blocks_per_group;
	uint32_t s_frags_per_group;
	uint32_t s_inodes_per_group;
	uint32_t s_mtime;		/* mount time */
	uint32_t s_wtime;		/* write time */
	uint16_t s_mnt_count;		/* mounts since the last check */
	uint16_t s_max_mnt_count;	/* (signed: -1 = no limit) */
	uint16_t s_magic;		/* EXT2_SUPER_MAGIC */
	uint16_t s_state;		/* EXT2_VALID_FS, EXT2_ERROR_FS */
	uint16_t s_errors;		/* EXT2_ERRORS_*: behaviour when detecting errors */
	uint16_t s_minor_rev_level;
	uint32_t s_lastcheck;		/* time of last check */
	uint32_t s_checkinterval;	/* max. time between checks */
	uint32_t s_creator_os;		/* EXT2_OS_* */
	uint32_t s_rev_level;		/* EXT2_GOOD_OLD_REV or EXT2_DYNAMIC_REV */
	uint16_t s_def_resuid;		/* default uid for reserved blocks */
	uint16_t s_def_resgid;		/* default gid for reserved blocks */
	/* EXT2_DYNAMIC_REV only: */
	uint32_t s_first_ino;		/* first non-reserved inode */
	uint16_t s_inode_size;		/* size of an on-disk inode */
	uint16_t s_block_group_nr;	/* block group of this superblock copy */
	uint32_t s_feature_compat;	/* compatible features: never block a mount */
	uint32_t s_feature_incompat;	/* incompatible: an unknown one refuses the mount */
	uint32_t s_feature_ro_compat;	/* read-only compatible: unknown ones allow read-only */
	uint8_t s_uuid[16];		/* 128-bit uuid for volume */
	char s_volume_name[16];
	char s_last_mounted[64];	/* directory where last mounted */
	uint32_t s_algorithm_usage_bitmap; /* for compression */
	uint8_t s_prealloc_blocks;	/* blocks to try to preallocate */
	uint8_t s_prealloc_dir_blocks;	/* ... for directories */
	uint16_t s_reserved_gdt_blocks;	/* resize_inode: reserved descriptor blocks (ext2.h: s_padding1) */
	uint8_t s_journal_uuid[16];	/* ext3's journal (HAS_JOURNAL) */
	uint32_t s_journal_inum;
	uint32_t s_journal_dev;
	uint32_t s_last_orphan;		/* start of list of inodes to delete */
	uint32_t s_hash_seed[4];	/* dir_index hash seed */
	uint8_t s_def_hash_version;
	uint8_t s_reserved_char_pad;
	uint16_t s_reserved_word_pad;
	uint32_t s_default_mount_opts;	/* EXT2_DEFM_* */
	uint32_t s_first_meta_bg;	/* first meta block group (META_BG) */
	uint32_t s_reserved[190];	/* to the end of the 1024 bytes (ext4's fields) */
};

_Static_assert(sizeof(struct ext2_super_block) == EXT2_SB_SIZE, "the superblock is 1024 bytes");
_Static_assert(offsetof(struct ext2_super_block, s_magic) == 0x38, "s_magic at 0x38");
_Static_assert(offsetof(struct ext2_super_block, s_rev_level) == 0x4c, "s_rev_level at 0x4c");
_Static_assert(offsetof(struct ext2_super_block, s_feature_compat) == 0x5c, "features at 0x5c");
_Static_assert(offsetof(struct ext2_super_block, s_reserved_gdt_blocks) == 0xce, "0xce");
_Static_assert(offsetof(struct ext2_super_block, s_first_meta_bg) == 0x104, "0x104");

/*
 * ext4's s_backup_bgs[2] (the two groups holding backups with sparse_super2, a compat
 * feature) lie at byte 0x24c, inside Linux ext2's s_reserved[].
 */
#define EXT2_S_BACKUP_BGS_IDX	((0x24c - offsetof(struct ext2_super_block, s_reserved)) / 4)

/* s_state */
#define EXT2_VALID_FS		0x0001	/* unmounted cleanly */
#define EXT2_ERROR_FS		0x0002	/* errors detected */

/* s_errors */
#define EXT2_ERRORS_CONTINUE	1	/* continue execution */
#define EXT2_ERRORS_RO		2	/* remount fs read-only */
#define EXT2_ERRORS_PANIC	3	/* panic */
#define EXT2_ERRORS_DEFAULT	EXT2_ERRORS_CONTINUE

#define EXT2_DFL_MAX_MNT_COUNT	20

/* s_creator_os */
#define EXT2_OS_LINUX		0
#define EXT2_OS_HURD		1
#define EXT2_OS_MASIX		2
#define EXT2_OS_FREEBSD		3
#define EXT2_OS_LITES		4

/* s_rev_level */
#define EXT2_GOOD_OLD_REV	0	/* the original format: 128-byte inodes, first inode 11 */
#define EXT2_DYNAMIC_REV	1	/* s_inode_size, s_first_ino and the feature words */
#define EXT2_MAX_SUPP_REV	EXT2_DYNAMIC_REV
#define EXT2_GOOD_OLD_INODE_SIZE 128

/* s_default_mount_opts */
#define EXT2_DEFM_DEBUG		0x0001
#define EXT2_DEFM_BSDGROUPS	0x0002
#define EXT2_DEFM_XATTR_USER	0x0004
#define EXT2_DEFM_ACL		0x0008
#define EXT2_DEFM_UID16		0x0010

/* ---- feature bits (Linux's ext2.h names; the ext3/ext4 ones as ext4.h numbers them) ---- */

#define EXT2_FEATURE_COMPAT_DIR_PREALLOC	0x0001
#define EXT2_FEATURE_COMPAT_IMAGIC_INODES	0x0002
#define EXT3_FEATURE_COMPAT_HAS_JOURNAL		0x0004
#define EXT2_FEATURE_COMPAT_EXT_ATTR		0x0008
#define EXT2_FEATURE_COMPAT_RESIZE_INO		0x0010
#define EXT2_FEATURE_COMPAT_DIR_INDEX		0x0020
#define EXT2_FEATURE_COMPAT_LAZY_BG		0x0040
#define EXT2_FEATURE_COMPAT_EXCLUDE_BITMAP	0x0100
#define EXT4_FEATURE_COMPAT_SPARSE_SUPER2	0x0200
#define EXT4_FEATURE_COMPAT_FAST_COMMIT		0x0400
#define EXT4_FEATURE_COMPAT_STABLE_INODES	0x0800
#define EXT4_FEATURE_COMPAT_ORPHAN_FILE		0x1000
#define EXT2_FEATURE_COMPAT_ANY			0xffffffff

#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER	0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE	0x0002
#define EXT2_FEATURE_RO_COMPAT_BTREE_DIR	0x0004
#define EXT4_FEATURE_RO_COMPAT_HUGE_FILE	0x0008
#define EXT4_FEATURE_RO_COMPAT_GDT_CSUM		0x0010	/* uninit_bg */
#define EXT4_FEATURE_RO_COMPAT_DIR_NLINK	0x0020
#define EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE	0x0040
#define EXT4_FEATURE_RO_COMPAT_QUOTA		0x0100
#define EXT4_FEATURE_RO_COMPAT_BIGALLOC		0x0200
#define EXT4_FEATURE_RO_COMPAT_METADATA_CSUM	0x0400
#define EXT4_FEATURE_RO_COMPAT_READONLY		0x1000
#define EXT4_FEATURE_RO_COMPAT_PROJECT		0x2000
#define EXT4_FEATURE_RO_COMPAT_VERITY		0x8000
#define EXT2_FEATURE_RO_COMPAT_ANY		0xffffffff

#define EXT2_FEATURE_INCOMPAT_COMPRESSION	0x0001
#define EXT2_FEATURE_INCOMPAT_FILETYPE		0x0002	/* file type in directory entries */
#define EXT3_FEATURE_INCOMPAT_RECOVER		0x0004	/* journal needs recovery */
#define EXT3_FEATURE_INCOMPAT_JOURNAL_DEV	0x0008
#define EXT2_FEATURE_INCOMPAT_META_BG		0x0010
#define EXT4_FEATURE_INCOMPAT_EXTENTS		0x0040
#define EXT4_FEATURE_INCOMPAT_64BIT		0x0080
#define EXT4_FEATURE_INCOMPAT_MMP		0x0100
#define EXT4_FEATURE_INCOMPAT_FLEX_BG		0x0200
#define EXT4_FEATURE_INCOMPAT_EA_INODE		0x0400
#define EXT4_FEATURE_INCOMPAT_DIRDATA		0x1000
#define EXT4_FEATURE_INCOMPAT_CSUM_SEED		0x2000
#define EXT4_FEATURE_INCOMPAT_LARGEDIR		0x4000
#define EXT4_FEATURE_INCOMPAT_INLINE_DATA	0x8000
#define EXT4_FEATURE_INCOMPAT_ENCRYPT		0x10000
#define EXT4_FEATURE_INCOMPAT_CASEFOLD		0x20000
#define EXT2_FEATURE_INCOMPAT_ANY		0xffffffff

/*
 * What tinymm's ext2 mounts.  Compat features never block a mount: all are accepted (none is
 * implemented; they stay set on disk).  Unsupported ro_compat ones allow a read-only mount
 * only, as Linux; unsupported incompat ones refuse the mount.
 */
#define EXT2_FEATURE_COMPAT_SUPP	EXT2_FEATURE_COMPAT_ANY
#define EXT2_FEATURE_INCOMPAT_SUPP	EXT2_FEATURE_INCOMPAT_FILETYPE
#define EXT2_FEATURE_RO_COMPAT_SUPP	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | \
					 EXT2_FEATURE_RO_COMPAT_LARGE_FILE | \
					 EXT2_FEATURE_RO_COMPAT_BTREE_DIR)
#define EXT2_FEATURE_RO_COMPAT_UNSUPPORTED	(~EXT2_FEATURE_RO_COMPAT_SUPP)
#define EXT2_FEATURE_INCOMPAT_UNSUPPORTED	(~EXT2_FEATURE_INCOMPAT_SUPP)

/* ---- block group descriptors (32 bytes each, in the blocks after the superblock's) ---- */

struct ext2_group_desc {
	uint32_t bg_block_bitmap;	/* block of the block bitmap */
	uint32_t bg_inode_bitmap;	/* block of the inode bitmap */
	uint32_t bg_inode_table;	/* first block of the inode table */
	uint16_t bg_free_blocks_count;
	uint16_t bg_free_inodes_count;
	uint16_t bg_used_dirs_count;	/* directories */
	uint16_t bg_pad;
	uint32_t bg_reserved[3];
};

_Static_assert(sizeof(struct ext2_group_desc) == 32, "a group descriptor is 32 bytes");

/* ---- inodes (128 bytes in revision 0; s_inode_size apart in revision 1) ---- */

struct ext2_inode {
	uint16_t i_mode;		/* file mode: S_IFMT type and permissions (tinymm/stat.h) */
	uint16_t i_uid;			/* low 16 bits of owner uid */
	uint32_t i_size;		/* size in bytes (low 32 bits) */
	uint32_t i_atime;		/* access time */
	uint32_t i_ctime;		/* inode change time */
	uint32_t i_mtime;		/* modification time */
	uint32_t i_dtime;		/* deletion time */
	uint16_t i_gid;			/* low 16 bits of group id */
	uint16_t i_links_count;
	uint32_t i_blocks;		/* 512-byte sectors, indirect blocks included */
	uint32_t i_flags;		/* EXT2_*_FL */
	union {
		struct {
			uint32_t l_i_reserved1;
		} linux1;
	} osd1;
	uint32_t i_block[EXT2_N_BLOCKS]; /* block pointers (a fast symlink's target) */
	uint32_t i_generation;		/* file version (for NFS) */
	uint32_t i_file_acl;		/* extended attribute block */
	uint32_t i_size_high;		/* regular files: size bits 32..63 (was i_dir_acl) */
	uint32_t i_faddr;		/* fragment address */
	union {
		struct {
			uint8_t l_i_frag;	/* fragment number */
			uint8_t l_i_fsize;	/* fragment size */
			uint16_t i_pad1;
			uint16_t l_i_uid_high;	/* high 16 bits of uid */
			uint16_t l_i_gid_high;	/* high 16 bits of gid */
			uint32_t l_i_reserved2;
		} linux2;
	} osd2;
};

_Static_assert(sizeof(struct ext2_inode) == EXT2_GOOD_OLD_INODE_SIZE, "a rev-0 inode is 128 bytes");
_Static_assert(offsetof(struct ext2_inode, i_block) == 40, "i_block at 40");
_Static_assert(offsetof(struct ext2_inode, osd2) == 116, "osd2 at 116");

#define i_reserved1	osd1.linux1.l_i_reserved1
#define i_frag		osd2.linux2.l_i_frag
#define i_fsize		osd2.linux2.l_i_fsize
#define i_uid_low	i_uid
#define i_gid_low	i_gid
#define i_uid_high	osd2.linux2.l_i_uid_high
#define i_gid_high	osd2.linux2.l_i_gid_high
#define i_reserved2	osd2.linux2.l_i_reserved2

/* i_flags (Linux's FS_*_FL values) */
#define EXT2_SECRM_FL		0x00000001	/* secure deletion */
#define EXT2_UNRM_FL		0x00000002	/* undelete */
#define EXT2_COMPR_FL		0x00000004	/* compress file */
#define EXT2_SYNC_FL		0x00000008	/* synchronous updates */
#define EXT2_IMMUTABLE_FL	0x00000010
#define EXT2_APPEND_FL		0x00000020	/* writes may only append */
#define EXT2_NODUMP_FL		0x00000040
#define EXT2_NOATIME_FL		0x00000080
#define EXT2_BTREE_FL		0x00001000	/* hash-indexed directory (dir_index) */
#define EXT2_INDEX_FL		0x00001000	/* ... the same bit: clear it when changing the dir */
#define EXT2_IMAGIC_FL		0x00002000
#define EXT2_JOURNAL_DATA_FL	0x00004000
#define EXT2_NOTAIL_FL		0x00008000
#define EXT2_DIRSYNC_FL		0x00010000
#define EXT2_TOPDIR_FL		0x00020000
#define EXT4_EXTENTS_FL		0x00080000	/* ext4: i_block holds an extent tree */

/* ---- directory entries ---- */

/*
 * Guarded so that fs/ext2/dir_block.h (written alongside, with the same definitions) and this
 * header can be included in either order until they are merged.  Linux spells the file
 * types as an enum; here they are macros for that reason, with the same names and values.
 */
#ifndef EXT2_NAME_LEN
#define EXT2_NAME_LEN		255
#endif

#ifndef EXT2_DIR_ENTRY_2_DEFINED
#define EXT2_DIR_ENTRY_2_DEFINED
struct ext2_dir_entry_2 {
	uint32_t inode;			/* inode number (0: unused entry) */
	uint16_t rec_len;		/* bytes to the next entry */
	uint8_t name_len;
	uint8_t file_type;		/* EXT2_FT_* (with FILETYPE; else the name_len high byte) */
	char name[];			/* up to EXT2_NAME_LEN bytes, not NUL-terminated */
};
#endif

_Static_assert(sizeof(struct ext2_dir_entry_2) == 8, "a directory entry header is 8 bytes");

/* Directory file types: only the low 3 bits are used. */
#ifndef EXT2_FT_UNKNOWN
#define EXT2_FT_UNKNOWN		0
#define EXT2_FT_REG_FILE	1
#define EXT2_FT_DIR		2
#define EXT2_FT_CHRDEV		3
#define EXT2_FT_BLKDEV		4
#define EXT2_FT_FIFO		5
#define EXT2_FT_SOCK		6
#define EXT2_FT_SYMLINK		7
#define EXT2_FT_MAX		8
#endif

/* Entries start on 4-byte boundaries; an entry for a name of length n needs this much. */
#ifndef EXT2_DIR_PAD
#define EXT2_DIR_PAD		4
#define EXT2_DIR_ROUND		(EXT2_DIR_PAD - 1)
#define EXT2_DIR_REC_LEN(name_len)	\
	(((unsigned int)(name_len) + 8 + EXT2_DIR_ROUND) & ~EXT2_DIR_ROUND)
#endif
#define EXT2_MAX_REC_LEN	((1 << 16) - 1)

#include "super_check.h"

#endif
