/*
 * bcm2835_dma.c - one channel of the BCM2835's DMA engine ("brcm,bcm2835-dma", bus 0x7e007000)
 * for a peripheral's FIFO (docs/mmc.md).  A chain of control blocks in dma_alloc_coherent()
 * memory, one per buffer segment, each moving words between memory (incrementing) and the
 * FIFO (fixed, paced by the peripheral's DREQ on the hardware); the caller polls for its end.
 *
 * Where it differs from v6.10's drivers/dma/bcm2835-dma.c: no dmaengine framework, no
 * interrupt (the one user polls with a bound), one channel for one peripheral, no 2D or
 * memset modes.  QEMU's model ignores DREQ and runs a chain to its end inside the write that
 * starts it: the user must start it after the peripheral has its command.
 *
 * Register accesses are kept few (each traps in QEMU): DEBUG is cleared at request and after
 * an error, not before every chain.
 *
 * Locking: none of its own; the channel is its user's, who serialises start/poll/abort.
 */
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/io.h"
#include "tinymm/arch.h"
#include "tinymm/barrier.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "bcm2835_dma.h"

/* Channel registers (offset from the channel's base: the engine's + 0x100 * channel). */
#define DMA_CS			0x00
#define DMA_CONBLK_AD		0x04
#define DMA_DEBUG		0x20

#define DMA_CS_ACTIVE		(1u << 0)
#define DMA_CS_END		(1u << 1)
#define DMA_CS_INT		(1u << 2)
#define DMA_CS_ERROR		(1u << 8)
#define DMA_CS_PRIORITY(p)	((uint32_t)(p) << 16)
#define DMA_CS_PANIC(p)		((uint32_t)(p) << 20)
#define DMA_CS_WAIT_WRITES	(1u << 28)
#define DMA_CS_ABORT		(1u << 30)
#define DMA_CS_RESET		(1u << 31)

#define DMA_DEBUG_ERRORS	0x7u	/* read error, FIFO error, read-last-not-set; write 1 to clear */

#define DMA_TI_WAIT_RESP	(1u << 3)
#define DMA_TI_D_INC		(1u << 4)
#define DMA_TI_D_DREQ		(1u << 6)
#define DMA_TI_S_INC		(1u << 8)
#define DMA_TI_S_DREQ		(1u << 10)
#define DMA_TI_PERMAP(d)	((uint32_t)(d) << 16)

/* A control block: 32-byte aligned, read by the engine from memory. */
struct bcm2835_dma_cb {
	uint32_t ti, src, dst, len, stride, next, pad[2];
};

struct bcm2835_dma_chan {
	struct device *dev;
	uintptr_t regs;			/* the channel's registers */
	unsigned int nr, dreq;
	struct bcm2835_dma_cb *cb;	/* PAGE_SIZE of them, coherent */
	dma_addr_t cb_dma;
};

static inline uint32_t chan_readl(struct bcm2835_dma_chan *chan, unsigned int reg)
{
	return readl(chan->regs + reg);
}

static inline void chan_writel(struct bcm2835_dma_chan *chan, unsigned int reg, uint32_t v)
{
	writel(v, chan->regs + reg);
}

struct bcm2835_dma_chan *bcm2835_dma_request(const struct dt *dt, int node, struct device *dev,
					     char *why, size_t len)
{
	const uint8_t *dmas = NULL;
	struct bcm2835_dma_chan *chan;
	uint64_t addr, size;
	uint32_t mask;
	int n = 0, engine = -1;

	dmas = dt_getprop(dt, node, "dmas", &n);
	if (dmas && n >= 8)
		engine = dt_node_by_phandle(dt, dt_be32(dmas));
	if (engine < 0 || !dt_is_compatible(dt, engine, "brcm,bcm2835-dma")) {
		ksnprintf(why, len, "no dmas naming a brcm,bcm2835-dma engine");
		return NULL;
	}
	/* The lowest channel the firmware leaves to the ARM, not 0 (Linux keeps 0 for bulk). */
	mask = dt_getprop_u32(dt, engine, "brcm,dma-channel-mask", 0) & 0x7ffe;
	if (!mask || dt_address(dt, engine, 0, &addr, &size)) {
		ksnprintf(why, len, "the DMA engine has no channel or no registers");
		return NULL;
	}
	chan = kzalloc(sizeof(*chan), GFP_KERNEL);
	if (!chan) {
		ksnprintf(why, len, "no memory");
		return NULL;
	}
	chan->dev = dev;
	chan->nr = (unsigned int)__builtin_ctz(mask);
	chan->dreq = dt_be32(dmas + 4) & 0x1f;
	if (size < 0x100u * (chan->nr + 1) ||
	    !(chan->regs = (uintptr_t)ioremap(addr + 0x100u * chan->nr, 0x100))) {
		ksnprintf(why, len, "cannot map DMA channel %u", chan->nr);
		kfree(chan);
		return NULL;
	}
	chan->cb = dma_alloc_coherent(dev, PAGE_SIZE, &chan->cb_dma, GFP_KERNEL);
	if (!chan->cb) {
		ksnprintf(why, len, "no memory for DMA control blocks");
		iounmap((void *)chan->regs);
		kfree(chan);
		return NULL;
	}
	chan_writel(chan, DMA_CS, DMA_CS_RESET);
	chan_writel(chan, DMA_DEBUG, DMA_DEBUG_ERRORS);
	return chan;
}

unsigned int bcm2835_dma_chan_nr(const struct bcm2835_dma_chan *chan)
{
	return chan->nr;
}

unsigned int bcm2835_dma_max_segments(const struct bcm2835_dma_chan *chan)
{
	(void)chan;
	return PAGE_SIZE / sizeof(struct bcm2835_dma_cb);
}

int bcm2835_dma_start(struct bcm2835_dma_chan *chan, const dma_addr_t *mem, const uint32_t *len,
		      unsigned int n, uint32_t fifo, bool to_dev)
{
	uint32_t ti = DMA_TI_WAIT_RESP | DMA_TI_PERMAP(chan->dreq) |
		      (to_dev ? DMA_TI_S_INC | DMA_TI_D_DREQ : DMA_TI_D_INC | DMA_TI_S_DREQ);

	if (!n || n > bcm2835_dma_max_segments(chan))
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		struct bcm2835_dma_cb *cb = &chan->cb[i];

		cb->ti = ti;
		cb->src = to_dev ? (uint32_t)mem[i] : fifo;
		cb->dst = to_dev ? fifo : (uint32_t)mem[i];
		cb->len = len[i];
		cb->stride = 0;
		cb->next = i + 1 < n ? (uint32_t)(chan->cb_dma + (i + 1) * sizeof(*cb)) : 0;
	}
	chan_writel(chan, DMA_CONBLK_AD, (uint32_t)chan->cb_dma);
	wmb();	/* the control blocks and the buffers' maintenance before the engine starts */
	chan_writel(chan, DMA_CS, DMA_CS_ACTIVE | DMA_CS_END | DMA_CS_WAIT_WRITES |
		    DMA_CS_PRIORITY(8) | DMA_CS_PANIC(8));
	return 0;
}

int bcm2835_dma_poll(struct bcm2835_dma_chan *chan, char *why, size_t len)
{
	uint32_t cs = chan_readl(chan, DMA_CS), debug;

	if (cs & DMA_CS_ERROR) {
		debug = chan_readl(chan, DMA_DEBUG);
		ksnprintf(why, len, "DMA channel %u error (CS 0x%08x, DEBUG 0x%x)", chan->nr,
			  (unsigned int)cs, (unsigned int)debug);
		bcm2835_dma_abort(chan);
		return -EIO;
	}
	if (cs & DMA_CS_ACTIVE)
		return 0;
	chan_writel(chan, DMA_CS, DMA_CS_END | DMA_CS_INT);
	rmb();	/* the engine's writes before the CPU looks at the data */
	return 1;
}

void bcm2835_dma_abort(struct bcm2835_dma_chan *chan)
{
	chan_writel(chan, DMA_CS, DMA_CS_ABORT);
	chan_writel(chan, DMA_CS, DMA_CS_RESET);
	chan_writel(chan, DMA_DEBUG, DMA_DEBUG_ERRORS);
}
