/*
 * bench.h - `make bench` (kernel/bench.c, docs/benchmarks.md).  boot/main.c reads arch_instret()
 * around memmap_init() + page_alloc_init() and leaves the difference here for init-per-frame.
 */
#ifndef TINYMM_BENCH_H
#define TINYMM_BENCH_H

#include "kernel.h"

extern uint64_t bench_init_instret;

#endif
