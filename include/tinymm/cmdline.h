/*
 * cmdline.h - the kernel command line (/chosen/bootargs).
 *
 * tinymm.run=<commands> takes the rest of the line; tinymm.test=<glob> selects KTAP suites;
 * every other tinymm.<name>=<value> is looked up among the parameters files register with
 * KPARAM(); an unknown tinymm.* option is a warning.  Words without "tinymm." are ignored (they
 * belong to somebody else, as Linux leaves unknown words to init).
 */
#ifndef TINYMM_CMDLINE_H
#define TINYMM_CMDLINE_H

#include "kernel.h"

struct kparam {
	const char *name;			/* without the "tinymm." prefix */
	int (*set)(const char *val);		/* 0, or < 0 if @val is bad */
	const char *help;
};

#define KPARAM(_name, _set, _help)						\
	static const struct kparam __kparam_##_name __used			\
	__section(TABLE_SECTION_kparams(_name)) __attribute__((aligned(sizeof(void *)))) =	\
		{ #_name, _set, _help }

#ifdef TINYMM_HOST
/* Host builds have no linker script: the linker's own __start_/__stop_ symbols bound the section
 * (which is why the section name there is a plain identifier). */
#define __kparams_start __start_kparams
#define __kparams_end __stop_kparams
extern const struct kparam __kparams_start[] __attribute__((weak)), __kparams_end[] __attribute__((weak));
#define TABLE_SECTION_kparams(name) "kparams"
#else
extern const struct kparam __kparams_start[], __kparams_end[];
#define TABLE_SECTION_kparams(name) ".kparams." #name
#endif

struct boot_args {
	const char *run;	/* NULL if absent */
	const char *test;	/* NULL if absent */
	int nr_warnings;
};

/*
 * Parse @line in place (it is modified: values get NUL-terminated).  Parameters are looked up in
 * [@params, @params_end); @warn is called for each bad or unknown tinymm option.
 */
void cmdline_parse(char *line, struct boot_args *out, const struct kparam *params,
		   const struct kparam *params_end, void (*warn)(const char *msg, const char *word));

/* Parse a decimal or 0x-hex unsigned number; the whole string must be the number.  0 / -1. */
int kstrtoull(const char *s, unsigned long long *out);
/* The same for an unsigned long: -1 also when the number does not fit. */
int kstrtoul(const char *s, unsigned long *out);

#endif
