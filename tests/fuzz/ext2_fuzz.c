/*
 * ext2_fuzz.c - libFuzzer target for ext2 (fs/ext2/), the VFS (fs/) and the buffer heads
 * (fs/buffer.c) over a block device backed by a host file (tests/host/file_bdev.c): CTest
 * fuzz.ext2; long runs: README.md.
 *
 * The kernel (page allocator, slab, scheduler, page cache, block layer, VFS with a ramfs
 * root and /mnt) boots once, on the boot stack of tests/host/host_sched_arch.c, and pauses;
 * each input resumes it (host_sched_resume) and runs in a kernel thread, because the VFS
 * sleeps on mutexes and folio locks.  There is one disk, vda, for every input (the block
 * layer cannot remove a disk): each input rewrites its backing file and drops the old
 * contents from the disk's page cache.
 *
 * The base images are made at build time by ext2_fuzz_images.sh (Debian's mke2fs -d: 1 and
 * 4 KiB blocks, a file through the indirect block and one through the double-indirect one, a
 * directory of several blocks, an empty one, fast and slow symlinks, a symlink loop, a hard
 * link), read from EXT2_FUZZ_IMAGES (the build folder's, compiled in; the environment
 * variable of that name overrides it), with the host trees they were made from: those trees
 * are the model's starting point, so what the model says owes nothing to tinymm.
 *
 * An input:
 *   byte 0      the base image (% 3); 0xf0 and above: mount read-only
 *   byte 1      below 0x60: no patch (a clean image); else 1 + (b & 7) patches of 4 bytes:
 *               [where] [offset hi] [offset lo] [value]; where % 8 picks the superblock, the
 *               group descriptors, a block bitmap, an inode bitmap, an in-use inode of the
 *               inode table, a directory block, an indirect block, or any byte; where >> 3 & 3
 *               xors the value in, sets it, sets 0, or adds value - 128 (so a count moves by
 *               a little)
 *   the rest    up to MAX_OPS operations (ext2_fuzz_ops.c), read round and round but stopping
 *               at the first wrap: stat, lstat, read a whole file, getdents64, write at 0 / the
 *               end / the middle / up to 300 KiB in (holes, indirect blocks), O_APPEND write,
 *               truncate, unlink, mkdir, rmdir, rename, link, symlink (fast and slow targets),
 *               readlink, open-and-keep / read-back + fsync / close of up to two files (unlink
 *               of an open file), and umount + mount (EBUSY first while a file is open)
 *               on paths the model names, new names, and a few odd paths (symlinks, a loop, a
 *               trailing slash, a name too long)
 *
 * Checked for every input:
 *   - no sanitizer report, crash, hang (libFuzzer's -timeout), kernel BUG, WARN, bad page or
 *     deadlock (host_sched_arch.c aborts on one);
 *   - a refused mount names the problem in one line ("ext2" in the kernel log) with one of
 *     EINVAL, EUCLEAN, EIO, EOPNOTSUPP (tinymm's "valid but unsupported", docs/ext2.md), and
 *     leaves the image byte-identical; a read-only mount too;
 *   - every operation's error is one Linux gives for it (ext2_fuzz_ops.c's allowed[]);
 *   - every mount is unmounted at the end, the umount succeeds and leaves nothing dirty or
 *     under writeback in the disk's page cache, and nr_inodes, NR_FILE_PAGES and the live
 *     buffer heads are what they were before the input once that cache is dropped (which
 *     must then be empty: no buffer still held).
 * And for a clean image (no patch):
 *   - every operation's result is the model's (names, types, sizes, link counts, inode
 *     numbers stable, file contents, symlink targets, directory listings), except that a
 *     disk statfs shows nearly full may refuse a write or a new name (ENOSPC, a short write);
 *   - after the umount, `e2fsck -fn` on the backing file finds it clean (exit status 0); then
 *     a fresh mount shows exactly the model's tree and bytes (verify_tree), and is unmounted.
 *   e2fsck takes about 7 ms a run on these images, so every clean input gets one.
 *
 * EXT2_FUZZ_BREAK=1 changes one byte of the model's hello.txt before the fresh mount (the
 * comparison must abort: fuzz.ext2_model_mismatch_aborts); =2 marks a free block used in the
 * image behind the filesystem's back after the umount (e2fsck must object:
 * fuzz.ext2_e2fsck_aborts).  EXT2_FUZZ_TRACE=1 prints each operation as it runs (to replay
 * a crash input).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fake_ram.h"
#include "file_bdev.h"
#include "host_sched.h"
#include "shim.h"
#include "tinymm/bug.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "tinymm/timer.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"
#include "tinymm/workingset.h"
#include "tinymm/workqueue.h"
#include "tinymm/writeback.h"
#include "../../fs/ext2/ext2_fs.h"
#include "../../fs/internal.h"
#include "../../mm/slab.h"
#include "ext2_fuzz.h"

#ifndef EXT2_FUZZ_IMAGES
#define EXT2_FUZZ_IMAGES "."
#endif
#define NR_IMAGES	3
#define MAX_OPS		48
#define MAX_PATCHES	8
#define RAM_SIZE	(32UL << 20)

/* A base image, its tree, and where its metadata is (byte ranges, for the patches). */
enum { R_SUPER, R_GDT, R_BBITMAP, R_IBITMAP, R_INODE, R_DIR, R_IND, R_ANY, NR_REGIONS };
struct span {
	uint32_t off, len;
};
struct image {
	uint8_t *bytes;
	size_t size;
	struct model model;
	struct span r[NR_REGIONS][64];
	int nr[NR_REGIONS];
};
static struct image images[NR_IMAGES];

int break_mode;
bool trace;
uint8_t *scratch;
static char *ram, backing[64];
static uint8_t *img;			/* this input's image, as written to the disk */
static size_t img_size;
static struct block_device *disk;
static struct model model;
static const uint8_t *cur_data;
static size_t cur_size;
static unsigned long long total_ops, total_inputs, clean_inputs, refused_mounts, fscks;
static unsigned long warn0, bad0;
static volatile bool input_done;

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "ext2_fuzz: check failed at %s:%d: %s\n", file, line, what);
	abort();
}

/* Any abort (a failed check, a kernel BUG or panic, a deadlock) prints the kernel log first,
 * then goes on to libFuzzer's handler, which saves the input. */
static struct sigaction libfuzzer_abrt;

static void on_abort(int sig, siginfo_t *si, void *uc)
{
	fprintf(stderr, "--- kernel log (this input's) ---\n%s--- end ---\n", shim_console);
	if (libfuzzer_abrt.sa_flags & SA_SIGINFO && libfuzzer_abrt.sa_sigaction)
		libfuzzer_abrt.sa_sigaction(sig, si, uc);
	else if (libfuzzer_abrt.sa_handler != SIG_DFL && libfuzzer_abrt.sa_handler != SIG_IGN)
		libfuzzer_abrt.sa_handler(sig);
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
}

static void report(void)
{
	fprintf(stderr, "ext2_fuzz: %llu operations in %llu inputs (%llu clean, judged by the model "
		"and %llu e2fsck runs; %llu refused mounts)\n", total_ops, total_inputs, clean_inputs,
		fscks, refused_mounts);
	if (backing[0])
		unlink(backing);
}

/* ---- the base images ---- */

static void add_span(struct image *im, int r, uint64_t off, uint64_t len)
{
	if (im->nr[r] < 64 && off + len <= im->size && len)
		im->r[r][im->nr[r]++] = (struct span){ (uint32_t)off, (uint32_t)len };
}

/* Where the metadata of a clean image is: the patches aim there. */
static void map_image(struct image *im)
{
	const struct ext2_super_block *es = (const void *)(im->bytes + 1024);
	uint32_t bs = 1024u << le32_to_cpu(es->s_log_block_size);
	uint32_t ipg = le32_to_cpu(es->s_inodes_per_group), isz = le16_to_cpu(es->s_inode_size);
	uint32_t bpg = le32_to_cpu(es->s_blocks_per_group), first = le32_to_cpu(es->s_first_data_block);
	uint32_t groups = (le32_to_cpu(es->s_blocks_count) - first + bpg - 1) / bpg;
	const struct ext2_group_desc *gd = (const void *)(im->bytes + (first + 1) * bs);

	add_span(im, R_SUPER, 1024, 1024);
	add_span(im, R_GDT, (first + 1) * bs, groups * sizeof(*gd));
	add_span(im, R_ANY, 0, im->size);
	for (uint32_t g = 0; g < groups; g++) {
		add_span(im, R_BBITMAP, (uint64_t)le32_to_cpu(gd[g].bg_block_bitmap) * bs, bs);
		add_span(im, R_IBITMAP, (uint64_t)le32_to_cpu(gd[g].bg_inode_bitmap) * bs, bs);
		const uint8_t *ib = im->bytes + (uint64_t)le32_to_cpu(gd[g].bg_inode_bitmap) * bs;
		for (uint32_t i = 0; i < ipg; i++) {
			if (!(ib[i / 8] >> (i % 8) & 1))
				continue;
			uint64_t at = (uint64_t)le32_to_cpu(gd[g].bg_inode_table) * bs + (uint64_t)i * isz;
			const struct ext2_inode *ino = (const void *)(im->bytes + at);
			add_span(im, R_INODE, at, 128);
			if (!le16_to_cpu(ino->i_links_count))
				continue;
			for (int b = 0; b < EXT2_N_BLOCKS && (le16_to_cpu(ino->i_mode) & S_IFMT) != S_IFLNK; b++) {
				uint32_t blk = le32_to_cpu(ino->i_block[b]);
				if (!blk)
					continue;
				if (b >= EXT2_IND_BLOCK)
					add_span(im, R_IND, (uint64_t)blk * bs, bs);
				else if ((le16_to_cpu(ino->i_mode) & S_IFMT) == S_IFDIR)
					add_span(im, R_DIR, (uint64_t)blk * bs, bs);
				if (b == EXT2_DIND_BLOCK) {	/* its first indirect block too */
					uint32_t ind = le32_to_cpu(*(const uint32_t *)(im->bytes + (uint64_t)blk * bs));
					add_span(im, R_IND, (uint64_t)ind * bs, bs);
				}
			}
		}
	}
}

static void load_images(void)
{
	const char *dir = getenv("EXT2_FUZZ_IMAGES") ? getenv("EXT2_FUZZ_IMAGES") : EXT2_FUZZ_IMAGES;

	for (int i = 0; i < NR_IMAGES; i++) {
		char path[4096];
		struct image *im = &images[i];
		snprintf(path, sizeof(path), "%s/%d.img", dir, i);
		FILE *f = fopen(path, "rb");
		if (!f || fseek(f, 0, SEEK_END) || (im->size = (size_t)ftell(f)) < 4096) {
			fprintf(stderr, "ext2_fuzz: cannot read %s (made by ext2_fuzz_images.sh)\n", path);
			exit(1);
		}
		im->bytes = malloc(im->size);
		rewind(f);
		if (fread(im->bytes, 1, im->size, f) != im->size)
			exit(1);
		fclose(f);
		snprintf(path, sizeof(path), "%s/%s", dir, i == 2 ? "tree-big" : "tree");
		if (m_load(&im->model, path)) {
			fprintf(stderr, "ext2_fuzz: cannot read the tree %s\n", path);
			exit(1);
		}
		map_image(im);
	}
}

/* ---- the disk and e2fsck ---- */

static void disk_read(uint8_t *buf, size_t len)
{
	CHECK(pread(file_bdev_fd(disk), buf, len, 0) == (ssize_t)len);
}

/* e2fsck -fn on the backing file: its exit status (0: clean). */
static int e2fsck(bool quiet)
{
	fscks++;
	return host_e2fsck(backing, quiet);
}

int ext2_mount(struct run *r)
{
	int err = do_mount(disk->bd_name, MNT, "ext2", r->rdonly ? SB_RDONLY : 0);

	r->mounted = !err;
	if (!err) {
		struct vfsmount *m;
		list_for_each_entry(m, &vfs_mounts, mnt_list)
			if (m->mnt_sb->s_bdev == disk && m->mnt_sb->s_flags & SB_RDONLY)
				r->rdonly = true;	/* a feature tinymm lacks: read-only */
	}
	return err;
}

static unsigned long bh_objects(void)
{
	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		if (!strcmp(s->name, "buffer_head"))
			return s->total_objects - slab_free_objects(s);
	return 0;
}

/* Drop the disk's page cache: after a umount nothing may still hold a buffer or folio. */
static void drop_disk_cache(void)
{
	if (mapping_tagged(disk->bd_mapping, PAGECACHE_TAG_DIRTY) ||
	    mapping_tagged(disk->bd_mapping, PAGECACHE_TAG_WRITEBACK))
		FAILF("the disk's page cache is dirty after the umount (metadata never written)");
	truncate_inode_pages(disk->bd_mapping, 0);
	if (disk->bd_mapping->nrpages)
		FAILF("%lu folios of the disk's page cache stay after truncation (a buffer held?)",
		      disk->bd_mapping->nrpages);
}

/* EXT2_FUZZ_BREAK=2: a free block marked used on the disk (the first of the first group
 * that has one). */
static void mark_a_free_block(const struct image *im)
{
	const struct ext2_super_block *es = (const void *)(im->bytes + 1024);
	uint32_t bpg = le32_to_cpu(es->s_blocks_per_group);
	uint32_t left = le32_to_cpu(es->s_blocks_count) - le32_to_cpu(es->s_first_data_block);
	uint8_t map[4096];

	for (int g = 0; g < im->nr[R_BBITMAP]; g++, left -= bpg) {
		const struct span *bb = &im->r[R_BBITMAP][g];
		CHECK(pread(file_bdev_fd(disk), map, bb->len, bb->off) == (ssize_t)bb->len);
		for (uint32_t i = 0; i < bpg && i < left; i++)
			if (!(map[i / 8] >> (i % 8) & 1)) {
				map[i / 8] |= (uint8_t)(1 << (i % 8));
				CHECK(pwrite(file_bdev_fd(disk), map, bb->len, bb->off) == (ssize_t)bb->len);
				return;
			}
	}
	FAILF("no free block");
}

/* ---- one input, in a kernel thread ---- */

static int input_main(void *unused)
{
	struct input in = { .data = cur_data, .size = cur_size, .pos = 0 };
	struct run r = { .m = &model };
	unsigned long inodes0 = nr_inodes, pages0 = global_node_page_state(NR_FILE_PAGES);
	unsigned long bh0 = bh_objects();
	unsigned int b0 = cur_size ? byte(&in) : 0, b1 = cur_size > 1 ? byte(&in) : 0;
	int npatch = b1 < 0x60 ? 0 : (int)(b1 & 7) + 1;
	size_t last = 0;

	(void)unused;
	r.modelled = npatch == 0;
	r.rdonly = b0 >= 0xf0;
	in.pos = in.restart = min(cur_size, (size_t)2 + 4 * npatch);
	if (in.pos >= cur_size)
		in.pos = in.restart = 0;
	shim_console_reset();
	int err = ext2_mount(&r);
	if (err) {
		refused_mounts++;
		if (r.modelled)
			FAILF("the clean image %u was refused: %s", b0 % NR_IMAGES, errname(-err));
		if (err != -EINVAL && err != -EUCLEAN && err != -EIO && err != -EOPNOTSUPP)
			FAILF("mount refused with %s, not EINVAL, EUCLEAN, EIO or EOPNOTSUPP", errname(-err));
		if (!strstr(shim_console, "ext2"))
			FAILF("mount refused (%s) without a line naming the problem", errname(-err));
	}
	bool rdonly = r.rdonly;
	for (int k = 0; r.mounted && cur_size > 2 && k < MAX_OPS; k++) {
		if (in.pos < last)
			break;		/* the input wrapped round */
		last = in.pos;
		run_op(&r, &in);
	}
	total_ops += r.ops;
	if (r.mounted) {
		close_held(&r);
		snprintf(r.why, sizeof(r.why), "the final umount");
		CHECK(do_umount(MNT) == 0);
	}
	CHECK(nr_inodes == inodes0);
	CHECK(global_node_page_state(NR_FILE_PAGES) >= pages0);
	drop_disk_cache();
	CHECK(global_node_page_state(NR_FILE_PAGES) == pages0);
	CHECK(bh_objects() == bh0);
	if (err || rdonly) {
		disk_read(scratch, img_size);
		for (size_t i = 0; i < img_size; i++)
			if (scratch[i] != img[i])
				FAILF("a %s mount changed byte %zu of the image (0x%02x to 0x%02x)",
				      err ? "refused" : "read-only", i, img[i], scratch[i]);
	}
	if (r.modelled && !err) {
		clean_inputs++;
		if (break_mode == 2)		/* a free block marked used: e2fsck must see it */
			mark_a_free_block(&images[b0 % NR_IMAGES]);
		int st = e2fsck(true);
		if (st) {
			e2fsck(false);
			FAILF("e2fsck -fn: exit status %d after the umount (its report above)", st);
		}
		if (break_mode == 1)		/* a byte the model has and the disk does not */
			model.n[model.e[m_lookup(&model, 0, "hello.txt")].node].data[0] ^= 1;
		r.rdonly = true;		/* the check changes nothing */
		CHECK(ext2_mount(&r) == 0);
		verify_tree(&r);
		CHECK(do_umount(MNT) == 0);
		drop_disk_cache();
		CHECK(nr_inodes == inodes0);
		CHECK(global_node_page_state(NR_FILE_PAGES) == pages0);
	}
	CHECK(nr_warnings() == warn0);
	CHECK(nr_bad_pages == bad0);
	input_done = true;
	return 0;
}

/* The boot stack: boot once, then run one input per resume. */
static int kernel_main(void)
{
	if (fake_ram_one_bank(__pa(ram), RAM_SIZE))
		abort();
	fake_ram_reserve_kernel(__pa(ram));
	if (memmap_init() || page_alloc_init())
		abort();
	kmem_cache_init();
	time_init(3000000);
	shim_counter_freq = 3000000;
	shim_counter = 1234567;
	console_loglevel = 8;		/* everything into shim_console, for the reports */
	sched_init();
	pagecache_init();
	workingset_init();
	timers_init(NULL);
	workqueue_init();
	vfs_init();
	if (vfs_mkdir(MNT, 0755))
		abort();
	disk = file_bdev_open(backing, true);
	if (!disk)
		abort();
	warn0 = nr_warnings();
	bad0 = nr_bad_pages;
	for (;;) {
		host_sched_pause();
		input_done = false;
		struct task_struct *t = kthread_create_opts(input_main, NULL, "ext2_fuzz", DEFAULT_PRIO, 6);
		if (!t)
			FAILF("cannot start the input's thread: %lu pages free", nr_free_pages());
		kthread_detach(t);
		wake_up_process(t);
		host_idle_until(&input_done);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	break_mode = fuzz_break_mode("EXT2_FUZZ_BREAK");
	trace = fuzz_break_mode("EXT2_FUZZ_TRACE") != 0;
	load_images();
	scratch = malloc(4 << 20);	/* a whole image, or MAX_FILE bytes of a file */
	img = malloc(4 << 20);
	ram = fake_ram_alloc(RAM_SIZE);
	if (!scratch || !img || !ram || host_backing_file(backing, sizeof(backing)) ||
	    truncate(backing, (off_t)images[0].size))
		abort();
	atexit(report);
	host_sched_boot(kernel_main);	/* returns at its first pause */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int b0 = size ? data[0] : 0, b1 = size > 1 ? data[1] : 0;
	const struct image *im = &images[b0 % NR_IMAGES];
	int npatch = b1 < 0x60 ? 0 : (int)(b1 & 7) + 1;

	if (!total_inputs) {	/* libFuzzer's handlers are in place by now */
		struct sigaction sa = { .sa_sigaction = on_abort, .sa_flags = SA_SIGINFO };
		sigaction(SIGABRT, &sa, &libfuzzer_abrt);
	}
	memcpy(img, im->bytes, im->size);
	img_size = im->size;
	for (int p = 0; p < npatch && 2 + 4 * (size_t)p + 4 <= size; p++) {
		const uint8_t *q = data + 2 + 4 * p;
		int reg = q[0] % 8;
		if (!im->nr[reg])
			continue;
		const struct span *s = &im->r[reg][(q[1] * 7u + q[2]) % im->nr[reg]];
		uint8_t *at = img + s->off + ((unsigned int)q[1] << 8 | q[2]) % s->len;
		switch (q[0] >> 3 & 3) {
		case 0: *at ^= q[3] ? q[3] : 1; break;
		case 1: *at = q[3]; break;
		case 2: *at = 0; break;
		case 3: *at = (uint8_t)(*at + q[3] - 128); break;
		}
	}
	int fd = file_bdev_fd(disk);
	if (pwrite(fd, img, img_size, 0) != (ssize_t)img_size || ftruncate(fd, (off_t)img_size) ||
	    file_bdev_resize(disk))
		abort();
	m_copy(&model, &im->model);
	cur_data = data;
	cur_size = size;
	total_inputs++;
	host_sched_resume();
	if (!input_done)
		FAILF("the kernel paused before the input was done");
	return 0;
}
