/*
 * mmc.h - SD/MMC host drivers (docs/mmc.md, docs/mmc-spi.md).  Each probes the device tree's
 * host of its kind and registers the card in it as mmcblk0: sunxi_mmc_init() the Allwinner host
 * (the Orange Pi PC's card slot), bcm2835_sdhost_init() the BCM2835's SD host (the Raspberry Pi
 * 2B's), mmc_spi_init() the SD card slots on a SiFive SPI controller (the HiFive Unleashed's).
 */
#ifndef TINYMM_MMC_H
#define TINYMM_MMC_H

struct dt;
void sunxi_mmc_init(const struct dt *dt);
void bcm2835_sdhost_init(const struct dt *dt);
void mmc_spi_init(const struct dt *dt);

#endif
