/*
 * file.h - a task's open files: the fd table (fs/file.c, Linux's fs/file.c and
 * include/linux/fdtable.h, reduced) and the references an open file counts.
 *
 *   alloc_files_for_task(tsk)  give @tsk (a new user task, tsk->files NULL) a fresh table with
 *                          fds 0, 1, 2 open on the console (read: console input, may block;
 *                          write: straight to the console, no printk prefix).  0 or -ENOMEM.
 *                          The exec path calls it once, before the task first runs.
 *   exit_files(tsk)        drop every fd and pinned file of @tsk and free the table
 *                          (kernel/exit.c calls it from do_exit when tsk->files is set).
 *   fdget(fd)              current's file at @fd with a reference (NULL: not open, -EBADF);
 *                          fput() it when done.  Holding the reference keeps the file alive
 *                          across a concurrent close (none today: one thread per process).
 *   get_file(f) / fput(f)  one more / one less reference: the last fput closes the file
 *                          (vfs_close: ->release, the path dropped).
 *   fd_install_new(file, flags)  the lowest free fd of current now holds @file (the caller's
 *                          reference moves into the table): the fd, or -EMFILE.
 *   close_fd(fd)           0 or -EBADF.
 *   files_pin(file)        keep a reference until the task exits: a file mapped with mmap
 *                          (below).  0 or -ENOMEM.
 *
 * Where tinymm differs from v6.10, and why: the table is a fixed array of NR_OPEN_DEFAULT (64)
 * slots (v6.10 starts with 64 and grows to RLIMIT_NOFILE); no RCU, one lock (file_lock) per
 * table; O_CLOEXEC is accepted and recorded but nothing execs over a running task yet.  A
 * file mapping holds its struct file through the table's pin list until exit, besides the
 * area's own reference (v6.10's vma->vm_file, mm/rmap_file.c), so a file mapped and then
 * closed stays open until the task ends (the pin list keeps each file once).
 */
#ifndef TINYMM_FILE_H
#define TINYMM_FILE_H

#include "kernel.h"
#include "spinlock.h"

struct file;
struct task_struct;

#define NR_OPEN_DEFAULT	64		/* v6.10's BITS_PER_LONG fds at first; here the limit */

struct files_struct {
	spinlock_t file_lock;			/* the slots and the pin list */
	struct file *fd[NR_OPEN_DEFAULT];
	unsigned long long close_on_exec;	/* bit per fd (O_CLOEXEC) */
	struct file **pinned;			/* files kept for mappings (files_pin) */
	int nr_pinned, pinned_cap;
};

int alloc_files_for_task(struct task_struct *tsk);
void exit_files(struct task_struct *tsk);
/* fork (include/tinymm/fork.h): a copy of @tsk's table, and freeing one that was never used. */
struct files_struct *dup_fd(struct task_struct *tsk, int *err);
void free_files_struct(struct files_struct *files);

struct file *fdget(int fd);
struct file *get_file(struct file *file);
void fput(struct file *file);
int fd_install_new(struct file *file, unsigned int flags);
int close_fd(int fd);
int files_pin(struct file *file);

/* The console as a struct file (fs/file.c): what fds 0-2 of a new task are. */
struct file *console_file_open(unsigned int flags);

#endif
