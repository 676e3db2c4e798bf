/*
 * pgtable.h - the portable page-table interface: what mm/ uses to build and read page tables
 * with no architecture #ifdef.  Linux v6.10's names (include/linux/pgtable.h and the arch
 * headers behind it); the layout of an entry is the architecture's, in <asm/pgtable.h>.
 *
 * Levels.  tinymm's walkers go pgd -> pmd -> pte.  An architecture with three levels (ARM LPAE,
 * RV64 Sv39) has real pmd tables; one with two (RV32 Sv32) includes <tinymm/pgtable-nopmd.h>,
 * which folds the pmd into the pgd as v6.10's asm-generic/pgtable-nopmd.h does: a pmd_t is the
 * pgd entry itself, pgd_none() is always false, and a missing table shows as pmd_none().  The
 * p4d and pud levels are always folded, and unlike v6.10 they are not even named: no tinymm
 * architecture has more than three levels, and five-level walkers would only add dead code.
 *
 * Leaves.  A pte is a leaf of PAGE_SIZE.  A pmd is either a table of ptes or a leaf of PMD_SIZE
 * (pmd_leaf(): an LPAE block, an Sv39 2 MiB or Sv32 4 MiB megapage), which the direct map uses;
 * the walkers (mm/pagewalk.c) report such a leaf and never descend into it.  pgd-level leaves
 * (Sv39 gigapages, LPAE 1 GiB blocks) are not used and need not be defined.
 *
 * What <asm/pgtable.h> must define (static inline functions or macros, all of them):
 *   types and conversions   pte_t pmd_t pgd_t pgprot_t (structs, so they cannot be mixed up),
 *                           __pte() pte_val() __pmd() pmd_val() __pgd() pgd_val() __pgprot()
 *                           pgprot_val(); with two levels pmd_t comes from pgtable-nopmd.h
 *   geometry                PGTABLE_LEVELS (2 or 3), PTRS_PER_PTE, PTRS_PER_PGD, PGDIR_SHIFT,
 *                           and with three levels PTRS_PER_PMD, PMD_SHIFT
 *   kernel range            VMALLOC_START, VMALLOC_END (page-aligned unsigned long expressions;
 *                           they may be variables, as x86's KASLR vmalloc_base is), and
 *                           pgd_t swapper_pg_dir[PTRS_PER_PGD] (the kernel's root table)
 *   protections             PAGE_KERNEL (RW, NX), PAGE_KERNEL_RO, PAGE_KERNEL_EXEC (RO+X: no
 *                           kernel mapping is W+X), pgprot_noncached(p) (device: Strongly-ordered
 *                           / PBMT IO), pgprot_writecombine(p) (Normal non-cacheable / PBMT NC),
 *                           PAGE_KERNEL_IO (ioremap's: device memory, RW, never executable),
 *                           pgprot_noncacheable(p) (does @p ask for a non-cacheable type?) and
 *                           arch_noncached_supported() (can this CPU give one? mm/vmalloc.c
 *                           refuses such a mapping of RAM where it cannot)
 *   pte                     pfn_pte(pfn, prot), pte_pfn(), pte_none(), pte_present(),
 *                           pte_write(), pte_exec(), pte_young(), pte_mkyoung(), pte_mkold(),
 *                           pte_dirty(), pte_mkdirty(), pte_mkclean(), pte_wrprotect(),
 *                           pte_mkwrite_novma(), pte_mkexec() / pte_mknexec() (kernel-executable
 *                           or not; ARM's names), pte_pgprot()
 *   pmd (the table level    pmd_none(), pmd_present(), pmd_leaf(), pmd_bad() (neither table nor
 *   above the ptes)           leaf), pmd_pfn() (a leaf's first frame), pfn_pmd(pfn, prot) (a leaf),
 *                           pmd_page_vaddr() (a table's kernel address), set_pmd(), pmd_clear(),
 *                           pmd_populate_kernel(mm, pmdp, ptep)
 *   pgd (three levels only) pgd_none(), pgd_present(), pgd_bad(), pgd_page_vaddr(), pgd_clear(),
 *                           pgd_populate(mm, pgdp, pmdp)
 *   optional                ptep_test_and_clear_young() with __HAVE_ARCH_PTEP_TEST_AND_CLEAR_YOUNG
 *                           (below: needed where the hardware sets A/D bits)
 *   state                   arch_has_live_kernel_tables(): true once the CPU translates through
 *                           swapper_pg_dir (after paging_init()'s switch), so mark_rodata_ro()
 *                           knows whether a protection would hold
 *   user space              USER_PTRS_PER_PGD (the root entries below it are each mm's own,
 *                           the rest copied from swapper_pg_dir by pgd_alloc()), PAGE_NONE,
 *                           PAGE_COPY, PAGE_SHARED and ARCH_PROTECTION_MAP: v6.10's
 *                           protection_map[16] as an initializer of pgprot_t, indexed by
 *                           VM_READ | VM_WRITE | VM_EXEC | VM_SHARED (mm/memory.c)
 *   hooks                   set_pte(ptep, pte) (the store the hardware walker sees, with any
 *                           barrier it needs), flush_tlb_page(vma, addr) (vma may be NULL: a
 *                           kernel address), flush_tlb_kernel_range(start, end)
 * Everything below is built from those.
 *
 * Locking.  Kernel page tables are shared by every CPU: a table is populated, and an empty one
 * freed, under init_mm.page_table_lock (mm/pagewalk.c).  Entries below a table are owned by
 * whoever owns the virtual range (a vmalloc area's owner), as in v6.10.
 *
 * Differences from v6.10: no p4d/pud (above); set_pte_at() and ptep_get() are generic here (v6.10
 * lets an architecture override them; none of tinymm's needs to); pte_mkwrite() keeps v6.10's
 * (pte, vma) signature and is pte_mkwrite_novma() (no shadow stacks); struct mm_struct holds
 * the root table, its lock and the areas (include/linux/mm_types.h has the rest).
 */
#ifndef TINYMM_PGTABLE_H
#define TINYMM_PGTABLE_H

#include "atomic.h"
#include "gfp.h"
#include "kernel.h"
#include "mutex.h"
#include "smp.h"
#include "spinlock.h"

struct mm_struct;
struct vm_area_struct;

#include <asm/pgtable.h>

/* v6.10's kinds of resident page (include/linux/mm_types_task.h), the index of rss_stat[]:
 * tinymm has no swap and no shmem yet, so those two stay 0. */
enum {
	MM_FILEPAGES,	/* page-cache folios mapped */
	MM_ANONPAGES,	/* anonymous folios mapped */
	MM_SWAPENTS,	/* swap entries in ptes */
	MM_SHMEMPAGES,	/* shmem folios mapped */
	NR_MM_COUNTERS
};

#if PGTABLE_LEVELS != 2 && PGTABLE_LEVELS != 3
#error "PGTABLE_LEVELS must be 2 or 3"
#endif

/*
 * Linux's struct mm_struct, reduced: the page-table root and the lock that guards the tables,
 * and the address space's areas (mm/mmap.c, include/tinymm/mmap.h) with its layout.
 */
struct mm_struct {
	pgd_t *pgd;
	spinlock_t page_table_lock;	/* populating and freeing tables (not the entries in them) */
	struct mutex mmap_lock;		/* the areas and the layout below (v6.10: an rwsem) */
	struct vm_area_struct **vmas;	/* by address, no overlaps: a sorted array (mm/mmap.c) */
	int map_count, vmas_capacity;
	unsigned long task_size;	/* user space is [0, task_size) */
	unsigned long mmap_base;	/* get_unmapped_area() searches down from here */
	unsigned long start_brk, brk;	/* the heap: [start_brk, brk) */
	unsigned long start_stack;	/* the initial stack pointer (exec; `maps` names [stack]) */
	struct file *exe_file;		/* the program (exec): open while the mm lives, for its
					 * file-backed areas, whose vm_file holds no reference */
	unsigned long total_vm;		/* pages in all areas */
	unsigned long locked_vm;	/* pages in VM_LOCKED areas (mm/mlock_sys.c) */
	unsigned long def_flags;	/* added to every new area: mlockall(MCL_FUTURE)'s VM_LOCKED */
	atomic_t mm_users;		/* references (kernel/fork.c: mmget/mmput) */
	unsigned long context_id;	/* the architecture's (ASID and generation), 0 when new */
	/* mm_cpumask(): the CPUs whose TLBs may hold entries of this mm, so whose TLBs a flush
	 * must reach (set by the architecture's switch_mm; cleared there only where the switch
	 * flushes, RISC-V without ASIDs: with ASIDs a CPU keeps tagged entries), and, on
	 * RISC-V, the CPUs that owe a FENCE.I before they next run it (v6.10's
	 * mm->context.icache_stale_mask, arch/riscv/cacheflush.c).  Atomic bit operations. */
	struct cpumask cpu_bitmap;
	struct cpumask icache_stale_mask;
	/* v6.10's rss_stat and pgtables_bytes, what the OOM killer weighs (mm/oom_kill.c): the
	 * pages mapped by present ptes, by kind, and the bytes of pte and pmd tables (the root is
	 * not counted, as in v6.10).  Changed only under page_table_lock, where the pte is set or
	 * cleared (v6.10 keeps per-CPU counters; one lock is enough here); read unlocked, as a
	 * hint.  All zero when exit_mmap() is done (mmput's check_mm says so if not). */
	long rss_stat[NR_MM_COUNTERS];
	long pgtables_bytes;
};
#define mm_cpumask(mm)	(&(mm)->cpu_bitmap)
extern struct mm_struct init_mm;	/* the kernel's: pgd is swapper_pg_dir (mm/pagewalk.c) */

static inline void add_mm_counter(struct mm_struct *mm, int member, long value)
{
	WRITE_ONCE(mm->rss_stat[member], mm->rss_stat[member] + value);
}

static inline long get_mm_counter(const struct mm_struct *mm, int member)
{
	return READ_ONCE(mm->rss_stat[member]);
}

/* v6.10's add_mm_rss_vec(): a table's worth of changes counted at once (page_table_lock held). */
static inline void add_mm_rss_vec(struct mm_struct *mm, const int *rss)
{
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		if (rss[i])
			add_mm_counter(mm, i, rss[i]);
}

/* v6.10's get_mm_rss(): every page the mm maps, of any kind. */
static inline unsigned long get_mm_rss(const struct mm_struct *mm)
{
	return (unsigned long)(get_mm_counter(mm, MM_FILEPAGES) + get_mm_counter(mm, MM_ANONPAGES) +
			       get_mm_counter(mm, MM_SHMEMPAGES));
}

static inline void mm_inc_nr_ptes(struct mm_struct *mm)
{
	WRITE_ONCE(mm->pgtables_bytes, mm->pgtables_bytes + (long)PAGE_SIZE);
}

static inline void mm_dec_nr_ptes(struct mm_struct *mm)
{
	WRITE_ONCE(mm->pgtables_bytes, mm->pgtables_bytes - (long)PAGE_SIZE);
}

static inline unsigned long mm_pgtables_bytes(const struct mm_struct *mm)
{
	return (unsigned long)READ_ONCE(mm->pgtables_bytes);
}

#define PGDIR_SIZE	(1UL << PGDIR_SHIFT)
/* User space is [0, TASK_SIZE): the root entries each mm owns (ARM and RV32: 2 GiB, Sv39's
 * positive half: 256 GiB). */
#define TASK_SIZE	((unsigned long)USER_PTRS_PER_PGD * PGDIR_SIZE)
#define PGDIR_MASK	(~(PGDIR_SIZE - 1))
#define PMD_SIZE	(1UL << PMD_SHIFT)
#define PMD_MASK	(~(PMD_SIZE - 1))
#define PAGE_MASK	(~(PAGE_SIZE - 1))

static inline unsigned long pte_index(unsigned long addr)
{
	return (addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1);
}

static inline unsigned long pmd_index(unsigned long addr)
{
	return (addr >> PMD_SHIFT) & (PTRS_PER_PMD - 1);
}

static inline unsigned long pgd_index(unsigned long addr)
{
	return (addr >> PGDIR_SHIFT) & (PTRS_PER_PGD - 1);
}

/* The entry of @mm's root table for @addr; pgd_offset_k() for the kernel's. */
static inline pgd_t *pgd_offset(struct mm_struct *mm, unsigned long addr)
{
	return mm->pgd + pgd_index(addr);
}
#define pgd_offset_k(addr)	pgd_offset(&init_mm, (addr))

#if PGTABLE_LEVELS == 3
static inline pmd_t *pmd_offset(pgd_t *pgd, unsigned long addr)
{
	return (pmd_t *)pgd_page_vaddr(*pgd) + pmd_index(addr);
}
#endif

static inline pte_t *pte_offset_kernel(pmd_t *pmd, unsigned long addr)
{
	return (pte_t *)pmd_page_vaddr(*pmd) + pte_index(addr);
}

/* The end of the entry covering @addr, or @end if that comes first (Linux, overflow-safe). */
static inline unsigned long pgd_addr_end(unsigned long addr, unsigned long end)
{
	unsigned long boundary = (addr + PGDIR_SIZE) & PGDIR_MASK;

	return boundary - 1 < end - 1 ? boundary : end;
}

static inline unsigned long pmd_addr_end(unsigned long addr, unsigned long end)
{
	unsigned long boundary = (addr + PMD_SIZE) & PMD_MASK;

	return boundary - 1 < end - 1 ? boundary : end;
}

/* A snapshot of one entry: the hardware may set A/D bits under us (Linux's ptep_get). */
static inline pte_t ptep_get(pte_t *ptep)
{
	return READ_ONCE(*ptep);
}

static inline pmd_t pmdp_get(pmd_t *pmdp)
{
	return READ_ONCE(*pmdp);
}

/* Install @pte at @ptep, which maps @addr in @mm.  No TLB flush: an entry that was not present
 * cannot be cached (Linux's rule, kept by every tinymm architecture); changing a present entry
 * needs a flush by the caller.  A present executable user pte first goes through the
 * architecture's cache hook (asm/pgtable.h: arch_sync_icache_dcache, PG_dcache_clean's rule:
 * docs/cacheflush.md), as v6.10's set_ptes does on ARM and RISC-V; the hook itself picks those
 * ptes out by their bits (present, user, executable) in one compare. */
static inline void set_pte_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t pte)
{
	(void)addr;
	arch_sync_icache_dcache(mm, pte);	/* tests its bits itself: one compare */
	set_pte(ptep, pte);
}

static inline void pte_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	set_pte_at(mm, addr, ptep, __pte(0));
}

/*
 * The accessed ("young") bit (docs/young.md).  pte_young()/pte_mkyoung()/pte_mkold() are the
 * architecture's: RISC-V's A bit, which QEMU's harts set themselves; ARM LPAE's AF, which no
 * ARMv7 hardware sets: an access through an entry without it takes an Access flag fault, and
 * the fault core (handle_mm_fault's last step) or mm/kernel_fault.c makes the entry young.
 *
 * Locking: for a user pte (@vma not NULL) the caller holds @vma's mm->page_table_lock, checked
 * by vma_assert_pte_locked(); @vma is NULL only for a kernel pte, whose owner serialises.
 * A kernel mapping of a user page (the direct map) is never made old: only the user pte.
 */
void vma_assert_pte_locked(struct vm_area_struct *vma);

/*
 * Clear the accessed bit; true if it was set.  The caller flushes the TLB if it needs the next
 * access to be seen (ptep_clear_flush_young does both).  This generic one is a plain
 * read-modify-write, as v6.10's: an architecture whose hardware sets A/D bits in the entry
 * (QEMU's RISC-V, ARM with DBM) defines __HAVE_ARCH_PTEP_TEST_AND_CLEAR_YOUNG and an atomic
 * one, as Linux's riscv and arm64 do, or a D bit set meanwhile is lost.
 */
#ifndef __HAVE_ARCH_PTEP_TEST_AND_CLEAR_YOUNG
static inline int ptep_test_and_clear_young(struct vm_area_struct *vma, unsigned long addr,
					    pte_t *ptep)
{
	pte_t pte = ptep_get(ptep);

	(void)addr;
	vma_assert_pte_locked(vma);
	if (!pte_young(pte))
		return 0;
	set_pte(ptep, pte_mkold(pte));
	return 1;
}
#endif

/*
 * v6.10's mm/pgtable-generic.c: clear the accessed bit and, if it was set, flush @address's TLB
 * entry (every tinymm architecture's flush_tlb_page), so that the next access through the pte
 * is seen: set again by the hardware or by the fault it takes.  True if it was set.  @vma is
 * the user area that maps @address (its mm's page_table_lock held, checked).  v6.10's riscv
 * and x86 skip the flush (a stale TLB entry only delays the next set); tinymm flushes
 * everywhere so that "young after ptep_clear_flush_young" always means "accessed since".
 */
int ptep_clear_flush_young(struct vm_area_struct *vma, unsigned long address, pte_t *ptep);

#define pte_mkwrite(pte, vma)	((void)(vma), pte_mkwrite_novma(pte))

/* A user range's TLB entries (v6.10's flush_tlb_range): every tinymm architecture flushes by
 * address for every ASID, so the kernel range's flush does it unless the arch says otherwise. */
#ifndef __HAVE_ARCH_FLUSH_TLB_RANGE
#define flush_tlb_range(vma, start, end)	((void)(vma), flush_tlb_kernel_range((start), (end)))
#endif

/* ---- page-table frames and the walkers (mm/pagewalk.c) ---- */
struct page;

/*
 * Linux's pagetable_alloc() with its ctor (pagetable_pte_ctor/pagetable_pmd_ctor): a zeroed
 * frame from the buddy allocator, typed PG_table, counted in NR_PAGETABLE.  NULL when there is
 * no memory (the allocator warns unless @gfp has __GFP_NOWARN).  pagetable_free() undoes it.
 */
struct page *pagetable_alloc(gfp_t gfp, unsigned int order);
void pagetable_free(struct page *page);
/* A user mm's root table (mm/memory.c): the user entries empty, the kernel's copied from
 * swapper_pg_dir (v6.10's pgd_alloc on riscv and ARM LPAE); NULL without memory. */
pgd_t *pgd_alloc(struct mm_struct *mm);
void pgd_free(struct mm_struct *mm, pgd_t *pgd);

/* Linux's pte_fn_t: called for one pte of apply_to_page_range(); non-zero stops the walk. */
typedef int (*pte_fn_t)(pte_t *pte, unsigned long addr, void *data);
/*
 * Call @fn on every pte of [@addr, @addr + @size) in @mm, allocating missing tables (v6.10's
 * apply_to_page_range); apply_to_existing_page_range() allocates nothing and skips the ptes
 * that are none and the ranges with no table.  0, -ENOMEM (a table could not be allocated),
 * -EINVAL (a pmd leaf is in the range: it cannot be split here; WARNING), or @fn's value.  @fn
 * runs under @mm->page_table_lock and must not sleep.  Nothing is flushed.
 */
int apply_to_page_range(struct mm_struct *mm, unsigned long addr, unsigned long size,
			pte_fn_t fn, void *data);
int apply_to_existing_page_range(struct mm_struct *mm, unsigned long addr, unsigned long size,
				 pte_fn_t fn, void *data);

/*
 * A read-only walk (Linux's walk_page_range_novma, ptdump's): for every pmd that is present,
 * leaf or table, pmd_entry; then, for a table, pte_entry on every pte of it; pte_hole for every
 * range with no table, with Linux's depth (0 pgd, 3 pmd; a folded level never has a hole).
 * Any callback may be NULL; a non-zero return stops the walk and is returned.
 */
struct mm_walk;
struct mm_walk_ops {
	int (*pmd_entry)(pmd_t *pmd, unsigned long addr, unsigned long next, struct mm_walk *walk);
	int (*pte_entry)(pte_t *pte, unsigned long addr, unsigned long next, struct mm_walk *walk);
	int (*pte_hole)(unsigned long addr, unsigned long next, int depth, struct mm_walk *walk);
};
struct mm_walk {
	const struct mm_walk_ops *ops;
	struct mm_struct *mm;
	pgd_t *pgd;
	void *private;
};
int walk_page_range_novma(struct mm_struct *mm, unsigned long start, unsigned long end,
			  const struct mm_walk_ops *ops, pgd_t *pgd, void *private);

/*
 * The kernel's own mappings, for vmalloc (Linux: mm/vmalloc.c's vmap_pages_range and
 * vunmap_range).  vmap_pages_range() maps @pages, one per PAGE_SIZE, at [@addr, @end) with
 * @prot: 0 or -ENOMEM (what was mapped stays mapped: the caller unmaps the range), -EBUSY
 * (WARNING) if a pte there is already present.  vunmap_range() clears every pte of the range,
 * flushes the TLB for it, then frees the tables that became empty (pagewalk.c says which).
 */
int vmap_pages_range(unsigned long addr, unsigned long end, pgprot_t prot, struct page **pages);
void vunmap_range(unsigned long addr, unsigned long end);
/*
 * The kernel's final tables (mm/kernel_map.c), built by the architecture's paging_init() before
 * it switches to them: map_kernel_direct() maps all RAM at __va() with the image W^X;
 * map_kernel_fixmap() links the architecture's static fixmap pte table (FIXADDR_START).
 * 0 or -ENOMEM.
 */
int map_kernel_direct(void);
/* A fault on a kernel address whose pte permits the access but is old (or clean, for a write):
 * made young (and dirty), true, and the trap handler retries the access (mm/kernel_fault.c). */
bool kernel_access_fault(unsigned long addr, bool write, bool exec);
extern unsigned long nr_kernel_access_faults;	/* how many it resolved */
int map_kernel_fixmap(pte_t *fixmap_pte);
extern pte_t fixmap_pte[PTRS_PER_PTE];

/* The pte for @addr below the root entry @pgd, or NULL where no pte table is (none, bad, or a
 * block mapping above it).  mm/pagewalk.c. */
pte_t *pte_lookup(pgd_t *pgd, unsigned long addr);
/* The pte mapping kernel address @addr, or NULL (no table, or a pmd leaf maps it). */
pte_t *virt_to_kpte(unsigned long addr);

#endif
