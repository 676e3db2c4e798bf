/*
 * console.h - the one console: a UART found through /chosen/stdout-path (or the board's early
 * UART before the device tree is read).  Polled: no interrupts yet.
 */
#ifndef TINYMM_CONSOLE_H
#define TINYMM_CONSOLE_H

#include "kernel.h"

struct uart_driver {
	const char *compatible;
	void (*init)(uintptr_t base, unsigned shift);
	void (*putc)(uintptr_t base, unsigned shift, char c);
	int (*getc)(uintptr_t base, unsigned shift);	/* -1 if nothing is waiting */
};

/* Make the UART at @base (driver chosen by @compatible) the console.  0, or -1 if no driver. */
int console_setup(const char *compatible, uintptr_t base, unsigned reg_shift);
const char *console_name(void);
uintptr_t console_base(void);

void console_write(const char *s, size_t n);	/* "\n" goes out as "\r\n" */
int console_getc(void);				/* -1 if nothing is waiting */

/* Finds a driver for any string of a NUL-separated compatible list of @len bytes. */
const struct uart_driver *uart_find_driver(const char *compat_list, int len);

#endif
