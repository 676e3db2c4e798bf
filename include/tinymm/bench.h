/*
 * bench.h - `make bench` (kernel/bench.c, docs/benchmarks.md).  boot/main.c reads arch_instret()
 * around memmap_init() + page_alloc_init() and leaves the difference here for init-per-frame.
 */
#ifndef TINYMM_BENCH_H
#define TINYMM_BENCH_H

#include "kernel.h"

extern uint64_t bench_init_instret;

/* @stmt's instructions into @slot (arch_instret(): exact under QEMU -icount). */
#define BENCH_MEASURE(slot, stmt) do {					\
		uint64_t t0_ = arch_instret();				\
		stmt;							\
		(slot) = (uint32_t)(arch_instret() - t0_);		\
	} while (0)

/* One row from @n samples: each less @overhead, sorted, min / lower median / max (bench.c). */
void bench_summary(const char *op, uint32_t *s, int n, uint32_t overhead);
/* The kernel core's rows (kernel/bench_core.c): locks, wake-ups, timers, a switch.  0 or 1. */
int bench_core(void);
/* ext2's rows (fs/bench_fs.c): a cached 4 KiB read and a cached three-component lookup on
 * ram0's sample filesystem.  0 or 1. */
int bench_fs(void);
/* The page-fault rows (kernel/bench_fault.c): fault-anon, fault-file-minor.  0 or 1. */
int bench_fault(void);
/* compact-64mib (kernel/bench_compact.c): compact_node() over a zone with 64 MiB fragmented.
 * 0 or 1. */
int bench_compact(void);
/* `bench pcp [quick]`: order-0 calls and zone-lock holds per pcp batch and scale
 * (kernel/bench_pcp.c).  0 or 1. */
int bench_pcp(bool quick);
/* smp-order0-1cpu / smp-order0-2cpu, ops/s (kernel/bench_smp.c): needs CPUs 0 and 1.  0 or 1. */
int bench_smp(void);

/*
 * The syscall-getpid row (kernel/bench_user.c): a user program from the architecture, loaded
 * at BENCH_USER_BASE in an anonymous RWX area of two pages: it reads an unsigned long count
 * at BENCH_USER_COUNT, makes that many getpid system calls in a loop, then exit_group(0).
 * @loop_insns: the instructions of one iteration other than the system call itself (the
 * ecall / svc).  arch/<arch>/bench_user.c defines arch_bench_getpid_prog(); kernel/bench_user.c
 * is built only where that file exists, so bench_user() is weak: absent, the row is left out.
 */
#define BENCH_USER_BASE		0x10000UL
#define BENCH_USER_COUNT	(BENCH_USER_BASE + 0x400)
struct bench_user_prog {
	const uint32_t *code;
	unsigned int ninsns;
	unsigned int loop_insns;
};
const struct bench_user_prog *arch_bench_getpid_prog(void);
int bench_user(void) __attribute__((weak));
/* The exec-hello row (kernel/bench_exec.c): /bin/hello from spawn to exit; left out (0) when
 * there is no /bin/hello.  Weak: built only with the user-task sources.  0 or 1. */
int bench_exec(void) __attribute__((weak));
/* fork's rows (kernel/bench_fork.c): fault-cow, fork-exit.  Weak: built only with the
 * user-task sources.  0 or 1. */
int bench_fork(void) __attribute__((weak));
/* Instructions of one 4 KiB memcpy, the least of 64 (less @overhead): what a row subtracts for a
 * copy that is not its subject (kernel/bench_fork.c). */
uint32_t bench_copy_cost(uint32_t overhead);
/* The swap rows (kernel/bench_swap.c): swapout-4k, swapin-4k, on ram3.  Weak, as bench_fork. */
int bench_swap(void) __attribute__((weak));
/* The migration row (kernel/bench_migrate.c): migrate-4k.  Weak, as bench_fork. */
int bench_migrate(void) __attribute__((weak));

#endif
