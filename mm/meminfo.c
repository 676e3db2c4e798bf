/*
 * meminfo.c - the `meminfo` command: /proc/meminfo's lines in Linux v6.10's format and order
 * ("Name:" padded to 16 columns, the value 8 wide, " kB").  MemTotal is the frames the page
 * allocator manages (an inflated balloon's frames are not: adjust_managed_page_count), MemFree
 * the frames on the buddy lists (NR_FREE_PAGES: not those on the per-CPU lists), MemAvailable
 * v6.10's si_mem_available() estimate (free less the reserves, plus the page cache and
 * reclaimable slab that reclaim could free, each less what the low watermarks keep), Buffers the page cache of block devices, Cached the files' (every other page
 * of the page cache less the swap cache), SwapCached the swap cache (mm/swap_state.c),
 * SwapTotal and SwapFree the swap areas' slots (mm/swapfile.c), Slab and its parts the frames in
 * slabs, HardwareCorrupted the frames memory_failure() poisoned (num_poisoned_pages,
 * mm/hwpoison_state.c).
 *
 * Where tinymm differs from v6.10, and why: only the lines tinymm has a counter for; the others
 * come with the subsystems they count.  KReclaimable is SReclaimable: tinymm has no other
 * reclaimable kernel memory.
 */
#include "tinymm/memblock.h"
#include "tinymm/memory-failure.h"
#include "tinymm/meminfo.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/swapfile.h"
#include "tinymm/vmstat.h"
#include "internal.h"

static void show_val_kb(const char *name, unsigned long long bytes)
{
	kprintf("%-16s%8llu kB\n", name, bytes >> 10);
}

/*
 * v6.10's si_mem_available().  totalreserve_pages is worked out here from the zones as they are
 * now (v6.10's calculate_totalreserve_pages() at set-up): a zone's largest lowmem_reserve plus
 * its high watermark, at most its managed frames.
 */
static unsigned long si_mem_available(void)
{
	unsigned long wmark_low = 0, reserve = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		const struct zone *z = &zones[i];
		unsigned long managed = READ_ONCE(z->managed_pages), max = 0;

		if (!managed)
			continue;
		wmark_low += z->_watermark[WMARK_LOW];
		for (int j = i; j < MAX_NR_ZONES; j++)
			max = max(max, z->lowmem_reserve[j]);
		max += z->_watermark[WMARK_HIGH];
		reserve += min(max, managed);
	}
	long available = (long)nr_free_pages() - (long)reserve;
	unsigned long pagecache = global_node_page_state(NR_ACTIVE_FILE) +
				  global_node_page_state(NR_INACTIVE_FILE);
	pagecache -= min(pagecache / 2, wmark_low);
	available += (long)pagecache;
	unsigned long reclaimable = slab_pages_reclaimable();
	reclaimable -= min(reclaimable / 2, wmark_low);
	available += (long)reclaimable;
	return available < 0 ? 0 : (unsigned long)available;
}

static phys_addr_t memtotal;
static unsigned long (*blockdev_pages)(void);

void meminfo_set_blockdev_pages(unsigned long (*fn)(void))
{
	blockdev_pages = fn;
}

void meminfo_set_total(phys_addr_t bytes)
{
	memtotal = bytes;
}

static int cmd_meminfo(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	/* Once the page allocator runs, it is the truth; before it (and in host tests of this file
	 * alone) memblock's usable memory is. */
	if (totalram_pages()) {
		show_val_kb("MemTotal:", (unsigned long long)totalram_pages() << PAGE_SHIFT);
		show_val_kb("MemFree:", (unsigned long long)nr_free_pages() << PAGE_SHIFT);
		show_val_kb("MemAvailable:", (unsigned long long)si_mem_available() << PAGE_SHIFT);
		/* Linux counts a block device's page cache in Buffers, the files' in Cached. */
		unsigned long file = global_node_page_state(NR_FILE_PAGES);
		unsigned long bdev = blockdev_pages ? blockdev_pages() : 0;
		if (bdev > file)
			bdev = file;	/* the two counts are read at different moments */
		/* v6.10: Cached is the page cache less the swap cache and Buffers. */
		unsigned long swapcache = total_swapcache_pages();
		long cached = (long)file - (long)swapcache - (long)bdev;
		show_val_kb("Buffers:", (unsigned long long)bdev << PAGE_SHIFT);
		show_val_kb("Cached:", (unsigned long long)(cached < 0 ? 0 : cached) << PAGE_SHIFT);
		show_val_kb("SwapCached:", (unsigned long long)swapcache << PAGE_SHIFT);
		/* The LRU lines: the totals, then anon (mm/memory.c's folios), then file. */
		unsigned long act_anon = global_node_page_state(NR_ACTIVE_ANON);
		unsigned long inact_anon = global_node_page_state(NR_INACTIVE_ANON);
		show_val_kb("Active:", (unsigned long long)(act_anon + global_node_page_state(NR_ACTIVE_FILE))
			    << PAGE_SHIFT);
		show_val_kb("Inactive:", (unsigned long long)(inact_anon +
			    global_node_page_state(NR_INACTIVE_FILE)) << PAGE_SHIFT);
		show_val_kb("Active(anon):", (unsigned long long)act_anon << PAGE_SHIFT);
		show_val_kb("Inactive(anon):", (unsigned long long)inact_anon << PAGE_SHIFT);
		show_val_kb("Active(file):", (unsigned long long)global_node_page_state(NR_ACTIVE_FILE)
			    << PAGE_SHIFT);
		show_val_kb("Inactive(file):", (unsigned long long)global_node_page_state(NR_INACTIVE_FILE)
			    << PAGE_SHIFT);
		show_val_kb("Unevictable:", (unsigned long long)global_node_page_state(NR_UNEVICTABLE)
			    << PAGE_SHIFT);
		show_val_kb("Mlocked:", (unsigned long long)global_node_page_state(NR_MLOCK) << PAGE_SHIFT);
		/* The swap areas (mm/swapfile.c): usable slots, and the free ones of the areas that
		 * take writes. */
		long swapfree = get_nr_swap_pages();
		show_val_kb("SwapTotal:", (unsigned long long)READ_ONCE(total_swap_pages) << PAGE_SHIFT);
		show_val_kb("SwapFree:", (unsigned long long)(swapfree < 0 ? 0 : swapfree) << PAGE_SHIFT);
		/* Dirty and Writeback after the LRU and swap lines, before AnonPages. */
		show_val_kb("Dirty:", (unsigned long long)global_node_page_state(NR_FILE_DIRTY)
			    << PAGE_SHIFT);
		show_val_kb("Writeback:", (unsigned long long)global_node_page_state(NR_WRITEBACK)
			    << PAGE_SHIFT);
		/* Pages mapped into user space (mm/memory.c): anonymous, and the page cache's. */
		show_val_kb("AnonPages:", (unsigned long long)global_node_page_state(NR_ANON_MAPPED)
			    << PAGE_SHIFT);
		show_val_kb("Mapped:", (unsigned long long)global_node_page_state(NR_FILE_MAPPED)
			    << PAGE_SHIFT);
		/* The slab lines (the lines between come with their subsystems).  KReclaimable is
		 * SReclaimable (see the header). */
		unsigned long long sr = (unsigned long long)slab_pages_reclaimable() << PAGE_SHIFT;
		unsigned long long su = (unsigned long long)slab_pages_unreclaimable() << PAGE_SHIFT;
		show_val_kb("KReclaimable:", sr);
		show_val_kb("Slab:", sr + su);
		show_val_kb("SReclaimable:", sr);
		show_val_kb("SUnreclaim:", su);
		/* The next lines (KernelStack, the commit limits... come with their subsystems). */
		show_val_kb("PageTables:", (unsigned long long)global_node_page_state(NR_PAGETABLE)
			    << PAGE_SHIFT);
		show_val_kb("VmallocTotal:", vmalloc_total);
		show_val_kb("VmallocUsed:", (unsigned long long)atomic_long_read(&nr_vmalloc_pages)
			    << PAGE_SHIFT);
		show_val_kb("VmallocChunk:", 0);	/* Linux always prints 0 */
		/* After Percpu (not printed yet), in a width of its own, as Linux prints it. */
		kprintf("HardwareCorrupted: %5lu kB\n",
			(unsigned long)atomic_long_read(&num_poisoned_pages) << (PAGE_SHIFT - 10));
	} else {
		show_val_kb("MemTotal:", memtotal);
		show_val_kb("MemFree:", memblock_size_of(MEMBLOCK_USABLE));
	}
	return 0;
}
SHELL_COMMAND(meminfo, "", "memory usage, in /proc/meminfo's format", cmd_meminfo);
