/*
 * mmc_spi.c - an SD card on an SPI bus ("mmc-spi-slot", v6.10's drivers/mmc/host/mmc_spi.c
 * idea) as the disk "mmcblk0": the HiFive Unleashed's card slot on SPI2 (drivers/spi-sifive.c).
 * docs/mmc-spi.md.
 *
 * Card init (boot, polled, at 400 kHz): 80 clocks with the card deselected, then CMD0 with its
 * CRC (the card enters SPI mode and goes idle), CMD8 (a v2 card echoes the check pattern),
 * CMD59 (CRC on: the card checks every frame and block we send), ACMD41 until the card leaves
 * the idle state (at most 1 s), CMD58 (the OCR: CCS says sector or byte addresses), CMD9 (the
 * CSD as a data block: the capacity), CMD16 (512-byte blocks); then the slot's
 * spi-max-frequency (at most 25 MHz).  Requests: CMD17/CMD24 for one block, CMD18 + CMD12 and
 * CMD25 + the stop token for more; every command carries its CRC-7 and every data block its
 * CRC-16, which is checked on reads.  After a write the card's status (CMD13) must be clean.
 *
 * Every wait is bounded: at most NCR_MAX bytes for a command's response, 100 ms for a read's
 * data token, 500 ms for the card's busy after a write (the SD spec's limits for SDHC), and the
 * controller's own wait for a byte (spi-sifive.c).  A card that does not answer ends the
 * request with -EIO in one line; the worker then stops whatever the card was doing (CMD12)
 * and asks its status (CMD13, twice: the first answer may report that CMD12).  A card that
 * answers from the idle state was reset or swapped, one that does not answer at all is gone:
 * the disk is failed (blk_mark_failed) in one line.
 *
 * The transfer is programmed I/O, a byte at a time, so it cannot run in submit_bio (queue
 * lock held, interrupts masked): submit_bio hands the bio to this disk's own worker thread
 * ("kworker/mmc_spi"), which moves it with interrupts on and ends it.  One request at a time.
 *
 * Where it differs from v6.10's mmc_spi.c: no mmc core and no SPI core (drivers/spi.h is the
 * three calls it uses), SD cards only (no MMC, SDIO), no card detect or write protect
 * (the DT says disable-wp), no power control; CMD59 refused is not fatal: blocks are then
 * sent with their CRC all the same and read CRCs are not checked (v6.10 does the same when
 * its use_spi_crc is off).
 *
 * Locking: host->lock (irqs masked) guards cur, failed, inject and the counters.  The SPI
 * controller and the card are the owner's alone: the probe before the disk exists, then the
 * worker while host->cur is set (submit_bio sets it and queues the work; nothing else touches
 * the bus).  submit_bio runs under the disk's queue lock and takes host->lock inside it; the
 * worker takes host->lock alone and ends the bio with no lock held: queue lock -> host->lock.
 */
#include <string.h>
#include "tinymm/blkdev.h"
#include "tinymm/bug.h"
#include "tinymm/cacheflush.h"
#include "tinymm/crc-itu-t.h"
#include "tinymm/crc7.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/irqflags.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mmc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/spinlock.h"
#include "tinymm/timer.h"
#include "tinymm/workqueue.h"
#include "spi.h"

/* SD commands (Physical Layer Simplified Specification, SPI mode). */
#define SD_GO_IDLE_STATE	0
#define SD_SEND_IF_COND		8
#define SD_SEND_CSD		9
#define SD_STOP_TRANSMISSION	12
#define SD_SEND_STATUS		13	/* R2 in SPI mode */
#define SD_SET_BLOCKLEN		16
#define SD_READ_SINGLE		17
#define SD_READ_MULTIPLE	18
#define SD_WRITE_SINGLE		24
#define SD_WRITE_MULTIPLE	25
#define SD_APP_OP_COND		41	/* ACMD41 */
#define SD_APP_CMD		55
#define SD_READ_OCR		58
#define SD_CRC_ON_OFF		59

/* R1, the first byte of every response (bit 7 clear). */
#define R1_IDLE			0x01
#define R1_ILLEGAL		0x04
#define OCR_POWER_UP		(1u << 31)
#define OCR_CCS			(1u << 30)

/* Data tokens and the data response. */
#define TOKEN_START		0xfe	/* single block read/write, multiple block read */
#define TOKEN_START_MULTI_WRITE	0xfc
#define TOKEN_STOP_TRAN		0xfd
#define DR_MASK			0x1f
#define DR_ACCEPTED		0x05
#define DR_CRC_ERROR		0x0b
#define DR_WRITE_ERROR		0x0d

#define NCR_MAX			64	/* bytes to wait for a response (the spec says 8) */
#define READ_TOKEN_MS		100
#define WRITE_BUSY_MS		500
#define INIT_HZ			400000
#define MAX_HZ			25000000
#define ACMD41_MS		1000
#define BLK			SECTOR_SIZE

#define INJECT_NO_ANSWER	1	/* the next data command's frame is lost: no response */
#define INJECT_RESET_CARD	2	/* CMD0 behind the driver's back: the card is idle again */
#define INJECT_BAD_CRC		3	/* the next read block's CRC taken as wrong */

struct mmc_spi_host {
	struct spi_device spi;
	struct block_device disk;
	struct workqueue_struct *wq;
	struct work_struct io_work;
	spinlock_t lock;
	struct bio *cur;		/* the worker's request; the bus is the worker's while set */
	bool failed;
	bool probing;			/* the probe owns the bus (before add_disk) */
	unsigned int inject;
	unsigned long errors, recoveries;
	/* the card (set by the probe) */
	bool v2, high_capacity, crc_on;
};

static int xfer(struct mmc_spi_host *host, const uint8_t *tx, uint8_t *rx, size_t len)
{
	return host->spi.ops->transfer(&host->spi, tx, rx, len);
}

static int read_byte(struct mmc_spi_host *host)
{
	uint8_t b;
	int ret = xfer(host, NULL, &b, 1);

	return ret ? ret : b;
}

/* A transaction: the card selected for its commands and data, then 8 clocks after the last
 * response (the card needs them to finish), deselected, and 8 more so it lets go of MISO. */
static void txn_begin(struct mmc_spi_host *host)
{
	/* The bus is the probe's, or the worker's while it holds a request (the header). */
	WARN_ON_ONCE(!host->probing && !READ_ONCE(host->cur));
	host->spi.ops->set_cs(&host->spi, true);
}

static void txn_end(struct mmc_spi_host *host)
{
	xfer(host, NULL, NULL, 1);
	host->spi.ops->set_cs(&host->spi, false);
	xfer(host, NULL, NULL, 1);
}

/*
 * Send command @cmd(@arg) and read its R1 into resp[0] and @extra more bytes after it (R2: 1,
 * R3/R7: 4).  0, or -ETIMEDOUT with the reason in @why when no response came within NCR_MAX
 * bytes or the controller stalled.  The caller judges R1.
 */
static int mmc_spi_cmd(struct mmc_spi_host *host, unsigned int cmd, uint32_t arg, uint8_t *resp,
		       size_t extra, bool lose, char *why, size_t len)
{
	uint8_t f[7];
	int b = -1, ret;

	f[0] = 0xff;			/* one byte of clocks: the card ends what it was saying */
	f[1] = 0x40 | cmd;
	f[2] = arg >> 24;
	f[3] = arg >> 16;
	f[4] = arg >> 8;
	f[5] = arg;
	f[6] = (uint8_t)(crc7(0, f + 1, 5) << 1 | 1);
	if (lose)
		memset(f, 0xff, sizeof(f));	/* the test's lost frame: the card hears clocks only */
	ret = xfer(host, f, NULL, sizeof(f));
	/* CMD12 is sent while the card streams a block: the byte after it is a stuff byte. */
	if (!ret && cmd == SD_STOP_TRANSMISSION)
		ret = xfer(host, NULL, NULL, 1);
	for (int i = 0; !ret && i < NCR_MAX; i++) {
		b = read_byte(host);
		if (b < 0)
			ret = b;
		else if (!(b & 0x80))
			break;
		b = -1;
	}
	if (ret || b < 0) {
		ksnprintf(why, len, ret ? "the SPI controller stalled in CMD%u" :
			  "no response to CMD%u within %u bytes", cmd, NCR_MAX);
		return -ETIMEDOUT;
	}
	resp[0] = (uint8_t)b;
	if (extra && xfer(host, NULL, resp + 1, extra)) {
		ksnprintf(why, len, "the SPI controller stalled in CMD%u's response", cmd);
		return -ETIMEDOUT;
	}
	return 0;
}

/* An application command: CMD55, then ACMD@cmd. */
static int mmc_spi_acmd(struct mmc_spi_host *host, unsigned int cmd, uint32_t arg, uint8_t *resp,
			char *why, size_t len)
{
	int ret = mmc_spi_cmd(host, SD_APP_CMD, 0, resp, 0, false, why, len);

	if (ret || (resp[0] & ~R1_IDLE))
		return ret ? ret : -EIO;
	return mmc_spi_cmd(host, cmd, arg, resp, 0, false, why, len);
}

/* Read bytes until one is not 0xff (a token, a data response) or until @ms pass.  The byte,
 * or -ETIMEDOUT. */
static int wait_not_ff(struct mmc_spi_host *host, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms) + 1;

	for (unsigned int i = 0;; i++) {
		int b = read_byte(host);

		if (b != 0xff)
			return b;
		if ((i & 63) == 63 && time_after(jiffies, end))
			return -ETIMEDOUT;
	}
}

/* Wait while the card holds MISO low (busy programming); 0 or -ETIMEDOUT. */
static int wait_not_busy(struct mmc_spi_host *host, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms) + 1;

	for (unsigned int i = 0;; i++) {
		int b = read_byte(host);

		if (b < 0)
			return b;
		if (b == 0xff)
			return 0;
		if ((i & 63) == 63 && time_after(jiffies, end))
			return -ETIMEDOUT;
	}
}

/* One data block from the card (@n bytes, 512 or the CSD's 16); CRC checked when it is on. */
static int read_block(struct mmc_spi_host *host, uint8_t *buf, size_t n, bool bad_crc, char *why,
		      size_t len)
{
	uint8_t c[2];
	uint16_t want, got;
	int tok = wait_not_ff(host, READ_TOKEN_MS);

	if (tok == -ETIMEDOUT) {
		ksnprintf(why, len, "no data token within %u ms", READ_TOKEN_MS);
		return -EIO;
	}
	if (tok != TOKEN_START) {
		ksnprintf(why, len, tok < 0 ? "the SPI controller stalled" : "data error token 0x%02x",
			  tok);
		return -EIO;
	}
	if (xfer(host, NULL, buf, n) || xfer(host, NULL, c, 2)) {
		ksnprintf(why, len, "the SPI controller stalled in a data block");
		return -EIO;
	}
	if (!host->crc_on && !bad_crc)
		return 0;
	got = (uint16_t)(c[0] << 8 | c[1]) ^ (bad_crc ? 0x0001 : 0);
	want = crc_itu_t(0, buf, n);
	if (got != want) {
		ksnprintf(why, len, "data CRC 0x%04x, computed 0x%04x", got, want);
		return -EIO;
	}
	return 0;
}

/* One 512-byte block to the card after @token; 0 once the card accepted and programmed it. */
static int write_block(struct mmc_spi_host *host, uint8_t token, const uint8_t *buf, char *why,
		       size_t len)
{
	uint16_t crc = crc_itu_t(0, buf, BLK);
	uint8_t hdr[2] = { 0xff, token }, c[2] = { crc >> 8, crc & 0xff };
	int dr = -ETIMEDOUT;

	if (xfer(host, hdr, NULL, 2) || xfer(host, buf, NULL, BLK) || xfer(host, c, NULL, 2)) {
		ksnprintf(why, len, "the SPI controller stalled in a data block");
		return -EIO;
	}
	/* The data response follows the CRC at once; a few bytes of slack. */
	for (int i = 0; i < 8; i++) {
		dr = read_byte(host);
		if (dr != 0xff)
			break;
		dr = -ETIMEDOUT;
	}
	if (dr < 0) {
		ksnprintf(why, len, "no data response");
		return -EIO;
	}
	if ((dr & DR_MASK) != DR_ACCEPTED) {
		ksnprintf(why, len, "block refused: data response 0x%02x (%s)", dr,
			  (dr & DR_MASK) == DR_CRC_ERROR ? "CRC error" :
			  (dr & DR_MASK) == DR_WRITE_ERROR ? "write error" : "not a data response");
		return -EIO;
	}
	if (wait_not_busy(host, WRITE_BUSY_MS)) {
		ksnprintf(why, len, "still busy %u ms after a block", WRITE_BUSY_MS);
		return -EIO;
	}
	return 0;
}

/* Move @bio (the worker, the bus its own).  0, or -EIO with the reason in @why. */
static int mmc_spi_rw(struct mmc_spi_host *host, struct bio *bio, unsigned int inject, char *why,
		      size_t len)
{
	bool write = bio_op(bio) == REQ_OP_WRITE, multi = bio->bi_size > BLK;
	uint64_t arg = host->high_capacity ? bio->bi_sector : bio->bi_sector << SECTOR_SHIFT;
	unsigned int cmd = write ? (multi ? SD_WRITE_MULTIPLE : SD_WRITE_SINGLE) :
				   (multi ? SD_READ_MULTIPLE : SD_READ_SINGLE);
	uint8_t r[2];
	int ret = 0, stop;

	txn_begin(host);
	if (inject == INJECT_RESET_CARD)
		mmc_spi_cmd(host, SD_GO_IDLE_STATE, 0, r, 0, false, why, len);
	if (mmc_spi_cmd(host, cmd, (uint32_t)arg, r, 0, inject == INJECT_NO_ANSWER, why, len)) {
		ret = -EIO;
		goto out;
	}
	if (r[0]) {
		ksnprintf(why, len, "CMD%u refused: R1 0x%02x", cmd, r[0]);
		ret = -EIO;
		goto out;
	}
	for (unsigned int v = 0; v < bio->bi_vcnt && !ret; v++) {
		struct bio_vec *bv = &bio->bi_io_vec[v];
		uint8_t *p = (uint8_t *)page_address(bv->bv_page) + bv->bv_offset;

		for (unsigned int off = 0; off < bv->bv_len && !ret; off += BLK) {
			if (write)
				ret = write_block(host, multi ? TOKEN_START_MULTI_WRITE : TOKEN_START,
						  p + off, why, len);
			else
				ret = read_block(host, p + off, BLK, inject == INJECT_BAD_CRC, why, len);
			inject = 0;
		}
		if (!write)
			flush_dcache_page(bv->bv_page);	/* the CPU wrote it (as brd.c) */
	}
	if (multi && write) {
		/* The stop token, a stuff byte, then the card is busy with the last block. */
		uint8_t st[2] = { TOKEN_STOP_TRAN, 0xff };

		stop = xfer(host, st, NULL, 2) || wait_not_busy(host, WRITE_BUSY_MS);
		if (stop && !ret) {
			ksnprintf(why, len, "still busy %u ms after the stop token", WRITE_BUSY_MS);
			ret = -EIO;
		}
	} else if (multi) {
		/* CMD12 ends the stream; its R1 may report the block the card read ahead past
		 * the end (out of range): only its absence matters. */
		char w2[64];

		stop = mmc_spi_cmd(host, SD_STOP_TRANSMISSION, 0, r, 0, false, w2, sizeof(w2)) ||
		       wait_not_busy(host, WRITE_BUSY_MS);
		if (stop && !ret) {
			ksnprintf(why, len, "%s", w2);
			ret = -EIO;
		}
	}
	if (write && !ret) {
		/* The data response says a block arrived; CMD13 says it was written. */
		if (mmc_spi_cmd(host, SD_SEND_STATUS, 0, r, 1, false, why, len)) {
			ret = -EIO;
		} else if (r[0] || r[1]) {
			ksnprintf(why, len, "card status 0x%02x%02x after the write", r[0], r[1]);
			ret = -EIO;
		}
	}
out:
	txn_end(host);
	return ret;
}

/*
 * After a failed request: stop whatever the card was doing and ask its status.  0: the card
 * answers from the transfer state; -EIO: it does not answer, or answers from idle (reset,
 * swapped): not ours any more.
 */
static int mmc_spi_recover(struct mmc_spi_host *host, char *why, size_t len)
{
	uint8_t r[2];
	int ret;

	txn_begin(host);
	mmc_spi_cmd(host, SD_STOP_TRANSMISSION, 0, r, 0, false, why, len);	/* may not be needed */
	wait_not_busy(host, WRITE_BUSY_MS);
	txn_end(host);
	/* Twice: the first answer may still carry the error of the CMD12 just sent when the card
	 * was not streaming (QEMU's card reports an illegal command in the next response too). */
	for (int i = 0; i < 2; i++) {
		txn_begin(host);
		ret = mmc_spi_cmd(host, SD_SEND_STATUS, 0, r, 1, false, why, len);
		txn_end(host);
	}
	if (ret)
		return -EIO;
	/* An initialised card always takes CMD13; idle, or calling it illegal (QEMU's card in
	 * its idle state), means it was reset or swapped since the probe. */
	if (r[0] & (R1_IDLE | R1_ILLEGAL)) {
		ksnprintf(why, len, "CMD13 answered R1 0x%02x: reset or swapped", r[0]);
		return -EIO;
	}
	return 0;
}

static void mmc_spi_io_work(struct work_struct *work)
{
	struct mmc_spi_host *host = container_of(work, struct mmc_spi_host, io_work);
	unsigned long flags, started = jiffies;
	unsigned int inject;
	struct bio *bio;
	char why[96], line[160];
	int ret;
	bool failed = false;

	spin_lock_irqsave(&host->lock, flags);
	bio = host->cur;
	inject = host->inject;
	host->inject = 0;
	spin_unlock_irqrestore(&host->lock, flags);
	if (!bio)
		return;
	ret = mmc_spi_rw(host, bio, inject, why, sizeof(why));
	if (ret) {
		pr_err("mmc_spi %s: %s of %u bytes at sector %llu: %s after %u ms: I/O error\n",
		       host->disk.bd_name, bio_op(bio) == REQ_OP_WRITE ? "write" : "read",
		       bio->bi_size, (unsigned long long)bio->bi_sector, why,
		       jiffies_to_msecs(jiffies - started));
		failed = mmc_spi_recover(host, why, sizeof(why)) != 0;
	}
	spin_lock_irqsave(&host->lock, flags);
	host->cur = NULL;
	if (ret) {
		host->errors++;
		if (failed)
			host->failed = true;
		else
			host->recoveries++;
	}
	spin_unlock_irqrestore(&host->lock, flags);
	bio->bi_status = ret;
	/* Completions expect interrupt context (blkdev.h): give them interrupts masked. */
	local_irq_save(flags);
	bio_endio(bio);
	local_irq_restore(flags);
	if (failed) {
		ksnprintf(line, sizeof(line),
			  "mmc_spi %s: the card does not come back after an error (%s); disk failed",
			  host->disk.bd_name, why);
		blk_mark_failed(&host->disk, line);
	} else {
		blk_queue_run(&host->disk);
	}
}

static int mmc_spi_submit(struct bio *bio)
{
	struct mmc_spi_host *host = bio->bi_bdev->bd_private;
	unsigned long flags;
	int ret = 0;

	lockdep_assert_held(&bio->bi_bdev->bd_queue_lock);	/* queue lock -> host->lock */
	if (bio_op(bio) == REQ_OP_FLUSH)
		return 1;	/* no write cache: a write is done when the card is not busy */
	for (unsigned int v = 0; v < bio->bi_vcnt; v++)
		if (bio->bi_io_vec[v].bv_len % BLK)
			return -EINVAL;	/* a block split across segments: not taken */
	/* An SDSC card's argument is a 32-bit byte address: the first block's must fit. */
	if (!host->high_capacity && (bio->bi_sector << SECTOR_SHIFT) > 0xffffffffULL)
		return -EINVAL;
	spin_lock_irqsave(&host->lock, flags);
	if (host->failed) {
		ret = -ENXIO;
	} else if (host->cur) {
		ret = -EBUSY;	/* kept queued; blk_queue_run() when the worker is done */
	} else {
		host->cur = bio;
		queue_work(host->wq, &host->io_work);
	}
	spin_unlock_irqrestore(&host->lock, flags);
	return ret;
}

static void mmc_spi_describe(struct block_device *bdev, char *buf, size_t len)
{
	struct mmc_spi_host *host = bdev->bd_private;
	char ctlr[48];

	host->spi.ops->describe(&host->spi, ctlr, sizeof(ctlr));
	ksnprintf(buf, len,
		  "mmc_spi on %s, %s, SPI clock %u Hz, CRC %s, polled, %lu errors, %lu recoveries",
		  ctlr, host->high_capacity ? "SDHC" : "SDSC", host->spi.speed_hz,
		  host->crc_on ? "on" : "off", host->errors, host->recoveries);
}

static int mmc_spi_inject(struct block_device *bdev, const char *what)
{
	struct mmc_spi_host *host = bdev->bd_private;
	unsigned long flags;
	/* In INJECT_* order. */
	static const char *const names[] = { "no-answer", "reset-card", "bad-crc", NULL };
	unsigned int inject = blk_inject_lookup(what, names);

	if (!inject)
		return -EINVAL;
	spin_lock_irqsave(&host->lock, flags);
	host->inject = inject;
	spin_unlock_irqrestore(&host->lock, flags);
	return 0;
}

static const struct block_device_operations mmc_spi_ops = {
	.submit_bio = mmc_spi_submit,
	.describe = mmc_spi_describe,
	.test_inject = mmc_spi_inject,
};

/* Bits [start, start + size) of the CSD, bit 127 first on the wire (size <= 32). */
static uint32_t csd_bits(const uint8_t csd[16], unsigned int start, unsigned int size)
{
	uint32_t v = 0;

	for (unsigned int b = start + size; b-- > start;)
		v = v << 1 | ((csd[15 - b / 8] >> (b % 8)) & 1);
	return v;
}

/* The capacity in 512-byte sectors from the CSD; 0 for one that makes no sense. */
static uint64_t csd_sectors(const uint8_t csd[16])
{
	switch (csd_bits(csd, 126, 2)) {
	case 0: {	/* CSD 1.0 (SDSC): (C_SIZE + 1) * 2^(C_SIZE_MULT + 2) * 2^READ_BL_LEN */
		uint64_t c_size = csd_bits(csd, 62, 12), mult = csd_bits(csd, 47, 3);
		unsigned int bl_len = csd_bits(csd, 80, 4);

		if (bl_len < 9 || bl_len > 11)
			return 0;
		return ((c_size + 1) << (mult + 2 + bl_len)) >> SECTOR_SHIFT;
	}
	case 1:		/* CSD 2.0 (SDHC/SDXC): (C_SIZE + 1) * 512 KiB */
		return ((uint64_t)csd_bits(csd, 48, 22) + 1) << 10;
	default:
		return 0;
	}
}

/* Bring the card into SPI mode and identify it (probe: the bus is ours).  0, or -errno with
 * the reason in @why. */
static int mmc_spi_card_init(struct mmc_spi_host *host, char *why, size_t len)
{
	uint8_t r[5], csd[16];
	uint32_t ocr;
	unsigned long end;
	int ret, i;

	host->spi.ops->set_speed(&host->spi, INIT_HZ);
	/* 74+ clocks with the card deselected: it powers up into its native mode. */
	host->spi.ops->set_cs(&host->spi, false);
	if (xfer(host, NULL, NULL, 10)) {
		ksnprintf(why, len, "the SPI controller does not move bytes");
		return -EIO;
	}
	txn_begin(host);
	/* CMD0 with the card selected: SPI mode, idle.  Retried: a card may still be busy. */
	for (i = 0; i < 3; i++) {
		ret = mmc_spi_cmd(host, SD_GO_IDLE_STATE, 0, r, 0, false, why, len);
		if (!ret && r[0] == R1_IDLE)
			break;
	}
	if (ret) {
		ksnprintf(why, len, "no response to CMD0 (no card in the slot?)");
		goto fail;
	}
	if (r[0] != R1_IDLE) {
		ksnprintf(why, len, "CMD0 answered R1 0x%02x, not idle (%s)", r[0],
			  r[0] & R1_ILLEGAL ? "illegal command: no card in the slot?" : "card error");
		ret = -EIO;
		goto fail;
	}
	/* CMD8: a v2 card echoes the voltage and check pattern; a v1 card calls it illegal. */
	ret = mmc_spi_cmd(host, SD_SEND_IF_COND, 0x1aa, r, 4, false, why, len);
	if (ret)
		goto fail;
	host->v2 = !(r[0] & R1_ILLEGAL);
	if (host->v2 && ((r[3] & 0xf) != 0x1 || r[4] != 0xaa)) {
		ksnprintf(why, len, "CMD8 echoed 0x%02x%02x, not 0x1aa", r[3], r[4]);
		ret = -EIO;
		goto fail;
	}
	/* CRC on: the card then checks what we send (v6.10's use_spi_crc default). */
	ret = mmc_spi_cmd(host, SD_CRC_ON_OFF, 1, r, 0, false, why, len);
	if (ret)
		goto fail;
	host->crc_on = !(r[0] & ~R1_IDLE);
	end = jiffies + msecs_to_jiffies(ACMD41_MS);
	for (;;) {
		ret = mmc_spi_acmd(host, SD_APP_OP_COND, host->v2 ? OCR_CCS : 0, r, why, len);
		if (ret == -EIO) {
			ksnprintf(why, len, "ACMD41 refused: R1 0x%02x", r[0]);
			goto fail;
		}
		if (ret)
			goto fail;
		if (!r[0])
			break;		/* ready: idle bit clear and no error bit */
		if (r[0] != R1_IDLE) {
			ksnprintf(why, len, "ACMD41 answered R1 0x%02x", r[0]);
			ret = -EIO;
			goto fail;
		}
		if (time_after(jiffies, end)) {
			ksnprintf(why, len, "still idle after %u ms of ACMD41", ACMD41_MS);
			ret = -EIO;
			goto fail;
		}
		mdelay(10);
	}
	host->high_capacity = false;
	if (host->v2) {
		ret = mmc_spi_cmd(host, SD_READ_OCR, 0, r, 4, false, why, len);
		if (ret)
			goto fail;
		/* QEMU's card sets R1's idle bit in every R3/R7, whatever its state: only the
		 * error bits count.  CCS means something once power-up is done (bit 31). */
		if (r[0] & ~R1_IDLE) {
			ksnprintf(why, len, "CMD58 refused: R1 0x%02x", r[0]);
			ret = -EIO;
			goto fail;
		}
		ocr = (uint32_t)r[1] << 24 | (uint32_t)r[2] << 16 | (uint32_t)r[3] << 8 | r[4];
		host->high_capacity = (ocr & OCR_POWER_UP) && (ocr & OCR_CCS);
	}
	ret = mmc_spi_cmd(host, SD_SEND_CSD, 0, r, 0, false, why, len);
	if (!ret && r[0]) {
		ksnprintf(why, len, "CMD9 refused: R1 0x%02x", r[0]);
		ret = -EIO;
	}
	if (!ret)
		ret = read_block(host, csd, sizeof(csd), false, why, len);
	if (ret) {
		char w2[96];

		ksnprintf(w2, sizeof(w2), "reading the CSD: %s", why);
		ksnprintf(why, len, "%s", w2);
		goto fail;
	}
	host->disk.bd_nr_sectors = csd_sectors(csd);
	if (!host->disk.bd_nr_sectors) {
		ksnprintf(why, len, "its CSD makes no sense (%02x%02x%02x%02x...)", csd[0], csd[1],
			  csd[2], csd[3]);
		ret = -EIO;
		goto fail;
	}
	/* The OCR picks the addressing, the CSD the capacity: a card whose two disagree could
	 * have blocks read or written at the wrong place (as sunxi_mmc.c). */
	if (host->high_capacity != (csd_bits(csd, 126, 2) == 1)) {
		ksnprintf(why, len, "its OCR says %s but its CSD is version %u",
			  host->high_capacity ? "SDHC" : "SDSC", (unsigned int)csd_bits(csd, 126, 2) + 1);
		ret = -EIO;
		goto fail;
	}
	ret = mmc_spi_cmd(host, SD_SET_BLOCKLEN, BLK, r, 0, false, why, len);
	if (!ret && r[0]) {
		ksnprintf(why, len, "CMD16 (512-byte blocks) refused: R1 0x%02x", r[0]);
		ret = -EIO;
	}
	if (ret)
		goto fail;
	txn_end(host);
	host->spi.ops->set_speed(&host->spi, host->spi.max_speed_hz < MAX_HZ ?
					     host->spi.max_speed_hz : MAX_HZ);
	return 0;
fail:
	txn_end(host);
	return ret;
}

static void mmc_spi_probe(const struct dt *dt, int ctlr, int node)
{
	struct mmc_spi_host *host = kzalloc(sizeof(*host), GFP_KERNEL);
	char why[120], where[48];
	int ret;

	if (!host) {
		pr_err("mmc_spi: no memory\n");
		return;
	}
	ret = sifive_spi_setup(&host->spi, dt, ctlr, node, why, sizeof(why));
	if (ret) {
		pr_err("mmc_spi: %s; not used\n", why);
		kfree(host);
		return;
	}
	host->spi.ops->describe(&host->spi, where, sizeof(where));
	spin_lock_init(&host->lock);
	INIT_WORK(&host->io_work, mmc_spi_io_work);
	host->probing = true;
	ret = mmc_spi_card_init(host, why, sizeof(why));
	host->probing = false;
	if (ret) {
		pr_info("mmc_spi %s: no usable card: %s\n", where, why);
		goto out_release;
	}
	host->wq = alloc_workqueue("mmc_spi", WORKER_PRIO);
	if (!host->wq) {
		pr_err("mmc_spi %s: cannot start its worker thread; not used\n", where);
		goto out_release;
	}
	host->disk.bd_logical_block_size = BLK;
	host->disk.bd_max_segments = 256;
	host->disk.bd_ops = &mmc_spi_ops;
	host->disk.bd_private = host;
	strcpy(host->disk.bd_name, "mmcblk0");
	if (add_disk(&host->disk)) {
		/* The worker stays (tinymm cannot stop one); it never gets work. */
		pr_err("mmc_spi %s: cannot register mmcblk0\n", where);
		goto out_release;
	}
	pr_info("mmc_spi %s: %llu bytes (%llu sectors), %s, SPI clock %u Hz, CRC %s, polled, on %s\n",
		host->disk.bd_name, (unsigned long long)bdev_nr_bytes(&host->disk),
		(unsigned long long)host->disk.bd_nr_sectors, host->high_capacity ? "SDHC" : "SDSC",
		host->spi.speed_hz, host->crc_on ? "on" : "off", where);
	return;

out_release:	/* nothing of a slot not used stays mapped */
	host->spi.ops->release(&host->spi);
	kfree(host);
}

void mmc_spi_init(const struct dt *dt)
{
	/* Every card slot on a SiFive SPI controller that is not disabled (one on the FU540). */
	for (int node = dt_find_compatible(dt, -1, "mmc-spi-slot"); node >= 0;
	     node = dt_find_compatible(dt, node, "mmc-spi-slot")) {
		int ctlr = dt_parent(dt, node);

		if (ctlr < 0 || !dt_is_compatible(dt, ctlr, "sifive,spi0") ||
		    !dt_node_is_available(dt, ctlr) || !dt_node_is_available(dt, node))
			continue;
		mmc_spi_probe(dt, ctlr, node);
		return;
	}
}
