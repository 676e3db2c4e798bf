/*
 * binfmts.h - what an executable is, checked before anything is mapped (fs/binfmt_elf_check.c,
 * docs/binfmt_elf.md): the ELF header and every program header, read through a callback so the
 * same checks run in the kernel (the file's page cache) and on the host (a file).
 *
 *   elf_check(target, read, ctx, file_size, image, why, whylen)
 *       0 and @image filled, or -ENOEXEC (not an executable for @target) with a one-line reason
 *       in @why ("wrong machine 62 (x86-64), this kernel runs 243 (RISC-V)"), or the read's
 *       -errno (-EIO).  Nothing is allocated.
 *
 * tinymm runs static executables only (ET_EXEC, no PT_INTERP).  v6.10 also runs ET_DYN
 * (static-pie and the dynamic linker); the user-task issue asks for static ones.
 */
#ifndef TINYMM_BINFMTS_H
#define TINYMM_BINFMTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the running kernel can execute: the arch's ELF class and machine, and where user
 * space ends (TASK_SIZE): every segment must lie below it. */
struct elf_target {
	unsigned char elf_class;		/* ELFCLASS32 / ELFCLASS64 */
	uint16_t machine;			/* EM_ARM / EM_RISCV */
	uint64_t task_size;
	unsigned int page_size;
};

#define ELF_MAX_SEGMENTS	8

/* One PT_LOAD segment, as the file says it (the loader rounds to pages). */
struct elf_segment {
	uint64_t vaddr, memsz;			/* memory [vaddr, vaddr + memsz) */
	uint64_t offset, filesz;		/* its first filesz bytes from the file at offset */
	uint32_t flags;				/* PF_R | PF_W | PF_X */
};

struct elf_image {
	uint64_t entry;
	uint64_t phdr_addr;			/* AT_PHDR: the program headers in memory, or 0 */
	unsigned int phnum;			/* AT_PHNUM */
	unsigned int nr_segments;
	struct elf_segment seg[ELF_MAX_SEGMENTS];	/* ascending, no two share a page */
	uint64_t brk_start;			/* the page after the highest segment */
	bool exec_stack;			/* PT_GNU_STACK with PF_X */
};

/* Read @len bytes at @pos of the file into @buf: the count read (less only at the end of the
 * file) or -errno. */
typedef long (*elf_read_t)(void *ctx, void *buf, size_t len, uint64_t pos);

int elf_check(const struct elf_target *target, elf_read_t read, void *ctx, uint64_t file_size,
	      struct elf_image *image, char *why, size_t whylen);
#endif
