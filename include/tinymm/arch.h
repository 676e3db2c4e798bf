/*
 * arch.h - the whole interface the portable kernel (boot/, kernel/, mm/, drivers/) needs from
 * an architecture.  Each arch/<arch>/ implements it; nothing else in arch/ is visible.
 */
#ifndef TINYMM_ARCH_H
#define TINYMM_ARCH_H

#include "kernel.h"

/* Name printed in the banner ("armv7-a", "rv64", "rv32"). */
extern const char arch_name[];

/* Called once, first thing in kmain(), before the console: exception vectors, CPU features. */
void arch_early_init(void);

/*
 * Called once the memory map (memblock) is known, before the first atomic or lock: ARM turns
 * on the MMU and caches here (exclusives need Normal memory); RISC-V has nothing to do.
 */
void arch_mm_init(void);

/* Free-running architected counter (ARM CNTVCT, RISC-V `time`) and its frequency in Hz if the
 * CPU knows it (ARM CNTFRQ); 0 means "ask the device tree" (RISC-V timebase-frequency). */
uint64_t arch_counter_read(void);
uint64_t arch_counter_freq(void);

/* Instructions retired on this CPU since some fixed point, for `make bench` (kernel/bench.c):
 * RISC-V `instret`, ARM PMU event 0x08 (INST_RETIRED).  Only differences mean anything.  Under
 * QEMU exact only with -icount (ARM: 0 without it). */
uint64_t arch_instret(void);

/* Power off with @status if the architecture has its own way (ARM semihosting); returns if not. */
void arch_poweroff(int status);

/* Wait for an interrupt or just spin: used by idle polling loops. */
void arch_cpu_relax(void);

/* MMIO accessors: the single place device registers are touched. */
static inline uint32_t readl(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void writel(uint32_t v, uintptr_t a) { *(volatile uint32_t *)a = v; }
static inline uint8_t readb(uintptr_t a) { return *(volatile uint8_t *)a; }
static inline void writeb(uint8_t v, uintptr_t a) { *(volatile uint8_t *)a = v; }

#endif
