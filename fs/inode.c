/*
 * inode.c - the inode cache (Linux's fs/inode.c, reduced): inodes hashed by (sb, ino) so a file
 * has one in-memory inode however it is reached, reference counts, the last iput's choice
 * (evict an unlinked inode, keep a linked one cached and unused for the next lookup), dirty
 * inodes written through s_op->write_inode, the link-count helpers, the clock of timestamps and
 * the icache shrinker that frees clean unused inodes.
 *
 * Invariants: an inode is on its sb's s_inodes from allocation to free; hashed while a lookup
 *   may find it; I_NEW while iget_locked's caller fills it in (others wait); I_FREEING once
 *   eviction began (iget_locked waits for the free, then reads a fresh one); on inode_lru
 *   exactly when i_count is 0 and it is not being freed.
 * Locking: vfs_lock for the hash, s_inodes, i_count, i_state and the LRU; s_op callbacks run
 *   without it (they may sleep and call back into iget_locked or mark_inode_dirty).
 *
 * Where tinymm differs from v6.10, and why: no per-inode i_lock, no sb dirty lists and no
 * periodic inode writeback: a dirty inode (I_DIRTY_SYNC) is written at fsync, sync, umount and
 * its last iput (the flusher writes the page cache, mm/fs-writeback.c).  iget_failed frees the
 * inode without ->evict_inode (Linux makes it a bad inode first): a half-read inode must not
 * reach the fs's eviction, which could free its on-disk copy.  current_time is wall-clock time
 * from the board's real-time clock (drivers/rtc.c: Goldfish on RISC-V virt, PL031 on ARM virt;
 * read once, then advanced by the kernel clock), else the seconds since boot, as Linux's clock
 * starts at 1970 on a machine with no RTC (the HiFive, the Pi and the Orange Pi here).
 */
#include <limits.h>
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rtc.h"
#include "tinymm/shrinker.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/time.h"
#include "tinymm/wait.h"
#include "tinymm/writeback.h"
#include "internal.h"

#define I_HASH_BITS	8
static struct list_head inode_hashtable[1U << I_HASH_BITS];
static LIST_HEAD(inode_lru);
static DECLARE_WAIT_QUEUE_HEAD(inode_wait);	/* I_NEW cleared, or an I_FREEING inode freed */
static unsigned long inode_wait_seq;
static struct kmem_cache *inode_cachep;		/* bare inodes (no s_op->alloc_inode), Linux's */		/* bumped (vfs_lock) before each such wake-up */
unsigned long nr_inodes, nr_inodes_unused;

static struct list_head *i_hash(const struct super_block *sb, unsigned long ino)
{
	uintptr_t h = (uintptr_t)sb / 64 + ino * 0x9E3779B1u;

	return &inode_hashtable[(uint32_t)(h * 0x9E3779B1u) >> (32 - I_HASH_BITS)];
}

void inode_init_once(struct inode *inode)
{
	memset(inode, 0, sizeof(*inode));
	INIT_LIST_HEAD(&inode->i_sb_list);
	INIT_LIST_HEAD(&inode->i_hash);
	INIT_LIST_HEAD(&inode->i_lru);
	mutex_init(&inode->i_rwsem);
}

/* The filesystem's container (s_op->alloc_inode) or a bare inode, initialised, i_count 1. */
static struct inode *alloc_inode(struct super_block *sb)
{
	struct inode *inode = sb->s_op && sb->s_op->alloc_inode ? sb->s_op->alloc_inode(sb)
								 : kmem_cache_alloc(inode_cachep, GFP_KERNEL);

	if (!inode)
		return NULL;
	inode_init_once(inode);
	inode->i_sb = sb;
	inode->i_count = 1;
	inode->i_nlink = 1;
	address_space_init(&inode->i_data, NULL, 0);
	inode->i_data.host = sb->s_bdev;
	inode->i_mapping = &inode->i_data;
	return inode;
}

static void destroy_inode(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	inode_io_list_del(&inode->i_data);	/* after any flusher pass over it */
	mutex_lock(&vfs_lock);
	list_del_init(&inode->i_sb_list);
	nr_inodes--;
	inode_wait_seq++;
	mutex_unlock(&vfs_lock);
	if (sb->s_op && sb->s_op->free_inode)
		sb->s_op->free_inode(inode);
	else
		kmem_cache_free(inode_cachep, inode);
	wake_up_all(&inode_wait);
}

/* The last reference went and the inode is I_FREEING, unhashed: the fs drops the page cache
 * (and, unlinked, the file), then the memory goes. */
static void evict(struct inode *inode)
{
	const struct super_operations *op = inode->i_sb->s_op;

	if (op && op->evict_inode)
		op->evict_inode(inode);
	else
		truncate_inode_pages(&inode->i_data, 0);
	if (inode->i_data.nrpages)
		pr_err("VFS: inode %lu evicted with %lu pages cached\n", inode->i_ino,
		       inode->i_data.nrpages);
	destroy_inode(inode);
}

static void __inode_add_lru_locked(struct inode *inode)
{
	lockdep_assert_held(&vfs_lock);
	if (list_empty(&inode->i_lru)) {
		list_add(&inode->i_lru, &inode_lru);
		nr_inodes_unused++;
	}
}

static void __inode_del_lru_locked(struct inode *inode)
{
	lockdep_assert_held(&vfs_lock);
	if (!list_empty(&inode->i_lru)) {
		list_del_init(&inode->i_lru);
		nr_inodes_unused--;
	}
}

static struct inode *__ifind_locked(struct super_block *sb, unsigned long ino)
{
	struct inode *inode;

	lockdep_assert_held(&vfs_lock);
	list_for_each_entry(inode, i_hash(sb, ino), i_hash)
		if (inode->i_sb == sb && inode->i_ino == ino)
			return inode;
	return NULL;
}

/* The cached inode (referenced, filled in) or a new one, I_NEW, for the caller to read in and
 * unlock_new_inode() (or iget_failed()).  NULL: no memory. */
struct inode *iget_locked(struct super_block *sb, unsigned long ino)
{
	struct inode *inode, *fresh = NULL;

	for (;;) {
		mutex_lock(&vfs_lock);
		inode = __ifind_locked(sb, ino);
		if (inode && !(inode->i_state & (I_NEW | I_FREEING))) {
			if (inode->i_count++ == 0)
				__inode_del_lru_locked(inode);
			mutex_unlock(&vfs_lock);
			if (fresh)
				destroy_inode(fresh);
			return inode;
		}
		if (inode) {		/* being read in or freed: wait for a change, look again */
			unsigned long seen = inode_wait_seq;

			mutex_unlock(&vfs_lock);
			wait_event(inode_wait, READ_ONCE(inode_wait_seq) != seen);
			continue;
		}
		if (fresh) {
			fresh->i_ino = ino;
			list_add(&fresh->i_hash, i_hash(sb, ino));
			mutex_unlock(&vfs_lock);
			return fresh;
		}
		mutex_unlock(&vfs_lock);
		fresh = alloc_inode(sb);	/* outside the lock: reclaim may call our shrinkers */
		if (!fresh)
			return NULL;
		fresh->i_state = I_NEW;		/* on s_inodes from now: sync must skip it */
		mutex_lock(&vfs_lock);
		list_add(&fresh->i_sb_list, &sb->s_inodes);
		nr_inodes++;
		mutex_unlock(&vfs_lock);
	}
}

void unlock_new_inode(struct inode *inode)
{
	mutex_lock(&vfs_lock);
	inode->i_state &= ~I_NEW;
	inode_wait_seq++;
	mutex_unlock(&vfs_lock);
	wake_up_all(&inode_wait);
}

void iget_failed(struct inode *inode)
{
	mutex_lock(&vfs_lock);
	inode->i_state = (inode->i_state & ~I_NEW) | I_FREEING;
	list_del_init(&inode->i_hash);
	mutex_unlock(&vfs_lock);
	truncate_inode_pages(&inode->i_data, 0);
	destroy_inode(inode);
}

/* An inode of a new file: referenced, on s_inodes, not hashed (insert_inode_hash when the fs
 * wants iget_locked to find it). */
struct inode *new_inode(struct super_block *sb)
{
	struct inode *inode = alloc_inode(sb);

	if (!inode)
		return NULL;
	mutex_lock(&vfs_lock);
	list_add(&inode->i_sb_list, &sb->s_inodes);
	nr_inodes++;
	mutex_unlock(&vfs_lock);
	return inode;
}

void insert_inode_hash(struct inode *inode)
{
	mutex_lock(&vfs_lock);
	list_add(&inode->i_hash, i_hash(inode->i_sb, inode->i_ino));
	mutex_unlock(&vfs_lock);
}

void ihold(struct inode *inode)
{
	mutex_lock(&vfs_lock);
	if (inode->i_count++ == 0)
		__inode_del_lru_locked(inode);
	mutex_unlock(&vfs_lock);
}

/* A reference unless the inode is being freed (then NULL). */
struct inode *igrab(struct inode *inode)
{
	mutex_lock(&vfs_lock);
	if (inode->i_state & I_FREEING) {
		inode = NULL;
	} else if (inode->i_count++ == 0) {
		__inode_del_lru_locked(inode);
	}
	mutex_unlock(&vfs_lock);
	return inode;
}

static int write_inode(struct inode *inode, bool sync);

void iput(struct inode *inode)
{
	if (!inode)
		return;
	mutex_lock(&vfs_lock);
	/* The last reference of a dirty linked inode: write the inode first (outside the lock;
	 * its pages are the flusher's, and the icache shrinker leaves an inode with dirty ones). */
	if (inode->i_count == 1 && inode->i_nlink && (inode->i_state & I_DIRTY_SYNC) &&
	    (inode->i_sb->s_flags & SB_ACTIVE) && !sb_rdonly(inode->i_sb)) {
		mutex_unlock(&vfs_lock);
		write_inode(inode, false);
		mutex_lock(&vfs_lock);
	}
	if (--inode->i_count > 0) {
		mutex_unlock(&vfs_lock);
		return;
	}
	if (inode->i_nlink && (inode->i_sb->s_flags & SB_ACTIVE)) {
		__inode_add_lru_locked(inode);		/* cached for the next lookup */
		mutex_unlock(&vfs_lock);
		return;
	}
	inode->i_state |= I_FREEING;
	list_del_init(&inode->i_hash);
	__inode_del_lru_locked(inode);
	mutex_unlock(&vfs_lock);
	evict(inode);
}

void mark_inode_dirty(struct inode *inode)
{
	mutex_lock(&vfs_lock);
	inode->i_state |= I_DIRTY_SYNC;
	mutex_unlock(&vfs_lock);
}

void set_nlink(struct inode *inode, unsigned int nlink)
{
	inode->i_nlink = nlink;
}

void inc_nlink(struct inode *inode)
{
	inode->i_nlink++;
}

void drop_nlink(struct inode *inode)
{
	if (inode->i_nlink == 0) {
		pr_warn("VFS: drop_nlink of inode %lu with no links\n", inode->i_ino);
		return;
	}
	inode->i_nlink--;
}

void clear_nlink(struct inode *inode)
{
	inode->i_nlink = 0;
}

/* Weak: builds without drivers/rtc.c (the host's) have no wall clock. */
__attribute__((weak)) int rtc_read_ns(uint64_t *ns)
{
	(void)ns;
	return -ENOENT;
}

struct timespec64 current_time(struct inode *inode)
{
	static bool probed;
	static uint64_t boot_epoch_ns;		/* the RTC's time at ktime 0, or 0 */
	uint64_t now = ktime_get_ns(), rtc;

	(void)inode;
	if (!probed) {
		if (!rtc_read_ns(&rtc) && rtc > now)
			boot_epoch_ns = rtc - now;
		probed = true;
	}
	now += boot_epoch_ns;
	/* Linux truncates to the filesystem's granularity; ext2 keeps seconds. */
	return (struct timespec64){ .tv_sec = (int64_t)(now / 1000000000ULL),
				    .tv_nsec = (long)(now % 1000000000ULL) };
}

/* The inode itself if dirty, through s_op->write_inode (cleared first: a change meanwhile
 * dirties it again).  0 or -errno. */
static int write_inode(struct inode *inode, bool sync)
{
	struct super_block *sb = inode->i_sb;
	int err = 0;

	mutex_lock(&vfs_lock);
	bool dirty = inode->i_state & I_DIRTY_SYNC;
	inode->i_state &= ~I_DIRTY_SYNC;
	mutex_unlock(&vfs_lock);
	if (dirty && sb->s_op && sb->s_op->write_inode) {
		err = sb->s_op->write_inode(inode, sync);
		if (err)
			mark_inode_dirty(inode);	/* still stale on disk: try again later */
	}
	return err;
}

/* The page cache written (and waited on with @sync), then the inode itself if dirty. */
int write_inode_now(struct inode *inode, bool sync)
{
	int err, err2;

	if (sync)
		err = filemap_write_and_wait_range(inode->i_mapping, 0, LLONG_MAX);
	else
		err = filemap_fdatawrite_range(inode->i_mapping, 0, LLONG_MAX);
	err2 = write_inode(inode, sync);
	return err ? err : err2;
}

void truncate_setsize(struct inode *inode, loff_t newsize)
{
	loff_t old = inode->i_size;

	lockdep_assert_held(&inode->i_rwsem);
	i_size_write(inode, newsize);
	if (newsize < old)
		truncate_pagecache(inode, newsize);
}

/* umount, after the dcache let go of @sb: every inode is unused; evict them all. */
int evict_inodes(struct super_block *sb)
{
	int busy = 0;

	for (;;) {
		struct inode *inode, *victim = NULL;

		busy = 0;
		mutex_lock(&vfs_lock);
		list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
			if (inode->i_count || (inode->i_state & I_FREEING)) {
				busy++;
				continue;
			}
			victim = inode;
			victim->i_state |= I_FREEING;
			list_del_init(&victim->i_hash);
			__inode_del_lru_locked(victim);
			break;
		}
		mutex_unlock(&vfs_lock);
		if (!victim)
			return busy;
		evict(victim);
	}
}

/* ---- the shrinker ---- */

static unsigned long icache_count(struct shrinker *s, struct shrink_control *sc)
{
	return nr_inodes_unused ? nr_inodes_unused : SHRINK_EMPTY;
}

/* The oldest unused inodes that are clean: not I_DIRTY_SYNC, no dirty or writeback folios
 * (those would be lost); their clean page cache goes with them, as Linux's eviction does. */
static unsigned long icache_scan(struct shrinker *s, struct shrink_control *sc)
{
	LIST_HEAD(dispose);
	unsigned long scanned = 0, freed = 0;
	struct inode *inode, *next;

	if (!mutex_trylock(&vfs_lock))
		return SHRINK_STOP;
	list_for_each_entry_safe(inode, next, &inode_lru, i_lru) {
		if (scanned++ >= sc->nr_to_scan)
			break;
		if ((inode->i_state & I_DIRTY_SYNC) ||
		    mapping_tagged(&inode->i_data, PAGECACHE_TAG_DIRTY) ||
		    mapping_tagged(&inode->i_data, PAGECACHE_TAG_WRITEBACK))
			continue;
		inode->i_state |= I_FREEING;
		list_del_init(&inode->i_hash);
		list_del_init(&inode->i_lru);
		nr_inodes_unused--;
		list_add(&inode->i_lru, &dispose);
	}
	mutex_unlock(&vfs_lock);
	list_for_each_entry_safe(inode, next, &dispose, i_lru) {
		list_del_init(&inode->i_lru);
		evict(inode);
		freed++;
	}
	return freed;
}

struct shrinker icache_shrinker = {
	.count_objects = icache_count,
	.scan_objects = icache_scan,
	.name = "icache",
};

void icache_init(void)
{
	inode_cachep = kmem_cache_create("inode_cache", sizeof(struct inode), 0, SLAB_PANIC, NULL);
	for (unsigned int i = 0; i < ARRAY_SIZE(inode_hashtable); i++)
		INIT_LIST_HEAD(&inode_hashtable[i]);
	shrinker_register(&icache_shrinker);
}
