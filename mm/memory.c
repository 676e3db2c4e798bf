/*
 * memory.c - user page tables and the page-fault core (include/tinymm/mm_fault.h,
 * docs/memory.md): a user mm's root table, handle_mm_fault() for anonymous and private file
 * areas, zapping the ptes of a range and freeing the tables left empty.  Linux v6.10
 * mm/memory.c reduced: do_anonymous_page, do_read_fault/do_cow_fault/finish_fault,
 * do_wp_page (reuse of an exclusive anonymous page or of one whose only reference is left,
 * wp_can_reuse_anon_folio; else a copy), do_swap_page.  Zapping and freeing the tables
 * (zap_pte_range, free_pgtables) are mm/memory_zap.c's, fork's copy_page_range
 * mm/fork_mm.c's.
 *
 * Invariants: every present user pte maps a page of RAM whose folio counts that pte in its
 * mapcount and holds one reference for it (mm/rmap.c); a non-present one that is not none is
 * a hwpoison entry (include/tinymm/swapops.h), holding nothing: a touch is VM_FAULT_HWPOISON,
 * a zap clears it; or a swap entry, which holds one count of its slot's swap_map and counts in
 * its mm's MM_SWAPENTS (a touch is do_swap_page, a zap frees the count, fork duplicates it);
 * a writable pte maps an anonymous folio
 * with PG_anon_exclusive (in a private area a file page is mapped read-only, and the first
 * write copies it; a page fork shares is read-only in both mms: mm/fork_mm.c), or, in a shared
 * area, a dirty page-cache folio through a dirty pte; a pte is present only inside an area,
 * with the area's protection (vm_get_page_prot), except that a private writable area's
 * exclusive anonymous pages and a shared area's dirty ones are writable.  Page tables below the root hang from one entry each and are freed as soon as
 * they hold nothing (free_pgd_range); the root's user entries are each mm's own, its kernel
 * entries copies of swapper_pg_dir's.
 *
 * Locking: mm->mmap_lock is held for every fault and unmap (lockdep_assert_held; v6.10 takes
 * it for reading to fault, for writing to unmap; tinymm's is a mutex).  mm->page_table_lock is
 * the pte lock: every change of a user pte and every table populated or freed happens under
 * it (v6.10 has a split lock per pte table; one lock is enough for one CPU and a handful of
 * tasks).  Nothing that sleeps runs under it: folios are allocated, read and copied before,
 * and put (and dirtied through the folio lock) after, with the pte re-checked (pte_same)
 * when the lock is taken again.  The TLB is flushed after a present pte changes or is
 * cleared and before the page or table it mapped is freed.
 *
 * Where tinymm differs from v6.10, and why: no shared zero page, so a read fault on anonymous
 * memory allocates a zeroed folio as a write would (as v6.10 does where mm_forbids_zeropage);
 * no vm_page_prot field: an area's protection is computed from vm_flags at each use; access
 * is checked here against vm_flags (VM_FAULT_SIGSEGV) where v6.10 leaves it to the
 * architecture's fault handler (access_error); shared file areas' write faults are
 * mm/memory_shared.c's (write-notify: their clean pages are mapped read-only, as v6.10 maps
 * them for dirty accounting); shared anonymous memory (shmem) is refused at mmap;
 * no large folios, no fault-around, no userfaultfd; a pte table is freed when it
 * becomes empty rather than only between areas (v6.10's floor/ceiling rule), so munmap gives
 * every table back.
 */
#include <string.h>
#include "tinymm/cacheflush.h"
#include "tinymm/anon_vma.h"
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mlock.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/pagemap.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "tinymm/swapops.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"

_Static_assert(PTRS_PER_PGD * sizeof(pgd_t) <= PAGE_SIZE, "a root table fits one frame");
_Static_assert(VM_READ == 1 && VM_WRITE == 2 && VM_EXEC == 4 && VM_SHARED == 8,
	       "protection_map is indexed by these bits");

static const pgprot_t protection_map[16] = ARCH_PROTECTION_MAP;

pgprot_t vm_get_page_prot(unsigned long vm_flags)
{
	return protection_map[vm_flags & (VM_READ | VM_WRITE | VM_EXEC | VM_SHARED)];
}

/* ---- the root table ---- */

/* A whole frame even where the root is 32 bytes (ARM LPAE): it comes typed and counted from
 * pagetable_alloc(), and TTBR0's alignment is then never a question. */
pgd_t *pgd_alloc(struct mm_struct *mm)
{
	struct page *page = pagetable_alloc(GFP_KERNEL, 0);
	pgd_t *pgd;

	(void)mm;
	if (!page)
		return NULL;
	pgd = page_address(page);
	memcpy(pgd + USER_PTRS_PER_PGD, swapper_pg_dir + USER_PTRS_PER_PGD,
	       (PTRS_PER_PGD - USER_PTRS_PER_PGD) * sizeof(pgd_t));
	return pgd;
}

void pgd_free(struct mm_struct *mm, pgd_t *pgd)
{
	(void)mm;
	/* A table left behind would show in pgtables_bytes: mmput's check_mm() says so (v6.10's
	 * check; scanning the root's user entries here cost ~2000 instructions per exit on RV32). */
	pagetable_free(virt_to_page(pgd));
}

int mm_alloc_pgd(struct mm_struct *mm)
{
	spin_lock_init(&mm->page_table_lock);
	mm->pgd = pgd_alloc(mm);
	return mm->pgd ? 0 : -ENOMEM;
}

void mm_free_pgd(struct mm_struct *mm)
{
	if (mm->pgd)
		pgd_free(mm, mm->pgd);
	mm->pgd = NULL;
}

/* ---- finding and making ptes (page_table_lock held) ---- */

pte_t *user_pte_lookup(struct mm_struct *mm, unsigned long addr)
{
	lockdep_assert_held(&mm->page_table_lock);
	return pte_lookup(pgd_offset(mm, addr), addr);
}

/* The pte for @addr, with the tables above it made; NULL without memory.  Drops the lock to
 * allocate (a table may sleep) and looks again with the table in hand.  fork's copy uses it
 * too (mm/fork_mm.c). */
pte_t *pte_alloc(struct mm_struct *mm, unsigned long addr)
{
	for (;;) {
		pgd_t *pgd = pgd_offset(mm, addr);
		struct page *table;
		pte_t *pte = user_pte_lookup(mm, addr);

		if (pte)
			return pte;
		/* Nothing in user space is a leaf or a bad entry above the pte: refuse rather
		 * than loop on an entry that is neither none nor a table. */
		if (WARN_ON(!pgd_none(*pgd) && (pgd_bad(*pgd) ||
						pmd_leaf(pmdp_get(pmd_offset(pgd, addr))) ||
						pmd_bad(pmdp_get(pmd_offset(pgd, addr))))))
			return NULL;
		spin_unlock(&mm->page_table_lock);
		table = pagetable_alloc(GFP_KERNEL, 0);
		spin_lock(&mm->page_table_lock);
		if (!table)
			return NULL;
		if (pgd_none(*pgd))
			pgd_populate(mm, pgd, (pmd_t *)page_address(table));
		else if (pmd_none(pmdp_get(pmd_offset(pgd, addr))))
			pmd_populate_kernel(mm, pmd_offset(pgd, addr), (pte_t *)page_address(table));
		else {
			pagetable_free(table);	/* someone else made it meanwhile */
			continue;
		}
		mm_inc_nr_ptes(mm);	/* a pmd or a pte table: v6.10 counts both */
	}
}

static pte_t mk_pte(struct folio *folio, pgprot_t prot)
{
	return pfn_pte(page_to_pfn(&folio->page), prot);
}

struct folio *vm_normal_folio(pte_t pte)
{
	struct page *page = pfn_to_page(pte_pfn(pte));

	return page ? page_folio(page) : NULL;
}

/* Install @entry at vmf->pte if it still holds what the fault saw; false if it changed
 * (another fault got there first: the caller drops what it prepared). */
static bool fault_set_pte(struct vm_fault *vmf, pte_t entry, struct folio *folio, bool anon)
{
	struct mm_struct *mm = vmf->vma->vm_mm;

	lockdep_assert_held(&mm->page_table_lock);
	if (pte_val(ptep_get(vmf->pte)) != pte_val(vmf->orig_pte))
		return false;
	if (anon) {
		folio_add_new_anon_rmap(folio, vmf->vma, vmf->address);
		folio_add_lru_vma(folio, vmf->vma);	/* the anon lists, or mlocked (mm/mlock.c) */
	} else {
		folio_add_file_rmap_pte(folio, &folio->page, vmf->vma);
	}
	if (pte_present(vmf->orig_pte)) {
		/* Another page at a mapped address: break before make (ARM's rule for a new
		 * output address; v6.10's ptep_clear_flush before set_pte_at). */
		pte_clear(mm, vmf->address, vmf->pte);
		flush_tlb_page(vmf->vma, vmf->address);
	}
	set_pte_at(mm, vmf->address, vmf->pte, entry);
	add_mm_counter(mm, mm_counter(folio), 1);
	return true;
}

/* ---- the faults ---- */

/* A new zeroed page for a private area (v6.10's do_anonymous_page, without the zero page). */
static vm_fault_t do_anonymous_page(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct folio *folio;
	pte_t entry;
	bool done;

	if (vma->vm_flags & VM_SHARED)
		return VM_FAULT_SIGBUS;		/* shmem: not yet (see the header) */
	if (anon_vma_prepare(vma))
		return VM_FAULT_OOM;
	/* Not __GFP_ZERO: that bypasses the order-0 fast path (mm/page_alloc_fast.c). */
	folio = folio_alloc(GFP_HIGHUSER_MOVABLE, 0);
	if (!folio)
		return VM_FAULT_OOM;
	clear_page(page_address(&folio->page));
	/* Its data is there (v6.10's __folio_mark_uptodate): a swap-in that finds the folio still
	 * in the swap cache tells a good copy from a failed read by this bit. */
	folio_mark_uptodate(folio);
	entry = mk_pte(folio, vm_get_page_prot(vma->vm_flags));
	if (vma->vm_flags & VM_WRITE)
		entry = pte_mkwrite(pte_mkdirty(entry), vma);
	spin_lock(&vma->vm_mm->page_table_lock);
	done = fault_set_pte(vmf, entry, folio, true);
	spin_unlock(&vma->vm_mm->page_table_lock);
	if (!done)
		folio_put(folio);
	return 0;	/* the pte's reference is the allocation's */
}

/* A private copy of @src for a write (v6.10's wp_page_copy / do_cow_fault's copy); NULL
 * without memory.  The copy goes through the direct map: both are kernel pages. */
static struct folio *cow_copy(struct folio *src)
{
	struct folio *folio = folio_alloc(GFP_HIGHUSER_MOVABLE, 0);

	if (folio) {
		memcpy(page_address(&folio->page), page_address(&src->page), PAGE_SIZE);
		flush_dcache_folio(folio);	/* v6.10's __wp_page_copy_user ends so */
		folio_mark_uptodate(folio);	/* as do_anonymous_page's */
	}
	return folio;
}

/* A read maps the page-cache folio itself, read-only whatever the area (v6.10's
 * do_read_fault + finish_fault); a write to a private area maps a private copy of it
 * (do_cow_fault); the page cache is never written through a private mapping. */
static vm_fault_t do_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	struct folio *folio, *copy = NULL;
	vm_fault_t ret;
	pte_t entry;
	bool done;

	if ((vma->vm_flags & VM_SHARED) && write)
		return do_shared_fault(vmf);	/* mm/memory_shared.c; a read maps it read-only */
	if (write && anon_vma_prepare(vma))
		return VM_FAULT_OOM;		/* the copy will be anonymous */
	ret = filemap_fault(vmf);
	if (ret & VM_FAULT_ERROR)
		return ret;
	folio = vmf->folio;
	if (write) {
		copy = cow_copy(folio);
		folio_put(folio);
		if (!copy)
			return VM_FAULT_OOM;
		entry = pte_mkwrite(pte_mkdirty(mk_pte(copy, vm_get_page_prot(vma->vm_flags))), vma);
		folio = copy;
	} else {
		/* Read-only however the area may be written: the private entry of its flags (a
		 * private area's entries never write; a shared one's write-notify, as v6.10's
		 * vma_set_page_prot drops VM_SHARED) - not the flags without VM_WRITE, which for a
		 * write-only area would be no access at all and fault for ever. */
		entry = mk_pte(folio, vm_get_page_prot(vma->vm_flags & ~VM_SHARED));
	}
	spin_lock(&vma->vm_mm->page_table_lock);
	done = fault_set_pte(vmf, entry, folio, write);
	spin_unlock(&vma->vm_mm->page_table_lock);
	if (!done)
		folio_put(folio);	/* the lookup's (or the copy's) reference goes unused */
	return ret;
}

/*
 * v6.10's wp_can_reuse_anon_folio() for a small folio, pte lock held: may a write reuse an
 * anonymous folio that is not (or no longer) marked exclusive?  Only if the one reference left
 * is this pte's: no other mm maps it (the fork that shared it has ended, or the other side
 * copied or unmapped its page), and nobody else holds it.  An LRU batch's reference is a
 * false "someone else" (v6.10 drains it first: do_wp_page does, before taking the lock).  The
 * folio lock keeps a concurrent walker out while it becomes exclusive (v6.10's).
 */
static bool wp_can_reuse_anon_folio(struct folio *folio)
{
	if (page_ref_count(&folio->page) != 1 + folio_test_swapcache(folio) || !folio_trylock(folio))
		return false;
	/* In the swap cache: its slot goes if no other pte names it (v6.10's). */
	if (folio_test_swapcache(folio))
		folio_free_swap(folio);
	if (page_ref_count(&folio->page) != 1) {
		folio_unlock(folio);
		return false;
	}
	folio_unlock(folio);
	return true;
}

/* The pte made writable where it is (v6.10's wp_page_reuse): pte lock held, pte unchanged. */
static void wp_page_reuse(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;

	set_pte_at(vma->vm_mm, vmf->address, vmf->pte,
		   pte_mkwrite(pte_mkdirty(pte_mkyoung(vmf->orig_pte)), vma));
	flush_tlb_page(vma, vmf->address);
}

/*
 * A write to a present read-only pte in a writable private area (v6.10's do_wp_page): an
 * anonymous page that is exclusive to this mm (PG_anon_exclusive), or whose only reference is
 * this pte's (wp_can_reuse_anon_folio: PG_anon_exclusive is set again), is made writable where
 * it is (wp_page_reuse); anything else (a page fork shared with another mm, a page-cache folio
 * mapped by a read fault) is copied into a new anonymous folio (wp_page_copy), and the old
 * mapping's count and reference dropped after the TLB flush.
 */
static vm_fault_t do_wp_page(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct mm_struct *mm = vma->vm_mm;
	struct folio *old = vm_normal_folio(vmf->orig_pte), *copy;
	bool done;

	if (!old)
		return VM_FAULT_SIGSEGV;
	if (vma->vm_flags & VM_SHARED)
		return wp_page_shared(vmf);	/* mm/memory_shared.c */
	if (folio_test_anon(old)) {
		/* v6.10 drains the LRU batch whose reference would spoil the count. */
		if (!PageAnonExclusive(&old->page) && !folio_test_lru(old))
			lru_add_drain();
		spin_lock(&mm->page_table_lock);
		if (pte_val(ptep_get(vmf->pte)) != pte_val(vmf->orig_pte)) {
			spin_unlock(&mm->page_table_lock);
			return 0;		/* changed meanwhile: the access is retried */
		}
		if (PageAnonExclusive(&old->page) || wp_can_reuse_anon_folio(old)) {
			SetPageAnonExclusive(&old->page);
			wp_page_reuse(vmf);
			spin_unlock(&mm->page_table_lock);
			return 0;
		}
		spin_unlock(&mm->page_table_lock);
	}
	if (anon_vma_prepare(vma))
		return VM_FAULT_OOM;
	folio_get(old);			/* kept across the copy, which runs unlocked */
	copy = cow_copy(old);
	if (!copy) {
		folio_put(old);
		return VM_FAULT_OOM;
	}
	spin_lock(&mm->page_table_lock);
	done = fault_set_pte(vmf, pte_mkwrite(pte_mkdirty(mk_pte(copy,
				vm_get_page_prot(vma->vm_flags))), vma), copy, true);
	if (done) {
		folio_remove_rmap_pte(old, &old->page, vma);
		add_mm_counter(mm, mm_counter(old), -1);
	}
	spin_unlock(&mm->page_table_lock);
	if (done)
		folio_put(old);		/* the old pte's reference (flushed in fault_set_pte) */
	else
		folio_put(copy);
	folio_put(old);			/* ours */
	return 0;
}

/*
 * A migration entry: the folio is on the move (mm/migrate.c), locked from before the entry
 * was set until it is replaced.  Wait for that lock, then let the access fault again (v6.10's
 * migration_entry_wait).  The reference keeps the folio from being freed and reused while we
 * wait; a count frozen for the switch (or already zero) means the move is about to end, so
 * the fault is simply retried.
 */
static void migration_entry_wait(struct vm_fault *vmf, swp_entry_t entry)
{
	struct mm_struct *mm = vmf->vma->vm_mm;
	struct folio *folio = pfn_swap_entry_folio(entry);
	bool got;

	spin_lock(&mm->page_table_lock);
	got = pte_val(ptep_get(vmf->pte)) == pte_val(vmf->orig_pte) && folio_try_get(folio);
	spin_unlock(&mm->page_table_lock);
	if (!got)
		return;
	folio_wait_locked(folio);
	folio_put(folio);
}

/*
 * A non-present entry (v6.10's do_swap_page).  A migration entry: wait for the move (above).
 * A hwpoison entry: memory_failure() left it
 * where a page it poisoned was mapped, and the task touching it gets SIGBUS (BUS_MCEERR_AR,
 * mm/user_fault.c).  A swap entry: the folio comes from the swap cache or is read into it
 * (with its neighbours, mm/swap_state.c), and is mapped where the entry was, which gives up the
 * pte's hold on the slot.  No pte bit says a swapped page was exclusive (see mm/rmap.c), so,
 * as v6.10 without one: a write fault frees the slot when no other pte names it and the folio
 * has no other user (should_try_to_free_swap), and then the page is this mm's alone and mapped
 * writable; otherwise it is mapped read-only and do_wp_page decides.  A slot that cannot be
 * read is SIGBUS for this task only, with one line saying why.
 */
static vm_fault_t do_swap_page(struct vm_fault *vmf)
{
	swp_entry_t entry = pte_to_swp_entry(vmf->orig_pte);
	struct vm_area_struct *vma = vmf->vma;
	struct mm_struct *mm = vma->vm_mm;
	vm_fault_t ret = 0;
	struct folio *folio;
	bool exclusive = false;
	pte_t pte;

	if (is_hwpoison_entry(entry))
		return VM_FAULT_HWPOISON;
	if (is_migration_entry(entry)) {
		migration_entry_wait(vmf, entry);
		return 0;
	}
	if (!swp_swap_info(entry))
		return VM_FAULT_SIGBUS;		/* not a slot of any area: logged there */
	folio = swap_cache_get_folio(entry);
	if (!folio) {
		folio = swapin_folio(entry, true);
		if (!folio) {
			/* No memory, or the slot went: another fault on this pte mapped it. */
			if (pte_val(ptep_get(vmf->pte)) == pte_val(vmf->orig_pte))
				return VM_FAULT_OOM;
			return 0;
		}
		ret = VM_FAULT_MAJOR;
		count_vm_events(PGMAJFAULT, 1);
	}
	folio_lock(folio);
	/* Still the cache's folio for this entry (it may have been freed and reused)? */
	if (!folio_test_swapcache(folio) || folio_swap_entry(folio).val != entry.val)
		goto out_retry;
	/* memory_failure() kept a poisoned dirty one for whoever owns it (me_swapcache_dirty). */
	if (PageHWPoison(&folio->page)) {
		folio_unlock(folio);
		folio_put(folio);
		return VM_FAULT_HWPOISON;
	}
	if (!folio_test_uptodate(folio)) {
		if (pte_val(ptep_get(vmf->pte)) != pte_val(vmf->orig_pte))
			goto out_retry;
		pr_err("%s[%d]: swap-in of 0x%lx failed: slot %lu of %s could not be read\n",
		       current->comm, current->pid, vmf->address, swp_offset(entry),
		       swp_swap_info(entry)->bdev->bd_name);
		/* Out of the cache, so the next touch reads the slot again (the error may pass);
		 * the slot keeps its data and this pte's count. */
		if (!folio_mapped(folio))
			delete_from_swap_cache(folio);
		folio_unlock(folio);
		folio_put(folio);
		return VM_FAULT_SIGBUS;
	}
	folio_wait_writeback(folio);	/* no write of a page the pte is about to make writable */
	if ((vmf->flags & FAULT_FLAG_WRITE) && !folio_test_lru(folio))
		lru_add_drain();	/* the read's LRU batch reference would look like a user */
	spin_lock(&mm->page_table_lock);
	if (pte_val(ptep_get(vmf->pte)) != pte_val(vmf->orig_pte)) {
		spin_unlock(&mm->page_table_lock);
		goto out_retry;
	}
	swap_free(entry);			/* the pte's hold: the mapping takes its place */
	if ((vmf->flags & (FAULT_FLAG_WRITE | FAULT_FLAG_SWAPOFF)) || (vma->vm_flags & VM_LOCKED) ||
	    vm_swap_full() || folio_test_mlocked(folio)) {
		/* The cache's reference and ours: nobody else has it. */
		if (page_ref_count(&folio->page) == 2 || !(vmf->flags & FAULT_FLAG_WRITE))
			folio_free_swap(folio);
	}
	exclusive = !folio_test_swapcache(folio) && page_ref_count(&folio->page) == 1;
	pte = mk_pte(folio, vm_get_page_prot(vma->vm_flags));	/* private: read-only (COW) */
	if (exclusive && (vmf->flags & FAULT_FLAG_WRITE))
		pte = pte_mkwrite(pte_mkdirty(pte), vma);
	folio_add_anon_rmap_pte(folio, &folio->page, vma, vmf->address, exclusive);
	add_mm_counter(mm, MM_ANONPAGES, 1);
	add_mm_counter(mm, MM_SWAPENTS, -1);
	set_pte_at(mm, vmf->address, vmf->pte, pte_mkyoung(pte));
	spin_unlock(&mm->page_table_lock);
	folio_unlock(folio);
	/* The pte's reference is ours (the lookup's or the read's). */
	return ret;
out_retry:
	folio_unlock(folio);
	folio_put(folio);
	return ret & ~VM_FAULT_MAJOR;		/* the access is retried */
}

/*
 * swapoff's swap-in (v6.10's unuse_pte): the swap entry at @address brought back and mapped
 * whatever the area's protection, so a PROT_NONE area's pages come back too (a fault could
 * not: access_permitted); the folio leaves the swap cache at once when no other pte names its
 * slot (v6.10's folio_free_swap in unuse_pte_range), so reclaim cannot send it back to the
 * area being emptied.  0 if the pte holds no swap entry (any more); else do_swap_page's
 * result.  mmap_lock held.
 */
vm_fault_t swapin_unuse_pte(struct vm_area_struct *vma, unsigned long address)
{
	struct mm_struct *mm = vma->vm_mm;
	struct vm_fault vmf = {
		.vma = vma, .address = address & PAGE_MASK, .real_address = address,
		.pgoff = linear_page_index(vma, address & PAGE_MASK), .flags = FAULT_FLAG_SWAPOFF,
	};

	lockdep_assert_held(&mm->mmap_lock);
	if (address < vma->vm_start || address >= vma->vm_end || !mm->pgd)
		return 0;
	vmf.pte = pte_lookup(pgd_offset(mm, vmf.address), vmf.address);
	if (!vmf.pte)
		return 0;
	vmf.orig_pte = ptep_get(vmf.pte);
	if (!is_swap_pte(vmf.orig_pte) || non_swap_entry(pte_to_swp_entry(vmf.orig_pte)))
		return 0;
	return do_swap_page(&vmf);
}

/* May this fault touch this area at all?  (v6.10's arch access_error()) */
static bool access_permitted(const struct vm_area_struct *vma, unsigned int flags)
{
	if (flags & FAULT_FLAG_WRITE)
		return vma->vm_flags & VM_WRITE;
	if (flags & FAULT_FLAG_INSTRUCTION)
		return vma->vm_flags & VM_EXEC;
	return vma->vm_flags & VM_READ;
}

vm_fault_t handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags)
{
	struct mm_struct *mm = vma->vm_mm;
	struct vm_fault vmf = {
		.vma = vma, .address = address & PAGE_MASK, .real_address = address, .flags = flags,
		.pgoff = linear_page_index(vma, address & PAGE_MASK),
	};

	lockdep_assert_held(&mm->mmap_lock);
	count_vm_events(PGFAULT, 1);	/* v6.10 counts every fault, refused ones too */
	if (address < vma->vm_start || address >= vma->vm_end || !access_permitted(vma, flags))
		return VM_FAULT_SIGSEGV;
	if (WARN_ON(!mm->pgd))
		return VM_FAULT_SIGSEGV;	/* an mm without tables (mm_alloc_pgd) */
	/* The walk takes no lock (v6.10's pte_offset_map_nolock): tables are freed only under
	 * mmap_lock, which this fault holds; the pte is read again under the lock before it is
	 * changed (fault_set_pte).  Only a missing table takes the lock, to make it. */
	vmf.pte = pte_lookup(pgd_offset(mm, vmf.address), vmf.address);
	if (unlikely(!vmf.pte)) {
		spin_lock(&mm->page_table_lock);
		vmf.pte = pte_alloc(mm, vmf.address);
		spin_unlock(&mm->page_table_lock);
		if (!vmf.pte)
			return VM_FAULT_OOM;
	}
	vmf.orig_pte = ptep_get(vmf.pte);
	if (pte_none(vmf.orig_pte))
		return vma->vm_file ? do_fault(&vmf) : do_anonymous_page(&vmf);
	if (!pte_present(vmf.orig_pte))
		return do_swap_page(&vmf);
	if ((flags & FAULT_FLAG_WRITE) && !pte_write(vmf.orig_pte))
		return do_wp_page(&vmf);
	/* Present and permitted: the TLB had an older entry, or the accessed/dirty bits need
	 * setting (a core without hardware A/D updates).  v6.10's tail of handle_pte_fault. */
	spin_lock(&mm->page_table_lock);
	if (pte_val(ptep_get(vmf.pte)) == pte_val(vmf.orig_pte)) {
		pte_t entry = pte_mkyoung(vmf.orig_pte);

		if (flags & FAULT_FLAG_WRITE)
			entry = pte_mkdirty(entry);
		if (pte_val(entry) != pte_val(vmf.orig_pte))
			set_pte_at(mm, vmf.address, vmf.pte, entry);
		flush_tlb_page(vma, vmf.address);
	}
	spin_unlock(&mm->page_table_lock);
	return 0;
}
