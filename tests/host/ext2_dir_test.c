/*
 * ext2_dir_test.c - fs/ext2/dir_block.c judged by e2fsprogs, which no one here wrote.
 *
 * mke2fs -t ext2 -d builds 1 KiB and 4 KiB images from a tree whose /d holds names of every
 * length 1..255 (so it spans several blocks), a subdirectory with files and an empty one.
 * Reading: every block of /d passes ext2_dirblock_check(), ext2_dirblock_next() lists exactly
 * what `debugfs ls -p` lists (inode and file type too) and ext2_dirblock_find() finds each name.
 * Writing: entries deleted, added (hard links) and retargeted with these functions in a copy of
 * the image, the inodes' side made consistent with debugfs (kill_file, sif links_count), then
 * `e2fsck -fn` must call the image clean and debugfs must list and read the new names; a new
 * directory's block and an expanded directory's block equal what e2fsprogs writes.  Corruptions
 * of a real block each give their one-line error, and e2fsck agrees the block is bad.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "dir_block.h"
#include "tinymm/errno.h"

#define MAX_BLOCKS	64
#define MAX_ENTRIES	400
#define MAX_BS		4096

static char tmpdir[64];

struct entry {
	char name[EXT2_NAME_LEN + 1];
	uint32_t ino;
	uint8_t ft;
};

/* The image of one block size and what debugfs says about it. */
struct image {
	unsigned int bs;
	char path[128];
	uint32_t inodes_count;
	uint32_t blocks[MAX_BLOCKS];	/* /d's blocks, in file order */
	unsigned int nblocks;
};

static struct image images[2];

static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
	assert_int_equal(rc, 0);
}

/* The command's stdout (stderr to /dev/null) into out; its exit status. */
static int capture(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int capture(char *out, size_t size, const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	size_t n = 0;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>/dev/null", sizeof(cmd) - strlen(cmd) - 1);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (n + 1 < size) {
		size_t r = fread(out + n, 1, size - 1 - n, f);

		if (!r)
			break;
		n += r;
	}
	out[n] = '\0';
	return pclose(f);
}

/* Name of length len: [a-z0-9] cycled from a start that depends on len, so all differ. */
static void name_of_len(char *buf, unsigned int len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";

	for (unsigned int i = 0; i < len; i++)
		buf[i] = set[(len + i) % 36];
	buf[len] = '\0';
}

static void read_block(const struct image *im, const char *path, uint32_t blk, uint8_t *buf)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, im->bs, (off_t)blk * im->bs), (ssize_t)im->bs);
	close(fd);
}

static void write_block(const struct image *im, const char *path, uint32_t blk, const uint8_t *buf)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, buf, im->bs, (off_t)blk * im->bs), (ssize_t)im->bs);
	close(fd);
}

/*
 * The directory's data blocks in file order, from `debugfs -R 'stat <dir>'`'s BLOCKS list
 * ("(0):562, (1-3):569-571, (IND):657, ..."), leaving out the indirect blocks that
 * `debugfs blocks` would mix in.
 */
static unsigned int dir_blocks(const char *img, const char *dir, uint32_t *blocks)
{
	char out[8192], *p;
	unsigned int n = 0;

	assert_int_equal(capture(out, sizeof(out), "debugfs -R 'stat %s' %s", dir, img), 0);
	p = strstr(out, "BLOCKS:");
	assert_non_null(p);
	while ((p = strchr(p, '('))) {
		unsigned long l0, l1, b0, b1;
		char *end;

		p++;
		if (*p < '0' || *p > '9')
			continue;	/* (IND), (DIND), (TIND) */
		l0 = l1 = strtoul(p, &end, 10);
		if (*end == '-')
			l1 = strtoul(end + 1, &end, 10);
		assert_true(end[0] == ')' && end[1] == ':');
		b0 = b1 = strtoul(end + 2, &end, 10);
		if (*end == '-')
			b1 = strtoul(end + 1, &end, 10);
		assert_int_equal(l0, n);
		assert_int_equal(l1 - l0, b1 - b0);
		for (unsigned long b = b0; b <= b1; b++) {
			assert_true(n < MAX_BLOCKS);
			blocks[n++] = (uint32_t)b;
		}
		p = end;
	}
	assert_true(n > 0);
	return n;
}

static uint8_t ft_of_mode(unsigned long mode)
{
	switch (mode & 0170000) {
	case 0100000: return EXT2_FT_REG_FILE;
	case 0040000: return EXT2_FT_DIR;
	case 0120000: return EXT2_FT_SYMLINK;
	default: return EXT2_FT_UNKNOWN;
	}
}

/* `debugfs -R 'ls -p <dir>'` ("/ino/mode/uid/gid/name/size/" a line), live entries only. */
static unsigned int debugfs_ls(const char *img, const char *dir, struct entry *e)
{
	static char out[1 << 17];
	unsigned int n = 0;

	assert_int_equal(capture(out, sizeof(out), "debugfs -R 'ls -p %s' %s", dir, img), 0);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *f[7], *s = line;
		int k = 0;

		while (k < 7 && (s = strchr(s, '/')))
			f[k++] = ++s;
		if (k < 6)
			continue;	/* debugfs' banner or a blank line */
		unsigned long ino = strtoul(f[0], NULL, 10), mode = strtoul(f[1], NULL, 8);
		if (!ino)
			continue;	/* debugfs also shows a dead first entry */
		assert_true(n < MAX_ENTRIES);
		size_t len = (size_t)(f[5] - f[4] - 1);
		memcpy(e[n].name, f[4], len);
		e[n].name[len] = '\0';
		e[n].ino = (uint32_t)ino;
		e[n].ft = ft_of_mode(mode);
		n++;
	}
	return n;
}

/* Every live entry of the directory's blocks, by ext2_dirblock_next(), each checked and found. */
static unsigned int list_dir(const struct image *im, const char *img, const uint32_t *blocks,
			     unsigned int nblocks, struct entry *e)
{
	uint8_t buf[MAX_BS];
	unsigned int n = 0;

	for (unsigned int i = 0; i < nblocks; i++) {
		struct ext2_dirent_view v;
		unsigned int pos = 0, off;
		char err[EXT2_DIRBLOCK_ERR_MAX] = "";
		int rc;

		read_block(im, img, blocks[i], buf);
		rc = ext2_dirblock_check(buf, im->bs, im->inodes_count, err, sizeof(err));
		if (rc)
			fprintf(stderr, "block %u: %s\n", blocks[i], err);
		assert_int_equal(rc, 0);
		while ((rc = ext2_dirblock_next(buf, im->bs, &pos, &v)) == 1) {
			assert_true(n < MAX_ENTRIES);
			memcpy(e[n].name, v.name, v.name_len);
			e[n].name[v.name_len] = '\0';
			e[n].ino = v.inode;
			e[n].ft = v.file_type;
			assert_int_equal(ext2_dirblock_find(buf, im->bs, v.name, v.name_len, &off), 0);
			assert_int_equal(off, v.offset);
			assert_int_equal(pos, v.offset + get_unaligned_le16(buf + v.offset + 4));
			n++;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(pos, im->bs);
	}
	return n;
}

static const struct entry *lookup(const struct entry *e, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return &e[i];
	return NULL;
}

/* Our listing of the directory equals debugfs's: same names, inodes and file types. */
static void assert_same_listing(const struct image *im, const char *img, const char *dir,
				unsigned int *count)
{
	static struct entry ours[MAX_ENTRIES], theirs[MAX_ENTRIES];
	uint32_t blocks[MAX_BLOCKS];
	unsigned int nb = dir_blocks(img, dir, blocks);
	unsigned int n = list_dir(im, img, blocks, nb, ours);
	unsigned int m = debugfs_ls(img, dir, theirs);

	assert_int_equal(n, m);
	for (unsigned int i = 0; i < m; i++) {
		const struct entry *o = lookup(ours, n, theirs[i].name);

		if (!o)
			fprintf(stderr, "%s: debugfs lists '%s', we do not\n", dir, theirs[i].name);
		assert_non_null(o);
		assert_int_equal(o->ino, theirs[i].ino);
		assert_int_equal(o->ft, theirs[i].ft);
	}
	if (count)
		*count = n;
}

/* e2fsck -fn's exit status (0: clean; 4 << 8: errors left); its report on stderr if unexpected. */
static int e2fsck(const char *img, bool expect_clean)
{
	static char out[1 << 14];
	int rc = capture(out, sizeof(out), "e2fsck -fn %s", img);

	if (!rc != expect_clean)
		fprintf(stderr, "e2fsck -fn %s:\n%s\n", img, out);
	return rc;
}

static void copy_image(const struct image *im, const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s-%u.img", tmpdir, name, im->bs);
	run("cp %s %s", im->path, path);
}

static int setup(void **state)
{
	char src[128], name[EXT2_NAME_LEN + 1];

	strcpy(tmpdir, "/tmp/ext2_dir_test.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	snprintf(src, sizeof(src), "%s/src", tmpdir);
	run("mkdir -p %s/d/sub %s/d/empty", src, src);
	for (unsigned int len = 1; len <= EXT2_NAME_LEN; len++) {
		char path[512];
		FILE *f;

		name_of_len(name, len);
		snprintf(path, sizeof(path), "%s/d/%s", src, name);
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "file of name length %u\n", len);
		fclose(f);
	}
	run("echo a > %s/d/sub/a && echo b > %s/d/sub/b", src, src);
	for (int i = 0; i < 2; i++) {
		struct image *im = &images[i];
		uint8_t sb[1024];

		im->bs = i ? 4096 : 1024;
		snprintf(im->path, sizeof(im->path), "%s/base-%u.img", tmpdir, im->bs);
		run("mke2fs -q -F -t ext2 -b %u -d %s %s 8M >/dev/null", im->bs, src, im->path);
		int fd = open(im->path, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(pread(fd, sb, sizeof(sb), 1024), (ssize_t)sizeof(sb));
		close(fd);
		assert_int_equal(get_unaligned_le16(sb + 56), 0xef53);		/* s_magic */
		assert_int_equal(1024u << get_unaligned_le32(sb + 24), im->bs);	/* s_log_block_size */
		im->inodes_count = get_unaligned_le32(sb + 0);
		im->nblocks = dir_blocks(im->path, "/d", im->blocks);
	}
	/* 255 names of 1..255 bytes need ~35 KiB: several blocks even at 4 KiB. */
	assert_true(images[0].nblocks >= 30);
	assert_true(images[1].nblocks >= 8);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

/* Reading: our walk of every block of /d, /d/sub and /d/empty is debugfs's listing. */
static void read_matches_debugfs(void **state)
{
	for (int i = 0; i < 2; i++) {
		const struct image *im = &images[i];
		uint32_t blocks[MAX_BLOCKS];
		uint8_t buf[MAX_BS];
		unsigned int n;

		assert_same_listing(im, im->path, "/d", &n);
		assert_int_equal(n, 2 + EXT2_NAME_LEN + 2);	/* ., .., 255 files, sub, empty */
		assert_same_listing(im, im->path, "/d/sub", &n);
		assert_int_equal(n, 4);
		assert_same_listing(im, im->path, "/d/empty", &n);
		assert_int_equal(n, 2);

		/* rmdir's test: mke2fs's empty directory is empty, /d and /d/sub are not. */
		struct entry e[4];
		assert_int_equal(debugfs_ls(im->path, "/d/empty", e), 2);
		uint32_t self = lookup(e, 2, ".")->ino;
		assert_int_equal(dir_blocks(im->path, "/d/empty", blocks), 1);
		read_block(im, im->path, blocks[0], buf);
		assert_true(ext2_dirblock_is_empty(buf, im->bs, self, true));
		assert_false(ext2_dirblock_is_empty(buf, im->bs, self + 1, true));	/* "." wrong */
		assert_false(ext2_dirblock_is_empty(buf, im->bs, self, false));	/* not first */
		read_block(im, im->path, im->blocks[0], buf);
		assert_false(ext2_dirblock_is_empty(buf, im->bs, lookup(e, 2, "..")->ino, true));
		/* Every name of every length is found in some block, and only there. */
		for (unsigned int len = 1; len <= EXT2_NAME_LEN; len++) {
			char name[EXT2_NAME_LEN + 1];
			unsigned int found = 0, off;

			name_of_len(name, len);
			for (unsigned int b = 0; b < im->nblocks; b++) {
				read_block(im, im->path, im->blocks[b], buf);
				found += ext2_dirblock_find(buf, im->bs, name, len, &off) == 0;
			}
			assert_int_equal(found, 1);
		}
	}
}

/* The n-th live regular-file entry of a block (n from 0), its offset and inode. */
static unsigned int nth_file(const uint8_t *buf, unsigned int bs, unsigned int nth, uint32_t *ino,
			     char *name)
{
	struct ext2_dirent_view v;
	unsigned int pos = 0;

	while (ext2_dirblock_next(buf, bs, &pos, &v) == 1) {
		if (v.file_type != EXT2_FT_REG_FILE || nth--)
			continue;
		*ino = v.inode;
		memcpy(name, v.name, v.name_len);
		name[v.name_len] = '\0';
		return v.offset;
	}
	fail_msg("block has fewer than %u files", nth + 1);
	return 0;
}

/* Free an inode whose last name we removed, as unlink's iput would: debugfs does the bitmaps. */
static void forget_inode(const char *img, uint32_t ino)
{
	run("debugfs -w -R 'kill_file <%u>' %s >/dev/null 2>&1", (unsigned int)ino, img);
	run("debugfs -w -R 'sif <%u> links_count 0' %s >/dev/null 2>&1", (unsigned int)ino, img);
}

/*
 * Writing, delete: the first file of block 1 (that entry dies in place), the last file of block
 * 0 and a file in the middle of block 2 (each merged into the entry before it).
 */
static void delete_judged_by_e2fsck(void **state)
{
	for (int i = 0; i < 2; i++) {
		const struct image *im = &images[i];
		static struct entry e[MAX_ENTRIES];
		uint8_t buf[MAX_BS], before[MAX_BS];
		char img[160], gone[3][EXT2_NAME_LEN + 1];
		uint32_t ino[3];
		unsigned int count, off, n = 0;
		struct ext2_dirent_view v;

		copy_image(im, "delete", img, sizeof(img));
		assert_same_listing(im, img, "/d", &count);

		read_block(im, img, im->blocks[1], buf);
		off = nth_file(buf, im->bs, 0, &ino[0], gone[0]);
		assert_int_equal(off, 0);
		assert_int_equal(ext2_dirblock_delete(buf, im->bs, off), 0);
		assert_int_equal(get_unaligned_le32(buf), 0);		/* dead, in place */
		assert_int_equal(ext2_dirblock_delete(buf, im->bs, off), -ENOENT);
		write_block(im, img, im->blocks[1], buf);

		read_block(im, img, im->blocks[0], buf);
		memcpy(before, buf, im->bs);
		unsigned int pos = 0, last = 0, prev = 0;
		while (ext2_dirblock_next(buf, im->bs, &pos, &v) == 1) {
			prev = last;
			last = v.offset;
		}
		off = last;
		ino[1] = get_unaligned_le32(buf + off);
		memcpy(gone[1], buf + off + 8, buf[off + 6]);
		gone[1][buf[off + 6]] = '\0';
		assert_int_equal(ext2_dirblock_delete(buf, im->bs, off + 4), -EINVAL);	/* mid-entry */
		assert_memory_equal(buf, before, im->bs);
		assert_int_equal(ext2_dirblock_delete(buf, im->bs, off), 0);
		assert_int_equal(get_unaligned_le16(buf + prev + 4), im->bs - prev);	/* merged */
		write_block(im, img, im->blocks[0], buf);

		read_block(im, img, im->blocks[2], buf);
		off = nth_file(buf, im->bs, 1, &ino[2], gone[2]);
		assert_int_equal(ext2_dirblock_delete(buf, im->bs, off), 0);
		assert_int_equal(ext2_dirblock_find(buf, im->bs, gone[2], (unsigned int)strlen(gone[2]),
						    &off), -ENOENT);
		write_block(im, img, im->blocks[2], buf);

		for (int k = 0; k < 3; k++)
			forget_inode(img, ino[k]);
		assert_int_equal(e2fsck(img, true), 0);
		assert_same_listing(im, img, "/d", &n);
		assert_int_equal(n, count - 3);
		n = debugfs_ls(img, "/d", e);
		for (int k = 0; k < 3; k++)
			assert_null(lookup(e, n, gone[k]));
	}
}

/*
 * Writing, add and set_ino: /d expanded by debugfs (its new block must be our empty chunk), hard
 * links to one file added where ext2_add_link() would put them (first chunk with room), one
 * entry retargeted; link counts fixed with debugfs; e2fsck clean, debugfs reads the new names.
 */
static void add_and_set_ino_judged_by_e2fsck(void **state)
{
	for (int i = 0; i < 2; i++) {
		const struct image *im = &images[i];
		static struct entry e[MAX_ENTRIES];
		uint32_t blocks[MAX_BLOCKS], target, victim;
		uint8_t buf[MAX_BS], empty[MAX_BS];
		char img[160], tname[EXT2_NAME_LEN + 1], vname[EXT2_NAME_LEN + 1];
		char names[6][EXT2_NAME_LEN + 1], out[256], want[256];
		unsigned int nb, count, n, off, placed_in[6];

		copy_image(im, "add", img, sizeof(img));
		assert_same_listing(im, img, "/d", &count);
		run("debugfs -w -R 'expand_dir /d' %s >/dev/null 2>&1", img);
		nb = dir_blocks(img, "/d", blocks);
		assert_int_equal(nb, im->nblocks + 1);
		read_block(im, img, blocks[nb - 1], buf);
		ext2_dirblock_init_empty(empty, im->bs);
		assert_memory_equal(buf, empty, im->bs);

		read_block(im, img, blocks[0], buf);
		nth_file(buf, im->bs, 0, &target, tname);
		nth_file(buf, im->bs, 1, &victim, vname);
		/* New names: short ones, the longest allowed, one beside an existing name. */
		strcpy(names[0], "link-0");
		strcpy(names[1], "l");
		memset(names[2], 'Z', EXT2_NAME_LEN);
		names[2][EXT2_NAME_LEN] = '\0';
		snprintf(names[3], sizeof(names[3]), "%.40s.bak", tname);
		strcpy(names[4], "link-4");
		strcpy(names[5], "...");
		for (int k = 0; k < 6; k++) {
			unsigned int len = (unsigned int)strlen(names[k]);
			int rc = -ENOSPC;

			for (unsigned int b = 0; b < nb && rc == -ENOSPC; b++) {
				read_block(im, img, blocks[b], buf);
				rc = ext2_dirblock_add(buf, im->bs, names[k], len, target,
						       EXT2_FT_REG_FILE, &off);
				if (!rc) {
					write_block(im, img, blocks[b], buf);
					placed_in[k] = b;
				}
			}
			assert_int_equal(rc, 0);
			/* A second time: it is there now. */
			read_block(im, img, blocks[placed_in[k]], buf);
			assert_int_equal(ext2_dirblock_add(buf, im->bs, names[k], len, target,
							   EXT2_FT_REG_FILE, &off), -EEXIST);
		}

		read_block(im, img, blocks[0], buf);
		assert_int_equal(ext2_dirblock_find(buf, im->bs, vname, (unsigned int)strlen(vname), &off), 0);
		assert_int_equal(ext2_dirblock_set_ino(buf, im->bs, off, target, EXT2_FT_REG_FILE), 0);
		assert_int_equal(ext2_dirblock_set_ino(buf, im->bs, off + 1, target, 0), -EINVAL);
		write_block(im, img, blocks[0], buf);

		forget_inode(img, victim);
		run("debugfs -w -R 'sif <%u> links_count 8' %s >/dev/null 2>&1", (unsigned int)target, img);
		assert_int_equal(e2fsck(img, true), 0);
		assert_same_listing(im, img, "/d", &n);
		assert_int_equal(n, count + 6);
		n = debugfs_ls(img, "/d", e);
		snprintf(want, sizeof(want), "file of name length %u\n", (unsigned int)strlen(tname));
		for (int k = 0; k < 6; k++) {
			assert_non_null(lookup(e, n, names[k]));
			assert_int_equal(lookup(e, n, names[k])->ino, target);
			assert_int_equal(capture(out, sizeof(out), "debugfs -R 'cat \"/d/%s\"' %s",
						 names[k], img), 0);
			assert_string_equal(out, want);
		}
		assert_int_equal(lookup(e, n, vname)->ino, target);
	}
}

/* mkdir: debugfs's new directory block is byte for byte ext2_dirblock_make_empty()'s. */
static void make_empty_is_e2fsprogs_block(void **state)
{
	for (int i = 0; i < 2; i++) {
		const struct image *im = &images[i];
		struct entry e[4];
		uint32_t blocks[MAX_BLOCKS];
		uint8_t buf[MAX_BS], ours[MAX_BS];
		char img[160];
		unsigned int off;

		copy_image(im, "mkdir", img, sizeof(img));
		run("debugfs -w -R 'mkdir /d/sub/new' %s >/dev/null 2>&1", img);
		assert_int_equal(debugfs_ls(img, "/d/sub/new", e), 2);
		assert_int_equal(dir_blocks(img, "/d/sub/new", blocks), 1);
		read_block(im, img, blocks[0], buf);
		ext2_dirblock_make_empty(ours, im->bs, lookup(e, 2, ".")->ino, lookup(e, 2, "..")->ino);
		assert_memory_equal(buf, ours, im->bs);
		assert_true(ext2_dirblock_is_empty(ours, im->bs, lookup(e, 2, ".")->ino, true));
		assert_int_equal(ext2_dirblock_add(ours, im->bs, "x", 1, 12, EXT2_FT_REG_FILE, &off), 0);
		assert_int_equal(off, 24);	/* split from "..", which keeps 12 bytes */
		assert_false(ext2_dirblock_is_empty(ours, im->bs, lookup(e, 2, ".")->ino, true));
		assert_int_equal(ext2_dirblock_delete(ours, im->bs, off), 0);
		assert_memory_equal(buf, ours, 12 + 12);
		assert_true(ext2_dirblock_is_empty(ours, im->bs, lookup(e, 2, ".")->ino, true));
	}
}

/*
 * Corruptions of a real block (block 0 of /d, the third entry, or the last one for the tail
 * cases): each gives its one-line error with the entry's offset, and e2fsck calls the
 * image with that block bad.
 */
static void corrupt_blocks_rejected(void **state)
{
	for (int i = 0; i < 2; i++) {
		const struct image *im = &images[i];
		uint8_t good[MAX_BS], buf[MAX_BS];
		char err[EXT2_DIRBLOCK_ERR_MAX], img[160];
		unsigned int third = 0, prev = 0, last = 0, pos = 0, idx = 0;
		struct ext2_dirent_view v;

		read_block(im, im->path, im->blocks[0], good);
		assert_int_equal(ext2_dirblock_check(good, im->bs, im->inodes_count, err, sizeof(err)), 0);
		/* "third": the first entry past "." and ".." with a short name (rec_len < 256). */
		while (ext2_dirblock_next(good, im->bs, &pos, &v) == 1) {
			if (idx++ >= 2 && !third && v.name_len < 100)
				third = v.offset;
			prev = last;
			last = v.offset;
		}
		assert_true(third && third < prev);
		unsigned int tlen = get_unaligned_le16(good + third + 4), llen = im->bs - last;

		/* Where, which field (0 inode, 4 rec_len, 6 name_len) and its width, the new value. */
		struct {
			unsigned int at, field, width;
			uint32_t value;
			bool breaks_walk;
			char want[EXT2_DIRBLOCK_ERR_MAX];
		} c[8];
		int nc = 0;
#define CASE(a, f, w, val, brk, ...) do { c[nc].at = (a); c[nc].field = (f); c[nc].width = (w); \
		c[nc].value = (val); c[nc].breaks_walk = (brk);					\
		snprintf(c[nc].want, sizeof(c[nc].want), __VA_ARGS__); nc++; } while (0)
		CASE(third, 4, 2, 0, true, "rec_len is 0 at offset %u", third);
		CASE(third, 4, 2, 8, true, "rec_len 8 is smaller than minimal (12) at offset %u", third);
		CASE(third, 4, 2, tlen + 2, true, "rec_len %u is not a multiple of 4 at offset %u",
		     tlen + 2, third);
		CASE(third, 6, 1, tlen - 7, true, "rec_len %u is too small for name_len %u at offset %u",
		     tlen, tlen - 7, third);
		CASE(last, 4, 2, llen + 4, true, "rec_len %u runs past the block at offset %u", llen + 4,
		     last);
		CASE(third, 0, 4, im->inodes_count + 1, false, "inode %u out of range at offset %u",
		     im->inodes_count + 1, third);
		/* The entry before the last stretched to 8 bytes short of the block's end. */
		CASE(prev, 4, 2, last + llen - 8 - prev, true,
		     "entries end 8 bytes before the block's end at offset %u", im->bs - 8);
		CASE(third, 6, 1, 0, false, "name_len is 0 for inode %u at offset %u",
		     get_unaligned_le32(good + third), third);
#undef CASE
		for (int k = 0; k < nc; k++) {
			unsigned int o;

			memcpy(buf, good, im->bs);
			if (c[k].width == 4)
				put_unaligned_le32(c[k].value, buf + c[k].at + c[k].field);
			else if (c[k].width == 2)
				put_unaligned_le16((uint16_t)c[k].value, buf + c[k].at + c[k].field);
			else
				buf[c[k].at + c[k].field] = (uint8_t)c[k].value;
			err[0] = '\0';
			assert_int_equal(ext2_dirblock_check(buf, im->bs, im->inodes_count, err,
							     sizeof(err)), -EUCLEAN);
			assert_string_equal(err, c[k].want);
			/* The other walkers stop at the bad entry and never read past the chunk. */
			pos = 0;
			while (ext2_dirblock_next(buf, im->bs, &pos, &v) == 1)
				assert_true(v.offset + 8 + v.name_len <= im->bs);
			if (c[k].breaks_walk) {
				uint8_t copy[MAX_BS];

				memcpy(copy, buf, im->bs);
				assert_int_equal(ext2_dirblock_find(buf, im->bs, "zz", 2, &o), -EUCLEAN);
				assert_int_equal(ext2_dirblock_add(buf, im->bs, "zz", 2, 11, 1, &o),
						 -EUCLEAN);
				assert_memory_equal(buf, copy, im->bs);
				assert_false(ext2_dirblock_is_empty(buf, im->bs, 2, true));
			}
			/* e2fsck agrees the block is bad (the inode range and name_len 0 cases too). */
			copy_image(im, "corrupt", img, sizeof(img));
			write_block(im, img, im->blocks[0], buf);
			assert_true(e2fsck(img, false) & 4 << 8);	/* errors left uncorrected */
		}
		assert_int_equal(ext2_dirblock_check(good, 1000, im->inodes_count, err, sizeof(err)),
				 -EINVAL);
		assert_string_equal(err, "blocksize 1000 is not 1024, 2048 or 4096");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_matches_debugfs),
		cmocka_unit_test(delete_judged_by_e2fsck),
		cmocka_unit_test(add_and_set_ino_judged_by_e2fsck),
		cmocka_unit_test(make_empty_is_e2fsprogs_block),
		cmocka_unit_test(corrupt_blocks_rejected),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
