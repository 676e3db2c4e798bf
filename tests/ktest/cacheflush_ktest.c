/*
 * cacheflush_ktest.c - suite `cacheflush`, every board: PG_dcache_clean and the maintenance it
 * decides (docs/cacheflush.md), seen through the flag and the `cacheops` counters.  A private
 * mm (never loaded into the MMU) maps a ramfs file's page-cache folio and handle_mm_fault()
 * installs the ptes, so set_pte_at()'s architecture hook runs as for a task:
 *   - a folio the kernel just wrote (vfs_write: flush_dcache_folio) has the flag clear; an
 *     executable mapping's fault does the work once (ARM: one D-cache clean+invalidate,
 *     RISC-V: one FENCE.I) and sets the flag;
 *   - a second executable mapping of the clean folio skips that work (counted as skipped); ARM
 *     still invalidates its I-cache for every executable pte, RISC-V does nothing;
 *   - a read-only, non-executable mapping does nothing and leaves the flag as it was;
 *   - writing the file again clears the flag, and the next executable mapping does the work
 *     again;
 *   - a frame from the allocator has the flag clear.
 * The architecture's counts are told apart by what the CPU has: a FENCE.I counter that moves
 * is RISC-V's, a D-cache flush counter ARM's; exactly one of them must move, exactly once.
 */
#include "tinymm/cacheflush.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/swap.h"
#include "tinymm/vfs.h"

#define CF_BASE		(256UL << 20)	/* inside every board's TASK_SIZE */
#define CF_DIR		"/cacheflush_kt"
#define CF_MAY		(VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define CF_RX		(VM_READ | VM_EXEC | CF_MAY)
#define CF_R		(VM_READ | CF_MAY)

static struct mm_struct cf_mm;
static struct file *cf_file;
static unsigned long cf_before[NR_CACHEOPS];

static void snap(void)
{
	for (int i = 0; i < NR_CACHEOPS; i++)
		cf_before[i] = cacheop_counts[i];
}

static unsigned long delta(enum cacheop op)
{
	return cacheop_counts[op] - cf_before[op];
}

/* The work a fault of an executable pte does on a folio whose flag is clear: ARM's D-cache
 * clean+invalidate or RISC-V's FENCE.I, whichever this CPU uses. */
static unsigned long work(void)
{
	return delta(CACHEOP_DCACHE_FLUSH) + delta(CACHEOP_FENCE_I);
}

static bool write_page(struct ktest *t, char fill)
{
	static char buf[PAGE_SIZE];
	long n;

	for (unsigned long i = 0; i < sizeof(buf); i++)
		buf[i] = fill;
	n = vfs_pwrite(cf_file, buf, sizeof(buf), 0);
	KTEST_EXPECT_EQ(t, n, (long)sizeof(buf));
	return n == (long)sizeof(buf);
}

static bool cf_setup(struct ktest *t)
{
	int err = vfs_mkdir(CF_DIR, 0755);

	KTEST_EXPECT_TRUE(t, err == 0 || err == -EEXIST);
	KTEST_EXPECT_EQ(t, do_mount("none", CF_DIR, "ramfs", 0), 0);
	KTEST_EXPECT_EQ(t, vfs_open(CF_DIR "/code", O_RDWR | O_CREAT, 0644, &cf_file), 0);
	if (!cf_file || !write_page(t, 'a'))
		return false;
	mm_init_vmas(&cf_mm, TASK_SIZE, TASK_SIZE / 2);
	KTEST_EXPECT_EQ(t, mm_alloc_pgd(&cf_mm), 0);
	if (!cf_mm.pgd)
		return false;
	mutex_lock(&cf_mm.mmap_lock);
	return true;
}

static void cf_teardown(struct ktest *t)
{
	mutex_unlock(&cf_mm.mmap_lock);
	exit_mmap(&cf_mm);
	KTEST_EXPECT_EQ(t, vfs_close(cf_file), 0);
	cf_file = NULL;
	KTEST_EXPECT_EQ(t, vfs_unlink(CF_DIR "/code"), 0);
	KTEST_EXPECT_EQ(t, do_umount(CF_DIR), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(CF_DIR), 0);
}

/* Map page 0 of the file at @addr with @flags and fault it in (a read: an instruction fetch
 * is a read fault as far as the page cache is concerned). */
static bool map_and_fault(struct ktest *t, unsigned long addr, unsigned long flags)
{
	struct vm_area_struct *vma;

	KTEST_EXPECT_EQ(t, mmap_region(&cf_mm, addr, PAGE_SIZE, flags, cf_file, 0), (long)addr);
	vma = vma_lookup(&cf_mm, addr);
	if (!vma)
		return false;
	KTEST_EXPECT_EQ(t, handle_mm_fault(vma, addr, 0), 0U);
	return true;
}

static struct folio *cached_folio(void)
{
	struct folio *folio = filemap_get_folio(cf_file->f_inode->i_mapping, 0);

	if (IS_ERR(folio))
		return NULL;
	folio_put(folio);	/* the file keeps it */
	return folio;
}

static void exec_mapping_cleans_once(struct ktest *t)
{
	struct folio *folio;

	if (!cf_setup(t))
		return;
	folio = cached_folio();
	KTEST_ASSERT_TRUE(t, folio != NULL);
	KTEST_EXPECT_FALSE(t, folio_test_dcache_clean(folio));	/* vfs_write cleared it */

	/* A read-only mapping: nothing to do, the flag stays clear. */
	snap();
	KTEST_ASSERT_TRUE(t, map_and_fault(t, CF_BASE, CF_R));
	KTEST_EXPECT_EQ(t, work(), 0UL);
	KTEST_EXPECT_EQ(t, delta(CACHEOP_ICACHE_INVAL), 0UL);
	KTEST_EXPECT_EQ(t, delta(CACHEOP_DCACHE_CLEAN_SKIPPED), 0UL);
	KTEST_EXPECT_FALSE(t, folio_test_dcache_clean(folio));

	/* The first executable mapping: the work, once; the flag set. */
	snap();
	KTEST_ASSERT_TRUE(t, map_and_fault(t, CF_BASE + 4 * PAGE_SIZE, CF_RX));
	KTEST_EXPECT_EQ(t, work(), 1UL);
	KTEST_EXPECT_EQ(t, delta(CACHEOP_DCACHE_CLEAN_SKIPPED), 0UL);
	KTEST_EXPECT_TRUE(t, folio_test_dcache_clean(folio));
	/* ARM invalidates its I-cache with the clean; RISC-V's FENCE.I is the whole of it. */
	KTEST_EXPECT_EQ(t, delta(CACHEOP_ICACHE_INVAL), delta(CACHEOP_DCACHE_FLUSH));

	/* A second executable mapping of the clean folio: no work, one skip; ARM's I-cache
	 * invalidation is per executable pte all the same (v6.10's __sync_icache_dcache). */
	snap();
	KTEST_ASSERT_TRUE(t, map_and_fault(t, CF_BASE + 8 * PAGE_SIZE, CF_RX));
	KTEST_EXPECT_EQ(t, work(), 0UL);
	KTEST_EXPECT_EQ(t, delta(CACHEOP_DCACHE_CLEAN_SKIPPED), 1UL);
	KTEST_EXPECT_TRUE(t, folio_test_dcache_clean(folio));
	cf_teardown(t);
}

static void rewrite_cleans_again(struct ktest *t)
{
	struct folio *folio;

	if (!cf_setup(t))
		return;
	KTEST_ASSERT_TRUE(t, map_and_fault(t, CF_BASE, CF_RX));
	folio = cached_folio();
	KTEST_ASSERT_TRUE(t, folio != NULL);
	KTEST_EXPECT_TRUE(t, folio_test_dcache_clean(folio));
	KTEST_EXPECT_EQ(t, do_munmap(&cf_mm, CF_BASE, PAGE_SIZE), 0);

	/* The kernel writes the page again: the flag goes (flush_dcache_folio), no work yet. */
	snap();
	KTEST_ASSERT_TRUE(t, write_page(t, 'b'));
	KTEST_EXPECT_FALSE(t, folio_test_dcache_clean(folio));
	KTEST_EXPECT_EQ(t, work(), 0UL);

	/* A fresh executable mapping does the work again, once. */
	KTEST_ASSERT_TRUE(t, map_and_fault(t, CF_BASE, CF_RX));
	KTEST_EXPECT_EQ(t, work(), 1UL);
	KTEST_EXPECT_TRUE(t, folio_test_dcache_clean(folio));
	cf_teardown(t);
}

static void new_frames_start_clear(struct ktest *t)
{
	struct page *pages[8];

	for (int i = 0; i < 8; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, pages[i] != NULL);
		KTEST_EXPECT_FALSE(t, PageDcacheClean(pages[i]));
		SetPageDcacheClean(pages[i]);	/* freed with it set: the free must clear it */
	}
	for (int i = 0; i < 8; i++)
		__free_page(pages[i]);
	for (int i = 0; i < 8; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, pages[i] != NULL);
		KTEST_EXPECT_FALSE(t, PageDcacheClean(pages[i]));
	}
	for (int i = 0; i < 8; i++)
		__free_page(pages[i]);
}

static struct ktest_case cacheflush_cases[] = {
	KTEST_CASE(exec_mapping_cleans_once),
	KTEST_CASE(rewrite_cleans_again),
	KTEST_CASE(new_frames_start_clear),
	{}
};
KTEST_SUITE(cacheflush, cacheflush_cases);
