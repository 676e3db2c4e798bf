/*
 * brd_test.c - RAM disks (drivers/brd.c) on the host, under ASan/UBSan, over the real block
 * layer, in a thread of the host scheduler (the probe takes a mutex): a disk is made when first
 * named and only for ram0..ram3; ram1 reads zeros and holds no page until written; a write
 * across a disk-page boundary reads back exactly, its neighbours still zero; `blk list`'s line;
 * brd_reset() empties ram1 and gives ram0 its sample back (the superblock mke2fs wrote); a
 * virtio-style disk registered after the RAM disks is still "vda", then "vdb" (add_disk()'s
 * per-virtio count), here a host file through tests/host/file_bdev.c.
 */
#include <unistd.h>
#include "host_sched_test.h"
#include "file_bdev.h"
#include "tinymm/blkdev.h"
#include "tinymm/brd.h"
#include "tinymm/errno.h"
#include "tinymm/shell.h"

/* @len bytes at byte @pos of @bdev through one bio of one page (@pos, @len sector-aligned,
 * within one page's worth); 0 or the bio's status. */
static int rw(struct block_device *bdev, bool write, uint64_t pos, void *buf, unsigned int len)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct bio *bio = page ? bio_alloc(bdev, 1, write ? REQ_OP_WRITE : REQ_OP_READ, GFP_KERNEL) : NULL;
	int err;

	if (!bio) {
		if (page)
			__free_page(page);
		return -ENOMEM;
	}
	if (write)
		memcpy(page_address(page), buf, len);
	bio->bi_sector = pos >> SECTOR_SHIFT;
	CHECK_EQ(bio_add_page(bio, page, len, 0), len);
	err = submit_bio_wait(bio);
	if (!err && !write)
		memcpy(buf, page_address(page), len);
	bio_put(bio);
	__free_page(page);
	return err;
}

static bool all(const uint8_t *p, size_t n, uint8_t v)
{
	while (n--)
		if (*p++ != v)
			return false;
	return true;
}

static void describe(struct block_device *bdev, char *buf, size_t len)
{
	buf[0] = '\0';
	bdev->bd_ops->describe(bdev, buf, len);
}

static int brd_scenario(void)
{
	uint8_t *buf = malloc(PAGE_SIZE), *data = malloc(1024);
	char desc[96], line[224], path[256];

	if (!buf || !data)
		return 1;
	brd_init();
	CHECK(blkdev_get_by_name("ram4") == NULL);		/* four disks: ram0..ram3 */
	CHECK(blkdev_get_by_name("ramx") == NULL);
	CHECK(blkdev_get_by_name("ram01") == NULL);
	CHECK_EQ(blkdev_count(), 0);
	struct block_device *ram1 = blkdev_get_by_name("ram1");
	CHECK(ram1 != NULL);
	if (!ram1)
		return 1;
	CHECK(blkdev_get_by_name("ram1") == ram1);		/* made once */
	CHECK_EQ(blkdev_count(), 1);
	CHECK_EQ(bdev_nr_bytes(ram1), 4 << 20);
	describe(ram1, desc, sizeof(desc));
	CHECK(!strcmp(desc, "RAM disk, 0 KiB in memory"));
	/* Zeros everywhere, and reading allocates nothing. */
	memset(buf, 0xa5, PAGE_SIZE);
	CHECK_EQ(rw(ram1, false, 0, buf, PAGE_SIZE), 0);
	CHECK(all(buf, PAGE_SIZE, 0));
	memset(buf, 0xa5, PAGE_SIZE);
	CHECK_EQ(rw(ram1, false, bdev_nr_bytes(ram1) - PAGE_SIZE, buf, PAGE_SIZE), 0);
	CHECK(all(buf, PAGE_SIZE, 0));
	describe(ram1, desc, sizeof(desc));
	CHECK(!strcmp(desc, "RAM disk, 0 KiB in memory"));
	/* 1 KiB across the boundary of the disk's pages 0 and 1: both allocated, exact bytes. */
	for (int i = 0; i < 1024; i++)
		data[i] = (uint8_t)(i * 7 + 3);
	CHECK_EQ(rw(ram1, true, PAGE_SIZE - 512, data, 1024), 0);
	describe(ram1, desc, sizeof(desc));
	CHECK(!strcmp(desc, "RAM disk, 8 KiB in memory"));
	memset(buf, 0xa5, PAGE_SIZE);
	CHECK_EQ(rw(ram1, false, PAGE_SIZE - 2048, buf, PAGE_SIZE), 0);
	CHECK(all(buf, 1536, 0));
	CHECK(!memcmp(buf + 1536, data, 1024));
	CHECK(all(buf + 2560, PAGE_SIZE - 2560, 0));
	/* A bio past the end is refused by the block layer, the disk unchanged. */
	CHECK(rw(ram1, true, bdev_nr_bytes(ram1), data, 512) != 0);
	/* ram0: the sample's superblock where mke2fs put it (magic 0xef53 at byte 1024 + 56). */
	struct block_device *ram0 = blkdev_get_by_name("ram0");
	CHECK(ram0 != NULL);
	if (!ram0)
		return 1;
	CHECK_EQ(bdev_nr_bytes(ram0), 2 << 20);
	CHECK_EQ(rw(ram0, false, 0, buf, PAGE_SIZE), 0);
	CHECK(buf[1024 + 56] == 0x53 && buf[1024 + 57] == 0xef);
	/* `blk list`: one line per disk, in the order they were made. */
	shim_console_reset();
	char cmd[] = "blk list";
	CHECK_EQ(shell_exec(__shell_cmds_start, __shell_cmds_end, cmd), 0);
	CHECK(strstr(shim_console, "ram1: 4194304 bytes (8192 sectors), logical block 512, "
			 "max segments 256, RAM disk, 8 KiB in memory, ok\n") == shim_console);
	describe(ram0, desc, sizeof(desc));
	snprintf(line, sizeof(line), "\nram0: 2097152 bytes (4096 sectors), logical block 512, "
		 "max segments 256, %s, ok\n", desc);
	CHECK(strstr(shim_console, line) != NULL);
	CHECK(strstr(desc, ", the sample filesystem") != NULL);
	/* brd_reset: ram1 empty again, ram0 its sample again after a write over the superblock. */
	CHECK_EQ(brd_reset(ram1), 0);
	describe(ram1, desc, sizeof(desc));
	CHECK(!strcmp(desc, "RAM disk, 0 KiB in memory"));
	CHECK_EQ(rw(ram1, false, PAGE_SIZE - 2048, buf, PAGE_SIZE), 0);
	CHECK(all(buf, PAGE_SIZE, 0));
	memset(data, 0, 1024);
	CHECK_EQ(rw(ram0, true, 1024, data, 1024), 0);
	CHECK_EQ(rw(ram0, false, 0, buf, PAGE_SIZE), 0);
	CHECK(buf[1024 + 56] == 0);
	CHECK_EQ(brd_reset(ram0), 0);
	CHECK_EQ(rw(ram0, false, 0, buf, PAGE_SIZE), 0);
	CHECK(buf[1024 + 56] == 0x53 && buf[1024 + 57] == 0xef);
	/* A virtio-style disk after the RAM disks: still the first "vd" name. */
	snprintf(path, sizeof(path), "%s/brd_test-%d.img", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	FILE *f = fopen(path, "wb");
	CHECK(f && !ftruncate(fileno(f), 1 << 20) && !fclose(f));
	struct block_device *vda = file_bdev_open(path, false), *vdb = file_bdev_open(path, false);
	CHECK(vda && vdb);
	if (vda && vdb) {
		CHECK(!strcmp(vda->bd_name, "vda"));
		CHECK(!strcmp(vdb->bd_name, "vdb"));
		CHECK(blkdev_get_by_name("vda") == vda);
		CHECK_EQ(brd_reset(vda), -EINVAL);		/* not a RAM disk */
		file_bdev_close(vda);
		file_bdev_close(vdb);
	}
	CHECK_EQ(blkdev_count(), 4);
	unlink(path);
	free(buf);
	free(data);
	return 0;
}

static void brd_disks_work(void **state)
{
	(void)state;
	run_scenario(brd_scenario);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(brd_disks_work),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
