/*
 * ext2.h - ext2's in-memory objects (fs/ext2/): the mounted filesystem (ext2_sb_info) and the
 * inode (ext2_inode_info, with the VFS inode inside, as Linux's).  The on-disk format and the
 * mount checks are in ext2_fs.h / super_check.c; directory blocks in dir_block.c.
 *
 * Where tinymm differs from v6.10, and why: no reservation windows, no ACLs or extended
 * attributes, no quota, no DAX; the group descriptors are re-read through the block device's
 * cache (sb_bread) rather than pinned in an array of buffer heads, so the cache may reclaim
 * them like any other metadata (they are small and hot, so they stay in practice).
 * Locking: s_lock (a mutex) serialises block and inode allocation and the free counts of the
 *   superblock and group descriptors; an inode's i_rwsem (the VFS's) covers its i_data[] block
 *   map, i_size and its directory blocks; metadata buffers are written under their folio lock
 *   by the buffer-head code.
 */
#ifndef TINYMM_FS_EXT2_H
#define TINYMM_FS_EXT2_H

#include "tinymm/buffer_head.h"
#include "tinymm/err.h"
#include "tinymm/mutex.h"
#include "tinymm/vfs.h"
#include "ext2_fs.h"
#include "super_check.h"

struct ext2_sb_info {
	struct ext2_geometry geo;		/* from ext2_check_super() */
	struct buffer_head *s_sbh;		/* the superblock's buffer, held while mounted */
	struct ext2_super_block *s_es;		/* its bytes in that buffer */
	unsigned long s_sb_block;		/* the block holding the superblock */
	unsigned int s_sb_offset;		/* its byte offset in that block */
	struct mutex s_lock;			/* allocation, free counts */
	uint32_t s_next_generation;
	unsigned long s_mount_state;		/* s_state as found at mount */
};

struct ext2_inode_info {
	uint32_t i_data[EXT2_N_BLOCKS];		/* the block map, host order */
	uint32_t i_flags;
	uint32_t i_dtime;
	uint32_t i_block_group;
	uint32_t i_dir_start_lookup;
	uint32_t i_file_acl;
	bool i_new;				/* allocated, never written: zero its slot first */
	struct inode vfs_inode;
};

static inline struct ext2_sb_info *EXT2_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline struct ext2_inode_info *EXT2_I(struct inode *inode)
{
	return container_of(inode, struct ext2_inode_info, vfs_inode);
}

/* super.c */
int init_ext2_fs(void);
void ext2_msg(struct super_block *sb, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The group descriptor of @group, its buffer referenced in *@bhp (brelse it); NULL on error. */
struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb, unsigned int group,
					    struct buffer_head **bhp);
/* inode.c */
struct inode *ext2_iget(struct super_block *sb, unsigned long ino);
int ext2_get_block(struct inode *inode, sector_t iblock, struct buffer_head *bh, int create);
int ext2_write_inode(struct inode *inode, bool wait);
void ext2_evict_inode(struct inode *inode);
int ext2_setsize(struct inode *inode, loff_t size);
void ext2_set_inode_ops(struct inode *inode);
extern const struct address_space_operations ext2_aops;
/* blockmap.c */
bool ext2_block_valid(struct super_block *sb, uint32_t block);
void ext2_truncate_blocks(struct inode *inode, loff_t size);
/* balloc.c: bitmaps are little-endian bit order (bit i: byte i / 8, bit i % 8) */
bool ext2_test_bit(unsigned int nr, const void *map);
void ext2_set_bit(unsigned int nr, void *map);
void ext2_clear_bit(unsigned int nr, void *map);
unsigned int ext2_find_next_zero_bit(const void *map, unsigned int size, unsigned int from);
uint32_t ext2_new_block(struct inode *inode, uint32_t goal, int *errp);
void ext2_free_blocks(struct inode *inode, uint32_t block, uint32_t count);
/* ialloc.c */
struct inode *ext2_new_inode(struct inode *dir, unsigned int mode);
void ext2_free_inode(struct inode *inode);
/* dir.c */
extern const struct file_operations ext2_dir_operations;
int ext2_inode_by_name(struct inode *dir, const struct qstr *name, uint32_t *ino);
/* The entry named @name: its byte position in the directory and its inode; -ENOENT if none. */
int ext2_find_entry(struct inode *dir, const struct qstr *name, loff_t *posp, uint32_t *ino);
/* Folio @n of directory @dir, read, checked (PG_checked) and referenced, or ERR_PTR. */
struct folio *ext2_get_dir_folio(struct inode *dir, unsigned long n);
/* dir_write.c (the directory's i_rwsem held) */
int ext2_add_link(struct dentry *dentry, struct inode *inode);
int ext2_delete_entry(struct inode *dir, loff_t pos);
int ext2_set_link(struct inode *dir, loff_t pos, struct inode *inode);
int ext2_make_empty(struct inode *inode, struct inode *parent);
bool ext2_empty_dir(struct inode *inode);
/* namei.c */
extern const struct inode_operations ext2_dir_inode_operations;
/* file.c, symlink.c */
extern const struct inode_operations ext2_file_inode_operations;
extern const struct file_operations ext2_file_operations;
extern const struct inode_operations ext2_symlink_inode_operations;
extern const struct inode_operations ext2_fast_symlink_inode_operations;

#endif
