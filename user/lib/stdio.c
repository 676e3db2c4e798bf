/*
 * stdio.c - stdin, stdout and stderr for picolibc's stdio ("tinystdio", which Debian builds):
 * FILEs whose put/get/flush functions call read(2) and write(2) on fds 0, 1 and 2.
 *
 * Output is line-buffered (a newline, a full buffer, fflush() or exit() writes it), so a line
 * reaches the console in one write(2): one system call per line instead of per character, and
 * two programs' lines do not interleave mid-line.  A program about to crash on purpose has
 * already written its last line.  A failed write marks the stream in error (ferror()), with
 * errno from the call.  Locking: none (one thread per program).
 */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include "runtime.h"

struct fd_file {
	FILE file;		/* first: picolibc hands the put/flush functions this pointer */
	int fd;
	size_t len;
	char buf[256];
};

static int fd_flush(FILE *f)
{
	struct fd_file *ff = (struct fd_file *)f;
	size_t done = 0;

	while (done < ff->len) {
		ssize_t n = write(ff->fd, ff->buf + done, ff->len - done);

		if (n <= 0) {
			ff->len = 0;
			return EOF;
		}
		done += (size_t)n;
	}
	ff->len = 0;
	return 0;
}

static int fd_put(char c, FILE *f)
{
	struct fd_file *ff = (struct fd_file *)f;

	ff->buf[ff->len++] = c;
	if ((c == '\n' || ff->len == sizeof(ff->buf)) && fd_flush(f))
		return _FDEV_ERR;
	return (unsigned char)c;
}

static int fd_get(FILE *f)
{
	struct fd_file *ff = (struct fd_file *)f;
	unsigned char c;
	ssize_t n = read(ff->fd, &c, 1);

	if (n < 0)
		return _FDEV_ERR;
	if (n == 0)
		return _FDEV_EOF;
	return c;
}

static struct fd_file in_file = { FDEV_SETUP_STREAM(NULL, fd_get, NULL, _FDEV_SETUP_READ), 0, 0, "" };
static struct fd_file out_file = { FDEV_SETUP_STREAM(fd_put, NULL, fd_flush, _FDEV_SETUP_WRITE), 1, 0, "" };
static struct fd_file err_file = { FDEV_SETUP_STREAM(fd_put, NULL, fd_flush, _FDEV_SETUP_WRITE), 2, 0, "" };

FILE *const stdin = &in_file.file;
FILE *const stdout = &out_file.file;
FILE *const stderr = &err_file.file;

/* Registered with atexit() by the start code: what is still buffered reaches the fd. */
void __tinymm_stdio_exit(void)
{
	fflush(stdout);
	fflush(stderr);
}
