/*
 * sysfuzz.h - what the two halves of sysfuzz share (user/sysfuzz.c: the driver, its state and
 * the results; user/sysfuzz_calls.c: the argument generators and one call of each kind).
 */
#ifndef SYSFUZZ_H
#define SYSFUZZ_H
#include <stdbool.h>
#include <stdint.h>

#define PAGE		4096UL
#define WIN_PAGES	64UL
#define WIN_SIZE	(WIN_PAGES * PAGE)
#define TOP		"/mnt/sysfuzz"
#define MAX_FDS		24
#define MAX_MAPS	64

extern uint64_t rng_state;
extern uintptr_t win;			/* the scratch window: [win, win + WIN_SIZE) */
extern long fds[MAX_FDS];
extern int nfds;
extern long start_brk;
extern unsigned long calls, out_of_range;	/* calls made; results (or children) that were wrong */
extern char long_path[5000];

/* sysfuzz.c: a result counted (a value, or -errno in [-4095, -1]; @addr: mmap's and brk's
 * addresses may have the top bit set), the fds and mappings the calls made (given back at the
 * end), and the call itself, traced from the optional third argument on. */
void record_as(long r, const char *what, bool addr);
void record(long r, const char *what);
void add_fd(long fd);
void drop_fd(long fd);
void add_map(long addr, unsigned long len);
unsigned long mapped_pages(void);
long traced(long n, long a, long b, long c, long d, long e, long f);
#define SYS(...)	traced(__VA_ARGS__)

/* sysfuzz_calls.c: one call drawn from the implemented list (or a number nothing implements). */
void one_call(void);

#endif
