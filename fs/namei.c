/*
 * namei.c - path names to dentries (Linux's fs/namei.c, reduced): the walk from the root mount
 * over ".", ".." (which leaves a mount's root for its mountpoint's parent) and symlinks, into
 * mounts, with Linux's errors; and the calls that change a directory (mkdir, rmdir, unlink,
 * rename, link, symlink), which lock the parent's i_rwsem, look the last name up under it and
 * hand a hashed dentry (negative to create, positive to remove) to the filesystem.
 *
 * The walk is iterative, as Linux's since v4.2: a symlink met in the middle of a path pushes
 * the rest of the current string and walks the link's body; a link that ends its string
 * replaces it (no push).  At most MAXSYMLINKS (40) links per walk, the 41st is -ELOOP, so the
 * stack never holds more than 40 strings.  A miss in the dcache calls i_op->lookup under the
 * parent's i_rwsem, which adds the dentry, negative when the name does not exist.
 *
 * Locking: a walk holds references (dentry and mount) on where it is, no locks between
 *   components; vfs_lock only inside the dcache and mount-table calls.  Directory changes take
 *   the parent's i_rwsem, then the victim's (parent before child); rename takes both parents in
 *   address order, then the children.  i_rwsem is always taken before vfs_lock.
 *
 * Where tinymm differs from v6.10, and why: no per-task cwd (a relative name starts at "/"),
 * no permission checks (one user), no RCU walk, no LOOKUP_AUTOMOUNT; rename takes the parents
 * by address (v6.10: ancestor first under s_vfs_rename_mutex, as the brief of issue 32 asks
 * address order and rename's "into itself" check is done under both locks); O_CREAT of a
 * dangling symlink's target is -ENOENT (v6.10 creates the target); a directory that comes back
 * as the child of its own operation (a corrupt disk's alias) is -ELOOP where the child's lock
 * would be taken, not at lookup (v6.10's d_splice_alias), since the dcache keeps no alias list.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/err.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "internal.h"

/* Start a walk of @name at @start (also its root), or at "/" when @start is NULL. */
static int path_init_at(struct nameidata *nd, const char *name, unsigned int flags,
			const struct path *start)
{
	/* Field by field: stack[] is written before it is read (by depth), and a memset of all
	 * of it was a third of a cached lookup's instructions. */
	nd->path.mnt = nd->root.mnt = NULL;
	nd->path.dentry = nd->root.dentry = NULL;
	nd->last.name = NULL;
	nd->last.len = nd->last.hash = 0;
	nd->last_type = LAST_ROOT;
	nd->trailing_slash = false;
	nd->flags = flags;
	nd->total_link_count = 0;
	nd->depth = 0;
	nd->buf = NULL;
	if (!name || !*name)
		return -ENOENT;
	if (strnlen(name, PATH_MAX) >= PATH_MAX)
		return -ENAMETOOLONG;
	mutex_lock(&vfs_lock);
	if (!root_mnt) {
		mutex_unlock(&vfs_lock);
		return -ENOENT;			/* nothing mounted at all */
	}
	if (start) {
		nd->root = *start;
	} else {
		nd->root.mnt = root_mnt;
		nd->root.dentry = root_mnt->mnt_root;
	}
	nd->root.mnt->mnt_count += 2;
	__dget_locked(nd->root.dentry);
	__dget_locked(nd->root.dentry);
	nd->path = nd->root;
	mutex_unlock(&vfs_lock);
	return 0;
}

static int path_init(struct nameidata *nd, const char *name, unsigned int flags)
{
	return path_init_at(nd, name, flags, NULL);
}

void terminate_walk(struct nameidata *nd)
{
	kfree(nd->buf);
	while (nd->depth > 0)
		kfree(nd->stack[--nd->depth].buf);
	nd->buf = NULL;
	if (nd->path.mnt)
		path_put(&nd->path);
	if (nd->root.mnt)
		path_put(&nd->root);
	nd->path.mnt = nd->root.mnt = NULL;
}

static bool is_dir(const struct dentry *d)
{
	return d->d_inode && S_ISDIR(d->d_inode->i_mode);
}

/* Replace *@p by (@mnt, @dentry), taking references on those first (vfs_lock held). */
static void path_set_locked(struct path *p, struct vfsmount *mnt, struct dentry *dentry,
			    struct path *old)
{
	lockdep_assert_held(&vfs_lock);
	*old = *p;
	mnt->mnt_count++;
	__dget_locked(dentry);
	p->mnt = mnt;
	p->dentry = dentry;
}

/* While something is mounted on the dentry, go to that mount's root. */
static void follow_mounts(struct path *p)
{
	for (;;) {
		struct path old;

		mutex_lock(&vfs_lock);
		struct vfsmount *m = p->dentry->d_mounted ? lookup_mnt_locked(p->mnt, p->dentry) : NULL;
		if (!m) {
			mutex_unlock(&vfs_lock);
			return;
		}
		path_set_locked(p, m, m->mnt_root, &old);
		mutex_unlock(&vfs_lock);
		path_put(&old);
	}
}

/* "..": stays at the walk's root; from a mount's root, first up to its mountpoint. */
static void follow_dotdot(struct nameidata *nd)
{
	struct path old;

	for (;;) {
		mutex_lock(&vfs_lock);
		if (nd->path.mnt == nd->root.mnt && nd->path.dentry == nd->root.dentry) {
			mutex_unlock(&vfs_lock);
			return;
		}
		if (nd->path.dentry != nd->path.mnt->mnt_root) {
			path_set_locked(&nd->path, nd->path.mnt, nd->path.dentry->d_parent, &old);
			mutex_unlock(&vfs_lock);
			path_put(&old);
			return;
		}
		if (nd->path.mnt->mnt_parent == nd->path.mnt) {	/* a detached root */
			mutex_unlock(&vfs_lock);
			return;
		}
		path_set_locked(&nd->path, nd->path.mnt->mnt_parent, nd->path.mnt->mnt_mountpoint, &old);
		mutex_unlock(&vfs_lock);
		path_put(&old);
	}
}

/* @name in @parent, i_rwsem of @parent's inode held: from the dcache, else from the filesystem
 * (which adds it, negative if missing).  A referenced hashed dentry or ERR_PTR. */
static struct dentry *lookup_one_locked(struct dentry *parent, const struct qstr *name)
{
	struct inode *dir = parent->d_inode;
	struct dentry *dentry;
	int err = 0;

	lockdep_assert_held(&dir->i_rwsem);
	dentry = d_lookup(parent, name);
	if (dentry)
		return dentry;
	if (!dir->i_nlink)
		return ERR_PTR(-ENOENT);	/* removed while we walked: nothing can be in it */
	dentry = d_alloc(parent, name);
	if (!dentry)
		return ERR_PTR(-ENOMEM);
	if (dir->i_op && dir->i_op->lookup)
		err = dir->i_op->lookup(dir, dentry);
	if (err) {
		d_drop(dentry);
		dput(dentry);
		return ERR_PTR(err);
	}
	if (dentry->d_unhashed)
		d_add(dentry, NULL);		/* the fs said nothing: "no such name" */
	return dentry;
}

static struct dentry *lookup_slow(struct dentry *parent, const struct qstr *name)
{
	struct inode *dir = parent->d_inode;
	struct dentry *dentry;

	mutex_lock(&dir->i_rwsem);
	dentry = lookup_one_locked(parent, name);
	mutex_unlock(&dir->i_rwsem);
	return dentry;
}

/* Read @dentry's symlink into a new buffer: the body to walk, or ERR_PTR. */
static char *pick_link(struct nameidata *nd, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	char *buf;
	int len;

	if (nd->total_link_count++ >= MAXSYMLINKS)
		return ERR_PTR(-ELOOP);
	if (!inode->i_op || !inode->i_op->get_link)
		return ERR_PTR(-EINVAL);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	len = inode->i_op->get_link(inode, buf, PATH_MAX);
	if (len < 0 || !len) {
		kfree(buf);
		return ERR_PTR(len < 0 ? len : -ENOENT);
	}
	return buf;
}

/*
 * The common step, under one hold of vfs_lock: @q is cached, positive, no mount point and no
 * symlink to follow; nd->path moves to it on the same mount.  false, changing nothing, for
 * anything else (walk_component's general path).  v6.10 walks cached paths without any lock
 * (RCU-walk); tinymm takes the lock once per component instead of five times.
 */
static bool walk_cached(struct nameidata *nd, const struct qstr *q, bool follow)
{
	struct dentry *dentry, *old;
	bool put_done;

	mutex_lock(&vfs_lock);
	dentry = __d_lookup_locked(nd->path.dentry, q);
	if (!dentry || !dentry->d_inode || dentry->d_mounted ||
	    (follow && S_ISLNK(dentry->d_inode->i_mode))) {
		mutex_unlock(&vfs_lock);
		return false;
	}
	__dget_locked(dentry);
	old = nd->path.dentry;
	nd->path.dentry = dentry;
	put_done = __dput_locked(old);
	mutex_unlock(&vfs_lock);
	if (!put_done)
		dput(old);		/* its last reference: dput() frees it */
	return true;
}

/* One component: 0 (nd->path moved), 1 (a symlink to follow: *@body is its target) or -errno. */
static int walk_component(struct nameidata *nd, const struct qstr *q, int type, bool follow,
			  char **body)
{
	struct path next, old;
	struct dentry *dentry;

	if (type == LAST_DOT)
		return 0;
	if (type == LAST_DOTDOT) {
		follow_dotdot(nd);
		return 0;
	}
	if (walk_cached(nd, q, follow))
		return 0;
	dentry = d_lookup(nd->path.dentry, q);
	if (!dentry)
		dentry = lookup_slow(nd->path.dentry, q);
	if (IS_ERR(dentry))
		return (int)PTR_ERR(dentry);
	if (!dentry->d_inode) {
		dput(dentry);
		return -ENOENT;
	}
	next.mnt = mntget(nd->path.mnt);
	next.dentry = dentry;
	follow_mounts(&next);
	if (follow && S_ISLNK(next.dentry->d_inode->i_mode)) {
		char *b = pick_link(nd, next.dentry);

		path_put(&next);		/* the walk goes on from the link's directory */
		if (IS_ERR(b))
			return (int)PTR_ERR(b);
		*body = b;
		return 1;
	}
	old = nd->path;
	nd->path = next;
	path_put(&old);
	return 0;
}

static void jump_root(struct nameidata *nd)
{
	struct path old = nd->path;

	path_get(&nd->root);
	nd->path = nd->root;
	path_put(&old);
}

/*
 * Walk @name from nd->path.  @want_parent: stop before the last component and leave it in
 * nd->last / last_type / trailing_slash (its directory in nd->path).  Otherwise walk it too,
 * following a final symlink with LOOKUP_FOLLOW or a trailing slash.
 */
static int path_walk(struct nameidata *nd, const char *name, bool want_parent)
{
	if (*name == '/')
		jump_root(nd);
	nd->last_type = LAST_ROOT;
	for (;;) {
		while (*name == '/')
			name++;
		if (!*name) {
			if (!nd->depth)
				return 0;		/* "/", or a followed link that ended in '/' */
			kfree(nd->buf);
			nd->depth--;
			nd->buf = nd->stack[nd->depth].buf;
			name = nd->stack[nd->depth].name;
			continue;
		}
		unsigned int len = 0;
		while (name[len] && name[len] != '/')
			len++;
		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		struct qstr q;
		qstr_init(&q, name, len);
		int type = len == 1 && name[0] == '.' ? LAST_DOT :
			   len == 2 && name[0] == '.' && name[1] == '.' ? LAST_DOTDOT : LAST_NORM;
		const char *rest = name + len;
		bool slash = *rest == '/';
		while (*rest == '/')
			rest++;
		bool last = !*rest && !nd->depth;

		if (!is_dir(nd->path.dentry))
			return -ENOTDIR;
		if (last && want_parent) {
			nd->last = q;
			nd->last_type = type;
			nd->trailing_slash = slash;
			return 0;
		}
		bool follow = !last || slash || (nd->flags & LOOKUP_FOLLOW);
		char *body = NULL;
		int err = walk_component(nd, &q, type, follow, &body);
		if (err < 0)
			return err;
		if (err == 1) {
			if (last && slash)
				nd->trailing_slash = true;	/* "link/": the target must be a dir */
			if (*rest) {			/* more after it: come back to it */
				nd->stack[nd->depth].buf = nd->buf;
				nd->stack[nd->depth].name = rest;
				nd->depth++;
			} else {
				kfree(nd->buf);		/* the link ends its string: replace it */
			}
			nd->buf = body;
			name = body;
			if (*name == '/')
				jump_root(nd);
			continue;
		}
		name = rest;
		if (last) {
			nd->last_type = type;
			if ((slash || nd->trailing_slash) && !is_dir(nd->path.dentry))
				return -ENOTDIR;
			return 0;
		}
	}
}

/* Walk @name from @start (also the walk's root), or from "/" when @start is NULL. */
static int path_lookupat(const char *name, unsigned int flags, const struct path *start,
			 struct path *path)
{
	struct nameidata nd;
	int err = path_init_at(&nd, name, flags, start);

	if (!err)
		err = path_walk(&nd, name, false);
	if (!err && (flags & LOOKUP_DIRECTORY) && !is_dir(nd.path.dentry))
		err = -ENOTDIR;
	if (!err) {
		*path = nd.path;
		nd.path.mnt = NULL;
	}
	terminate_walk(&nd);
	return err;
}

int kern_path(const char *name, unsigned int flags, struct path *path)
{
	return path_lookupat(name, flags, NULL, path);
}

int vfs_path_lookup(struct dentry *dentry, struct vfsmount *mnt, const char *name,
		    unsigned int flags, struct path *path)
{
	struct path start = { .mnt = mnt, .dentry = dentry };

	/* v6.10 passes @start as the walk's root: "/" and ".." stop there too. */
	return path_lookupat(name, flags, &start, path);
}

bool is_subdir(struct dentry *dentry, struct dentry *ancestor)
{
	bool found = false;

	mutex_lock(&vfs_lock);
	for (;;) {
		if (dentry == ancestor) {
			found = true;
			break;
		}
		if (dentry->d_parent == dentry)
			break;
		dentry = dentry->d_parent;
	}
	mutex_unlock(&vfs_lock);
	return found;
}

/* ---- the calls that change directories ---- */

/* Walk to @name's parent and lock it; the last component looked up under the lock. */
struct dentry *parent_lookup(struct nameidata *nd, const char *name)
{
	int err = path_init(nd, name, 0);

	if (!err)
		err = path_walk(nd, name, true);
	if (err)
		return ERR_PTR(err);
	if (nd->last_type != LAST_NORM)
		return NULL;			/* "/", "." or "..": the caller's error */
	mutex_lock(&nd->path.dentry->d_inode->i_rwsem);
	struct dentry *d = lookup_one_locked(nd->path.dentry, &nd->last);
	if (IS_ERR(d))
		mutex_unlock(&nd->path.dentry->d_inode->i_rwsem);
	return d;
}

void parent_unlock(struct nameidata *nd, struct dentry *dentry)
{
	dput(dentry);
	mutex_unlock(&nd->path.dentry->d_inode->i_rwsem);
}

/* A negative dentry to create @name at, its parent locked (Linux's filename_create): -EEXIST,
 * then -ENOENT for a trailing slash on a non-directory, then -EROFS. */
static struct dentry *filename_create(struct nameidata *nd, const char *name, bool dir)
{
	struct dentry *d = parent_lookup(nd, name);
	int err = 0;

	if (!d)
		return ERR_PTR(-EEXIST);
	if (IS_ERR(d))
		return d;
	if (d->d_inode)
		err = -EEXIST;
	else if (nd->trailing_slash && !dir)
		err = -ENOENT;
	else if (sb_rdonly(nd->path.mnt->mnt_sb))
		err = -EROFS;
	if (err) {
		parent_unlock(nd, d);
		return ERR_PTR(err);
	}
	return d;
}

int vfs_mkdir(const char *path, unsigned int mode)
{
	struct nameidata nd;
	struct dentry *d = filename_create(&nd, path, true);
	int err = IS_ERR(d) ? (int)PTR_ERR(d) : 0;

	if (!err) {
		struct inode *dir = nd.path.dentry->d_inode;

		err = dir->i_op && dir->i_op->mkdir ?
		      dir->i_op->mkdir(dir, d, S_IFDIR | (mode & S_IALLUGO)) : -EPERM;
		parent_unlock(&nd, d);
	}
	terminate_walk(&nd);
	return err;
}

int vfs_symlink(const char *target, const char *linkpath)
{
	struct nameidata nd;
	struct dentry *d;
	int err;

	if (!target || !*target)
		return -ENOENT;
	if (strnlen(target, PATH_MAX) >= PATH_MAX)
		return -ENAMETOOLONG;
	d = filename_create(&nd, linkpath, false);
	err = IS_ERR(d) ? (int)PTR_ERR(d) : 0;
	if (!err) {
		struct inode *dir = nd.path.dentry->d_inode;

		err = dir->i_op && dir->i_op->symlink ? dir->i_op->symlink(dir, d, target) : -EPERM;
		parent_unlock(&nd, d);
	}
	terminate_walk(&nd);
	return err;
}

int vfs_link(const char *oldpath, const char *newpath)
{
	struct nameidata nd;
	struct path old;
	struct dentry *d;
	int err = kern_path(oldpath, 0, &old);

	if (err)
		return err;
	d = filename_create(&nd, newpath, false);
	err = IS_ERR(d) ? (int)PTR_ERR(d) : 0;
	if (!err) {
		struct inode *dir = nd.path.dentry->d_inode;

		/* The new name's errors (EEXIST, ENOENT...) first, then EXDEV, then a directory's
		 * EPERM: v6.10's do_linkat() and vfs_link() order (linking a directory onto an
		 * existing name is EEXIST there). */
		if (nd.path.mnt != old.mnt)
			err = -EXDEV;
		else if (is_dir(old.dentry))
			err = -EPERM;
		else if (!old.dentry->d_inode->i_nlink)
			err = -ENOENT;
		else if (!dir->i_op || !dir->i_op->link)
			err = -EPERM;
		else {
			struct inode *inode = old.dentry->d_inode;

			mutex_lock(&inode->i_rwsem);
			err = dir->i_op->link(old.dentry, dir, d);
			mutex_unlock(&inode->i_rwsem);
		}
		parent_unlock(&nd, d);
	}
	terminate_walk(&nd);
	path_put(&old);
	return err;
}

/*
 * A directory met again as the child of a directory operation whose parents are already
 * locked: only a corrupt filesystem does that (a directory entry naming its own directory, or a
 * directory with two names: ext2 has no hard links to directories), and locking the child
 * would take the same i_rwsem twice.  One line and -ELOOP, as v6.10's d_splice_alias refuses
 * such an alias at lookup ("would have caused loop"); tinymm's dcache keeps no alias list, so
 * the check is made here, where the locks are taken.
 */
static int child_is_parent(struct inode *child, struct inode *a, struct inode *b)
{
	if (!child || (child != a && child != b))
		return 0;
	pr_err("VFS: directory inode %lu reached again through an entry in itself or its parent: corrupt filesystem\n",
	       child->i_ino);
	return -ELOOP;
}

/* unlink (@rmdir false) and rmdir: the checks both share, then the victim locked too. */
static int do_remove(const char *path, bool rmdir)
{
	struct nameidata nd;
	struct dentry *d = parent_lookup(&nd, path);
	int err = 0;

	if (!d) {
		static const int dir_err[] = { [LAST_ROOT] = -EBUSY, [LAST_DOT] = -EINVAL,
					       [LAST_DOTDOT] = -ENOTEMPTY };
		err = rmdir ? dir_err[nd.last_type] : -EISDIR;
		terminate_walk(&nd);
		return err;
	}
	if (IS_ERR(d)) {
		terminate_walk(&nd);
		return (int)PTR_ERR(d);
	}
	struct inode *dir = nd.path.dentry->d_inode, *inode = d->d_inode;
	if (!inode)
		err = -ENOENT;
	else if (rmdir && !S_ISDIR(inode->i_mode))
		err = -ENOTDIR;
	else if (!rmdir && S_ISDIR(inode->i_mode))
		err = -EISDIR;
	else if (!rmdir && nd.trailing_slash)
		err = -ENOTDIR;
	else if (sb_rdonly(nd.path.mnt->mnt_sb))
		err = -EROFS;
	else if (d->d_mounted)
		err = -EBUSY;
	else if (!dir->i_op || !(rmdir ? dir->i_op->rmdir : dir->i_op->unlink))
		err = -EPERM;
	else
		err = child_is_parent(inode, dir, NULL);
	if (!err) {
		mutex_lock(&inode->i_rwsem);
		if (rmdir)
			shrink_dcache_parent(d);	/* its negative entries would pin it */
		err = rmdir ? dir->i_op->rmdir(dir, d) : dir->i_op->unlink(dir, d);
		mutex_unlock(&inode->i_rwsem);
		if (!err)
			d_delete(d);
	}
	parent_unlock(&nd, d);
	terminate_walk(&nd);
	return err;
}

int vfs_unlink(const char *path)
{
	return do_remove(path, false);
}

int vfs_rmdir(const char *path)
{
	return do_remove(path, true);
}

/* Both parents locked, in address order (one lock if they are the same directory). */
static void lock_rename(struct inode *a, struct inode *b)
{
	if (a == b) {
		mutex_lock(&a->i_rwsem);
	} else if (a < b) {
		mutex_lock(&a->i_rwsem);
		mutex_lock(&b->i_rwsem);
	} else {
		mutex_lock(&b->i_rwsem);
		mutex_lock(&a->i_rwsem);
	}
}

static void unlock_rename(struct inode *a, struct inode *b)
{
	mutex_unlock(&a->i_rwsem);
	if (a != b)
		mutex_unlock(&b->i_rwsem);
}

/* The checks of v6.10's do_renameat2/vfs_rename, both parents locked. */
static int rename_check(struct nameidata *on, struct nameidata *nn, struct dentry *old,
			struct dentry *new)
{
	struct inode *oi = old->d_inode, *ni = new->d_inode;

	if (!oi)
		return -ENOENT;
	bool dir = S_ISDIR(oi->i_mode);
	if ((on->trailing_slash || nn->trailing_slash) && !dir)
		return -ENOTDIR;
	if (old == new || oi == ni)
		return 1;			/* the same file: nothing to do */
	if (dir && is_subdir(nn->path.dentry, old))
		return -EINVAL;			/* a directory into itself */
	if (ni && is_subdir(on->path.dentry, new))
		return -ENOTEMPTY;		/* over an ancestor of the source */
	if (ni && dir && !S_ISDIR(ni->i_mode))
		return -ENOTDIR;
	if (ni && !dir && S_ISDIR(ni->i_mode))
		return -EISDIR;
	if (old->d_mounted || new->d_mounted)
		return -EBUSY;
	if (sb_rdonly(on->path.mnt->mnt_sb))
		return -EROFS;
	return 0;
}

int vfs_rename(const char *oldpath, const char *newpath)
{
	struct nameidata *on = kmalloc(2 * sizeof(*on), GFP_KERNEL), *nn = on + 1;
	struct dentry *old = NULL, *new = NULL;
	int err;

	if (!on)
		return -ENOMEM;
	err = path_init(on, oldpath, 0);
	if (!err)
		err = path_walk(on, oldpath, true);
	int err2 = path_init(nn, newpath, 0);
	if (!err2)
		err2 = path_walk(nn, newpath, true);
	if (!err)
		err = err2;
	if (!err && on->path.mnt != nn->path.mnt)
		err = -EXDEV;
	if (!err && (on->last_type != LAST_NORM || nn->last_type != LAST_NORM))
		err = -EBUSY;
	if (err)
		goto out;
	struct inode *odir = on->path.dentry->d_inode, *ndir = nn->path.dentry->d_inode;
	lock_rename(odir, ndir);
	old = lookup_one_locked(on->path.dentry, &on->last);
	new = IS_ERR(old) ? old : lookup_one_locked(nn->path.dentry, &nn->last);
	if (IS_ERR(new)) {
		err = (int)PTR_ERR(new);
		if (!IS_ERR(old))
			dput(old);
		old = new = NULL;
		goto unlock;
	}
	err = rename_check(on, nn, old, new);
	if (!err && (!odir->i_op || !odir->i_op->rename))
		err = -EPERM;
	if (!err)
		err = child_is_parent(old->d_inode, odir, ndir);
	if (!err)
		err = child_is_parent(new->d_inode, odir, ndir);
	char *buf = NULL;
	if (!err)
		buf = d_move_prepare(&new->d_name, &err);
	if (!err) {
		struct inode *oi = old->d_inode, *ni = new->d_inode;

		mutex_lock(&oi->i_rwsem);
		if (ni)
			mutex_lock(&ni->i_rwsem);
		err = odir->i_op->rename(odir, old, ndir, new);
		if (ni)
			mutex_unlock(&ni->i_rwsem);
		mutex_unlock(&oi->i_rwsem);
		if (!err && ni && S_ISDIR(ni->i_mode))
			shrink_dcache_parent(new);	/* the replaced directory's entries */
		if (!err)
			d_move(old, new, buf);
		else
			kfree(buf);
	}
	if (err == 1)
		err = 0;
	dput(new);
	dput(old);
unlock:
	unlock_rename(odir, ndir);
out:
	terminate_walk(on);
	terminate_walk(nn);
	kfree(on);
	return err;
}
