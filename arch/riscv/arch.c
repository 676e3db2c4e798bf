/*
 * arch.c - the RISC-V side of include/tinymm/arch.h (RV32 and RV64, S-mode): the `time`
 * counter, and the report for a trap in tinymm's own M-mode start (S-mode traps: traps.c).
 * Power-off: the board's device (sifive,test0), else poweroff.c (semihosting, SBI SRST).
 */
#include "asm/counter.h"
#include "tinymm/arch.h"
#include "tinymm/board_config.h"
#include "tinymm/console.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"

#if __riscv_xlen == 64
const char arch_name[] = "rv64";
#else
const char arch_name[] = "rv32";
#endif

void arch_early_init(void)
{
	/* stvec is set in entry.S before C runs. */
}

uint64_t arch_counter_read(void)
{
	return riscv_read_counter64(time);
}

uint64_t arch_counter_freq(void)
{
	return 0;	/* the device tree's /cpus/timebase-frequency says */
}

void arch_cpu_relax(void)
{
	__asm__ __volatile__("wfi");
}

/* wfi wakes on any interrupt pending and enabled in `sie`, even with sstatus.SIE clear. */
void arch_cpu_idle(void)
{
	__asm__ __volatile__("wfi" ::: "memory");
}

const char *riscv_cause_name(unsigned long cause);

/* M-mode trap during mstart.S (RV32 without firmware): nothing is set up, use the board's UART. */
#define W (int)(sizeof(long) * 2)

void riscv_mtrap(unsigned long mcause, unsigned long mtval, unsigned long mepc);
void riscv_mtrap(unsigned long mcause, unsigned long mtval, unsigned long mepc)
{
	console_setup(BOARD_EARLY_UART_COMPAT, BOARD_EARLY_UART_BASE, 0);
	printk(KERN_EMERG "Unhandled M-mode trap: %s (mcause 0x%0*lx) mtval 0x%0*lx mepc 0x%0*lx\n",
	       riscv_cause_name(mcause), W, mcause, W, mtval, W, mepc);
	if (BOARD_EXIT_BASE)
		sifive_test_poweroff(BOARD_EXIT_BASE, 1);
	for (;;)
		;
}

