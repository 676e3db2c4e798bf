/*
 * spi-sifive.c - the SiFive SPI controller ("sifive,spi0": the FU540's QSPI0-2; QEMU's sifive_u
 * models SPI2 at 0x10050000 with the SD card slot on chip select 0), as drivers/spi.h's
 * controller for drivers/mmc_spi.c.  docs/mmc-spi.md.
 *
 * Polled, not interrupt driven: the controller's FIFOs hold 8 bytes each way, so its watermark
 * interrupt would come every 8 bytes: 3.2 us at 20 MHz, less than taking an interrupt costs
 * (and QEMU moves a byte inside the register write).  The transfer keeps at most 8 bytes in
 * flight (written to txdata, not yet read from rxdata), so the transmit FIFO is never full
 * and the receive FIFO never overflows; the only wait is for a byte to arrive in rxdata,
 * bounded (SPIN_US): a controller that stops moving bytes gives -ETIMEDOUT, never a hang.
 * The chip select is held (csmode HOLD) for the whole of a card transaction and released by
 * going back to AUTO, as v6.10's spi-sifive.c does.
 *
 * Where it differs from v6.10's spi-sifive.c: no clock framework, so the divider assumes the
 * fastest bus clock the FU540 runs (tlclk = coreclk / 2 <= 750 MHz; QEMU ignores it): the SPI
 * clock is never faster than asked, possibly slower; no interrupt, no DMA (it has none), no
 * dual/quad modes; one device per controller.
 * Locking: none; the one device's driver serialises every call (spi.h).
 */
#include "tinymm/arch.h"
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/io.h"
#include "tinymm/irq.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "spi.h"

/* Registers (offsets), v6.10's SIFIVE_SPI_REG_* names without the prefix. */
#define SCKDIV		0x00	/* sck = in / (2 * (div + 1)), 12 bits */
#define SCKMODE		0x04	/* CPHA bit 0, CPOL bit 1 */
#define CSID		0x10
#define CSDEF		0x14	/* inactive level of each chip select */
#define CSMODE		0x18
#define FMT		0x40
#define TXDATA		0x48
#define RXDATA		0x4c
#define TXMARK		0x50
#define RXMARK		0x54
#define IE		0x70
#define IP		0x74
#define IP_TXWM		(1u << 0)	/* fewer than txmark bytes in the transmit FIFO */

#define CSMODE_AUTO	0	/* asserted per frame: released between our transactions */
#define CSMODE_HOLD	2	/* asserted from the first frame until csmode changes */
#define FMT_LEN_8	(8u << 16)	/* 8-bit frames, single lane, MSB first, rx on */
#define FMT_DIR_TX	(1u << 3)	/* transmit only: nothing goes into the receive FIFO */
#define TXDATA_FULL	(1u << 31)
#define RXDATA_EMPTY	(1u << 31)
#define FIFO_DEPTH	8
#define SCKDIV_MAX	0xfff

#define BUS_CLK_MAX_HZ	750000000u	/* the divider's assumption (header) */
#define SPIN_FAST	64		/* polls before waiting a microsecond between them */
#define SPIN_US		2000		/* a byte takes 20 us at 400 kHz: 100 times that */

struct sifive_spi {
	uintptr_t base;
	phys_addr_t phys;
};

static inline uint32_t spi_readl(struct sifive_spi *s, unsigned int reg)
{
	return readl(s->base + reg);
}

static inline void spi_writel(struct sifive_spi *s, unsigned int reg, uint32_t v)
{
	writel(v, s->base + reg);
}

static void sifive_spi_set_cs(struct spi_device *spi, bool enable)
{
	struct sifive_spi *s = spi->controller;

	spi_writel(s, CSMODE, enable ? CSMODE_HOLD : CSMODE_AUTO);
}

static unsigned int sifive_spi_set_speed(struct spi_device *spi, unsigned int hz)
{
	struct sifive_spi *s = spi->controller;
	uint32_t div = (BUS_CLK_MAX_HZ + 2 * hz - 1) / (2 * hz);	/* div + 1, rounded up */

	div = div ? div - 1 : 0;
	if (div > SCKDIV_MAX)
		div = SCKDIV_MAX;
	spi_writel(s, SCKDIV, div);
	spi->speed_hz = BUS_CLK_MAX_HZ / (2 * (div + 1));
	return spi->speed_hz;
}

/* One byte from rxdata, waiting at most SPIN_US; -ETIMEDOUT if none came. */
static int sifive_spi_rx(struct sifive_spi *s)
{
	uint32_t v;

	for (unsigned int i = 0; i < SPIN_FAST; i++) {
		v = spi_readl(s, RXDATA);
		if (!(v & RXDATA_EMPTY))
			return v & 0xff;
	}
	for (unsigned int us = 0; us < SPIN_US; us++) {
		udelay(1);
		v = spi_readl(s, RXDATA);
		if (!(v & RXDATA_EMPTY))
			return v & 0xff;
	}
	return -ETIMEDOUT;
}

/* Wait until the transmit FIFO is empty (txmark 1), at most SPIN_US; 0 or -ETIMEDOUT. */
static int sifive_spi_tx_drained(struct sifive_spi *s)
{
	for (unsigned int i = 0; i < SPIN_FAST; i++)
		if (spi_readl(s, IP) & IP_TXWM)
			return 0;
	for (unsigned int us = 0; us < SPIN_US; us++) {
		udelay(1);
		if (spi_readl(s, IP) & IP_TXWM)
			return 0;
	}
	return -ETIMEDOUT;
}

/*
 * Bytes out with nothing to keep: transmit-only frames, one register write a byte and a
 * FIFO-empty poll every 8, not the write and read of each byte a full-duplex frame costs
 * (blocks written to the card are half of its traffic).  Before the receive direction comes
 * back, the last byte must be out of the shift register too, or its echo would land in the
 * receive FIFO ahead of the answer: two byte times after the FIFO emptied, then any stray
 * byte drained.
 */
static int sifive_spi_tx_only(struct spi_device *spi, const uint8_t *tx, size_t len)
{
	struct sifive_spi *s = spi->controller;
	int ret = 0;

	spi_writel(s, FMT, FMT_LEN_8 | FMT_DIR_TX);
	while (len && !ret) {
		size_t n = len < FIFO_DEPTH ? len : FIFO_DEPTH;

		for (size_t i = 0; i < n; i++)
			spi_writel(s, TXDATA, tx ? tx[i] : 0xff);
		ret = sifive_spi_tx_drained(s);
		if (tx)
			tx += n;
		len -= n;
	}
	udelay(16000000 / spi->speed_hz + 1);
	spi_writel(s, FMT, FMT_LEN_8);
	for (int stale = 0; stale < FIFO_DEPTH && !(spi_readl(s, RXDATA) & RXDATA_EMPTY); stale++)
		;
	return ret;
}

static int sifive_spi_transfer(struct spi_device *spi, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct sifive_spi *s = spi->controller;

	if (!rx && len >= 64)
		return sifive_spi_tx_only(spi, tx, len);

	while (len) {
		size_t n = len < FIFO_DEPTH ? len : FIFO_DEPTH;

		for (size_t i = 0; i < n; i++)
			spi_writel(s, TXDATA, tx ? tx[i] : 0xff);
		for (size_t i = 0; i < n; i++) {
			int b = sifive_spi_rx(s);

			if (b < 0)
				return b;
			if (rx)
				rx[i] = (uint8_t)b;
		}
		if (tx)
			tx += n;
		if (rx)
			rx += n;
		len -= n;
	}
	return 0;
}

static void sifive_spi_describe(struct spi_device *spi, char *buf, size_t len)
{
	struct sifive_spi *s = spi->controller;

	ksnprintf(buf, len, "sifive,spi0@0x%08llx cs %u", (unsigned long long)s->phys,
		  spi->chip_select);
}

static void sifive_spi_release(struct spi_device *spi)
{
	struct sifive_spi *s = spi->controller;

	spi_writel(s, CSMODE, CSMODE_AUTO);
	iounmap((void *)s->base);
	kfree(s);
	spi->controller = NULL;
}

static const struct spi_controller_ops sifive_spi_ops = {
	.set_cs = sifive_spi_set_cs,
	.set_speed = sifive_spi_set_speed,
	.transfer = sifive_spi_transfer,
	.release = sifive_spi_release,
	.describe = sifive_spi_describe,
};

int sifive_spi_setup(struct spi_device *spi, const struct dt *dt, int ctlr, int node, char *why,
		     size_t len)
{
	struct sifive_spi *s;
	uint64_t addr, size;
	int stale = 0;

	if (dt_address(dt, ctlr, 0, &addr, &size) || size < 0x80) {
		ksnprintf(why, len, "the controller node has no usable registers");
		return -EINVAL;
	}
	spi->chip_select = dt_getprop_u32(dt, node, "reg", ~0u);
	if (spi->chip_select >= 32) {
		ksnprintf(why, len, "the slot's reg (chip select) is missing or out of range");
		return -EINVAL;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		ksnprintf(why, len, "no memory");
		return -ENOMEM;
	}
	s->phys = addr;
	s->base = (uintptr_t)ioremap(addr, (size_t)size);
	if (!s->base) {
		kfree(s);
		ksnprintf(why, len, "cannot map the registers");
		return -ENOMEM;
	}
	spi->controller = s;
	spi->ops = &sifive_spi_ops;
	spi->max_speed_hz = dt_getprop_u32(dt, node, "spi-max-frequency", 400000);
	if (!spi->max_speed_hz)
		spi->max_speed_hz = 400000;	/* a tree saying 0: the identification speed */
	/* Its interrupt is known but not used (polled: the header says why). */
	spi->irq = irq_of_parse_and_map(dt, ctlr, 0);
	spi_writel(s, IE, 0);
	spi_writel(s, CSMODE, CSMODE_AUTO);
	spi_writel(s, CSID, spi->chip_select);
	spi_writel(s, SCKMODE, 0);		/* mode 0: what SD cards take */
	spi_writel(s, FMT, FMT_LEN_8);
	spi_writel(s, TXMARK, 1);
	spi_writel(s, RXMARK, 0);
	/* Bytes a previous user (firmware) left in the receive FIFO would shift every answer. */
	while (!(spi_readl(s, RXDATA) & RXDATA_EMPTY) && stale < 64)
		stale++;
	if (spi_readl(s, TXDATA) & TXDATA_FULL) {
		iounmap((void *)s->base);
		kfree(s);
		ksnprintf(why, len, "its transmit FIFO stays full");
		return -EIO;
	}
	return 0;
}
