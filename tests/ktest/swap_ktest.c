/*
 * swap_ktest.c - anonymous memory to swap and back (mm/swap_state.c, mm/page_io.c, reclaim's
 * anon path in mm/vmscan.c, do_swap_page in mm/memory.c, docs/swap.md): suite `swap`, every
 * board.  The swap area is RAM disk ram3 (4 MiB: 1023 slots) with Linux's header
 * (mm/mkswap.c); each case builds a user mm with mm_alloc() (faulted by handle_mm_fault()
 * directly, as suite `rmap` does), pushes chosen folios through reclaim one at a time
 * (reclaim_folio_for_test: the same shrink_folio_list() kswapd runs) and checks the ptes, the
 * slot counts, the swap cache and the data; at the end every mm is gone, every slot free, the
 * swap cache empty and AnonPages, the page tables and free memory where they were:
 *   - out and back: four pages' ptes become swap entries of ram3 (MM_SWAPENTS 4, pswpout +4,
 *     the frames freed), a read fault brings page 0 back exact, mapped read-only and still in
 *     the swap cache with its slot (readahead read the neighbours into the cache too), a
 *     write fault then reuses it in place (no copy), exclusive, its slot freed;
 *   - a folio unmapped to swap and written, but not yet freed, is found in the swap cache by
 *     the next fault and mapped again without a read (it is uptodate);
 *   - fork: a swapped-out page's slot has two holders; the child's read fault and the
 *     parent's find one folio (mapcount 2), the child's write copies it; teardown frees all;
 *   - a zap (munmap) of swapped-out pages frees their slots at once;
 *   - swap full: reclaim keeps an anonymous folio mapped, its data untouched, and counts
 *     nothing written;
 *   - a slot that cannot be read (brd's read-error injection): the fault is SIGBUS, one line
 *     says which slot, the pte stays a swap entry, and the next fault reads it back exact;
 *   - memory_failure() of a clean swap-cache folio (out of the cache, read again exact) and of
 *     a dirty one (kept poisoned, the fault is VM_FAULT_HWPOISON);
 *   - a write-only area's page comes back with the protection its first touch had;
 *   - migration of a mapped swap-cache folio (mm/migrate.c): the new folio takes its slot in
 *     the swap cache (the same entry, PG_swapcache), its pte and bytes; the old one is freed,
 *     SwapCached unchanged.
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/errno.h"
#include "tinymm/memory-failure.h"
#include "tinymm/migrate.h"
#include "../../mm/internal.h"
#include "tinymm/fork.h"
#include "tinymm/ktest.h"
#include "ktest_mm.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "tinymm/user_task.h"
#include "tinymm/vmstat.h"

#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define KT_BASE		(256UL << 20)
#define KT_PAGES	4
#define KT_DEV		"ram3"

static struct {
	unsigned long free_and_slab, pagetables, anon, warnings;
	long swap_free;
} before;

static bool swap_disk_filled;

static unsigned long free_and_slab(void)
{
	return kt_free_and_cached();
}

/* Every page of ram3 written once (the first time), so the RAM disk holds all its pages before
 * the free memory is counted and swap-outs allocate nothing there; then Linux's header
 * (mkswap_bdev) and swapon. */
static bool swap_setup(struct ktest *t)
{
	struct block_device *bdev = blkdev_get_by_name(KT_DEV);
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	KTEST_EXPECT_TRUE(t, bdev && page);
	for (sector_t pg = 1; bdev && page && !swap_disk_filled &&
	     pg < bdev->bd_nr_sectors >> (PAGE_SHIFT - SECTOR_SHIFT); pg++) {
		struct bio *bio = bio_alloc(bdev, 1, REQ_OP_WRITE, GFP_KERNEL);

		KTEST_EXPECT_TRUE(t, bio != NULL);
		if (!bio)
			break;
		bio->bi_sector = pg << (PAGE_SHIFT - SECTOR_SHIFT);
		bio_add_page(bio, page, PAGE_SIZE, 0);
		KTEST_EXPECT_EQ(t, submit_bio_wait(bio), 0);
		bio_put(bio);
	}
	if (page)
		__free_page(page);
	if (!bdev)
		return false;
	swap_disk_filled = true;
	KTEST_EXPECT_EQ(t, mkswap_bdev(bdev), 0);
	before.free_and_slab = free_and_slab();
	before.pagetables = global_node_page_state(NR_PAGETABLE);
	before.anon = global_node_page_state(NR_ANON_MAPPED);
	before.warnings = nr_warnings();
	KTEST_EXPECT_EQ(t, sys_swapon(KT_DEV), 0);
	before.swap_free = get_nr_swap_pages();
	return before.swap_free > 0;
}

/* Everything back; the area off again. */
static void swap_teardown(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), before.swap_free);
	KTEST_EXPECT_EQ(t, total_swapcache_pages(), 0UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), before.pagetables);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), before.anon);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, nr_warnings(), before.warnings);
	KTEST_EXPECT_EQ(t, sys_swapoff(KT_DEV), 0);
	KTEST_EXPECT_EQ(t, free_and_slab(), before.free_and_slab);
}

/* An mm with KT_PAGES anonymous pages at KT_BASE, page i filled with 's' + i. */
static struct mm_struct *filled_mm(struct ktest *t)
{
	return kt_anon_mm(t, KT_BASE, KT_PAGES, RW, 's');
}

/* The swap entry at @addr, or .val 0 if the pte is not one. */
static swp_entry_t entry_at(struct mm_struct *mm, unsigned long addr)
{
	pte_t pte = kt_pte_at(mm, addr);

	if (!is_swap_pte(pte) || is_hwpoison_entry(pte_to_swp_entry(pte)))
		return (swp_entry_t){ 0 };
	return pte_to_swp_entry(pte);
}

static bool all_bytes(const void *p, unsigned char c)
{
	const unsigned char *b = p;

	for (unsigned long i = 0; i < PAGE_SIZE; i++)
		if (b[i] != c)
			return false;
	return true;
}

/*
 * The mapped anonymous folio at @addr through reclaim until it is freed: a first pass finds
 * the fault's young bit (kept, referenced), the second puts it in the swap cache, unmaps it
 * and starts the write, the third frees it once written.  True if it went.
 */
static bool swap_out(struct ktest *t, struct mm_struct *mm, unsigned long addr)
{
	struct folio *folio = kt_folio_at(mm, addr);
	unsigned long freed = 0;

	KTEST_EXPECT_TRUE(t, folio != NULL);
	if (!folio)
		return false;
	folio_get(folio);		/* kept alive across the passes, dropped before the last */
	for (int pass = 0; pass < 2 && !freed; pass++)
		freed = reclaim_folio_for_test(folio, false, false);
	KTEST_EXPECT_EQ(t, freed, 0UL);	/* our reference holds it */
	folio_wait_writeback(folio);
	KTEST_EXPECT_TRUE(t, folio_test_swapcache(folio));
	folio_put(folio);
	freed = reclaim_folio_for_test(folio, false, false);
	KTEST_EXPECT_EQ(t, freed, 1UL);
	return freed == 1;
}

/* ---- the cases ---- */

static void out_and_back(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *mm = filled_mm(t);
	unsigned long out0 = global_vm_event(PSWPOUT), in0 = global_vm_event(PSWPIN);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);
	swp_entry_t e[KT_PAGES];
	struct folio *f;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	for (int i = 0; i < KT_PAGES; i++)
		KTEST_EXPECT_TRUE(t, swap_out(t, mm, KT_BASE + P(i)));
	for (int i = 0; i < KT_PAGES; i++) {
		e[i] = entry_at(mm, KT_BASE + P(i));
		KTEST_EXPECT_NE(t, e[i].val, 0UL);
		KTEST_EXPECT_EQ(t, swp_type(e[i]), swp_type(e[0]));
		KTEST_EXPECT_EQ(t, __swap_count(e[i]), 1U);
		KTEST_EXPECT_EQ(t, swap_map_value(e[i]) & SWAP_HAS_CACHE, 0U);
	}
	KTEST_EXPECT_EQ(t, get_mm_counter(mm, MM_SWAPENTS), (long)KT_PAGES);
	KTEST_EXPECT_EQ(t, get_mm_counter(mm, MM_ANONPAGES), 0L);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 - KT_PAGES);
	KTEST_EXPECT_EQ(t, global_vm_event(PSWPOUT) - out0, (unsigned long)KT_PAGES);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), before.swap_free - KT_PAGES);
	KTEST_EXPECT_EQ(t, total_swapcache_pages(), 0UL);

	/* A read fault: back exact, read-only, still cached with its slot. */
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE, 0), VM_FAULT_MAJOR);
	f = kt_folio_at(mm, KT_BASE);
	KTEST_ASSERT_TRUE(t, f != NULL);
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&f->page), 's'));
	KTEST_EXPECT_FALSE(t, pte_write(kt_pte_at(mm, KT_BASE)));
	KTEST_EXPECT_TRUE(t, folio_test_swapcache(f));
	KTEST_EXPECT_TRUE(t, folio_test_anon(f));
	KTEST_EXPECT_FALSE(t, PageAnonExclusive(&f->page));
	KTEST_EXPECT_EQ(t, swap_map_value(e[0]), SWAP_HAS_CACHE);
	KTEST_EXPECT_GE(t, global_vm_event(PSWPIN) - in0, 1UL);
	/* Readahead brought the neighbours into the cache (consecutive slots). */
	KTEST_EXPECT_EQ(t, global_vm_event(PSWPIN) - in0, (unsigned long)KT_PAGES);
	KTEST_EXPECT_EQ(t, total_swapcache_pages(), (unsigned long)KT_PAGES);

	/* A write fault: the same frame, made exclusive, its slot freed. */
	unsigned long pfn = page_to_pfn(&f->page);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE, FAULT_FLAG_WRITE), 0U);
	f = kt_folio_at(mm, KT_BASE);
	KTEST_ASSERT_TRUE(t, f != NULL);
	KTEST_EXPECT_EQ(t, page_to_pfn(&f->page), pfn);
	KTEST_EXPECT_TRUE(t, pte_write(kt_pte_at(mm, KT_BASE)));
	KTEST_EXPECT_TRUE(t, PageAnonExclusive(&f->page));
	KTEST_EXPECT_FALSE(t, folio_test_swapcache(f));
	KTEST_EXPECT_EQ(t, swap_map_value(e[0]), 0U);

	/* A write to a page readahead brought in: no I/O, exclusive at once. */
	unsigned long in1 = global_vm_event(PSWPIN);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE + P(1), FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_EQ(t, global_vm_event(PSWPIN), in1);
	f = kt_folio_at(mm, KT_BASE + P(1));
	KTEST_ASSERT_TRUE(t, f != NULL);
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&f->page), 's' + 1));
	KTEST_EXPECT_TRUE(t, PageAnonExclusive(&f->page));
	KTEST_EXPECT_EQ(t, swap_map_value(e[1]), 0U);
	KTEST_EXPECT_EQ(t, get_mm_counter(mm, MM_SWAPENTS), (long)KT_PAGES - 2);
	mmput(mm);			/* pages 2 and 3: entries zapped, their cached folios freed */
	swap_teardown(t);
}

/* Unmapped and written but not yet freed (reclaim's next pass would free it): a fault finds the
 * folio in the swap cache and maps it again with no read - the anonymous folio is uptodate
 * since its first fault, which is what tells it from a failed read. */
static void fault_finds_cached_folio(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *mm = filled_mm(t);
	unsigned long in0 = global_vm_event(PSWPIN);
	struct folio *folio;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	folio = kt_folio_at(mm, KT_BASE + P(1));
	KTEST_ASSERT_TRUE(t, folio != NULL);
	KTEST_EXPECT_TRUE(t, folio_test_uptodate(folio));
	folio_get(folio);		/* so reclaim cannot free it */
	for (int pass = 0; pass < 2; pass++)
		KTEST_EXPECT_EQ(t, reclaim_folio_for_test(folio, false, false), 0UL);
	folio_wait_writeback(folio);
	swp_entry_t e = entry_at(mm, KT_BASE + P(1));
	KTEST_EXPECT_NE(t, e.val, 0UL);
	KTEST_EXPECT_TRUE(t, folio_test_swapcache(folio));
	KTEST_EXPECT_FALSE(t, folio_mapped(folio));
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE + P(1), 0), 0U);	/* minor: no read */
	KTEST_EXPECT_EQ(t, global_vm_event(PSWPIN), in0);
	KTEST_EXPECT_TRUE(t, kt_folio_at(mm, KT_BASE + P(1)) == folio);
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&folio->page), 's' + 1));
	KTEST_EXPECT_EQ(t, folio_mapcount(folio), 1);
	folio_put(folio);
	mmput(mm);
	swap_teardown(t);
}

static void fork_shares_slot(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *parent = filled_mm(t), *child;
	struct folio *fp, *fc;
	int err = 0;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	KTEST_EXPECT_TRUE(t, swap_out(t, parent, KT_BASE + P(2)));
	swp_entry_t e = entry_at(parent, KT_BASE + P(2));
	KTEST_EXPECT_NE(t, e.val, 0UL);
	child = dup_mm(parent, &err);
	KTEST_EXPECT_EQ(t, err, 0);
	KTEST_ASSERT_TRUE(t, child != NULL);
	KTEST_EXPECT_EQ(t, entry_at(child, KT_BASE + P(2)).val, e.val);
	KTEST_EXPECT_EQ(t, __swap_count(e), 2U);
	KTEST_EXPECT_EQ(t, get_mm_counter(child, MM_SWAPENTS), 1L);
	/* The child's read fault, then the parent's: one folio, both read-only. */
	KTEST_EXPECT_EQ(t, kt_fault(child, KT_BASE + P(2), 0) & ~VM_FAULT_MAJOR, 0U);
	KTEST_EXPECT_EQ(t, __swap_count(e), 1U);
	KTEST_EXPECT_EQ(t, entry_at(parent, KT_BASE + P(2)).val, e.val);
	KTEST_EXPECT_EQ(t, kt_fault(parent, KT_BASE + P(2), 0), 0U);	/* a cache hit */
	fp = kt_folio_at(parent, KT_BASE + P(2));
	fc = kt_folio_at(child, KT_BASE + P(2));
	KTEST_ASSERT_TRUE(t, fp && fc);
	KTEST_EXPECT_TRUE(t, fp == fc);
	KTEST_EXPECT_EQ(t, folio_mapcount(fp), 2);
	KTEST_EXPECT_EQ(t, __swap_count(e), 0U);
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&fp->page), 's' + 2));
	/* The child's write copies: the parent keeps the folio and its bytes. */
	KTEST_EXPECT_EQ(t, kt_fault(child, KT_BASE + P(2), FAULT_FLAG_WRITE), 0U);
	fc = kt_folio_at(child, KT_BASE + P(2));
	KTEST_ASSERT_TRUE(t, fc != NULL);
	KTEST_EXPECT_TRUE(t, fc != fp);
	memset(page_address(&fc->page), 'c', PAGE_SIZE);
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&fp->page), 's' + 2));
	KTEST_EXPECT_EQ(t, folio_mapcount(fp), 1);
	mmput(child);
	mmput(parent);
	swap_teardown(t);
}

static void zap_frees_slots(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *mm = filled_mm(t);

	KTEST_ASSERT_TRUE(t, mm != NULL);
	for (int i = 0; i < KT_PAGES; i++)
		KTEST_EXPECT_TRUE(t, swap_out(t, mm, KT_BASE + P(i)));
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), before.swap_free - KT_PAGES);
	mutex_lock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, do_munmap(mm, KT_BASE, P(KT_PAGES)), 0);
	mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, get_mm_counter(mm, MM_SWAPENTS), 0L);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), before.swap_free);
	mmput(mm);
	swap_teardown(t);
}

static void full_swap_keeps_folio(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *mm = filled_mm(t);
	struct swap_info_struct *si = NULL;
	unsigned long taken = 0, out0 = global_vm_event(PSWPOUT), off;
	static unsigned long slots[1024];

	KTEST_ASSERT_TRUE(t, mm != NULL);
	for (unsigned int i = 0; i < MAX_SWAPFILES; i++)
		if (swap_info[i] && swap_info[i]->bdev == blkdev_get_by_name(KT_DEV))
			si = swap_info[i];
	KTEST_ASSERT_TRUE(t, si != NULL);
	/* Every slot taken as if cached. */
	while (taken < ARRAY_SIZE(slots) && (off = scan_swap_map_slot(si)))
		slots[taken++] = off;
	KTEST_EXPECT_EQ(t, taken, si->pages);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), 0L);
	struct folio *f = kt_folio_at(mm, KT_BASE);
	KTEST_ASSERT_TRUE(t, f != NULL);
	for (int pass = 0; pass < 3; pass++)
		KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, false, false), 0UL);
	KTEST_EXPECT_TRUE(t, kt_folio_at(mm, KT_BASE) == f);
	KTEST_EXPECT_FALSE(t, folio_test_swapcache(f));
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&f->page), 's'));
	KTEST_EXPECT_EQ(t, global_vm_event(PSWPOUT), out0);
	for (unsigned long i = 0; i < taken; i++)
		put_swap_folio(swp_entry(si->type, slots[i]));
	mmput(mm);
	swap_teardown(t);
}

static void read_error_is_sigbus(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *mm = filled_mm(t);
	struct block_device *bdev = blkdev_get_by_name(KT_DEV);

	KTEST_ASSERT_TRUE(t, mm != NULL && bdev != NULL);
	KTEST_EXPECT_TRUE(t, swap_out(t, mm, KT_BASE + P(3)));
	swp_entry_t e = entry_at(mm, KT_BASE + P(3));
	KTEST_EXPECT_NE(t, e.val, 0UL);
	KTEST_ASSERT_TRUE(t, bdev->bd_ops->test_inject != NULL);
	KTEST_EXPECT_EQ(t, bdev->bd_ops->test_inject(bdev, "read-error"), 0);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE + P(3), 0) & VM_FAULT_SIGBUS, VM_FAULT_SIGBUS);
	KTEST_EXPECT_EQ(t, entry_at(mm, KT_BASE + P(3)).val, e.val);
	KTEST_EXPECT_EQ(t, __swap_count(e), 1U);
	/* The failed folio left the cache: the next fault reads the slot again, exact. */
	KTEST_EXPECT_TRUE(t, swap_cache_get_folio(e) == NULL);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE + P(3), 0) & ~VM_FAULT_MAJOR, 0U);
	struct folio *f = kt_folio_at(mm, KT_BASE + P(3));
	KTEST_ASSERT_TRUE(t, f != NULL);
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&f->page), 's' + 3));
	mmput(mm);
	swap_teardown(t);
}

/*
 * memory_failure() of swap-cache folios (v6.10's me_swapcache_clean / me_swapcache_dirty):
 * readahead leaves pages 1-3 cached, unmapped.  A clean one leaves the cache (Recovered): the
 * slot still has the data, and the next fault reads it exact.  A dirty one (as reclaim leaves a
 * folio before its write) is the only copy: kept in the cache, poisoned, not uptodate (Delayed),
 * and the task that faults on it gets VM_FAULT_HWPOISON; its exit frees slot and frame.
 */
static void hwpoison_swapcache(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *mm = filled_mm(t);
	swp_entry_t e[KT_PAGES];
	struct folio *f;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	for (int i = 0; i < KT_PAGES; i++) {
		KTEST_EXPECT_TRUE(t, swap_out(t, mm, KT_BASE + P(i)));
		e[i] = entry_at(mm, KT_BASE + P(i));
	}
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE, 0), VM_FAULT_MAJOR);	/* 1-3 read ahead */
	/* Clean. */
	f = swap_cache_get_folio(e[2]);
	KTEST_ASSERT_TRUE(t, f != NULL);
	folio_lock(f);			/* the readahead's read is done */
	folio_unlock(f);
	unsigned long clean_pfn = page_to_pfn(&f->page);
	folio_put(f);
	KTEST_EXPECT_EQ(t, memory_failure(clean_pfn, MF_SW_SIMULATED), 0);
	KTEST_EXPECT_TRUE(t, swap_cache_get_folio(e[2]) == NULL);
	KTEST_EXPECT_EQ(t, swap_map_value(e[2]), 1U);		/* the pte's count, no cache */
	KTEST_EXPECT_EQ(t, unpoison_memory(clean_pfn), 0);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE + P(2), 0), VM_FAULT_MAJOR);
	f = kt_folio_at(mm, KT_BASE + P(2));
	KTEST_ASSERT_TRUE(t, f != NULL);
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&f->page), 's' + 2));
	/* Dirty. */
	f = swap_cache_get_folio(e[3]);
	KTEST_ASSERT_TRUE(t, f != NULL);
	folio_lock(f);
	folio_set_dirty(f);
	folio_unlock(f);
	unsigned long dirty_pfn = page_to_pfn(&f->page);
	folio_put(f);
	KTEST_EXPECT_EQ(t, memory_failure(dirty_pfn, MF_SW_SIMULATED), 0);
	f = swap_cache_get_folio(e[3]);
	KTEST_EXPECT_TRUE(t, f != NULL && page_to_pfn(&f->page) == dirty_pfn);
	if (f) {
		KTEST_EXPECT_TRUE(t, PageHWPoison(&f->page));
		KTEST_EXPECT_FALSE(t, folio_test_uptodate(f));
		folio_put(f);
	}
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE + P(3), 0), VM_FAULT_HWPOISON);
	KTEST_EXPECT_EQ(t, entry_at(mm, KT_BASE + P(3)).val, e[3].val);
	mmput(mm);			/* the entry zapped: the slot and the cache's hold go */
	KTEST_EXPECT_EQ(t, swap_map_value(e[3]), 0U);
	KTEST_EXPECT_EQ(t, unpoison_memory(dirty_pfn), 0);
	swap_teardown(t);
}

/* The protection bits of a pte (its frame number taken out). */
static pteval_t prot_bits(pte_t pte)
{
	return pte_val(pte) ^ pte_val(pfn_pte(pte_pfn(pte), __pgprot(0)));
}

/*
 * A write-only private area (mmap PROT_WRITE: VM_WRITE without VM_READ) gets its page back with
 * the bits a first touch gives it: a swap-in once built its pte from the flags without
 * VM_WRITE, which for such an area is no access at all, and the task faulted for ever.
 */
static void write_only_area_back_writable(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *mm = mm_alloc();
	unsigned long flags = VM_WRITE | VM_MAYWRITE;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	mutex_lock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, mmap_region(mm, KT_BASE, P(2), flags, NULL, 0), (long)KT_BASE);
	mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE, FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE + P(1), FAULT_FLAG_WRITE), 0U);
	pte_t first = kt_pte_at(mm, KT_BASE + P(1));
	KTEST_EXPECT_TRUE(t, swap_out(t, mm, KT_BASE));
	KTEST_EXPECT_NE(t, entry_at(mm, KT_BASE).val, 0UL);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE, FAULT_FLAG_WRITE) & ~VM_FAULT_MAJOR, 0U);
	pte_t back = kt_pte_at(mm, KT_BASE);
	KTEST_EXPECT_TRUE(t, pte_present(back) && pte_write(back));
	KTEST_EXPECT_EQ(t, prot_bits(back), prot_bits(first));
	mmput(mm);
	swap_teardown(t);
}

static void swapcache_folio_migrates(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, swap_setup(t));
	struct mm_struct *mm = filled_mm(t);
	struct page_list list;
	unsigned int moved = 0;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	struct folio *f = kt_folio_at(mm, KT_BASE + P(2));
	KTEST_ASSERT_TRUE(t, f != NULL);
	folio_get(f);			/* so reclaim cannot free it */
	for (int pass = 0; pass < 2; pass++)
		KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, false, false), 0UL);
	folio_wait_writeback(f);
	swp_entry_t e = entry_at(mm, KT_BASE + P(2));
	KTEST_EXPECT_NE(t, e.val, 0UL);
	KTEST_EXPECT_EQ(t, kt_fault(mm, KT_BASE + P(2), 0), 0U);	/* mapped again, still cached */
	folio_put(f);
	KTEST_ASSERT_TRUE(t, kt_folio_at(mm, KT_BASE + P(2)) == f);
	KTEST_ASSERT_TRUE(t, folio_test_swapcache(f));
	unsigned long cached0 = total_swapcache_pages(), pfn = page_to_pfn(&f->page);

	lru_add_drain();
	page_list_init(&list);
	KTEST_ASSERT_TRUE(t, folio_isolate_lru(f));
	page_list_add_tail(&list, &f->page);
	KTEST_EXPECT_EQ(t, migrate_pages(&list, alloc_migration_target, NULL, 0, MIGRATE_SYNC,
					 MR_SYSCALL, &moved), 0);
	KTEST_EXPECT_EQ(t, moved, 1U);
	struct folio *g = kt_folio_at(mm, KT_BASE + P(2));
	KTEST_ASSERT_TRUE(t, g != NULL && g != f);
	KTEST_EXPECT_TRUE(t, folio_test_swapcache(g) && folio_test_anon(g));
	KTEST_EXPECT_EQ(t, folio_swap_entry(g).val, e.val);
	struct folio *c = swap_cache_get_folio(e);
	KTEST_EXPECT_TRUE(t, c == g);
	if (c)
		folio_put(c);
	KTEST_EXPECT_EQ(t, total_swapcache_pages(), cached0);
	KTEST_EXPECT_TRUE(t, all_bytes(page_address(&g->page), 's' + 2));
	KTEST_EXPECT_EQ(t, folio_mapcount(g), 1);
	KTEST_EXPECT_EQ(t, page_ref_count(pfn_to_page(pfn)), 0);
	mmput(mm);
	swap_teardown(t);
}

static const struct ktest_case swap_cases[] = {
	KTEST_CASE(out_and_back),
	KTEST_CASE(fault_finds_cached_folio),
	KTEST_CASE(fork_shares_slot),
	KTEST_CASE(zap_frees_slots),
	KTEST_CASE(full_swap_keeps_folio),
	KTEST_CASE(read_error_is_sigbus),
	KTEST_CASE(hwpoison_swapcache),
	KTEST_CASE(write_only_area_back_writable),
	KTEST_CASE(swapcache_folio_migrates),
	{}
};
KTEST_SUITE(swap, swap_cases);
