/*
 * debug.c - DMA-API debugging, always on (include/tinymm/dma-mapping.h, docs/dma.md): v6.10's
 * CONFIG_DMA_API_DEBUG idea (kernel/dma/debug.c) in a small fixed table.
 *
 * Every streaming mapping is an entry: device, bus address, size, direction, and who owns the
 * buffer now (the device from map and sync_for_device, the CPU from sync_for_cpu).  An unmap
 * or sync is checked against it; each misuse is one WARNING whose message is v6.10's words:
 *   unmap/sync of an address no entry has   "device driver tries to free|sync DMA memory it
 *                                            has not allocated [device address=..] [size=..]"
 *   unmap twice                              the same (the first unmap removed the entry)
 *   unmap with another size                  "device driver frees DMA memory with different
 *                                            size [device address=..] [map size=..] [unmap size=..]"
 *   unmap/sync with another direction        "device driver frees|syncs DMA memory with different
 *                                            direction [device address=..] [size=..] [mapped
 *                                            with ..] [unmapped|synced with ..]"
 *   sync beyond the mapping's end            "device driver syncs DMA memory outside allocated
 *                                            range [device address=..] [allocation size=..]
 *                                            [sync offset+size=..]"
 *   dma_debug_cpu_access() on a buffer the device owns   "cpu touching an active dma mapped
 *                                            buffer [device address=..] [size=..]"
 * (a sync of a BIDIRECTIONAL mapping may name any direction, as v6.10 allows.)  The maintenance
 * that follows a warned unmap or sync uses the mapping's own size and direction, and none at
 * all for an address no entry has, so a driver's mistake costs no one else's bytes.
 * The table holds DMA_DEBUG_ENTRIES; when it is full, one line says so (once per boot) and
 * further mappings are not tracked (v6.10's "DMA-API: debugging out of memory - disabling"):
 * while any of those may still be live, an unmap or sync the table does not know is not
 * judged (an unknown unmap is taken to be one of them), and judging resumes once as many
 * unknown unmaps as untracked mappings have been seen.  (v6.10 stops debugging for good.)
 * Where tinymm differs from v6.10: a fixed array searched linearly instead of a hash of
 * preallocated entries (tens of live mappings, not thousands); no scatterlists, no
 * coherent-allocation tracking, no per-driver filter; ownership is checked only where a driver
 * asks (dma_debug_cpu_access()), since tinymm cannot trap the CPU's loads and stores.
 * Locking: dma_debug_lock (irqsave: the API may be called from interrupts) guards the table
 * and the counters; functions named _locked need it.  WARNINGs are printed after it is
 * dropped, never under it.
 */
#include "tinymm/bug.h"
#include "tinymm/dma-map-ops.h"
#include "tinymm/lockdep.h"
#include "tinymm/memory.h"
#include "tinymm/printk.h"
#include "tinymm/spinlock.h"
#include "tinymm/vmalloc.h"

#define DMA_DEBUG_ENTRIES	256

struct dma_debug_entry {
	struct device *dev;		/* NULL: a free slot */
	dma_addr_t addr;
	size_t size;
	enum dma_data_direction dir;
	bool cpu_owned;			/* synced for the CPU, not yet back to the device */
};

static DEFINE_SPINLOCK(dma_debug_lock);
static struct dma_debug_entry dma_entries[DMA_DEBUG_ENTRIES];
static unsigned int nr_dma_entries;
static unsigned long nr_dma_overflows;	/* mappings the full table did not record, ever */
static unsigned long nr_untracked;	/* of those, the ones not unmapped yet (as far as known) */

static const char *const dir2name[] = {
	[DMA_BIDIRECTIONAL] = "DMA_BIDIRECTIONAL", [DMA_TO_DEVICE] = "DMA_TO_DEVICE",
	[DMA_FROM_DEVICE] = "DMA_FROM_DEVICE", [DMA_NONE] = "DMA_NONE",
};

static const char *dname(enum dma_data_direction dir)
{
	return (unsigned int)dir <= DMA_NONE ? dir2name[dir] : "DMA_?";
}

/* The entry of @dev that starts at @addr, else (unless @exact) one that contains it, or NULL. */
static struct dma_debug_entry *find_locked(struct device *dev, dma_addr_t addr, bool exact)
{
	struct dma_debug_entry *inside = NULL;

	lockdep_assert_held(&dma_debug_lock);
	for (unsigned int i = 0; i < DMA_DEBUG_ENTRIES; i++) {
		struct dma_debug_entry *e = &dma_entries[i];

		if (e->dev != dev)
			continue;
		if (e->addr == addr)
			return e;
		if (!exact && !inside && addr > e->addr && addr - e->addr < e->size)
			inside = e;
	}
	return inside;
}

void debug_dma_map(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	bool first_overflow;
	unsigned long flags;

	spin_lock_irqsave(&dma_debug_lock, flags);
	for (unsigned int i = 0; i < DMA_DEBUG_ENTRIES; i++)
		if (!dma_entries[i].dev) {
			dma_entries[i] = (struct dma_debug_entry){ dev, addr, size, dir, false };
			nr_dma_entries++;
			spin_unlock_irqrestore(&dma_debug_lock, flags);
			return;
		}
	first_overflow = nr_dma_overflows++ == 0;
	nr_untracked++;
	spin_unlock_irqrestore(&dma_debug_lock, flags);
	if (first_overflow)
		pr_err("DMA-API: debugging out of memory - %u mappings tracked, no more\n",
		       DMA_DEBUG_ENTRIES);
}

bool debug_dma_unmap(struct device *dev, dma_addr_t addr, size_t *size,
		     enum dma_data_direction *dir)
{
	struct dma_debug_entry *e, found = { 0 };
	bool untracked;
	unsigned long flags;

	spin_lock_irqsave(&dma_debug_lock, flags);
	e = find_locked(dev, addr, true);
	untracked = nr_untracked != 0;
	if (e) {
		found = *e;
		*e = (struct dma_debug_entry){ 0 };
		nr_dma_entries--;
	} else if (untracked) {
		nr_untracked--;		/* taken to be one of them */
	}
	spin_unlock_irqrestore(&dma_debug_lock, flags);
	if (!found.dev) {
		if (untracked)		/* maybe one the full table did not record */
			return true;
		WARN(1, "DMA-API: %s: device driver tries to free DMA memory it has not allocated [device address=0x%016llx] [size=%zu bytes]",
		     dev_name(dev), (unsigned long long)addr, *size);
		return false;
	}
	if (found.size != *size)
		WARN(1, "DMA-API: %s: device driver frees DMA memory with different size [device address=0x%016llx] [map size=%zu bytes] [unmap size=%zu bytes]",
		     dev_name(dev), (unsigned long long)addr, found.size, *size);
	else if (found.dir != *dir)
		WARN(1, "DMA-API: %s: device driver frees DMA memory with different direction [device address=0x%016llx] [size=%zu bytes] [mapped with %s] [unmapped with %s]",
		     dev_name(dev), (unsigned long long)addr, *size, dname(found.dir), dname(*dir));
	*size = found.size;
	*dir = found.dir;
	return true;
}

bool debug_dma_sync(struct device *dev, dma_addr_t addr, size_t *size,
		    enum dma_data_direction *dir, bool to_device)
{
	struct dma_debug_entry *e, found = { 0 };
	bool untracked;
	unsigned long flags;

	spin_lock_irqsave(&dma_debug_lock, flags);
	e = find_locked(dev, addr, false);
	untracked = nr_untracked != 0;
	if (e) {
		found = *e;
		e->cpu_owned = !to_device;
	}
	spin_unlock_irqrestore(&dma_debug_lock, flags);
	if (!found.dev) {
		if (untracked)
			return true;
		WARN(1, "DMA-API: %s: device driver tries to sync DMA memory it has not allocated [device address=0x%016llx] [size=%zu bytes]",
		     dev_name(dev), (unsigned long long)addr, *size);
		return false;
	}
	if (addr + *size < addr || addr + *size > found.addr + found.size) {
		WARN(1, "DMA-API: %s: device driver syncs DMA memory outside allocated range [device address=0x%016llx] [allocation size=%zu bytes] [sync offset+size=%llu]",
		     dev_name(dev), (unsigned long long)found.addr, found.size,
		     (unsigned long long)(addr - found.addr + *size));
		*size = found.size - (size_t)(addr - found.addr);	/* clamped to the mapping */
	} else if (found.dir != DMA_BIDIRECTIONAL && found.dir != *dir) {
		WARN(1, "DMA-API: %s: device driver syncs DMA memory with different direction [device address=0x%016llx] [size=%zu bytes] [mapped with %s] [synced with %s]",
		     dev_name(dev), (unsigned long long)addr, *size, dname(found.dir), dname(*dir));
	}
	if (found.dir != DMA_BIDIRECTIONAL)
		*dir = found.dir;
	return true;
}

void dma_debug_cpu_access(const void *ptr, size_t size)
{
	dma_addr_t start = (dma_addr_t)__pa(ptr);
	struct dma_debug_entry hit = { 0 };
	unsigned long flags;

	if (!size || is_vmalloc_addr(ptr))	/* streaming buffers are in the linear map */
		return;
	spin_lock_irqsave(&dma_debug_lock, flags);
	for (unsigned int i = 0; i < DMA_DEBUG_ENTRIES; i++) {
		struct dma_debug_entry *e = &dma_entries[i];

		if (e->dev && !e->cpu_owned && start < e->addr + e->size && e->addr < start + size) {
			hit = *e;
			break;
		}
	}
	spin_unlock_irqrestore(&dma_debug_lock, flags);
	if (hit.dev)
		WARN(1, "DMA-API: %s: cpu touching an active dma mapped buffer [device address=0x%016llx] [size=%zu bytes] [cpu access 0x%016llx+%zu]",
		     dev_name(hit.dev), (unsigned long long)hit.addr, hit.size,
		     (unsigned long long)start, size);
}

unsigned int dma_debug_entries(void)
{
	return nr_dma_entries;
}

unsigned long dma_debug_overflows(void)
{
	return nr_dma_overflows;
}
