/*
 * ext2_dirblock_test.c - fs/ext2/dir_block.c on chunks built here: a chunk filled until
 * -ENOSPC and its holes reused (middle and first entry), names refused (empty, too long,
 * duplicate after a hole, inode 0), readdir resumed from stale positions, delete and set_ino
 * on offsets that are not entries, rmdir's emptiness per chunk, the little-endian accessors.
 * tests/host/ext2_dir_test.c judges the same code against e2fsprogs' images.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dir_block.h"
#include "tinymm/errno.h"

#define MAX_ENTRIES	400
#define MAX_BS		4096

/* Fill a new directory's chunk until -ENOSPC, then reuse a hole in the middle and at the start. */
static void fill_delete_reuse(void **state)
{
	static const unsigned int sizes[] = { 1024, 2048, 4096 };

	for (int i = 0; i < 3; i++) {
		unsigned int bs = sizes[i], n, off, offs[MAX_ENTRIES], rec0;
		uint8_t b[MAX_BS];
		char name[8], err[EXT2_DIRBLOCK_ERR_MAX];

		ext2_dirblock_make_empty(b, bs, 5, 2);
		assert_int_equal(ext2_dirblock_check(b, bs, 100, err, sizeof(err)), 0);
		/* 4-byte names take 12 bytes each after "." and ".." (12 bytes each once split). */
		for (n = 0;; n++) {
			snprintf(name, sizeof(name), "f%03u", n);
			int rc = ext2_dirblock_add(b, bs, name, 4, 10 + n % 50, EXT2_FT_REG_FILE, &off);
			if (rc == -ENOSPC)
				break;
			assert_int_equal(rc, 0);
			assert_int_equal(off, 24 + 12 * n);
			offs[n] = off;
			assert_int_equal(ext2_dirblock_check(b, bs, 100, err, sizeof(err)), 0);
		}
		assert_int_equal(n, (bs - 24) / 12);
		/* The last entry holds the chunk's tail. */
		assert_int_equal(get_unaligned_le16(b + offs[n - 1] + 4), bs - offs[n - 1]);

		/* A middle entry merges into its predecessor; the next add takes that room back. */
		assert_int_equal(ext2_dirblock_find(b, bs, "f040", 4, &off), 0);
		assert_int_equal(off, offs[40]);
		assert_int_equal(ext2_dirblock_delete(b, bs, off), 0);
		assert_int_equal(get_unaligned_le16(b + offs[39] + 4), 24);
		assert_int_equal(ext2_dirblock_find(b, bs, "f040", 4, &off), -ENOENT);
		assert_int_equal(ext2_dirblock_check(b, bs, 100, err, sizeof(err)), 0);
		assert_int_equal(ext2_dirblock_add(b, bs, "new1", 4, 7, EXT2_FT_DIR, &off), 0);
		assert_int_equal(off, offs[40]);
		assert_int_equal(get_unaligned_le16(b + offs[39] + 4), 12);
		assert_int_equal(ext2_dirblock_add(b, bs, "new2", 4, 7, EXT2_FT_DIR, &off), -ENOSPC);

		/* The first entry of a chunk has no predecessor: it dies in place, rec_len kept. */
		rec0 = get_unaligned_le16(b + 4);
		assert_int_equal(ext2_dirblock_delete(b, bs, 0), 0);
		assert_int_equal(get_unaligned_le32(b), 0);
		assert_int_equal(get_unaligned_le16(b + 4), rec0);
		assert_int_equal(ext2_dirblock_check(b, bs, 100, err, sizeof(err)), 0);
		assert_int_equal(ext2_dirblock_find(b, bs, ".", 1, &off), -ENOENT);
		/* A 5-byte name needs 16 bytes: the dead 12-byte entry cannot hold it ... */
		assert_int_equal(ext2_dirblock_add(b, bs, "five5", 5, 9, 1, &off), -ENOSPC);
		/* ... a 4-byte one takes it whole. */
		assert_int_equal(ext2_dirblock_add(b, bs, "new2", 4, 9, 1, &off), 0);
		assert_int_equal(off, 0);
		assert_int_equal(get_unaligned_le16(b + 4), 12);
		assert_int_equal(ext2_dirblock_check(b, bs, 100, err, sizeof(err)), 0);
		/* Too large an inode for this filesystem is the checker's business. */
		assert_int_equal(ext2_dirblock_check(b, bs, 55, err, sizeof(err)), -EUCLEAN);
	}
}

static void add_refuses_bad_names(void **state)
{
	uint8_t b[1024], copy[1024];
	char longname[EXT2_NAME_LEN + 2];
	unsigned int off;

	ext2_dirblock_make_empty(b, 1024, 5, 2);
	assert_int_equal(ext2_dirblock_add(b, 1024, "a", 1, 11, 1, &off), 0);
	assert_int_equal(ext2_dirblock_add(b, 1024, "b", 1, 12, 1, &off), 0);
	assert_int_equal(ext2_dirblock_find(b, 1024, "a", 1, &off), 0);
	assert_int_equal(ext2_dirblock_delete(b, 1024, off), 0);
	memcpy(copy, b, sizeof(b));
	/* The hole "a" left comes before "b": the duplicate is still seen. */
	assert_int_equal(ext2_dirblock_add(b, 1024, "b", 1, 13, 1, &off), -EEXIST);
	assert_int_equal(ext2_dirblock_add(b, 1024, "..", 2, 13, 2, &off), -EEXIST);
	assert_int_equal(ext2_dirblock_add(b, 1024, "", 0, 13, 1, &off), -EINVAL);
	assert_int_equal(ext2_dirblock_add(b, 1024, "c", 1, 0, 1, &off), -EINVAL);
	memset(longname, 'n', sizeof(longname));
	assert_int_equal(ext2_dirblock_add(b, 1024, longname, EXT2_NAME_LEN + 1, 13, 1, &off),
			 -ENAMETOOLONG);
	assert_memory_equal(b, copy, sizeof(b));
	assert_int_equal(ext2_dirblock_add(b, 1024, longname, EXT2_NAME_LEN, 13, 1, &off), 0);
	assert_int_equal(ext2_dirblock_find(b, 1024, longname, EXT2_NAME_LEN, &off), 0);
	/* A prefix or an extension of a name is another name. */
	assert_int_equal(ext2_dirblock_find(b, 1024, longname, EXT2_NAME_LEN - 1, &off), -ENOENT);
	assert_int_equal(ext2_dirblock_find(b, 1024, "bb", 2, &off), -ENOENT);
}

/* readdir resumed from a stale position: the first live entry at or after it. */
static void next_resumes_from_any_pos(void **state)
{
	uint8_t b[2048];
	struct ext2_dirent_view v;
	unsigned int pos, off[4];
	const char *names[] = { "one", "two", "three", "four" };

	ext2_dirblock_init_empty(b, 2048);
	pos = 0;
	assert_int_equal(ext2_dirblock_next(b, 2048, &pos, &v), 0);	/* nothing live */
	assert_int_equal(pos, 2048);
	for (int i = 0; i < 4; i++)
		assert_int_equal(ext2_dirblock_add(b, 2048, names[i], (unsigned int)strlen(names[i]),
						   20 + i, EXT2_FT_REG_FILE, &off[i]), 0);
	assert_int_equal(off[0], 0);	/* the dead entry is taken whole, then split */
	pos = 0;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(ext2_dirblock_next(b, 2048, &pos, &v), 1);
		assert_int_equal(v.offset, off[i]);
		assert_int_equal(v.inode, 20 + i);
		assert_int_equal(v.file_type, EXT2_FT_REG_FILE);
		assert_memory_equal(v.name, names[i], v.name_len);
	}
	assert_int_equal(ext2_dirblock_next(b, 2048, &pos, &v), 0);
	/* Mid-entry: the next entry's start. */
	pos = off[1] + 3;
	assert_int_equal(ext2_dirblock_next(b, 2048, &pos, &v), 1);
	assert_int_equal(v.offset, off[2]);
	/* "two" deleted after a reader stopped at it: its offset is now inside "one". */
	assert_int_equal(ext2_dirblock_delete(b, 2048, off[1]), 0);
	pos = off[1];
	assert_int_equal(ext2_dirblock_next(b, 2048, &pos, &v), 1);
	assert_int_equal(v.offset, off[2]);
	assert_int_equal(v.inode, 22);
	pos = 4000;
	assert_int_equal(ext2_dirblock_next(b, 2048, &pos, &v), 0);
}

static void delete_and_set_ino_need_an_entry(void **state)
{
	uint8_t b[1024];
	unsigned int off;

	ext2_dirblock_make_empty(b, 1024, 30, 2);
	assert_int_equal(ext2_dirblock_delete(b, 1024, 4), -EINVAL);
	assert_int_equal(ext2_dirblock_delete(b, 1024, 36), -EINVAL);	/* inside ".." */
	assert_int_equal(ext2_dirblock_delete(b, 1024, 1024), -EINVAL);
	assert_int_equal(ext2_dirblock_delete(b, 1024, 2048), -EINVAL);
	/* A moved directory's "..": */
	assert_int_equal(ext2_dirblock_find(b, 1024, "..", 2, &off), 0);
	assert_int_equal(off, 12);
	assert_int_equal(ext2_dirblock_set_ino(b, 1024, off, 77, EXT2_FT_DIR), 0);
	assert_int_equal(get_unaligned_le32(b + 12), 77);
	assert_int_equal(ext2_dirblock_set_ino(b, 1024, off, 0, EXT2_FT_DIR), -EINVAL);
	assert_int_equal(ext2_dirblock_set_ino(b, 1024, 13, 78, EXT2_FT_DIR), -EINVAL);
	assert_int_equal(ext2_dirblock_delete(b, 1024, 0), 0);
	assert_int_equal(ext2_dirblock_set_ino(b, 1024, 0, 78, EXT2_FT_DIR), -ENOENT);
	assert_int_equal(ext2_dirblock_delete(b, 1024, 0), -ENOENT);
	assert_int_equal(get_unaligned_le32(b + 12), 77);
}

static void is_empty_per_chunk(void **state)
{
	uint8_t b[4096];
	unsigned int off;

	ext2_dirblock_make_empty(b, 4096, 40, 2);
	assert_true(ext2_dirblock_is_empty(b, 4096, 40, true));
	assert_false(ext2_dirblock_is_empty(b, 4096, 41, true));
	assert_false(ext2_dirblock_is_empty(b, 4096, 40, false));
	assert_int_equal(ext2_dirblock_add(b, 4096, ".a", 2, 50, 1, &off), 0);	/* not ".." */
	assert_false(ext2_dirblock_is_empty(b, 4096, 40, true));
	assert_int_equal(ext2_dirblock_delete(b, 4096, off), 0);
	assert_true(ext2_dirblock_is_empty(b, 4096, 40, true));
	ext2_dirblock_init_empty(b, 4096);
	assert_true(ext2_dirblock_is_empty(b, 4096, 40, false));
	assert_int_equal(ext2_dirblock_add(b, 4096, "x", 1, 50, 1, &off), 0);
	assert_false(ext2_dirblock_is_empty(b, 4096, 40, false));
	assert_int_equal(ext2_dirblock_delete(b, 4096, off), 0);	/* first: dies in place */
	assert_true(ext2_dirblock_is_empty(b, 4096, 40, false));
}

/* The accessors are little-endian whatever the host, at any alignment. */
static void le_accessors(void **state)
{
	uint8_t b[8] = { 0 };

	put_unaligned_le32(0x11223344, b + 1);
	put_unaligned_le16(0xa1b2, b + 5);
	assert_memory_equal(b, ((const uint8_t[]){ 0, 0x44, 0x33, 0x22, 0x11, 0xb2, 0xa1, 0 }), 8);
	assert_int_equal(get_unaligned_le32(b + 1), 0x11223344);
	assert_int_equal(get_unaligned_le16(b + 5), 0xa1b2);
	assert_int_equal(EXT2_DIR_REC_LEN(1), 12);
	assert_int_equal(EXT2_DIR_REC_LEN(4), 12);
	assert_int_equal(EXT2_DIR_REC_LEN(5), 16);
	assert_int_equal(EXT2_DIR_REC_LEN(255), 264);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64*: a fixed stream, so a failure repeats. */
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/*
 * Random adds and deletes on chunks allocated to their exact size (ASan sees any byte read or
 * written past the end), against a model of which names are present: after every operation the
 * chunk passes the check and the iterator lists exactly the model.
 */
static void random_ops_match_model(void **state)
{
	static const unsigned int sizes[] = { 1024, 2048, 4096 };
	enum { NAMES = 200 };

	for (int s = 0; s < 3; s++) {
		unsigned int bs = sizes[s], off;
		uint8_t *b = malloc(bs);
		bool present[NAMES] = { false };
		char name[EXT2_NAME_LEN + 1], err[EXT2_DIRBLOCK_ERR_MAX];
		unsigned int adds = 0, nospc = 0, dels = 0;

		assert_non_null(b);
		ext2_dirblock_init_empty(b, bs);
		for (int step = 0; step < 20000; step++) {
			unsigned int k = (unsigned int)(rng() % NAMES);
			/* Name k: k's digits, then a letter up to 1..255 bytes: unique per k. */
			unsigned int len = 1 + k * 7 % EXT2_NAME_LEN;
			unsigned int d = (unsigned int)snprintf(name, sizeof(name), "%u", k);

			assert_true(len >= d);
			memset(name + d, 'a' + k % 26, len - d);
			int rc, found = ext2_dirblock_find(b, bs, name, len, &off);

			assert_int_equal(found, present[k] ? 0 : -ENOENT);
			if (present[k]) {
				assert_int_equal(ext2_dirblock_delete(b, bs, off), 0);
				present[k] = false;
				dels++;
			} else {
				rc = ext2_dirblock_add(b, bs, name, len, 1 + k, EXT2_FT_REG_FILE, &off);
				assert_true(rc == 0 || rc == -ENOSPC);
				present[k] = rc == 0;
				adds += rc == 0;
				nospc += rc == -ENOSPC;
			}
			assert_int_equal(ext2_dirblock_check(b, bs, NAMES, err, sizeof(err)), 0);
			struct ext2_dirent_view v;
			unsigned int pos = 0, n = 0, live = 0;

			while (ext2_dirblock_next(b, bs, &pos, &v) == 1) {
				assert_true(v.inode >= 1 && v.inode <= NAMES);
				assert_true(present[v.inode - 1]);
				n++;
			}
			for (int i = 0; i < NAMES; i++)
				live += present[i];
			assert_int_equal(n, live);
		}
		/* The stream must have filled the chunk and emptied room again, or it tested little. */
		assert_true(adds > 1000 && dels > 1000 && nospc > 100);
		free(b);
	}
}

/* Garbage chunks of the exact size: whatever the checker says, no walker strays or loops. */
static void random_bytes_never_stray(void **state)
{
	for (int i = 0; i < 20000; i++) {
		unsigned int bs = 1024u << (i % 3), off, pos = 0;
		uint8_t *b = malloc(bs);
		char err[EXT2_DIRBLOCK_ERR_MAX];
		struct ext2_dirent_view v;
		int rc, steps = 0;

		assert_non_null(b);
		/* A valid chunk with a few random bytes, usually in the headers near the start. */
		ext2_dirblock_make_empty(b, bs, 2, 2);
		for (int k = 0; k < 4; k++)
			(void)ext2_dirblock_add(b, bs, "abcdefg", 1 + (unsigned int)(rng() % 7),
						(uint32_t)(1 + rng() % 50), 1, &off);
		for (int k = 0; k < 1 + i % 4; k++)
			b[rng() % (i % 2 ? 64 : bs)] = (uint8_t)rng();
		rc = ext2_dirblock_check(b, bs, 100, err, sizeof(err));
		assert_true(rc == 0 || (rc == -EUCLEAN && strstr(err, " at offset ")));
		while ((rc = ext2_dirblock_next(b, bs, &pos, &v)) == 1) {
			assert_true(v.offset + 8 + v.name_len <= bs && pos <= bs);
			assert_true(++steps <= (int)bs / 12);
		}
		assert_true(rc == 0 || rc == -EUCLEAN);
		(void)ext2_dirblock_find(b, bs, "abc", 3, &off);
		(void)ext2_dirblock_is_empty(b, bs, 2, true);
		rc = ext2_dirblock_add(b, bs, "newname", 7, 9, 1, &off);
		if (rc == 0)
			assert_true(off + 16 <= bs);
		(void)ext2_dirblock_delete(b, bs, (unsigned int)(rng() % bs));
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fill_delete_reuse),
		cmocka_unit_test(add_refuses_bad_names),
		cmocka_unit_test(next_resumes_from_any_pos),
		cmocka_unit_test(delete_and_set_ino_need_an_entry),
		cmocka_unit_test(is_empty_per_chunk),
		cmocka_unit_test(le_accessors),
		cmocka_unit_test(random_ops_match_model),
		cmocka_unit_test(random_bytes_never_stray),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
