/*
 * file.c - a task's open files (include/tinymm/file.h): the fd table, the references an open
 * file counts, and the console as a file for fds 0, 1 and 2 (Linux's fs/file.c, reduced; the
 * console stands in for a tty without a line discipline).
 *
 * Invariants: a non-NULL slot holds one reference to its file (f_count); the pin list holds
 *   one reference per file, each file at most once; a table belongs to one task (tsk->files),
 *   freed by exit_files() after the task's mm is gone (kernel/exit.c), so no mapping still
 *   refers to a pinned file by then.
 * Locking: files->file_lock (a spinlock) around the slots and the pin list; the last fput runs
 *   outside it (vfs_close may sleep).  One thread per process: only the task itself changes
 *   its table, the lock keeps the shell's readers (ps) and a later clone() honest.
 * Where tinymm differs from v6.10: file.h says (fixed table, pins for mappings).  The console
 *   file has no line discipline: no echo, no line editing; a read blocks for the first byte
 *   and returns what has arrived with it, up to the length.
 */
#include <string.h>
#include "tinymm/console.h"
#include "tinymm/errno.h"
#include "tinymm/file.h"
#include "tinymm/irqflags.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/vfs.h"
#include "internal.h"

/* ---- the console as a file ---- */

static long console_file_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
	char *p = buf;
	size_t n = 0;
	int c;

	(void)file;
	(void)pos;
	if (!len)
		return 0;
	c = console_getc_wait();
	if (c < 0)
		return 0;			/* the host shim's end of input */
	p[n++] = (char)c;
	while (n < len && (c = console_getc()) >= 0)
		p[n++] = (char)c;
	return (long)n;
}

static long console_file_write(struct file *file, const void *buf, size_t len, loff_t *pos)
{
	(void)file;
	(void)pos;
	/* One chunk at once, as vkprintf does a line: a task's line is not cut by a kernel one. */
	console_write_atomic(buf, len);
	return (long)len;
}

static const struct file_operations console_fops = {
	.read = console_file_read,
	.write = console_file_write,
};

/* One inode for every console file: a character device (Linux's /dev/console is 5:1). */
static struct inode console_inode = {
	.i_mode = S_IFCHR | 0620,
	.i_nlink = 1,
	.i_fop = &console_fops,
};

struct file *console_file_open(unsigned int flags)
{
	struct file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	if (!file)
		return NULL;
	file->f_inode = &console_inode;
	file->f_op = &console_fops;
	file->f_flags = flags;
	mutex_init(&file->f_pos_lock);
	atomic_set(&file->f_count, 1);
	mutex_lock(&vfs_lock);
	console_inode.i_openers++;
	mutex_unlock(&vfs_lock);
	return file;
}

/* ---- references ---- */

struct file *get_file(struct file *file)
{
	atomic_inc(&file->f_count);
	return file;
}

void fput(struct file *file)
{
	vfs_close(file);
}

/* ---- the table ---- */

int alloc_files_for_task(struct task_struct *tsk)
{
	struct files_struct *files = kzalloc(sizeof(*files), GFP_KERNEL);
	struct file *con;

	if (!files)
		return -ENOMEM;
	spin_lock_init(&files->file_lock);
	con = console_file_open(O_RDWR);
	if (!con) {
		kfree(files);
		return -ENOMEM;
	}
	/* One open file behind 0, 1 and 2, as a shell's dup2 of the tty leaves them. */
	files->fd[0] = con;
	files->fd[1] = get_file(con);
	files->fd[2] = get_file(con);
	tsk->files = files;
	return 0;
}

/* The table and every reference it holds (the slots' and the pins'). */
static void put_files_struct(struct files_struct *files)
{
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (files->fd[fd])
			fput(files->fd[fd]);
	for (int i = 0; i < files->nr_pinned; i++)
		fput(files->pinned[i]);
	kfree(files->pinned);
	kfree(files);
}

void exit_files(struct task_struct *tsk)
{
	struct files_struct *files = tsk->files;

	if (!files)
		return;
	tsk->files = NULL;
	put_files_struct(files);
}

/*
 * fork's copy of @tsk's table (v6.10's dup_fd, include/tinymm/fork.h): the same files behind
 * the same fds (one more reference each: parent and child share each open file and its
 * position, as Linux's), the same close-on-exec bits, and the same pins, since the child's mm
 * is a copy of the parent's, file-backed areas included.  NULL and -ENOMEM, nothing taken.
 */
struct files_struct *dup_fd(struct task_struct *tsk, int *err)
{
	struct files_struct *old = tsk->files, *files = kzalloc(sizeof(*files), GFP_KERNEL);
	struct file **pinned = NULL;
	int cap;

	*err = -ENOMEM;
	if (!files)
		return NULL;
	spin_lock_init(&files->file_lock);
	if (!old) {
		*err = 0;
		return files;
	}
	/* The pin array first, outside the lock (kmalloc may sleep); only this task changes its
	 * own table, so the count read here stays right. */
	cap = READ_ONCE(old->nr_pinned);
	if (cap) {
		pinned = kmalloc((size_t)cap * sizeof(*pinned), GFP_KERNEL);
		if (!pinned) {
			kfree(files);
			return NULL;
		}
	}
	spin_lock(&old->file_lock);
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (old->fd[fd])
			files->fd[fd] = get_file(old->fd[fd]);
	files->close_on_exec = old->close_on_exec;
	for (int i = 0; i < old->nr_pinned && i < cap; i++)
		pinned[files->nr_pinned++] = get_file(old->pinned[i]);
	spin_unlock(&old->file_lock);
	files->pinned = pinned;
	files->pinned_cap = cap;
	*err = 0;
	return files;
}

void free_files_struct(struct files_struct *files)
{
	if (files)
		put_files_struct(files);
}

struct file *fdget(int fd)
{
	struct files_struct *files = current->files;
	struct file *file = NULL;

	if (!files || fd < 0 || fd >= NR_OPEN_DEFAULT)
		return NULL;
	spin_lock(&files->file_lock);
	if (files->fd[fd])
		file = get_file(files->fd[fd]);
	spin_unlock(&files->file_lock);
	return file;
}

int fd_install_new(struct file *file, unsigned int flags)
{
	struct files_struct *files = current->files;
	int fd = -EMFILE;

	if (!files)
		return -EMFILE;
	spin_lock(&files->file_lock);
	for (int i = 0; i < NR_OPEN_DEFAULT; i++) {
		if (!files->fd[i]) {
			files->fd[i] = file;
			if (flags & O_CLOEXEC)
				files->close_on_exec |= 1ULL << i;
			else
				files->close_on_exec &= ~(1ULL << i);
			fd = i;
			break;
		}
	}
	spin_unlock(&files->file_lock);
	return fd;
}

int close_fd(int fd)
{
	struct files_struct *files = current->files;
	struct file *file = NULL;

	if (!files || fd < 0 || fd >= NR_OPEN_DEFAULT)
		return -EBADF;
	spin_lock(&files->file_lock);
	file = files->fd[fd];
	files->fd[fd] = NULL;
	files->close_on_exec &= ~(1ULL << fd);
	spin_unlock(&files->file_lock);
	if (!file)
		return -EBADF;
	fput(file);
	return 0;
}

int files_pin(struct file *file)
{
	struct files_struct *files = current->files;
	struct file **grown, **old;
	int cap;

	if (!files)
		return -EINVAL;
	spin_lock(&files->file_lock);
	for (int i = 0; i < files->nr_pinned; i++) {
		if (files->pinned[i] == file) {
			spin_unlock(&files->file_lock);
			return 0;
		}
	}
	if (files->nr_pinned < files->pinned_cap) {
		files->pinned[files->nr_pinned++] = get_file(file);
		spin_unlock(&files->file_lock);
		return 0;
	}
	cap = files->pinned_cap ? 2 * files->pinned_cap : 8;
	spin_unlock(&files->file_lock);
	/* Grown outside the lock (kmalloc may sleep); only the task itself adds pins. */
	grown = kcalloc((size_t)cap, sizeof(*grown), GFP_KERNEL);
	if (!grown)
		return -ENOMEM;
	spin_lock(&files->file_lock);
	if (files->nr_pinned)
		memcpy(grown, files->pinned, (size_t)files->nr_pinned * sizeof(*grown));
	old = files->pinned;
	files->pinned = grown;
	files->pinned_cap = cap;
	files->pinned[files->nr_pinned++] = get_file(file);
	spin_unlock(&files->file_lock);
	kfree(old);
	return 0;
}
