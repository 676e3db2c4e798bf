/*
 * bcm2835_dma.h - one channel of the BCM2835's DMA engine ("brcm,bcm2835-dma") for a
 * peripheral that names it in its node (dmas = <&dma DREQ>), driven by polling
 * (drivers/bcm2835_dma.c, docs/mmc.md).  Used by drivers/bcm2835_sdhost.c.
 */
#ifndef TINYMM_DRIVERS_BCM2835_DMA_H
#define TINYMM_DRIVERS_BCM2835_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tinymm/dma-mapping.h"

struct dt;
struct bcm2835_dma_chan;

/* The channel for @node's dmas (the first entry) in @dev's name: one of the engine's
 * brcm,dma-channel-mask channels; NULL with the reason in @why. */
struct bcm2835_dma_chan *bcm2835_dma_request(const struct dt *dt, int node, struct device *dev,
					     char *why, size_t len);
/* The channel's number and the peripheral's DREQ, for messages. */
unsigned int bcm2835_dma_chan_nr(const struct bcm2835_dma_chan *chan);
/* Start a chain: @n transfers (bus addresses), each between memory at mem[i] (len[i] bytes,
 * incrementing) and the peripheral's FIFO at @fifo (fixed, paced by its DREQ); @to_dev: memory
 * to FIFO.  0, or -EINVAL for more transfers than the chain holds. */
int bcm2835_dma_start(struct bcm2835_dma_chan *chan, const dma_addr_t *mem, const uint32_t *len,
		      unsigned int n, uint32_t fifo, bool to_dev);
/* Whether the chain has ended: 1 done, 0 still running, -EIO an engine error (the reason in
 * @why); after 1 or -EIO the channel is idle again. */
int bcm2835_dma_poll(struct bcm2835_dma_chan *chan, char *why, size_t len);
/* Stop the chain whatever it was doing (a request given up). */
void bcm2835_dma_abort(struct bcm2835_dma_chan *chan);
/* How many transfers a chain holds. */
unsigned int bcm2835_dma_max_segments(const struct bcm2835_dma_chan *chan);

#endif
