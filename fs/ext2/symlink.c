/*
 * symlink.c - ext2 symbolic links: a fast symlink keeps its target in the inode's block map
 * (i_data, up to 60 bytes, no data block); a slow one in its first data block, read through
 * the inode's page cache.  The target's length is i_size; one longer than its storage, or with
 * a NUL inside, is a corrupt inode (-EUCLEAN), never read past.  Linux v6.10
 * fs/ext2/symlink.c.
 * Where tinymm differs from v6.10, and why: get_link copies the target into the caller's
 * buffer (tinymm's VFS walks with a buffer per level, no delayed_call).
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "ext2.h"

static int ext2_copy_target(struct inode *inode, const char *src, size_t room, char *buf,
			    size_t len)
{
	size_t n = (size_t)inode->i_size;

	if (inode->i_size <= 0 || n >= room || memchr(src, '\0', n)) {
		ext2_msg(inode->i_sb, KERN_ERR, "symlink #%lu: corrupt target (length %lld)",
			 inode->i_ino, (long long)inode->i_size);
		return -EUCLEAN;
	}
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, src, n);
	buf[n] = '\0';
	return (int)n;
}

static int ext2_fast_get_link(struct inode *inode, char *buf, size_t len)
{
	/* i_data is kept in host order: the target's bytes are its on-disk (little-endian) form. */
	uint32_t raw[EXT2_N_BLOCKS];

	for (int i = 0; i < EXT2_N_BLOCKS; i++)
		raw[i] = cpu_to_le32(EXT2_I(inode)->i_data[i]);
	return ext2_copy_target(inode, (const char *)raw, sizeof(raw), buf, len);
}

static int ext2_slow_get_link(struct inode *inode, char *buf, size_t len)
{
	struct folio *folio = read_cache_folio(inode->i_mapping, 0);
	int ret;

	if (IS_ERR(folio))
		return (int)PTR_ERR(folio);
	ret = ext2_copy_target(inode, page_address(&folio->page),
			       min((size_t)inode->i_sb->s_blocksize, (size_t)PAGE_SIZE), buf, len);
	folio_put(folio);
	return ret;
}

const struct inode_operations ext2_fast_symlink_inode_operations = {
	.get_link = ext2_fast_get_link,
};

const struct inode_operations ext2_symlink_inode_operations = {
	.get_link = ext2_slow_get_link,
};
