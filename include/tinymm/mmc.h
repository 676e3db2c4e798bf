/*
 * mmc.h - SD/MMC host drivers (docs/sunxi-mmc.md, docs/mmc-spi.md).  sunxi_mmc_init() probes
 * the device tree's Allwinner SD/MMC host (the Orange Pi PC's card slot), mmc_spi_init() its
 * SD card slots on a SiFive SPI controller (the HiFive Unleashed's); each registers its card
 * as mmcblk0.
 */
#ifndef TINYMM_MMC_H
#define TINYMM_MMC_H

struct dt;
void sunxi_mmc_init(const struct dt *dt);
void mmc_spi_init(const struct dt *dt);

#endif
