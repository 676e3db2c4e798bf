/*
 * filetest - the file exerciser (docs/syscalls.md): the file system calls on a directory the
 * caller names, checked byte for byte, leaving files the host can check on the disk image.
 *
 *   filetest <dir>          (e.g. /mnt on the rootfs)
 *
 * Under <dir>/filetest (created; it must not exist yet) it: writes `data` in uneven pieces
 * and reads it back whole and at seeks (SEEK_SET, SEEK_CUR, SEEK_END); appends ten lines to
 * `log` with O_APPEND from two opens; writes `trunc`, truncates it down and up (the tail reads
 * as zeros) and renames it `renamed`; checks fstat and stat sizes; lists the directory with
 * getdents64 (exactly the names expected); unlinks a file (then ENOENT), makes and removes a
 * subdirectory (rmdir of a non-empty one is ENOTEMPTY); fsyncs every file it keeps.
 * It leaves, for the host's `e2fsck -fn` and `debugfs -R "dump ..."`:
 *   <dir>/filetest/data     66659 bytes, byte i = (i * 131 + 7) & 0xff
 *   <dir>/filetest/log      "line 0\n" ... "line 9\n" (70 bytes)
 *   <dir>/filetest/renamed  8192 bytes: bytes 0-2999 = (i * 7 + 1) & 0xff, then zeros
 * Exit 0 when everything was exact, 1 at the first mismatch (one line saying which), 2 for
 * a wrong argument.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tinymm_user.h"

#define DATA_SIZE	66659
#define TRUNC_KEEP	3000
#define TRUNC_SIZE	8192

static char dir[256];
static unsigned char buf[DATA_SIZE + 4096], want[DATA_SIZE + 4096];

static void fail(const char *what)
{
	printf("filetest: FAIL: %s (errno %d)\n", what, errno);
	exit(1);
}

static const char *path(const char *name)
{
	static char p[2][320];
	static int which;

	which ^= 1;
	snprintf(p[which], sizeof(p[which]), "%s/%s", dir, name);
	return p[which];
}

static unsigned char data_byte(size_t i)
{
	return (unsigned char)((i * 131 + 7) & 0xff);
}

static void write_all(int fd, const void *p, size_t len)
{
	if (write(fd, p, len) != (ssize_t)len)
		fail("write");
}

static void read_exact(int fd, void *p, size_t len)
{
	if (read(fd, p, len) != (ssize_t)len)
		fail("read");
}

static off_t file_size(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		fail("fstat");
	return st.st_size;
}

static void test_data(void)
{
	static const size_t pieces[] = { 1, 4095, 4096, 4097, 10000, 123, 20000 };
	size_t at = 0;
	int fd = open(path("data"), O_CREAT | O_EXCL | O_RDWR, 0644);

	if (fd < 0)
		fail("open data O_CREAT|O_EXCL");
	for (size_t i = 0; i < DATA_SIZE; i++)
		want[i] = data_byte(i);
	for (unsigned int i = 0; at < DATA_SIZE; i++) {
		size_t n = pieces[i % (sizeof(pieces) / sizeof(pieces[0]))];

		if (n > DATA_SIZE - at)
			n = DATA_SIZE - at;
		write_all(fd, want + at, n);
		at += n;
	}
	if (lseek(fd, 0, SEEK_CUR) != DATA_SIZE || file_size(fd) != DATA_SIZE)
		fail("data: position or size after the writes");
	if (lseek(fd, 0, SEEK_SET) != 0)
		fail("lseek SEEK_SET 0");
	memset(buf, 0, sizeof(buf));
	if (read(fd, buf, sizeof(buf)) != DATA_SIZE || memcmp(buf, want, DATA_SIZE))
		fail("data: read back whole");
	if (read(fd, buf, 10) != 0)
		fail("data: read at the end is not 0");
	if (lseek(fd, 5000, SEEK_SET) != 5000)
		fail("lseek SEEK_SET 5000");
	read_exact(fd, buf, 100);
	if (memcmp(buf, want + 5000, 100))
		fail("data: read at 5000");
	if (lseek(fd, -1100, SEEK_CUR) != 4000)
		fail("lseek SEEK_CUR -1100");
	read_exact(fd, buf, 10);
	if (memcmp(buf, want + 4000, 10))
		fail("data: read at 4000");
	if (lseek(fd, -59, SEEK_END) != DATA_SIZE - 59)
		fail("lseek SEEK_END -59");
	if (read(fd, buf, 4096) != 59 || memcmp(buf, want + DATA_SIZE - 59, 59))
		fail("data: short read at the end");
	if (lseek(fd, -1, SEEK_SET) != -1 || errno != EINVAL)
		fail("lseek to -1: want EINVAL");
	if (fsync(fd) || close(fd))
		fail("data: fsync, close");
	if (open(path("data"), O_CREAT | O_EXCL | O_RDWR, 0644) >= 0 || errno != EEXIST)
		fail("O_EXCL on an existing file: want EEXIST");
	printf("filetest: data %d bytes written in pieces, read back, seeks: ok\n", DATA_SIZE);
}

static void test_log(void)
{
	int a = open(path("log"), O_CREAT | O_WRONLY | O_APPEND, 0644);
	int b = open(path("log"), O_WRONLY | O_APPEND);
	char line[16];
	size_t len = 0;

	if (a < 0 || b < 0)
		fail("open log O_APPEND");
	for (int i = 0; i < 10; i++) {
		int n = snprintf(line, sizeof(line), "line %d\n", i);

		write_all(i % 2 ? b : a, line, (size_t)n);
		memcpy(want + len, line, (size_t)n);
		len += (size_t)n;
	}
	if (fsync(a) || close(a) || close(b))
		fail("log: fsync, close");
	a = open(path("log"), O_RDONLY);
	if (a < 0 || read(a, buf, sizeof(buf)) != (ssize_t)len || memcmp(buf, want, len))
		fail("log: the appended lines");
	if (write(a, "x", 1) != -1 || errno != EBADF)
		fail("write to an O_RDONLY fd: want EBADF");
	close(a);
	printf("filetest: log 10 lines appended from two opens: ok\n");
}

static void test_trunc(void)
{
	int fd = open(path("trunc"), O_CREAT | O_TRUNC | O_RDWR, 0600);

	if (fd < 0)
		fail("open trunc");
	for (size_t i = 0; i < 10000; i++)
		want[i] = (unsigned char)((i * 7 + 1) & 0xff);
	write_all(fd, want, 10000);
	if (ftruncate(fd, TRUNC_KEEP) || file_size(fd) != TRUNC_KEEP)
		fail("ftruncate down to 3000");
	if (ftruncate(fd, TRUNC_SIZE) || file_size(fd) != TRUNC_SIZE)
		fail("ftruncate up to 8192");
	if (lseek(fd, 0, SEEK_SET) != 0 || read(fd, buf, sizeof(buf)) != TRUNC_SIZE)
		fail("trunc: read back");
	memset(want + TRUNC_KEEP, 0, TRUNC_SIZE - TRUNC_KEEP);
	if (memcmp(buf, want, TRUNC_SIZE))
		fail("trunc: the kept bytes, then zeros");
	if (ftruncate(fd, -1) == 0 || errno != EINVAL)
		fail("ftruncate -1: want EINVAL");
	if (fsync(fd) || close(fd))
		fail("trunc: fsync, close");
	if (rename(path("trunc"), path("renamed")))
		fail("rename trunc renamed");
	if (open(path("trunc"), O_RDONLY) >= 0 || errno != ENOENT)
		fail("the old name after rename: want ENOENT");
	struct stat st;
	if (stat(path("renamed"), &st) || st.st_size != TRUNC_SIZE || !S_ISREG(st.st_mode))
		fail("stat renamed");
	printf("filetest: trunc down to %d, up to %d, renamed: ok\n", TRUNC_KEEP, TRUNC_SIZE);
}

static void test_dirs(void)
{
	int fd = open(path("gone"), O_CREAT | O_WRONLY, 0644);

	if (fd < 0 || write(fd, "bye", 3) != 3 || close(fd))
		fail("create gone");
	if (unlink(path("gone")))
		fail("unlink gone");
	if (open(path("gone"), O_RDONLY) >= 0 || errno != ENOENT)
		fail("an unlinked file: want ENOENT");
	if (mkdir(path("sub"), 0755))
		fail("mkdir sub");
	if (mkdir(path("sub"), 0755) == 0 || errno != EEXIST)
		fail("mkdir an existing directory: want EEXIST");
	fd = open(path("sub/f"), O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || close(fd))
		fail("create sub/f");
	if (rmdir(path("sub")) == 0 || errno != ENOTEMPTY)
		fail("rmdir a non-empty directory: want ENOTEMPTY");
	if (unlink(path("sub")) == 0 || errno != EISDIR)
		fail("unlink a directory: want EISDIR");
	if (unlink(path("sub/f")) || rmdir(path("sub")))
		fail("remove sub/f and sub");
	if (open(path("sub"), O_RDONLY) >= 0 || errno != ENOENT)
		fail("a removed directory: want ENOENT");

	/* getdents64 lists exactly ., .., data, log, renamed. */
	static const char *const names[] = { ".", "..", "data", "log", "renamed" };
	unsigned int seen = 0, count = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		fail("open the directory");
	for (;;) {
		ssize_t n = getdents64(fd, buf, 512);	/* small: several calls */

		if (n < 0)
			fail("getdents64");
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			unsigned int i;

			for (i = 0; i < 5 && strcmp(d->d_name, names[i]); i++)
				;
			if (i == 5) {
				printf("filetest: unexpected entry %s\n", d->d_name);
				fail("getdents64: an entry not made here");
			}
			if (i >= 2 && d->d_type != DT_REG)
				fail("getdents64: d_type of a file");
			seen |= 1U << i;
			count++;
			off += d->d_reclen;
		}
	}
	if (seen != 0x1f || count != 5)
		fail("getdents64: not exactly the five names");
	if (fsync(fd) || close(fd))
		fail("directory fsync, close");
	if (open(dir, O_RDWR) >= 0 || errno != EISDIR)
		fail("a directory opened for writing: want EISDIR");
	printf("filetest: unlink, mkdir, rmdir, getdents64 lists the five names: ok\n");
}

int main(int argc, char **argv)
{
	if (argc != 2 || snprintf(dir, sizeof(dir), "%s/filetest", argv[1]) >= (int)sizeof(dir)) {
		printf("usage: filetest <dir>\n");
		return 2;
	}
	if (mkdir(dir, 0755))
		fail("mkdir <dir>/filetest (it must not exist)");
	test_data();
	test_log();
	test_trunc();
	test_dirs();
	printf("filetest: all ok, left %s/data, log, renamed\n", dir);
	return 0;
}
