/*
 * binfmt_elf_check.c - is this file an executable the kernel can run, and what does it ask to
 * have mapped?  The checks of Linux v6.10's fs/binfmt_elf.c (load_elf_binary, elf_check_arch,
 * load_elf_phdrs), done before anything is mapped, so a refused file leaves nothing behind.
 * include/tinymm/binfmts.h has the interface, docs/binfmt_elf.md the rules.
 *
 * Every field of the file is untrusted: sizes and offsets are checked for overflow before they
 * are added, every read is bounded by the file's size, and the first problem found is the one
 * reported, in one line naming it.
 * Where tinymm differs from v6.10, and why: only static executables (ET_EXEC without
 * PT_INTERP) and only little-endian, since the user-task issue asks for nothing more; segments
 * must come in ascending order without sharing a page (v6.10 maps them in file order and a later
 * one silently replaces a shared page's protection), so every page gets one protection; at most
 * ELF_MAX_SEGMENTS PT_LOAD segments (a static program has two or three).
 * Locking: none (no shared state).
 */
#include <string.h>
#include "tinymm/binfmts.h"
#include "tinymm/elf.h"
#include "tinymm/errno.h"
#include "tinymm/printk.h"

/* A program header, whichever the class: the fields the checks use. */
struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz;
};

struct elf_ctx {
	const struct elf_target *t;
	elf_read_t read;
	void *ctx;
	uint64_t file_size;
	char *why;
	size_t whylen;
};

static const char *machine_name(unsigned int machine)
{
	switch (machine) {
	case EM_ARM:	return "ARM";
	case EM_RISCV:	return "RISC-V";
	case 3:		return "x86";
	case 62:	return "x86-64";
	case 183:	return "AArch64";
	default:	return "unknown";
	}
}

static int refuse(struct elf_ctx *c, const char *fmt, ...) __printf(2, 3);
static int refuse(struct elf_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(c->why, c->whylen, fmt, ap);
	va_end(ap);
	return -ENOEXEC;
}

/* Exactly @len bytes at @pos, which the caller has checked lie inside the file. */
static int read_exact(struct elf_ctx *c, void *buf, size_t len, uint64_t pos)
{
	long n = c->read(c->ctx, buf, len, pos);

	if (n < 0) {
		ksnprintf(c->why, c->whylen, "cannot read the file at %llu: error %ld",
			  (unsigned long long)pos, n);
		return (int)n;
	}
	if ((size_t)n != len)
		return refuse(c, "the file ended at %llu while reading %zu bytes at %llu",
			      (unsigned long long)(pos + (uint64_t)n), len, (unsigned long long)pos);
	return 0;
}

/* The header's fields, whichever the class; the class and data checked first. */
struct ehdr {
	uint16_t type, machine, phentsize, phnum;
	uint32_t version;
	uint64_t entry, phoff;
};

static int read_ehdr(struct elf_ctx *c, struct ehdr *h)
{
	union { Elf32_Ehdr e32; Elf64_Ehdr e64; } u;
	bool is64 = c->t->elf_class == ELFCLASS64;
	size_t size = is64 ? sizeof(u.e64) : sizeof(u.e32);
	int err;

	if (c->file_size < EI_NIDENT)
		return refuse(c, "not an ELF file: only %llu bytes", (unsigned long long)c->file_size);
	err = read_exact(c, &u, EI_NIDENT, 0);
	if (err)
		return err;
	if (memcmp(u.e32.e_ident, ELFMAG, SELFMAG))
		return refuse(c, "not an ELF file (no \\177ELF magic)");
	if (u.e32.e_ident[EI_CLASS] != c->t->elf_class)
		return refuse(c, "an ELF%s file, this kernel runs ELF%s executables",
			      u.e32.e_ident[EI_CLASS] == ELFCLASS64 ? "64" :
			      u.e32.e_ident[EI_CLASS] == ELFCLASS32 ? "32" : " class ?", is64 ? "64" : "32");
	if (u.e32.e_ident[EI_DATA] != ELFDATA2LSB)
		return refuse(c, "not little-endian (EI_DATA %u)", u.e32.e_ident[EI_DATA]);
	if (u.e32.e_ident[EI_VERSION] != EV_CURRENT)
		return refuse(c, "unknown ELF version %u", u.e32.e_ident[EI_VERSION]);
	if (c->file_size < size)
		return refuse(c, "truncated ELF header: %llu of %zu bytes",
			      (unsigned long long)c->file_size, size);
	err = read_exact(c, &u, size, 0);
	if (err)
		return err;
	if (is64) {
		*h = (struct ehdr){ u.e64.e_type, u.e64.e_machine, u.e64.e_phentsize, u.e64.e_phnum,
				    u.e64.e_version, u.e64.e_entry, u.e64.e_phoff };
	} else {
		*h = (struct ehdr){ u.e32.e_type, u.e32.e_machine, u.e32.e_phentsize, u.e32.e_phnum,
				    u.e32.e_version, u.e32.e_entry, u.e32.e_phoff };
	}
	return 0;
}

static int read_phdr(struct elf_ctx *c, uint64_t pos, struct phdr *p)
{
	union { Elf32_Phdr p32; Elf64_Phdr p64; } u;
	int err;

	if (c->t->elf_class == ELFCLASS64) {
		err = read_exact(c, &u.p64, sizeof(u.p64), pos);
		*p = (struct phdr){ u.p64.p_type, u.p64.p_flags, u.p64.p_offset, u.p64.p_vaddr,
				    u.p64.p_filesz, u.p64.p_memsz };
	} else {
		err = read_exact(c, &u.p32, sizeof(u.p32), pos);
		*p = (struct phdr){ u.p32.p_type, u.p32.p_flags, u.p32.p_offset, u.p32.p_vaddr,
				    u.p32.p_filesz, u.p32.p_memsz };
	}
	return err;
}

/* A PT_LOAD against the file, user space and the segment before it. */
static int check_load(struct elf_ctx *c, unsigned int i, const struct phdr *p,
		      const struct elf_segment *prev)
{
	uint64_t page = c->t->page_size;

	if (p->filesz > p->memsz)
		return refuse(c, "segment %u: p_filesz %#llx > p_memsz %#llx", i,
			      (unsigned long long)p->filesz, (unsigned long long)p->memsz);
	if (p->offset > c->file_size || p->filesz > c->file_size - p->offset)
		return refuse(c, "segment %u: file bytes [%#llx, +%#llx) past the end of the file (%llu bytes)",
			      i, (unsigned long long)p->offset, (unsigned long long)p->filesz,
			      (unsigned long long)c->file_size);
	if (p->vaddr % page != p->offset % page)
		return refuse(c, "segment %u: p_vaddr %#llx and p_offset %#llx differ modulo the page size",
			      i, (unsigned long long)p->vaddr, (unsigned long long)p->offset);
	if (p->vaddr < page || p->vaddr >= c->t->task_size || p->memsz > c->t->task_size - p->vaddr)
		return refuse(c, "segment %u: [%#llx, +%#llx) is not inside user space [%#llx, %#llx)",
			      i, (unsigned long long)p->vaddr, (unsigned long long)p->memsz,
			      (unsigned long long)page, (unsigned long long)c->t->task_size);
	if (prev && p->vaddr / page <= (prev->vaddr + prev->memsz - 1) / page)
		return refuse(c, "segment %u at %#llx overlaps or shares a page with the one before it, at %#llx",
			      i, (unsigned long long)p->vaddr, (unsigned long long)prev->vaddr);
	return 0;
}

int elf_check(const struct elf_target *t, elf_read_t read, void *ctx, uint64_t file_size,
	      struct elf_image *img, char *why, size_t whylen)
{
	struct elf_ctx c = { t, read, ctx, file_size, why, whylen };
	size_t phsize = t->elf_class == ELFCLASS64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	struct ehdr h = { 0 };
	int err = read_ehdr(&c, &h);

	if (err)
		return err;
	memset(img, 0, sizeof(*img));
	if (h.version != EV_CURRENT)
		return refuse(&c, "unknown ELF version %lu", (unsigned long)h.version);
	if (h.type == ET_DYN)
		return refuse(&c, "a position-independent (ET_DYN) file: tinymm runs static ET_EXEC executables (link with -static -no-pie)");
	if (h.type != ET_EXEC)
		return refuse(&c, "not an executable (e_type %u)", h.type);
	if (h.machine != t->machine)
		return refuse(&c, "wrong machine %u (%s), this kernel runs %u (%s)", h.machine,
			      machine_name(h.machine), t->machine, machine_name(t->machine));
	if (h.phentsize != phsize)
		return refuse(&c, "e_phentsize %u, not %zu", h.phentsize, phsize);
	/* v6.10's load_elf_phdrs(): the table is at most a page. */
	if (!h.phnum || (uint64_t)h.phnum * phsize > t->page_size)
		return refuse(&c, "%u program headers (1 to %zu allowed)", h.phnum, t->page_size / phsize);
	if (h.phoff > file_size || (uint64_t)h.phnum * phsize > file_size - h.phoff)
		return refuse(&c, "program headers [%#llx, +%#llx) past the end of the file (%llu bytes)",
			      (unsigned long long)h.phoff, (unsigned long long)h.phnum * phsize,
			      (unsigned long long)file_size);
	img->entry = h.entry;
	img->phnum = h.phnum;
	for (unsigned int i = 0; i < h.phnum; i++) {
		struct elf_segment *prev = img->nr_segments ? &img->seg[img->nr_segments - 1] : NULL;
		struct phdr p;

		err = read_phdr(&c, h.phoff + (uint64_t)i * phsize, &p);
		if (err)
			return err;
		if (p.type == PT_INTERP)
			return refuse(&c, "dynamically linked (PT_INTERP): tinymm runs static executables only");
		if (p.type == PT_DYNAMIC)
			return refuse(&c, "has a PT_DYNAMIC segment: tinymm runs static executables only");
		if (p.type == PT_GNU_STACK)
			img->exec_stack = p.flags & PF_X;
		if (p.type != PT_LOAD || !p.memsz)
			continue;
		if (img->nr_segments == ELF_MAX_SEGMENTS)
			return refuse(&c, "more than %d PT_LOAD segments", ELF_MAX_SEGMENTS);
		err = check_load(&c, i, &p, prev);
		if (err)
			return err;
		img->seg[img->nr_segments++] = (struct elf_segment){ p.vaddr, p.memsz, p.offset,
								     p.filesz, p.flags & (PF_R | PF_W | PF_X) };
		/* AT_PHDR: where the table lands if this segment maps it (v6.10's rule). */
		if (h.phoff >= p.offset && h.phoff - p.offset < p.filesz &&
		    (uint64_t)h.phnum * phsize <= p.filesz - (h.phoff - p.offset))
			img->phdr_addr = p.vaddr + (h.phoff - p.offset);
	}
	if (!img->nr_segments)
		return refuse(&c, "no PT_LOAD segment: nothing to run");
	for (unsigned int i = 0; i < img->nr_segments; i++) {
		const struct elf_segment *s = &img->seg[i];

		if (h.entry >= s->vaddr && h.entry - s->vaddr < s->memsz) {
			if (!(s->flags & PF_X))
				return refuse(&c, "entry point %#llx is in a segment that is not executable",
					      (unsigned long long)h.entry);
			const struct elf_segment *last = &img->seg[img->nr_segments - 1];
			uint64_t end = last->vaddr + last->memsz;

			img->brk_start = (end + t->page_size - 1) / t->page_size * t->page_size;
			return 0;
		}
	}
	return refuse(&c, "entry point %#llx is outside every PT_LOAD segment", (unsigned long long)h.entry);
}
