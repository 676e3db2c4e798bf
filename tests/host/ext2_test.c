/*
 * ext2_test.c - the `ext2` KTAP suite (tests/ktest/ext2_ktest.c: ext2 through the VFS on RAM
 * disk ram0) on the host, under ASan/UBSan, in a thread of the host scheduler, over the real
 * block layer, drivers/brd.c and the sample image tools/mkramdisk made for this build.  After
 * every case (e2kt_image_hook) ram0's bytes go to a file and Debian's e2fsck -fn must call
 * the filesystem clean: a judge no one here wrote.  That judge is shown failing too: the
 * sample with one free count made wrong is not clean.
 * E2FSCK (CTest sets it; else from PATH) and TMPDIR (where the image files go).
 */
#include <unistd.h>
#include "host_sched_test.h"
#include "tinymm/brd.h"
#include "tinymm/byteorder.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/vfs.h"
#include "../ktest/ext2_ktest.h"

static char img[256];
static int e2fsck_runs;

/* ram0's bytes into @path; 0 or -errno. */
static int dump_disk(struct block_device *bdev, const char *path)
{
	uint8_t *buf = malloc(PAGE_SIZE);
	FILE *f = fopen(path, "wb");
	int err = buf && f ? 0 : -EIO;

	for (uint64_t pos = 0; !err && pos < bdev_nr_bytes(bdev); pos += PAGE_SIZE) {
		err = e2kt_bdev_read(bdev, pos, buf, PAGE_SIZE);
		if (!err && fwrite(buf, PAGE_SIZE, 1, f) != 1)
			err = -EIO;
	}
	if (f && fclose(f))
		err = -EIO;
	free(buf);
	return err;
}

/* e2fsck -fn of @path: its exit status (0: clean), its report on stderr otherwise. */
static int e2fsck(const char *path)
{
	char *cmd = malloc(1024);
	int rc;

	snprintf(cmd, 1024, "%s -fn '%s' >'%s.log' 2>&1", getenv("E2FSCK") ? getenv("E2FSCK") : "e2fsck",
		 path, path);
	rc = system(cmd);
	if (rc) {
		snprintf(cmd, 1024, "cat '%s.log' >&2", path);
		if (system(cmd))
			fprintf(stderr, "(no e2fsck log)\n");
	}
	snprintf(cmd, 1024, "%s.log", path);
	unlink(cmd);
	free(cmd);
	e2fsck_runs++;
	return rc;
}

static void e2fsck_after_case(struct ktest *t, struct block_device *bdev)
{
	KTEST_EXPECT_EQ(t, dump_disk(bdev, img), 0);
	int rc = e2fsck(img);
	if (rc)
		fprintf(stderr, "ext2_test: e2fsck -fn after case %s: status %d\n", t->name, rc);
	KTEST_EXPECT_EQ(t, rc, 0);
}

static int ext2_suite(void)
{
	char want[64];
	size_t ncases = 0;
	int ret = 0;

	snprintf(img, sizeof(img), "%s/ext2_test-%d.img", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	brd_init();
	vfs_init();			/* the ramfs root, as kernel_init mounts it */
	e2kt_image_hook = e2fsck_after_case;
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "ext2");
	for (const struct ktest_suite *s = __ktest_suites_start; s < __ktest_suites_end; s++)
		for (const struct ktest_case *c = s->cases; !strcmp(s->name, "ext2") && c->name; c++)
			ncases++;
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ncases);
	if (failed || ncases < 18 || !strstr(shim_console, want) || e2fsck_runs != (int)ncases) {
		fprintf(stderr, "%s--- wanted: %s(%d e2fsck runs)\n", shim_console, want, e2fsck_runs);
		ret = 1;
	}
	/* The judge can fail: the sample, its group's free block count one too high. */
	struct block_device *bdev = blkdev_get_by_name("ram0");
	uint16_t le;
	FILE *f;
	if (!bdev || brd_reset(bdev) || dump_disk(bdev, img) || !(f = fopen(img, "r+b"))) {
		fprintf(stderr, "ext2_test: cannot write the sample to %s\n", img);
		return 1;
	}
	/* bg_free_blocks_count: byte 12 of group 0's descriptor, block 2 (1 KiB blocks) */
	if (fseek(f, 2048 + 12, SEEK_SET) || fread(&le, 2, 1, f) != 1)
		ret = 1;
	le = cpu_to_le16((uint16_t)(le16_to_cpu(le) + 1));
	if (fseek(f, 2048 + 12, SEEK_SET) || fwrite(&le, 2, 1, f) != 1 || fclose(f))
		ret = 1;
	if (e2fsck(img) == 0) {
		fprintf(stderr, "ext2_test: e2fsck -fn called a wrong free count clean\n");
		ret = 1;
	}
	unlink(img);
	return ret;
}

static void ext2_suite_passes_and_e2fsck_agrees(void **state)
{
	(void)state;
	run_scenario(ext2_suite);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(ext2_suite_passes_and_e2fsck_agrees),
	};

	(void)jiffy_deadline;		/* host_sched_test.h's helpers this test has no use for */
	(void)start;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
