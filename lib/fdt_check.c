/*
 * fdt_check.c - dt_open(): validate a whole DTB once (header, block placement, the memreserve
 * list, every structure-block token, nesting, names and strings) and explain the first problem
 * in one line.  After a successful dt_open() the accessors in lib/fdt.c trust the block layout
 * (they still bounds-check every token they touch).  Locking: none; writes only *dt and *err.
 */
#include "fdt_internal.h"

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
