/*
 * bench_swap.c - the swap rows of `make bench` (see kernel/bench.c for how instructions are
 * counted), on RAM disk ram3 with Linux's header (mm/mkswap.c):
 *   swapout-4k  one mapped anonymous page through reclaim, from isolation to the freed frame:
 *               the references checked (its young bit was taken by an earlier, unmeasured pass),
 *               a slot allocated, the swap cache, the pte turned into a swap entry, the bio
 *               built and submitted, the completion, the folio out of the cache, the frame
 *               freed (shrink_folio_list, as kswapd runs it, through reclaim_folio_for_test);
 *   swapin-4k   a read fault on that page: the folio allocated, the slot taken for the cache,
 *               the read submitted and completed, the folio mapped (do_user_addr_fault), with
 *               readahead off (tinymm.page_cluster's 0) so one sample is one page.
 * "Excluding the device": the RAM disk completes each bio inside submit_bio, and its copy of
 * the page (a memcpy of 4 KiB, measured alone as memcpy-4k is) is subtracted; its page lookup
 * (an XArray load, tens of instructions) stays in.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/swap.h"
#include "tinymm/swapfile.h"
#include "tinymm/user_task.h"

#define NR		128
#define AREA		0x100000UL
#define SWAP_DEV	"ram3"

static uint32_t samples[NR];

static int fail(const char *what, long err)
{
	kprintf("bench: %s: %s\n", what, errname((int)err));
	return 1;
}

static struct folio *folio_at(struct mm_struct *mm, unsigned long addr)
{
	pte_t *ptep, pte;

	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, addr);
	pte = ptep ? ptep_get(ptep) : __pte(0);
	spin_unlock(&mm->page_table_lock);
	return pte_present(pte) ? page_folio(pfn_to_page(pte_pfn(pte))) : NULL;
}

static int bench_swap_rounds(struct mm_struct *mm, uint32_t overhead, uint32_t copy)
{
	int sig = 0, code;
	long addr;

	mutex_lock(&mm->mmap_lock);
	addr = mmap_region(mm, AREA, NR * PAGE_SIZE, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE,
			   NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	if (addr < 0)
		return fail("mmap anon", addr);
	for (int i = 0; i < NR && !sig; i++)
		sig = do_user_addr_fault(AREA + i * PAGE_SIZE, FAULT_FLAG_WRITE | FAULT_FLAG_USER, &code);
	if (sig)
		return fail("anon fault", -EFAULT);
	/* The first pass finds each fault's young bit: kept, and not measured. */
	for (int i = 0; i < NR; i++) {
		struct folio *folio = folio_at(mm, AREA + i * PAGE_SIZE);

		if (!folio || reclaim_folio_for_test(folio, true, false))
			return fail("reclaim's first look", -EINVAL);
	}
	for (int i = 0; i < NR; i++) {
		struct folio *folio = folio_at(mm, AREA + i * PAGE_SIZE);
		unsigned long freed = 0;

		BENCH_MEASURE(samples[i], freed = reclaim_folio_for_test(folio, true, false));
		if (freed != 1)
			return fail("swap-out", -EAGAIN);
	}
	bench_summary("swapout-4k", samples, NR, overhead + copy);
	for (int i = 0; i < NR && !sig; i++)
		BENCH_MEASURE(samples[i], sig = do_user_addr_fault(AREA + i * PAGE_SIZE, FAULT_FLAG_USER,
								    &code));
	if (sig)
		return fail("swap-in", -EFAULT);
	bench_summary("swapin-4k", samples, NR, overhead + copy);
	mutex_lock(&mm->mmap_lock);
	do_munmap(mm, AREA, NR * PAGE_SIZE);
	mutex_unlock(&mm->mmap_lock);
	return 0;
}

int bench_swap(void)
{
	struct block_device *bdev = blkdev_get_by_name(SWAP_DEV);
	unsigned int saved_cluster = page_cluster;
	uint32_t overhead = ~0u, copy;
	struct mm_struct *mm;
	int ret, err;

	if (!bdev)
		return fail(SWAP_DEV, -ENODEV);
	for (int i = 0; i < NR; i++) {
		BENCH_MEASURE(samples[i], (void)0);
		overhead = min(overhead, samples[i]);
	}
	copy = bench_copy_cost(overhead);	/* the RAM disk's share: one page copied */
	err = mkswap_bdev(bdev);
	if (!err)
		err = sys_swapon(SWAP_DEV);
	if (err)
		return fail("swapon " SWAP_DEV, err);
	mm = mm_alloc();
	if (!mm) {
		sys_swapoff(SWAP_DEV);
		return fail("mm_alloc", -ENOMEM);
	}
	page_cluster = 0;
	current->mm = mm;
	ret = bench_swap_rounds(mm, overhead, copy);
	current->mm = NULL;
	mmput(mm);
	page_cluster = saved_cluster;
	err = sys_swapoff(SWAP_DEV);
	if (err && !ret)
		ret = fail("swapoff " SWAP_DEV, err);
	return ret;
}
