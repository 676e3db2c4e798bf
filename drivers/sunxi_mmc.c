/*
 * sunxi_mmc.c - the Allwinner SD/MMC host (H3, "allwinner,sun7i-a20-mmc", QEMU's orangepi-pc
 * models it at 0x01c0f000) and its SD card as the disk "mmcblk0" (docs/sunxi-mmc.md).
 *
 * Probe (boot, polled): map the registers, reset the controller, start the card clock, then the
 * SD card's identification (drivers/mmc_core.c: CMD0, CMD8, ACMD41, CMD2, CMD3, CMD9, CMD7,
 * ACMD6, CMD16) through this controller's polled command.  Then a disk with block/.
 * Requests: one at a time, CMD17/CMD24 for one block, CMD18/CMD25 with the controller's
 * auto-stop (CMD12) for more, through the IDMAC (drivers/sunxi_mmc_dma.c: descriptors in a
 * dma_alloc_coherent() ring, each segment dma_map_page()d).  Completion by interrupt; a timer
 * bounds every request (tinymm.sunxi_mmc_timeout_ms, default 1000 ms): a card that does not
 * answer, answers with a CRC error or times out ends its request with -EIO (a request the timer
 * finds complete, its interrupt raised but not taken yet, ends as the interrupt would end it:
 * the timer's interrupt can come first after a stall past the deadline), the controller is
 * reset and the card brought back to the transfer state by a work item (mmc_sd_recover_card)
 * before the next request starts.  A card that cannot be brought back fails the
 * disk (blk_mark_failed): later requests get -ENXIO at once.
 *
 * Where it differs from v6.10's sunxi-mmc.c: no clock framework, so the module clock is what
 * U-Boot left (the driver only divides it inside the controller: slow for identification,
 * undivided afterwards); no regulators, pinctrl, card detect, voltage switching, SDIO or
 * tuning; the card's side is drivers/mmc_core.c's (SD cards only, no MMC/eMMC); one
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
#include "mmc_core.h"
#include "sunxi_mmc.h"

/* Response shapes as command-register flags. */
#define RSP_NONE	0u
#define RSP_R1		(SDXC_RESP_EXPIRE | SDXC_CHECK_RESPONSE_CRC)
#define RSP_R2		(SDXC_RESP_EXPIRE | SDXC_LONG_RESPONSE | SDXC_CHECK_RESPONSE_CRC)
#define RSP_R3		SDXC_RESP_EXPIRE	/* the OCR has no CRC */

#define SDXC_CARD_DATA_BUSY	(1u << 9)	/* STAS: the card holds DAT0 low */
#define CMD_POLL_US		100000		/* one polled command, at most */
#define IDENT_DIVIDER		128		/* module clock / 256 while identifying */

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
	struct mmc_card card;		/* rca, addressing, bus width, capacity */
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
	mmc_writel(host, SDXC_REG_WIDTH, host->card.bus_width == 4 ? 1 : 0);
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

/* mmc_host_ops.cmd: the generic response shape as this controller's command bits. */
static int sunxi_mmc_card_cmd(struct mmc_card *card, unsigned int opcode, uint32_t arg,
			      unsigned int rsp, uint32_t resp[4])
{
	static const uint32_t flags[] = {
		[MMC_RSP_NONE] = RSP_NONE, [MMC_RSP_R1] = RSP_R1, [MMC_RSP_R1B] = RSP_R1,
		[MMC_RSP_R2] = RSP_R2, [MMC_RSP_R3] = RSP_R3,
	};

	return sunxi_mmc_cmd(card->host, opcode, arg, flags[rsp & 0xff] |
			     (rsp & MMC_CMD_INIT ? SDXC_SEND_INIT_SEQUENCE : 0), resp);
}

static void sunxi_mmc_set_bus_width(struct mmc_card *card, unsigned int width)
{
	struct sunxi_mmc_host *host = card->host;

	mmc_writel(host, SDXC_REG_WIDTH, width == 4 ? 1 : 0);
}

static const struct mmc_host_ops sunxi_mmc_card_ops = {
	.cmd = sunxi_mmc_card_cmd,
	.set_bus_width = sunxi_mmc_set_bus_width,
};

/* Identify and select the card (probe, polled); 0, or -errno with the reason in @why. */
static int sunxi_mmc_card_init(struct sunxi_mmc_host *host, char *why, size_t len)
{
	int ret;

	sunxi_mmc_assert_owner(host);
	host->card.bus_width = 1;
	if (sunxi_mmc_reset_host(host) || sunxi_mmc_set_clock(host, IDENT_DIVIDER)) {
		ksnprintf(why, len, "the controller does not come out of reset");
		return -EIO;
	}
	ret = mmc_sd_init_card(&host->card, why, len);
	if (ret)
		return ret;
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
	sunxi_mmc_assert_owner(host);
	if (sunxi_mmc_reset_host(host) || sunxi_mmc_set_clock(host, 0))
		return -EIO;
	return mmc_sd_recover_card(&host->card);
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
	uint32_t arg;
	uint32_t imask;
	int ret;

	lockdep_assert_held(&host->lock);
	if (!mmc_data_arg(&host->card, bio->bi_sector, &arg))
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
	mmc_writel(host, SDXC_REG_CARG, arg);
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
		  (unsigned long long)host->phys, host->irq, host->card.high_capacity ? "SDHC" : "SDSC",
		  (unsigned int)host->card.rca, host->card.bus_width, host->ring ? host->ring->nr_des : 0,
		  host->dev.dma_coherent ? "coherent" : "non-coherent", host->errors, host->recoveries);
}

static int sunxi_mmc_inject(struct block_device *bdev, const char *what)
{
	struct sunxi_mmc_host *host = bdev->bd_private;
	unsigned long flags;

	/* In INJECT_* order. */
	static const char *const names[] = { "no-answer", "lose-irq", "reset-card", "late-irq", NULL };
	unsigned int inject = blk_inject_lookup(what, names);

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
	host->card.ops = &sunxi_mmc_card_ops;
	host->card.host = host;
	host->exclusive = true;
	ret = sunxi_mmc_card_init(host, why, sizeof(why));
	host->exclusive = false;
	if (ret) {
		pr_info("sunxi-mmc 0x%08llx: no usable card: %s\n", (unsigned long long)addr, why);
		goto out_free;
	}
	host->disk.bd_nr_sectors = host->card.nr_sectors;
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
		(unsigned long long)host->disk.bd_nr_sectors, host->card.high_capacity ? "SDHC" : "SDSC",
		host->card.bus_width, host->dev.dma_coherent ? "coherent" : "non-coherent",
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
		if (!dt_node_is_available(dt, node))
			continue;
		sunxi_mmc_probe(dt, node);
		return;
	}
}
