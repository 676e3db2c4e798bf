/*
 * pgtable-nopmd.h - the pmd level folded into the pgd, for an architecture with two levels of
 * page tables (RV32 Sv32): its <asm/pgtable.h> includes this after defining pgd_t, __pgd() and
 * pgd_val(), as v6.10's include/asm-generic/pgtable-nopmd.h is included (which folds into the
 * pud; tinymm has no pud, include/tinymm/pgtable.h says why).
 *
 * A pmd_t is then the pgd entry itself: pmd_offset() returns the pgd slot, the pgd level is
 * never none, bad or cleared on its own, and the architecture defines the pmd_* operations on
 * what that slot holds (a pointer to a pte table, or a leaf).  PMD_SHIFT is PGDIR_SHIFT, so a
 * pmd leaf is a pgd-sized one (Sv32's 4 MiB megapage).
 */
/* Only for a two-level <asm/pgtable.h>, which defines PGTABLE_LEVELS first: anywhere else
 * (a tool that preprocesses every header at once) it is empty. */
#if !defined(TINYMM_PGTABLE_NOPMD_H) && defined(PGTABLE_LEVELS) && PGTABLE_LEVELS == 2
#define TINYMM_PGTABLE_NOPMD_H

#define PMD_SHIFT	PGDIR_SHIFT
#define PTRS_PER_PMD	1

typedef struct { pgd_t pgd; } pmd_t;

#define pmd_val(x)	(pgd_val((x).pgd))
#define __pmd(x)	((pmd_t){ __pgd(x) })

static inline int pgd_none(pgd_t pgd) { (void)pgd; return 0; }
static inline int pgd_bad(pgd_t pgd) { (void)pgd; return 0; }
static inline int pgd_present(pgd_t pgd) { (void)pgd; return 1; }
static inline void pgd_clear(pgd_t *pgd) { (void)pgd; }

/* Never called: pgd_none() is false.  Here so the walkers compile unchanged. */
#define pgd_populate(mm, pgdp, pmdp)	((void)(mm), (void)(pgdp), (void)(pmdp))

static inline pmd_t *pmd_offset(pgd_t *pgd, unsigned long addr)
{
	(void)addr;
	return (pmd_t *)pgd;
}

#endif
