/*
 * sunxi_mmc.h - the Allwinner SD/MMC host (drivers/sunxi_mmc.c, docs/sunxi-mmc.md): its
 * registers and the data path shared by the driver and the host cache model's test
 * (drivers/sunxi_mmc_dma.c, tests/host/sunxi_mmc_cachemodel_test.c).
 *
 * The data path is the half of the driver that touches buffers through the DMA API: it maps a
 * bio's segments, writes the internal DMA controller's (IDMAC) descriptor chain into a ring
 * from dma_alloc_coherent(), and at completion checks what the controller reported, gives the
 * buffers back to the CPU (dma_unmap_page) and turns the status into 0 or -EIO.  It knows no
 * register base, lock or interrupt, so a fake controller on the host can drive it.
 * Register names are Linux v6.10's drivers/mmc/host/sunxi-mmc.c names where it has one.
 */
#ifndef TINYMM_DRIVERS_SUNXI_MMC_H
#define TINYMM_DRIVERS_SUNXI_MMC_H

#include <stdbool.h>
#include <stdint.h>
#include "tinymm/blkdev.h"
#include "tinymm/dma-mapping.h"

/* Registers (offsets from the controller's base). */
#define SDXC_REG_GCTRL		0x00	/* global control */
#define SDXC_REG_CLKCR		0x04	/* card clock */
#define SDXC_REG_TMOUT		0x08	/* data (31:8) and response (7:0) timeouts, card clocks */
#define SDXC_REG_WIDTH		0x0c	/* bus width: 0 one bit, 1 four */
#define SDXC_REG_BLKSZ		0x10
#define SDXC_REG_BCNTR		0x14	/* bytes of the data transfer */
#define SDXC_REG_CMDR		0x18
#define SDXC_REG_CARG		0x1c
#define SDXC_REG_RESP0		0x20	/* a long response: RESP3 holds bits 127:96 */
#define SDXC_REG_IMASK		0x30
#define SDXC_REG_MISTA		0x34
#define SDXC_REG_RINTR		0x38	/* raw interrupt status, write 1 to clear */
#define SDXC_REG_STAS		0x3c
#define SDXC_REG_FTRGL		0x40	/* FIFO watermarks and DMA burst size */
#define SDXC_REG_DMAC		0x80	/* IDMAC control */
#define SDXC_REG_DLBA		0x84	/* descriptor list base (bus address) */
#define SDXC_REG_IDST		0x88	/* IDMAC status, write 1 to clear */
#define SDXC_REG_IDIE		0x8c	/* IDMAC interrupt enable */

/* GCTRL */
#define SDXC_SOFT_RESET		(1u << 0)
#define SDXC_FIFO_RESET		(1u << 1)
#define SDXC_DMA_RESET		(1u << 2)
#define SDXC_INTERRUPT_ENABLE	(1u << 4)
#define SDXC_DMA_ENABLE		(1u << 5)
#define SDXC_ACCESS_BY_AHB	(1u << 31)
#define SDXC_HARDWARE_RESET	(SDXC_SOFT_RESET | SDXC_FIFO_RESET | SDXC_DMA_RESET)

/* CLKCR */
#define SDXC_CARD_CLOCK_ON	(1u << 16)
#define SDXC_LOW_POWER_ON	(1u << 17)
#define SDXC_CLK_DIVIDER_MASK	0xffu	/* card clock = module clock / (2 * n), n = 0: bypass */

/* CMDR */
#define SDXC_RESP_EXPIRE	(1u << 6)
#define SDXC_LONG_RESPONSE	(1u << 7)
#define SDXC_CHECK_RESPONSE_CRC	(1u << 8)
#define SDXC_DATA_EXPIRE	(1u << 9)
#define SDXC_WRITE		(1u << 10)
#define SDXC_SEND_AUTO_STOP	(1u << 12)
#define SDXC_WAIT_PRE_OVER	(1u << 13)
#define SDXC_SEND_INIT_SEQUENCE	(1u << 15)
#define SDXC_UPCLK_ONLY		(1u << 21)
#define SDXC_START		(1u << 31)

/* RINTR / IMASK */
#define SDXC_RESP_ERROR		(1u << 1)	/* QEMU: the card gave no (valid) response */
#define SDXC_COMMAND_DONE	(1u << 2)
#define SDXC_DATA_OVER		(1u << 3)
#define SDXC_RESP_CRC_ERROR	(1u << 6)
#define SDXC_DATA_CRC_ERROR	(1u << 7)
#define SDXC_RESP_TIMEOUT	(1u << 8)
#define SDXC_DATA_TIMEOUT	(1u << 9)
#define SDXC_FIFO_RUN_ERROR	(1u << 11)
#define SDXC_HARD_WARE_LOCKED	(1u << 12)
#define SDXC_START_BIT_ERROR	(1u << 13)
#define SDXC_AUTO_COMMAND_DONE	(1u << 14)
#define SDXC_END_BIT_ERROR	(1u << 15)
#define SDXC_INTERRUPT_ERROR_BITS (SDXC_RESP_ERROR | SDXC_RESP_CRC_ERROR | SDXC_DATA_CRC_ERROR | \
				   SDXC_RESP_TIMEOUT | SDXC_DATA_TIMEOUT | SDXC_FIFO_RUN_ERROR | \
				   SDXC_HARD_WARE_LOCKED | SDXC_START_BIT_ERROR | SDXC_END_BIT_ERROR)

/* DMAC */
#define SDXC_IDMAC_SOFT_RESET	(1u << 0)
#define SDXC_IDMAC_FIX_BURST	(1u << 1)
#define SDXC_IDMAC_IDMA_ON	(1u << 7)

/* IDST / IDIE */
#define SDXC_IDMAC_TRANSMIT_INT	(1u << 0)
#define SDXC_IDMAC_RECEIVE_INT	(1u << 1)
#define SDXC_IDMAC_FATAL_BUS_ERROR (1u << 2)
#define SDXC_IDMAC_DES_INVALID	(1u << 4)
#define SDXC_IDMAC_CARD_ERR_SUM	(1u << 5)
#define SDXC_IDMAC_ABNORMAL_INT_SUM (1u << 9)
#define SDXC_IDMAC_ERRORS	(SDXC_IDMAC_FATAL_BUS_ERROR | SDXC_IDMAC_DES_INVALID | \
				 SDXC_IDMAC_CARD_ERR_SUM | SDXC_IDMAC_ABNORMAL_INT_SUM)

/* One IDMAC descriptor, little-endian words in the coherent ring. */
struct sunxi_idma_des {
	uint32_t config;
	uint32_t buf_size;	/* bytes of this buffer (bits 15:0 on the H3) */
	uint32_t buf_addr;	/* bus address, word aligned */
	uint32_t next;		/* bus address of the next descriptor (chain mode) */
};
#define SDXC_IDMAC_DES0_DIC	(1u << 1)	/* no interrupt when this one completes */
#define SDXC_IDMAC_DES0_LD	(1u << 2)	/* last descriptor */
#define SDXC_IDMAC_DES0_FD	(1u << 3)	/* first descriptor */
#define SDXC_IDMAC_DES0_CH	(1u << 4)	/* chain mode: next is the next descriptor */
#define SDXC_IDMAC_DES0_CES	(1u << 30)	/* card error summary */
#define SDXC_IDMAC_DES0_OWN	(1u << 31)	/* the controller owns it (QEMU: "hold") */

/*
 * The descriptor ring and the request it carries.  One request at a time: the controller runs
 * one command.  nr_desc descriptors fill one coherent page; a bio's segments map one-to-one.
 */
struct sunxi_mmc_ring {
	struct device *dev;
	struct sunxi_idma_des *des;	/* dma_alloc_coherent(): both sides see every access */
	dma_addr_t des_dma;
	unsigned int nr_des;
	/* the request in flight (nseg 0: none) */
	unsigned int nseg;
	enum dma_data_direction dir;
	dma_addr_t seg_dma[];		/* nr_des entries */
};

/* Allocate the ring for @dev (nr_des descriptors in one page); NULL when there is no memory. */
struct sunxi_mmc_ring *sunxi_mmc_ring_alloc(struct device *dev);
/* Free it (no request in flight: a probe that gave up). */
void sunxi_mmc_ring_free(struct sunxi_mmc_ring *ring);
/* Map @bio's segments and write the descriptor chain: 0, -EINVAL for a segment the controller
 * cannot take (not word aligned, not whole sectors, too many), -ENOMEM when a mapping fails
 * (nothing stays mapped). */
int sunxi_mmc_map_bio(struct sunxi_mmc_ring *ring, struct bio *bio);
/*
 * The transfer of the mapped bio ended with raw interrupt status @rint and IDMAC status
 * @idst (@timed_out: the driver's timer ended it): unmap the segments (the CPU owns them
 * again) and return 0 only if the controller said the data is complete and error-free and
 * every descriptor came back from the controller; else -EIO with the reason in @why.
 */
int sunxi_mmc_complete_bio(struct sunxi_mmc_ring *ring, struct bio *bio, uint32_t rint,
			   uint32_t idst, bool timed_out, char *why, size_t len);
/* The RINTR bits that end a data command: data over, and the auto-stop's done with one. */
uint32_t sunxi_mmc_data_done_bits(const struct bio *bio);
/* The command register word for @bio's read or write (CMD17/18/24/25; auto-stop if multi). */
uint32_t sunxi_mmc_data_cmd(const struct bio *bio);

#endif
