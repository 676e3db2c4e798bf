/*
 * ext2_fuzz_ops.c - the ext2 fuzzer's operations (ext2_fuzz.c's header says how they are
 * decoded): each runs through the VFS's kernel functions on the mounted image and is judged.
 * On a clean image (r->modelled) its result must be the model's (ext2_fuzz_model.c) - an
 * error where Linux allows several in some order (rename), any of them - and a success is
 * applied to the model; on a patched one it must be a success or one of the errors
 * allowed[] gives the operation, and the model (used only to name paths) follows the
 * successes as well as it can.
 */
#include <stdio.h>
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/errname.h"
#include "tinymm/vfs.h"
#include "../../fs/internal.h"
#include "ext2_fuzz.h"

enum op { OP_STAT, OP_LSTAT, OP_READ, OP_READDIR, OP_WRITE, OP_APPEND, OP_TRUNCATE, OP_UNLINK,
	  OP_MKDIR, OP_RMDIR, OP_RENAME, OP_LINK, OP_SYMLINK, OP_READLINK, OP_HELD, OP_REMOUNT,
	  NR_OPS };
static const char *const op_name[NR_OPS] = { "stat", "lstat", "read", "getdents64", "write",
	"append", "truncate", "unlink", "mkdir", "rmdir", "rename", "link", "symlink", "readlink",
	"open/read/close", "umount+mount" };

/* What a patched image may answer besides success: the walk's errors, a corruption found
 * (EUCLEAN, ext2's EFSCORRUPTED) or a block it could not read (EIO), and per operation Linux's
 * errors for what the walk found there (EXDEV: MNT itself is a name in the root ramfs; EROFS:
 * a read-only mount, asked for or forced by a feature tinymm lacks).  ENOMEM never: nothing
 * the disk says should make the kernel run out of memory. */
#define WALK	ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG, EIO, EUCLEAN
static const int allowed[NR_OPS][16] = {
	[OP_STAT] = { WALK },
	[OP_LSTAT] = { WALK },
	[OP_READ] = { WALK, EISDIR },
	[OP_READDIR] = { WALK },
	[OP_WRITE] = { WALK, EISDIR, ENOSPC, EFBIG, EROFS },
	[OP_APPEND] = { WALK, EISDIR, ENOSPC, EFBIG, EROFS },
	[OP_TRUNCATE] = { WALK, EISDIR, EFBIG, EROFS, ENOSPC },
	[OP_UNLINK] = { WALK, EISDIR, EBUSY, EROFS },
	[OP_MKDIR] = { WALK, EEXIST, ENOSPC, EMLINK, EROFS },
	[OP_RMDIR] = { WALK, ENOTEMPTY, EBUSY, EINVAL, EROFS },
	[OP_RENAME] = { WALK, ENOTEMPTY, EISDIR, EINVAL, EBUSY, EMLINK, ENOSPC, EROFS, EXDEV },
	[OP_LINK] = { WALK, EEXIST, EPERM, EMLINK, ENOSPC, EROFS, EXDEV },
	[OP_SYMLINK] = { WALK, EEXIST, ENOSPC, EROFS },
	[OP_READLINK] = { WALK, EINVAL },
	[OP_HELD] = { WALK, EISDIR, EROFS },
	[OP_REMOUNT] = { EINVAL, EUCLEAN, EIO, EOPNOTSUPP },
};

static bool in(int err, const int *set, size_t n)
{
	for (size_t i = 0; i < n && set[i]; i++)
		if (set[i] == err)
			return true;
	return false;
}

/* A full disk is the one error the model cannot foresee: ENOSPC passes where few blocks (64
 * beyond the reserved ones, which ext2 keeps back) or no inodes are left. */
static bool nearly_full(void)
{
	struct kstatfs st;

	return !vfs_statfs(MNT, &st) && (st.f_bavail < 64 || !st.f_ffree);
}

/* Judge @got (0 / a count, or -errno).  Modelled: @want is the model's result (a count or
 * 0 on success) and @alt (up to 3, 0-terminated) other errors Linux could give first. */
static void judge(struct run *r, enum op op, long got, long want, const int *alt)
{
	if (!r->modelled) {
		if (got < 0 && !in((int)-got, allowed[op], 16))
			FAILF("%s: %s is not an error this operation may give", r->why, errname((int)-got));
		return;
	}
	if (got == want)
		return;
	if (got == -ENOSPC && op >= OP_WRITE && op <= OP_SYMLINK && nearly_full())
		return;			/* and the model is left as it was */
	/* Read-only: where Linux checks the mount against the other errors varies by call. */
	if (r->rdonly && got == -EROFS && want < 0 && op >= OP_WRITE && op <= OP_SYMLINK)
		return;
	if (want < 0 && got < 0 && alt && in((int)-got, alt, 3))
		return;
	FAILF("%s: got %ld (%s), the model says %ld (%s)", r->why, got, got < 0 ? errname((int)-got) : "",
	      want, want < 0 ? errname((int)-want) : "");
}

/* ---- paths ---- */

static int pick_ent(struct run *r, struct input *in)
{
	int k = (int)byte(in), n = m_nents(r->m);

	if (!n)
		return -1;
	k %= n;
	for (int i = 0; i < MAX_ENTS; i++)
		if (r->m->e[i].live && k-- == 0)
			return i;
	return -1;
}

/* A path: most often a name the model has, else a new name in one of its directories, else
 * one of a few odd ones (through symlinks, a loop, a trailing slash, a name too long). */
static void pick_path(struct run *r, struct input *in, char *buf, size_t len)
{
	static const char *const odd[] = { MNT, MNT "/link", MNT "/slowlink", MNT "/loop1",
		MNT "/loop1/x", MNT "/hello.txt/x", MNT "/nope/x", MNT "/manydir/", MNT "/hello.txt/",
		MNT "/a/b/../b/c/deep.txt", MNT "/link/", MNT "/empty/." };
	unsigned int k = byte(in) % 10;
	int e;

	if (k < 6 && (e = pick_ent(r, in)) >= 0) {
		m_path(r->m, e, buf, len);
	} else if (k < 9) {
		unsigned int name = byte(in);
		e = pick_ent(r, in);
		char dir[4096] = MNT;
		if (e >= 0 && r->m->n[r->m->e[e].node].type == M_DIR && name & 8)
			m_path(r->m, e, dir, sizeof(dir));
		snprintf(buf, len, "%s/n%u", dir, name % 8);
	} else {
		unsigned int o = byte(in) % (sizeof(odd) / sizeof(odd[0]) + 1);
		if (o < sizeof(odd) / sizeof(odd[0])) {
			snprintf(buf, len, "%s", odd[o]);
		} else {
			snprintf(buf, len, MNT "/");
			memset(buf + 5, 'x', 256);	/* one byte over NAME_MAX */
			buf[5 + 256] = '\0';
		}
	}
}

/* The bytes of a write: from @seed, so two writes differ. */
static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
}

/* ---- the model's answers ---- */

/* Open of @path for a write (O_CREAT unless @nocreate): the node, created if missing, or -errno. */
static int m_open_write(struct run *r, const char *path, bool create, int *node)
{
	struct mres w;

	if (create && path[strlen(path) - 1] == '/')	/* v6.10's open_last_lookups() */
		return m_walk(r->m, path, WALK_PARENT, &w) ? w.err : -EISDIR;
	if (m_walk(r->m, path, WALK_FOLLOW, &w))
		return w.err;
	if (w.node < 0 && create) {
		/* O_CREAT through a dangling symlink: ENOENT (docs/vfs.md: v6.10 makes the target) */
		struct mres l;
		if (!m_walk(r->m, path, WALK_NOFOLLOW, &l) && l.node >= 0 && r->m->n[l.node].type == M_LNK)
			return -ENOENT;
	}
	if (w.node < 0) {
		if (!create)
			return -ENOENT;
		if (w.dir < 0)
			return -ENOENT;
		if (r->rdonly)
			return -EROFS;
		*node = -1;		/* created by the caller on success */
		return 0;
	}
	if (r->m->n[w.node].type == M_DIR)
		return -EISDIR;
	if (r->rdonly)
		return -EROFS;
	*node = w.node;
	return 0;
}

static int m_create_file(struct run *r, const char *path)
{
	struct mres w;

	m_walk(r->m, path, WALK_FOLLOW, &w);
	int node = m_new_node(r->m, M_REG, w.dir);
	if (node < 0 || m_add(r->m, w.dir, w.last, node) < 0)
		FAILF("the model is full");
	return node;
}

static void m_write(struct mnode *n, size_t off, const uint8_t *p, size_t len)
{
	if (off + len > n->size)
		m_set_size(n, off + len);
	memcpy(n->data + off, p, len);
}

/* ---- operations ---- */

static void do_stat(struct run *r, const char *path, bool follow)
{
	struct kstat st;
	struct mres w;
	int err = vfs_stat(path, &st, follow);
	int want = m_walk(r->m, path, follow ? WALK_FOLLOW : WALK_NOFOLLOW, &w);

	if (!want && w.node < 0)
		want = -ENOENT;
	judge(r, follow ? OP_STAT : OP_LSTAT, err, want, NULL);
	if (err || !r->modelled)
		return;
	const struct mnode *n = &r->m->n[w.node];
	unsigned int type = n->type == M_DIR ? S_IFDIR : n->type == M_LNK ? S_IFLNK : S_IFREG;
	if ((st.mode & S_IFMT) != type || st.nlink != (unsigned int)m_nlink(r->m, w.node))
		FAILF("%s: mode 0%o, %u links; the model: type 0%o, %d links", r->why, st.mode, st.nlink,
		      type, m_nlink(r->m, w.node));
	if (n->type != M_DIR && (size_t)st.size != (n->type == M_LNK ? strlen(n->target) : n->size))
		FAILF("%s: size %lld; the model: %zu", r->why, (long long)st.size,
		      n->type == M_LNK ? strlen(n->target) : n->size);
	if (r->m->n[w.node].ino && r->m->n[w.node].ino != st.ino)
		FAILF("%s: inode %lu; the same file was %lu before", r->why, st.ino, r->m->n[w.node].ino);
	r->m->n[w.node].ino = st.ino;
}

/* The whole of an open file from offset 0 (at most MAX_FILE bytes): its length or -errno. */
static long read_all(struct file *f)
{
	long total = 0;

	while (total < MAX_FILE) {
		long n = vfs_pread(f, scratch + total, (size_t)min(MAX_FILE - total, 65536L), total);
		if (n < 0)
			return n;
		if (n == 0)
			break;
		total += n;
	}
	return total;
}

static void compare_data(struct run *r, const struct mnode *n, long got)
{
	if ((size_t)got != n->size)
		FAILF("%s: read %ld bytes; the model has %zu", r->why, got, n->size);
	for (size_t i = 0; i < n->size; i++)
		if (scratch[i] != n->data[i])
			FAILF("%s: byte %zu is 0x%02x; the model has 0x%02x", r->why, i, scratch[i],
			      n->data[i]);
}

static void do_read(struct run *r, const char *path)
{
	struct file *f;
	struct mres w;
	long want = m_walk(r->m, path, WALK_FOLLOW, &w);
	long err = vfs_open(path, O_RDONLY, 0, &f);

	if (!want && w.node < 0)
		want = -ENOENT;
	judge(r, OP_READ, err, want, NULL);
	if (err)
		return;
	long got = read_all(f);
	vfs_close(f);
	if (r->modelled && r->m->n[w.node].type == M_DIR) {
		judge(r, OP_READ, got, -EISDIR, NULL);
		return;
	}
	judge(r, OP_READ, got < 0 ? got : 0, 0, NULL);
	if (r->modelled)
		compare_data(r, &r->m->n[w.node], got);
}

static int ent_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void do_readdir(struct run *r, const char *path)
{
	static char names[MAX_ENTS][256], want_names[MAX_ENTS][256];
	static uint8_t buf[4096];
	struct file *f;
	struct mres w;
	long want = m_walk(r->m, path, WALK_FOLLOW, &w);
	long err = vfs_open(path, O_RDONLY | O_DIRECTORY, 0, &f);
	int n = 0, nw = 0, calls = 0;

	if (!want && w.node < 0)
		want = -ENOENT;
	if (!want && r->m->n[w.node].type != M_DIR)
		want = -ENOTDIR;
	judge(r, OP_READDIR, err, want, NULL);
	if (err)
		return;
	long got;
	/* A corrupt size may make a directory of millions of empty blocks: 256 calls at most. */
	while ((got = vfs_getdents64(f, buf, sizeof(buf))) > 0 && ++calls < 256)
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			if (d->d_reclen < sizeof(*d) || off + d->d_reclen > got)
				FAILF("%s: a record of %u bytes at %ld of %ld", r->why, d->d_reclen, off, got);
			if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") && n < MAX_ENTS)
				snprintf(names[n++], 256, "%s", d->d_name);
			off += d->d_reclen;
		}
	vfs_close(f);
	judge(r, OP_READDIR, got < 0 ? got : 0, 0, NULL);
	if (!r->modelled)
		return;
	for (int i = 0; i < MAX_ENTS; i++)
		if (r->m->e[i].live && r->m->e[i].dir == w.node)
			snprintf(want_names[nw++], 256, "%s", r->m->e[i].name);
	qsort(names, (size_t)n, 256, ent_cmp);
	qsort(want_names, (size_t)nw, 256, ent_cmp);
	for (int i = 0; i < n || i < nw; i++)
		if (i >= n || i >= nw || strcmp(names[i], want_names[i]))
			FAILF("%s: %d names, the model %d; the %d-th sorted: \"%s\", the model \"%s\"", r->why,
			      n, nw, i, i < n ? names[i] : "", i < nw ? want_names[i] : "");
}

static void do_write(struct run *r, struct input *in, const char *path, bool append)
{
	static uint8_t data[65536];
	struct file *f;
	int node = -1;
	unsigned int b = byte(in), seed = byte(in);
	size_t len = (b & 15) * 509 + byte(in), off = 0;
	long want = m_open_write(r, path, true, &node);
	long err = vfs_open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : 0), 0644, &f);

	judge(r, append ? OP_APPEND : OP_WRITE, err, want, NULL);
	if (err)
		return;
	if (r->modelled && node < 0)
		node = m_create_file(r, path);
	size_t size = node >= 0 ? r->m->n[node].size : 0;
	switch (b >> 4 & 3) {
	case 0: off = 0; break;
	case 1: off = size; break;
	case 2: off = size / 2; break;
	case 3: off = (size_t)byte(in) * 1201; break;	/* up to 300 KiB: holes, indirect blocks */
	}
	fill(data, len, seed);
	long got = append ? vfs_write(f, data, len) : vfs_pwrite(f, data, len, (loff_t)off);
	if (append)
		off = size;
	/* A full disk takes what fits (a short count), or nothing (ENOSPC): the model follows. */
	if (got < 0)
		judge(r, append ? OP_APPEND : OP_WRITE, got, 0, NULL);
	if (r->modelled && got >= 0 && got < (long)len && !nearly_full())
		FAILF("%s: wrote %ld of %zu bytes with the disk not full", r->why, got, len);
	if (got > (long)len)
		FAILF("%s: wrote %ld of %zu bytes", r->why, got, len);
	if (r->modelled && got > 0)
		m_write(&r->m->n[node], off, data, (size_t)got);
	vfs_close(f);
}

static void do_truncate(struct run *r, struct input *in, const char *path)
{
	int node = -1;
	size_t size = (size_t)byte(in) * 1213;
	long want = m_open_write(r, path, false, &node);
	long err = vfs_truncate(path, (loff_t)size);

	judge(r, OP_TRUNCATE, err, want, NULL);
	if (!err && r->modelled)
		m_set_size(&r->m->n[node], size);
}

static void do_unlink(struct run *r, const char *path)
{
	struct mres w;
	long want = m_walk(r->m, path, WALK_PARENT, &w);
	int alt[3] = { 0 };

	if (!want && w.node < 0)
		want = -ENOENT;
	else if (!want && w.trailing && r->m->n[w.node].type != M_DIR)
		want = -ENOTDIR;
	else if (!want && r->m->n[w.node].type == M_DIR)
		want = -EISDIR, alt[0] = EBUSY, alt[1] = EPERM;
	else if (!want && r->rdonly)
		want = -EROFS;
	long err = vfs_unlink(path);
	judge(r, OP_UNLINK, err, want, alt);
	if (!err && r->modelled)
		m_drop_ent(r->m, w.ent);
}

static void do_mkdir(struct run *r, const char *path)
{
	struct mres w;
	long want = m_walk(r->m, path, WALK_PARENT, &w);
	int alt[3] = { 0 };

	if (!want && w.node >= 0)
		want = -EEXIST;
	else if (!want && r->rdonly)
		want = -EROFS;
	long err = vfs_mkdir(path, 0755);
	judge(r, OP_MKDIR, err, want, alt);
	if (!err && r->modelled) {
		int node = m_new_node(r->m, M_DIR, w.dir);
		if (node < 0 || m_add(r->m, w.dir, w.last, node) < 0)
			FAILF("the model is full");
	}
}

static void do_rmdir(struct run *r, const char *path)
{
	struct mres w;
	long want = m_walk(r->m, path, WALK_PARENT, &w);
	int alt[3] = { 0 };

	if (!want && w.node < 0)
		want = -ENOENT;
	else if (!want && r->m->n[w.node].type != M_DIR)
		want = -ENOTDIR;
	else if (!want && w.ent < 0)	/* the mount's root, or "." */
		want = -EBUSY, alt[0] = EINVAL;
	else if (!want && !m_is_empty_dir(r->m, w.node))
		want = -ENOTEMPTY;
	else if (!want && r->rdonly)
		want = -EROFS;
	long err = vfs_rmdir(path);
	judge(r, OP_RMDIR, err, want, alt);
	if (!err && r->modelled)
		m_drop_ent(r->m, w.ent);
}

static void do_rename(struct run *r, const char *from, const char *to)
{
	struct mres a, b;
	long want = m_walk(r->m, from, WALK_PARENT, &a);
	int alt[3] = { 0 }, na = 0;

	if (!want)
		want = m_walk(r->m, to, WALK_PARENT, &b);
	/* MNT itself is a name in the root ramfs: with the other in the ext2 mount, EXDEV comes
	 * before the names are looked up (v6.10's do_renameat2) */
	if (!want && !strcmp(from, MNT) != !strcmp(to, MNT))
		want = -EXDEV;
	/* a last component "." or ".." (or the mount's root): EBUSY before the lookups */
	if (!want && ((a.node >= 0 && a.ent < 0) || (b.node >= 0 && b.ent < 0)))
		want = -EBUSY, alt[na++] = EINVAL;
	if (!want && a.node < 0)
		want = -ENOENT;
	if (!want && (a.trailing || b.trailing) && r->m->n[a.node].type != M_DIR)
		want = -ENOTDIR;
	if (!want && b.node == a.node)
		want = 0;		/* the same file: nothing to do */
	else if (!want) {
		/* Any of these, in whichever order the VFS checks them. */
		int errs[5], ne = 0;
		bool adir = r->m->n[a.node].type == M_DIR;
		if (adir && m_is_ancestor(r->m, a.node, b.dir))
			errs[ne++] = EINVAL;
		if (b.node >= 0 && adir && r->m->n[b.node].type != M_DIR)
			errs[ne++] = ENOTDIR;
		if (b.node >= 0 && !adir && r->m->n[b.node].type == M_DIR)
			errs[ne++] = EISDIR;
		if (b.node >= 0 && r->m->n[b.node].type == M_DIR && !m_is_empty_dir(r->m, b.node))
			errs[ne++] = ENOTEMPTY;
		if (r->rdonly)
			errs[ne++] = EROFS;
		if (ne) {
			want = -errs[0];
			for (int i = 1; i < ne && na < 2; i++)
				alt[na++] = errs[i];
		}
	}
	long err = vfs_rename(from, to);
	judge(r, OP_RENAME, err, want, alt);
	if (err || !r->modelled || b.node == a.node)
		return;
	int node = a.node;
	if (b.ent >= 0)
		m_drop_ent(r->m, b.ent);
	r->m->e[a.ent].live = false;
	if (r->m->n[node].type == M_DIR)
		r->m->n[node].parent = b.dir;
	m_add(r->m, b.dir, b.last, node);
}

static void do_link(struct run *r, const char *from, const char *to)
{
	struct mres a, b;
	long want = m_walk(r->m, from, WALK_NOFOLLOW, &a);
	int alt[3] = { 0 };

	if (!want && a.node < 0)	/* the old name first (v6.10's do_linkat) */
		want = -ENOENT;
	if (!want)
		want = m_walk(r->m, to, WALK_PARENT, &b);
	if (!want && b.node >= 0)
		want = -EEXIST;
	else if (!want && b.trailing)	/* a new name with a trailing slash: not a directory */
		want = -ENOENT;
	else if (!want && r->m->n[a.node].type == M_DIR)
		want = -EPERM;
	else if (!want && r->rdonly)
		want = -EROFS;
	long err = vfs_link(from, to);
	judge(r, OP_LINK, err, want, alt);
	if (!err && r->modelled && m_add(r->m, b.dir, b.last, a.node) < 0)
		FAILF("the model is full");
}

static void do_symlink(struct run *r, struct input *in, const char *path)
{
	static const char *const targets[] = { "hello.txt", "a/../hello.txt", "a/b", MNT "/a/b/c/deep.txt",
		"nowhere", "n0", "link", ".", MNT "/manydir",
		"./a/../a/./b/../b/c/../../b/c/../c/../../a/b/c/../c/./deep.txt/../../../../link" };
	char target[4096];
	struct mres w;
	unsigned int t = byte(in) % (sizeof(targets) / sizeof(targets[0]) + 1);

	if (t < sizeof(targets) / sizeof(targets[0]))
		snprintf(target, sizeof(target), "%s", targets[t]);
	else
		pick_path(r, in, target, sizeof(target));
	size_t at = strlen(r->why);
	snprintf(r->why + at, sizeof(r->why) - at, "-> %.60s", target);
	if (trace)
		fprintf(stderr, "  (target %s)\n", target);
	long want = m_walk(r->m, path, WALK_PARENT, &w);
	int alt[3] = { 0 };
	if (!want && w.node >= 0)
		want = -EEXIST;
	else if (!want && w.trailing)
		want = -ENOENT;
	else if (!want && r->rdonly)
		want = -EROFS;
	long err = vfs_symlink(target, path);
	judge(r, OP_SYMLINK, err, want, alt);
	if (!err && r->modelled) {
		int node = m_new_node(r->m, M_LNK, w.dir);
		if (node < 0 || m_add(r->m, w.dir, w.last, node) < 0)
			FAILF("the model is full");
		r->m->n[node].target = strdup(target);
	}
}

static void do_readlink(struct run *r, const char *path)
{
	char buf[4096];
	struct mres w;
	long want = m_walk(r->m, path, WALK_NOFOLLOW, &w);

	if (!want && w.node < 0)
		want = -ENOENT;
	else if (!want && r->m->n[w.node].type != M_LNK)
		want = -EINVAL;
	else if (!want)
		want = (long)strlen(r->m->n[w.node].target);
	long got = vfs_readlink(path, buf, sizeof(buf));
	judge(r, OP_READLINK, got, want, NULL);
	if (got > 0 && r->modelled && memcmp(buf, r->m->n[w.node].target, (size_t)got))
		FAILF("%s: \"%.*s\", the model \"%s\"", r->why, (int)got, buf, r->m->n[w.node].target);
}

void close_held(struct run *r)
{
	for (int i = 0; i < MAX_HELD; i++)
		if (r->held[i].f) {
			CHECK(vfs_close(r->held[i].f) == 0);
			r->held[i].f = NULL;
			if (r->held[i].node >= 0) {
				r->m->n[r->held[i].node].opens--;
				m_put_node(r->m, r->held[i].node);
			}
		}
}

/* Open a file and keep it (the slot's old one closed), read a kept one back, or fsync it. */
static void do_held(struct run *r, struct input *in, const char *path)
{
	unsigned int b = byte(in);
	struct held *h = &r->held[b % MAX_HELD];

	if (b & 4 && h->f) {
		long got = read_all(h->f);
		judge(r, OP_HELD, got < 0 ? got : 0, 0, NULL);
		if (r->modelled && h->node >= 0)
			compare_data(r, &r->m->n[h->node], got);
		long err = vfs_fsync(h->f);
		judge(r, OP_HELD, r->rdonly ? 0 : err, 0, NULL);
		return;
	}
	if (h->f) {
		CHECK(vfs_close(h->f) == 0);
		h->f = NULL;
		if (h->node >= 0) {
			r->m->n[h->node].opens--;
			m_put_node(r->m, h->node);
		}
	}
	struct mres w;
	long want = m_walk(r->m, path, WALK_FOLLOW, &w);
	if (!want && w.node < 0)
		want = -ENOENT;
	else if (!want && r->m->n[w.node].type == M_DIR)
		want = r->rdonly ? -EISDIR : -EISDIR;
	else if (!want && r->rdonly)
		want = -EROFS;
	long err = vfs_open(path, O_RDWR, 0, &h->f);
	judge(r, OP_HELD, err, want, NULL);
	if (err) {
		h->f = NULL;
		return;
	}
	h->node = r->modelled ? w.node : -1;
	if (h->node >= 0)
		r->m->n[h->node].opens++;
}

void run_op(struct run *r, struct input *in)
{
	enum op op = (enum op)(byte(in) % NR_OPS);
	char path[4096], path2[4096] = "";

	pick_path(r, in, path, sizeof(path));
	if (op == OP_RENAME || op == OP_LINK)
		pick_path(r, in, path2, sizeof(path2));
	snprintf(r->why, sizeof(r->why), "operation %lu: %s %.60s %.60s", r->ops, op_name[op], path, path2);
	r->ops++;
	if (trace)
		fprintf(stderr, "%s%s\n", r->modelled ? "" : "(patched) ", r->why);
	switch (op) {
	case OP_STAT: do_stat(r, path, true); break;
	case OP_LSTAT: do_stat(r, path, false); break;
	case OP_READ: do_read(r, path); break;
	case OP_READDIR: do_readdir(r, path); break;
	case OP_WRITE: do_write(r, in, path, false); break;
	case OP_APPEND: do_write(r, in, path, true); break;
	case OP_TRUNCATE: do_truncate(r, in, path); break;
	case OP_UNLINK: do_unlink(r, path); break;
	case OP_MKDIR: do_mkdir(r, path); break;
	case OP_RMDIR: do_rmdir(r, path); break;
	case OP_RENAME: do_rename(r, path, path2); break;
	case OP_LINK: do_link(r, path, path2); break;
	case OP_SYMLINK: do_symlink(r, in, path); break;
	case OP_READLINK: do_readlink(r, path); break;
	case OP_HELD: do_held(r, in, path); break;
	case OP_REMOUNT:
		/* Busy while a file is open: EBUSY, and nothing changes. */
		if (r->held[0].f || r->held[1].f) {
			CHECK(do_umount(MNT) == -EBUSY);
			close_held(r);
		}
		CHECK(do_umount(MNT) == 0);
		r->mounted = false;
		judge(r, OP_REMOUNT, ext2_mount(r), 0, NULL);
		break;
	default: break;
	}
}

/* Every name of the model on the mounted filesystem (a fresh mount of a clean image). */
void verify_tree(struct run *r)
{
	for (int i = 0; i < MAX_ENTS; i++) {
		char path[4096];
		if (!r->m->e[i].live)
			continue;
		m_path(r->m, i, path, sizeof(path));
		snprintf(r->why, sizeof(r->why), "after a fresh mount: %.150s", path);
		do_stat(r, path, false);
		if (r->m->n[r->m->e[i].node].type == M_REG)
			do_read(r, path);
		else if (r->m->n[r->m->e[i].node].type == M_DIR)
			do_readdir(r, path);
		else
			do_readlink(r, path);
	}
	snprintf(r->why, sizeof(r->why), "after a fresh mount: " MNT);
	do_readdir(r, MNT);
}
