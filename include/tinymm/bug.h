/*
 * bug.h - panic(), BUG(), WARN() with Linux's shape of output (kernel/panic.c).
 *
 *   WARN_ON(cond)      if cond: "------------[ cut here ]------------", "WARNING: CPU: 0 at
 *                      file:line func", registers-free backtrace, "---[ end trace ]---"; goes on.
 *   WARN_ON_ONCE(cond) the same, the first time only (per call site).
 *   WARN(cond, fmt, ...) the same, the formatted message ending the "WARNING:" line (v6.10
 *                      prints it on a line of its own before; one line is what checks grep).
 *   BUG_ON(cond), BUG() "kernel BUG at file:line!", backtrace, then panic: power-off with 1.
 *   panic(fmt, ...)    "Kernel panic - not syncing: <msg>", backtrace, power-off with status 1.
 * Inside a KTAP case, BUG() and panic() (and unexpected traps) end the case as "not ok" instead
 * of the machine, unless the case expected them (KTEST_EXPECT_BUG).
 * WARN_ON()/WARN_ON_ONCE() are expressions: they return the condition, as in Linux.
 */
#ifndef TINYMM_BUG_H
#define TINYMM_BUG_H

#include "kernel.h"

__noreturn void panic(const char *fmt, ...) __printf(1, 2);
__noreturn void __bug(const char *file, int line, const char *func);
void __warn(const char *file, int line, const char *func, const char *cond);
void __warn_printf(const char *file, int line, const char *fmt, ...) __printf(3, 4);
/* WARN_ON()s reported since boot (tests check that a warning happened). */
unsigned long nr_warnings(void);
/* Print the current call chain ("Call trace:" and one "[<pc>] symbol+off/size" line per frame). */
void dump_stack(void);

#define BUG()		__bug(__FILE__, __LINE__, __func__)
#define BUG_ON(cond)	do { if (unlikely(cond)) BUG(); } while (0)

#define WARN_ON(cond) __extension__ ({						\
	int __ret_warn = !!(cond);							\
	if (unlikely(__ret_warn))							\
		__warn(__FILE__, __LINE__, __func__, #cond);				\
	unlikely(__ret_warn);								\
})

#define WARN(cond, fmt, ...) __extension__ ({					\
	int __ret_warn = !!(cond);							\
	if (unlikely(__ret_warn))							\
		__warn_printf(__FILE__, __LINE__, fmt, ##__VA_ARGS__);			\
	unlikely(__ret_warn);								\
})

#define WARN_ON_ONCE(cond) __extension__ ({					\
	static bool __warned;								\
	int __ret_warn_once = !!(cond);							\
	if (unlikely(__ret_warn_once) && !__warned) {					\
		__warned = true;							\
		__warn(__FILE__, __LINE__, __func__, #cond);				\
	}										\
	unlikely(__ret_warn_once);							\
})

#endif
