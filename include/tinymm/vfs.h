/*
 * vfs.h - the virtual filesystem's objects and calls (fs/), Linux's names and meanings, small.
 *
 *   struct super_block   one mounted filesystem: its block device, block size, root dentry,
 *                        s_op, its inodes (s_inodes), SB_RDONLY, the filesystem's s_fs_info
 *   struct inode         a file: mode, links, size, times, i_op / i_fop, its page cache
 *                        (i_data, what i_mapping points at), a reference count (i_count) and
 *                        state (I_NEW while being read in, I_DIRTY_SYNC when its on-disk copy
 *                        is stale, I_FREEING once evict has begun), i_private for the fs
 *   struct dentry        a name in a directory: d_name, d_parent, d_inode (NULL: a negative
 *                        entry, "no such name"), d_count, d_mounted when something is mounted
 *                        on it; cached in a hash by (parent, name), bounded by a shrinker
 *   struct vfsmount      a mount: the superblock, its root, where it is mounted (mnt_mountpoint
 *                        in mnt_parent)
 *   struct path          (mnt, dentry): where a walk is
 *   struct file          an open file: f_path, f_inode, f_op, f_pos, f_flags (O_*), its own
 *                        readahead state and write-error cursor (f_wb_err)
 *   struct file_system_type  a filesystem's name and fill_super
 *
 * The calls user tasks will make are kernel functions with Linux's results (a value >= 0 or
 * -errno): vfs_open/vfs_close, vfs_read/vfs_write/vfs_llseek, vfs_fstat/vfs_stat,
 * vfs_getdents64, vfs_unlink/vfs_mkdir/vfs_rmdir/vfs_rename/vfs_link/vfs_symlink,
 * vfs_ftruncate/vfs_truncate, vfs_fsync; do_mount/do_umount.
 *
 * Where tinymm differs from v6.10, and why: one namespace, no credentials or permission bits
 * checked (there is one user, the kernel; the mode bits are kept and reported), no RCU walk
 * (lookups take the dcache lock), no negative-dentry aging beyond the shrinker, one mount per
 * directory, no bind mounts, no file locks, no inotify.  i_rwsem is a mutex (no readers-writer
 * semaphore yet).  docs/vfs.md says what is left out and why.
 * Locking: vfs_lock (a mutex, fs/dcache.c) serialises the dcache, the inode hash and the mount
 *   table; each inode's i_rwsem serialises changes to its data and, for a directory, to its
 *   entries (lock order: parent before child, and for a rename the two parents by address).
 *   i_rwsem is taken before vfs_lock, never while holding it; no filesystem operation is
 *   called with vfs_lock held (they call d_add, iget_locked, mark_inode_dirty, which take it).
 *
 * What a filesystem does (fs/ramfs.c is the example; docs/vfs.md has the rules):
 *   fill_super: set s_op, s_blocksize(_bits), s_magic, s_maxbytes (default LLONG_MAX), read
 *     the root inode (iget_locked(sb, ino) -> I_NEW: fill in, unlock_new_inode; or
 *     iget_failed) and sb->s_root = d_make_root(root) (which drops the inode on failure).
 *   an inode: s_op->alloc_inode returns the fs's container; the VFS initialises the struct
 *     inode inside it (the fs need not call inode_init_once) and s_op->free_inode frees it.
 *     The fs sets i_mapping->a_ops, i_op, i_fop, and the size only through i_size_write
 *     (which keeps i_data.size, where reads stop, equal to i_size).
 *   lookup: d_add(dentry, inode or NULL); create/mkdir/symlink/link: d_instantiate(dentry,
 *     inode) on the hashed negative dentry given; unlink/rmdir: drop the link count (the VFS
 *     then d_deletes); rename: change the directories (the VFS then moves the dentry).
 *   evict_inode: truncate_inode_pages(&inode->i_data, 0), and free the file when i_nlink 0.
 */
#ifndef TINYMM_VFS_H
#define TINYMM_VFS_H

#include <limits.h>
#include "fs.h"
#include "atomic.h"
#include "kernel.h"
#include "list.h"
#include "mutex.h"
#include "stat.h"

/* Mode bits: stat.h (Linux's include/uapi/linux/stat.h). */
#ifndef S_IALLUGO
#define S_IALLUGO	07777
#endif

/* Open flags (Linux's generic values, include/uapi/asm-generic/fcntl.h). */
#define O_ACCMODE	00000003
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100
#define O_EXCL		00000200
#define O_TRUNC		00001000
#define O_APPEND	00002000
#define O_DIRECTORY	00200000
#define O_NOFOLLOW	00400000
#define O_CLOEXEC	02000000	/* the fd's, not the file's (fs/file.c) */

#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2

/* d_type values of getdents64 (Linux's DT_*). */
#define DT_UNKNOWN	0
#define DT_FIFO		1
#define DT_CHR		2
#define DT_DIR		4
#define DT_BLK		6
#define DT_REG		8
#define DT_LNK		10
#define DT_SOCK		12

/* Linux's (the C library's <limits.h> may have its own: ours win). */
#undef NAME_MAX
#undef PATH_MAX
#define NAME_MAX	255
#undef PATH_MAX			/* a C library's <limits.h> may define its own (newlib: 1024) */
#define PATH_MAX	4096
#define MAXSYMLINKS	40		/* symlinks one walk may follow (Linux's) */

/* Superblock flags. */
#define SB_RDONLY	1UL
#define SB_ACTIVE	(1UL << 30)	/* mounted: the last iput of a linked inode keeps it cached */

/* file_system_type->fs_flags. */
#define FS_REQUIRES_DEV	1		/* mounts a block device; `mount <dev> <dir>` probes these */

/* inode->i_state bits beyond the page cache's I_DIRTY_PAGES (fs.h, in i_data.i_state). */
#define I_NEW		(1UL << 3)
#define I_FREEING	(1UL << 5)
#define I_DIRTY_SYNC	(1UL << 0)	/* the on-disk inode needs writing (write_inode) */

struct super_block;
struct inode;
struct dentry;
struct file;
struct vfsmount;
struct kstatfs;

struct timespec64 {
	int64_t tv_sec;
	long tv_nsec;
};

struct qstr {
	const char *name;
	unsigned int len;
	uint32_t hash;
};

struct kstat {
	unsigned long ino;
	unsigned int mode;
	unsigned int nlink;
	unsigned int uid, gid;
	loff_t size;
	uint64_t blocks;		/* 512-byte units, as st_blocks */
	unsigned int blksize;
	struct timespec64 atime, mtime, ctime;
	char dev[8];			/* the block device's name */
};

struct kstatfs {
	unsigned long f_type;
	unsigned long f_bsize;
	uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	unsigned long f_namelen;
};

/* What ->iterate_shared fills: one call of actor per entry, from ctx->pos on; a nonzero return
 * stops the walk (the caller's buffer is full).  @pos is the position just after the entry (the
 * record's d_off); when the actor returns 0 the filesystem sets ctx->pos = @pos, so ctx->pos is
 * always where the next call resumes. */
struct dir_context;
typedef int (*filldir_t)(struct dir_context *ctx, const char *name, int namelen, loff_t pos,
			 uint64_t ino, unsigned int d_type);
struct dir_context {
	filldir_t actor;
	loff_t pos;
};

struct inode_operations {
	/* Find @dentry's name in @dir: d_add() the inode found, or NULL (a negative entry);
	 * 0 or -errno (-EUCLEAN / -EIO for a corrupt or unreadable directory). */
	int (*lookup)(struct inode *dir, struct dentry *dentry);
	int (*create)(struct inode *dir, struct dentry *dentry, unsigned int mode);
	int (*mkdir)(struct inode *dir, struct dentry *dentry, unsigned int mode);
	int (*unlink)(struct inode *dir, struct dentry *dentry);
	int (*rmdir)(struct inode *dir, struct dentry *dentry);
	int (*rename)(struct inode *old_dir, struct dentry *old, struct inode *new_dir,
		      struct dentry *new);
	int (*link)(struct dentry *old, struct inode *dir, struct dentry *dentry);
	int (*symlink)(struct inode *dir, struct dentry *dentry, const char *target);
	/* The symlink's target into @buf (@len bytes, NUL-terminated); its length or -errno. */
	int (*get_link)(struct inode *inode, char *buf, size_t len);
	/* Change the size (truncate up or down); i_rwsem held.  0 or -errno. */
	int (*setsize)(struct inode *inode, loff_t size);
};

struct file_operations {
	long (*read)(struct file *file, void *buf, size_t len, loff_t *pos);
	long (*write)(struct file *file, const void *buf, size_t len, loff_t *pos);
	int (*iterate_shared)(struct file *file, struct dir_context *ctx);
	int (*fsync)(struct file *file);
	int (*open)(struct inode *inode, struct file *file);
	void (*release)(struct inode *inode, struct file *file);
};

struct super_operations {
	struct inode *(*alloc_inode)(struct super_block *sb);
	void (*free_inode)(struct inode *inode);
	/* Write the in-memory inode to its on-disk copy (in the block device's cache); @wait:
	 * and wait for that to reach the disk.  0 or -errno. */
	int (*write_inode)(struct inode *inode, bool wait);
	/* The last reference went: drop the page cache; with no links left, free the inode's
	 * blocks and the inode itself on disk. */
	void (*evict_inode)(struct inode *inode);
	void (*put_super)(struct super_block *sb);
	int (*sync_fs)(struct super_block *sb, bool wait);
	int (*statfs)(struct super_block *sb, struct kstatfs *buf);
};

struct super_block {
	struct block_device *s_bdev;
	unsigned long s_blocksize;
	unsigned char s_blocksize_bits;
	unsigned long s_flags;			/* SB_RDONLY */
	uint64_t s_maxbytes;
	const struct super_operations *s_op;
	const struct file_system_type *s_type;
	struct dentry *s_root;
	struct list_head s_inodes;		/* every inode of this sb (vfs_lock) */
	unsigned long s_magic;
	void *s_fs_info;			/* the filesystem's */
	int s_active;				/* mounts of it */
};

struct inode {
	unsigned int i_mode;
	unsigned int i_nlink;
	unsigned int i_uid, i_gid;
	unsigned long i_ino;
	loff_t i_size;
	uint64_t i_blocks;			/* 512-byte units */
	struct timespec64 i_atime, i_mtime, i_ctime;
	unsigned int i_generation;
	unsigned long i_state;			/* I_NEW, I_DIRTY_SYNC, I_FREEING (vfs_lock) */
	int i_count;				/* references (vfs_lock) */
	struct super_block *i_sb;
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;
	struct address_space i_data;		/* its page cache */
	struct address_space *i_mapping;	/* &i_data */
	struct mutex i_rwsem;
	struct list_head i_sb_list;		/* s_inodes */
	struct list_head i_hash;		/* the inode hash: (sb, ino) */
	struct list_head i_lru;			/* unused (i_count 0): the icache shrinker's list */
	int i_openers;				/* open files (unlink keeps the inode while > 0) */
	void *i_private;
};

/*
 * The file's size lives twice: i_size (the VFS's, stat's) and i_data.size (what mm/'s
 * filemap_read stops at).  i_size_write keeps them in step; change a size only through it.
 */
static inline loff_t i_size_read(const struct inode *inode)
{
	return inode->i_size;
}

static inline void i_size_write(struct inode *inode, loff_t size)
{
	inode->i_size = size;
	inode->i_data.size = size;
}

struct dentry {
	struct qstr d_name;
	char d_iname[32];			/* short names live here, long ones are kmalloc'd */
	struct dentry *d_parent;		/* itself for a root */
	struct inode *d_inode;			/* NULL: negative */
	struct super_block *d_sb;
	int d_count;				/* references (vfs_lock) */
	bool d_mounted;				/* a filesystem is mounted on it */
	bool d_unhashed;			/* deleted or invalidated: lookups skip it */
	struct list_head d_hash;		/* the dcache hash */
	struct list_head d_lru;			/* unused dentries, for the shrinker */
	struct list_head d_child;		/* in d_parent->d_subdirs */
	struct list_head d_subdirs;
};

struct vfsmount {
	struct dentry *mnt_root;
	struct super_block *mnt_sb;
	struct vfsmount *mnt_parent;		/* itself for the root mount */
	struct dentry *mnt_mountpoint;
	struct list_head mnt_list;
	int mnt_count;				/* the mount table's reference + walks + open files (vfs_lock) */
	char mnt_devname[8];
};

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

struct file {
	struct path f_path;
	struct inode *f_inode;
	const struct file_operations *f_op;
	loff_t f_pos;
	unsigned int f_flags;			/* O_* */
	struct file_ra_state f_ra;
	errseq_t f_wb_err;
	struct mutex f_pos_lock;
	atomic_t f_count;			/* references: an fd, a mapping's pin (fs/file.c); the
						 * last vfs_close / fput releases the file */
};

struct file_system_type {
	const char *name;
	/* Read @sb's filesystem from sb->s_bdev; set s_op, s_root, s_blocksize; @flags SB_RDONLY.
	 * 0 or -errno, with a one-line reason in @err (e.g. "ext2: bad magic 0x1234"). */
	int (*fill_super)(struct super_block *sb, unsigned long flags, char *err, size_t errlen);
	/* Release what fill_super set up (after put_super). */
	void (*kill_sb)(struct super_block *sb);
	int fs_flags;				/* FS_REQUIRES_DEV */
	struct file_system_type *next;
};


/* fs/super.c */
int register_filesystem(struct file_system_type *fs);
/* @fstype NULL: try every FS_REQUIRES_DEV filesystem.  A fill_super's reason is printed
 * (pr_err) here; the caller prints its own one-line error from the result. */
int do_mount(const char *devname, const char *dir, const char *fstype, unsigned long flags);
int do_umount(const char *dir);
/* Write back every inode, then ->sync_fs and the block device (Linux's sync_filesystem). */
int sync_filesystem(struct super_block *sb);
/* sync(2): every mounted filesystem; the first error. */
int vfs_sync(void);
/* Boot (kernel_init): mount tinymm.root=<dev> at "/", or a ramfs when there is none. */
void vfs_init(void);
/* The built-in filesystems' registrations, which vfs_init() calls (fs/ext2/super.c). */
int init_ext2_fs(void);
/* fs/ramfs.c */
extern struct file_system_type ramfs_fs_type;
/* fs/inode.c */
void inode_init_once(struct inode *inode);
struct inode *iget_locked(struct super_block *sb, unsigned long ino);
void unlock_new_inode(struct inode *inode);
void iget_failed(struct inode *inode);
struct inode *new_inode(struct super_block *sb);
void insert_inode_hash(struct inode *inode);
struct inode *igrab(struct inode *inode);
void ihold(struct inode *inode);
void iput(struct inode *inode);
void mark_inode_dirty(struct inode *inode);
void set_nlink(struct inode *inode, unsigned int nlink);
void inc_nlink(struct inode *inode);
void drop_nlink(struct inode *inode);
void clear_nlink(struct inode *inode);
struct timespec64 current_time(struct inode *inode);
int write_inode_now(struct inode *inode, bool sync);
/* The size changes and the page cache beyond it goes (partial folio zeroed); i_rwsem held. */
void truncate_setsize(struct inode *inode, loff_t newsize);
/* fs/dcache.c */
void d_instantiate(struct dentry *dentry, struct inode *inode);
void d_add(struct dentry *dentry, struct inode *inode);
struct dentry *d_make_root(struct inode *root);
struct dentry *dget(struct dentry *dentry);
void dput(struct dentry *dentry);
void d_delete(struct dentry *dentry);
/* Take @dentry out of the hash: lookups no longer find it; it is freed at its last dput. */
void d_drop(struct dentry *dentry);
/* fs/namei.c and fs/open.c: the calls (>= 0 or -errno) */
int vfs_open(const char *path, unsigned int flags, unsigned int mode, struct file **filep);
int vfs_close(struct file *file);
long vfs_read(struct file *file, void *buf, size_t len);
long vfs_pread(struct file *file, void *buf, size_t len, loff_t pos);
long vfs_write(struct file *file, const void *buf, size_t len);
long vfs_pwrite(struct file *file, const void *buf, size_t len, loff_t pos);
loff_t vfs_llseek(struct file *file, loff_t offset, int whence);
int vfs_fstat(struct file *file, struct kstat *st);
int vfs_stat(const char *path, struct kstat *st, bool follow);
int vfs_readlink(const char *path, char *buf, size_t len);
/* struct linux_dirent64 records into @buf: bytes filled, 0 at the end, or -errno. */
long vfs_getdents64(struct file *file, void *buf, size_t len);
int vfs_mkdir(const char *path, unsigned int mode);
int vfs_rmdir(const char *path);
int vfs_unlink(const char *path);
int vfs_rename(const char *oldpath, const char *newpath);
int vfs_link(const char *oldpath, const char *newpath);
int vfs_symlink(const char *target, const char *linkpath);
int vfs_truncate(const char *path, loff_t size);
int vfs_ftruncate(struct file *file, loff_t size);
int vfs_fsync(struct file *file);
int vfs_statfs(const char *path, struct kstatfs *buf);

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Generic file operations over the page cache (fs/read_write.c): what a filesystem whose
 * data is in i_mapping puts in its file_operations. */
long generic_file_read(struct file *file, void *buf, size_t len, loff_t *pos);
long generic_file_write(struct file *file, const void *buf, size_t len, loff_t *pos);
int generic_file_fsync(struct file *file);

#endif
