/*
 * bench_user.c - the RISC-V user program of the syscall-getpid bench row (include/tinymm/bench.h,
 * kernel/bench_user.c): N getpid ecalls, then exit_group(0).  Three instructions an iteration
 * besides the ecall: li a7, addi, bnez.
 */
#include "insn.h"
#include "tinymm/bench.h"
#include "tinymm/kernel.h"
#include "tinymm/uapi/unistd.h"

static const uint32_t getpid_loop[] = {
	LUI(R_T0, BENCH_USER_COUNT >> 12),
	REG_LOAD(R_T1, R_T0, BENCH_USER_COUNT & 0xfff),
	BEQ_FWD(R_T1, R_ZERO, 20),			/* to done */
	/* loop: */
	ADDI(R_A7, R_ZERO, __NR_getpid),
	ECALL,
	ADDI(R_T1, R_T1, -1),
	BNE_BACK(R_T1, R_ZERO, 12),
	/* done: */
	ADDI(R_A0, R_ZERO, 0),
	ADDI(R_A7, R_ZERO, __NR_exit_group),
	ECALL,
};

static const struct bench_user_prog prog = { getpid_loop, ARRAY_SIZE(getpid_loop), 3 };

const struct bench_user_prog *arch_bench_getpid_prog(void)
{
	return &prog;
}
