/*
 * console.h - the one console: a UART found through /chosen/stdout-path (or the board's early
 * UART before the device tree is read).  Output is polled; input is polled or, once
 * console_irq_init() found the UART's interrupt, the reader sleeps until it fires.
 */
#ifndef TINYMM_CONSOLE_H
#define TINYMM_CONSOLE_H

#include "kernel.h"

struct uart_driver {
	const char *compatible;
	void (*init)(uintptr_t base, unsigned shift);
	void (*putc)(uintptr_t base, unsigned shift, char c);
	int (*getc)(uintptr_t base, unsigned shift);	/* -1 if nothing is waiting */
	void (*rx_irq)(uintptr_t base, unsigned shift, bool on);	/* receive interrupt */
};

/* Make the UART at @base (driver chosen by @compatible) the console.  0, or -1 if no driver. */
int console_setup(const char *compatible, uintptr_t base, unsigned reg_shift);
const char *console_name(void);
uintptr_t console_base(void);
/* The console UART's physical address, as boot/main.c mapped it into the fixmap (Linux's
 * uart_port.mapbase): the board's early UART, then /chosen/stdout-path's.  Targets only. */
phys_addr_t console_mapbase(void);

void console_write(const char *s, size_t n);	/* "\n" goes out as "\r\n" */
/* The same under the console lock (kernel/printk.c): not cut by a message from another CPU. */
void console_write_atomic(const char *s, size_t n);
int console_getc(void);				/* -1 if nothing is waiting */
void console_rx_irq(bool on);			/* the UART's receive interrupt on/off */

/* drivers/console_input.c (targets only): the console's receive interrupt from @node's
 * "interrupts"; then console_getc_wait() sleeps until a byte arrives. */
struct dt;
void console_irq_init(const struct dt *dt, int node);
int console_getc_wait(void);

/* Finds a driver for any string of a NUL-separated compatible list of @len bytes. */
const struct uart_driver *uart_find_driver(const char *compat_list, int len);

#endif
