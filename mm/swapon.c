/*
 * swapon.c - the swap areas' life: swapon (a block device whose page 0 mkswap wrote becomes
 * area swap_info[type]), swapoff (every page brought back in, then the area gone),
 * try_to_unuse, and /proc/swaps.  Linux v6.10's SYSCALL swapon/swapoff, try_to_unuse and
 * swap_show (mm/swapfile.c); the slots are mm/swapfile.c's, the header check
 * mm/swap_header.c's.  docs/swap.md.
 *
 * Priorities as v6.10 without SWAP_FLAG_PREFER: the first area -2, the next -3, ...; when an
 * area with a negative priority goes, the ones below it move up by one.
 *
 * swapoff, in v6.10's order: refuse (-ENOMEM, nothing changed) if the slots in use could not
 * come back (more than the free pages plus the page cache, less the min watermarks: v6.10 asks
 * security_vm_enough_memory_mm for all of si->pages, overcommit's view); clear SWP_WRITEOK and
 * take the area's free slots out of nr_swap_pages and all its slots out of total_swap_pages;
 * try_to_unuse(); on failure put both back (v6.10's reinsert_swap_info, which also gives the
 * area the lowest priority); on success free the map.
 *
 * try_to_unuse brings every swap pte of the area back in with swapin_unuse_pte() (the fault
 * path's do_swap_page without the access check, so PROT_NONE areas' pages come back too: it
 * reads the slot into the swap cache and maps it), mm by mm under mmap_lock;
 * then frees the swap-cache folios of the area that no pte names any more (folio_free_swap),
 * until no slot is in use.  v6.10 walks the page tables itself (unuse_pte_range) and maps
 * what read_swap_cache_async gives it; going through the fault path keeps one place that turns
 * a swap pte into a mapping.  A read error stops swapoff (-EIO, the area put back): v6.10 maps
 * a poison marker instead and carries on.
 *
 * Where tinymm differs from v6.10, and why: block devices only (no swap files, no extents:
 * "extents:1"); no discard, no SWP_SOLIDSTATE (the flags after "across:" are empty); a device
 * is refused if it or its disk or a partition of it is a swap area already (v6.10: the
 * exclusive open's -EBUSY); mounted filesystems are not looked for.
 *
 * Locking: swapon_mutex serialises swapon, swapoff and swap_show (v6.10's); swap_lock then
 * si->lock for the flags, the counters and the priorities; mmap_lock of each mm while its
 * ptes are faulted in; the folio lock for folio_free_swap.
 */
#include <stdarg.h>
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/errno.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/swapfile.h"
#include "tinymm/user_task.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"
#include "internal.h"

#define K(pages)	((unsigned long)(pages) << (PAGE_SHIFT - 10))

static DEFINE_MUTEX(swapon_mutex);
/* The areas' structs: never freed (see mm/swapfile.c's header); swap_info[i] points at
 * swap_areas[i] from its first swapon on. */
static struct swap_info_struct swap_areas[MAX_SWAPFILES];
static int least_priority = -1;	/* swap_lock */

/* "vdb" from "vdb" or "/dev/vdb". */
static const char *swap_dev_name(const char *name)
{
	return strncmp(name, "/dev/", 5) ? name : name + 5;
}

/* Does @a share sectors with @b (the same device, or a disk and one of its partitions)? */
static bool bdev_overlaps(struct block_device *a, struct block_device *b)
{
	if (a == b)
		return true;
	if (bdev_whole(a) != bdev_whole(b))
		return false;
	return !bdev_is_partition(a) || !bdev_is_partition(b);
}

/* The live area on @bdev, or NULL.  swapon_mutex held. */
static struct swap_info_struct *find_area(struct block_device *bdev, bool overlapping)
{
	lockdep_assert_held(&swapon_mutex);
	for (unsigned int i = 0; i < MAX_SWAPFILES; i++) {
		struct swap_info_struct *si = swap_info[i];

		if (si && (si->flags & SWP_USED) &&
		    (overlapping ? bdev_overlaps(si->bdev, bdev) : si->bdev == bdev))
			return si;
	}
	return NULL;
}

/* Page 0 of @bdev into @page: 0 or the bio's -errno. */
static int read_page0(struct block_device *bdev, struct page *page)
{
	struct bio *bio = bio_alloc(bdev, 1, REQ_OP_READ, GFP_KERNEL);
	int err;

	if (!bio)
		return -ENOMEM;
	bio->bi_sector = 0;
	if (bio_add_page(bio, page, PAGE_SIZE, 0) != PAGE_SIZE) {
		bio_put(bio);
		return -EIO;
	}
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* The last refusal's line, for the KTAP suite (kprintf goes to the console only). */
static char swap_error_line[160];

const char *swap_last_error(void)
{
	return swap_error_line;
}

static int swap_fail(const char *cmd, const char *dev, int err, const char *fmt, ...)
{
	char why[120];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ksnprintf(swap_error_line, sizeof(swap_error_line), "%s: %s: %s", cmd, dev, why);
	kprintf("%s\n", swap_error_line);
	return err;
}
#define swapon_fail(dev, err, why)	swap_fail("swapon", dev, err, "%s", why)

/*
 * The map: from the slab when it fits a kmalloc cache (an area up to 4 MiB with 4 KiB pages:
 * no vmalloc area and guard page for 2 KiB), vmalloc'd above (v6.10 always vzallocs).
 */
static uint16_t *swap_map_alloc(unsigned long slots)
{
	size_t bytes = slots * sizeof(uint16_t);

	return bytes <= KMALLOC_MAX_CACHE_SIZE ? kmalloc(bytes, GFP_KERNEL) : vmalloc(bytes);
}

static void swap_map_free(uint16_t *map, unsigned long slots)
{
	if (slots * sizeof(uint16_t) <= KMALLOC_MAX_CACHE_SIZE)
		kfree(map);
	else
		vfree(map);
}

/* The most slots an area can have: the largest offset a swap pte holds, plus one (v6.10's
 * generic_max_swapfile_size). */
static unsigned long max_swapfile_size(void)
{
	swp_entry_t e = pte_to_swp_entry(swp_entry_to_pte(swp_entry(0, ~0UL)));

	return swp_offset(e) + 1;
}

int sys_swapon(const char *name)
{
	const char *dev = swap_dev_name(name);
	struct swap_info_struct *si = NULL;
	struct block_device *bdev;
	struct page *page;
	unsigned long maxpages, dev_pages;
	const char *why;
	uint16_t *map;
	int err;

	swap_error_line[0] = '\0';
	bdev = blkdev_get_by_name(dev);
	if (!bdev)
		return swapon_fail(dev, -ENODEV, "No such device");
	mutex_lock(&swapon_mutex);
	if (find_area(bdev, true)) {
		err = swapon_fail(dev, -EBUSY, "Device or resource busy");
		goto out;
	}
	unsigned int type;
	for (type = 0; type < MAX_SWAPFILES; type++) {
		if (!swap_info[type] || !(swap_info[type]->flags & SWP_USED))
			break;
	}
	if (type == MAX_SWAPFILES) {
		err = swapon_fail(dev, -EPERM, "too many swap areas (MAX_SWAPFILES)");
		goto out;
	}
	si = &swap_areas[type];
	dev_pages = (unsigned long)(bdev->bd_nr_sectors >> (PAGE_SHIFT - SECTOR_SHIFT));
	if (!dev_pages) {
		err = swapon_fail(dev, -EINVAL, "device smaller than one page");
		goto out;
	}
	page = alloc_page(GFP_KERNEL);
	if (!page) {
		err = swapon_fail(dev, -ENOMEM, "no memory for the header");
		goto out;
	}
	err = read_page0(bdev, page);
	if (err) {
		char buf[BLK_ERRSTR_LEN], line[80];

		ksnprintf(line, sizeof(line), "reading the swap header: %s",
			 blk_errstr(err, buf, sizeof(buf)));
		swapon_fail(dev, err, line);
		goto out_page;
	}
	void *hdr = page_address(page);
	err = swap_header_check(hdr, PAGE_SIZE, dev_pages, &maxpages, &why);
	if (err) {
		swapon_fail(dev, err, why);
		goto out_page;
	}
	swap_header_to_cpu(hdr);
	if (maxpages > max_swapfile_size()) {
		pr_warn("Truncating oversized swap area, only using %luk out of %luk\n",
			K(max_swapfile_size()), K(maxpages));
		maxpages = max_swapfile_size();
	}
	map = swap_map_alloc(maxpages);
	if (!map) {
		err = swapon_fail(dev, -ENOMEM, "no memory for the swap map");
		goto out_page;
	}
	const struct swap_header_info *h = (const void *)((char *)hdr + SWAP_HEADER_BOOTBITS);

	if (!swap_info[type])
		spin_lock_init(&si->lock);
	/* Not SWP_USED yet: lookups of stale entries see a dead area and leave it alone. */
	swap_info_init_map(si, map, maxpages, h->badpages, h->nr_badpages);
	if (!si->pages) {
		swap_map_free(map, maxpages);
		err = swapon_fail(dev, -EINVAL, "Empty swap-file");
		goto out_page;
	}
	init_swap_address_space(type);
	spin_lock(&swap_lock);
	spin_lock(&si->lock);
	si->type = type;
	si->bdev = bdev;
	si->prio = (short)--least_priority;
	si->flags = SWP_USED | SWP_WRITEOK;
	swap_info[type] = si;
	atomic_long_add((long)si->pages, &nr_swap_pages);
	total_swap_pages += (long)si->pages;
	spin_unlock(&si->lock);
	spin_unlock(&swap_lock);
	pr_info("Adding %luk swap on /dev/%s.  Priority:%d extents:%d across:%lluk %s%s%s%s\n",
		K(si->pages), bdev->bd_name, si->prio, 1, (unsigned long long)K(si->pages),
		"", "", "", "");
	err = 0;
out_page:
	__free_page(page);
out:
	mutex_unlock(&swapon_mutex);
	return err;
}

/* ---- swapoff ---- */

/* Fault in every pte of @mm that names a slot of area @type: 0, -ENOMEM or -EIO. */
static int unuse_mm(struct mm_struct *mm, unsigned int type)
{
	int err = 0;

	mutex_lock(&mm->mmap_lock);
	for (int i = 0; !err && mm->pgd && i < mm->map_count; i++) {
		struct vm_area_struct *vma = mm->vmas[i];
		unsigned long addr = vma->vm_start;

		while (!err && addr < vma->vm_end) {
			unsigned long next = pmd_addr_end(addr, vma->vm_end);
			bool found = false;
			pte_t *pte;

			spin_lock(&mm->page_table_lock);
			pte = user_pte_lookup(mm, addr);
			for (; pte && addr < next; addr += PAGE_SIZE, pte++) {
				pte_t v = ptep_get(pte);

				if (is_swap_pte(v) && !is_hwpoison_entry(pte_to_swp_entry(v)) &&
				    swp_type(pte_to_swp_entry(v)) == type) {
					found = true;
					break;
				}
			}
			spin_unlock(&mm->page_table_lock);
			if (!found) {
				addr = next;
				continue;
			}
			vm_fault_t ret = swapin_unuse_pte(vma, addr);

			if (ret & VM_FAULT_OOM)
				err = -ENOMEM;
			else if (ret & VM_FAULT_ERROR)
				err = -EIO;
			addr += PAGE_SIZE;
		}
	}
	mutex_unlock(&mm->mmap_lock);
	return err;
}

#define UNUSE_MMS_MAX	64
struct mm_list {
	struct mm_struct *mm[UNUSE_MMS_MAX];
	int nr;
	bool truncated;
};

/* for_each_task's callback (tasklist_lock held, under which an exiting task clears ->mm before
 * its mmput: a non-NULL ->mm still has the task's reference): each mm once (a user task's, or
 * one a kernel thread borrowed with kthread_use_mm), with a reference. */
static void collect_mm(struct task_struct *p, void *arg)
{
	struct mm_list *l = arg;
	struct mm_struct *mm = p->mm;

	/* Only an mm with swap entries has anything to bring back (and a list of 64 taken up by
	 * mms without any would make every pass see the same 64). */
	if (!mm || !get_mm_counter(mm, MM_SWAPENTS))
		return;
	for (int i = 0; i < l->nr; i++)
		if (l->mm[i] == mm)
			return;
	if (l->nr == UNUSE_MMS_MAX) {
		l->truncated = true;
		return;
	}
	mmget(mm);
	l->mm[l->nr++] = mm;
}

/* Free the slots of @si that only the swap cache holds (no pte names them). */
static void unuse_swap_cache(struct swap_info_struct *si)
{
	for (unsigned long off = 1; off < si->max; off++) {
		spin_lock(&si->lock);
		bool cache_only = si->swap_map[off] == SWAP_HAS_CACHE;
		spin_unlock(&si->lock);
		if (!cache_only)
			continue;
		struct folio *folio = swap_cache_get_folio(swp_entry(si->type, off));

		if (!folio)
			continue;	/* being added or deleted: the next pass sees it */
		folio_lock(folio);
		folio_wait_writeback(folio);
		if (folio_test_swapcache(folio) && folio_swap_entry(folio).val ==
		    swp_entry(si->type, off).val)
			folio_free_swap(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
}

static unsigned long area_inuse(struct swap_info_struct *si)
{
	spin_lock(&si->lock);
	unsigned long n = si->inuse_pages;
	spin_unlock(&si->lock);
	return n;
}

int try_to_unuse(unsigned int type)
{
	struct swap_info_struct *si = swap_info[type];
	unsigned long inuse = area_inuse(si);
	struct mm_list *l;
	int err = 0;

	if (!inuse)
		return 0;
	l = kmalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	for (;;) {
		l->nr = 0;
		l->truncated = false;
		for_each_task(collect_mm, l);
		for (int i = 0; i < l->nr; i++) {
			if (!err)
				err = unuse_mm(l->mm[i], type);
			mmput(l->mm[i]);
		}
		if (err)
			break;
		unuse_swap_cache(si);
		unsigned long now = area_inuse(si);

		if (!now)
			break;
		/* Progress, or more mms than one pass holds: again.  Otherwise the slots left
		 * are named by nothing this walk can reach. */
		if (now >= inuse && !l->truncated) {
			pr_err("swapoff: %lu slots of area %u are held but no pte or cache folio "
			       "names them\n", now, type);
			err = -EIO;
			break;
		}
		inuse = now;
	}
	kfree(l);
	return err;
}

static unsigned long swapoff_available_pages(void)
{
	/* The page cache can make room; the swap cache (counted in NR_FILE_PAGES, as v6.10)
	 * holds the very pages coming back. */
	unsigned long avail = nr_free_pages() + global_node_page_state(NR_FILE_PAGES) -
			      global_node_page_state(NR_SWAPCACHE);
	unsigned long min = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		min += zones[i]._watermark[WMARK_MIN];
	return avail > min ? avail - min : 0;
}

int sys_swapoff(const char *name)
{
	const char *dev = swap_dev_name(name);

	swap_error_line[0] = '\0';
	struct block_device *bdev = blkdev_get_by_name(dev);
	struct swap_info_struct *si;
	int err;

	if (!bdev)
		return swap_fail("swapoff", dev, -ENODEV, "No such device");
	mutex_lock(&swapon_mutex);
	si = find_area(bdev, false);
	if (!si) {
		err = swap_fail("swapoff", dev, -EINVAL, "Invalid argument (not a swap area)");
		goto out;
	}
	unsigned long inuse = area_inuse(si), avail = swapoff_available_pages();

	if (inuse > avail) {
		err = swap_fail("swapoff", dev, -ENOMEM,
				"Cannot allocate memory (%luk in use, room for %luk)", K(inuse), K(avail));
		goto out;
	}
	spin_lock(&swap_lock);
	spin_lock(&si->lock);
	si->flags &= ~SWP_WRITEOK;
	atomic_long_sub((long)(si->pages - si->inuse_pages), &nr_swap_pages);
	total_swap_pages -= (long)si->pages;
	spin_unlock(&si->lock);
	if (si->prio < 0) {
		/* The areas below it move up one (v6.10). */
		for (unsigned int i = 0; i < MAX_SWAPFILES; i++) {
			struct swap_info_struct *o = swap_info[i];

			if (o && o != si && (o->flags & SWP_USED) && o->prio < si->prio)
				o->prio++;
		}
		least_priority++;
	}
	spin_unlock(&swap_lock);

	err = try_to_unuse(si->type);

	spin_lock(&swap_lock);
	spin_lock(&si->lock);
	uint16_t *map = NULL;
	unsigned long max = si->max;

	if (err) {
		/* v6.10's reinsert_swap_info: back on, at the lowest priority. */
		if (si->prio < 0)
			si->prio = (short)--least_priority;
		si->flags |= SWP_WRITEOK;
		atomic_long_add((long)(si->pages - si->inuse_pages), &nr_swap_pages);
		total_swap_pages += (long)si->pages;
	} else {
		map = si->swap_map;
		si->swap_map = NULL;
		si->flags = 0;
		si->bdev = NULL;
		si->inuse_pages = 0;
	}
	spin_unlock(&si->lock);
	spin_unlock(&swap_lock);
	if (err)
		swap_fail("swapoff", dev, err, "%s (%lu slots still in use, the area stays on)",
			  err == -ENOMEM ? "Cannot allocate memory" : "Input/output error",
			  area_inuse(si));
	if (!err)
		exit_swap_address_space(si->type);
	if (map)
		swap_map_free(map, max);
out:
	mutex_unlock(&swapon_mutex);
	return err;
}

void swap_show(int (*pr)(const char *fmt, ...))
{
	mutex_lock(&swapon_mutex);
	pr("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	for (unsigned int i = 0; i < MAX_SWAPFILES; i++) {
		struct swap_info_struct *si = swap_info[i];

		if (!si || !(si->flags & SWP_USED))
			continue;
		char path[24];
		int len = ksnprintf(path, sizeof(path), "/dev/%s", si->bdev->bd_name);
		unsigned long bytes = K(si->pages), inuse = K(area_inuse(si));

		pr("%s%*s%s\t%lu\t%s%lu\t%s%d\n", path, len < 40 ? 40 - len : 1, " ", "partition",
		   bytes, bytes < 10000000 ? "\t" : "", inuse, inuse < 10000000 ? "\t" : "",
		   si->prio);
	}
	mutex_unlock(&swapon_mutex);
}
