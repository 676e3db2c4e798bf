/*
 * bcm2835_sdhost.c - the BCM2835/6's own SD host ("brcm,bcm2835-sdhost", the Raspberry Pi 2B's
 * card slot, 0x3f202000 on the ARM's side) and its SD card as the disk "mmcblk0"
 * (docs/mmc.md, docs/boards/raspi2b.md).
 *
 * The card's pins: GPIO 48-53 go either to this host (function ALT0) or to the Arasan SDHCI
 * (the DTB's mmc@7e300000, "disabled"); QEMU's bcm2835_gpio wires its card to the SDHCI at
 * reset and moves it to this host when all six pins are ALT0.  The probe applies the node's
 * pinctrl-0 state from the device tree (brcm,pins, brcm,function in the GPIO controller's
 * GPFSELn), as Linux's pinctrl-bcm2835 applies a device's default state before its probe.
 *
 * Probe (boot, polled): power the card (SDVDD), a slow identification clock, then the card's
 * identification (drivers/mmc_core.c), a 25 MHz clock and the widest bus.  Requests: one at a
 * time, CMD17/CMD24 for one block, CMD18/CMD25 then CMD12 for more, run by this driver's own
 * worker thread: the DMA engine channel the node's dmas names (drivers/bcm2835_dma.c) moves
 * all but the last word between the segments and the 16-word FIFO (SDDATA), then the CPU
 * moves that word (PIO), waiting for it: QEMU's DMA engine ignores the FIFO's DREQ and would
 * read an empty FIFO's zeros from a card that stalls, so the PIO tail is what proves the card
 * delivered (or took) everything.  Without a DMA engine,
 * every word goes by PIO (as v6.10 does for small transfers).  Polled, not by interrupt: QEMU
 * completes each command, DMA chain and FIFO refill inside the register access, so the
 * controller's and the engine's interrupts (the DTB's, not requested) would only add a
 * context switch; a wait that is not over at once spins ~100 us, then sleeps a tick at a time.
 * Every wait is bounded: a command by 100 ms, a request's data by tinymm.bcm2835_sdhost_timeout_ms
 * (default 1000 ms).  A card that does not answer, a CRC or FIFO error, a DMA engine error, or
 * data that does not come ends the request with -EIO in one line; then the controller is reset
 * (FIFO drained) and the card brought back to the transfer state (mmc_sd_recover_card) before
 * the next request; a card that cannot be brought back fails the disk (blk_mark_failed): later
 * requests get -ENXIO at once.
 *
 * Where it differs from v6.10's bcm2835.c: no clock framework (the VPU core clock is taken as
 * the 250 MHz the firmware sets), no dmaengine (the channel is driven directly), no interrupt,
 * no card detect, no SDIO; the card's side is drivers/mmc_core.c's.
 *
 * Locking: host->ctrl_lock (a mutex) makes the controller one thread's: the worker's for a
 * whole request and its recovery; every register helper asserts it, or host->probing (the
 * boot's probe, interrupts off, before the disk exists).
 * host->lock (a spinlock, irqs masked) guards the request in flight (cur), failed, inject and
 * the counters; submit_bio takes it under the disk's queue lock (queue lock -> host->lock)
 * and never touches the controller.  The worker calls back into the block layer (bio_endio,
 * blk_queue_run, blk_mark_failed) holding neither.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/io.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/mmc.h"
#include "tinymm/mutex.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/spinlock.h"
#include "tinymm/timer.h"
#include "tinymm/workqueue.h"
#include "tinymm/dma-mapping.h"
#include "bcm2835_dma.h"
#include "mmc_core.h"

/* Registers (offsets from the controller's base), v6.10's names. */
#define SDCMD		0x00	/* command, and its flags */
#define SDARG		0x04
#define SDTOUT		0x08	/* data timeout, card clocks */
#define SDCDIV		0x0c	/* card clock = core clock / (SDCDIV + 2) */
#define SDRSP0		0x10	/* a long response: SDRSP3 holds bits 127:96 */
#define SDHSTS		0x20	/* status, write 1 to clear */
#define SDVDD		0x30	/* the card's power */
#define SDEDM		0x34	/* FIFO level and thresholds, the data state machine */
#define SDHCFG		0x38
#define SDHBCT		0x3c	/* bytes per block */
#define SDDATA		0x40	/* the FIFO */
#define SDHBLC		0x50	/* blocks */

#define SDCMD_NEW_FLAG		0x8000	/* set to start; the host clears it when done */
#define SDCMD_FAIL_FLAG		0x4000
#define SDCMD_BUSYWAIT		0x0800
#define SDCMD_NO_RESPONSE	0x0400
#define SDCMD_LONG_RESPONSE	0x0200
#define SDCMD_WRITE_CMD		0x0080
#define SDCMD_READ_CMD		0x0040

#define SDHSTS_BUSY_IRPT	0x400	/* an R1b command's busy ended */
#define SDHSTS_REW_TIME_OUT	0x080
#define SDHSTS_CMD_TIME_OUT	0x040
#define SDHSTS_CRC16_ERROR	0x020
#define SDHSTS_CRC7_ERROR	0x010
#define SDHSTS_FIFO_ERROR	0x008
#define SDHSTS_ERRORS		0x0f8
#define SDHSTS_CLEAR		0x7f8

#define SDHCFG_BUSY_IRPT_EN	(1u << 10)	/* needed for the busy status, not an interrupt here */
#define SDHCFG_SLOW_CARD	(1u << 3)
#define SDHCFG_WIDE_EXT_BUS	(1u << 2)
#define SDHCFG_WIDE_INT_BUS	(1u << 1)

#define SDEDM_FIFO_LEVEL(e)	((unsigned int)((e) >> 4) & 0x1fu)
#define SDEDM_FSM(e)		((unsigned int)(e) & 0xfu)
#define SDEDM_FSM_IDENTMODE	0x0
#define SDEDM_FSM_DATAMODE	0x1
#define SDEDM_THRESHOLDS	((0x1fu << 9) | (0x1fu << 14))
#define SDEDM_WRITE_THRESHOLD	(4u << 9)	/* words, as v6.10 */
#define SDEDM_READ_THRESHOLD	(4u << 14)

#define FIFO_WORDS		16
#define CORE_CLOCK_HZ		250000000u	/* the firmware's VPU clock */
#define IDENT_HZ		400000u
#define TRANSFER_HZ		25000000u
#define CMD_POLL_US		100000		/* one polled command, at most */
#define MAX_BLOCKS		256		/* a request's blocks (SDHBLC has 9 bits) */
#define MAX_SEGS		(MAX_BLOCKS * SECTOR_SIZE / PAGE_SIZE)
#define PIO_TAIL		4	/* a request's last word, always by PIO (see sdhost_transfer) */
/* A multi-block read leaves the last (read threshold - 1) words to PIO, as v6.10's driver does:
 * the host raises no DREQ for fewer words than its threshold at the end of such a transfer. */
#define PIO_TAIL_MULTI_READ	12

#define INJECT_NO_ANSWER	1	/* deselect the card: the next data command is unanswered */
#define INJECT_RESET_CARD	2	/* CMD0 first: the card forgets its RCA, as one swapped */
#define INJECT_STALL		3	/* the host moves no data: only the bound ends the request */

struct sdhost {
	uintptr_t base;
	phys_addr_t phys;
	struct device dev;		/* for the DMA engine's mappings */
	struct bcm2835_dma_chan *dma;	/* NULL: PIO only */
	uint32_t fifo_bus;		/* SDDATA's bus address, as the DMA engine sees it */
	dma_addr_t seg_dma[MAX_SEGS];	/* the request's DMA mappings (ctrl_lock) */
	uint32_t seg_len[MAX_SEGS];
	struct mmc_card card;
	struct block_device disk;
	struct mutex ctrl_lock;		/* the controller is the holder's */
	bool probing;			/* or the probe's: no disk yet, interrupts still off */
	struct workqueue_struct *wq;
	struct work_struct work;
	unsigned int pin_first, pin_count, pin_func;	/* the pinctrl state applied */
	uint32_t fail_hsts;		/* SDHSTS of the last command that failed (ctrl_lock) */
	spinlock_t lock;
	/* under lock: */
	struct bio *cur;		/* the request the worker runs (NULL: idle) */
	bool failed;
	unsigned int inject;
	unsigned long errors, recoveries;
};

static unsigned int sdhost_timeout_ms = 1000;
KPARAM_UINT(bcm2835_sdhost_timeout_ms, sdhost_timeout_ms, 10, 60000,
	    "bcm2835-sdhost: end a request whose data has not moved in this long with EIO (default 1000)");

/* What every register access needs: the controller to itself (see Locking above). */
static inline void sdhost_assert_owner(struct sdhost *host)
{
	if (!host->probing)
		lockdep_assert_held(&host->ctrl_lock);
}

static inline uint32_t sdhost_readl(struct sdhost *host, unsigned int reg)
{
	sdhost_assert_owner(host);
	return readl(host->base + reg);
}

static inline void sdhost_writel(struct sdhost *host, unsigned int reg, uint32_t v)
{
	sdhost_assert_owner(host);
	writel(v, host->base + reg);
}

static void sdhost_set_clock(struct sdhost *host, unsigned int hz)
{
	unsigned int div = (CORE_CLOCK_HZ + hz - 1) / hz;

	sdhost_writel(host, SDCDIV, div < 2 ? 0 : div - 2);
	/* ~500 ms of card clocks before a data transfer is given up by the host itself */
	sdhost_writel(host, SDTOUT, hz / 2);
}

/*
 * Stop whatever the controller was doing: no command, no blocks, the FIFO emptied (a word left
 * in it would be the next read's first), errors cleared.  @power: also cycle the card's power
 * and start at the identification clock (probe only: the card forgets everything).
 */
static void sdhost_reset(struct sdhost *host, bool power)
{
	uint32_t edm;

	sdhost_writel(host, SDCMD, 0);
	sdhost_writel(host, SDARG, 0);
	sdhost_writel(host, SDHBLC, 0);
	sdhost_writel(host, SDHBCT, 0);
	for (int i = 0; i < 2 * FIFO_WORDS && SDEDM_FIFO_LEVEL(sdhost_readl(host, SDEDM)); i++)
		(void)sdhost_readl(host, SDDATA);
	sdhost_writel(host, SDHSTS, SDHSTS_CLEAR);
	edm = sdhost_readl(host, SDEDM) & ~(SDEDM_THRESHOLDS | 0xf);
	sdhost_writel(host, SDEDM, edm | SDEDM_WRITE_THRESHOLD | SDEDM_READ_THRESHOLD);
	if (power) {
		sdhost_writel(host, SDHCFG, 0);
		sdhost_writel(host, SDVDD, 0);
		mdelay(10);
		sdhost_writel(host, SDVDD, 1);
		mdelay(10);
	}
	sdhost_writel(host, SDHCFG, SDHCFG_WIDE_INT_BUS | SDHCFG_BUSY_IRPT_EN |
		      (host->card.bus_width == 4 ? SDHCFG_WIDE_EXT_BUS : 0) |
		      (power ? SDHCFG_SLOW_CARD : 0));
	sdhost_set_clock(host, power ? IDENT_HZ : TRANSFER_HZ);
}

/*
 * Send one command and wait for its response (ctrl_lock held).  @flags: SDCMD_READ_CMD or
 * SDCMD_WRITE_CMD for a data command.  0 and the response in @resp; -ETIMEDOUT when the card
 * did not answer, -EIO for a CRC error.
 */
static int sdhost_cmd(struct sdhost *host, unsigned int opcode, uint32_t arg, unsigned int rsp,
		      uint32_t flags, uint32_t resp[4])
{
	uint32_t hsts, cmd;
	int us;

	switch (rsp & 0xff) {
	case MMC_RSP_NONE: flags |= SDCMD_NO_RESPONSE; break;
	case MMC_RSP_R1B: flags |= SDCMD_BUSYWAIT; break;
	case MMC_RSP_R2: flags |= SDCMD_LONG_RESPONSE; break;
	default: break;
	}
	/* The previous command's wait (or the reset after one that never ended) left SDCMD
	 * idle: no wait before, and as few register accesses as will do (each one traps in QEMU). */
	host->fail_hsts = 0;
	sdhost_writel(host, SDHSTS, SDHSTS_CLEAR);
	sdhost_writel(host, SDARG, arg);
	sdhost_writel(host, SDCMD, SDCMD_NEW_FLAG | flags | (opcode & 0x3f));
	for (us = 0; (cmd = sdhost_readl(host, SDCMD)) & SDCMD_NEW_FLAG; us += 10) {
		if (us >= CMD_POLL_US)
			return -ETIMEDOUT;
		udelay(10);
	}
	if (cmd & SDCMD_FAIL_FLAG) {
		hsts = sdhost_readl(host, SDHSTS);
		sdhost_writel(host, SDHSTS, SDHSTS_CLEAR);
		host->fail_hsts = hsts;
		return hsts & SDHSTS_CRC7_ERROR ? -EIO : -ETIMEDOUT;
	}
	if (flags & SDCMD_BUSYWAIT) {
		/* The card may hold DAT0 low (programming): the host says when it lets go. */
		for (us = 0; !(sdhost_readl(host, SDHSTS) & SDHSTS_BUSY_IRPT); us += 10) {
			if (us >= CMD_POLL_US)
				return -ETIMEDOUT;
			udelay(10);
		}
		sdhost_writel(host, SDHSTS, SDHSTS_BUSY_IRPT);
	}
	if (resp)
		for (int i = 0; i < ((rsp & 0xff) == MMC_RSP_R2 ? 4 : 1); i++)
			resp[i] = sdhost_readl(host, SDRSP0 + 4 * i);
	return 0;
}

/* mmc_host_ops.cmd (ctrl_lock held by the probe or the worker). */
static int sdhost_card_cmd(struct mmc_card *card, unsigned int opcode, uint32_t arg,
			   unsigned int rsp, uint32_t resp[4])
{
	return sdhost_cmd(card->host, opcode, arg, rsp, 0, resp);
}

static void sdhost_set_bus_width(struct mmc_card *card, unsigned int width)
{
	struct sdhost *host = card->host;
	uint32_t hcfg = sdhost_readl(host, SDHCFG) & ~SDHCFG_WIDE_EXT_BUS;

	sdhost_writel(host, SDHCFG, hcfg | (width == 4 ? SDHCFG_WIDE_EXT_BUS : 0));
}

static const struct mmc_host_ops sdhost_card_ops = {
	.cmd = sdhost_card_cmd,
	.set_bus_width = sdhost_set_bus_width,
};

/*
 * A FIFO that is not ready yet: spin for the first ~100 us (a real card's next words), then
 * sleep a tick at a time, so a card that stalls does not keep the CPU from every task below
 * the worker's priority until the bound.
 */
static void sdhost_wait_a_little(unsigned int *idle)
{
	if ((*idle)++ < 100)
		udelay(1);
	else
		msleep(1);
}

/*
 * Move @bio's data after its first @skip bytes through the FIFO, word by word, until it is all
 * moved, the host reports an error or @deadline passes.  0, or -EIO with the reason in @why.
 */
static int sdhost_pio(struct sdhost *host, struct bio *bio, unsigned int skip,
		      unsigned long deadline, char *why, size_t len)
{
	bool write = bio_op(bio) == REQ_OP_WRITE;
	uint32_t edm = 0, hsts;
	unsigned int idle = 0;

	for (unsigned int v = 0; v < bio->bi_vcnt; v++) {
		const struct bio_vec *bv = &bio->bi_io_vec[v];
		uint8_t *p = (uint8_t *)page_address(bv->bv_page) + bv->bv_offset;
		unsigned int words = bv->bv_len / 4, from = skip < bv->bv_len ? skip : bv->bv_len;

		skip -= from;	/* moved by the DMA engine already */
		p += from;
		words -= from / 4;

		while (words) {
			unsigned int n;

			edm = sdhost_readl(host, SDEDM);
			hsts = sdhost_readl(host, SDHSTS);
			if (hsts & SDHSTS_ERRORS) {
				ksnprintf(why, len, "%s (status 0x%03x)",
					  hsts & (SDHSTS_CRC16_ERROR | SDHSTS_CRC7_ERROR) ? "CRC error" :
					  hsts & SDHSTS_FIFO_ERROR ? "FIFO error" : "data timeout",
					  (unsigned int)hsts);
				return -EIO;
			}
			n = write ? FIFO_WORDS - SDEDM_FIFO_LEVEL(edm) : SDEDM_FIFO_LEVEL(edm);
			if (!n || n > FIFO_WORDS) {
				if (time_after(jiffies, deadline)) {
					ksnprintf(why, len, "no data moved (status 0x%03x, FIFO %u words)",
						  (unsigned int)hsts, SDEDM_FIFO_LEVEL(edm));
					return -EIO;
				}
				sdhost_wait_a_little(&idle);
				continue;
			}
			idle = 0;
			if (n > words)
				n = words;
			words -= n;
			for (; n; n--, p += 4) {
				uint32_t w;

				/* a segment need not be word aligned: memcpy, never a cast */
				if (write) {
					memcpy(&w, p, 4);
					sdhost_writel(host, SDDATA, w);
				} else {
					w = sdhost_readl(host, SDDATA);
					memcpy(p, &w, 4);
				}
			}
		}
	}
	/* A write's last words leave the FIFO for the card before the state machine rests (read
	 * now: the value above predates the last words written). */
	edm = sdhost_readl(host, SDEDM);
	while (write && (SDEDM_FIFO_LEVEL(edm) ||
			 (SDEDM_FSM(edm) != SDEDM_FSM_DATAMODE && SDEDM_FSM(edm) != SDEDM_FSM_IDENTMODE))) {
		if (time_after(jiffies, deadline)) {
			ksnprintf(why, len, "the write did not drain (FIFO %u words, state %u)",
				  SDEDM_FIFO_LEVEL(edm), SDEDM_FSM(edm));
			return -EIO;
		}
		sdhost_wait_a_little(&idle);
		edm = sdhost_readl(host, SDEDM);
	}
	return 0;
}

/*
 * Move all of @bio's data but its last @tail bytes with the DMA engine (ctrl_lock held, the
 * data command sent): each segment mapped, one control block each, the chain polled until it
 * ends, an engine error or @deadline, then every mapping undone before the CPU touches the
 * buffers again (the tail, by PIO, after).  0, or -EIO with the reason in @why.
 */
static int sdhost_dma(struct sdhost *host, struct bio *bio, unsigned int tail, unsigned long deadline,
		      char *why, size_t len)
{
	enum dma_data_direction dir = bio_op(bio) == REQ_OP_WRITE ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	unsigned int left = bio->bi_size - tail, n = 0, idle = 0;
	int ret = 0;

	for (unsigned int v = 0; v < bio->bi_vcnt && left; v++) {
		const struct bio_vec *bv = &bio->bi_io_vec[v];
		unsigned int l = bv->bv_len < left ? bv->bv_len : left;

		host->seg_dma[n] = dma_map_page(&host->dev, bv->bv_page, bv->bv_offset, l, dir);
		if (dma_mapping_error(&host->dev, host->seg_dma[n])) {
			ksnprintf(why, len, "cannot map segment %u for DMA", v);
			ret = -EIO;
			break;
		}
		host->seg_len[n++] = l;
		left -= l;
	}
	if (!ret && bcm2835_dma_start(host->dma, host->seg_dma, host->seg_len, n, host->fifo_bus,
				      dir == DMA_TO_DEVICE)) {
		ksnprintf(why, len, "%u segments are more than the DMA chain holds", n);
		ret = -EIO;
	}
	while (!ret) {
		int done = bcm2835_dma_poll(host->dma, why, len);

		if (done)
			ret = done < 0 ? -EIO : 0;
		if (done)
			break;
		if (time_after(jiffies, deadline)) {
			bcm2835_dma_abort(host->dma);
			ksnprintf(why, len, "the DMA did not end (status 0x%03x, FIFO %u words)",
				  (unsigned int)sdhost_readl(host, SDHSTS),
				  SDEDM_FIFO_LEVEL(sdhost_readl(host, SDEDM)));
			ret = -EIO;
			break;
		}
		sdhost_wait_a_little(&idle);
	}
	while (n--)
		dma_unmap_page(&host->dev, host->seg_dma[n], host->seg_len[n], dir);
	return ret;
}

/* Run @bio on the card (the worker, ctrl_lock held): 0, or -EIO with the reason in @why. */
static int sdhost_transfer(struct sdhost *host, struct bio *bio, unsigned int inject, char *why,
			   size_t len)
{
	bool write = bio_op(bio) == REQ_OP_WRITE, multi = bio->bi_size > SECTOR_SIZE;
	unsigned long deadline = jiffies + msecs_to_jiffies(sdhost_timeout_ms);
	unsigned int opcode = write ? (multi ? SD_WRITE_MULTIPLE_BLOCK : SD_WRITE_BLOCK) :
				      (multi ? SD_READ_MULTIPLE_BLOCK : SD_READ_SINGLE_BLOCK);
	uint32_t arg = 0, resp[4], flags = write ? SDCMD_WRITE_CMD : SDCMD_READ_CMD;
	int ret;

	mmc_data_arg(&host->card, bio->bi_sector, &arg);	/* checked by submit */
	if (inject == INJECT_NO_ANSWER) {
		/* CMD7 with RCA 0 deselects every card: the data command goes unanswered. */
		sdhost_cmd(host, SD_SELECT_CARD, 0, MMC_RSP_NONE, 0, NULL);
	} else if (inject == INJECT_RESET_CARD) {
		/* CMD0: the card goes idle and forgets its RCA; the recovery finds it not ours. */
		sdhost_cmd(host, SD_GO_IDLE_STATE, 0, MMC_RSP_NONE, 0, NULL);
	} else if (inject == INJECT_STALL) {
		flags = 0;	/* the card starts its transfer; the host moves nothing */
	}
	sdhost_writel(host, SDHBCT, SECTOR_SIZE);
	sdhost_writel(host, SDHBLC, flags ? bio->bi_size / SECTOR_SIZE : 0);
	ret = sdhost_cmd(host, opcode, arg, MMC_RSP_R1, flags, resp);
	if (ret) {
		ksnprintf(why, len, "%s (status 0x%03x)",
			  ret == -EIO ? "response CRC error" : "no response from the card",
			  (unsigned int)host->fail_hsts);
		return -EIO;
	}
	if (resp[0] & R1_ERRORS) {
		ksnprintf(why, len, "card status 0x%08x", (unsigned int)resp[0]);
		return -EIO;
	}
	/* The DMA engine for the bulk; the last word(s) by PIO, whose wait for them also proves the
	 * card delivered (or took) everything: QEMU's engine ignores DREQ, so a card that stalls
	 * would leave it moving an empty FIFO's zeros (or into a full one) without a word said. */
	unsigned int tail = multi && !write ? PIO_TAIL_MULTI_READ : PIO_TAIL;

	if (host->dma && bio->bi_size > tail) {
		ret = sdhost_dma(host, bio, tail, deadline, why, len);
		if (ret)
			return ret;
	}
	ret = sdhost_pio(host, bio, host->dma && bio->bi_size > tail ? bio->bi_size - tail : 0,
			 deadline, why, len);
	if (ret)
		return ret;
	if (multi && sdhost_cmd(host, SD_STOP_TRANSMISSION, 0, MMC_RSP_R1B, 0, resp)) {
		ksnprintf(why, len, "no answer to CMD12 (stop)");
		return -EIO;
	}
	return 0;
}

static void sdhost_work(struct work_struct *work)
{
	struct sdhost *host = container_of(work, struct sdhost, work);
	unsigned long flags, started = jiffies;
	unsigned int inject;
	struct bio *bio;
	bool gone = false;
	char why[96], line[120];
	int ret;

	spin_lock_irqsave(&host->lock, flags);
	bio = host->cur;
	inject = host->inject;
	host->inject = 0;
	spin_unlock_irqrestore(&host->lock, flags);
	if (!bio)
		return;
	mutex_lock(&host->ctrl_lock);
	ret = sdhost_transfer(host, bio, inject, why, sizeof(why));
	if (ret) {
		pr_err("bcm2835-sdhost %s: %s of %u bytes at sector %llu: %s after %u ms: I/O error\n",
		       host->disk.bd_name, bio_op(bio) == REQ_OP_WRITE ? "write" : "read",
		       bio->bi_size, (unsigned long long)bio->bi_sector, why,
		       jiffies_to_msecs(jiffies - started));
		sdhost_reset(host, false);
		gone = mmc_sd_recover_card(&host->card) != 0;
	}
	mutex_unlock(&host->ctrl_lock);
	spin_lock_irqsave(&host->lock, flags);
	host->cur = NULL;
	if (ret) {
		host->errors++;
		if (gone)
			host->failed = true;
		else
			host->recoveries++;
	}
	spin_unlock_irqrestore(&host->lock, flags);
	bio->bi_status = ret;
	bio_endio(bio);
	if (gone) {
		ksnprintf(line, sizeof(line),
			  "bcm2835-sdhost %s: the card does not come back after an error; disk failed",
			  host->disk.bd_name);
		blk_mark_failed(&host->disk, line);
	} else {
		blk_queue_run(&host->disk);
	}
}

/* The PIO and DMA paths move whole 32-bit words: a segment of another length is refused. */
static bool segments_in_words(const struct bio *bio)
{
	for (unsigned int v = 0; v < bio->bi_vcnt; v++)
		if (bio->bi_io_vec[v].bv_len % 4)
			return false;
	return true;
}

static int sdhost_submit(struct bio *bio)
{
	struct sdhost *host = bio->bi_bdev->bd_private;
	unsigned long flags;
	uint32_t arg;
	int ret = 0;

	if (bio_op(bio) == REQ_OP_FLUSH)
		return 1;	/* an SD card has no cache to flush (CMD12/busy ends each write) */
	spin_lock_irqsave(&host->lock, flags);
	if (host->failed)
		ret = -ENXIO;
	else if (host->cur)
		ret = -EBUSY;	/* kept queued; blk_queue_run() when the worker is done */
	else if (!mmc_data_arg(&host->card, bio->bi_sector, &arg) ||
		 bio->bi_size % SECTOR_SIZE || bio->bi_size / SECTOR_SIZE > MAX_BLOCKS ||
		 !segments_in_words(bio))
		ret = -EINVAL;
	else
		host->cur = bio;
	spin_unlock_irqrestore(&host->lock, flags);
	if (!ret)
		queue_work(host->wq, &host->work);
	return ret;
}

static void sdhost_describe(struct block_device *bdev, char *buf, size_t len)
{
	struct sdhost *host = bdev->bd_private;

	char how[40] = "PIO";

	if (host->dma)
		ksnprintf(how, sizeof(how), "DMA channel %u", bcm2835_dma_chan_nr(host->dma));
	ksnprintf(buf, len, "bcm2835-sdhost@0x%08llx, %s, rca 0x%04x, %u-bit bus, %s, "
		  "%lu errors, %lu recoveries", (unsigned long long)host->phys,
		  host->card.high_capacity ? "SDHC" : "SDSC", (unsigned int)host->card.rca,
		  host->card.bus_width, how, host->errors, host->recoveries);
}

static int sdhost_inject(struct block_device *bdev, const char *what)
{
	struct sdhost *host = bdev->bd_private;
	unsigned long flags;
	/* In INJECT_* order. */
	static const char *const names[] = { "no-answer", "reset-card", "stall", NULL };
	unsigned int inject = blk_inject_lookup(what, names);

	if (!inject)
		return -EINVAL;
	spin_lock_irqsave(&host->lock, flags);
	host->inject = inject;
	spin_unlock_irqrestore(&host->lock, flags);
	return 0;
}

static const struct block_device_operations sdhost_ops = {
	.submit_bio = sdhost_submit,
	.describe = sdhost_describe,
	.test_inject = sdhost_inject,
};

/*
 * Route the card's pins to this host: the node's pinctrl-0 state (brcm,pins, one
 * brcm,function or one per pin) written into its GPIO controller's function-select registers.
 * 0, or -1 with the reason in @why.
 */
static int sdhost_apply_pinctrl(struct sdhost *host, const struct dt *dt, int node, char *why,
				size_t len)
{
	const uint8_t *ph, *pins, *func;
	int plen, flen, n, state, gpio;
	uint64_t addr, size;
	uintptr_t regs;

	ph = dt_getprop(dt, node, "pinctrl-0", &plen);
	if (!ph || plen < 4) {
		ksnprintf(why, len, "no pinctrl-0: the card's pins may be the SDHCI's");
		return -1;
	}
	state = dt_node_by_phandle(dt, dt_be32(ph));
	gpio = state >= 0 ? dt_parent(dt, state) : -1;
	if (gpio < 0 || !dt_is_compatible(dt, gpio, "brcm,bcm2835-gpio")) {
		ksnprintf(why, len, "pinctrl-0 is not a state of a brcm,bcm2835-gpio controller");
		return -1;
	}
	pins = dt_getprop(dt, state, "brcm,pins", &n);
	func = dt_getprop(dt, state, "brcm,function", &flen);
	n /= 4;
	if (!pins || !n || !func || (flen != 4 && flen != 4 * n)) {
		ksnprintf(why, len, "pinctrl-0's brcm,pins or brcm,function makes no sense");
		return -1;
	}
	if (dt_address(dt, gpio, 0, &addr, &size) || size < 0x18 ||
	    !(regs = (uintptr_t)ioremap(addr, (size_t)size))) {
		ksnprintf(why, len, "cannot map the GPIO controller");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		uint32_t pin = dt_be32(pins + 4 * i), f = dt_be32(func + (flen == 4 ? 0 : 4 * i));
		uintptr_t fsel = regs + 4 * (pin / 10);
		unsigned int shift = 3 * (pin % 10);

		if (pin > 53 || f > 7)
			continue;
		writel((readl(fsel) & ~(7u << shift)) | (f << shift), fsel);
		if (i == 0)
			host->pin_first = pin, host->pin_func = f;
		host->pin_count++;
	}
	iounmap((void *)regs);
	return 0;
}

static void sdhost_probe(const struct dt *dt, int node)
{
	struct sdhost *host;
	uint64_t addr, size, bus = 0;
	char why[120];
	int ret;

	if (dt_address(dt, node, 0, &addr, &size) || size < 0x54) {
		pr_err("bcm2835-sdhost: a node without registers; not used\n");
		return;
	}
	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host) {
		pr_err("bcm2835-sdhost 0x%08llx: no memory\n", (unsigned long long)addr);
		return;
	}
	host->phys = addr;
	host->base = (uintptr_t)ioremap(addr, (size_t)size);
	spin_lock_init(&host->lock);
	mutex_init(&host->ctrl_lock);
	INIT_WORK(&host->work, sdhost_work);
	host->card.ops = &sdhost_card_ops;
	host->card.host = host;
	host->card.bus_width = 1;
	if (!host->base) {
		pr_err("bcm2835-sdhost 0x%08llx: cannot map the registers; not used\n",
		       (unsigned long long)addr);
		goto out_free;
	}
	if (sdhost_apply_pinctrl(host, dt, node, why, sizeof(why))) {
		pr_err("bcm2835-sdhost 0x%08llx: %s; not used\n", (unsigned long long)addr, why);
		goto out_free;
	}
	/* The DMA engine (the node's dmas) for the bulk of each request; without it, PIO. */
	dma_dev_init(&host->dev, "mmc0", dt, node);
	if (!dt_reg(dt, node, 0, &bus, &size) && !dma_set_mask_and_coherent(&host->dev, DMA_BIT_MASK(32)))
		host->dma = bcm2835_dma_request(dt, node, &host->dev, why, sizeof(why));
	if (!host->dma)
		pr_info("bcm2835-sdhost 0x%08llx: no DMA (%s): PIO only\n", (unsigned long long)addr, why);
	host->fifo_bus = (uint32_t)bus + SDDATA;
	/* Boot, interrupts off, no disk yet: the controller is the probe's without the mutex
	 * (which would sleep); the waits count udelay()s, not jiffies. */
	host->probing = true;
	sdhost_reset(host, true);
	ret = mmc_sd_init_card(&host->card, why, sizeof(why));
	if (!ret)
		sdhost_reset(host, false);	/* the transfer clock; the bus width stays */
	host->probing = false;
	if (ret) {
		pr_info("bcm2835-sdhost 0x%08llx: no usable card: %s\n", (unsigned long long)addr, why);
		goto out_free;
	}
	host->wq = alloc_workqueue("mmcblk0", WORKER_PRIO);
	if (!host->wq) {
		pr_err("bcm2835-sdhost 0x%08llx: no worker thread; not used\n", (unsigned long long)addr);
		goto out_free;
	}
	host->disk.bd_nr_sectors = host->card.nr_sectors;
	host->disk.bd_logical_block_size = SECTOR_SIZE;
	host->disk.bd_max_segments = MAX_SEGS;
	host->disk.bd_ops = &sdhost_ops;
	host->disk.bd_private = host;
	strcpy(host->disk.bd_name, "mmcblk0");
	if (add_disk(&host->disk)) {
		pr_err("bcm2835-sdhost 0x%08llx: cannot register mmcblk0\n", (unsigned long long)addr);
		return;	/* the worker thread stays: a workqueue is never freed */
	}
	pr_info("bcm2835-sdhost %s: %llu bytes (%llu sectors), %s, %u-bit bus, %u kHz, %s, "
		"at 0x%08llx, GPIO %u-%u function %u\n", host->disk.bd_name,
		(unsigned long long)bdev_nr_bytes(&host->disk),
		(unsigned long long)host->disk.bd_nr_sectors,
		host->card.high_capacity ? "SDHC" : "SDSC", host->card.bus_width,
		TRANSFER_HZ / 1000, host->dma ? "DMA + PIO" : "PIO", (unsigned long long)addr,
		host->pin_first, host->pin_first + host->pin_count - 1, host->pin_func);
	return;

out_free:	/* nothing of a controller not used stays allocated or mapped */
	if (host->base)
		iounmap((void *)host->base);
	kfree(host);
}

void bcm2835_sdhost_init(const struct dt *dt)
{
	/* The first available one: the Raspberry Pi's card slot. */
	for (int node = dt_find_compatible(dt, -1, "brcm,bcm2835-sdhost"); node >= 0;
	     node = dt_find_compatible(dt, node, "brcm,bcm2835-sdhost")) {
		if (!dt_node_is_available(dt, node))
			continue;
		sdhost_probe(dt, node);
		return;
	}
}
