/*
 * fs/internal.h - what the VFS's files share and its tests look at; filesystems use vfs.h.
 * Locking: everything named *_locked needs vfs_lock (fs/dcache.c), which is never held while a
 * filesystem's operation runs (they call back into d_add, iget_locked, mark_inode_dirty).
 */
#ifndef TINYMM_FS_INTERNAL_H
#define TINYMM_FS_INTERNAL_H

#include "tinymm/vfs.h"

extern struct mutex vfs_lock;

/* fs/dcache.c */
struct dentry *d_alloc(struct dentry *parent, const struct qstr *name);
/* A referenced hashed dentry of @name in @parent, or NULL. */
struct dentry *d_lookup(struct dentry *parent, const struct qstr *name);
struct dentry *__dget_locked(struct dentry *dentry);
/* After a filesystem's rename: @dentry takes @target's parent and name, @target is dropped.
 * The name's storage comes first from d_move_prepare (before the rename: d_move cannot fail). */
char *d_move_prepare(const struct qstr *name, int *err);
void d_move(struct dentry *dentry, struct dentry *target, char *buf);
/* umount: every dentry of @sb freed, referenced or not (the mount is known idle). */
void shrink_dcache_for_umount(struct super_block *sb);
void shrink_dcache_parent(struct dentry *parent);
/* The dcache's and icache's sizes (Linux's dentry_stat / inodes_stat), for tests and `df`. */
extern unsigned long nr_dentry, nr_dentry_unused;
extern unsigned long nr_inodes, nr_inodes_unused;
extern struct shrinker dcache_shrinker, icache_shrinker;
void dcache_init(void);
void qstr_init(struct qstr *q, const char *name, unsigned int len);

/* fs/inode.c */
/* umount: evict every unused inode of @sb; the number still referenced (a bug) is returned. */
int evict_inodes(struct super_block *sb);
void icache_init(void);

/* fs/super.c: the mount table (vfs_lock) */
extern struct list_head vfs_mounts;
extern struct vfsmount *root_mnt;
struct vfsmount *lookup_mnt_locked(struct vfsmount *parent, struct dentry *mountpoint);
struct vfsmount *mntget(struct vfsmount *mnt);
void mntput(struct vfsmount *mnt);
void path_get(const struct path *path);
void path_put(const struct path *path);

/* fs/namei.c */
#define LOOKUP_FOLLOW		0x0001	/* follow a symlink in the last component */
#define LOOKUP_DIRECTORY	0x0002	/* the result must be a directory */
int kern_path(const char *name, unsigned int flags, struct path *path);
/* @dentry is a directory that is @ancestor or below it (the same superblock). */
bool is_subdir(struct dentry *dentry, struct dentry *ancestor);
/* A walk in progress (fs/namei.c; struct and helpers shared with open(O_CREAT), fs/open.c). */
enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

struct nameidata {
	struct path path;		/* where the walk is (referenced) */
	struct path root;		/* "/" (referenced) */
	struct qstr last;		/* the last component (want_parent walks) */
	int last_type;
	bool trailing_slash;		/* the last component had a '/' after it */
	unsigned int flags;		/* LOOKUP_* */
	int total_link_count;
	int depth;
	char *buf;			/* the body being walked (a symlink's), or NULL */
	struct { char *buf; const char *name; } stack[MAXSYMLINKS];
};
/* Walk to @name's parent, lock its i_rwsem and look the last component up: a referenced dentry,
 * NULL when the last component is "/", "." or "..", or ERR_PTR; terminate_walk in every case. */
struct dentry *parent_lookup(struct nameidata *nd, const char *name);
void parent_unlock(struct nameidata *nd, struct dentry *dentry);
void terminate_walk(struct nameidata *nd);

/* fs/read_write.c */
struct file *alloc_file(const struct path *path, unsigned int flags);

static inline bool sb_rdonly(const struct super_block *sb)
{
	return sb->s_flags & SB_RDONLY;
}

#endif
