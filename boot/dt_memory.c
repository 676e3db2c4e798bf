/*
 * dt_memory.c - turns the device tree's description of memory into the memblock map.
 *
 * Sources, in the order they claim memory (the first claim on a byte wins, see memblock.h):
 * the kernel image and the DTB (most specific), then /reserved-memory children (no-map, or
 * firmware for OpenSBI's "mmode_resv" regions), then the /memreserve/ block.
 * Bad input is refused with one line naming the node and the problem: a silently wrong memory
 * map is worse than no boot.  Locking: none; runs once during boot.
 */
#include <string.h>
#include "tinymm/devicetree.h"
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/memory.h"
#include "tinymm/printk.h"

#define MEM_FMT "[mem 0x%016llx-0x%016llx]"
#define MEM_ARGS(b, s) (unsigned long long)(b), (unsigned long long)((b) + (s) - 1)

void dt_node_path(const struct dt *dt, int node, char *buf, size_t len)
{
	int chain[32], depth = 0;

	for (int n = node; n > 0 && depth < (int)ARRAY_SIZE(chain); n = dt_parent(dt, n))
		chain[depth++] = n;
	size_t pos = 0;
	buf[0] = '\0';
	if (!depth)
		ksnprintf(buf, len, "/");
	while (depth-- > 0 && pos < len) {
		int w = ksnprintf(buf + pos, len - pos, "/%s", dt_node_name(dt, chain[depth]));
		pos += (size_t)(w > 0 ? w : 0);
	}
}

int dt_boot_cpu_node(const struct dt *dt, uint64_t hwid)
{
	int cpus = dt_path(dt, "/cpus", 5);

	for (int n = cpus >= 0 ? dt_first_child(dt, cpus) : -1; n >= 0; n = dt_next_sibling(dt, n)) {
		const char *type = dt_getprop_str(dt, n, "device_type");
		uint64_t reg, size;
		if (type && !strcmp(type, "cpu") && !dt_reg(dt, n, 0, &reg, &size) && reg == hwid)
			return n;
	}
	return -1;
}

static int add_memory_node(const struct dt *dt, int node, char *err, size_t errlen)
{
	char path[64];
	int len, root = dt_root(dt);
	int ac = dt_addr_cells(dt, root), sc = dt_size_cells(dt, root);
	int entry = 4 * (ac + sc);

	dt_node_path(dt, node, path, sizeof(path));
	if (!dt_getprop(dt, node, "reg", &len) || len == 0) {
		ksnprintf(err, errlen, "dt: %s: no reg property", path);
		return -EINVAL;
	}
	if (ac < 1 || ac > 2 || sc < 1 || sc > 2) {
		ksnprintf(err, errlen, "dt: %s: #address-cells = %d, #size-cells = %d: tinymm reads 1 or 2",
			  path, ac, sc);
		return -EINVAL;
	}
	if (len % entry) {
		ksnprintf(err, errlen,
			  "dt: %s: reg is %d bytes, not a multiple of %d (#address-cells = %d, #size-cells = %d)",
			  path, len, entry, ac, sc);
		return -EINVAL;
	}
	for (int i = 0; i < len / entry; i++) {
		uint64_t base, size;
		struct memblock_region other;

		dt_reg(dt, node, i, &base, &size);
		if (size == 0) {
			ksnprintf(err, errlen, "dt: %s: bank %d at 0x%llx has size 0", path, i,
				  (unsigned long long)base);
			return -EINVAL;
		}
		/* Only RAM the direct map can hold is used: physical [PHYS_OFFSET, lowmem's end),
		 * which is virtual [PAGE_OFFSET, LOWMEM_END) (docs/mmu.md).  tinymm has no HIGHMEM. */
		uint64_t lo = PHYS_OFFSET, limit = PHYS_OFFSET + (uint64_t)(LOWMEM_END - 1 - PAGE_OFFSET);
		if (base > limit || base + size - 1 < lo) {
			pr_warn("dt: %s: bank " MEM_FMT " is outside lowmem [0x%llx-0x%llx] (no HIGHMEM), ignored\n",
				path, MEM_ARGS(base, size), (unsigned long long)lo, (unsigned long long)limit);
			continue;
		}
		if (base < lo) {
			pr_warn("dt: %s: bank " MEM_FMT " starts below PHYS_OFFSET: cut to start at 0x%llx\n",
				path, MEM_ARGS(base, size), (unsigned long long)lo);
			size -= lo - base;
			base = lo;
		}
		if (size - 1 > limit - base) {
			pr_warn("dt: %s: bank " MEM_FMT " truncated at 0x%llx, the end of lowmem (no HIGHMEM): %llu MiB unused\n",
				path, MEM_ARGS(base, size), (unsigned long long)limit,
				(unsigned long long)((size - (limit - base + 1)) >> 20));
			size = limit - base + 1;
		}
		int ret = memblock_add(base, size, &other);
		if (ret == -EEXIST) {
			ksnprintf(err, errlen, "dt: %s: bank " MEM_FMT " overlaps RAM " MEM_FMT, path,
				  MEM_ARGS(base, size), MEM_ARGS(other.base, other.size));
			return ret;
		}
		if (ret) {
			ksnprintf(err, errlen, "dt: %s: bank " MEM_FMT " rejected (%s)", path,
				  MEM_ARGS(base, size), ret == -ENOSPC ? "too many regions" : "wraps around");
			return ret;
		}
	}
	return 0;
}

/*
 * Reservations are whole pages: the page allocator that inherits this map works in pages.
 * A reservation that cannot be recorded is fatal: booting on would hand the memory out.
 */
static int reserve(phys_addr_t base, phys_addr_t size, enum memblock_type type, const char *what,
		   char *err, size_t errlen)
{
	phys_addr_t end = ALIGN(base + size, (phys_addr_t)PAGE_SIZE);

	base = ALIGN_DOWN(base, (phys_addr_t)PAGE_SIZE);
	size = end - base;
	if (memblock_reserve(base, size, type) >= 0)
		return 0;
	ksnprintf(err, errlen, "memblock: region table full (%d entries), cannot reserve %s " MEM_FMT,
		  MEMBLOCK_MAX_REGIONS, what, MEM_ARGS(base, size));
	return -ENOSPC;
}

static int reserve_memory_nodes(const struct dt *dt, char *err, size_t errlen)
{
	int rm = dt_path(dt, "/reserved-memory", strlen("/reserved-memory"));

	if (rm < 0)
		return 0;
	for (int n = dt_first_child(dt, rm); n >= 0; n = dt_next_sibling(dt, n)) {
		const char *name = dt_node_name(dt, n);
		bool nomap = dt_getprop(dt, n, "no-map", NULL) != NULL;
		enum memblock_type type = nomap ? MEMBLOCK_NOMAP : MEMBLOCK_RESERVED;
		uint64_t base, size;
		int i, ret;

		if (!dt_node_is_available(dt, n))
			continue;
		/* OpenSBI names the region that holds itself "mmode_resv<N>". */
		if (!strncmp(name, "mmode_resv", strlen("mmode_resv")))
			type = MEMBLOCK_FIRMWARE;
		if (!dt_getprop(dt, n, "reg", NULL)) {
			pr_warn("dt: /reserved-memory/%s: dynamic reservation (no reg) not supported, ignored\n",
				name);
			continue;
		}
		for (i = 0; (ret = dt_reg(dt, n, i, &base, &size)) == 0; i++) {
			if (!size)
				continue;
			/* A reservation that names no RAM is suspect: often wrong cell counts. */
			if (!memblock_overlaps_memory(base, size))
				pr_warn("dt: /reserved-memory/%s: [mem 0x%016llx-0x%016llx] is not in RAM, "
					"ignored (check #address-cells/#size-cells)\n", name,
					(unsigned long long)base, (unsigned long long)(base + size - 1));
			else if (reserve(base, size, type, name, err, errlen))
				return -ENOSPC;
		}
		if (ret == -2) {
			/* Half-read firmware reservations could hand firmware memory out: refuse. */
			ksnprintf(err, errlen, "dt: /reserved-memory/%s: malformed reg", name);
			return -EINVAL;
		}
	}
	return 0;
}

int dt_memory_init(const struct dt *dt, phys_addr_t dtb_pa, phys_addr_t kstart, phys_addr_t kend,
		   char *err, size_t errlen)
{
	int banks = 0;

	memblock_reset();
	for (int n = dt_first_child(dt, dt_root(dt)); n >= 0; n = dt_next_sibling(dt, n)) {
		const char *dtype = dt_getprop_str(dt, n, "device_type");
		if (!dtype || strcmp(dtype, "memory") || !dt_node_is_available(dt, n))
			continue;
		int ret = add_memory_node(dt, n, err, errlen);
		if (ret)
			return ret;
		banks++;
	}
	if (!banks) {
		ksnprintf(err, errlen, "dt: no /memory node (device_type = \"memory\"): RAM unknown");
		return -ENOENT;
	}
	if (!memblock_is_memory(kstart, kend - kstart)) {
		ksnprintf(err, errlen, "memory: kernel image " MEM_FMT " is not inside RAM "
			  "(%lluK in all): RAM too small or misplaced",
			  MEM_ARGS(kstart, kend - kstart),
			  (unsigned long long)(memblock_phys_mem_size() >> 10));
		return -ERANGE;
	}
	if (reserve(kstart, kend - kstart, MEMBLOCK_KERNEL, "kernel", err, errlen) ||
	    reserve(dtb_pa, dt->totalsize, MEMBLOCK_DTB, "dtb", err, errlen) ||
	    reserve_memory_nodes(dt, err, errlen))
		return -ENOSPC;
	for (int i = 0;; i++) {
		uint64_t base, size;
		if (dt_memreserve(dt, i, &base, &size))
			break;
		if (size && reserve(base, size, MEMBLOCK_RESERVED, "/memreserve/", err, errlen))
			return -ENOSPC;
	}
	return 0;
}

/*
 * The highest CPU address every DMA-capable bus can reach, from the `dma-ranges` of every node
 * that has one (Linux: of_dma_get_max_cpu_address): each node reaches up to the end of its
 * highest range; the limit is the lowest of those.  0 if no node restricts DMA.
 */
phys_addr_t dt_dma_limit(const struct dt *dt)
{
	phys_addr_t limit = 0;
	int depth = 0;

	for (int n = dt_next_node(dt, dt_root(dt), &depth); n >= 0; n = dt_next_node(dt, n, &depth)) {
		int len, parent = dt_parent(dt, n);
		const uint8_t *v = dt_getprop(dt, n, "dma-ranges", &len);
		if (!v || len <= 0 || parent < 0)
			continue;		/* absent, or empty: 1:1, no restriction */
		int ca = dt_addr_cells(dt, n), pa = dt_addr_cells(dt, parent), sc = dt_size_cells(dt, n);
		int entry = 4 * (ca + pa + sc);
		if (ca < 1 || ca > 3 || pa < 1 || pa > 2 || sc < 1 || sc > 2 || len % entry) {
			char path[64];
			dt_node_path(dt, n, path, sizeof(path));
			pr_warn("dt: %s: malformed dma-ranges ignored\n", path);
			continue;
		}
		phys_addr_t node_max = 0;
		for (int off = 0; off < len; off += entry) {
			uint64_t cpu = dt_read_cells(v + off + 4 * ca, pa);
			uint64_t size = dt_read_cells(v + off + 4 * (ca + pa), sc);
			if (cpu + size > node_max)
				node_max = cpu + size;
		}
		if (node_max && (!limit || node_max < limit))
			limit = node_max;
	}
	return limit;
}
