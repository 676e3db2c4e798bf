/*
 * cmdline.c - splits the kernel command line into tinymm's options (see cmdline.h).
 * Locking: none; parsed once at boot.
 */
#include <string.h>
#include "tinymm/cmdline.h"

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

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void cmdline_parse(char *p, struct boot_args *out, const struct kparam *params,
		   const struct kparam *params_end, void (*warn)(const char *msg, const char *word))
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
		if (strncmp(word, PREFIX, strlen(PREFIX)))
			continue;
		char *name = word + strlen(PREFIX), *eq = strchr(name, '=');
		const char *val = "";
		if (eq) {
			*eq = '\0';
			val = eq + 1;
		}
		if (!strcmp(name, "test")) {
			out->test = val;
			continue;
		}
		const struct kparam *kp;
		for (kp = params; kp < params_end; kp++)
			if (!strcmp(kp->name, name))
				break;
		if (kp == params_end) {
			out->nr_warnings++;
			if (warn)
				warn("unknown option", name);
		} else if (kp->set(val) < 0) {
			out->nr_warnings++;
			if (warn)
				warn("bad value for option", name);
		}
	}
}
