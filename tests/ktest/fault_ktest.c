/*
 * fault_ktest.c - the page-fault core (mm/memory.c, mm/rmap.c, mm/mprotect.c, filemap_fault):
 * suite `fault`, every board, and on the host through tests/host/fault_test.c.  Each case
 * builds a private user mm with its own root table (never loaded into the MMU: the cases call
 * handle_mm_fault() directly and read the ptes through a walk of that mm), and frees it with
 * exit_mmap() after, checking that the page tables, AnonPages, Mapped and the free memory are
 * back where they were before the mm existed and that no WARNING was printed meanwhile:
 *   - anonymous read and write faults: a zeroed folio, PG_swapbacked, PG_anon_exclusive, the
 *     anon mapping and index, mapcount 1, one reference, on the anon LRU, KPF_MMAP|KPF_ANON,
 *     AnonPages and pgfault counted, a second fault adding nothing;
 *   - permissions: VM_FAULT_SIGSEGV for a write to a read-only area, an instruction fetch from
 *     a non-executable one, any access to PROT_NONE or outside the area; a read-only area's
 *     page mapped read-only;
 *   - mprotect down and up re-protects the ptes; a write to an exclusive anonymous page
 *     mapped read-only reuses it in place;
 *   - munmap of a range crossing a page-table boundary gives every page and table back;
 *   - a ramfs file mapped private: a read fault maps the page-cache folio itself (minor), a
 *     hole is a major fault (readahead), a page past EOF is VM_FAULT_SIGBUS, a write fault
 *     copies (COW) and leaves the page-cache folio's bytes and mapcount unchanged, a write to
 *     a read-mapped file page replaces it with a copy, and Mapped follows.
 */
#include <string.h>
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/kernel-page-flags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"

#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define MAY		(VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define RW		(VM_READ | VM_WRITE | MAY)
#define RO		(VM_READ | MAY)
/* Areas start here: far from 0, well inside every board's TASK_SIZE (2 GiB at least). */
#define KT_BASE		(256UL << 20)
#define KT_DIR		"/fault_kt"

static struct mm_struct kt_mm;

/* What must come back when the mm is gone. */
static struct {
	unsigned long free_and_slab, pagetables, anon, mapped, warnings;
} kt_before;

/* Free memory as a leak check sees it: the folios waiting in the LRU batch released first,
 * and slab and page-cache pages counted with the free ones (the areas come from kmalloc,
 * whose slabs may stay allocated; a fault may read a file page into the cache, which keeps
 * it until the file goes). */
static unsigned long free_and_slab(void)
{
	lru_add_drain();
	return nr_free_pages_and_pcp() + slab_pages_reclaimable() + slab_pages_unreclaimable() +
	       global_node_page_state(NR_FILE_PAGES);
}

static void kt_snapshot(void)
{
	kt_before.free_and_slab = free_and_slab();
	kt_before.pagetables = global_node_page_state(NR_PAGETABLE);
	kt_before.anon = global_node_page_state(NR_ANON_MAPPED);
	kt_before.mapped = global_node_page_state(NR_FILE_MAPPED);
	kt_before.warnings = nr_warnings();
}

static bool kt_setup(struct ktest *t)
{
	kt_snapshot();
	mm_init_vmas(&kt_mm, TASK_SIZE, TASK_SIZE / 2);
	KTEST_EXPECT_EQ(t, mm_alloc_pgd(&kt_mm), 0);
	if (!kt_mm.pgd)
		return false;
	mutex_lock(&kt_mm.mmap_lock);
	return true;
}

static void kt_teardown(struct ktest *t)
{
	mutex_unlock(&kt_mm.mmap_lock);
	exit_mmap(&kt_mm);
	KTEST_EXPECT_TRUE(t, kt_mm.pgd == NULL);
	KTEST_EXPECT_EQ(t, mm_pgtables_bytes(&kt_mm), 0UL);	/* check_mm's rule */
	KTEST_EXPECT_EQ(t, get_mm_rss(&kt_mm), 0UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), kt_before.pagetables);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), kt_before.anon);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), kt_before.mapped);
	KTEST_EXPECT_EQ(t, free_and_slab(), kt_before.free_and_slab);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, nr_warnings(), kt_before.warnings);	/* no WARNING on the way */
}

static struct vm_area_struct *map(unsigned long addr, unsigned long pages, unsigned long flags,
				  struct file *file, unsigned long pgoff)
{
	if (mmap_region(&kt_mm, addr, P(pages), flags, file, pgoff) != (long)addr)
		return NULL;
	return vma_lookup(&kt_mm, addr);
}

/* ---- the ptes, read through a walk of the test mm ---- */
struct pte_seen {
	unsigned long addr;		/* the one we look for */
	pte_t pte;			/* its entry, 0 if none */
	unsigned long present;		/* present ptes in the walked range */
};

static int seen_pte(pte_t *pte, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct pte_seen *s = walk->private;
	pte_t v = ptep_get(pte);

	(void)next;
	if (pte_present(v))
		s->present++;
	if (addr == s->addr)
		s->pte = v;
	return 0;
}

static const struct mm_walk_ops seen_ops = { .pte_entry = seen_pte };

/* The pte at @addr; *@present gets the number of present ptes in [start, end). */
static pte_t walk_pte(unsigned long addr, unsigned long start, unsigned long end,
		      unsigned long *present)
{
	struct pte_seen s = { .addr = addr };

	walk_page_range_novma(&kt_mm, start, end, &seen_ops, kt_mm.pgd, &s);
	if (present)
		*present = s.present;
	return s.pte;
}

static struct folio *pte_folio(pte_t pte)
{
	return pte_present(pte) ? page_folio(pfn_to_page(pte_pfn(pte))) : NULL;
}

static bool page_is_zero(struct folio *folio)
{
	const unsigned char *p = page_address(&folio->page);

	for (unsigned long i = 0; i < PAGE_SIZE; i++)
		if (p[i])
			return false;
	return true;
}

/* ---- anonymous memory ---- */

static void anon_faults(struct ktest *t)
{
	if (!kt_setup(t))
		return;
	struct vm_area_struct *vma = map(KT_BASE, 4, RW, NULL, 0);
	KTEST_ASSERT_TRUE(t, vma != NULL);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);
	unsigned long faults0 = global_vm_event(PGFAULT), present;

	/* A read: a zeroed page, mapped writable at once (the area is writable and the page
	 * is this mm's alone, as v6.10's do_anonymous_page). */
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + 5, FAULT_FLAG_USER), 0U);
	pte_t pte = walk_pte(KT_BASE, KT_BASE, KT_BASE + P(4), &present);
	KTEST_ASSERT_TRUE(t, pte_present(pte));
	KTEST_EXPECT_EQ(t, present, 1UL);
	KTEST_EXPECT_TRUE(t, pte_write(pte));
	KTEST_EXPECT_TRUE(t, pte_dirty(pte));
	KTEST_EXPECT_EQ(t, pgprot_val(pte_pgprot(pte_wrprotect(pte_mkclean(pte)))),
			pgprot_val(vm_get_page_prot(RW)));
	struct folio *folio = pte_folio(pte);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, page_is_zero(folio));
	KTEST_EXPECT_TRUE(t, folio_test_swapbacked(folio));
	KTEST_EXPECT_TRUE(t, PageAnonExclusive(&folio->page));
	KTEST_EXPECT_TRUE(t, folio_test_anon(folio));
	/* v6.10's identity: the area's anon_vma, made by this first anonymous fault */
	KTEST_ASSERT_TRUE(t, vma->anon_vma != NULL);
	KTEST_EXPECT_EQ(t, (unsigned long)folio->mapping, (unsigned long)vma->anon_vma | PAGE_MAPPING_ANON);
	KTEST_EXPECT_EQ(t, folio->index, KT_BASE >> PAGE_SHIFT);
	KTEST_EXPECT_EQ(t, folio_mapcount(folio), 1);
	KTEST_EXPECT_EQ(t, page_ref_count(&folio->page), 1);
	KTEST_EXPECT_TRUE(t, folio_test_lru(folio));
	KTEST_EXPECT_EQ(t, (int)folio_lru_list(folio), (int)LRU_INACTIVE_ANON);
	u64 kpf = stable_page_flags(&folio->page);
	KTEST_EXPECT_TRUE(t, kpf & (1ULL << KPF_MMAP));
	KTEST_EXPECT_TRUE(t, kpf & (1ULL << KPF_ANON));
	KTEST_EXPECT_TRUE(t, kpf & (1ULL << KPF_SWAPBACKED));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 1);
	KTEST_EXPECT_EQ(t, global_vm_event(PGFAULT), faults0 + 1);

	/* A write elsewhere: a second page; a fault on a mapped page adds nothing. */
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(3), FAULT_FLAG_WRITE | FAULT_FLAG_USER), 0U);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(3) + 8, FAULT_FLAG_WRITE), 0U);
	pte_t pte3 = walk_pte(KT_BASE + P(3), KT_BASE, KT_BASE + P(4), &present);
	KTEST_EXPECT_EQ(t, present, 2UL);
	KTEST_EXPECT_TRUE(t, pte_write(pte3));
	KTEST_EXPECT_NE(t, pte_pfn(pte3), pte_pfn(pte));
	KTEST_EXPECT_EQ(t, pte_folio(pte3)->index, (KT_BASE >> PAGE_SHIFT) + 3);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 2);
	KTEST_EXPECT_EQ(t, global_vm_event(PGFAULT), faults0 + 3);
	/* The pages are the mm's memory: what is written through the direct map stays. */
	memset(page_address(&folio->page), 0x5a, 16);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE, FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_EQ(t, pte_pfn(walk_pte(KT_BASE, KT_BASE, KT_BASE + P(1), NULL)), pte_pfn(pte));
	KTEST_EXPECT_EQ(t, ((unsigned char *)page_address(&folio->page))[15], 0x5a);
	kt_teardown(t);
}

static void permissions(struct ktest *t)
{
	if (!kt_setup(t))
		return;
	struct vm_area_struct *ro = map(KT_BASE, 2, RO, NULL, 0);
	struct vm_area_struct *none = map(KT_BASE + P(4), 2, MAY, NULL, 0);
	KTEST_ASSERT_TRUE(t, ro && none);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED), present;

	KTEST_EXPECT_EQ(t, handle_mm_fault(ro, KT_BASE, FAULT_FLAG_WRITE | FAULT_FLAG_USER),
			(unsigned int)VM_FAULT_SIGSEGV);
	KTEST_EXPECT_EQ(t, handle_mm_fault(ro, KT_BASE, FAULT_FLAG_INSTRUCTION | FAULT_FLAG_USER),
			(unsigned int)VM_FAULT_SIGSEGV);
	KTEST_EXPECT_EQ(t, handle_mm_fault(none, KT_BASE + P(4), FAULT_FLAG_USER),
			(unsigned int)VM_FAULT_SIGSEGV);
	KTEST_EXPECT_EQ(t, handle_mm_fault(ro, KT_BASE + P(2), FAULT_FLAG_USER),
			(unsigned int)VM_FAULT_SIGSEGV);	/* outside the area */
	walk_pte(KT_BASE, KT_BASE, KT_BASE + P(8), &present);
	KTEST_EXPECT_EQ(t, present, 0UL);			/* nothing mapped by a refusal */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0);

	/* A read of the read-only area maps a page read-only, and a write is still refused. */
	KTEST_EXPECT_EQ(t, handle_mm_fault(ro, KT_BASE + P(1), FAULT_FLAG_USER), 0U);
	pte_t pte = walk_pte(KT_BASE + P(1), KT_BASE, KT_BASE + P(8), &present);
	KTEST_EXPECT_EQ(t, present, 1UL);
	KTEST_EXPECT_FALSE(t, pte_write(pte));
	KTEST_EXPECT_EQ(t, handle_mm_fault(ro, KT_BASE + P(1), FAULT_FLAG_WRITE),
			(unsigned int)VM_FAULT_SIGSEGV);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 1);
	kt_teardown(t);
}

static void mprotect_and_reuse(struct ktest *t)
{
	if (!kt_setup(t))
		return;
	struct vm_area_struct *vma = map(KT_BASE, 2, RW, NULL, 0);
	KTEST_ASSERT_TRUE(t, vma != NULL);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE, FAULT_FLAG_WRITE), 0U);
	pte_t pte = walk_pte(KT_BASE, KT_BASE, KT_BASE + P(2), NULL);
	unsigned long pfn = pte_pfn(pte);
	KTEST_ASSERT_TRUE(t, pte_write(pte));

	/* Down: the pte loses write at once, keeps its page; a write is now refused. */
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&kt_mm, KT_BASE, KT_BASE + P(2), VM_READ), 0);
	vma = vma_lookup(&kt_mm, KT_BASE);
	pte = walk_pte(KT_BASE, KT_BASE, KT_BASE + P(2), NULL);
	KTEST_EXPECT_FALSE(t, pte_write(pte));
	KTEST_EXPECT_EQ(t, pte_pfn(pte), pfn);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE, FAULT_FLAG_WRITE),
			(unsigned int)VM_FAULT_SIGSEGV);
	/* None: the page stays, out of the user's reach. */
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&kt_mm, KT_BASE, KT_BASE + P(2), 0), 0);
	pte = walk_pte(KT_BASE, KT_BASE, KT_BASE + P(2), NULL);
	KTEST_EXPECT_EQ(t, pgprot_val(pte_pgprot(pte_mkclean(pte))), pgprot_val(PAGE_NONE));
	KTEST_EXPECT_EQ(t, pte_pfn(pte), pfn);
	/* Up again: the exclusive page is writable without a fault (change_protection). */
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&kt_mm, KT_BASE, KT_BASE + P(2), VM_READ | VM_WRITE), 0);
	vma = vma_lookup(&kt_mm, KT_BASE);
	pte = walk_pte(KT_BASE, KT_BASE, KT_BASE + P(2), NULL);
	KTEST_EXPECT_TRUE(t, pte_write(pte));
	KTEST_EXPECT_EQ(t, pte_pfn(pte), pfn);

	/* A write-protected pte of an exclusive anonymous page in a writable area: the write
	 * fault reuses the page (v6.10's wp_page_reuse), no copy, no new page. */
	spin_lock(&kt_mm.page_table_lock);
	pte_t *ptep = user_pte_lookup(&kt_mm, KT_BASE);
	set_pte_at(&kt_mm, KT_BASE, ptep, pte_wrprotect(ptep_get(ptep)));
	spin_unlock(&kt_mm.page_table_lock);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);
	unsigned long free0 = free_and_slab();
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + 1, FAULT_FLAG_WRITE), 0U);
	pte = walk_pte(KT_BASE, KT_BASE, KT_BASE + P(2), NULL);
	KTEST_EXPECT_TRUE(t, pte_write(pte));
	KTEST_EXPECT_EQ(t, pte_pfn(pte), pfn);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0);
	KTEST_EXPECT_EQ(t, free_and_slab(), free0);
	kt_teardown(t);
}

static void munmap_gives_back(struct ktest *t)
{
	if (!kt_setup(t))
		return;
	/* 40 pages across a pte-table boundary: two tables (and on three levels one pmd). */
	unsigned long start = ALIGN(KT_BASE, PMD_SIZE) + PMD_SIZE - P(20), present;
	unsigned long free0 = free_and_slab(), tables0 = global_node_page_state(NR_PAGETABLE);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);
	struct vm_area_struct *vma = map(start, 40, RW, NULL, 0);
	KTEST_ASSERT_TRUE(t, vma != NULL);

	for (unsigned long i = 0; i < 40; i++)
		KTEST_ASSERT_EQ(t, handle_mm_fault(vma, start + P(i), i & 1 ? FAULT_FLAG_WRITE : 0), 0U);
	walk_pte(0, start, start + P(40), &present);
	KTEST_EXPECT_EQ(t, present, 40UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 40);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE),
			tables0 + 2 + (PGTABLE_LEVELS == 3 ? 1 : 0));
	KTEST_EXPECT_LE(t, free_and_slab() + 40 + 2, free0);

	/* The first half (the whole first table): its pages and its table go. */
	KTEST_EXPECT_EQ(t, do_munmap(&kt_mm, start, P(20)), 0);
	walk_pte(0, start, start + P(40), &present);
	KTEST_EXPECT_EQ(t, present, 20UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 20);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE),
			tables0 + 1 + (PGTABLE_LEVELS == 3 ? 1 : 0));
	/* The rest: everything back, tables included. */
	KTEST_EXPECT_EQ(t, do_munmap(&kt_mm, start + P(20), P(20)), 0);
	walk_pte(0, start, start + P(40), &present);
	KTEST_EXPECT_EQ(t, present, 0UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), tables0);
	KTEST_EXPECT_EQ(t, free_and_slab(), free0);

	/* MAP_FIXED over faulted pages and a shrinking brk release them too. */
	vma = map(start, 4, RW, NULL, 0);
	KTEST_ASSERT_TRUE(t, vma != NULL);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, start, FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_TRUE(t, map(start, 4, RO, NULL, 0) != NULL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0);
	kt_mm.start_brk = kt_mm.brk = start + P(8);
	KTEST_EXPECT_EQ(t, do_brk(&kt_mm, start + P(12)), start + P(12));
	vma = vma_lookup(&kt_mm, start + P(8));
	KTEST_ASSERT_TRUE(t, vma != NULL);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, start + P(11), FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 1);
	KTEST_EXPECT_EQ(t, do_brk(&kt_mm, start + P(9)), start + P(9));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0);
	kt_teardown(t);
}

/* exit_mmap frees every table without looking inside (free_pgtables): two areas sharing a
 * table, one spanning two, one far off (on three levels under another root entry, so another
 * pmd table); teardown checks every table and page came back and pgtables_bytes is 0. */
static void exit_frees_every_table(struct ktest *t)
{
	if (!kt_setup(t))
		return;
	unsigned long a = ALIGN(KT_BASE, PMD_SIZE), b = a + PMD_SIZE - P(2);
	unsigned long far = ALIGN(a + 2 * PMD_SIZE, PGDIR_SIZE) + PGDIR_SIZE;
	struct vm_area_struct *v[4] = {
		map(a, 2, RW, NULL, 0), map(a + P(2), 2, RO, NULL, 0),	/* one table */
		map(b, 4, RW, NULL, 0),					/* two tables */
		far + P(1) <= TASK_SIZE ? map(far, 1, RW, NULL, 0) : NULL,
	};
	unsigned long tables0 = global_node_page_state(NR_PAGETABLE);

	KTEST_ASSERT_TRUE(t, v[0] && v[1] && v[2]);
	KTEST_EXPECT_EQ(t, handle_mm_fault(v[0], a, FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_EQ(t, handle_mm_fault(v[1], a + P(3), 0), 0U);
	KTEST_EXPECT_EQ(t, handle_mm_fault(v[2], b, FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_EQ(t, handle_mm_fault(v[2], b + P(3), FAULT_FLAG_WRITE), 0U);
	if (v[3])
		KTEST_EXPECT_EQ(t, handle_mm_fault(v[3], far, FAULT_FLAG_WRITE), 0U);
	/* Tables: a's, b's second; on three levels a pmd table, and one more for far. */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE) - tables0,
			2UL + (v[3] ? 1 : 0) + (PGTABLE_LEVELS == 3 ? 1 + (v[3] ? 1 : 0) : 0));
	KTEST_EXPECT_EQ(t, get_mm_rss(&kt_mm), 4UL + (v[3] ? 1 : 0));
	kt_teardown(t);
}

/* ---- a private file mapping over ramfs ---- */

static struct file *kt_file;

/* A ramfs file of 3 written pages (page n filled with 'a' + n) and 100 bytes, then truncated
 * up to 5 pages and 100 bytes: page 4 is a hole no folio backs yet. */
static bool file_setup(struct ktest *t)
{
	static unsigned char buf[3 * 4096 + 100];
	int err = vfs_mkdir(KT_DIR, 0755);

	KTEST_EXPECT_TRUE(t, err == 0 || err == -EEXIST);
	KTEST_EXPECT_EQ(t, do_mount("none", KT_DIR, "ramfs", 0), 0);
	for (unsigned long i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)('a' + i / PAGE_SIZE);
	KTEST_EXPECT_EQ(t, vfs_open(KT_DIR "/f", O_RDWR | O_CREAT, 0644, &kt_file), 0);
	if (!kt_file)
		return false;
	KTEST_EXPECT_EQ(t, vfs_write(kt_file, buf, sizeof(buf)), (long)sizeof(buf));
	KTEST_EXPECT_EQ(t, vfs_ftruncate(kt_file, (loff_t)(4 * PAGE_SIZE + 100)), 0);
	return true;
}

static void file_teardown(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, vfs_close(kt_file), 0);
	kt_file = NULL;
	KTEST_EXPECT_EQ(t, vfs_unlink(KT_DIR "/f"), 0);
	KTEST_EXPECT_EQ(t, do_umount(KT_DIR), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT_DIR), 0);
}

static void file_faults(struct ktest *t)
{
	if (!file_setup(t))
		return;
	if (!kt_setup(t))
		return;
	struct address_space *mapping = kt_file->f_inode->i_mapping;
	struct vm_area_struct *vma = map(KT_BASE, 8, RW, kt_file, 0);
	KTEST_ASSERT_TRUE(t, vma != NULL);
	struct folio *cached = filemap_get_folio(mapping, 0);
	KTEST_ASSERT_FALSE(t, IS_ERR(cached));
	int ref0 = page_ref_count(&cached->page);
	unsigned long mapped0 = global_node_page_state(NR_FILE_MAPPED);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);
	unsigned long maj0 = global_vm_event(PGMAJFAULT);

	/* A read maps the page-cache folio itself, read-only although the area is writable. */
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + 17, FAULT_FLAG_USER), 0U);
	pte_t pte = walk_pte(KT_BASE, KT_BASE, KT_BASE + P(8), NULL);
	KTEST_ASSERT_TRUE(t, pte_present(pte));
	KTEST_EXPECT_EQ(t, pte_pfn(pte), page_to_pfn(&cached->page));
	KTEST_EXPECT_FALSE(t, pte_write(pte));
	KTEST_EXPECT_EQ(t, folio_mapcount(cached), 1);
	KTEST_EXPECT_EQ(t, page_ref_count(&cached->page), ref0 + 1);
	KTEST_EXPECT_FALSE(t, folio_test_anon(cached));
	KTEST_EXPECT_TRUE(t, stable_page_flags(&cached->page) & (1ULL << KPF_MMAP));
	KTEST_EXPECT_FALSE(t, stable_page_flags(&cached->page) & (1ULL << KPF_ANON));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), mapped0 + 1);
	KTEST_EXPECT_EQ(t, global_vm_event(PGMAJFAULT), maj0);	/* cached: minor */

	/* The partial last written page maps; page 4, a hole, is read (major); page 5 is past
	 * EOF: SIGBUS, nothing mapped. */
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(3), 0), 0U);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(4), 0), (unsigned int)VM_FAULT_MAJOR);
	KTEST_EXPECT_EQ(t, global_vm_event(PGMAJFAULT), maj0 + 1);
	struct folio *hole = pte_folio(walk_pte(KT_BASE + P(4), KT_BASE, KT_BASE + P(8), NULL));
	KTEST_EXPECT_TRUE(t, hole && hole->mapping == mapping && hole->index == 4 && page_is_zero(hole));
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(5), 0), (unsigned int)VM_FAULT_SIGBUS);
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(5), FAULT_FLAG_WRITE),
			(unsigned int)VM_FAULT_SIGBUS);
	KTEST_EXPECT_FALSE(t, pte_present(walk_pte(KT_BASE + P(5), KT_BASE, KT_BASE + P(8), NULL)));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), mapped0 + 3);

	/* A write fault on an unmapped file page copies it (do_cow_fault): a new anonymous
	 * page with the file's bytes; the page-cache folio keeps its bytes and is not mapped. */
	struct folio *cached1 = filemap_get_folio(mapping, 1);
	KTEST_ASSERT_FALSE(t, IS_ERR(cached1));
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE + P(1), FAULT_FLAG_WRITE), 0U);
	pte = walk_pte(KT_BASE + P(1), KT_BASE, KT_BASE + P(8), NULL);
	struct folio *copy = pte_folio(pte);
	KTEST_ASSERT_TRUE(t, copy && copy != cached1);
	KTEST_EXPECT_TRUE(t, pte_write(pte));
	KTEST_EXPECT_TRUE(t, folio_test_anon(copy) && PageAnonExclusive(&copy->page));
	KTEST_EXPECT_EQ(t, copy->index, 1UL);	/* linear_page_index: the file page it copies */
	KTEST_EXPECT_EQ(t, memcmp(page_address(&copy->page), page_address(&cached1->page), PAGE_SIZE), 0);
	memset(page_address(&copy->page), 'X', PAGE_SIZE);	/* the task writes its copy */
	KTEST_EXPECT_EQ(t, ((unsigned char *)page_address(&cached1->page))[100], 'b');
	KTEST_EXPECT_EQ(t, folio_mapcount(cached1), 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 1);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), mapped0 + 3);

	/* A write to the read-mapped page 0 replaces it with a copy (do_wp_page's wp_page_copy):
	 * the page-cache folio loses the mapping and the pte's reference. */
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, KT_BASE, FAULT_FLAG_WRITE), 0U);
	pte = walk_pte(KT_BASE, KT_BASE, KT_BASE + P(8), NULL);
	KTEST_EXPECT_NE(t, pte_pfn(pte), page_to_pfn(&cached->page));
	KTEST_EXPECT_TRUE(t, pte_write(pte));
	KTEST_EXPECT_TRUE(t, folio_test_anon(pte_folio(pte)));
	KTEST_EXPECT_EQ(t, ((unsigned char *)page_address(&pte_folio(pte)->page))[4095], 'a');
	KTEST_EXPECT_EQ(t, folio_mapcount(cached), 0);
	KTEST_EXPECT_EQ(t, page_ref_count(&cached->page), ref0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 2);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), mapped0 + 2);

	/* munmap: the file pages lose their mappings, the copies are freed. */
	KTEST_EXPECT_EQ(t, do_munmap(&kt_mm, KT_BASE, P(8)), 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), mapped0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0);
	KTEST_EXPECT_EQ(t, page_ref_count(&cached->page), ref0);
	folio_put(cached1);
	folio_put(cached);
	kt_teardown(t);
	file_teardown(t);
}

static const struct ktest_case fault_cases[] = {
	KTEST_CASE(anon_faults),
	KTEST_CASE(permissions),
	KTEST_CASE(mprotect_and_reuse),
	KTEST_CASE(munmap_gives_back),
	KTEST_CASE(exit_frees_every_table),
	KTEST_CASE(file_faults),
	{}
};
KTEST_SUITE(fault, fault_cases);
