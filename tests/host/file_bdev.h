/*
 * file_bdev.h - a block device backed by a host file, for host tests of the block layer, the
 * buffer heads and (later) ext2 (tests/host/file_bdev.c).
 *
 *   struct block_device *bdev = file_bdev_open("img", true);   registered with add_disk():
 *       named vda, vdb, ... in order, with its page cache (bd_mapping); NULL and a line on
 *       stderr if the file cannot be opened or is smaller than one sector
 *   file_bdev_fd(bdev)        the open file (a test may pread it to see what reached "disk")
 *   file_bdev_fail_writes(bdev, n) / file_bdev_fail_reads(bdev, n)
 *                             the next @n writes / reads end with -EIO (a device error)
 *   file_bdev_resize(bdev)    the disk's size is the file's again (a test that rewrote the file,
 *                             as tests/fuzz/ext2_fuzz.c does per input: disks cannot be removed,
 *                             so it reuses one; it drops the old contents from bd_mapping)
 *   file_bdev_close(bdev)     closes the file; the disk stays registered (the block layer
 *                             has no del_gendisk) and fails all further I/O with -ENXIO
 *
 * Every bio is done at once with pread/pwrite inside the driver's submit_bio, which returns 1
 * ("nothing left to do"): the block layer ends it with status 0 after dropping its queue lock,
 * so completions run before submit_bio() returns and no test needs a scheduler or interrupts.
 * Sizes: the file's, rounded down to a sector; logical block size 512; 256 segments per bio.
 */
#ifndef TINYMM_TESTS_FILE_BDEV_H
#define TINYMM_TESTS_FILE_BDEV_H
#include <stdbool.h>
#include "tinymm/blkdev.h"

struct block_device *file_bdev_open(const char *path, bool writable);
int file_bdev_fd(struct block_device *bdev);
void file_bdev_fail_writes(struct block_device *bdev, int n);
void file_bdev_fail_reads(struct block_device *bdev, int n);
int file_bdev_resize(struct block_device *bdev);
void file_bdev_close(struct block_device *bdev);
/* Bios done so far by the device: reads, writes. */
void file_bdev_counts(struct block_device *bdev, unsigned long *reads, unsigned long *writes);
#endif
