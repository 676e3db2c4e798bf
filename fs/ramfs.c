/*
 * ramfs.c - a filesystem with no device (Linux's fs/ramfs/inode.c with the fs/libfs.c simple_*
 * helpers it uses): the dcache IS the directory and the page cache IS the file.
 *
 * Directories: a created name's dentry is pinned (an extra reference, dropped by unlink,
 * rmdir or being renamed over), so it is never unused and the dcache shrinker never frees it;
 * i_op->lookup only adds negative dentries (a name not in the dcache does not exist).  readdir
 * walks the positive children in d_subdirs: positions 0 and 1 are "." and "..", 2 + n the n-th
 * child.  Files: folios created zeroed by write_begin (or by read_folio/readahead for a hole),
 * marked uptodate and never dirty: nothing could write them back (no writepages), so they
 * must not look reclaimable as clean ones would: every mapping is AS_UNEVICTABLE, which keeps
 * its folios on the unevictable LRU (mm/swap.c), as Linux's ramfs does.  An inode lives as
 * long as a name (pinned dentry) or an open file refers to it, and is evicted at the last
 * reference once unlinked, its page cache truncated.
 *
 * Where tinymm differs from v6.10, and why: a symlink's target is a kmalloc'd string in
 * i_private (v6.10's ramfs uses page_symlink: a folio per link); write_end does not mark the
 * folio dirty at all (v6.10 sets PG_dirty through noop_dirty_folio, without tags): with no
 * writeback the bit would only make writeback and reclaim look at folios they cannot write;
 * readdir positions are indices (v6.10 keeps a cursor dentry), so a directory changed between
 * two getdents64 calls may skip or repeat a name.
 * Locking: the VFS's (i_rwsem of the directory around every operation here; vfs_lock inside
 * the dcache calls and around the child walks of readdir and simple_empty).
 */
#include <limits.h>
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/pagemap.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "internal.h"

#define RAMFS_MAGIC	0x858458f6

static const struct inode_operations ramfs_dir_iops, ramfs_file_iops, ramfs_symlink_iops;
static const struct file_operations ramfs_dir_fops, ramfs_file_fops;
static const struct address_space_operations ramfs_aops;

/* ---- the page cache ---- */

/* A hole (truncated up, never written): zeros (Linux's simple_read_folio on a new folio). */
static int ramfs_read_folio(struct address_space *mapping, struct folio *folio)
{
	memset(page_address(&folio->page), 0, PAGE_SIZE);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static void ramfs_readahead(struct readahead_control *rac)
{
	struct folio *folio;

	while ((folio = readahead_folio(rac)))
		ramfs_read_folio(rac->mapping, folio);
}

/* Linux's simple_write_begin: a new folio gets zeros outside the bytes to be written. */
static int ramfs_write_begin(struct address_space *mapping, loff_t pos, unsigned int len,
			     struct folio **foliop)
{
	struct folio *folio = __filemap_get_folio(mapping, (pgoff_t)(pos >> PAGE_SHIFT),
						  FGP_LOCK | FGP_CREAT | FGP_WRITE, GFP_KERNEL);
	unsigned int from = (unsigned int)(pos & (PAGE_SIZE - 1));

	if (IS_ERR(folio))
		return (int)PTR_ERR(folio);
	if (!folio_test_uptodate(folio) && len != PAGE_SIZE) {
		uint8_t *p = page_address(&folio->page);

		memset(p, 0, from);
		memset(p + from + len, 0, PAGE_SIZE - from - len);
	}
	*foliop = folio;
	return 0;
}

static int ramfs_write_end(struct address_space *mapping, loff_t pos, unsigned int len,
			   unsigned int copied, struct folio *folio)
{
	if (!folio_test_uptodate(folio))
		folio_mark_uptodate(folio);
	folio_unlock(folio);
	folio_put(folio);
	return (int)copied;
}

static const struct address_space_operations ramfs_aops = {
	.read_folio = ramfs_read_folio,
	.readahead = ramfs_readahead,
	.write_begin = ramfs_write_begin,
	.write_end = ramfs_write_end,
};

/* ---- inodes ---- */

static unsigned long ramfs_next_ino = 1;

static struct inode *ramfs_get_inode(struct super_block *sb, struct inode *dir, unsigned int mode)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = __atomic_add_fetch(&ramfs_next_ino, 1, __ATOMIC_RELAXED);
	inode->i_mode = mode;
	inode->i_mapping->a_ops = &ramfs_aops;
	mapping_set_unevictable(inode->i_mapping);
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
	switch (mode & S_IFMT) {
	case S_IFDIR:
		inode->i_op = &ramfs_dir_iops;
		inode->i_fop = &ramfs_dir_fops;
		inc_nlink(inode);		/* "." */
		break;
	case S_IFLNK:
		inode->i_op = &ramfs_symlink_iops;
		break;
	default:
		inode->i_op = &ramfs_file_iops;
		inode->i_fop = &ramfs_file_fops;
		break;
	}
	(void)dir;
	return inode;
}

static void ramfs_evict_inode(struct inode *inode)
{
	truncate_inode_pages(&inode->i_data, 0);
	kfree(inode->i_private);		/* a symlink's target */
}

static void dir_touch(struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = current_time(dir);
}

/* Linux's ramfs_mknod: the new inode on the (negative, hashed) dentry, pinned. */
static int ramfs_mknod(struct inode *dir, struct dentry *dentry, unsigned int mode)
{
	struct inode *inode = ramfs_get_inode(dir->i_sb, dir, mode);

	lockdep_assert_held(&dir->i_rwsem);
	if (!inode)
		return -ENOSPC;
	d_instantiate(dentry, inode);
	dget(dentry);				/* the pin: the dcache is the directory */
	dir_touch(dir);
	return 0;
}

static int ramfs_create(struct inode *dir, struct dentry *dentry, unsigned int mode)
{
	return ramfs_mknod(dir, dentry, (mode & S_IALLUGO) | S_IFREG);
}

static int ramfs_mkdir(struct inode *dir, struct dentry *dentry, unsigned int mode)
{
	int err = ramfs_mknod(dir, dentry, (mode & S_IALLUGO) | S_IFDIR);

	if (!err)
		inc_nlink(dir);			/* the child's ".." */
	return err;
}

static int ramfs_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	size_t len = strlen(target);
	char *copy = kmalloc(len + 1, GFP_KERNEL);
	struct inode *inode;

	if (!copy)
		return -ENOMEM;
	inode = ramfs_get_inode(dir->i_sb, dir, S_IFLNK | 0777);
	if (!inode) {
		kfree(copy);
		return -ENOSPC;
	}
	memcpy(copy, target, len + 1);
	inode->i_private = copy;
	i_size_write(inode, (loff_t)len);
	d_instantiate(dentry, inode);
	dget(dentry);
	dir_touch(dir);
	return 0;
}

static int ramfs_get_link(struct inode *inode, char *buf, size_t len)
{
	size_t n = strlen(inode->i_private);

	if (!len)
		return -ENAMETOOLONG;
	if (n >= len)
		n = len - 1;
	memcpy(buf, inode->i_private, n);
	buf[n] = '\0';
	return (int)n;
}

/* Linux's simple_link. */
static int ramfs_link(struct dentry *old, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = old->d_inode;

	inode->i_ctime = current_time(inode);
	inc_nlink(inode);
	ihold(inode);
	d_instantiate(dentry, inode);
	dget(dentry);
	dir_touch(dir);
	return 0;
}

/* Linux's simple_unlink: one link less, and the pin goes. */
static int ramfs_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;

	inode->i_ctime = current_time(inode);
	dir_touch(dir);
	drop_nlink(inode);
	dput(dentry);
	return 0;
}

/* No positive child left (Linux's simple_empty). */
static bool ramfs_empty(struct dentry *dentry)
{
	struct dentry *child;
	bool empty = true;

	mutex_lock(&vfs_lock);
	list_for_each_entry(child, &dentry->d_subdirs, d_child)
		if (child->d_inode && !child->d_unhashed) {
			empty = false;
			break;
		}
	mutex_unlock(&vfs_lock);
	return empty;
}

static int ramfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (!ramfs_empty(dentry))
		return -ENOTEMPTY;
	drop_nlink(dentry->d_inode);		/* "." */
	ramfs_unlink(dir, dentry);
	drop_nlink(dir);			/* the child's ".." */
	return 0;
}

/* Linux's simple_rename: the VFS's d_move moves the name (and its pin) afterwards. */
static int ramfs_rename(struct inode *old_dir, struct dentry *old, struct inode *new_dir,
			struct dentry *new)
{
	bool they_are_dirs = S_ISDIR(old->d_inode->i_mode);

	if (new->d_inode && S_ISDIR(new->d_inode->i_mode) && !ramfs_empty(new))
		return -ENOTEMPTY;
	if (new->d_inode) {
		if (they_are_dirs) {
			drop_nlink(new->d_inode);
			drop_nlink(old_dir);
		}
		ramfs_unlink(new_dir, new);
	} else if (they_are_dirs) {
		drop_nlink(old_dir);
		inc_nlink(new_dir);
	}
	dir_touch(old_dir);
	dir_touch(new_dir);
	old->d_inode->i_ctime = current_time(old->d_inode);
	return 0;
}

/* Linux's simple_lookup: whatever is not in the dcache does not exist. */
static int ramfs_lookup(struct inode *dir, struct dentry *dentry)
{
	if (dentry->d_name.len > NAME_MAX)
		return -ENAMETOOLONG;
	d_add(dentry, NULL);
	return 0;
}

static int ramfs_setsize(struct inode *inode, loff_t size)
{
	truncate_setsize(inode, size);
	inode->i_mtime = inode->i_ctime = current_time(inode);
	return 0;
}

static unsigned int dt_type(const struct inode *inode)
{
	return (inode->i_mode >> 12) & 15;	/* DT_* are S_IFMT >> 12, as Linux's fs_umode_to_dtype */
}

/* Linux's dcache_readdir, with positions as indices (see the header). */
static int ramfs_readdir(struct file *file, struct dir_context *ctx)
{
	struct dentry *dentry = file->f_path.dentry, *child;
	loff_t n = 2;

	if (ctx->pos == 0) {
		if (ctx->actor(ctx, ".", 1, 1, dentry->d_inode->i_ino, DT_DIR))
			return 0;
		ctx->pos = 1;
	}
	if (ctx->pos == 1) {
		if (ctx->actor(ctx, "..", 2, 2, dentry->d_parent->d_inode->i_ino, DT_DIR))
			return 0;
		ctx->pos = 2;
	}
	/* The actor only copies into the caller's buffer: it may run under vfs_lock. */
	mutex_lock(&vfs_lock);
	list_for_each_entry(child, &dentry->d_subdirs, d_child) {
		if (!child->d_inode || child->d_unhashed)
			continue;
		if (n++ < ctx->pos)
			continue;
		if (ctx->actor(ctx, child->d_name.name, (int)child->d_name.len, n,
			       child->d_inode->i_ino, dt_type(child->d_inode)))
			break;
		ctx->pos = n;
	}
	mutex_unlock(&vfs_lock);
	return 0;
}

static int ramfs_fsync(struct file *file)
{
	return 0;				/* nothing to write: memory is the store */
}

static const struct inode_operations ramfs_dir_iops = {
	.lookup = ramfs_lookup,
	.create = ramfs_create,
	.mkdir = ramfs_mkdir,
	.unlink = ramfs_unlink,
	.rmdir = ramfs_rmdir,
	.rename = ramfs_rename,
	.link = ramfs_link,
	.symlink = ramfs_symlink,
};
static const struct inode_operations ramfs_file_iops = { .setsize = ramfs_setsize };
static const struct inode_operations ramfs_symlink_iops = { .get_link = ramfs_get_link };
static const struct file_operations ramfs_dir_fops = {
	.iterate_shared = ramfs_readdir,
	.fsync = ramfs_fsync,
};
static const struct file_operations ramfs_file_fops = {
	.read = generic_file_read,
	.write = generic_file_write,
	.fsync = ramfs_fsync,
};

/* ---- the superblock ---- */

static int ramfs_statfs(struct super_block *sb, struct kstatfs *buf)
{
	buf->f_type = RAMFS_MAGIC;
	buf->f_bsize = PAGE_SIZE;
	buf->f_namelen = NAME_MAX;
	return 0;
}

static const struct super_operations ramfs_sops = {
	.evict_inode = ramfs_evict_inode,
	.statfs = ramfs_statfs,
};

static int ramfs_fill_super(struct super_block *sb, unsigned long flags, char *err, size_t errlen)
{
	struct inode *root;

	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = RAMFS_MAGIC;
	sb->s_op = &ramfs_sops;
	/* Linux's MAX_LFS_FILESIZE: page indices are unsigned longs. */
	sb->s_maxbytes = sizeof(pgoff_t) < 8 ? ((uint64_t)ULONG_MAX << PAGE_SHIFT) : (uint64_t)LLONG_MAX;
	root = ramfs_get_inode(sb, NULL, S_IFDIR | 0755);
	sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		ksnprintf(err, errlen, "ramfs: no memory for the root");
		return -ENOMEM;
	}
	return 0;
}

/* umount: the pins go with the dentries (shrink_dcache_for_umount frees them all). */
struct file_system_type ramfs_fs_type = {
	.name = "ramfs",
	.fill_super = ramfs_fill_super,
};
