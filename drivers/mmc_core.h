/*
 * mmc_core.h - the SD card's side of an SD host driver, native SD mode (drivers/mmc_core.c,
 * docs/mmc.md): the identification sequence, the card's capacity from its CSD and the way back
 * to the transfer state after a failed request.  A host driver (drivers/sunxi_mmc.c,
 * drivers/bcm2835_sdhost.c) supplies one polled command and the bus width; everything it
 * says about the card lives in struct mmc_card.  SPI mode (mmc-spi) speaks other frames and
 * is not served here.
 *
 * Where it differs from v6.10's drivers/mmc/core: SD memory cards only (no MMC/eMMC, SDIO,
 * UHS voltage switching, tuning or power classes), one card per host, all commands polled by
 * the host driver, no host claiming (the driver's own rules say who may send commands).
 */
#ifndef TINYMM_DRIVERS_MMC_CORE_H
#define TINYMM_DRIVERS_MMC_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tinymm/blkdev.h"

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
#define SD_READ_SINGLE_BLOCK	17
#define SD_READ_MULTIPLE_BLOCK	18
#define SD_WRITE_BLOCK		24
#define SD_WRITE_MULTIPLE_BLOCK	25
#define SD_APP_OP_COND		41	/* ACMD41 */
#define SD_APP_CMD		55

/* The card status (R1) */
#define R1_ERRORS		0xfdf90008u	/* its error bits */
#define R1_STATE(r)		(((r) >> 9) & 0xf)
#define R1_STATE_STBY		3
#define R1_STATE_TRAN		4
#define R1_STATE_DATA		5
#define R1_STATE_RCV		6
#define R1_STATE_PRG		7	/* writing what it received: busy, then transfer */

/* What a command expects back (the host turns it into its register bits). */
enum mmc_rsp {
	MMC_RSP_NONE,
	MMC_RSP_R1,		/* 48 bits, CRC: the card status */
	MMC_RSP_R1B,		/* R1, then the card may hold DAT0 busy (CMD7, CMD12) */
	MMC_RSP_R2,		/* 136 bits, CRC: CID or CSD; resp[3] holds bits 127:96 */
	MMC_RSP_R3,		/* 48 bits, no CRC: the OCR */
};
#define MMC_CMD_INIT		0x100u	/* or'd into the rsp: the 74 clocks of power-up first */

struct mmc_card;
struct mmc_host_ops {
	/* One command without data, polled, bounded: 0 and the response in @resp (may be NULL);
	 * -ETIMEDOUT when the card did not answer, -EIO for a response CRC error. */
	int (*cmd)(struct mmc_card *card, unsigned int opcode, uint32_t arg, unsigned int rsp,
		   uint32_t resp[4]);
	/* The data bus is now @width bits (1 or 4). */
	void (*set_bus_width)(struct mmc_card *card, unsigned int width);
};

struct mmc_card {
	const struct mmc_host_ops *ops;
	void *host;			/* the host driver's */
	uint32_t rca;			/* relative card address (CMD3) */
	bool high_capacity;		/* SDHC/SDXC: block addresses; else byte addresses */
	unsigned int bus_width;		/* 1 or 4 */
	sector_t nr_sectors;		/* the capacity, 512-byte sectors */
};

/*
 * Identify the card and leave it selected, in the transfer state, with 512-byte blocks and the
 * widest bus it takes (CMD0, CMD8, ACMD41 until ready (1 s at most), CMD2, CMD3, CMD9, CMD7,
 * ACMD6, CMD16).  The host has reset itself and runs an identification clock.  0, or -EIO
 * with the reason in @why.
 */
int mmc_sd_init_card(struct mmc_card *card, char *why, size_t len);
/*
 * After a failed request, the host reset and its clock running: stop what the card was doing
 * and bring it back to the transfer state (CMD12, CMD13, CMD7 if it was deselected, CMD13
 * while it programs a stopped write).  0, or -EIO: the card is gone or was reset.
 */
int mmc_sd_recover_card(struct mmc_card *card);
/* ACMDn: CMD55 with the card's RCA, then @opcode. */
int mmc_app_cmd(struct mmc_card *card, unsigned int opcode, uint32_t arg, unsigned int rsp,
		uint32_t resp[4]);
/* The argument of a data command for @sector: a block number or a byte address; false if the
 * card cannot address it. */
bool mmc_data_arg(const struct mmc_card *card, sector_t sector, uint32_t *arg);

#endif
