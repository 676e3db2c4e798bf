/*
 * rmap_migrate.c - the page-table side of migration (mm/migrate.c, docs/migration.md): every
 * pte mapping a folio replaced by a migration entry before it moves (v6.10's try_to_migrate,
 * mm/rmap.c), and the entries replaced by ptes of the new folio after (v6.10's
 * remove_migration_ptes, mm/migrate.c), or of the old one when the move failed.
 *
 * A migration entry (include/tinymm/swapops.h) names the old folio's pfn and whether the pte
 * was writable, or read-only with its anonymous page exclusive; it holds no reference and no
 * mapcount, but stays in the mm's RSS.  A task that touches it waits for the old folio's lock
 * (mm/memory.c's migration_entry_wait), which migration holds from before the first entry is
 * set until the last is gone.
 *
 * Invariants: between try_to_migrate() and remove_migration_ptes() the old folio is locked and
 * unmapped, and every pte that mapped it holds its migration entry (or was zapped meanwhile: a
 * zap of an entry only clears it); the new folio, locked too, takes the old one's mapping and
 * index before the walk back, so the same rmap walk finds the same ptes.
 * Locking: folio lock(s) held by the caller; the rmap walk's lock (anon_vma->lock or
 * i_mmap_lock), then each mm's page_table_lock (rmap.h's order).  An anonymous folio's
 * anon_vma is held by the caller across both (folio_get_anon_vma): its ptes, which keep it
 * alive otherwise, are entries in between.
 *
 * Where tinymm differs from v6.10: order-0 folios only (no pmd entries, no splitting); no
 * young/dirty bits in the entries (the dirt goes to the folio, the new pte is young: v6.10
 * without migration_entry_supports_ad); a writable entry becomes a writable pte only if the
 * area is still writable (v6.10's mprotect turns writable entries read-only instead; tinymm's
 * mprotect skips non-present ptes, so the check is made here).  No GUP pins, so an exclusive
 * anonymous page can always be shared into an entry (v6.10's folio_try_share_anon_rmap_pte).
 */
#include "tinymm/lockdep.h"
#include "tinymm/mlock.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/page-flags.h"
#include "tinymm/pagemap.h"
#include "tinymm/rmap.h"
#include "tinymm/swapops.h"
#include "tinymm/writeback.h"

static bool try_to_migrate_one(struct folio *folio, struct vm_area_struct *vma,
			       unsigned long address, void *arg)
{
	struct page *page = &folio->page;
	pte_t *pte = page_vma_mapped_pte(folio, vma, address);
	unsigned long pfn = page_to_pfn(page);
	bool anon_exclusive;
	swp_entry_t entry;
	pte_t pteval;

	(void)arg;
	if (!pte)
		return true;
	pteval = ptep_get(pte);
	pte_clear(vma->vm_mm, address, pte);
	flush_tlb_page(vma, address);	/* no access through a stale entry after this */
	anon_exclusive = folio_test_anon(folio) && PageAnonExclusive(page);
	if (pte_write(pteval))
		entry = make_writable_migration_entry(pfn);
	else if (anon_exclusive)
		entry = make_readable_exclusive_migration_entry(pfn);
	else
		entry = make_readable_migration_entry(pfn);
	/* The entry says it now; the page put back gets it again (remove_migration_pte). */
	if (anon_exclusive)
		ClearPageAnonExclusive(page);
	set_pte_at(vma->vm_mm, address, pte, swp_entry_to_pte(entry));
	folio_remove_rmap_pte(folio, page, vma);
	spin_unlock(&vma->vm_mm->page_table_lock);
	if (vma->vm_flags & VM_LOCKED)
		mlock_drain_local();	/* the munlock it queued: PG_mlocked is not carried */
	if (pte_dirty(pteval)) {
		if (folio_test_anon(folio))
			folio_set_dirty(folio);	/* noop_dirty_folio, as in try_to_unmap_one */
		else
			folio_mark_dirty(folio);
	}
	folio_put(folio);		/* the pte's reference; the caller holds another */
	return folio_mapped(folio);
}

/* v6.10's try_to_migrate(): every pte mapping the locked @folio becomes a migration entry.
 * The caller checks folio_mapped() afterwards. */
void try_to_migrate(struct folio *folio)
{
	struct rmap_walk_control rwc = { .rmap_one = try_to_migrate_one };

	lockdep_assert_folio_locked(folio);
	if (folio_mapped(folio))
		rmap_walk(folio, &rwc);
}

/* The entry at @address names the old folio: the new one (@folio) mapped there instead. */
static bool remove_migration_pte(struct folio *folio, struct vm_area_struct *vma,
				 unsigned long address, void *arg)
{
	struct folio *old = arg;
	struct mm_struct *mm = vma->vm_mm;
	swp_entry_t entry;
	pte_t *pte, v, newpte;

	if (!mm->pgd)
		return true;
	spin_lock(&mm->page_table_lock);
	pte = user_pte_lookup(mm, address);
	if (!pte || !is_migration_pte(v = ptep_get(pte)) ||
	    swp_offset(entry = pte_to_swp_entry(v)) != page_to_pfn(&old->page)) {
		spin_unlock(&mm->page_table_lock);
		return true;
	}
	/* The area's protection as a fault maps a page it does not write: a shared area's
	 * write-notify prot (VM_SHARED dropped, v6.10's vma_set_page_prot), so a clean page's
	 * next write faults and dirties the folio; private areas are copy-on-write anyway. */
	newpte = pte_mkyoung(pfn_pte(page_to_pfn(&folio->page),
				     vm_get_page_prot(vma->vm_flags & ~VM_SHARED)));
	if (is_writable_migration_entry(entry) && (vma->vm_flags & VM_WRITE))
		newpte = pte_mkwrite(pte_mkdirty(newpte), vma);
	folio_get(folio);		/* the pte's reference */
	if (folio_test_anon(folio))
		folio_add_anon_rmap_pte(folio, &folio->page, vma, address,
					!is_readable_migration_entry(entry));
	else
		folio_add_file_rmap_pte(folio, &folio->page, vma);	/* re-mlocks in VM_LOCKED */
	set_pte_at(mm, address, pte, newpte);
	spin_unlock(&mm->page_table_lock);
	if (vma->vm_flags & VM_LOCKED)
		mlock_drain_local();	/* PG_mlocked rebuilt from the area, as v6.10's */
	return true;
}

/*
 * v6.10's remove_migration_ptes(): every migration entry naming @src, found through @dst's
 * rmap (which has @src's mapping and index), becomes a pte of @dst; @dst == @src puts the
 * old folio back after a failed move.  Both locked.  @anon_held: the caller holds the
 * anon_vma of an anonymous folio (folio_get_anon_vma).
 */
void remove_migration_ptes(struct folio *src, struct folio *dst)
{
	struct rmap_walk_control rwc = {
		.rmap_one = remove_migration_pte, .arg = src, .anon_held = true,
	};

	lockdep_assert_folio_locked(src);
	lockdep_assert_folio_locked(dst);
	rmap_walk(dst, &rwc);
}
