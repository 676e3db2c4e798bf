/*
 * binfmt_elf.c - load_elf_binary(): a checked static ELF executable (fs/binfmt_elf_check.c)
 * becomes a new mm: its PT_LOAD segments mapped private from the file's page cache, the bss
 * anonymous, the heap's start, a fixed-size stack at the top of user space holding argc,
 * argv, envp and the auxiliary vector as v6.10's create_elf_tables() lays them out.  Linux
 * v6.10's fs/binfmt_elf.c reduced; docs/binfmt_elf.md has the picture.
 *
 * Nothing is loaded into the MMU: the stack and the bss's partial page are written through
 * the kernel's mapping of the pages (mm_write(): fault the page in with handle_mm_fault(),
 * then copy to its frame), as v6.10's get_arg_page() fills the argument pages of an mm that is
 * not yet current.  The caller (fs/exec.c) switches to the mm once everything has worked.
 * Where tinymm differs from v6.10, and why: static ET_EXEC only, no ASLR (the stack top is
 * TASK_SIZE, the heap starts at the page after the data: a reproducible layout for the
 * tests), a fixed-size stack (EXEC_STACK_SIZE, no growth: a fault below it is SIGSEGV), no
 * AT_HWCAP/AT_PLATFORM/AT_SYSINFO_EHDR (no vDSO), AT_RANDOM's bytes are not cryptographic
 * (tinymm has no entropy pool: a hash of the clock and a counter).
 * Locking: the new mm's mmap_lock while it is built (no one else can see it yet).
 */
#include <string.h>
#include "tinymm/elf.h"
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sha256.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"

/* The machine this kernel runs (v6.10: ELF_ARCH and ELF_CLASS in <asm/elf.h>).  The host's
 * tests load RV64 programs: its system-call numbers are RV64's (uapi/unistd.h). */
#if defined(__arm__)
#define ELF_ARCH	EM_ARM
#else
#define ELF_ARCH	EM_RISCV
#endif
#define ELF_CLASS	(sizeof(unsigned long) == 8 ? ELFCLASS64 : ELFCLASS32)

#define STACK_TOP	TASK_SIZE

static long elf_read(void *ctx, void *buf, size_t len, uint64_t pos)
{
	return vfs_pread(ctx, buf, len, (loff_t)pos);
}

/*
 * Write @len bytes of @src (zeros if NULL) at user address @addr of @mm, which need not be
 * the active mm: each page is faulted in for writing (a private file page is copied, an anon
 * page allocated) and written through the kernel's mapping.  0, -EFAULT (no writable area
 * there), -ENOMEM.
 */
static int mm_write(struct mm_struct *mm, unsigned long addr, const void *src, size_t len)
{
	lockdep_assert_held(&mm->mmap_lock);
	while (len) {
		struct vm_area_struct *vma = vma_lookup(mm, addr);
		size_t chunk = PAGE_SIZE - (addr & ~PAGE_MASK);
		vm_fault_t fault;
		pte_t *ptep;
		char *dst = NULL;

		if (chunk > len)
			chunk = len;
		if (!vma || !(vma->vm_flags & VM_WRITE))
			return -EFAULT;
		fault = handle_mm_fault(vma, addr, FAULT_FLAG_WRITE);
		if (fault & VM_FAULT_OOM)
			return -ENOMEM;
		if (fault & VM_FAULT_ERROR)
			return -EFAULT;
		spin_lock(&mm->page_table_lock);
		ptep = user_pte_lookup(mm, addr);
		if (ptep && pte_present(ptep_get(ptep)) && pte_write(ptep_get(ptep)))
			dst = (char *)__va(PFN_PHYS(pte_pfn(ptep_get(ptep)))) + (addr & ~PAGE_MASK);
		if (dst) {
			if (src)
				memcpy(dst, src, chunk);
			else
				memset(dst, 0, chunk);
		}
		spin_unlock(&mm->page_table_lock);
		if (!dst)
			return -EFAULT;
		addr += chunk;
		len -= chunk;
		if (src)
			src = (const char *)src + chunk;
	}
	return 0;
}

static unsigned long vm_flags_of(uint32_t p_flags)
{
	unsigned long f = VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;

	if (p_flags & PF_R)
		f |= VM_READ;
	if (p_flags & PF_W)
		f |= VM_WRITE;
	if (p_flags & PF_X)
		f |= VM_EXEC;
	return f;
}

/*
 * v6.10's elf_load(): the file's pages of the segment mapped private (elf_check made
 * p_vaddr and p_offset agree modulo the page size), the rest of the last file page zeroed
 * when the segment has a bss (padzero), and the bss past that page anonymous.
 */
static int map_segment(struct linux_binprm *bprm, struct mm_struct *mm, const struct elf_segment *s)
{
	unsigned long start = (unsigned long)s->vaddr & PAGE_MASK;
	unsigned long file_end = (unsigned long)(s->vaddr + s->filesz);
	unsigned long mem_end = PAGE_ALIGN((unsigned long)(s->vaddr + s->memsz));
	unsigned long flags = vm_flags_of(s->flags);
	unsigned long anon_start = start;
	long ret;

	if (s->filesz) {
		unsigned long pgoff = ((unsigned long)s->offset - (s->vaddr - start)) >> PAGE_SHIFT;

		anon_start = PAGE_ALIGN(file_end);
		ret = mmap_region(mm, start, anon_start - start, flags, mm->exe_file, pgoff);
		if (ret < 0)
			return (int)ret;
		/* v6.10 zeroes the partial page only when there is a bss, and only where it can
		 * write (a read-only segment's tail keeps the file's bytes there, as in v6.10). */
		if (s->memsz > s->filesz && (file_end & ~PAGE_MASK) && (flags & VM_WRITE)) {
			int err = mm_write(mm, file_end, NULL, anon_start - file_end);

			if (err)
				return err;
		}
	}
	if (mem_end > anon_start) {
		ret = mmap_region(mm, anon_start, mem_end - anon_start, flags, NULL, 0);
		if (ret < 0)
			return (int)ret;
	}
	return 0;
}

/* AT_RANDOM's bytes: not secret (tinymm has no entropy pool), different on every exec. */
static void exec_random_bytes(uint8_t *out)
{
	static unsigned long counter;
	struct { uint64_t ns; unsigned long n; int pid; } seed = {
		ktime_get_ns(), ++counter, current ? current->pid : 0 };
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx c;

	sha256_init(&c);
	sha256_update(&c, &seed, sizeof(seed));
	sha256_final(&c, digest);
	memcpy(out, digest, EXEC_RANDOM_BYTES);
}

/*
 * v6.10's create_elf_tables() with the strings setup_arg_pages() leaves above it.  From the
 * top of the stack down: one zero word; the file name (AT_EXECFN); the envp strings above
 * the argv strings (argv[0]'s lowest); aligned down to 16; AT_RANDOM's 16 bytes; aligned
 * down to 16 once the table's size is known; then, from sp up, one word each: argc,
 * argv[0..argc-1], NULL, envp[0..envc-1], NULL, the auxv pairs ending with AT_NULL.
 */
static int create_elf_tables(struct linux_binprm *bprm, struct mm_struct *mm)
{
	const struct exec_args *a = &bprm->args;
	size_t namelen = strlen(bprm->filename) + 1;
	unsigned long p = STACK_TOP - sizeof(unsigned long);
	unsigned long execfn, strings, random, sp, *table, *w;
	size_t items = 1 + (size_t)a->argc + 1 + (size_t)a->envc + 1 + 2 * EXEC_AUXV_ENTRIES;
	uint8_t rnd[EXEC_RANDOM_BYTES];
	const char *s = a->buf;
	int err;

	if (namelen > PATH_MAX)
		return -ENAMETOOLONG;
	p -= namelen;
	execfn = p;
	err = mm_write(mm, execfn, bprm->filename, namelen);
	p -= a->len;
	strings = p;
	if (!err && a->len)
		err = mm_write(mm, strings, a->buf, a->len);
	p &= ~15UL;
	p -= EXEC_RANDOM_BYTES;
	random = p;
	exec_random_bytes(rnd);
	if (!err)
		err = mm_write(mm, random, rnd, sizeof(rnd));
	if (err)
		return err;

	table = kcalloc(items, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	w = table;
	*w++ = (unsigned long)a->argc;
	for (int i = 0; i < a->argc; i++, s += strlen(s) + 1)
		*w++ = strings + (unsigned long)(s - a->buf);
	*w++ = 0;				/* argv's NULL */
	for (int i = 0; i < a->envc; i++, s += strlen(s) + 1)
		*w++ = strings + (unsigned long)(s - a->buf);
	*w++ = 0;				/* envp's NULL */
#define AUX(type, val)	do { *w++ = (type); *w++ = (unsigned long)(val); } while (0)
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_CLKTCK, 100);			/* USER_HZ */
	AUX(AT_PHDR, bprm->img.phdr_addr);
	AUX(AT_PHENT, ELF_CLASS == ELFCLASS64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr));
	AUX(AT_PHNUM, bprm->img.phnum);
	AUX(AT_BASE, 0);			/* no interpreter */
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, bprm->img.entry);
	AUX(AT_UID, 0);
	AUX(AT_EUID, 0);
	AUX(AT_GID, 0);
	AUX(AT_EGID, 0);
	AUX(AT_SECURE, 0);
	AUX(AT_RANDOM, random);
	AUX(AT_EXECFN, execfn);
	AUX(AT_NULL, 0);
#undef AUX
	items = (size_t)(w - table);
	sp = (p - items * sizeof(*table)) & ~15UL;	/* v6.10's STACK_ROUND */
	if (sp < STACK_TOP - EXEC_STACK_SIZE)
		err = -E2BIG;
	else
		err = mm_write(mm, sp, table, items * sizeof(*table));
	kfree(table);
	bprm->p = sp;
	mm->start_stack = sp;
	return err;
}

/* The checks past elf_check's: the program and its heap must stay below the stack area. */
static int check_layout(struct linux_binprm *bprm)
{
	const struct elf_image *img = &bprm->img;
	uint64_t limit = STACK_TOP - EXEC_STACK_SIZE;

	for (unsigned int i = 0; i < img->nr_segments; i++) {
		const struct elf_segment *s = &img->seg[i];

		if (s->vaddr + s->memsz > limit) {
			ksnprintf(bprm->why, sizeof(bprm->why),
				  "segment at %#llx, %#llx bytes, reaches the stack at %#llx",
				  (unsigned long long)s->vaddr, (unsigned long long)s->memsz,
				  (unsigned long long)limit);
			return -ENOEXEC;
		}
	}
	return 0;
}

int load_elf_binary(struct linux_binprm *bprm)
{
	const struct elf_target target = { ELF_CLASS, ELF_ARCH, STACK_TOP, PAGE_SIZE };
	unsigned long stack_flags = VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	struct mm_struct *mm;
	long ret;
	int err;

	err = elf_check(&target, elf_read, bprm->file, (uint64_t)i_size_read(bprm->file->f_inode),
			&bprm->img, bprm->why, sizeof(bprm->why));
	if (!err)
		err = check_layout(bprm);
	if (err)
		return err;
	mm = mm_alloc();
	if (!mm)
		return -ENOMEM;
	mm->exe_file = bprm->file;		/* mmput() closes it from now on */
	bprm->file = NULL;
	mutex_lock(&mm->mmap_lock);
	for (unsigned int i = 0; i < bprm->img.nr_segments && !err; i++)
		err = map_segment(bprm, mm, &bprm->img.seg[i]);
	if (!err) {
		mm->start_brk = mm->brk = (unsigned long)bprm->img.brk_start;
		if (bprm->img.exec_stack)
			stack_flags |= VM_EXEC;
		ret = mmap_region(mm, STACK_TOP - EXEC_STACK_SIZE, EXEC_STACK_SIZE, stack_flags, NULL, 0);
		err = ret < 0 ? (int)ret : create_elf_tables(bprm, mm);
	}
	mutex_unlock(&mm->mmap_lock);
	if (err) {
		mmput(mm);
		return err;
	}
	bprm->mm = mm;
	bprm->entry = (unsigned long)bprm->img.entry;
	return 0;
}
