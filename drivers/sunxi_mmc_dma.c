/*
 * sunxi_mmc_dma.c - the Allwinner SD/MMC host's data path (drivers/sunxi_mmc.h): a bio's
 * segments mapped with the DMA API, the IDMAC descriptor chain written into a coherent ring,
 * and the completion checked, unmapped and judged.  Portable: the kernel links it with
 * drivers/sunxi_mmc.c, the host tests with a fake controller over the cache model
 * (tests/host/sunxi_mmc_cachemodel_test.c), so the cache maintenance the DMA API does for
 * this driver is proven there byte for byte.
 *
 * Every segment is one descriptor in chain mode; all but the last ask for no interrupt.  The
 * controller is never trusted: a transfer that reports success but leaves a descriptor owned
 * by the controller, marks one with an error, or reports an IDMAC error is -EIO, as is any
 * error bit in the raw status.  Unmapping happens whatever the outcome and before the bio is
 * ended, so the CPU never reads a buffer the device may still own in its cache lines.
 * Differs from v6.10's sunxi-mmc.c: one descriptor per bio segment (tinymm's segments are at
 * most a page, far below the H3's 64 KiB per descriptor), no splitting.
 * Locking: the driver calls these under its controller lock (one request at a time).
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/gfp.h"
#include "tinymm/kernel.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "sunxi_mmc.h"

#define MMC_READ_SINGLE_BLOCK		17
#define MMC_READ_MULTIPLE_BLOCK		18
#define MMC_WRITE_BLOCK			24
#define MMC_WRITE_MULTIPLE_BLOCK	25

struct sunxi_mmc_ring *sunxi_mmc_ring_alloc(struct device *dev)
{
	unsigned int n = PAGE_SIZE / sizeof(struct sunxi_idma_des);
	struct sunxi_mmc_ring *ring = kzalloc(sizeof(*ring) + n * sizeof(dma_addr_t), GFP_KERNEL);

	if (!ring)
		return NULL;
	ring->des = dma_alloc_coherent(dev, PAGE_SIZE, &ring->des_dma, GFP_KERNEL);
	if (!ring->des) {
		kfree(ring);
		return NULL;
	}
	ring->dev = dev;
	ring->nr_des = n;
	return ring;
}

void sunxi_mmc_ring_free(struct sunxi_mmc_ring *ring)
{
	dma_free_coherent(ring->dev, PAGE_SIZE, ring->des, ring->des_dma);
	kfree(ring);
}

static void sunxi_mmc_unmap(struct sunxi_mmc_ring *ring, struct bio *bio)
{
	for (unsigned int i = 0; i < ring->nseg; i++)
		dma_unmap_page(ring->dev, ring->seg_dma[i], bio->bi_io_vec[i].bv_len, ring->dir);
	ring->nseg = 0;
}

int sunxi_mmc_map_bio(struct sunxi_mmc_ring *ring, struct bio *bio)
{
	enum dma_data_direction dir = bio_op(bio) == REQ_OP_WRITE ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	unsigned int n = bio->bi_vcnt;

	if (!n || n > ring->nr_des)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		const struct bio_vec *bv = &bio->bi_io_vec[i];

		if (!bv->bv_len || bv->bv_len % SECTOR_SIZE || (bv->bv_offset & 3) ||
		    bv->bv_len > 0xffffu)
			return -EINVAL;
	}
	ring->dir = dir;
	ring->nseg = 0;
	for (unsigned int i = 0; i < n; i++) {
		const struct bio_vec *bv = &bio->bi_io_vec[i];
		dma_addr_t a = dma_map_page(ring->dev, bv->bv_page, bv->bv_offset, bv->bv_len, dir);

		/* The controller takes 32-bit addresses: dma_dev_init's 32-bit mask ensures it. */
		if (dma_mapping_error(ring->dev, a)) {
			sunxi_mmc_unmap(ring, bio);
			return -ENOMEM;
		}
		ring->seg_dma[ring->nseg++] = a;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct sunxi_idma_des *d = &ring->des[i];
		uint32_t cfg = SDXC_IDMAC_DES0_OWN | SDXC_IDMAC_DES0_CH | SDXC_IDMAC_DES0_DIC;

		if (i == 0)
			cfg |= SDXC_IDMAC_DES0_FD;
		if (i == n - 1)
			cfg = (cfg | SDXC_IDMAC_DES0_LD) & ~SDXC_IDMAC_DES0_DIC;
		d->buf_size = bio->bi_io_vec[i].bv_len;
		d->buf_addr = (uint32_t)ring->seg_dma[i];
		d->next = i == n - 1 ? 0 : (uint32_t)(ring->des_dma + (i + 1) * sizeof(*d));
		/* The ring is uncached, but writel() has no barrier of its own: the driver's wmb()
		 * before the writel() that starts the command orders these words before the
		 * controller's first read of them. */
		d->config = cfg;
	}
	return 0;
}

int sunxi_mmc_complete_bio(struct sunxi_mmc_ring *ring, struct bio *bio, uint32_t rint,
			   uint32_t idst, bool timed_out, char *why, size_t len)
{
	uint32_t want = sunxi_mmc_data_done_bits(bio);
	unsigned int n = ring->nseg;
	int ret = 0;

	if (timed_out) {
		ksnprintf(why, len, "no completion (status 0x%08x)", (unsigned int)rint);
		ret = -EIO;
	} else if (rint & SDXC_INTERRUPT_ERROR_BITS) {
		ksnprintf(why, len, "%s (status 0x%08x)",
			  rint & (SDXC_RESP_TIMEOUT | SDXC_RESP_ERROR) ? "no response from the card" :
			  rint & SDXC_RESP_CRC_ERROR ? "response CRC error" :
			  rint & SDXC_DATA_CRC_ERROR ? "data CRC error" :
			  rint & SDXC_DATA_TIMEOUT ? "data timeout" : "controller error",
			  (unsigned int)rint);
		ret = -EIO;
	} else if ((rint & want) != want) {
		ksnprintf(why, len, "ended without data over (status 0x%08x)", (unsigned int)rint);
		ret = -EIO;
	} else if (idst & SDXC_IDMAC_ERRORS) {
		ksnprintf(why, len, "IDMAC error (IDST 0x%08x)", (unsigned int)idst);
		ret = -EIO;
	} else {
		for (unsigned int i = 0; i < n; i++) {
			uint32_t cfg = READ_ONCE(ring->des[i].config);

			if (cfg & (SDXC_IDMAC_DES0_OWN | SDXC_IDMAC_DES0_CES)) {
				ksnprintf(why, len, "descriptor %u of %u came back as 0x%08x", i, n,
					  (unsigned int)cfg);
				ret = -EIO;
				break;
			}
		}
	}
	sunxi_mmc_unmap(ring, bio);
	return ret;
}

uint32_t sunxi_mmc_data_done_bits(const struct bio *bio)
{
	return bio->bi_size > SECTOR_SIZE ? SDXC_DATA_OVER | SDXC_AUTO_COMMAND_DONE : SDXC_DATA_OVER;
}

uint32_t sunxi_mmc_data_cmd(const struct bio *bio)
{
	bool multi = bio->bi_size > SECTOR_SIZE;
	uint32_t c = SDXC_START | SDXC_RESP_EXPIRE | SDXC_CHECK_RESPONSE_CRC | SDXC_DATA_EXPIRE |
		     SDXC_WAIT_PRE_OVER;

	if (bio_op(bio) == REQ_OP_WRITE)
		c |= SDXC_WRITE | (multi ? MMC_WRITE_MULTIPLE_BLOCK : MMC_WRITE_BLOCK);
	else
		c |= multi ? MMC_READ_MULTIPLE_BLOCK : MMC_READ_SINGLE_BLOCK;
	if (multi)
		c |= SDXC_SEND_AUTO_STOP;
	return c;
}
