/*
 * vfs_ktest.c - the VFS over ramfs (suite `vfs`, every board, and on the host through
 * tests/host/vfs_test.c): each case mounts a fresh ramfs on /vfs_kt and unmounts it after,
 * which must succeed (every file closed) and give back every inode and page-cache page the
 * case made (nr_inodes, NR_FILE_PAGES as before).  The cases: data round trips (write, read,
 * append, truncate down and up with holes reading as zeros), rename of files and directories
 * (over existing targets, into itself), unlink of an open file, mkdir/rmdir, deep paths,
 * symlinks (relative, absolute, loops, the 40-link limit), hard links, getdents64, ".." across
 * a mount, Linux's errors (ENAMETOOLONG, ENOTDIR, EEXIST, EISDIR, EBADF, EXDEV, EBUSY, EROFS),
 * and the dentry and inode shrinkers freeing unused objects.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/printk.h"
#include "tinymm/shrinker.h"
#include "tinymm/slab.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"
#include "../../fs/internal.h"

#define KT	"/vfs_kt"

static unsigned long kt_inodes, kt_file_pages;

static void kt_setup(struct ktest *t)
{
	int err = vfs_mkdir(KT, 0755);

	KTEST_EXPECT_TRUE(t, err == 0 || err == -EEXIST);
	kt_inodes = nr_inodes;
	kt_file_pages = global_node_page_state(NR_FILE_PAGES);
	KTEST_EXPECT_EQ(t, do_mount("none", KT, "ramfs", 0), 0);
}

static void kt_teardown(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, do_umount(KT), 0);
	KTEST_EXPECT_EQ(t, nr_inodes, kt_inodes);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), kt_file_pages);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT), 0);
}

/* @len bytes of @buf into a new (or truncated) file; 0 or -errno. */
static long put_file(const char *path, const void *buf, size_t len)
{
	struct file *f;
	long err = vfs_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, &f);

	if (err)
		return err;
	err = vfs_write(f, buf, len);
	vfs_close(f);
	return err < 0 ? err : err == (long)len ? 0 : -EIO;
}

/* Up to @len bytes of the file; the count or -errno. */
static long get_file(const char *path, void *buf, size_t len)
{
	struct file *f;
	long n = vfs_open(path, O_RDONLY, 0, &f);

	if (n)
		return n;
	n = vfs_read(f, buf, len);
	vfs_close(f);
	return n;
}

/* An open that should fail: its error, and a file opened by mistake closed again. */
static int try_open(const char *path, unsigned int flags)
{
	struct file *f;
	int err = vfs_open(path, flags, 0644, &f);

	if (!err)
		vfs_close(f);
	return err;
}

static void fill(uint8_t *buf, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 7 + seed + (i >> 8));
}

static unsigned long ino_of(const char *path, bool follow)
{
	struct kstat st;

	return vfs_stat(path, &st, follow) ? 0 : st.ino;
}

static void write_read_append(struct ktest *t)
{
	uint8_t *a = kmalloc(3 * PAGE_SIZE, GFP_KERNEL), *b = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	struct file *f;
	struct kstat st;

	KTEST_ASSERT_TRUE(t, a && b);
	fill(a, 3 * PAGE_SIZE, 1);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/f", O_RDWR | O_CREAT, 0600, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_write(f, a, 5000), 5000L);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, SEEK_SET), 0LL);
	memset(b, 0, 3 * PAGE_SIZE);
	KTEST_EXPECT_EQ(t, vfs_read(f, b, 3 * PAGE_SIZE), 5000L);	/* stops at i_size */
	KTEST_EXPECT_EQ(t, memcmp(a, b, 5000), 0);
	KTEST_EXPECT_EQ(t, vfs_read(f, b, 10), 0L);			/* at the end */
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/f", O_WRONLY | O_APPEND, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_write(f, a + 5000, 3000), 3000L);
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.size, 8000LL);
	KTEST_EXPECT_EQ(t, st.mode, (unsigned int)(S_IFREG | 0600));
	KTEST_EXPECT_EQ(t, vfs_fsync(f), 0);
	vfs_close(f);
	memset(b, 0, 3 * PAGE_SIZE);
	KTEST_EXPECT_EQ(t, get_file(KT "/f", b, 3 * PAGE_SIZE), 8000L);
	KTEST_EXPECT_EQ(t, memcmp(a, b, 8000), 0);
	/* pwrite in the middle leaves f_pos alone; O_TRUNC empties. */
	KTEST_ASSERT_EQ(t, vfs_open(KT "/f", O_RDWR, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_pwrite(f, "xyz", 3, 4095), 3L);
	KTEST_EXPECT_EQ(t, vfs_pread(f, b, 5, 4094), 5L);
	KTEST_EXPECT_EQ(t, memcmp(b + 1, "xyz", 3), 0);
	KTEST_EXPECT_EQ(t, b[0], a[4094]);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 0, SEEK_CUR), 0LL);
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/f", O_RDONLY | O_TRUNC, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.size, 0LL);
	vfs_close(f);
	kfree(a);
	kfree(b);
}

static void truncate_down_and_up(struct ktest *t)
{
	uint8_t *a = kmalloc(3 * PAGE_SIZE, GFP_KERNEL), *b = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	struct file *f;
	struct kstat st;

	KTEST_ASSERT_TRUE(t, a && b);
	memset(a, 0xab, 3 * PAGE_SIZE);
	KTEST_ASSERT_EQ(t, put_file(KT "/t", a, 3 * PAGE_SIZE), 0L);
	KTEST_EXPECT_EQ(t, vfs_truncate(KT "/t", 100), 0);
	KTEST_EXPECT_EQ(t, vfs_truncate(KT "/t", 2 * PAGE_SIZE + 10), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/t", &st, true), 0);
	KTEST_EXPECT_EQ(t, st.size, (loff_t)(2 * PAGE_SIZE + 10));
	memset(b, 0x55, 3 * PAGE_SIZE);
	KTEST_EXPECT_EQ(t, get_file(KT "/t", b, 3 * PAGE_SIZE), (long)(2 * PAGE_SIZE + 10));
	KTEST_EXPECT_EQ(t, memcmp(a, b, 100), 0);
	bool zeros = true;
	for (size_t i = 100; i < 2 * PAGE_SIZE + 10; i++)
		zeros &= b[i] == 0;
	KTEST_EXPECT_TRUE(t, zeros);				/* the old bytes did not come back */
	KTEST_EXPECT_EQ(t, vfs_truncate(KT "/t", -1), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_truncate(KT, 0), -EISDIR);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/t", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_ftruncate(f, 0), -EINVAL);	/* not open for writing */
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/t", O_WRONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_ftruncate(f, 1), 0);
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.size, 1LL);
	vfs_close(f);
	kfree(a);
	kfree(b);
}

static void rename_files_and_dirs(struct ktest *t)
{
	char buf[8] = "";
	unsigned long ino;

	KTEST_ASSERT_EQ(t, put_file(KT "/a", "AAA", 3), 0L);
	KTEST_ASSERT_EQ(t, put_file(KT "/c", "CC", 2), 0L);
	ino = ino_of(KT "/a", false);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/a", KT "/b"), 0);
	KTEST_EXPECT_EQ(t, ino_of(KT "/a", false), 0UL);
	KTEST_EXPECT_EQ(t, ino_of(KT "/b", false), ino);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/b", KT "/c"), 0);		/* over an existing file */
	KTEST_EXPECT_EQ(t, ino_of(KT "/c", false), ino);
	KTEST_EXPECT_EQ(t, get_file(KT "/c", buf, sizeof(buf)), 3L);
	KTEST_EXPECT_EQ(t, memcmp(buf, "AAA", 3), 0);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/nope", KT "/x"), -ENOENT);
	/* Directories: moved with their contents, over an empty one, not over a full one. */
	KTEST_ASSERT_EQ(t, vfs_mkdir(KT "/d1", 0755), 0);
	KTEST_ASSERT_EQ(t, put_file(KT "/d1/f", "F", 1), 0L);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/d1", KT "/d2"), 0);
	KTEST_EXPECT_EQ(t, get_file(KT "/d2/f", buf, sizeof(buf)), 1L);
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/e", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/e", KT "/d2"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/d2", KT "/e"), 0);		/* over an empty directory */
	KTEST_EXPECT_EQ(t, get_file(KT "/e/f", buf, sizeof(buf)), 1L);
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/e/sub", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/e", KT "/e/sub/x"), -EINVAL);	/* into itself */
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/c", KT "/e"), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/e", KT "/c"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/e/sub", KT "/sub"), 0);		/* to another parent */
	struct kstat st;
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/e", &st, false), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 2U);				/* lost "sub"'s ".." */
	KTEST_EXPECT_EQ(t, vfs_stat(KT, &st, false), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 4U);				/* ., its .., e/.., sub/.. */
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/c", KT "/c"), 0);
}

static void unlinked_open_file_lives(struct ktest *t)
{
	struct file *f;
	char buf[8] = "";
	unsigned long before;

	KTEST_ASSERT_EQ(t, put_file(KT "/u", "hello", 5), 0L);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/u", O_RDONLY, 0, &f), 0);
	before = nr_inodes;
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/u"), 0);
	KTEST_EXPECT_EQ(t, ino_of(KT "/u", false), 0UL);
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/u"), -ENOENT);
	KTEST_EXPECT_EQ(t, nr_inodes, before);			/* still there for the open file */
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), 5L);
	KTEST_EXPECT_EQ(t, memcmp(buf, "hello", 5), 0);
	struct kstat st;
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 0U);
	/* The name can be reused meanwhile: a different file. */
	KTEST_EXPECT_EQ(t, put_file(KT "/u", "x", 1), 0L);
	KTEST_EXPECT_NE(t, ino_of(KT "/u", false), st.ino);
	vfs_close(f);
	KTEST_EXPECT_EQ(t, nr_inodes, before);			/* one gone, one made */
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/u"), 0);
	KTEST_EXPECT_EQ(t, nr_inodes, before - 1);
}

static void mkdir_rmdir(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/d", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/d", 0755), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/d/", 0755), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/nope/d", 0755), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_mkdir("/", 0755), -EEXIST);
	KTEST_ASSERT_EQ(t, put_file(KT "/d/f", "1", 1), 0L);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT "/d"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT "/d/f"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT "/d/."), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/d"), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/d/f/"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/d/f"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT "/d/"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT "/d"), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT), -EBUSY);			/* a mountpoint */
}

static void deep_paths(struct ktest *t)
{
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);
	size_t len = strlen(KT);
	char buf[4];

	KTEST_ASSERT_TRUE(t, path != NULL);
	memcpy(path, KT, len + 1);
	for (int i = 0; i < 32; i++) {
		len += (size_t)ksnprintf(path + len, PATH_MAX - len, "/d%d", i);
		KTEST_ASSERT_EQ(t, vfs_mkdir(path, 0755), 0);
	}
	memcpy(path + len, "/f", 3);
	KTEST_EXPECT_EQ(t, put_file(path, "deep", 4), 0L);
	KTEST_EXPECT_EQ(t, get_file(KT "/d0/d1/./d2/../d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/d15/"
				 "d16/d17/d18/d19/d20/d21/d22/d23/d24/d25/d26/d27/d28/d29/d30//d31/f",
				 buf, sizeof(buf)), 4L);
	KTEST_EXPECT_EQ(t, memcmp(buf, "deep", 4), 0);
	/* ".." at "/" stays at "/"; a relative name starts at "/" (no cwd). */
	KTEST_EXPECT_EQ(t, ino_of("/../.." KT "/d0", false), ino_of(KT "/d0", false));
	KTEST_EXPECT_EQ(t, ino_of("vfs_kt/d0", false), ino_of(KT "/d0", false));
	for (int i = 31; i >= 0; i--) {
		path[len] = '\0';
		KTEST_EXPECT_EQ(t, i == 31 ? vfs_unlink(strcat(path, "/f")) : 0, 0);
		path[len] = '\0';
		KTEST_EXPECT_EQ(t, vfs_rmdir(path), 0);
		while (path[len] != '/')
			len--;
		path[len] = '\0';
	}
	kfree(path);
}

static void symlinks(struct ktest *t)
{
	char buf[64] = "", name[32], target[32];

	KTEST_ASSERT_EQ(t, put_file(KT "/file", "data", 4), 0L);
	KTEST_ASSERT_EQ(t, vfs_mkdir(KT "/dir", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink("file", KT "/rel"), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink(KT "/file", KT "/dir/abs"), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink("../file", KT "/dir/up"), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink(KT "/dir", KT "/dl"), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", KT "/rel"), -EEXIST);
	KTEST_EXPECT_EQ(t, get_file(KT "/rel", buf, sizeof(buf)), 4L);
	KTEST_EXPECT_EQ(t, get_file(KT "/dir/abs", buf, sizeof(buf)), 4L);
	KTEST_EXPECT_EQ(t, get_file(KT "/dir/up", buf, sizeof(buf)), 4L);
	KTEST_EXPECT_EQ(t, get_file(KT "/dl/up", buf, sizeof(buf)), 4L);	/* in the middle */
	KTEST_EXPECT_EQ(t, ino_of(KT "/dl/", false), ino_of(KT "/dir", false));	/* '/' follows */
	KTEST_EXPECT_NE(t, ino_of(KT "/dl", false), ino_of(KT "/dir", false));
	KTEST_EXPECT_EQ(t, vfs_readlink(KT "/dir/up", buf, sizeof(buf)), 7);
	KTEST_EXPECT_STREQ(t, buf, "../file");
	KTEST_EXPECT_EQ(t, vfs_readlink(KT "/file", buf, sizeof(buf)), -EINVAL);
	KTEST_EXPECT_EQ(t, try_open(KT "/rel", O_RDONLY | O_NOFOLLOW), -ELOOP);
	KTEST_EXPECT_EQ(t, try_open(KT "/rel/", O_RDONLY), -ENOTDIR);
	/* A loop, and the limit: 40 links followed is fine, the 41st is -ELOOP. */
	KTEST_EXPECT_EQ(t, vfs_symlink("loop2", KT "/loop1"), 0);
	KTEST_EXPECT_EQ(t, vfs_symlink("loop1", KT "/loop2"), 0);
	KTEST_EXPECT_EQ(t, get_file(KT "/loop1", buf, sizeof(buf)), -ELOOP);
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/loop1/x", 0755), -ELOOP);
	for (int i = 1; i <= 41; i++) {
		ksnprintf(name, sizeof(name), KT "/s%d", i);
		if (i == 1)
			ksnprintf(target, sizeof(target), "file");
		else
			ksnprintf(target, sizeof(target), "s%d", i - 1);
		KTEST_ASSERT_EQ(t, vfs_symlink(target, name), 0);
	}
	KTEST_EXPECT_EQ(t, get_file(KT "/s40", buf, sizeof(buf)), 4L);
	KTEST_EXPECT_EQ(t, get_file(KT "/s41", buf, sizeof(buf)), -ELOOP);
	KTEST_EXPECT_EQ(t, vfs_symlink(KT "/s40", KT "/dir/s"), 0);		/* 41 again, nested */
	KTEST_EXPECT_EQ(t, get_file(KT "/dir/s", buf, sizeof(buf)), -ELOOP);
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/dl"), 0);			/* the link, not the dir */
	KTEST_EXPECT_NE(t, ino_of(KT "/dir", false), 0UL);
	/* Dangling: lstat works, stat says ENOENT. */
	KTEST_EXPECT_EQ(t, vfs_symlink("nowhere", KT "/dang"), 0);
	struct kstat st;
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/dang", &st, true), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/dang", &st, false), 0);
	KTEST_EXPECT_TRUE(t, S_ISLNK(st.mode));
	KTEST_EXPECT_EQ(t, st.size, 7LL);
}

static void hard_links(struct ktest *t)
{
	struct kstat st;
	char buf[8];

	KTEST_ASSERT_EQ(t, put_file(KT "/h1", "link", 4), 0L);
	KTEST_ASSERT_EQ(t, vfs_mkdir(KT "/dir", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_link(KT "/h1", KT "/dir/h2"), 0);
	KTEST_EXPECT_EQ(t, vfs_link(KT "/h1", KT "/h3"), 0);
	KTEST_EXPECT_EQ(t, vfs_link(KT "/h1", KT "/h3"), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_link(KT "/dir", KT "/dir2"), -EPERM);
	KTEST_EXPECT_EQ(t, vfs_link(KT "/nope", KT "/x"), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/dir/h2", &st, false), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 3U);
	KTEST_EXPECT_EQ(t, st.ino, ino_of(KT "/h1", false));
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/h1"), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/h3", &st, false), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 2U);
	KTEST_EXPECT_EQ(t, get_file(KT "/dir/h2", buf, sizeof(buf)), 4L);
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/h3", KT "/dir/h2"), 0);	/* the same inode: a no-op */
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/h3", &st, false), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 2U);
}

/* Every name getdents64 gives, with small buffers (several calls), as "name:type," */
static long list_dir(struct ktest *t, const char *path, char *out, size_t outlen, size_t bufsz)
{
	struct file *f;
	char *buf = kmalloc(bufsz, GFP_KERNEL);
	long n, total = 0;

	out[0] = '\0';
	if (!buf || vfs_open(path, O_RDONLY | O_DIRECTORY, 0, &f)) {
		kfree(buf);
		return -1;
	}
	while ((n = vfs_getdents64(f, buf, bufsz)) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			KTEST_EXPECT_EQ(t, d->d_reclen % 8, 0);
			size_t l = strlen(out);
			ksnprintf(out + l, outlen - l, "%s:%u,", d->d_name, d->d_type);
			off += d->d_reclen;
			total++;
		}
	}
	vfs_close(f);
	kfree(buf);
	return n < 0 ? n : total;
}

static void getdents_lists_exactly(struct ktest *t)
{
	char out[512], name[32];
	struct file *f;
	char tiny[16];

	for (int i = 0; i < 12; i++) {
		ksnprintf(name, sizeof(name), KT "/n%d", i);
		KTEST_ASSERT_EQ(t, put_file(name, "", 0), 0L);
	}
	KTEST_ASSERT_EQ(t, vfs_mkdir(KT "/sub", 0755), 0);
	KTEST_ASSERT_EQ(t, vfs_symlink("n0", KT "/ln"), 0);
	KTEST_ASSERT_EQ(t, vfs_unlink(KT "/n5"), 0);
	KTEST_EXPECT_EQ(t, list_dir(t, KT, out, sizeof(out), 64), 15L);	/* 11 + sub + ln + . + .. */
	KTEST_EXPECT_TRUE(t, strstr(out, ".:4,") == out);
	KTEST_EXPECT_TRUE(t, strstr(out, ",..:4,") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "sub:4,") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "ln:10,") != NULL);
	for (int i = 0; i < 12; i++) {
		ksnprintf(name, sizeof(name), ",n%d:8,", i);
		KTEST_EXPECT_EQ(t, strstr(out, name) != NULL, i != 5);
	}
	KTEST_EXPECT_EQ(t, list_dir(t, KT "/sub", out, sizeof(out), 1024), 2L);
	KTEST_EXPECT_STREQ(t, out, ".:4,..:4,");
	KTEST_ASSERT_EQ(t, vfs_open(KT, O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_getdents64(f, tiny, sizeof(tiny)), -EINVAL);	/* not one record */
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/n0", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_getdents64(f, out, sizeof(out)), -ENOTDIR);
	vfs_close(f);
}

static void dotdot_across_mount(struct ktest *t)
{
	char buf[4];

	KTEST_ASSERT_EQ(t, vfs_mkdir(KT "/mnt", 0755), 0);
	KTEST_ASSERT_EQ(t, put_file(KT "/top", "top", 3), 0L);
	KTEST_ASSERT_EQ(t, do_mount("none", KT "/mnt", "ramfs", 0), 0);
	KTEST_ASSERT_EQ(t, put_file(KT "/mnt/in", "in", 2), 0L);
	KTEST_EXPECT_NE(t, ino_of(KT "/mnt", false), 0UL);
	KTEST_EXPECT_EQ(t, ino_of(KT "/mnt/..", false), ino_of(KT, false));
	KTEST_EXPECT_EQ(t, get_file(KT "/mnt/../top", buf, sizeof(buf)), 3L);
	KTEST_EXPECT_EQ(t, get_file(KT "/mnt/../mnt/in", buf, sizeof(buf)), 2L);
	KTEST_EXPECT_EQ(t, get_file(KT "/mnt/./../mnt/./in", buf, sizeof(buf)), 2L);
	/* Across mounts: no rename or link; busy while a file is open or a mount is below. */
	KTEST_EXPECT_EQ(t, vfs_rename(KT "/top", KT "/mnt/top"), -EXDEV);
	KTEST_EXPECT_EQ(t, vfs_link(KT "/top", KT "/mnt/top"), -EXDEV);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT "/mnt"), -EBUSY);
	KTEST_EXPECT_EQ(t, do_mount("none", KT "/mnt", "ramfs", 0), -EBUSY);
	KTEST_EXPECT_EQ(t, do_umount(KT), -EBUSY);			/* a mount below it */
	struct file *f;
	KTEST_ASSERT_EQ(t, vfs_open(KT "/mnt/in", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, do_umount(KT "/mnt"), -EBUSY);
	vfs_close(f);
	KTEST_EXPECT_EQ(t, do_umount(KT "/top"), -EINVAL);		/* not a mount */
	KTEST_EXPECT_EQ(t, do_umount(KT "/mnt"), 0);
	KTEST_EXPECT_EQ(t, ino_of(KT "/mnt/in", false), 0UL);	/* the covered directory again */
	/* Read-only: nothing changes. */
	KTEST_ASSERT_EQ(t, do_mount("none", KT "/mnt", "ramfs", SB_RDONLY), 0);
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/mnt/d", 0755), -EROFS);
	KTEST_EXPECT_EQ(t, try_open(KT "/mnt/f", O_WRONLY | O_CREAT), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", KT "/mnt/l"), -EROFS);
	KTEST_EXPECT_EQ(t, vfs_open(KT "/mnt", O_RDONLY, 0, &f), 0);
	vfs_close(f);
	KTEST_EXPECT_EQ(t, do_umount(KT "/mnt"), 0);
	KTEST_EXPECT_EQ(t, do_mount("none", KT "/mnt", "nosuchfs", 0), -ENODEV);
	KTEST_EXPECT_EQ(t, do_mount("nodev", KT "/mnt", NULL, 0), -ENXIO);
	KTEST_EXPECT_EQ(t, do_mount("none", KT "/top", "ramfs", 0), -ENOTDIR);
}

static void errors(struct ktest *t)
{
	char *p = kmalloc(PATH_MAX + 8, GFP_KERNEL);
	struct file *f;
	char buf[4];

	KTEST_ASSERT_TRUE(t, p != NULL);
	memcpy(p, KT "/", 8);
	memset(p + 8, 'n', 256);
	p[8 + 256] = '\0';
	KTEST_EXPECT_EQ(t, try_open(p, O_RDONLY), -ENAMETOOLONG);	/* a 256-byte name */
	p[8 + 255] = '\0';
	KTEST_EXPECT_EQ(t, try_open(p, O_RDONLY), -ENOENT);		/* 255 is fine */
	KTEST_EXPECT_EQ(t, put_file(p, "", 0), 0L);
	KTEST_EXPECT_EQ(t, vfs_unlink(p), 0);
	for (int i = 0; i < PATH_MAX; i += 2)
		memcpy(p + i, "/.", 2);
	p[PATH_MAX] = '\0';
	KTEST_EXPECT_EQ(t, vfs_mkdir(p, 0755), -ENAMETOOLONG);		/* 4096 bytes + NUL */
	p[PATH_MAX - 2] = '\0';
	KTEST_EXPECT_EQ(t, ino_of(p, false), ino_of("/", false));		/* 4094 is fine */
	kfree(p);
	KTEST_ASSERT_EQ(t, put_file(KT "/f", "abc", 3), 0L);
	KTEST_EXPECT_EQ(t, try_open(KT "/f/x", O_RDONLY), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_mkdir(KT "/f/x", 0755), -ENOTDIR);
	KTEST_EXPECT_EQ(t, try_open(KT "/f/", O_RDONLY), -ENOTDIR);
	KTEST_EXPECT_EQ(t, try_open(KT "/f", O_RDONLY | O_DIRECTORY), -ENOTDIR);
	KTEST_EXPECT_EQ(t, try_open(KT "/f", O_RDWR | O_CREAT | O_EXCL), -EEXIST);
	KTEST_EXPECT_EQ(t, try_open(KT "/g/", O_RDWR | O_CREAT), -EISDIR);
	KTEST_EXPECT_EQ(t, try_open(KT, O_WRONLY), -EISDIR);
	KTEST_EXPECT_EQ(t, try_open(KT, O_RDWR | O_CREAT), -EISDIR);
	KTEST_EXPECT_EQ(t, try_open("", O_RDONLY), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/nope/f", NULL, false), -ENOENT);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/f", O_WRONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 1), -EBADF);
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(KT "/f", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_write(f, buf, 1), -EBADF);
	KTEST_EXPECT_EQ(t, vfs_pwrite(f, buf, 1, 0), -EBADF);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, -1, SEEK_SET), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, -4, SEEK_END), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, -1, SEEK_END), 2LL);
	KTEST_EXPECT_EQ(t, vfs_llseek(f, 1, 7), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 4), 1L);
	KTEST_EXPECT_EQ(t, buf[0], 'c');
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(KT, O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 1), -EISDIR);
	vfs_close(f);
}

static unsigned long count_negative_lookups(int n)
{
	char name[40];
	unsigned long misses = 0;

	for (int i = 0; i < n; i++) {
		ksnprintf(name, sizeof(name), KT "/missing%d", i);
		misses += ino_of(name, false) == 0;
	}
	return misses;
}

static void dcache_shrinker_frees_unused(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, count_negative_lookups(64), 64UL);	/* 64 negative dentries cached */
	unsigned long unused = nr_dentry_unused, total = nr_dentry;
	KTEST_EXPECT_GE(t, unused, 64UL);
	KTEST_EXPECT_GE(t, dcache_shrinker.count_objects(&dcache_shrinker, &(struct shrink_control){0}),
			64UL);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);			/* priority 0: all of it */
	KTEST_EXPECT_EQ(t, nr_dentry_unused, 0UL);
	KTEST_EXPECT_LE(t, nr_dentry + unused, total);
	/* Nothing that is in use went: the files are all still there, the misses still miss. */
	KTEST_EXPECT_EQ(t, count_negative_lookups(64), 64UL);
	KTEST_EXPECT_NE(t, ino_of(KT, false), 0UL);
}

static void icache_shrinker_frees_unused(struct ktest *t)
{
	struct path p;
	struct inode *inode;

	KTEST_ASSERT_EQ(t, kern_path(KT, 0, &p), 0);
	struct super_block *sb = p.dentry->d_sb;
	unsigned long before = nr_inodes;
	/* Clean linked inodes with no user stay cached, unused (as a disk filesystem's do). */
	for (unsigned long ino = 1000000; ino < 1000016; ino++) {
		inode = iget_locked(sb, ino);
		KTEST_ASSERT_TRUE(t, inode && (inode->i_state & I_NEW));
		inode->i_mode = S_IFREG;
		unlock_new_inode(inode);
		iput(inode);
	}
	KTEST_EXPECT_EQ(t, nr_inodes, before + 16);
	KTEST_EXPECT_GE(t, nr_inodes_unused, 16UL);
	inode = iget_locked(sb, 1000003);			/* a hit: not new */
	KTEST_ASSERT_TRUE(t, inode != NULL);
	KTEST_EXPECT_FALSE(t, inode->i_state & I_NEW);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KTEST_EXPECT_EQ(t, nr_inodes, before + 1);		/* all but the one in use */
	iput(inode);
	KTEST_EXPECT_EQ(t, nr_inodes, before + 1);
	inode = iget_locked(sb, 1000005);			/* freed: read in afresh */
	KTEST_ASSERT_TRUE(t, inode != NULL);
	KTEST_EXPECT_TRUE(t, inode->i_state & I_NEW);
	iget_failed(inode);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KTEST_EXPECT_EQ(t, nr_inodes, before);
	path_put(&p);
}

/* What tests/fuzz/ext2_fuzz.c found, on any filesystem: a failed lookup in a directory must
 * not keep it alive past rmdir (its inode went only at umount, after the sync: ext2 left it
 * allocated on disk), and Linux's errors in Linux's order for link and open(O_CREAT). */
static void found_by_the_ext2_fuzzer(struct ktest *t)
{
	struct kstat st;

	KTEST_ASSERT_EQ(t, vfs_mkdir(KT "/d", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(KT "/d/nothing", &st, true), -ENOENT);	/* a negative child */
	unsigned long before = nr_inodes;
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT "/d"), 0);
	KTEST_EXPECT_EQ(t, nr_inodes, before - 1);		/* evicted now, not at umount */

	KTEST_ASSERT_EQ(t, vfs_mkdir(KT "/e", 0755), 0);
	KTEST_ASSERT_EQ(t, put_file(KT "/f", "x", 1), 0);
	KTEST_EXPECT_EQ(t, vfs_link(KT "/e", KT "/f"), -EEXIST);	/* the new name first */
	KTEST_EXPECT_EQ(t, vfs_link(KT "/e", KT "/g"), -EPERM);
	KTEST_ASSERT_EQ(t, vfs_symlink("f", KT "/l"), 0);
	KTEST_EXPECT_EQ(t, try_open(KT "/l/", O_WRONLY | O_CREAT), -EISDIR);	/* not ENOTDIR */
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/l"), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(KT "/f"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(KT "/e"), 0);
}

#define VFS_CASE(fn)								\
	static void fn##_case(struct ktest *t) { kt_setup(t); fn(t); kt_teardown(t); }
VFS_CASE(write_read_append)
VFS_CASE(truncate_down_and_up)
VFS_CASE(rename_files_and_dirs)
VFS_CASE(unlinked_open_file_lives)
VFS_CASE(mkdir_rmdir)
VFS_CASE(deep_paths)
VFS_CASE(symlinks)
VFS_CASE(hard_links)
VFS_CASE(getdents_lists_exactly)
VFS_CASE(dotdot_across_mount)
VFS_CASE(errors)
VFS_CASE(dcache_shrinker_frees_unused)
VFS_CASE(icache_shrinker_frees_unused)
VFS_CASE(found_by_the_ext2_fuzzer)

static const struct ktest_case vfs_cases[] = {
	{ "write_read_append", write_read_append_case },
	{ "truncate_down_and_up", truncate_down_and_up_case },
	{ "rename_files_and_dirs", rename_files_and_dirs_case },
	{ "unlinked_open_file_lives", unlinked_open_file_lives_case },
	{ "mkdir_rmdir", mkdir_rmdir_case },
	{ "deep_paths", deep_paths_case },
	{ "symlinks", symlinks_case },
	{ "hard_links", hard_links_case },
	{ "getdents_lists_exactly", getdents_lists_exactly_case },
	{ "dotdot_across_mount", dotdot_across_mount_case },
	{ "errors", errors_case },
	{ "dcache_shrinker_frees_unused", dcache_shrinker_frees_unused_case },
	{ "icache_shrinker_frees_unused", icache_shrinker_frees_unused_case },
	{ "found_by_the_ext2_fuzzer", found_by_the_ext2_fuzzer_case },
	{}
};
KTEST_SUITE(vfs, vfs_cases);
