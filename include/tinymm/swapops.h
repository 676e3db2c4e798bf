/*
 * swapops.h - non-present ptes that say something: v6.10's swap-entry format (include/linux/
 * swapops.h).  Three kinds: a swap slot (type < MAX_SWAPFILES: mm/swapfile.c, docs/swap.md),
 * the hwpoison entry (docs/hwpoison.md, "Mapped frames") and the migration entries
 * (mm/migrate.c, docs/migration.md).
 *
 *   is_swap_pte(pte)            not none and not present: a swap-format entry
 *   pte_to_swp_entry(pte), swp_entry_to_pte(entry)   between the pte and its entry
 *   make_hwpoison_entry(page)   what memory_failure() leaves in a pte that mapped @page
 *                               (try_to_unmap with TTU_HWPOISON): the type SWP_HWPOISON and
 *                               the pfn as the offset; the next touch is VM_FAULT_HWPOISON
 *   is_hwpoison_entry(entry), pfn_swap_entry_to_page(entry)
 *
 * The architecture lays the entry out in the pte (asm/pgtable.h: __swp_entry, __swp_type,
 * __swp_offset, __pte_to_swp_entry, __swp_entry_to_pte, as v6.10's); the walker sees an
 * invalid entry either way.  A hwpoison entry holds no reference and counts in no mapcount:
 * zapping it (munmap, exit, MADV_DONTNEED) only clears it, fork copies it as it is.
 *
 *
 *   make_{readable,readable_exclusive,writable}_migration_entry(pfn)  what try_to_migrate()
 *                               leaves in a pte that mapped the folio at @pfn while it moves:
 *                               whether the pte was writable, or read-only but its anonymous
 *                               page exclusive (PG_anon_exclusive), so the pte put back says
 *                               the same; a touch waits until the move is over
 *   is_migration_entry(entry), is_writable_migration_entry(entry),
 *   is_readable_migration_entry(entry), is_readable_exclusive_migration_entry(entry),
 *   is_migration_pte(pte), pfn_swap_entry_folio(entry)
 *   non_swap_entry(entry)       a hwpoison or migration entry: names a frame, not a slot
 * A migration entry holds no reference and counts in no mapcount, but in its mm's RSS as the
 * pte it replaced (v6.10's): a zap takes it from the RSS, fork copies it (read-only in a
 * copy-on-write area, as v6.10's copy_nonpresent_pte).
 *
 * Where tinymm differs from v6.10: no device or pte-marker entries exist; the type numbers are
 * v6.10's for a kernel with CONFIG_MIGRATION and CONFIG_MEMORY_FAILURE and no device-private
 * memory (MAX_SWAPFILES 27: SWP_HWPOISON is 27, the migration entries 28-30).  No arch
 * swap-exclusive bit, and no young/dirty bits in migration entries (v6.10's
 * migration_entry_supports_ad() false): the folio carries the dirt, the pte put back is young.
 */
#ifndef TINYMM_SWAPOPS_H
#define TINYMM_SWAPOPS_H

#include <stdbool.h>
#include "mm.h"
#include "pgtable.h"

typedef struct { unsigned long val; } swp_entry_t;

#define MAX_SWAPFILES_SHIFT	5
#define SWP_DEVICE_NUM		0
#define SWP_MIGRATION_NUM	3
#define SWP_HWPOISON_NUM	1
#define SWP_PTE_MARKER_NUM	1
#define MAX_SWAPFILES	((1 << MAX_SWAPFILES_SHIFT) - SWP_DEVICE_NUM - SWP_MIGRATION_NUM - \
			 SWP_HWPOISON_NUM - SWP_PTE_MARKER_NUM)
#define SWP_HWPOISON	MAX_SWAPFILES
#define SWP_MIGRATION_READ		(MAX_SWAPFILES + SWP_HWPOISON_NUM)
#define SWP_MIGRATION_READ_EXCLUSIVE	(MAX_SWAPFILES + SWP_HWPOISON_NUM + 1)
#define SWP_MIGRATION_WRITE		(MAX_SWAPFILES + SWP_HWPOISON_NUM + 2)

static inline swp_entry_t swp_entry(unsigned long type, unsigned long offset)
{
	return __swp_entry(type, offset);
}
static inline unsigned long swp_type(swp_entry_t entry) { return __swp_type(entry); }
static inline unsigned long swp_offset(swp_entry_t entry) { return __swp_offset(entry); }

static inline bool is_swap_pte(pte_t pte)
{
	return !pte_none(pte) && !pte_present(pte);
}
static inline swp_entry_t pte_to_swp_entry(pte_t pte) { return __pte_to_swp_entry(pte); }
static inline pte_t swp_entry_to_pte(swp_entry_t entry) { return __swp_entry_to_pte(entry); }

static inline swp_entry_t make_hwpoison_entry(struct page *page)
{
	return swp_entry(SWP_HWPOISON, page_to_pfn(page));
}
static inline bool is_hwpoison_entry(swp_entry_t entry)
{
	return swp_type(entry) == SWP_HWPOISON;
}
static inline struct page *pfn_swap_entry_to_page(swp_entry_t entry)
{
	return pfn_to_page(swp_offset(entry));
}

static inline swp_entry_t make_readable_migration_entry(unsigned long pfn)
{
	return swp_entry(SWP_MIGRATION_READ, pfn);
}
static inline swp_entry_t make_readable_exclusive_migration_entry(unsigned long pfn)
{
	return swp_entry(SWP_MIGRATION_READ_EXCLUSIVE, pfn);
}
static inline swp_entry_t make_writable_migration_entry(unsigned long pfn)
{
	return swp_entry(SWP_MIGRATION_WRITE, pfn);
}
static inline bool is_migration_entry(swp_entry_t entry)
{
	return swp_type(entry) >= SWP_MIGRATION_READ && swp_type(entry) <= SWP_MIGRATION_WRITE;
}
static inline bool is_writable_migration_entry(swp_entry_t entry)
{
	return swp_type(entry) == SWP_MIGRATION_WRITE;
}
static inline bool is_readable_migration_entry(swp_entry_t entry)
{
	return swp_type(entry) == SWP_MIGRATION_READ;
}
static inline bool is_readable_exclusive_migration_entry(swp_entry_t entry)
{
	return swp_type(entry) == SWP_MIGRATION_READ_EXCLUSIVE;
}
static inline bool non_swap_entry(swp_entry_t entry)
{
	return swp_type(entry) >= MAX_SWAPFILES;
}
static inline struct folio *pfn_swap_entry_folio(swp_entry_t entry)
{
	return page_folio(pfn_swap_entry_to_page(entry));
}
/* A pte holding a migration entry (v6.10's is_migration_entry(pte_to_swp_entry(pte)) guarded). */
static inline bool is_migration_pte(pte_t pte)
{
	return is_swap_pte(pte) && is_migration_entry(pte_to_swp_entry(pte));
}

#endif
