/*
 * cmdline.c - splits the kernel command line into tinymm's options (see cmdline.h).
 * Locking: none; parsed once at boot.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/printk.h"

#define PREFIX "tinymm."

int kstrtoul(const char *s, unsigned long *out)
{
	unsigned long long x;

	if (kstrtoull(s, &x) || x > (unsigned long)-1)
		return -1;
	*out = (unsigned long)x;
	return 0;
}

int kstrtoull(const char *s, unsigned long long *out)
{
	unsigned long long v = 0;
	unsigned base = 10;

	if (!s || !*s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -1;
	}
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		if (v > (~0ULL - d) / base)
			return -1;		/* overflow */
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int memparse(const char *s, unsigned long long *out)
{
	static const char suffixes[] = "KMGTPE";
	char num[24], last;
	size_t len = s ? strlen(s) : 0;
	unsigned shift = 0;
	bool hex;

	if (!len || len >= sizeof(num))
		return -1;
	memcpy(num, s, len + 1);
	hex = num[0] == '0' && (num[1] == 'x' || num[1] == 'X');
	last = (char)(num[len - 1] & ~0x20);		/* upper case, for a letter */
	/* In a hex number a last 'e' is a digit (as simple_strtoull reads it), not exa. */
	if (last >= 'A' && last <= 'Z' && strchr(suffixes, last) && !(hex && last == 'E')) {
		shift = 10 * (unsigned)(strchr(suffixes, last) - suffixes + 1);
		num[--len] = '\0';
	}
	if (kstrtoull(num, out) || (shift && *out > (~0ULL >> shift)))
		return -1;
	*out <<= shift;
	return 0;
}

/* Store @v (already in range) in a typed parameter's variable, whatever its width. */
static void kparam_store(const struct kparam *kp, unsigned long long v)
{
	switch (kp->size) {
	case 1: *(uint8_t *)kp->var = (uint8_t)v; break;
	case 2: *(uint16_t *)kp->var = (uint16_t)v; break;
	case 4: *(uint32_t *)kp->var = (uint32_t)v; break;
	default: *(uint64_t *)kp->var = v; break;
	}
}

/* 0; -1: not a value of @kp's kind; -2: a number out of @kp's range (nothing stored either way). */
static int kparam_set(const struct kparam *kp, const char *val)
{
	unsigned long long v;

	switch (kp->type) {
	case KPARAM_T_BOOL:
		if (strcmp(val, "0") && strcmp(val, "1"))
			return -1;
		*(bool *)kp->var = val[0] == '1';
		return 0;
	case KPARAM_T_UINT:
		if (kstrtoull(val, &v))
			return -1;
		if (v < kp->min || v > kp->max)
			return -2;
		kparam_store(kp, v);
		return 0;
	default:
		return kp->set(val) < 0 ? -1 : 0;
	}
}

static void warn_line(void (*warn)(const char *line), const char *fmt, ...) __printf(2, 3);
static void warn_line(void (*warn)(const char *line), const char *fmt, ...)
{
	char line[160];
	va_list ap;

	if (!warn)
		return;
	va_start(ap, fmt);
	kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	warn(line);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void cmdline_parse(char *p, struct boot_args *out, const struct kparam *params,
		   const struct kparam *params_end, void (*warn)(const char *line))
{
	out->run = out->test = NULL;
	out->nr_warnings = 0;
	while (*p) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		char *word = p;
		if (!strncmp(word, PREFIX "run=", strlen(PREFIX "run="))) {
			/* The value is the rest of the line, trailing blanks dropped. */
			char *v = word + strlen(PREFIX "run="), *e = v + strlen(v);
			while (e > v && is_space(e[-1]))
				*--e = '\0';
			out->run = v;
			return;
		}
		while (*p && !is_space(*p))
			p++;
		if (*p)
			*p++ = '\0';
		bool bare = strncmp(word, PREFIX, strlen(PREFIX)) != 0;
		char *name = bare ? word : word + strlen(PREFIX), *eq = strchr(name, '=');
		const char *val = "";
		if (eq) {
			*eq = '\0';
			val = eq + 1;
		}
		if (!bare && !strcmp(name, "test")) {
			out->test = val;
			continue;
		}
		const struct kparam *kp;
		for (kp = params; kp < params_end; kp++)
			if (kp->bare == bare && !strcmp(kp->name, name))
				break;
		if (bare && (kp == params_end || !eq))
			continue;		/* somebody else's word (Linux: init's) */
		if (kp == params_end) {
			out->nr_warnings++;
			warn_line(warn, "unknown option '" PREFIX "%s'", name);
			continue;
		}
		switch (kparam_set(kp, val)) {
		case -1:
			out->nr_warnings++;
			warn_line(warn, "bad value for option '%s%s'", bare ? "" : PREFIX, name);
			break;
		case -2:
			out->nr_warnings++;
			warn_line(warn, PREFIX "%s=%s out of range (%lu-%lu), default kept", name, val,
				  kp->min, kp->max);
			break;
		}
	}
}
