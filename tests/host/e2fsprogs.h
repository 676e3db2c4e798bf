/* e2fsprogs.h - running mke2fs, dumpe2fs and debugfs from host tests (e2fsprogs.c). */
#ifndef TINYMM_HOST_E2FSPROGS_H
#define TINYMM_HOST_E2FSPROGS_H

#include <stdbool.h>

#define MAX_GROUPS 64

/* What dumpe2fs says about one group, and about the filesystem. */
struct dump_group {
	unsigned long first, last, bb, ib, it_first, it_last, free_blocks, free_inodes, dirs;
	unsigned long gd_first, gd_last;
	int has_super;
};

struct dump {
	char features[512];
	unsigned long block_size, inodes, blocks, bpg, ipg, inode_size, first_ino, first_block;
	unsigned long reserved_gdt, itb;
	unsigned int ngroups;
	struct dump_group g[MAX_GROUPS];
};

/* The folder images go to: e2fs_make_dir() makes it, e2fs_remove_dir() removes it and all in it. */
extern char e2fs_dir[256];
int e2fs_make_dir(void **state);
int e2fs_remove_dir(void **state);

/* $var, or @dflt when unset. */
const char *tool(const char *var, const char *dflt);
/* Run a shell command; the test fails if it does. */
void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* mke2fs -t @type @opts into <folder>/@name.img of @size; returns the path (static buffer). */
const char *mkfs(const char *name, const char *type, const char *opts, const char *size);
/* dumpe2fs (-h unless @groups) of @path into @d: its exit status / asserting it is 0. */
int dumpe2fs_try(const char *path, bool groups, struct dump *d);
void dumpe2fs(const char *path, bool groups, struct dump *d);
/* debugfs imap: the block and byte offset of inode @ino. */
void imap(const char *path, unsigned int ino, unsigned long *block, unsigned long *offset);
/* debugfs bmap: the block holding byte 0 of inode @ino's data. */
unsigned long bmap0(const char *path, unsigned int ino);

#endif
