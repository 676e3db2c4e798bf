/*
 * super.c - filesystems, superblocks and the mount table (Linux's fs/super.c, fs/namespace.c
 * and fs/filesystems.c, reduced): register_filesystem, do_mount (the first mount is the root,
 * at "/" with no mountpoint; later ones cover an existing directory), do_umount (refused while
 * a file is open on the mount or something is mounted below it), sync, and the boot-time
 * root (tinymm.root=<dev>, or a ramfs).
 *
 * Invariants: one superblock per mount (no bind mounts, a device mounted at most once), so
 *   s_active is 0 or 1; a vfsmount holds its root dentry and its mountpoint (with
 *   d_mounted set); mnt_count counts the table's reference plus every walk and open file on
 *   the mount.
 * Locking: vfs_lock for vfs_mounts, root_mnt, mnt_count and d_mounted; file_systems is
 *   written at boot only (register_filesystem before the first mount) and read after.
 *
 * Where tinymm differs from v6.10, and why: one namespace; no superblock sharing between
 * mounts; mount flags are the superblock's (SB_RDONLY); no lazy or forced umount; the root
 * can be unmounted when idle (then the next mount is the root again), so a script can leave
 * an ext2 root clean before power-off.  A filesystem's fill_super reason is printed here.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/errname.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/writeback.h"
#include "internal.h"

static struct file_system_type *file_systems;
/* Linux's mnt_cache, and a cache of superblocks (v6.10 kzallocs them): the boot-time root then
 * leaves the kmalloc classes as they were, which the slab tests count after boot. */
static struct kmem_cache *mnt_cache, *sb_cache;
LIST_HEAD(vfs_mounts);
struct vfsmount *root_mnt;

int register_filesystem(struct file_system_type *fs)
{
	for (struct file_system_type *p = file_systems; p; p = p->next)
		if (p == fs || !strcmp(p->name, fs->name))
			return -EBUSY;
	fs->next = NULL;
	struct file_system_type **pp = &file_systems;
	while (*pp)
		pp = &(*pp)->next;
	*pp = fs;
	return 0;
}

static struct file_system_type *get_fs_type(const char *name)
{
	for (struct file_system_type *p = file_systems; p; p = p->next)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

struct vfsmount *mntget(struct vfsmount *mnt)
{
	mutex_lock(&vfs_lock);
	mnt->mnt_count++;
	mutex_unlock(&vfs_lock);
	return mnt;
}

/* The table's reference keeps a mount: the last mntput never frees (do_umount does). */
void mntput(struct vfsmount *mnt)
{
	mutex_lock(&vfs_lock);
	mnt->mnt_count--;
	mutex_unlock(&vfs_lock);
}

/* Both references under one hold of vfs_lock: lookups take and drop paths all the time. */
void path_get(const struct path *path)
{
	mutex_lock(&vfs_lock);
	path->mnt->mnt_count++;
	if (path->dentry)
		__dget_locked(path->dentry);
	mutex_unlock(&vfs_lock);
}

void path_put(const struct path *path)
{
	mutex_lock(&vfs_lock);
	if (!path->dentry || __dput_locked(path->dentry)) {
		path->mnt->mnt_count--;
		mutex_unlock(&vfs_lock);
		return;
	}
	mutex_unlock(&vfs_lock);
	dput(path->dentry);		/* the dentry's last reference: it is freed */
	mntput(path->mnt);
}

struct vfsmount *lookup_mnt_locked(struct vfsmount *parent, struct dentry *mountpoint)
{
	struct vfsmount *m;

	lockdep_assert_held(&vfs_lock);
	list_for_each_entry(m, &vfs_mounts, mnt_list)
		if (m->mnt_parent == parent && m->mnt_mountpoint == mountpoint && m != parent)
			return m;
	return NULL;
}

/* A superblock of @type on @bdev filled in, or -errno (the fs's reason printed). */
static int mount_fs(struct file_system_type *type, struct block_device *bdev, unsigned long flags,
		    const char *devname, struct super_block **sbp)
{
	struct super_block *sb = kmem_cache_alloc(sb_cache, GFP_KERNEL | __GFP_ZERO);
	char why[96] = "";
	int err;

	if (!sb)
		return -ENOMEM;
	sb->s_bdev = bdev;
	sb->s_flags = flags & SB_RDONLY;
	sb->s_type = type;
	sb->s_maxbytes = LLONG_MAX;
	INIT_LIST_HEAD(&sb->s_inodes);
	err = type->fill_super(sb, flags & SB_RDONLY, why, sizeof(why));
	if (!err && !sb->s_root)
		err = -EINVAL;
	if (err) {
		if (why[0])
			pr_err("%s\n", why);
		else
			pr_err("VFS: %s on %s: %s\n", type->name, devname, errname(-err));
		shrink_dcache_for_umount(sb);	/* a root made before the failure */
		evict_inodes(sb);
		if (type->kill_sb)
			type->kill_sb(sb);
		kmem_cache_free(sb_cache, sb);
		return err;
	}
	sb->s_flags |= SB_ACTIVE;
	sb->s_active = 1;
	*sbp = sb;
	return 0;
}

int do_mount(const char *devname, const char *dir, const char *fstype, unsigned long flags)
{
	struct file_system_type *type = NULL;
	struct block_device *bdev = NULL;
	struct super_block *sb = NULL;
	struct path mp = { NULL, NULL };
	struct vfsmount *mnt;
	int err;

	if (fstype && !(type = get_fs_type(fstype)))
		return -ENODEV;
	if (!type || (type->fs_flags & FS_REQUIRES_DEV)) {
		bdev = blkdev_get_by_name(devname);
		if (!bdev)
			return -ENXIO;
	}
	mnt = kmem_cache_alloc(mnt_cache, GFP_KERNEL | __GFP_ZERO);
	if (!mnt)
		return -ENOMEM;
	mutex_lock(&vfs_lock);
	bool first = !root_mnt;
	bool busy = false;
	struct vfsmount *m;
	list_for_each_entry(m, &vfs_mounts, mnt_list)
		busy |= bdev && m->mnt_sb->s_bdev == bdev;
	mutex_unlock(&vfs_lock);
	if (busy) {
		err = -EBUSY;			/* the device is mounted already */
		goto fail;
	}
	if (first) {
		if (strcmp(dir, "/")) {
			err = -ENOENT;		/* nothing to walk yet: the root comes first */
			goto fail;
		}
	} else {
		err = kern_path(dir, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &mp);
		if (err)
			goto fail;
		if (mp.dentry->d_mounted || mp.dentry == mp.mnt->mnt_root) {
			err = -EBUSY;		/* one mount per directory */
			goto fail;
		}
	}
	if (type) {
		err = mount_fs(type, bdev, flags, devname, &sb);
	} else {				/* probe: every filesystem that takes a device */
		err = -EINVAL;
		for (type = file_systems; type && err; type = type->next)
			if (type->fs_flags & FS_REQUIRES_DEV)
				err = mount_fs(type, bdev, flags, devname, &sb);
		if (err == -EINVAL)
			pr_err("VFS: %s: no registered filesystem recognises it\n", devname);
	}
	if (err)
		goto fail;
	mnt->mnt_sb = sb;
	mnt->mnt_root = dget(sb->s_root);
	mnt->mnt_count = 1;
	strncpy(mnt->mnt_devname, devname, sizeof(mnt->mnt_devname) - 1);
	mutex_lock(&vfs_lock);
	if (first) {
		mnt->mnt_parent = mnt;
		mnt->mnt_mountpoint = mnt->mnt_root;
		root_mnt = mnt;
	} else {
		mnt->mnt_parent = mp.mnt;		/* the walk's references become the mount's */
		mnt->mnt_mountpoint = mp.dentry;
		mp.dentry->d_mounted = true;
	}
	list_add_tail(&mnt->mnt_list, &vfs_mounts);
	mutex_unlock(&vfs_lock);
	return 0;
fail:
	if (mp.mnt)
		path_put(&mp);
	kmem_cache_free(mnt_cache, mnt);
	return err;
}

/* Write back every inode of @sb (data, then the inode), then the fs and its device. */
int sync_filesystem(struct super_block *sb)
{
	struct inode *inode, *prev = NULL;
	int err = 0, e;

	if (sb_rdonly(sb))
		return 0;
	mutex_lock(&vfs_lock);
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
		if (inode->i_state & (I_NEW | I_FREEING))
			continue;
		/* Held, it stays on s_inodes: the walk resumes from it after the lock is retaken. */
		if (inode->i_count++ == 0 && !list_empty(&inode->i_lru)) {
			list_del_init(&inode->i_lru);
			nr_inodes_unused--;
		}
		mutex_unlock(&vfs_lock);
		iput(prev);
		prev = inode;
		e = write_inode_now(inode, true);
		if (!err)
			err = e;
		mutex_lock(&vfs_lock);
	}
	mutex_unlock(&vfs_lock);
	iput(prev);
	if (sb->s_op && sb->s_op->sync_fs && (e = sb->s_op->sync_fs(sb, true)) && !err)
		err = e;
	if (sb->s_bdev && sb->s_bdev->bd_mapping && (e = blkdev_fsync(sb->s_bdev)) && !err)
		err = e;
	return err;
}

int vfs_sync(void)
{
	struct vfsmount *m;
	int err = 0;

	/* Mounts are freed only by do_umount, which a sync from the same shell cannot race. */
	list_for_each_entry(m, &vfs_mounts, mnt_list) {
		int e = sync_filesystem(m->mnt_sb);
		if (e && !err)
			err = e;
	}
	return err;
}

int do_umount(const char *dir)
{
	struct path p;
	struct vfsmount *m;
	int err = kern_path(dir, LOOKUP_FOLLOW, &p);

	if (err)
		return err;
	struct vfsmount *mnt = p.mnt;
	struct super_block *sb = mnt->mnt_sb;
	if (p.dentry != mnt->mnt_root) {
		path_put(&p);
		return -EINVAL;			/* not a mount point */
	}
	mutex_lock(&vfs_lock);
	/* Busy: a mount below, or references beyond the table's and this walk's (open files,
	 * another walk in progress). */
	bool busy = mnt->mnt_count > 2;
	list_for_each_entry(m, &vfs_mounts, mnt_list)
		busy |= m->mnt_parent == mnt && m != mnt;
	mutex_unlock(&vfs_lock);
	path_put(&p);
	if (busy)
		return -EBUSY;
	sync_filesystem(sb);
	mutex_lock(&vfs_lock);
	list_del_init(&mnt->mnt_list);
	if (mnt == root_mnt)
		root_mnt = NULL;
	else
		mnt->mnt_mountpoint->d_mounted = false;
	mutex_unlock(&vfs_lock);
	if (mnt->mnt_parent != mnt) {
		dput(mnt->mnt_mountpoint);
		mntput(mnt->mnt_parent);
	}
	dput(mnt->mnt_root);
	sb->s_flags &= ~SB_ACTIVE;		/* from here the last iput evicts */
	shrink_dcache_for_umount(sb);
	int left = evict_inodes(sb);
	if (left)
		pr_err("VFS: Busy inodes after unmount of %s (%d)\n", mnt->mnt_devname, left);
	if (sb->s_op && sb->s_op->put_super)
		sb->s_op->put_super(sb);
	if (sb->s_type->kill_sb)
		sb->s_type->kill_sb(sb);
	kmem_cache_free(sb_cache, sb);
	kmem_cache_free(mnt_cache, mnt);
	return 0;
}

/* tinymm.root=<dev>: the root filesystem's device ("vda"), its type probed. */
static char root_dev[16];	/* a block device's name: "mmcblk0p1" */
static int set_root_dev(const char *val)
{
	if (!*val || strlen(val) >= sizeof(root_dev))
		return -1;
	strcpy(root_dev, val);
	return 0;
}
KPARAM(root, set_root_dev, "the root filesystem's block device (e.g. vda, vda1); default: a ramfs");

void vfs_init(void)
{
	int err;

	dcache_init();
	icache_init();
	mnt_cache = kmem_cache_create("mnt_cache", sizeof(struct vfsmount), 0, SLAB_PANIC, NULL);
	sb_cache = kmem_cache_create("super_block", sizeof(struct super_block), 0, SLAB_PANIC, NULL);
	/* Every filesystem registers here, before the root is probed. */
	register_filesystem(&ramfs_fs_type);
	if (init_ext2_fs())
		pr_err("VFS: ext2 could not register\n");
	if (root_dev[0]) {
		err = do_mount(root_dev, "/", NULL, 0);
		if (!err) {
			pr_info("VFS: Mounted root (%s filesystem) on device %s.\n",
				root_mnt->mnt_sb->s_type->name, root_dev);
			return;
		}
		pr_err("VFS: Cannot open root device \"%s\": %s; a ramfs is the root\n",
		       root_dev, errname(-err));
	}
	err = do_mount("none", "/", "ramfs", 0);
	if (err)
		pr_err("VFS: cannot mount a ramfs root: %s\n", errname(-err));
}
