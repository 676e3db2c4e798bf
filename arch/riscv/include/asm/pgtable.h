/*
 * asm/pgtable.h - RISC-V page tables for include/tinymm/pgtable.h (include that instead): Sv39
 * on RV64 (three levels), Sv32 on RV32 (two, the pmd folded by tinymm/pgtable-nopmd.h).  Linux
 * v6.10's names (arch/riscv/include/asm/pgtable*.h); the encodings are the privileged spec's.
 *
 * An entry (Sv39: 64 bits; Sv32: 32 bits):
 *   bit 0 V, 1 R, 2 W, 3 X, 4 U, 5 G, 6 A, 7 D, 8-9 RSW (software's; unused), PPN from bit 10
 *   (Sv39: 44 bits, 10-53; Sv32: 22 bits, 10-31, so 34-bit physical addresses).  Sv39 bits
 *   54-60 are reserved (zero), 61-62 PBMT with Svpbmt (0 PMA, 1 NC, 2 IO; the CPU faults on a
 *   non-zero PBMT without it), 63 N (Svnapot; unused).
 *   V with R, W and X clear points to the next table; V with any of R/X is a leaf at any level
 *   (W without R is reserved).  A leaf above the last level is a megapage (Sv39 2 MiB at the
 *   pmd, Sv32 4 MiB at the folded pmd) or an Sv39 1 GiB gigapage (pgd; tinymm does not use it).
 *
 * Kernel protections set A and D, as Linux's do: a core without hardware A/D updating (the
 * spec's Svade behaviour) takes a page fault on the first access or write otherwise, and the
 * kernel has nobody to handle it.  QEMU updates them in the entry itself, hence the atomic
 * ptep_test_and_clear_young below.  No kernel protection is both writable and executable.
 *
 * Memory types: pgprot_noncached()/pgprot_writecombine() set PBMT IO/NC on Sv39 whatever the
 * CPU; only riscv_pbmt_supported() (Svpbmt in the device tree's riscv,isa) says the CPU
 * honours them, and a caller must refuse an uncached mapping without it (the PBMT bits would
 * fault).  Sv32 has no PBMT field: they return the protection unchanged, and
 * riscv_pbmt_supported() is false, so a caller must refuse there too rather than map cacheable.
 *
 * TLB: set_pte() of a valid entry is followed by an sfence.vma, because RISC-V lets a hart
 * cache an invalid entry (the privileged spec: page-table stores are only guaranteed visible to
 * the walker after an SFENCE.VMA).  Linux 6.10 instead takes the spurious fault once and flushes
 * then; tinymm has no such fault path yet, and maps rarely.
 *
 * Layout (docs/mmu.md, "The kernel address space"): Sv39 puts vmalloc/ioremap in the 64 GiB
 * below PAGE_OFFSET (0xffffffd000000000, asm/memory.h), the direct map above it, the fixmap's
 * 2 MiB at the top; Sv32 uses the 2G/2G split ARM uses: vmalloc from 0xf0800000, after lowmem
 * and an 8 MiB gap, to 0xff000000, the fixmap's 4 MiB slot at 0xffc00000.
 */
#ifndef ASM_RISCV_PGTABLE_H
#define ASM_RISCV_PGTABLE_H

#include <stdbool.h>
#include <stdint.h>
#include "tinymm/memory.h"

#if __riscv_xlen == 64
#define PGTABLE_LEVELS	3
#else
#define PGTABLE_LEVELS	2
#endif

#define _PAGE_PRESENT	(1UL << 0)	/* V */
#define _PAGE_READ	(1UL << 1)
#define _PAGE_WRITE	(1UL << 2)
#define _PAGE_EXEC	(1UL << 3)
#define _PAGE_USER	(1UL << 4)
#define _PAGE_GLOBAL	(1UL << 5)
#define _PAGE_ACCESSED	(1UL << 6)
#define _PAGE_DIRTY	(1UL << 7)
#define _PAGE_LEAF	(_PAGE_READ | _PAGE_WRITE | _PAGE_EXEC)
#define _PAGE_TABLE	_PAGE_PRESENT
#define _PAGE_PFN_SHIFT	10

#if PGTABLE_LEVELS == 3
typedef uint64_t pteval_t;
#define PTRS_PER_PTE	512
#define PTRS_PER_PMD	512
#define PTRS_PER_PGD	512
#define PMD_SHIFT	21
#define PGDIR_SHIFT	30
#define _PAGE_PFN_MASK	(((1ULL << 44) - 1) << _PAGE_PFN_SHIFT)
/* Svpbmt (Linux's _PAGE_NOCACHE_SVPBMT, _PAGE_IO_SVPBMT, _PAGE_MTMASK_SVPBMT). */
#define _PAGE_NOCACHE_SVPBMT	(1ULL << 61)
#define _PAGE_IO_SVPBMT		(2ULL << 61)
#define _PAGE_MTMASK_SVPBMT	(3ULL << 61)
#define SATP_MODE	(8UL << 60)	/* Sv39 */
#define SATP_PPN	((1UL << 44) - 1)
/* 64 GiB below the direct map (Linux v6.10 puts its own 64 GiB at 0xffffffc600000000). */
#define VMALLOC_START	0xffffffc000000000UL
#define VMALLOC_END	0xffffffd000000000UL
#define FIXADDR_START	0xffffffffffe00000UL	/* the last 2 MiB: one pte table */
#define FIXADDR_TOP	0xffffffffffeff000UL	/* slot 0 */
#else
typedef uint32_t pteval_t;
#define PTRS_PER_PTE	1024
#define PTRS_PER_PGD	1024
#define PGDIR_SHIFT	22
#define _PAGE_PFN_MASK	0xfffffc00U
#define _PAGE_NOCACHE_SVPBMT	0U
#define _PAGE_IO_SVPBMT		0U
#define _PAGE_MTMASK_SVPBMT	0U
#define SATP_MODE	(1UL << 31)	/* Sv32 */
#define SATP_PPN	((1UL << 22) - 1)
#define VMALLOC_START	0xf0800000UL
#define VMALLOC_END	0xff000000UL
#define FIXADDR_START	0xffc00000UL	/* the last root slot: one pte table */
#define FIXADDR_TOP	0xffeff000UL	/* slot 0 */
#endif

typedef struct { pteval_t pte; } pte_t;
typedef struct { pteval_t pgd; } pgd_t;
typedef struct { pteval_t pgprot; } pgprot_t;
#define pte_val(x)	((x).pte)
#define pgd_val(x)	((x).pgd)
#define pgprot_val(x)	((x).pgprot)
#define __pte(x)	((pte_t){ (pteval_t)(x) })
#define __pgd(x)	((pgd_t){ (pteval_t)(x) })
#define __pgprot(x)	((pgprot_t){ (pteval_t)(x) })

#if PGTABLE_LEVELS == 3
typedef struct { pteval_t pmd; } pmd_t;
#define pmd_val(x)	((x).pmd)
#define __pmd(x)	((pmd_t){ (pteval_t)(x) })
#else
#include "tinymm/pgtable-nopmd.h"
#endif

/* The kernel's root table, in the image (arch/riscv/pgtable.c). */
extern pgd_t swapper_pg_dir[PTRS_PER_PGD];

/* satp points at swapper_pg_dir (paging_init switched from entry.S's boot table). */
extern bool riscv_paging_final;
static inline bool arch_has_live_kernel_tables(void) { return riscv_paging_final; }

/* The boot CPU's riscv,isa names Svpbmt (arch/riscv/pgtable.c, from the device tree). */
extern bool riscv_has_svpbmt;

/* Does the CPU honour pgprot_noncached()/pgprot_writecombine()?  Callers must refuse if not. */
static inline bool riscv_pbmt_supported(void)
{
	return PGTABLE_LEVELS == 3 && riscv_has_svpbmt;
}

#define _PAGE_KERNEL_BASE	(_PAGE_PRESENT | _PAGE_READ | _PAGE_GLOBAL | _PAGE_ACCESSED | _PAGE_DIRTY)
#define PAGE_KERNEL		__pgprot(_PAGE_KERNEL_BASE | _PAGE_WRITE)
#define PAGE_KERNEL_RO		__pgprot(_PAGE_KERNEL_BASE)
#define PAGE_KERNEL_EXEC	__pgprot(_PAGE_KERNEL_BASE | _PAGE_EXEC)

/* ioremap(): PBMT IO where the CPU has Svpbmt, else the PMA decides (device ranges are I/O). */
#define PAGE_KERNEL_IO		__pgprot(pgprot_val(PAGE_KERNEL) | \
					 (riscv_pbmt_supported() ? _PAGE_IO_SVPBMT : 0))

/*
 * User space (mm/memory.c): the pgd entries below USER_PTRS_PER_PGD are each mm's own (Sv39:
 * the positive half, 256 GiB; Sv32: below the 2 GiB direct map); pgd_alloc() copies the rest
 * from swapper_pg_dir.  User entries are V A U and not G (v6.10's _PAGE_BASE): A is set, D only
 * when the kernel makes a page writable, so a core without hardware A/D updating takes no
 * fault on a first read.  W without R is reserved, so a private writable area maps read-only
 * (PAGE_COPY) and the fault path copies or reuses the page on the first write.
 * PAGE_NONE is V R A without U: present for the kernel's walkers, no access from U-mode (v6.10
 * clears V and keeps _PAGE_PROT_NONE in a software bit instead; tinymm keeps pte_present()
 * a plain V test).
 * The table is v6.10's protection_map (arch/riscv/mm/init.c), indexed by VM_READ | VM_WRITE |
 * VM_EXEC | VM_SHARED (1, 2, 4, 8): mm/memory.c's vm_get_page_prot().
 */
#define USER_PTRS_PER_PGD	(PGTABLE_LEVELS == 3 ? 256 : 512)
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

/*
 * Sv32 has no PBMT field: the request is kept in a software bit (RSW bit 8, which the walker
 * ignores) so that mm/vmalloc.c sees it and refuses, as it refuses PBMT on an Sv39 CPU without
 * Svpbmt; no pte ever holds it.
 */
#define _PAGE_NC_REQUEST	(PGTABLE_LEVELS == 2 ? (pteval_t)1 << 8 : (pteval_t)0)

static inline pgprot_t pgprot_noncached(pgprot_t p)
{
	return __pgprot((pgprot_val(p) & ~(pteval_t)_PAGE_MTMASK_SVPBMT) | _PAGE_IO_SVPBMT |
			_PAGE_NC_REQUEST);
}

static inline pgprot_t pgprot_writecombine(pgprot_t p)
{
	return __pgprot((pgprot_val(p) & ~(pteval_t)_PAGE_MTMASK_SVPBMT) | _PAGE_NOCACHE_SVPBMT |
			_PAGE_NC_REQUEST);
}

/* dma_alloc_coherent() for a non-coherent device: PBMT NC, as v6.10's (pgprot_writecombine);
 * refused by mm/vmalloc.c where the CPU has no Svpbmt (v6.10 also knows T-Head's XTheadMae,
 * which no board tinymm runs on has). */
static inline pgprot_t pgprot_dmacoherent(pgprot_t p)
{
	return pgprot_writecombine(p);
}

/* Does @p ask for a non-cacheable type?  Can this CPU give one? (include/tinymm/pgtable.h) */
static inline bool pgprot_noncacheable(pgprot_t p)
{
	return (pgprot_val(p) & ((pteval_t)_PAGE_MTMASK_SVPBMT | _PAGE_NC_REQUEST)) != 0;
}
static inline bool arch_noncached_supported(void) { return riscv_pbmt_supported(); }

static inline pteval_t __riscv_pfn_bits(unsigned long pfn)
{
	return ((pteval_t)pfn << _PAGE_PFN_SHIFT) & (pteval_t)_PAGE_PFN_MASK;
}

static inline unsigned long __riscv_bits_pfn(pteval_t v)
{
	return (unsigned long)((v & (pteval_t)_PAGE_PFN_MASK) >> _PAGE_PFN_SHIFT);
}

/* The kernel address of the table an entry points to: its frame in the direct map. */
static inline unsigned long __riscv_table_vaddr(pteval_t v)
{
	return (unsigned long)(uintptr_t)__va((phys_addr_t)__riscv_bits_pfn(v) << 12);
}

/* ---- TLB (sfence.vma: rs1 an address or zero for all; rs2 zero for every ASID) ---- */
static inline void local_flush_tlb_all(void)
{
	__asm__ __volatile__("sfence.vma" ::: "memory");
}

static inline void local_flush_tlb_page(unsigned long addr)
{
	__asm__ __volatile__("sfence.vma %0" : : "r"(addr) : "memory");
}

/* A kernel range, on every online hart (arch/riscv/context.c: the shootdown).  Past 64 pages
 * one full flush is cheaper (Linux's ceiling too). */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);
/* The debug switch that turns the shootdown off (tinymm.tlb_shootdown=0), so a test can show
 * what a stale TLB entry on another hart does; true otherwise. */
extern bool riscv_tlb_shootdown;

/*
 * A user page or range: by the area's mm's ASID when the hart has ASIDs (arch/riscv/context.c),
 * else, or without an area (@vma NULL: a kernel address, or mm/'s table frees and zaps), the
 * addresses for every ASID.  flush_tlb_mm(): all of an mm's entries.
 */
void flush_tlb_page(struct vm_area_struct *vma, unsigned long addr);
#define __HAVE_ARCH_FLUSH_TLB_RANGE
void flush_tlb_range(struct vm_area_struct *vma, unsigned long start, unsigned long end);
void flush_tlb_mm(struct mm_struct *mm);

/* ---- pte ---- */
static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot)
{
	return __pte(__riscv_pfn_bits(pfn) | pgprot_val(prot));
}
static inline unsigned long pte_pfn(pte_t pte) { return __riscv_bits_pfn(pte_val(pte)); }
static inline pgprot_t pte_pgprot(pte_t pte) { return __pgprot(pte_val(pte) & ~(pteval_t)_PAGE_PFN_MASK); }
static inline int pte_none(pte_t pte) { return pte_val(pte) == 0; }
static inline int pte_present(pte_t pte) { return (pte_val(pte) & _PAGE_PRESENT) != 0; }
/*
 * A non-present pte that is not none holds a swap-format entry (v6.10's layout, which tinymm
 * uses only for hwpoison entries: include/tinymm/swapops.h): V (bit 0) and bit 5 clear, the
 * type in bits 11:7, the offset (a pfn) from bit 12.  The hardware ignores every other bit of
 * an entry without V, so a touch faults.
 */
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

/* set_pte_at()'s cache hook for a present user pte (arch/riscv/cacheflush.c): v6.10's
 * __set_pte_at calls flush_icache_pte for a present executable pte. */
struct mm_struct;
void flush_icache_pte(struct mm_struct *mm, pte_t pte);
static inline void arch_sync_icache_dcache(struct mm_struct *mm, pte_t pte)
{
	if (unlikely((pte_val(pte) & (_PAGE_PRESENT | _PAGE_USER | _PAGE_EXEC)) ==
		     (_PAGE_PRESENT | _PAGE_USER | _PAGE_EXEC)))
		flush_icache_pte(mm, pte);
}

/* The store the walker sees; a valid entry is fenced in (the header says why). */
static inline void set_pte(pte_t *ptep, pte_t pte)
{
	*(volatile pteval_t *)&ptep->pte = pte_val(pte);
	if (pte_val(pte) & _PAGE_PRESENT)
		local_flush_tlb_all();
}

/* The hardware may set A/D meanwhile: one atomic AND keeps a D set under us (Linux's).  A
 * user pte's lock is held (tinymm/pgtable.h, "The accessed bit"). */
#define __HAVE_ARCH_PTEP_TEST_AND_CLEAR_YOUNG
void vma_assert_pte_locked(struct vm_area_struct *vma);
static inline int ptep_test_and_clear_young(struct vm_area_struct *vma, unsigned long addr,
					    pte_t *ptep)
{
	(void)addr;
	vma_assert_pte_locked(vma);
	return (__atomic_fetch_and(&ptep->pte, ~(pteval_t)_PAGE_ACCESSED, __ATOMIC_RELAXED) &
		_PAGE_ACCESSED) != 0;
}

/* ---- pmd: a pointer to a pte table, or a megapage ---- */
static inline int pmd_none(pmd_t pmd) { return pmd_val(pmd) == 0; }
static inline int pmd_present(pmd_t pmd) { return (pmd_val(pmd) & _PAGE_PRESENT) != 0; }
static inline int pmd_leaf(pmd_t pmd) { return pmd_present(pmd) && (pmd_val(pmd) & _PAGE_LEAF); }
static inline int pmd_bad(pmd_t pmd) { return !pmd_none(pmd) && !pmd_present(pmd); }
static inline unsigned long pmd_pfn(pmd_t pmd) { return __riscv_bits_pfn(pmd_val(pmd)); }
static inline pmd_t pfn_pmd(unsigned long pfn, pgprot_t prot)
{
	return __pmd(__riscv_pfn_bits(pfn) | pgprot_val(prot));
}
static inline pgprot_t pmd_pgprot(pmd_t pmd) { return __pgprot(pmd_val(pmd) & ~(pteval_t)_PAGE_PFN_MASK); }
static inline unsigned long pmd_page_vaddr(pmd_t pmd) { return __riscv_table_vaddr(pmd_val(pmd)); }
/* A new table pointer must be fenced in like a new leaf. */
static inline void set_pmd(pmd_t *pmdp, pmd_t pmd)
{
	*(volatile pteval_t *)pmdp = pmd_val(pmd);
	if (pmd_val(pmd) & _PAGE_PRESENT)
		local_flush_tlb_all();
}
static inline void pmd_clear(pmd_t *pmdp) { set_pmd(pmdp, __pmd(0)); }
#define pmd_populate_kernel(mm, pmdp, ptep)						\
	set_pmd((pmdp), __pmd(__riscv_pfn_bits((unsigned long)(__pa(ptep) >> 12)) | _PAGE_TABLE))

/* ---- pgd (Sv39: a pointer to a pmd table) ---- */
#if PGTABLE_LEVELS == 3
static inline int pgd_none(pgd_t pgd) { return pgd_val(pgd) == 0; }
static inline int pgd_present(pgd_t pgd) { return (pgd_val(pgd) & _PAGE_PRESENT) != 0; }
static inline int pgd_bad(pgd_t pgd)
{
	return !pgd_none(pgd) && (pgd_val(pgd) & (_PAGE_LEAF | _PAGE_PRESENT)) != _PAGE_PRESENT;
}
static inline unsigned long pgd_page_vaddr(pgd_t pgd) { return __riscv_table_vaddr(pgd_val(pgd)); }
static inline void pgd_clear(pgd_t *pgdp) { *(volatile pteval_t *)&pgdp->pgd = 0; }
static inline void __riscv_set_pgd(pgd_t *pgdp, pteval_t v)
{
	*(volatile pteval_t *)&pgdp->pgd = v;
	local_flush_tlb_all();
}
#define pgd_populate(mm, pgdp, pmdp)							\
	__riscv_set_pgd((pgdp), __riscv_pfn_bits((unsigned long)(__pa(pmdp) >> 12)) | _PAGE_TABLE)
#endif

/* satp for a root table at kernel address @pgd, ASID 0 (switch_mm adds a user mm's ASID:
 * arch/riscv/context.c). */
static inline unsigned long riscv_satp_for(const pgd_t *pgd)
{
	return SATP_MODE | ((unsigned long)(__pa(pgd) >> 12) & SATP_PPN);
}

#endif
