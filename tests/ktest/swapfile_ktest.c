/*
 * swapfile_ktest.c - swap areas on a RAM disk (suite `swapfile`; mm/swapon.c, mm/swapfile.c,
 * docs/swap.md).  ram3 (4 MiB of zeros, drivers/brd.c) gets a header written here, as mkswap
 * lays it out: swapon takes it and counts its slots in, a second swapon of it is refused, a
 * header that is not Linux's or that claims more pages than the disk has is refused with its
 * reason, `swaps` prints /proc/swaps' lines, swapoff of an area with nothing in use gives its
 * slots back, one with a slot no pte or cache folio names fails and puts the area back; after
 * every step nr_swap_pages and total_swap_pages are the sums over the areas; priorities follow
 * swapon order (ram2 and ram3 together) and close up when one goes.  swapoff's walk
 * finds a swap pte of the area in an mm the suite's thread uses and faults it in: before the
 * swap-in path exists the fault fails and swapoff puts the area back (-EIO, the pte kept);
 * with it, the page comes back with the slot's bytes and the area goes.
 */
#include <stdarg.h>
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/brd.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/swapfile.h"
#include "tinymm/user_task.h"

#define DEV		"ram3"
#define DEV_PAGES	((4UL << 20) / PAGE_SIZE)
#define BAD_PAGE	100

/* Write @page to page @index of @b. */
static int write_page(struct block_device *b, struct page *page, unsigned long index)
{
	struct bio *bio = bio_alloc(b, 1, REQ_OP_WRITE, GFP_KERNEL);
	int err;

	if (!bio)
		return -ENOMEM;
	bio->bi_sector = swap_slot_sector(index);
	bio_add_page(bio, page, PAGE_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* Write page 0 of DEV: a header with @last_page, one bad page, @magic at the end. */
static int write_header(struct block_device *b, uint32_t version, uint32_t last_page,
			const char *magic)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	int err;

	if (!page)
		return -ENOMEM;
	unsigned char *p = page_address(page);
	struct swap_header_info *h = (void *)(p + SWAP_HEADER_BOOTBITS);

	h->version = version;
	h->last_page = last_page;
	h->nr_badpages = 1;
	h->badpages[0] = BAD_PAGE;
	memcpy(h->sws_volume, "ktest", 6);
	memcpy(p + PAGE_SIZE - SWAP_MAGIC_LEN, magic, SWAP_MAGIC_LEN);
	err = write_page(b, page, 0);
	__free_page(page);
	return err;
}

static struct block_device *fresh_dev(struct ktest *t)
{
	struct block_device *b = blkdev_get_by_name(DEV);

	if (!b) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no " DEV);
		return NULL;
	}
	if (brd_reset(b)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "brd_reset(" DEV ") failed");
		return NULL;
	}
	return b;
}

static struct swap_info_struct *area_of(struct block_device *b)
{
	for (unsigned int i = 0; i < MAX_SWAPFILES; i++)
		if (swap_info[i] && (swap_info[i]->flags & SWP_USED) && swap_info[i]->bdev == b)
			return swap_info[i];
	return NULL;
}

/* nr_swap_pages and total_swap_pages are the sums over the areas (none is mid-swapoff). */
static void counts_consistent(struct ktest *t)
{
	long nr = 0, total = 0;

	spin_lock(&swap_lock);
	for (unsigned int i = 0; i < MAX_SWAPFILES; i++) {
		struct swap_info_struct *si = swap_info[i];

		if (!si || !(si->flags & SWP_WRITEOK))
			continue;
		spin_lock(&si->lock);
		nr += (long)(si->pages - si->inuse_pages);
		total += (long)si->pages;
		spin_unlock(&si->lock);
	}
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr);
	KTEST_EXPECT_EQ(t, total_swap_pages, total);
	spin_unlock(&swap_lock);
}

static void swapon_counts_the_slots_in(struct ktest *t)
{
	struct block_device *b = fresh_dev(t);

	if (!b)
		return;
	KTEST_ASSERT_EQ(t, write_header(b, 1, DEV_PAGES - 1, SWAP_MAGIC), 0);
	long nr0 = get_nr_swap_pages(), tot0 = total_swap_pages;

	KTEST_ASSERT_EQ(t, sys_swapon(DEV), 0);
	struct swap_info_struct *si = area_of(b);
	KTEST_ASSERT_TRUE(t, si != NULL);
	KTEST_EXPECT_EQ(t, si->flags, SWP_USED | SWP_WRITEOK);
	KTEST_EXPECT_EQ(t, si->max, DEV_PAGES);
	KTEST_EXPECT_EQ(t, si->pages, DEV_PAGES - 2);	/* the header and one bad page */
	KTEST_EXPECT_EQ(t, si->inuse_pages, 0);
	KTEST_EXPECT_TRUE(t, si->prio < -1);
	KTEST_EXPECT_EQ(t, swap_map_value(swp_entry(si->type, BAD_PAGE)), SWAP_MAP_BAD);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr0 + (long)si->pages);
	KTEST_EXPECT_EQ(t, total_swap_pages, tot0 + (long)si->pages);
	KTEST_EXPECT_STREQ(t, swap_last_error(), "");
	counts_consistent(t);
	/* a slot from it, given back */
	unsigned long off = scan_swap_map_slot(si);
	KTEST_EXPECT_EQ(t, off, 1);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr0 + (long)si->pages - 1);
	counts_consistent(t);
	put_swap_folio(swp_entry(si->type, off));
	KTEST_EXPECT_EQ(t, sys_swapoff("/dev/" DEV), 0);
	KTEST_EXPECT_TRUE(t, area_of(b) == NULL);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr0);
	KTEST_EXPECT_EQ(t, total_swap_pages, tot0);
	counts_consistent(t);
}

static void second_swapon_is_busy(struct ktest *t)
{
	struct block_device *b = fresh_dev(t);

	if (!b)
		return;
	KTEST_ASSERT_EQ(t, write_header(b, 1, DEV_PAGES - 1, SWAP_MAGIC), 0);
	KTEST_ASSERT_EQ(t, sys_swapon(DEV), 0);
	long nr = get_nr_swap_pages(), tot = total_swap_pages;

	KTEST_EXPECT_EQ(t, sys_swapon(DEV), -EBUSY);
	KTEST_EXPECT_STREQ(t, swap_last_error(), "swapon: " DEV ": Device or resource busy");
	KTEST_EXPECT_EQ(t, sys_swapon("/dev/" DEV), -EBUSY);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr);
	KTEST_EXPECT_EQ(t, total_swap_pages, tot);
	counts_consistent(t);
	KTEST_EXPECT_EQ(t, sys_swapoff(DEV), 0);
	KTEST_EXPECT_EQ(t, sys_swapoff(DEV), -EINVAL);	/* not on any more */
	KTEST_EXPECT_STREQ(t, swap_last_error(), "swapoff: " DEV ": Invalid argument (not a swap area)");
	counts_consistent(t);
}

/* A header refused: the reason, and nothing changed. */
static void expect_refused(struct ktest *t, struct block_device *b, const char *line)
{
	long nr = get_nr_swap_pages(), tot = total_swap_pages;

	KTEST_EXPECT_EQ(t, sys_swapon(DEV), -EINVAL);
	KTEST_EXPECT_STREQ(t, swap_last_error(), line);
	KTEST_EXPECT_TRUE(t, area_of(b) == NULL);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr);
	KTEST_EXPECT_EQ(t, total_swap_pages, tot);
	counts_consistent(t);
}

static void bad_headers_refused(struct ktest *t)
{
	struct block_device *b = fresh_dev(t);

	if (!b)
		return;
	/* zeros: no signature */
	expect_refused(t, b, "swapon: " DEV ": Unable to find swap-space signature");
	KTEST_ASSERT_EQ(t, write_header(b, 2, DEV_PAGES - 1, SWAP_MAGIC), 0);
	expect_refused(t, b, "swapon: " DEV ": Unable to handle swap header version (not 1)");
	KTEST_ASSERT_EQ(t, write_header(b, 1, DEV_PAGES - 1, "SWAP-SPACE"), 0);
	expect_refused(t, b, "swapon: " DEV ": old swap format (SWAP-SPACE, version 0) not "
			     "supported: run mkswap");
	KTEST_ASSERT_EQ(t, write_header(b, 1, 0, SWAP_MAGIC), 0);
	expect_refused(t, b, "swapon: " DEV ": Empty swap-file (last_page 0)");
	KTEST_ASSERT_EQ(t, write_header(b, 1, BAD_PAGE - 1, SWAP_MAGIC), 0);	/* bad page past it */
	expect_refused(t, b, "swapon: " DEV ": bad page number outside the area");
	KTEST_EXPECT_EQ(t, sys_swapon("nosuchdisk"), -ENODEV);
	KTEST_EXPECT_STREQ(t, swap_last_error(), "swapon: nosuchdisk: No such device");
	KTEST_EXPECT_EQ(t, brd_reset(b), 0);
}

static void short_device_refused(struct ktest *t)
{
	struct block_device *b = fresh_dev(t);

	if (!b)
		return;
	/* what mkswap writes for an 8 MiB area, on a 4 MiB disk; one page over is enough */
	KTEST_ASSERT_EQ(t, write_header(b, 1, 2 * DEV_PAGES - 1, SWAP_MAGIC), 0);
	expect_refused(t, b, "swapon: " DEV ": Swap area shorter than signature indicates");
	KTEST_ASSERT_EQ(t, write_header(b, 1, DEV_PAGES, SWAP_MAGIC), 0);
	expect_refused(t, b, "swapon: " DEV ": Swap area shorter than signature indicates");
	KTEST_EXPECT_EQ(t, brd_reset(b), 0);
}

/* swap_show() into a buffer. */
static char shown[1024];
static size_t shown_len;
static int show_to_buf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(shown + shown_len, sizeof(shown) - shown_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		shown_len = shown_len + (size_t)n < sizeof(shown) ? shown_len + (size_t)n :
			    sizeof(shown) - 1;
	return n;
}

static void swaps_prints_proc_swaps(struct ktest *t)
{
	struct block_device *b = fresh_dev(t);
	char want[128];

	if (!b)
		return;
	shown_len = 0;
	swap_show(show_to_buf);
	KTEST_EXPECT_TRUE(t, !strncmp(shown, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n", 41));
	KTEST_ASSERT_EQ(t, write_header(b, 1, DEV_PAGES - 1, SWAP_MAGIC), 0);
	KTEST_ASSERT_EQ(t, sys_swapon(DEV), 0);
	struct swap_info_struct *si = area_of(b);
	KTEST_ASSERT_TRUE(t, si != NULL);
	unsigned long off = scan_swap_map_slot(si);	/* one slot in use: Used 4 (KiB) */
	shown_len = 0;
	swap_show(show_to_buf);
	/* "/dev/ram3" (9 characters), 31 spaces to column 40, "partition", sizes in KiB */
	ksnprintf(want, sizeof(want), "/dev/" DEV "%31s" "partition\t%lu\t\t%lu\t\t%d\n", "",
		  (DEV_PAGES - 2) * (PAGE_SIZE / 1024), PAGE_SIZE / 1024, si->prio);
	if (!strstr(shown, want)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "swaps lacks the area's line:");
		kprintf("%s---\n%s", shown, want);
	}
	put_swap_folio(swp_entry(si->type, off));
	KTEST_EXPECT_EQ(t, sys_swapoff(DEV), 0);
	shown_len = 0;
	swap_show(show_to_buf);
	KTEST_EXPECT_TRUE(t, strstr(shown, "/dev/" DEV) == NULL);
	KTEST_EXPECT_EQ(t, brd_reset(b), 0);
}

static void swapoff_fails_while_a_slot_is_held(struct ktest *t)
{
	struct block_device *b = fresh_dev(t);

	if (!b)
		return;
	KTEST_ASSERT_EQ(t, write_header(b, 1, DEV_PAGES - 1, SWAP_MAGIC), 0);
	long nr0 = get_nr_swap_pages(), tot0 = total_swap_pages;

	KTEST_ASSERT_EQ(t, sys_swapon(DEV), 0);
	struct swap_info_struct *si = area_of(b);
	KTEST_ASSERT_TRUE(t, si != NULL);
	/* A count no pte holds (a leak, as far as swapoff can see): it cannot finish. */
	unsigned long off = scan_swap_map_slot(si);
	swp_entry_t e = swp_entry(si->type, off);
	KTEST_EXPECT_EQ(t, swap_duplicate(e), 0);
	put_swap_folio(e);
	KTEST_EXPECT_EQ(t, sys_swapoff(DEV), -EIO);
	KTEST_EXPECT_TRUE(t, area_of(b) == si);
	KTEST_EXPECT_EQ(t, si->flags, SWP_USED | SWP_WRITEOK);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr0 + (long)si->pages - 1);
	KTEST_EXPECT_EQ(t, total_swap_pages, tot0 + (long)si->pages);
	counts_consistent(t);
	swap_free(e);
	KTEST_EXPECT_EQ(t, sys_swapoff(DEV), 0);
	KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr0);
	KTEST_EXPECT_EQ(t, total_swap_pages, tot0);
	counts_consistent(t);
	KTEST_EXPECT_EQ(t, brd_reset(b), 0);
}

#define SW_BASE		(256UL << 20)	/* far from 0, inside every board's TASK_SIZE */
#define SW_RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE)

static void swapoff_faults_in_the_areas_ptes(struct ktest *t)
{
	struct block_device *b = fresh_dev(t);
	struct mm_struct *mm;
	struct page *data;

	if (!b)
		return;
	KTEST_ASSERT_EQ(t, write_header(b, 1, DEV_PAGES - 1, SWAP_MAGIC), 0);
	KTEST_ASSERT_EQ(t, sys_swapon(DEV), 0);
	struct swap_info_struct *si = area_of(b);
	KTEST_ASSERT_TRUE(t, si != NULL);
	long nr0 = get_nr_swap_pages();
	/* A slot holding a pattern, named by one pte (count 1, not in the cache): what reclaim
	 * leaves after writing a page out. */
	unsigned long off = scan_swap_map_slot(si);
	swp_entry_t e = swp_entry(si->type, off);
	data = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, data != NULL);
	for (unsigned int i = 0; i < PAGE_SIZE; i++)
		((unsigned char *)page_address(data))[i] = (unsigned char)(i * 7 + 3);
	KTEST_EXPECT_EQ(t, write_page(b, data, off), 0);
	KTEST_EXPECT_EQ(t, swap_duplicate(e), 0);
	put_swap_folio(e);

	mm = mm_alloc();
	KTEST_ASSERT_TRUE(t, mm != NULL);
	kthread_use_mm(mm);
	mutex_lock(&mm->mmap_lock);
	long addr = mmap_region(mm, SW_BASE, 4 * PAGE_SIZE, SW_RW, NULL, 0);
	struct vm_area_struct *vma = vma_lookup(mm, SW_BASE);
	vm_fault_t fr = vma ? handle_mm_fault(vma, SW_BASE, FAULT_FLAG_WRITE) : VM_FAULT_SIGSEGV;
	mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, addr, (long)SW_BASE);
	KTEST_EXPECT_EQ(t, fr, 0);
	/* page 1 of the area: the swap pte (its table is page 0's) */
	spin_lock(&mm->page_table_lock);
	pte_t *ptep = user_pte_lookup(mm, SW_BASE + PAGE_SIZE);
	if (ptep) {
		set_pte_at(mm, SW_BASE + PAGE_SIZE, ptep, swp_entry_to_pte(e));
		add_mm_counter(mm, MM_SWAPENTS, 1);
	}
	spin_unlock(&mm->page_table_lock);
	KTEST_EXPECT_TRUE(t, ptep != NULL);

	int err = sys_swapoff(DEV);
	pte_t pte = ptep ? ptep_get(ptep) : __pte(0);

	if (err) {
		/* No swap-in path yet: the fault failed, nothing was lost. */
		KTEST_EXPECT_EQ(t, err, -EIO);
		KTEST_EXPECT_TRUE(t, area_of(b) == si);
		KTEST_EXPECT_EQ(t, pte_val(pte), pte_val(swp_entry_to_pte(e)));
		KTEST_EXPECT_EQ(t, __swap_count(e), 1);
		KTEST_EXPECT_EQ(t, get_nr_swap_pages(), nr0 - 1);
		counts_consistent(t);
		if (ptep) {
			spin_lock(&mm->page_table_lock);
			pte_clear(mm, SW_BASE + PAGE_SIZE, ptep);
			add_mm_counter(mm, MM_SWAPENTS, -1);
			spin_unlock(&mm->page_table_lock);
		}
		swap_free(e);
		KTEST_EXPECT_EQ(t, sys_swapoff(DEV), 0);
	} else {
		/* The page came back with the slot's bytes. */
		KTEST_EXPECT_TRUE(t, pte_present(pte));
		if (pte_present(pte))
			KTEST_EXPECT_EQ(t, memcmp(page_address(pfn_to_page(pte_pfn(pte))),
						  page_address(data), PAGE_SIZE), 0);
	}
	KTEST_EXPECT_TRUE(t, area_of(b) == NULL);
	counts_consistent(t);
	kthread_unuse_mm(mm);
	mmput(mm);
	__free_page(data);
	KTEST_EXPECT_EQ(t, brd_reset(b), 0);
}

/* v6.10's priorities: -2, -3, ... in swapon order; the areas below one that goes move up;
 * slots come from the highest. */
static void priorities_follow_swapon_order(struct ktest *t)
{
	struct block_device *b2 = blkdev_get_by_name("ram2"), *b3 = fresh_dev(t);

	if (!b3)
		return;
	KTEST_ASSERT_TRUE(t, b2 != NULL);
	KTEST_ASSERT_EQ(t, brd_reset(b2), 0);
	KTEST_ASSERT_EQ(t, write_header(b2, 1, DEV_PAGES - 1, SWAP_MAGIC), 0);
	KTEST_ASSERT_EQ(t, write_header(b3, 1, DEV_PAGES - 1, SWAP_MAGIC), 0);
	KTEST_ASSERT_EQ(t, sys_swapon("ram2"), 0);
	KTEST_ASSERT_EQ(t, sys_swapon(DEV), 0);
	struct swap_info_struct *s2 = area_of(b2), *s3 = area_of(b3);
	KTEST_ASSERT_TRUE(t, s2 && s3);
	int p2 = s2->prio;
	KTEST_EXPECT_EQ(t, s3->prio, p2 - 1);
	counts_consistent(t);
	/* the first slot from ram2 (unless an area above both is on: then from that one) */
	bool highest = true;
	for (unsigned int i = 0; i < MAX_SWAPFILES; i++)
		if (swap_info[i] && (swap_info[i]->flags & SWP_WRITEOK) && swap_info[i]->prio > p2)
			highest = false;
	if (highest) {
		swp_entry_t e = folio_alloc_swap(NULL);
		KTEST_EXPECT_EQ(t, swp_type(e), s2->type);
		put_swap_folio(e);
	}
	KTEST_EXPECT_EQ(t, sys_swapoff("ram2"), 0);
	KTEST_EXPECT_EQ(t, s3->prio, p2);	/* moved up into ram2's place */
	KTEST_EXPECT_EQ(t, sys_swapon("ram2"), 0);
	s2 = area_of(b2);
	KTEST_ASSERT_TRUE(t, s2 != NULL);
	KTEST_EXPECT_EQ(t, s2->prio, p2 - 1);	/* now the lowest */
	counts_consistent(t);
	KTEST_EXPECT_EQ(t, sys_swapoff(DEV), 0);
	KTEST_EXPECT_EQ(t, s2->prio, p2);
	KTEST_EXPECT_EQ(t, sys_swapoff("ram2"), 0);
	counts_consistent(t);
	KTEST_EXPECT_EQ(t, brd_reset(b2), 0);
	KTEST_EXPECT_EQ(t, brd_reset(b3), 0);
}

static const struct ktest_case swapfile_cases[] = {
	KTEST_CASE(swapon_counts_the_slots_in),
	KTEST_CASE(second_swapon_is_busy),
	KTEST_CASE(bad_headers_refused),
	KTEST_CASE(short_device_refused),
	KTEST_CASE(swaps_prints_proc_swaps),
	KTEST_CASE(swapoff_fails_while_a_slot_is_held),
	KTEST_CASE(swapoff_faults_in_the_areas_ptes),
	KTEST_CASE(priorities_follow_swapon_order),
	{}
};
KTEST_SUITE(swapfile, swapfile_cases);
