/*
 * asm/pgtable.h - the host's fake architecture for page tables: what include/tinymm/pgtable.h
 * needs from an architecture, with nothing behind it but memory (no hardware walks these tables;
 * the tests walk them).  Two configurations, chosen at compile time:
 *
 *   FAKE_PGTABLE_LEVELS=3 (default): Sv39-like.  64-bit entries, 512 per 4 KiB table, levels of
 *     2^30 (pgd) and 2^21 (pmd); V R W X U G A D in bits 0-7, the frame number from bit 10, a
 *     PBMT-like memory type in bits 61-62 (0 PMA, 1 NC, 2 IO).  Kernel addresses are the
 *     sign-extended top of a 39-bit space (0xffffffc0_00000000 up).
 *   FAKE_PGTABLE_LEVELS=2: Sv32-like.  32-bit entries, 1024 per table, levels of 2^22 (pgd, the
 *     pmd folded into it by tinymm/pgtable-nopmd.h) and 2^12; the same low bits, the frame
 *     number in bits 10-31 and no memory-type field, so pgprot_noncached/writecombine can only
 *     return the protection unchanged, as on a CPU without Svpbmt.  A 22-bit frame number
 *     cannot hold a host address, so the fake stores pfn - fake_pfn_base (tests/host/
 *     fake_pgtable.c; a test sets it to its fake RAM's first pfn).  Kernel addresses are below
 *     4 GiB.
 * A pointer entry (to the next table) is V alone; a leaf has R, W or X (RISC-V's rule), at any
 * level.  VMALLOC_START/END are variables, so a test can shrink the range to exhaust it.
 * TLB flushes are counted (fake_tlb_flushes) and their ranges logged (fake_tlb_log) so tests can
 * see that unmapping and set_memory_*() flush what they changed; arch_has_live_kernel_tables() is
 * a variable, so a test can play a CPU with translation off.
 */
#ifndef ASM_HOST_PGTABLE_H
#define ASM_HOST_PGTABLE_H

#include <stdbool.h>
#include <stdint.h>

#ifndef FAKE_PGTABLE_LEVELS
#define FAKE_PGTABLE_LEVELS	3
#endif
#define PGTABLE_LEVELS		FAKE_PGTABLE_LEVELS

#define _PAGE_PRESENT	(1UL << 0)	/* V */
#define _PAGE_READ	(1UL << 1)
#define _PAGE_WRITE	(1UL << 2)
#define _PAGE_EXEC	(1UL << 3)
#define _PAGE_USER	(1UL << 4)
#define _PAGE_GLOBAL	(1UL << 5)
#define _PAGE_ACCESSED	(1UL << 6)
#define _PAGE_DIRTY	(1UL << 7)
#define _PAGE_LEAF	(_PAGE_READ | _PAGE_WRITE | _PAGE_EXEC)
#define _PAGE_PFN_SHIFT	10

#if FAKE_PGTABLE_LEVELS == 3
typedef uint64_t pteval_t;
#define PTRS_PER_PTE	512
#define PTRS_PER_PMD	512
#define PTRS_PER_PGD	512
#define PMD_SHIFT	21
#define PGDIR_SHIFT	30
#define _PAGE_PFN_MASK	(((1ULL << 44) - 1) << _PAGE_PFN_SHIFT)
#define _PAGE_MT_NC	(1ULL << 61)
#define _PAGE_MT_IO	(2ULL << 61)
#define _PAGE_MT_MASK	(3ULL << 61)
#define FAKE_VMALLOC_DEFAULT_START	0xffffffc400000000UL
#else
typedef uint32_t pteval_t;
#define PTRS_PER_PTE	1024
#define PTRS_PER_PGD	1024
#define PGDIR_SHIFT	22
#define _PAGE_PFN_MASK	0xfffffc00U
#define _PAGE_MT_NC	(1U << 8)	/* no memory-type field: a software bit, as Sv32's */
#define _PAGE_MT_IO	(1U << 8)
#define _PAGE_MT_MASK	(1U << 8)
#define FAKE_VMALLOC_DEFAULT_START	0xa0000000UL
#endif
#define FAKE_VMALLOC_DEFAULT_SIZE	(256UL << 20)

typedef struct { pteval_t pte; } pte_t;
typedef struct { pteval_t pgd; } pgd_t;
typedef struct { pteval_t pgprot; } pgprot_t;
#define pte_val(x)	((x).pte)
#define pgd_val(x)	((x).pgd)
#define pgprot_val(x)	((x).pgprot)
#define __pte(x)	((pte_t){ (pteval_t)(x) })
#define __pgd(x)	((pgd_t){ (pteval_t)(x) })
#define __pgprot(x)	((pgprot_t){ (pteval_t)(x) })

#if FAKE_PGTABLE_LEVELS == 3
typedef struct { pteval_t pmd; } pmd_t;
#define pmd_val(x)	((x).pmd)
#define __pmd(x)	((pmd_t){ (pteval_t)(x) })
#else
#include "tinymm/pgtable-nopmd.h"
#endif

/* tests/host/fake_pgtable.c */
extern unsigned long fake_pfn_base;		/* 2 levels: pfn - this is what an entry holds */
extern unsigned long fake_vmalloc_start, fake_vmalloc_end;
extern unsigned long fake_tlb_flushes;		/* flush_tlb_* calls */
/* The ranges of the last FAKE_TLB_LOG calls, call n at [n % FAKE_TLB_LOG] (a page: its page). */
#define FAKE_TLB_LOG	16
extern unsigned long fake_tlb_log[FAKE_TLB_LOG][2];
extern bool fake_kernel_tables_live;		/* arch_has_live_kernel_tables(); reset: true */
static inline bool arch_has_live_kernel_tables(void) { return fake_kernel_tables_live; }
extern pgd_t swapper_pg_dir[PTRS_PER_PGD];
#define VMALLOC_START	fake_vmalloc_start
#define VMALLOC_END	fake_vmalloc_end

#define _PAGE_KERNEL_BASE	(_PAGE_PRESENT | _PAGE_READ | _PAGE_GLOBAL | _PAGE_ACCESSED | _PAGE_DIRTY)
#define PAGE_KERNEL		__pgprot(_PAGE_KERNEL_BASE | _PAGE_WRITE)
#define PAGE_KERNEL_RO		__pgprot(_PAGE_KERNEL_BASE)
#define PAGE_KERNEL_EXEC	__pgprot(_PAGE_KERNEL_BASE | _PAGE_EXEC)

/* User space, as RISC-V's (arch/riscv/include/asm/pgtable.h says why): the positive half of
 * the 3-level space, [0, 2 GiB) with 2; entries V A U, PAGE_NONE V R A without U. */
#define USER_PTRS_PER_PGD	(FAKE_PGTABLE_LEVELS == 3 ? 256 : 512)
#define _PAGE_BASE		(_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_USER)
#define _PAGE_NONE_USER		(_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_READ)
#define _PAGE_U_READ		(_PAGE_BASE | _PAGE_READ)
#define _PAGE_U_WRITE		(_PAGE_BASE | _PAGE_READ | _PAGE_WRITE)
#define _PAGE_U_EXEC		(_PAGE_BASE | _PAGE_EXEC)
#define _PAGE_U_READ_EXEC	(_PAGE_BASE | _PAGE_READ | _PAGE_EXEC)
#define _PAGE_U_WRITE_EXEC	(_PAGE_BASE | _PAGE_READ | _PAGE_WRITE | _PAGE_EXEC)
#define PAGE_NONE		__pgprot(_PAGE_NONE_USER)
#define PAGE_COPY		__pgprot(_PAGE_U_READ)
#define PAGE_SHARED		__pgprot(_PAGE_U_WRITE)
#define ARCH_PROTECTION_MAP {								\
	{ _PAGE_NONE_USER }, { _PAGE_U_READ }, { _PAGE_U_READ }, { _PAGE_U_READ },		\
	{ _PAGE_U_EXEC }, { _PAGE_U_READ_EXEC }, { _PAGE_U_READ_EXEC }, { _PAGE_U_READ_EXEC },	\
	{ _PAGE_NONE_USER }, { _PAGE_U_READ }, { _PAGE_U_WRITE }, { _PAGE_U_WRITE },		\
	{ _PAGE_U_EXEC }, { _PAGE_U_READ_EXEC }, { _PAGE_U_WRITE_EXEC }, { _PAGE_U_WRITE_EXEC } }

static inline pgprot_t pgprot_noncached(pgprot_t p)
{
	return __pgprot((pgprot_val(p) & ~(pteval_t)_PAGE_MT_MASK) | _PAGE_MT_IO);
}

static inline pgprot_t pgprot_writecombine(pgprot_t p)
{
	return __pgprot((pgprot_val(p) & ~(pteval_t)_PAGE_MT_MASK) | _PAGE_MT_NC);
}

static inline pgprot_t pgprot_dmacoherent(pgprot_t p)
{
	return pgprot_writecombine(p);
}

#define PAGE_KERNEL_IO		pgprot_noncached(PAGE_KERNEL)

/* Non-cacheable requests: seen by their bits; granted with three levels (an Sv39 with Svpbmt)
 * unless a test says the CPU cannot (fake_noncached_ok), refused with two (Sv32). */
extern bool fake_noncached_ok;
static inline bool pgprot_noncacheable(pgprot_t p) { return (pgprot_val(p) & _PAGE_MT_MASK) != 0; }
static inline bool arch_noncached_supported(void) { return FAKE_PGTABLE_LEVELS == 3 && fake_noncached_ok; }

/* An entry's frame number and back; 2 levels store it relative to fake_pfn_base. */
static inline pteval_t fake_pfn_bits(unsigned long pfn)
{
	unsigned long rel = FAKE_PGTABLE_LEVELS == 3 ? pfn : pfn - fake_pfn_base;

	return ((pteval_t)rel << _PAGE_PFN_SHIFT) & (pteval_t)_PAGE_PFN_MASK;
}

static inline unsigned long fake_bits_pfn(pteval_t v)
{
	unsigned long rel = (unsigned long)((v & (pteval_t)_PAGE_PFN_MASK) >> _PAGE_PFN_SHIFT);

	return FAKE_PGTABLE_LEVELS == 3 ? rel : rel + fake_pfn_base;
}

/* The kernel address of the table an entry points to (__va is the identity on the host). */
static inline unsigned long fake_table_vaddr(pteval_t v)
{
	return fake_bits_pfn(v) << 12;
}

/* ---- pte ---- */
static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot)
{
	return __pte(fake_pfn_bits(pfn) | pgprot_val(prot));
}
static inline unsigned long pte_pfn(pte_t pte) { return fake_bits_pfn(pte_val(pte)); }
static inline pgprot_t pte_pgprot(pte_t pte) { return __pgprot(pte_val(pte) & ~(pteval_t)_PAGE_PFN_MASK); }
static inline int pte_none(pte_t pte) { return pte_val(pte) == 0; }
static inline int pte_present(pte_t pte) { return (pte_val(pte) & _PAGE_PRESENT) != 0; }
/* The swap-entry layout (RISC-V's, include/tinymm/swapops.h): V and bit 5 clear, the type in
 * bits 11:7, the offset from bit 12. */
#define __SWP_TYPE_SHIFT	7
#define __SWP_TYPE_BITS		5
#define __SWP_TYPE_MASK		((1UL << __SWP_TYPE_BITS) - 1)
#define __SWP_OFFSET_SHIFT	(__SWP_TYPE_BITS + __SWP_TYPE_SHIFT)
#define __swp_type(x)		(((x).val >> __SWP_TYPE_SHIFT) & __SWP_TYPE_MASK)
#define __swp_offset(x)		((x).val >> __SWP_OFFSET_SHIFT)
#define __swp_entry(type, offset) ((swp_entry_t){ (((unsigned long)(type) & __SWP_TYPE_MASK) << \
				   __SWP_TYPE_SHIFT) | ((unsigned long)(offset) << __SWP_OFFSET_SHIFT) })
#define __pte_to_swp_entry(pte)	((swp_entry_t){ (unsigned long)pte_val(pte) })
#define __swp_entry_to_pte(x)	__pte((x).val)
static inline int pte_write(pte_t pte) { return (pte_val(pte) & _PAGE_WRITE) != 0; }
static inline int pte_exec(pte_t pte) { return (pte_val(pte) & _PAGE_EXEC) != 0; }
static inline int pte_young(pte_t pte) { return (pte_val(pte) & _PAGE_ACCESSED) != 0; }
static inline int pte_dirty(pte_t pte) { return (pte_val(pte) & _PAGE_DIRTY) != 0; }
static inline pte_t pte_mkyoung(pte_t pte) { return __pte(pte_val(pte) | _PAGE_ACCESSED); }
static inline pte_t pte_mkold(pte_t pte) { return __pte(pte_val(pte) & ~(pteval_t)_PAGE_ACCESSED); }
static inline pte_t pte_mkdirty(pte_t pte) { return __pte(pte_val(pte) | _PAGE_DIRTY); }
static inline pte_t pte_mkclean(pte_t pte) { return __pte(pte_val(pte) & ~(pteval_t)_PAGE_DIRTY); }
static inline pte_t pte_wrprotect(pte_t pte) { return __pte(pte_val(pte) & ~(pteval_t)_PAGE_WRITE); }
static inline pte_t pte_mkwrite_novma(pte_t pte) { return __pte(pte_val(pte) | _PAGE_WRITE); }
static inline pte_t pte_mkexec(pte_t pte) { return __pte(pte_val(pte) | _PAGE_EXEC); }
static inline pte_t pte_mknexec(pte_t pte) { return __pte(pte_val(pte) & ~(pteval_t)_PAGE_EXEC); }
static inline void set_pte(pte_t *ptep, pte_t pte) { *(volatile pteval_t *)&ptep->pte = pte_val(pte); }

/* set_pte_at()'s cache hook: the host has no caches to keep coherent; a test that models one
 * (docs/cacheflush.md) sets fake_sync_icache_dcache to an architecture's policy. */
struct mm_struct;
extern void (*fake_sync_icache_dcache)(struct mm_struct *mm, pte_t pte);
static inline void arch_sync_icache_dcache(struct mm_struct *mm, pte_t pte)
{
	if ((pte_val(pte) & (_PAGE_PRESENT | _PAGE_USER | _PAGE_EXEC)) ==
	    (_PAGE_PRESENT | _PAGE_USER | _PAGE_EXEC) && fake_sync_icache_dcache)
		fake_sync_icache_dcache(mm, pte);
}

/* ---- pmd: a pointer to a pte table, or a leaf ---- */
static inline int pmd_none(pmd_t pmd) { return pmd_val(pmd) == 0; }
static inline int pmd_present(pmd_t pmd) { return (pmd_val(pmd) & _PAGE_PRESENT) != 0; }
static inline int pmd_leaf(pmd_t pmd) { return pmd_present(pmd) && (pmd_val(pmd) & _PAGE_LEAF); }
static inline int pmd_bad(pmd_t pmd) { return !pmd_none(pmd) && !pmd_present(pmd); }
static inline unsigned long pmd_pfn(pmd_t pmd) { return fake_bits_pfn(pmd_val(pmd)); }
static inline pmd_t pfn_pmd(unsigned long pfn, pgprot_t prot)
{
	return __pmd(fake_pfn_bits(pfn) | pgprot_val(prot));
}
static inline pgprot_t pmd_pgprot(pmd_t pmd) { return __pgprot(pmd_val(pmd) & ~(pteval_t)_PAGE_PFN_MASK); }
static inline unsigned long pmd_page_vaddr(pmd_t pmd) { return fake_table_vaddr(pmd_val(pmd)); }
static inline void set_pmd(pmd_t *pmdp, pmd_t pmd) { *(volatile pteval_t *)pmdp = pmd_val(pmd); }
static inline void pmd_clear(pmd_t *pmdp) { set_pmd(pmdp, __pmd(0)); }
#define pmd_populate_kernel(mm, pmdp, ptep)						\
	set_pmd((pmdp), __pmd(fake_pfn_bits((unsigned long)(uintptr_t)(ptep) >> 12) | _PAGE_PRESENT))

/* ---- pgd (three levels: a pointer to a pmd table) ---- */
#if FAKE_PGTABLE_LEVELS == 3
static inline int pgd_none(pgd_t pgd) { return pgd_val(pgd) == 0; }
static inline int pgd_present(pgd_t pgd) { return (pgd_val(pgd) & _PAGE_PRESENT) != 0; }
static inline int pgd_bad(pgd_t pgd) { return !pgd_none(pgd) && (pgd_val(pgd) & (_PAGE_LEAF | _PAGE_PRESENT)) != _PAGE_PRESENT; }
static inline unsigned long pgd_page_vaddr(pgd_t pgd) { return fake_table_vaddr(pgd_val(pgd)); }
static inline void pgd_clear(pgd_t *pgdp) { *(volatile pteval_t *)&pgdp->pgd = 0; }
#define pgd_populate(mm, pgdp, pmdp)							\
	(*(volatile pteval_t *)&(pgdp)->pgd =						\
		fake_pfn_bits((unsigned long)(uintptr_t)(pmdp) >> 12) | _PAGE_PRESENT)
#endif

/* ---- hooks ---- */
static inline void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	fake_tlb_log[fake_tlb_flushes % FAKE_TLB_LOG][0] = start;
	fake_tlb_log[fake_tlb_flushes % FAKE_TLB_LOG][1] = end;
	fake_tlb_flushes++;
}

static inline void flush_tlb_page(struct vm_area_struct *vma, unsigned long addr)
{
	(void)vma;
	flush_tlb_kernel_range(addr, addr + 4096);
}

#endif
