/*
 * sunxi_mmc.c - the Allwinner SD/MMC host (H3, "allwinner,sun7i-a20-mmc", QEMU's orangepi-pc
 * models it at 0x01c0f000) and its SD card as the disk "mmcblk0" (docs/sunxi-mmc.md).
 *
 * Probe (boot, polled): map the registers, reset the controller, start the card clock, then the
 * SD card's identification: CMD0, CMD8 (v2 cards), ACMD41 until the card is ready (a bounded
 * number of tries), CMD2, CMD3 (the card's RCA), CMD9 (CSD: the capacity, SDSC or SDHC),
 * CMD7 (select), ACMD6 (4-bit bus), CMD16 (512-byte blocks).  Then a disk with block/.
 * Requests: one at a time, CMD17/CMD24 for one block, CMD18/CMD25 with the controller's
 * auto-stop (CMD12) for more, through the IDMAC (drivers/sunxi_mmc_dma.c: descriptors in a
 * dma_alloc_coherent() ring, each segment dma_map_page()d).  Completion by interrupt; a timer
 * bounds every request (tinymm.sunxi_mmc_timeout_ms, default 1000 ms): a card that does not
 * answer, answers with a CRC error or times out ends its request with -EIO (a request the timer
 * finds complete, its interrupt raised but not taken yet, ends as the interrupt would end it:
 * the timer's interrupt can come first after a stall past the deadline), the controller is
 * reset and the card brought back to the transfer state by a work item (CMD12, CMD13, CMD7 if
 * it was deselected, CMD13 again while it programs a stopped write) before the next request
 * starts.  A card that cannot be brought back fails the
 * disk (blk_mark_failed): later requests get -ENXIO at once.
 *
 * Where it differs from v6.10's sunxi-mmc.c: no clock framework, so the module clock is what
 * U-Boot left (the driver only divides it inside the controller: slow for identification,
 * undivided afterwards); no regulators, pinctrl, card detect, voltage switching, SDIO or
 * tuning; no mmc core: the card state machine is here, SD cards only (no MMC/eMMC); one
 * request at a time (Linux's host also runs one).
 *
 * Locking: host->lock (irqs masked) guards the registers, the request in flight and the card
 * state; the helpers that touch the controller assert it (lockdep_assert_held), or that the
 * controller is theirs alone (host->exclusive: probe, recovery; their polls run with interrupts
 * on).  submit_bio
 * runs under the disk's queue lock and takes host->lock inside it; the interrupt handler, the
 * timer and the recovery work take host->lock alone and drop it before calling back into the
 * block layer (bio_endio, blk_queue_run, blk_mark_failed): queue lock -> host->lock.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/barrier.h"
#include "tinymm/blkdev.h"
#include "tinymm/cmdline.h"
#include "tinymm/delay.h"
#include "tinymm/devicetree.h"
#include "tinymm/dma-mapping.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/io.h"
#include "tinymm/irq.h"
#include "tinymm/lockdep.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/spinlock.h"
#include "tinymm/timer.h"
#include "tinymm/workqueue.h"
#include "sunxi_mmc.h"

/* SD commands (Physical Layer Simplified Specification). */
#define SD_GO_IDLE_STATE	0
#define SD_ALL_SEND_CID		2
#define SD_SEND_RELATIVE_ADDR	3
#define SD_SWITCH_BUS_WIDTH	6	/* ACMD6 */
#define SD_SELECT_CARD		7
#define SD_SEND_IF_COND		8
#define SD_SEND_CSD		9
#define SD_STOP_TRANSMISSION	12
#define SD_SEND_STATUS		13
#define SD_SET_BLOCKLEN		16
#define SD_APP_OP_COND		41	/* ACMD41 */
#define SD_APP_CMD		55

/* Response shapes as command-register flags. */
#define RSP_NONE	0u
#define RSP_R1		(SDXC_RESP_EXPIRE | SDXC_CHECK_RESPONSE_CRC)
#define RSP_R2		(SDXC_RESP_EXPIRE | SDXC_LONG_RESPONSE | SDXC_CHECK_RESPONSE_CRC)
#define RSP_R3		SDXC_RESP_EXPIRE	/* the OCR has no CRC */

#define OCR_BUSY		(1u << 31)	/* set: power-up done */
#define OCR_CCS			(1u << 30)	/* SDHC/SDXC: block addressing */
#define OCR_VDD_32_34		0x00300000u
#define R1_ERRORS		0xfdf90008u	/* the card status's error bits */
#define R1_STATE(r)		(((r) >> 9) & 0xf)
#define R1_STATE_STBY		3
#define R1_STATE_TRAN		4
#define R1_STATE_DATA		5
#define R1_STATE_RCV		6
#define R1_STATE_PRG		7	/* writing what it received: busy, then transfer */

#define SDXC_CARD_DATA_BUSY	(1u << 9)	/* STAS: the card holds DAT0 low */
#define CMD_POLL_US		100000		/* one polled command, at most */
#define ACMD41_TRIES		100		/* 10 ms apart: a card has 1 s to power up */
#define IDENT_DIVIDER		128		/* module clock / 256 while identifying */
#define PRG_WAIT_TRIES		100		/* 10 ms apart: a card programming after a stop */

#define INJECT_NO_ANSWER	1	/* deselect the card: the next data command is unanswered */
#define INJECT_LOSE_IRQ		2	/* mask the next request's interrupt: only the timer ends it */
#define INJECT_RESET_CARD	3	/* CMD0 first: the card forgets its RCA, as one swapped */
#define INJECT_LATE_IRQ		4	/* interrupts masked past the deadline: the timer runs first */

struct sunxi_mmc_host {
	uintptr_t base;
	phys_addr_t phys;
	unsigned int irq;
	struct device dev;
	spinlock_t lock;
	struct sunxi_mmc_ring *ring;
	struct block_device disk;
	/* the card */
	uint32_t rca;
	bool high_capacity;
	unsigned int bus_width;
	/* the request in flight */
	struct bio *cur;
	uint32_t rint, idst;		/* status gathered by the interrupt handler */
	unsigned long started;		/* jiffies */
	unsigned long deadline;		/* jiffies: the timer fails it from then on */
	bool recovering, failed;
	/* The controller is one thread's alone, without host->lock: probe before its interrupt
	 * exists, or the recovery work while `recovering` keeps every request out (its polled
	 * commands then run with interrupts on: sunxi_mmc_assert_owner()). */
	bool exclusive;
	unsigned int inject;
	unsigned long errors, recoveries;
	struct timer_list timeout;
	struct work_struct recover_work;
	char irq_name[20];
};

static unsigned int sunxi_timeout_ms = 1000;
KPARAM_UINT(sunxi_mmc_timeout_ms, sunxi_timeout_ms, 10, 60000,
	    "sunxi-mmc: end a request the card has not completed in this long with EIO (default 1000)");

static inline uint32_t mmc_readl(struct sunxi_mmc_host *host, unsigned int reg)
{
	return readl(host->base + reg);
}

static inline void mmc_writel(struct sunxi_mmc_host *host, unsigned int reg, uint32_t v)
{
	writel(v, host->base + reg);
}

/* What the polled helpers need: host->lock, or the controller to themselves (host->exclusive). */
static inline void sunxi_mmc_assert_owner(struct sunxi_mmc_host *host)
{
	if (!READ_ONCE(host->exclusive))
		lockdep_assert_held(&host->lock);
}

/* Reset the controller, its FIFO and its DMA engine; program what a reset may have cleared. */
static int sunxi_mmc_reset_host(struct sunxi_mmc_host *host)
{
	int us;

	sunxi_mmc_assert_owner(host);
	mmc_writel(host, SDXC_REG_GCTRL, SDXC_HARDWARE_RESET);
	for (us = 0; mmc_readl(host, SDXC_REG_GCTRL) & SDXC_HARDWARE_RESET; us += 10) {
		if (us >= CMD_POLL_US)
			return -ETIMEDOUT;
		udelay(10);
	}
	mmc_writel(host, SDXC_REG_DMAC, SDXC_IDMAC_SOFT_RESET);
	mmc_writel(host, SDXC_REG_IMASK, 0);
	mmc_writel(host, SDXC_REG_RINTR, 0xffffffff);
	mmc_writel(host, SDXC_REG_IDIE, 0);
	mmc_writel(host, SDXC_REG_IDST, 0xffffffff);
	mmc_writel(host, SDXC_REG_TMOUT, 0xffffff40);	/* longest data timeout, 64-clock response */
	mmc_writel(host, SDXC_REG_FTRGL, 0x20070008);	/* burst 8, rx watermark 7, tx 8 */
	mmc_writel(host, SDXC_REG_GCTRL, SDXC_INTERRUPT_ENABLE);	/* AHB access bit clear: DMA */
	mmc_writel(host, SDXC_REG_WIDTH, host->bus_width == 4 ? 1 : 0);
	return 0;
}

/* Tell the controller about a new card clock (a command that never reaches the card). */
static int sunxi_mmc_set_clock(struct sunxi_mmc_host *host, unsigned int divider)
{
	int us;

	sunxi_mmc_assert_owner(host);
	mmc_writel(host, SDXC_REG_CLKCR, 0);
	mmc_writel(host, SDXC_REG_CMDR, SDXC_START | SDXC_UPCLK_ONLY | SDXC_WAIT_PRE_OVER);
	for (us = 0; mmc_readl(host, SDXC_REG_CMDR) & SDXC_START; us += 10) {
		if (us >= CMD_POLL_US)
			return -ETIMEDOUT;
		udelay(10);
	}
	mmc_writel(host, SDXC_REG_CLKCR, SDXC_CARD_CLOCK_ON | (divider & SDXC_CLK_DIVIDER_MASK));
	mmc_writel(host, SDXC_REG_CMDR, SDXC_START | SDXC_UPCLK_ONLY | SDXC_WAIT_PRE_OVER);
	for (us = 0; mmc_readl(host, SDXC_REG_CMDR) & SDXC_START; us += 10) {
		if (us >= CMD_POLL_US)
			return -ETIMEDOUT;
		udelay(10);
	}
	mmc_writel(host, SDXC_REG_RINTR, 0xffffffff);
	return 0;
}

/*
 * One command without data, polled (probe and recovery: no request is in flight and the
 * controller's interrupts are masked).  0 and the response in @resp; -ETIMEDOUT when the card
 * did not answer, -EIO for a response CRC error.
 */
static int sunxi_mmc_cmd(struct sunxi_mmc_host *host, unsigned int opcode, uint32_t arg,
			 uint32_t flags, uint32_t resp[4])
{
	uint32_t rint = 0;
	int us;

	sunxi_mmc_assert_owner(host);
	mmc_writel(host, SDXC_REG_RINTR, 0xffffffff);
	mmc_writel(host, SDXC_REG_CARG, arg);
	mmc_writel(host, SDXC_REG_CMDR, SDXC_START | SDXC_WAIT_PRE_OVER | flags | opcode);
	for (us = 0;; us += 10) {
		rint = mmc_readl(host, SDXC_REG_RINTR);
		if (rint & (SDXC_INTERRUPT_ERROR_BITS | SDXC_COMMAND_DONE))
			break;
		if (us >= CMD_POLL_US)
			break;
		udelay(10);
	}
	mmc_writel(host, SDXC_REG_RINTR, rint);
	if (!(rint & (SDXC_INTERRUPT_ERROR_BITS | SDXC_COMMAND_DONE)) ||
	    (rint & (SDXC_RESP_ERROR | SDXC_RESP_TIMEOUT)))
		return -ETIMEDOUT;
	if (rint & SDXC_INTERRUPT_ERROR_BITS)
		return -EIO;
	if (resp)
		for (int i = 0; i < 4; i++)
			resp[i] = mmc_readl(host, SDXC_REG_RESP0 + 4 * i);
	return 0;
}

static int sunxi_mmc_app_cmd(struct sunxi_mmc_host *host, unsigned int opcode, uint32_t arg,
			     uint32_t flags, uint32_t resp[4])
{
	int ret = sunxi_mmc_cmd(host, SD_APP_CMD, host->rca << 16, RSP_R1, resp);

	return ret ? ret : sunxi_mmc_cmd(host, opcode, arg, flags, resp);
}

/* Bits @start.. @start + @n - 1 of a 128-bit response (resp[3] holds 127:96). */
static uint32_t resp_bits(const uint32_t resp[4], unsigned int start, unsigned int n)
{
	uint32_t v = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int b = start + i;

		v |= ((resp[b / 32] >> (b % 32)) & 1u) << i;
	}
	return v;
}

/* The card's capacity in 512-byte sectors from its CSD; 0 for a CSD that makes no sense. */
static uint64_t csd_sectors(const uint32_t csd[4])
{
	switch (resp_bits(csd, 126, 2)) {
	case 0: {	/* CSD 1.0 (SDSC): (C_SIZE + 1) * 2^(C_SIZE_MULT + 2) * 2^READ_BL_LEN */
		uint64_t c_size = resp_bits(csd, 62, 12), mult = resp_bits(csd, 47, 3);
		unsigned int bl_len = resp_bits(csd, 80, 4);

		if (bl_len < 9 || bl_len > 11)
			return 0;
		return ((c_size + 1) << (mult + 2 + bl_len)) >> SECTOR_SHIFT;
	}
	case 1:		/* CSD 2.0 (SDHC/SDXC): (C_SIZE + 1) * 512 KiB */
		return ((uint64_t)resp_bits(csd, 48, 22) + 1) << 10;
	default:
		return 0;
	}
}

/* Identify and select the card (probe, polled); 0, or -errno with the reason in @why. */
static int sunxi_mmc_card_init(struct sunxi_mmc_host *host, char *why, size_t len)
{
	uint32_t resp[4], ocr = 0;
	bool v2;
	int ret, i;

	sunxi_mmc_assert_owner(host);
	host->rca = 0;
	host->bus_width = 1;
	if (sunxi_mmc_reset_host(host) || sunxi_mmc_set_clock(host, IDENT_DIVIDER)) {
		ksnprintf(why, len, "the controller does not come out of reset");
		return -EIO;
	}
	sunxi_mmc_cmd(host, SD_GO_IDLE_STATE, 0, RSP_NONE | SDXC_SEND_INIT_SEQUENCE, NULL);
	/* CMD8: a v2 card echoes the check pattern; a v1 card does not answer. */
	ret = sunxi_mmc_cmd(host, SD_SEND_IF_COND, 0x1aa, RSP_R1, resp);
	v2 = !ret && (resp[0] & 0xfff) == 0x1aa;
	for (i = 0; i < ACMD41_TRIES; i++) {
		ret = sunxi_mmc_app_cmd(host, SD_APP_OP_COND, OCR_VDD_32_34 | (v2 ? OCR_CCS : 0),
					RSP_R3, resp);
		if (ret) {
			ksnprintf(why, len, "no answer to ACMD41 (%s)", ret == -EIO ? "CRC" : "timeout");
			return -EIO;
		}
		ocr = resp[0];
		if (ocr & OCR_BUSY)
			break;
		mdelay(10);
	}
	if (!(ocr & OCR_BUSY)) {
		ksnprintf(why, len, "not ready after %d ACMD41s (OCR 0x%08x)", ACMD41_TRIES,
			  (unsigned int)ocr);
		return -EIO;
	}
	host->high_capacity = v2 && (ocr & OCR_CCS);
	if (sunxi_mmc_cmd(host, SD_ALL_SEND_CID, 0, RSP_R2, resp) ||
	    sunxi_mmc_cmd(host, SD_SEND_RELATIVE_ADDR, 0, RSP_R1, resp)) {
		ksnprintf(why, len, "no answer to CMD2/CMD3");
		return -EIO;
	}
	host->rca = resp[0] >> 16;
	if (sunxi_mmc_cmd(host, SD_SEND_CSD, host->rca << 16, RSP_R2, resp)) {
		ksnprintf(why, len, "no answer to CMD9");
		return -EIO;
	}
	host->disk.bd_nr_sectors = csd_sectors(resp);
	if (!host->disk.bd_nr_sectors) {
		ksnprintf(why, len, "its CSD makes no sense (%08x %08x %08x %08x)",
			  (unsigned int)resp[3], (unsigned int)resp[2], (unsigned int)resp[1],
			  (unsigned int)resp[0]);
		return -EIO;
	}
	/* The OCR's CCS picks the addressing (sectors or bytes), the CSD's version the capacity:
	 * a card whose two disagree could have every block read or written at the wrong place
	 * (v6.10 lets the CSD decide both).  Not trusted: refused. */
	if (host->high_capacity != (resp_bits(resp, 126, 2) == 1)) {
		ksnprintf(why, len, "its OCR says %s but its CSD is version %u",
			  host->high_capacity ? "SDHC/SDXC (sector addresses)" : "SDSC (byte addresses)",
			  (unsigned int)resp_bits(resp, 126, 2) + 1);
		return -EIO;
	}
	if (sunxi_mmc_cmd(host, SD_SELECT_CARD, host->rca << 16, RSP_R1, resp)) {
		ksnprintf(why, len, "no answer to CMD7 (select)");
		return -EIO;
	}
	/* 4-bit bus if the card takes ACMD6; else stay at one bit. */
	if (!sunxi_mmc_app_cmd(host, SD_SWITCH_BUS_WIDTH, 2, RSP_R1, resp) && !(resp[0] & R1_ERRORS))
		host->bus_width = 4;
	mmc_writel(host, SDXC_REG_WIDTH, host->bus_width == 4 ? 1 : 0);
	if (sunxi_mmc_cmd(host, SD_SET_BLOCKLEN, SECTOR_SIZE, RSP_R1, resp) || (resp[0] & R1_ERRORS)) {
		ksnprintf(why, len, "CMD16 (512-byte blocks) refused");
		return -EIO;
	}
	if (sunxi_mmc_set_clock(host, 0)) {
		ksnprintf(why, len, "the card clock does not change");
		return -EIO;
	}
	return 0;
}

/*
 * After a failed request: reset the controller, stop whatever the card was doing and bring it
 * back to the transfer state.  0, or -EIO: the card is gone.
 */
static int sunxi_mmc_recover_card(struct sunxi_mmc_host *host)
{
	uint32_t resp[4];
	unsigned int state, busy = 0;

	sunxi_mmc_assert_owner(host);
	if (sunxi_mmc_reset_host(host) || sunxi_mmc_set_clock(host, 0))
		return -EIO;
	sunxi_mmc_cmd(host, SD_STOP_TRANSMISSION, 0, RSP_R1, NULL);	/* may not be needed */
	for (int tries = 0; tries < 3; tries++) {
		if (sunxi_mmc_cmd(host, SD_SEND_STATUS, host->rca << 16, RSP_R1, resp))
			continue;
		state = R1_STATE(resp[0]);
		if (state == R1_STATE_TRAN)
			return 0;
		/* A write stopped by CMD12 leaves the card programming the blocks it took (v6.10's
		 * mmc core polls CMD13 until it is done): wait, without spending a try. */
		if (state == R1_STATE_PRG && busy++ < PRG_WAIT_TRIES) {
			mdelay(10);
			tries--;
			continue;
		}
		if (state == R1_STATE_STBY)
			sunxi_mmc_cmd(host, SD_SELECT_CARD, host->rca << 16, RSP_R1, resp);
		else if (state == R1_STATE_DATA || state == R1_STATE_RCV)
			sunxi_mmc_cmd(host, SD_STOP_TRANSMISSION, 0, RSP_R1, NULL);
		else
			return -EIO;	/* idle, ready, ident: the card was reset under us */
	}
	return -EIO;
}

static void sunxi_mmc_recover_work(struct work_struct *work)
{
	struct sunxi_mmc_host *host = container_of(work, struct sunxi_mmc_host, recover_work);
	unsigned long flags;
	int ret;
	char line[120];

	/* `recovering` (set when the request failed) keeps submit_bio out, the failed request's
	 * timer is gone and the controller's interrupts are masked: the polled commands (up to
	 * CMD_POLL_US each) run without host->lock, so with interrupts on. */
	spin_lock_irqsave(&host->lock, flags);
	WRITE_ONCE(host->exclusive, true);
	spin_unlock_irqrestore(&host->lock, flags);
	ret = sunxi_mmc_recover_card(host);
	spin_lock_irqsave(&host->lock, flags);
	WRITE_ONCE(host->exclusive, false);
	if (ret)
		host->failed = true;
	else
		host->recoveries++;
	host->recovering = false;
	spin_unlock_irqrestore(&host->lock, flags);
	if (ret) {
		ksnprintf(line, sizeof(line),
			  "sunxi-mmc %s: the card does not come back after an error; disk failed",
			  host->disk.bd_name);
		blk_mark_failed(&host->disk, line);
	} else {
		blk_queue_run(&host->disk);
	}
}

/* Start @bio's data command (host->lock held, the controller idle). */
static int sunxi_mmc_start(struct sunxi_mmc_host *host, struct bio *bio)
{
	uint64_t arg = host->high_capacity ? bio->bi_sector : bio->bi_sector << SECTOR_SHIFT;
	uint32_t imask;
	int ret;

	lockdep_assert_held(&host->lock);
	if (arg > 0xffffffffULL)
		return -EINVAL;
	ret = sunxi_mmc_map_bio(host->ring, bio);
	if (ret)
		return ret;
	if (host->inject == INJECT_NO_ANSWER) {
		/* CMD7 with RCA 0 deselects every card: the data command below goes unanswered,
		 * as from a card that has gone away. */
		sunxi_mmc_cmd(host, SD_SELECT_CARD, 0, RSP_NONE, NULL);
	} else if (host->inject == INJECT_RESET_CARD) {
		/* CMD0: the card goes back to idle and loses its RCA; the data command goes
		 * unanswered and the recovery finds a card that is not ours any more. */
		sunxi_mmc_cmd(host, SD_GO_IDLE_STATE, 0, RSP_NONE, NULL);
	}
	imask = SDXC_INTERRUPT_ERROR_BITS | sunxi_mmc_data_done_bits(bio);
	if (host->inject == INJECT_LOSE_IRQ)
		imask = 0;
	host->cur = bio;
	host->rint = 0;
	host->idst = 0;
	host->started = jiffies;
	host->deadline = host->started + msecs_to_jiffies(sunxi_timeout_ms);
	mmc_writel(host, SDXC_REG_GCTRL,
		   mmc_readl(host, SDXC_REG_GCTRL) | SDXC_FIFO_RESET | SDXC_DMA_RESET);
	mmc_writel(host, SDXC_REG_DMAC, SDXC_IDMAC_SOFT_RESET);
	mmc_writel(host, SDXC_REG_DMAC, SDXC_IDMAC_FIX_BURST | SDXC_IDMAC_IDMA_ON);
	mmc_writel(host, SDXC_REG_IDST, 0xffffffff);
	mmc_writel(host, SDXC_REG_IDIE,
		   imask && bio_op(bio) == REQ_OP_READ ? SDXC_IDMAC_RECEIVE_INT : 0);
	mmc_writel(host, SDXC_REG_DLBA, (uint32_t)host->ring->des_dma);
	mmc_writel(host, SDXC_REG_GCTRL, (mmc_readl(host, SDXC_REG_GCTRL) & ~SDXC_ACCESS_BY_AHB) |
		   SDXC_DMA_ENABLE | SDXC_INTERRUPT_ENABLE);
	mmc_writel(host, SDXC_REG_BLKSZ, SECTOR_SIZE);
	mmc_writel(host, SDXC_REG_BCNTR, bio->bi_size);
	mmc_writel(host, SDXC_REG_RINTR, 0xffffffff);
	mmc_writel(host, SDXC_REG_IMASK, imask);
	mmc_writel(host, SDXC_REG_CARG, (uint32_t)arg);
	mod_timer(&host->timeout, host->deadline);
	wmb();	/* the descriptors and the buffers' maintenance before the controller starts */
	mmc_writel(host, SDXC_REG_CMDR, sunxi_mmc_data_cmd(bio));
	if (host->inject == INJECT_LATE_IRQ) {
		/* A host that stalls QEMU (or a CPU kept busy with interrupts masked) past the
		 * deadline: QEMU completes the transfer inside the CMDR write, so when interrupts
		 * come back on both the controller's and the timer's are pending. */
		while (!time_after(jiffies, host->deadline + msecs_to_jiffies(20)))
			arch_cpu_relax();
	}
	host->inject = 0;
	return 0;
}

/* The request in flight is over (host->lock held): judge it, quiesce the controller.
 * Returns the bio to end once the lock is dropped; *recover says whether to reset. */
static struct bio *sunxi_mmc_finish(struct sunxi_mmc_host *host, bool timed_out, bool *recover)
{
	struct bio *bio = host->cur;
	uint32_t r1;
	char why[96];
	int ret;

	lockdep_assert_held(&host->lock);
	mmc_writel(host, SDXC_REG_IMASK, 0);
	mmc_writel(host, SDXC_REG_IDIE, 0);
	timer_delete(&host->timeout);
	r1 = mmc_readl(host, SDXC_REG_RESP0);	/* before any reset (v6.10's order) */
	/* The IDMAC stopped before the buffers go back to their owners, whatever the outcome
	 * (v6.10's sunxi_mmc_finalize_request): after an error it may still own descriptors
	 * and would go on moving a card's data into pages that are no longer the device's. */
	mmc_writel(host, SDXC_REG_DMAC, 0);
	mmc_writel(host, SDXC_REG_GCTRL, (mmc_readl(host, SDXC_REG_GCTRL) | SDXC_DMA_RESET |
					  SDXC_FIFO_RESET) & ~SDXC_DMA_ENABLE);
	rmb();	/* the status before the descriptors and the data */
	ret = sunxi_mmc_complete_bio(host->ring, bio, host->rint, host->idst, timed_out, why, sizeof(why));
	if (!ret && bio->bi_size == SECTOR_SIZE && (r1 & R1_ERRORS)) {
		ksnprintf(why, sizeof(why), "card status 0x%08x", (unsigned int)r1);
		ret = -EIO;
	}
	host->cur = NULL;
	bio->bi_status = ret;
	*recover = ret != 0;
	if (ret) {
		host->errors++;
		host->recovering = true;
		pr_err("sunxi-mmc %s: %s of %u bytes at sector %llu: %s after %u ms: I/O error\n",
		       host->disk.bd_name, bio_op(bio) == REQ_OP_WRITE ? "write" : "read",
		       bio->bi_size, (unsigned long long)bio->bi_sector, why,
		       jiffies_to_msecs(jiffies - host->started));
	}
	return bio;
}

static void sunxi_mmc_end(struct sunxi_mmc_host *host, struct bio *bio, bool recover)
{
	bio_endio(bio);
	if (recover)
		schedule_work(&host->recover_work);
	else
		blk_queue_run(&host->disk);
}

/* Gather the controller's status into the request in flight (host->lock held); returns the
 * bio to end once the lock is dropped if the request is over, else NULL. */
static struct bio *sunxi_mmc_collect(struct sunxi_mmc_host *host, bool *recover)
{
	uint32_t rint, idst;

	lockdep_assert_held(&host->lock);
	rint = mmc_readl(host, SDXC_REG_MISTA);
	idst = mmc_readl(host, SDXC_REG_IDST);
	mmc_writel(host, SDXC_REG_RINTR, rint);
	mmc_writel(host, SDXC_REG_IDST, idst);
	host->rint |= rint;
	host->idst |= idst;
	/* Done: an error, or the data over (and the auto-stop's done) and, for a read, the
	 * IDMAC's receive interrupt: the last descriptor's data is in memory (v6.10's wait_dma). */
	if ((host->rint & SDXC_INTERRUPT_ERROR_BITS) || (host->idst & SDXC_IDMAC_ERRORS) ||
	    ((host->rint & sunxi_mmc_data_done_bits(host->cur)) == sunxi_mmc_data_done_bits(host->cur) &&
	     (bio_op(host->cur) != REQ_OP_READ || (host->idst & SDXC_IDMAC_RECEIVE_INT))))
		return sunxi_mmc_finish(host, false, recover);
	return NULL;
}

static irqreturn_t sunxi_mmc_irq(int irq, void *dev_id)
{
	struct sunxi_mmc_host *host = dev_id;
	struct bio *bio = NULL;
	bool recover = false;

	spin_lock(&host->lock);
	if (!host->cur) {
		uint32_t rint = mmc_readl(host, SDXC_REG_MISTA);
		uint32_t idst = mmc_readl(host, SDXC_REG_IDST);

		/* Nothing asked for it: a stray status, masked so it cannot storm. */
		mmc_writel(host, SDXC_REG_RINTR, rint);
		mmc_writel(host, SDXC_REG_IDST, idst);
		mmc_writel(host, SDXC_REG_IMASK, 0);
		mmc_writel(host, SDXC_REG_IDIE, 0);
		spin_unlock(&host->lock);
		return rint || idst ? IRQ_HANDLED : IRQ_NONE;
	}
	bio = sunxi_mmc_collect(host, &recover);
	spin_unlock(&host->lock);
	if (bio)
		sunxi_mmc_end(host, bio, recover);
	return IRQ_HANDLED;
}

static void sunxi_mmc_timeout_fn(struct timer_list *t)
{
	struct sunxi_mmc_host *host = from_timer(host, t, timeout);
	struct bio *bio = NULL;
	unsigned long flags;
	bool recover = false, late = false;
	unsigned int ms = 0;

	spin_lock_irqsave(&host->lock, flags);
	if (host->cur && time_before(jiffies, host->deadline)) {
		/* The request this timer was armed for completed while we waited for the lock,
		 * and the next one started: it has its own deadline. */
		mod_timer(&host->timeout, host->deadline);
	} else if (host->cur && (bio = sunxi_mmc_collect(host, &recover))) {
		/* Its interrupt is raised but not taken yet: the timer's came first (the GIC
		 * signals the lowest ID of equal priority: the timer's PPI before the
		 * controller's SPI), as after a stall past the deadline (QEMU descheduled by a
		 * loaded host: its clock runs on).  The request ended in time. */
		late = true;
		ms = jiffies_to_msecs(jiffies - host->started);
	} else if (host->cur) {
		host->rint |= mmc_readl(host, SDXC_REG_RINTR);
		/* The command itself may be stuck: reset the whole controller (finish() stops
		 * the DMA engine too, as after every request). */
		mmc_writel(host, SDXC_REG_GCTRL, SDXC_HARDWARE_RESET);
		mmc_writel(host, SDXC_REG_DMAC, SDXC_IDMAC_SOFT_RESET);
		bio = sunxi_mmc_finish(host, true, &recover);
	}
	spin_unlock_irqrestore(&host->lock, flags);
	if (late)
		pr_info("sunxi-mmc %s: %s of %u bytes at sector %llu: %s, its interrupt not taken yet when the timer fired after %u ms\n",
			host->disk.bd_name, bio_op(bio) == REQ_OP_WRITE ? "write" : "read",
			bio->bi_size, (unsigned long long)bio->bi_sector,
			bio->bi_status ? "failed" : "done", ms);
	if (bio)
		sunxi_mmc_end(host, bio, recover);
}

static int sunxi_mmc_submit(struct bio *bio)
{
	struct sunxi_mmc_host *host = bio->bi_bdev->bd_private;
	unsigned long flags;
	int ret;

	if (bio_op(bio) == REQ_OP_FLUSH)
		return 1;	/* an SD card has no cache to flush (CMD12/busy ends each write) */
	spin_lock_irqsave(&host->lock, flags);
	if (host->failed)
		ret = -ENXIO;
	else if (host->cur || host->recovering)
		ret = -EBUSY;	/* kept queued; blk_queue_run() after completion or recovery */
	else
		ret = sunxi_mmc_start(host, bio);
	spin_unlock_irqrestore(&host->lock, flags);
	return ret;
}

static void sunxi_mmc_describe(struct block_device *bdev, char *buf, size_t len)
{
	struct sunxi_mmc_host *host = bdev->bd_private;

	ksnprintf(buf, len, "sunxi-mmc@0x%08llx irq %u, %s, rca 0x%04x, %u-bit bus, %u descriptors, "
		  "%s DMA, %lu errors, %lu recoveries",
		  (unsigned long long)host->phys, host->irq, host->high_capacity ? "SDHC" : "SDSC",
		  (unsigned int)host->rca, host->bus_width, host->ring ? host->ring->nr_des : 0,
		  host->dev.dma_coherent ? "coherent" : "non-coherent", host->errors, host->recoveries);
}

static int sunxi_mmc_inject(struct block_device *bdev, const char *what)
{
	struct sunxi_mmc_host *host = bdev->bd_private;
	unsigned long flags;

	unsigned int inject = !strcmp(what, "no-answer") ? INJECT_NO_ANSWER :
			      !strcmp(what, "lose-irq") ? INJECT_LOSE_IRQ :
			      !strcmp(what, "reset-card") ? INJECT_RESET_CARD :
			      !strcmp(what, "late-irq") ? INJECT_LATE_IRQ : 0;

	if (!inject)
		return -EINVAL;
	spin_lock_irqsave(&host->lock, flags);
	host->inject = inject;
	spin_unlock_irqrestore(&host->lock, flags);
	return 0;
}

static const struct block_device_operations sunxi_mmc_ops = {
	.submit_bio = sunxi_mmc_submit,
	.describe = sunxi_mmc_describe,
	.test_inject = sunxi_mmc_inject,
};

static void sunxi_mmc_probe(const struct dt *dt, int node)
{
	struct sunxi_mmc_host *host;
	uint64_t addr, size;
	char why[120];
	int ret;

	if (dt_address(dt, node, 0, &addr, &size) || size < 0x100) {
		pr_err("sunxi-mmc: a node without registers; not used\n");
		return;
	}
	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host) {
		pr_err("sunxi-mmc 0x%08llx: no memory\n", (unsigned long long)addr);
		return;
	}
	host->phys = addr;
	host->base = (uintptr_t)ioremap(addr, (size_t)size);
	host->irq = irq_of_parse_and_map(dt, node, 0);
	spin_lock_init(&host->lock);
	timer_setup(&host->timeout, sunxi_mmc_timeout_fn, 0);
	INIT_WORK(&host->recover_work, sunxi_mmc_recover_work);
	dma_dev_init(&host->dev, "mmc0", dt, node);
	if (!host->base || !host->irq || dma_set_mask_and_coherent(&host->dev, DMA_BIT_MASK(32))) {
		pr_err("sunxi-mmc 0x%08llx: %s; not used\n", (unsigned long long)addr,
		       !host->base ? "cannot map the registers" : !host->irq ? "no interrupt" :
		       "no 32-bit DMA");
		goto out_free;
	}
	host->ring = sunxi_mmc_ring_alloc(&host->dev);
	if (!host->ring) {
		pr_err("sunxi-mmc 0x%08llx: no memory for the descriptor ring; not used\n",
		       (unsigned long long)addr);
		goto out_free;
	}
	/* Before its interrupt exists the controller is the probe's alone: the card's
	 * identification (up to a second for a slow card) polls with interrupts on. */
	host->exclusive = true;
	ret = sunxi_mmc_card_init(host, why, sizeof(why));
	host->exclusive = false;
	if (ret) {
		pr_info("sunxi-mmc 0x%08llx: no usable card: %s\n", (unsigned long long)addr, why);
		goto out_free;
	}
	host->disk.bd_logical_block_size = SECTOR_SIZE;
	host->disk.bd_max_segments = host->ring->nr_des;
	host->disk.bd_ops = &sunxi_mmc_ops;
	host->disk.bd_private = host;
	strcpy(host->disk.bd_name, "mmcblk0");
	/* The interrupt before the disk: add_disk() may read the partition table at once. */
	ksnprintf(host->irq_name, sizeof(host->irq_name), "sunxi-mmc %s", host->disk.bd_name);
	if (request_irq(host->irq, sunxi_mmc_irq, 0, host->irq_name, host)) {
		pr_err("sunxi-mmc 0x%08llx: cannot request irq %u; not used\n",
		       (unsigned long long)addr, host->irq);
		goto out_free;
	}
	if (add_disk(&host->disk)) {
		pr_err("sunxi-mmc 0x%08llx: cannot register mmcblk0\n", (unsigned long long)addr);
		free_irq(host->irq, host);
		goto out_free;
	}
	pr_info("sunxi-mmc %s: %llu bytes (%llu sectors), %s, %u-bit bus, "
		"card clock = module clock (undivided), %s DMA, %u descriptors, at 0x%08llx irq %u\n",
		host->disk.bd_name, (unsigned long long)bdev_nr_bytes(&host->disk),
		(unsigned long long)host->disk.bd_nr_sectors, host->high_capacity ? "SDHC" : "SDSC",
		host->bus_width, host->dev.dma_coherent ? "coherent" : "non-coherent",
		host->ring->nr_des, (unsigned long long)addr, host->irq);
	return;

out_free:	/* nothing of a controller not used stays allocated or mapped */
	if (host->ring)
		sunxi_mmc_ring_free(host->ring);
	if (host->base)
		iounmap((void *)host->base);
	kfree(host);
}

void sunxi_mmc_init(const struct dt *dt)
{
	/* The first available controller with a card: mmc0, the card slot on the Orange Pi PC. */
	for (int node = dt_find_compatible(dt, -1, "allwinner,sun7i-a20-mmc"); node >= 0;
	     node = dt_find_compatible(dt, node, "allwinner,sun7i-a20-mmc")) {
		const char *st = dt_getprop_str(dt, node, "status");

		if (st && strcmp(st, "okay") && strcmp(st, "ok"))
			continue;
		sunxi_mmc_probe(dt, node);
		return;
	}
}
