/*
 * user_elf_check.c - do a board's user programs (user/, docs/user.md) pass the kernel's own
 * ELF checks (fs/binfmt_elf_check.c) for that board's target, and keep the layout the loader
 * and the tests rely on?
 *
 *   user_elf_check arm|rv32|rv64 FILE...
 *
 * For each file: elf_check() accepts it; it is a static ET_EXEC (no PT_INTERP or PT_DYNAMIC:
 * elf_check refuses those, ET_DYN included); its entry point and every PT_LOAD lie at or above
 * 0x10000 (page 0 and the pages up to 64 KiB stay unmapped, so NULL and small offsets from it
 * fault); no segment is both writable and executable; the stack is not executable.  One line
 * per file, "FILE: ok ..." or "FILE: <what is wrong>"; exit status 1 if any file failed, 2 on a
 * wrong command line.  CTest runs it per board and on files that must be refused
 * (tests/host/tests.cmake).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tinymm/binfmts.h"
#include "tinymm/elf.h"
#include "tinymm/errno.h"

#define USER_BASE	0x10000ULL

struct file_buf {
	unsigned char *data;
	size_t size;
};

static long buf_read(void *ctx, void *buf, size_t len, uint64_t pos)
{
	struct file_buf *f = ctx;

	if (pos >= f->size)
		return 0;
	if (len > f->size - pos)
		len = f->size - pos;
	memcpy(buf, f->data + pos, len);
	return (long)len;
}

static int load(const char *path, struct file_buf *f)
{
	FILE *fp = fopen(path, "rb");
	long size;

	if (!fp)
		return -1;
	if (fseek(fp, 0, SEEK_END) || (size = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
		fclose(fp);
		return -1;
	}
	f->size = (size_t)size;
	f->data = malloc(f->size ? f->size : 1);
	if (!f->data || fread(f->data, 1, f->size, fp) != f->size) {
		fclose(fp);
		return -1;
	}
	fclose(fp);
	return 0;
}

/* 0, or 1 with one line saying what is wrong. */
static int check_file(const struct elf_target *t, const char *path)
{
	struct file_buf f = { 0 };
	struct elf_image img;
	char why[200] = "";
	int err, ret = 1;

	if (load(path, &f)) {
		printf("%s: cannot read the file (build the board: make all)\n", path);
		return 1;
	}
	err = elf_check(t, buf_read, &f, f.size, &img, why, sizeof(why));
	if (err) {
		printf("%s: refused by elf_check (%d): %s\n", path, err, why);
		goto out;
	}
	/* e_type is at the same offset in ELF32 and ELF64 headers; little-endian (elf_check). */
	if ((f.data[16] | f.data[17] << 8) != ET_EXEC) {
		printf("%s: e_type %u, not ET_EXEC\n", path, f.data[16] | f.data[17] << 8);
		goto out;
	}
	if (img.entry < USER_BASE) {
		printf("%s: entry point %#llx is below %#llx\n", path, (unsigned long long)img.entry,
		       USER_BASE);
		goto out;
	}
	for (unsigned int i = 0; i < img.nr_segments; i++) {
		const struct elf_segment *s = &img.seg[i];

		if (s->vaddr < USER_BASE) {
			printf("%s: segment at %#llx is below %#llx\n", path,
			       (unsigned long long)s->vaddr, USER_BASE);
			goto out;
		}
		if ((s->flags & (PF_W | PF_X)) == (PF_W | PF_X)) {
			printf("%s: segment at %#llx is writable and executable\n", path,
			       (unsigned long long)s->vaddr);
			goto out;
		}
	}
	if (img.exec_stack) {
		printf("%s: asks for an executable stack (PT_GNU_STACK with PF_X)\n", path);
		goto out;
	}
	printf("%s: ok: ET_EXEC, entry %#llx, %u PT_LOAD segments from %#llx\n", path,
	       (unsigned long long)img.entry, img.nr_segments, (unsigned long long)img.seg[0].vaddr);
	ret = 0;
out:
	free(f.data);
	return ret;
}

int main(int argc, char **argv)
{
	/* TASK_SIZE as the boards will have it: below PAGE_OFFSET's 2 GiB split (ARM, RV32),
	 * Sv39's lower half (RV64). */
	static const struct { const char *name; struct elf_target t; } targets[] = {
		{ "arm", { ELFCLASS32, EM_ARM, 0x80000000ULL, 4096 } },
		{ "rv32", { ELFCLASS32, EM_RISCV, 0x80000000ULL, 4096 } },
		{ "rv64", { ELFCLASS64, EM_RISCV, 0x4000000000ULL, 4096 } },
	};
	const struct elf_target *t = NULL;
	int failed = 0;

	for (size_t i = 0; argc >= 2 && i < sizeof(targets) / sizeof(targets[0]); i++)
		if (!strcmp(argv[1], targets[i].name))
			t = &targets[i].t;
	if (argc < 3 || !t) {
		fprintf(stderr, "usage: user_elf_check arm|rv32|rv64 FILE...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		failed |= check_file(t, argv[i]);
	return failed;
}
