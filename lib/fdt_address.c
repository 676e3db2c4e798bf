/*
 * fdt_address.c - a device's "reg" as a CPU physical address: Linux's of_translate_address(),
 * for the device tree tinymm boots with (include/tinymm/fdt.h).
 *
 * A "reg" entry is an address on the node's parent bus.  Each bus up to the root says how its
 * addresses map onto its own parent's with "ranges": empty means the same addresses; entries
 * <child-address parent-address size> (cell counts: the bus's #address-cells, its parent's
 * #address-cells, the bus's #size-cells) map one window each; no "ranges" at all means the bus
 * is not memory-mapped (an I2C bus, /cpus) and nothing on it has a CPU address.  The Raspberry
 * Pi's peripherals sit at bus address 0x7e000000, which the ARM sees at 0x3f000000, through the
 * soc node's ranges; QEMU virt's and the H3's buses say "ranges;" (identity).
 * Where tinymm differs from v6.10, and why: no PCI or ISA address spaces (no 3-cell
 * addresses: no such bus on tinymm's boards), and a reg entry must fit in one window whole,
 * base and size, where Linux checks only the base: a device half outside its bus's window is
 * a broken tree, and mapping it would reach whatever lies beyond.
 */
#include "tinymm/fdt.h"

/* Map [*addr, *addr + size) through @bus's "ranges" to @bus's parent's address space. */
static int translate_one(const struct dt *dt, int bus, int parent, uint64_t *addr, uint64_t size)
{
	int len, cac, pac, csc, entry;
	const uint8_t *r = dt_getprop(dt, bus, "ranges", &len);

	if (!r)
		return -3;		/* not memory-mapped */
	if (len == 0)
		return 0;		/* identity */
	cac = dt_addr_cells(dt, bus);
	csc = dt_size_cells(dt, bus);
	pac = dt_addr_cells(dt, parent);
	if (cac < 1 || cac > 2 || pac < 1 || pac > 2 || csc < 1 || csc > 2)
		return -2;
	entry = 4 * (cac + pac + csc);
	if (len % entry)
		return -2;
	for (const uint8_t *e = r; e < r + len; e += entry) {
		uint64_t child = dt_read_cells(e, cac);
		uint64_t up = dt_read_cells(e + 4 * cac, pac);
		uint64_t wsize = dt_read_cells(e + 4 * (cac + pac), csc);

		if (*addr >= child && *addr - child < wsize && size <= wsize - (*addr - child)) {
			*addr = *addr - child + up;
			return 0;
		}
	}
	return -3;			/* outside every window */
}

int dt_address(const struct dt *dt, int node, int index, uint64_t *addr, uint64_t *size)
{
	uint64_t a, s;
	int ret = dt_reg(dt, node, index, &a, &s);

	if (ret)
		return ret;
	for (int bus = dt_parent(dt, node), parent; bus > 0; bus = parent) {
		parent = dt_parent(dt, bus);
		if (parent < 0 || (ret = translate_one(dt, bus, parent, &a, s)))
			return parent < 0 ? -2 : ret;
	}
	if (addr)
		*addr = a;
	if (size)
		*size = s;
	return 0;
}
