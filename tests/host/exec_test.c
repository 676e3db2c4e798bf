/*
 * exec_test.c - host.exec: exec (fs/exec.c, fs/binfmt_elf.c) on the host, over the fake arch
 * and the host's software uaccess (tests/host/host_uaccess.c).  The host has no user mode, so
 * the "architecture" here records what start_thread() is given, and arch_ret_to_user() plays
 * a program that reads its own initial stack and exits with argc as its status.
 *
 *   exec_test <path of qemu-virt-riscv64's build/.../user/bin/hello>
 *
 * The real RV64 hello is copied into ramfs and exec'd: its areas (as `maps` prints them and
 * as the ELF says), the entry and stack pointer given to start_thread, argc/argv/envp and the
 * auxiliary vector read back from the new stack with copy_from_user, the data bytes from the
 * file, the bss zero, the text not writable, `pagemap` and `ps`; an exec that replaces an
 * exec'd mm; sys_execve from user pointers and its EFAULTs; ENOENT/EACCES/E2BIG; bad ELF files
 * crafted from the good one, each refused with its reason and nothing left behind; the shell's
 * `exec` through user_task_spawn.  At the end AnonPages, Mapped and the free memory are back.
 */
#include "host_sched_test.h"
#include "tinymm/binfmts.h"
#include "tinymm/elf.h"
#include "tinymm/exec.h"
#include "tinymm/file.h"
#include "tinymm/arch.h"
#include "tinymm/irqflags.h"
#include "tinymm/mm_fault.h"
#include "tinymm/signal.h"
#include "tinymm/swap.h"
#include "tinymm/uaccess.h"
/* <stdlib.h>'s wait macros: the kernel's (the same encoding) replace them. */
#undef WIFEXITED
#undef WEXITSTATUS
#undef WTERMSIG
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"

/* ---- the host's "user mode" ---- */
struct pt_regs {
	unsigned long pc, sp;
	bool started;
};
static struct pt_regs regs;

struct pt_regs *current_pt_regs(void)
{
	return &regs;
}

void start_thread(struct pt_regs *r, unsigned long pc, unsigned long sp)
{
	r->pc = pc;
	r->sp = sp;
	r->started = true;
}

/* The "program": argc from its stack is its exit status; argv[1] "segv" plays a crash. */
__noreturn void arch_ret_to_user(void)
{
	unsigned long argc = 0, argv1 = 0;
	char word[8] = "";

	if (get_user(argc, (const unsigned long __user *)regs.sp))
		do_exit(SIGBUS);
	if (argc > 1 && !get_user(argv1, (const unsigned long __user *)regs.sp + 2) &&
	    strncpy_from_user(word, (const char __user *)argv1, sizeof(word) - 1) > 0 &&
	    !strcmp(word, "segv"))
		do_exit(SIGSEGV);
	do_exit(W_EXITCODE((int)argc, 0));
}

/* ---- the ELF ---- */
static unsigned char *hello;
static size_t hello_size;

struct membuf {
	const unsigned char *p;
	size_t n;
};

static long mem_read(void *ctx, void *buf, size_t len, uint64_t pos)
{
	struct membuf *m = ctx;

	if (pos >= m->n)
		return 0;
	if (len > m->n - pos)
		len = m->n - pos;
	memcpy(buf, m->p + pos, len);
	return (long)len;
}

static int put_file(const char *path, const void *data, size_t len, unsigned int mode)
{
	struct file *f;
	int err = vfs_open(path, O_WRONLY | O_CREAT | O_TRUNC, mode, &f);

	if (err)
		return err;
	CHECK_EQ(vfs_write(f, data, len), (long)len);
	return vfs_close(f);
}

/* ---- checks ---- */
static unsigned long free_and_files(void)
{
	lru_add_drain();
	return nr_free_pages_and_pcp() + slab_pages_reclaimable() + slab_pages_unreclaimable() +
	       global_node_page_state(NR_FILE_PAGES);
}

static void drop_mm(void)
{
	struct mm_struct *mm = current->mm;
	unsigned long flags;

	local_irq_save(flags);
	current->mm = NULL;
	switch_mm(active_mm, &init_mm);
	active_mm = &init_mm;
	local_irq_restore(flags);
	if (mm)
		mmput(mm);
}

static unsigned long uword(unsigned long addr)
{
	unsigned long v = 0;

	CHECK_EQ(get_user(v, (const unsigned long __user *)addr), 0);
	return v;
}

static bool ustr_is(unsigned long addr, const char *want)
{
	char buf[256];
	long n = strncpy_from_user(buf, (const char __user *)addr, sizeof(buf));

	return n >= 0 && n < (long)sizeof(buf) && !strcmp(buf, want);
}

/* The new stack holds exactly @argv and @envp and the auxv matches @img. */
static void check_stack(const struct elf_image *img, const char *const *argv, const char *const *envp,
			const char *execfn)
{
	unsigned long sp = regs.sp, p, aux[64];
	int argc = 0, envc = 0, naux = 0;

	while (argv[argc])
		argc++;
	while (envp[envc])
		envc++;
	CHECK_EQ(sp % 16, 0);
	CHECK_EQ(sp, current->mm->start_stack);
	CHECK(sp > TASK_SIZE - EXEC_STACK_SIZE && sp < TASK_SIZE);
	CHECK_EQ(uword(sp), (unsigned long)argc);
	p = sp + sizeof(long);
	for (int i = 0; i < argc; i++, p += sizeof(long))
		CHECK(ustr_is(uword(p), argv[i]));
	CHECK_EQ(uword(p), 0);
	p += sizeof(long);
	for (int i = 0; i < envc; i++, p += sizeof(long))
		CHECK(ustr_is(uword(p), envp[i]));
	CHECK_EQ(uword(p), 0);
	p += sizeof(long);
	/* argv[0]'s string is the lowest; the strings lie above the table, in order. */
	if (argc)
		CHECK(uword(sp + sizeof(long)) > p);
	for (naux = 0; naux < 32; naux++, p += 2 * sizeof(long)) {
		aux[2 * naux] = uword(p);
		aux[2 * naux + 1] = uword(p + sizeof(long));
		if (aux[2 * naux] == AT_NULL)
			break;
	}
	CHECK(naux < 32);
	unsigned long seen = 0, rnd = 0, efn = 0;
	for (int i = 0; i < naux; i++) {
		unsigned long t = aux[2 * i], v = aux[2 * i + 1];

		seen |= 1UL << t;
		switch (t) {
		case AT_PHDR:	CHECK_EQ(v, img->phdr_addr); CHECK(v != 0); break;
		case AT_PHNUM:	CHECK_EQ(v, img->phnum); break;
		case AT_PHENT:	CHECK_EQ(v, sizeof(Elf64_Phdr)); break;
		case AT_PAGESZ:	CHECK_EQ(v, PAGE_SIZE); break;
		case AT_ENTRY:	CHECK_EQ(v, img->entry); break;
		case AT_RANDOM:	rnd = v; break;
		case AT_EXECFN:	efn = v; break;
		case AT_BASE: case AT_FLAGS: case AT_UID: case AT_EUID: case AT_GID: case AT_EGID:
		case AT_SECURE:	CHECK_EQ(v, 0); break;
		}
	}
	for (unsigned long t = AT_PHDR; t <= AT_ENTRY; t++)
		CHECK(seen & (1UL << t));
	CHECK(seen & (1UL << AT_RANDOM));
	/* AT_RANDOM: 16 readable bytes above the table, below the strings. */
	unsigned char r[16];
	CHECK(rnd > p && rnd + 16 <= uword(sp + sizeof(long)));
	CHECK_EQ(copy_from_user(r, (const void __user *)rnd, 16), 0);
	CHECK(ustr_is(efn, execfn));
	CHECK(efn + strlen(execfn) + 1 + sizeof(long) == TASK_SIZE);	/* the top string */
	/* The program headers are where AT_PHDR says, byte for byte. */
	Elf64_Ehdr *eh = (Elf64_Ehdr *)hello;
	unsigned char ph[8 * sizeof(Elf64_Phdr)];
	size_t phlen = eh->e_phnum * sizeof(Elf64_Phdr);
	CHECK(phlen <= sizeof(ph));
	CHECK_EQ(copy_from_user(ph, (const void __user *)img->phdr_addr, phlen), 0);
	CHECK(!memcmp(ph, hello + eh->e_phoff, phlen));
}

/* The areas: each segment's file part and bss, the stack; data from the file, bss zero. */
static void check_areas(const struct elf_image *img)
{
	struct mm_struct *mm = current->mm;
	int expect = 1;				/* the stack */
	static unsigned char buf[64 * 1024];

	for (unsigned int i = 0; i < img->nr_segments; i++) {
		const struct elf_segment *s = &img->seg[i];
		unsigned long start = s->vaddr & PAGE_MASK, fend = PAGE_ALIGN(s->vaddr + s->filesz);
		unsigned long mend = PAGE_ALIGN(s->vaddr + s->memsz);
		unsigned long want = VM_READ | (s->flags & PF_W ? VM_WRITE : 0) | (s->flags & PF_X ? VM_EXEC : 0);
		struct vm_area_struct *v = vma_lookup(mm, start);

		CHECK(v != NULL);
		if (!v)
			continue;
		CHECK_EQ(v->vm_start, start);
		CHECK_EQ(v->vm_flags & VM_PROT_MASK, want);
		if (s->filesz) {
			expect++;
			CHECK(v->vm_file == mm->exe_file);
			CHECK_EQ(v->vm_end, fend);
			CHECK_EQ(v->vm_pgoff, (s->offset - (s->vaddr - start)) >> PAGE_SHIFT);
		}
		if (mend > (s->filesz ? fend : start)) {
			struct vm_area_struct *b = vma_lookup(mm, s->filesz ? fend : start);

			expect++;
			CHECK(b && !b->vm_file && b->vm_end == mend && (b->vm_flags & VM_PROT_MASK) == want);
		}
		/* bytes: the file's, then zeros up to memsz (the partial page zeroed too) */
		CHECK(s->memsz <= sizeof(buf));
		if (s->memsz > sizeof(buf))
			continue;
		CHECK_EQ(copy_from_user(buf, (const void __user *)(unsigned long)s->vaddr, s->memsz), 0);
		CHECK(!memcmp(buf, hello + s->offset, s->filesz));
		for (size_t k = s->filesz; k < s->memsz; k++)
			if (buf[k]) {
				CHECK_EQ(buf[k], 0);
				break;
			}
		if (!(s->flags & PF_W))
			CHECK_EQ(copy_to_user((void __user *)(unsigned long)s->vaddr, "x", 1), 1);
	}
	struct vm_area_struct *st = vma_lookup(mm, TASK_SIZE - 1);
	CHECK(st && st->vm_start == TASK_SIZE - EXEC_STACK_SIZE && !st->vm_file &&
	      (st->vm_flags & VM_PROT_MASK) == (VM_READ | VM_WRITE));
	CHECK_EQ(mm->map_count, expect);
	CHECK_EQ(mm->start_brk, img->brk_start);
	CHECK_EQ(mm->brk, img->brk_start);
	CHECK_EQ(vma_check(mm, printf), 0);
}

/* `maps <pid>`: the text area's line exactly, as /proc/PID/maps pads it. */
static void check_maps(const struct elf_image *img)
{
	char cmd[32], want[160], head[96];
	const struct elf_segment *t = &img->seg[0];
	unsigned long start = t->vaddr & PAGE_MASK;

	snprintf(cmd, sizeof(cmd), "maps %d", current->pid);
	shim_console_reset();
	CHECK_EQ(shim_run(cmd), 0);
	snprintf(head, sizeof(head), "%08lx-%08lx r-xp %08lx 00:00 %lu ", start,
		 (unsigned long)PAGE_ALIGN(t->vaddr + t->filesz),
		 (unsigned long)(t->offset - (t->vaddr - start)), current->mm->exe_file->f_inode->i_ino);
	snprintf(want, sizeof(want), "%-72s /hello\n", head);
	CHECK(strstr(shim_console, want) != NULL);
	snprintf(head, sizeof(head), "%08lx-%08lx rw-p 00000000 00:00 0 ",
		 (unsigned long)(TASK_SIZE - EXEC_STACK_SIZE), (unsigned long)TASK_SIZE);
	snprintf(want, sizeof(want), "%-72s [stack]\n", head);
	CHECK(strstr(shim_console, want) != NULL);
	if (!strstr(shim_console, want))
		fprintf(stderr, "maps gave:\n%s--- wanted:\n%s", shim_console, want);
}

/* `pagemap <pid> <addr>`: a file page of the text (present, file, exclusive, its pfn) and a
 * stack page (present, anon, exclusive). */
static void check_pagemap(const struct elf_image *img)
{
	char cmd[64], want[160];
	unsigned long text = img->seg[0].vaddr & PAGE_MASK, sp = regs.sp & PAGE_MASK;
	struct mm_struct *mm = current->mm;
	unsigned long pfn;

	snprintf(cmd, sizeof(cmd), "pagemap %d %#lx", current->pid, text);
	shim_console_reset();
	CHECK_EQ(shim_run(cmd), 0);
	spin_lock(&mm->page_table_lock);
	pfn = pte_pfn(ptep_get(user_pte_lookup(mm, text)));
	spin_unlock(&mm->page_table_lock);
	snprintf(want, sizeof(want), "0x%lx: 0x%016llx present 1 swapped 0 file 1 exclusive 1 soft-dirty 0 pfn 0x%lx anon-exclusive 0\n",
		 text, (1ULL << 63) | (1ULL << 61) | (1ULL << 56) | pfn, pfn);
	CHECK(strstr(shim_console, want) != NULL);
	if (!strstr(shim_console, want))
		fprintf(stderr, "pagemap gave: %s--- wanted: %s", shim_console, want);
	snprintf(cmd, sizeof(cmd), "pagemap %d %#lx", current->pid, sp);
	shim_console_reset();
	CHECK_EQ(shim_run(cmd), 0);
	CHECK(strstr(shim_console, "present 1 swapped 0 file 0 exclusive 1 soft-dirty 0") != NULL);
	CHECK(strstr(shim_console, " anon-exclusive 1\n") != NULL);	/* a new anonymous page */
	/* a hole: all zero */
	snprintf(cmd, sizeof(cmd), "pagemap %d 0x5000", current->pid);
	shim_console_reset();
	CHECK_EQ(shim_run(cmd), 0);
	CHECK(strstr(shim_console, "0x5000: 0x0000000000000000 present 0 swapped 0 file 0 exclusive 0 soft-dirty 0 pfn 0x0 anon-exclusive 0\n") != NULL);
	if (!strstr(shim_console, "0x5000: 0x0000000000000000"))
		fprintf(stderr, "pagemap gave: %s", shim_console);
	CHECK(shim_run("pagemap 1 0x10000") != 0);	/* a kernel thread */
	CHECK(shim_run("pagemap 99999 0x10000") != 0);
}

static void check_ps(void)
{
	char want[64];
	unsigned long vsz = current->mm->total_vm * (PAGE_SIZE / 1024);

	shim_console_reset();
	CHECK_EQ(shim_run("ps"), 0);
	CHECK(strstr(shim_console, "     VSZ    RSS  NAME\n") != NULL);
	snprintf(want, sizeof(want), " %7lu ", vsz);
	const char *line = strstr(shim_console, "  hello\n");
	CHECK(line != NULL);
	if (line) {
		const char *bol = line;
		while (bol > shim_console && bol[-1] != '\n')
			bol--;
		CHECK(strstr(bol, want) != NULL && strstr(bol, want) < line);
		unsigned long rss = strtoul(strstr(bol, want) + strlen(want), NULL, 10);
		CHECK(rss > 0 && rss <= vsz);
	}
}

/* ---- the bad files, crafted from the good one ---- */
struct bad {
	const char *name, *why;
	size_t size;			/* 0: the whole file */
	void (*edit)(unsigned char *elf);
};

static Elf64_Phdr *load_phdr(unsigned char *elf, int nth)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;

	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(elf + eh->e_phoff) + i;
		if (ph->p_type == PT_LOAD && nth-- == 0)
			return ph;
	}
	return NULL;
}

static void edit_machine(unsigned char *e) { ((Elf64_Ehdr *)e)->e_machine = 62; }
static void edit_past_end(unsigned char *e)
{
	load_phdr(e, 1)->p_filesz = load_phdr(e, 1)->p_memsz = hello_size;
}
static void edit_overlap(unsigned char *e)
{
	Elf64_Phdr *a = load_phdr(e, 0), *b = load_phdr(e, 1);

	b->p_vaddr = (a->p_vaddr & ~4095UL) + (b->p_offset & 4095);
}
static void edit_memsz(unsigned char *e) { load_phdr(e, 1)->p_memsz = load_phdr(e, 1)->p_filesz - 1; }
static void edit_entry(unsigned char *e) { ((Elf64_Ehdr *)e)->e_entry = 0x7000000; }
static void edit_absurd(unsigned char *e) { load_phdr(e, 1)->p_memsz = 0xfffffffffff00000ULL; }
static void edit_stack(unsigned char *e)
{
	Elf64_Phdr *b = load_phdr(e, 1);

	b->p_memsz = TASK_SIZE - EXEC_STACK_SIZE / 2 - b->p_vaddr;
}

static const struct bad bads[] = {
	{ "/bad_trunc", "truncated ELF header: 40 of 64 bytes", 40, NULL },
	{ "/bad_machine", "wrong machine 62 (x86-64), this kernel runs 243 (RISC-V)", 0, edit_machine },
	{ "/bad_past_end", "past the end of the file", 0, edit_past_end },
	{ "/bad_overlap", "overlaps or shares a page with the one before it", 0, edit_overlap },
	{ "/bad_memsz", "> p_memsz", 0, edit_memsz },
	{ "/bad_entry", "entry point 0x7000000 is outside every PT_LOAD segment", 0, edit_entry },
	{ "/bad_absurd", "is not inside user space", 0, edit_absurd },
	{ "/bad_stack", "reaches the stack", 0, edit_stack },
};

static const char *const envp[] = { "PATH=/bin", "HOME=/", NULL };

static int exec_scenario(void)
{
	const char *const argv[] = { "/hello", "a", "b c", NULL };
	struct membuf mb = { hello, hello_size };
	unsigned long anon0, mapped0, free0;
	struct elf_image img;
	char why[160];
	struct mm_struct *mm1;
	unsigned char *bad = malloc(hello_size);

	fake_pfn_base = memmap_bank(0)->start_pfn;
	vfs_init();
	const struct elf_target rv64 = { ELFCLASS64, EM_RISCV, TASK_SIZE, PAGE_SIZE };
	CHECK_EQ(elf_check(&rv64, mem_read, &mb, hello_size, &img, why, sizeof(why)), 0);
	CHECK(img.nr_segments >= 2);
	/* Every file first: their page cache is part of the level the end is compared with. */
	CHECK_EQ(put_file("/hello", hello, hello_size, 0755), 0);
	CHECK_EQ(put_file("/noexec", hello, hello_size, 0644), 0);
	CHECK_EQ(vfs_mkdir("/dir", 0755), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		memcpy(bad, hello, hello_size);
		if (bads[i].edit)
			bads[i].edit(bad);
		CHECK_EQ(put_file(bads[i].name, bad, bads[i].size ? bads[i].size : hello_size, 0755), 0);
	}
	anon0 = global_node_page_state(NR_ANON_MAPPED);
	mapped0 = global_node_page_state(NR_FILE_MAPPED);
	free0 = free_and_files();
	CHECK(current->mm == NULL);

	/* The good one. */
	CHECK_EQ(kernel_execve("/hello", argv, envp), 0);
	CHECK(current->mm != NULL && regs.started);
	if (!current->mm)
		return 1;
	CHECK_EQ(regs.pc, img.entry);
	CHECK(!strcmp(current->comm, "hello"));
	check_stack(&img, argv, envp, "/hello");
	check_areas(&img);
	check_maps(&img);
	check_pagemap(&img);
	check_ps();
	CHECK(global_node_page_state(NR_ANON_MAPPED) > anon0);
	CHECK(global_node_page_state(NR_FILE_MAPPED) > mapped0);

	/* Failures leave the task's mm as it was. */
	mm1 = current->mm;
	regs.started = false;
	CHECK_EQ(kernel_execve("/missing", argv, envp), -ENOENT);
	CHECK_EQ(kernel_execve("/dir", argv, envp), -EACCES);
	CHECK_EQ(kernel_execve("/noexec", argv, envp), -EACCES);
	CHECK_EQ(kernel_execve("/dir/x", argv, envp), -ENOENT);
	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		shim_console_reset();
		CHECK_EQ(kernel_execve(bads[i].name, argv, envp), -ENOEXEC);
		if (!strstr(shim_console, bads[i].why))
			fprintf(stderr, "%s: wanted '%s' in: %s", bads[i].name, bads[i].why, shim_console);
		CHECK(strstr(shim_console, bads[i].why) != NULL);
		CHECK(strstr(shim_console, "exec: ") != NULL && strstr(shim_console, bads[i].name) != NULL);
	}
	/* E2BIG: one string over MAX_ARG_STRLEN, or the total over EXEC_ARGS_MAX. */
	char *huge = malloc(MAX_ARG_STRLEN + 1);
	memset(huge, 'a', MAX_ARG_STRLEN);
	huge[MAX_ARG_STRLEN] = '\0';
	const char *const big1[] = { "/hello", huge, NULL };
	CHECK_EQ(kernel_execve("/hello", big1, envp), -E2BIG);
	huge[4000] = '\0';
	const char *many[20];
	for (int i = 0; i < 19; i++)
		many[i] = huge;
	many[19] = NULL;
	CHECK_EQ(kernel_execve("/hello", many, envp), -E2BIG);
	free(huge);
	CHECK(current->mm == mm1 && !regs.started);

	/* sys_execve from user pointers, in the stack area's unused bottom. */
	unsigned long u = TASK_SIZE - EXEC_STACK_SIZE, uargv = u + 256;
	unsigned long vec[3] = { u, u + 16, 0 };
	CHECK_EQ(copy_to_user((void __user *)u, "/hello", 7), 0);
	CHECK_EQ(copy_to_user((void __user *)(u + 16), "from-user", 10), 0);
	CHECK_EQ(copy_to_user((void __user *)uargv, vec, sizeof(vec)), 0);
	CHECK_EQ(sys_execve((const char __user *)0x1000, NULL, NULL), -EFAULT);
	CHECK_EQ(sys_execve((const char __user *)TASK_SIZE, NULL, NULL), -EFAULT);
	CHECK_EQ(sys_execve((const char __user *)u, (const char *const __user *)0x1000, NULL), -EFAULT);
	vec[1] = TASK_SIZE + 4096;		/* a kernel pointer as an argument */
	CHECK_EQ(copy_to_user((void __user *)(uargv + 64), vec, sizeof(vec)), 0);
	CHECK_EQ(sys_execve((const char __user *)u, (const char *const __user *)(uargv + 64), NULL), -EFAULT);
	CHECK(current->mm == mm1 && !regs.started);
	/* Across the exec: fds 0-2 stay, an O_CLOEXEC one closes, a plain one stays. */
	struct file *fc, *fk;
	CHECK_EQ(alloc_files_for_task(current), 0);
	CHECK_EQ(vfs_open("/hello", O_RDONLY, 0, &fc), 0);
	CHECK_EQ(vfs_open("/hello", O_RDONLY, 0, &fk), 0);
	CHECK_EQ(fd_install_new(fc, O_CLOEXEC), 3);
	CHECK_EQ(fd_install_new(fk, 0), 4);
	CHECK_EQ(sys_execve((const char __user *)u, (const char *const __user *)uargv, NULL), 0);
	CHECK(current->files && !current->files->fd[3] && current->files->fd[4] == fk &&
	      current->files->fd[0] && current->files->fd[2]);
	exit_files(current);
	CHECK(current->mm != NULL && current->mm != mm1 && regs.started);	/* mm1 was freed */
	{
		const char *const uv[] = { "/hello", "from-user", NULL }, *const none[] = { NULL };
		check_stack(&img, uv, none, "/hello");
	}

	/* The end: the mm released gives back every anon page, every mapping, every page. */
	drop_mm();
	CHECK_EQ(global_node_page_state(NR_ANON_MAPPED), anon0);
	CHECK_EQ(global_node_page_state(NR_FILE_MAPPED), mapped0);
	CHECK_EQ(free_and_files(), free0);

	/* user_task_spawn and the shell's `exec`: the "program" exits with argc. */
	int err = 1;
	const char *const two[] = { "/hello", "x", NULL };
	struct task_struct *p = user_task_spawn("/hello", two, envp, &err);
	CHECK(p != NULL && err == 0);
	if (p)
		CHECK_EQ(kthread_join(p), W_EXITCODE(2, 0));
	CHECK(user_task_spawn("/missing", two, envp, &err) == NULL && err == -ENOENT);
	shim_console_reset();
	CHECK_EQ(shim_run("exec /hello"), 1);	/* status 1 (argc): the command fails */
	CHECK(strstr(shim_console, "/hello: exited with status 1\n") != NULL);
	shim_console_reset();
	CHECK(shim_run("exec /hello segv") != 0);
	CHECK(strstr(shim_console, "/hello: killed by signal 11 (SIGSEGV)\n") != NULL);
	shim_console_reset();
	CHECK(shim_run("exec /missing") != 0);
	CHECK(strstr(shim_console, "/missing: No such file or directory\n") != NULL);
	shim_console_reset();
	CHECK(shim_run("exec /dir") != 0);
	CHECK(strstr(shim_console, "/dir: Permission denied\n") != NULL);
	shim_console_reset();
	CHECK(shim_run("exec /bad_machine") != 0);
	CHECK(strstr(shim_console, "/bad_machine: Exec format error\n") != NULL);
	CHECK(strstr(shim_console, "wrong machine 62") != NULL);
	CHECK(shim_run("exec") != 0);
	flush_thread_stack_frees();
	CHECK_EQ(global_node_page_state(NR_ANON_MAPPED), anon0);
	CHECK_EQ(global_node_page_state(NR_FILE_MAPPED), mapped0);
	CHECK_EQ(free_and_files(), free0);
	free(bad);
	return 0;
}

static void exec_loads_hello(void **state)
{
	(void)state;
	run_scenario(exec_scenario);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(exec_loads_hello),
	};
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: exec_test <RV64 hello ELF>\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "exec_test: cannot open %s (build qemu-virt-riscv64 first: make all)\n", argv[1]);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	hello_size = (size_t)ftell(f);
	rewind(f);
	hello = malloc(hello_size);
	if (!hello || fread(hello, 1, hello_size, f) != hello_size)
		return 1;
	fclose(f);
	(void)jiffy_deadline;
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
