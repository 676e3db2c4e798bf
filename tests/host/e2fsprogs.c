/*
 * e2fsprogs.c - host tests' hands on Debian's e2fsprogs (e2fsprogs.h): make an image with
 * mke2fs in the test's own folder, read back what dumpe2fs prints (header and per-group lines),
 * ask debugfs where an inode or a data block is.  Tools no one here wrote judge tinymm's ext2.
 * MKE2FS, DUMPE2FS, DEBUGFS (CTest sets them; else from PATH) and TMPDIR (the folder's parent).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include "e2fsprogs.h"

char e2fs_dir[256];

const char *tool(const char *var, const char *dflt)
{
	const char *v = getenv(var);

	return v && *v ? v : dflt;
}

/* Run a shell command; the test fails if it does. */
void run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0) {
		fprintf(stderr, "failed: %s\n", cmd);
		fail();
	}
}

/* mke2fs -t <type> <opts> into a fresh file under the test's folder; returns its path. */
const char *mkfs(const char *name, const char *type, const char *opts, const char *size)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s.img", e2fs_dir, name);
	unlink(path);
	run("%s -F -q -t %s %s %s %s >/dev/null 2>&1", tool("MKE2FS", "mke2fs"), type, opts, path, size);
	return path;
}

/* ---- what dumpe2fs says ---- */

static void field(const char *line, const char *key, unsigned long *v)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) == 0 && line[n] == ':')
		*v = strtoul(line + n + 1 + strspn(line + n + 1, " \t"), NULL, 10);
}

/* dumpe2fs (whole, or -h): the header fields and each group's lines; its exit status. */
int dumpe2fs_try(const char *path, bool groups, struct dump *d)
{
	char cmd[600], line[512];
	struct dump_group *g = NULL;
	FILE *f;

	memset(d, 0, sizeof(*d));
	d->inode_size = 128;		/* revision 0: dumpe2fs prints neither */
	d->first_ino = 11;
	snprintf(cmd, sizeof(cmd), "%s %s %s 2>/dev/null", tool("DUMPE2FS", "dumpe2fs"),
		 groups ? "" : "-h", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "Filesystem features:", 20) == 0)
			snprintf(d->features, sizeof(d->features), " %s ", line + 20 + strspn(line + 20, " "));
		field(line, "Block size", &d->block_size);
		field(line, "Inode count", &d->inodes);
		field(line, "Block count", &d->blocks);
		field(line, "Blocks per group", &d->bpg);
		field(line, "Inodes per group", &d->ipg);
		field(line, "Inode size", &d->inode_size);
		field(line, "First inode", &d->first_ino);
		field(line, "First block", &d->first_block);
		field(line, "Reserved GDT blocks", &d->reserved_gdt);
		field(line, "Inode blocks per group", &d->itb);
		if (sscanf(line, "Group %lu: (Blocks %lu-%lu", &a, &a, &b) == 3) {
			assert_true(d->ngroups < MAX_GROUPS);
			g = &d->g[d->ngroups++];
			sscanf(line, "Group %*u: (Blocks %lu-%lu", &g->first, &g->last);
		} else if (g && (strstr(line, "Primary superblock at") || strstr(line, "Backup superblock at"))) {
			g->has_super = 1;
			assert_int_equal(sscanf(strstr(line, "Group descriptors at"),
						"Group descriptors at %lu-%lu", &g->gd_first, &g->gd_last), 2);
		} else if (g) {
			sscanf(line, "  Block bitmap at %lu", &g->bb);
			sscanf(line, "  Inode bitmap at %lu", &g->ib);
			sscanf(line, "  Inode table at %lu-%lu", &g->it_first, &g->it_last);
			sscanf(line, "  %lu free blocks, %lu free inodes, %lu directories",
			       &g->free_blocks, &g->free_inodes, &g->dirs);
		}
	}
	return pclose(f);
}

void dumpe2fs(const char *path, bool groups, struct dump *d)
{
	assert_int_equal(dumpe2fs_try(path, groups, d), 0);
}

/* debugfs's imap: where e2fsprogs puts inode @ino. */
void imap(const char *path, unsigned int ino, unsigned long *block, unsigned long *offset)
{
	char cmd[600], line[256];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s -R 'imap <%u>' %s 2>/dev/null",
		 tool("DEBUGFS", "debugfs"), ino, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	*block = ~0UL;
	while (fgets(line, sizeof(line), f))
		sscanf(line, " located at block %lu, offset 0x%lx", block, offset);
	assert_int_equal(pclose(f), 0);
	assert_true(*block != ~0UL);
}

/* debugfs's bmap: the block holding byte 0 of inode @ino's data. */
unsigned long bmap0(const char *path, unsigned int ino)
{
	char cmd[600];
	unsigned long block = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s -R 'bmap <%u> 0' %s 2>/dev/null",
		 tool("DEBUGFS", "debugfs"), ino, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lu", &block), 1);
	assert_int_equal(pclose(f), 0);
	return block;
}

int e2fs_make_dir(void **state)
{
	snprintf(e2fs_dir, sizeof(e2fs_dir), "%s/e2fsprogs_XXXXXX", tool("TMPDIR", "/tmp"));
	return mkdtemp(e2fs_dir) ? 0 : -1;
}

int e2fs_remove_dir(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e2fs_dir);
	return system(cmd);
}
