/*
 * core.c - partitions as block devices (v6.10's block/partitions/core.c with the naming of
 * block/genhd.c's disk_name() and the remap of block/blk-core.c's blk_partition_remap()).
 *
 * disk_scan_partitions() reads the disk's MBR through bios of its own (no page cache: nothing of
 * the table stays cached under the whole disk's name), lets block/partitions/msdos.c judge it,
 * and registers each partition with add_disk() as a struct block_device of its own: its name
 * (the disk's name, then "p" if that ends in a digit: mmcblk0p1, else nothing: vda1), its
 * capacity, its own page cache (bd_mapping, made by add_disk), bd_whole and bd_start_sect.
 * One line per disk says what was found, as v6.10's " vda: vda1 vda2 < vda5 >"; a table the
 * parser refuses is one line naming the disk and the reason, and the disk stays usable whole
 * with no partition registered; a GPT's protective MBR is one line saying GPT is not read.
 *
 * A bio for a partition is checked against the partition (blk-core's bio_check: a bio past the
 * partition's end ends with -EINVAL, counted on the partition only, and never reaches the
 * disk), then blk_partition_remap() moves it to the whole disk: bi_sector += bd_start_sect,
 * bi_bdev = the disk, bi_part = the partition.  bio_endio() counts it on the disk and on the
 * partition (v6.10's part_stat_add counts on both too) and gives the bio back its partition and
 * sector before bi_end_io.  The driver only ever sees whole disks.
 *
 * When: at add_disk() for a disk added after boot; a disk added while booting (virtio-mmio
 * probes in kmain(), before there is a thread to sleep in, and before the driver's interrupt is
 * requested) is scanned by blk_scan_boot_disks(), which the first thread calls before it
 * mounts the root (tinymm.root=vda1).
 *
 * Where tinymm differs from v6.10, and why: no rescan (BLKRRPART) and no removal (disks are
 * never removed either); a table v6.10 would trim is refused whole (msdos.c says which); a
 * partition and its disk have separate page caches, as in v6.10 (the same bytes written
 * through one are seen through the other only after sync and drop_caches), and nothing stops
 * mounting both at once (v6.10's exclusive opener claim, bd_claim, is not there).
 * Device numbers (`partitions`, /proc/partitions' format): virtio disks major 254 (a dynamic
 * major in Linux; 254 is what a Linux guest on QEMU usually gets), 16 minors per disk
 * (virtio_blk's PART_BITS 4); mmcblk 179, 8 minors per card (CONFIG_MMC_BLOCK_MINORS); ram 1,
 * one minor per disk; a partition beyond its disk's minors and any other disk: 259 (blkext),
 * minors in registration order.
 * Locking: none of its own.  Scans run one at a time in the thread that adds disks (boot, or a
 * probe that the driver serialises); partitions are published by add_disk() like any disk.
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/msdos_partition.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"

#define VIRTBLK_MAJOR		254
#define VIRTBLK_MINORS		16
#define MMC_BLOCK_MAJOR		179
#define MMC_BLOCK_MINORS	8
#define RAMDISK_MAJOR		1
#define BLOCK_EXT_MAJOR		259

static unsigned int next_ext_minor;	/* blkext's, in registration order */
static bool boot_scan_done;

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The number after @prefix in @name ("mmcblk12" -> 12), or -1. */
static int name_number(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	int v = 0;

	if (strncmp(name, prefix, n) || !is_digit(name[n]))
		return -1;
	for (name += n; is_digit(*name); name++)
		v = v * 10 + (*name - '0');
	return *name ? -1 : v;
}

void bdev_set_devt(struct block_device *bdev)
{
	struct block_device *disk = bdev_whole(bdev);
	const char *name = disk->bd_name;
	unsigned int partno = bdev->bd_partno;
	int n;

	if (name[0] == 'v' && name[1] == 'd' && name[2] >= 'a' && name[2] <= 'z' && !name[3] &&
	    partno < VIRTBLK_MINORS) {
		bdev->bd_dev = MKDEV(VIRTBLK_MAJOR, (name[2] - 'a') * VIRTBLK_MINORS + partno);
	} else if ((n = name_number(name, "mmcblk")) >= 0 && partno < MMC_BLOCK_MINORS) {
		bdev->bd_dev = MKDEV(MMC_BLOCK_MAJOR, n * MMC_BLOCK_MINORS + partno);
	} else if ((n = name_number(name, "ram")) >= 0 && !partno) {
		bdev->bd_dev = MKDEV(RAMDISK_MAJOR, n);
	} else {
		bdev->bd_dev = MKDEV(BLOCK_EXT_MAJOR, next_ext_minor++);
	}
}

void blk_partition_remap(struct bio *bio)
{
	struct block_device *part = bio->bi_bdev;

	bio->bi_part = part;
	bio->bi_sector += part->bd_start_sect;
	bio->bi_bdev = part->bd_whole;
}

/* v6.10's disk_name(): the disk's name, "p" if it ends in a digit, the number. */
static void part_name(char *buf, size_t len, const char *disk, int partno)
{
	size_t n = strlen(disk);

	ksnprintf(buf, len, "%s%s%d", disk, n && is_digit(disk[n - 1]) ? "p" : "", partno);
}

struct scan_ctx {
	struct block_device *disk;
	struct page *page;
};

/* msdos.c's block reader: one logical block through one bio into the scan's page. */
static int scan_read_block(void *ctx, uint64_t block, uint8_t *buf)
{
	struct scan_ctx *c = ctx;
	unsigned int lbs = c->disk->bd_logical_block_size;
	struct bio *bio = bio_alloc(c->disk, 1, REQ_OP_READ, GFP_KERNEL);
	int err;

	(void)buf;		/* it is the page's address: read in place */
	if (!bio)
		return -ENOMEM;
	bio->bi_sector = block * (lbs >> SECTOR_SHIFT);
	if (bio_add_page(bio, c->page, lbs, 0) != lbs) {
		bio_put(bio);
		return -EINVAL;
	}
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* Register @p of @disk; 0 or -errno (the line saying so is the caller's). */
static int add_partition(struct block_device *disk, const struct msdos_part *p)
{
	unsigned int per_block = disk->bd_logical_block_size >> SECTOR_SHIFT;
	struct block_device *part = kzalloc(sizeof(*part), GFP_KERNEL);
	int err;

	if (!part)
		return -ENOMEM;
	part_name(part->bd_name, sizeof(part->bd_name), disk->bd_name, p->partno);
	part->bd_nr_sectors = p->nr_sects * per_block;
	part->bd_start_sect = p->start * per_block;
	part->bd_partno = p->partno;
	part->bd_part_type = p->sys_ind;
	part->bd_part_extended = p->extended;
	part->bd_whole = disk;
	part->bd_logical_block_size = disk->bd_logical_block_size;
	part->bd_max_segments = disk->bd_max_segments;
	part->bd_ops = disk->bd_ops;		/* describe() for `blk list`; never submit_bio */
	part->bd_private = disk->bd_private;
	err = add_disk(part);
	if (err)
		kfree(part);
	return err;
}

int disk_scan_partitions(struct block_device *disk)
{
	struct scan_ctx c = { .disk = disk };
	unsigned int lbs = disk->bd_logical_block_size;
	struct msdos_table *t;
	enum msdos_result r;
	char why[160], line[256];
	int err = 0;

	if (bdev_is_partition(disk) || READ_ONCE(disk->bd_failed) || !disk->bd_nr_sectors)
		return 0;
	for (int i = 0; i < blkdev_count(); i++)
		if (blkdev_nth(i)->bd_whole == disk)
			return 0;	/* scanned already: no rescan */
	if (lbs < SECTOR_SIZE || lbs > PAGE_SIZE) {
		pr_warn("%s: logical block of %u bytes: partitions not read\n", disk->bd_name, lbs);
		return -EINVAL;
	}
	t = kmalloc(sizeof(*t), GFP_KERNEL);
	c.page = alloc_page(GFP_KERNEL);
	if (!t || !c.page) {
		pr_err("%s: no memory to read its partition table\n", disk->bd_name);
		err = -ENOMEM;
		goto out;
	}
	r = msdos_partition(scan_read_block, &c, disk->bd_nr_sectors / (lbs >> SECTOR_SHIFT), lbs,
			    page_address(c.page), t, why, sizeof(why));
	switch (r) {
	case MSDOS_NO_TABLE:
		break;
	case MSDOS_GPT:
		pr_warn("%s: a GPT partition table: tinymm reads MBR tables only; no partitions\n",
			disk->bd_name);
		break;
	case MSDOS_BAD:
		pr_err("%s: partition table refused: %s; the whole disk is used, no partitions\n",
		       disk->bd_name, why);
		err = -EINVAL;
		break;
	case MSDOS_IO_ERROR:
		pr_err("%s: partition table not read: %s; no partitions\n", disk->bd_name, why);
		err = -EIO;
		break;
	case MSDOS_TABLE: {
		size_t pos = (size_t)ksnprintf(line, sizeof(line), "%s:", disk->bd_name);
		bool logical = false;

		for (int i = 0; i < t->nr_parts; i++) {
			const struct msdos_part *p = &t->parts[i];
			char name[sizeof(disk->bd_name)];
			int e = add_partition(disk, p);

			part_name(name, sizeof(name), disk->bd_name, p->partno);
			if (e) {
				pr_err("%s: cannot register partition %s: %s\n", disk->bd_name, name,
				       errname(e));
				err = err ? err : e;
				continue;
			}
			if (p->partno >= 5 && !logical) {
				logical = true;
				pos += (size_t)ksnprintf(line + pos, pos < sizeof(line) ? sizeof(line) - pos : 0, " <");
			}
			pos += (size_t)ksnprintf(line + pos, pos < sizeof(line) ? sizeof(line) - pos : 0, " %s", name);
		}
		if (logical)
			ksnprintf(line + pos, pos < sizeof(line) ? sizeof(line) - pos : 0, " >");
		if (t->nr_parts)
			pr_info("%s\n", line);
		break;
	}
	}
out:
	if (c.page)
		__free_page(c.page);
	kfree(t);
	return err;
}

/* add_disk()'s hook: a disk added after boot is scanned at once. */
void blk_disk_added(struct block_device *bdev)
{
	if (!bdev_is_partition(bdev) && READ_ONCE(boot_scan_done))
		disk_scan_partitions(bdev);
}

void blk_scan_boot_disks(void)
{
	int n = blkdev_count();

	/* Partitions are appended as they register: only the disks there before are scanned. */
	for (int i = 0; i < n; i++)
		disk_scan_partitions(blkdev_nth(i));
	WRITE_ONCE(boot_scan_done, true);
}

/*
 * `partitions`: Linux's /proc/partitions, each disk followed by its partitions; sizes in 1 KiB
 * blocks.  A failed disk is listed too if it has a capacity (v6.10 lists every disk that has).
 */
static int cmd_partitions(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	kprintf("major minor  #blocks  name\n\n");
	for (int i = 0; i < blkdev_count(); i++) {
		struct block_device *disk = blkdev_nth(i);

		/* v6.10 leaves out disks with no capacity (a virtio disk failed at probe). */
		if (bdev_is_partition(disk) || !disk->bd_nr_sectors)
			continue;
		for (int j = i; j < blkdev_count(); j++) {
			struct block_device *b = blkdev_nth(j);

			if (j != i && (!bdev_is_partition(b) || b->bd_whole != disk))
				continue;
			kprintf("%4u  %7u %10llu %s\n", MAJOR(b->bd_dev), MINOR(b->bd_dev),
				(unsigned long long)(b->bd_nr_sectors >> 1), b->bd_name);
		}
	}
	return 0;
}
SHELL_COMMAND(partitions, "", "the disks and their partitions, as Linux's /proc/partitions",
	      cmd_partitions);
