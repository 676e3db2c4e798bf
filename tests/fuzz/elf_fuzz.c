/*
 * elf_fuzz.c - libFuzzer target for the ELF checks (fs/binfmt_elf_check.c): CTest fuzz.elf.
 *
 * Each input is a whole file, checked for all three targets (ELF32 ARM, ELF32 RISC-V, ELF64
 * RISC-V).  elf_check() must return 0 or -ENOEXEC (reads never fail here) and, when it refuses,
 * leave a non-empty one-line reason; when it accepts, what it promises the loader must hold,
 * checked here independently of how it was computed:
 *   - 1..ELF_MAX_SEGMENTS segments, ascending, no two sharing a page, each with
 *     filesz <= memsz, its file bytes inside the file, vaddr and offset congruent modulo the
 *     page, [vaddr, vaddr + memsz) inside [page, TASK_SIZE);
 *   - the entry point inside an executable segment; brk_start page-aligned and at or past the
 *     last segment's end; phdr_addr 0 or inside a segment's file-backed bytes.
 * The seeds are the cross compilers' programs (tests/host/data/elf_prog.c, built by the host
 * build), so mutations start from real executables.  ELF_FUZZ_BREAK=1 moves the accepted
 * entry point out of its segment before the checks: CTest fuzz.elf_break_aborts requires the
 * abort (the checks can fail).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tinymm/binfmts.h"
#include "tinymm/elf.h"
#include "tinymm/errno.h"

struct file_buf {
	const uint8_t *data;
	size_t size;
};

static long buf_read(void *ctx, void *buf, size_t len, uint64_t pos)
{
	const struct file_buf *f = ctx;

	if (pos >= f->size)
		return 0;
	if (len > f->size - pos)
		len = f->size - pos;
	memcpy(buf, f->data + pos, len);
	return (long)len;
}

#define CHECK(cond) do {							\
		if (!(cond)) {							\
			fprintf(stderr, "elf_fuzz: check failed at %s:%d: %s\n",	\
				__FILE__, __LINE__, #cond);			\
			abort();						\
		}								\
	} while (0)

static void check_image(const struct elf_target *t, const struct file_buf *f,
			const struct elf_image *img)
{
	const uint64_t page = t->page_size;
	bool entry_ok = false, phdr_ok = img->phdr_addr == 0;

	CHECK(img->nr_segments >= 1 && img->nr_segments <= ELF_MAX_SEGMENTS);
	for (unsigned int i = 0; i < img->nr_segments; i++) {
		const struct elf_segment *s = &img->seg[i];

		CHECK(s->memsz > 0 && s->filesz <= s->memsz);
		CHECK(s->offset <= f->size && s->filesz <= f->size - s->offset);
		CHECK(s->vaddr % page == s->offset % page);
		CHECK(s->vaddr >= page && s->vaddr < t->task_size && s->memsz <= t->task_size - s->vaddr);
		CHECK(!(s->flags & ~(uint32_t)(PF_R | PF_W | PF_X)));
		if (i)
			CHECK(s->vaddr / page > (img->seg[i - 1].vaddr + img->seg[i - 1].memsz - 1) / page);
		if (img->entry >= s->vaddr && img->entry - s->vaddr < s->memsz)
			entry_ok = s->flags & PF_X;
		if (img->phdr_addr >= s->vaddr && img->phdr_addr - s->vaddr < s->filesz)
			phdr_ok = true;
	}
	const struct elf_segment *last = &img->seg[img->nr_segments - 1];
	CHECK(entry_ok);
	CHECK(phdr_ok);
	CHECK(img->brk_start % page == 0 && img->brk_start >= last->vaddr + last->memsz);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct elf_target targets[] = {
		{ ELFCLASS32, EM_ARM, 0xc0000000ULL, 4096 },
		{ ELFCLASS32, EM_RISCV, 0xc0000000ULL, 4096 },
		{ ELFCLASS64, EM_RISCV, 0x4000000000ULL, 4096 },
	};
	static int brk_mode = -1;
	struct file_buf f = { data, size };

	if (brk_mode < 0)
		brk_mode = getenv("ELF_FUZZ_BREAK") ? atoi(getenv("ELF_FUZZ_BREAK")) : 0;
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		struct elf_image img;
		char why[160];
		int err;

		memset(why, 0x55, sizeof(why));
		err = elf_check(&targets[i], buf_read, &f, size, &img, why, sizeof(why));
		CHECK(err == 0 || err == -ENOEXEC);
		if (err) {
			CHECK(memchr(why, '\0', sizeof(why)) && why[0] && !strchr(why, '\n'));
			continue;
		}
		if (brk_mode == 1)
			img.entry = img.seg[0].vaddr + img.seg[0].memsz + 0x10000;
		check_image(&targets[i], &f, &img);
	}
	return 0;
}
