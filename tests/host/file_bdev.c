/*
 * file_bdev.c - a host file as a block device (tests/host/file_bdev.h): the driver half of
 * the block layer's contract (include/tinymm/blkdev.h), synchronous.  Each bio vector is one
 * pread or pwrite at the bio's byte offset; a short transfer or an injected failure ends the
 * bio with -EIO.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tinymm/errno.h"
#include "tinymm/fs.h"
#include "tinymm/mm.h"
#include "file_bdev.h"

struct file_bdev {
	struct block_device bdev;
	int fd;
	int fail_reads, fail_writes;
	unsigned long reads, writes;
};

static struct file_bdev *FB(struct block_device *bdev)
{
	return container_of(bdev, struct file_bdev, bdev);
}

static int file_bdev_submit(struct bio *bio)
{
	struct file_bdev *fb = FB(bio->bi_bdev);
	off_t pos = (off_t)(bio->bi_sector << SECTOR_SHIFT);
	bool write = bio_op(bio) == REQ_OP_WRITE;

	if (bio_op(bio) == REQ_OP_FLUSH)
		return fb->fd >= 0 && fsync(fb->fd) ? -EIO : 1;
	if (fb->fd < 0)
		return -ENXIO;
	if (write ? fb->fail_writes > 0 : fb->fail_reads > 0) {
		if (write)
			fb->fail_writes--;
		else
			fb->fail_reads--;
		return -EIO;
	}
	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct bio_vec *v = &bio->bi_io_vec[i];
		char *p = (char *)page_address(v->bv_page) + v->bv_offset;
		ssize_t n = write ? pwrite(fb->fd, p, v->bv_len, pos) : pread(fb->fd, p, v->bv_len, pos);

		if (n != (ssize_t)v->bv_len)
			return -EIO;
		pos += v->bv_len;
	}
	if (write)
		fb->writes++;
	else
		fb->reads++;
	return 1;		/* done: the block layer ends it with status 0, unlocked */
}

static void file_bdev_describe(struct block_device *bdev, char *buf, size_t len)
{
	snprintf(buf, len, "host file (fd %d)", FB(bdev)->fd);
}

static const struct block_device_operations file_bdev_ops = {
	.submit_bio = file_bdev_submit,
	.describe = file_bdev_describe,
};

struct block_device *file_bdev_open(const char *path, bool writable)
{
	struct file_bdev *fb;
	struct stat st;
	int fd = open(path, writable ? O_RDWR : O_RDONLY);

	if (fd < 0 || fstat(fd, &st) || st.st_size < SECTOR_SIZE) {
		fprintf(stderr, "file_bdev: %s: cannot use it as a disk\n", path);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	fb = calloc(1, sizeof(*fb));
	if (!fb) {
		close(fd);
		return NULL;
	}
	fb->fd = fd;
	fb->bdev.bd_nr_sectors = (sector_t)st.st_size >> SECTOR_SHIFT;
	fb->bdev.bd_logical_block_size = SECTOR_SIZE;
	fb->bdev.bd_max_segments = 256;
	fb->bdev.bd_ops = &file_bdev_ops;
	fb->bdev.bd_private = fb;
	if (add_disk(&fb->bdev) || !fb->bdev.bd_mapping) {
		fprintf(stderr, "file_bdev: %s: add_disk failed\n", path);
		close(fd);
		free(fb);
		return NULL;
	}
	return &fb->bdev;
}

int file_bdev_fd(struct block_device *bdev)
{
	return FB(bdev)->fd;
}

void file_bdev_fail_writes(struct block_device *bdev, int n)
{
	FB(bdev)->fail_writes = n;
}

void file_bdev_fail_reads(struct block_device *bdev, int n)
{
	FB(bdev)->fail_reads = n;
}

void file_bdev_counts(struct block_device *bdev, unsigned long *reads, unsigned long *writes)
{
	*reads = FB(bdev)->reads;
	*writes = FB(bdev)->writes;
}

int file_bdev_resize(struct block_device *bdev)
{
	struct stat st;

	if (FB(bdev)->fd < 0 || fstat(FB(bdev)->fd, &st) || st.st_size < SECTOR_SIZE)
		return -EINVAL;
	bdev->bd_nr_sectors = (sector_t)st.st_size >> SECTOR_SHIFT;
	/* Where the page cache stops reading: the caller has emptied it of the old contents. */
	if (bdev->bd_mapping)
		bdev->bd_mapping->size = (loff_t)bdev_nr_bytes(bdev);
	return 0;
}

void file_bdev_close(struct block_device *bdev)
{
	struct file_bdev *fb = FB(bdev);

	if (fb->fd >= 0)
		close(fb->fd);
	fb->fd = -1;
}
