/*
 * vma_ktest.c - the address space's areas (mm/mmap.c): suite `vma`, every board, and on the
 * host through tests/host/vma_test.c.  Each case builds its own mm (user space [0, 1 MiB),
 * mmap_base 768 KiB) and frees it after, with vma_check() finding nothing at every step:
 *   - find_vma / vma_lookup / find_vma_intersection on a known layout;
 *   - mmap_region merging equal neighbours and keeping different ones apart (flags, files,
 *     discontiguous file offsets), MAP_FIXED replacing what was there;
 *   - do_munmap splitting and removing, mprotect splitting and merging back, its ENOMEM for a
 *     hole and EACCES without VM_MAY*, both changing nothing;
 *   - get_unmapped_area: the hint, then top-down from mmap_base, then bottom-up above it,
 *     then ENOMEM;
 *   - brk growing, shrinking and refusing to run into a mapping;
 *   - 3000 seeded random operations against a page-by-page model (flags, file, file page):
 *     every page of user space agrees after every operation.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/mmap.h"
#include "tinymm/pagemap.h"
#include "tinymm/vfs.h"
#include "tinymm/printk.h"

#define KT_TASK_SIZE	(1UL << 20)
#define KT_MMAP_BASE	(768UL << 10)
#define KT_PAGES	(KT_TASK_SIZE >> PAGE_SHIFT)
#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define RO		(VM_READ | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)

static struct mm_struct kt_mm;
/* Two "files": their addresses matter to the areas, and their inodes' mappings hold the
 * areas' i_mmap lists (mm/rmap_file.c). */
static struct inode inode_a, inode_b;
static struct file file_a, file_b;
#define FA	(&file_a)
#define FB	(&file_b)

static void kt_mm_setup(void)
{
	address_space_init(&inode_a.i_data, NULL, 0);
	address_space_init(&inode_b.i_data, NULL, 0);
	inode_a.i_mapping = &inode_a.i_data;
	inode_b.i_mapping = &inode_b.i_data;
	file_a.f_inode = &inode_a;
	file_b.f_inode = &inode_b;
	atomic_set(&file_a.f_count, 1);		/* the test's: the areas' come and go above it */
	atomic_set(&file_b.f_count, 1);
	mm_init_vmas(&kt_mm, KT_TASK_SIZE, KT_MMAP_BASE);
	mutex_lock(&kt_mm.mmap_lock);
}

static void kt_mm_teardown(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, vma_check(&kt_mm, kprintf), 0);
	exit_mmap_vmas(&kt_mm);
	KTEST_EXPECT_EQ(t, kt_mm.map_count, 0);
	mutex_unlock(&kt_mm.mmap_lock);
}

/* The areas as "<first page>-<end page><w|r|-><a|b|>;": writable, read-only or no access,
 * then file A, B or anonymous.  One comparison per layout. */
static const char *layout(void)
{
	static char buf[256];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < kt_mm.map_count && n < sizeof(buf); i++) {
		struct vm_area_struct *v = kt_mm.vmas[i];
		n += (size_t)ksnprintf(buf + n, sizeof(buf) - n, "%lu-%lu%s%s;", v->vm_start >> PAGE_SHIFT,
				       v->vm_end >> PAGE_SHIFT,
				       v->vm_flags & VM_WRITE ? "w" : v->vm_flags & VM_READ ? "r" : "-",
				       v->vm_file == FA ? "a" : v->vm_file == FB ? "b" : "");
	}
	return buf;
}

static void lookups(struct ktest *t)
{
	kt_mm_setup();
	KTEST_EXPECT_TRUE(t, find_vma(&kt_mm, 0) == NULL);
	KTEST_EXPECT_EQ(t, mmap_region(&kt_mm, P(16), P(4), RW, NULL, 0), (long)P(16));
	KTEST_EXPECT_EQ(t, mmap_region(&kt_mm, P(32), P(2), RO, FA, 7), (long)P(32));
	struct vm_area_struct *a = kt_mm.vmas[0], *b = kt_mm.vmas[1];
	KTEST_EXPECT_TRUE(t, find_vma(&kt_mm, 0) == a);		/* the first ending above */
	KTEST_EXPECT_TRUE(t, find_vma(&kt_mm, P(19) + 5) == a);
	KTEST_EXPECT_TRUE(t, find_vma(&kt_mm, P(20)) == b);		/* in the gap: the next one */
	KTEST_EXPECT_TRUE(t, find_vma(&kt_mm, P(34)) == NULL);
	KTEST_EXPECT_TRUE(t, vma_lookup(&kt_mm, P(20)) == NULL);
	KTEST_EXPECT_TRUE(t, vma_lookup(&kt_mm, P(33)) == b);
	KTEST_EXPECT_TRUE(t, find_vma_intersection(&kt_mm, P(20), P(32)) == NULL);
	KTEST_EXPECT_TRUE(t, find_vma_intersection(&kt_mm, P(20), P(33)) == b);
	KTEST_EXPECT_EQ(t, b->vm_pgoff, 7UL);
	KTEST_EXPECT_EQ(t, a->vm_pgoff, 16UL);				/* anon: its own page */
	KTEST_EXPECT_EQ(t, kt_mm.total_vm, 6UL);
	kt_mm_teardown(t);
}

static void merge_and_replace(struct ktest *t)
{
	kt_mm_setup();
	mmap_region(&kt_mm, P(10), P(2), RW, NULL, 0);
	mmap_region(&kt_mm, P(12), P(2), RW, NULL, 0);			/* same: one area */
	mmap_region(&kt_mm, P(8), P(2), RW, NULL, 0);			/* before it: still one */
	KTEST_EXPECT_STREQ(t, layout(), "8-14w;");
	mmap_region(&kt_mm, P(14), P(2), RO, NULL, 0);			/* other flags: apart */
	mmap_region(&kt_mm, P(16), P(2), RO, FA, 0);			/* a file: apart */
	mmap_region(&kt_mm, P(18), P(2), RO, FA, 2);			/* contiguous in FA: merged */
	mmap_region(&kt_mm, P(20), P(2), RO, FA, 9);			/* not contiguous: apart */
	mmap_region(&kt_mm, P(22), P(2), RO, FB, 11);			/* another file: apart */
	KTEST_EXPECT_STREQ(t, layout(), "8-14w;14-16r;16-20ra;20-22ra;22-24rb;");
	/* MAP_FIXED over the middle of two areas: both cut, the new one between them. */
	KTEST_EXPECT_EQ(t, mmap_region(&kt_mm, P(12), P(4), RW, FB, 0), (long)P(12));
	KTEST_EXPECT_STREQ(t, layout(), "8-12w;12-16wb;16-20ra;20-22ra;22-24rb;");
	KTEST_EXPECT_EQ(t, kt_mm.total_vm, 16UL);
	/* Unaligned, empty, past user space, page 0. */
	KTEST_EXPECT_EQ(t, mmap_region(&kt_mm, P(30) + 1, P(1), RW, NULL, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, mmap_region(&kt_mm, P(30), 0, RW, NULL, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, mmap_region(&kt_mm, KT_TASK_SIZE - P(1), P(2), RW, NULL, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, mmap_region(&kt_mm, 0, P(1), RW, NULL, 0), -EINVAL);
	KTEST_EXPECT_STREQ(t, layout(), "8-12w;12-16wb;16-20ra;20-22ra;22-24rb;");
	kt_mm_teardown(t);
}

static void munmap_and_mprotect(struct ktest *t)
{
	kt_mm_setup();
	mmap_region(&kt_mm, P(10), P(10), RW, NULL, 0);
	KTEST_EXPECT_EQ(t, do_munmap(&kt_mm, P(13), P(2)), 0);		/* a hole in the middle */
	KTEST_EXPECT_STREQ(t, layout(), "10-13w;15-20w;");
	KTEST_EXPECT_EQ(t, kt_mm.vmas[1]->vm_pgoff, 15UL);
	KTEST_EXPECT_EQ(t, do_munmap(&kt_mm, P(40), P(3)), 0);		/* nothing there: fine */
	KTEST_EXPECT_EQ(t, do_munmap(&kt_mm, P(12) + 8, P(1)), -EINVAL);
	KTEST_EXPECT_EQ(t, do_munmap(&kt_mm, P(12), 0), -EINVAL);
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&kt_mm, P(16), P(18), VM_READ), 0);
	KTEST_EXPECT_STREQ(t, layout(), "10-13w;15-16w;16-18r;18-20w;");
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&kt_mm, P(16), P(18), VM_READ | VM_WRITE), 0);
	KTEST_EXPECT_STREQ(t, layout(), "10-13w;15-20w;");		/* merged back */
	/* A hole inside the range: ENOMEM, nothing changed. */
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&kt_mm, P(11), P(16), VM_READ), -ENOMEM);
	KTEST_EXPECT_STREQ(t, layout(), "10-13w;15-20w;");
	/* Write to an area that may never be writable: EACCES, nothing changed. */
	mmap_region(&kt_mm, P(30), P(2), VM_READ | VM_MAYREAD, FA, 0);
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&kt_mm, P(30), P(32), VM_READ | VM_WRITE), -EACCES);
	KTEST_EXPECT_EQ(t, mprotect_fixup_range(&kt_mm, P(30), P(31), 0), 0);
	KTEST_EXPECT_STREQ(t, layout(), "10-13w;15-20w;30-31-a;31-32ra;");
	/* Unmapping across several areas and gaps. */
	KTEST_EXPECT_EQ(t, do_munmap(&kt_mm, P(12), P(19)), 0);
	KTEST_EXPECT_STREQ(t, layout(), "10-12w;31-32ra;");
	KTEST_EXPECT_EQ(t, kt_mm.total_vm, 3UL);
	kt_mm_teardown(t);
}

static void unmapped_area_search(struct ktest *t)
{
	const unsigned long base_pages = KT_MMAP_BASE >> PAGE_SHIFT;

	kt_mm_setup();
	/* The hint when it is free, rounded up to a page. */
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, P(50) + 1, P(3), false), (long)P(51));
	/* No hint: right below mmap_base. */
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, 0, P(3), false), (long)P(base_pages - 3));
	mmap_region(&kt_mm, P(base_pages - 3), P(3), RW, NULL, 0);
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, 0, P(3), false), (long)P(base_pages - 6));
	/* A taken hint falls back to the search. */
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, P(base_pages - 2), P(1), false),
			(long)P(base_pages - 4));
	/* Fixed: taken as it is, if it is valid. */
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, P(5), P(1), true), (long)P(5));
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, P(5) + 4, P(1), true), -EINVAL);
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, 0, 0, false), -ENOMEM);
	/* Everything below mmap_base but page 0 taken: the first page above it (bottom-up). */
	mmap_region(&kt_mm, P(1), P(base_pages - 4), RW, NULL, 0);
	KTEST_EXPECT_EQ(t, kt_mm.map_count, 1);
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, 0, P(1), false), (long)P(base_pages));
	/* And all of user space: no room at all. */
	mmap_region(&kt_mm, P(base_pages), KT_TASK_SIZE - KT_MMAP_BASE, RO, NULL, 0);
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, 0, P(1), false), -ENOMEM);
	KTEST_EXPECT_EQ(t, get_unmapped_area(&kt_mm, P(7), P(1), false), -ENOMEM);
	kt_mm_teardown(t);
}

static void brk_grows_and_shrinks(struct ktest *t)
{
	kt_mm_setup();
	kt_mm.start_brk = kt_mm.brk = P(100);
	KTEST_EXPECT_EQ(t, do_brk(&kt_mm, P(100) + 10), P(100) + 10);	/* one page now */
	KTEST_EXPECT_STREQ(t, layout(), "100-101w;");
	KTEST_EXPECT_EQ(t, do_brk(&kt_mm, P(103)), P(103));
	KTEST_EXPECT_STREQ(t, layout(), "100-103w;");
	mmap_region(&kt_mm, P(105), P(1), RO, NULL, 0);
	KTEST_EXPECT_EQ(t, do_brk(&kt_mm, P(106)), P(103));		/* would hit it: refused */
	KTEST_EXPECT_EQ(t, do_brk(&kt_mm, P(99)), P(103));		/* below the start: nothing */
	KTEST_EXPECT_EQ(t, do_brk(&kt_mm, P(101) + 1), P(101) + 1);	/* shrunk to two pages */
	KTEST_EXPECT_STREQ(t, layout(), "100-102w;105-106r;");
	KTEST_EXPECT_EQ(t, do_brk(&kt_mm, P(100)), P(100));
	KTEST_EXPECT_STREQ(t, layout(), "105-106r;");
	kt_mm_teardown(t);
}

/* The model: per page of user space, mapped or not, its flags, file and file page. */
struct kt_page { bool mapped; unsigned long flags, pgoff; struct file *file; };
static struct kt_page model[KT_PAGES];

static uint32_t kt_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static bool model_agrees(struct ktest *t)
{
	for (unsigned long pg = 0; pg < KT_PAGES; pg++) {
		struct vm_area_struct *v = vma_lookup(&kt_mm, P(pg));

		if (!!v != model[pg].mapped || (v && (v->vm_flags != model[pg].flags ||
		    v->vm_file != model[pg].file ||
		    v->vm_pgoff + pg - (v->vm_start >> PAGE_SHIFT) != model[pg].pgoff))) {
			kprintf("    # page %lu: areas say %s, the model %s\n", pg,
				v ? "mapped" : "unmapped", model[pg].mapped ? "mapped" : "unmapped");
			ktest_fail_msg(t, __FILE__, __LINE__, "areas and model disagree");
			return false;
		}
	}
	return true;
}

static void random_against_model(struct ktest *t)
{
	static const unsigned long flag_set[] = { RW, RO, VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYEXEC };
	uint32_t seed = 20261206;

	kt_mm_setup();
	memset(model, 0, sizeof(model));
	for (int op = 0; op < 3000; op++) {
		unsigned long pg = 1 + kt_rand(&seed) % (KT_PAGES - 1);
		unsigned long n = 1 + kt_rand(&seed) % 16, what = kt_rand(&seed) % 8;

		if (pg + n > KT_PAGES)
			n = KT_PAGES - pg;
		if (what < 3) {				/* map, anonymous or a file */
			unsigned long flags = flag_set[kt_rand(&seed) % 3];
			struct file *f = what == 0 ? NULL : what == 1 ? FA : FB;
			unsigned long pgoff = kt_rand(&seed) % 4 ? pg : kt_rand(&seed) % 64;

			KTEST_ASSERT_EQ(t, mmap_region(&kt_mm, P(pg), P(n), flags, f, pgoff), (long)P(pg));
			for (unsigned long i = 0; i < n; i++)
				model[pg + i] = (struct kt_page){ true, flags, f ? pgoff + i : pg + i, f };
		} else if (what < 5) {
			KTEST_ASSERT_EQ(t, do_munmap(&kt_mm, P(pg), P(n)), 0);
			for (unsigned long i = 0; i < n; i++)
				model[pg + i].mapped = false;
		} else {				/* mprotect, allowed only where all is mapped */
			unsigned long prot = kt_rand(&seed) % 2 ? VM_READ : VM_READ | VM_WRITE;
			bool whole = true, may = true;

			for (unsigned long i = 0; i < n; i++) {
				whole &= model[pg + i].mapped;
				if (model[pg + i].mapped && (prot & VM_WRITE) && !(model[pg + i].flags & VM_MAYWRITE))
					may = false;
			}
			int want = !whole ? -ENOMEM : !may ? -EACCES : 0;
			int err = mprotect_fixup_range(&kt_mm, P(pg), P(pg + n), prot);
			/* A hole and a forbidden area: whichever comes first is reported. */
			if (whole || may)
				KTEST_ASSERT_EQ(t, err, want);
			else
				KTEST_ASSERT_TRUE(t, err == -ENOMEM || err == -EACCES);
			if (!err)
				for (unsigned long i = 0; i < n; i++)
					model[pg + i].flags = (model[pg + i].flags & ~VM_PROT_MASK) | prot;
		}
		if (vma_check(&kt_mm, kprintf) || !model_agrees(t)) {
			ktest_fail_msg(t, __FILE__, __LINE__, "after a random operation");
			break;
		}
	}
	kprintf("    # %d areas at the end, %lu pages\n", kt_mm.map_count, kt_mm.total_vm);
	kt_mm_teardown(t);
}

static const struct ktest_case vma_cases[] = {
	KTEST_CASE(lookups),
	KTEST_CASE(merge_and_replace),
	KTEST_CASE(munmap_and_mprotect),
	KTEST_CASE(unmapped_area_search),
	KTEST_CASE(brk_grows_and_shrinks),
	KTEST_CASE(random_against_model),
	{}
};
KTEST_SUITE(vma, vma_cases);
