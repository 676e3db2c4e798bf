/*
 * exec.c - execve: the arguments copied in, the file opened and checked, the loader
 * (fs/binfmt_elf.c) building a new mm, then the switch to it (include/tinymm/exec.h).
 * Linux v6.10's fs/exec.c, reduced.
 *
 * Where tinymm differs from v6.10, and why: v6.10 switches to the new mm (exec_mmap) at a
 * "point of no return" and kills the task if the rest fails; here the loader builds the whole
 * new mm, stack included, before the switch, writing its pages through the kernel's mapping as
 * v6.10's get_arg_page() writes the argument pages, so a failed exec leaves the task and its
 * old mm exactly as they were and frees everything it made.  One loader (ELF), no
 * credentials (an executable needs some x bit in its mode), no "#!" scripts.
 * Locking: may sleep; nothing held across the switch but interrupts masked around it.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/file.h"
#include "tinymm/irqflags.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/syscalls.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"

const char *exec_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case ENOENT:	return "No such file or directory";
	case EACCES:	return "Permission denied";
	case ENOEXEC:	return "Exec format error";
	case E2BIG:	return "Argument list too long";
	case ENOMEM:	return "Cannot allocate memory";
	case EFAULT:	return "Bad address";
	case ENOTDIR:	return "Not a directory";
	case ENAMETOOLONG: return "File name too long";
	case ELOOP:	return "Too many levels of symbolic links";
	case EIO:	return "Input/output error";
	case ENOSYS:	return "Function not implemented";
	default:	return "Unknown error";
	}
}

/* The caps: one string (with its NUL) at most MAX_ARG_STRLEN, everything (strings and the
 * pointers the stack will hold) at most EXEC_ARGS_MAX. */
static int args_check(const struct exec_args *a, size_t len)
{
	size_t words = (size_t)(a->argc + a->envc + 3) * sizeof(unsigned long);

	return len > MAX_ARG_STRLEN || a->len + len + words > EXEC_ARGS_MAX ? -E2BIG : 0;
}

/* Room for at least @len more bytes in the buffer. */
static int args_grow(struct exec_args *a, size_t len)
{
	size_t size = a->size ? a->size : 256;
	char *buf;

	if (a->len + len <= a->size)
		return 0;
	while (size < a->len + len)
		size *= 2;
	buf = krealloc(a->buf, size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	a->buf = buf;
	a->size = size;
	return 0;
}

static int args_add_kernel(struct exec_args *a, const char *s)
{
	size_t len = strlen(s) + 1;
	int err = args_check(a, len);

	if (!err)
		err = args_grow(a, len);
	if (err)
		return err;
	memcpy(a->buf + a->len, s, len);
	a->len += len;
	return 0;
}

/* One user string: strncpy_from_user into the buffer, MAX_ARG_STRLEN at most (v6.10's
 * copy_strings() measures it with strnlen_user first; one copy does both here). */
static int args_add_user(struct exec_args *a, const char __user *s)
{
	size_t room;
	long n;
	int err = args_grow(a, 256);

	for (;;) {
		if (err)
			return err;
		room = a->size - a->len;
		if (room > MAX_ARG_STRLEN)
			room = MAX_ARG_STRLEN;
		n = strncpy_from_user(a->buf + a->len, s, (long)room);
		if (n < 0)
			return (int)n;
		if ((size_t)n < room)
			break;
		if (room == MAX_ARG_STRLEN)	/* no NUL within the limit */
			return -E2BIG;
		err = args_grow(a, 2 * room);
	}
	err = args_check(a, (size_t)n + 1);
	if (err)
		return err;
	a->len += (size_t)n + 1;
	return 0;
}

/* v6.10's user_arg_ptr: a NULL-terminated array of string pointers, kernel or user. */
static int args_copy(struct exec_args *a, const void *vec, bool user, int *count)
{
	for (int i = 0; vec; i++) {
		const char *s;
		int err;

		if (user) {
			const char __user *const __user *uv = vec;

			if (get_user(s, uv + i))
				return -EFAULT;
		} else {
			s = ((const char *const *)vec)[i];
		}
		if (!s)
			break;
		err = user ? args_add_user(a, s) : args_add_kernel(a, s);
		if (err)
			return err;
		(*count)++;
		if (a->argc + a->envc > (int)(EXEC_ARGS_MAX / sizeof(unsigned long)))
			return -E2BIG;
	}
	return 0;
}

/* v6.10's open_exec() + the permission checks of may_open()/do_open_execat(). */
static int open_exec(const char *name, struct file **filep)
{
	struct file *file;
	unsigned int mode;
	int err = vfs_open(name, O_RDONLY, 0, &file);

	if (err)
		return err == -EISDIR ? -EACCES : err;
	mode = file->f_inode->i_mode;
	if (!S_ISREG(mode) || !(mode & 0111)) {
		vfs_close(file);
		return -EACCES;
	}
	*filep = file;
	return 0;
}

/* v6.10's exec_mmap(): the task's user half becomes @mm; the old mm is released after the
 * switch away from it (mmput() must never free the active mm). */
static void exec_mmap(struct mm_struct *mm)
{
	struct task_struct *tsk = current;
	struct mm_struct *old = tsk->mm;
	unsigned long flags;

	local_irq_save(flags);
	tsk->mm = mm;
	tsk->flags &= ~PF_KTHREAD;	/* a user task now (v6.10's user_mode_thread has none) */
	switch_mm(active_mm, mm);
	active_mm = mm;
	local_irq_restore(flags);
	if (old)
		mmput(old);
}

/* v6.10's do_close_on_exec(): the fds opened with O_CLOEXEC do not survive a successful exec.
 * One thread per process: nobody else changes the table meanwhile. */
static void do_close_on_exec(struct files_struct *files)
{
	if (!files)
		return;
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (READ_ONCE(files->close_on_exec) & (1ULL << fd))
			close_fd(fd);
}

/* v6.10's __set_task_comm(tsk, kbasename(filename)). */
static void set_comm_basename(struct task_struct *tsk, const char *filename)
{
	const char *base = strrchr(filename, '/');

	ksnprintf(tsk->comm, sizeof(tsk->comm), "%s", base ? base + 1 : filename);
}

static int do_execve(const char *filename, struct exec_args *args)
{
	struct linux_binprm *bprm;
	struct pt_regs *regs = current_pt_regs();
	int err;

	bprm = kzalloc(sizeof(*bprm), GFP_KERNEL);
	if (!bprm)
		return -ENOMEM;
	bprm->filename = filename;
	bprm->args = *args;
	err = open_exec(filename, &bprm->file);
	if (!err)
		err = load_elf_binary(bprm);
	if (err == -ENOEXEC && bprm->why[0])
		printk(KERN_ERR "exec: %s: %s\n", filename, bprm->why);
	if (bprm->file)			/* not taken over by a new mm */
		vfs_close(bprm->file);
	if (!err && !regs) {		/* the architecture has no user mode yet (user_task.c) */
		mmput(bprm->mm);
		err = -ENOSYS;
	}
	if (!err) {
		exec_mmap(bprm->mm);
		do_close_on_exec(current->files);
		set_comm_basename(current, filename);
		start_thread(regs, bprm->entry, bprm->p);
	}
	kfree(bprm);
	return err;
}

int kernel_execve(const char *filename, const char *const argv[], const char *const envp[])
{
	struct exec_args args = { 0 };
	int err = args_copy(&args, argv, false, &args.argc);

	if (!err)
		err = args_copy(&args, envp, false, &args.envc);
	if (!err)
		err = do_execve(filename, &args);
	kfree(args.buf);
	return err;
}

long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp)
{
	struct exec_args args = { 0 };
	char *name = kmalloc(PATH_MAX, GFP_KERNEL);
	long n;
	int err;

	if (!name)
		return -ENOMEM;
	n = strncpy_from_user(name, filename, PATH_MAX);
	if (n < 0)
		err = (int)n;
	else if (n == PATH_MAX)
		err = -ENAMETOOLONG;
	else if (n == 0)
		err = -ENOENT;			/* v6.10: an empty path without AT_EMPTY_PATH */
	else
		err = args_copy(&args, argv, true, &args.argc);
	if (!err)
		err = args_copy(&args, envp, true, &args.envc);
	if (!err)
		err = do_execve(name, &args);
	kfree(args.buf);
	kfree(name);
	return err;
}
