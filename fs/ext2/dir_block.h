/*
 * dir_block.h - the bytes of one ext2 directory chunk (fs/ext2/dir_block.c): checking, lookup,
 * insertion, removal, iteration, and the first block of a new directory.
 *
 * A chunk is one filesystem block (1024, 2048 or 4096 bytes); a directory entry never crosses
 * one.  Every function takes the chunk's bytes and its size and nothing else, so the directory
 * folio code (ext2's dir.c) iterates a folio's chunks and owns locking, dirtying and i_size;
 * this file owns the on-disk rules.  Offsets are byte offsets within the chunk.
 *
 * The on-disk entry and the file types are ext2_fs.h's.
 */
#ifndef TINYMM_EXT2_DIR_BLOCK_H
#define TINYMM_EXT2_DIR_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ext2_fs.h"

/*
 * Little-endian fields read and written a byte at a time, as Linux's get_unaligned_le16() and
 * friends: correct on any byte order and any alignment of the buffer.
 */
#ifndef TINYMM_UNALIGNED_LE_DEFINED
#define TINYMM_UNALIGNED_LE_DEFINED
static inline uint16_t get_unaligned_le16(const void *p)
{
	const uint8_t *b = p;

	return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t get_unaligned_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline void put_unaligned_le16(uint16_t val, void *p)
{
	uint8_t *b = p;

	b[0] = (uint8_t)val;
	b[1] = (uint8_t)(val >> 8);
}

static inline void put_unaligned_le32(uint32_t val, void *p)
{
	uint8_t *b = p;

	b[0] = (uint8_t)val;
	b[1] = (uint8_t)(val >> 8);
	b[2] = (uint8_t)(val >> 16);
	b[3] = (uint8_t)(val >> 24);
}
#endif

/* One live entry as ext2_dirblock_next() reports it; name points into the chunk (not NUL-ended). */
struct ext2_dirent_view {
	const char *name;
	unsigned int name_len;
	uint32_t inode;
	uint8_t file_type;
	unsigned int offset;		/* of the entry within the chunk */
};

/* Room for the longest message ext2_dirblock_check() writes. */
#define EXT2_DIRBLOCK_ERR_MAX	96

/*
 * Check a chunk as Linux's ext2_check_folio(): 0, or -EUCLEAN with one line in err naming the
 * problem and its offset (-EINVAL for an unsupported blocksize).  The other functions assume a
 * checked chunk, but never loop or read outside it when given a bad one: a walk that meets a
 * bad entry gives -EUCLEAN (false for ext2_dirblock_is_empty()).
 */
int ext2_dirblock_check(const void *blk, unsigned int blocksize, uint32_t inodes_count,
			char *err, size_t errlen);
/* 0 and the offset of the live entry named name (ext2_find_entry() in one chunk), or -ENOENT. */
int ext2_dirblock_find(const void *blk, unsigned int blocksize, const char *name,
		       unsigned int namelen, unsigned int *offset);
/*
 * Insert name -> ino as Linux's ext2_add_link() places it: 0 and the new entry's offset,
 * -EEXIST if the chunk already holds the name, -ENOSPC if no entry has room, -ENAMETOOLONG,
 * -EINVAL for an empty name or inode 0.  file_type is 0 without the filetype feature.
 */
int ext2_dirblock_add(void *blk, unsigned int blocksize, const char *name, unsigned int namelen,
		      uint32_t ino, uint8_t file_type, unsigned int *offset);
/*
 * Remove the entry at offset as Linux's ext2_delete_entry(): 0, -EINVAL if no entry starts
 * there, -ENOENT if it is already dead.
 */
int ext2_dirblock_delete(void *blk, unsigned int blocksize, unsigned int offset);
/* Point the live entry at offset to ino (rename's ext2_set_link, ".." of a moved directory). */
int ext2_dirblock_set_ino(void *blk, unsigned int blocksize, unsigned int offset, uint32_t ino,
			  uint8_t file_type);
/* A chunk holding one dead entry: a directory block past the first. */
void ext2_dirblock_init_empty(void *blk, unsigned int blocksize);
/* A new directory's first chunk, as Linux's ext2_make_empty(): "." then "..". */
void ext2_dirblock_make_empty(void *blk, unsigned int blocksize, uint32_t self_ino,
			      uint32_t parent_ino);
/* Whether the chunk holds nothing rmdir must keep (ext2_empty_dir() for one chunk). */
bool ext2_dirblock_is_empty(const void *blk, unsigned int blocksize, uint32_t self_ino,
			    bool first_chunk);
/*
 * readdir: 1 and the first live entry at or after *pos, *pos then just past it; 0 at the end of
 * the chunk (*pos = blocksize).  *pos may be any offset (a directory changed since the last call).
 */
int ext2_dirblock_next(const void *blk, unsigned int blocksize, unsigned int *pos,
		       struct ext2_dirent_view *out);

#endif
