/*
 * binfmt_elf_test.c - fs/binfmt_elf_check.c against real executables and broken copies of them.
 *
 * The build compiles tests/host/data/elf_prog.c with each board's cross compiler into static
 * executables (ELF32 ARM, ELF32 RV32, ELF64 RV64: cmake/host.cmake).  elf_check() must accept
 * each one for its own target and report exactly what binutils' `readelf -lhW` (a tool no one
 * here wrote) reads from it: the entry point and every PT_LOAD's offset, address, sizes and
 * flags.  Then one corruption per rule, each refused with -ENOEXEC and its one-line reason, and
 * the boundary just inside the rule accepted where there is one, so every check can fail both
 * ways.  A read error is passed up as it is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tinymm/binfmts.h"
#include "tinymm/elf.h"
#include "tinymm/errno.h"

struct prog {
	const char *path;
	struct elf_target target;
};

/* TASK_SIZE as the boards will have it: below the kernel's 3 GiB split (ARM, RV32), Sv39's
 * lower half (RV64). */
static const struct prog progs[] = {
	{ ELF_PROG_ARM, { ELFCLASS32, EM_ARM, 0xc0000000ULL, 4096 } },
	{ ELF_PROG_RV32, { ELFCLASS32, EM_RISCV, 0xc0000000ULL, 4096 } },
	{ ELF_PROG_RV64, { ELFCLASS64, EM_RISCV, 0x4000000000ULL, 4096 } },
};

struct file_buf {
	unsigned char *data;
	size_t size;
	int fail;		/* a read error to return */
};

static long buf_read(void *ctx, void *buf, size_t len, uint64_t pos)
{
	struct file_buf *f = ctx;

	if (f->fail)
		return f->fail;
	if (pos >= f->size)
		return 0;
	if (len > f->size - pos)
		len = f->size - pos;
	memcpy(buf, f->data + pos, len);
	return (long)len;
}

static struct file_buf load(const char *path)
{
	struct file_buf f = { 0 };
	FILE *fp = fopen(path, "rb");

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	f.size = (size_t)ftell(fp);
	rewind(fp);
	f.data = malloc(f.size);
	assert_non_null(f.data);
	assert_int_equal(fread(f.data, 1, f.size, fp), f.size);
	fclose(fp);
	return f;
}

static char why[200];

static int check(const struct prog *p, struct file_buf *f, struct elf_image *img)
{
	why[0] = '\0';
	return elf_check(&p->target, buf_read, f, f->size, img, why, sizeof(why));
}

/* -ENOEXEC with @want in the reason. */
static void expect_refused(const struct prog *p, struct file_buf *f, const char *want)
{
	struct elf_image img;
	int err = check(p, f, &img);

	if (err != -ENOEXEC || !strstr(why, want))
		fail_msg("%s: got %d '%s', wanted -ENOEXEC '%s'", p->path, err, why, want);
}

static void expect_accepted(const struct prog *p, struct file_buf *f)
{
	struct elf_image img;

	if (check(p, f, &img))
		fail_msg("%s: refused: %s", p->path, why);
}

/* What readelf says, for one file: the entry point and the PT_LOAD lines. */
static void readelf_agrees(const struct prog *p, const struct elf_image *img)
{
	char cmd[512], line[512];
	unsigned int loads = 0;
	bool saw_entry = false;

	snprintf(cmd, sizeof(cmd), "readelf -lhW '%s'", p->path);
	FILE *out = popen(cmd, "r");
	assert_non_null(out);
	while (fgets(line, sizeof(line), out)) {
		unsigned long long off, va, pa, fsz, msz, entry;
		char flags[8] = "";

		if (sscanf(line, " Entry point address: %llx", &entry) == 1) {
			assert_int_equal(entry, img->entry);
			saw_entry = true;
		}
		if (sscanf(line, " LOAD %llx %llx %llx %llx %llx %7[RWE ]", &off, &va, &pa, &fsz, &msz,
			   flags) < 5 || !msz)
			continue;
		assert_true(loads < img->nr_segments);
		const struct elf_segment *s = &img->seg[loads++];
		assert_int_equal(s->offset, off);
		assert_int_equal(s->vaddr, va);
		assert_int_equal(s->filesz, fsz);
		assert_int_equal(s->memsz, msz);
		/* readelf's column is "R E" / "RW ": a letter for each flag set. */
		assert_int_equal(!!(s->flags & PF_R), strchr(flags, 'R') != NULL);
		assert_int_equal(!!(s->flags & PF_W), strchr(flags, 'W') != NULL);
		assert_int_equal(!!(s->flags & PF_X), strchr(flags, 'E') != NULL);
	}
	assert_int_equal(pclose(out), 0);
	assert_true(saw_entry);
	assert_int_equal(loads, img->nr_segments);
}

static void real_programs_are_read_as_readelf_reads_them(void **state)
{
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct file_buf f = load(progs[i].path);
		struct elf_image img;

		if (check(&progs[i], &f, &img))
			fail_msg("%s: refused: %s", progs[i].path, why);
		assert_true(img.nr_segments >= 2);		/* text, then data and bss */
		assert_true(img.seg[0].flags & PF_X);
		assert_true(img.seg[img.nr_segments - 1].flags & PF_W);
		assert_int_equal(img.brk_start % 4096, 0);
		assert_true(img.brk_start >= img.seg[img.nr_segments - 1].vaddr +
					      img.seg[img.nr_segments - 1].memsz);
		assert_true(img.phnum >= 2);
		readelf_agrees(&progs[i], &img);
		free(f.data);
	}
}

static void another_boards_program_is_refused(void **state)
{
	struct file_buf arm = load(ELF_PROG_ARM), rv64 = load(ELF_PROG_RV64);

	expect_refused(&progs[1], &arm, "wrong machine 40 (ARM), this kernel runs 243 (RISC-V)");
	expect_refused(&progs[1], &rv64, "an ELF64 file, this kernel runs ELF32 executables");
	expect_refused(&progs[2], &arm, "an ELF32 file, this kernel runs ELF64 executables");
	free(arm.data);
	free(rv64.data);
}

/* The ELF64 header and program headers of the RV64 program, to corrupt. */
static Elf64_Ehdr *eh(struct file_buf *f)
{
	return (Elf64_Ehdr *)f->data;
}

static Elf64_Phdr *ph(struct file_buf *f, unsigned int type, int nth)
{
	Elf64_Ehdr *e = eh(f);

	for (unsigned int i = 0; i < e->e_phnum; i++) {
		Elf64_Phdr *p = (Elf64_Phdr *)(f->data + e->e_phoff) + i;

		if (p->p_type == type && nth-- == 0)
			return p;
	}
	fail_msg("no program header of type %u", type);
	return NULL;
}

static const struct prog *rv64 = &progs[2];
static char want[200];			/* a reason with the file's own numbers in it */

/* A fresh copy of the RV64 program for each corruption. */
#define FRESH(f)	struct file_buf f = load(ELF_PROG_RV64)

static void headers(void **state)
{
	{ FRESH(f); f.size = 3; expect_refused(rv64, &f, "not an ELF file: only 3 bytes"); free(f.data); }
	{ FRESH(f); f.size = 40; expect_refused(rv64, &f, "truncated ELF header: 40 of 64 bytes"); free(f.data); }
	{ FRESH(f); f.data[1] = 'e'; expect_refused(rv64, &f, "not an ELF file (no \\177ELF magic)"); free(f.data); }
	{ FRESH(f); f.data[EI_DATA] = 2; expect_refused(rv64, &f, "not little-endian (EI_DATA 2)"); free(f.data); }
	{ FRESH(f); eh(&f)->e_version = 7; expect_refused(rv64, &f, "unknown ELF version 7"); free(f.data); }
	{ FRESH(f); eh(&f)->e_type = ET_DYN; expect_refused(rv64, &f, "position-independent (ET_DYN)"); free(f.data); }
	{ FRESH(f); eh(&f)->e_type = 1; expect_refused(rv64, &f, "not an executable (e_type 1)"); free(f.data); }
	{ FRESH(f); eh(&f)->e_machine = 62; expect_refused(rv64, &f, "wrong machine 62 (x86-64)"); free(f.data); }
	{ FRESH(f); eh(&f)->e_phentsize = 32; expect_refused(rv64, &f, "e_phentsize 32, not 56"); free(f.data); }
}

static void program_header_table(void **state)
{
	{ FRESH(f); eh(&f)->e_phnum = 0; expect_refused(rv64, &f, "0 program headers (1 to 73 allowed)"); free(f.data); }
	{ FRESH(f); eh(&f)->e_phnum = 74; expect_refused(rv64, &f, "74 program headers (1 to 73 allowed)"); free(f.data); }
	{
		FRESH(f);
		/* The table's end one byte past the file, then exactly at its end. */
		size_t end = eh(&f)->e_phoff + (size_t)eh(&f)->e_phnum * sizeof(Elf64_Phdr);
		f.size = end - 1;
		expect_refused(rv64, &f, "program headers [0x40, +0xa8) past the end of the file");
		eh(&f)->e_phoff = ~0ULL - 8;
		expect_refused(rv64, &f, "past the end of the file");
		free(f.data);
	}
}

static void load_segments(void **state)
{
	{
		FRESH(f);
		Elf64_Phdr *d = ph(&f, PT_LOAD, 1);
		d->p_filesz = d->p_memsz + 1;
		snprintf(want, sizeof(want), "segment 2: p_filesz %#llx > p_memsz %#llx",
			 (unsigned long long)d->p_filesz, (unsigned long long)d->p_memsz);
		expect_refused(rv64, &f, want);
		d->p_filesz = d->p_memsz;		/* equal is fine, if the file has the bytes */
		d->p_offset = 0;
		d->p_vaddr &= ~0xfffULL;
		expect_accepted(rv64, &f);
		free(f.data);
	}
	{
		FRESH(f);
		Elf64_Phdr *d = ph(&f, PT_LOAD, 1);
		d->p_filesz = f.size - d->p_offset + 1;
		d->p_memsz = d->p_filesz;
		snprintf(want, sizeof(want), "segment 2: file bytes [%#llx, +%#llx) past the end of the file (%zu bytes)",
			 (unsigned long long)d->p_offset, (unsigned long long)d->p_filesz, f.size);
		expect_refused(rv64, &f, want);
		expect_refused(rv64, &f, "past the end of the file");
		d->p_filesz--;				/* to the last byte of the file */
		expect_accepted(rv64, &f);
		d->p_offset = ~0ULL - 4;		/* an offset + size that wraps */
		d->p_filesz = 16;
		expect_refused(rv64, &f, "past the end of the file");
		free(f.data);
	}
	{
		FRESH(f);
		Elf64_Phdr *d = ph(&f, PT_LOAD, 1);
		d->p_vaddr += 8;
		snprintf(want, sizeof(want), "segment 2: p_vaddr %#llx and p_offset %#llx differ modulo the page size",
			 (unsigned long long)d->p_vaddr, (unsigned long long)d->p_offset);
		expect_refused(rv64, &f, want);
		free(f.data);
	}
	{
		FRESH(f);
		Elf64_Phdr *t = ph(&f, PT_LOAD, 0), *d = ph(&f, PT_LOAD, 1);
		d->p_vaddr = t->p_vaddr + d->p_offset;	/* inside the text segment's page */
		snprintf(want, sizeof(want), "segment 2 at %#llx overlaps or shares a page with the one before it, at %#llx",
			 (unsigned long long)d->p_vaddr, (unsigned long long)t->p_vaddr);
		expect_refused(rv64, &f, want);
		free(f.data);
	}
	{
		FRESH(f);
		Elf64_Phdr *d = ph(&f, PT_LOAD, 1);
		d->p_memsz = rv64->target.task_size - d->p_vaddr + 1;	/* one byte over */
		snprintf(want, sizeof(want), "segment 2: [%#llx, +", (unsigned long long)d->p_vaddr);
		expect_refused(rv64, &f, want);
		expect_refused(rv64, &f, "is not inside user space [0x1000, 0x4000000000)");
		d->p_memsz--;						/* up to TASK_SIZE */
		expect_accepted(rv64, &f);
		d->p_memsz = ~0ULL;					/* absurd */
		expect_refused(rv64, &f, "is not inside user space");
		free(f.data);
	}
	{
		FRESH(f);
		Elf64_Phdr *t = ph(&f, PT_LOAD, 0);
		t->p_vaddr = 0;				/* page 0 stays unmapped: NULL must fault */
		t->p_offset = 0;
		expect_refused(rv64, &f, "segment 1: [0, +");
		free(f.data);
	}
	{
		FRESH(f);
		for (int i = 0; i < 2; i++)
			ph(&f, PT_LOAD, 0)->p_type = PT_NULL;	/* the next one is then the first */
		expect_refused(rv64, &f, "no PT_LOAD segment: nothing to run");
		free(f.data);
	}
}

static void entry_point_and_kinds(void **state)
{
	{ FRESH(f); eh(&f)->e_entry = 0x5000000; expect_refused(rv64, &f, "entry point 0x5000000 is outside every PT_LOAD segment"); free(f.data); }
	{
		FRESH(f);
		eh(&f)->e_entry = ph(&f, PT_LOAD, 1)->p_vaddr;
		snprintf(want, sizeof(want), "entry point %#llx is in a segment that is not executable",
			 (unsigned long long)eh(&f)->e_entry);
		expect_refused(rv64, &f, want);
		free(f.data);
	}
	{ FRESH(f); ph(&f, 0x70000003, 0)->p_type = PT_INTERP; expect_refused(rv64, &f, "dynamically linked (PT_INTERP)"); free(f.data); }
	{ FRESH(f); ph(&f, 0x70000003, 0)->p_type = PT_DYNAMIC; expect_refused(rv64, &f, "has a PT_DYNAMIC segment"); free(f.data); }
	{
		FRESH(f);
		struct elf_image img;
		Elf64_Phdr *a = ph(&f, 0x70000003, 0);

		a->p_type = PT_GNU_STACK;
		a->p_flags = PF_R | PF_W;
		assert_int_equal(check(rv64, &f, &img), 0);
		assert_false(img.exec_stack);
		a->p_flags |= PF_X;
		assert_int_equal(check(rv64, &f, &img), 0);
		assert_true(img.exec_stack);
		free(f.data);
	}
}

static void read_errors_pass_through(void **state)
{
	FRESH(f);
	struct elf_image img;

	f.fail = -EIO;
	assert_int_equal(check(rv64, &f, &img), -EIO);
	assert_non_null(strstr(why, "cannot read the file at 0"));
	free(f.data);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_programs_are_read_as_readelf_reads_them),
		cmocka_unit_test(another_boards_program_is_refused),
		cmocka_unit_test(headers),
		cmocka_unit_test(program_header_table),
		cmocka_unit_test(load_segments),
		cmocka_unit_test(entry_point_and_kinds),
		cmocka_unit_test(read_errors_pass_through),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
