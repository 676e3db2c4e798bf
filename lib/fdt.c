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
 * dt_open() error offsets are byte offsets from the start of the blob (what a hexdump shows).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinymm/fdt.h"

#define FDT_MAGIC	0xd00dfeedu
#define TOK_BEGIN_NODE	1
#define TOK_END_NODE	2
#define TOK_PROP	3
#define TOK_NOP		4
#define TOK_END		9

#define HDR_V16_SIZE	36u	/* v16 header lacks size_dt_struct */
#define HDR_V17_SIZE	40u
#define DT_MAX_DEPTH	64	/* open nodes at once; bounds dt_parent()'s stack (and callers') */
#define DT_MAX_CELLS	4u	/* larger #address-cells is nonsense (PCI uses 3); as libfdt */

/* Why tok() rejects a token; dt_open() turns these into messages. */
enum { BAD_OFFSET = -1, BAD_TRUNC = -2, BAD_NAME = -3, BAD_PROPLEN = -4, BAD_TAG = -5 };

/* ---- tiny string helpers (the kernel links no libc here) ---- */

/* First @c in p[0..n), or NULL: the bounded search every NUL-termination check relies on. */
static const char *find_byte(const void *p, char c, size_t n)
{
	const char *s = p;

	for (size_t i = 0; i < n; i++)
		if (s[i] == c)
			return s + i;
	return NULL;
}

/* a[0..n) == b[0..n).  Stops at the first difference, so a NUL-terminated @a is never overread. */
static bool same(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i == n;
}

static size_t length(const char *s, size_t max)
{
	const char *nul = find_byte(s, '\0', max);

	return nul ? (size_t)(nul - s) : max;
}

/* ---- error messages (no snprintf on target) ---- */

static void put_ch(char *err, size_t *pos, char c)
{
	if (*pos + 1 < DT_ERR_MAX)
		err[(*pos)++] = c;
}

/*
 * Hex takes 64 bits by shifting; decimal is only used for 32-bit values, so a 32-bit division
 * suffices and rv32 / ARM need no libgcc 64-bit division helper.
 */
static void put_num(char *err, size_t *pos, uint64_t v, bool hex, unsigned width)
{
	char tmp[24];
	unsigned n = 0;
	uint32_t d = (uint32_t)v;

	do {
		tmp[n++] = hex ? "0123456789abcdef"[v & 15] : (char)('0' + d % 10);
		v >>= 4;
		d /= 10;
	} while (hex ? v != 0 : d != 0);
	while (n < width && n < sizeof(tmp))
		tmp[n++] = '0';
	if (hex) {
		put_ch(err, pos, '0');
		put_ch(err, pos, 'x');
	}
	while (n)
		put_ch(err, pos, tmp[--n]);
}

/*
 * Write a one-line reason into @err and return -1.  Tiny format: %s takes @s; %x prints the next
 * number as 0x-hex (%08x zero-pads to 8 digits) and %u in decimal (32-bit values only).
 * Truncates silently.
 */
static int fail(char *err, const char *fmt, const char *s, uint64_t a, uint64_t b, uint64_t c)
{
	const uint64_t arg[3] = { a, b, c };
	unsigned next = 0, width;
	size_t pos = 0;

	if (!err)
		return -1;
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put_ch(err, &pos, *fmt);
			continue;
		}
		for (width = 0; fmt[1] >= '0' && fmt[1] <= '9'; fmt++)
			width = width * 10 + (unsigned)(fmt[1] - '0');
		if (!*++fmt)
			break;
		if (*fmt == 's')
			while (s && *s)
				put_ch(err, &pos, *s++);
		else if (next < 3)
			put_num(err, &pos, arg[next++], *fmt == 'x', width);
	}
	err[pos] = '\0';
	return -1;
}

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

/* ---- checked token access: the only way anything reads the struct block ---- */

static const uint8_t *sblock(const struct dt *dt)
{
	return dt->blob + dt->off_struct;
}

/*
 * Decode the token at struct offset @off: returns its tag and the offset of the following token
 * in *next, or a BAD_* code if the token or its payload does not fit inside the struct block.
 */
static int tok(const struct dt *dt, int off, uint32_t *next)
{
	uint32_t size = dt->size_struct, o = (uint32_t)off, end, tag;
	const uint8_t *base, *p;
	const char *nul;

	if (!dt->blob || off < 0 || o % 4)
		return BAD_OFFSET;
	if (o >= size || size - o < 4)
		return BAD_TRUNC;
	base = dt->blob + dt->off_struct;	/* only now: an out-of-blob pointer is UB */
	p = base + o;
	tag = dt_be32(p);
	if (tag == TOK_BEGIN_NODE) {
		nul = find_byte(p + 4, '\0', size - o - 4);
		if (!nul)
			return BAD_NAME;
		end = (uint32_t)((const uint8_t *)nul - base) + 1;
	} else if (tag == TOK_PROP) {
		if (size - o < 12)
			return BAD_TRUNC;
		end = dt_be32(p + 4);
		if (end > size - o - 12)
			return BAD_PROPLEN;
		end += o + 12;
	} else if (tag == TOK_END_NODE || tag == TOK_NOP || tag == TOK_END) {
		end = o + 4;
	} else {
		return BAD_TAG;
	}
	/* end <= size < totalsize <= INT32_MAX (dt_open), so rounding up cannot wrap. */
	*next = (end + 3u) & ~3u;
	return (int)tag;
}

static bool is_node(const struct dt *dt, int node)
{
	uint32_t next;

	return tok(dt, node, &next) == TOK_BEGIN_NODE;
}

/*
 * Offset of the first token after the @want token at @off that is not a NOP or (with
 * @skip_props) a property; its tag in *tag, < 0 if @off holds no @want token or on garbage.
 */
static int after(const struct dt *dt, int off, int want, bool skip_props, int *tag)
{
	uint32_t next;

	*tag = tok(dt, off, &next);
	if (*tag != want) {
		*tag = BAD_OFFSET;
		return -1;
	}
	do {
		off = (int)next;
		*tag = tok(dt, off, &next);
	} while (*tag == TOK_NOP || (skip_props && *tag == TOK_PROP));
	return off;
}

/* Property name at @nameoff in the strings block; NULL unless NUL-terminated inside it. */
static const char *string_at(const struct dt *dt, uint32_t nameoff)
{
	const uint8_t *s;

	if (!dt->blob || nameoff >= dt->size_strings)
		return NULL;
	s = dt->blob + dt->off_strings + nameoff;
	return find_byte(s, '\0', dt->size_strings - nameoff) ? (const char *)s : NULL;
}

/* ---- dt_open() validation ---- */

/* Block [off, off+size) must lie after the header and inside the blob (64-bit: no wrap). */
static int check_block(const char *what, const struct dt *d, uint32_t hdr, uint32_t off,
		       uint32_t size, char *err)
{
	if ((uint64_t)off + size > d->totalsize)
		return fail(err, "%s block [%x, +%x) outside blob of %x bytes", what, off, size,
			    d->totalsize);
	if (off < hdr)
		return fail(err, "%s block at %x overlaps the %u-byte header", what, off, hdr, 0);
	return 0;
}

/* Header fields and block placement. */
static int check_header(struct dt *d, const uint8_t *b, size_t avail, char *err)
{
	uint32_t hdr;

	d->totalsize = dt_be32(b + 4);
	d->off_struct = dt_be32(b + 8);
	d->off_strings = dt_be32(b + 12);
	d->off_rsvmap = dt_be32(b + 16);
	d->version = dt_be32(b + 20);
	d->last_comp_version = dt_be32(b + 24);
	d->boot_cpuid = dt_be32(b + 28);
	d->size_strings = dt_be32(b + 32);
	if (d->totalsize > avail)
		return fail(err, "totalsize %u exceeds available %u", 0, d->totalsize, avail, 0);
	/* Node handles are ints, so every offset must fit one. */
	if (d->totalsize > INT32_MAX)
		return fail(err, "totalsize %x too large", 0, d->totalsize, 0, 0);
	if (d->version < 16)
		return fail(err, "unsupported version %u (need >= 16)", 0, d->version, 0, 0);
	if (d->last_comp_version > 17)
		return fail(err, "last_comp_version %u newer than 17", 0, d->last_comp_version, 0, 0);
	if (d->last_comp_version > d->version)
		return fail(err, "version %u older than last_comp_version %u", 0, d->version,
			    d->last_comp_version, 0);
	hdr = d->version >= 17 ? HDR_V17_SIZE : HDR_V16_SIZE;
	if (d->totalsize < hdr)
		return fail(err, "totalsize %u smaller than the header", 0, d->totalsize, 0, 0);
	/* v16 has no size_dt_struct: the block runs to the blob's end until FDT_END is found. */
	if (d->version >= 17)
		d->size_struct = dt_be32(b + 36);
	else
		d->size_struct = d->off_struct <= d->totalsize ? d->totalsize - d->off_struct : 0;
	if (check_block("struct", d, hdr, d->off_struct, d->size_struct, err) ||
	    check_block("strings", d, hdr, d->off_strings, d->size_strings, err) ||
	    check_block("memreserve", d, hdr, d->off_rsvmap, 0, err))
		return -1;
	if (d->off_struct % 4)
		return fail(err, "struct block offset %x not 4-byte aligned", 0, d->off_struct, 0, 0);
	if (d->off_rsvmap % 8)
		return fail(err, "memreserve offset %x not 8-byte aligned", 0, d->off_rsvmap, 0, 0);
	return 0;
}

/* The memreserve list must end with a (0,0) entry before whichever block follows it. */
static int check_rsvmap(struct dt *d, char *err)
{
	const uint32_t start[2] = { d->off_struct, d->off_strings };
	const uint32_t size[2] = { d->size_struct, d->size_strings };
	static const char *const name[2] = { "struct", "strings" };
	uint64_t r = d->off_rsvmap, lim = d->totalsize, e, addr;
	uint32_t n;

	for (int i = 0; i < 2; i++) {
		if (size[i] != 0 && start[i] >= r && start[i] < lim)
			lim = start[i];
		else if (size[i] != 0 && start[i] < r && (uint64_t)start[i] + size[i] > r)
			return fail(err, "memreserve block at %x lies inside the %s block", name[i],
				    r, 0, 0);
	}
	for (n = 0;; n++) {
		e = r + 16u * (uint64_t)n;
		if (e + 16 > lim)
			return fail(err, "memreserve block at %x not terminated before %x", 0, r, lim, 0);
		addr = dt_be64(d->blob + e);
		if (dt_be64(d->blob + e + 8) != 0)
			continue;
		if (addr == 0)
			break;
		/* libfdt ends the list at any size-0 entry: refuse blobs the two would read apart. */
		return fail(err, "memreserve entry %u at %x has address %x but size 0", 0, n, e, addr);
	}
	d->nr_rsv = n;
	return 0;
}

/* Turn a tok() failure at struct offset @off into a message. */
static int token_error(const struct dt *d, int why, uint32_t off, char *err)
{
	uint64_t at = (uint64_t)d->off_struct + off;

	if (why == BAD_NAME)
		return fail(err, "unterminated node name at %x", 0, at, 0, 0);
	if (why == BAD_PROPLEN)
		return fail(err, "property length %x at %x runs past the struct block", 0,
			    dt_be32(sblock(d) + off + 4), at, 0);
	if (why == BAD_TAG)
		return fail(err, "bad token %08x at %x", 0, dt_be32(sblock(d) + off), at, 0);
	if (off >= d->size_struct)
		return fail(err, "missing FDT_END (struct block ends at %x)", 0, at, 0, 0);
	return fail(err, "truncated token at %x", 0, at, 0, 0);
}

/* A property token at @off: only inside a node, before its subnodes, with a valid name. */
static int check_prop(const struct dt *d, uint32_t off, int depth, bool props_ok, char *err)
{
	uint64_t at = (uint64_t)d->off_struct + off;
	uint32_t nameoff = dt_be32(sblock(d) + off + 8);

	if (depth == 0)
		return fail(err, "property outside any node at %x", 0, at, 0, 0);
	if (!props_ok)
		return fail(err, "property after a subnode at %x", 0, at, 0, 0);
	if (nameoff >= d->size_strings)
		return fail(err, "property name offset %x outside strings block", 0, nameoff, 0, 0);
	if (!string_at(d, nameoff))
		return fail(err, "unterminated property name at strings offset %x", 0, nameoff, 0,
			    0);
	return 0;
}

/*
 * Walk every token once: exactly one root, first; balanced nesting within DT_MAX_DEPTH;
 * properties before subnodes; FDT_END last.  For v16 this also finds the struct block's size.
 */
static int check_struct(struct dt *d, char *err)
{
	uint32_t off = 0, next;
	int depth = 0, tag;
	bool props_ok = false;	/* false once the current node has had a child (spec order) */

	for (;; off = next) {
		uint64_t at = (uint64_t)d->off_struct + off;

		tag = tok(d, (int)off, &next);
		if (tag < 0)
			return token_error(d, tag, off, err);
		if (off == 0 && (tag != TOK_BEGIN_NODE || sblock(d)[4] != '\0'))
			return fail(err, "struct block does not start with a root node", 0, 0, 0, 0);
		switch (tag) {
		case TOK_BEGIN_NODE:
			if (off != 0 && depth == 0)
				return fail(err, "second root node at %x", 0, at, 0, 0);
			if (depth == DT_MAX_DEPTH)
				return fail(err, "nesting deeper than %u at %x", 0, DT_MAX_DEPTH, at, 0);
			depth++;
			props_ok = true;
			break;
		case TOK_END_NODE:
			if (depth == 0)
				return fail(err, "unbalanced END_NODE at %x", 0, at, 0, 0);
			depth--;
			props_ok = false;
			break;
		case TOK_PROP:
			if (check_prop(d, off, depth, props_ok, err))
				return -1;
			break;
		case TOK_END:
			if (depth != 0)
				return fail(err, "FDT_END at %x inside %u open node(s)", 0, at,
					    (uint32_t)depth, 0);
			if (d->version < 17)
				d->size_struct = next;	/* v16: the block ends here */
			else if (next != d->size_struct)
				return fail(err, "data after FDT_END at %x", 0, at, 0, 0);
			return 0;
		}
	}
}

int dt_open(struct dt *dt, const void *blob, size_t avail, char *err)
{
	struct dt d = { 0 };

	if (err)
		err[0] = '\0';
	if (!dt)
		return fail(err, "no struct dt given", 0, 0, 0, 0);
	*dt = d;	/* a failed open leaves a dt that every accessor rejects */
	if (!blob)
		return fail(err, "no blob given", 0, 0, 0, 0);
	if (avail >= 4 && dt_be32(blob) != FDT_MAGIC)
		return fail(err, "bad magic %08x", 0, dt_be32(blob), 0, 0);
	if (avail < HDR_V17_SIZE)
		return fail(err, "blob of %u bytes is too small for a header", 0, avail, 0, 0);
	d.blob = blob;
	if (check_header(&d, blob, avail, err) || check_rsvmap(&d, err) || check_struct(&d, err))
		return -1;
	*dt = d;
	return 0;
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
