/*
 * blk-shell.c - the `blk` shell command: list, stats, read (a hex dump straight from the
 * device through submit_bio_wait() and a bounce page, no page cache) and inject (a test hook
 * that makes the driver see a corrupt used-ring entry next; docs/virtio-blk.md), and pfn (the
 * frame caching an offset, for HWPoison tests).
 * `blk sha256` (the page-cache read) is drivers/blk-fops.c's; more subcommands go in blk_subcmds[].
 * Errors are one line naming the command, non-zero status: an unknown device is
 * "blk: no device 'vdz'".  `unevictable <dev> on|off` lives here too (a disk-wide setting).
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/swap.h"

static struct block_device *blk_lookup(const char *name)
{
	struct block_device *bdev = blkdev_get_by_name(name);

	if (!bdev)
		kprintf("blk: no device '%s'\n", name);
	return bdev;
}

static int blk_list(int argc, char **argv)
{
	char desc[160];

	if (argc != 2)
		return shell_usage_error("blk list", "usage: blk list");
	for (int i = 0; i < blkdev_count(); i++) {
		struct block_device *b = blkdev_nth(i);

		desc[0] = '\0';
		if (b->bd_ops->describe)
			b->bd_ops->describe(b, desc, sizeof(desc));
		kprintf("%s: %llu bytes (%llu sectors), logical block %u, max segments %u, %s, %s\n",
			b->bd_name, (unsigned long long)bdev_nr_bytes(b),
			(unsigned long long)b->bd_nr_sectors, b->bd_logical_block_size,
			b->bd_max_segments, desc, READ_ONCE(b->bd_failed) ? "failed" : "ok");
	}
	if (!blkdev_count())
		kprintf("blk: no disks (attach one: make run DISK=img)\n");
	return 0;
}

static unsigned long long avg(unsigned long long bytes, unsigned long n)
{
	return n ? bytes / n : 0;
}

static int blk_stats(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage_error("blk stats", "usage: blk stats");
	kprintf("disk      reads   read_bytes read_avg   ra_reads     ra_bytes     writes  write_bytes write_avg  flushes   errors\n");
	for (int i = 0; i < blkdev_count(); i++) {
		struct block_device *b = blkdev_nth(i);
		struct blk_stats s;
		unsigned long flags;

		/* One consistent snapshot: completions update it from interrupts. */
		spin_lock_irqsave(&b->bd_queue_lock, flags);
		s = b->bd_stats;
		spin_unlock_irqrestore(&b->bd_queue_lock, flags);
		kprintf("%-4s %10lu %12llu %8llu %10lu %12llu %10lu %12llu %9llu %8lu %8lu\n", b->bd_name,
			s.reads, s.read_bytes, avg(s.read_bytes, s.reads), s.readahead_reads,
			s.readahead_bytes, s.writes, s.write_bytes, avg(s.write_bytes, s.writes),
			s.flushes, s.errors);
	}
	return 0;
}

/* hexdump -C -v -s <start>: one line per 16 bytes counted from the start, no '*' squeezing. */
struct hexline {
	unsigned long long off;		/* of the line's first byte */
	unsigned char b[16];
	unsigned int n;
};

static void hexline_flush(struct hexline *h)
{
	char hex[16 * 3 + 2], ascii[17];
	char *p = hex;

	if (!h->n)
		return;
	for (unsigned int i = 0; i < 16; i++) {
		if (i < h->n)
			ksnprintf(p, 4, "%02x ", h->b[i]);
		else
			memcpy(p, "   ", 4);
		p += 3;
		if (i == 7)
			*p++ = ' ';
		ascii[i] = i < h->n ? (h->b[i] >= 0x20 && h->b[i] < 0x7f ? (char)h->b[i] : '.') : '\0';
	}
	*p = '\0';
	ascii[h->n] = '\0';
	kprintf("%08llx  %s |%s|\n", h->off, hex, ascii);
	h->off += h->n;
	h->n = 0;
}

static int blk_read(int argc, char **argv)
{
	unsigned long long off, len, end, pos;
	struct block_device *bdev;
	struct hexline h = { 0 };
	unsigned int order = 0, chunk;
	struct page *page;
	int ret = 0;

	if (argc != 5)
		return shell_usage_error("blk read", "usage: blk read <dev> <offset> <length>");
	bdev = blk_lookup(argv[2]);
	if (!bdev)
		return 1;
	if (kstrtoull(argv[3], &off) || kstrtoull(argv[4], &len)) {
		kprintf("blk read: invalid number '%s'\n", kstrtoull(argv[3], &off) ? argv[3] : argv[4]);
		return 2;
	}
	if (!len) {
		kprintf("blk read: zero length\n");
		return 1;
	}
	if (off > bdev_nr_bytes(bdev) || len > bdev_nr_bytes(bdev) - off) {
		kprintf("blk read: offset %llu + length %llu is past the end of %s (%llu bytes)\n",
			off, len, bdev->bd_name, (unsigned long long)bdev_nr_bytes(bdev));
		return 1;
	}
	/* The bounce buffer: a page, or one logical block if blocks are larger. */
	while ((PAGE_SIZE << order) < bdev->bd_logical_block_size)
		order++;
	chunk = PAGE_SIZE << order;
	page = alloc_pages(GFP_KERNEL, order);
	if (!page) {
		kprintf("blk read: out of memory for a bounce buffer\n");
		return 1;
	}
	end = off + len;
	h.off = off;
	for (pos = off; pos < end;) {
		unsigned long long start = ALIGN_DOWN(pos, (unsigned long long)chunk);
		unsigned long long n = min((unsigned long long)chunk, bdev_nr_bytes(bdev) - start);
		struct bio *bio = bio_alloc(bdev, 1, REQ_OP_READ, GFP_KERNEL);
		const unsigned char *buf = page_address(page);

		/* Whole logical blocks around what was asked for. */
		n = ALIGN(n, (unsigned long long)bdev->bd_logical_block_size);
		if (!bio) {
			kprintf("blk read: out of memory for a bio\n");
			ret = 1;
			break;
		}
		bio->bi_sector = start >> SECTOR_SHIFT;
		bio_add_page(bio, page, (unsigned int)n, 0);
		int err = submit_bio_wait(bio);
		bio_put(bio);
		if (err) {
			char es[BLK_ERRSTR_LEN];

			hexline_flush(&h);
			kprintf("blk read: %s: reading %llu bytes at offset %llu (sector %llu) failed: %s\n",
				bdev->bd_name, n, start, start >> SECTOR_SHIFT, blk_errstr(err, es, sizeof(es)));
			ret = 1;
			break;
		}
		for (; pos < end && pos < start + n; pos++) {
			h.b[h.n++] = buf[pos - start];
			if (h.n == 16)
				hexline_flush(&h);
		}
	}
	if (!ret) {
		hexline_flush(&h);
		kprintf("%08llx\n", end);
	}
	__free_pages(page, order);
	return ret;
}

/* Test hook: the driver corrupts the next used-ring entry it reads, as a lying device would. */
static int blk_inject(int argc, char **argv)
{
	struct block_device *bdev;
	int ret;

	if (argc != 4)
		return shell_usage_error("blk inject", "usage: blk inject <dev> bad-used-id|bad-used-len|bad-used-idx");
	bdev = blk_lookup(argv[2]);
	if (!bdev)
		return 1;
	ret = bdev->bd_ops->test_inject ? bdev->bd_ops->test_inject(bdev, argv[3]) : -EOPNOTSUPP;
	if (ret == -EINVAL)
		return shell_usage_error("blk inject", "usage: blk inject <dev> bad-used-id|bad-used-len|bad-used-idx");
	if (ret) {
		char es[BLK_ERRSTR_LEN];

		kprintf("blk inject: %s: %s\n", bdev->bd_name, blk_errstr(ret, es, sizeof(es)));
		return 1;
	}
	kprintf("blk inject: %s: the next used-ring entry will read as %s\n", bdev->bd_name, argv[3]);
	return 0;
}

/*
 * `blk pfn <dev> <offset>`: the frame that caches the byte at @offset, from a page-cache lookup
 * alone (nothing is read, nothing is touched: the folio's LRU state stays as it was), for
 * HWPoison tests that need the frame of a cached page.  One line: "blk pfn: vda: offset 8192:
 * pfn 0x4f922" (status 0), or "blk pfn: vda: offset 8192 is not cached" (status 1); a bad
 * number or an offset past the end is one line, status 2, as `blk sha256`'s.
 */
static int blk_pfn(int argc, char **argv)
{
	struct block_device *bdev;
	unsigned long long off;
	struct folio *folio;

	if (argc != 4)
		return shell_usage_error("blk pfn", "usage: blk pfn <dev> <offset>");
	bdev = blk_lookup(argv[2]);
	if (!bdev)
		return 1;
	if (kstrtoull(argv[3], &off)) {
		kprintf("blk pfn: invalid number '%s'\n", argv[3]);
		return 2;
	}
	if (off >= bdev_nr_bytes(bdev)) {
		kprintf("blk pfn: offset %llu is past the end of %s (%llu bytes)\n", off, bdev->bd_name,
			(unsigned long long)bdev_nr_bytes(bdev));
		return 2;
	}
	folio = bdev->bd_mapping ? filemap_get_folio(bdev->bd_mapping, (pgoff_t)(off >> PAGE_SHIFT)) :
				   ERR_PTR(-ENOENT);
	if (IS_ERR(folio)) {
		kprintf("blk pfn: %s: offset %llu is not cached\n", bdev->bd_name, off);
		return 1;
	}
	unsigned long pfn = page_to_pfn(&folio->page) + ((pgoff_t)(off >> PAGE_SHIFT) - folio->index);
	folio_put(folio);
	kprintf("blk pfn: %s: offset %llu: pfn %#lx\n", bdev->bd_name, off, pfn);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} blk_subcmds[] = {
	{ "list", blk_list },
	{ "stats", blk_stats },
	{ "read", blk_read },
	{ "inject", blk_inject },
	{ "sha256", blk_cmd_sha256 },		/* drivers/blk-fops.c: through the page cache */
	{ "readrand", blk_cmd_readrand },	/* drivers/blk-fops.c */
	{ "write", blk_cmd_write },		/* drivers/blk-fops.c: through the page cache */
	{ "pfn", blk_pfn },
};

static int cmd_blk(int argc, char **argv)
{
	for (unsigned int i = 0; argc >= 2 && i < ARRAY_SIZE(blk_subcmds); i++)
		if (blk_subcmds[i].fn && !strcmp(argv[1], blk_subcmds[i].name))
			return blk_subcmds[i].fn(argc, argv);
	return shell_usage_error("blk", "usage: blk list | stats | read <dev> <offset> <length> | sha256 <dev> <offset> <length> | readrand <dev> <total> <chunk> [seed] | write <dev> <offset> <length> <seed> | pfn <dev> <offset> | inject <dev> <what>");
}
SHELL_COMMAND(blk, "list|stats|read|sha256|readrand|write|pfn|inject ...",
	      "block devices: list, counters, hex dump from the device, SHA-256, random reads and writes through the page cache, the frame caching an offset, inject (test hook)", cmd_blk);

/*
 * `unevictable <dev> on|off`: the whole disk's cache becomes unevictable (AS_UNEVICTABLE, as
 * ramfs and SHM_LOCK use it): its folios move to the unevictable list now and reclaim never
 * evicts them; `off` returns them to the inactive list (SHM_UNLOCK's rescue).
 */
static int cmd_unevictable(int argc, char **argv)
{
	struct block_device *bdev;
	bool on;

	if (argc != 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off")))
		return shell_usage_error("unevictable", "usage: unevictable <dev> on|off");
	on = !strcmp(argv[2], "on");
	bdev = blkdev_get_by_name(argv[1]);
	if (!bdev) {
		kprintf("unevictable: no device '%s'\n", argv[1]);
		return 1;
	}
	if (!bdev->bd_mapping) {
		kprintf("unevictable: %s: no page cache\n", bdev->bd_name);
		return 1;
	}
	unsigned long seen = on ? mapping_lock_unevictable(bdev->bd_mapping) :
				  mapping_release_unevictable(bdev->bd_mapping);
	kprintf("unevictable: %s: %s, %lu cached folios %s\n", bdev->bd_name, on ? "on" : "off", seen,
		on ? "moved to the unevictable list" : "back on the LRU");
	return 0;
}
SHELL_COMMAND(unevictable, "<dev> on|off",
	      "keep a disk's whole page cache in memory (on) or let reclaim have it again (off)",
	      cmd_unevictable);
