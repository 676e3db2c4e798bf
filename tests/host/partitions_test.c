/*
 * partitions_test.c - partitions as block devices (block/partitions/core.c) on the host, over
 * the real block layer, in a thread of the host scheduler, on tables sfdisk made
 * (tests/host/msdos_images.sh; $MSDOS_IMAGES is its directory): the boot scan registers
 * vda1..vda6 and announces them in v6.10's line; a refused table (vdb, overlapping) is one
 * line and no partition; a GPT (vdc) one line and no partition; a disk whose name ends in a
 * digit ("mmcblk0", a memory disk here) gets mmcblk0p1..; a disk added after the boot scan is
 * scanned by add_disk(); `partitions` prints /proc/partitions' format; then the `partitions`
 * KTAP suite (tests/ktest/partitions_ktest.c) runs on vda, a writable copy of its image.
 */
#include <unistd.h>
#include "host_sched_test.h"
#include "file_bdev.h"
#include "tinymm/blkdev.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/shell.h"

static char path[512];

static const char *image(const char *name)
{
	const char *dir = getenv("MSDOS_IMAGES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", name);
	return path;
}

/* A disk in memory that names itself (as the SD driver's mmcblk0): primaries.img's bytes. */
static struct block_device memdisk;
static uint8_t memdisk_bytes[16 << 20];

static int memdisk_submit(struct bio *bio)
{
	uint64_t pos = bio->bi_sector << SECTOR_SHIFT;

	if (bio_op(bio) == REQ_OP_FLUSH)
		return 1;
	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct bio_vec *v = &bio->bi_io_vec[i];
		uint8_t *p = (uint8_t *)page_address(v->bv_page) + v->bv_offset;

		if (bio_op(bio) == REQ_OP_WRITE)
			memcpy(memdisk_bytes + pos, p, v->bv_len);
		else
			memcpy(p, memdisk_bytes + pos, v->bv_len);
		pos += v->bv_len;
	}
	return 1;
}

static const struct block_device_operations memdisk_ops = { .submit_bio = memdisk_submit };

static int count(const char *haystack, const char *needle)
{
	int n = 0;

	for (const char *p = haystack; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static int partitions_scenario(void)
{
	char copy[512], cmd[1200];
	FILE *f;

	/* The disks of a boot: vda (a writable copy), vdb, vdc, mmcblk0. */
	snprintf(copy, sizeof(copy), "%s/partitions_test-%d.img",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", image("ktest.img"), copy);
	CHECK_EQ(system(cmd), 0);
	struct block_device *vda = file_bdev_open(copy, true);
	struct block_device *vdb = file_bdev_open(image("overlap.img"), false);
	struct block_device *vdc = file_bdev_open(image("gpt.img"), false);
	CHECK(vda && vdb && vdc);
	f = fopen(image("primaries.img"), "rb");
	CHECK(f && fread(memdisk_bytes, sizeof(memdisk_bytes), 1, f) == 1);
	if (f)
		fclose(f);
	strcpy(memdisk.bd_name, "mmcblk0");
	memdisk.bd_nr_sectors = sizeof(memdisk_bytes) >> SECTOR_SHIFT;
	memdisk.bd_ops = &memdisk_ops;
	memdisk.bd_max_segments = 16;
	CHECK_EQ(add_disk(&memdisk), 0);
	if (!vda || !vdb || !vdc)
		return 1;
	CHECK(blkdev_get_by_name("vda1") == NULL);	/* nothing before the scan */

	shim_console_reset();
	blk_scan_boot_disks();
	CHECK(strstr(shim_console, "vda: vda1 vda2 vda3 vda4 < vda5 vda6 >\n") != NULL);
	CHECK_EQ(count(shim_console, "partition table refused"), 1);
	CHECK(strstr(shim_console, "vdb: partition table refused: partitions 1 and 2 overlap "
			 "(blocks 2048-6143 and 4096-8191); the whole disk is used, no partitions\n"));
	CHECK(strstr(shim_console, "vdc: a GPT partition table: tinymm reads MBR tables only; "
			 "no partitions\n"));
	CHECK(strstr(shim_console, "mmcblk0: mmcblk0p1 mmcblk0p2 mmcblk0p3\n"));
	CHECK(blkdev_get_by_name("vdb1") == NULL && blkdev_get_by_name("vdc1") == NULL);
	struct block_device *p1 = blkdev_get_by_name("mmcblk0p1");
	CHECK(p1 && bdev_whole(p1) == &memdisk && p1->bd_start_sect == 2048);
	CHECK(p1 && MAJOR(p1->bd_dev) == 179 && MINOR(p1->bd_dev) == 1);
	CHECK(blkdev_get_by_name("mmcblk01") == NULL);

	/* No rescan: a second scan registers nothing and says nothing. */
	shim_console_reset();
	int before = blkdev_count();
	CHECK_EQ(disk_scan_partitions(vda), 0);
	CHECK_EQ(blkdev_count(), before);
	CHECK(shim_console[0] == '\0');

	/* After the boot scan, add_disk() scans at once. */
	shim_console_reset();
	struct block_device *vdd = file_bdev_open(image("extended_85.img"), false);
	CHECK(vdd && !strcmp(vdd->bd_name, "vdd"));
	CHECK(strstr(shim_console, "vdd: vdd1 vdd2 vdd3 vdd4 < vdd5 vdd6 >\n") != NULL);

	/* /proc/partitions' format: each disk followed by its partitions. */
	shim_console_reset();
	char pcmd[] = "partitions";
	CHECK_EQ(shell_exec(__shell_cmds_start, __shell_cmds_end, pcmd), 0);
	const char *table =
		     "major minor  #blocks  name\n\n"
		     " 254        0      16384 vda\n"
		     " 254        1       2048 vda1\n"
		     " 254        2       2048 vda2\n"
		     " 254        3       2048 vda3\n"
		     " 254        4          1 vda4\n"
		     " 254        5       1024 vda5\n"
		     " 254        6       4096 vda6\n"
		     " 254       16      16384 vdb\n"
		     " 254       32       4096 vdc\n"
		     " 179        0      16384 mmcblk0\n"
		     " 179        1       2048 mmcblk0p1\n"
		     " 179        2       1024 mmcblk0p2\n"
		     " 179        3       4096 mmcblk0p3\n"
		     " 254       48      16384 vdd\n"
		     " 254       49       2048 vdd1\n";
	if (strstr(shim_console, table) != shim_console) {
		fprintf(stderr, "partitions printed:\n%s--- wanted it to start with:\n%s", shim_console, table);
		CHECK(0);
	}

	/* The KTAP suite on vda. */
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "partitions");
	if (failed || !strstr(shim_console, "# totals: pass:5 fail:0 skip:0\n")) {
		fprintf(stderr, "%s", shim_console);
		CHECK(0);
	}
	file_bdev_close(vda);
	unlink(copy);
	return 0;
}

static void partitions_work(void **state)
{
	(void)state;
	run_scenario(partitions_scenario);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(partitions_work),
	};

	(void)jiffy_deadline;
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
