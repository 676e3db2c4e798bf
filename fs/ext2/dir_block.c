/*
 * dir_block.c - the rules of ext2's directory blocks, on one chunk's bytes.
 *
 * A directory is a file of chunks (one filesystem block each) tiled by variable-length entries:
 * inode (le32), rec_len (le16), name_len, file_type, then the name, each entry 4-aligned and
 * rec_len long.  A dead entry has inode 0; deleting an entry folds it into the one before it,
 * so only the first entry of a chunk is ever dead in a directory Linux wrote (e2fsprogs leaves
 * whole dead chunks too).  Invariant of a checked chunk: the entries tile it exactly, none
 * shorter than EXT2_DIR_REC_LEN(its name_len), none crossing its end.
 *
 * Where tinymm differs from v6.10's fs/ext2/dir.c, and why:
 * - The functions take a chunk's bytes, not a folio: ext2's folio code maps the folio and calls
 *   them per chunk, so the format's rules are host-tested on real e2fsprogs images without a
 *   page cache (tests/host/ext2_dir_test.c).
 * - ext2_dirblock_check() also refuses a live entry with name_len 0 (v6.10 lets it through,
 *   e2fsck does not) and reports a rec_len of 0 apart from a short one: the corrupt-image
 *   messages name what is wrong.
 * - ext2_dirblock_add() refuses a name present anywhere in the chunk; ext2_add_link() only sees
 *   the entries before the slot it takes, relying on its callers' lookup.
 * - ext2_dirblock_is_empty() accepts "." and ".." only in a directory's first chunk; v6.10's
 *   ext2_empty_dir() accepts them in any.
 * - ext2_dirblock_next() always walks from the chunk's start to *pos (v6.10 walks only when
 *   i_version changed): the chunk holds at most 341 entries and nothing here knows the version.
 * - rec_len 65536 (EXT2_MAX_REC_LEN) never occurs: blocks are at most 4096 bytes, PAGE_SIZE.
 * Bad chunks give -EUCLEAN (Linux's ext2_error() path), never a read outside the chunk or a loop.
 *
 * Locking: none here; the caller holds the directory's lock (and the folio's) as Linux does.
 */
#include <string.h>
#include "dir_block.h"
#include "tinymm/errno.h"
#include "tinymm/printk.h"

/*
 * Fields are read at their byte offsets through the little-endian accessors, never through a
 * struct pointer: a chunk's bytes need not be aligned and the host's byte order is not assumed.
 */
#define DIRENT_INODE	offsetof(struct ext2_dir_entry_2, inode)
#define DIRENT_REC_LEN	offsetof(struct ext2_dir_entry_2, rec_len)
#define DIRENT_NAME_LEN	offsetof(struct ext2_dir_entry_2, name_len)
#define DIRENT_TYPE	offsetof(struct ext2_dir_entry_2, file_type)
#define DIRENT_NAME	offsetof(struct ext2_dir_entry_2, name)
_Static_assert(DIRENT_NAME == 8 && DIRENT_NAME_LEN == 6, "ext2_dir_entry_2 is the on-disk layout");

/* Unsigned whichever header defined EXT2_DIR_REC_LEN (Linux's is an int expression). */
#define REC_LEN(name_len)	((unsigned int)EXT2_DIR_REC_LEN(name_len))
#define DIR_MIN_REC_LEN		REC_LEN(1)	/* the smallest entry */

static uint32_t de_inode(const uint8_t *de)
{
	return get_unaligned_le32(de + DIRENT_INODE);
}

static unsigned int de_rec_len(const uint8_t *de)
{
	return get_unaligned_le16(de + DIRENT_REC_LEN);
}

/*
 * rec_len of the entry at off if it can be followed safely (header inside the chunk, rec_len at
 * least 12, 4-aligned, holding its name, not crossing the chunk's end), else 0.  Every walker
 * but the checker goes through this, so a bad chunk stops a walk instead of derailing it.
 */
static unsigned int entry_len(const uint8_t *b, unsigned int blocksize, unsigned int off)
{
	unsigned int len;

	if (off + DIR_MIN_REC_LEN > blocksize)
		return 0;
	len = de_rec_len(b + off);
	if (len < DIR_MIN_REC_LEN || (len & 3) || len < REC_LEN(b[off + DIRENT_NAME_LEN]) ||
	    len > blocksize - off)
		return 0;
	return len;
}

/* Linux's ext2_match(): a live entry with exactly this name. */
static bool entry_matches(const uint8_t *de, const char *name, unsigned int namelen)
{
	return de_inode(de) && de[DIRENT_NAME_LEN] == namelen &&
	       !memcmp(de + DIRENT_NAME, name, namelen);
}

static bool blocksize_ok(unsigned int blocksize)
{
	return blocksize == 1024 || blocksize == 2048 || blocksize == 4096;
}

int ext2_dirblock_check(const void *blk, unsigned int blocksize, uint32_t inodes_count,
			char *err, size_t errlen)
{
	const uint8_t *b = blk;
	unsigned int off, len = 0;

	if (!blocksize_ok(blocksize)) {
		ksnprintf(err, errlen, "blocksize %u is not 1024, 2048 or 4096", blocksize);
		return -EINVAL;
	}
	/* The order of v6.10's ext2_check_folio(), so the first problem found is the one it names. */
	for (off = 0; off + DIR_MIN_REC_LEN <= blocksize; off += len) {
		const uint8_t *de = b + off;
		unsigned int name_len = de[DIRENT_NAME_LEN];
		uint32_t ino = de_inode(de);

		len = de_rec_len(de);
		if (len == 0) {
			ksnprintf(err, errlen, "rec_len is 0 at offset %u", off);
			return -EUCLEAN;
		}
		if (len < DIR_MIN_REC_LEN) {
			ksnprintf(err, errlen, "rec_len %u is smaller than minimal (%u) at offset %u",
				  len, DIR_MIN_REC_LEN, off);
			return -EUCLEAN;
		}
		if (len & 3) {
			ksnprintf(err, errlen, "rec_len %u is not a multiple of 4 at offset %u", len, off);
			return -EUCLEAN;
		}
		if (len < REC_LEN(name_len)) {
			ksnprintf(err, errlen, "rec_len %u is too small for name_len %u at offset %u",
				  len, name_len, off);
			return -EUCLEAN;
		}
		if (len > blocksize - off) {
			ksnprintf(err, errlen, "rec_len %u runs past the block at offset %u", len, off);
			return -EUCLEAN;
		}
		if (ino > inodes_count) {
			ksnprintf(err, errlen, "inode %u out of range at offset %u", (unsigned int)ino,
				  off);
			return -EUCLEAN;
		}
		if (ino && !name_len) {
			ksnprintf(err, errlen, "name_len is 0 for inode %u at offset %u",
				  (unsigned int)ino, off);
			return -EUCLEAN;
		}
	}
	/* Fewer than 12 bytes left: no entry fits there, so the last one should have covered them. */
	if (off != blocksize) {
		ksnprintf(err, errlen, "entries end %u bytes before the block's end at offset %u",
			  blocksize - off, off);
		return -EUCLEAN;
	}
	return 0;
}

int ext2_dirblock_find(const void *blk, unsigned int blocksize, const char *name,
		       unsigned int namelen, unsigned int *offset)
{
	const uint8_t *b = blk;
	unsigned int off, len;

	for (off = 0; off < blocksize; off += len) {
		len = entry_len(b, blocksize, off);
		if (!len)
			return -EUCLEAN;
		if (entry_matches(b + off, name, namelen)) {
			*offset = off;
			return 0;
		}
	}
	return -ENOENT;
}

/* Write a whole entry's header and name; the padding up to EXT2_DIR_REC_LEN is zeroed. */
static void write_entry(uint8_t *de, uint32_t ino, unsigned int rec_len, const char *name,
			unsigned int namelen, uint8_t file_type)
{
	put_unaligned_le32(ino, de + DIRENT_INODE);
	put_unaligned_le16((uint16_t)rec_len, de + DIRENT_REC_LEN);
	de[DIRENT_NAME_LEN] = (uint8_t)namelen;
	de[DIRENT_TYPE] = file_type;
	memcpy(de + DIRENT_NAME, name, namelen);
	memset(de + DIRENT_NAME + namelen, 0, REC_LEN(namelen) - DIRENT_NAME - namelen);
}

int ext2_dirblock_add(void *blk, unsigned int blocksize, const char *name, unsigned int namelen,
		      uint32_t ino, uint8_t file_type, unsigned int *offset)
{
	uint8_t *b = blk;
	unsigned int need = REC_LEN(namelen);
	unsigned int off, len, slot = blocksize, slot_len = 0, used = 0;

	if (!namelen || !ino)
		return -EINVAL;
	if (namelen > EXT2_NAME_LEN)
		return -ENAMETOOLONG;
	/*
	 * ext2_add_link()'s first fit: a dead entry big enough is taken whole, a live one with
	 * enough slack past its own name is split.  The walk goes on to the end to see duplicates.
	 */
	for (off = 0; off < blocksize; off += len) {
		const uint8_t *de = b + off;

		len = entry_len(b, blocksize, off);
		if (!len)
			return -EUCLEAN;
		if (entry_matches(de, name, namelen))
			return -EEXIST;
		if (slot != blocksize)
			continue;
		if (!de_inode(de) && len >= need) {
			slot = off;
			slot_len = len;
			used = 0;
		} else if (de_inode(de) && len >= REC_LEN(de[DIRENT_NAME_LEN]) + need) {
			slot = off;
			slot_len = len;
			used = REC_LEN(de[DIRENT_NAME_LEN]);
		}
	}
	if (slot == blocksize)
		return -ENOSPC;
	if (used) {
		/* The live entry keeps what its name needs; the new one gets the rest. */
		put_unaligned_le16((uint16_t)used, b + slot + DIRENT_REC_LEN);
		slot += used;
		slot_len -= used;
	}
	write_entry(b + slot, ino, slot_len, name, namelen, file_type);
	*offset = slot;
	return 0;
}

/*
 * Find the entry starting at offset: its rec_len, and in *prev the offset of the entry before it
 * (blocksize if it is the first).  0 if no entry starts there or the walk meets a bad entry.
 */
static unsigned int entry_at(const uint8_t *b, unsigned int blocksize, unsigned int offset,
			     unsigned int *prev)
{
	unsigned int off, len;

	*prev = blocksize;
	for (off = 0; off <= offset && off < blocksize; off += len) {
		len = entry_len(b, blocksize, off);
		if (!len)
			return 0;
		if (off == offset)
			return len;
		*prev = off;
	}
	return 0;
}

int ext2_dirblock_delete(void *blk, unsigned int blocksize, unsigned int offset)
{
	uint8_t *b = blk;
	unsigned int prev, len = entry_at(b, blocksize, offset, &prev);

	if (!len)
		return -EINVAL;
	if (!de_inode(b + offset))
		return -ENOENT;
	/* The previous entry absorbs this one; the first entry of a chunk has none, so it dies. */
	if (prev != blocksize)
		put_unaligned_le16((uint16_t)(offset + len - prev), b + prev + DIRENT_REC_LEN);
	put_unaligned_le32(0, b + offset + DIRENT_INODE);
	return 0;
}

int ext2_dirblock_set_ino(void *blk, unsigned int blocksize, unsigned int offset, uint32_t ino,
			  uint8_t file_type)
{
	uint8_t *b = blk;
	unsigned int prev;

	if (!ino || !entry_at(b, blocksize, offset, &prev))
		return -EINVAL;
	if (!de_inode(b + offset))
		return -ENOENT;
	put_unaligned_le32(ino, b + offset + DIRENT_INODE);
	b[offset + DIRENT_TYPE] = file_type;
	return 0;
}

void ext2_dirblock_init_empty(void *blk, unsigned int blocksize)
{
	/* What e2fsprogs' ext2fs_new_dir_block(fs, 0, 0, ...) writes: zeroes, one dead entry. */
	memset(blk, 0, blocksize);
	put_unaligned_le16((uint16_t)blocksize, (uint8_t *)blk + DIRENT_REC_LEN);
}

void ext2_dirblock_make_empty(void *blk, unsigned int blocksize, uint32_t self_ino,
			      uint32_t parent_ino)
{
	uint8_t *b = blk;

	memset(b, 0, blocksize);
	write_entry(b, self_ino, REC_LEN(1), ".", 1, EXT2_FT_DIR);
	write_entry(b + REC_LEN(1), parent_ino, blocksize - REC_LEN(1), "..", 2,
		    EXT2_FT_DIR);
}

bool ext2_dirblock_is_empty(const void *blk, unsigned int blocksize, uint32_t self_ino,
			    bool first_chunk)
{
	const uint8_t *b = blk;
	unsigned int off, len;

	for (off = 0; off < blocksize; off += len) {
		const uint8_t *de = b + off;
		const char *name = (const char *)de + DIRENT_NAME;
		uint32_t ino = de_inode(de);

		len = entry_len(b, blocksize, off);
		if (!len)
			return false;	/* as ext2_empty_dir(): a bad chunk is never removed */
		if (!ino)
			continue;
		if (!first_chunk || name[0] != '.')
			return false;
		if (de[DIRENT_NAME_LEN] == 1 && ino == self_ino)
			continue;
		if (de[DIRENT_NAME_LEN] == 2 && name[1] == '.')
			continue;
		return false;
	}
	return true;
}

int ext2_dirblock_next(const void *blk, unsigned int blocksize, unsigned int *pos,
		       struct ext2_dirent_view *out)
{
	const uint8_t *b = blk;
	unsigned int off, len;

	/* Linux's ext2_validate_entry(): *pos may be stale, so walk from the chunk's start. */
	for (off = 0; off < blocksize; off += len) {
		const uint8_t *de = b + off;

		len = entry_len(b, blocksize, off);
		if (!len)
			return -EUCLEAN;
		if (off < *pos || !de_inode(de))
			continue;
		out->name = (const char *)de + DIRENT_NAME;
		out->name_len = de[DIRENT_NAME_LEN];
		out->inode = de_inode(de);
		out->file_type = de[DIRENT_TYPE];
		out->offset = off;
		*pos = off + len;
		return 1;
	}
	*pos = blocksize;
	return 0;
}
