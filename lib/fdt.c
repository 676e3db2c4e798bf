/*
 * fdt.c - tinymm's read-only flattened device tree (DTB) reader.
 *
 * Purpose: let early boot code find memory, consoles and devices in the DTB handed over by
 * firmware or QEMU, with no allocator, no libc (not even <string.h>) and no libfdt.
 *
 * Invariants:
 *  - dt_open() validates the whole blob once (header, block placement, the memreserve list and
 *    every structure-block token) and fills struct dt only on success; a failed open leaves a
 *    zeroed struct dt that every accessor rejects.
 *  - After dt_open nothing reads outside the blob.  Accessors still bounds-check each token
 *    they touch (tok()), because node and property offsets come from callers and may be
 *    garbage: those get an error / NULL (or, if one happens to hit a word inside a property
 *    value that looks like a token, a bounded but meaningless answer).
 *  - Multi-byte values are read byte by byte: the blob may be unaligned and our targets run
 *    with -mno-unaligned-access.  Block bounds are computed in 64 bits so nothing wraps.
 *  - No recursion; every loop advances at least 4 bytes per token, so walks are bounded by
 *    the struct block, and nesting is capped at DT_MAX_DEPTH open nodes.
 *
 * Locking: read-only, none needed.  struct dt is the only state and is not written after
 * dt_open(), so any number of CPUs may share it.
 *
 * dt_open() (lib/fdt_check.c) validates; this file reads.  dt_open() error offsets are byte
 * offsets from the start of the blob (what a hexdump shows).
 */
#include "fdt_internal.h"

/* ---- byte-order helpers ---- */

uint32_t dt_be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

uint64_t dt_be64(const void *p)
{
	return (uint64_t)dt_be32(p) << 32 | dt_be32((const uint8_t *)p + 4);
}

uint64_t dt_read_cells(const void *p, int ncells)
{
	if (ncells <= 0)
		return 0;
	if (ncells == 1)
		return dt_be32(p);
	/* The low 64 bits are the last two cells. */
	return dt_be64((const uint8_t *)p + 4 * (size_t)(ncells - 2));
}

uint32_t dt_peek_totalsize(const void *blob)
{
	if (!blob || dt_be32(blob) != FDT_MAGIC)
		return 0;
	return dt_be32((const uint8_t *)blob + 4);
}

/* ---- tree walking ---- */

int dt_root(const struct dt *dt)
{
	(void)dt;
	return 0;
}

int dt_next_node(const struct dt *dt, int node, int *depth)
{
	int tag, d = 1;

	/* Closing tags between here and the next node each step one level up. */
	node = after(dt, node, TOK_BEGIN_NODE, true, &tag);
	while (tag == TOK_END_NODE) {
		node = after(dt, node, TOK_END_NODE, true, &tag);
		d--;
	}
	if (tag != TOK_BEGIN_NODE)
		return -1;	/* FDT_END, or garbage reached from a bogus offset */
	if (depth)
		*depth += d;
	return node;
}

int dt_first_child(const struct dt *dt, int node)
{
	int tag;

	node = after(dt, node, TOK_BEGIN_NODE, true, &tag);
	return tag == TOK_BEGIN_NODE ? node : -1;
}

int dt_next_sibling(const struct dt *dt, int node)
{
	int depth = 0;

	/* Skip @node's subtree: the next node back at depth 0 is a sibling; below 0 there is none. */
	do
		node = dt_next_node(dt, node, &depth);
	while (node >= 0 && depth > 0);
	return node >= 0 && depth == 0 ? node : -1;
}

int dt_parent(const struct dt *dt, int node)
{
	int stack[DT_MAX_DEPTH], depth = 0, off = 0;

	/* Nodes appear in increasing offset order, so stop once past @node. */
	stack[0] = 0;
	while (node > 0 && (off = dt_next_node(dt, off, &depth)) >= 0 && off <= node) {
		if (depth < 1 || depth >= DT_MAX_DEPTH)
			return -1;	/* cannot happen after dt_open; keeps stack[] in bounds */
		stack[depth] = off;
		if (off == node)
			return stack[depth - 1];
	}
	return -1;
}

const char *dt_node_name(const struct dt *dt, int node)
{
	return is_node(dt, node) ? (const char *)sblock(dt) + node + 4 : NULL;
}

/* libfdt's rule: "uart" matches "uart" and "uart@1000"; "uart@1000" matches only itself. */
static bool name_matches(const char *node, const char *comp, size_t n)
{
	/* @comp has no NUL in [0, n), so same() implies node[n] exists. */
	return same(node, comp, n) &&
	       (node[n] == '\0' || (node[n] == '@' && !find_byte(comp, '@', n)));
}

static int subnode(const struct dt *dt, int parent, const char *comp, size_t n)
{
	for (int c = dt_first_child(dt, parent); c >= 0; c = dt_next_sibling(dt, c))
		if (name_matches(dt_node_name(dt, c), comp, n))
			return c;
	return -1;
}

/* Follow the components of path[0..len) from @node; empty components ("//", trailing '/') skip. */
static int walk_path(const struct dt *dt, int node, const char *path, size_t len)
{
	size_t i = 0, j;

	while (node >= 0) {
		while (i < len && path[i] == '/')
			i++;
		if (i == len)
			return node;
		for (j = i; j < len && path[j] != '/'; j++)
			;
		node = subnode(dt, node, path + i, j - i);
		i = j;
	}
	return -1;
}

/* Target of alias name[0..n) in /aliases: only a NUL-terminated absolute path (no chains). */
static const char *alias(const struct dt *dt, const char *name, size_t n)
{
	int aliases = walk_path(dt, 0, "/aliases", 8);

	for (int p = dt_first_prop(dt, aliases); p >= 0; p = dt_next_prop(dt, p)) {
		const char *pname, *v;
		int len;

		v = dt_prop_at(dt, p, &pname, &len);
		if (v && same(pname, name, n) && pname[n] == '\0')
			return len > 0 && v[0] == '/' && find_byte(v, '\0', (size_t)len) ? v : NULL;
	}
	return NULL;
}

int dt_path(const struct dt *dt, const char *path, size_t len)
{
	const char *target;
	size_t n;

	if (!path || !is_node(dt, 0))
		return -1;
	len = length(path, len);
	if (len == 0)
		return -1;
	if (path[0] == '/')
		return walk_path(dt, 0, path, len);
	for (n = 0; n < len && path[n] != '/'; n++)
		;
	target = alias(dt, path, n);
	if (!target)
		return -1;
	return walk_path(dt, walk_path(dt, 0, target, length(target, SIZE_MAX)), path + n, len - n);
}

bool dt_is_compatible(const struct dt *dt, int node, const char *compat)
{
	const char *v, *nul;
	size_t n, i = 0;
	int len;

	v = dt_getprop(dt, node, "compatible", &len);
	if (!v || !compat)
		return false;
	n = length(compat, SIZE_MAX);
	/* An unterminated last string never matches: it is not a complete entry. */
	while ((nul = find_byte(v + i, '\0', (size_t)len - i)) != NULL) {
		if ((size_t)(nul - (v + i)) == n && same(v + i, compat, n))
			return true;
		i = (size_t)(nul - v) + 1;
	}
	return false;
}

int dt_find_compatible(const struct dt *dt, int from, const char *compat)
{
	int node = from < 0 ? 0 : dt_next_node(dt, from, NULL);

	for (; node >= 0; node = dt_next_node(dt, node, NULL))
		if (dt_is_compatible(dt, node, compat))
			return node;
	return -1;
}

/* The node whose "phandle" (or old "linux,phandle") is @phandle; -1 if none (0 and ~0 name none). */
int dt_node_by_phandle(const struct dt *dt, uint32_t phandle)
{
	if (!phandle || phandle == 0xffffffffu)
		return -1;
	for (int node = 0; node >= 0; node = dt_next_node(dt, node, NULL))
		if (dt_getprop_u32(dt, node, "phandle", 0) == phandle ||
		    dt_getprop_u32(dt, node, "linux,phandle", 0) == phandle)
			return node;
	return -1;
}

/* ---- properties ---- */

/* A node's properties come first and end at its first subnode or END_NODE. */
int dt_first_prop(const struct dt *dt, int node)
{
	int tag, off = after(dt, node, TOK_BEGIN_NODE, false, &tag);

	return tag == TOK_PROP ? off : -1;
}

int dt_next_prop(const struct dt *dt, int prop)
{
	int tag, off = after(dt, prop, TOK_PROP, false, &tag);

	return tag == TOK_PROP ? off : -1;
}

const void *dt_prop_at(const struct dt *dt, int prop, const char **name, int *len)
{
	const uint8_t *p;
	const char *n;
	uint32_t next;

	if (tok(dt, prop, &next) != TOK_PROP)
		return NULL;
	p = sblock(dt) + prop;
	n = string_at(dt, dt_be32(p + 8));
	if (!n)
		return NULL;
	if (name)
		*name = n;
	if (len)
		*len = (int)dt_be32(p + 4);	/* < size_struct <= INT32_MAX */
	return p + 12;
}

/* Sets *len to -1 when the property is absent. */
const void *dt_getprop(const struct dt *dt, int node, const char *name, int *len)
{
	const uint8_t *t;
	uint32_t nameoff;
	size_t n;

	if (len)
		*len = -1;
	if (!name)
		return NULL;
	n = length(name, SIZE_MAX) + 1;
	for (int p = dt_first_prop(dt, node); p >= 0; p = dt_next_prop(dt, p)) {
		t = sblock(dt) + p;
		nameoff = dt_be32(t + 8);
		/* Equal through @name's NUL inside the block: terminated, no need to scan for it. */
		if (nameoff < dt->size_strings && dt->size_strings - nameoff >= n &&
		    same((const char *)dt->blob + dt->off_strings + nameoff, name, n)) {
			if (len)
				*len = (int)dt_be32(t + 4);
			return t + 12;
		}
	}
	return NULL;
}

const char *dt_getprop_str(const struct dt *dt, int node, const char *name)
{
	int len;
	const char *v = dt_getprop(dt, node, name, &len);

	return v && len > 0 && find_byte(v, '\0', (size_t)len) ? v : NULL;
}

bool dt_node_is_available(const struct dt *dt, int node)
{
	int len;
	const char *st = dt_getprop(dt, node, "status", &len);

	/* The value with its NUL: "okay" is 5 bytes, "ok" 3. */
	return !st || (len == 5 && same(st, "okay", 5)) || (len == 3 && same(st, "ok", 3));
}

uint32_t dt_getprop_u32(const struct dt *dt, int node, const char *name, uint32_t def)
{
	int len;
	const void *v = dt_getprop(dt, node, name, &len);

	return v && len == 4 ? dt_be32(v) : def;
}

/* A #...-cells value: @def if absent, -1 for a bogus node or a malformed / oversized value. */
static int cells(const struct dt *dt, int node, const char *name, int def)
{
	const void *v;
	int len;

	if (!is_node(dt, node))
		return -1;
	v = dt_getprop(dt, node, name, &len);
	if (!v)
		return def;
	if (len != 4 || dt_be32(v) > DT_MAX_CELLS)
		return -1;
	return (int)dt_be32(v);
}

int dt_addr_cells(const struct dt *dt, int node)
{
	return cells(dt, node, "#address-cells", 2);
}

int dt_size_cells(const struct dt *dt, int node)
{
	return cells(dt, node, "#size-cells", 1);
}

int dt_reg(const struct dt *dt, int node, int index, uint64_t *addr, uint64_t *size)
{
	const uint8_t *reg;
	int parent, ac, sc, len, entry;

	/* Cheap exits first: finding the parent walks the tree from the root. */
	reg = dt_getprop(dt, node, "reg", &len);
	if (!reg || (parent = dt_parent(dt, node)) < 0)
		return -1;	/* no reg, or the root (which sits on no bus) */
	ac = dt_addr_cells(dt, parent);
	sc = dt_size_cells(dt, parent);
	if (ac < 0 || sc < 0 || ac > 2 || sc > 2 || ac + sc == 0)
		return -2;
	entry = 4 * (ac + sc);
	if (len % entry)
		return -2;
	if (index < 0 || index >= len / entry)
		return -1;
	reg += (size_t)index * (size_t)entry;
	if (addr)
		*addr = dt_read_cells(reg, ac);
	if (size)
		*size = dt_read_cells(reg + 4 * ac, sc);
	return 0;
}

/* ---- the memory-reservation block ---- */

int dt_memreserve(const struct dt *dt, int index, uint64_t *addr, uint64_t *size)
{
	const uint8_t *e;

	if (!dt->blob || index < 0 || (uint32_t)index >= dt->nr_rsv)
		return -1;
	e = dt->blob + dt->off_rsvmap + 16u * (uint32_t)index;
	if (addr)
		*addr = dt_be64(e);
	if (size)
		*size = dt_be64(e + 8);
	return 0;
}
