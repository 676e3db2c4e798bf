/*
 * printk.h - kernel log output with Linux's log levels.
 *
 * printk() lines carry a "[    0.123456] " timestamp from the architected counter and are
 * filtered by tinymm.loglevel (default 7: everything but debug).  Shell output and KTAP go
 * through kprintf(), bare: no timestamp, no level (the contract needs them exact).
 */
#ifndef TINYMM_PRINTK_H
#define TINYMM_PRINTK_H

#include <stdarg.h>
#include <stddef.h>
#include "kernel.h"

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"	/* continues the previous line, at its level */

#define LOGLEVEL_DEFAULT 4	/* level of a printk() without a prefix, as in Linux */

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);

extern int console_loglevel;	/* messages with level < this are printed */

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

/* lib/vsprintf.c (k-prefixed so host tests can compare with the C library's snprintf): %d %i %u %x %X %o %p %s %c %% with l, ll, z, h, hh; width, -, 0, precision
 * for %s.  Always NUL-terminates (when size > 0); returns the length that would be written. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif
