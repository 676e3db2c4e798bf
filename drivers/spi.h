/*
 * spi.h - what an SPI peripheral driver (drivers/mmc_spi.c) needs of its controller
 * (drivers/spi-sifive.c): v6.10's struct spi_device and the three controller operations it
 * uses, small.  One device per controller, one transfer at a time, 8-bit frames, mode 0.
 * Locking: none here; the peripheral driver serialises every call (the controller is its
 * alone, docs/mmc-spi.md).
 */
#ifndef TINYMM_DRIVERS_SPI_H
#define TINYMM_DRIVERS_SPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tinymm/kernel.h"

struct spi_device;
struct spi_controller_ops {
	/* Drive the device's chip select active (true) or inactive. */
	void (*set_cs)(struct spi_device *spi, bool enable);
	/* Clock at most @hz; returns the rate set. */
	unsigned int (*set_speed)(struct spi_device *spi, unsigned int hz);
	/* Clock @len bytes out of @tx (NULL: 0xff each) while storing what comes in at @rx
	 * (NULL: dropped).  0, or -ETIMEDOUT when the controller stops moving bytes (every
	 * wait is bounded). */
	int (*transfer)(struct spi_device *spi, const uint8_t *tx, uint8_t *rx, size_t len);
	/* Unmap and free the controller's state (a probe that found no card). */
	void (*release)(struct spi_device *spi);
	/* For `blk list`: "sifive,spi0@0x10050000 cs 0". */
	void (*describe)(struct spi_device *spi, char *buf, size_t len);
};

struct spi_device {
	const struct spi_controller_ops *ops;
	void *controller;		/* the controller driver's */
	unsigned int chip_select;	/* the device node's reg */
	unsigned int max_speed_hz;	/* spi-max-frequency */
	unsigned int speed_hz;		/* what set_speed() set last */
	unsigned int irq;		/* the controller's interrupt (0: none); unused, see mmc_spi.c */
};

struct dt;
/* Make @spi the device at @node, a child of a "sifive,spi0" controller node @ctlr: map the
 * registers, program 8-bit mode-0 frames, interrupts off.  0, or -errno with the reason in
 * @why.  drivers/spi-sifive.c. */
int sifive_spi_setup(struct spi_device *spi, const struct dt *dt, int ctlr, int node, char *why,
		     size_t len);

#endif
