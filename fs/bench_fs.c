/*
 * bench_fs.c - ext2's rows of `make bench` (see kernel/bench.c for how instructions are
 * counted), on RAM disk ram0's sample filesystem (drivers/brd.c, docs/brd.md) mounted on
 * /bench_ext2, everything cached first:
 *   ext2-read-hit-4k  vfs_pread() of 4 KiB at offset 4096 of /data/16k.bin, its folio cached:
 *                     the file's lock, the page-cache lookup and reference, the size and
 *                     uptodate checks, the access time.  The copy itself (a 4096-byte memcpy
 *                     from the folio, measured alone, the same on every sample) is subtracted:
 *                     it costs what the CPU's memcpy costs, not what the filesystem does.
 *   ext2-lookup       vfs_path_lookup() of "usr/share/words" from the filesystem's root, all
 *                     three dentries cached, and path_put(): the walk, three hash lookups, the
 *                     references taken and dropped.
 * pread, not read: a read would move the offset, and resetting it would add an lseek to each
 * sample.  The filesystem is unmounted at the end (every file closed), so the bench leaves
 * nothing mounted.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/err.h"
#include "tinymm/mm.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/vfs.h"
#include "internal.h"

#define NR		500
#define DIR		"/bench_ext2"
#define READ_FILE	DIR "/data/16k.bin"
#define READ_POS	4096
#define LOOKUP_PATH	"usr/share/words"

#define MEASURE(slot, stmt)	BENCH_MEASURE(slot, stmt)

static uint32_t samples[NR];
static char buf[PAGE_SIZE];

static int bench_fail(const char *what, long err)
{
	kprintf("bench: %s: %s\n", what, errname((int)err));
	return 1;
}

/* The cost of copying the 4 KiB out of @file's cached folio, alone (the least of NR tries). */
static uint32_t copy_cost(struct file *file, uint32_t overhead)
{
	struct folio *folio = filemap_get_folio(file->f_inode->i_mapping, READ_POS >> PAGE_SHIFT);
	uint32_t least = ~0u;

	if (IS_ERR(folio))
		return 0;
	for (int i = 0; i < NR; i++) {
		uint32_t n;

		MEASURE(n, memcpy(buf, page_address(&folio->page), sizeof(buf)));
		least = min(least, n > overhead ? n - overhead : 0);
	}
	folio_put(folio);
	return least;
}

static int bench_read_hit(uint32_t overhead)
{
	struct file *file;
	long ret = vfs_open(READ_FILE, O_RDONLY, 0, &file);
	uint32_t copy;

	if (ret)
		return bench_fail(READ_FILE, ret);
	ret = vfs_pread(file, buf, sizeof(buf), READ_POS);	/* brings the folio in */
	if (ret == (long)sizeof(buf)) {
		copy = copy_cost(file, overhead);
		for (int i = 0; i < NR && ret == (long)sizeof(buf); i++)
			MEASURE(samples[i], ret = vfs_pread(file, buf, sizeof(buf), READ_POS));
	}
	vfs_close(file);
	if (ret != (long)sizeof(buf))
		return bench_fail("a 4 KiB read of " READ_FILE, ret < 0 ? ret : -EIO);
	bench_summary("ext2-read-hit-4k", samples, NR, overhead + copy);
	return 0;
}

static int bench_lookup(uint32_t overhead)
{
	struct path root, p;
	int err = kern_path(DIR, LOOKUP_DIRECTORY, &root);

	if (err)
		return bench_fail(DIR, err);
	err = vfs_path_lookup(root.dentry, root.mnt, LOOKUP_PATH, LOOKUP_FOLLOW, &p);
	if (!err) {
		path_put(&p);			/* now every dentry of it is cached */
		for (int i = 0; i < NR && !err; i++)
			MEASURE(samples[i], err = vfs_path_lookup(root.dentry, root.mnt, LOOKUP_PATH,
								  LOOKUP_FOLLOW, &p);
				if (!err) path_put(&p));
	}
	path_put(&root);
	if (err)
		return bench_fail(LOOKUP_PATH, err);
	bench_summary("ext2-lookup", samples, NR, overhead);
	return 0;
}

int bench_fs(void)
{
	uint32_t overhead = ~0u;
	int err = vfs_mkdir(DIR, 0755);

	for (int i = 0; i < NR; i++) {
		MEASURE(samples[i], (void)0);
		overhead = min(overhead, samples[i]);
	}

	if (err && err != -EEXIST)
		return bench_fail("mkdir " DIR, err);
	err = do_mount("ram0", DIR, "ext2", 0);
	if (err)
		return bench_fail("mount ram0 " DIR, err);
	int ret = bench_read_hit(overhead);
	if (!ret)
		ret = bench_lookup(overhead);
	err = do_umount(DIR);
	if (err)
		return bench_fail("umount " DIR, err);
	return ret;
}
