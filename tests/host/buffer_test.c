/*
 * buffer_test.c - buffer heads (fs/buffer.c, fs/buffer_aops.c) on a real ext2 image, judged by
 * e2fsprogs: mke2fs -d builds a 4 MiB image with 1 KiB blocks holding a known file and a
 * sparse one; debugfs says where their blocks are (bmap) and what they hold (dump); the image
 * is a host file-backed block device (tests/host/file_bdev.c).  A tiny get_block maps file
 * blocks by debugfs's answers.  Checked: reads give exactly the file's bytes, with PG_private,
 * four 1 KiB buffers, PG_mappedtodisk only on fully mapped folios; __bread of the superblock;
 * mark_buffer_dirty + sync_dirty_buffer and block_write_begin/end + writeback reach the image
 * at the block debugfs names (and e2fsck -fn stays clean); try_to_free_buffers refuses a
 * dirty or referenced buffer; invalidation, truncation and reclaim free the buffers (the
 * buffer_head slab cache's count comes back), also for a folio truncated while a buffer was
 * held; a new block is zeroed around a short write; a failed write is the mapping's error and
 * the buffer's; block_truncate_page zeroes the tail of the last block.
 * Nothing sleeps: the device completes every bio inside submit_bio().
 */
#include <limits.h>
#include <unistd.h>
#include "test.h"
#include "fake_ram.h"
#include "file_bdev.h"
#include "host_sched.h"
#include "tinymm/buffer_head.h"
#include "tinymm/errno.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/time.h"
#include "tinymm/workingset.h"
#include "tinymm/writeback.h"
#include "../../mm/slab.h"

#define FILE_SIZE	(12 * 1024 + 100)	/* 13 blocks: the 13th through the indirect block */
#define SPARSE_SIZE	(16 * 1024)		/* one data block, at block 4; the rest holes */
#define NBLK		16

static char dir[64], img[96];
static struct block_device *bdev;
static struct super_block sb;
static uint8_t file_bytes[FILE_SIZE], sparse_bytes[SPARSE_SIZE];
static sector_t file_map[NBLK], sparse_map[NBLK];	/* debugfs bmap: 0 for a hole */

struct test_inode {
	struct inode inode;
	const sector_t *map;
	sector_t new_block;			/* what get_block(create) gives a hole */
};
static struct test_inode file_ino, sparse_ino;

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 31 + (i >> 10) * 7 + 1);
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* debugfs -R 'bmap <path> <lblk>' of each block. */
static void bmap(const char *path, sector_t *map)
{
	for (int i = 0; i < NBLK; i++) {
		char cmd[256], line[64] = "";
		snprintf(cmd, sizeof(cmd), "debugfs -R 'bmap %s %d' %s 2>/dev/null", path, i, img);
		FILE *p = popen(cmd, "r");
		assert_non_null(p);
		if (!fgets(line, sizeof(line), p))
			line[0] = '\0';
		pclose(p);
		map[i] = strtoull(line, NULL, 10);
	}
}

/* debugfs's dump of @path must equal @want. */
static void expect_dump(const char *path, const uint8_t *want, size_t len)
{
	char out[128];
	static uint8_t got[SPARSE_SIZE + 1];

	snprintf(out, sizeof(out), "%s/dump", dir);
	assert_int_equal(sh("debugfs -R 'dump %s %s' %s >/dev/null 2>&1", path, out, img), 0);
	FILE *f = fopen(out, "rb");
	assert_non_null(f);
	size_t n = fread(got, 1, sizeof(got), f);
	fclose(f);
	assert_int_equal(n, len);
	assert_memory_equal(got, want, len);
}

static void expect_fsck_clean(void)
{
	assert_int_equal(sh("e2fsck -fn %s >/dev/null 2>&1", img), 0);
}

static int test_get_block(struct inode *inode, sector_t iblock, struct buffer_head *bh, int create)
{
	struct test_inode *ti = container_of(inode, struct test_inode, inode);

	if (iblock < NBLK && ti->map[iblock]) {
		map_bh(bh, inode->i_sb, ti->map[iblock]);
		return 0;
	}
	if (create && ti->new_block) {
		map_bh(bh, inode->i_sb, ti->new_block);
		set_buffer_new(bh);
	}
	return 0;
}

static int test_read_folio(struct address_space *mapping, struct folio *folio)
{
	return block_read_full_folio(folio, test_get_block);
}

static void test_readahead(struct readahead_control *rac)
{
	mpage_readahead(rac, test_get_block);
}

static int test_write_begin(struct address_space *mapping, loff_t pos, unsigned int len,
			    struct folio **foliop)
{
	return block_write_begin(mapping, pos, len, foliop, test_get_block);
}

static int test_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	return mpage_writepages(mapping, wbc, test_get_block);
}

static const struct address_space_operations test_aops = {
	.read_folio = test_read_folio,
	.readahead = test_readahead,
	.write_begin = test_write_begin,
	.write_end = generic_write_end,
	.writepages = test_writepages,
	.dirty_folio = block_dirty_folio,
	.invalidate_folio = block_invalidate_folio,
};

static void inode_setup(struct test_inode *ti, const sector_t *map, loff_t size)
{
	memset(ti, 0, sizeof(*ti));
	ti->map = map;
	ti->inode.i_sb = &sb;
	ti->inode.i_size = size;
	address_space_init(&ti->inode.i_data, &test_aops, size);
	ti->inode.i_data.host = bdev;
	ti->inode.i_mapping = &ti->inode.i_data;
}

static unsigned long bh_objects(void)
{
	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		if (!strcmp(s->name, "buffer_head"))
			return s->total_objects - slab_free_objects(s);
	return 0;
}

static struct folio *read_folio_at(struct test_inode *ti, pgoff_t index)
{
	struct folio *folio = read_cache_folio(&ti->inode.i_data, index);

	assert_false(IS_ERR(folio));
	return folio;
}

static void drop_cache(struct test_inode *ti)
{
	truncate_inode_pages(&ti->inode.i_data, 0);
	assert_int_equal(ti->inode.i_data.nrpages, 0);
}

/* ---- the cases ---- */

static void read_gives_the_files_bytes(void **state)
{
	static uint8_t buf[SPARSE_SIZE];
	struct file_ra_state ra;

	file_ra_state_init(&ra, 0);
	assert_int_equal(filemap_read(&file_ino.inode.i_data, &ra, 0, buf, sizeof(buf)), FILE_SIZE);
	assert_memory_equal(buf, file_bytes, FILE_SIZE);

	/* Folio 0: four 1 KiB buffers, each at the block debugfs names, all mapped. */
	struct folio *folio = read_folio_at(&file_ino, 0);
	struct buffer_head *head = folio_buffers(folio), *bh = head;
	assert_true(folio_test_private(folio));
	assert_ptr_equal((void *)folio->private, head);
	int n = 0;
	do {
		assert_int_equal(bh->b_size, 1024);
		assert_true(buffer_mapped(bh) && buffer_uptodate(bh));
		assert_int_equal(bh->b_blocknr, file_map[n]);
		assert_ptr_equal(bh->b_folio, folio);
		n++;
	} while ((bh = bh->b_this_page) != head);
	assert_int_equal(n, 4);
	assert_true(folio_test_mappedtodisk(folio));
	folio_put(folio);
	/* Folio 3: block 12 is the file's, 13-15 lie past its end: not all mapped. */
	folio = read_folio_at(&file_ino, 3);
	assert_true(folio_test_private(folio) && folio_test_uptodate(folio));
	assert_false(folio_test_mappedtodisk(folio));
	assert_true(buffer_mapped(folio_buffers(folio)));
	assert_false(buffer_mapped(folio_buffers(folio)->b_this_page));
	folio_put(folio);
	drop_cache(&file_ino);
}

static void holes_read_as_zeroes_and_are_not_mappedtodisk(void **state)
{
	static uint8_t buf[SPARSE_SIZE];
	struct file_ra_state ra;

	assert_int_equal(sparse_map[0], 0);		/* mke2fs -d kept the holes */
	assert_int_not_equal(sparse_map[4], 0);
	file_ra_state_init(&ra, 0);
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(filemap_read(&sparse_ino.inode.i_data, &ra, 0, buf, sizeof(buf)), SPARSE_SIZE);
	assert_memory_equal(buf, sparse_bytes, SPARSE_SIZE);
	for (pgoff_t i = 0; i < 4; i++) {
		struct folio *folio = read_folio_at(&sparse_ino, i);
		assert_true(folio_test_private(folio) && folio_test_uptodate(folio));
		assert_false(folio_test_mappedtodisk(folio));
		folio_put(folio);
	}
	drop_cache(&sparse_ino);
}

static void bread_reads_the_superblock(void **state)
{
	struct buffer_head *bh = __bread(bdev, 1, 1024);

	assert_non_null(bh);
	const uint8_t *sbp = (const uint8_t *)bh->b_data;
	assert_int_equal(sbp[56] | sbp[57] << 8, 0xEF53);
	assert_int_equal(atomic_read(&bh->b_count), 1);
	assert_true(buffer_uptodate(bh) && buffer_mapped(bh));
	assert_int_equal(bh->b_blocknr, 1);
	assert_true(folio_test_private(bh->b_folio));
	/* The same folio in 2 KiB blocks: refused, one line. */
	shim_console_reset();
	assert_null(__bread(bdev, 0, 2048));
	assert_console_has("cached in 1024-byte ones");
	assert_null(__bread(bdev, 4096, 1024));		/* past the 4 MiB end */
	brelse(bh);
	assert_int_equal(atomic_read(&bh->b_count), 0);
}

static void sync_dirty_buffer_writes_the_image(void **state)
{
	int fd = file_bdev_fd(bdev);
	struct buffer_head *bh = __bread(bdev, 1, 1024);
	char c;

	assert_non_null(bh);
	char old = bh->b_data[120];			/* s_volume_name[0] */
	bh->b_data[120] = 'X';
	mark_buffer_dirty(bh);
	assert_true(buffer_dirty(bh) && folio_test_dirty(bh->b_folio));
	assert_int_equal(pread(fd, &c, 1, 1024 + 120), 1);
	assert_int_equal(c, old);			/* not yet */
	assert_int_equal(sync_dirty_buffer(bh), 0);
	assert_false(buffer_dirty(bh));
	assert_int_equal(pread(fd, &c, 1, 1024 + 120), 1);
	assert_int_equal(c, 'X');
	/* Back as it was, through the flusher's path this time (whole folio). */
	bh->b_data[120] = old;
	mark_buffer_dirty(bh);
	brelse(bh);
	assert_int_equal(blkdev_fsync(bdev), 0);
	assert_false(buffer_dirty(bh));		/* the folio's write cleaned its buffers */
	assert_int_equal(pread(fd, &c, 1, 1024 + 120), 1);
	assert_int_equal(c, old);
	expect_fsck_clean();
}

static void fill_x(void *ctx, uint64_t pos, uint8_t *dst, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		dst[i] = (uint8_t)(0xc0 ^ (pos + i));
}

static void write_begin_end_and_writeback_reach_the_block(void **state)
{
	const loff_t pos = 5 * 1024 + 10;
	unsigned long reads0, writes0, reads1, writes1;
	int err = 0;

	file_bdev_counts(bdev, &reads0, &writes0);
	assert_int_equal(generic_perform_write(&file_ino.inode.i_data, pos, 100, fill_x, NULL, &err), 100);
	assert_int_equal(err, 0);
	file_bdev_counts(bdev, &reads1, &writes1);
	assert_int_equal(reads1 - reads0, 1);		/* block 5 alone, partly written */
	struct folio *folio = filemap_get_folio(&file_ino.inode.i_data, 1);
	assert_false(IS_ERR(folio));
	assert_true(folio_test_dirty(folio));
	assert_false(folio_test_uptodate(folio));	/* blocks 4, 6, 7 never read */
	assert_true(buffer_dirty(folio_buffers(folio)->b_this_page));
	assert_false(buffer_dirty(folio_buffers(folio)));
	folio_put(folio);

	assert_int_equal(filemap_write_and_wait_range(&file_ino.inode.i_data, 0, LLONG_MAX), 0);
	file_bdev_counts(bdev, &reads0, &writes0);
	assert_int_equal(writes0 - writes1, 1);		/* one bio: the one dirty buffer */
	for (int i = 0; i < 100; i++)
		file_bytes[pos + i] = (uint8_t)(0xc0 ^ (pos + i));
	uint8_t blk[1024];
	assert_int_equal(pread(file_bdev_fd(bdev), blk, 1024, (off_t)file_map[5] * 1024), 1024);
	assert_memory_equal(blk, file_bytes + 5 * 1024, 1024);
	expect_dump("/file", file_bytes, FILE_SIZE);
	expect_fsck_clean();
	drop_cache(&file_ino);
}

static void try_to_free_buffers_refuses_busy_ones(void **state)
{
	struct folio *folio = read_folio_at(&file_ino, 0);
	struct buffer_head *bh = folio_buffers(folio);
	int refs = atomic_read(&folio->_refcount);

	folio_lock(folio);
	set_buffer_dirty(bh->b_this_page);
	assert_false(try_to_free_buffers(folio));
	clear_buffer_dirty(bh->b_this_page);
	get_bh(bh);
	assert_false(try_to_free_buffers(folio));
	put_bh(bh);
	assert_true(folio_test_private(folio));
	assert_true(try_to_free_buffers(folio));
	assert_false(folio_test_private(folio));
	assert_int_equal(folio->private, 0);
	assert_int_equal(atomic_read(&folio->_refcount), refs - 1);	/* the ring's reference */
	folio_unlock(folio);
	folio_put(folio);
	drop_cache(&file_ino);
}

static void invalidation_truncation_and_reclaim_free_buffers(void **state)
{
	unsigned long before = bh_objects();
	static uint8_t buf[FILE_SIZE];
	struct file_ra_state ra;

	file_ra_state_init(&ra, 0);
	assert_int_equal(filemap_read(&file_ino.inode.i_data, &ra, 0, buf, FILE_SIZE), FILE_SIZE);
	assert_int_equal(bh_objects(), before + 16);
	truncate_inode_pages(&file_ino.inode.i_data, 0);
	assert_int_equal(bh_objects(), before);

	assert_int_equal(filemap_read(&file_ino.inode.i_data, &ra, 0, buf, FILE_SIZE), FILE_SIZE);
	assert_int_equal(invalidate_mapping_pages(&file_ino.inode.i_data, 0, ~0UL), 4);
	assert_int_equal(bh_objects(), before);

	/* A partial truncation drops the buffers wholly past the new end, keeps the folio. */
	struct folio *folio = read_folio_at(&file_ino, 0);
	truncate_inode_pages_range(&file_ino.inode.i_data, 2048, 4095);
	assert_true(folio_test_private(folio));
	assert_true(buffer_mapped(folio_buffers(folio)->b_this_page));
	assert_false(buffer_mapped(folio_buffers(folio)->b_this_page->b_this_page));
	folio_put(folio);
	drop_cache(&file_ino);

	/* Reclaim of a clean folio with buffers: released, then freed. */
	folio = read_folio_at(&file_ino, 2);
	assert_int_equal(bh_objects(), before + 4);
	folio_put(folio);
	assert_int_equal(reclaim_folio_for_test(folio, false, false), 1);
	assert_int_equal(bh_objects(), before);
	assert_int_equal(file_ino.inode.i_data.nrpages, 0);

	/* Truncated while a buffer is held: out of the mapping, buffers kept (PG_private, the
	 * ring's reference); once released, reclaim frees buffers and folio. */
	folio = read_folio_at(&file_ino, 1);
	struct buffer_head *held = folio_buffers(folio);
	get_bh(held);
	drop_cache(&file_ino);
	assert_null(folio->mapping);
	assert_true(folio_test_private(folio));
	lru_add_drain();				/* the LRU batch's reference */
	assert_int_equal(atomic_read(&folio->_refcount), 2);	/* ours and the ring's */
	folio_put(folio);
	assert_int_equal(reclaim_folio_for_test(folio, false, false), 0);	/* still held */
	assert_true(folio_test_private(folio));
	put_bh(held);
	assert_int_equal(reclaim_folio_for_test(folio, false, false), 1);
	assert_int_equal(bh_objects(), before);
}

static void a_new_block_is_zeroed_around_a_short_write(void **state)
{
	struct address_space *mapping = &sparse_ino.inode.i_data;
	struct folio *folio;

	sparse_ino.new_block = 4000;			/* free in a fresh 4 MiB image's last group */
	assert_int_equal(block_write_begin(mapping, 5 * 1024 + 100, 10, &folio, test_get_block), 0);
	struct buffer_head *bh = folio_buffers(folio)->b_this_page;	/* block 5 */
	assert_true(buffer_new(bh) && buffer_mapped(bh));
	assert_int_equal(bh->b_blocknr, 4000);
	memset(bh->b_data + 100, 0x5a, 10);
	assert_int_equal(block_write_end(mapping, 5 * 1024 + 100, 10, 10, folio), 10);
	assert_false(buffer_new(bh));
	assert_true(buffer_dirty(bh) && buffer_uptodate(bh));
	for (int i = 0; i < 1024; i++)
		assert_int_equal((uint8_t)bh->b_data[i], i >= 100 && i < 110 ? 0x5a : 0);
	assert_true(folio_test_locked(folio));		/* block_write_end keeps it */
	folio_unlock(folio);
	folio_put(folio);
	sparse_ino.new_block = 0;
	drop_cache(&sparse_ino);			/* thrown away: block 4000 never written */
	expect_fsck_clean();
}

static void a_failed_write_is_the_mappings_error(void **state)
{
	struct address_space *mapping = &file_ino.inode.i_data;
	int err = 0;
	char c;

	assert_int_equal(generic_perform_write(mapping, 2 * 1024, 1, fill_x, NULL, &err), 1);
	file_bdev_fail_writes(bdev, 1);
	shim_console_reset();
	assert_int_equal(filemap_write_and_wait_range(mapping, 0, LLONG_MAX), -EIO);
	assert_console_has("Buffer I/O error on dev vda");
	struct folio *folio = filemap_get_folio(mapping, 0);
	assert_false(IS_ERR(folio));
	assert_false(folio_test_dirty(folio) || folio_test_writeback(folio));
	assert_true(buffer_write_io_error(folio_buffers(folio)->b_this_page->b_this_page));
	folio_put(folio);
	assert_int_equal(pread(file_bdev_fd(bdev), &c, 1, (off_t)file_map[2] * 1024), 1);
	assert_int_equal((uint8_t)c, file_bytes[2 * 1024]);	/* the disk kept the old byte */
	drop_cache(&file_ino);
}

static void block_truncate_page_zeroes_the_tail_block(void **state)
{
	struct address_space *mapping = &file_ino.inode.i_data;
	const loff_t from = 12 * 1024 + 50;

	assert_int_equal(block_truncate_page(mapping, from, test_get_block), 0);
	struct folio *folio = filemap_get_folio(mapping, 3);
	assert_false(IS_ERR(folio));
	const uint8_t *p = page_address(&folio->page);
	assert_memory_equal(p, file_bytes + 12 * 1024, 50);	/* read, kept */
	for (int i = 50; i < 1024; i++)
		assert_int_equal(p[i], 0);
	assert_true(buffer_dirty(folio_buffers(folio)) && folio_test_dirty(folio));
	folio_put(folio);
	assert_int_equal(block_truncate_page(mapping, 12 * 1024, test_get_block), 0);	/* boundary */
	drop_cache(&file_ino);				/* not written: the image keeps its bytes */
}

static void nothing_slept_or_leaked(void **state)
{
	assert_int_equal(might_sleep_warnings(), 0);
	expect_dump("/file", file_bytes, FILE_SIZE);
	expect_dump("/sparse", sparse_bytes, SPARSE_SIZE);
}

/* ---- the image ---- */

static int make_image(void)
{
	char path[160];
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/buffer_test.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(img, sizeof(img), "%s/ext2.img", dir);
	if (sh("mkdir %s/src", dir))
		return -1;
	for (size_t i = 0; i < FILE_SIZE; i++)
		file_bytes[i] = pattern(i);
	for (size_t i = 0; i < 1024; i++)
		sparse_bytes[4096 + i] = pattern(i + 5);
	snprintf(path, sizeof(path), "%s/src/file", dir);
	f = fopen(path, "wb");
	if (!f || fwrite(file_bytes, 1, FILE_SIZE, f) != FILE_SIZE || fclose(f))
		return -1;
	snprintf(path, sizeof(path), "%s/src/sparse", dir);
	f = fopen(path, "wb");
	if (!f || fseek(f, 4096, SEEK_SET) || fwrite(sparse_bytes + 4096, 1, 1024, f) != 1024 || fclose(f))
		return -1;
	if (truncate(path, SPARSE_SIZE))
		return -1;
	if (sh("mke2fs -q -F -t ext2 -b 1024 -d %s/src %s 4M >/dev/null 2>&1", dir, img))
		return -1;
	return 0;
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(read_gives_the_files_bytes),
	cmocka_unit_test(holes_read_as_zeroes_and_are_not_mappedtodisk),
	cmocka_unit_test(bread_reads_the_superblock),
	cmocka_unit_test(sync_dirty_buffer_writes_the_image),
	cmocka_unit_test(write_begin_end_and_writeback_reach_the_block),
	cmocka_unit_test(try_to_free_buffers_refuses_busy_ones),
	cmocka_unit_test(invalidation_truncation_and_reclaim_free_buffers),
	cmocka_unit_test(a_new_block_is_zeroed_around_a_short_write),
	cmocka_unit_test(a_failed_write_is_the_mappings_error),
	cmocka_unit_test(block_truncate_page_zeroes_the_tail_block),
	cmocka_unit_test(nothing_slept_or_leaked),
};

/* On the shim's boot stack, made the idle thread: submit_bio_wait()'s completion wait needs a
 * current task, though it never sleeps here (the bio is done before the wait). */
static int run_on_boot_stack(void)
{
	sched_init();
	pagecache_init();
	workingset_init();
	bdev = file_bdev_open(img, true);
	if (!bdev)
		return 1;
	sb.s_bdev = bdev;
	sb.s_blocksize = 1024;
	sb.s_blocksize_bits = 10;
	bmap("/file", file_map);
	bmap("/sparse", sparse_map);
	inode_setup(&file_ino, file_map, FILE_SIZE);
	inode_setup(&sparse_ino, sparse_map, SPARSE_SIZE);
	int ret = cmocka_run_group_tests(tests, NULL, NULL);
	file_bdev_close(bdev);
	return ret;
}

int main(void)
{
	const size_t ram_size = 16 * SZ_1M;
	char *ram = fake_ram_alloc(ram_size);

	if (!ram || make_image()) {
		fprintf(stderr, "buffer_test: cannot build the ext2 image (mke2fs -d)\n");
		return 1;
	}
	if (fake_ram_one_bank(__pa(ram), ram_size))
		return 1;
	fake_ram_reserve_kernel(__pa(ram));
	if (memmap_init() || page_alloc_init())
		return 1;
	kmem_cache_init();
	time_init(3000000);
	shim_counter_freq = 3000000;
	int ret = host_sched_boot(run_on_boot_stack);
	if (!ret)
		sh("rm -rf %s", dir);
	free(ram);
	return ret;
}
