/*
 * brd.h - RAM disks ram0..ram3 (drivers/brd.c, docs/brd.md).  ram0 holds the built-in sample
 * ext2 filesystem (tools/mkramdisk), ram1..ram3 4 MiB of zeros; each is made the first time it
 * is asked for by name (blkdev_get_by_name("ram0")).
 *
 *   brd_init()         register the probe (boot, before the first thread)
 *   brd_reset(bdev)    back to the first contents (ram0: the sample image); drops the disk's
 *                      page cache.  Only with nothing using the disk (no mount).  0, -EINVAL
 *                      for a disk that is not a RAM disk, -ENOMEM (the disk then reads as zeros)
 */
#ifndef TINYMM_BRD_H
#define TINYMM_BRD_H
#include "blkdev.h"

void brd_init(void);
int brd_reset(struct block_device *bdev);
#endif
