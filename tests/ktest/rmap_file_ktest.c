/*
 * rmap_file_ktest.c - the file side of reverse mapping and shared file mappings
 * (mm/rmap_file.c, mm/memory_shared.c, docs/shared-mappings.md): suite `rmap_file`, every
 * board.  Two private mms with their own root tables (never loaded: the cases call
 * handle_mm_fault() and read the ptes by a walk) map one ramfs file MAP_SHARED:
 *   - walk: page 1 of the file mapped by two areas of mm A and one of mm B; rmap_walk_file()
 *     finds exactly those three ptes at the right addresses, the mapcount is 3 and Mapped
 *     counts the folio once; after a split (mprotect of part of an area) and a munmap the
 *     walk still finds exactly what is mapped;
 *   - mkclean: read faults map the folio read-only (write-notify); write faults in A and B make
 *     their ptes writable and dirty and the folio dirty, in place (no copy); folio_mkclean()
 *     reports the 2 dirty ptes and leaves all 3 clean and read-only; folio_clear_dirty_for_io
 *     cleans the folio; a write after it faults again and re-dirties the folio;
 *   - truncate: shrinking the file to one page unmaps page 1 from every area (mapcount 0,
 *     Mapped back) and a read or write there is then VM_FAULT_SIGBUS;
 *   - references: folio_referenced() counts the areas whose pte is young and makes them old;
 *     folio_check_references() follows v6.10: no young pte -> RECLAIM, one -> KEEP (and
 *     PG_referenced), one again -> ACTIVATE, two -> ACTIVATE, one in a VM_EXEC area ->
 *     ACTIVATE, a VM_LOCKED area -> ACTIVATE;
 *   - unmap: try_to_unmap() clears all three ptes (mapcount 0, Mapped back, the references
 *     dropped), moves a pte's dirty bit to the folio, leaves a VM_LOCKED area's pte unless
 *     TTU_IGNORE_MLOCK; the folio stays cached and the next fault maps it again.
 * A young or dirty bit the hardware would set is set by the case itself (the mms are never
 * loaded: nothing accesses the pages through them).
 * Each case checks that page tables, Mapped and AnonPages are back after the mms go.
 */
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mlock.h"
#include "tinymm/mm_fault.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap_file.h"
#include "tinymm/swap.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"

#define RP(n)		((unsigned long)(n) << PAGE_SHIFT)
#define RF_SHARED_RW	(VM_READ | VM_WRITE | VM_SHARED | VM_MAYREAD | VM_MAYWRITE)
#define RF_BASE		(256UL << 20)
#define RF_DIR		"/rmap_file_kt"

static struct mm_struct rf_mm[2];
static struct file *rf_file;
static unsigned long rf_pagetables, rf_mapped, rf_anon;

static bool rf_setup(struct ktest *t)
{
	static unsigned char buf[3 * 4096];
	int err = vfs_mkdir(RF_DIR, 0755);

	KTEST_EXPECT_TRUE(t, err == 0 || err == -EEXIST);
	KTEST_EXPECT_EQ(t, do_mount("none", RF_DIR, "ramfs", 0), 0);
	for (unsigned long i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)('a' + i / PAGE_SIZE);
	KTEST_EXPECT_EQ(t, vfs_open(RF_DIR "/f", O_RDWR | O_CREAT, 0644, &rf_file), 0);
	if (!rf_file)
		return false;
	KTEST_EXPECT_EQ(t, vfs_write(rf_file, buf, sizeof(buf)), (long)sizeof(buf));
	rf_pagetables = global_node_page_state(NR_PAGETABLE);
	rf_mapped = global_node_page_state(NR_FILE_MAPPED);
	rf_anon = global_node_page_state(NR_ANON_MAPPED);
	for (int i = 0; i < 2; i++) {
		mm_init_vmas(&rf_mm[i], TASK_SIZE, TASK_SIZE / 2);
		KTEST_EXPECT_EQ(t, mm_alloc_pgd(&rf_mm[i]), 0);
		if (!rf_mm[i].pgd)
			return false;
	}
	return true;
}

static void rf_teardown(struct ktest *t)
{
	for (int i = 0; i < 2; i++) {
		mutex_lock(&rf_mm[i].mmap_lock);
		KTEST_EXPECT_EQ(t, vma_check(&rf_mm[i], kprintf), 0);
		mutex_unlock(&rf_mm[i].mmap_lock);
		exit_mmap(&rf_mm[i]);
	}
	KTEST_EXPECT_TRUE(t, list_empty(&rf_file->f_inode->i_mapping->i_mmap));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), rf_pagetables);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), rf_mapped);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), rf_anon);
	KTEST_EXPECT_EQ(t, vfs_close(rf_file), 0);
	rf_file = NULL;
	KTEST_EXPECT_EQ(t, vfs_unlink(RF_DIR "/f"), 0);
	KTEST_EXPECT_EQ(t, do_umount(RF_DIR), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(RF_DIR), 0);
}

/* An area of @pages file pages from @pgoff at @addr in mm @m, under its mmap_lock. */
static struct vm_area_struct *rf_map_flags(int m, unsigned long addr, unsigned long pages,
					   unsigned long pgoff, unsigned long vm_flags)
{
	struct vm_area_struct *vma = NULL;

	mutex_lock(&rf_mm[m].mmap_lock);
	if (mmap_region(&rf_mm[m], addr, RP(pages), vm_flags, rf_file, pgoff) == (long)addr)
		vma = vma_lookup(&rf_mm[m], addr);
	mutex_unlock(&rf_mm[m].mmap_lock);
	return vma;
}

static struct vm_area_struct *rf_map(int m, unsigned long addr, unsigned long pages,
				     unsigned long pgoff)
{
	return rf_map_flags(m, addr, pages, pgoff, RF_SHARED_RW);
}

static vm_fault_t rf_fault(int m, unsigned long addr, unsigned int flags)
{
	vm_fault_t ret;

	mutex_lock(&rf_mm[m].mmap_lock);
	ret = handle_mm_fault(vma_lookup(&rf_mm[m], addr), addr, flags | FAULT_FLAG_USER);
	mutex_unlock(&rf_mm[m].mmap_lock);
	return ret;
}

/* The pte at @addr in mm @m (0 if no table holds one). */
static pte_t rf_pte(int m, unsigned long addr)
{
	pte_t *pte, v = __pte(0);

	spin_lock(&rf_mm[m].page_table_lock);
	pte = user_pte_lookup(&rf_mm[m], addr);
	if (pte)
		v = ptep_get(pte);
	spin_unlock(&rf_mm[m].page_table_lock);
	return v;
}

/* What the MMU would do on an access through mm @m at @addr: the pte young (and dirty for
 * a write, as RISC-V's hardware D bit). */
static void rf_touch(int m, unsigned long addr, bool write)
{
	pte_t *pte;

	spin_lock(&rf_mm[m].page_table_lock);
	pte = user_pte_lookup(&rf_mm[m], addr);
	if (pte && pte_present(ptep_get(pte))) {
		pte_t v = pte_mkyoung(ptep_get(pte));
		set_pte_at(&rf_mm[m], addr, pte, write ? pte_mkdirty(v) : v);
	}
	spin_unlock(&rf_mm[m].page_table_lock);
}

/* The three places page 1 is mapped: A's first area, A's second (pgoff 1), B's area. */
#define A_ADDR	(RF_BASE + RP(1))
#define A2_ADDR	(RF_BASE + RP(16))
#define B_ADDR	(RF_BASE + RP(4) + RP(1))

struct rf_seen {
	unsigned int n;
	unsigned long pfn;
	struct { struct mm_struct *mm; unsigned long addr; } hit[4];
};

static bool rf_record(struct folio *folio, struct vm_area_struct *vma, unsigned long address,
		      void *arg)
{
	struct rf_seen *s = arg;
	pte_t *pte;

	(void)folio;
	spin_lock(&vma->vm_mm->page_table_lock);
	pte = user_pte_lookup(vma->vm_mm, address);
	if (pte && pte_present(ptep_get(pte)) && pte_pfn(ptep_get(pte)) == s->pfn && s->n < 4) {
		s->hit[s->n].mm = vma->vm_mm;
		s->hit[s->n++].addr = address;
	}
	spin_unlock(&vma->vm_mm->page_table_lock);
	return true;
}

static bool rf_hit(const struct rf_seen *s, int m, unsigned long addr)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (s->hit[i].mm == &rf_mm[m] && s->hit[i].addr == addr)
			return true;
	return false;
}

static unsigned int rf_walk(struct folio *folio, struct rf_seen *s)
{
	struct rmap_walk_control rwc = { .arg = s, .rmap_one = rf_record };

	*s = (struct rf_seen){ .pfn = page_to_pfn(&folio->page) };
	folio_lock(folio);
	rmap_walk_file(folio, &rwc);
	folio_unlock(folio);
	return s->n;
}

/* Three areas over page 1, read-faulted: the folio, referenced (NULL on failure). */
static struct folio *rf_map_three(struct ktest *t)
{
	struct folio *folio;

	KTEST_EXPECT_TRUE(t, rf_map(0, RF_BASE, 3, 0) != NULL);
	KTEST_EXPECT_TRUE(t, rf_map(0, RF_BASE + RP(16), 1, 1) != NULL);
	KTEST_EXPECT_TRUE(t, rf_map(1, RF_BASE + RP(4), 3, 0) != NULL);
	KTEST_EXPECT_EQ(t, rf_fault(0, A_ADDR + 5, 0), 0U);
	KTEST_EXPECT_EQ(t, rf_fault(0, A2_ADDR, 0), 0U);
	KTEST_EXPECT_EQ(t, rf_fault(1, B_ADDR + 100, 0), 0U);
	folio = filemap_get_folio(rf_file->f_inode->i_mapping, 1);
	return IS_ERR(folio) ? NULL : folio;
}

static void walk_finds_every_pte(struct ktest *t)
{
	struct rf_seen s;

	if (!rf_setup(t))
		return;
	struct folio *folio = rf_map_three(t);
	KTEST_ASSERT_TRUE(t, folio != NULL);
	KTEST_EXPECT_EQ(t, folio_mapcount(folio), 3);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), rf_mapped + 1);
	KTEST_EXPECT_EQ(t, rf_walk(folio, &s), 3U);
	KTEST_EXPECT_TRUE(t, rf_hit(&s, 0, A_ADDR) && rf_hit(&s, 0, A2_ADDR) && rf_hit(&s, 1, B_ADDR));
	/* A read fault maps it write-protected although the area is writable (write-notify). */
	KTEST_EXPECT_FALSE(t, pte_write(rf_pte(0, A_ADDR)));

	/* mprotect of A's middle page splits the area in three: the walk still finds page 1 in
	 * the middle piece; munmap of A's second area leaves two ptes. */
	mutex_lock(&rf_mm[0].mmap_lock);
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&rf_mm[0], A_ADDR, A_ADDR + RP(1), VM_READ), 0);
	KTEST_EXPECT_EQ(t, rf_mm[0].map_count, 4);
	mutex_unlock(&rf_mm[0].mmap_lock);
	KTEST_EXPECT_EQ(t, rf_walk(folio, &s), 3U);
	KTEST_EXPECT_TRUE(t, rf_hit(&s, 0, A_ADDR));
	mutex_lock(&rf_mm[0].mmap_lock);
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&rf_mm[0], A_ADDR, A_ADDR + RP(1), VM_READ | VM_WRITE), 0);
	KTEST_EXPECT_EQ(t, rf_mm[0].map_count, 2);		/* merged back */
	KTEST_EXPECT_EQ(t, do_munmap(&rf_mm[0], A2_ADDR, RP(1)), 0);
	mutex_unlock(&rf_mm[0].mmap_lock);
	KTEST_EXPECT_EQ(t, rf_walk(folio, &s), 2U);
	KTEST_EXPECT_FALSE(t, rf_hit(&s, 0, A2_ADDR));
	KTEST_EXPECT_EQ(t, folio_mapcount(folio), 2);
	folio_put(folio);
	rf_teardown(t);
}

static void mkclean_then_write(struct ktest *t)
{
	if (!rf_setup(t))
		return;
	struct folio *folio = rf_map_three(t);
	KTEST_ASSERT_TRUE(t, folio != NULL);
	unsigned long pfn = page_to_pfn(&folio->page);

	/* Write faults on the read-only ptes of A and B: in place, writable, dirty. */
	KTEST_EXPECT_EQ(t, rf_fault(0, A_ADDR, FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_EQ(t, rf_fault(1, B_ADDR, FAULT_FLAG_WRITE), 0U);
	for (int m = 0; m < 2; m++) {
		pte_t pte = rf_pte(m, m ? B_ADDR : A_ADDR);

		KTEST_EXPECT_EQ(t, pte_pfn(pte), pfn);
		KTEST_EXPECT_TRUE(t, pte_write(pte) && pte_dirty(pte));
	}
	KTEST_EXPECT_TRUE(t, folio_test_dirty(folio));
	KTEST_EXPECT_FALSE(t, folio_test_anon(folio));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), rf_anon);	/* no copy */
	/* A write fault where no pte is yet (do_shared_fault): page 2 of B, writable at once. */
	KTEST_EXPECT_EQ(t, rf_fault(1, B_ADDR + RP(1), FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_TRUE(t, pte_write(rf_pte(1, B_ADDR + RP(1))));

	/* Before writeback: every pte clean and read-only, the two dirty ones reported. */
	folio_lock(folio);
	KTEST_EXPECT_EQ(t, folio_mkclean(folio), 2);
	KTEST_EXPECT_EQ(t, folio_mkclean(folio), 0);
	for (int i = 0; i < 3; i++) {
		pte_t pte = rf_pte(i == 2, i == 0 ? A_ADDR : i == 1 ? A2_ADDR : B_ADDR);

		KTEST_EXPECT_EQ(t, pte_pfn(pte), pfn);
		KTEST_EXPECT_FALSE(t, pte_write(pte) || pte_dirty(pte));
	}
	KTEST_EXPECT_TRUE(t, folio_clear_dirty_for_io(folio));
	KTEST_EXPECT_FALSE(t, folio_test_dirty(folio));
	folio_unlock(folio);

	/* A write after it faults (wp_page_shared) and dirties the folio again. */
	KTEST_EXPECT_EQ(t, rf_fault(0, A2_ADDR, FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_TRUE(t, pte_write(rf_pte(0, A2_ADDR)) && pte_dirty(rf_pte(0, A2_ADDR)));
	KTEST_EXPECT_EQ(t, pte_pfn(rf_pte(0, A2_ADDR)), pfn);
	KTEST_EXPECT_TRUE(t, folio_test_dirty(folio));
	folio_put(folio);
	rf_teardown(t);
}

static void truncate_unmaps(struct ktest *t)
{
	if (!rf_setup(t))
		return;
	struct folio *folio = rf_map_three(t);
	KTEST_ASSERT_TRUE(t, folio != NULL);
	KTEST_EXPECT_EQ(t, rf_fault(0, RF_BASE, 0), 0U);		/* page 0 stays */

	KTEST_EXPECT_EQ(t, vfs_ftruncate(rf_file, (loff_t)PAGE_SIZE), 0);
	KTEST_EXPECT_EQ(t, folio_mapcount(folio), 0);
	KTEST_EXPECT_TRUE(t, folio->mapping == NULL);			/* out of the cache */
	KTEST_EXPECT_FALSE(t, pte_present(rf_pte(0, A_ADDR)));
	KTEST_EXPECT_FALSE(t, pte_present(rf_pte(0, A2_ADDR)));
	KTEST_EXPECT_FALSE(t, pte_present(rf_pte(1, B_ADDR)));
	KTEST_EXPECT_TRUE(t, pte_present(rf_pte(0, RF_BASE)));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), rf_mapped + 1);
	KTEST_EXPECT_EQ(t, rf_fault(0, A_ADDR, 0), (unsigned int)VM_FAULT_SIGBUS);
	KTEST_EXPECT_EQ(t, rf_fault(1, B_ADDR, FAULT_FLAG_WRITE), (unsigned int)VM_FAULT_SIGBUS);
	folio_put(folio);
	rf_teardown(t);
}

static int rf_referenced(struct folio *folio, unsigned long *vm_flags)
{
	folio_lock(folio);
	int n = folio_referenced(folio, 1, vm_flags);
	folio_unlock(folio);
	return n;
}

static enum folio_references rf_check(struct folio *folio)
{
	folio_lock(folio);
	enum folio_references r = folio_check_references(folio);
	folio_unlock(folio);
	return r;
}

#define RF_EXEC_ADDR	(RF_BASE + RP(32))
#define RF_LOCK_ADDR	(RF_BASE + RP(48))

static void references_decide(struct ktest *t)
{
	unsigned long vm_flags;

	if (!rf_setup(t))
		return;
	struct folio *folio = rf_map_three(t);
	KTEST_ASSERT_TRUE(t, folio != NULL);
	folio_clear_referenced(folio);

	/* Each fault left its pte young: three areas used it; then all are old. */
	KTEST_EXPECT_EQ(t, rf_referenced(folio, &vm_flags), 3);
	KTEST_EXPECT_TRUE(t, (vm_flags & (VM_SHARED | VM_READ)) == (VM_SHARED | VM_READ));
	KTEST_EXPECT_FALSE(t, pte_young(rf_pte(0, A_ADDR)) || pte_young(rf_pte(1, B_ADDR)));
	KTEST_EXPECT_EQ(t, rf_referenced(folio, &vm_flags), 0);
	KTEST_EXPECT_EQ(t, vm_flags, 0UL);

	KTEST_EXPECT_EQ(t, rf_check(folio), FOLIOREF_RECLAIM);
	rf_touch(1, B_ADDR, false);
	KTEST_EXPECT_EQ(t, rf_check(folio), FOLIOREF_KEEP);		/* first look: one more trip */
	KTEST_EXPECT_TRUE(t, folio_test_referenced(folio));
	rf_touch(1, B_ADDR, false);
	KTEST_EXPECT_EQ(t, rf_check(folio), FOLIOREF_ACTIVATE);	/* used again since */
	rf_touch(0, A2_ADDR, false);
	rf_touch(1, B_ADDR, false);
	folio_clear_referenced(folio);
	KTEST_EXPECT_EQ(t, rf_check(folio), FOLIOREF_ACTIVATE);	/* two mappings used it */
	KTEST_EXPECT_EQ(t, rf_check(folio), FOLIOREF_RECLAIM_CLEAN);	/* PG_referenced only */

	/* Page 0, mapped only by an executable area: one young pte activates it. */
	KTEST_ASSERT_TRUE(t, rf_map_flags(1, RF_EXEC_ADDR, 1, 0,
					  VM_READ | VM_EXEC | VM_SHARED | VM_MAYREAD | VM_MAYEXEC) != NULL);
	KTEST_EXPECT_EQ(t, rf_fault(1, RF_EXEC_ADDR, 0), 0U);
	struct folio *text = filemap_get_folio(rf_file->f_inode->i_mapping, 0);
	KTEST_ASSERT_FALSE(t, IS_ERR(text));
	folio_clear_referenced(text);
	KTEST_EXPECT_EQ(t, folio_mapcount(text), 1);
	KTEST_EXPECT_EQ(t, rf_check(text), FOLIOREF_ACTIVATE);
	KTEST_EXPECT_EQ(t, rf_check(text), FOLIOREF_RECLAIM_CLEAN);	/* not used since */
	folio_put(text);

	/* A VM_LOCKED area mapping page 1 stops the walk: activate (putback culls it). */
	KTEST_ASSERT_TRUE(t, rf_map_flags(1, RF_LOCK_ADDR, 1, 1, RF_SHARED_RW | VM_LOCKED) != NULL);
	KTEST_EXPECT_EQ(t, rf_fault(1, RF_LOCK_ADDR, 0), 0U);
	KTEST_EXPECT_EQ(t, rf_referenced(folio, &vm_flags), 0);
	KTEST_EXPECT_EQ(t, vm_flags, VM_LOCKED);
	KTEST_EXPECT_EQ(t, rf_check(folio), FOLIOREF_ACTIVATE);
	folio_put(folio);
	rf_teardown(t);
}

static void unmap_for_reclaim(struct ktest *t)
{
	if (!rf_setup(t))
		return;
	struct folio *folio = rf_map_three(t);
	KTEST_ASSERT_TRUE(t, folio != NULL);
	int refs = atomic_read(&folio->_refcount);

	/* A clean folio whose pte in B the hardware dirtied (a write through a writable pte). */
	KTEST_EXPECT_EQ(t, rf_fault(1, B_ADDR, FAULT_FLAG_WRITE), 0U);
	folio_lock(folio);
	folio_mkclean(folio);
	KTEST_EXPECT_TRUE(t, folio_clear_dirty_for_io(folio));
	folio_unlock(folio);
	rf_touch(1, B_ADDR, true);

	/* A VM_LOCKED mapping keeps it mapped; without it every pte goes. */
	KTEST_ASSERT_TRUE(t, rf_map_flags(1, RF_LOCK_ADDR, 1, 1, RF_SHARED_RW | VM_LOCKED) != NULL);
	KTEST_EXPECT_EQ(t, rf_fault(1, RF_LOCK_ADDR, 0), 0U);
	KTEST_EXPECT_EQ(t, folio_mapcount(folio), 4);
	KTEST_EXPECT_TRUE(t, folio_test_mlocked(folio));	/* mapped by a VM_LOCKED area */
	folio_lock(folio);
	try_to_unmap(folio, 0);
	KTEST_EXPECT_TRUE(t, folio_mapped(folio));
	try_to_unmap(folio, TTU_IGNORE_MLOCK);
	KTEST_EXPECT_FALSE(t, folio_mapped(folio));
	KTEST_EXPECT_TRUE(t, folio_test_dirty(folio));		/* B's dirty pte */
	folio_unlock(folio);
	mlock_drain_local();		/* the mlock batch's references (the locked pte's mlock, munlock) */
	KTEST_EXPECT_FALSE(t, folio_test_mlocked(folio));
	KTEST_EXPECT_EQ(t, atomic_read(&folio->_refcount), refs - 3);	/* every pte's reference */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), rf_mapped);
	for (int i = 0; i < 4; i++) {
		static const unsigned long addr[] = { A_ADDR, A2_ADDR, B_ADDR, RF_LOCK_ADDR };
		KTEST_EXPECT_TRUE(t, pte_none(rf_pte(i >= 2, addr[i])));
	}
	/* Still the cached folio: a fault maps it again. */
	KTEST_EXPECT_TRUE(t, folio->mapping == rf_file->f_inode->i_mapping);
	KTEST_EXPECT_EQ(t, rf_fault(0, A_ADDR, 0), 0U);
	KTEST_EXPECT_EQ(t, pte_pfn(rf_pte(0, A_ADDR)), page_to_pfn(&folio->page));
	folio_put(folio);
	rf_teardown(t);
}

static const struct ktest_case rmap_file_cases[] = {
	KTEST_CASE(walk_finds_every_pte),
	KTEST_CASE(mkclean_then_write),
	KTEST_CASE(truncate_unmaps),
	KTEST_CASE(references_decide),
	KTEST_CASE(unmap_for_reclaim),
	{}
};
KTEST_SUITE(rmap_file, rmap_file_cases);
