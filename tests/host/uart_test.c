/* uart_test.c - the PL011, NS16550, DesignWare APB and SiFive UART drivers against fake
 * register files. */
#include "test.h"
#include "tinymm/console.h"

static void driver_lookup_by_compatible_list(void **state)
{
	const char list[] = "arm,pl011\0arm,primecell";
	const char ns[] = "vendor,uart16550\0ns16550a";
	const char none[] = "vendor,unknown";

	assert_string_equal(uart_find_driver(list, sizeof(list))->compatible, "arm,pl011");
	assert_string_equal(uart_find_driver(ns, sizeof(ns))->compatible, "ns16550a");
	assert_null(uart_find_driver(none, sizeof(none)));
	assert_null(uart_find_driver("arm,pl01", 9));		/* a prefix is not a match */
	assert_int_equal(console_setup("vendor,unknown", 0x1000, 0), -1);
}

static void pl011_writes_dr_and_expands_newlines(void **state)
{
	static uint32_t regs[0x40];		/* FR = 0: TX not full, RX not empty */

	assert_int_equal(console_setup("arm,pl011", (uintptr_t)regs, 0), 0);
	console_write("a", 1);
	assert_int_equal(regs[0], 'a');
	console_write("\n", 1);
	assert_int_equal(regs[0], '\n');	/* last write; '\r' went first */
	regs[0] = 'q';
	assert_int_equal(console_getc(), 'q');
	regs[0x18 / 4] = 1u << 4;		/* RXFE */
	assert_int_equal(console_getc(), -1);
	assert_string_equal(console_name(), "arm,pl011");
}

static void ns16550_uses_reg_shift(void **state)
{
	static uint8_t regs[64];

	regs[5 << 2] = 0x20;			/* LSR: THR empty, no data */
	assert_int_equal(console_setup("ns16550a", (uintptr_t)regs, 2), 0);
	assert_int_equal(regs[2 << 2], 0);	/* FCR untouched: writing it flushes received bytes */
	console_write("z", 1);
	assert_int_equal(regs[0], 'z');
	assert_int_equal(console_getc(), -1);
	regs[5 << 2] = 0x21;
	regs[0] = 'k';
	assert_int_equal(console_getc(), 'k');
}

/* The H3's UART0 node: "snps,dw-apb-uart", reg-shift 2, reg-io-width 4.  Every access is a
 * whole word (a byte store would leave the upper bytes), and only the low byte counts on reads. */
static void dw_apb_uart_uses_words_and_reg_shift(void **state)
{
	static uint32_t regs[16];
	const char compat[] = "snps,dw-apb-uart";

	assert_string_equal(uart_find_driver(compat, sizeof(compat))->compatible, "snps,dw-apb-uart");
	regs[0] = 0xdeadbe00;
	regs[2] = 0xc1;				/* IIR/FCR: FIFOs on, left alone */
	regs[5] = 0xffffff60;			/* LSR: THR empty, no data; junk above the byte */
	assert_int_equal(console_setup("snps,dw-apb-uart", (uintptr_t)regs, 2), 0);
	assert_int_equal(regs[2], 0xc1);
	console_write("z", 1);
	assert_int_equal(regs[0], 'z');		/* a 32-bit store */
	assert_int_equal(console_getc(), -1);
	regs[5] = 0x61;
	regs[0] = 0xabcd006b;
	assert_int_equal(console_getc(), 'k');
	console_rx_irq(true);
	assert_int_equal(regs[1], 1);		/* IER.ERBFI at word 1 (offset 4 = 1 << 2) */
	console_rx_irq(false);
	assert_int_equal(regs[1], 0);
	assert_string_equal(console_name(), "snps,dw-apb-uart");
}

static void sifive_uart0_flags_enable_and_rx_irq(void **state)
{
	static uint32_t regs[8];
	const char compat[] = "sifive,fu540-c000-uart\0sifive,uart0";

	assert_string_equal(uart_find_driver(compat, sizeof(compat))->compatible, "sifive,uart0");
	regs[2] = 0x10001;			/* txctrl: txen, txcnt 1 (firmware's) */
	regs[3] = 0x30000;			/* rxctrl: off, rxcnt 3 */
	assert_int_equal(console_setup("sifive,uart0", (uintptr_t)regs, 0), 0);
	assert_int_equal(regs[2], 0x10001);	/* transmit left as the firmware set it */
	assert_int_equal(regs[3], 1);		/* receive on, watermark 0: one byte interrupts */
	console_write("s", 1);
	assert_int_equal(regs[0], 's');
	console_write("\n", 1);
	assert_int_equal(regs[0], '\n');
	regs[1] = 0x80000000u | 'x';		/* rxdata: empty flag set, stale byte ignored */
	assert_int_equal(console_getc(), -1);
	regs[1] = 'y';
	assert_int_equal(console_getc(), 'y');
	regs[1] = 0xff;				/* a byte 0xff is data, not "empty" */
	assert_int_equal(console_getc(), 0xff);
	console_rx_irq(true);
	assert_int_equal(regs[4], 2);		/* ie.rxwm */
	console_rx_irq(false);
	assert_int_equal(regs[4], 0);
	assert_string_equal(console_name(), "sifive,uart0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(driver_lookup_by_compatible_list),
		cmocka_unit_test(pl011_writes_dr_and_expands_newlines),
		cmocka_unit_test(ns16550_uses_reg_shift),
		cmocka_unit_test(dw_apb_uart_uses_words_and_reg_shift),
		cmocka_unit_test(sifive_uart0_flags_enable_and_rx_irq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
