/*
 * exec.h - running a program: fs/exec.c (the arguments, the switch to the new mm) and
 * fs/binfmt_elf.c (the ELF loader), Linux v6.10's fs/exec.c and fs/binfmt_elf.c reduced;
 * docs/binfmt_elf.md has the layout, docs/user.md the rest.
 *
 *   kernel_execve(path, argv, envp)   kernel strings (the shell, user_task_spawn): the current
 *                  task becomes the program; 0 (return to user mode with arch_ret_to_user()),
 *                  or -errno with the task and its mm unchanged
 *   sys_execve(filename, argv, envp)  the same from user pointers; 0 (the registers are the
 *                  new program's) or -errno (-EFAULT for a bad pointer, -E2BIG)
 *   load_elf_binary(bprm)             a new mm with the program mapped and its stack built;
 *                  nothing is switched (exec_mmap does that)
 *   exec_strerror(err)                Linux's strerror() words for the errors exec returns
 *
 * Errors: -ENOENT (no such file), -EACCES (a directory, not a regular file, no x bit),
 * -ENOEXEC (not an executable for this kernel: the reason is printed in one line),
 * -E2BIG (arguments over EXEC_ARGS_MAX or one string over MAX_ARG_STRLEN), -ENOMEM,
 * -ENOSYS (the architecture has no user mode yet).  A failed exec leaves nothing mapped.
 * Locking: may sleep; takes the new mm's mmap_lock.
 */
#ifndef TINYMM_EXEC_H
#define TINYMM_EXEC_H

#include "binfmts.h"
#include "kernel.h"
#include "pgtable.h"
#include "uaccess.h"

/* v6.10's MAX_ARG_STRLEN: one argument or environment string, with its NUL. */
#define MAX_ARG_STRLEN		(32 * PAGE_SIZE)
/* The whole of argv and envp: strings and their pointers (v6.10: a quarter of the stack
 * rlimit; here a quarter of the fixed-size stack). */
#define EXEC_ARGS_MAX		(64 * 1024UL)
/* The stack area: fixed, at the top of user space; a fault below it is SIGSEGV. */
#define EXEC_STACK_SIZE		(256 * 1024UL)
/* AT_RANDOM's bytes. */
#define EXEC_RANDOM_BYTES	16

/* The auxiliary vector's types (v6.10's include/uapi/linux/auxvec.h), the ones exec gives. */
#define AT_NULL		0
#define AT_PHDR		3
#define AT_PHENT	4
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_BASE		7
#define AT_FLAGS	8
#define AT_ENTRY	9
#define AT_UID		11
#define AT_EUID		12
#define AT_GID		13
#define AT_EGID		14
#define AT_CLKTCK	17
#define AT_SECURE	23
#define AT_RANDOM	25
#define AT_EXECFN	31
#define EXEC_AUXV_ENTRIES	16	/* (type, value) pairs, AT_NULL included */

struct file;
struct mm_struct;

/* The argument and environment strings, copied into the kernel: argv's strings, then envp's,
 * each with its NUL, in one buffer. */
struct exec_args {
	char *buf;
	size_t len, size;
	int argc, envc;
};

struct linux_binprm {
	const char *filename;		/* as the caller named it (AT_EXECFN, the top string) */
	struct file *file;		/* open; the loader moves it into mm->exe_file */
	struct exec_args args;
	struct mm_struct *mm;		/* the new address space, once loaded */
	struct elf_image img;
	unsigned long p;		/* the initial stack pointer */
	unsigned long entry;
	char why[160];			/* ENOEXEC's reason */
};

struct task_struct;
/* kernel/user_task.c: a new task running the program @path (kernel_execve in a new kernel
 * thread, then user mode); NULL with *@err set if the exec failed (the thread is gone then).
 * The caller owns the handle: kthread_join() gives the wait status (W_EXITCODE, or the
 * killing signal), kthread_detach() lets it go. */
struct task_struct *user_task_spawn(const char *path, const char *const argv[],
				    const char *const envp[], int *err);

int kernel_execve(const char *filename, const char *const argv[], const char *const envp[]);
long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp);
int load_elf_binary(struct linux_binprm *bprm);
const char *exec_strerror(int err);
/* kernel/sched_show.c: @mm's size and resident memory in kB (`ps`'s VSZ, RSS); 0 for NULL.  Takes
 * page_table_lock; callable with interrupts masked (ps's snapshot). */
void task_mm_usage(struct mm_struct *mm, unsigned long *vsz_kb, unsigned long *rss_kb);
/* fs/task_mmu.c: the /proc/PID/pagemap entry of @addr in @mm (v6.10's PM_* bits below), and
 * in *@anon_exclusive the page's PG_anon_exclusive (`pagemap`'s anon-exclusive field); the
 * caller holds mm->mmap_lock. */
#define PM_PFRAME_MASK		((1ULL << 55) - 1)
#define PM_SOFT_DIRTY		(1ULL << 55)
#define PM_MMAP_EXCLUSIVE	(1ULL << 56)
#define PM_FILE			(1ULL << 61)
#define PM_SWAP			(1ULL << 62)
#define PM_PRESENT		(1ULL << 63)
uint64_t pagemap_entry(struct mm_struct *mm, unsigned long addr, bool *anon_exclusive);

#endif
