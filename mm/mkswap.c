/*
 * mkswap.c - Linux's swap header written onto a block device from inside the kernel, what
 * util-linux's mkswap writes (version 1, last_page, no bad pages, no label): for the KTAP suite
 * `swap` and `make bench`'s swap rows, which swap to a RAM disk (ram3) no host tool can reach.
 * v6.10 has no in-kernel mkswap; the user-facing path is the host's mkswap on a disk image.
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/swapfile.h"

int mkswap_bdev(struct block_device *bdev)
{
	unsigned long pages = (unsigned long)(bdev->bd_nr_sectors >> (PAGE_SHIFT - SECTOR_SHIFT));
	struct page *page;
	struct swap_header_info *info;
	struct bio *bio;
	char *p;
	int err;

	if (pages < 2)
		return -EINVAL;
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	bio = page ? bio_alloc(bdev, 1, REQ_OP_WRITE, GFP_KERNEL) : NULL;
	if (!bio) {
		if (page)
			__free_page(page);
		return -ENOMEM;
	}
	p = page_address(page);
	info = (struct swap_header_info *)(p + SWAP_HEADER_BOOTBITS);
	info->version = 1;
	info->last_page = (uint32_t)(pages - 1);
	memcpy(p + PAGE_SIZE - SWAP_MAGIC_LEN, SWAP_MAGIC, SWAP_MAGIC_LEN);
	bio->bi_sector = 0;
	bio_add_page(bio, page, PAGE_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	__free_page(page);
	return err;
}
