/*
 * fdt.h - tinymm's own flattened device tree (DTB) reader.
 *
 * Contract: dt_open() validates the whole blob once (header, every block's offset and size,
 * the memory-reservation block, every token, node nesting, name and string termination,
 * property name offsets) and fails with a one-line reason.  After a successful dt_open()
 * every accessor below is total: it never reads outside the blob, even when handed a
 * garbage node or property offset (it returns an error / NULL instead).
 *
 * Names use the dt_ prefix (not libfdt's fdt_) so host tests can link both and compare.
 * Node handles are byte offsets of an FDT_BEGIN_NODE token inside the structure block
 * (the root node is offset 0 of the structure block, as in libfdt); negative = none.
 */
#ifndef TINYMM_FDT_H
#define TINYMM_FDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dt {
	const uint8_t *blob;
	uint32_t totalsize;
	uint32_t off_struct, size_struct;
	uint32_t off_strings, size_strings;
	uint32_t off_rsvmap;
	uint32_t version, last_comp_version;
	uint32_t boot_cpuid;
	uint32_t nr_rsv;		/* entries in the /memreserve/ block (terminator excluded) */
};

#define DT_ERR_MAX 96

/*
 * Validate the blob at @blob, of which at most @avail bytes may be read (pass the size of the
 * buffer or mapping; totalsize must fit inside it).  Returns 0 and fills @dt, or -1 and writes a
 * one-line reason (no newline, e.g. "bad magic 0x12345678") into @err (DT_ERR_MAX bytes).
 */
int dt_open(struct dt *dt, const void *blob, size_t avail, char *err);

/* Header read without validating the rest: magic and totalsize, for early sizing. 0 on bad magic. */
uint32_t dt_peek_totalsize(const void *blob);

/* Big-endian helpers on possibly unaligned data. */
uint32_t dt_be32(const void *p);
uint64_t dt_be64(const void *p);
/* Read a value of @ncells 32-bit cells (0..2; more than 2 keeps the low 64 bits). */
uint64_t dt_read_cells(const void *p, int ncells);

/* ---- tree walking ---- */
int dt_root(const struct dt *dt);				/* always 0 */
/* Next node in depth-first order after @node; *depth is updated like libfdt's fdt_next_node
 * (child: +1, each close: -1).  Returns < 0 at the end of the tree. */
int dt_next_node(const struct dt *dt, int node, int *depth);
int dt_first_child(const struct dt *dt, int node);		/* < 0 if none */
int dt_next_sibling(const struct dt *dt, int node);		/* < 0 if none */
int dt_parent(const struct dt *dt, int node);			/* < 0 for the root */
const char *dt_node_name(const struct dt *dt, int node);	/* "memory@40000000"; "" for root */
/* Node by absolute path ("/soc/serial@10000000"); a component without "@unit" matches a node
 * whose name is exactly that or that followed by "@...", like libfdt.  Also accepts an alias
 * name (from /aliases) as the first component when the path does not start with '/'.
 * @len limits the path (e.g. stdout-path "serial0:115200n8" passes the part before ':'). */
int dt_path(const struct dt *dt, const char *path, size_t len);
/* Next node after @from (pass -1 to start) whose "compatible" list contains @compat. */
int dt_find_compatible(const struct dt *dt, int from, const char *compat);
int dt_node_by_phandle(const struct dt *dt, uint32_t phandle);	/* < 0 if none */
bool dt_is_compatible(const struct dt *dt, int node, const char *compat);

/* ---- properties ---- */
/* Value of property @name of @node, length in *len (may be NULL); NULL if absent. */
const void *dt_getprop(const struct dt *dt, int node, const char *name, int *len);
/* Iterate properties: returns an opaque property offset, < 0 when none. */
int dt_first_prop(const struct dt *dt, int node);
int dt_next_prop(const struct dt *dt, int prop);
/* Name, value and length of a property offset; NULL if @prop is not a property. */
const void *dt_prop_at(const struct dt *dt, int prop, const char **name, int *len);
/* String property (must be NUL-terminated inside its value), NULL otherwise. */
const char *dt_getprop_str(const struct dt *dt, int node, const char *name);
/* Linux's of_device_is_available(): no "status", or "okay"/"ok". */
bool dt_node_is_available(const struct dt *dt, int node);
/* u32 property of exactly 4 bytes; returns @def if absent or malformed. */
uint32_t dt_getprop_u32(const struct dt *dt, int node, const char *name, uint32_t def);

/* #address-cells / #size-cells that apply to @node's children (defaults 2 and 1). */
int dt_addr_cells(const struct dt *dt, int node);
int dt_size_cells(const struct dt *dt, int node);
/*
 * Entry @index of @node's "reg", using its parent's cell counts.  Returns 0, -1 if there is no such
 * entry, -2 if "reg" is malformed (length not a multiple of the entry size, or cells > 2).
 */
int dt_reg(const struct dt *dt, int node, int index, uint64_t *addr, uint64_t *size);
/*
 * Entry @index of @node's "reg" as a CPU physical address: translated through the "ranges" of
 * every bus up to the root (lib/fdt_address.c).  0; -1 or -2 as dt_reg(), or -2 for malformed
 * "ranges"; -3 if a bus on the way is not memory-mapped (no "ranges") or no window holds the
 * whole entry.  Devices use this one; "reg" of /memory and /cpus nodes is read with dt_reg().
 */
int dt_address(const struct dt *dt, int node, int index, uint64_t *addr, uint64_t *size);

/* ---- the memory-reservation block ---- */
int dt_memreserve(const struct dt *dt, int index, uint64_t *addr, uint64_t *size); /* 0 / -1 */

#endif
