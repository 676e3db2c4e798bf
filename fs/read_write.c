/*
 * read_write.c - reading, writing, seeking and syncing open files (Linux's fs/read_write.c,
 * mm/filemap.c's generic_file_read_iter/generic_file_write_iter and fs/libfs.c's
 * generic_file_fsync, reduced).
 *
 * The generic operations are what a filesystem whose data lives in i_mapping puts in its
 * file_operations: a read is filemap_read with the file's readahead state, stopping at i_size
 * (i_data.size, kept equal by i_size_write); a write is generic_perform_write through the
 * mapping's write_begin/write_end under i_rwsem, O_APPEND taking i_size as its position, and
 * i_size grown as each folio is filled (the folio still locked, as Linux's generic_write_end
 * does before it unlocks: writeback never sees a dirty folio beyond i_size); fsync writes the
 * mapping back and waits, reports a write error once per file (errseq, f_wb_err), then writes
 * the inode and the block device's cache (the fs's metadata) and flushes the device.
 *
 * Locking: f_pos_lock around f_pos (read, write, llseek); i_rwsem around a write.
 *
 * Where tinymm differs from v6.10, and why: buffers are kernel memory (no iov_iter, no user
 * copies); no atime updates (as mounting noatime: a read never dirties an inode); no
 * file_remove_privs or O_DIRECT; fsync writes the whole block device's cache where v6.10 writes
 * the inode's own metadata buffers (sync_mapping_buffers): tinymm tracks no per-inode buffer
 * list, and the device cache is where ext2 keeps its metadata.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/pagemap.h"
#include "tinymm/writeback.h"
#include "internal.h"

static bool can_read(const struct file *file)
{
	return (file->f_flags & O_ACCMODE) != O_WRONLY;
}

static bool can_write(const struct file *file)
{
	return (file->f_flags & O_ACCMODE) == O_WRONLY || (file->f_flags & O_ACCMODE) == O_RDWR;
}

static long rw_checks(struct file *file, bool write, loff_t pos)
{
	if (write ? !can_write(file) : !can_read(file))
		return -EBADF;
	if (S_ISDIR(file->f_inode->i_mode))
		return -EISDIR;
	if (write ? !file->f_op || !file->f_op->write : !file->f_op || !file->f_op->read)
		return -EINVAL;
	if (pos < 0)
		return -EINVAL;
	return 0;
}

long vfs_pread(struct file *file, void *buf, size_t len, loff_t pos)
{
	long err = rw_checks(file, false, pos);

	return err ? err : file->f_op->read(file, buf, len, &pos);
}

long vfs_read(struct file *file, void *buf, size_t len)
{
	long ret = rw_checks(file, false, 0);

	if (ret)
		return ret;
	mutex_lock(&file->f_pos_lock);
	ret = file->f_op->read(file, buf, len, &file->f_pos);
	mutex_unlock(&file->f_pos_lock);
	return ret;
}

long vfs_pwrite(struct file *file, const void *buf, size_t len, loff_t pos)
{
	long err = rw_checks(file, true, pos);

	return err ? err : file->f_op->write(file, buf, len, &pos);
}

long vfs_write(struct file *file, const void *buf, size_t len)
{
	long ret = rw_checks(file, true, 0);

	if (ret)
		return ret;
	mutex_lock(&file->f_pos_lock);
	ret = file->f_op->write(file, buf, len, &file->f_pos);
	mutex_unlock(&file->f_pos_lock);
	return ret;
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t base, pos;

	mutex_lock(&file->f_pos_lock);
	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = file->f_pos; break;
	case SEEK_END: base = i_size_read(file->f_inode); break;
	default:
		mutex_unlock(&file->f_pos_lock);
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, offset, &pos) || pos < 0 ||
	    (uint64_t)pos > file->f_inode->i_sb->s_maxbytes) {
		mutex_unlock(&file->f_pos_lock);
		return -EINVAL;
	}
	if (pos != file->f_pos)
		file->f_ra.prev_pos = -1;	/* a seek breaks the sequential pattern */
	file->f_pos = pos;
	mutex_unlock(&file->f_pos_lock);
	return pos;
}

long generic_file_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
	long ret;

	if (!len)
		return 0;
	ret = filemap_read(file->f_inode->i_mapping, &file->f_ra, *pos, buf, len);
	if (ret > 0)
		*pos += ret;
	return ret;
}

struct write_ctx {
	struct inode *inode;
	const uint8_t *src;
	loff_t start;
};

/* generic_perform_write's fill: the caller's bytes, and i_size past them (folio locked). */
static void write_fill(void *ctx, uint64_t pos, uint8_t *dst, unsigned int n)
{
	struct write_ctx *w = ctx;

	memcpy(dst, w->src + (pos - (uint64_t)w->start), n);
	if ((loff_t)(pos + n) > w->inode->i_size)
		i_size_write(w->inode, (loff_t)(pos + n));
}

long generic_file_write(struct file *file, const void *buf, size_t len, loff_t *pos)
{
	struct inode *inode = file->f_inode;
	struct write_ctx w = { inode, buf, 0 };
	uint64_t done;
	int err;

	if (!len)
		return 0;
	mutex_lock(&inode->i_rwsem);
	if (file->f_flags & O_APPEND)
		*pos = inode->i_size;
	/* Linux's generic_write_checks: up to the limit, then -EFBIG. */
	if ((uint64_t)*pos >= inode->i_sb->s_maxbytes) {
		mutex_unlock(&inode->i_rwsem);
		return -EFBIG;
	}
	if (len > inode->i_sb->s_maxbytes - (uint64_t)*pos)
		len = (size_t)(inode->i_sb->s_maxbytes - (uint64_t)*pos);
	w.start = *pos;
	done = generic_perform_write(inode->i_mapping, *pos, len, write_fill, &w, &err);
	if (done) {
		inode->i_mtime = inode->i_ctime = current_time(inode);
		mark_inode_dirty(inode);
		*pos += (loff_t)done;
	}
	mutex_unlock(&inode->i_rwsem);
	return done ? (long)done : err;
}

int generic_file_fsync(struct file *file)
{
	struct inode *inode = file->f_inode;
	struct address_space *mapping = inode->i_mapping;
	int err, err2;

	/* Linux's file_write_and_wait_range: the error through this file's cursor, once. */
	err = __filemap_fdatawrite_range(mapping, 0, LLONG_MAX, WB_SYNC_ALL);
	if (err != -EIO)
		__filemap_fdatawait_range(mapping, 0, LLONG_MAX);
	err2 = file_check_and_advance_wb_err(mapping, &file->f_wb_err);
	if (!err)
		err = err2;
	err2 = write_inode_now(inode, true);
	if (!err)
		err = err2;
	if (!err && inode->i_sb->s_bdev && inode->i_sb->s_bdev->bd_mapping)
		err = blkdev_fsync(inode->i_sb->s_bdev);
	return err;
}

int vfs_fsync(struct file *file)
{
	if (!file->f_op || !file->f_op->fsync)
		return -EINVAL;
	return file->f_op->fsync(file);
}
