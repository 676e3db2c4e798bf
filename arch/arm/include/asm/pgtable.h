/*
 * asm/pgtable.h - ARMv7-A LPAE long-descriptor page tables (ARM ARM B3.6), what
 * include/tinymm/pgtable.h needs from an architecture.  Linux v6.10's names (arch/arm/include/
 * asm/pgtable-3level*.h); the layout is the hardware's.
 *
 * Geometry: three levels of 64-bit entries.  TTBCR.T0SZ = 0, so TTBR0 translates all 4 GiB and
 * its first-level table (the pgd) has 4 entries of 1 GiB (32 bytes); the pmd and pte tables have
 * 512 entries of 2 MiB and 4 KiB, one 4 KiB frame each.
 *
 * Descriptors (bits[1:0]): 0b11 at the pgd and pmd levels is a table, 0b01 a block (a 2 MiB pmd
 * leaf; tinymm uses no 1 GiB pgd blocks); 0b11 at the pte level is a page; x0 is invalid.  A
 * table descriptor holds the next table's physical address in bits[39:12].  A leaf (block or
 * page) holds the output address and:
 *   AttrIndx[2:0] bits 4:2   index into MAIR0/MAIR1 (below)
 *   NS bit 5                 ignored in Non-secure state; 0
 *   AP[2:1] bits 7:6         AP[2] (bit 7) read-only, AP[1] (bit 6) PL0 access; kernel: AP[1] 0
 *   SH[1:0] bits 9:8         0b11 inner shareable (Normal memory; ignored for Device)
 *   AF bit 10                access flag: an entry without it faults (LPAE has no hardware AF
 *                            update), so every kernel entry is made young
 *   nG bit 11                not global; kernel entries are global (0)
 *   PXN bit 53, XN bit 54    execute-never at PL1 / at every level
 *   bits 58:55               software: bit 55 is the dirty bit (Linux's L_PTE_DIRTY)
 *
 * Memory types, MAIR0 (attribute n is byte n; MAIR1 is 0 and unused):
 *   0 MT_NORMAL     0xff  Normal, inner/outer write-back write-allocate (RAM)
 *   1 MT_NORMAL_NC  0x44  Normal, inner/outer non-cacheable (pgprot_writecombine)
 *   2 MT_DEVICE     0x04  Device (the MMIO window: Linux's ioremap MT_DEVICE)
 *   3 MT_SO         0x00  Strongly-ordered (pgprot_noncached)
 * pgprot_noncached() is Strongly-ordered, as Linux ARM's L_PTE_MT_UNCACHED: a caller asking for
 * "uncached" gets accesses that complete before the next one starts, the strongest promise; the
 * kernel's own device window uses Device, which may buffer writes, as Linux's ioremap() does.
 *
 * W^X: PAGE_KERNEL is RW with XN and PXN, PAGE_KERNEL_RO read-only XN PXN, PAGE_KERNEL_EXEC
 * read-only and executable.  No protection here is both writable and executable.
 */
#ifndef ASM_ARM_PGTABLE_H
#define ASM_ARM_PGTABLE_H

#include <stdbool.h>
#include <stdint.h>
#include "tinymm/memory.h"

#define PGTABLE_LEVELS	3
#define PTRS_PER_PTE	512
#define PTRS_PER_PMD	512
#define PTRS_PER_PGD	4
#define PMD_SHIFT	21
#define PGDIR_SHIFT	30

typedef uint64_t pteval_t;
typedef uint64_t pmdval_t;
typedef uint64_t pgdval_t;

typedef struct { pteval_t pte; } pte_t;
typedef struct { pmdval_t pmd; } pmd_t;
typedef struct { pgdval_t pgd; } pgd_t;
typedef struct { pteval_t pgprot; } pgprot_t;
#define pte_val(x)	((x).pte)
#define pmd_val(x)	((x).pmd)
#define pgd_val(x)	((x).pgd)
#define pgprot_val(x)	((x).pgprot)
#define __pte(x)	((pte_t){ (pteval_t)(x) })
#define __pmd(x)	((pmd_t){ (pmdval_t)(x) })
#define __pgd(x)	((pgd_t){ (pgdval_t)(x) })
#define __pgprot(x)	((pgprot_t){ (pteval_t)(x) })

/* Descriptor types, bits[1:0]. */
#define PMD_TYPE_MASK		(3ULL << 0)
#define PMD_TYPE_TABLE		(3ULL << 0)
#define PMD_TYPE_SECT		(1ULL << 0)	/* a block */
#define PTE_TYPE_PAGE		(3ULL << 0)
/* Leaf attributes (Linux's L_PTE_* / PMD_SECT_*, which share these bit positions). */
#define L_PTE_VALID		(1ULL << 0)
#define L_PTE_PRESENT		(3ULL << 0)
#define L_PTE_ATTRINDX(n)	((pteval_t)(n) << 2)
#define L_PTE_ATTRINDX_MASK	(7ULL << 2)
#define L_PTE_USER		(1ULL << 6)	/* AP[1] */
#define L_PTE_RDONLY		(1ULL << 7)	/* AP[2] */
#define L_PTE_SHARED		(3ULL << 8)	/* SH: inner shareable */
#define L_PTE_YOUNG		(1ULL << 10)	/* AF */
#define L_PTE_NG		(1ULL << 11)
#define L_PTE_PXN		(1ULL << 53)
#define L_PTE_XN		(1ULL << 54)
#define L_PTE_DIRTY		(1ULL << 55)	/* software */
#define PHYS_MASK_LPAE		(((1ULL << 40) - 1) & ~0xfffULL)	/* bits 39:12 */

/* MAIR0 attribute indices and the register value (table above). */
#define MT_NORMAL		0
#define MT_NORMAL_NC		1
#define MT_DEVICE		2
#define MT_SO			3
#define MAIR0_VALUE		0x000444ffU
#define MAIR1_VALUE		0U

#define VMALLOC_START		0xf0800000UL	/* docs/mmu.md: after lowmem and an 8 MiB gap */
#define VMALLOC_END		0xff000000UL
/* The fixmap (tinymm/fixmap.h): one pte table, shared by entry.S's boot tables and the final. */
#define FIXADDR_START		0xffe00000UL
#define FIXADDR_TOP		0xffeff000UL	/* slot 0; Linux's FIXADDR_END - PAGE_SIZE */

extern pgd_t swapper_pg_dir[PTRS_PER_PGD];

/* The MMU runs on swapper_pg_dir since paging_init()'s switch (arch/arm/mmu_lpae.c). */
extern bool arm_lpae_on;
static inline bool arch_has_live_kernel_tables(void) { return arm_lpae_on; }

#define _L_PTE_KERNEL	(L_PTE_PRESENT | L_PTE_ATTRINDX(MT_NORMAL) | L_PTE_SHARED | L_PTE_YOUNG | \
			 L_PTE_DIRTY)
#define PAGE_KERNEL		__pgprot(_L_PTE_KERNEL | L_PTE_XN | L_PTE_PXN)
#define PAGE_KERNEL_RO		__pgprot(_L_PTE_KERNEL | L_PTE_RDONLY | L_PTE_XN | L_PTE_PXN)
#define PAGE_KERNEL_EXEC	__pgprot(_L_PTE_KERNEL | L_PTE_RDONLY)
/* The kernel's MMIO window: Device, never executable (a speculative fetch could touch it). */
#define PAGE_KERNEL_DEVICE	__pgprot((_L_PTE_KERNEL & ~L_PTE_ATTRINDX_MASK) | \
					 L_PTE_ATTRINDX(MT_DEVICE) | L_PTE_XN | L_PTE_PXN)

/*
 * User space (mm/memory.c): TTBR0 walks pgd entries 0-1 (the user 2 GiB, TTBCR.T0SZ = 1),
 * TTBR1 swapper_pg_dir[2..3]; a user pgd holds all four, the kernel's two copied by pgd_alloc()
 * (v6.10's LPAE pgd_alloc clones them too), so the same root serves either way.  User entries
 * are v6.10's pgprot_user: Normal, shareable, young, not global (nG), never executable at PL1
 * (PXN: the kernel never runs user code), with AP[1] (L_PTE_USER); L_PTE_RDONLY for read-only
 * and private writable areas (PAGE_COPY: the first write faults and copies or reuses the
 * page), XN unless VM_EXEC.  ARM has no execute-only or write-only page.  PAGE_NONE is the
 * base without AP[1], read-only and XN: PL0 has no access, the kernel's walkers see it present
 * (v6.10 clears the valid bit and keeps L_PTE_NONE in a software bit instead).
 * The table is v6.10's protection_map (arch/arm/mm/mmu.c), indexed by VM_READ | VM_WRITE |
 * VM_EXEC | VM_SHARED (1, 2, 4, 8): mm/memory.c's vm_get_page_prot().
 */
#define USER_PTRS_PER_PGD	2
#define _L_PTE_USER_BASE	(L_PTE_PRESENT | L_PTE_ATTRINDX(MT_NORMAL) | L_PTE_SHARED | \
				 L_PTE_YOUNG | L_PTE_NG | L_PTE_PXN)
#define _L_PAGE_NONE		(_L_PTE_USER_BASE | L_PTE_RDONLY | L_PTE_XN)
#define _L_PAGE_READONLY	(_L_PTE_USER_BASE | L_PTE_USER | L_PTE_RDONLY | L_PTE_XN)
#define _L_PAGE_READONLY_EXEC	(_L_PTE_USER_BASE | L_PTE_USER | L_PTE_RDONLY)
#define _L_PAGE_SHARED		(_L_PTE_USER_BASE | L_PTE_USER | L_PTE_XN)
#define _L_PAGE_SHARED_EXEC	(_L_PTE_USER_BASE | L_PTE_USER)
#define PAGE_NONE		__pgprot(_L_PAGE_NONE)
#define PAGE_COPY		__pgprot(_L_PAGE_READONLY)
#define PAGE_SHARED		__pgprot(_L_PAGE_SHARED)
#define ARCH_PROTECTION_MAP {								\
	{ _L_PAGE_NONE }, { _L_PAGE_READONLY }, { _L_PAGE_READONLY }, { _L_PAGE_READONLY },	\
	{ _L_PAGE_READONLY_EXEC }, { _L_PAGE_READONLY_EXEC }, { _L_PAGE_READONLY_EXEC },	\
	{ _L_PAGE_READONLY_EXEC },							\
	{ _L_PAGE_NONE }, { _L_PAGE_READONLY }, { _L_PAGE_SHARED }, { _L_PAGE_SHARED },		\
	{ _L_PAGE_READONLY_EXEC }, { _L_PAGE_READONLY_EXEC }, { _L_PAGE_SHARED_EXEC },		\
	{ _L_PAGE_SHARED_EXEC } }

/* ioremap(): Device, as Linux's MT_DEVICE. */
#define PAGE_KERNEL_IO		PAGE_KERNEL_DEVICE

static inline pgprot_t __pgprot_modify_mt(pgprot_t p, unsigned int mt)
{
	return __pgprot((pgprot_val(p) & ~L_PTE_ATTRINDX_MASK) | L_PTE_ATTRINDX(mt));
}
#define pgprot_noncached(p)	__pgprot_modify_mt((p), MT_SO)
#define pgprot_writecombine(p)	__pgprot_modify_mt((p), MT_NORMAL_NC)
/* dma_alloc_coherent() for a non-coherent device: Normal non-cacheable, as v6.10 ARMv7 with
 * CONFIG_ARM_DMA_MEM_BUFFERABLE (L_PTE_MT_BUFFERABLE); never Strongly-ordered, which would
 * forbid unaligned accesses and memcpy's merged stores. */
#define pgprot_dmacoherent(p)	__pgprot_modify_mt((p), MT_NORMAL_NC)
/* Does @p ask for a non-cacheable type?  Every ARMv7 CPU can give one (MAIR). */
#define pgprot_noncacheable(p)	((pgprot_val(p) & L_PTE_ATTRINDX_MASK) != L_PTE_ATTRINDX(MT_NORMAL))
#define arch_noncached_supported()	true

static inline unsigned long lpae_table_vaddr(uint64_t v)
{
	return (unsigned long)(uintptr_t)__va((phys_addr_t)(v & PHYS_MASK_LPAE));
}

/*
 * One single-copy-atomic 64-bit store (STRD of an 8-byte aligned doubleword is, with LPAE), then
 * DSB so the table walker sees it before a later access needs it, and ISB so the instructions
 * after it are fetched and executed with it (arm64's set_pte does the same).  The walks are
 * cacheable (TTBCR IRGN/ORGN write-back), so no cache clean is needed.
 */
static inline void lpae_set(uint64_t *p, uint64_t v)
{
	__asm__ __volatile__("strd %1, %H1, [%0]\n\tdsb ishst\n\tisb"
			     :: "r"(p), "r"(v) : "memory");
}

/* ---- pte ---- */
static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot)
{
	return __pte(((pteval_t)pfn << PAGE_SHIFT) | pgprot_val(prot));
}
static inline unsigned long pte_pfn(pte_t pte) { return (unsigned long)((pte_val(pte) & PHYS_MASK_LPAE) >> PAGE_SHIFT); }
static inline pgprot_t pte_pgprot(pte_t pte) { return __pgprot(pte_val(pte) & ~PHYS_MASK_LPAE); }
static inline int pte_none(pte_t pte) { return pte_val(pte) == 0; }
static inline int pte_present(pte_t pte) { return (pte_val(pte) & L_PTE_PRESENT) == L_PTE_PRESENT; }
/*
 * A non-present pte that is not none holds a swap-format entry (v6.10 ARM's layout, which
 * tinymm uses only for hwpoison entries: include/tinymm/swapops.h): bits 1:0 clear (invalid
 * to the walker, so a touch faults), the type in bits 6:2, bit 7 kept for v6.10's
 * L_PTE_SWP_EXCLUSIVE, the offset (a pfn) from bit 8.
 */
#define __SWP_TYPE_SHIFT	2
#define __SWP_TYPE_BITS		5
#define __SWP_TYPE_MASK		((1UL << __SWP_TYPE_BITS) - 1)
#define __SWP_OFFSET_SHIFT	(__SWP_TYPE_BITS + __SWP_TYPE_SHIFT + 1)
#define __swp_type(x)		(((x).val >> __SWP_TYPE_SHIFT) & __SWP_TYPE_MASK)
#define __swp_offset(x)		((x).val >> __SWP_OFFSET_SHIFT)
#define __swp_entry(type, offset) ((swp_entry_t){ (((unsigned long)(type) & __SWP_TYPE_MASK) << \
				   __SWP_TYPE_SHIFT) | ((unsigned long)(offset) << __SWP_OFFSET_SHIFT) })
#define __pte_to_swp_entry(pte)	((swp_entry_t){ (unsigned long)pte_val(pte) })
#define __swp_entry_to_pte(x)	__pte((x).val)
static inline int pte_write(pte_t pte) { return !(pte_val(pte) & L_PTE_RDONLY); }
/* Executable by the kernel: neither XN nor PXN. */
static inline int pte_exec(pte_t pte) { return !(pte_val(pte) & (L_PTE_XN | L_PTE_PXN)); }
static inline int pte_young(pte_t pte) { return (pte_val(pte) & L_PTE_YOUNG) != 0; }
static inline int pte_dirty(pte_t pte) { return (pte_val(pte) & L_PTE_DIRTY) != 0; }
static inline pte_t pte_mkyoung(pte_t pte) { return __pte(pte_val(pte) | L_PTE_YOUNG); }
static inline pte_t pte_mkold(pte_t pte) { return __pte(pte_val(pte) & ~L_PTE_YOUNG); }
static inline pte_t pte_mkdirty(pte_t pte) { return __pte(pte_val(pte) | L_PTE_DIRTY); }
static inline pte_t pte_mkclean(pte_t pte) { return __pte(pte_val(pte) & ~L_PTE_DIRTY); }
static inline pte_t pte_wrprotect(pte_t pte) { return __pte(pte_val(pte) | L_PTE_RDONLY); }
static inline pte_t pte_mkwrite_novma(pte_t pte) { return __pte(pte_val(pte) & ~L_PTE_RDONLY); }
/* Kernel-executable is XN and PXN both clear (pte_exec); Linux ARM's pte_mkexec clears XN only,
 * for user pages, where PXN is always set. */
static inline pte_t pte_mkexec(pte_t pte) { return __pte(pte_val(pte) & ~(L_PTE_XN | L_PTE_PXN)); }
static inline pte_t pte_mknexec(pte_t pte) { return __pte(pte_val(pte) | L_PTE_XN | L_PTE_PXN); }
static inline void set_pte(pte_t *ptep, pte_t pte) { lpae_set(&ptep->pte, pte_val(pte)); }

/* set_pte_at()'s cache hook for a present user pte (arch/arm/cacheflush.c): v6.10's set_ptes
 * calls __sync_icache_dcache for every valid user pte, which on a non-aliasing VIPT D-cache
 * returns at once unless the pte is executable; that test is made here, inline. */
struct mm_struct;
void __sync_icache_dcache(pte_t pteval);
static inline void arch_sync_icache_dcache(struct mm_struct *mm, pte_t pte)
{
	(void)mm;
	if (unlikely((pte_val(pte) & (L_PTE_PRESENT | L_PTE_USER | L_PTE_XN)) ==
		     (L_PTE_PRESENT | L_PTE_USER)))
		__sync_icache_dcache(pte);
}

/* ---- pmd: a table of ptes or a 2 MiB block ---- */
static inline int pmd_none(pmd_t pmd) { return pmd_val(pmd) == 0; }
static inline int pmd_present(pmd_t pmd) { return (pmd_val(pmd) & L_PTE_VALID) != 0; }
static inline int pmd_leaf(pmd_t pmd) { return (pmd_val(pmd) & PMD_TYPE_MASK) == PMD_TYPE_SECT; }
static inline int pmd_bad(pmd_t pmd) { return !pmd_none(pmd) && !pmd_present(pmd); }
static inline unsigned long pmd_pfn(pmd_t pmd) { return (unsigned long)((pmd_val(pmd) & PHYS_MASK_LPAE) >> PAGE_SHIFT); }
/* A block: the page protection with bits[1:0] 0b01 (Linux's pmd_mkhuge). */
static inline pmd_t pfn_pmd(unsigned long pfn, pgprot_t prot)
{
	return __pmd((((pmdval_t)pfn << PAGE_SHIFT) | pgprot_val(prot)) & ~(pmdval_t)2);
}
/* A block's attributes with bits[1:0] 0b11, a page's (pfn_pmd clears bit 1 again). */
static inline pgprot_t pmd_pgprot(pmd_t pmd) { return __pgprot((pmd_val(pmd) & ~PHYS_MASK_LPAE) | PTE_TYPE_PAGE); }
static inline unsigned long pmd_page_vaddr(pmd_t pmd) { return lpae_table_vaddr(pmd_val(pmd)); }
static inline void set_pmd(pmd_t *pmdp, pmd_t pmd) { lpae_set(&pmdp->pmd, pmd_val(pmd)); }
static inline void pmd_clear(pmd_t *pmdp) { set_pmd(pmdp, __pmd(0)); }
#define pmd_populate_kernel(mm, pmdp, ptep)						\
	set_pmd((pmdp), __pmd(__pa(ptep) | PMD_TYPE_TABLE))

/* ---- pgd: 4 entries, each a pmd table (no 1 GiB blocks) ---- */
static inline int pgd_none(pgd_t pgd) { return pgd_val(pgd) == 0; }
static inline int pgd_present(pgd_t pgd) { return (pgd_val(pgd) & L_PTE_VALID) != 0; }
static inline int pgd_bad(pgd_t pgd) { return !pgd_none(pgd) && (pgd_val(pgd) & PMD_TYPE_MASK) != PMD_TYPE_TABLE; }
static inline unsigned long pgd_page_vaddr(pgd_t pgd) { return lpae_table_vaddr(pgd_val(pgd)); }
static inline void pgd_clear(pgd_t *pgdp) { lpae_set(&pgdp->pgd, 0); }
#define pgd_populate(mm, pgdp, pmdp)							\
	lpae_set(&(pgdp)->pgd, __pa(pmdp) | PMD_TYPE_TABLE)

/* ---- TLB ---- */
/* false: the flushes below reach this CPU's TLB only (tinymm.tlb_shootdown=0, a debug switch for
 * the stale-TLB tests: arch/arm/tlbflush.c). */
extern bool arm_tlb_shootdown;

/*
 * TLBIMVAAIS (by address, all ASIDs, inner shareable) per page, TLBIALLIS past 64 pages: every
 * CPU of the inner-shareable domain drops the entries, no IPI needed.  The DSB before makes the
 * cleared entries visible to the walkers, the DSB after waits for the invalidation (on every
 * CPU, for the IS forms), the ISB resynchronises this CPU's fetches (ARM ARM B3.10.1).  With
 * arm_tlb_shootdown off, the local forms TLBIMVAA / TLBIALL instead: the other CPUs keep theirs.
 */
static inline void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	bool all = end - start > (64UL << PAGE_SHIFT);

	__asm__ __volatile__("dsb ishst" ::: "memory");
	if (__builtin_expect(!*(volatile bool *)&arm_tlb_shootdown, 0)) {
		if (all)
			__asm__ __volatile__("mcr p15, 0, %0, c8, c7, 0" :: "r"(0) : "memory");
		else
			for (unsigned long a = start & ~(PAGE_SIZE - 1); a < end; a += PAGE_SIZE)
				__asm__ __volatile__("mcr p15, 0, %0, c8, c7, 3" :: "r"(a) : "memory");
	} else if (all) {
		__asm__ __volatile__("mcr p15, 0, %0, c8, c3, 0" :: "r"(0) : "memory");
	} else {
		for (unsigned long a = start & ~(PAGE_SIZE - 1); a < end; a += PAGE_SIZE)
			__asm__ __volatile__("mcr p15, 0, %0, c8, c3, 3" :: "r"(a) : "memory");
	}
	__asm__ __volatile__("dsb ish\n\tisb" ::: "memory");
}

static inline void flush_tlb_page(struct vm_area_struct *vma, unsigned long addr)
{
	(void)vma;
	flush_tlb_kernel_range(addr, addr + PAGE_SIZE);
}

#endif
