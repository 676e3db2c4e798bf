/*
 * bench_user.c - the ARM user program of the syscall-getpid bench row (include/tinymm/bench.h,
 * kernel/bench_user.c): um_bench_getpid in usermode_progs.S, N getpid svcs then exit_group(0).
 * Three instructions an iteration besides the svc: mov r7, subs, bne.  The instructions are
 * PMU event counter 0 (INST_RETIRED at every privilege level, arch/arm/pmu.c): exact under
 * QEMU -icount, 0 without it.
 */
#include "tinymm/bench.h"
#include "usermode_progs.h"

const struct bench_user_prog *arch_bench_getpid_prog(void)
{
	static struct bench_user_prog prog = { .loop_insns = 3 };

	prog.code = (const uint32_t *)(const void *)um_bench_getpid;
	prog.ninsns = (unsigned int)(um_bench_getpid_end - um_bench_getpid) / sizeof(uint32_t);
	return &prog;
}
