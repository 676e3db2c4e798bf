/*
 * filemap.c - the page cache, as v6.10's mm/filemap.c: a mapping's folios indexed by page offset
 * in its XArray; lookup, insertion and removal (leaving workingset shadows); the read path with
 * readahead (filemap_read) and the write path (generic_perform_write), both reaching the backing
 * store through the mapping's address_space_operations alone; and the folio lock and folio bit
 * waits (hashed wait queues with PG_waiters).  Truncation and invalidation are mm/truncate.c's,
 * dirtying and writeback mm/page-writeback.c's.
 *
 * Invariants (see include/tinymm/pagemap.h for the API):
 *   - a folio in mapping->i_pages has folio->mapping == mapping and folio->index == its index,
 *     holds one reference for the cache, and is counted in mapping->nrpages and NR_FILE_PAGES;
 *   - a folio enters the cache locked and not uptodate; its reader sets PG_uptodate (or records
 *     the error) and unlocks it; PG_uptodate is never cleared while it is cached;
 *   - a folio leaves the cache only locked, with mapping set to NULL under the index lock, so a
 *     lookup that raced with removal sees mapping != the mapping and retries.
 *   - PG_waiters set <= someone may sleep on this folio's bucket for one of its bits; it is set
 *     under the bucket's lock before the sleeper's last check, so a releaser that sees it clear
 *     can skip the wake-up safely, and one that sees it set takes the bucket lock.
 *   - folio_wake_bit() clears PG_waiters only under the bucket lock, and only when the walk met
 *     no waiter of this folio (page_match == 0) or the bucket is empty.
 *   - a wake function sets WQ_FLAG_WOKEN with release order before removing the entry; the
 *     sleeper reads it with acquire order and needs no lock to know it was woken.
 * Locking: mapping->i_pages.xa_lock (spin_lock_irqsave: I/O completions run in interrupts)
 *   around every change of the index and nrpages; lookups take no lock (filemap_get_entry:
 *   the XArray's lockless walk, folio_try_get() and a second look), so a remover that decides
 *   by the reference count that nobody else holds the folio freezes the count first
 *   (folio_ref_freeze: vmscan's __remove_mapping, mapping_evict_folio, soft offline) and a
 *   lookup that meets a frozen folio looks again; PG_locked around reading a folio and around a write's copy into
 *   it (write_begin to write_end); lock order: folio lock, then xa_lock.  The wait-queue bucket
 *   lock (spin_lock_irq) around PG_waiters changes and queue walks; PG_locked and PG_writeback
 *   are changed by atomic bit operations only.
 *
 * Where tinymm differs from v6.10, and why: no RCU, so the lookup's walk is guarded by the
 * XArray's sequence count instead (include/tinymm/xarray.h), and its second look after
 * folio_try_get() compares that count where v6.10 reloads the slot.  The index node is
 * allocated under xa_lock with GFP_ATOMIC (v6.10 preallocates with xas_nomem() outside the
 * lock; tinymm's allocator never sleeps, but the gfp says so).
 * generic_perform_write() moves one folio at a time and takes a @fill callback for the bytes in
 * place of an iov_iter.
 */
#include <string.h>
#include "tinymm/cacheflush.h"
#include "tinymm/bug.h"
#include "tinymm/buffer_head.h"
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmdebug.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/swap.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"
#include "tinymm/workingset.h"
#include "tinymm/writeback.h"

void address_space_init(struct address_space *mapping, const struct address_space_operations *a_ops,
			loff_t size)
{
	memset(mapping, 0, sizeof(*mapping));
	xa_init(&mapping->i_pages);
	xa_set_update(&mapping->i_pages, workingset_update_node);	/* mapping_set_update */
	INIT_LIST_HEAD(&mapping->i_io_list);
	INIT_LIST_HEAD(&mapping->i_mmap);
	init_rwsem(&mapping->i_mmap_rwsem);
	mapping->a_ops = a_ops;
	mapping->size = size;
}

/* The errseq_t for every fsync/sync caller (each told once), and the legacy flags
 * for filemap_check_errors() (the first caller is told, then they are cleared). */
void mapping_set_error(struct address_space *mapping, int error)
{
	if (!error)
		return;
	errseq_set(&mapping->wb_err, error);
	set_bit(error == -ENOSPC ? AS_ENOSPC : AS_EIO, &mapping->flags);
}

unsigned long nr_pagecache_pages(void)
{
	return global_node_page_state(NR_FILE_PAGES);
}

int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index, gfp_t gfp)
{
	unsigned long flags;
	void *old, *shadow = NULL;

	__folio_set_locked(folio);
	folio->mapping = mapping;
	folio->index = index;
	folio_get(folio);			/* the cache's reference */
	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	old = xa_load(&mapping->i_pages, index);
	if (old && !xa_is_value(old)) {
		old = xa_mk_err(-EEXIST);
	} else {
		/* Under a spinlock: the node allocation must not sleep (see the header). */
		old = xa_store(&mapping->i_pages, index, folio, (gfp & ~GFP_KERNEL) | GFP_ATOMIC);
		if (!xa_is_err(old)) {
			shadow = old;		/* a workingset shadow entry, or NULL */
			mapping->nrpages++;
			mod_node_page_state(NR_FILE_PAGES, 1);
		}
	}
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	if (xa_is_err(old)) {
		folio->mapping = NULL;
		__folio_clear_locked(folio);
		folio_put(folio);
		return xa_err(old);
	}
	/* Evicted not long ago?  The shadow decides whether it starts active (a folio being
	 * written, __GFP_WRITE, is not a refault: its old contents are not wanted back). */
	if (shadow && !(gfp & __GFP_WRITE))
		workingset_refault(folio, shadow);
	folio_add_lru(folio);		/* via this CPU's lru_add batch (mm/swap.c) */
	return 0;
}

/* page_cache_delete() + filemap_unaccount_folio(); xa_lock held, folio locked.  The
 * slot's marks go and @shadow (a value entry, or NULL) takes its place. */
void __filemap_remove_folio(struct folio *folio, void *shadow)
{
	struct address_space *mapping = folio->mapping;

	lockdep_assert_held(&mapping->i_pages.xa_lock);
	lockdep_assert_folio_locked(folio);
	for (xa_mark_t m = XA_MARK_0; m <= XA_MARK_MAX; m++)
		xa_clear_mark(&mapping->i_pages, folio->index, m);
	if (shadow)
		xa_store(&mapping->i_pages, folio->index, shadow, GFP_ATOMIC);	/* same slot: no node */
	else
		xa_erase(&mapping->i_pages, folio->index);
	folio->mapping = NULL;
	mapping->nrpages--;
	mod_node_page_state(NR_FILE_PAGES, -1);
	/* A dirty folio leaving the cache (truncation) takes its NR_FILE_DIRTY with it; PG_dirty
	 * stays for the caller to see. */
	if (folio_test_dirty(folio))
		mod_node_page_state(NR_FILE_DIRTY, -1);
}

void filemap_remove_folio(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;
	unsigned long flags;

	spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
	__filemap_remove_folio(folio, NULL);
	spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
	folio_put(folio);			/* the cache's reference; the caller still holds one */
}

/*
 * Linux's filemap_release_folio(): before reclaim, invalidation or a memory error drops a
 * locked folio, its private data (buffer heads) must go, through a_ops->release_folio.  True
 * when it has none left; false under writeback, or when the owner keeps it (a dirty or busy
 * buffer).  Without a release_folio (or without a mapping: a truncated folio whose buffers
 * were busy), the private data is buffer heads: try_to_free_buffers(), as v6.10 (the one
 * place mm/ calls fs/ by name, as Linux's filemap.c does).
 */
bool filemap_release_folio(struct folio *folio, gfp_t gfp)
{
	struct address_space *mapping = folio->mapping;

	lockdep_assert_folio_locked(folio);
	if (!folio_test_private(folio))
		return true;
	if (folio_test_writeback(folio))
		return false;
	if (mapping && mapping->a_ops && mapping->a_ops->release_folio)
		return mapping->a_ops->release_folio(folio, gfp);
	return try_to_free_buffers(folio);
}

/* What a lookup returns for a miss: NULL (filemap_get_entry) or ERR_PTR(-ENOENT). */
static inline struct folio *lookup_miss(bool err)
{
	return err ? ERR_PTR(-ENOENT) : NULL;
}

/*
 * The lookup's slow path: the walk raced with a writer, the folio was frozen or freed, or the
 * index changed after the reference was taken (@folio, referenced: is it still at @index?).
 */
static __attribute__((noinline)) struct folio *filemap_get_entry_slow(struct address_space *mapping,
								      pgoff_t index, struct folio *folio,
								      bool err)
{
	struct xarray *xa = &mapping->i_pages;

	for (;;) {
		unsigned int seq = xa_read_begin(xa);
		void *entry = xa_load_lockless(xa, index);
		if (xa_read_retry(xa, seq))
			continue;
		if (folio) {
			if (entry == folio)
				return folio;	/* still there: the reference stands */
			folio_put(folio);	/* moved, freed or reused: maybe the last one */
			folio = NULL;
		}
		if (!entry || xa_is_value(entry))
			return lookup_miss(err);
		if (!folio_try_get(entry))
			continue;		/* frozen for removal, or freed: look again */
		if (!xa_read_retry_after_atomic(xa, seq))
			return entry;
		folio = entry;
	}
}

/*
 * A referenced folio at @index, or a miss (lookup_miss(@err)).  Value entries (workingset
 * shadows) are misses.  v6.10's filemap_get_entry() without RCU: the walk is the XArray's
 * lockless one; the reference is folio_try_get()'s (a frozen or free folio has count 0); and the
 * second look is the XArray's count read again after it: unchanged, nothing was stored anywhere
 * in the array between the walk and the reference, so the folio was at @index when it was
 * taken.  A folio removed after that is the caller's to notice (mapping != @mapping once
 * locked), as before.  Every exit a return or a tail call: the hit path needs no stack frame.
 */
static inline __attribute__((always_inline)) struct folio *
__filemap_get_entry(struct address_space *mapping, pgoff_t index, bool err)
{
	struct xarray *xa = &mapping->i_pages;
	unsigned int seq = xa_read_begin(xa);
	struct folio *folio = xa_load_lockless(xa, index);

	if (unlikely(xa_read_retry(xa, seq)))
		return filemap_get_entry_slow(mapping, index, NULL, err);
	if (!folio || xa_is_value(folio))
		return lookup_miss(err);
	if (unlikely(!folio_try_get(folio)))
		return filemap_get_entry_slow(mapping, index, NULL, err);
	if (unlikely(xa_read_retry_after_atomic(xa, seq)))
		return filemap_get_entry_slow(mapping, index, folio, err);
	return folio;
}

static inline struct folio *filemap_get_entry(struct address_space *mapping, pgoff_t index)
{
	return __filemap_get_entry(mapping, index, false);
}

/* The hit path: no stack frame, no flag tests (bench: pagecache-hit). */
__fastpath struct folio *filemap_get_folio(struct address_space *mapping, pgoff_t index)
{
	return __filemap_get_entry(mapping, index, true);
}

struct folio *__filemap_get_folio(struct address_space *mapping, pgoff_t index, unsigned int fgp_flags,
				  gfp_t gfp)
{
	struct folio *folio;

repeat:
	folio = filemap_get_entry(mapping, index);
	if (folio && (fgp_flags & FGP_LOCK)) {
		folio_lock(folio);
		if (unlikely(folio->mapping != mapping)) {	/* removed while we slept */
			folio_unlock(folio);
			folio_put(folio);
			goto repeat;
		}
	}
	if (folio)
		return folio;
	if (!(fgp_flags & FGP_CREAT))
		return ERR_PTR(-ENOENT);
	if (fgp_flags & FGP_WRITE)
		gfp |= __GFP_WRITE;
	folio = folio_alloc(gfp, 0);
	if (!folio)
		return ERR_PTR(-ENOMEM);
	int err = filemap_add_folio(mapping, folio, index, gfp);
	if (err) {
		folio_put(folio);
		if (err == -EEXIST)
			goto repeat;
		return ERR_PTR(err);
	}
	if (!(fgp_flags & FGP_LOCK))
		folio_unlock(folio);
	return folio;
}

/* Start reading a locked folio and wait for it; 0 if it came back uptodate, else -EIO.  An
 * error quarters the reader's readahead window (shrink_readahead_size_eio()). */
static int filemap_read_folio(struct address_space *mapping, struct file_ra_state *ra,
			      struct folio *folio)
{
	int err = mapping->a_ops->read_folio(mapping, folio);	/* unlocks when done */

	if (!err) {
		folio_wait_locked(folio);
		err = folio_test_uptodate(folio) ? 0 : -EIO;
	}
	if (err && ra)
		ra->ra_pages /= 4;
	return err;
}

#define AOP_TRUNCATED_PAGE	0x80001

/* A folio found not uptodate: lock it, re-check, read it if still needed. */
static int filemap_update_page(struct address_space *mapping, struct file_ra_state *ra,
			       struct folio *folio)
{
	folio_lock(folio);
	if (!folio->mapping) {			/* removed while we waited */
		folio_unlock(folio);
		return AOP_TRUNCATED_PAGE;
	}
	if (folio_test_uptodate(folio)) {
		folio_unlock(folio);
		return 0;
	}
	return filemap_read_folio(mapping, ra, folio);
}

/* A new folio at @index, read synchronously (the readahead could not make one). */
static int filemap_create_folio(struct address_space *mapping, struct file_ra_state *ra,
				pgoff_t index, struct folio **out)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	int err;

	if (!folio)
		return -ENOMEM;
	err = filemap_add_folio(mapping, folio, index, GFP_KERNEL);
	if (err) {
		folio_put(folio);
		return err;		/* -EEXIST: someone else made it, go and find it */
	}
	err = filemap_read_folio(mapping, ra, folio);
	if (err) {
		folio_put(folio);
		return err;
	}
	*out = folio;
	return 0;
}

/* filemap_get_pages() for one folio: the uptodate folio at @index, referenced. */
static int filemap_get_page(struct address_space *mapping, struct file_ra_state *ra, pgoff_t index,
			    pgoff_t last_index, struct folio **out)
{
	struct folio *folio;
	int err;

retry:
	folio = filemap_get_entry(mapping, index);
	if (!folio) {
		page_cache_sync_readahead(mapping, ra, index, last_index - index);
		folio = filemap_get_entry(mapping, index);
	}
	if (!folio) {
		err = filemap_create_folio(mapping, ra, index, &folio);
		if (err == -EEXIST)
			goto retry;
		if (err)
			return err;
	}
	if (folio_test_readahead(folio))
		page_cache_async_readahead(mapping, ra, folio, last_index - index);
	if (!folio_test_uptodate(folio)) {
		err = filemap_update_page(mapping, ra, folio);
		if (err) {
			folio_put(folio);
			if (err == AOP_TRUNCATED_PAGE)
				goto retry;
			return err;
		}
	}
	*out = folio;
	return 0;
}

long filemap_read(struct address_space *mapping, struct file_ra_state *ra, loff_t pos, void *buf,
		  size_t count)
{
	size_t done = 0;
	int err = 0;

	if (pos < 0)
		return -EINVAL;
	if (pos >= mapping->size || !count)
		return 0;
	if ((uint64_t)count > (uint64_t)(mapping->size - pos))
		count = (size_t)(mapping->size - pos);
	pgoff_t last_index = (pgoff_t)((pos + (loff_t)count + PAGE_SIZE - 1) >> PAGE_SHIFT);
	while (done < count) {
		struct folio *folio;
		err = filemap_get_page(mapping, ra, (pgoff_t)(pos >> PAGE_SHIFT), last_index, &folio);
		if (err)
			break;
		size_t off = (size_t)(pos & (PAGE_SIZE - 1)), n = min(PAGE_SIZE - off, count - done);
		/* Marked accessed unless the last byte read before was in this folio too, so
		 * small reads through one folio count as one touch (pos_same_folio(pos, last - 1)). */
		if ((pos >> PAGE_SHIFT) != (((done ? pos : ra->prev_pos) - 1) >> PAGE_SHIFT))
			folio_mark_accessed(folio);
		memcpy((char *)buf + done, (char *)page_address(&folio->page) + off, n);
		folio_put(folio);
		done += n;
		pos += (loff_t)n;
	}
	if (done)
		ra->prev_pos = pos;	/* the byte after the last one read; unchanged if none */
	return done ? (long)done : err;
}

struct folio *read_cache_folio(struct address_space *mapping, pgoff_t index)
{
	struct folio *folio;
	int err;

repeat:
	folio = __filemap_get_folio(mapping, index, FGP_CREAT | FGP_LOCK, GFP_KERNEL);
	if (IS_ERR(folio))
		return folio;
	if (folio_test_uptodate(folio)) {
		folio_unlock(folio);
		return folio;
	}
	err = filemap_read_folio(mapping, NULL, folio);
	if (err) {
		folio_put(folio);
		return ERR_PTR(err);
	}
	if (!folio->mapping) {
		folio_put(folio);
		goto repeat;
	}
	return folio;
}

/*
 * A page fault on a file area (v6.10's filemap_fault, reduced): the cached folio if it is there
 * and uptodate (a minor fault; a PG_readahead folio starts the next window asynchronously), or
 * synchronous readahead from @index and the folio read (a major fault: PGMAJFAULT,
 * VM_FAULT_MAJOR).  A page at or past EOF is VM_FAULT_SIGBUS, before and after the read (a
 * truncation may have raced with it).  v6.10 reads around the fault (ra->size centred on it)
 * where tinymm uses the reader's sequential window, and may drop the mmap lock for the I/O.
 */
static pgoff_t filemap_max_index(const struct address_space *mapping)
{
	return (pgoff_t)(((uint64_t)READ_ONCE(mapping->size) + PAGE_SIZE - 1) >> PAGE_SHIFT);
}

/* filemap_fault() after its lookup found @folio (or an error): readahead, a read, the size
 * checked again.  Out of line: the cached case needs none of it, nor its saved registers. */
static __attribute__((noinline)) vm_fault_t filemap_fault_finish(struct vm_fault *vmf,
								  struct address_space *mapping,
								  pgoff_t index, struct folio *folio)
{
	struct file *file = vmf->vma->vm_file;
	vm_fault_t ret = 0;

	if (!IS_ERR(folio)) {
		if (folio_test_readahead(folio))
			page_cache_async_readahead(mapping, &file->f_ra, folio, 1);
		if (!folio_test_uptodate(folio)) {	/* being read: wait below, no new I/O */
			folio_put(folio);
			folio = NULL;
		}
	} else {
		count_vm_events(PGMAJFAULT, 1);
		ret = VM_FAULT_MAJOR;
		page_cache_sync_readahead(mapping, &file->f_ra, index, 1);
		folio = NULL;
	}
	if (!folio) {
		folio = read_cache_folio(mapping, index);
		if (IS_ERR(folio))
			return PTR_ERR(folio) == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
	}
	if (index >= filemap_max_index(mapping)) {
		folio_put(folio);
		return VM_FAULT_SIGBUS;
	}
	vmf->folio = folio;
	return ret;
}

vm_fault_t filemap_fault(struct vm_fault *vmf)
{
	struct address_space *mapping = vmf->vma->vm_file->f_inode->i_mapping;
	pgoff_t index = vmf->pgoff;
	struct folio *folio;

	if (index >= filemap_max_index(mapping))
		return VM_FAULT_SIGBUS;
	folio = filemap_get_folio(mapping, index);
	/* Cached, uptodate, no readahead mark, the file not shrunk meanwhile: mapped as it is. */
	if (likely(!IS_ERR(folio) && !folio_test_readahead(folio) && folio_test_uptodate(folio) &&
		   index < filemap_max_index(mapping))) {
		vmf->folio = folio;
		return 0;
	}
	return filemap_fault_finish(vmf, mapping, index, folio);
}

/*
 * One folio at a time: the mapping's write_begin finds or
 * creates the folio at @pos locked (reading it first when the write covers only part of it),
 * @fill writes the bytes of offsets [pos, pos + n) into it (Linux's copy from the iov_iter),
 * write_end marks it uptodate and dirty and releases it, and balance_dirty_pages throttles.
 * Nothing reaches the backing store here: the flusher, a throttled writer or a sync writes it
 * back.  Returns the bytes written; fewer than @len only with *@err set (-errno).
 */
uint64_t generic_perform_write(struct address_space *mapping, loff_t pos, uint64_t len,
			       filemap_fill_fn fill, void *ctx, int *err)
{
	const struct address_space_operations *a_ops = mapping->a_ops;
	uint64_t done = 0;

	*err = 0;
	while (done < len) {
		uint64_t at = (uint64_t)pos + done;
		unsigned int offset = (unsigned int)(at & (PAGE_SIZE - 1));
		unsigned int bytes = (unsigned int)min(len - done, (uint64_t)(PAGE_SIZE - offset));
		struct folio *folio;
		int status = a_ops->write_begin(mapping, (loff_t)at, bytes, &folio);

		if (status) {
			*err = status;
			break;
		}
		fill(ctx, at, (uint8_t *)page_address(&folio->page) + offset, bytes);
		flush_dcache_folio(folio);	/* written through the kernel's mapping */
		status = a_ops->write_end(mapping, (loff_t)at, bytes, bytes, folio);
		if (status < 0) {
			*err = status;
			break;
		}
		balance_dirty_pages_ratelimited(mapping);
		done += bytes;
	}
	return done;
}

/* ---- the folio lock and folio bit waits ---- */

_Static_assert(PG_waiters == 7 && PG_locked < 7,
	       "PG_waiters must be bit 7, in PG_locked's byte, as v6.10 requires");

static struct wait_queue_head folio_wait_table[PAGE_WAIT_TABLE_SIZE];
static unsigned long wake_bit_calls;

/* sysctl_page_lock_unfairness's default: exclusive attempts before a hand-off. */
#define PAGE_LOCK_UNFAIRNESS	5

/* Linux's hash_ptr(): multiply by the golden ratio, keep the top bits. */
static unsigned int hash_ptr(const void *p, unsigned int bits)
{
#if __SIZEOF_LONG__ == 8
	return (unsigned int)(((unsigned long)p * 0x61C8864680B583EBUL) >> (64 - bits));
#else
	return (unsigned int)(((unsigned long)p * 0x61C88647UL) >> (32 - bits));
#endif
}

/* At boot, before any thread could wait (Linux's pagecache_init()). */
void pagecache_init(void)
{
	for (int i = 0; i < PAGE_WAIT_TABLE_SIZE; i++)
		init_waitqueue_head(&folio_wait_table[i]);
}

struct wait_queue_head *folio_waitqueue(struct folio *folio)
{
	return &folio_wait_table[hash_ptr(folio, PAGE_WAIT_TABLE_BITS)];
}

struct wait_page_key {
	struct folio *folio;
	int bit_nr;
	int page_match;
};

struct wait_page_queue {
	struct folio *folio;
	int bit_nr;
	struct wait_queue_entry wait;
};

static bool wake_page_match(struct wait_page_queue *wait_page, struct wait_page_key *key)
{
	if (wait_page->folio != key->folio)
		return false;
	key->page_match = 1;
	return wait_page->bit_nr == key->bit_nr;
}

static int wake_page_function(struct wait_queue_entry *wait, unsigned int mode, int sync, void *arg)
{
	struct wait_page_key *key = arg;
	struct wait_page_queue *wait_page = container_of(wait, struct wait_page_queue, wait);
	unsigned int flags;

	(void)sync;
	if (!wake_page_match(wait_page, key))
		return 0;
	flags = wait->flags;
	if (flags & WQ_FLAG_EXCLUSIVE) {
		/* Someone took the bit again already: stop, the next release wakes us. */
		if (test_bit(key->bit_nr, &key->folio->flags))
			return -1;
		if (flags & WQ_FLAG_CUSTOM) {	/* hand-off: take it for the waiter */
			if (test_and_set_bit(key->bit_nr, &key->folio->flags))
				return -1;
			flags |= WQ_FLAG_DONE;
		}
	}
	smp_store_release(&wait->flags, flags | WQ_FLAG_WOKEN);
	try_to_wake_up(wait->private, mode);
	/* Last: after this the waiter may return and its entry (on its stack) vanish. */
	list_del_init(&wait->entry);
	return (flags & WQ_FLAG_EXCLUSIVE) != 0;
}

static void folio_wake_bit(struct folio *folio, int bit_nr)
{
	struct wait_queue_head *q = folio_waitqueue(folio);
	struct wait_page_key key = { .folio = folio, .bit_nr = bit_nr, .page_match = 0 };
	unsigned long flags;

	wake_bit_calls++;
	spin_lock_irqsave(&q->lock, flags);
	__wake_up_locked_key(q, TASK_NORMAL, &key);
	/* Other folios' waiters may share the bucket: then a waiter of ours may be missed here
	 * and PG_waiters stays set; the next wake-up clears it.  Rare, and harmless. */
	if (!waitqueue_active(q) || !key.page_match)
		folio_clear_waiters(folio);
	spin_unlock_irqrestore(&q->lock, flags);
}

/* Under the bucket lock: the last try before sleeping. */
static bool folio_trylock_flag(struct folio *folio, int bit_nr, struct wait_queue_entry *wait)
{
	if (wait->flags & WQ_FLAG_EXCLUSIVE) {
		if (test_and_set_bit(bit_nr, &folio->flags))
			return false;
	} else if (test_bit(bit_nr, &folio->flags)) {
		return false;
	}
	wait->flags |= WQ_FLAG_WOKEN | WQ_FLAG_DONE;
	return true;
}

enum behavior { EXCLUSIVE, SHARED };

static void folio_wait_bit_common(struct folio *folio, int bit_nr, int state, enum behavior behavior)
{
	struct wait_queue_head *q = folio_waitqueue(folio);
	int unfairness = PAGE_LOCK_UNFAIRNESS;
	struct wait_page_queue wait_page = { .folio = folio, .bit_nr = bit_nr };
	struct wait_queue_entry *wait = &wait_page.wait;

	might_sleep();
	init_wait_entry(wait, 0);
	wait->func = wake_page_function;
repeat:
	wait->flags = 0;
	if (behavior == EXCLUSIVE) {
		wait->flags = WQ_FLAG_EXCLUSIVE;
		if (--unfairness < 0)
			wait->flags |= WQ_FLAG_CUSTOM;
	}
	/* PG_waiters first, then the last try, both under the bucket lock: a releaser we just
	 * missed sees PG_waiters and comes to the queue. */
	spin_lock_irq(&q->lock);
	folio_set_waiters(folio);
	if (!folio_trylock_flag(folio, bit_nr, wait))
		__add_wait_queue_entry_tail(q, wait);
	spin_unlock_irq(&q->lock);

	for (;;) {
		unsigned int flags;

		set_current_state(state);
		flags = smp_load_acquire(&wait->flags);
		if (!(flags & WQ_FLAG_WOKEN)) {
			io_schedule();
			continue;
		}
		if (behavior != EXCLUSIVE || (flags & WQ_FLAG_DONE))
			break;
		/* Woken to compete for the lock: it may be gone again. */
		if (test_and_set_bit(bit_nr, &folio->flags))
			goto repeat;
		wait->flags |= WQ_FLAG_DONE;
		break;
	}
	finish_wait(q, wait);
}

void __folio_lock(struct folio *folio)
{
	folio_wait_bit_common(folio, PG_locked, TASK_UNINTERRUPTIBLE, EXCLUSIVE);
	lock_acquire(&folio_lock_map, folio, 1, (unsigned long)__builtin_return_address(0));
}

void folio_wait_bit(struct folio *folio, int bit_nr)
{
	folio_wait_bit_common(folio, bit_nr, TASK_UNINTERRUPTIBLE, SHARED);
}

/* A folio another context unlocked (I/O completion) leaves its locker's stack when seen. */
static bool folio_still_locked(const void *folio)
{
	return folio_test_locked((const struct folio *)folio);
}

struct lockdep_map folio_lock_map = { .name = "PG_locked", .still_held = folio_still_locked };

void folio_unlock(struct folio *folio)
{
	/* Reported and ignored when not locked: the XOR below would lock it instead. */
	if (unlikely(!folio_test_locked(folio))) {
		lockdep_assert_folio_locked(folio);
		return;
	}
	lock_release(folio);
	if (folio_xor_flags_has_waiters(folio, 1UL << PG_locked))
		folio_wake_bit(folio, PG_locked);
}

/*
 * The start of writeback is all accounting (__folio_start_writeback in
 * mm/page-writeback.c); its end is accounting plus the wake-up, which lives here with the other
 * bit waits.  __folio_end_writeback() clears PG_writeback with the one fetch-xor that also says
 * whether anyone sleeps on the folio.
 */
void folio_end_writeback(struct folio *folio)
{
	VM_BUG_ON_PAGE(!folio_test_writeback(folio), &folio->page);
	/* Reclaim wanted this folio gone when it was clean: put it where reclaim looks next.  A
	 * plain test and clear: losing a rotation to a race is cheaper than an atomic. */
	if (folio_test_reclaim(folio)) {
		folio_clear_reclaim(folio);
		folio_rotate_reclaimable(folio);
	}
	/* Writeback holds no reference: keep the folio alive until the wake-up is done. */
	folio_get(folio);
	if (__folio_end_writeback(folio))
		folio_wake_bit(folio, PG_writeback);
	folio_put(folio);
}

void folio_wait_writeback(struct folio *folio)
{
	while (folio_test_writeback(folio))
		folio_wait_bit(folio, PG_writeback);
}

unsigned long folio_wake_bit_calls(void)
{
	return wake_bit_calls;
}
