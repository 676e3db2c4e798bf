/*
 * fdt_internal.h - what lib/fdt.c (the accessors) and lib/fdt_check.c (dt_open's validation)
 * share: the format's constants, bounded string helpers and checked token access.  Not for use
 * outside lib/: everything else goes through include/tinymm/fdt.h.
 */
#ifndef TINYMM_FDT_INTERNAL_H
#define TINYMM_FDT_INTERNAL_H

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
static inline const char *find_byte(const void *p, char c, size_t n)
{
	const char *s = p;

	for (size_t i = 0; i < n; i++)
		if (s[i] == c)
			return s + i;
	return NULL;
}

/* a[0..n) == b[0..n).  Stops at the first difference, so a NUL-terminated @a is never overread. */
static inline bool same(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i == n;
}

static inline size_t length(const char *s, size_t max)
{
	const char *nul = find_byte(s, '\0', max);

	return nul ? (size_t)(nul - s) : max;
}

/* ---- checked token access: the only way anything reads the struct block ---- */

static inline const uint8_t *sblock(const struct dt *dt)
{
	return dt->blob + dt->off_struct;
}

/*
 * Decode the token at struct offset @off: returns its tag and the offset of the following token
 * in *next, or a BAD_* code if the token or its payload does not fit inside the struct block.
 */
static inline int tok(const struct dt *dt, int off, uint32_t *next)
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

static inline bool is_node(const struct dt *dt, int node)
{
	uint32_t next;

	return tok(dt, node, &next) == TOK_BEGIN_NODE;
}

/*
 * Offset of the first token after the @want token at @off that is not a NOP or (with
 * @skip_props) a property; its tag in *tag, < 0 if @off holds no @want token or on garbage.
 */
static inline int after(const struct dt *dt, int off, int want, bool skip_props, int *tag)
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
static inline const char *string_at(const struct dt *dt, uint32_t nameoff)
{
	const uint8_t *s;

	if (!dt->blob || nameoff >= dt->size_strings)
		return NULL;
	s = dt->blob + dt->off_strings + nameoff;
	return find_byte(s, '\0', dt->size_strings - nameoff) ? (const char *)s : NULL;
}

#endif
