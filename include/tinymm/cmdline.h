/*
 * cmdline.h - the kernel command line (/chosen/bootargs).
 *
 * tinymm.run=<commands> takes the rest of the line; tinymm.test=<glob> selects KTAP suites;
 * every other tinymm.<name>=<value> is looked up among the parameters files register with
 * KPARAM_UINT() / KPARAM_BOOL() (a variable and its range) or KPARAM() (a setter of their own);
 * an unknown tinymm.* option, a bad value or one out of range is one warning line.  A few of
 * Linux's own options keep Linux's bare name (EARLY_PARAM(): `mem=`); every other word without
 * "tinymm." is ignored (it belongs to somebody else, as Linux leaves unknown words to init).
 */
#ifndef TINYMM_CMDLINE_H
#define TINYMM_CMDLINE_H

#include "kernel.h"

enum kparam_type {
	KPARAM_CALL,		/* set() decides (choices, units, side effects) */
	KPARAM_T_UINT,		/* a decimal or 0x number in [min, max] stored in *var */
	KPARAM_T_BOOL,		/* "0" or "1" stored in the bool *var */
};

struct kparam {
	const char *name;			/* without the "tinymm." prefix */
	int (*set)(const char *val);		/* KPARAM_CALL: 0, or < 0 if @val is bad */
	const char *help;
	void *var;				/* the typed kinds: the variable set */
	unsigned long min, max;			/* KPARAM_T_UINT: the range accepted */
	unsigned char type;			/* enum kparam_type */
	unsigned char size;			/* sizeof(*var): 1, 2, 4 or 8 */
	bool bare;				/* Linux's name, no "tinymm." prefix */
};

#define __KPARAM(_name, ...)							\
	static const struct kparam __kparam_##_name __used			\
	__section(TABLE_SECTION_kparams(_name)) __attribute__((aligned(sizeof(void *)))) =	\
		{ .name = #_name, __VA_ARGS__ }

/* A parameter with a setter of its own: use it only when the value needs more than a range
 * check (choices, a unit conversion, side effects); say why next to it. */
#define KPARAM(_name, _set, _help)	__KPARAM(_name, .set = (_set), .help = (_help))

/*
 * One of Linux's own options under its own name, without "tinymm." (v6.10's early_param(), e.g.
 * `mem=`): @_set gets the value, and a negative return is "bad value for option '<name>'".
 */
#define EARLY_PARAM(_name, _set, _help)	\
	__KPARAM(_name, .set = (_set), .help = (_help), .bare = true)

/*
 * tinymm.<name>=<number> into the unsigned (or never negative int) variable @_var.  A number
 * outside [@_min, @_max] is one warning naming the range and leaves @_var as it was; anything
 * else that is not a number is "bad value for option".
 */
#define KPARAM_UINT(_name, _var, _min, _max, _help)					\
	__KPARAM(_name, .help = (_help), .var = (void *)&(_var), .min = (_min), .max = (_max), \
		 .type = KPARAM_T_UINT,							\
		 .size = sizeof(_var) + 0 * sizeof(char[(_max) >= (_min) ? 1 : -1]))

/* tinymm.<name>=0|1 into the bool @_var; any other value is "bad value for option". */
#define KPARAM_BOOL(_name, _var, _help)							\
	__KPARAM(_name, .help = (_help), .var = (void *)&(_var), .max = 1,		\
		 .type = KPARAM_T_BOOL,							\
		 .size = sizeof(_var) + 0 * sizeof(char[sizeof(_var) == sizeof(bool) ? 1 : -1]))

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
 * [@params, @params_end); @warn gets one line (no newline) for each unknown tinymm option, bad
 * value or value out of range: "unknown option 'tinymm.bogus'", "bad value for option
 * 'tinymm.loglevel'", "tinymm.pcp_batch=0 out of range (1-1024), default kept".
 */
void cmdline_parse(char *line, struct boot_args *out, const struct kparam *params,
		   const struct kparam *params_end, void (*warn)(const char *line));

/* Parse a decimal or 0x-hex unsigned number; the whole string must be the number.  0 / -1. */
int kstrtoull(const char *s, unsigned long long *out);
/* The same for an unsigned long: -1 also when the number does not fit. */
int kstrtoul(const char *s, unsigned long *out);
/*
 * v6.10's memparse(), strict: a decimal or 0x number with at most one suffix K, M, G, T, P or E
 * (either case: << 10, 20, ...) and nothing after it, into *@out.  0, or -1 for anything else,
 * an overflow included.
 */
int memparse(const char *s, unsigned long long *out);

#endif
