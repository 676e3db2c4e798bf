/*
 * mmc_core.c - an SD memory card in native SD mode, for every SD host driver (docs/mmc.md):
 * identification, the CSD's capacity, recovery to the transfer state.  The host's one polled
 * command (mmc_host_ops.cmd) carries everything; this file knows no register.
 *
 * Where it differs from v6.10 (drivers/mmc/core/sd.c, core.c): SD memory cards only, no
 * MMC/eMMC, SDIO, UHS or tuning; a card whose OCR and CSD disagree about its addressing is
 * refused (v6.10 lets the CSD decide both).
 *
 * Locking: none of its own; the caller owns the host (its probe, or its recovery with every
 * request kept out), as mmc_host_ops.cmd requires.
 */
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/printk.h"
#include "mmc_core.h"

#define OCR_BUSY		(1u << 31)	/* set: power-up done */
#define OCR_CCS			(1u << 30)	/* SDHC/SDXC: block addressing */
#define OCR_VDD_32_34		0x00300000u
#define ACMD41_TRIES		100		/* 10 ms apart: a card has 1 s to power up */
#define PRG_WAIT_TRIES		100		/* 10 ms apart: a card programming after a stop */

static int mmc_cmd(struct mmc_card *card, unsigned int opcode, uint32_t arg, unsigned int rsp,
		   uint32_t resp[4])
{
	return card->ops->cmd(card, opcode, arg, rsp, resp);
}

int mmc_app_cmd(struct mmc_card *card, unsigned int opcode, uint32_t arg, unsigned int rsp,
		uint32_t resp[4])
{
	int ret = mmc_cmd(card, SD_APP_CMD, card->rca << 16, MMC_RSP_R1, resp);

	return ret ? ret : mmc_cmd(card, opcode, arg, rsp, resp);
}

bool mmc_data_arg(const struct mmc_card *card, sector_t sector, uint32_t *arg)
{
	uint64_t a = card->high_capacity ? sector : sector << SECTOR_SHIFT;

	if (a > 0xffffffffULL)
		return false;
	*arg = (uint32_t)a;
	return true;
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

int mmc_sd_init_card(struct mmc_card *card, char *why, size_t len)
{
	uint32_t resp[4], ocr = 0;
	bool v2;
	int ret, i;

	card->rca = 0;
	card->bus_width = 1;
	mmc_cmd(card, SD_GO_IDLE_STATE, 0, MMC_RSP_NONE | MMC_CMD_INIT, NULL);
	/* CMD8: a v2 card echoes the check pattern; a v1 card does not answer. */
	ret = mmc_cmd(card, SD_SEND_IF_COND, 0x1aa, MMC_RSP_R1, resp);
	v2 = !ret && (resp[0] & 0xfff) == 0x1aa;
	for (i = 0; i < ACMD41_TRIES; i++) {
		ret = mmc_app_cmd(card, SD_APP_OP_COND, OCR_VDD_32_34 | (v2 ? OCR_CCS : 0),
				  MMC_RSP_R3, resp);
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
	card->high_capacity = v2 && (ocr & OCR_CCS);
	if (mmc_cmd(card, SD_ALL_SEND_CID, 0, MMC_RSP_R2, resp) ||
	    mmc_cmd(card, SD_SEND_RELATIVE_ADDR, 0, MMC_RSP_R1, resp)) {
		ksnprintf(why, len, "no answer to CMD2/CMD3");
		return -EIO;
	}
	card->rca = resp[0] >> 16;
	if (mmc_cmd(card, SD_SEND_CSD, card->rca << 16, MMC_RSP_R2, resp)) {
		ksnprintf(why, len, "no answer to CMD9");
		return -EIO;
	}
	card->nr_sectors = csd_sectors(resp);
	if (!card->nr_sectors) {
		ksnprintf(why, len, "its CSD makes no sense (%08x %08x %08x %08x)",
			  (unsigned int)resp[3], (unsigned int)resp[2], (unsigned int)resp[1],
			  (unsigned int)resp[0]);
		return -EIO;
	}
	/* The OCR's CCS picks the addressing (sectors or bytes), the CSD's version the capacity:
	 * a card whose two disagree could have every block read or written at the wrong place.
	 * Not trusted: refused. */
	if (card->high_capacity != (resp_bits(resp, 126, 2) == 1)) {
		ksnprintf(why, len, "its OCR says %s but its CSD is version %u",
			  card->high_capacity ? "SDHC/SDXC (sector addresses)" : "SDSC (byte addresses)",
			  (unsigned int)resp_bits(resp, 126, 2) + 1);
		return -EIO;
	}
	if (mmc_cmd(card, SD_SELECT_CARD, card->rca << 16, MMC_RSP_R1B, resp)) {
		ksnprintf(why, len, "no answer to CMD7 (select)");
		return -EIO;
	}
	/* 4-bit bus if the card takes ACMD6; else stay at one bit. */
	if (!mmc_app_cmd(card, SD_SWITCH_BUS_WIDTH, 2, MMC_RSP_R1, resp) && !(resp[0] & R1_ERRORS))
		card->bus_width = 4;
	card->ops->set_bus_width(card, card->bus_width);
	if (mmc_cmd(card, SD_SET_BLOCKLEN, SECTOR_SIZE, MMC_RSP_R1, resp) || (resp[0] & R1_ERRORS)) {
		ksnprintf(why, len, "CMD16 (512-byte blocks) refused");
		return -EIO;
	}
	return 0;
}

int mmc_sd_recover_card(struct mmc_card *card)
{
	uint32_t resp[4];
	unsigned int state, busy = 0;

	mmc_cmd(card, SD_STOP_TRANSMISSION, 0, MMC_RSP_R1B, NULL);	/* may not be needed */
	for (int tries = 0; tries < 3; tries++) {
		if (mmc_cmd(card, SD_SEND_STATUS, card->rca << 16, MMC_RSP_R1, resp))
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
			mmc_cmd(card, SD_SELECT_CARD, card->rca << 16, MMC_RSP_R1B, resp);
		else if (state == R1_STATE_DATA || state == R1_STATE_RCV)
			mmc_cmd(card, SD_STOP_TRANSMISSION, 0, MMC_RSP_R1B, NULL);
		else
			return -EIO;	/* idle, ready, ident: the card was reset under us */
	}
	return -EIO;
}
