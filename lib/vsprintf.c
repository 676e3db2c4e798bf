/*
 * vsprintf.c - the kernel's formatter: kvsnprintf()/ksnprintf().
 *
 * Supports what kernel code prints: %d %i %u %x %X %o %c %s %p %%, the length modifiers
 * hh h l ll z t j, flags '-' '0' '+' ' ' '#', a field width and a precision (also as '*').
 * No floating point (the kernel has none).  %p prints 0x and the pointer in hex, zero-padded
 * to the pointer width, like Linux's %px (tinymm has no pointer hashing: there is no secret).
 *
 * Invariants: never writes more than @size bytes, always NUL-terminates when size > 0, returns
 * the length the full output would have had (C99 semantics).  Locking: none (pure function).
 */
#include <stdarg.h>
#include <stdint.h>
#include "tinymm/printk.h"

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

struct spec {
	bool left, zero, plus, space, alt;
	int width, prec;	/* prec < 0: none */
};

static void put_str(struct out *o, const char *s, const struct spec *sp)
{
	size_t n = 0;

	if (!s)
		s = "(null)";
	while (s[n] && (sp->prec < 0 || n < (size_t)sp->prec))
		n++;
	if (!sp->left)
		pad(o, ' ', sp->width - (int)n);
	for (size_t i = 0; i < n; i++)
		put(o, s[i]);
	if (sp->left)
		pad(o, ' ', sp->width - (int)n);
}

static void put_num(struct out *o, uint64_t v, bool neg, unsigned base, bool upper,
		    const struct spec *sp, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, plen = 0, zeros = 0;
	char sign = neg ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (sp->prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;				/* "%.0d" of 0 prints nothing, as in C */
	if (sp->prec > n)
		zeros = sp->prec - n;
	if (prefix)
		while (prefix[plen])
			plen++;
	int body = n + zeros + plen + (sign ? 1 : 0);
	if (sp->zero && !sp->left && sp->prec < 0 && sp->width > body) {
		zeros += sp->width - body;
		body = sp->width;
	}
	if (!sp->left)
		pad(o, ' ', sp->width - body);
	if (sign)
		put(o, sign);
	for (int i = 0; i < plen; i++)
		put(o, prefix[i]);
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, ' ', sp->width - body);
}

enum len { L_INT, L_CHAR, L_SHORT, L_LONG, L_LLONG, L_SIZE, L_PTRDIFF, L_MAX };

static uint64_t get_unsigned(va_list *ap, enum len l)
{
	switch (l) {
	case L_CHAR:	return (unsigned char)va_arg(*ap, unsigned int);
	case L_SHORT:	return (unsigned short)va_arg(*ap, unsigned int);
	case L_LONG:	return va_arg(*ap, unsigned long);
	case L_LLONG:	return va_arg(*ap, unsigned long long);
	case L_SIZE:	return va_arg(*ap, size_t);
	case L_PTRDIFF:	return (uint64_t)va_arg(*ap, ptrdiff_t);
	case L_MAX:	return va_arg(*ap, uintmax_t);
	default:	return va_arg(*ap, unsigned int);
	}
}

static int64_t get_signed(va_list *ap, enum len l)
{
	switch (l) {
	case L_CHAR:	return (signed char)va_arg(*ap, int);
	case L_SHORT:	return (short)va_arg(*ap, int);
	case L_LONG:	return va_arg(*ap, long);
	case L_LLONG:	return va_arg(*ap, long long);
	case L_SIZE:	return (int64_t)va_arg(*ap, size_t);	/* %zd: ssize_t has size_t's width */
	case L_PTRDIFF:	return va_arg(*ap, ptrdiff_t);
	case L_MAX:	return va_arg(*ap, intmax_t);
	default:	return va_arg(*ap, int);
	}
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap_in)
{
	struct out o = { buf, size, 0 };
	va_list ap;

	va_copy(ap, ap_in);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt++;
		struct spec sp = { .prec = -1 };
		for (;; fmt++) {
			if (*fmt == '-') sp.left = true;
			else if (*fmt == '0') sp.zero = true;
			else if (*fmt == '+') sp.plus = true;
			else if (*fmt == ' ') sp.space = true;
			else if (*fmt == '#') sp.alt = true;
			else break;
		}
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = true;
				sp.width = -sp.width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				sp.width = sp.width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			sp.prec = 0;
			if (*fmt == '*') {
				sp.prec = va_arg(ap, int);
				if (sp.prec < 0)
					sp.prec = -1;
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					sp.prec = sp.prec * 10 + (*fmt++ - '0');
			}
		}
		enum len l = L_INT;
		switch (*fmt) {
		case 'h': l = (fmt[1] == 'h') ? (fmt++, L_CHAR) : L_SHORT; fmt++; break;
		case 'l': l = (fmt[1] == 'l') ? (fmt++, L_LLONG) : L_LONG; fmt++; break;
		case 'z': l = L_SIZE; fmt++; break;
		case 't': l = L_PTRDIFF; fmt++; break;
		case 'j': l = L_MAX; fmt++; break;
		}
		char c = *fmt;
		if (!c)
			break;
		fmt++;
		switch (c) {
		case 'd':
		case 'i': {
			int64_t v = get_signed(&ap, l);
			uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			put_num(&o, mag, v < 0, 10, false, &sp, NULL);
			break;
		}
		case 'u':
			put_num(&o, get_unsigned(&ap, l), false, 10, false, &sp, NULL);
			break;
		case 'x':
		case 'X': {
			uint64_t v = get_unsigned(&ap, l);
			put_num(&o, v, false, 16, c == 'X', &sp,
				sp.alt && v ? (c == 'X' ? "0X" : "0x") : NULL);
			break;
		}
		case 'o': {
			uint64_t v = get_unsigned(&ap, l);
			put_num(&o, v, false, 8, false, &sp, sp.alt && v ? "0" : NULL);
			break;
		}
		case 'p': {
			struct spec ps = sp;
			ps.zero = false;
			ps.prec = (int)sizeof(void *) * 2;
			put_num(&o, (uintptr_t)va_arg(ap, void *), false, 16, false, &ps, "0x");
			break;
		}
		case 'c': {
			char ch = (char)va_arg(ap, int);
			if (!sp.left)
				pad(&o, ' ', sp.width - 1);
			put(&o, ch);
			if (sp.left)
				pad(&o, ' ', sp.width - 1);
			break;
		}
		case 's':
			put_str(&o, va_arg(ap, const char *), &sp);
			break;
		case '%':
			put(&o, '%');
			break;
		default:		/* unknown conversion: print it, so the mistake is visible */
			put(&o, '%');
			put(&o, c);
			break;
		}
	}
	va_end(ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
