/*
 * fs_cmd.c - the shell's file commands over the VFS (docs/vfs.md): mount, umount, ls, cat,
 * stat, mkdir, rm, rmdir, mv, ln, truncate, df, fsync, fwrite, sha256sum.  Each is a thin
 * caller of the vfs_* functions; a failure is one line naming the command, the path and the
 * errno name (`ls: /nope: ENOENT`), and the status 1 (2 for a usage error).
 * Times print as UTC "YYYY-MM-DD HH:MM:SS" (coreutils' long-iso style, with seconds).
 */
#include <limits.h>
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/console.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/printk.h"
#include "tinymm/sha256.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "internal.h"

/* The errno's name without its sign ("ENOENT"), or its number if errname has none. */
static const char *ename(int err, char *buf, size_t len)
{
	const char *name = errname(err < 0 ? -err : err);

	if (name)
		return name;
	ksnprintf(buf, len, "errno %d", err < 0 ? -err : err);
	return buf;
}

static int fail(const char *cmd, const char *path, int err)
{
	char b[16];

	kprintf("%s: %s: %s\n", cmd, path, ename(err, b, sizeof(b)));
	return 1;
}

/* Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil, inverted). */
static void fmt_time(char *out, size_t len, int64_t t)
{
	int64_t days = t >= 0 ? t / 86400 : (t - 86399) / 86400, secs = t - days * 86400;
	int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	unsigned d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
	int64_t y = (int64_t)yoe + era * 400 + (m <= 2);

	ksnprintf(out, len, "%04lld-%02u-%02u %02u:%02u:%02u", (long long)y, m, d,
		  (unsigned)(secs / 3600), (unsigned)(secs / 60 % 60), (unsigned)(secs % 60));
}

static void fmt_mode(char *out, unsigned int mode)
{
	static const char types[16] = { [S_IFDIR >> 12] = 'd', [S_IFLNK >> 12] = 'l',
		[S_IFREG >> 12] = '-', [S_IFCHR >> 12] = 'c', [S_IFBLK >> 12] = 'b',
		[S_IFIFO >> 12] = 'p', [S_IFSOCK >> 12] = 's' };
	const char *rwx = "rwxrwxrwx";

	out[0] = types[(mode >> 12) & 15] ? types[(mode >> 12) & 15] : '?';
	for (int i = 0; i < 9; i++)
		out[1 + i] = (mode & (0400 >> i)) ? rwx[i] : '-';
	out[10] = '\0';
}

/* Where @m is mounted, as a path from "/" into @buf (vfs_lock held). */
static const char *mnt_path(struct vfsmount *m, char *buf, size_t len)
{
	struct vfsmount *mnt = m->mnt_parent;
	struct dentry *d = m->mnt_mountpoint;
	size_t pos = len - 1;

	buf[pos] = '\0';
	while (mnt != m || d != m->mnt_root) {
		if (d == mnt->mnt_root) {
			if (mnt->mnt_parent == mnt)
				break;			/* the root mount's root */
			d = mnt->mnt_mountpoint;
			mnt = mnt->mnt_parent;
			continue;
		}
		if (d->d_name.len + 1 > pos)
			break;
		pos -= d->d_name.len;
		memcpy(buf + pos, d->d_name.name, d->d_name.len);
		buf[--pos] = '/';
		d = d->d_parent;
	}
	if (!buf[pos])
		buf[--pos] = '/';
	return buf + pos;
}

/* `mount` lists; `mount [-t type] <dev> <dir> [ro]` mounts (no -t: the type is probed). */
static int cmd_mount(int argc, char **argv)
{
	const char *type = NULL;
	unsigned long flags = 0;
	struct vfsmount *m;
	int err;

	if (argc == 1) {
		mutex_lock(&vfs_lock);
		list_for_each_entry(m, &vfs_mounts, mnt_list) {
			char where[128];
			/* /proc/mounts' columns. */
			kprintf("%s %s %s %s 0 0\n", m->mnt_devname, mnt_path(m, where, sizeof(where)),
				m->mnt_sb->s_type->name, sb_rdonly(m->mnt_sb) ? "ro" : "rw");
		}
		mutex_unlock(&vfs_lock);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "-t")) {
		type = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc == 4 && !strcmp(argv[3], "ro"))
		flags |= SB_RDONLY;
	else if (argc != 3)
		return shell_usage_error("mount", "usage: mount [-t <type>] <dev> <dir> [ro]");
	err = do_mount(argv[1], argv[2], type, flags);
	if (err == -ENXIO)
		return fail("mount", argv[1], err);
	if (err == -ENODEV)
		return fail("mount", type, err);
	return err ? fail("mount", argv[2], err) : 0;
}
SHELL_COMMAND(mount, "[[-t <type>] <dev> <dir> [ro]]",
	      "list mounts, or mount <dev> (\"none\" for ramfs) on <dir>; the type probed without -t",
	      cmd_mount);

static int cmd_umount(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage_error("umount", "usage: umount <dir>");
	int err = do_umount(argv[1]);
	return err ? fail("umount", argv[1], err) : 0;
}
SHELL_COMMAND(umount, "<dir>", "unmount the filesystem mounted on <dir> (synced first)", cmd_umount);

static void ls_long(const char *path, const char *name)
{
	struct kstat st;
	char mode[11], when[24], target[128];

	if (vfs_stat(path, &st, false)) {
		kprintf("%s\n", name);
		return;
	}
	fmt_mode(mode, st.mode);
	fmt_time(when, sizeof(when), st.mtime.tv_sec);
	kprintf("%s %2u %u %u %8lld %s %s", mode, st.nlink, st.uid, st.gid, (long long)st.size,
		when, name);
	if (S_ISLNK(st.mode) && vfs_readlink(path, target, sizeof(target)) >= 0)
		kprintf(" -> %s", target);
	kprintf("\n");
}

/* Names are sorted (bytewise, as `LC_ALL=C ls`), "." and ".." left out as ls does. */
static int ls_dir(const char *path, struct file *f, bool lng)
{
	size_t cap = 4096, used = 0, n = 0;
	char *names = kmalloc(cap, GFP_KERNEL), *buf = kmalloc(1024, GFP_KERNEL);
	long got = 0;
	int ret = 0;

	while (names && buf && (got = vfs_getdents64(f, buf, 1024)) > 0) {
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			size_t len = strlen(d->d_name) + 1;

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (used + len > cap) {
				char *bigger = kmalloc(cap * 2, GFP_KERNEL);
				if (!bigger)
					goto nomem;
				memcpy(bigger, names, used);
				kfree(names);
				names = bigger;
				cap *= 2;
			}
			memcpy(names + used, d->d_name, len);
			used += len;
			n++;
		}
	}
	if (!names || !buf)
		goto nomem;
	if (got < 0) {
		ret = fail("ls", path, (int)got);
		goto out;
	}
	const char **v = kmalloc((n ? n : 1) * sizeof(*v), GFP_KERNEL);
	if (!v)
		goto nomem;
	const char *p = names;
	for (size_t i = 0; i < n; i++, p += strlen(p) + 1) {
		size_t j = i;				/* insertion sort: directories are small */
		while (j && strcmp(v[j - 1], p) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = p;
	}
	char *full = kmalloc(PATH_MAX, GFP_KERNEL);
	for (size_t i = 0; i < n; i++) {
		if (lng && full) {
			size_t pl = strlen(path);
			ksnprintf(full, PATH_MAX, "%s%s%s", path, pl && path[pl - 1] == '/' ? "" : "/", v[i]);
			ls_long(full, v[i]);
		} else {
			kprintf("%s\n", v[i]);
		}
	}
	kfree(full);
	kfree(v);
	goto out;
nomem:
	ret = fail("ls", path, -ENOMEM);
out:
	kfree(names);
	kfree(buf);
	return ret;
}

static int cmd_ls(int argc, char **argv)
{
	bool lng = argc >= 2 && !strcmp(argv[1], "-l");
	const char *path = argc > 1 + lng ? argv[1 + lng] : "/";
	struct kstat st;
	struct file *f;
	int err;

	if (argc > 2 + lng)
		return shell_usage_error("ls", "usage: ls [-l] [path]");
	err = vfs_stat(path, &st, true);
	if (err == -ENOENT && !vfs_stat(path, &st, false))
		err = 0;				/* a dangling symlink is listed */
	if (err)
		return fail("ls", path, err);
	if (!S_ISDIR(st.mode)) {
		if (lng)
			ls_long(path, path);
		else
			kprintf("%s\n", path);
		return 0;
	}
	err = vfs_open(path, O_RDONLY | O_DIRECTORY, 0, &f);
	if (err)
		return fail("ls", path, err);
	int ret = ls_dir(path, f, lng);
	vfs_close(f);
	return ret;
}
SHELL_COMMAND(ls, "[-l] [path]", "list a directory (sorted, without . and ..), or name a file", cmd_ls);

/* Read @path in PAGE_SIZE chunks, each handed to @fn; 0 or the command's status. */
static int read_file(const char *cmd, const char *path, void (*fn)(void *ctx, const char *buf, long n),
		     void *ctx)
{
	struct file *f;
	int err = vfs_open(path, O_RDONLY, 0, &f);
	long n;

	if (err)
		return fail(cmd, path, err);
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf) {
		vfs_close(f);
		return fail(cmd, path, -ENOMEM);
	}
	while ((n = vfs_read(f, buf, PAGE_SIZE)) > 0)
		fn(ctx, buf, n);
	kfree(buf);
	vfs_close(f);
	return n < 0 ? fail(cmd, path, (int)n) : 0;
}

static void cat_chunk(void *ctx, const char *buf, long n)
{
	console_write(buf, (size_t)n);
}

static int cmd_cat(int argc, char **argv)
{
	int ret = 0;

	if (argc < 2)
		return shell_usage_error("cat", "usage: cat <path>...");
	for (int i = 1; i < argc; i++)
		ret |= read_file("cat", argv[i], cat_chunk, NULL);
	return ret;
}
SHELL_COMMAND(cat, "<path>...", "print files", cmd_cat);

static void sha_chunk(void *ctx, const char *buf, long n)
{
	sha256_update(ctx, buf, (size_t)n);
}

static int cmd_sha256sum(int argc, char **argv)
{
	int ret = 0;

	if (argc < 2)
		return shell_usage_error("sha256sum", "usage: sha256sum <path>...");
	for (int i = 1; i < argc; i++) {
		struct sha256_ctx c;
		uint8_t digest[SHA256_DIGEST_SIZE];
		char hex[2 * SHA256_DIGEST_SIZE + 1];

		sha256_init(&c);
		if (read_file("sha256sum", argv[i], sha_chunk, &c)) {
			ret = 1;
			continue;
		}
		sha256_final(&c, digest);
		sha256_hex(digest, hex);
		kprintf("%s  %s\n", hex, argv[i]);
	}
	return ret;
}
SHELL_COMMAND(sha256sum, "<path>...", "SHA-256 of files, as coreutils prints it", cmd_sha256sum);

static const char *type_name(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "regular file";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symbolic link";
	case S_IFCHR: return "character special file";
	case S_IFBLK: return "block special file";
	case S_IFIFO: return "fifo";
	default: return "socket";
	}
}

static int cmd_stat(int argc, char **argv)
{
	struct kstat st;
	char mode[11], a[24], m[24], c[24];

	if (argc != 2)
		return shell_usage_error("stat", "usage: stat <path>");
	int err = vfs_stat(argv[1], &st, false);
	if (err)
		return fail("stat", argv[1], err);
	fmt_mode(mode, st.mode);
	fmt_time(a, sizeof(a), st.atime.tv_sec);
	fmt_time(m, sizeof(m), st.mtime.tv_sec);
	fmt_time(c, sizeof(c), st.ctime.tv_sec);
	kprintf("  File: %s\n", argv[1]);
	kprintf("  Size: %-10lld\tBlocks: %-10llu IO Block: %-6u %s\n", (long long)st.size,
		(unsigned long long)st.blocks, st.blksize, type_name(st.mode));
	kprintf("Device: %s\tInode: %-11lu Links: %u\n", st.dev, st.ino, st.nlink);
	kprintf("Access: (%04o/%s)  Uid: (%5u)   Gid: (%5u)\n", st.mode & 07777, mode, st.uid, st.gid);
	kprintf("Access: %s.%09ld\nModify: %s.%09ld\nChange: %s.%09ld\n", a, st.atime.tv_nsec,
		m, st.mtime.tv_nsec, c, st.ctime.tv_nsec);
	return 0;
}
SHELL_COMMAND(stat, "<path>", "a file's inode: size, blocks, links, mode, times", cmd_stat);

/* One path argument or more, each through @op; "<cmd>: <path>: <ERR>" per failure. */
static int each_path(int argc, char **argv, int (*op)(const char *path), const char *usage)
{
	int ret = 0;

	if (argc < 2)
		return shell_usage_error(argv[0], usage);
	for (int i = 1; i < argc; i++) {
		int err = op(argv[i]);
		if (err)
			ret = fail(argv[0], argv[i], err);
	}
	return ret;
}

static int mkdir_0755(const char *path)
{
	return vfs_mkdir(path, 0755);
}

static int cmd_mkdir(int argc, char **argv)
{
	return each_path(argc, argv, mkdir_0755, "usage: mkdir <path>...");
}
SHELL_COMMAND(mkdir, "<path>...", "make directories", cmd_mkdir);

static int cmd_rm(int argc, char **argv)
{
	return each_path(argc, argv, vfs_unlink, "usage: rm <path>...");
}
SHELL_COMMAND(rm, "<path>...", "remove files (unlink)", cmd_rm);

static int cmd_rmdir(int argc, char **argv)
{
	return each_path(argc, argv, vfs_rmdir, "usage: rmdir <path>...");
}
SHELL_COMMAND(rmdir, "<path>...", "remove empty directories", cmd_rmdir);

static int cmd_mv(int argc, char **argv)
{
	if (argc != 3)
		return shell_usage_error("mv", "usage: mv <old> <new>");
	int err = vfs_rename(argv[1], argv[2]);
	return err ? fail("mv", argv[1], err) : 0;
}
SHELL_COMMAND(mv, "<old> <new>", "rename (replacing <new> if it exists)", cmd_mv);

static int cmd_ln(int argc, char **argv)
{
	bool sym = argc == 4 && !strcmp(argv[1], "-s");

	if (argc != 3 + sym)
		return shell_usage_error("ln", "usage: ln [-s] <target> <link>");
	int err = sym ? vfs_symlink(argv[2], argv[3]) : vfs_link(argv[1], argv[2]);
	return err ? fail("ln", argv[2 + sym], err) : 0;
}
SHELL_COMMAND(ln, "[-s] <target> <link>", "a hard link, or with -s a symbolic one", cmd_ln);

static int cmd_truncate(int argc, char **argv)
{
	unsigned long long size;

	if (argc != 3)
		return shell_usage_error("truncate", "usage: truncate <path> <size>");
	if (kstrtoull(argv[2], &size) || size > LLONG_MAX) {
		kprintf("truncate: invalid size '%s'\n", argv[2]);
		return 2;
	}
	int err = vfs_truncate(argv[1], (loff_t)size);
	return err ? fail("truncate", argv[1], err) : 0;
}
SHELL_COMMAND(truncate, "<path> <size>", "set a file's size (shrink, or grow with a hole)", cmd_truncate);

/* df: coreutils' 1K-blocks columns. */
static int cmd_df(int argc, char **argv)
{
	struct vfsmount *m;
	int ret = 0;

	if (shell_no_args(argc, argv))
		return 2;
	kprintf("Filesystem     1K-blocks      Used Available Use%% Mounted on\n");
	mutex_lock(&vfs_lock);
	list_for_each_entry(m, &vfs_mounts, mnt_list) {
		struct super_block *sb = m->mnt_sb;
		struct kstatfs st = { 0 };
		char where[128];
		const char *on = mnt_path(m, where, sizeof(where));

		/* statfs under vfs_lock would let a filesystem call back into it: copy the sb's
		 * pointer and drop the lock for the call (mounts change only from this shell). */
		mutex_unlock(&vfs_lock);
		int err = sb->s_op && sb->s_op->statfs ? sb->s_op->statfs(sb, &st) : -ENOSYS;
		mutex_lock(&vfs_lock);
		if (err) {
			char b[16];
			kprintf("df: %s: %s\n", on, ename(err, b, sizeof(b)));
			ret = 1;
			continue;
		}
		uint64_t k = st.f_bsize / 1024 ? st.f_bsize / 1024 : 1;
		uint64_t total = st.f_blocks * k, avail = st.f_bavail * k, used = (st.f_blocks - st.f_bfree) * k;
		unsigned pct = used + avail ? (unsigned)((used * 100 + used + avail - 1) / (used + avail)) : 0;
		kprintf("%-14s %9llu %9llu %9llu %3u%% %s\n", m->mnt_devname, (unsigned long long)total,
			(unsigned long long)used, (unsigned long long)avail, pct, on);
	}
	mutex_unlock(&vfs_lock);
	return ret;
}
SHELL_COMMAND(df, "", "space on every mounted filesystem (1K blocks)", cmd_df);

static int cmd_fsync(int argc, char **argv)
{
	struct file *f;

	if (argc != 2)
		return shell_usage_error("fsync", "usage: fsync <path>");
	int err = vfs_open(argv[1], O_RDONLY, 0, &f);
	if (err)
		return fail("fsync", argv[1], err);
	err = vfs_fsync(f);
	vfs_close(f);
	return err ? fail("fsync", argv[1], err) : 0;
}
SHELL_COMMAND(fsync, "<path>", "write a file's data and inode to the disk and flush it", cmd_fsync);

/* `fwrite <path> <offset> <length> <seed>`: `blk write`'s stream into a file (created 0644). */
static int cmd_fwrite(int argc, char **argv)
{
	unsigned long long off, len, seed;
	struct wgen g;
	struct file *f;

	if (argc != 5)
		return shell_usage_error("fwrite", "usage: fwrite <path> <offset> <length> <seed>");
	if (kstrtoull(argv[2], &off) || kstrtoull(argv[3], &len) || kstrtoull(argv[4], &seed) ||
	    off > LLONG_MAX || len > LLONG_MAX - off) {
		kprintf("fwrite: invalid number in '%s %s %s'\n", argv[2], argv[3], argv[4]);
		return 2;
	}
	int err = vfs_open(argv[1], O_WRONLY | O_CREAT, 0644, &f);
	if (err)
		return fail("fwrite", argv[1], err);
	uint8_t *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf) {
		vfs_close(f);
		return fail("fwrite", argv[1], -ENOMEM);
	}
	wgen_init(&g, seed);
	while (len && !err) {
		size_t n = (size_t)min(len, (unsigned long long)PAGE_SIZE);
		for (size_t i = 0; i < n; i++)
			buf[i] = wgen_byte(&g);
		long w = vfs_pwrite(f, buf, n, (loff_t)off);
		if (w < 0)
			err = (int)w;
		else if ((size_t)w < n)
			err = -ENOSPC;			/* a short write: the disk is full */
		off += n;
		len -= n;
	}
	kfree(buf);
	vfs_close(f);
	return err ? fail("fwrite", argv[1], err) : 0;
}
SHELL_COMMAND(fwrite, "<path> <offset> <length> <seed>",
	      "write `blk write`'s xorshift64* stream into a file (created if missing)", cmd_fwrite);
