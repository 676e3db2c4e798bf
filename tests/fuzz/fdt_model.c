/*
 * fdt_model.c - the fuzzer's reference model of an accepted device tree (see fdt_fuzz.h).
 * Written from the DTB format and docs/devicetree.md, not from lib/fdt.c: model_header() and
 * model_scan() re-check every rule dt_open() promises; the lookups follow the documented rules.
 */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "fdt_fuzz.h"

uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint64_t cells(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 32 | be32(p + 4 * i);
	return v;
}

/* The header rules: supported versions, every block after the header and inside the blob,
 * the struct block 4-aligned, the memreserve list 8-aligned and ending before the next block. */
void model_header(const struct dt *dt, const uint8_t *blob)
{
	uint64_t total = be32(blob + 4), ver = be32(blob + 20), hdr = ver >= 17 ? 40 : 36;
	uint64_t st = be32(blob + 8), str = be32(blob + 12), rsv = be32(blob + 16);
	uint64_t rsv_end = rsv + 16 * ((uint64_t)dt->nr_rsv + 1);

	CHECK(be32(blob) == 0xd00dfeed && total == dt->totalsize && ver == dt->version);
	CHECK(ver >= 16 && be32(blob + 24) <= 17 && be32(blob + 24) <= ver && total >= hdr);
	CHECK(st == dt->off_struct && str == dt->off_strings && rsv == dt->off_rsvmap);
	CHECK(be32(blob + 32) == dt->size_strings && (ver < 17 || be32(blob + 36) == dt->size_struct));
	CHECK(st >= hdr && st + dt->size_struct <= total && st % 4 == 0);
	CHECK(str >= hdr && str + dt->size_strings <= total);
	CHECK(rsv >= hdr && rsv % 8 == 0 && rsv_end <= total);
	CHECK(!dt->size_struct || rsv_end <= st || rsv >= st + dt->size_struct);
	CHECK(!dt->size_strings || rsv_end <= str || rsv >= str + dt->size_strings);
}

/* One root first, balanced nesting < 64 deep, properties before subnodes, FDT_END last. */
void model_scan(struct tree *t)
{
	uint32_t size = t->dt->size_struct, nstr = t->dt->size_strings, off = 0, len, nameoff;
	int depth = -1, open[64], last[66];	/* open nodes; last child seen at each depth */
	bool props_ok = false;

	for (;;) {
		CHECK(off % 4 == 0 && off <= size && size - off >= 4);
		switch (be32(t->s + off)) {
		case 1: {	/* FDT_BEGIN_NODE */
			const char *name = (const char *)t->s + off + 4;
			const char *nul = memchr(name, 0, size - off - 4);
			int i = t->nn++;

			CHECK(nul && ++depth < 64);
			CHECK(depth > 0 ? i > 0 : i == 0 && off == 0 && !*name);
			t->n[i] = (struct node){ (int)off, depth, depth ? open[depth - 1] : -1, -1, -1,
						 t->np, 0, name, false };
			if (depth && t->n[open[depth - 1]].child < 0)
				t->n[open[depth - 1]].child = i;
			if (depth && last[depth] >= 0)
				t->n[last[depth]].sib = i;
			last[depth] = open[depth] = i;
			last[depth + 1] = -1;
			off = ((uint32_t)(nul + 1 - (const char *)t->s) + 3) & ~3u;
			props_ok = true;
			break;
		}
		case 2:		/* FDT_END_NODE */
			CHECK(depth-- >= 0);
			props_ok = false;
			off += 4;
			break;
		case 3:		/* FDT_PROP: len, nameoff, value */
			CHECK(depth >= 0 && props_ok && size - off >= 12);
			len = be32(t->s + off + 4);
			nameoff = be32(t->s + off + 8);
			CHECK(len <= size - off - 12 && nameoff < nstr);
			CHECK(memchr(t->str + nameoff, 0, nstr - nameoff));
			t->p[t->np++] = (struct prop){ (int)off, (int)len,
				(const char *)t->str + nameoff, t->s + off + 12 };
			t->n[open[depth]].nprops++;
			off = (off + 12 + len + 3) & ~3u;
			break;
		case 4:		/* FDT_NOP */
			off += 4;
			break;
		case 9:		/* FDT_END: the last token of the block */
			CHECK(depth == -1 && t->nn > 0 && off + 4 == size);
			return;
		default:
			CHECK(!"bad token in an accepted blob");
		}
	}
}

int model_prop(const struct tree *t, int node, const char *name)
{
	for (int k = t->n[node].prop0; k < t->n[node].prop0 + t->n[node].nprops; k++)
		if (!strcmp(t->p[k].name, name))
			return k;
	return -1;
}

/* #address-cells / #size-cells: @def if absent, -1 unless 4 bytes holding 0..4. */
int model_cells(const struct tree *t, int node, const char *name, int def)
{
	int k = model_prop(t, node, name);

	if (k < 0)
		return def;
	return t->p[k].len != 4 || be32(t->p[k].val) > 4 ? -1 : (int)be32(t->p[k].val);
}

/* "uart" matches "uart" and "uart@..."; "uart@1" only itself. */
bool model_name_matches(const char *name, const char *comp, size_t n)
{
	return strlen(name) >= n && !memcmp(name, comp, n) &&
	       (name[n] == '\0' || (name[n] == '@' && !memchr(comp, '@', n)));
}

/* Follow path[0..len) from @node: each component picks the first matching child. */
int model_walk(const struct tree *t, int node, const char *path, size_t len)
{
	size_t a = 0, b;

	while (node >= 0) {
		while (a < len && path[a] == '/')
			a++;
		if (a == len)
			return node;
		for (b = a; b < len && path[b] != '/'; b++)
			;
		for (node = t->n[node].child; node >= 0; node = t->n[node].sib)
			if (model_name_matches(t->n[node].name, path + a, b - a))
				break;
		a = b;
	}
	return -1;
}

/* An absolute path, or an alias (the first /aliases property of that name, whose value must
 * be a terminated absolute path) followed by the rest of the path. */
int model_path(const struct tree *t, const char *path, size_t len)
{
	int al = model_walk(t, 0, "/aliases", 8), k, end;
	size_t n = 0;

	len = strnlen(path, len);
	if (len == 0)
		return -1;
	if (path[0] == '/')
		return model_walk(t, 0, path, len);
	while (n < len && path[n] != '/')
		n++;
	if (al < 0)
		return -1;
	end = t->n[al].prop0 + t->n[al].nprops;
	for (k = t->n[al].prop0; k < end; k++)
		if (strlen(t->p[k].name) == n && !memcmp(t->p[k].name, path, n))
			break;
	if (k == end || t->p[k].len <= 0 || t->p[k].val[0] != '/' ||
	    !memchr(t->p[k].val, 0, (size_t)t->p[k].len))
		return -1;
	return model_walk(t, model_walk(t, 0, (const char *)t->p[k].val,
					strlen((const char *)t->p[k].val)), path + n, len - n);
}

/* Is @s one complete (NUL-terminated) entry of @node's first "compatible" property? */
bool model_compat(const struct tree *t, int node, const char *s)
{
	int k = model_prop(t, node, "compatible");
	size_t a = 0, n = strlen(s), len;
	const char *v, *nul;

	if (k < 0)
		return false;
	v = (const char *)t->p[k].val;
	len = (size_t)t->p[k].len;
	for (; (nul = memchr(v + a, 0, len - a)) != NULL; a = (size_t)(nul - v) + 1)
		if ((size_t)(nul - v) - a == n && !memcmp(v + a, s, n))
			return true;
	return false;
}
