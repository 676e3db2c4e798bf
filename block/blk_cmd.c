/*
 * blk_cmd.c - the block layer's shell commands.  `blk`: list, stats, read (a hex dump straight
 * from the device through submit_bio_wait() and a bounce page, no page cache), inject (a test
 * hook that makes the driver see a corrupt used-ring entry next; docs/virtio-blk.md), pfn (the
 * frame caching an offset, for HWPoison tests), and through the page cache sha256, readrand and
 * write (the `blk write` byte generator is here).  Also `drop_caches`, `sync` and
 * `unevictable <dev> on|off` (disk-wide settings).  `blk-stress` is block/blk-stress.c's.
 * More subcommands go in blk_subcmds[].
 * Errors are one line naming the command, non-zero status: an unknown device is
 * "blk: no device 'vdz'".
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/err.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sha256.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/vfs.h"

static struct block_device *blk_lookup(const char *name)
{
	struct block_device *bdev = blkdev_get_by_name(name);

	if (!bdev)
		kprintf("blk: no device '%s'\n", name);
	return bdev;
}

static void blk_list_disk(struct block_device *b)
{
	char desc[160];

	desc[0] = '\0';
	if (b->bd_ops->describe)
		b->bd_ops->describe(b, desc, sizeof(desc));
	kprintf("%s: %llu bytes (%llu sectors), logical block %u, max segments %u, %s, %s\n",
		b->bd_name, (unsigned long long)bdev_nr_bytes(b),
		(unsigned long long)b->bd_nr_sectors, b->bd_logical_block_size,
		b->bd_max_segments, desc, READ_ONCE(b->bd_failed) ? "failed" : "ok");
}

/* A partition's line, under its disk's: where it starts on the disk and how long it is. */
static void blk_list_part(struct block_device *p)
{
	kprintf("  %s: %llu bytes (%llu sectors), start sector %llu of %s, partition %u, type 0x%02x%s, %s\n",
		p->bd_name, (unsigned long long)bdev_nr_bytes(p), (unsigned long long)p->bd_nr_sectors,
		(unsigned long long)p->bd_start_sect, p->bd_whole->bd_name, p->bd_partno,
		p->bd_part_type, p->bd_part_extended ? " (extended)" : "",
		READ_ONCE(p->bd_whole->bd_failed) ? "failed" : "ok");
}

static int blk_list(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage_error("blk list", "usage: blk list");
	for (int i = 0; i < blkdev_count(); i++) {
		struct block_device *b = blkdev_nth(i);

		if (bdev_is_partition(b))
			continue;
		blk_list_disk(b);
		/* Partitions are registered after their disk. */
		for (int j = i + 1; j < blkdev_count(); j++)
			if (blkdev_nth(j)->bd_whole == b && bdev_is_partition(blkdev_nth(j)))
				blk_list_part(blkdev_nth(j));
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

/* Test hook: virtio-blk corrupts the next used-ring entry it reads, as a lying device would;
 * an SD host makes its next request unanswered (no-answer), its card reset behind its back
 * (reset-card), its interrupt lost (lose-irq, sunxi-mmc) or its data never moved (stall,
 * bcm2835-sdhost); mmc_spi loses its next command frame (no-answer), takes its next block's
 * CRC as wrong (bad-crc) or resets the card (reset-card). */
#define BLK_INJECT_USAGE \
	"usage: blk inject <dev> bad-used-id|bad-used-len|bad-used-idx (virtio) | no-answer|lose-irq|late-irq|stall|reset-card (mmc) | " \
	"no-answer|bad-crc|reset-card (mmc_spi) | read-error (ram)"
static int blk_inject(int argc, char **argv)
{
	struct block_device *bdev;
	int ret;

	if (argc != 4)
		return shell_usage_error("blk inject", BLK_INJECT_USAGE);
	bdev = blk_lookup(argv[2]);
	if (!bdev)
		return 1;
	ret = bdev->bd_ops->test_inject ? bdev->bd_ops->test_inject(bdev, argv[3]) : -EOPNOTSUPP;
	if (ret == -EINVAL)
		return shell_usage_error("blk inject", BLK_INJECT_USAGE);
	if (ret) {
		char es[BLK_ERRSTR_LEN];

		kprintf("blk inject: %s: %s\n", bdev->bd_name, blk_errstr(ret, es, sizeof(es)));
		return 1;
	}
	if (!strncmp(argv[3], "bad-used-", 9))
		kprintf("blk inject: %s: the next used-ring entry will read as %s\n", bdev->bd_name, argv[3]);
	else
		kprintf("blk inject: %s: %s for the next request\n", bdev->bd_name, argv[3]);
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

/* Parse "<dev> <offset> <length>" for the blk subcommands; 0, or prints the error and 2. */
static int blk_parse_range(int argc, char **argv, struct block_device **bdev, uint64_t *off, uint64_t *len)
{
	unsigned long long o, l;

	if (argc != 5) {
		kprintf("blk: usage: blk %s <dev> <offset> <length>\n", argv[1]);
		return 2;
	}
	*bdev = blkdev_get_by_name(argv[2]);
	if (!*bdev) {
		kprintf("blk: no device '%s'\n", argv[2]);
		return 2;
	}
	for (int i = 3; i <= 4; i++)
		if (kstrtoull(argv[i], i == 3 ? &o : &l)) {
			kprintf("blk: invalid number '%s'\n", argv[i]);
			return 2;
		}
	if (!l) {
		kprintf("blk: zero length\n");
		return 2;
	}
	uint64_t size = (*bdev)->bd_mapping ? (uint64_t)(*bdev)->bd_mapping->size : bdev_nr_bytes(*bdev);
	if (o > size || l > size - o) {
		kprintf("blk: range 0x%llx+0x%llx is past the end of %s (%llu bytes)\n", o, l,
			(*bdev)->bd_name, (unsigned long long)size);
		return 2;
	}
	*off = o;
	*len = l;
	return 0;
}

/* `blk sha256 <dev> <offset> <length>`: the bytes read through the page cache (readahead and
 * all), hashed; 64 lowercase hex digits. */
static int blk_cmd_sha256(int argc, char **argv)
{
	struct block_device *bdev;
	uint64_t off, len;
	struct sha256_ctx c;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	int ret = blk_parse_range(argc, argv, &bdev, &off, &len);

	if (ret)
		return ret;
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf) {
		kprintf("blk: out of memory\n");
		return 1;
	}
	sha256_init(&c);
	while (len) {
		size_t chunk = (size_t)min(len, (uint64_t)PAGE_SIZE);
		long n = filemap_read(bdev->bd_mapping, bdev_ra_state(bdev), (loff_t)off, buf, chunk);
		if (n <= 0) {
			char es[BLK_ERRSTR_LEN];

			kprintf("blk: %s: read error at offset 0x%llx: %s\n", bdev->bd_name,
				(unsigned long long)off, bdev->bd_failed ? "device failed (-EIO)" :
				blk_errstr((int)n, es, sizeof(es)));
			kfree(buf);
			return 1;
		}
		sha256_update(&c, buf, (size_t)n);
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	kfree(buf);
	sha256_final(&c, digest);
	sha256_hex(digest, hex);
	kprintf("%s\n", hex);
	return 0;
}

/*
 * `blk readrand <dev> <total> <chunk> [seed]`: @total bytes read through the page cache in
 * @chunk-sized reads at pseudo-random offsets (xorshift32 from @seed) on a grid of
 * READRAND_GRID bytes, to watch what random access does to readahead (`blk stats` before and
 * after).  The grid keeps reads from landing next to each other: Linux's context readahead
 * rightly takes a run of cached pages just before a miss for a sequential reader's trail, and
 * a dense random stream makes such runs by chance.  Offset 0 is left out: Linux takes a read
 * at the start of a file for the start of a sequential stream.  Prints the reads made and how
 * many found their page already cached.
 */
#define READRAND_GRID	(4 * PAGE_SIZE)

static int blk_cmd_readrand(int argc, char **argv)
{
	unsigned long long total, chunk, seed = 1;
	struct block_device *bdev;

	if (argc < 5 || argc > 6) {
		kprintf("blk: usage: blk readrand <dev> <total> <chunk> [seed]\n");
		return 2;
	}
	bdev = blkdev_get_by_name(argv[2]);
	if (!bdev) {
		kprintf("blk: no device '%s'\n", argv[2]);
		return 2;
	}
	if (kstrtoull(argv[3], &total) || kstrtoull(argv[4], &chunk) ||
	    (argc == 6 && (kstrtoull(argv[5], &seed) || !seed || seed > 0xffffffffULL)) ||
	    !chunk || chunk > PAGE_SIZE || !total || bdev_nr_bytes(bdev) < 2 * READRAND_GRID) {
		kprintf("blk: readrand: bad numbers (chunk 1..%lu bytes, total > 0, seed 1..2^32-1)\n",
			PAGE_SIZE);
		return 2;
	}
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf) {
		kprintf("blk: out of memory\n");
		return 1;
	}
	uint32_t x = (uint32_t)seed;
	uint64_t slots = bdev_nr_bytes(bdev) / READRAND_GRID;
	unsigned long reads = 0, hits = 0;
	for (unsigned long long done = 0; done < total; done += chunk, reads++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		uint64_t off = (1 + (uint64_t)x % (slots - 1)) * READRAND_GRID;
		struct folio *cached = filemap_get_folio(bdev->bd_mapping, (pgoff_t)(off >> PAGE_SHIFT));
		if (!IS_ERR(cached)) {
			hits++;
			folio_put(cached);
		}
		long n = filemap_read(bdev->bd_mapping, bdev_ra_state(bdev), (loff_t)off, buf,
				      (size_t)min(chunk, total - done));
		if (n <= 0) {
			char es[BLK_ERRSTR_LEN];

			kprintf("blk: %s: read error at offset 0x%llx: %s\n", bdev->bd_name,
				(unsigned long long)off, bdev->bd_failed ? "device failed (-EIO)" :
				blk_errstr(n == -ENOMEM ? -ENOMEM : -EIO, es, sizeof(es)));
			kfree(buf);
			return 1;
		}
	}
	kfree(buf);
	kprintf("blk readrand: %lu reads of %llu bytes, %lu found cached\n", reads, chunk, hits);
	return 0;
}

static int cmd_drop_caches(int argc, char **argv)
{
	unsigned long dropped = 0;

	if (shell_no_args(argc, argv))
		return 2;
	for (int i = 0; i < blkdev_count(); i++) {
		struct block_device *bdev = blkdev_nth(i);
		if (bdev->bd_mapping)
			dropped += invalidate_mapping_pages(bdev->bd_mapping, 0, ~0UL);
	}
	kprintf("drop_caches: %lu clean pages dropped, %lu still cached\n", dropped,
		nr_pagecache_pages());
	return 0;
}
SHELL_COMMAND(drop_caches, "", "drop the clean page cache of every disk (Linux's drop_caches=1)",
	      cmd_drop_caches);

/*
 * The `blk write` byte stream: xorshift64* (Marsaglia's xorshift with Vigna's multiplier), the
 * state seeded with @seed (0 would stay 0 for ever, so it becomes WRITE_SEED_ZERO); each step
 * gives 8 bytes, little-endian.  Byte i of a write is byte i of the stream whatever the offset,
 * so a host script regenerates a write from (seed, length) alone (docs/pagecache.md).
 */
#define WRITE_SEED_ZERO		0x9E3779B97F4A7C15ULL

void wgen_init(struct wgen *g, uint64_t seed)
{
	g->x = seed ? seed : WRITE_SEED_ZERO;
	g->used = 8;
}

uint8_t wgen_byte(struct wgen *g)
{
	if (g->used == 8) {
		uint64_t x = g->x;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		g->x = x;
		x *= 0x2545F4914F6CDD1DULL;
		for (int i = 0; i < 8; i++)
			g->buf[i] = (uint8_t)(x >> (8 * i));
		g->used = 0;
	}
	return g->buf[g->used++];
}


const char *blk_errstr(int err, char *buf, size_t len)
{
	const char *what;

	switch (err) {
	case -EIO: what = "I/O error"; break;
	case -ENXIO: what = "device failed"; break;
	case -ENOMEM: what = "out of memory"; break;
	case -ENOSPC: what = "no space"; break;
	case -EINVAL: what = "invalid request"; break;
	case -EOPNOTSUPP: what = "not supported by the device"; break;
	default: return "error";
	}
	ksnprintf(buf, len, "%s (%s)", what, errname(err));
	return buf;
}


static void wgen_fill(void *ctx, uint64_t pos, uint8_t *dst, unsigned int n)
{
	(void)pos;			/* the generator's stream is sequential */
	for (unsigned int i = 0; i < n; i++)
		dst[i] = wgen_byte(ctx);
}

/* `blk write <dev> <offset> <length> <seed>`: @length bytes of the generator, at @offset. */
static int blk_cmd_write(int argc, char **argv)
{
	struct block_device *bdev;
	unsigned long long seed;
	uint64_t off, len, done;
	struct wgen g;
	int ret, err;

	if (argc != 6) {
		kprintf("blk: usage: blk write <dev> <offset> <length> <seed>\n");
		return 2;
	}
	if (!blkdev_get_by_name(argv[2])) {
		kprintf("blk: no device '%s'\n", argv[2]);
		return 2;
	}
	if (kstrtoull(argv[5], &seed)) {
		kprintf("blk: invalid number '%s'\n", argv[5]);
		return 2;
	}
	ret = blk_parse_range(5, argv, &bdev, &off, &len);	/* dev, offset, length */
	if (ret)
		return ret;
	wgen_init(&g, seed);
	done = generic_perform_write(bdev->bd_mapping, (loff_t)off, len, wgen_fill, &g, &err);
	if (err) {
		char es[BLK_ERRSTR_LEN];

		kprintf("blk: %s: write at offset 0x%llx: %s\n", bdev->bd_name,
			(unsigned long long)(off + done), blk_errstr(err, es, sizeof(es)));
		return 1;
	}
	return 0;
}


/* `sync`: every disk written back and flushed; each write error reported once, by name. */
static int cmd_sync(int argc, char **argv)
{
	int ret = 0;

	if (shell_no_args(argc, argv))
		return 2;
	/* The filesystems first: their inodes go to the devices' caches, written next. */
	int err = vfs_sync();
	if (err) {
		kprintf("sync: filesystems: %s\n", errname(-err));
		ret = 1;
	}
	for (int i = 0; i < blkdev_count(); i++) {
		struct block_device *bdev = blkdev_nth(i);

		if (!bdev->bd_mapping)
			continue;
		err = blkdev_fsync(bdev);
		if (err) {
			char es[BLK_ERRSTR_LEN];

			kprintf("sync: %s: %s\n", bdev->bd_name, blk_errstr(err, es, sizeof(es)));
			ret = 1;
		}
	}
	return ret;
}
SHELL_COMMAND(sync, "", "write every disk's dirty page cache back and flush it; report write errors once",
	      cmd_sync);

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} blk_subcmds[] = {
	{ "list", blk_list },
	{ "stats", blk_stats },
	{ "read", blk_read },
	{ "inject", blk_inject },
	{ "sha256", blk_cmd_sha256 },		/* through the page cache */
	{ "readrand", blk_cmd_readrand },	/* through the page cache */
	{ "write", blk_cmd_write },		/* through the page cache */
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
