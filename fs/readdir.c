/*
 * readdir.c - getdents64 (Linux's fs/readdir.c, reduced): the filesystem's ->iterate_shared
 * walks the directory from f_pos and calls filldir64 per entry, which packs struct
 * linux_dirent64 records into the caller's buffer, each d_reclen rounded up to 8 bytes (so the
 * next record's u64 d_ino is aligned), until one does not fit.  f_pos then says where the next
 * call resumes.  A buffer too small for even the first record is -EINVAL, as Linux's.
 *
 * Locking: the directory's i_rwsem around the walk (v6.10 takes it shared; tinymm's i_rwsem
 * is a mutex), f_pos_lock around f_pos.
 */
#include <stddef.h>
#include <string.h>
#include "tinymm/errno.h"
#include "internal.h"

struct getdents_callback64 {
	struct dir_context ctx;
	uint8_t *buf;
	size_t count;			/* bytes left */
	size_t used;
	struct linux_dirent64 *prev;
	int error;
};

static int filldir64(struct dir_context *ctx, const char *name, int namelen, loff_t pos,
		     uint64_t ino, unsigned int d_type)
{
	struct getdents_callback64 *gc = container_of(ctx, struct getdents_callback64, ctx);
	size_t reclen = ALIGN(offsetof(struct linux_dirent64, d_name) + (size_t)namelen + 1, 8);
	struct linux_dirent64 *d;

	if (reclen > gc->count) {
		gc->error = -EINVAL;		/* only an error if nothing was filled */
		return 1;
	}
	d = (struct linux_dirent64 *)(gc->buf + gc->used);
	d->d_ino = ino;
	d->d_off = pos;
	d->d_reclen = (unsigned short)reclen;
	d->d_type = (unsigned char)d_type;
	memcpy(d->d_name, name, (size_t)namelen);
	memset(d->d_name + namelen, 0, reclen - offsetof(struct linux_dirent64, d_name) - namelen);
	gc->prev = d;
	gc->used += reclen;
	gc->count -= reclen;
	return 0;
}

long vfs_getdents64(struct file *file, void *buf, size_t len)
{
	struct inode *inode = file->f_inode;
	struct getdents_callback64 gc = { .ctx.actor = filldir64, .buf = buf, .count = len };
	int err;

	if (!S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (!file->f_op || !file->f_op->iterate_shared)
		return -ENOTDIR;
	mutex_lock(&file->f_pos_lock);
	mutex_lock(&inode->i_rwsem);
	gc.ctx.pos = file->f_pos;
	err = inode->i_nlink ? file->f_op->iterate_shared(file, &gc.ctx) : 0;	/* removed: empty */
	file->f_pos = gc.ctx.pos;
	mutex_unlock(&inode->i_rwsem);
	mutex_unlock(&file->f_pos_lock);
	if (gc.used)
		return (long)gc.used;
	return err ? err : gc.error;
}
