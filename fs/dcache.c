/*
 * dcache.c - the dentry cache (Linux's fs/dcache.c, reduced): names in directories, hashed by
 * (parent, name), positive (d_inode set) or negative ("no such name", cached so a repeated miss
 * costs no directory read), unused ones (d_count 0) on an LRU that a shrinker frees from.
 * Also vfs_lock, the one lock of the dcache, the inode hash and the mount table.
 *
 * Invariants: a dentry holds a reference on its parent (none for a root: d_parent == itself)
 *   and on its inode; a dentry with children is referenced by them, so never unused; an unused
 *   dentry is hashed and on dentry_lru; an unhashed one is freed at its last dput; a root
 *   dentry is never put on the LRU (its superblock frees it at umount).
 * Locking: vfs_lock (a mutex: the walk's callers may sleep, and one lock for the dcache, the
 *   inode hash and the mounts keeps the rules few) guards the hash, d_count, d_inode, the
 *   d_subdirs lists, the LRU and the counters.  Nothing that may call into a filesystem runs
 *   under it: iput (which can evict) happens after the lock is dropped, which is why killing a
 *   dentry is "unlink under the lock, dispose outside".  The shrinker only trylocks: it can be
 *   called from an allocation made under vfs_lock.
 *
 * Where tinymm differs from v6.10, and why: one mutex instead of per-dentry spinlocks,
 * rename_lock seqcounts and RCU (there is no RCU walk); no DCACHE_REFERENCED second chance on
 * the LRU (oldest unused goes first); no aliases (no hard-linked directories, and a
 * file's several names are several dentries, each with an inode reference, as in Linux);
 * d_move takes a preallocated name so a filesystem's completed rename cannot fail afterwards.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/shrinker.h"
#include "tinymm/slab.h"
#include "internal.h"

DEFINE_MUTEX(vfs_lock);

#define D_HASH_BITS	8
static struct list_head dentry_hashtable[1U << D_HASH_BITS];
static LIST_HEAD(dentry_lru);
static struct kmem_cache *dentry_cache;		/* Linux's: its own slab cache */
unsigned long nr_dentry, nr_dentry_unused;

/* FNV-1a over the name: cheap, and good enough for 256 buckets. */
void qstr_init(struct qstr *q, const char *name, unsigned int len)
{
	uint32_t h = 2166136261u;

	for (unsigned int i = 0; i < len; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	q->name = name;
	q->len = len;
	q->hash = h;
}

static struct list_head *d_hash(const struct dentry *parent, uint32_t hash)
{
	uintptr_t p = (uintptr_t)parent;

	hash ^= (uint32_t)(p >> 4) ^ (uint32_t)(p >> 12);
	return &dentry_hashtable[(hash * 0x9E3779B1u) >> (32 - D_HASH_BITS)];
}

struct dentry *__dget_locked(struct dentry *dentry)
{
	lockdep_assert_held(&vfs_lock);
	if (dentry->d_count++ == 0 && !list_empty(&dentry->d_lru)) {
		list_del_init(&dentry->d_lru);
		nr_dentry_unused--;
	}
	return dentry;
}

struct dentry *dget(struct dentry *dentry)
{
	if (dentry) {
		mutex_lock(&vfs_lock);
		__dget_locked(dentry);
		mutex_unlock(&vfs_lock);
	}
	return dentry;
}

/* Set @dentry's name (the storage @buf when it is too long for d_iname). */
static void d_set_name(struct dentry *dentry, const struct qstr *name, char *buf)
{
	char *dst = buf ? buf : dentry->d_iname;

	memcpy(dst, name->name, name->len);
	dst[name->len] = '\0';
	dentry->d_name.name = dst;
	dentry->d_name.len = name->len;
	dentry->d_name.hash = name->hash;
}

static char *d_name_buf(unsigned int len)
{
	return len < sizeof(((struct dentry *)0)->d_iname) ? NULL : kmalloc(len + 1, GFP_KERNEL);
}

static bool d_name_needs_buf(unsigned int len)
{
	return len >= sizeof(((struct dentry *)0)->d_iname);
}

/* A new unhashed dentry (d_count 1) under @parent (NULL: a root), or NULL. */
struct dentry *d_alloc(struct dentry *parent, const struct qstr *name)
{
	struct dentry *dentry = kmem_cache_alloc(dentry_cache, GFP_KERNEL | __GFP_ZERO);
	char *buf = d_name_buf(name->len);

	if (!dentry || (d_name_needs_buf(name->len) && !buf)) {
		if (dentry)
			kmem_cache_free(dentry_cache, dentry);
		kfree(buf);
		return NULL;
	}
	d_set_name(dentry, name, buf);
	dentry->d_count = 1;
	dentry->d_unhashed = true;
	INIT_LIST_HEAD(&dentry->d_hash);
	INIT_LIST_HEAD(&dentry->d_lru);
	INIT_LIST_HEAD(&dentry->d_child);
	INIT_LIST_HEAD(&dentry->d_subdirs);
	mutex_lock(&vfs_lock);
	if (parent) {
		dentry->d_parent = __dget_locked(parent);
		dentry->d_sb = parent->d_sb;
		list_add(&dentry->d_child, &parent->d_subdirs);
	} else {
		dentry->d_parent = dentry;
	}
	nr_dentry++;
	mutex_unlock(&vfs_lock);
	return dentry;
}

struct dentry *d_make_root(struct inode *root)
{
	static const struct qstr slash = { "/", 1, 0 };
	struct dentry *dentry;

	if (!root)
		return NULL;
	dentry = d_alloc(NULL, &slash);
	if (!dentry) {
		iput(root);
		return NULL;
	}
	dentry->d_sb = root->i_sb;
	dentry->d_inode = root;
	dentry->d_unhashed = false;	/* in no bucket, but not dead either */
	return dentry;
}

struct dentry *__d_lookup_locked(struct dentry *parent, const struct qstr *name)
{
	struct dentry *d;

	lockdep_assert_held(&vfs_lock);
	list_for_each_entry(d, d_hash(parent, name->hash), d_hash) {
		if (d->d_parent == parent && d->d_name.hash == name->hash &&
		    d->d_name.len == name->len && !d->d_unhashed &&
		    !memcmp(d->d_name.name, name->name, name->len))
			return d;
	}
	return NULL;
}

struct dentry *d_lookup(struct dentry *parent, const struct qstr *name)
{
	struct dentry *d;

	mutex_lock(&vfs_lock);
	d = __d_lookup_locked(parent, name);
	if (d)
		__dget_locked(d);
	mutex_unlock(&vfs_lock);
	return d;
}

static void __d_rehash_locked(struct dentry *dentry)
{
	lockdep_assert_held(&vfs_lock);
	list_add(&dentry->d_hash, d_hash(dentry->d_parent, dentry->d_name.hash));
	dentry->d_unhashed = false;
}

static void __d_drop_locked(struct dentry *dentry)
{
	lockdep_assert_held(&vfs_lock);
	if (!dentry->d_unhashed && dentry->d_parent != dentry) {
		list_del_init(&dentry->d_hash);
		dentry->d_unhashed = true;
	}
}

void d_drop(struct dentry *dentry)
{
	mutex_lock(&vfs_lock);
	__d_drop_locked(dentry);
	mutex_unlock(&vfs_lock);
}

/* A created file's inode (the caller's reference goes to the dentry); it is hashed already. */
void d_instantiate(struct dentry *dentry, struct inode *inode)
{
	mutex_lock(&vfs_lock);
	dentry->d_inode = inode;
	mutex_unlock(&vfs_lock);
}

/* A lookup's result, @inode or NULL (negative), and into the hash. */
void d_add(struct dentry *dentry, struct inode *inode)
{
	mutex_lock(&vfs_lock);
	dentry->d_inode = inode;
	if (dentry->d_unhashed)
		__d_rehash_locked(dentry);
	mutex_unlock(&vfs_lock);
}

/* Out of its parent and the counts, before being freed outside the lock: the parent returned
 * still carries @dentry's reference. */
static struct dentry *__dentry_unlink_locked(struct dentry *dentry)
{
	struct dentry *parent = dentry->d_parent;

	lockdep_assert_held(&vfs_lock);
	__d_drop_locked(dentry);
	if (!list_empty(&dentry->d_lru)) {
		list_del_init(&dentry->d_lru);
		nr_dentry_unused--;
	}
	list_del_init(&dentry->d_child);
	nr_dentry--;
	return parent == dentry ? NULL : parent;
}

static void dentry_free(struct dentry *dentry)
{
	if (dentry->d_inode)
		iput(dentry->d_inode);
	if (dentry->d_name.name != dentry->d_iname)
		kfree(dentry->d_name.name);
	kmem_cache_free(dentry_cache, dentry);
}

bool __dput_locked(struct dentry *dentry)
{
	lockdep_assert_held(&vfs_lock);
	if (dentry->d_count > 1 || dentry->d_parent == dentry) {
		dentry->d_count--;		/* in use, or a root: umount frees those */
		return true;
	}
	if (dentry->d_unhashed)
		return false;
	dentry->d_count--;			/* cached, unused: the shrinker's */
	list_add(&dentry->d_lru, &dentry_lru);
	nr_dentry_unused++;
	return true;
}

void dput(struct dentry *dentry)
{
	while (dentry) {
		struct dentry *parent;

		mutex_lock(&vfs_lock);
		if (__dput_locked(dentry)) {
			mutex_unlock(&vfs_lock);
			return;
		}
		dentry->d_count--;			/* the last: free it */
		parent = __dentry_unlink_locked(dentry);
		mutex_unlock(&vfs_lock);
		dentry_free(dentry);
		dentry = parent;		/* drop the reference the child held */
	}
}

/* After unlink/rmdir: the caller's is the only reference: the dentry turns negative (a later
 * lookup is answered from the cache); else it is unhashed and goes at its last dput. */
void d_delete(struct dentry *dentry)
{
	struct inode *inode = NULL;

	mutex_lock(&vfs_lock);
	if (dentry->d_count == 1) {
		inode = dentry->d_inode;
		dentry->d_inode = NULL;
	} else {
		__d_drop_locked(dentry);
	}
	mutex_unlock(&vfs_lock);
	if (inode)
		iput(inode);
}

/*
 * Linux's shrink_dcache_parent(), for rmdir and a rename over a directory: the unused dentries
 * right below @parent (the negative entries its lookups left: an empty directory has no
 * others) are freed now, so the directory's dentry holds no reference but its users' and its
 * inode goes at once when those are dropped, its blocks freed then, not at the next shrink.
 * A negative child left behind once kept a removed directory's inode until umount, which
 * evicted it after its last sync: its inode and block stayed allocated on disk (found by the
 * ext2 KTAP suite and by tests/fuzz/ext2_fuzz.c: e2fsck's "Deleted inode has zero dtime").
 * The caller holds a reference to @parent.
 */
void shrink_dcache_parent(struct dentry *parent)
{
	struct dentry *d, *n;
	LIST_HEAD(dispose);

	mutex_lock(&vfs_lock);
	list_for_each_entry_safe(d, n, &parent->d_subdirs, d_child) {
		if (d->d_count || !list_empty(&d->d_subdirs))
			continue;
		__dentry_unlink_locked(d);
		list_add_tail(&d->d_lru, &dispose);
	}
	mutex_unlock(&vfs_lock);
	while (!list_empty(&dispose)) {
		d = list_first_entry(&dispose, struct dentry, d_lru);
		list_del_init(&d->d_lru);
		dentry_free(d);
		dput(parent);			/* the reference the child held */
	}
}

/* The storage d_move will need for @name (NULL when d_iname holds it); *@err -ENOMEM. */
char *d_move_prepare(const struct qstr *name, int *err)
{
	char *buf = d_name_buf(name->len);

	*err = d_name_needs_buf(name->len) && !buf ? -ENOMEM : 0;
	return buf;
}

void d_move(struct dentry *dentry, struct dentry *target, char *buf)
{
	const char *old_name = dentry->d_name.name;
	struct dentry *old_parent = NULL;

	mutex_lock(&vfs_lock);
	__d_drop_locked(target);
	__d_drop_locked(dentry);
	d_set_name(dentry, &target->d_name, buf);
	if (dentry->d_parent != target->d_parent) {
		old_parent = dentry->d_parent;
		list_del_init(&dentry->d_child);
		dentry->d_parent = __dget_locked(target->d_parent);
		list_add(&dentry->d_child, &dentry->d_parent->d_subdirs);
	}
	__d_rehash_locked(dentry);
	mutex_unlock(&vfs_lock);
	if (old_name != dentry->d_iname)
		kfree(old_name);
	dput(old_parent);
}

/* Post-order: every dentry below and including @sb's root, unlinked onto @dispose (d_lru). */
void shrink_dcache_for_umount(struct super_block *sb)
{
	struct dentry *root = sb->s_root, *d = root;
	LIST_HEAD(dispose);

	if (!root)
		return;
	mutex_lock(&vfs_lock);
	for (;;) {
		while (!list_empty(&d->d_subdirs))
			d = list_first_entry(&d->d_subdirs, struct dentry, d_child);
		struct dentry *parent = __dentry_unlink_locked(d);
		list_add_tail(&d->d_lru, &dispose);
		if (d == root || !parent)
			break;
		d = parent;
	}
	mutex_unlock(&vfs_lock);
	while (!list_empty(&dispose)) {
		d = list_first_entry(&dispose, struct dentry, d_lru);
		list_del_init(&d->d_lru);
		dentry_free(d);
	}
	sb->s_root = NULL;
}

/* ---- the shrinker ---- */

static unsigned long dcache_count(struct shrinker *s, struct shrink_control *sc)
{
	return nr_dentry_unused ? nr_dentry_unused : SHRINK_EMPTY;
}

/* The oldest unused dentries: unhashed, out of their parents, then freed outside the lock
 * (their inodes' references dropped, the parents' too: those may become unused in turn). */
static unsigned long dcache_scan(struct shrinker *s, struct shrink_control *sc)
{
	LIST_HEAD(dispose);
	unsigned long freed = 0;

	if (!mutex_trylock(&vfs_lock))
		return SHRINK_STOP;
	while (freed < sc->nr_to_scan && !list_empty(&dentry_lru)) {
		struct dentry *d = list_entry(dentry_lru.prev, struct dentry, d_lru);

		__dentry_unlink_locked(d);
		list_add_tail(&d->d_lru, &dispose);
		freed++;
	}
	mutex_unlock(&vfs_lock);
	while (!list_empty(&dispose)) {
		struct dentry *d = list_first_entry(&dispose, struct dentry, d_lru);
		struct dentry *parent = d->d_parent;

		list_del_init(&d->d_lru);
		dentry_free(d);
		dput(parent);
	}
	return freed;
}

struct shrinker dcache_shrinker = {
	.count_objects = dcache_count,
	.scan_objects = dcache_scan,
	.name = "dcache",
};

void dcache_init(void)
{
	dentry_cache = kmem_cache_create("dentry", sizeof(struct dentry), 0, SLAB_PANIC, NULL);
	for (unsigned int i = 0; i < ARRAY_SIZE(dentry_hashtable); i++)
		INIT_LIST_HEAD(&dentry_hashtable[i]);
	shrinker_register(&dcache_shrinker);
}
