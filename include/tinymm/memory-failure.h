/*
 * memory-failure.h - HWPoison: what tinymm does with a frame whose memory went bad (Linux v6.10's
 * mm/memory-failure.c; docs/hwpoison.md).
 *
 *   memory_failure(pfn, flags)    a frame is bad: PG_hwpoison on it, then act on what it holds
 *                                 (Linux's error_states[] table, matched on a flags snapshot)
 *                                 and print "Memory failure: 0x<pfn>: recovery action for
 *                                 <state>: <Ignored|Failed|Delayed|Recovered>".  0 (Recovered or
 *                                 Delayed), -EHWPOISON (already poisoned: counters unchanged),
 *                                 -ENXIO (no such frame), -EBUSY (Ignored or Failed).
 *   unpoison_memory(pfn)          take PG_hwpoison off again and give the frame back (software
 *                                 injections only: refused once a hardware-reported failure was
 *                                 seen, as Linux's hw_memory_failure).
 *   soft_offline_page(pfn, flags) move what a frame holds to a new frame, then poison the old one:
 *                                 nothing is lost (mm/soft-offline.c).
 *   page_handle_poison(page, ...) the common end: mark the frame, drop the caller's reference,
 *                                 take it off the buddy if that freed it, count it.
 *
 * Locking: mf_mutex serialises memory_failure, unpoison_memory and soft_offline_page (Linux's
 * mf_mutex); each takes the folio lock, the zone lock (through take_page_off_buddy) and the
 * mapping's xa_lock under it.  None of them may be called from interrupt context.
 *
 * Additions to the first draft of this header (mm/memory-failure.c implements them): mf_mutex
 * itself (soft_offline_page takes it), Linux's enum mf_action_page_type and the names it prints,
 * Linux's "taken off" mark (MAGIC_HWPOISON in ->private), and the per-frame records and per-node
 * statistics the `hwpoison list` / `hwpoison stats` commands print (mm/hwpoison_cmd.c).
 *
 * Where tinymm differs from v6.10, and why: for `hwpoison list`, tinymm remembers each poisoned
 * frame (struct mf_record; v6.10 keeps nothing, its trace event is the record) and the kind of
 * frame it was (enum mf_kind: a kernel frame v6.10 only calls "unknown page" is named).
 * hwpoison_seen is a plain flag where Linux would use a static key (tinymm has none).  One node:
 * the per-node statistics are node 0's, and their sum is the same.
 */
#ifndef TINYMM_MEMORY_FAILURE_H
#define TINYMM_MEMORY_FAILURE_H

#include <stdbool.h>
#include "tinymm/atomic.h"
#include "tinymm/mm_types.h"
#include "tinymm/page-flags.h"

/* memory_failure() flags: Linux's enum mf_flags values. */
#define MF_COUNT_INCREASED	(1 << 0)	/* the caller already holds a reference */
#define MF_ACTION_REQUIRED	(1 << 1)	/* the error was consumed (synchronous) */
#define MF_MUST_KILL		(1 << 2)
#define MF_SOFT_OFFLINE		(1 << 3)
#define MF_UNPOISON		(1 << 4)
#define MF_SW_SIMULATED		(1 << 5)	/* injected by software (hwpoison inject) */
#define MF_NO_RETRY		(1 << 6)

/* Linux's enum mf_result, in its order. */
enum mf_result {
	MF_IGNORED,	/* nothing done: the frame is left alone (still marked, never reused) */
	MF_FAILED,	/* handling went wrong */
	MF_DELAYED,	/* will be handled later */
	MF_RECOVERED,	/* successfully recovered */
};

/* Linux's enum mf_action_page_type (include/linux/mm.h), in its order: the <state> of the
 * "recovery action for <state>" line.  v6.10 has neither of the MF_MSG_GET_HWPOISON and
 * MF_MSG_ALREADY_POISONED that Linux 6.11 added.  MF_MSG_SLAB has a name but nothing reports
 * it, in Linux as here: a slab frame is unhandlable, "unknown page" (6.11 removed it). */
enum mf_action_page_type {
	MF_MSG_KERNEL,
	MF_MSG_KERNEL_HIGH_ORDER,
	MF_MSG_SLAB,
	MF_MSG_DIFFERENT_COMPOUND,
	MF_MSG_HUGE,
	MF_MSG_FREE_HUGE,
	MF_MSG_UNMAP_FAILED,
	MF_MSG_DIRTY_SWAPCACHE,
	MF_MSG_CLEAN_SWAPCACHE,
	MF_MSG_DIRTY_MLOCKED_LRU,
	MF_MSG_CLEAN_MLOCKED_LRU,
	MF_MSG_DIRTY_UNEVICTABLE_LRU,
	MF_MSG_CLEAN_UNEVICTABLE_LRU,
	MF_MSG_DIRTY_LRU,
	MF_MSG_CLEAN_LRU,
	MF_MSG_TRUNCATED_LRU,
	MF_MSG_BUDDY,
	MF_MSG_DAX,
	MF_MSG_UNSPLIT_THP,
	MF_MSG_UNKNOWN,
	NR_MF_MSG
};
/* Linux's action_page_types[] and action_name[] words ("free buddy page", "Recovered"). */
const char *mf_action_page_type_name(enum mf_action_page_type type);
const char *mf_action_name(enum mf_result result);

/* Linux's per-node memory_failure statistics (/sys/devices/system/node/nodeN/memory_failure). */
struct memory_failure_stats {
	unsigned long total;
	unsigned long ignored;
	unsigned long failed;
	unsigned long delayed;
	unsigned long recovered;
};

int memory_failure(unsigned long pfn, int flags);
/* mm/hwpoison_user.c (where there are user page tables; docs/hwpoison.md "Mapped frames"):
 * the frame's ptes unmapped, hwpoison entries left where its data is lost, the action-required
 * caller signalled; false if a pte still maps it.  The folio is locked, under mf_mutex. */
bool hwpoison_user_mappings(struct folio *folio, struct page *p, unsigned long pfn, int flags);
/* mm/hwpoison_user.c: a frame already poisoned, an action-required caller @p (current): SIGBUS
 * at the address where @p maps it (a pte or a hwpoison entry); -EHWPOISON, or -EFAULT when it
 * maps nothing of it.  Under mf_mutex; takes @p's mmap_lock. */
struct task_struct;
int kill_accessing_process(struct task_struct *p, unsigned long pfn, int flags);
/* madvise(MADV_HWPOISON / MADV_SOFT_OFFLINE) over the current mm's [start, end): 0 or -errno. */
int madvise_inject_error(int behavior, unsigned long start, unsigned long end);
int unpoison_memory(unsigned long pfn);
int soft_offline_page(unsigned long pfn, int flags);
bool page_handle_poison(struct page *page, bool hugepage_or_freepage, bool release);

/* Serialises memory_failure(), unpoison_memory() and soft_offline_page() (sleeping). */
struct mutex;
extern struct mutex mf_mutex;

/*
 * True once memory_failure() or page_handle_poison() is about to mark a frame, for good: until
 * then no frame has PG_hwpoison, and the free path need not look for one inside the blocks it
 * frees (mm/page_check.c).  Set before the flag, read with READ_ONCE (one CPU: program order
 * is enough).
 */
extern bool hwpoison_seen;

/* Frames marked PG_hwpoison now (meminfo's HardwareCorrupted, in pages). */
extern atomic_long_t num_poisoned_pages;
void num_poisoned_pages_inc(unsigned long pfn);
void num_poisoned_pages_sub(unsigned long pfn, long i);
/* The one node's statistics (tinymm has one node: nid 0; the sum over nodes is the same). */
void memory_failure_get_stats(struct memory_failure_stats *st);
void memory_failure_node_stats(int nid, struct memory_failure_stats *st);
/* True once a failure not injected by software was handled: unpoison is off for good. */
bool memory_failure_hw_seen(void);

/*
 * Linux's "taken off" mark: a poisoned frame that is out of the allocator for good and holds no
 * data, PG_hwpoison with MAGIC_HWPOISON in ->private.  take_page_off_buddy() leaves a free frame
 * so (memory_failure() then holds one reference on it); tinymm's free path leaves a poisoned
 * frame its last user freed so too, at refcount 0 (docs/hwpoison.md, "Freeing").  Either way
 * unpoison_memory() gives it back to the buddy (put_page_back_buddy()).
 */
#define MAGIC_HWPOISON	0x48575053U	/* "HWPS", Linux's value */
static inline bool PageHWPoisonTakenOff(const struct page *page)
{
	return PageHWPoison(page) && page->private == MAGIC_HWPOISON;
}
static inline void SetPageHWPoisonTakenOff(struct page *page)
{
	page->private = MAGIC_HWPOISON;
}
static inline void ClearPageHWPoisonTakenOff(struct page *page)
{
	if (PageHWPoison(page))
		page->private = 0;
}

/*
 * What tinymm remembers of each poisoned frame, for `hwpoison list` (the header says why).
 * kind: what the frame was when the error came; ref: memory_failure() or page_handle_poison() holds
 * a reference on it (unpoison drops it; a frame left to its owner keeps the owner's).
 */
enum mf_kind {
	MF_KIND_FREE,		/* in a free block, or on a per-CPU list */
	MF_KIND_LRU,		/* a page-cache folio (on the LRU or in an LRU batch) */
	MF_KIND_SLAB,
	MF_KIND_RESERVED,	/* PG_reserved: the kernel image, the memmap, firmware */
	MF_KIND_KERNEL,		/* allocated by the kernel (order 0 or a head), not on any LRU */
	MF_KIND_KERNEL_TAIL,	/* a tail of a high-order block or of a large folio */
	MF_KIND_SOFT_OFFLINE,	/* soft_offline_page() retired it (page_handle_poison) */
	MF_KIND_ANON,		/* an anonymous folio (mapped by tasks, or in an LRU batch) */
	NR_MF_KIND
};
const char *mf_kind_name(enum mf_kind kind);
struct mf_record {
	unsigned long pfn;
	unsigned char type;	/* enum mf_action_page_type */
	unsigned char result;	/* enum mf_result */
	unsigned char kind;	/* enum mf_kind */
	bool ref;		/* a reference of memory_failure()'s is held */
	bool hw;		/* reported by hardware (not MF_SW_SIMULATED) */
};
/* The record of @pfn, if it is poisoned and recorded; false otherwise. */
bool memory_failure_record(unsigned long pfn, struct mf_record *rec);

/* For mm/memory-failure.c and mm/hwpoison_state.c only: the statistics' and records' writers
 * (mf_mutex held).  @type may be NR_MF_MSG: no recovery action (soft offline). */
void mf_stats_update(unsigned long pfn, enum mf_result result);
void mf_record_add(unsigned long pfn, int type, enum mf_result result, enum mf_kind kind,
		   bool ref, bool hw);
void mf_record_del(unsigned long pfn);
enum mf_kind mf_kind_of(struct page *p);
bool mf_is_free_buddy_page(const struct page *page);	/* Linux's is_free_buddy_page() */

#endif
