/*
 * uart.c - polled console UARTs: ARM PL011, NS16550A (8250 family), the DesignWare APB UART
 * (a 16550 with 32-bit registers) and SiFive's UART0.
 *
 * Output waits for FIFO room.  Input is polled, or, once drivers/console_input.c has the
 * UART's interrupt, woken by the receive interrupt (rx_irq turns it on and off: the handler
 * turns it off so a level interrupt does not repeat until the reader has drained the FIFO).
 * A UART is chosen by its compatible string, so the same image drives whatever the device
 * tree names.
 * Locking: output is serialised by printk's console lock; input has one reader (the shell).
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/console.h"

/* PL011 (ARM PrimeCell UART, DDI0183): data register and flag register. */
#define PL011_DR	0x00
#define PL011_FR	0x18
#define PL011_FR_RXFE	(1u << 4)
#define PL011_FR_TXFF	(1u << 5)

static void pl011_init(uintptr_t base, unsigned shift)
{
	(void)base; (void)shift;	/* firmware/QEMU left it enabled at a usable rate */
}

static void pl011_putc(uintptr_t base, unsigned shift, char c)
{
	(void)shift;
	while (readl(base + PL011_FR) & PL011_FR_TXFF)
		;
	writel((uint8_t)c, base + PL011_DR);
}

static int pl011_getc(uintptr_t base, unsigned shift)
{
	(void)shift;
	if (readl(base + PL011_FR) & PL011_FR_RXFE)
		return -1;
	return (int)(readl(base + PL011_DR) & 0xff);
}

#define PL011_IMSC	0x38
#define PL011_IMSC_RX	(1u << 4)	/* receive */
#define PL011_IMSC_RT	(1u << 6)	/* receive timeout: a lone byte below the FIFO level */

static void pl011_rx_irq(uintptr_t base, unsigned shift, bool on)
{
	(void)shift;
	writel(on ? PL011_IMSC_RX | PL011_IMSC_RT : 0, base + PL011_IMSC);
}

/* NS16550A: registers are bytes spaced by 1 << reg-shift. */
#define UART_RBR	0	/* receive buffer (read) */
#define UART_THR	0	/* transmit holding (write) */
#define UART_IER	1
#define UART_IER_RDI	0x01	/* receive data available */
#define UART_FCR	2
#define UART_MCR	4
#define UART_MCR_OUT2	0x08	/* routes the interrupt out on PC-style boards */
#define UART_LCR	3
#define UART_LSR	5
#define UART_LSR_DR	0x01
#define UART_LSR_THRE	0x20

static void ns16550_init(uintptr_t base, unsigned shift)
{
	/*
	 * Nothing to do: firmware (or reset) left the line usable, and writing FCR is harmful —
	 * toggling FIFO-enable flushes both FIFOs, losing bytes typed before the kernel looked.
	 */
	(void)base; (void)shift;
}

static void ns16550_putc(uintptr_t base, unsigned shift, char c)
{
	while (!(readb(base + (UART_LSR << shift)) & UART_LSR_THRE))
		;
	writeb((uint8_t)c, base + (UART_THR << shift));
}

static int ns16550_getc(uintptr_t base, unsigned shift)
{
	if (!(readb(base + (UART_LSR << shift)) & UART_LSR_DR))
		return -1;
	return readb(base + (UART_RBR << shift));
}

static void ns16550_rx_irq(uintptr_t base, unsigned shift, bool on)
{
	if (on)
		writeb(readb(base + (UART_MCR << shift)) | UART_MCR_OUT2, base + (UART_MCR << shift));
	writeb(on ? UART_IER_RDI : 0, base + (UART_IER << shift));
}

/*
 * Synopsys DesignWare APB UART (snps,dw-apb-uart: Allwinner H3, Rockchip, ...): a 16550 whose
 * registers are 32-bit words (reg-io-width 4, reg-shift 2 in every such device tree); byte
 * accesses are not guaranteed to reach it, so every access is a 32-bit one and only the low
 * byte counts.  LCR and the divisor are the firmware's (USR.BUSY rules for writing LCR never
 * apply: it is not written).
 */
static void dw_apb_init(uintptr_t base, unsigned shift)
{
	(void)base; (void)shift;	/* as ns16550_init: the FIFOs keep what was typed */
}

static void dw_apb_putc(uintptr_t base, unsigned shift, char c)
{
	while (!(readl(base + (UART_LSR << shift)) & UART_LSR_THRE))
		;
	writel((uint8_t)c, base + (UART_THR << shift));
}

static int dw_apb_getc(uintptr_t base, unsigned shift)
{
	if (!(readl(base + (UART_LSR << shift)) & UART_LSR_DR))
		return -1;
	return (int)(readl(base + (UART_RBR << shift)) & 0xff);
}

static void dw_apb_rx_irq(uintptr_t base, unsigned shift, bool on)
{
	writel(on ? UART_IER_RDI : 0, base + (UART_IER << shift));
}

/*
 * SiFive UART (sifive,uart0; FU540-C000 manual, chapter 13): 32-bit registers.  txdata's bit 31
 * says the transmit FIFO is full; reading rxdata pops a byte, bit 31 set meaning there was none,
 * so the flag and the byte come from the same read.  The receive watermark interrupt (ie.rxwm)
 * is pending while the FIFO holds more than rxctrl.rxcnt (0: any) bytes.
 */
#define SIFIVE_TXDATA		0x00
#define SIFIVE_RXDATA		0x04
#define SIFIVE_TXCTRL		0x08
#define SIFIVE_RXCTRL		0x0c
#define SIFIVE_IE		0x10
#define SIFIVE_IP		0x14
#define SIFIVE_TXDATA_FULL	(1u << 31)
#define SIFIVE_RXDATA_EMPTY	(1u << 31)
#define SIFIVE_CTRL_EN		(1u << 0)	/* txctrl.txen, rxctrl.rxen */
#define SIFIVE_CTRL_CNT		(7u << 16)	/* txcnt, rxcnt: the watermark */
#define SIFIVE_IE_RXWM		(1u << 1)

static void sifive_init(uintptr_t base, unsigned shift)
{
	(void)shift;
	/* The firmware set the divisor (115200 8N1) and enabled transmit; make sure receive is on
	 * with a watermark of 0, so one byte is enough to interrupt.  No FIFO is flushed. */
	writel(readl(base + SIFIVE_TXCTRL) | SIFIVE_CTRL_EN, base + SIFIVE_TXCTRL);
	writel((readl(base + SIFIVE_RXCTRL) & ~SIFIVE_CTRL_CNT) | SIFIVE_CTRL_EN, base + SIFIVE_RXCTRL);
}

static void sifive_putc(uintptr_t base, unsigned shift, char c)
{
	(void)shift;
	while (readl(base + SIFIVE_TXDATA) & SIFIVE_TXDATA_FULL)
		;
	writel((uint8_t)c, base + SIFIVE_TXDATA);
}

static int sifive_getc(uintptr_t base, unsigned shift)
{
	uint32_t v = readl(base + SIFIVE_RXDATA);

	(void)shift;
	return v & SIFIVE_RXDATA_EMPTY ? -1 : (int)(v & 0xff);
}

static void sifive_rx_irq(uintptr_t base, unsigned shift, bool on)
{
	(void)shift;
	writel(on ? SIFIVE_IE_RXWM : 0, base + SIFIVE_IE);
}

static const struct uart_driver uart_drivers[] = {
	{ "arm,pl011", pl011_init, pl011_putc, pl011_getc, pl011_rx_irq },
	{ "ns16550a", ns16550_init, ns16550_putc, ns16550_getc, ns16550_rx_irq },
	{ "ns16550", ns16550_init, ns16550_putc, ns16550_getc, ns16550_rx_irq },
	{ "sifive,uart0", sifive_init, sifive_putc, sifive_getc, sifive_rx_irq },
	{ "snps,dw-apb-uart", dw_apb_init, dw_apb_putc, dw_apb_getc, dw_apb_rx_irq },
};

const struct uart_driver *uart_find_driver(const char *list, int len)
{
	for (int off = 0; off < len;) {
		const char *s = list + off;
		size_t n = strnlen(s, (size_t)(len - off));
		for (size_t i = 0; i < ARRAY_SIZE(uart_drivers); i++)
			if (strlen(uart_drivers[i].compatible) == n &&
			    !memcmp(uart_drivers[i].compatible, s, n))
				return &uart_drivers[i];
		off += (int)n + 1;
	}
	return NULL;
}

static const struct uart_driver *con_drv;
static uintptr_t con_base;
static unsigned con_shift;

int console_setup(const char *compatible, uintptr_t base, unsigned reg_shift)
{
	const struct uart_driver *d = uart_find_driver(compatible, (int)strlen(compatible) + 1);

	if (!d || !base)
		return -1;
	if (d != con_drv || base != con_base || reg_shift != con_shift)
		d->init(base, reg_shift);	/* the early UART is usually the same one */
	con_drv = d;
	con_base = base;
	con_shift = reg_shift;
	return 0;
}

const char *console_name(void) { return con_drv ? con_drv->compatible : "none"; }
uintptr_t console_base(void) { return con_base; }

void console_write(const char *s, size_t n)
{
	if (!con_drv)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			con_drv->putc(con_base, con_shift, '\r');
		con_drv->putc(con_base, con_shift, s[i]);
	}
}

int console_getc(void)
{
	return con_drv ? con_drv->getc(con_base, con_shift) : -1;
}

void console_rx_irq(bool on)
{
	if (con_drv && con_drv->rx_irq)
		con_drv->rx_irq(con_base, con_shift, on);
}
