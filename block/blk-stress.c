/*
 * blk-stress.c - `blk-stress <dev> <ops> <seed> <poisons>`: a read/write workload on a disk's
 * page cache while software poison (memory_failure(pfn, MF_SW_SIMULATED)) lands on random RAM
 * frames; the host replays the workload and checks the image afterwards (docs/hwpoison.md,
 * "Host-checked workload"; tests/qemu/hwpoison_workload_test.sh).
 *
 * Two kernel threads.  The workload thread runs @ops operations drawn from @seed by splitmix64:
 * a write of 1 byte .. 64 KiB at a random offset (through the page cache, as `blk write`), or a
 * read of a random range checked against a model of what the workload wrote; a sync (write back,
 * wait, flush: Linux's blkdev_fsync) every STRESS_SYNC_EVERY ops, and a final one after the
 * injector has finished.  The injector thread makes @poisons memory_failure() calls, the i-th
 * once the workload has done op (i * ops + r) / poisons (r random in [0, ops)), on a pfn drawn
 * uniformly from every frame of the memmap; it polls the workload's progress every jiffy at a
 * higher priority, so it lands at a timing-dependent moment inside the next op.
 *
 * Everything below is a function of @seed alone, never of timing (the host's replay depends on
 * it): the op sequence, the bytes written, the pfns and their order.  Only the moment each
 * poison lands, and so what it hits, depends on timing.
 *
 * The bytes: op k (k = 1..ops; k = 0 is the disk's initial image, which the host makes with
 * the same generator) writes, at disk byte offset o, byte (o & 7) (little-endian) of
 *     mix64(key(k) + (o >> 3) * GOLDEN),   key(k) = mix64((seed ^ DATA_SALT) + k * GOLDEN)
 * so any byte's expected value follows from the op that last wrote it.  The model is an extent
 * map: sorted starts, each with the op that last wrote [start, next start); a write replaces the
 * extents it covers and adds at most two, so 2 * ops + 1 entries always suffice.
 *
 * Output, one line each: `blk-stress: read mismatch at <offset> length <n>` (per page of a read:
 * its first to last mismatching byte), `blk-stress: sync: error <-errno>`, and at the end
 * `blk-stress: <ops> ops, <w> writes, <r> reads, <m> mismatches, <p> poisoned` (p: calls that
 * poisoned a frame not poisoned before).  Read and write errors (none expected) are lines of
 * their own.  Status 0 whatever the workload saw: the host judges; 2 for bad arguments, 1 when
 * it cannot run.
 *
 * Invariants: ext_start[0] == 0, ext_start is strictly increasing and below the disk's size,
 *   n_ext <= cap_ext; a byte's model op is the last write (in op order) that covered it.
 * Locking: the model, the read buffer, the readahead state and the errseq cursor belong to the
 *   workload thread alone; `progress` is written by it and read by the injector (READ_ONCE /
 *   WRITE_ONCE, one word); the counters are each written by one thread and read by the command
 *   after both threads have ended.  memory_failure() serialises itself (mf_mutex) and takes the
 *   folio locks it needs, against which the workload's own folio locking is the usual one.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/completion.h"
#include "tinymm/err.h"
#include "tinymm/errno.h"
#include "tinymm/errseq.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/writeback.h"

#define STRESS_MAX_LEN		(64 * 1024UL)	/* longest read or write */
#define STRESS_SYNC_EVERY	128		/* a sync after every 128th op */
#define STRESS_MAX_OPS		50000UL		/* the model: 12 bytes x (2 ops + 1) */
#define STRESS_MAX_POISONS	100000UL
#define STRESS_WRITE_EIGHTHS	5		/* 5 ops in 8 are writes */

#define GOLDEN			0x9E3779B97F4A7C15ULL	/* splitmix64's increment */
#define DATA_SALT		0xA0761D6478BD642FULL	/* the bytes' keys */
#define PFN_SALT		0xE7037ED1A0B428DBULL	/* the injector's stream */

struct stress {
	struct block_device *bdev;
	struct address_space *mapping;
	uint64_t size;			/* the disk's bytes (the mapping's size) */
	uint64_t seed;
	unsigned long ops, poisons;

	uint64_t *ext_start;		/* the model: [ext_start[i], ext_start[i + 1]) ... */
	uint32_t *ext_op;		/* ... was last written by op ext_op[i] */
	unsigned long n_ext, cap_ext;

	uint8_t *buf;			/* a read's bytes: STRESS_MAX_LEN */
	struct file_ra_state ra;	/* the workload's "open file" */
	errseq_t wb_err;		/* its write-error cursor */

	unsigned long progress;		/* ops done (workload writes, injector reads) */
	struct completion injector_done;
	bool abort;			/* set before start: the injector returns at once */

	unsigned long writes, reads, mismatches, errors;	/* the workload's */
	unsigned long poisoned;					/* the injector's */
};

/* splitmix64's finaliser (Steele, Lea, Flood 2014): a bijection that mixes every bit. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* splitmix64: the next number of the stream whose state is *@s. */
static uint64_t sm64_next(uint64_t *s)
{
	*s += GOLDEN;
	return mix64(*s);
}

static uint64_t data_key(uint64_t seed, uint32_t op)
{
	return mix64((seed ^ DATA_SALT) + (uint64_t)op * GOLDEN);
}

/* The next op of the stream: write or read, [off, off + len) inside the disk. */
static bool next_op(uint64_t *rng, uint64_t size, uint64_t *off, uint64_t *len)
{
	bool write = sm64_next(rng) % 8 < STRESS_WRITE_EIGHTHS;

	*len = 1 + sm64_next(rng) % min(size, (uint64_t)STRESS_MAX_LEN);
	*off = sm64_next(rng) % (size - *len + 1);
	return write;
}

/* Op @key's bytes for disk bytes [off, off + n) into @dst. */
static void gen_bytes(uint64_t key, uint64_t off, uint8_t *dst, size_t n)
{
	uint64_t w = off >> 3;
	unsigned int b = (unsigned int)(off & 7);

	while (n) {
		uint64_t v = mix64(key + w * GOLDEN);

		for (; b < 8 && n; b++, n--)
			*dst++ = (uint8_t)(v >> (8 * b));
		b = 0;
		w++;
	}
}

/* ---- the model --------------------------------------------------------------------------- */

/* The extent holding byte @pos: the last i with ext_start[i] <= pos. */
static unsigned long model_find(const struct stress *st, uint64_t pos)
{
	unsigned long lo = 0, hi = st->n_ext;	/* ext_start[lo] <= pos < ext_start[hi] */

	while (hi - lo > 1) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (st->ext_start[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Op @op wrote [a, b) (a < b <= size). */
static void model_assign(struct stress *st, uint64_t a, uint64_t b, uint32_t op)
{
	unsigned long i = model_find(st, a), j = model_find(st, b - 1);
	uint32_t tail_op = st->ext_op[j];
	bool keep_head = st->ext_start[i] < a;
	bool need_tail = j + 1 < st->n_ext ? st->ext_start[j + 1] > b : b < st->size;
	unsigned long first = keep_head ? i + 1 : i;	/* where [a, b) goes */
	unsigned long nnew = need_tail ? 2 : 1;
	unsigned long rest = st->n_ext - (j + 1);

	BUG_ON(st->n_ext - (j + 1 - first) + nnew > st->cap_ext);
	memmove(&st->ext_start[first + nnew], &st->ext_start[j + 1], rest * sizeof(*st->ext_start));
	memmove(&st->ext_op[first + nnew], &st->ext_op[j + 1], rest * sizeof(*st->ext_op));
	st->ext_start[first] = a;
	st->ext_op[first] = op;
	if (need_tail) {
		st->ext_start[first + 1] = b;
		st->ext_op[first + 1] = tail_op;
	}
	st->n_ext = first + nnew + rest;
}

/* Mismatches of one read, one line per page: its first to last mismatching byte. */
struct mismatch_run {
	uint64_t first, last;
	bool on;
};

static void mismatch_flush(struct stress *st, struct mismatch_run *run)
{
	if (!run->on)
		return;
	kprintf("blk-stress: read mismatch at %llu length %llu\n", (unsigned long long)run->first,
		(unsigned long long)(run->last - run->first + 1));
	st->mismatches++;
	run->on = false;
}

static void mismatch_note(struct stress *st, struct mismatch_run *run, uint64_t pos)
{
	if (run->on && (pos >> PAGE_SHIFT) == (run->first >> PAGE_SHIFT)) {
		run->last = pos;
		return;
	}
	mismatch_flush(st, run);
	*run = (struct mismatch_run){ pos, pos, true };
}

/* Compare @got, the bytes read at [off, off + n), with the model. */
static void model_check(struct stress *st, uint64_t off, const uint8_t *got, uint64_t n)
{
	struct mismatch_run run = { 0, 0, false };
	uint64_t pos = off, end = off + n;

	for (unsigned long i = model_find(st, off); pos < end; i++) {
		uint64_t ext_end = i + 1 < st->n_ext ? st->ext_start[i + 1] : st->size;
		uint64_t piece_end = min(end, ext_end);
		uint64_t key = data_key(st->seed, st->ext_op[i]);
		uint64_t w = pos >> 3;

		while (pos < piece_end) {
			uint64_t v = mix64(key + w * GOLDEN);

			for (unsigned int b = (unsigned int)(pos & 7); b < 8 && pos < piece_end; b++, pos++)
				if (got[pos - off] != (uint8_t)(v >> (8 * b)))
					mismatch_note(st, &run, pos);
			w++;
		}
	}
	mismatch_flush(st, &run);
}

/* ---- the workload's I/O -------------------------------------------------------------------- */

struct stress_fill {
	uint64_t key;
};

static void stress_fill_bytes(void *ctx, uint64_t pos, uint8_t *dst, unsigned int n)
{
	gen_bytes(((struct stress_fill *)ctx)->key, pos, dst, n);
}

/*
 * Op @op writes [off, off + len) through the page cache as `blk write` does
 * (generic_perform_write, mm/filemap.c).  The model takes
 * what was written, also when an error stops it part way.
 */
static void stress_write(struct stress *st, uint32_t op, uint64_t off, uint64_t len)
{
	struct stress_fill fill = { data_key(st->seed, op) };
	int err;
	uint64_t done = generic_perform_write(st->mapping, (loff_t)off, len, stress_fill_bytes,
					      &fill, &err);

	if (done)
		model_assign(st, off, off + done, op);
	if (err) {
		kprintf("blk-stress: write error at %llu length %llu: error %d\n",
			(unsigned long long)(off + done), (unsigned long long)(len - done), err);
		st->errors++;
	}
	st->writes++;
}

/* Read [off, off + len) through the page cache and check it against the model. */
static void stress_read(struct stress *st, uint64_t off, uint64_t len)
{
	uint64_t done = 0;

	while (done < len) {
		long n = filemap_read(st->mapping, &st->ra, (loff_t)(off + done), st->buf + done,
				      (size_t)(len - done));
		if (n <= 0) {
			kprintf("blk-stress: read error at %llu length %llu: error %ld\n",
				(unsigned long long)(off + done), (unsigned long long)(len - done),
				n ? n : (long)-EIO);
			st->errors++;
			break;
		}
		done += (uint64_t)n;
	}
	model_check(st, off, st->buf, done);
	st->reads++;
}

/* Linux's blkdev_fsync() with the workload's own errseq cursor: write back and wait, the
 * mapping's error since the last look (once), then a cache flush. */
static void stress_sync(struct stress *st)
{
	struct address_space *mapping = st->mapping;
	int err = 0, err2;

	if (mapping->nrpages) {
		err = __filemap_fdatawrite_range(mapping, 0, LLONG_MAX, WB_SYNC_ALL);
		if (err != -EIO)
			__filemap_fdatawait_range(mapping, 0, LLONG_MAX);
	}
	err2 = file_check_and_advance_wb_err(mapping, &st->wb_err);
	if (!err)
		err = err2;
	if (!err) {
		struct bio *bio = bio_alloc(st->bdev, 0, REQ_OP_FLUSH, GFP_KERNEL);

		err = bio ? submit_bio_wait(bio) : -ENOMEM;
		if (bio)
			bio_put(bio);
		if (err == -EOPNOTSUPP)
			err = 0;
	}
	if (err)
		kprintf("blk-stress: sync: error %d\n", err);
}

static int workload_thread(void *data)
{
	struct stress *st = data;
	uint64_t rng = st->seed;

	for (unsigned long i = 1; i <= st->ops; i++) {
		uint64_t off, len;

		if (next_op(&rng, st->size, &off, &len))
			stress_write(st, (uint32_t)i, off, len);
		else
			stress_read(st, off, len);
		if (i % STRESS_SYNC_EVERY == 0 && i < st->ops)
			stress_sync(st);
		WRITE_ONCE(st->progress, i);
	}
	wait_for_completion(&st->injector_done);	/* no poison after the last sync */
	stress_sync(st);
	return 0;
}

/* ---- the injector ------------------------------------------------------------------------ */

/* A frame of the memmap, uniformly: @r over all banks' frames (each one pfn_valid). */
static unsigned long pick_pfn(uint64_t r)
{
	uint64_t total = 0;

	for (int i = 0; i < memmap_nr_banks(); i++)
		total += memmap_bank(i)->nr_pages;
	r %= total;
	for (int i = 0; i < memmap_nr_banks(); i++) {
		const struct memmap_bank *b = memmap_bank(i);

		if (r < b->nr_pages)
			return b->start_pfn + (unsigned long)r;
		r -= b->nr_pages;
	}
	return 0;	/* not reached */
}

static int injector_thread(void *data)
{
	struct stress *st = data;
	uint64_t rng = st->seed ^ PFN_SALT;

	for (unsigned long i = 0; i < st->poisons && !st->abort; i++) {
		uint64_t r = sm64_next(&rng);
		unsigned long target = (unsigned long)(((uint64_t)i * st->ops + r % st->ops) / st->poisons);
		unsigned long pfn = pick_pfn(sm64_next(&rng));

		while (READ_ONCE(st->progress) < target)
			schedule_timeout_uninterruptible(1);
		if (!pfn_valid(pfn))
			continue;
		int ret = memory_failure(pfn, MF_SW_SIMULATED);
		if (ret != -EHWPOISON && ret != -ENXIO)
			st->poisoned++;
	}
	complete(&st->injector_done);
	return 0;
}

/* ---- the command ------------------------------------------------------------------------- */

static void stress_free(struct stress *st)
{
	kfree(st->ext_start);
	kfree(st->ext_op);
	kfree(st->buf);
	kfree(st);
}

static int stress_number(const char *s, unsigned long long *v, unsigned long long lo,
			 unsigned long long hi, const char *what)
{
	if (kstrtoull(s, v)) {
		kprintf("blk-stress: invalid number '%s'\n", s);
		return 2;
	}
	if (*v < lo || *v > hi) {
		kprintf("blk-stress: %s %llu out of range (%llu..%llu)\n", what, *v, lo, hi);
		return 2;
	}
	return 0;
}

static int cmd_blk_stress(int argc, char **argv)
{
	unsigned long long ops, seed, poisons;
	struct block_device *bdev;
	struct task_struct *work, *inj;
	struct stress *st;

	if (argc != 5)
		return shell_usage_error("blk-stress", "usage: blk-stress <dev> <ops> <seed> <poisons>");
	bdev = blkdev_get_by_name(argv[1]);
	if (!bdev) {
		kprintf("blk-stress: no device '%s'\n", argv[1]);
		return 2;
	}
	if (stress_number(argv[2], &ops, 1, STRESS_MAX_OPS, "ops") ||
	    stress_number(argv[3], &seed, 0, ~0ULL, "seed") ||
	    stress_number(argv[4], &poisons, 0, STRESS_MAX_POISONS, "poisons"))
		return 2;
	if (!bdev->bd_mapping || bdev->bd_mapping->size <= 0) {
		kprintf("blk-stress: %s: %s\n", bdev->bd_name,
			bdev->bd_mapping ? "empty disk" : "no page cache");
		return 1;
	}
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		goto nomem;
	st->bdev = bdev;
	st->mapping = bdev->bd_mapping;
	st->size = (uint64_t)bdev->bd_mapping->size;
	st->seed = seed;
	st->ops = (unsigned long)ops;
	st->poisons = (unsigned long)poisons;
	st->cap_ext = 2 * st->ops + 1;
	st->ext_start = kmalloc(st->cap_ext * sizeof(*st->ext_start), GFP_KERNEL);
	st->ext_op = kmalloc(st->cap_ext * sizeof(*st->ext_op), GFP_KERNEL);
	st->buf = kmalloc(STRESS_MAX_LEN, GFP_KERNEL);
	if (!st->ext_start || !st->ext_op || !st->buf) {
		stress_free(st);
		goto nomem;
	}
	st->ext_start[0] = 0;		/* the whole disk: the initial image, "op 0" */
	st->ext_op[0] = 0;
	st->n_ext = 1;
	file_ra_state_init(&st->ra, default_ra_pages);
	st->wb_err = errseq_sample(&st->mapping->wb_err);
	init_completion(&st->injector_done);

	/* 16 KiB stacks: the page cache, writeback and memory_failure() nest deep. */
	work = kthread_create_opts(workload_thread, st, "blk-stress", DEFAULT_PRIO, 2);
	inj = kthread_create_opts(injector_thread, st, "blk-stress-inj", DEFAULT_PRIO + 1, 2);
	if (!work || !inj) {
		st->abort = true;	/* the one made, if any, ends at once */
		if (inj) {
			wake_up_process(inj);
			kthread_join(inj);
		}
		if (work) {		/* passes its loop only after the injector completed */
			st->ops = 0;
			complete(&st->injector_done);
			wake_up_process(work);
			kthread_join(work);
		}
		stress_free(st);
		kprintf("blk-stress: cannot start its threads (out of memory)\n");
		return 1;
	}
	wake_up_process(work);
	wake_up_process(inj);
	kthread_join(work);
	kthread_join(inj);
	kprintf("blk-stress: %lu ops, %lu writes, %lu reads, %lu mismatches, %lu poisoned\n",
		st->ops, st->writes, st->reads, st->mismatches, st->poisoned);
	stress_free(st);
	return 0;

nomem:
	kprintf("blk-stress: out of memory\n");
	return 1;
}
/* SHELL_COMMAND's name must be an identifier; this one has a '-', so the entry is spelt out. */
static const struct shell_cmd __shell_cmd_blk_stress __used
	__section(TABLE_SECTION_shell_cmds(blk-stress)) __attribute__((aligned(sizeof(void *)))) =
	{ "blk-stress", "<dev> <ops> <seed> <poisons>",
	  "a checked read/write workload on a disk's page cache while memory_failure() poisons random frames",
	  cmd_blk_stress };
