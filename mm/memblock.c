/*
 * memblock.c - the early physical memory map (see include/tinymm/memblock.h).
 *
 * Invariants: regions[] is sorted by base, no two regions overlap, no region is empty, and two
 * neighbours that touch with the same type are merged, so the table is the canonical form of the
 * map and printing it is the `memmap` output.  Every region lies inside a RAM bank added with
 * memblock_add(); banks never overlap.
 * Locking: none.  memblock is used only during single-threaded boot, before the allocator.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

static struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
static int nr_regions;

static const char *const type_names[MEMBLOCK_NR_TYPES] = {
	[MEMBLOCK_USABLE] = "usable",	[MEMBLOCK_RESERVED] = "reserved",
	[MEMBLOCK_NOMAP] = "no-map",	[MEMBLOCK_KERNEL] = "kernel",
	[MEMBLOCK_DTB] = "dtb",		[MEMBLOCK_FIRMWARE] = "firmware",
	[MEMBLOCK_MEMMAP] = "memmap",
};

const char *memblock_type_name(enum memblock_type type)
{
	return (unsigned)type < MEMBLOCK_NR_TYPES ? type_names[type] : "?";
}

void memblock_reset(void)
{
	nr_regions = 0;
}

int memblock_count(void)
{
	return nr_regions;
}

const struct memblock_region *memblock_region(int i)
{
	return i >= 0 && i < nr_regions ? &regions[i] : NULL;
}

static phys_addr_t rend(const struct memblock_region *r)
{
	return r->base + r->size;
}

static int insert_at(int i, phys_addr_t base, phys_addr_t size, enum memblock_type type)
{
	if (nr_regions == MEMBLOCK_MAX_REGIONS)
		return -ENOSPC;
	memmove(&regions[i + 1], &regions[i], (size_t)(nr_regions - i) * sizeof(regions[0]));
	regions[i] = (struct memblock_region){ base, size, type };
	nr_regions++;
	return 0;
}

static void remove_at(int i)
{
	memmove(&regions[i], &regions[i + 1], (size_t)(nr_regions - i - 1) * sizeof(regions[0]));
	nr_regions--;
}

/* Restore the "touching neighbours of one type are merged" invariant. */
static void merge_neighbours(void)
{
	for (int i = 0; i + 1 < nr_regions;) {
		if (rend(&regions[i]) == regions[i + 1].base && regions[i].type == regions[i + 1].type) {
			regions[i].size += regions[i + 1].size;
			remove_at(i + 1);
		} else {
			i++;
		}
	}
}

int memblock_add(phys_addr_t base, phys_addr_t size, struct memblock_region *conflict)
{
	int i;

	if (size == 0 || base + size < base)
		return -EINVAL;
	for (i = 0; i < nr_regions; i++) {
		if (base < rend(&regions[i]) && regions[i].base < base + size) {
			if (conflict) {
				/* Report the whole bank the overlapped region belongs to. */
				int lo = i, hi = i;
				while (lo > 0 && rend(&regions[lo - 1]) == regions[lo].base)
					lo--;
				while (hi + 1 < nr_regions && rend(&regions[hi]) == regions[hi + 1].base)
					hi++;
				conflict->base = regions[lo].base;
				conflict->size = rend(&regions[hi]) - regions[lo].base;
				conflict->type = MEMBLOCK_USABLE;
			}
			return -EEXIST;
		}
		if (regions[i].base > base)
			break;
	}
	int ret = insert_at(i, base, size, MEMBLOCK_USABLE);
	if (!ret)
		merge_neighbours();
	return ret;
}

long long memblock_reserve(phys_addr_t base, phys_addr_t size, enum memblock_type type)
{
	phys_addr_t end = base + size;
	long long changed = 0;

	if (end < base)
		end = (phys_addr_t)-1;
	/* Count the new entries first, so a full table changes nothing (all or none). */
	int extra = 0;
	for (int i = 0; i < nr_regions; i++) {
		const struct memblock_region *r = &regions[i];
		if (r->type != MEMBLOCK_USABLE || rend(r) <= base || r->base >= end)
			continue;
		extra += (base > r->base) + (end < rend(r));
	}
	if (nr_regions + extra > MEMBLOCK_MAX_REGIONS)
		return -ENOSPC;
	for (int i = 0; i < nr_regions; i++) {
		struct memblock_region *r = &regions[i];
		if (r->type != MEMBLOCK_USABLE || rend(r) <= base || r->base >= end)
			continue;
		phys_addr_t lo = max(r->base, base), hi = min(rend(r), end);
		if (hi < rend(r)) {		/* tail stays usable */
			insert_at(i + 1, hi, rend(r) - hi, MEMBLOCK_USABLE);
			r->size = hi - r->base;
		}
		if (lo > r->base) {		/* head stays usable */
			insert_at(i, r->base, lo - r->base, MEMBLOCK_USABLE);
			i++;
			r = &regions[i];
			r->base = lo;
			r->size = hi - lo;
		}
		r->type = type;
		changed += (long long)(hi - lo);
	}
	merge_neighbours();
	return changed;
}

bool memblock_is_memory(phys_addr_t base, phys_addr_t size)
{
	phys_addr_t cur = base, end = base + size;

	if (end < base)
		return false;
	for (int i = 0; i < nr_regions && cur < end; i++) {
		if (rend(&regions[i]) <= cur)
			continue;
		if (regions[i].base > cur)
			return false;		/* a hole */
		cur = rend(&regions[i]);
	}
	return cur >= end;
}

bool memblock_overlaps_memory(phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size < base ? (phys_addr_t)-1 : base + size;

	for (int i = 0; i < nr_regions; i++)
		if (regions[i].base < end && base < rend(&regions[i]))
			return true;
	return false;
}

phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align, enum memblock_type type)
{
	if (!size || !align || (align & (align - 1)))
		return 0;
	for (int i = nr_regions - 1; i >= 0; i--) {
		const struct memblock_region *r = &regions[i];
		if (r->type != MEMBLOCK_USABLE || r->size < size)
			continue;
		phys_addr_t start = ALIGN_DOWN(rend(r) - size, align);
		/* Physical address 0 is the failure value, so never hand it out. */
		if (start < r->base || start == 0)
			continue;
		if (memblock_reserve(start, size, type) != (long long)size)
			return 0;		/* the table is full */
		return start;
	}
	return 0;
}

phys_addr_t memblock_phys_mem_size(void)
{
	phys_addr_t sum = 0;

	for (int i = 0; i < nr_regions; i++)
		sum += regions[i].size;
	return sum;
}

phys_addr_t memblock_size_of(enum memblock_type type)
{
	phys_addr_t sum = 0;

	for (int i = 0; i < nr_regions; i++)
		if (regions[i].type == type)
			sum += regions[i].size;
	return sum;
}

/*
 * mem=nn[KMG] (v6.10: the architectures' early_mem(), memblock_enforce_memory_limit()): keep the
 * lowest nn bytes of RAM.  0 (the default): no limit.  Read once, by kmain, after the device
 * tree's memory is in the map and before anything is allocated from it.
 */
phys_addr_t memory_limit;

static int early_mem(const char *val)
{
	unsigned long long v;

	if (memparse(val, &v) || !v)
		return -1;		/* v6.10 takes 0 or garbage as "no limit", silently */
	memory_limit = v;
	return 0;
}
EARLY_PARAM(mem, early_mem,
	    "nn[KMG]: use only the lowest nn bytes of RAM (Linux's mem=; at least 16 MiB past the kernel image)");

/* v6.10's __find_max_addr(): where @limit bytes of RAM, counted from the lowest, end; 0 if the
 * RAM is not larger than @limit. */
static phys_addr_t find_max_addr(phys_addr_t limit)
{
	for (int i = 0; i < nr_regions; i++) {
		if (limit < regions[i].size)
			return regions[i].base + limit;
		limit -= regions[i].size;
	}
	return 0;
}

void memblock_enforce_memory_limit(phys_addr_t limit)
{
	phys_addr_t max_addr = limit ? find_max_addr(limit) : 0;

	if (!max_addr)
		return;
	while (nr_regions && regions[nr_regions - 1].base >= max_addr)
		nr_regions--;
	if (nr_regions && rend(&regions[nr_regions - 1]) > max_addr)
		regions[nr_regions - 1].size = max_addr - regions[nr_regions - 1].base;
}

/* RAM bytes below @addr. */
static phys_addr_t ram_below(phys_addr_t addr)
{
	phys_addr_t sum = 0;

	for (int i = 0; i < nr_regions && regions[i].base < addr; i++)
		sum += min(rend(&regions[i]), addr) - regions[i].base;
	return sum;
}

int memblock_apply_memory_limit(phys_addr_t limit, char *msg, size_t len)
{
	phys_addr_t total = memblock_phys_mem_size(), kend = 0, need, max_addr, last, asked = 0;
	bool raised = false;

	msg[0] = '\0';
	if (!limit)
		return 0;
	for (int i = 0; i < nr_regions; i++)
		if (regions[i].type == MEMBLOCK_KERNEL)
			kend = rend(&regions[i]);
	need = ram_below(kend) + MEM_LIMIT_MIN;
	limit = ALIGN_DOWN(limit, (phys_addr_t)PAGE_SIZE);
	if (limit >= total) {
		ksnprintf(msg, len, "mem=%lluK is not below the %lluK of RAM: no limit",
			  (unsigned long long)(limit >> 10), (unsigned long long)(total >> 10));
		return -1;
	}
	if (need >= total) {
		ksnprintf(msg, len, "mem=%lluK: tinymm needs %lluK (RAM to the kernel image's end, and 16M more), not less than the %lluK of RAM: no limit",
			  (unsigned long long)(limit >> 10), (unsigned long long)(need >> 10),
			  (unsigned long long)(total >> 10));
		return -1;
	}
	if (limit < need) {
		raised = true;
		asked = limit;
		limit = need;
	}
	max_addr = find_max_addr(limit);
	last = rend(&regions[nr_regions - 1]) - 1;
	memblock_enforce_memory_limit(limit);
	if (raised)
		ksnprintf(msg, len, "mem=%lluK is below the %lluK tinymm needs (RAM to the kernel image's end, and 16M more): "
			  "raised to it, [mem 0x%016llx-0x%016llx] removed",
			  (unsigned long long)(asked >> 10), (unsigned long long)(limit >> 10),
			  (unsigned long long)max_addr, (unsigned long long)last);
	else
		ksnprintf(msg, len, "mem=%lluK: [mem 0x%016llx-0x%016llx] removed, %lluK of RAM left",
			  (unsigned long long)(limit >> 10), (unsigned long long)max_addr,
			  (unsigned long long)last, (unsigned long long)(memblock_phys_mem_size() >> 10));
	return raised ? -1 : 1;
}

static phys_addr_t kernel_code, kernel_rwdata;

void memblock_set_kernel_sizes(phys_addr_t code, phys_addr_t rwdata)
{
	kernel_code = code;
	kernel_rwdata = rwdata;
}

/*
 * Linux's boot line: available = usable RAM; reserved = everything else that is not the
 * kernel image (DTB, firmware, no-map, /memreserve/, memblock allocations).
 */
void memblock_summary(char *buf, size_t len)
{
	phys_addr_t total = memblock_phys_mem_size(), avail = memblock_size_of(MEMBLOCK_USABLE);
	phys_addr_t kernel = memblock_size_of(MEMBLOCK_KERNEL);
	phys_addr_t reserved = total - avail - kernel;

	ksnprintf(buf, len, "Memory: %lluK/%lluK available (%lluK kernel code, %lluK rwdata, %lluK reserved)",
		  (unsigned long long)(avail >> 10), (unsigned long long)(total >> 10),
		  (unsigned long long)(kernel_code >> 10), (unsigned long long)(kernel_rwdata >> 10),
		  (unsigned long long)(reserved >> 10));
}

static int cmd_memmap(int argc, char **argv)
{
	char line[160];

	if (shell_no_args(argc, argv))
		return 2;
	for (int i = 0; i < nr_regions; i++)
		kprintf("[mem 0x%016llx-0x%016llx] %s\n", (unsigned long long)regions[i].base,
			(unsigned long long)(rend(&regions[i]) - 1), memblock_type_name(regions[i].type));
	memblock_summary(line, sizeof(line));
	kprintf("%s\n", line);
	return 0;
}
SHELL_COMMAND(memmap, "", "print the early physical memory map (memblock)", cmd_memmap);
